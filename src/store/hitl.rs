//! Human in the loop: frontend tool calls answered in the browser (spec digest §4.12) and
//! interrupts answered, then resumed (§4.11, legacy `on_interrupt` §7.1/§7.4).
//!
//! **Frontend tools.** A call to an advertised tool (`AgentConfig.tools`) that the run left
//! pending is answered with [`AgentStore::answer_tool_call`]: a `tool` message right after
//! the call ([`Thread::add_tool_result`]). Once every pending call of the run is answered, the
//! next run starts by itself with the history. Handlers (code that answers without the person)
//! are started by the UI's driver (`ui::frontend_tools`) only once the run has *finished* with
//! the call pending — never on streaming arguments, never before `TOOL_CALL_END` — and each
//! call is claimed once ([`AgentStore::claim_tool_call`]), so a remounted view cannot run a
//! handler twice.
//!
//! **Interrupts.** Answers are recorded per thread in a [`ResumeBuilder`] as the person submits
//! each card, and can be changed until sent. A lone interrupt is resumed as soon as it is
//! answered; with several, [`AgentStore::send_answers`] sends them together (the UI shows a
//! "Send answers" button once every card is answered), so the person can review before
//! sending. The resume is a new run whose `resume` array covers every open interrupt: only
//! [`ResumeBuilder::build`] can produce the [`CompleteResume`] that `start_run` takes, so an
//! incomplete resume cannot be sent. Interrupts announced the legacy way (`CUSTOM
//! on_interrupt`) are also answered through `forwardedProps.command.resume`, which older
//! LangGraph/Mastra bridges read (newer ones prefer `resume[]` when both are present).

use std::collections::HashSet;

use crate::protocol::resume::{is_expired, CompleteResume, ResumeBuilder, ResumeError};
use crate::protocol::types::{ResumeEntry, ResumeStatus};

use super::*;

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

/// The store's human-in-the-loop bookkeeping (a field of the engine).
#[derive(Debug, Default)]
pub(super) struct Hitl {
    /// Answers being collected, per thread id.
    builders: HashMap<String, ResumeBuilder>,
    /// Frontend tool calls whose handler has been started (each runs once).
    handlers_started: HashSet<String>,
    /// Bumped when an answer is recorded, changed or sent.
    version: Option<RwSignal<u64>>,
    /// The body of the last request sent (test and debugging hook).
    last_request: Option<Value>,
    /// The last answers sent, per thread id: a resume run that fails leaves its interrupts
    /// open (§4.11), and Retry sends the same answers again.
    last_sent: HashMap<String, (CompleteResume, bool)>,
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

/// What to do after a tool call was answered.
enum Next {
    Wait,
    Run,
    Resume,
}

impl Engine {
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

    /// Record a tool result the browser produced, with the dirty marks its change needs.
    fn add_client_tool_result(
        &mut self,
        tool_call_id: &str,
        content: String,
        error: Option<String>,
    ) {
        let change = self.pipeline.thread.add_tool_result(
            new_id("tool"),
            tool_call_id,
            Content::Text(content),
            error,
        );
        match change.rows() {
            Some(Rows::Appended(_)) => self.dirty.appended = true,
            _ => self.dirty.restructured = true,
        }
        self.dirty.tools.insert(tool_call_id.to_owned());
        self.dirty.run = true;
    }
}

impl AgentStore {
    /// Bumps whenever an interrupt answer is recorded, changed or sent (cards re-read their
    /// answer with [`AgentStore::interrupt_answer`]).
    pub fn hitl_version(&self) -> RwSignal<u64> {
        if let Some(v) = self
            .engine
            .with_value(|e| e.hitl.version)
            .filter(|v| !v.is_disposed())
        {
            return v;
        }
        let v = self.signal_owner().with(|| RwSignal::new(0));
        self.engine.update_value(|e| e.hitl.version = Some(v));
        v
    }

    fn bump_hitl(&self) {
        if let Some(v) = self
            .engine
            .try_with_value(|e| e.hitl.version)
            .flatten()
            .filter(|v| !v.is_disposed())
        {
            v.update(|n| *n += 1);
        }
    }

    /// The JSON body of the last request `start_run` sent (tests and debugging).
    pub fn last_request(&self) -> Option<Value> {
        self.engine.with_value(|e| e.hitl.last_request.clone())
    }

    /// The `runId` of the last request sent (without copying the request's history).
    pub fn last_run_id(&self) -> Option<String> {
        self.engine
            .try_with_value(|e| {
                e.hitl
                    .last_request
                    .as_ref()?
                    .get("runId")?
                    .as_str()
                    .map(str::to_owned)
            })
            .flatten()
    }

    /// Remember the body of a request being sent.
    pub(super) fn record_request(&self, body: &Value) {
        let body = body.clone();
        self.engine
            .update_value(|e| e.hitl.last_request = Some(body));
    }

