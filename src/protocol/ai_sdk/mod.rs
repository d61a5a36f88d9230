//! The AI SDK (v5–v7) UI message stream, sans-IO: a response that carries
//! `x-vercel-ai-ui-message-stream: v1` ([`is_ai_sdk_response`]) is SSE whose every `data` is one
//! JSON chunk (vercel/ai `packages/ai/src/ui-message-stream/ui-message-chunks.ts`), ending with
//! `data: [DONE]`. [`AiSdkDecoder`] turns each chunk into the AG-UI events the rest of the client
//! already folds (spec digest §2.2–2.3), so the reducer, the cards, the inspector and the tests
//! see an ordinary AG-UI run; [`AiSdkStream`] is the byte-level entry point (SSE → decoder →
//! [`Pipeline::push_event`]) that a transport uses instead of [`Pipeline::push_bytes`].
//! [`request_body`] builds the AI SDK's request from the thread's AG-UI messages.
//!
//! ## Mapping (chunk → events)
//!
//! `mid` is the stream's UI message id (`start.messageId`, else the run id). Minted ids never
//! repeat within a stream nor reuse an id the thread holds (a `~n` suffix is added).
//!
//! | Chunk | Events |
//! |---|---|
//! | `start{messageId?, messageMetadata?}` | `RUN_STARTED` (thread and run ids from the caller); metadata → `CUSTOM ai-sdk:message-metadata`. Any other first chunk opens the run too. |
//! | `start-step` / `finish-step` | `STEP_STARTED` / `STEP_FINISHED` `step-<n>`; `finish-step` ends open text and reasoning blocks (as the AI SDK does). |
//! | `text-start{id}` / `-delta` / `-end` | `TEXT_MESSAGE_START/CONTENT/END`, one assistant message per block, id `mid:id`. Interleaved blocks cannot share one message (the reducer appends deltas to one string), and a block after a tool result must come after it in the transcript, so every block is its own message. |
//! | `reasoning-start{id}` / `-delta` / `-end` | `REASONING_START` + `REASONING_MESSAGE_START`, `…_CONTENT`, `…_MESSAGE_END` + `REASONING_END` (span and message share the id, §2.3). |
//! | `tool-input-start{toolCallId, toolName, inputEncoding?}` | `TOOL_CALL_START`, parent = the step's latest text block (else the call gets its own message, §5). With `inputEncoding: "text"` the raw text is streamed as a JSON string (`"` first, escaped deltas, `"` last) so the arguments stay JSON. |
//! | `tool-input-delta{inputTextDelta}` | `TOOL_CALL_ARGS`. |
//! | `tool-input-available{input}` | (`TOOL_CALL_START` if none came) + the input as one `TOOL_CALL_ARGS` if no delta came + `TOOL_CALL_END`. A call the thread already holds (a continued message) emits nothing. Streamed text that differs from the final `input` stands. |
//! | `tool-input-error{input, errorText}` | as `tool-input-available`, then an error result (below). |
//! | `tool-output-available{output}` | `TOOL_CALL_RESULT`, content = the output's JSON text. `preliminary: true` outputs → `CUSTOM ai-sdk:preliminary-output` only (a result cannot be replaced). |
//! | `tool-output-error{errorText}` | `TOOL_CALL_RESULT` content = errorText, metadata `aiSdkState: "output-error"`, `aiSdkErrorText`; [`AiSdkStream`] copies the text into the tool message's `error` (how the thread marks a failed tool, §4.12). |
//! | `tool-output-denied` | the same with `aiSdkState: "output-denied"` and [`DENIED`]. A result for a call an earlier run's `tool-approval-request` paused on carries `aiSdkApprovalId`, so later requests restate the part's `approval` (the AI SDK's schema requires it on `output-denied`). |
//! | `tool-approval-request{approvalId, toolCallId}` | an [`Interrupt`] `{id: approvalId, reason: "tool_call", toolCallId, responseSchema: {approved, reason}}` (the approval card's convention), raised by the closing `RUN_FINISHED` as `outcome: interrupt` (§4.11). `isAutomatic` ones → `CUSTOM ai-sdk:tool-approval-request`. Answer with [`approval_responses`] + [`request_body`]. |
//! | `tool-approval-response` | nothing (the client sent it). |
//! | `data-*{id?, data, transient?}` | `ACTIVITY_SNAPSHOT` activityType = the chunk type, content `{data, id?}`, message `mid:type:id`, so the same id updates in place (as `useChat` reconciles by type + id); without id a new activity. `transient` → `CUSTOM` named by the type, value `{data, id?}`, never stored. |
//! | `source-url`, `source-document`, `file`, `reasoning-file`, `custom` | `ACTIVITY_SNAPSHOT` activityType = the chunk type, content = the chunk's fields: a visible card that survives into the next request. |
//! | `message-metadata{messageMetadata}` | `CUSTOM ai-sdk:message-metadata`. |
//! | `reset-step` | ends open blocks and calls, then `MESSAGES_SNAPSHOT` of the thread without what the step minted (authoritative for activities); see [`AiSdkStream`] for the two repairs the snapshot rules need. Data parts of earlier steps updated in this step stay updated (as in the AI SDK). |
//! | `finish{finishReason?, messageMetadata?}` | ends what is open, `RUN_FINISHED` (metadata `aiSdkFinishReason`); interrupt outcome when approvals are pending, else absent (success; pending frontend calls derived, §4.12). |
//! | `abort{reason?}` | ends what is open, `RUN_FINISHED` `outcome: cancelled` (§2.4), metadata `aiSdkAbortReason`. |
//! | `error{errorText}` | `RUN_ERROR{message: errorText}`; later chunks are ignored (only `RUN_STARTED` may follow, §4.3). |
//! | `data: [DONE]` | the end: a still open run is finished as by `finish`; later chunks ignored. |
//! | unknown type | dropped with a [`WarningKind::UnknownEvent`] warning (§4.2). |
//!
//! A known chunk whose field has the wrong type, a delta or end for a block or call that is not
//! open (the AI SDK client throws for these too), or more than [`MAX_PARTS`] parts fails the
//! stream with an [`AiSdkError`] ([`ProtocolError::AiSdk`]). Unknown fields are ignored (the
//! schema's objects are loose). Metadata keys `aiSdk*` keep what the request needs back
//! (`aiSdkMessageId`, `aiSdkProviderMetadata`, `aiSdkTool`).
//!
//! Not here: resumable streams (a `GET` replay would need the decoder to rebuild from the first
//! `start`), and the transport/UI wiring.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::error::{ProtocolError, Warning, WarningKind};
use super::event::{
    ActivitySnapshot, Custom, Delta, Event, EventKind as K, MessageRef, MessagesSnapshot,
    ReasoningMessageStart, RunError, RunFinished, RunStarted, Step, TextMessageStart, ToolCallArgs,
    ToolCallRef, ToolCallResult, ToolCallStart,
};
use super::pipeline::{parse_json, Delivered, Pipeline, PipelineOptions};
use super::reducer::Thread;
use super::sse::{SseDecoder, SseError, SseFrame};
use super::types::{
    Content, ContentPart, Interrupt, MediaPart, Message, Object, PartSource, ResumeEntry,
    ResumeStatus, Role, RunFinishedOutcome, ToolCall,
};

