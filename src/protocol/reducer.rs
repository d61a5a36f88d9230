//! The thread model: a pure fold of verified events into what the person sees (spec digest §5,
//! the reference reducer `defaultApplyEvents`, reproduced so the final `messages` array is
//! identical), plus what the reference keeps elsewhere: run status and outcome, interrupts
//! (standard and the legacy `CUSTOM on_interrupt` form, §7.1), pending frontend tool calls
//! (§4.12), usage, steps, subagents, parsed tool arguments and warnings.
//!
//! Per-event cost is O(the event): messages and tool calls are found through id indexes, text
//! and argument deltas append in place, `STATE_DELTA` patches the state in place atomically
//! (`apply_patch` rolls a failed patch back exactly), and nothing clones the transcript or the
//! state. Only events that restructure the list (a snapshot, a tool result inserted before the
//! end) touch more than one message.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::error::Warning;
use super::event::{Event, EventKind};
use super::partial_json::PartialJson;
use super::types::{
    Content, FunctionCall, Interrupt, Message, Object, Role, RunFinishedOutcome, TokenUsage,
    ToolCall,
};

enum EncryptedTarget {
    ToolCall,
    Message,
}

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

/// A subagent invocation as seen in the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Subagent {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub status: SubagentStatus,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SubagentStatus {
    Running,
    Finished,
    Suspended { interrupt_ids: Vec<String> },
    Error { message: String },
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

/// What an event changed, for the reactive store: one message, the list's structure, the
/// state (with the JSON pointers touched), the run, or nothing visible.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Nothing,
    /// The message at this index changed in place.
    Message(usize),
    /// A message was appended at the end (its index).
    Appended(usize),
    /// The message list was restructured (inserted in the middle, removed, reordered).
    Messages,
    /// The state was replaced wholesale.
    StateReplaced,
    /// The state was patched at these JSON pointers.
    StatePatched(Vec<String>),
    /// Run-level information changed (status, steps, interrupts, usage, subagents).
    Run,
    /// A warning was added and nothing else changed.
    Warning,
}

