//! The thread model: a pure fold of verified events into what the person sees (spec digest §5,
//! the reference reducer `defaultApplyEvents`, reproduced so the final `messages` array is
//! identical), plus what the reference keeps elsewhere: run status and outcome, interrupts
//! (standard and the legacy `CUSTOM on_interrupt` form, §7.1), pending frontend tool calls
//! (§4.12), usage, steps, subagents, parsed tool arguments and warnings.
//!
//! Per-event cost is O(the event): messages and tool calls are found through id indexes, text
//! and argument deltas append in place, `STATE_DELTA` patches the state in place atomically
//! ([`super::state_patch`] rolls a failed patch back exactly), and nothing clones the transcript
//! or the state. Only events that restructure the list (a snapshot, a tool result inserted
//! before the end) touch more than one message.
//!
//! [`Thread::apply`] is a dispatcher with one method per event family, each in its file:
//! `run.rs` (run lifecycle, steps, legacy interrupts), `subagents.rs` (`SUBAGENT_*`, each with
//! its parent, name and status), `messages.rs` (text and reasoning messages, encrypted values,
//! `MESSAGES_SNAPSHOT`), `tools.rs` (`TOOL_CALL_*`) and `state.rs` (state and activity
//! snapshots and deltas).

mod messages;
mod run;
mod state;
mod subagents;
mod tools;

pub use subagents::{Subagent, SubagentStatus, Subagents, MAX_SUBAGENTS, MAX_SUBAGENT_DEPTH};

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::error::{Warning, WarningKind};
use super::event::{Event, EventKind};
use super::id_map::IdMap;
use super::partial_json::PartialJson;
use super::state_patch;
use super::types::{Content, Interrupt, Message, Object, Role, TokenUsage, ToolCall};

/// How a run ended (or that it has not).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RunStatus {
    /// No run yet on this thread.
    #[default]
    Idle,
    Running,
    /// Finished with success; `pending` lists frontend tool calls still to be answered.
    Success {
        pending: Vec<String>,
    },
    /// Paused for outside input.
    Interrupted,
    /// Stopped on purpose by the agent (`outcome: cancelled`) or by the person (Stop).
    Cancelled,
    /// The agent reported an error (`RUN_ERROR`).
    Error {
        message: String,
        code: Option<String>,
    },
    /// The client refused the stream (a protocol violation).
    Failed {
        error: String,
    },
    /// The stream ended without a terminal event: "connection lost", never success.
    Truncated,
}

impl RunStatus {
    /// Short machine name (`idle`, `running`, `success`, …), used as `data-status` by the UI.
    pub fn name(&self) -> &'static str {
        match self {
            RunStatus::Idle => "idle",
            RunStatus::Running => "running",
            RunStatus::Success { .. } => "success",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Cancelled => "cancelled",
            RunStatus::Error { .. } => "error",
            RunStatus::Failed { .. } => "error",
            RunStatus::Truncated => "truncated",
        }
    }
}

/// One run of the thread.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    pub run_id: String,
    pub thread_id: String,
    pub status: RunStatus,
    /// The producer's declared protocol version.
    pub protocol_version: Option<String>,
    /// `RUN_FINISHED.result` (success only).
    pub result: Option<Value>,
    /// Open interrupts of this run (standard outcome, or legacy `on_interrupt`).
    pub interrupts: Vec<Interrupt>,
    /// Interrupts announced by `CUSTOM on_interrupt` during the run.
    pub legacy_interrupts: Vec<Interrupt>,
    /// Tool calls started in this run, in call order.
    pub tool_call_ids: Vec<String>,
    /// Tool calls answered in this run by `TOOL_CALL_RESULT`.
    pub answered: HashSet<String>,
    pub usage: Vec<TokenUsage>,
    /// Steps currently open (owner, name).
    pub steps: Vec<(Option<String>, String)>,
    /// Every step started in this run, in order.
    pub step_log: Vec<String>,
}

/// Streaming view of one tool call's arguments.
#[derive(Debug, Clone)]
pub struct ToolArgs {
    pub parser: PartialJson,
    /// `TOOL_CALL_END` seen (arguments complete; not necessarily valid).
    pub ended: bool,
    /// The run that started the call.
    pub run_id: String,
}