mod error;

pub use error::AiSdkError;

/// The response header that marks a UI message stream.
pub const HEADER: &str = super::wire::AI_SDK_HEADER;
/// Parts (blocks, calls, results, activities, approvals) one stream may mint.
pub const MAX_PARTS: usize = 10_000;
/// The result text of a denied tool call (the AI SDK's own default wording, for the model).
pub const DENIED: &str = "Tool call execution denied.";

const MD_MESSAGE: &str = "aiSdkMessageId";
const MD_PROVIDER: &str = "aiSdkProviderMetadata";
const MD_TOOL: &str = "aiSdkTool";
const MD_STATE: &str = "aiSdkState";
const MD_ERROR: &str = "aiSdkErrorText";
const MD_APPROVAL: &str = "aiSdkApprovalId";
/// On a tool call: the reason the person gave with their approval answer, restated on the
/// tool part of every later request (`approval.reason`: a denied tool's reason is what the
/// model is told it was denied for).
const MD_APPROVAL_REASON: &str = "aiSdkApprovalReason";
/// Chunk types that become an activity card holding the chunk's fields, with the fields each
/// requires as strings.
const PART_TYPES: &[(&str, &[&str])] = &[
    ("source-url", &["sourceId", "url"]),
    ("source-document", &["sourceId", "mediaType", "title"]),
    ("file", &["url", "mediaType"]),
    ("reasoning-file", &["url", "mediaType"]),
    ("custom", &["kind"]),
];

