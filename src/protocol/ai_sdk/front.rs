//! Bytes → thread: [`AiSdkStream`] and [`AiSdkFront`], the SSE decoder and [`AiSdkDecoder`]
//! in front of a [`Pipeline`], and what a response must carry to be read this way
//! ([`is_ai_sdk_response`]).

use std::collections::HashSet;

use serde_json::Value;

use crate::protocol::error::ProtocolError;
use crate::protocol::event::EventKind as K;
use crate::protocol::pipeline::{Delivered, Pipeline, PipelineOptions};
use crate::protocol::reducer::Thread;
use crate::protocol::sse::{SseDecoder, SseError, SseFrame};

use super::decode::{AiSdkDecoder, MD_ERROR};

/// The response header that marks a UI message stream.
pub const HEADER: &str = crate::protocol::front::AI_SDK_HEADER;

/// True for a response in this protocol: the header says `v1` and the body is SSE (or untyped).
pub fn is_ai_sdk_response(content_type: Option<&str>, header_value: Option<&str>) -> bool {
    let sse = content_type.is_none_or(|ct| {
        let essence = ct.split(';').next().unwrap_or("").trim();
        essence.eq_ignore_ascii_case("text/event-stream")
    });
    sse && header_value.is_some_and(|v| v.trim().eq_ignore_ascii_case("v1"))
}

/// A UI message stream response folded into a thread: SSE frames → [`AiSdkDecoder`] →
/// [`Pipeline::push_event`] (chunks, verification, reducer), with the same [`Delivered`]
/// values, errors and truncation rule as an AG-UI response. Two things no AG-UI event says are
/// applied here, after the event that needs them: a failed tool's `error` (from the result's
/// `aiSdkErrorText`), and two repairs after a `reset-step` snapshot (reasoning messages the
/// snapshot rule keeps when it has none are cut from the tail, and the step's calls leave the
/// run's list, so they are not taken for pending frontend calls).
#[derive(Debug)]
pub struct AiSdkStream {
    pub front: AiSdkFront,
    pub pipeline: Pipeline,
}

impl AiSdkStream {
    pub fn new(
        thread: Thread,
        options: PipelineOptions,
        thread_id: impl Into<String>,
        run_id: impl Into<String>,
    ) -> Self {
        AiSdkStream {
            front: AiSdkFront::new(&options, thread_id, run_id),
            pipeline: Pipeline::new(thread, options),
        }
    }

    pub fn error(&self) -> Option<&ProtocolError> {
        self.pipeline.error()
    }

    pub fn abort(&mut self) {
        self.pipeline.abort();
    }

    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<Delivered> {
        self.front.push_bytes(&mut self.pipeline, bytes)
    }

    pub fn finish(&mut self) -> Vec<Delivered> {
        self.front.finish(&mut self.pipeline)
    }

    pub fn push_data(&mut self, data: &str, out: &mut Vec<Delivered>) {
        self.front.push_data(&mut self.pipeline, data, out);
    }
}

/// What [`AiSdkStream`] puts in front of a pipeline (SSE decoder + chunk decoder), for a caller
/// that owns its pipeline (a session, whose runs change wire by the response's header).
#[derive(Debug)]
pub struct AiSdkFront {
    sse: SseDecoder,
    pub decoder: AiSdkDecoder,
}

impl AiSdkFront {
    pub fn new(
        options: &PipelineOptions,
        thread_id: impl Into<String>,
        run_id: impl Into<String>,
    ) -> Self {
        AiSdkFront {
            sse: SseDecoder::with_max_frame_bytes(options.max_frame_bytes),
            decoder: AiSdkDecoder::new(thread_id, run_id),
        }
    }

    pub fn push_bytes(&mut self, pipeline: &mut Pipeline, bytes: &[u8]) -> Vec<Delivered> {
        let mut out = Vec::new();
        for line in bytes.split_inclusive(|b| *b == b'\n' || *b == b'\r') {
            for frame in self.sse.push(line) {
                self.frame(pipeline, frame, &mut out);
            }
            if pipeline.error().is_some() {
                break;
            }
        }
        out
    }

    pub fn finish(&mut self, pipeline: &mut Pipeline) -> Vec<Delivered> {
        let mut out = Vec::new();
        for frame in self.sse.finish() {
            self.frame(pipeline, frame, &mut out);
        }
        out.extend(pipeline.finish());
        out
    }

    fn frame(
        &mut self,
        pipeline: &mut Pipeline,
        frame: Result<SseFrame, SseError>,
        out: &mut Vec<Delivered>,
    ) {
        match frame {
            Ok(frame) => self.push_data(pipeline, &frame.data, out),
            Err(e) if pipeline.error().is_none() => pipeline.fail(ProtocolError::Sse(e)),
            Err(_) => {}
        }
    }

    pub fn push_data(&mut self, pipeline: &mut Pipeline, data: &str, out: &mut Vec<Delivered>) {
        if pipeline.error().is_some() {
            return;
        }
        let decoded = self.decoder.push(data, &pipeline.thread);
        let thread = &mut pipeline.thread;
        thread.warnings.extend(self.decoder.take_warnings());
        thread.cap_warnings();
        let events = match decoded {
            Ok(events) => events,
            Err(e) => return pipeline.fail(ProtocolError::AiSdk(e)),
        };
        for event in events {
            let from = out.len();
            pipeline.push_event(event, out);
            for d in out.iter().skip(from) {
                mark_tool_error(&mut pipeline.thread, d);
            }
            if pipeline.error().is_some() {
                return;
            }
        }
        let reset = self.decoder.take_reset();
        if !reset.is_empty() {
            repair_reset(&mut pipeline.thread, &reset);
        }
    }
}

fn mark_tool_error(thread: &mut Thread, d: &Delivered) {
    let K::ToolCallResult(r) = &d.event.kind else {
        return;
    };
    let Some(Value::String(e)) = d.event.metadata.as_ref().and_then(|m| m.get(MD_ERROR)) else {
        return;
    };
    let i = thread.position(&r.message_id);
    if let Some(m) = i.and_then(|i| thread.messages.get_mut(i)) {
        m.error = Some(e.clone());
    }
}

fn repair_reset(thread: &mut Thread, ids: &HashSet<String>) {
    // Only reasoning messages survive the snapshot, and only at the tail (they were appended
    // during the step, after everything the snapshot kept).
    if let Some(first) = thread.messages.iter().position(|m| ids.contains(&m.id)) {
        if thread
            .messages
            .iter()
            .skip(first)
            .all(|m| ids.contains(&m.id))
        {
            thread.truncate(first);
        }
    }
    if let Some(run) = thread.runs.last_mut() {
        run.tool_call_ids.retain(|id| !ids.contains(id));
    }
}
