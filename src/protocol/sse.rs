//! Sans-IO Server-Sent Events decoder: turns the raw bytes of a
//! `text/event-stream` response body into [`SseFrame`]s.
//!
//! This module owns the SSE *framing* layer only — byte chunks in, frames out.
//! It does no I/O (the browser fetch/stream plumbing feeds it chunks as they
//! arrive) and knows nothing about AG-UI events; parsing each frame's `data`
//! as a protocol event is the caller's job.
//!
//! It implements the WHATWG HTML Standard, "Server-sent events — parsing an
//! event stream" / "interpreting an event stream"
//! (<https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>):
//!
//! * a leading UTF-8 BOM is skipped, even when split across chunks;
//! * lines end with LF, CR or CRLF — a CRLF split across two chunks is one line end;
//! * the stream is decoded as UTF-8 with replacement (invalid bytes become
//!   U+FFFD, never an error); bytes are buffered until a whole line is known, so
//!   multi-byte characters split across chunks come out intact;
//! * a blank line dispatches the frame (if any `data` line was seen), lines
//!   starting with `:` are comments, other lines are `field:value` with one
//!   leading space of the value removed; `data`, `event`, `id` (ignored if it
//!   contains NUL) and `retry` (only if all ASCII digits) are recognised and
//!   unknown fields are ignored.
//!
//! Deliberate differences from the browser `EventSource`:
//!
//! * [`SseDecoder::finish`] is lenient at end of stream: a last line without a
//!   terminator is processed and a pending frame with data is dispatched
//!   (WHATWG discards it; the reference AG-UI TypeScript client processes the
//!   remaining buffer at EOF, and so do we).
//! * `id` and `retry` are reported per frame (only if the frame had such a line)
//!   instead of being sticky decoder state, and `event` is reported raw (no
//!   `"message"` default). There is no reconnection logic.
//! * Frames are size-limited (see [`SseDecoder::with_max_frame_bytes`]) so that
//!   memory stays bounded whatever the server sends.
//!
//! AG-UI note (spec §1.3 "SSE response framing"): each SSE event's `data` is
//! exactly one protocol event JSON object; consumers MUST ignore `event:`,
//! `id:` and `retry:` and MUST tolerate comment lines (`: keep-alive`) at any
//! cadence; producers use LF only but consumers MAY accept CR/CRLF. Only
//! [`SseFrame::data`] matters to AG-UI — the other fields are decoded and
//! reported merely for diagnostics.

use std::mem;

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseFrame {
    /// `event:` field if any (last one wins). Reported raw: an `event:` line
    /// with an empty value gives `Some("")`, no `"message"` default is applied.
    pub event: Option<String>,
    /// data lines joined with "\n" (no trailing newline)
    pub data: String,
    /// last event id field seen in this frame (if any id line was in this frame)
    pub id: Option<String>,
    /// retry field if it was all ASCII digits (non-empty and fitting in a `u64`)
    pub retry: Option<u64>,
}

/// A recoverable decoding problem. Decoding always continues after an error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SseError {
    /// A frame grew beyond the decoder's limit (see
    /// [`SseDecoder::with_max_frame_bytes`] for what is counted). The frame is
    /// discarded and input is skipped up to and including the blank line that
    /// ends it; decoding then resumes normally.
    #[error(
        "SSE frame larger than {limit} bytes (starting at byte offset {offset}); frame dropped"
    )]
    FrameTooLarge {
        /// The configured limit in bytes.
        limit: usize,
        /// Stream byte offset (counting from the very first byte, BOM
        /// included) of the first byte of the frame's first non-comment line.
        offset: u64,
    },
}

/// Default frame size limit: 16 MiB.
pub const DEFAULT_MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;

/// The UTF-8 byte order mark.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// After a line is processed the line buffer keeps at most this much capacity,
/// so that one huge line does not pin its allocation for the rest of the stream.
const LINE_CAPACITY_KEEP: usize = 64 * 1024;