/// True for a response in this protocol: the header says `v1` and the body is SSE (or untyped).
pub fn is_ai_sdk_response(content_type: Option<&str>, header_value: Option<&str>) -> bool {
    let sse = content_type.is_none_or(|ct| {
        let essence = ct.split(';').next().unwrap_or("").trim();
        essence.eq_ignore_ascii_case("text/event-stream")
    });
    sse && header_value.is_some_and(|v| v.trim().eq_ignore_ascii_case("v1"))
}

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

    /// The ids the last `reset-step` removed (for [`AiSdkStream`]'s repairs).
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

// ---- bytes → thread -------------------------------------------------------------------------

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

// ---- the request ----------------------------------------------------------------------------

/// Why the AI SDK request is sent.
/// Where an AI SDK chat's in-flight stream is asked for again (`DefaultChatTransport`'s
/// `reconnectToStream`: `{api}/{chatId}/stream`); the id is percent-encoded (it may come from
/// storage the host page shares).
pub fn resume_url(endpoint: &str, chat_id: &str) -> String {
    let mut url = endpoint.trim_end_matches('/').to_owned();
    url.push('/');
    for b in chat_id.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push_str("/stream");
    url
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    SubmitMessage,
    RegenerateMessage,
}

impl Trigger {
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::SubmitMessage => "submit-message",
            Trigger::RegenerateMessage => "regenerate-message",
        }
    }
}

/// The person's answer to one `tool-approval-request`, sent as the tool part's
/// `approval-responded` state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalResponse {
    pub approval_id: String,
    pub tool_call_id: String,
    pub approved: bool,
    pub reason: Option<String>,
}