/// The persisted form of a thread (see [`Thread::saved`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedThread {
    pub messages: Vec<Message>,
    pub state: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run: Option<SavedRun>,
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
    pub subagents: Vec<Subagent>,
    pub warnings: Vec<Warning>,
    /// Parsed arguments per tool call id.
    pub tool_args: HashMap<String, ToolArgs>,
    /// id → index of the first message with that id.
    index: HashMap<String, usize>,
    /// tool call id → index of the first assistant message holding it.
    tool_index: HashMap<String, usize>,
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

    fn warn(&mut self, event_type: &str, message: impl Into<String>) -> Change {
        self.warnings
            .push(Warning::new(Some(event_type), None, message));
        Change::Warning
    }

    fn reindex_from(&mut self, from: usize) {
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
        }
    }

    /// Rebuild a thread saved with [`Thread::saved`].
    pub fn from_saved(saved: SavedThread) -> Self {
        let mut t = Thread::with_history(saved.messages, saved.state);
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
            }
        } else {
            self.runs.push(Run {
                status,
                ..Default::default()
            });
        }
    }

    /// Fold one verified event into the thread.
    pub fn apply(&mut self, event: &Event) -> Change {
        use EventKind as K;
        let t = event.type_name();
        let md = &event.metadata;
        let owner = &event.subagent_run_id;
        match &event.kind {
            K::RunStarted(rs) => {
                self.runs.push(Run {
                    run_id: rs.run_id.clone(),
                    thread_id: rs.thread_id.clone(),
                    status: RunStatus::Running,
                    protocol_version: rs.protocol_version.clone(),
                    ..Default::default()
                });
                let mut appended = false;
                if let Some(input) = &rs.input {
                    for m in &input.messages {
                        if !self.index.contains_key(&m.id) {
                            // Echoed calls get their parsed-args view, as seeded history does.
                            for c in m.tool_calls.iter().flatten() {
                                self.tool_args.entry(c.id.clone()).or_insert_with(|| {
                                    let mut parser = PartialJson::new();
                                    parser.push(&c.function.arguments);
                                    ToolArgs {
                                        parser,
                                        ended: true,
                                        run_id: String::new(),
                                    }
                                });
                            }
                            self.push_message(m.clone());
                            appended = true;
                        }
                    }
                }
                if appended {
                    Change::Messages
                } else {
                    Change::Run
                }
            }
            K::RunFinished(rf) => {
                let Some(run) = self.runs.last_mut() else {
                    return Change::Nothing;
                };
                if let Some(u) = &rf.usage {
                    run.usage = u.clone();
                }
                let derived = || -> Vec<String> {
                    run.tool_call_ids
                        .iter()
                        .filter(|id| !run.answered.contains(*id))
                        .cloned()
                        .collect()
                };
                let status = match &rf.outcome {
                    Some(RunFinishedOutcome::Interrupt { interrupts }) => {
                        run.interrupts = interrupts.clone();
                        RunStatus::Interrupted
                    }
                    Some(RunFinishedOutcome::Cancelled) => RunStatus::Cancelled,
                    None if !run.legacy_interrupts.is_empty() => {
                        run.interrupts = run.legacy_interrupts.clone();
                        RunStatus::Interrupted
                    }
                    Some(RunFinishedOutcome::Success {
                        pending_tool_call_ids: Some(ids),
                    }) if !ids.is_empty() => RunStatus::Success {
                        pending: ids.clone(),
                    },
                    _ => RunStatus::Success { pending: derived() },
                };
                if matches!(status, RunStatus::Success { .. }) {
                    run.result = rf.result.clone();
                }
                run.status = status;
                run.steps.clear();
                Change::Run
            }
            K::RunError(re) => {
                if self.runs.is_empty() {
                    self.runs.push(Run::default());
                }
                if let Some(run) = self.current_run() {
                    run.status = RunStatus::Error {
                        message: re.message.clone(),
                        code: re.code.clone(),
                    };
                    if let Some(u) = &re.usage {
                        run.usage = u.clone();
                    }
                    run.steps.clear();
                }
                for s in &mut self.subagents {
                    if s.status == SubagentStatus::Running {
                        s.status = SubagentStatus::Error {
                            message: "abandoned by RUN_ERROR".into(),
                        };
                    }
                }
                Change::Run
            }
            K::StepStarted(s) => {
                if let Some(run) = self.current_run() {
                    run.steps.push((owner.clone(), s.step_name.clone()));
                    run.step_log.push(s.step_name.clone());
                }
                Change::Run
            }
            K::StepFinished(s) => {
                if let Some(run) = self.current_run() {
                    if let Some(p) = run
                        .steps
                        .iter()
                        .position(|(o, n)| o == owner && *n == s.step_name)
                    {
                        run.steps.remove(p);
                    }
                }
                Change::Run
            }
            K::TextMessageStart(s) => {
                let role = s.role.unwrap_or(Role::Assistant);
                self.open_message(t, &s.message_id, role, s.name.as_deref(), owner, md)
            }
            K::ReasoningMessageStart(s) => {
                self.open_message(t, &s.message_id, Role::Reasoning, None, owner, md)
            }
            K::TextMessageContent(d) | K::ReasoningMessageContent(d) => {
                match self.position(&d.message_id) {
                    None => self.warn(t, format!("no message with id '{}'", d.message_id)),
                    Some(i) => {
                        let Some(m) = self.messages.get_mut(i) else {
                            return Change::Nothing;
                        };
                        if m.role == Role::Activity {
                            return self
                                .warn(t, format!("'{}' is an activity message", d.message_id));
                        }
                        match &mut m.content {
                            Some(Content::Text(s)) => s.push_str(&d.delta),
                            other => *other = Some(Content::Text(d.delta.clone())),
                        }
                        merge_md(&mut m.metadata, md);
                        Change::Message(i)
                    }
                }
            }
            K::TextMessageEnd(r) | K::ReasoningMessageEnd(r) => {
                match self.position(&r.message_id) {
                    Some(i) => {
                        let Some(m) = self.messages.get_mut(i) else {
                            return Change::Nothing;
                        };
                        if m.role == Role::Activity {
                            return Change::Nothing;
                        }
                        merge_md(&mut m.metadata, md);
                        Change::Message(i)
                    }
                    None => Change::Nothing,
                }
            }
            K::ToolCallStart(s) => self.start_tool_call(t, event, s),
            K::ToolCallArgs(a) => {
                let Some(&i) = self.tool_index.get(&a.tool_call_id) else {
                    return self.warn(t, format!("no tool call with id '{}'", a.tool_call_id));
                };
                let Some(call) = self
                    .messages
                    .get_mut(i)
                    .and_then(|m| m.tool_calls.as_mut())
                    .and_then(|cs| cs.iter_mut().find(|c| c.id == a.tool_call_id))
                else {
                    return Change::Nothing;
                };
                call.function.arguments.push_str(&a.delta);
                merge_md(&mut call.metadata, md);
                if let Some(args) = self.tool_args.get_mut(&a.tool_call_id) {
                    args.parser.push(&a.delta);
                }
                Change::Message(i)
            }
            K::ToolCallEnd(e) => {
                if let Some(args) = self.tool_args.get_mut(&e.tool_call_id) {
                    args.ended = true;
                }
                let Some(&i) = self.tool_index.get(&e.tool_call_id) else {
                    return Change::Nothing;
                };
                if let Some(call) = self
                    .messages
                    .get_mut(i)
                    .and_then(|m| m.tool_calls.as_mut())
                    .and_then(|cs| cs.iter_mut().find(|c| c.id == e.tool_call_id))
                {
                    merge_md(&mut call.metadata, md);
                }
                Change::Message(i)
            }
            K::ToolCallResult(r) => {
                if let Some(run) = self.current_run() {
                    run.answered.insert(r.tool_call_id.clone());
                }
                if let Some(args) = self.tool_args.get_mut(&r.tool_call_id) {
                    args.ended = true;
                }
                let mut m = Message::new(r.message_id.clone(), Role::Tool);
                m.tool_call_id = Some(r.tool_call_id.clone());
                m.content = Some(r.content.clone());
                m.subagent_run_id = owner.clone();
                merge_md(&mut m.metadata, md);
                match self.tool_index.get(&r.tool_call_id).copied() {
                    None => Change::Appended(self.push_message(m)),
                    Some(i) => {
                        let mut at = i + 1;
                        while self.messages.get(at).is_some_and(|m| m.role == Role::Tool) {
                            at += 1;
                        }
                        if at >= self.messages.len() {
                            Change::Appended(self.push_message(m))
                        } else {
                            self.messages.insert(at, m);
                            self.reindex_from(at);
                            Change::Messages
                        }
                    }
                }
            }
            K::ReasoningEncryptedValue(ev) => {
                let target = match ev.subtype {
                    super::event::EncryptedSubtype::ToolCall => self
                        .tool_index
                        .get(&ev.entity_id)
                        .copied()
                        .map(|i| (i, EncryptedTarget::ToolCall)),
                    super::event::EncryptedSubtype::Message => self
                        .position(&ev.entity_id)
                        .map(|i| (i, EncryptedTarget::Message)),
                };
                let Some((i, target)) = target else {
                    return self.warn(t, format!("no entity with id '{}'", ev.entity_id));
                };
                let Some(m) = self.messages.get_mut(i) else {
                    return Change::Nothing;
                };
                match target {
                    EncryptedTarget::ToolCall => {
                        if let Some(c) = m
                            .tool_calls
                            .as_mut()
                            .and_then(|cs| cs.iter_mut().find(|c| c.id == ev.entity_id))
                        {
                            c.encrypted_value = Some(ev.encrypted_value.clone());
                            c.encrypted_value_type = ev.encrypted_value_type.clone();
                        }
                    }
                    EncryptedTarget::Message => {
                        if m.role == Role::Activity {
                            return self
                                .warn(t, format!("'{}' is an activity message", ev.entity_id));
                        }
                        m.encrypted_value = Some(ev.encrypted_value.clone());
                        m.encrypted_value_type = ev.encrypted_value_type.clone();
                    }
                }
                Change::Message(i)
            }
            K::StateSnapshot(s) => {
                self.state = s.snapshot.clone();
                Change::StateReplaced
            }
            K::StateDelta(d) => {
                let patch = match parse_patch(&d.delta) {
                    Ok(p) => p,
                    Err(e) => return self.warn(t, format!("Failed to apply state patch: {e}")),
                };
                match apply_patch(&mut self.state, &patch) {
                    Ok(()) => Change::StatePatched(patch_paths(&patch)),
                    Err(e) => self.warn(
                        t,
                        format!("Failed to apply state patch (state unchanged): {e}"),
                    ),
                }
            }
            K::MessagesSnapshot(ms) => {
                self.messages_snapshot(&ms.messages, md);
                Change::Messages
            }
            K::ActivitySnapshot(a) => {
                let replace = a.replace.unwrap_or(true);
                let mut fresh = Message::new(a.message_id.clone(), Role::Activity);
                fresh.activity_type = Some(a.activity_type.clone());
                fresh.content = Some(Content::Object(a.content.clone()));
                fresh.subagent_run_id = owner.clone();
                match self.position(&a.message_id) {
                    None => {
                        merge_md(&mut fresh.metadata, md);
                        Change::Appended(self.push_message(fresh))
                    }
                    Some(i) => {
                        let Some(m) = self.messages.get_mut(i) else {
                            return Change::Nothing;
                        };
                        if m.role == Role::Activity {
                            if replace {
                                m.activity_type = fresh.activity_type;
                                m.content = fresh.content;
                                m.subagent_run_id = fresh.subagent_run_id;
                            }
                            merge_md(&mut m.metadata, md);
                        } else if replace {
                            merge_md(&mut fresh.metadata, md);
                            *m = fresh;
                            self.reindex_from(i);
                        } else {
                            return Change::Nothing;
                        }
                        Change::Message(i)
                    }
                }
            }
            K::ActivityDelta(a) => {
                let Some(i) = self.position(&a.message_id) else {
                    return self.warn(t, format!("no activity message with id '{}'", a.message_id));
                };
                let patch = match parse_patch(&a.patch) {
                    Ok(p) => p,
                    Err(e) => return self.warn(t, format!("Failed to apply activity patch: {e}")),
                };
                let Some(m) = self.messages.get_mut(i) else {
                    return Change::Nothing;
                };
                if m.role != Role::Activity {
                    return self.warn(t, format!("'{}' is not an activity message", a.message_id));
                }
                merge_md(&mut m.metadata, md);
                let mut doc = match m.content.take() {
                    Some(Content::Object(o)) => Value::Object(o),
                    _ => Value::Object(Object::new()),
                };
                let touches_root = patch.iter().any(|op| op.path().as_str().is_empty());
                let backup = touches_root.then(|| doc.clone());
                let result = apply_patch(&mut doc, &patch);
                let (content, problem) = match (result, doc) {
                    (Ok(()), Value::Object(o)) => (o, None),
                    (Ok(()), _) => (
                        match backup {
                            Some(Value::Object(o)) => o,
                            _ => Object::new(),
                        },
                        Some("the patched content is not an object".to_owned()),
                    ),
                    (Err(e), Value::Object(o)) => (o, Some(e.to_string())),
                    (Err(e), _) => (Object::new(), Some(e.to_string())),
                };
                m.content = Some(Content::Object(content));
                if problem.is_none() {
                    m.activity_type = Some(a.activity_type.clone());
                }
                match problem {
                    Some(p) => {
                        self.warn(
                            t,
                            format!("Failed to apply activity patch (content unchanged): {p}"),
                        );
                        Change::Message(i)
                    }
                    None => Change::Message(i),
                }
            }
            K::Custom(c) if c.name == "on_interrupt" => {
                let n = self.runs.last().map_or(0, |r| r.legacy_interrupts.len());
                let run_id = self
                    .runs
                    .last()
                    .map(|r| r.run_id.clone())
                    .unwrap_or_default();
                let interrupt = legacy_interrupt(&c.value, &run_id, n, owner);
                if let Some(run) = self.current_run() {
                    run.legacy_interrupts.push(interrupt);
                }
                Change::Run
            }
            K::SubagentStarted(s) => {
                self.subagents.push(Subagent {
                    id: owner.clone().unwrap_or_default(),
                    name: s.name.clone(),
                    description: s.description.clone(),
                    status: SubagentStatus::Running,
                });
                Change::Run
            }
            K::SubagentFinished(f) => {
                let status = match &f.outcome {
                    Some(super::types::SubagentOutcome::Suspended { interrupt_ids }) => {
                        SubagentStatus::Suspended {
                            interrupt_ids: interrupt_ids.clone().unwrap_or_default(),
                        }
                    }
                    _ => SubagentStatus::Finished,
                };
                self.set_subagent(owner, status)
            }
            K::SubagentError(e) => self.set_subagent(
                owner,
                SubagentStatus::Error {
                    message: e.message.clone(),
                },
            ),
            K::ReasoningStart(_) | K::ReasoningEnd(_) | K::Raw(_) | K::Custom(_) => Change::Nothing,
            K::TextMessageChunk(_) | K::ToolCallChunk(_) | K::ReasoningMessageChunk(_) => {
                self.warn(t, "chunk event reached the reducer unexpanded; ignored")
            }
        }
    }

    fn set_subagent(&mut self, owner: &Option<String>, status: SubagentStatus) -> Change {
        if let Some(s) = self
            .subagents
            .iter_mut()
            .rev()
            .find(|s| Some(&s.id) == owner.as_ref())
        {
            s.status = status;
        }
        Change::Run
    }

    fn open_message(
        &mut self,
        t: &str,
        id: &str,
        role: Role,
        name: Option<&str>,
        owner: &Option<String>,
        md: &Option<Object>,
    ) -> Change {
        match self.position(id) {
            Some(i) => {
                let Some(m) = self.messages.get_mut(i) else {
                    return Change::Nothing;
                };
                if m.role == Role::Activity {
                    return self.warn(t, format!("'{id}' is an activity message; not reused"));
                }
                merge_md(&mut m.metadata, md);
                Change::Message(i)
            }
            None => {
                let mut m = Message::new(id, role);
                m.content = Some(Content::Text(String::new()));
                m.name = name.map(str::to_owned);
                m.subagent_run_id = owner.clone();
                merge_md(&mut m.metadata, md);
                Change::Appended(self.push_message(m))
            }
        }
    }

    fn start_tool_call(
        &mut self,
        t: &str,
        event: &Event,
        s: &super::event::ToolCallStart,
    ) -> Change {
        let run_id = self
            .runs
            .last()
            .map(|r| r.run_id.clone())
            .unwrap_or_default();
        if let Some(run) = self.current_run() {
            // A reopened call (START again after its END) is still one call.
            if !run.tool_call_ids.contains(&s.tool_call_id) {
                run.tool_call_ids.push(s.tool_call_id.clone());
            }
        }
        self.tool_args.insert(
            s.tool_call_id.clone(),
            ToolArgs {
                parser: PartialJson::new(),
                ended: false,
                run_id,
            },
        );
        // Idempotent replay of a call we already hold.
        if let Some(&i) = self.tool_index.get(&s.tool_call_id) {
            let mut renamed = None;
            if let Some(call) = self
                .messages
                .get_mut(i)
                .and_then(|m| m.tool_calls.as_mut())
                .and_then(|cs| cs.iter_mut().find(|c| c.id == s.tool_call_id))
            {
                if call.function.name != s.tool_call_name {
                    renamed = Some(std::mem::replace(
                        &mut call.function.name,
                        s.tool_call_name.clone(),
                    ));
                }
                merge_md(&mut call.metadata, &event.metadata);
                if let Some(args) = self.tool_args.get_mut(&s.tool_call_id) {
                    args.parser.push(&call.function.arguments);
                }
            }
            if let Some(old) = renamed {
                self.warn(
                    t,
                    format!(
                        "tool call '{}' renamed from '{old}' to '{}'",
                        s.tool_call_id, s.tool_call_name
                    ),
                );
            }
            return Change::Message(i);
        }
        let parent = s
            .parent_message_id
            .as_ref()
            .and_then(|p| self.position(p).map(|i| (p, i)));
        let (i, change) = match (&s.parent_message_id, parent) {
            (Some(_), Some((_, i)))
                if self
                    .messages
                    .get(i)
                    .is_some_and(|m| m.role == Role::Assistant) =>
            {
                (i, Change::Message(i))
            }
            (Some(p), Some(_)) => {
                self.warn(
                    t,
                    format!("parentMessageId '{p}' is not an assistant message; the call gets its own message"),
                );
                let mut m = Message::new(s.tool_call_id.clone(), Role::Assistant);
                m.subagent_run_id = event.subagent_run_id.clone();
                let i = self.push_message(m);
                (i, Change::Appended(i))
            }
            (Some(p), None) => {
                let mut m = Message::new(p.clone(), Role::Assistant);
                m.subagent_run_id = event.subagent_run_id.clone();
                let i = self.push_message(m);
                (i, Change::Appended(i))
            }
            (None, _) => {
                let mut m = Message::new(s.tool_call_id.clone(), Role::Assistant);
                m.subagent_run_id = event.subagent_run_id.clone();
                let i = self.push_message(m);
                (i, Change::Appended(i))
            }
        };
        if let Some(m) = self.messages.get_mut(i) {
            let mut call = ToolCall {
                id: s.tool_call_id.clone(),
                kind: "function".into(),
                function: FunctionCall {
                    name: s.tool_call_name.clone(),
                    arguments: String::new(),
                },
                encrypted_value: None,
                encrypted_value_type: None,
                metadata: None,
            };
            merge_md(&mut call.metadata, &event.metadata);
            m.tool_calls.get_or_insert_with(Vec::new).push(call);
            self.tool_index.entry(s.tool_call_id.clone()).or_insert(i);
        }
        change
    }

    fn messages_snapshot(&mut self, snapshot: &[Message], md: &Option<Object>) {
        let snap: HashMap<&str, &Message> = snapshot.iter().map(|m| (m.id.as_str(), m)).collect();
        let authoritative = md
            .as_ref()
            .and_then(|m| m.get("@ag-ui/client"))
            .and_then(|c| c.as_object())
            .and_then(|c| c.get("authoritativeActivityTypes"));
        let snap_has_activity = snapshot.iter().any(|m| m.role == Role::Activity);
        let snap_has_reasoning = snapshot.iter().any(|m| m.role == Role::Reasoning);
        let keep = |m: &Message| -> bool {
            match m.role {
                Role::Activity => match authoritative {
                    Some(Value::Array(types)) => !types.iter().any(|t| {
                        t.as_str()
                            .is_some_and(|t| Some(t) == m.activity_type.as_deref())
                    }),
                    Some(Value::Null) => false,
                    _ => !snap_has_activity,
                },
                Role::Reasoning => !snap_has_reasoning,
                _ => false,
            }
        };
        // Old argument texts, to adopt a snapshot's arguments without re-parsing a prefix.
        let old_args: HashMap<String, String> = self
            .messages
            .iter()
            .flat_map(|m| m.tool_calls.iter().flatten())
            .map(|c| (c.id.clone(), c.function.arguments.clone()))
            .collect();
        let old = std::mem::take(&mut self.messages);
        let mut next: Vec<Message> = Vec::with_capacity(snapshot.len().max(old.len()));
        let mut ids: HashSet<String> = HashSet::new();
        for m in old {
            if let Some(s) = snap.get(m.id.as_str()) {
                ids.insert(m.id.clone());
                next.push((*s).clone());
            } else if keep(&m) {
                ids.insert(m.id.clone());
                next.push(m);
            }
        }
        for m in snapshot {
            if ids.insert(m.id.clone()) {
                next.push(m.clone());
            }
        }
        self.messages = next;
        self.index.clear();
        self.tool_index.clear();
        self.reindex_from(0);
        self.sync_tool_args(&old_args);
    }

    /// Bring the parsed-args views in line with the arguments text the messages now hold: keep
    /// a parser whose text the new arguments extend (feed only the rest), restart otherwise —
    /// a final text that is not a prefix extension replaces the streamed one, never freezes it.
    fn sync_tool_args(&mut self, old_args: &HashMap<String, String>) {
        let run_id = self
            .runs
            .last()
            .map(|r| r.run_id.clone())
            .unwrap_or_default();
        for m in &self.messages {
            for c in m.tool_calls.iter().flatten() {
                let new = &c.function.arguments;
                let entry = self
                    .tool_args
                    .entry(c.id.clone())
                    .or_insert_with(|| ToolArgs {
                        parser: PartialJson::new(),
                        ended: true,
                        run_id: run_id.clone(),
                    });
                match old_args.get(&c.id) {
                    Some(old)
                        if entry.parser.len() == old.len() && new.starts_with(old.as_str()) =>
                    {
                        if let Some(rest) = new.get(old.len()..) {
                            entry.parser.push(rest);
                        }
                    }
                    _ if entry.parser.is_empty() && new.is_empty() => {}
                    _ => {
                        entry.parser.reset();
                        entry.parser.push(new);
                    }
                }
            }
        }
    }
}

