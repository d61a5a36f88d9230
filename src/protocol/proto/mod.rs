//! The AG-UI protobuf binding (`application/vnd.ag-ui.event+proto`, spec digest §1.5), sans-IO
//! and behind the `protobuf` feature: a response body that is a sequence of frames, each a
//! 4-byte big-endian length and one encoded `ag_ui.Event` (`@ag-ui/proto` 1.0.0's schema).
//!
//! - [`ProtoFrames`] cuts the body into frames, whatever the chunking; a frame larger than the
//!   limit or a body ending mid-frame is an error.
//! - [`decode_frame`] turns one frame into the event object the reference decoder returns (the
//!   same JSON an SSE `data:` line carries; see `shape.rs` for the protobuf-only shapes rebuilt),
//!   [`decode_event`] goes on to the typed [`Event`] through enforcement.
//! - [`ProtoDecoder`] is the byte-level entry point a transport uses instead of
//!   [`Pipeline::push_bytes`] when [`is_proto_response`]: frames → JSON →
//!   [`Pipeline::push_value`], so compatibility, enforcement, chunk expansion, verification and
//!   the reducer are the SSE path's ("same processing pipeline after decoding as SSE"), and an
//!   event arriving either way folds to the same thread. It borrows the caller's [`Pipeline`].
//!
//! ## Decisions
//!
//! - **Absent fields** read as ts-proto reads them: a proto3 string as `""`, a repeated field as
//!   `[]`, an `optional` field or a message as absent. So a `TEXT_MESSAGE_START` without
//!   `message_id` is `{"messageId": ""}`, exactly what the TypeScript client hands its
//!   pipeline, and this client then treats it as it treats that JSON from SSE (an empty id is
//!   an id like any other there; a missing required Value, such as `STATE_SNAPSHOT.snapshot`,
//!   stays missing and enforcement refuses the event). Nothing is validated here that
//!   enforcement validates for both transports.
//! - **Numbers** in `google.protobuf.Value` / `Struct` are doubles: an integral one below 10^21
//!   becomes the JSON integer `JSON.stringify` would print (so `2^60` reads as
//!   `1152921504606847000`, as it would from a JavaScript producer's SSE), `-0` is `0`, `NaN`
//!   and infinities are `null`. `int64` fields (`timestamp`, token counts) are exact; out of the
//!   safe range enforcement rejects them, as the reference decoder does.
//! - **Strings** with invalid UTF-8 get U+FFFD (the reference decoder's non-fatal
//!   `TextDecoder`). A `Value` list element with no kind set is `null`, a `Struct` entry with
//!   none is left out.
//! - **Refused** (the stream fails, [`ProtocolError::Proto`]): bytes that are not protobuf
//!   (truncated varints or lengths, field number 0, wire types 6/7, unbalanced groups), a known
//!   field with another wire type (the reference decoder skips it; a producer that sends one is
//!   broken), JSON nested deeper than [`MAX_DEPTH`], an envelope with no or two events, an
//!   event without `base_event` or whose `base_event.type` names another event, a oneof with
//!   two arms, contradicting content carriers.
//! - **Skipped**: unknown fields anywhere; an envelope carrying only unknown arms that are
//!   well-formed messages (an event from a newer protocol) is dropped with an
//!   [`UnknownEvent`](super::WarningKind::UnknownEvent) warning, as over SSE; a content part
//!   naming no known arm is dropped with a [`Stripped`](super::WarningKind::Stripped) one.
//! - **A body ending mid-frame** inside a run is that run truncated ("connection lost", as
//!   over SSE); between runs it is [`ProtoError::EndedMidFrame`].
//! - **Merged**: a message field that occurs twice (later scalars win, lists append), as
//!   protobuf decoders do.
//! - **Not carried by the 1.0 schema**: `encryptedValueType` (1.1), on messages, tool calls and
//!   `REASONING_ENCRYPTED_VALUE`.
//!
//! ## Budgets
//!
//! - A frame's declared length plus its 4-byte prefix may be at most the limit (10 MiB, the
//!   reference client's, or [`PipelineOptions::max_frame_bytes`] when lower); larger is refused
//!   before any of it is buffered.
//! - A frame decodes to at most [`PipelineOptions::max_frame_bytes`] of JSON, roughly counted
//!   ([`DecodeError::TooLarge`]): proto3 defaults let two bytes stand for a message of four
//!   members, and this keeps a frame from building more than an SSE frame could carry.
//! - JSON nesting is at most [`MAX_DEPTH`] levels counted over the whole event — serde_json's
//!   own limit, so the SSE path accepts exactly the same depths. The decoder recurses only
//!   along that nesting; an unknown field's groups are skipped iteratively, as deep.

