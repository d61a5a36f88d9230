//! The event inspector's log (issue 6): every event of a thread, in arrival order, with the raw
//! SSE text it came in, its arrival time and the warnings or error it caused — and time travel
//! over it. Pure (no browser, no UI framework): it tests and benchmarks natively.
//!
//! A generative interface is a pure function of the ordered event log, so the transcript and
//! the state *as of event k* are rebuilt, never stored: [`EventLog::thread_at`] clones the
//! nearest [`Checkpoint`] at or before `k` and folds the events after it with
//! [`Thread::apply`] (the same reducer the live path runs).
//!
//! **Compact storage.** Raw stream bytes go into one append-only buffer; each delivered event
//! is kept as its compact JSON in a second buffer and decoded on demand; an `Entry` is a few
//! offsets (48 bytes). A frame's raw text is the bytes since the previous recorded frame (so
//! keep-alive comments before an event show with it); chunk expansion can deliver several
//! events from one frame, which then share its raw text.
//!
//! **Runs.** The person's new message, frontend tool results, a retry's truncation all happen
//! between runs, outside the event stream, so each run records the thread as it was sent. The
//! first run's is a *required* checkpoint: the thread's starting point. A later run records a
//! [`Splice`] instead — the difference between the fold so far and the thread it was sent
//! with (messages kept, messages added, the state if it changed), computed once per run
//! (O(history), like building the request) and small: a multi-run thread does not pay a
//! snapshot per run. Inside a run an *optional* checkpoint is taken when at least
//! [`LogLimits::checkpoint_every`] events and at least as many raw bytes as the last
//! checkpoint's size arrived since the previous one, so copying the thread costs O(1)
//! amortised per event byte. Optional checkpoints are thinned (every other one dropped, the
//! interval doubled) beyond [`LogLimits::max_checkpoints`].
//!
//! **Memory bound.** Everything the log holds — buffers (by capacity), entries, checkpoints
//! (estimated heap size of their threads), diagnostics, metrics — is counted by
//! [`EventLog::heap_bytes`] and kept at or under [`LogLimits::max_bytes`] (64 MiB by default;
//! 30–39 MB per 100,000 events, see docs/dev/benchmarks.md). When the next frame or a run's
//! checkpoint would not fit, optional checkpoints are thinned first; if it still does not fit,
//! **recording stops** (the conversation itself goes on): [`EventLog::stopped`] says why, and
//! everything recorded until then stays exact and replayable.

use std::collections::HashMap;

use serde_json::Value;

use crate::protocol::event::EventKind;
use crate::protocol::types::{Content, Message};
use crate::protocol::{Decoder, Delivered, Event, Pipeline, Thread, Wire};

/// Budget and checkpoint spacing of one log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogLimits {
    /// Heap bytes the log may hold (see [`EventLog::heap_bytes`]).
    pub max_bytes: usize,
    /// Minimum events between two optional checkpoints (doubles when they are thinned).
    pub checkpoint_every: usize,
    /// Optional checkpoints kept before thinning.
    pub max_checkpoints: usize,
}

impl Default for LogLimits {
    fn default() -> Self {
        LogLimits {
            max_bytes: 64 * 1024 * 1024,
            checkpoint_every: 128,
            max_checkpoints: 64,
        }
    }
}

/// The `type` shown for a frame that delivered no event but caused a warning or an error.
pub const DIAGNOSTIC_TYPE: &str = "DIAGNOSTIC";

/// One logged event (or a diagnostic-only frame). Offsets index the log's buffers.
#[derive(Debug, Clone, Copy)]
struct Entry {
    raw: (u32, u32),
    json: (u32, u32),
    /// Milliseconds since the log's first run began.
    at_ms: f64,
    kind: &'static str,
    run: u32,
}

/// Warnings and the stream error one frame caused.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Diagnostics {
    pub warnings: Vec<String>,
    pub error: Option<String>,
}

impl Diagnostics {
    fn heap(&self) -> usize {
        64 + self.warnings.iter().map(|w| w.len() + 24).sum::<usize>()
            + self.error.as_ref().map_or(0, String::len)
    }
}