    // ---- interrupts ---------------------------------------------------------------------

    /// The answer recorded for an open interrupt, if any.
    pub fn interrupt_answer(&self, interrupt_id: &str) -> Option<ResumeEntry> {
        self.engine.with_value(|e| {
            e.current_builder()
                .and_then(|b| b.answer(interrupt_id))
                .cloned()
        })
    }

    /// (answered, open) interrupts of the thread.
    pub fn interrupt_progress(&self) -> (usize, usize) {
        self.engine.with_value(|e| {
            let open = e.pipeline.thread.open_interrupts().len();
            let answered = e
                .current_builder()
                .map_or(0, |b| open - b.unanswered().len().min(open));
            (answered, open)
        })
    }

    /// Record an answer (`resolved` with `payload`). A lone open interrupt is resumed right
    /// away; with several, the answers wait for [`AgentStore::send_answers`].
    pub fn answer_interrupt(&self, interrupt_id: &str, payload: Value) -> Result<(), HitlError> {
        self.record_answer(interrupt_id, |b, id| b.resolve(id, payload, now_ms()))
    }

    /// Record that an interrupt is abandoned (`cancelled`; allowed also once expired). Sent
    /// like [`AgentStore::answer_interrupt`].
    pub fn cancel_interrupt(&self, interrupt_id: &str) -> Result<(), HitlError> {
        self.record_answer(interrupt_id, |b, id| b.cancel(id))
    }

    fn record_answer(
        &self,
        interrupt_id: &str,
        record: impl FnOnce(&mut ResumeBuilder, &str) -> Result<(), ResumeError>,
    ) -> Result<(), HitlError> {
        if self.running.get_untracked() {
            return Err(HitlError::Running);
        }
        let lone = self
            .engine
            .try_update_value(|e| -> Result<bool, HitlError> {
                let builder = e.resume_builder().ok_or(ResumeError::NothingOpen)?;
                record(builder, interrupt_id)?;
                Ok(builder.open().len() == 1)
            })
            .ok_or(HitlError::Closed)??;
        self.bump_hitl();
        if lone {
            self.send_answers()?;
        }
        Ok(())
    }

    /// Forget the answer to one interrupt (the person wants to change it before sending).
    pub fn clear_interrupt_answer(&self, interrupt_id: &str) {
        let changed = self.engine.try_update_value(|e| {
            e.resume_builder().is_some_and(|b| {
                let had = b.answer(interrupt_id).is_some();
                b.clear(interrupt_id);
                had
            })
        });
        if changed == Some(true) {
            self.bump_hitl();
        }
    }

    /// Retry a resume run that failed: its interrupts are open again, so send the same answers
    /// again (never a run without them). False when there is nothing to resend (e.g. after a
    /// reload): the interrupt cards are then simply answered again.
    pub(crate) fn retry_resume(&self) -> bool {
        let again = self
            .engine
            .try_update_value(|e| {
                let open = e.pipeline.thread.open_interrupts();
                let (resume, legacy) = e.hitl.last_sent.get(&e.thread_id)?;
                let entries = resume.entries();
                let covers = !open.is_empty()
                    && entries.len() == open.len()
                    && open
                        .iter()
                        .all(|i| entries.iter().any(|r| r.interrupt_id == i.id));
                covers.then(|| (resume.clone(), *legacy))
            })
            .flatten();
        match again {
            Some((resume, legacy_resume)) => {
                self.start_run(RunOptions {
                    resume: Some(resume),
                    legacy_resume,
                });
                true
            }
            None => false,
        }
    }

    /// Resume: a new run whose `resume` covers every open interrupt. Refused while any
    /// interrupt is unanswered, while a frontend tool call still waits, or while a run is in
    /// flight. An answer recorded before its interrupt expired is dropped (the card then only
    /// offers to cancel).
    pub fn send_answers(&self) -> Result<(), HitlError> {
        if self.running.get_untracked() {
            return Err(HitlError::Running);
        }
        let built = self
            .engine
            .try_update_value(|e| -> Result<(CompleteResume, bool), HitlError> {
                let blocking = e.blocking_calls();
                if !blocking.is_empty() {
                    return Err(HitlError::ToolCallsPending(blocking));
                }
                let legacy = e
                    .pipeline
                    .thread
                    .open_interrupts()
                    .iter()
                    .any(is_legacy_interrupt);
                let now = now_ms();
                let builder = e.resume_builder().ok_or(ResumeError::NothingOpen)?;
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
                let complete = builder.build(now)?;
                e.hitl.builders.remove(&e.thread_id);
                e.hitl
                    .last_sent
                    .insert(e.thread_id.clone(), (complete.clone(), legacy));
                Ok((complete, legacy))
            })
            .ok_or(HitlError::Closed)?;
        self.bump_hitl();
        let (resume, legacy_resume) = built?;
        self.start_run(RunOptions {
            resume: Some(resume),
            legacy_resume,
        });
        Ok(())
    }

