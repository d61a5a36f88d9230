//! The event inspector's side of the session: one [`EventLog`](crate::event_log::EventLog) per thread (switching threads
//! switches logs; logs live as long as the session, they are not persisted), fed by the same
//! calls that feed the pipeline; time travel and trace export. Recording costs O(the event)
//! per event like the pipeline.

#[cfg(feature = "inspector")]
use std::collections::HashMap;

#[cfg(feature = "inspector")]
use super::Session;
#[cfg(feature = "inspector")]
use crate::event_log::{EventLog, LogError, LogLimits};
#[cfg(feature = "inspector")]
use crate::protocol::Thread;
#[cfg(feature = "inspector")]
use crate::trace;

/// The logs of the session's threads.
#[cfg(feature = "inspector")]
#[derive(Default)]
pub(super) struct Logs {
    logs: HashMap<String, EventLog>,
    /// What a thread with nothing recorded shows.
    empty: EventLog,
    /// Something was recorded since the last flush.
    changed: bool,
}

#[cfg(feature = "inspector")]
impl Logs {
    /// The log of `thread_id` (created empty on first use).
    pub(super) fn log_mut(&mut self, thread_id: &str) -> &mut EventLog {
        self.changed = true;
        self.logs
            .entry(thread_id.to_owned())
            .or_insert_with(|| EventLog::new(LogLimits::default()))
    }

    pub(super) fn forget(&mut self, thread_id: &str) {
        self.logs.remove(thread_id);
        self.changed = true;
    }

    pub(super) fn take_changed(&mut self) -> bool {
        std::mem::take(&mut self.changed)
    }
}

/// A bundle without the inspector records nothing: the bytes go straight to the pipeline.
#[cfg(not(feature = "inspector"))]
#[derive(Default)]
pub(super) struct Logs {
    none: NoLog,
}

#[cfg(not(feature = "inspector"))]
#[derive(Default)]
pub(super) struct NoLog;

#[cfg(not(feature = "inspector"))]
impl Logs {
    pub(super) fn log_mut(&mut self, _thread_id: &str) -> &mut NoLog {
        &mut self.none
    }

    pub(super) fn forget(&mut self, _thread_id: &str) {}

    pub(super) fn take_changed(&mut self) -> bool {
        false
    }
}

#[cfg(not(feature = "inspector"))]
impl NoLog {
    pub(super) fn begin_run(&mut self, _thread: &crate::protocol::Thread, _now_ms: f64) {}

    pub(super) fn push_through(
        &mut self,
        pipeline: &mut crate::protocol::Pipeline,
        decoder: &mut crate::protocol::Decoder,
        bytes: &[u8],
        _now_ms: f64,
    ) -> Vec<crate::protocol::Delivered> {
        decoder.push(pipeline, bytes)
    }

    pub(super) fn finish_through(
        &mut self,
        pipeline: &mut crate::protocol::Pipeline,
        decoder: &mut crate::protocol::Decoder,
        _now_ms: f64,
    ) -> Vec<crate::protocol::Delivered> {
        decoder.finish(pipeline)
    }

    pub(super) fn note_error(&mut self, _error: String, _now_ms: f64) {}
}

/// Which trace file to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceFormat {
    /// The raw bytes as received (`.sse`).
    Sse,
    /// Runs, events and arrival offsets (`.jsonl`, see [`crate::trace`]).
    Jsonl,
}

impl TraceFormat {
    pub fn extension(self) -> &'static str {
        match self {
            TraceFormat::Sse => "sse",
            TraceFormat::Jsonl => "jsonl",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            TraceFormat::Sse => "text/event-stream",
            TraceFormat::Jsonl => "application/x-ndjson",
        }
    }
}

#[cfg(feature = "inspector")]
impl Session {
    /// The open thread's log.
    pub fn log(&self) -> &EventLog {
        self.logs
            .logs
            .get(&self.thread_id)
            .unwrap_or(&self.logs.empty)
    }

    /// The open thread as it was after its first `k` logged events.
    pub fn thread_at(&self, k: usize) -> Result<Thread, LogError> {
        self.log().thread_at(k)
    }

    /// The open thread's trace as a file's bytes.
    pub fn export_trace(&self, format: TraceFormat) -> Vec<u8> {
        let log = self.log();
        match format {
            TraceFormat::Sse => log.sse_trace(),
            TraceFormat::Jsonl => trace::to_jsonl(log).into_bytes(),
        }
    }

    /// Start replaying a trace into a new conversation (its log starts empty). Refused while
    /// a run is in flight. The caller then feeds the trace: raw `.sse` bytes as one external
    /// run, or each run of a `.jsonl` trace with [`Session::begin_replayed_run`].
    pub fn begin_replay(&mut self) -> Result<(), super::threads::ThreadError> {
        self.new_thread()?;
        let id = self.thread_id.clone();
        self.logs.forget(&id);
        // A recording: its pending tool calls never reach a handler (issue 12, item 6).
        self.threads.replayed = true;
        Ok(())
    }

    /// A run of a replayed trace starts: the history it was sent with (when the trace has
    /// it) replaces the thread's, then a run is open for its events (the generation).
    pub fn begin_replayed_run(&mut self, run: &trace::TraceRun) -> u64 {
        if let Some(input) = &run.input {
            let previous = std::mem::take(&mut self.pipeline.thread);
            self.pipeline.thread = trace::continue_with(previous, input);
            self.dirty.restructured = true;
            self.dirty.state_all = true;
        }
        self.begin_external()
    }
}