mod error;
mod schema;
mod shape;
mod wire;

use serde_json::Value;

use super::enforce::{enforce_event, Enforced, EventError};
use super::error::{ProtocolError, Warning};
use super::event::Event;
use super::front::{Wire, WireFront};
use super::pipeline::{Delivered, Pipeline, PipelineOptions};
use super::sse::DEFAULT_MAX_FRAME_BYTES;

pub use error::{DecodeError, ProtoError};
pub use schema::MAX_DEPTH;

/// The response media type of the protobuf binding.
pub const CONTENT_TYPE: &str = "application/vnd.ag-ui.event+proto";

/// An `Accept` header for a client that reads both bindings (SSE first: a producer must fall
/// back to it, and clients must always be ready for it).
pub const ACCEPT: &str = "text/event-stream, application/vnd.ag-ui.event+proto";

/// The reference client's frame limit: 10 MiB, the 4-byte length included.
pub const MAX_FRAME_BYTES: usize = 10 * 1024 * 1024;

/// True when the response is protobuf: its `Content-Type` is exactly [`CONTENT_TYPE`] (no
/// parameters, same case), the reference client's rule (spec digest §1.4); anything else,
/// absent included, is SSE.
pub fn is_proto_response(content_type: Option<&str>) -> bool {
    // Only the HTTP whitespace a header value may carry around it (fetch strips it anyway).
    content_type.is_some_and(|ct| ct.trim_matches([' ', '\t']) == CONTENT_TYPE)
}

/// One frame: its `ag_ui.Event` bytes, and where its length prefix started in the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtoFrame {
    pub offset: u64,
    pub payload: Vec<u8>,
}

/// Cuts a body into frames, fed in chunks split anywhere. Work is linear in the bytes fed;
/// what it holds is one partial frame, at most the limit. After a [`ProtoError::FrameTooLarge`]
/// the framing is lost: the rest of the body is ignored.
#[derive(Debug, Clone)]
pub struct ProtoFrames {
    limit: usize,
    header: [u8; 4],
    header_len: usize,
    /// The declared payload length, once the header is complete.
    declared: Option<usize>,
    payload: Vec<u8>,
    /// Stream offset of the current frame's first byte.
    offset: u64,
    failed: bool,
}

impl Default for ProtoFrames {
    fn default() -> Self {
        Self::new()
    }
}

impl ProtoFrames {
    /// Frames of at most [`MAX_FRAME_BYTES`].
    pub fn new() -> Self {
        Self::with_max_frame_bytes(MAX_FRAME_BYTES)
    }

    /// Frames whose length prefix plus payload is at most `limit` bytes.
    pub fn with_max_frame_bytes(limit: usize) -> Self {
        ProtoFrames {
            limit,
            header: [0; 4],
            header_len: 0,
            declared: None,
            payload: Vec::new(),
            offset: 0,
            failed: false,
        }
    }

    /// The limit this splitter enforces.
    pub fn max_frame_bytes(&self) -> usize {
        self.limit
    }