fn parse_patch(ops: &[Value]) -> Result<json_patch::Patch, String> {
    serde_json::from_value::<json_patch::Patch>(Value::Array(ops.to_vec()))
        .map_err(|e| e.to_string())
}

fn patch_paths(patch: &json_patch::Patch) -> Vec<String> {
    patch
        .iter()
        .map(|op| op.path().as_str().to_owned())
        .collect()
}

/// Apply an RFC 6902 patch atomically: every operation, or none. A failed patch leaves the
/// document exactly as it was, key order included (spec digest §4.6).
///
/// Not `json_patch::patch`: its rollback panics when it cannot undo a move from a child to an
/// ancestor (`unreachable!`), loses the source of a move whose target is missing, and restores
/// removed keys at the end of their object (serde_json's `remove` is a `swap_remove` with
/// `preserve_order`, which also reorders keys on a successful `remove`).
///
/// Cost: O(the patch) plus the size of each object a `remove` touches; nothing is cloned but
/// the values the operations carry (and the source of a `copy`).
fn apply_patch(doc: &mut Value, patch: &json_patch::Patch) -> Result<(), String> {
    let mut journal = Vec::with_capacity(patch.len());
    for (n, op) in patch.iter().enumerate() {
        if let Err(problem) = apply_op(doc, op, &mut journal) {
            while let Some(step) = journal.pop() {
                undo(doc, step);
            }
            let name = match op {
                json_patch::PatchOperation::Add(_) => "add",
                json_patch::PatchOperation::Remove(_) => "remove",
                json_patch::PatchOperation::Replace(_) => "replace",
                json_patch::PatchOperation::Move(_) => "move",
                json_patch::PatchOperation::Copy(_) => "copy",
                json_patch::PatchOperation::Test(_) => "test",
            };
            return Err(format!(
                "operation {n} ({name}) failed at path '{}': {problem}",
                op.path().as_str()
            ));
        }
    }
    Ok(())
}