/// What an event changed, for the reactive store: one message, the list's structure, one
/// tool call, the state (with the JSON pointers touched), the run, or nothing visible.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Nothing,
    /// The message at this index changed in place.
    Message(usize),
    /// A message was appended at the end (its index).
    Appended(usize),
    /// The message list was restructured (inserted in the middle, removed, reordered).
    Messages,
    /// A tool call changed (`TOOL_CALL_START`/`ARGS`/`END`/`RESULT`): its id, and what that
    /// did to the message list (the holder changed in place, a message appended — the holder
    /// or the result — or the list restructured by a result inserted before the end).
    ToolCall {
        id: String,
        rows: Rows,
    },
    /// The state was replaced wholesale.
    StateReplaced,
    /// The state was patched at these JSON pointers.
    StatePatched(Vec<String>),
    /// Run-level information changed (status, steps, interrupts, usage, subagents).
    Run,
    /// A warning was added and nothing else changed.
    Warning,
}

/// What a change did to the message list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// The message at this index changed in place.
    InPlace(usize),
    /// A message was appended at this index.
    Appended(usize),
    /// The list was restructured.
    Restructured,
}

impl Change {
    /// A tool call's change, from what it did to the list (`Message`, `Appended`, `Messages`).
    fn tool(id: &str, rows: Change) -> Change {
        let rows = match rows {
            Change::Message(i) => Rows::InPlace(i),
            Change::Appended(i) => Rows::Appended(i),
            Change::Messages => Rows::Restructured,
            other => return other,
        };
        Change::ToolCall {
            id: id.to_owned(),
            rows,
        }
    }

    /// What this change did to the message list, if anything.
    pub fn rows(&self) -> Option<Rows> {
        match self {
            Change::Message(i) => Some(Rows::InPlace(*i)),
            Change::Appended(i) => Some(Rows::Appended(*i)),
            Change::Messages => Some(Rows::Restructured),
            Change::ToolCall { rows, .. } => Some(*rows),
            _ => None,
        }
    }
}

/// What every event handler reads besides its payload.
#[derive(Clone, Copy)]
struct Cx<'a> {
    /// The wire type.
    t: &'a str,
    md: &'a Option<Object>,
    /// The subagent run it belongs to.
    owner: &'a Option<String>,
}

/// Warnings a thread keeps (the first ones; later ones are only counted).
pub const MAX_WARNINGS: usize = 200;

/// The persisted form of a thread (see [`Thread::saved`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedThread {
    pub messages: Vec<Message>,
    pub state: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run: Option<SavedRun>,
    /// The thread's subagents (absent in saves older than them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subagents: Vec<Subagent>,
}