    /// Feed body bytes; the frames they complete, in order (an error ends the list).
    #[must_use = "the frames are returned, not stored"]
    pub fn push(&mut self, mut bytes: &[u8]) -> Vec<Result<ProtoFrame, ProtoError>> {
        let mut out = Vec::new();
        while !self.failed && !bytes.is_empty() {
            let Some(declared) = self.declared else {
                let want = 4 - self.header_len;
                let (head, rest) = bytes.split_at(want.min(bytes.len()));
                bytes = rest;
                if let Some(dst) = self
                    .header
                    .get_mut(self.header_len..self.header_len + head.len())
                {
                    dst.copy_from_slice(head);
                }
                self.header_len += head.len();
                if self.header_len < 4 {
                    break;
                }
                let len = u32::from_be_bytes(self.header);
                let fits = u64::from(len) + 4 <= self.limit as u64;
                match usize::try_from(len) {
                    Ok(n) if fits => self.declared = Some(n),
                    _ => {
                        self.failed = true;
                        out.push(Err(ProtoError::FrameTooLarge {
                            offset: self.offset,
                            declared: len,
                            limit: self.limit,
                        }));
                    }
                }
                continue;
            };
            let want = declared.saturating_sub(self.payload.len());
            let (part, rest) = bytes.split_at(want.min(bytes.len()));
            bytes = rest;
            self.payload.extend_from_slice(part);
            if self.payload.len() == declared {
                let frame = ProtoFrame {
                    offset: self.offset,
                    payload: std::mem::take(&mut self.payload),
                };
                self.offset = self.offset.saturating_add(4 + declared as u64);
                self.header_len = 0;
                self.declared = None;
                out.push(Ok(frame));
            }
        }
        // A zero-length frame is complete with its header.
        if let Some(0) = self.declared {
            out.push(Ok(ProtoFrame {
                offset: self.offset,
                payload: Vec::new(),
            }));
            self.offset = self.offset.saturating_add(4);
            self.header_len = 0;
            self.declared = None;
        }
        out
    }

    /// End of the body: an error when it ended inside a frame. The splitter is then reset.
    pub fn finish(&mut self) -> Result<(), ProtoError> {
        let buffered = self.header_len + self.payload.len();
        let result = if buffered > 0 && !self.failed {
            Err(ProtoError::EndedMidFrame {
                offset: self.offset,
                buffered,
            })
        } else {
            Ok(())
        };
        *self = Self::with_max_frame_bytes(self.limit);
        result
    }
}

/// Decode one frame (the bytes after its length) to the event's JSON object, of at most
/// [`DEFAULT_MAX_FRAME_BYTES`] written as JSON (what one SSE frame may carry). `Ok(None)`: an
/// event of a kind this client does not know, dropped (the warning is in `warnings`, with any
/// for dropped content parts).
pub fn decode_frame(
    payload: &[u8],
    warnings: &mut Vec<Warning>,
) -> Result<Option<Value>, DecodeError> {
    decode_frame_within(payload, DEFAULT_MAX_FRAME_BYTES, warnings)
}