/// Where a removed value sat.
enum Slot {
    /// Key of the object at this pointer, at this position.
    Key(String, String, usize),
    /// Index of the array at this pointer.
    Index(String, usize),
}

/// How an added value went in (to take it out again).
enum Added {
    /// A new key appended to the object at this pointer.
    NewKey(String, String),
    /// The value at this pointer (a key or the root) was overwritten; the old value.
    Overwrote(String, Value),
    /// An element inserted into the array at this pointer.
    Inserted(String, usize),
}

/// One applied operation, as what takes it back.
enum Undo {
    Added(Added),
    Removed(Slot, Value),
    Replaced(String, Value),
    Moved(Added, Slot),
}

fn apply_op(
    doc: &mut Value,
    op: &json_patch::PatchOperation,
    journal: &mut Vec<Undo>,
) -> Result<(), &'static str> {
    use json_patch::PatchOperation as P;
    match op {
        P::Add(o) => {
            let added = add_at(doc, o.path.as_str(), o.value.clone()).map_err(|(e, _)| e)?;
            journal.push(Undo::Added(added));
        }
        P::Remove(o) => {
            let (slot, old) = remove_at(doc, o.path.as_str())?;
            journal.push(Undo::Removed(slot, old));
        }
        P::Replace(o) => {
            let target = doc.pointer_mut(o.path.as_str()).ok_or("path not found")?;
            let old = std::mem::replace(target, o.value.clone());
            journal.push(Undo::Replaced(o.path.as_str().to_owned(), old));
        }
        P::Move(o) => {
            let (from, path) = (o.from.as_str(), o.path.as_str());
            if doc.pointer(from).is_none() {
                return Err("'from' path not found");
            }
            if from == path {
                return Ok(());
            }
            if path
                .strip_prefix(from)
                .is_some_and(|rest| rest.starts_with('/'))
            {
                return Err("cannot move a value into itself");
            }
            let (slot, value) = remove_at(doc, from)?;
            match add_at(doc, path, value) {
                Ok(added) => journal.push(Undo::Moved(added, slot)),
                Err((e, value)) => {
                    put_back(doc, slot, value);
                    return Err(e);
                }
            }
        }
        P::Copy(o) => {
            let value = doc
                .pointer(o.from.as_str())
                .cloned()
                .ok_or("'from' path not found")?;
            let added = add_at(doc, o.path.as_str(), value).map_err(|(e, _)| e)?;
            journal.push(Undo::Added(added));
        }
        P::Test(o) => {
            if doc.pointer(o.path.as_str()) != Some(&o.value) {
                return Err("test failed");
            }
        }
    }
    Ok(())
}