/// A thread as it was before entry `index`.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    pub index: usize,
    pub thread: Thread,
    /// Estimated heap bytes of `thread`.
    pub bytes: usize,
    /// The thread's starting point (never thinned).
    pub required: bool,
    /// Runs whose starting point (splice) `thread` already includes.
    runs: usize,
}

/// How the thread changed between the end of the previous run and the start of this one.
#[derive(Debug, Clone, PartialEq)]
pub struct Splice {
    /// Messages kept from the fold (a common prefix).
    pub keep: usize,
    /// Messages after them.
    pub append: Vec<Message>,
    /// The new state, when it changed.
    pub state: Option<Value>,
}

impl Splice {
    /// From the fold `end` to the thread `now` that the run was sent with.
    pub fn between(end: &Thread, now: &Thread) -> Splice {
        let keep = end
            .messages
            .iter()
            .zip(&now.messages)
            .take_while(|(a, b)| a == b)
            .count();
        Splice {
            keep,
            append: now.messages.get(keep..).unwrap_or_default().to_vec(),
            state: (end.state != now.state).then(|| now.state.clone()),
        }
    }

    fn apply(&self, thread: &mut Thread) {
        thread.truncate(self.keep);
        for m in &self.append {
            thread.append(m.clone());
        }
        if let Some(state) = &self.state {
            thread.set_state(state.clone());
        }
    }

    fn heap(&self) -> usize {
        64 + self.append.iter().map(message_heap).sum::<usize>()
            + self.state.as_ref().map_or(0, value_heap)
    }
}

/// What one run measured (per response body).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunMetrics {
    /// From `RUN_STARTED` (empty until it arrives).
    pub run_id: String,
    /// Arrival of the first event of the run (ms since the log began).
    pub started_ms: f64,
    pub events: usize,
    /// Milliseconds from the run's first event to the first `TEXT_MESSAGE_CONTENT`.
    pub first_token_ms: Option<f64>,
    /// Arrival of the last text delta (ms since the log began).
    pub last_token_ms: Option<f64>,
    /// Characters of answer text received.
    pub text_chars: u64,
    /// Completed tool calls: name and milliseconds from `TOOL_CALL_START` to its result.
    pub tools: Vec<(String, f64)>,
    /// `usage` of `RUN_FINISHED` / `RUN_ERROR` (or of its `rawEvent`), as sent.
    pub usage: Option<Value>,
    pub warnings: usize,
    pub errors: usize,
    open_tools: HashMap<String, (String, f64)>,
    first_token_at: Option<f64>,
}

impl RunMetrics {
    /// Answer characters per second, from the first to the last text delta.
    pub fn chars_per_second(&self) -> Option<f64> {
        let first = self.first_token_at?;
        let last = self.last_token_ms?;
        let secs = (last - first) / 1000.0;
        (secs > 0.0).then(|| self.text_chars as f64 / secs)
    }

    fn heap(&self) -> usize {
        128 + self.run_id.len()
            + self.tools.iter().map(|(n, _)| n.len() + 40).sum::<usize>()
            + self.open_tools.len() * 96
            + self.usage.as_ref().map_or(0, value_heap)
    }

    fn observe(&mut self, event: &Event, at: f64) {
        self.events += 1;
        match &event.kind {
            EventKind::RunStarted(r) => self.run_id = r.run_id.clone(),
            EventKind::TextMessageContent(d) => {
                if self.first_token_at.is_none() {
                    self.first_token_at = Some(at);
                    self.first_token_ms = Some(at - self.started_ms);
                }
                self.last_token_ms = Some(at);
                self.text_chars += d.delta.chars().count() as u64;
            }
            EventKind::ToolCallStart(s) => {
                self.open_tools
                    .insert(s.tool_call_id.clone(), (s.tool_call_name.clone(), at));
            }
            EventKind::ToolCallResult(r) => {
                if let Some((name, t0)) = self.open_tools.remove(&r.tool_call_id) {
                    self.tools.push((name, at - t0));
                }
            }
            EventKind::RunFinished(f) => self.take_usage(f.usage.as_ref(), event),
            EventKind::RunError(e) => self.take_usage(e.usage.as_ref(), event),
            _ => {}
        }
    }

