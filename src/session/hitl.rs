//! Human in the loop: frontend tool calls answered in the browser (spec digest §4.12) and
//! interrupts answered, then resumed (§4.11, legacy `on_interrupt` §7.1/§7.4).
//!
//! **Frontend tools.** A call to an advertised tool (`AgentConfig.tools`) that the run left
//! pending is answered with [`Session::answer_tool_call`]: a `tool` message right after the
//! call ([`Thread::add_tool_result`](crate::protocol::Thread::add_tool_result)). Once every
//! pending call of the run is answered, the next run starts by itself (the request is
//! returned). Handlers (code that answers without the person) are started by the UI's driver
//! only once the run has *finished* with the call pending — never on streaming arguments,
//! never before `TOOL_CALL_END` — and each call is claimed once
//! ([`Session::claim_tool_call`]), so a remounted view cannot run a handler twice.
//!
//! **Interrupts.** Answers are recorded per thread in a [`ResumeBuilder`] as the person submits
//! each card, and can be changed until sent. A lone interrupt is resumed as soon as it is
//! answered; with several, [`Session::send_answers`] sends them together, so the person can
//! review before sending. The resume is a new run whose `resume` array covers every open
//! interrupt: only [`ResumeBuilder::build`] can produce the [`CompleteResume`] that
//! `start_run` takes, so an incomplete resume cannot be sent. Interrupts announced the legacy
//! way (`CUSTOM on_interrupt`) are also answered through `forwardedProps.command.resume`, which
//! older LangGraph/Mastra bridges read (newer ones prefer `resume[]` when both are present).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{RunOptions, RunRequest, Session};
use crate::protocol::resume::{is_expired, CompleteResume, ResumeBuilder, ResumeError};
use crate::protocol::types::{Content, Interrupt, ResumeEntry, ResumeStatus};
use crate::protocol::Rows;
use crate::view::tool::ToolStatus;

/// Why a human-in-the-loop action was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HitlError {
    #[error("a run is in progress")]
    Running,
    #[error(transparent)]
    Resume(#[from] ResumeError),
    #[error("tool call '{0}' is not waiting for an answer")]
    NotPending(String),
    #[error("answer the pending tool call(s) first: {}", .0.join(", "))]
    ToolCallsPending(Vec<String>),
    #[error("the chat has been closed")]
    Closed,
}

/// A frontend tool call waiting for the browser: its run finished with the call pending and
/// its arguments complete.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCall {
    pub id: String,
    pub name: String,
    /// The parsed arguments (`{}` when none were sent), or why they could not be parsed.
    pub args: Result<Value, String>,
}

/// The session's human-in-the-loop bookkeeping.
#[derive(Debug, Default)]
pub(super) struct Hitl {
    /// Answers being collected, per thread id.
    builders: HashMap<String, ResumeBuilder>,
    /// Frontend tool calls whose handler has been started (each runs once).
    handlers_started: HashSet<String>,
    /// Bumped when an answer is recorded, changed or sent.
    pub(super) version: u64,
    /// The body of the last request sent (test and debugging hook).
    pub(super) last_request: Option<Value>,
    /// The last answers sent, per thread id: a resume run that fails leaves its interrupts
    /// open (§4.11), and Retry sends the same answers again.
    last_sent: HashMap<String, (CompleteResume, bool)>,
    /// Runs started in a row by handlers alone, since a person last acted.
    auto_runs: u32,
    /// Handlers answered every call but the cap was reached: the next run waits for a person
    /// ([`Session::continue_held_run`]).
    held: bool,
}

/// Runs frontend tool handlers may start in a row without a person (issue 12, item 7): an
/// agent that calls a browser tool on every answer would otherwise run forever by itself.
pub const MAX_AUTO_RUNS: u32 = 4;

