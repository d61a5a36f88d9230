//! Chunk → AG-UI events: [`AiSdkDecoder`] reads one UI message stream chunk at a time and
//! gives the events the module docs' mapping table lists (spec digest §2.2–2.3). The metadata
//! keys it writes (`aiSdk*`) are read back by [`super::front`] and [`super::request`].

use std::collections::{BTreeMap, HashSet};

use serde_json::{json, Value};

use crate::protocol::error::{Warning, WarningKind};
use crate::protocol::event::{
    ActivitySnapshot, Custom, Delta, Event, EventKind as K, MessageRef, MessagesSnapshot,
    ReasoningMessageStart, RunError, RunFinished, RunStarted, Step, TextMessageStart, ToolCallArgs,
    ToolCallRef, ToolCallResult, ToolCallStart,
};
use crate::protocol::pipeline::parse_json;
use crate::protocol::reducer::Thread;
use crate::protocol::types::{Content, Interrupt, Object, Role, RunFinishedOutcome};

use super::error::AiSdkError;

/// Parts (blocks, calls, results, activities, approvals) one stream may mint.
pub const MAX_PARTS: usize = 10_000;
/// The result text of a denied tool call (the AI SDK's own default wording, for the model).
pub const DENIED: &str = "Tool call execution denied.";

pub(super) const MD_MESSAGE: &str = "aiSdkMessageId";
pub(super) const MD_PROVIDER: &str = "aiSdkProviderMetadata";
pub(super) const MD_TOOL: &str = "aiSdkTool";
pub(super) const MD_STATE: &str = "aiSdkState";
pub(super) const MD_ERROR: &str = "aiSdkErrorText";
pub(super) const MD_APPROVAL: &str = "aiSdkApprovalId";
/// Chunk types that become an activity card holding the chunk's fields, with the fields each
/// requires as strings.
pub(super) const PART_TYPES: &[(&str, &[&str])] = &[
    ("source-url", &["sourceId", "url"]),
    ("source-document", &["sourceId", "mediaType", "title"]),
    ("file", &["url", "mediaType"]),
    ("reasoning-file", &["url", "mediaType"]),
    ("custom", &["kind"]),
];

/// One chunk object and its type, with typed field readers.
struct Chunk<'a> {
    ty: &'a str,
    m: &'a Object,
}

impl Chunk<'_> {
    fn bad(&self, field: &'static str, problem: &'static str) -> AiSdkError {
        AiSdkError::Malformed {
            chunk_type: self.ty.to_owned(),
            field,
            problem,
        }
    }

    fn str(&self, f: &'static str) -> Result<String, AiSdkError> {
        self.opt_str(f)?.ok_or_else(|| self.bad(f, "is required"))
    }

    fn opt_str(&self, f: &'static str) -> Result<Option<String>, AiSdkError> {
        match self.m.get(f) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.bad(f, "must be a string")),
        }
    }

    fn opt_bool(&self, f: &'static str) -> Result<Option<bool>, AiSdkError> {
        match self.m.get(f) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(self.bad(f, "must be a boolean")),
        }
    }

    /// An `unknown` field: any value, absent reads as `null`.
    fn any(&self, f: &str) -> Value {
        self.m.get(f).cloned().unwrap_or(Value::Null)
    }

    fn opt(&self, f: &str) -> Option<Value> {
        self.m.get(f).filter(|v| !v.is_null()).cloned()
    }
}

/// What the decoder knows of one tool call of this stream.
#[derive(Debug, Clone)]
struct Call {
    open: bool,
    deltas: bool,
    /// `inputEncoding: "text"`: the arguments are a JSON string being streamed.
    text: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    #[default]
    Idle,
    Running,
    /// `finish`, `abort`, `error` or `[DONE]` seen: the rest is ignored.
    Ended,
}