fn undo(doc: &mut Value, step: Undo) {
    match step {
        Undo::Added(added) => {
            take_added(doc, added);
        }
        Undo::Removed(slot, old) => put_back(doc, slot, old),
        Undo::Replaced(path, old) => {
            if let Some(target) = doc.pointer_mut(&path) {
                *target = old;
            }
        }
        Undo::Moved(added, slot) => {
            if let Some(value) = take_added(doc, added) {
                put_back(doc, slot, value);
            }
        }
    }
}

/// `(parent pointer, decoded last token)`; `None` for the root pointer `""`.
fn split_pointer(path: &str) -> Option<(&str, String)> {
    let i = path.rfind('/')?;
    let parent = path.get(..i)?;
    let token = path.get(i + 1..)?.replace("~1", "/").replace("~0", "~");
    Some((parent, token))
}

/// An RFC 6901 array index: `0` or digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

/// RFC 6902 `add`. On failure the value is handed back untouched.
fn add_at(doc: &mut Value, path: &str, value: Value) -> Result<Added, (&'static str, Value)> {
    let Some((parent, token)) = split_pointer(path) else {
        let old = std::mem::replace(doc, value);
        return Ok(Added::Overwrote(String::new(), old));
    };
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => match map.get_mut(&token) {
            Some(slot) => {
                let old = std::mem::replace(slot, value);
                Ok(Added::Overwrote(path.to_owned(), old))
            }
            None => {
                map.insert(token.clone(), value);
                Ok(Added::NewKey(parent.to_owned(), token))
            }
        },
        Some(Value::Array(items)) => {
            let index = if token == "-" {
                Some(items.len())
            } else {
                array_index(&token).filter(|i| *i <= items.len())
            };
            match index {
                Some(i) => {
                    items.insert(i, value);
                    Ok(Added::Inserted(parent.to_owned(), i))
                }
                None => Err(("array index out of bounds", value)),
            }
        }
        Some(_) => Err(("the parent is not an object or array", value)),
        None => Err(("path not found", value)),
    }
}

