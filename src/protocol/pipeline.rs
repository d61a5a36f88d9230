//! The whole inbound pipeline, sans-IO (spec digest §4.1):
//! bytes → SSE frames → JSON → compatibility boundary → enforcement → chunk expansion →
//! verification → thread model.
//!
//! Feed it bytes as they arrive ([`Pipeline::push_bytes`]) and call [`Pipeline::finish`] at the
//! end of the body. Each delivered event comes back with the [`Change`] it made, so a UI can
//! update just that. A violation fails the run once: the error is kept, the run is marked
//! failed, and everything delivered before it stays. A body that ends inside a run is a
//! truncated run, never a success (§1.1).

use serde_json::Value;

use super::chunks::ChunkExpander;
use super::compat::{Compat, Version};
use super::enforce::{enforce_event, Enforced, EventError};
use super::error::{ProtocolError, Warning, WarningKind};
use super::event::{Event, EventKind};
use super::input::PROTOCOL_VERSION;
use super::reducer::{Change, Run, RunStatus, Thread};
use super::sse::{SseDecoder, SseFrame, DEFAULT_MAX_FRAME_BYTES};
use super::verify::Verifier;

/// Knobs for one stream.
#[derive(Debug, Clone)]
pub struct PipelineOptions {
    /// Largest SSE frame accepted before the stream is failed.
    pub max_frame_bytes: usize,
    /// The peer's highest protocol version when pinned (enables downgrades).
    pub peer_version: Option<Version>,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
            peer_version: None,
        }
    }
}

/// One event handed to the application, with what it changed.
#[derive(Debug, Clone)]
pub struct Delivered {
    pub event: Event,
    pub change: Change,
}

/// The pipeline for one response body (one or several runs) on a thread.
#[derive(Debug)]
pub struct Pipeline {
    sse: SseDecoder,
    compat: Compat,
    chunks: ChunkExpander,
    /// Scratch for [`ChunkExpander::push_into`].
    expanded: Vec<Event>,
    verifier: Verifier,
    /// The folded thread: messages, state, runs, warnings.
    pub thread: Thread,
    error: Option<ProtocolError>,
    /// Runs the thread already held when this stream began (they are not this stream's).
    earlier_runs: usize,
}

impl Pipeline {
    /// A pipeline continuing `thread` (seeded with the history and state that were sent).
    pub fn new(thread: Thread, options: PipelineOptions) -> Self {
        let mut verifier = Verifier::new();
        for m in &thread.messages {
            verifier.seed_owner(&m.id, m.subagent_run_id.as_deref());
        }
        Pipeline {
            sse: SseDecoder::with_max_frame_bytes(options.max_frame_bytes),
            compat: Compat::new(options.peer_version),
            chunks: ChunkExpander::new(),
            expanded: Vec::new(),
            verifier,
            earlier_runs: thread.runs.len(),
            thread,
            error: None,
        }
    }

    /// The error that failed the stream, if any.
    pub fn error(&self) -> Option<&ProtocolError> {
        self.error.as_ref()
    }

    /// True while a run is open on this stream.
    pub fn run_active(&self) -> bool {
        self.error.is_none() && self.verifier.run_active()
    }