impl Hitl {
    /// A run starts: one more in a row by handlers alone, or a person acted (the count
    /// starts again).
    pub(super) fn count_run(&mut self, automatic: bool) {
        self.auto_runs = if automatic { self.auto_runs + 1 } else { 0 };
        self.held = false;
    }
}

/// True for interrupts announced by a legacy `CUSTOM on_interrupt` event.
pub fn is_legacy_interrupt(interrupt: &Interrupt) -> bool {
    interrupt
        .metadata
        .as_ref()
        .and_then(|m| m.get("source"))
        .and_then(Value::as_str)
        == Some("CUSTOM on_interrupt")
}

impl Session {
    fn is_frontend_tool(&self, name: &str) -> bool {
        self.config.tools.iter().any(|t| t.name == name)
    }

    /// Tool calls an open interrupt gates (`reason: tool_call`): the interrupt card answers
    /// them, the resumed run returns their result.
    fn gated_calls(&self) -> HashSet<&str> {
        self.pipeline
            .thread
            .open_interrupts()
            .iter()
            .filter_map(|i| i.tool_call_id.as_deref())
            .collect()
    }

    /// Calls the last run left without a result, except those an open interrupt gates. Empty
    /// while a run streams.
    fn ungated_pending(&self) -> Vec<String> {
        if self.pipeline.run_active() {
            return Vec::new();
        }
        let gated = self.gated_calls();
        self.pipeline
            .thread
            .pending_tool_calls()
            .into_iter()
            .filter(|id| !gated.contains(id.as_str()))
            .collect()
    }

    fn call_name(&self, tool_call_id: &str) -> Option<&str> {
        self.pipeline
            .thread
            .tool_call(tool_call_id)
            .map(|(_, c)| c.function.name.as_str())
    }

    /// Frontend tool calls the browser must answer before the thread can continue (pending,
    /// not gated, and to an advertised tool). Calls to other tools are the agent's: after an
    /// interrupt (e.g. the calls a LangChain HITL review is about) the resumed run answers them.
    fn blocking_calls(&self) -> Vec<String> {
        self.ungated_pending()
            .into_iter()
            .filter(|id| self.call_name(id).is_some_and(|n| self.is_frontend_tool(n)))
            .collect()
    }

    /// Status of a call the finished run left without a result. Only a call to an advertised
    /// frontend tool waits for the person (a started handler is running); a call gated by an
    /// interrupt — or any other call of a run paused on interrupts — waits for the interrupt
    /// cards; anything else is not ours to answer.
    pub(super) fn pending_status(&self, tool_call_id: &str, name: &str) -> ToolStatus {
        let paused = !self.pipeline.thread.open_interrupts().is_empty();
        if self.gated_calls().contains(tool_call_id) || (paused && !self.is_frontend_tool(name)) {
            ToolStatus::AwaitingApproval
        } else if self.is_frontend_tool(name) {
            if self.hitl.handlers_started.contains(tool_call_id) {
                ToolStatus::Running
            } else {
                ToolStatus::AwaitingInput
            }
        } else {
            ToolStatus::Running
        }
    }

    /// The answers to the thread's open interrupts, started afresh when the open set changed.
    fn resume_builder(&mut self) -> Option<&mut ResumeBuilder> {
        let open = self.pipeline.thread.open_interrupts();
        if open.is_empty() {
            self.hitl.builders.remove(&self.thread_id);
            return None;
        }
        let stale = self
            .hitl
            .builders
            .get(&self.thread_id)
            .is_none_or(|b| b.open() != open);
        if stale {
            self.hitl
                .builders
                .insert(self.thread_id.clone(), ResumeBuilder::new(open));
        }
        self.hitl.builders.get_mut(&self.thread_id)
    }

    /// The builder only when it answers the interrupts open now.
    fn current_builder(&self) -> Option<&ResumeBuilder> {
        let open = self.pipeline.thread.open_interrupts();
        self.hitl
            .builders
            .get(&self.thread_id)
            .filter(|b| !open.is_empty() && b.open() == open)
    }