/// RFC 6902 `remove`, keeping the order of the remaining keys.
fn remove_at(doc: &mut Value, path: &str) -> Result<(Slot, Value), &'static str> {
    let (parent, token) = split_pointer(path).ok_or("cannot remove the whole document")?;
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            let index = map
                .keys()
                .position(|k| *k == token)
                .ok_or("path not found")?;
            let old = map.shift_remove(&token).ok_or("path not found")?;
            Ok((Slot::Key(parent.to_owned(), token, index), old))
        }
        Some(Value::Array(items)) => {
            let i = array_index(&token)
                .filter(|i| *i < items.len())
                .ok_or("array index out of bounds")?;
            Ok((Slot::Index(parent.to_owned(), i), items.remove(i)))
        }
        _ => Err("path not found"),
    }
}

/// Take an added value out again (the undo of [`add_at`]).
fn take_added(doc: &mut Value, added: Added) -> Option<Value> {
    match added {
        Added::NewKey(parent, key) => doc
            .pointer_mut(&parent)?
            .as_object_mut()?
            .shift_remove(&key),
        Added::Overwrote(path, old) => doc
            .pointer_mut(&path)
            .map(|target| std::mem::replace(target, old)),
        Added::Inserted(parent, i) => {
            let items = doc.pointer_mut(&parent)?.as_array_mut()?;
            (i < items.len()).then(|| items.remove(i))
        }
    }
}