    fn take_usage<T: serde::Serialize>(&mut self, usage: Option<&T>, event: &Event) {
        self.usage = usage
            .and_then(|u| serde_json::to_value(u).ok())
            .or_else(|| event.raw_event.as_ref()?.get("usage"));
    }
}

/// A run of the log: where its entries and raw bytes begin, how it started, its metrics.
#[derive(Debug, Clone)]
pub struct RunRecord {
    pub first_entry: usize,
    pub raw_start: usize,
    /// The client's changes before this run (`None` for the first run: its checkpoint).
    pub splice: Option<Splice>,
    pub metrics: RunMetrics,
}

/// Why a view could not be rebuilt.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LogError {
    #[error("nothing has been recorded yet")]
    Empty,
    #[error("event {index} could not be decoded: {message}")]
    Decode { index: usize, message: String },
}

/// One event of the log, decoded for display.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryView {
    pub index: usize,
    pub kind: &'static str,
    pub at_ms: f64,
    pub run: usize,
    /// The frame as received (lossy UTF-8).
    pub raw: String,
    /// The delivered event (`None` for a diagnostic-only frame).
    pub event: Option<Event>,
    pub diagnostics: Option<Diagnostics>,
}

/// The log of one thread.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    limits: LogLimits,
    raw: Vec<u8>,
    json: Vec<u8>,
    scratch: Vec<u8>,
    entries: Vec<Entry>,
    diagnostics: HashMap<u32, Diagnostics>,
    diagnostics_bytes: usize,
    checkpoints: Vec<Checkpoint>,
    checkpoint_bytes: usize,
    runs: Vec<RunRecord>,
    /// Sum of the runs' metrics heap (kept so [`EventLog::heap_bytes`] is O(1)).
    runs_bytes: usize,
    /// Start of the frame being received (into `raw`).
    frame_start: usize,
    /// The clock value of the first run's start.
    origin_ms: Option<f64>,
    every: usize,
    since_events: usize,
    since_bytes: usize,
    stopped: Option<String>,
    /// A run came in on another wire than AG-UI's SSE (the AI SDK's stream, protobuf): the
    /// raw bytes are not an AG-UI trace.
    translated: bool,
}

/// Grow `buf` by `extra` bytes at 25 % steps (not doubling), so capacity stays close to use.
fn grow(buf: &mut Vec<u8>, extra: usize) {
    if buf.capacity() - buf.len() < extra {
        buf.reserve_exact(extra.max(buf.len() / 4 + 4096));
    }
}

/// The capacity [`grow`] would leave.
fn grown(buf: &Vec<u8>, extra: usize) -> usize {
    if buf.capacity() - buf.len() < extra {
        buf.len() + extra.max(buf.len() / 4 + 4096)
    } else {
        buf.capacity()
    }
}

/// Estimated heap bytes of a JSON value (strings, containers and their slots).
pub fn value_heap(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len(),
        Value::Array(a) => a.iter().map(|x| 32 + value_heap(x)).sum(),
        Value::Object(o) => o.iter().map(|(k, x)| 48 + k.len() + value_heap(x)).sum(),
        _ => 0,
    }
}

fn message_heap(m: &Message) -> usize {
    let content = match &m.content {
        Some(Content::Text(t)) => t.len(),
        Some(other) => serde_json::to_value(other).map_or(0, |v| value_heap(&v)),
        None => 0,
    };
    let calls: usize = m
        .tool_calls
        .iter()
        .flatten()
        .map(|c| 96 + c.id.len() + c.function.name.len() + c.function.arguments.len())
        .sum();
    // The struct itself and its small fields, plus the thread's id index.
    320 + m.id.len() * 2 + content + calls
}