    /// Record a tool result the browser produced, with the marks its change needs.
    fn add_client_tool_result(
        &mut self,
        tool_call_id: &str,
        content: String,
        error: Option<String>,
    ) {
        let id = self.env.new_id("tool");
        let change =
            self.pipeline
                .thread
                .add_tool_result(id, tool_call_id, Content::Text(content), error);
        match change.rows() {
            Some(Rows::Appended(i)) => {
                self.dirty.appended = true;
                self.note_arrival(i);
            }
            _ => self.dirty.restructured = true,
        }
        self.dirty.tools.insert(tool_call_id.to_owned());
        self.dirty.run = true;
    }

    // ---- interrupts ---------------------------------------------------------------------

    /// Bumped whenever an interrupt answer is recorded, changed or sent.
    pub fn hitl_version(&self) -> u64 {
        self.hitl.version
    }

    /// The answer recorded for an open interrupt, if any.
    pub fn interrupt_answer(&self, interrupt_id: &str) -> Option<&ResumeEntry> {
        self.current_builder()?.answer(interrupt_id)
    }

    /// (answered, open) interrupts of the thread.
    pub fn interrupt_progress(&self) -> (usize, usize) {
        let open = self.pipeline.thread.open_interrupts().len();
        let answered = self
            .current_builder()
            .map_or(0, |b| open - b.unanswered().len().min(open));
        (answered, open)
    }

    /// Record an answer (`resolved` with `payload`). A lone open interrupt is resumed right
    /// away (the request is returned); with several, the answers wait for
    /// [`Session::send_answers`].
    pub fn answer_interrupt(
        &mut self,
        interrupt_id: &str,
        payload: Value,
    ) -> Result<Option<RunRequest>, HitlError> {
        let now = self.env.now_ms();
        self.record_answer(interrupt_id, |b, id| b.resolve(id, payload, now))
    }

    /// Record that an interrupt is abandoned (`cancelled`; allowed also once expired). Sent
    /// like [`Session::answer_interrupt`].
    pub fn cancel_interrupt(
        &mut self,
        interrupt_id: &str,
    ) -> Result<Option<RunRequest>, HitlError> {
        self.record_answer(interrupt_id, |b, id| b.cancel(id))
    }

    fn record_answer(
        &mut self,
        interrupt_id: &str,
        record: impl FnOnce(&mut ResumeBuilder, &str) -> Result<(), ResumeError>,
    ) -> Result<Option<RunRequest>, HitlError> {
        if self.running {
            return Err(HitlError::Running);
        }
        let builder = self.resume_builder().ok_or(ResumeError::NothingOpen)?;
        record(builder, interrupt_id)?;
        let lone = builder.open().len() == 1;
        self.hitl.version += 1;
        if lone {
            return self.send_answers();
        }
        Ok(None)
    }

    /// Forget the answer to one interrupt (the person wants to change it before sending).
    pub fn clear_interrupt_answer(&mut self, interrupt_id: &str) {
        let changed = self.resume_builder().is_some_and(|b| {
            let had = b.answer(interrupt_id).is_some();
            b.clear(interrupt_id);
            had
        });
        if changed {
            self.hitl.version += 1;
        }
    }

    /// Retry a resume run that failed: its interrupts are open again, so send the same answers
    /// again (never a run without them). `None` when there is nothing to resend (e.g. after a
    /// reload): the interrupt cards are then simply answered again.
    pub(super) fn retry_resume(&mut self) -> Option<RunRequest> {
        let open = self.pipeline.thread.open_interrupts();
        let (resume, legacy) = self.hitl.last_sent.get(&self.thread_id)?;
        let entries = resume.entries();
        let covers = !open.is_empty()
            && entries.len() == open.len()
            && open
                .iter()
                .all(|i| entries.iter().any(|r| r.interrupt_id == i.id));
        if !covers {
            return None;
        }
        let options = RunOptions {
            resume: Some(resume.clone()),
            legacy_resume: *legacy,
            ..RunOptions::default()
        };
        self.start_run(options)
    }