    /// Feed response bytes as they arrive.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<Delivered> {
        let mut out = Vec::new();
        // One line at a time, so each frame is decoded at the byte that ends it and an error's
        // stream offset does not depend on how the network chunked the body.
        for line in bytes.split_inclusive(|b| *b == b'\n' || *b == b'\r') {
            if self.error.is_some() {
                break;
            }
            for frame in self.sse.push(line) {
                let offset = self.sse.bytes_seen();
                self.frame(frame, offset, &mut out);
                if self.error.is_some() {
                    break;
                }
            }
        }
        out
    }

    /// End of the response body. Returns the events still delivered, and fails a run left open
    /// as truncated.
    pub fn finish(&mut self) -> Vec<Delivered> {
        let mut out = Vec::new();
        if self.error.is_none() {
            // `SseDecoder::finish` resets its byte count: the last frame ends at the body's end.
            let end = self.sse.bytes_seen();
            for frame in self.sse.finish() {
                self.frame(frame, end, &mut out);
                if self.error.is_some() {
                    break;
                }
            }
        }
        if self.error.is_none() {
            if let Some(run_id) = self.verifier.active_run_id() {
                let run_id = run_id.to_owned();
                self.fail(ProtocolError::Truncated { run_id });
            }
        }
        out
    }

    /// The person stopped the run: it ends as cancelled; what arrived stays.
    pub fn abort(&mut self) {
        if self.verifier.run_active() || self.thread.status() == RunStatus::Running {
            self.thread.end_run(RunStatus::Cancelled);
        }
        if self.error.is_none() {
            self.error = Some(ProtocolError::Stopped);
        }
    }

    /// Fail the stream with `error` (a stage outside the pipeline, such as the AI SDK decoder,
    /// found a violation): the same path as the pipeline's own errors.
    pub(crate) fn fail(&mut self, error: ProtocolError) {
        match &error {
            ProtocolError::Truncated { .. } => self.thread.end_run(RunStatus::Truncated),
            e => {
                let status = RunStatus::Failed {
                    error: e.to_string(),
                };
                // A rejected stream is never reported as a success, even when the violation
                // came after its run finished; an agent-reported error stays as it was.
                let ours = self.thread.runs.len() > self.earlier_runs;
                match self.thread.runs.last_mut() {
                    Some(run) if ours => {
                        if !matches!(run.status, RunStatus::Error { .. }) {
                            run.status = status;
                        }
                    }
                    _ => self.thread.runs.push(Run {
                        status,
                        ..Default::default()
                    }),
                }
            }
        }
        self.error = Some(error);
    }

    /// One decoded frame; `offset` is the stream byte just past its end.
    fn frame(
        &mut self,
        frame: Result<SseFrame, super::sse::SseError>,
        offset: u64,
        out: &mut Vec<Delivered>,
    ) {
        match frame {
            Ok(frame) if self.error.is_some() => drop(frame),
            Ok(frame) => match super::fast::decode(&frame.data) {
                Some(event) => self.fold_event(event, out),
                None => self.frame_value(&frame.data, offset, out),
            },
            Err(e) => self.fail(ProtocolError::Sse(e)),
        }
        // Once per frame, whichever stage warned (every path returns here).
        self.thread.cap_warnings();
    }

    /// A frame off the fast path: JSON → compatibility → enforcement → the typed event.
    fn frame_value(&mut self, data: &str, offset: u64, out: &mut Vec<Delivered>) {
        if let Some(split) = super::raw_json::split(data) {
            return self.fold_split(split, out);
        }
        match parse_json(data, &mut self.thread.warnings) {
            Ok(value) => self.fold_value(value, out),
            Err(message) => self.fail(ProtocolError::InvalidJson { offset, message }),
        }
    }

    /// Feed one decoded JSON event (the SSE layer already removed).
    pub fn push_value(&mut self, value: Value, out: &mut Vec<Delivered>) {
        self.fold_value(value, out);
        self.thread.cap_warnings();
    }

    fn fold_value(&mut self, value: Value, out: &mut Vec<Delivered>) {
        if let Some(event) = self.typed(value) {
            self.fold_event(event, out);
        }
    }

    /// A frame whose raw payloads were kept as text: the rest is typed as any event, the
    /// payloads go back into the event untouched.
    fn fold_split(&mut self, split: super::raw_json::Split, out: &mut Vec<Delivered>) {
        let (value, raw_event, raw_payload) = split.into_parts();
        if let Some(mut event) = self.typed(value) {
            if let (EventKind::Raw(r), Some(p)) = (&mut event.kind, raw_payload) {
                r.event = p;
            }
            if raw_event.is_some() {
                event.raw_event = raw_event;
            }
            self.fold_event(event, out);
        }
    }

    /// JSON → compatibility → enforcement → the typed event (`None`: dropped, or the stream
    /// failed).
    fn typed(&mut self, value: Value) -> Option<Event> {
        if self.error.is_some() {
            return None;
        }
        let value = self.compat.inbound(value, &mut self.thread.warnings)?;
        match enforce_event(value, &mut self.thread.warnings) {
            Ok(Enforced::Event(e)) => Some(*e),
            Ok(Enforced::Dropped) => None,
            Err(EventError::NotAnEvent(m)) => {
                self.fail(ProtocolError::NotAnEvent(m));
                None
            }
            Err(EventError::Malformed(m)) => {
                self.fail(ProtocolError::Malformed(m));
                None
            }
        }
    }

    /// Feed one event that is already typed and valid (made by a translating stage such as
    /// [`super::ai_sdk`]): chunk expansion, verification and the reducer, as for any event.
    pub fn push_event(&mut self, event: Event, out: &mut Vec<Delivered>) {
        if self.error.is_none() {
            self.fold_event(event, out);
        }
        self.thread.cap_warnings();
    }

    fn fold_event(&mut self, event: Event, out: &mut Vec<Delivered>) {
        // The expansion goes into a buffer kept across events (no allocation per event).
        let mut expanded = std::mem::take(&mut self.expanded);
        match self.chunks.push_into(event, &mut expanded) {
            Ok(()) => {
                for event in expanded.drain(..) {
                    if let Err(e) = self.verifier.check(&event) {
                        self.fail(ProtocolError::Verify(e));
                        break;
                    }
                    if let EventKind::RunStarted(rs) = &event.kind {
                        check_version(rs.protocol_version.as_deref(), &mut self.thread.warnings);
                    }
                    let change = self.thread.apply(&event);
                    out.push(Delivered { event, change });
                }
            }
            Err(e) => self.fail(ProtocolError::Chunk(e)),
        }
        expanded.clear();
        self.expanded = expanded;
    }
}