/// Put a removed value back where it was (the undo of [`remove_at`]).
fn put_back(doc: &mut Value, slot: Slot, value: Value) {
    match slot {
        Slot::Key(parent, key, index) => {
            if let Some(map) = doc.pointer_mut(&parent).and_then(Value::as_object_mut) {
                let index = index.min(map.len());
                map.shift_insert(index, key, value);
            }
        }
        Slot::Index(parent, i) => {
            if let Some(items) = doc.pointer_mut(&parent).and_then(Value::as_array_mut) {
                let i = i.min(items.len());
                items.insert(i, value);
            }
        }
    }
}

/// The interrupt a legacy `CUSTOM on_interrupt` announces (LangGraph, Mastra, CrewAI; §7.1,
/// §7.4). Its value is often a JSON *string*.
fn legacy_interrupt(value: &Value, run_id: &str, n: usize, owner: &Option<String>) -> Interrupt {
    let parsed = match value {
        Value::String(s) => serde_json::from_str::<Value>(s).unwrap_or_else(|_| value.clone()),
        other => other.clone(),
    };
    let obj = parsed.as_object();
    let get = |k: &str| {
        obj.and_then(|o| o.get(k))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let schema = obj
        .and_then(|o| o.get("responseSchema").or_else(|| o.get("resumeSchema")))
        .and_then(|s| match s {
            Value::String(text) => serde_json::from_str::<Value>(text).ok(),
            other => Some(other.clone()),
        })
        .and_then(|s| s.as_object().cloned());
    let message = match &parsed {
        Value::String(s) => Some(s.clone()),
        _ => get("message")
            .or_else(|| get("question"))
            .or_else(|| get("prompt")),
    };
    let mut metadata = Object::new();
    metadata.insert("source".into(), Value::String("CUSTOM on_interrupt".into()));
    metadata.insert("value".into(), parsed.clone());
    Interrupt {
        id: get("id").unwrap_or_else(|| format!("{run_id}:on_interrupt:{n}")),
        reason: get("reason").unwrap_or_else(|| match get("type").as_deref() {
            Some("mastra_suspend") => "mastra:suspend".to_owned(),
            _ => "on_interrupt".to_owned(),
        }),
        message,
        tool_call_id: get("toolCallId").or_else(|| get("tool_call_id")),
        response_schema: schema,
        expires_at: get("expiresAt"),
        metadata: Some(metadata),
        subagent_run_id: owner.clone(),
    }
}