/// How the last run of a saved thread ended.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedRun {
    pub run_id: String,
    /// [`RunStatus::name`].
    pub status: String,
    #[serde(default)]
    pub interrupts: Vec<Interrupt>,
    #[serde(default)]
    pub pending_tool_calls: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The pure thread model. `Clone` is for checkpoints (the event inspector's time travel), never
/// for the per-event path.
#[derive(Debug, Default, Clone)]
pub struct Thread {
    pub messages: Vec<Message>,
    pub state: Value,
    pub runs: Vec<Run>,
    /// The subagents of every run, indexed by id (`subagents.rs`).
    pub subagents: Subagents,
    /// The first [`MAX_WARNINGS`] warnings of the thread (an agent can cause one per event).
    pub warnings: Vec<Warning>,
    /// Warnings past [`MAX_WARNINGS`]: counted, not kept.
    pub warnings_omitted: usize,
    /// Parsed arguments per tool call id.
    pub tool_args: IdMap<ToolArgs>,
    /// id → index of the first message with that id.
    index: IdMap<usize>,
    /// tool call id → index of the first assistant message holding it.
    tool_index: IdMap<usize>,
    /// The budgets of the state and of each activity's content (spec digest §4.6; see
    /// [`super::state_patch::Limits`]). A snapshot or patch that would pass them is refused
    /// with a warning and changes nothing.
    pub patch_limits: state_patch::Limits,
    /// The state's measured size, carried from patch to patch (`None`: measure on the next).
    state_size: Option<usize>,
    /// The same per activity message id.
    activity_sizes: IdMap<usize>,
}

fn merge_md(target: &mut Option<Object>, md: &Option<Object>) {
    if let Some(md) = md {
        let t = target.get_or_insert_with(Object::new);
        for (k, v) in md {
            t.insert(k.clone(), v.clone());
        }
    }
}

impl Thread {
    pub fn new() -> Self {
        Thread {
            state: Value::Object(Object::new()),
            ..Default::default()
        }
    }

    /// A thread seeded with history and state (what the app sends as `RunAgentInput`).
    pub fn with_history(messages: Vec<Message>, state: Value) -> Self {
        let mut t = Thread {
            messages,
            state,
            ..Default::default()
        };
        t.reindex_from(0);
        t.sync_tool_args(&HashMap::new());
        t
    }

    /// Keep at most [`MAX_WARNINGS`] warnings, counting the rest (called after every event).
    pub fn cap_warnings(&mut self) {
        if self.warnings.len() > MAX_WARNINGS {
            self.warnings_omitted += self.warnings.len() - MAX_WARNINGS;
            self.warnings.truncate(MAX_WARNINGS);
        }
    }

    /// Replace the state (time travel, a restored thread): its size is measured afresh.
    pub fn set_state(&mut self, state: Value) {
        self.state = state;
        self.state_size = None;
    }

    /// The current (last) run.
    pub fn run(&self) -> Option<&Run> {
        self.runs.last()
    }

    /// Status of the current run (`Idle` before the first).
    pub fn status(&self) -> RunStatus {
        self.runs
            .last()
            .map(|r| r.status.clone())
            .unwrap_or_default()
    }

    /// Index of the first message with this id.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The first message with this id.
    pub fn message(&self, id: &str) -> Option<&Message> {
        self.position(id).and_then(|i| self.messages.get(i))
    }

    /// The tool call with this id and the index of the assistant message holding it.
    pub fn tool_call(&self, tool_call_id: &str) -> Option<(usize, &ToolCall)> {
        let i = *self.tool_index.get(tool_call_id)?;
        let call = self
            .messages
            .get(i)?
            .tool_calls
            .as_ref()?
            .iter()
            .find(|c| c.id == tool_call_id)?;
        Some((i, call))
    }

    /// The tool call with this id, to change (its metadata).
    pub fn tool_call_mut(&mut self, tool_call_id: &str) -> Option<&mut ToolCall> {
        let i = *self.tool_index.get(tool_call_id)?;
        self.messages
            .get_mut(i)?
            .tool_calls
            .as_mut()?
            .iter_mut()
            .find(|c| c.id == tool_call_id)
    }

    /// The tool message answering this call, if any.
    pub fn tool_result(&self, tool_call_id: &str) -> Option<&Message> {
        let start = self.tool_index.get(tool_call_id).copied().unwrap_or(0);
        self.messages
            .iter()
            .skip(start)
            .find(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some(tool_call_id))
            .or_else(|| {
                self.messages.iter().find(|m| {
                    m.role == Role::Tool && m.tool_call_id.as_deref() == Some(tool_call_id)
                })
            })
    }

    /// Open interrupts: those of the most recent interrupted run, unless a later run finished
    /// (`RUN_FINISHED` of any other outcome closes them). Runs that ended without finishing —
    /// `RUN_ERROR` (e.g. the agent rejected the resume payload), a refused or truncated stream —
    /// leave them open: the next request must still cover them (§4.11). Empty while a run is
    /// in progress.
    pub fn open_interrupts(&self) -> &[Interrupt] {
        for r in self.runs.iter().rev() {
            match r.status {
                RunStatus::Interrupted => return &r.interrupts,
                RunStatus::Error { .. } | RunStatus::Failed { .. } | RunStatus::Truncated => {}
                _ => break,
            }
        }
        &[]
    }

    /// Frontend tool calls of the last run still waiting for a result.
    pub fn pending_tool_calls(&self) -> Vec<String> {
        match self.runs.last() {
            Some(Run {
                status: RunStatus::Success { pending },
                ..
            }) => pending
                .iter()
                .filter(|id| self.tool_result(id).is_none())
                .cloned()
                .collect(),
            Some(r) if r.status == RunStatus::Interrupted => r
                .tool_call_ids
                .iter()
                .filter(|id| !r.answered.contains(*id) && self.tool_result(id).is_none())
                .cloned()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn warn(&mut self, kind: WarningKind, event_type: &str, message: impl Into<String>) -> Change {
        self.warnings
            .push(Warning::new(kind, Some(event_type), None, message));
        Change::Warning
    }

    fn reindex_from(&mut self, from: usize) {
        self.activity_sizes.clear();
        self.index.retain(|_, i| *i < from);
        self.tool_index.retain(|_, i| *i < from);
        for (i, m) in self.messages.iter().enumerate().skip(from) {
            self.index.entry(m.id.clone()).or_insert(i);
            if m.role == Role::Assistant {
                for c in m.tool_calls.iter().flatten() {
                    self.tool_index.entry(c.id.clone()).or_insert(i);
                }
            }
        }
    }

    /// Answer a tool call from the client side (a frontend tool's result, or a cancellation):
    /// a tool message placed right after the call, exactly as a `TOOL_CALL_RESULT` would be.
    pub fn add_tool_result(
        &mut self,
        message_id: String,
        tool_call_id: &str,
        content: Content,
        error: Option<String>,
    ) -> Change {
        let event = Event::new(EventKind::ToolCallResult(super::event::ToolCallResult {
            message_id: message_id.clone(),
            tool_call_id: tool_call_id.to_owned(),
            content,
            role: None,
        }));
        let change = self.apply(&event);
        if let Some(e) = error {
            if let Some(m) = self
                .position(&message_id)
                .and_then(|i| self.messages.get_mut(i))
            {
                m.error = Some(e);
            }
        }
        change
    }

    /// Close every pending frontend tool call with a result saying why (e.g. the person sent a
    /// new message instead of answering), so history never carries a call without a result.
    /// Returns the ids closed. `next_id` mints the tool message ids.
    pub fn cancel_pending_tool_calls(
        &mut self,
        reason: &str,
        mut next_id: impl FnMut() -> String,
    ) -> Vec<String> {
        let pending = self.pending_tool_calls();
        for id in &pending {
            self.add_tool_result(
                next_id(),
                id,
                Content::Text(reason.to_owned()),
                Some(reason.to_owned()),
            );
        }
        pending
    }

    /// What survives a reload: messages, state, and how the last run ended (open interrupts,
    /// pending tool calls).
    pub fn saved(&self) -> SavedThread {
        SavedThread {
            messages: self.messages.clone(),
            state: self.state.clone(),
            last_run: self.runs.last().map(|r| SavedRun {
                run_id: r.run_id.clone(),
                status: r.status.name().to_owned(),
                interrupts: self.open_interrupts().to_vec(),
                pending_tool_calls: self.pending_tool_calls(),
                error: match &r.status {
                    RunStatus::Error { message, .. } => Some(message.clone()),
                    RunStatus::Failed { error } => Some(error.clone()),
                    _ => None,
                },
            }),
            subagents: self.subagents.list().to_vec(),
        }
    }

    /// Rebuild a thread saved with [`Thread::saved`].
    pub fn from_saved(saved: SavedThread) -> Self {
        let mut t = Thread::with_history(saved.messages, saved.state);
        t.subagents = Subagents::restore(saved.subagents);
        if let Some(r) = saved.last_run {
            let status = if !r.interrupts.is_empty() {
                RunStatus::Interrupted
            } else {
                match r.status.as_str() {
                    "success" => RunStatus::Success {
                        pending: r.pending_tool_calls.clone(),
                    },
                    "cancelled" => RunStatus::Cancelled,
                    "truncated" => RunStatus::Truncated,
                    // A run that was in flight when the page went away was cut off.
                    "running" => RunStatus::Truncated,
                    "error" => RunStatus::Error {
                        message: r.error.clone().unwrap_or_default(),
                        code: None,
                    },
                    _ => RunStatus::Idle,
                }
            };
            t.runs.push(Run {
                run_id: r.run_id,
                status,
                interrupts: r.interrupts,
                tool_call_ids: r.pending_tool_calls,
                ..Default::default()
            });
        }
        t
    }

    /// Append a message the client adds itself (a user message, a frontend tool's result).
    pub fn append(&mut self, m: Message) -> usize {
        self.push_message(m)
    }

    /// Drop every message from index `len` on (retry / regenerate).
    pub fn truncate(&mut self, len: usize) {
        if len < self.messages.len() {
            self.messages.truncate(len);
            self.reindex_from(len);
        }
    }

    fn push_message(&mut self, m: Message) -> usize {
        let i = self.messages.len();
        self.activity_sizes.remove(&m.id);
        self.index.entry(m.id.clone()).or_insert(i);
        if m.role == Role::Assistant {
            for c in m.tool_calls.iter().flatten() {
                self.tool_index.entry(c.id.clone()).or_insert(i);
            }
        }
        self.messages.push(m);
        i
    }

    fn current_run(&mut self) -> Option<&mut Run> {
        self.runs.last_mut()
    }

    /// Mark the current run as ended by the client (truncation, protocol failure, Stop).
    pub fn end_run(&mut self, status: RunStatus) {
        if let Some(run) = self.runs.last_mut() {
            if run.status == RunStatus::Running {
                run.status = status;
                self.subagents.abandon_running();
            }
        } else {
            self.runs.push(Run {
                status,
                ..Default::default()
            });
        }
    }

    /// Fold one verified event into the thread: one short arm per event, the work in the
    /// family's handler.
    pub fn apply(&mut self, event: &Event) -> Change {
        use EventKind as K;
        let cx = Cx {
            t: event.type_name(),
            md: &event.metadata,
            owner: &event.subagent_run_id,
        };
        match &event.kind {
            K::RunStarted(e) => self.run_started(e),
            K::RunFinished(e) => self.run_finished(e),
            K::RunError(e) => self.run_error(e),
            K::StepStarted(e) => self.step_started(&e.step_name, cx),
            K::StepFinished(e) => self.step_finished(&e.step_name, cx),
            K::TextMessageStart(e) => {
                let role = e.role.unwrap_or(Role::Assistant);
                self.open_message(&e.message_id, role, e.name.as_deref(), cx)
            }
            K::ReasoningMessageStart(e) => {
                self.open_message(&e.message_id, Role::Reasoning, None, cx)
            }
            K::TextMessageContent(e) | K::ReasoningMessageContent(e) => self.message_delta(e, cx),
            K::TextMessageEnd(e) | K::ReasoningMessageEnd(e) => self.message_end(&e.message_id, cx),
            K::ReasoningEncryptedValue(e) => self.encrypted_value(e, cx),
            K::MessagesSnapshot(e) => {
                self.messages_snapshot(&e.messages, cx.md);
                Change::Messages
            }
            K::ToolCallStart(e) => self.tool_call_start(e, cx),
            K::ToolCallArgs(e) => self.tool_call_args(e, cx),
            K::ToolCallEnd(e) => self.tool_call_end(&e.tool_call_id, cx),
            K::ToolCallResult(e) => self.tool_call_result(e, cx),
            K::StateSnapshot(e) => self.state_snapshot(&e.snapshot, cx),
            K::StateDelta(e) => self.state_delta(&e.delta, cx),
            K::ActivitySnapshot(e) => self.activity_snapshot(e, cx),
            K::ActivityDelta(e) => self.activity_delta(e, cx),
            K::Custom(e) if e.name == "on_interrupt" => self.legacy_interrupt(&e.value, cx),
            K::SubagentStarted(e) => self.subagent_started(e, cx),
            K::SubagentFinished(e) => self.subagent_finished(e, cx),
            K::SubagentError(e) => self.subagent_error(&e.message, cx),
            K::ReasoningStart(_) | K::ReasoningEnd(_) | K::Raw(_) | K::Custom(_) => Change::Nothing,
            K::TextMessageChunk(_) | K::ToolCallChunk(_) | K::ReasoningMessageChunk(_) => self
                .warn(
                    WarningKind::Unexpanded,
                    cx.t,
                    "chunk event reached the reducer unexpanded; ignored",
                ),
        }
    }
}