/// Chunk → AG-UI events for one response (see the module docs for the mapping).
#[derive(Debug, Clone, Default)]
pub struct AiSdkDecoder {
    thread_id: String,
    run_id: String,
    message_id: Option<String>,
    phase: Phase,
    /// Open blocks: AI SDK block id → AG-UI message id (ordered, so closing is deterministic).
    text: BTreeMap<String, String>,
    reasoning: BTreeMap<String, String>,
    calls: BTreeMap<String, Call>,
    step: Option<String>,
    steps: usize,
    /// Ids minted since the current step started (what `reset-step` removes).
    step_ids: HashSet<String>,
    /// The step's latest text message: the parent of the calls that follow it.
    holder: Option<String>,
    issued: HashSet<String>,
    interrupts: Vec<Interrupt>,
    warnings: Vec<Warning>,
    reset: HashSet<String>,
}

fn ev(kind: K, md: Option<Object>) -> Event {
    let mut e = Event::new(kind);
    e.metadata = md;
    e
}

fn custom(name: &str, value: Value) -> Event {
    ev(
        K::Custom(Custom {
            name: name.to_owned(),
            value,
        }),
        None,
    )
}

fn args(id: &str, delta: String) -> Event {
    ev(
        K::ToolCallArgs(ToolCallArgs {
            tool_call_id: id.to_owned(),
            delta,
        }),
        None,
    )
}

/// `s` as the inside of a JSON string literal.
fn escaped(s: &str) -> String {
    let quoted = Value::String(s.to_owned()).to_string();
    quoted
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or("")
        .to_owned()
}