/// Estimated heap bytes of a thread (what a checkpoint costs).
pub fn thread_heap(t: &Thread) -> usize {
    let args: usize = t
        .tool_args
        .iter()
        .map(|(k, a)| 160 + k.len() + a.run_id.len())
        .sum();
    256 + t.messages.iter().map(message_heap).sum::<usize>()
        + 32
        + value_heap(&t.state)
        + t.runs.len() * 256
        + t.warnings.len() * 160
        + args
}

impl EventLog {
    pub fn new(limits: LogLimits) -> Self {
        EventLog {
            limits,
            every: limits.checkpoint_every.max(1),
            ..Default::default()
        }
    }

    /// Events (and diagnostic-only frames) recorded.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn limits(&self) -> LogLimits {
        self.limits
    }

    /// Why recording stopped, if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    pub fn runs(&self) -> &[RunRecord] {
        &self.runs
    }

    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    /// Every raw byte received, all runs concatenated.
    pub fn raw_bytes(&self) -> &[u8] {
        &self.raw
    }

    /// The `.sse` trace: the raw bytes when every run came as AG-UI SSE; else (a run on the AI
    /// SDK's stream or protobuf) the events as delivered, one `data:` frame each — an AG-UI
    /// trace that replays to the same conversation.
    pub fn sse_trace(&self) -> Vec<u8> {
        if !self.translated {
            return self.raw.clone();
        }
        let mut out = Vec::with_capacity(self.json.len() + 8 * self.entries.len());
        for i in 0..self.entries.len() {
            let event = self.event_json(i);
            if !event.is_empty() {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(event);
                out.extend_from_slice(b"\n\n");
            }
        }
        out
    }

    /// Heap bytes held: buffers by capacity, entries, checkpoints, diagnostics, metrics.
    pub fn heap_bytes(&self) -> usize {
        self.raw.capacity()
            + self.json.capacity()
            + self.scratch.capacity()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.diagnostics_bytes
            + self.checkpoint_bytes
            + self.checkpoints.capacity() * std::mem::size_of::<Checkpoint>()
            + self.runs.capacity() * std::mem::size_of::<RunRecord>()
            + self.runs_bytes
    }

    fn rel(&self, now_ms: f64) -> f64 {
        now_ms - self.origin_ms.unwrap_or(now_ms)
    }

    fn stop(&mut self, what: &str) {
        if self.stopped.is_none() {
            self.stopped = Some(format!(
                "The inspector's log is full ({} events, {:.1} MB of {:.0} MB): {what} was not \
                 recorded and recording stopped. The conversation goes on; the {} recorded \
                 events stay exact.",
                self.entries.len(),
                self.heap_bytes() as f64 / 1e6,
                self.limits.max_bytes as f64 / 1e6,
                self.entries.len(),
            ));
        }
    }

    /// Drop every other optional checkpoint and double the interval. False if none to drop.
    fn thin(&mut self) -> bool {
        let optional = self.checkpoints.iter().filter(|c| !c.required).count();
        if optional == 0 {
            return false;
        }
        let mut n = 0;
        let mut freed = 0;
        self.checkpoints.retain(|c| {
            if c.required {
                return true;
            }
            n += 1;
            let keep = n % 2 == 0;
            if !keep {
                freed += c.bytes;
            }
            keep
        });
        self.checkpoint_bytes -= freed;
        self.every = self.every.saturating_mul(2);
        true
    }

    /// An upper bound of what recording one line can add: the raw bytes, its events' JSON
    /// (bounded by twice the line plus chunk-expansion slack), a few entries, diagnostics,
    /// metrics — each buffer by the capacity its growth step would leave.
    fn growth_for(&self, line: usize) -> usize {
        let json = 2 * line + 1024;
        let entries = if self.entries.capacity() < self.entries.len() + 8 {
            (self.entries.len() / 4 + 1024) * std::mem::size_of::<Entry>()
        } else {
            0
        };
        (grown(&self.raw, line) - self.raw.capacity())
            + (grown(&self.json, json) - self.json.capacity())
            + (json.min(64 * 1024)).saturating_sub(self.scratch.capacity())
            + entries
            + 4096
    }

    /// Whether `extra` more heap bytes fit, thinning optional checkpoints if needed.
    fn fits(&mut self, extra: usize) -> bool {
        loop {
            if self.heap_bytes() + extra <= self.limits.max_bytes {
                return true;
            }
            if !self.thin() {
                return false;
            }
        }
    }

    /// `runs`: how many runs' starting points `thread` includes.
    fn push_checkpoint(&mut self, thread: &Thread, required: bool, runs: usize) -> bool {
        let bytes = thread_heap(thread);
        if !self.fits(bytes + std::mem::size_of::<Checkpoint>()) {
            return false;
        }
        let index = self.entries.len();
        // Two runs without an event between them: the later starting point wins.
        if let Some(last) = self.checkpoints.last() {
            if last.index == index && (required || !last.required) {
                if let Some(old) = self.checkpoints.pop() {
                    self.checkpoint_bytes -= old.bytes;
                }
            }
        }
        self.checkpoints.push(Checkpoint {
            index,
            thread: thread.clone(),
            bytes,
            required,
            runs,
        });
        self.checkpoint_bytes += bytes;
        self.since_events = 0;
        self.since_bytes = 0;
        let optional = self.checkpoints.iter().filter(|c| !c.required).count();
        if optional > self.limits.max_checkpoints {
            self.thin();
        }
        true
    }

    /// A run (response body) begins on `thread`, as sent.
    pub fn begin_run(&mut self, thread: &Thread, now_ms: f64) {
        if self.stopped.is_some() {
            return;
        }
        if self.origin_ms.is_none() {
            self.origin_ms = Some(now_ms);
        }
        let splice = if self.runs.is_empty() {
            None
        } else {
            match self.thread_at(self.entries.len()) {
                Ok(end) => Some(Splice::between(&end, thread)),
                Err(_) => None,
            }
        };
        let metrics = RunMetrics {
            started_ms: self.rel(now_ms),
            ..Default::default()
        };
        let bytes = metrics.heap() + splice.as_ref().map_or(0, Splice::heap);
        match &splice {
            Some(_) if !self.fits(bytes + std::mem::size_of::<RunRecord>()) => {
                return self.stop("the start of a run");
            }
            Some(_) => {}
            None => {
                if !self.push_checkpoint(thread, true, self.runs.len() + 1) {
                    return self.stop("the start of a run");
                }
            }
        }
        self.frame_start = self.raw.len();
        self.runs_bytes += bytes;
        self.runs.push(RunRecord {
            first_entry: self.entries.len(),
            raw_start: self.raw.len(),
            splice,
            metrics,
        });
    }

    /// Feed AG-UI response bytes through `pipeline`, recording each frame; returns what it
    /// delivered.
    pub fn push(&mut self, pipeline: &mut Pipeline, bytes: &[u8], now_ms: f64) -> Vec<Delivered> {
        self.push_through(pipeline, &mut Decoder::default(), bytes, now_ms)
    }

    /// [`EventLog::push`] for a response of any wire: `decoder` turns the bytes into events.
    pub fn push_through(
        &mut self,
        pipeline: &mut Pipeline,
        decoder: &mut Decoder,
        bytes: &[u8],
        now_ms: f64,
    ) -> Vec<Delivered> {
        if self.stopped.is_some() || self.runs.is_empty() {
            return decoder.push(pipeline, bytes);
        }
        self.translated |= decoder.wire() != Wire::AgUi;
        let mut out = Vec::new();
        // One line at a time (as the pipeline itself does), so each delivered event is known
        // to come from the frame that ends at this line.
        for line in bytes.split_inclusive(|b| *b == b'\n' || *b == b'\r') {
            if self.stopped.is_some() {
                out.extend(decoder.push(pipeline, line));
                continue;
            }
            if self.since_events >= self.every
                && self.since_bytes >= self.checkpoints.last().map_or(0, |c| c.bytes)
            {
                self.push_checkpoint(&pipeline.thread, false, self.runs.len());
            }
            if !self.fits(self.growth_for(line.len())) {
                self.stop("the next frame");
                out.extend(decoder.push(pipeline, line));
                continue;
            }
            grow(&mut self.raw, line.len());
            self.raw.extend_from_slice(line);
            let warnings = pipeline.thread.warnings.len();
            let failed = pipeline.error().is_some();
            let delivered = decoder.push(pipeline, line);
            self.record(pipeline, &delivered, warnings, failed, now_ms);
            out.extend(delivered);
        }
        out
    }

    /// The body ended: finish `pipeline`, recording what that delivers or fails.
    pub fn finish(&mut self, pipeline: &mut Pipeline, now_ms: f64) -> Vec<Delivered> {
        self.finish_through(pipeline, &mut Decoder::default(), now_ms)
    }

    /// [`EventLog::finish`] for a response of any wire.
    pub fn finish_through(
        &mut self,
        pipeline: &mut Pipeline,
        decoder: &mut Decoder,
        now_ms: f64,
    ) -> Vec<Delivered> {
        let warnings = pipeline.thread.warnings.len();
        let failed = pipeline.error().is_some();
        let delivered = decoder.finish(pipeline);
        if self.stopped.is_none() && !self.runs.is_empty() {
            self.record(pipeline, &delivered, warnings, failed, now_ms);
        }
        delivered
    }

    /// A failure outside the stream (the transport), shown as a diagnostic entry.
    pub fn note_error(&mut self, error: String, now_ms: f64) {
        if self.stopped.is_some() || self.runs.is_empty() {
            return;
        }
        let d = Diagnostics {
            warnings: Vec::new(),
            error: Some(error),
        };
        if self.fits(d.heap() + std::mem::size_of::<Entry>()) {
            self.push_entry(None, d, now_ms);
        }
    }

    fn record(
        &mut self,
        pipeline: &Pipeline,
        delivered: &[Delivered],
        warnings_before: usize,
        failed_before: bool,
        now_ms: f64,
    ) {
        let diag = Diagnostics {
            warnings: pipeline
                .thread
                .warnings
                .get(warnings_before..)
                .unwrap_or_default()
                .iter()
                .map(ToString::to_string)
                .collect(),
            error: match pipeline.error() {
                Some(e) if !failed_before => Some(e.to_string()),
                _ => None,
            },
        };
        if delivered.is_empty() && diag == Diagnostics::default() {
            return;
        }
        let last = delivered.len().saturating_sub(1);
        if delivered.is_empty() {
            self.push_entry(None, diag, now_ms);
        } else {
            let mut diag = Some(diag);
            for (i, d) in delivered.iter().enumerate() {
                let di = if i == last {
                    diag.take().unwrap_or_default()
                } else {
                    Diagnostics::default()
                };
                self.push_entry(Some(&d.event), di, now_ms);
            }
        }
        self.since_bytes += self.raw.len() - self.frame_start;
        self.frame_start = self.raw.len();
    }

    fn push_entry(&mut self, event: Option<&Event>, diag: Diagnostics, now_ms: f64) {
        let at = self.rel(now_ms);
        let run = self.runs.len().saturating_sub(1);
        let json_start = self.json.len();
        if let Some(e) = event {
            self.scratch.clear();
            if serde_json::to_writer(&mut self.scratch, e).is_ok() {
                grow(&mut self.json, self.scratch.len());
                self.json.extend_from_slice(&self.scratch);
            }
            // A huge event must not pin its scratch allocation.
            if self.scratch.capacity() > 64 * 1024 {
                self.scratch = Vec::new();
            }
        }
        if self.entries.capacity() == self.entries.len() {
            self.entries.reserve_exact(self.entries.len() / 4 + 1024);
        }
        let index = self.entries.len();
        self.entries.push(Entry {
            raw: (self.frame_start as u32, self.raw.len() as u32),
            json: (json_start as u32, self.json.len() as u32),
            at_ms: at,
            kind: event.map_or(DIAGNOSTIC_TYPE, Event::type_name),
            run: run as u32,
        });
        self.since_events += 1;
        if let Some(r) = self.runs.last_mut() {
            let before = r.metrics.heap();
            if let Some(e) = event {
                r.metrics.observe(e, at);
            } else {
                r.metrics.events += 1;
            }
            r.metrics.warnings += diag.warnings.len();
            r.metrics.errors += usize::from(diag.error.is_some());
            self.runs_bytes = self.runs_bytes + r.metrics.heap() - before;
        }
        if diag != Diagnostics::default() {
            self.diagnostics_bytes += diag.heap();
            self.diagnostics.insert(index as u32, diag);
        }
    }

    /// The `type` of entry `i` (no decoding).
    pub fn kind(&self, i: usize) -> Option<&'static str> {
        self.entries.get(i).map(|e| e.kind)
    }

    /// Arrival of entry `i`, in milliseconds since the log began.
    pub fn at_ms(&self, i: usize) -> Option<f64> {
        self.entries.get(i).map(|e| e.at_ms)
    }

    /// The run entry `i` belongs to.
    pub fn run_of(&self, i: usize) -> Option<usize> {
        self.entries.get(i).map(|e| e.run as usize)
    }

    /// The raw frame of entry `i` (bytes as received).
    pub fn raw(&self, i: usize) -> &[u8] {
        self.entries
            .get(i)
            .and_then(|e| self.raw.get(e.raw.0 as usize..e.raw.1 as usize))
            .unwrap_or_default()
    }

    /// The event JSON of entry `i` (empty for a diagnostic-only frame).
    pub fn event_json(&self, i: usize) -> &[u8] {
        self.entries
            .get(i)
            .and_then(|e| self.json.get(e.json.0 as usize..e.json.1 as usize))
            .unwrap_or_default()
    }

    pub fn diagnostics(&self, i: usize) -> Option<&Diagnostics> {
        self.diagnostics.get(&(i as u32))
    }

    /// Decode entry `i`'s event (`Ok(None)` for a diagnostic-only frame).
    pub fn event(&self, i: usize) -> Result<Option<Event>, LogError> {
        let json = self.event_json(i);
        if json.is_empty() {
            return Ok(None);
        }
        serde_json::from_slice(json)
            .map(Some)
            .map_err(|e| LogError::Decode {
                index: i,
                message: e.to_string(),
            })
    }

    /// Entry `i` decoded for display.
    pub fn view(&self, i: usize) -> Option<EntryView> {
        let e = self.entries.get(i)?;
        Some(EntryView {
            index: i,
            kind: e.kind,
            at_ms: e.at_ms,
            run: e.run as usize,
            raw: String::from_utf8_lossy(self.raw(i)).into_owned(),
            event: self.event(i).ok().flatten(),
            diagnostics: self.diagnostics(i).cloned(),
        })
    }

    /// The thread after the first `k` entries (`k` is clamped to the log's length) and the
    /// starting points of the runs begun by then: the nearest checkpoint at or before `k`,
    /// folded forward (runs' splices applied where they began).
    pub fn thread_at(&self, k: usize) -> Result<Thread, LogError> {
        let k = k.min(self.entries.len());
        let at = self.checkpoints.partition_point(|c| c.index <= k);
        let cp = at
            .checked_sub(1)
            .and_then(|i| self.checkpoints.get(i))
            .ok_or(LogError::Empty)?;
        let mut thread = cp.thread.clone();
        let mut run = cp.runs;
        for i in cp.index..=k {
            while let Some(r) = self.runs.get(run).filter(|r| r.first_entry == i) {
                if let Some(splice) = &r.splice {
                    splice.apply(&mut thread);
                }
                run += 1;
            }
            if i < k {
                if let Some(event) = self.event(i)? {
                    thread.apply(&event);
                }
            }
        }
        Ok(thread)
    }

    /// The thread a run started from (what was sent).
    pub fn run_input(&self, run: usize) -> Option<Thread> {
        let r = self.runs.get(run)?;
        self.thread_at(r.first_entry).ok()
    }

    /// Raw bytes of run `run`.
    pub fn run_raw(&self, run: usize) -> &[u8] {
        let Some(r) = self.runs.get(run) else {
            return &[];
        };
        let end = self
            .runs
            .get(run + 1)
            .map_or(self.raw.len(), |n| n.raw_start);
        self.raw.get(r.raw_start..end).unwrap_or_default()
    }
}