/// The approval answers in `resume` (the entries the approval cards made for the open
/// `interrupts`): `resolved` with `payload.approved == true` approves, anything else denies.
pub fn approval_responses(
    interrupts: &[Interrupt],
    resume: &[ResumeEntry],
) -> Vec<ApprovalResponse> {
    resume
        .iter()
        .filter_map(|r| {
            let i = interrupts.iter().find(|i| i.id == r.interrupt_id)?;
            let payload = r.payload.as_ref();
            let approved = r.status == ResumeStatus::Resolved
                && payload
                    .and_then(|p| p.get("approved"))
                    .and_then(Value::as_bool)
                    == Some(true);
            Some(ApprovalResponse {
                approval_id: i.id.clone(),
                tool_call_id: i.tool_call_id.clone()?,
                approved,
                reason: payload
                    .and_then(|p| p.get("reason"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
        })
        .collect()
}

/// Keep each answer's reason on its tool call (the thread is saved with it), so that later
/// requests restate it after the call's result came back.
pub fn record_approvals(thread: &mut Thread, approvals: &[ApprovalResponse]) {
    for a in approvals {
        let Some(reason) = &a.reason else { continue };
        if let Some(call) = thread.tool_call_mut(&a.tool_call_id) {
            call.metadata
                .get_or_insert_with(Object::new)
                .insert(MD_APPROVAL_REASON.to_owned(), Value::String(reason.clone()));
        }
    }
}

/// The AI SDK request body (`DefaultChatTransport`'s shape):
/// `{id, messages: UIMessage[], trigger, messageId?}`. As `useChat` does, `messageId` names the
/// assistant message an approval answer continues (the last one, holding the answered tool
/// part) and is absent otherwise (a new message, or regenerating the last answer). Consecutive assistant, reasoning, tool and activity
/// messages become one assistant `UIMessage` (its id from `aiSdkMessageId`), with a
/// `step-start` part before what follows a tool result; tool calls become `tool-<name>` (or
/// `dynamic-tool`) parts whose state comes from their result, or from `approvals`.
pub fn request_body(
    chat_id: &str,
    messages: &[Message],
    trigger: Trigger,
    approvals: &[ApprovalResponse],
) -> Value {
    let messages = ui_messages(messages, approvals);
    let continued = (!approvals.is_empty())
        .then(|| messages.last())
        .flatten()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["id"].clone());
    let mut body = json!({
        "id": chat_id,
        "messages": messages,
        "trigger": trigger.as_str(),
    });
    if let (Some(id), Some(o)) = (continued, body.as_object_mut()) {
        o.insert("messageId".into(), id);
    }
    body
}

/// One assistant `UIMessage` being assembled.
struct Group {
    id: String,
    parts: Vec<Value>,
    after_result: bool,
}

impl Group {
    fn boundary(&mut self) {
        if std::mem::take(&mut self.after_result) {
            self.parts.push(json!({"type": "step-start"}));
        }
    }

    fn into_message(self) -> Option<Value> {
        (!self.parts.is_empty())
            .then(|| json!({"id": self.id, "role": "assistant", "parts": self.parts}))
    }
}

fn md_get<'a>(md: &'a Option<Object>, key: &str) -> Option<&'a Value> {
    md.as_ref().and_then(|m| m.get(key))
}

fn ui_messages(messages: &[Message], approvals: &[ApprovalResponse]) -> Vec<Value> {
    let mut results: HashMap<&str, &Message> = HashMap::new();
    for m in messages.iter().filter(|m| m.role == Role::Tool) {
        if let Some(id) = &m.tool_call_id {
            results.entry(id.as_str()).or_insert(m);
        }
    }
    let mut out = Vec::new();
    let mut group: Option<Group> = None;
    for m in messages {
        let role = match m.role {
            Role::User => "user",
            Role::System | Role::Developer => "system",
            Role::Assistant | Role::Reasoning | Role::Tool | Role::Activity => {
                let g = group.get_or_insert_with(|| Group {
                    id: String::new(),
                    parts: Vec::new(),
                    after_result: false,
                });
                if g.id.is_empty() && m.role != Role::Tool {
                    // A call's own message carries the UI message id on the call (§4.10).
                    let calls = m.tool_calls.iter().flatten();
                    g.id = std::iter::once(&m.metadata)
                        .chain(calls.map(|c| &c.metadata))
                        .find_map(|md| md_get(md, MD_MESSAGE).and_then(Value::as_str))
                        .map_or_else(|| m.id.clone(), str::to_owned);
                }
                add_part(g, m, &results, approvals);
                continue;
            }
        };
        out.extend(group.take().and_then(Group::into_message));
        out.push(json!({"id": m.id, "role": role, "parts": user_parts(m)}));
    }
    out.extend(group.and_then(Group::into_message));
    out
}

fn add_part(
    g: &mut Group,
    m: &Message,
    results: &HashMap<&str, &Message>,
    approvals: &[ApprovalResponse],
) {
    let provider = md_get(&m.metadata, MD_PROVIDER);
    let with_provider = |mut part: Value| {
        if let (Some(p), Some(o)) = (provider, part.as_object_mut()) {
            o.insert("providerMetadata".into(), p.clone());
        }
        part
    };
    match m.role {
        Role::Tool => g.after_result = true,
        Role::Reasoning => {
            g.boundary();
            let part = json!({"type": "reasoning", "text": m.text(), "state": "done"});
            g.parts.push(with_provider(part));
        }
        Role::Assistant => {
            g.boundary();
            let text = m.text();
            if !text.is_empty() {
                let part = json!({"type": "text", "text": text, "state": "done"});
                g.parts.push(with_provider(part));
            }
            for call in m.tool_calls.iter().flatten() {
                let result = results.get(call.id.as_str()).copied();
                g.parts.push(tool_part(call, result, approvals));
            }
        }
        Role::Activity => {
            let ty = m.activity_type.as_deref().unwrap_or("");
            let ours = ty.starts_with("data-") || PART_TYPES.iter().any(|(t, _)| *t == ty);
            if let (true, Some(Content::Object(content))) = (ours, &m.content) {
                let mut part = content.clone();
                part.insert("type".into(), Value::String(ty.to_owned()));
                g.parts.push(Value::Object(part));
            }
        }
        _ => {}
    }
}

/// JSON text as its value; anything else as the string itself.
fn json_or_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

fn tool_part(call: &ToolCall, result: Option<&Message>, approvals: &[ApprovalResponse]) -> Value {
    let tool = md_get(&call.metadata, MD_TOOL).and_then(Value::as_object);
    let flag = |k: &str| tool.and_then(|t| t.get(k)).cloned();
    let mut p = Map::new();
    if flag("dynamic") == Some(Value::Bool(true)) {
        p.insert("type".into(), "dynamic-tool".into());
        p.insert("toolName".into(), call.function.name.clone().into());
    } else {
        p.insert("type".into(), format!("tool-{}", call.function.name).into());
    }
    p.insert("toolCallId".into(), call.id.clone().into());
    let args = call.function.arguments.trim();
    let input = if args.is_empty() {
        json!({})
    } else {
        json_or_text(args)
    };
    p.insert("input".into(), input);
    for k in ["providerExecuted", "title"] {
        if let Some(v) = flag(k) {
            p.insert(k.into(), v);
        }
    }
    if let Some(pm) = md_get(&call.metadata, MD_PROVIDER) {
        p.insert("callProviderMetadata".into(), pm.clone());
    }
    let approval = approvals.iter().find(|a| a.tool_call_id == call.id);
    let state = match result {
        Some(r) => {
            let state = md_get(&r.metadata, MD_STATE).and_then(Value::as_str);
            match (state, &r.error) {
                (Some("output-denied"), _) => "output-denied",
                (Some("output-error"), _) | (_, Some(_)) => {
                    let text = r.error.clone().unwrap_or_else(|| r.text().into_owned());
                    p.insert("errorText".into(), text.into());
                    "output-error"
                }
                _ => {
                    p.insert("output".into(), json_or_text(&r.text()));
                    "output-available"
                }
            }
        }
        None if approval.is_some() => "approval-responded",
        None => "input-available",
    };
    let answered = result.and_then(|r| md_get(&r.metadata, MD_APPROVAL));
    if let Some(a) = approval.filter(|a| state != "output-available" || a.approved) {
        let mut o = json!({"id": a.approval_id, "approved": a.approved});
        if let (Some(r), Some(o)) = (&a.reason, o.as_object_mut()) {
            o.insert("reason".into(), r.clone().into());
        }
        p.insert("approval".into(), o);
    } else if let Some(Value::String(id)) = answered {
        let approved = state != "output-denied";
        let mut o = json!({"id": id, "approved": approved});
        if let (Some(r), Some(o)) = (
            md_get(&call.metadata, MD_APPROVAL_REASON),
            o.as_object_mut(),
        ) {
            o.insert("reason".into(), r.clone());
        }
        p.insert("approval".into(), o);
    }
    p.insert("state".into(), state.into());
    Value::Object(p)
}

/// A user or system message's parts: its text, and its media as `file` parts (provider file
/// handles are never sent on: they are not URLs).
fn user_parts(m: &Message) -> Vec<Value> {
    let parts = match &m.content {
        Some(Content::Text(s)) => return vec![json!({"type": "text", "text": s})],
        Some(Content::Parts(parts)) => parts,
        _ => return Vec::new(),
    };
    parts
        .iter()
        .filter_map(|p| match p {
            ContentPart::Text { text, .. } => Some(json!({"type": "text", "text": text})),
            ContentPart::Image(media)
            | ContentPart::Audio(media)
            | ContentPart::Video(media)
            | ContentPart::Document(media) => file_part(media),
        })
        .collect()
}

fn file_part(media: &MediaPart) -> Option<Value> {
    let (url, mime) = match &media.source {
        PartSource::Data { value, mime_type } => (
            format!("data:{mime_type};base64,{value}"),
            mime_type.clone(),
        ),
        PartSource::Url { value, mime_type } => (
            value.clone(),
            mime_type
                .clone()
                .unwrap_or_else(|| "application/octet-stream".into()),
        ),
        PartSource::File { .. } => return None,
    };
    let mut part = json!({"type": "file", "mediaType": mime, "url": url});
    let filename = media.metadata.as_ref().and_then(|m| m.get("filename"));
    if let (Some(Value::String(f)), Some(o)) = (filename, part.as_object_mut()) {
        o.insert("filename".into(), f.clone().into());
    }
    Some(part)
}