    /// Resume: the request of a new run whose `resume` covers every open interrupt. Refused
    /// while any interrupt is unanswered, while a frontend tool call still waits, or while a
    /// run is in flight. An answer recorded before its interrupt expired is dropped (the card
    /// then only offers to cancel). `Ok(None)`: the run could not be sent (its failure is
    /// shown in the banner).
    pub fn send_answers(&mut self) -> Result<Option<RunRequest>, HitlError> {
        if self.running {
            return Err(HitlError::Running);
        }
        let blocking = self.blocking_calls();
        if !blocking.is_empty() {
            return Err(HitlError::ToolCallsPending(blocking));
        }
        let legacy = self
            .pipeline
            .thread
            .open_interrupts()
            .iter()
            .any(is_legacy_interrupt);
        let now = self.env.now_ms();
        let builder = self.resume_builder().ok_or(ResumeError::NothingOpen)?;
        let expired: Vec<String> = builder
            .open()
            .iter()
            .filter(|i| is_expired(i, now))
            .filter(|i| {
                builder
                    .answer(&i.id)
                    .is_some_and(|a| a.status == ResumeStatus::Resolved)
            })
            .map(|i| i.id.clone())
            .collect();
        for id in &expired {
            builder.clear(id);
        }
        let complete = builder.build(now);
        self.hitl.version += 1;
        let complete = complete?;
        self.hitl.builders.remove(&self.thread_id);
        self.hitl
            .last_sent
            .insert(self.thread_id.clone(), (complete.clone(), legacy));
        Ok(self.start_run(RunOptions {
            resume: Some(complete),
            legacy_resume: legacy,
            ..RunOptions::default()
        }))
    }

    /// Abandon everything the agent is waiting for: every open interrupt is `cancelled`
    /// (answers recorded so far included), every pending frontend tool call gets a "cancelled
    /// by user" result, and the run resumes.
    pub fn cancel_all_interrupts(&mut self) -> Result<Option<RunRequest>, HitlError> {
        if self.running {
            return Err(HitlError::Running);
        }
        for id in self.blocking_calls() {
            self.add_client_tool_result(
                &id,
                "cancelled by user".to_owned(),
                Some("cancelled by user".to_owned()),
            );
        }
        let builder = self.resume_builder().ok_or(ResumeError::NothingOpen)?;
        let ids: Vec<String> = builder.open().iter().map(|i| i.id.clone()).collect();
        for id in ids {
            builder.cancel(&id)?;
        }
        self.send_answers()
    }

    // ---- frontend tools -----------------------------------------------------------------

    /// Answer a pending tool call (normally a frontend tool's): `Ok(value)` becomes the tool
    /// message's content (a string as is, anything else as JSON text), `Err(message)` a failed
    /// result (`error`). When no frontend call of the run is left waiting, the next run starts
    /// by itself — any other call the run left pending is closed first as not available here,
    /// so the history never carries a call without a result — or, when a lone interrupt is
    /// open and answered, the resume is sent. The request, when a run starts.
    pub fn answer_tool_call(
        &mut self,
        tool_call_id: &str,
        result: Result<Value, String>,
    ) -> Result<Option<RunRequest>, HitlError> {
        self.answer_tool_call_as(tool_call_id, result, false)
    }

    /// [`Session::answer_tool_call`] for a handler's result (no person acted): after
    /// [`MAX_AUTO_RUNS`] such runs in a row the next one is held until a person continues it
    /// ([`Session::continue_held_run`]) or sends a message.
    pub fn answer_tool_call_from_handler(
        &mut self,
        tool_call_id: &str,
        result: Result<Value, String>,
    ) -> Result<Option<RunRequest>, HitlError> {
        self.answer_tool_call_as(tool_call_id, result, true)
    }