/// Progress of the BOM check at the very start of the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bom {
    /// The first `n` stream bytes matched the BOM prefix (and are held back).
    Pending(usize),
    /// BOM skipped, or the stream does not start with one.
    Done,
}

/// What is known about the current (unterminated) line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineState {
    /// No byte of the line seen yet.
    Empty,
    /// Bytes are being collected in `SseDecoder::line`.
    Buffering,
    /// Non-empty line whose bytes are dropped: a comment, or any line while
    /// skipping an oversized frame.
    Discarding,
}

/// Incremental, sans-IO SSE decoder. Feed it chunks with [`push`](Self::push)
/// and call [`finish`](Self::finish) at end of stream.
///
/// The output does not depend on how the input is split into chunks.
/// Work is linear in the input size (each byte is scanned once) and memory is
/// bounded by the frame size limit.
#[derive(Debug, Clone)]
pub struct SseDecoder {
    limit: usize,
    bytes_seen: u64,
    bom: Bom,
    /// The previous chunk ended with CR: a LF at the start of the next chunk
    /// belongs to that line end.
    last_was_cr: bool,
    line_state: LineState,
    /// Raw bytes of the current line (only while `LineState::Buffering`).
    line: Vec<u8>,
    /// Raw bytes of the data buffer: each data line's value followed by LF.
    data: Vec<u8>,
    event: Option<Vec<u8>>,
    id: Option<Vec<u8>>,
    retry: Option<u64>,
    /// Size of the current frame's completed non-comment lines.
    frame_bytes: usize,
    /// Stream offset of the current frame's first non-comment byte.
    frame_start: Option<u64>,
    /// An oversized frame was dropped; skip until the blank line that ends it.
    skipping: bool,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl SseDecoder {
    /// A decoder with the [`DEFAULT_MAX_FRAME_BYTES`] limit.
    pub fn new() -> Self {
        Self::with_max_frame_bytes(DEFAULT_MAX_FRAME_BYTES)
    }

    /// A decoder whose frames may be at most `limit` bytes.
    ///
    /// **Frame size**, precisely: the number of bytes of the frame's
    /// non-comment lines as received — field name, colon, optional space and
    /// value, *before* UTF-8 decoding — not counting line terminators, comment
    /// lines (lines starting with `:`), the blank line that dispatches the
    /// frame, nor a leading BOM. A frame consists of the lines after the
    /// previous blank line (or the start of the stream). The size is checked
    /// as bytes arrive, including the current unterminated line: a frame of
    /// exactly `limit` bytes is accepted, one byte more yields a single
    /// [`SseError::FrameTooLarge`]. Example: with `limit = 10`,
    /// `"data: abcd\n\n"` (frame size 10) decodes, `"data: abcde\n\n"` does not.
    ///
    /// Everything the decoder buffers (see [`buffered_bytes`](Self::buffered_bytes))
    /// stays at or below this size; comment lines are never buffered.
    pub fn with_max_frame_bytes(limit: usize) -> Self {
        Self {
            limit,
            bytes_seen: 0,
            bom: Bom::Pending(0),
            last_was_cr: false,
            line_state: LineState::Empty,
            line: Vec::new(),
            data: Vec::new(),
            event: None,
            id: None,
            retry: None,
            frame_bytes: 0,
            frame_start: None,
            skipping: false,
        }
    }

    /// The frame size limit this decoder enforces.
    pub fn max_frame_bytes(&self) -> usize {
        self.limit
    }

    /// total bytes consumed so far (since creation or the last [`finish`](Self::finish))
    pub fn bytes_seen(&self) -> u64 {
        self.bytes_seen
    }

    /// Bytes of stream content currently held in the decoder's buffers
    /// (pending line, data, event and id). Never more than
    /// [`max_frame_bytes`](Self::max_frame_bytes) (plus at most 2 bytes of a
    /// partial BOM at stream start).
    pub fn buffered_bytes(&self) -> usize {
        let held_bom = match self.bom {
            Bom::Pending(n) => n,
            Bom::Done => 0,
        };
        self.line.len()
            + self.data.len()
            + self.event.as_ref().map_or(0, Vec::len)
            + self.id.as_ref().map_or(0, Vec::len)
            + held_bom
    }

    /// Feed bytes as they arrive; returns the frames completed by this chunk
    /// (and errors, in order).
    #[must_use = "the decoded frames are returned, not stored"]
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Result<SseFrame, SseError>> {
        let mut out = Vec::new();
        let mut offset = self.bytes_seen;
        self.bytes_seen = self.bytes_seen.saturating_add(chunk.len() as u64);
        let mut rest = chunk;
        while let Bom::Pending(matched) = self.bom {
            let Some((&byte, tail)) = rest.split_first() else {
                break;
            };
            if BOM.get(matched) == Some(&byte) {
                rest = tail;
                offset = offset.saturating_add(1);
                let matched = matched + 1;
                self.bom = if matched >= BOM.len() {
                    Bom::Done
                } else {
                    Bom::Pending(matched)
                };
            } else {
                // Not a BOM after all: the held-back prefix is ordinary input.
                self.bom = Bom::Done;
                self.feed(BOM.get(..matched).unwrap_or_default(), 0, &mut out);
            }
        }
        self.feed(rest, offset, &mut out);
        out
    }

    /// End of stream: a pending line without terminator is processed as a
    /// line, and a pending frame with data is dispatched (lenient: the
    /// reference TS client also processes the remaining buffer at EOF).
    /// After finish() the decoder is reset and could be reused (also
    /// [`bytes_seen`](Self::bytes_seen) restarts at 0, and a BOM is again
    /// skipped at the start of the next stream).
    #[must_use = "the decoded frames are returned, not stored"]
    pub fn finish(&mut self) -> Vec<Result<SseFrame, SseError>> {
        let mut out = Vec::new();
        if let Bom::Pending(matched) = self.bom {
            self.bom = Bom::Done;
            self.feed(BOM.get(..matched).unwrap_or_default(), 0, &mut out);
        }
        if self.line_state != LineState::Empty {
            self.end_line(&mut out);
        }
        if !self.skipping {
            self.dispatch(&mut out);
        }
        *self = Self::with_max_frame_bytes(self.limit);
        out
    }

    /// Split `bytes` (which start at stream offset `offset`) into lines.
    fn feed(
        &mut self,
        mut bytes: &[u8],
        mut offset: u64,
        out: &mut Vec<Result<SseFrame, SseError>>,
    ) {
        if bytes.is_empty() {
            return;
        }
        if mem::take(&mut self.last_was_cr) {
            if let Some((b'\n', tail)) = bytes.split_first() {
                bytes = tail;
                offset = offset.saturating_add(1);
            }
        }
        while let Some(pos) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            let Some((segment, terminator_and_rest)) = bytes.split_at_checked(pos) else {
                break;
            };
            let Some((&terminator, mut after)) = terminator_and_rest.split_first() else {
                break;
            };
            if matches!(self.line_state, LineState::Empty) && !segment.is_empty() {
                // The whole line is in hand: read it where it is (no copy into `line`).
                if self.admit(segment, offset, out) {
                    self.frame_bytes = self.frame_bytes.saturating_add(segment.len());
                    self.process_field(segment);
                }
                self.line_state = LineState::Empty;
            } else {
                self.append(segment, offset, out);
                self.end_line(out);
            }
            let mut consumed = pos + 1;
            if terminator == b'\r' {
                match after.split_first() {
                    Some((b'\n', tail)) => {
                        after = tail;
                        consumed += 1;
                    }
                    Some(_) => {}
                    None => self.last_was_cr = true,
                }
            }
            bytes = after;
            offset = offset.saturating_add(consumed as u64);
        }
        self.append(bytes, offset, out);
    }