    /// Abandon everything the agent is waiting for: every open interrupt is `cancelled`
    /// (answers recorded so far included), every pending frontend tool call gets a "cancelled
    /// by user" result, and the run resumes.
    pub fn cancel_all_interrupts(&self) -> Result<(), HitlError> {
        if self.running.get_untracked() {
            return Err(HitlError::Running);
        }
        self.engine
            .try_update_value(|e| -> Result<(), HitlError> {
                for id in e.blocking_calls() {
                    e.add_client_tool_result(
                        &id,
                        "cancelled by user".to_owned(),
                        Some("cancelled by user".to_owned()),
                    );
                }
                let builder = e.resume_builder().ok_or(ResumeError::NothingOpen)?;
                let ids: Vec<String> = builder.open().iter().map(|i| i.id.clone()).collect();
                for id in ids {
                    builder.cancel(&id)?;
                }
                Ok(())
            })
            .ok_or(HitlError::Closed)??;
        self.flush();
        self.send_answers()
    }

    // ---- frontend tools -----------------------------------------------------------------

    /// Answer a pending tool call (normally a frontend tool's): `Ok(value)` becomes the tool
    /// message's content (a string as is, anything else as JSON text), `Err(message)` a failed
    /// result (`error`). When no frontend call of the run is left waiting, the next run starts
    /// by itself — any other call the run left pending is closed first as not available here,
    /// so the history never carries a call without a result — or, when a lone interrupt is
    /// open and answered, the resume is sent.
    pub fn answer_tool_call(
        &self,
        tool_call_id: &str,
        result: Result<Value, String>,
    ) -> Result<(), HitlError> {
        if self.running.get_untracked() {
            return Err(HitlError::Running);
        }
        let next = self
            .engine
            .try_update_value(|e| -> Result<Next, HitlError> {
                if !e.ungated_pending().iter().any(|id| id == tool_call_id) {
                    return Err(HitlError::NotPending(tool_call_id.to_owned()));
                }
                let (content, error) = match result {
                    Ok(Value::String(s)) => (s, None),
                    Ok(v) => (v.to_string(), None),
                    Err(m) => (m.clone(), Some(m)),
                };
                e.add_client_tool_result(tool_call_id, content, error);
                if !e.blocking_calls().is_empty() {
                    return Ok(Next::Wait);
                }
                let open = e.pipeline.thread.open_interrupts().len();
                if open == 0 {
                    for id in e.ungated_pending() {
                        let name = e.call_name(&id).unwrap_or("tool").to_owned();
                        // The tool's result, sent to the agent: conversation data, not UI
                        // text, so it is not translated.
                        let why = format!("tool '{name}' is not available in this client");
                        e.add_client_tool_result(&id, why.clone(), Some(why));
                    }
                }
                Ok(match open {
                    0 => Next::Run,
                    1 if e
                        .current_builder()
                        .is_some_and(|b| b.unanswered().is_empty()) =>
                    {
                        Next::Resume
                    }
                    _ => Next::Wait,
                })
            })
            .ok_or(HitlError::Closed)??;
        self.flush();
        match next {
            Next::Wait => Ok(()),
            Next::Run => {
                self.start_run(RunOptions::default());
                Ok(())
            }
            Next::Resume => self.send_answers(),
        }
    }

    /// Frontend tool calls waiting for the browser: the last run finished with them pending,
    /// their arguments are complete, no interrupt gates them, and their tool is advertised.
    pub fn pending_frontend_calls(&self) -> Vec<PendingCall> {
        self.engine.with_value(|e| {
            let thread = &e.pipeline.thread;
            e.blocking_calls()
                .into_iter()
                .filter(|id| thread.tool_args.get(id).is_none_or(|a| a.ended))
                .filter_map(|id| {
                    let (_, call) = thread.tool_call(&id)?;
                    let name = call.function.name.clone();
                    if !e.is_frontend_tool(&name) {
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
        })
    }

    /// Claim a pending call for its handler: true the first time only, so a handler runs
    /// once per call whatever re-renders. The call's card then shows it running.
    pub fn claim_tool_call(&self, tool_call_id: &str) -> bool {
        let claimed = self
            .engine
            .try_update_value(|e| {
                let fresh = e.hitl.handlers_started.insert(tool_call_id.to_owned());
                if fresh {
                    e.dirty.tools.insert(tool_call_id.to_owned());
                }
                fresh
            })
            .unwrap_or(false);
        if claimed {
            self.flush();
        }
        claimed
    }
}
