//! Run lifecycle (spec digest §1.1, §5): `RUN_STARTED`/`RUN_FINISHED`/`RUN_ERROR` with their
//! outcomes, steps, the legacy `CUSTOM on_interrupt` (§7.1, §7.4) and subagents (kept in
//! `subagents.rs`).

use serde_json::Value;

use super::{
    Change, Cx, Run, RunStatus, Subagent, SubagentStatus, Thread, ToolArgs, MAX_SUBAGENTS,
};
use crate::protocol::error::WarningKind;
use crate::protocol::event::{
    RunError, RunFinished, RunStarted, SubagentFinished, SubagentStarted,
};
use crate::protocol::partial_json::PartialJson;
use crate::protocol::types::{Interrupt, Object, RunFinishedOutcome, SubagentOutcome};

impl Thread {
    pub(super) fn run_started(&mut self, rs: &RunStarted) -> Change {
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

    pub(super) fn run_finished(&mut self, rf: &RunFinished) -> Change {
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

    pub(super) fn run_error(&mut self, re: &RunError) -> Change {
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
        self.subagents.abandon_running();
        Change::Run
    }

    pub(super) fn step_started(&mut self, name: &str, cx: Cx) -> Change {
        if let Some(run) = self.current_run() {
            run.steps.push((cx.owner.clone(), name.to_owned()));
            run.step_log.push(name.to_owned());
        }
        Change::Run
    }

    pub(super) fn step_finished(&mut self, name: &str, cx: Cx) -> Change {
        if let Some(run) = self.current_run() {
            if let Some(p) = run
                .steps
                .iter()
                .position(|(o, n)| o == cx.owner && n == name)
            {
                run.steps.remove(p);
            }
        }
        Change::Run
    }

    /// `CUSTOM on_interrupt`: an interrupt announced during the run; an outcome-less
    /// `RUN_FINISHED` then pauses the run on it.
    pub(super) fn legacy_interrupt(&mut self, value: &Value, cx: Cx) -> Change {
        let n = self.runs.last().map_or(0, |r| r.legacy_interrupts.len());
        let run_id = self
            .runs
            .last()
            .map(|r| r.run_id.clone())
            .unwrap_or_default();
        let interrupt = legacy_interrupt_of(value, &run_id, n, cx.owner);
        if let Some(run) = self.current_run() {
            run.legacy_interrupts.push(interrupt);
        }
        Change::Run
    }

    pub(super) fn subagent_started(&mut self, s: &SubagentStarted, cx: Cx) -> Change {
        let id = cx.owner.clone().unwrap_or_default();
        let started = Subagent {
            id: id.clone(),
            name: s.name.clone(),
            description: s.description.clone(),
            parent_subagent_run_id: s.parent_subagent_run_id.clone(),
            parent_tool_call_id: s.parent_tool_call_id.clone(),
            parent_message_id: s.parent_message_id.clone(),
            ..Default::default()
        };
        match self.subagents.start(started) {
            true => Change::Run,
            false => self.warn(
                WarningKind::OverBudget,
                cx.t,
                format!("more than {MAX_SUBAGENTS} subagents: '{id}' is not kept"),
            ),
        }
    }

    pub(super) fn subagent_finished(&mut self, f: &SubagentFinished, cx: Cx) -> Change {
        let Some(s) = cx
            .owner
            .as_deref()
            .and_then(|id| self.subagents.get_mut(id))
        else {
            return Change::Nothing;
        };
        match &f.outcome {
            Some(SubagentOutcome::Suspended { interrupt_ids }) => {
                s.status = SubagentStatus::Suspended;
                s.interrupt_ids = interrupt_ids.clone().unwrap_or_default();
            }
            _ => s.status = SubagentStatus::Finished,
        }
        Change::Run
    }

    pub(super) fn subagent_error(&mut self, message: &str, cx: Cx) -> Change {
        let Some(s) = cx
            .owner
            .as_deref()
            .and_then(|id| self.subagents.get_mut(id))
        else {
            return Change::Nothing;
        };
        s.status = SubagentStatus::Error;
        s.error = Some(message.to_owned());
        Change::Run
    }
}

/// The interrupt a legacy `CUSTOM on_interrupt` announces (LangGraph, Mastra, CrewAI; §7.1,
/// §7.4). Its value is often a JSON *string*.
fn legacy_interrupt_of(value: &Value, run_id: &str, n: usize, owner: &Option<String>) -> Interrupt {
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
