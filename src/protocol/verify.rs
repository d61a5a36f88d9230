//! Sequence verification (spec digest §4.3, §4.13): the run lifecycle, the open/close
//! discipline of every streamed item, steps per owner, subagents and attribution.
//!
//! Each check that fails is a [`VerifyError`] carrying the event type and the ids involved; the
//! run is then failed. Verification runs after chunk expansion, so it only sees triads.

use std::collections::HashSet;

use super::event::{Event, EventKind};
use super::id_map::{IdMap, IdSet};
use super::types::RunFinishedOutcome;

/// A sequence violation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    #[error("First event must be 'RUN_STARTED' or 'RUN_ERROR', got '{event_type}'")]
    FirstEvent { event_type: &'static str },
    #[error("Cannot send '{event_type}' after 'RUN_ERROR': only 'RUN_STARTED' may follow")]
    AfterRunError { event_type: &'static str },
    #[error("Cannot send '{event_type}': The run has already finished with 'RUN_FINISHED'")]
    AfterRunFinished { event_type: &'static str },
    #[error("Cannot send 'RUN_STARTED' while a run is still active (run {run_id})")]
    NestedRun { run_id: String },
    #[error("Cannot send 'RUN_FINISHED' for run {got} (thread {got_thread}) while run {expected} (thread {expected_thread}) is active")]
    RunIdentity {
        expected: String,
        expected_thread: String,
        got: String,
        got_thread: String,
    },
    #[error("Cannot send 'RUN_FINISHED' while {what} are still active: {ids:?}")]
    OpenAtFinish {
        what: &'static str,
        ids: Vec<String>,
    },
    #[error("Cannot send '{event_type}': {what} with ID '{id}' is already active")]
    AlreadyOpen {
        event_type: &'static str,
        what: &'static str,
        id: String,
    },
    #[error("Cannot send '{event_type}': No active {what} found with ID '{id}'")]
    NotOpen {
        event_type: &'static str,
        what: &'static str,
        id: String,
    },
    #[error("Cannot send '{event_type}': subagentRunId '{got}' does not match the owner {owner:?} of '{id}'")]
    Attribution {
        event_type: &'static str,
        id: String,
        owner: Option<String>,
        got: String,
    },
    #[error("Cannot send '{event_type}' for subagent '{id}' that was not started or is no longer active")]
    SubagentNotActive {
        event_type: &'static str,
        id: String,
    },
    #[error("Cannot send 'SUBAGENT_STARTED': subagent '{id}' was already started in this run")]
    SubagentReused { id: String },
    #[error("Cannot send 'SUBAGENT_STARTED' for '{id}': unknown parentSubagentRunId '{parent}'")]
    UnknownParentSubagent { id: String, parent: String },
    #[error(
        "Cannot send 'STEP_FINISHED' for step '{name}' that was not started (or already finished)"
    )]
    StepNotStarted { name: String },
    #[error("Cannot send 'RUN_FINISHED': interrupt id '{id}' appears twice")]
    DuplicateInterrupt { id: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Phase {
    #[default]
    Start,
    Running {
        run_id: String,
        thread_id: String,
    },
    Finished,
    Errored,
}

/// The verifier's view of what is open.
#[derive(Debug, Default)]
pub struct Verifier {
    phase: Phase,
    /// Open text messages → owner.
    text: IdMap<Option<String>>,
    /// Open tool calls → owner.
    tools: IdMap<Option<String>>,
    reasoning: IdMap<Option<String>>,
    spans: IdMap<Option<String>>,
    /// Open steps per owner.
    steps: HashSet<(Option<String>, String)>,
    /// Active subagents (insertion order kept for messages).
    subagents: Vec<String>,
    /// Subagents announced and ended in this run.
    ended_subagents: IdSet,
    /// Owner of every message id seen (for tool-call attribution).
    message_owner: IdMap<Option<String>>,
}

impl Verifier {
    pub fn new() -> Self {
        Self::default()
    }

    /// True while a run is open (between `RUN_STARTED` and its terminal event).
    pub fn run_active(&self) -> bool {
        matches!(self.phase, Phase::Running { .. })
    }

    /// Id of the open run, if any.
    pub fn active_run_id(&self) -> Option<&str> {
        match &self.phase {
            Phase::Running { run_id, .. } => Some(run_id),
            _ => None,
        }
    }

    /// Record owners of messages seeded from the input or a snapshot.
    pub fn seed_owner(&mut self, message_id: &str, owner: Option<&str>) {
        self.message_owner
            .insert(message_id.to_owned(), owner.map(str::to_owned));
    }

    fn reset_open(&mut self) {
        self.text.clear();
        self.tools.clear();
        self.reasoning.clear();
        self.spans.clear();
        self.steps.clear();
        self.subagents.clear();
        self.ended_subagents.clear();
    }

    /// Check one event against the sequence rules and record its effect.
    pub fn check(&mut self, event: &Event) -> Result<(), VerifyError> {
        use EventKind as K;
        let t = event.type_name();
        let tag = event.subagent_run_id.as_deref();
        match (&self.phase, &event.kind) {
            (Phase::Errored, K::RunError(_)) => {
                return Err(VerifyError::AfterRunError { event_type: t })
            }
            (_, K::RunError(_)) => {
                self.phase = Phase::Errored;
                self.reset_open();
                return Ok(());
            }
            (Phase::Running { run_id, .. }, K::RunStarted(_)) => {
                return Err(VerifyError::NestedRun {
                    run_id: run_id.clone(),
                })
            }
            (_, K::RunStarted(rs)) => {
                self.phase = Phase::Running {
                    run_id: rs.run_id.clone(),
                    thread_id: rs.thread_id.clone(),
                };
                self.reset_open();
                if let Some(input) = &rs.input {
                    for m in &input.messages {
                        self.seed_owner(&m.id, m.subagent_run_id.as_deref());
                    }
                }
                return Ok(());
            }
            (Phase::Start, _) => return Err(VerifyError::FirstEvent { event_type: t }),
            (Phase::Errored, _) => return Err(VerifyError::AfterRunError { event_type: t }),
            (Phase::Finished, _) => return Err(VerifyError::AfterRunFinished { event_type: t }),
            (Phase::Running { .. }, _) => {}
        }
        match &event.kind {
            K::RunFinished(rf) => {
                if let Phase::Running { run_id, thread_id } = &self.phase {
                    if *run_id != rf.run_id || *thread_id != rf.thread_id {
                        return Err(VerifyError::RunIdentity {
                            expected: run_id.clone(),
                            expected_thread: thread_id.clone(),
                            got: rf.run_id.clone(),
                            got_thread: rf.thread_id.clone(),
                        });
                    }
                }
                let open: [(&'static str, Vec<String>); 6] = [
                    ("text messages", sorted(self.text.keys())),
                    ("tool calls", sorted(self.tools.keys())),
                    ("reasoning messages", sorted(self.reasoning.keys())),
                    ("reasoning spans", sorted(self.spans.keys())),
                    ("steps", sorted(self.steps.iter().map(|(_, s)| s))),
                    ("subagents", self.subagents.clone()),
                ];
                for (what, ids) in open {
                    if !ids.is_empty() {
                        return Err(VerifyError::OpenAtFinish { what, ids });
                    }
                }
                if let Some(RunFinishedOutcome::Interrupt { interrupts }) = &rf.outcome {
                    let mut seen = HashSet::new();
                    for i in interrupts {
                        if !seen.insert(i.id.as_str()) {
                            return Err(VerifyError::DuplicateInterrupt { id: i.id.clone() });
                        }
                    }
                }
                self.phase = Phase::Finished;
            }
            K::TextMessageStart(s) => {
                open(&mut self.text, t, "text message", &s.message_id, tag)?;
                self.message_owner
                    .insert(s.message_id.clone(), tag.map(str::to_owned));
            }
            K::TextMessageContent(d) => {
                continuation(&self.text, t, "text message", &d.message_id, tag)?
            }
            K::TextMessageEnd(m) => {
                continuation(&self.text, t, "text message", &m.message_id, tag)?;
                self.text.remove(&m.message_id);
            }
            K::ToolCallStart(s) => {
                if let (Some(tag), Some(parent)) = (tag, &s.parent_message_id) {
                    if let Some(Some(owner)) = self.message_owner.get(parent) {
                        if owner != tag {
                            return Err(VerifyError::Attribution {
                                event_type: t,
                                id: s.tool_call_id.clone(),
                                owner: Some(owner.clone()),
                                got: tag.to_owned(),
                            });
                        }
                    }
                }
                open(&mut self.tools, t, "tool call", &s.tool_call_id, tag)?;
            }
            K::ToolCallArgs(a) => continuation(&self.tools, t, "tool call", &a.tool_call_id, tag)?,
            K::ToolCallEnd(e) => {
                continuation(&self.tools, t, "tool call", &e.tool_call_id, tag)?;
                self.tools.remove(&e.tool_call_id);
            }
            K::ReasoningStart(s) => open(&mut self.spans, t, "reasoning span", &s.message_id, tag)?,
            K::ReasoningEnd(s) => {
                continuation(&self.spans, t, "reasoning span", &s.message_id, tag)?;
                self.spans.remove(&s.message_id);
            }
            K::ReasoningMessageStart(s) => {
                open(
                    &mut self.reasoning,
                    t,
                    "reasoning message",
                    &s.message_id,
                    tag,
                )?;
                self.message_owner
                    .insert(s.message_id.clone(), tag.map(str::to_owned));
            }
            K::ReasoningMessageContent(d) => {
                continuation(&self.reasoning, t, "reasoning message", &d.message_id, tag)?
            }
            K::ReasoningMessageEnd(m) => {
                continuation(&self.reasoning, t, "reasoning message", &m.message_id, tag)?;
                self.reasoning.remove(&m.message_id);
            }
            K::StepStarted(s) => {
                let key = (tag.map(str::to_owned), s.step_name.clone());
                if self.steps.contains(&key) {
                    return Err(VerifyError::AlreadyOpen {
                        event_type: t,
                        what: "step",
                        id: s.step_name.clone(),
                    });
                }
                self.steps.insert(key);
            }
            K::StepFinished(s) => {
                let key = (tag.map(str::to_owned), s.step_name.clone());
                if !self.steps.remove(&key) {
                    return Err(VerifyError::StepNotStarted {
                        name: s.step_name.clone(),
                    });
                }
            }
            K::SubagentStarted(s) => {
                let id = event.subagent_run_id.clone().unwrap_or_default();
                if self.subagents.contains(&id) || self.ended_subagents.contains(&id) {
                    return Err(VerifyError::SubagentReused { id });
                }
                if let Some(parent) = &s.parent_subagent_run_id {
                    if !self.subagents.contains(parent) && !self.ended_subagents.contains(parent) {
                        return Err(VerifyError::UnknownParentSubagent {
                            id,
                            parent: parent.clone(),
                        });
                    }
                }
                self.subagents.push(id);
            }
            K::SubagentFinished(_) | K::SubagentError(_) => {
                let id = event.subagent_run_id.clone().unwrap_or_default();
                let Some(pos) = self.subagents.iter().position(|s| *s == id) else {
                    return Err(VerifyError::SubagentNotActive { event_type: t, id });
                };
                self.subagents.remove(pos);
                self.ended_subagents.insert(id);
            }
            K::MessagesSnapshot(ms) => {
                for m in &ms.messages {
                    self.seed_owner(&m.id, m.subagent_run_id.as_deref());
                }
            }
            K::ToolCallResult(_)
            | K::StateSnapshot(_)
            | K::StateDelta(_)
            | K::ActivitySnapshot(_)
            | K::ActivityDelta(_)
            | K::Raw(_)
            | K::Custom(_)
            | K::ReasoningEncryptedValue(_) => {}
            // Chunks never reach the verifier (expanded before); run events handled above.
            K::TextMessageChunk(_)
            | K::ToolCallChunk(_)
            | K::ReasoningMessageChunk(_)
            | K::RunStarted(_)
            | K::RunError(_) => {}
        }
        Ok(())
    }
}

fn sorted<'a>(ids: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut v = ids.cloned().collect::<Vec<_>>();
    v.sort();
    v
}

fn open(
    set: &mut IdMap<Option<String>>,
    event_type: &'static str,
    what: &'static str,
    id: &str,
    tag: Option<&str>,
) -> Result<(), VerifyError> {
    if set.contains_key(id) {
        return Err(VerifyError::AlreadyOpen {
            event_type,
            what,
            id: id.to_owned(),
        });
    }
    set.insert(id.to_owned(), tag.map(str::to_owned));
    Ok(())
}

/// A continuation must name an open item, and a tagged one must agree with its opener's owner.
fn continuation(
    set: &IdMap<Option<String>>,
    event_type: &'static str,
    what: &'static str,
    id: &str,
    tag: Option<&str>,
) -> Result<(), VerifyError> {
    let Some(owner) = set.get(id) else {
        return Err(VerifyError::NotOpen {
            event_type,
            what,
            id: id.to_owned(),
        });
    };
    if let Some(tag) = tag {
        if owner.as_deref() != Some(tag) {
            return Err(VerifyError::Attribution {
                event_type,
                id: id.to_owned(),
                owner: owner.clone(),
                got: tag.to_owned(),
            });
        }
    }
    Ok(())
}