/// [`decode_frame`] with another budget for the JSON the frame may decode to (about its size
/// written as JSON: [`DecodeError::TooLarge`] past it).
pub fn decode_frame_within(
    payload: &[u8],
    max_json_bytes: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Value>, DecodeError> {
    shape::decode(payload, max_json_bytes, warnings)
}

/// Decode one frame to a typed event through enforcement (without the pipeline's version
/// compatibility stage, which a 1.0 binary stream does not need). `Ok(None)`: dropped — an
/// unknown event, or one enforcement drops (its warning is in `warnings`). A frame that does
/// not decode is [`ProtoError::Decode`] at offset 0 (there is no stream here).
pub fn decode_event(
    payload: &[u8],
    warnings: &mut Vec<Warning>,
) -> Result<Option<Event>, ProtocolError> {
    let value = match decode_frame(payload, warnings) {
        Ok(Some(value)) => value,
        Ok(None) => return Ok(None),
        Err(error) => {
            return Err(ProtocolError::Proto(ProtoError::Decode {
                offset: 0,
                error,
            }))
        }
    };
    match enforce_event(value, warnings) {
        Ok(Enforced::Event(e)) => Ok(Some(*e)),
        Ok(Enforced::Dropped) => Ok(None),
        Err(EventError::NotAnEvent(m)) => Err(ProtocolError::NotAnEvent(m)),
        Err(EventError::Malformed(m)) => Err(ProtocolError::Malformed(m)),
    }
}

/// A protobuf response body folded into the caller's [`Pipeline`]: frames →
/// [`decode_frame`] → [`Pipeline::push_value`], with the same [`Delivered`] values, errors and
/// truncation rule as an SSE body. A frame that does not decode fails the stream through the
/// pipeline's own path ([`ProtocolError::Proto`]); nothing is delivered after it. A session
/// reads a response with it once it is handed over as a [`WireFront`]
/// ([`super::wire::Decoder::with_front`]).
///
/// ```ignore
/// let mut decoder = ProtoDecoder::new(&options);
/// for chunk in body { deliver(decoder.push_bytes(&mut pipeline, &chunk)); }
/// deliver(decoder.finish(&mut pipeline));
/// ```
#[derive(Debug, Clone)]
pub struct ProtoDecoder {
    frames: ProtoFrames,
    max_json_bytes: usize,
}

impl Default for ProtoDecoder {
    fn default() -> Self {
        Self::new(&PipelineOptions::default())
    }
}

impl ProtoDecoder {
    /// A decoder for a pipeline made with `options`: frames up to [`MAX_FRAME_BYTES`] (or
    /// `options.max_frame_bytes` when lower), each decoding to at most
    /// `options.max_frame_bytes` of JSON — no event an SSE frame could not carry.
    pub fn new(options: &PipelineOptions) -> Self {
        Self::with_limits(
            options.max_frame_bytes.min(MAX_FRAME_BYTES),
            options.max_frame_bytes,
        )
    }

    /// A decoder whose frames (length prefix included) are at most `max_frame_bytes` and
    /// decode to at most about `max_json_bytes` of JSON each.
    pub fn with_limits(max_frame_bytes: usize, max_json_bytes: usize) -> Self {
        ProtoDecoder {
            frames: ProtoFrames::with_max_frame_bytes(max_frame_bytes),
            max_json_bytes,
        }
    }

    /// Feed response bytes as they arrive; the events they complete, folded into `pipeline`.
    pub fn push_bytes(&mut self, pipeline: &mut Pipeline, bytes: &[u8]) -> Vec<Delivered> {
        let mut out = Vec::new();
        if pipeline.error().is_some() {
            return out;
        }
        for frame in self.frames.push(bytes) {
            match frame {
                Ok(frame) => push_frame(pipeline, &frame, self.max_json_bytes, &mut out),
                Err(e) => pipeline.fail(ProtocolError::Proto(e)),
            }
            if pipeline.error().is_some() {
                break;
            }
        }
        out
    }

    /// End of the body, then the pipeline's own end ([`Pipeline::finish`]). A body that ends
    /// mid-frame inside a run is that run truncated, as a connection lost over SSE
    /// ([`ProtocolError::Truncated`]); with no run open it is [`ProtoError::EndedMidFrame`].
    pub fn finish(&mut self, pipeline: &mut Pipeline) -> Vec<Delivered> {
        if let Err(e) = self.frames.finish() {
            if pipeline.error().is_none() && !pipeline.run_active() {
                pipeline.fail(ProtocolError::Proto(e));
            }
        }
        pipeline.finish()
    }
}

impl WireFront for ProtoDecoder {
    fn wire(&self) -> Wire {
        Wire::Proto
    }

    fn push_bytes(&mut self, pipeline: &mut Pipeline, bytes: &[u8]) -> Vec<Delivered> {
        ProtoDecoder::push_bytes(self, pipeline, bytes)
    }

    fn finish(&mut self, pipeline: &mut Pipeline) -> Vec<Delivered> {
        ProtoDecoder::finish(self, pipeline)
    }
}

fn push_frame(
    pipeline: &mut Pipeline,
    frame: &ProtoFrame,
    max_json_bytes: usize,
    out: &mut Vec<Delivered>,
) {
    let mut warnings = Vec::new();
    let decoded = decode_frame_within(&frame.payload, max_json_bytes, &mut warnings);
    pipeline.thread.warnings.append(&mut warnings);
    match decoded {
        Ok(Some(value)) => pipeline.push_value(value, out),
        Ok(None) => pipeline.thread.cap_warnings(),
        Err(error) => {
            pipeline.fail(ProtocolError::Proto(ProtoError::Decode {
                offset: frame.offset,
                error,
            }));
            pipeline.thread.cap_warnings();
        }
    }
}