    /// Add a terminator-free piece of the current line starting at stream
    /// offset `offset`.
    fn append(&mut self, segment: &[u8], offset: u64, out: &mut Vec<Result<SseFrame, SseError>>) {
        if self.admit(segment, offset, out) {
            self.line.extend_from_slice(segment);
        }
    }

    /// Whether a non-empty piece of the current line is to be kept (not a comment, not a
    /// frame being skipped, within the frame limit); moves the line's state on.
    fn admit(
        &mut self,
        segment: &[u8],
        offset: u64,
        out: &mut Vec<Result<SseFrame, SseError>>,
    ) -> bool {
        let Some(&first) = segment.first() else {
            return false;
        };
        match self.line_state {
            LineState::Discarding => return false,
            LineState::Empty if self.skipping || first == b':' => {
                self.line_state = LineState::Discarding;
                return false;
            }
            LineState::Empty => {
                self.line_state = LineState::Buffering;
                self.frame_start.get_or_insert(offset);
            }
            LineState::Buffering => {}
        }
        let size = self
            .frame_bytes
            .saturating_add(self.line.len())
            .saturating_add(segment.len());
        if size > self.limit {
            out.push(Err(SseError::FrameTooLarge {
                limit: self.limit,
                offset: self.frame_start.unwrap_or(offset),
            }));
            self.reset_frame();
            self.clear_line();
            self.skipping = true;
            self.line_state = LineState::Discarding;
            return false;
        }
        true
    }