impl AiSdkDecoder {
    /// A decoder for one response of run `run_id` on `thread_id` (the AI SDK has neither).
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        AiSdkDecoder {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            ..Default::default()
        }
    }

    /// Warnings since the last call (unknown chunks, stripped values, lone surrogates).
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// The ids the last `reset-step` removed (for [`AiSdkStream`](super::AiSdkStream)'s repairs).
    pub fn take_reset(&mut self) -> HashSet<String> {
        std::mem::take(&mut self.reset)
    }

    /// True once the stream ended (`finish`, `abort`, `error`, `[DONE]`).
    pub fn ended(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// One SSE frame's `data`. `thread` is the thread the events so far were applied to: ids
    /// are minted apart from its messages, and `reset-step` restates it.
    pub fn push(&mut self, data: &str, thread: &Thread) -> Result<Vec<Event>, AiSdkError> {
        let mut out = Vec::new();
        if self.phase == Phase::Ended {
            return Ok(out);
        }
        if data.trim() == "[DONE]" {
            if self.phase == Phase::Running {
                self.finish_run(None, None, &mut out);
            }
            self.phase = Phase::Ended;
            return Ok(out);
        }
        let value = parse_json(data, &mut self.warnings).map_err(AiSdkError::InvalidJson)?;
        let Value::Object(m) = value else {
            return Err(AiSdkError::NotAChunk("expected a JSON object"));
        };
        let Some(Value::String(ty)) = m.get("type") else {
            return Err(AiSdkError::NotAChunk("expected a string `type`"));
        };
        let c = Chunk { ty, m: &m };
        if !is_known(ty) {
            self.warnings.push(Warning::new(
                WarningKind::UnknownEvent,
                Some(ty),
                None,
                format!("unknown UI message stream chunk '{ty}' dropped"),
            ));
            return Ok(out);
        }
        if self.phase == Phase::Idle {
            self.phase = Phase::Running;
            out.push(ev(
                K::RunStarted(RunStarted {
                    thread_id: self.thread_id.clone(),
                    run_id: self.run_id.clone(),
                    protocol_version: None,
                    parent_run_id: None,
                    input: None,
                }),
                None,
            ));
        }
        self.chunk(&c, thread, &mut out)?;
        Ok(out)
    }

    /// One short arm per chunk family.
    fn chunk(&mut self, c: &Chunk, t: &Thread, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        match c.ty {
            "start" => {
                if let Some(id) = c.opt_str("messageId")? {
                    self.message_id = Some(id);
                }
                self.message_metadata(c, out);
            }
            "start-step" => self.start_step(out),
            "finish-step" => {
                self.close_blocks(out);
                self.end_step(out);
            }
            "reset-step" => self.reset_step(t, out),
            "text-start" | "reasoning-start" => self.block_start(c, t, out)?,
            "text-delta" | "reasoning-delta" => self.block_delta(c, out)?,
            "text-end" | "reasoning-end" => self.block_end(c, out)?,
            "tool-input-start" => self.tool_start(c, t, out)?,
            "tool-input-delta" => self.tool_delta(c, out)?,
            "tool-input-available" | "tool-input-error" => self.tool_input(c, t, out)?,
            "tool-output-available" | "tool-output-error" | "tool-output-denied" => {
                self.tool_output(c, t, out)?
            }
            "tool-approval-request" => self.approval(c, out)?,
            "tool-approval-response" => {}
            "message-metadata" => self.message_metadata(c, out),
            "finish" => {
                let reason = c.opt_str("finishReason")?;
                self.message_metadata(c, out);
                self.finish_run(None, reason.map(|r| ("aiSdkFinishReason", r)), out);
            }
            "abort" => {
                let reason = c.opt_str("reason")?;
                let md = reason.map(|r| ("aiSdkAbortReason", r));
                self.finish_run(Some(RunFinishedOutcome::Cancelled), md, out);
            }
            "error" => {
                let message = c.str("errorText")?;
                out.push(ev(
                    K::RunError(RunError {
                        message,
                        code: None,
                        usage: None,
                    }),
                    None,
                ));
                self.phase = Phase::Ended;
            }
            ty if ty.starts_with("data-") => self.data(c, t, out)?,
            _ => self.part(c, t, out)?,
        }
        Ok(())
    }

    fn mid(&self) -> String {
        self.message_id
            .clone()
            .unwrap_or_else(|| self.run_id.clone())
    }

    /// A fresh id from `base`: unique in this stream and not held by the thread.
    fn mint(&mut self, base: String, t: &Thread) -> Result<String, AiSdkError> {
        if self.issued.len() >= MAX_PARTS {
            return Err(AiSdkError::TooManyParts { limit: MAX_PARTS });
        }
        let mut id = base.clone();
        let mut n = 1;
        while self.issued.contains(&id) || t.position(&id).is_some() {
            n += 1;
            id = format!("{base}~{n}");
        }
        self.issued.insert(id.clone());
        self.step_ids.insert(id.clone());
        Ok(id)
    }

    /// Metadata linking an item to the UI message (and the provider's, kept for the request).
    fn md(&self, provider: Option<Value>) -> Option<Object> {
        let mut md = Object::new();
        md.insert(MD_MESSAGE.into(), Value::String(self.mid()));
        if let Some(p) = provider {
            md.insert(MD_PROVIDER.into(), p);
        }
        Some(md)
    }

    fn message_metadata(&mut self, c: &Chunk, out: &mut Vec<Event>) {
        if let Some(v) = c.opt("messageMetadata") {
            out.push(custom("ai-sdk:message-metadata", v));
        }
    }

    fn start_step(&mut self, out: &mut Vec<Event>) {
        self.end_step(out);
        self.steps += 1;
        let name = format!("step-{}", self.steps);
        out.push(ev(
            K::StepStarted(Step {
                step_name: name.clone(),
            }),
            None,
        ));
        self.step = Some(name);
        self.step_ids.clear();
        self.holder = None;
    }

    fn end_step(&mut self, out: &mut Vec<Event>) {
        if let Some(step_name) = self.step.take() {
            out.push(ev(K::StepFinished(Step { step_name }), None));
        }
        self.holder = None;
    }

    /// End every open text and reasoning block.
    fn close_blocks(&mut self, out: &mut Vec<Event>) {
        for (_, id) in std::mem::take(&mut self.text) {
            out.push(ev(K::TextMessageEnd(MessageRef { message_id: id }), None));
        }
        for (_, id) in std::mem::take(&mut self.reasoning) {
            end_reasoning(id, out);
        }
    }

    /// End the open calls that `keep` selects.
    fn close_calls(&mut self, keep: impl Fn(&str) -> bool, out: &mut Vec<Event>) {
        for (id, call) in self.calls.iter_mut().filter(|(id, _)| keep(id)) {
            close_call(id, call, out);
        }
    }

    fn finish_run(
        &mut self,
        outcome: Option<RunFinishedOutcome>,
        md: Option<(&str, String)>,
        out: &mut Vec<Event>,
    ) {
        self.close_blocks(out);
        self.close_calls(|_| true, out);
        self.end_step(out);
        let interrupts = std::mem::take(&mut self.interrupts);
        let outcome = match outcome {
            None if !interrupts.is_empty() => Some(RunFinishedOutcome::Interrupt { interrupts }),
            other => other,
        };
        let md = md.map(|(k, v)| Object::from_iter([(k.to_owned(), Value::String(v))]));
        out.push(ev(
            K::RunFinished(RunFinished {
                thread_id: self.thread_id.clone(),
                run_id: self.run_id.clone(),
                result: None,
                outcome,
                usage: None,
            }),
            md,
        ));
        self.phase = Phase::Ended;
    }

    fn reset_step(&mut self, t: &Thread, out: &mut Vec<Event>) {
        self.close_blocks(out);
        let ids = std::mem::take(&mut self.step_ids);
        self.close_calls(|id| ids.contains(id), out);
        self.calls.retain(|id, _| !ids.contains(id));
        self.interrupts
            .retain(|i| !i.tool_call_id.as_ref().is_some_and(|c| ids.contains(c)));
        self.holder = None;
        let messages = t
            .messages
            .iter()
            .filter(|m| !ids.contains(&m.id))
            .cloned()
            .collect();
        // The snapshot speaks for every activity: without this, activities it leaves out
        // would be kept when it has none (§4.7).
        let md = json!({"@ag-ui/client": {"authoritativeActivityTypes": null}});
        out.push(ev(
            K::MessagesSnapshot(MessagesSnapshot { messages }),
            md.as_object().cloned(),
        ));
        self.reset = ids;
    }

    fn block_start(
        &mut self,
        c: &Chunk,
        t: &Thread,
        out: &mut Vec<Event>,
    ) -> Result<(), AiSdkError> {
        let id = c.str("id")?;
        let md = self.md(c.opt("providerMetadata"));
        let reasoning = c.ty.starts_with("reasoning");
        // A second start of an open block starts a new part, as in the AI SDK.
        if reasoning {
            if let Some(old) = self.reasoning.remove(&id) {
                end_reasoning(old, out);
            }
        } else if let Some(old) = self.text.remove(&id) {
            out.push(ev(K::TextMessageEnd(MessageRef { message_id: old }), None));
        }
        let message_id = self.mint(format!("{}:{id}", self.mid()), t)?;
        if reasoning {
            out.push(ev(
                K::ReasoningStart(MessageRef {
                    message_id: message_id.clone(),
                }),
                None,
            ));
            out.push(ev(
                K::ReasoningMessageStart(ReasoningMessageStart {
                    message_id: message_id.clone(),
                    role: "reasoning".into(),
                }),
                md,
            ));
            self.reasoning.insert(id, message_id);
        } else {
            out.push(ev(
                K::TextMessageStart(TextMessageStart {
                    message_id: message_id.clone(),
                    role: Some(Role::Assistant),
                    name: None,
                }),
                md,
            ));
            self.holder = Some(message_id.clone());
            self.text.insert(id, message_id);
        }
        Ok(())
    }

    fn open_block(&self, c: &Chunk, id: &str) -> Result<String, AiSdkError> {
        let open = if c.ty.starts_with("reasoning") {
            &self.reasoning
        } else {
            &self.text
        };
        open.get(id).cloned().ok_or_else(|| AiSdkError::NotOpen {
            chunk_type: c.ty.to_owned(),
            id: id.to_owned(),
        })
    }

    fn block_delta(&mut self, c: &Chunk, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        let id = c.str("id")?;
        let delta = c.str("delta")?;
        let message_id = self.open_block(c, &id)?;
        let md = c.opt("providerMetadata").and_then(|p| self.md(Some(p)));
        let d = Delta { message_id, delta };
        let kind = if c.ty.starts_with("reasoning") {
            K::ReasoningMessageContent(d)
        } else {
            K::TextMessageContent(d)
        };
        out.push(ev(kind, md));
        Ok(())
    }

    fn block_end(&mut self, c: &Chunk, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        let id = c.str("id")?;
        let message_id = self.open_block(c, &id)?;
        let md = c.opt("providerMetadata").and_then(|p| self.md(Some(p)));
        if c.ty.starts_with("reasoning") {
            self.reasoning.remove(&id);
            let end = MessageRef {
                message_id: message_id.clone(),
            };
            out.push(ev(K::ReasoningMessageEnd(end), md));
            out.push(ev(K::ReasoningEnd(MessageRef { message_id }), None));
        } else {
            self.text.remove(&id);
            out.push(ev(K::TextMessageEnd(MessageRef { message_id }), md));
        }
        Ok(())
    }

    /// The tool call's metadata: the UI message, the AI SDK's flags, the provider's metadata.
    fn tool_md(&self, c: &Chunk) -> Result<Option<Object>, AiSdkError> {
        let mut tool = Object::new();
        if let Some(d) = c.opt_bool("dynamic")? {
            tool.insert("dynamic".into(), Value::Bool(d));
        }
        if let Some(p) = c.opt_bool("providerExecuted")? {
            tool.insert("providerExecuted".into(), Value::Bool(p));
        }
        if let Some(title) = c.opt_str("title")? {
            tool.insert("title".into(), Value::String(title));
        }
        let mut md = self.md(c.opt("providerMetadata")).unwrap_or_default();
        if !tool.is_empty() {
            md.insert(MD_TOOL.into(), Value::Object(tool));
        }
        Ok(Some(md))
    }

    fn start_call(
        &mut self,
        c: &Chunk,
        id: &str,
        text: bool,
        out: &mut Vec<Event>,
    ) -> Result<(), AiSdkError> {
        if self.issued.len() >= MAX_PARTS {
            return Err(AiSdkError::TooManyParts { limit: MAX_PARTS });
        }
        let md = self.tool_md(c)?;
        out.push(ev(
            K::ToolCallStart(ToolCallStart {
                tool_call_id: id.to_owned(),
                tool_call_name: c.str("toolName")?,
                parent_message_id: self.holder.clone(),
            }),
            md,
        ));
        if text {
            out.push(args(id, "\"".into()));
        }
        self.issued.insert(id.to_owned());
        // Without a parent the call's message has the call's id (§5).
        self.step_ids.insert(id.to_owned());
        let call = Call {
            open: true,
            deltas: false,
            text,
        };
        self.calls.insert(id.to_owned(), call);
        Ok(())
    }

    fn tool_start(
        &mut self,
        c: &Chunk,
        t: &Thread,
        out: &mut Vec<Event>,
    ) -> Result<(), AiSdkError> {
        let id = c.str("toolCallId")?;
        let text = match c.opt_str("inputEncoding")?.as_deref() {
            None | Some("json") => false,
            Some("text") => true,
            Some(other) => {
                self.warnings.push(Warning::new(
                    WarningKind::Stripped,
                    Some(c.ty),
                    Some("/inputEncoding".into()),
                    format!("unknown inputEncoding '{other}' read as json"),
                ));
                false
            }
        };
        if self.calls.contains_key(&id) || t.tool_call(&id).is_some() {
            return Ok(());
        }
        self.start_call(c, &id, text, out)
    }

    fn tool_delta(&mut self, c: &Chunk, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        let id = c.str("toolCallId")?;
        let delta = c.str("inputTextDelta")?;
        let Some(call) = self.calls.get_mut(&id).filter(|call| call.open) else {
            return Err(AiSdkError::NotOpen {
                chunk_type: c.ty.to_owned(),
                id,
            });
        };
        call.deltas = true;
        let delta = if call.text { escaped(&delta) } else { delta };
        out.push(args(&id, delta));
        Ok(())
    }

    fn tool_input(
        &mut self,
        c: &Chunk,
        t: &Thread,
        out: &mut Vec<Event>,
    ) -> Result<(), AiSdkError> {
        let id = c.str("toolCallId")?;
        c.str("toolName")?;
        let error = match c.ty {
            "tool-input-error" => Some(c.str("errorText")?),
            _ => None,
        };
        let held = t.tool_call(&id).is_some();
        if !self.calls.contains_key(&id) && !held {
            self.start_call(c, &id, false, out)?;
        }
        let md = self.tool_md(c)?;
        if let Some(call) = self.calls.get_mut(&id).filter(|call| call.open) {
            if !call.deltas {
                let input = c.any("input");
                let text = match (&input, call.text) {
                    (Value::String(s), true) => escaped(s),
                    (v, true) => escaped(&v.to_string()),
                    (v, false) => v.to_string(),
                };
                out.push(args(&id, text));
            }
            close_call(&id, call, out);
            if let Some(end) = out.last_mut() {
                end.metadata = md;
            }
        }
        if let Some(e) = error {
            self.result(&id, e.clone(), Some(("output-error", e)), t, out)?;
        }
        Ok(())
    }

    fn tool_output(
        &mut self,
        c: &Chunk,
        t: &Thread,
        out: &mut Vec<Event>,
    ) -> Result<(), AiSdkError> {
        let id = c.str("toolCallId")?;
        let (content, state) = match c.ty {
            "tool-output-available" => {
                let output = c.any("output");
                if c.opt_bool("preliminary")? == Some(true) {
                    let value = json!({"toolCallId": id, "output": output});
                    out.push(custom("ai-sdk:preliminary-output", value));
                    return Ok(());
                }
                (output.to_string(), None)
            }
            "tool-output-error" => {
                let e = c.str("errorText")?;
                (e.clone(), Some(("output-error", e)))
            }
            _ => (
                DENIED.to_owned(),
                Some(("output-denied", DENIED.to_owned())),
            ),
        };
        self.close_calls(|c| c == id, out);
        self.result(&id, content, state, t, out)
    }

    fn result(
        &mut self,
        call: &str,
        content: String,
        state: Option<(&str, String)>,
        t: &Thread,
        out: &mut Vec<Event>,
    ) -> Result<(), AiSdkError> {
        let message_id = self.mint(format!("{call}:result"), t)?;
        let mut md = Object::new();
        if let Some((s, e)) = state {
            md.insert(MD_STATE.to_owned(), Value::String(s.to_owned()));
            md.insert(MD_ERROR.to_owned(), Value::String(e));
        }
        // The answer to an earlier run's approval request: the request restates the approval
        // on the part (the AI SDK's schema requires it on `output-denied`).
        let approval = t
            .runs
            .iter()
            .rev()
            .flat_map(|r| &r.interrupts)
            .find(|i| i.reason == "tool_call" && i.tool_call_id.as_deref() == Some(call));
        if let Some(i) = approval {
            md.insert(MD_APPROVAL.to_owned(), Value::String(i.id.clone()));
        }
        let md = (!md.is_empty()).then_some(md);
        out.push(ev(
            K::ToolCallResult(ToolCallResult {
                message_id,
                tool_call_id: call.to_owned(),
                content: Content::Text(content),
                role: None,
            }),
            md,
        ));
        self.interrupts
            .retain(|i| i.tool_call_id.as_deref() != Some(call));
        Ok(())
    }

    fn approval(&mut self, c: &Chunk, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        let id = c.str("approvalId")?;
        let call = c.str("toolCallId")?;
        let signature = c.opt_str("signature")?;
        if c.opt_bool("isAutomatic")? == Some(true) {
            out.push(custom(
                "ai-sdk:tool-approval-request",
                Value::Object(c.m.clone()),
            ));
            return Ok(());
        }
        if self.interrupts.len() >= MAX_PARTS {
            return Err(AiSdkError::TooManyParts { limit: MAX_PARTS });
        }
        let schema = json!({
            "type": "object",
            "properties": {"approved": {"type": "boolean"}, "reason": {"type": "string"}},
            "required": ["approved"],
        });
        self.interrupts.retain(|i| i.id != id);
        self.interrupts.push(Interrupt {
            id,
            reason: "tool_call".into(),
            message: None,
            tool_call_id: Some(call),
            response_schema: schema.as_object().cloned(),
            expires_at: None,
            metadata: signature
                .map(|s| Object::from_iter([("aiSdkSignature".to_owned(), Value::String(s))])),
            subagent_run_id: None,
        });
        Ok(())
    }

    fn data(&mut self, c: &Chunk, t: &Thread, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        let id = c.opt_str("id")?;
        let transient = c.opt_bool("transient")? == Some(true);
        let mut content = Object::new();
        content.insert("data".into(), c.any("data"));
        if let Some(id) = &id {
            content.insert("id".into(), Value::String(id.clone()));
        }
        if transient {
            out.push(custom(c.ty, Value::Object(content)));
            return Ok(());
        }
        let message_id = match id {
            // The same type + id is the same part: one activity, updated in place.
            Some(id) => {
                let m = format!("{}:{}:{id}", self.mid(), c.ty);
                if !self.issued.contains(&m) && self.issued.len() >= MAX_PARTS {
                    return Err(AiSdkError::TooManyParts { limit: MAX_PARTS });
                }
                if t.position(&m).is_none() {
                    self.step_ids.insert(m.clone());
                }
                self.issued.insert(m.clone());
                m
            }
            None => self.mint(format!("{}:{}", self.mid(), c.ty), t)?,
        };
        self.activity(message_id, c.ty, content, out);
        Ok(())
    }

    /// Sources, files and provider parts: a card holding the chunk's fields.
    fn part(&mut self, c: &Chunk, t: &Thread, out: &mut Vec<Event>) -> Result<(), AiSdkError> {
        let required = PART_TYPES
            .iter()
            .find(|(ty, _)| *ty == c.ty)
            .map_or(&[][..], |(_, f)| f);
        for f in required {
            if !matches!(c.m.get(*f), Some(Value::String(_))) {
                return Err(c.bad(f, "must be a string"));
            }
        }
        let mut content = c.m.clone();
        content.remove("type");
        let message_id = self.mint(format!("{}:{}", self.mid(), c.ty), t)?;
        self.activity(message_id, c.ty, content, out);
        Ok(())
    }

    fn activity(&self, message_id: String, ty: &str, content: Object, out: &mut Vec<Event>) {
        out.push(ev(
            K::ActivitySnapshot(ActivitySnapshot {
                message_id,
                activity_type: ty.to_owned(),
                content,
                replace: None,
            }),
            self.md(None),
        ));
    }
}

fn end_reasoning(message_id: String, out: &mut Vec<Event>) {
    let end = MessageRef {
        message_id: message_id.clone(),
    };
    out.push(ev(K::ReasoningMessageEnd(end), None));
    out.push(ev(K::ReasoningEnd(MessageRef { message_id }), None));
}

fn close_call(id: &str, call: &mut Call, out: &mut Vec<Event>) {
    if !call.open {
        return;
    }
    if call.text {
        out.push(args(id, "\"".into()));
    }
    out.push(ev(
        K::ToolCallEnd(ToolCallRef {
            tool_call_id: id.to_owned(),
        }),
        None,
    ));
    call.open = false;
}

fn is_known(ty: &str) -> bool {
    const KNOWN: &[&str] = &[
        "start",
        "start-step",
        "finish-step",
        "reset-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-input-error",
        "tool-output-available",
        "tool-output-error",
        "tool-output-denied",
        "tool-approval-request",
        "tool-approval-response",
        "message-metadata",
        "finish",
        "abort",
        "error",
    ];
    KNOWN.contains(&ty) || ty.starts_with("data-") || PART_TYPES.iter().any(|(t, _)| *t == ty)
}