/// Warn when the producer declares a newer or uninterpretable protocol version (§4.14).
fn check_version(declared: Option<&str>, warnings: &mut Vec<Warning>) {
    let Some(declared) = declared else { return };
    let ours = Version::parse(PROTOCOL_VERSION);
    let is_major_minor = declared.split('.').count() == 2;
    match (Version::parse(declared), ours) {
        (Some(theirs), Some(ours)) if is_major_minor => {
            if theirs > ours {
                warnings.push(Warning::new(
                    WarningKind::ProtocolVersion,
                    Some("RUN_STARTED"),
                    Some("/protocolVersion".into()),
                    format!("producer declares protocol {declared}, newer than this client's {PROTOCOL_VERSION}; newer additions may be ignored"),
                ));
            }
        }
        _ => warnings.push(Warning::new(
            WarningKind::ProtocolVersion,
            Some("RUN_STARTED"),
            Some("/protocolVersion".into()),
            format!("cannot interpret protocolVersion {declared:?} (expected MAJOR.MINOR); proceeding as {PROTOCOL_VERSION}"),
        )),
    }
}

/// Parse one frame's data. JavaScript producers can emit lone UTF-16 surrogate escapes
/// (`"\ud83d"`) that serde_json rejects; those become U+FFFD with a warning instead of failing
/// the run (§7.6).
pub(crate) fn parse_json(data: &str, warnings: &mut Vec<Warning>) -> Result<Value, String> {
    match serde_json::from_str::<Value>(data) {
        Ok(v) => Ok(v),
        Err(e) => {
            let Some(fixed) = replace_lone_surrogates(data) else {
                return Err(e.to_string());
            };
            let v = serde_json::from_str::<Value>(&fixed).map_err(|e2| e2.to_string())?;
            warnings.push(Warning::new(
                WarningKind::LoneSurrogate,
                None,
                None,
                "lone UTF-16 surrogate escape in event JSON replaced with U+FFFD",
            ));
            Ok(v)
        }
    }
}

/// Rewrite `\uD800`–`\uDFFF` escapes that are not part of a valid pair as `\uFFFD`.
/// Returns `None` when there was nothing to replace.
pub fn replace_lone_surrogates(text: &str) -> Option<String> {
    fn hex4(b: &[u8]) -> Option<u16> {
        let s = std::str::from_utf8(b.get(..4)?).ok()?;
        u16::from_str_radix(s, 16).ok()
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes.get(i) != Some(&b'\\') {
            i += 1;
            continue;
        }
        // An escape: `\\`, `\"`, … are two bytes; `\uXXXX` six.
        if bytes.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let Some(unit) = bytes.get(i + 2..).and_then(hex4) else {
            i += 2;
            continue;
        };
        let lone = match unit {
            0xD800..=0xDBFF => {
                let next = bytes.get(i + 6..i + 8) == Some(b"\\u".as_slice());
                let low = bytes.get(i + 8..).and_then(hex4);
                if next && matches!(low, Some(0xDC00..=0xDFFF)) {
                    i += 12;
                    continue;
                }
                true
            }
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            out.push_str(text.get(last..i).unwrap_or(""));
            out.push_str("\\ufffd");
            changed = true;
            last = i + 6;
        }
        i += 6;
    }
    if !changed {
        return None;
    }
    out.push_str(text.get(last..).unwrap_or(""));
    Some(out)
}