    /// A line terminator was seen.
    fn end_line(&mut self, out: &mut Vec<Result<SseFrame, SseError>>) {
        match mem::replace(&mut self.line_state, LineState::Empty) {
            LineState::Empty => {
                if mem::take(&mut self.skipping) {
                    self.reset_frame();
                } else {
                    self.dispatch(out);
                }
            }
            LineState::Discarding => {}
            LineState::Buffering => {
                let line = mem::take(&mut self.line);
                self.frame_bytes = self.frame_bytes.saturating_add(line.len());
                self.process_field(&line);
                self.line = line;
                self.clear_line();
            }
        }
    }

    /// Interpret one complete, non-empty, non-comment line.
    fn process_field(&mut self, line: &[u8]) {
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let name = line.get(..colon).unwrap_or_default();
                let value = line.get(colon + 1..).unwrap_or_default();
                (name, value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" => {
                if self.data.is_empty() {
                    // Most frames are one data line: one allocation of the right size.
                    self.data.reserve_exact(value.len() + 1);
                }
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            b"event" => self.event = Some(value.to_vec()),
            b"id" if !value.contains(&0) => self.id = Some(value.to_vec()),
            b"retry" => self.retry = parse_retry(value).or(self.retry),
            _ => {}
        }
    }

    /// A blank line: emit the frame if it has data, and start a new one.
    fn dispatch(&mut self, out: &mut Vec<Result<SseFrame, SseError>>) {
        let mut data = mem::take(&mut self.data);
        let event = self.event.take();
        let id = self.id.take();
        let retry = self.retry.take();
        self.reset_frame();
        if data.is_empty() {
            return;
        }
        data.pop(); // the LF appended after the last data line
        out.push(Ok(SseFrame {
            event: event.map(utf8_lossy),
            data: utf8_lossy(data),
            id: id.map(utf8_lossy),
            retry,
        }));
    }

    fn reset_frame(&mut self) {
        self.data = Vec::new();
        self.event = None;
        self.id = None;
        self.retry = None;
        self.frame_bytes = 0;
        self.frame_start = None;
    }

    fn clear_line(&mut self) {
        self.line.clear();
        if self.line.capacity() > LINE_CAPACITY_KEEP {
            self.line.shrink_to(LINE_CAPACITY_KEEP);
        }
    }
}

/// A `retry` value: one or more ASCII digits, in range for `u64`.
fn parse_retry(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // Digits only, hence valid UTF-8; overflow gives `None` (field ignored).
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// UTF-8 decode with U+FFFD replacement, without copying valid input.
///
/// Decoding each field value separately is equivalent to decoding the whole
/// stream first (as WHATWG does): the bytes we split at (CR, LF, `:`, space)
/// are ASCII, which never occur inside a multi-byte sequence and always end an
/// invalid one.
fn utf8_lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}