    /// Handlers answered every call, but the run they would start waits for a person.
    pub fn run_held(&self) -> bool {
        self.hitl.held && !self.running
    }

    /// A person lets the held run go (the count of automatic runs starts again).
    pub fn continue_held_run(&mut self) -> Option<RunRequest> {
        if !self.run_held() {
            return None;
        }
        self.start_run(RunOptions::default())
    }

    fn answer_tool_call_as(
        &mut self,
        tool_call_id: &str,
        result: Result<Value, String>,
        automatic: bool,
    ) -> Result<Option<RunRequest>, HitlError> {
        if self.running {
            return Err(HitlError::Running);
        }
        if !self.ungated_pending().iter().any(|id| id == tool_call_id) {
            return Err(HitlError::NotPending(tool_call_id.to_owned()));
        }
        let (content, error) = match result {
            Ok(Value::String(s)) => (s, None),
            Ok(v) => (v.to_string(), None),
            Err(m) => (m.clone(), Some(m)),
        };
        self.add_client_tool_result(tool_call_id, content, error);
        if !self.blocking_calls().is_empty() {
            return Ok(None);
        }
        let open = self.pipeline.thread.open_interrupts().len();
        if open == 0 {
            for id in self.ungated_pending() {
                let name = self.call_name(&id).unwrap_or("tool").to_owned();
                // The tool's result, sent to the agent: conversation data, not UI text, so
                // it is not translated.
                let why = format!("tool '{name}' is not available in this client");
                self.add_client_tool_result(&id, why.clone(), Some(why));
            }
            if automatic && self.hitl.auto_runs >= MAX_AUTO_RUNS {
                self.hitl.held = true;
                self.hitl.version += 1;
                self.dirty.run = true;
                return Ok(None);
            }
            return Ok(self.start_run(RunOptions {
                automatic,
                ..RunOptions::default()
            }));
        }
        let answered = self
            .current_builder()
            .is_some_and(|b| b.unanswered().is_empty());
        if open == 1 && answered {
            return self.send_answers();
        }
        Ok(None)
    }

    /// Frontend tool calls waiting for the browser: the last run finished with them pending,
    /// their arguments are complete, no interrupt gates them, and their tool is advertised.
    /// None in a replayed trace: a recording's calls are never executed (its arguments came
    /// from a file, not from the agent this page talks to).
    pub fn pending_frontend_calls(&self) -> Vec<PendingCall> {
        if self.is_replay() {
            return Vec::new();
        }
        let thread = &self.pipeline.thread;
        self.blocking_calls()
            .into_iter()
            .filter(|id| thread.tool_args.get(id).is_none_or(|a| a.ended))
            .filter_map(|id| {
                let (_, call) = thread.tool_call(&id)?;
                let name = call.function.name.clone();
                if !self.is_frontend_tool(&name) {
                    return None;
                }
                let text = call.function.arguments.trim();
                let args = if text.is_empty() {
                    Ok(Value::Object(Default::default()))
                } else {
                    serde_json::from_str::<Value>(text)
                        // Becomes the tool's error result for the agent: not translated.
                        .map_err(|err| format!("the arguments are not valid JSON: {err}"))
                };
                Some(PendingCall { id, name, args })
            })
            .collect()
    }

    /// Claim a pending call for its handler: true the first time only, so a handler runs
    /// once per call whatever re-renders. The call's card then shows it running.
    pub fn claim_tool_call(&mut self, tool_call_id: &str) -> bool {
        let fresh = self.hitl.handlers_started.insert(tool_call_id.to_owned());
        if fresh {
            self.dirty.tools.insert(tool_call_id.to_owned());
        }
        fresh
    }

    /// Whether branching is possible right now (idle, nothing waiting).
    pub fn can_branch(&self) -> bool {
        self.can_start() && self.pipeline.thread.pending_tool_calls().is_empty()
    }
}