/// Ids and a one-line summary of an event, for the inspector's list.
pub fn describe(event: &Event) -> (String, String) {
    let json = event.to_json();
    let Some(obj) = json.as_object() else {
        return (String::new(), String::new());
    };
    let ids: Vec<String> = obj
        .iter()
        .filter(|(k, _)| k.ends_with("Id"))
        .filter_map(|(k, v)| v.as_str().map(|s| format!("{k}={s}")))
        .collect();
    let summary = match &event.kind {
        EventKind::TextMessageContent(d) | EventKind::ReasoningMessageContent(d) => {
            format!("{:?}", short(&d.delta, 60))
        }
        EventKind::ToolCallStart(s) => s.tool_call_name.clone(),
        EventKind::ToolCallArgs(a) => format!("{:?}", short(&a.delta, 60)),
        EventKind::StateDelta(d) => format!("{} op(s)", d.delta.len()),
        EventKind::RunError(e) => short(&e.message, 80),
        _ => ["name", "stepName", "activityType", "outcome"]
            .iter()
            .find_map(|k| obj.get(*k))
            .map(|v| short(&v.to_string(), 60))
            .unwrap_or_default(),
    };
    (ids.join(" "), summary)
}

/// At most `n` characters of `s`, with an ellipsis when cut.
pub fn short(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The JSON pointers an event's state change touched (for highlighting): each op's `path`
/// (and a move's `from`) for `STATE_DELTA` — an append (`/list/-`) marks the array — and the
/// root for `STATE_SNAPSHOT`.
pub fn changed_paths(event: &Event) -> Vec<String> {
    match &event.kind {
        EventKind::StateSnapshot(_) => vec![String::new()],
        EventKind::StateDelta(d) => d
            .delta
            .iter()
            .flat_map(|op| ["path", "from"].map(|k| op.get(k).and_then(Value::as_str)))
            .flatten()
            .map(|p| p.strip_suffix("/-").unwrap_or(p).to_owned())
            .collect(),
        _ => Vec::new(),
    }
}

/// The leaves of a JSON value as (RFC 6901 pointer, compact value), depth first, at most
/// `limit` of them (the second value says whether some were left out). Empty containers are
/// leaves too.
pub fn state_leaves(state: &Value, limit: usize) -> (Vec<(String, String)>, bool) {
    fn walk(v: &Value, path: &mut String, out: &mut Vec<(String, String)>, limit: usize) -> bool {
        let children: Vec<(String, &Value)> = match v {
            Value::Object(o) if !o.is_empty() => o
                .iter()
                .map(|(k, x)| (k.replace('~', "~0").replace('/', "~1"), x))
                .collect(),
            Value::Array(a) if !a.is_empty() => a
                .iter()
                .enumerate()
                .map(|(i, x)| (i.to_string(), x))
                .collect(),
            _ => {
                if out.len() >= limit {
                    return false;
                }
                out.push((path.clone(), short(&v.to_string(), 120)));
                return true;
            }
        };
        for (k, x) in children {
            let len = path.len();
            path.push('/');
            path.push_str(&k);
            let more = walk(x, path, out, limit);
            path.truncate(len);
            if !more {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    let complete = walk(state, &mut String::new(), &mut out, limit);
    (out, !complete)
}

/// Whether `path` is at or under one of the `changed` pointers.
pub fn is_changed(path: &str, changed: &[String]) -> bool {
    changed.iter().any(|c| {
        path == c
            || path
                .strip_prefix(c.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    })
}
