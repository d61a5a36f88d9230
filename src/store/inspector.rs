//! The event inspector's side of the store: one [`EventLog`] per thread (switching threads
//! switches logs; logs live for the page, they are not persisted), fed by the same calls that
//! feed the pipeline, and trace export / replay.
//!
//! The log costs O(the event) per event like the pipeline. The inspector panel is told about
//! new events through [`AgentStore::log_version`], bumped at most once per flush and only while
//! the panel is open ([`AgentStore::inspector_open`], which an embedding page may set).

use super::threads::ThreadError;
use super::*;
use crate::event_log::{EventLog, LogError, LogLimits};
use crate::trace::{self, Trace};

/// The inspector's bookkeeping in the engine.
#[derive(Default)]
pub(super) struct InspectorState {
    logs: HashMap<String, EventLog>,
    /// What a thread with nothing recorded shows.
    empty: EventLog,
    /// Something was recorded since the last flush.
    changed: bool,
}

impl InspectorState {
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

/// The longest pause honoured between two events of a timed replay.
const MAX_REPLAY_GAP_MS: f64 = 10_000.0;

impl AgentStore {
    /// Read the open thread's log (`None` once the chat is gone).
    pub fn with_log<R>(&self, f: impl FnOnce(&EventLog) -> R) -> Option<R> {
        self.engine.try_with_value(|e| {
            f(e.inspector
                .logs
                .get(&e.thread_id)
                .unwrap_or(&e.inspector.empty))
        })
    }

    /// The open thread as it was after its first `k` logged events.
    pub fn thread_at(&self, k: usize) -> Result<Thread, LogError> {
        self.with_log(|log| log.thread_at(k))
            .unwrap_or(Err(LogError::Empty))
    }

    /// The open thread's trace as a file's bytes.
    pub fn export_trace(&self, format: TraceFormat) -> Vec<u8> {
        self.with_log(|log| match format {
            TraceFormat::Sse => log.raw_bytes().to_vec(),
            TraceFormat::Jsonl => trace::to_jsonl(log).into_bytes(),
        })
        .unwrap_or_default()
    }

    /// Bump [`AgentStore::log_version`] if something was recorded (called by `flush`).
    pub(super) fn publish_log(&self) {
        let changed = self
            .engine
            .try_update_value(|e| std::mem::take(&mut e.inspector.changed))
            .unwrap_or(false);
        if changed && self.inspector_open.get_untracked() {
            self.log_version.update(|v| *v += 1);
        }
    }

    /// Replay a trace into a new thread, with its original timing (`timed`) or at once.
    /// Refused while a run is in flight. Stop ends it like a run.
    pub async fn replay_trace(self, trace: Trace, timed: bool) -> Result<(), ThreadError> {
        self.new_thread()?;
        self.engine.update_value(|e| {
            let id = e.thread_id.clone();
            e.inspector.forget(&id);
        });
        match trace {
            Trace::Sse(bytes) => {
                self.begin_external();
                self.push_bytes(&bytes);
                self.end_external(None);
            }
            Trace::Runs(runs) => {
                let mut last_at: Option<f64> = None;
                for run in runs {
                    if let Some(input) = &run.input {
                        self.engine.update_value(|e| {
                            let previous = std::mem::take(&mut e.pipeline.thread);
                            e.pipeline.thread = trace::continue_with(previous, input);
                            e.dirty.restructured = true;
                            e.dirty.state_all = true;
                        });
                    }
                    self.begin_external();
                    for (at, event) in &run.events {
                        if timed {
                            let gap =
                                last_at.map_or(0.0, |l| (at - l).clamp(0.0, MAX_REPLAY_GAP_MS));
                            if gap >= 1.0 {
                                crate::transport::sleep(gap as u32).await;
                            }
                        }
                        last_at = Some(*at);
                        // Stopped (or the chat closed) while waiting: what arrived stays.
                        if !self.running.try_get_untracked().unwrap_or(false) {
                            return Ok(());
                        }
                        self.push_bytes(&trace::sse_frame(event));
                    }
                    self.end_external(None);
                }
            }
        }
        Ok(())
    }
}
