//! The run status line, the error banner and the step indicator, as data: what the current
//! (or last) run is doing or how it ended ([`RunView`]), in words ([`status_label`],
//! [`usage_text`]).

use crate::i18n::{fill, Strings};
use crate::protocol::types::{Interrupt, Role, TokenUsage};
use crate::protocol::{ProtocolError, RunStatus, Thread};
use crate::view::failure::RunFailure;
use crate::view::format::thousands;

/// What the status line, error banner and step indicator show.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunView {
    pub status: RunStatus,
    /// Open steps (innermost last).
    pub steps: Vec<String>,
    /// Why the run ended badly (agent error, protocol failure, transport error, lost
    /// connection), for the banner.
    pub error: Option<RunFailure>,
    pub usage: Vec<TokenUsage>,
    pub interrupts: Vec<Interrupt>,
    pub pending_tool_calls: Vec<String>,
}

impl RunView {
    /// The view of `thread`'s last run. `pipeline` is the pipeline's error, `transport` the
    /// failure the session recorded for this run (transport, request, no agent).
    pub fn of(
        thread: &Thread,
        pipeline: Option<&ProtocolError>,
        transport: Option<&RunFailure>,
    ) -> RunView {
        let run = thread.run();
        let status = thread.status();
        let error = match &status {
            RunStatus::Error { message, code } => Some(RunFailure::Agent {
                message: message.clone(),
                code: code.clone(),
            }),
            RunStatus::Failed { error } => Some(match (transport, pipeline) {
                (Some(t), _) => t.clone(),
                (None, Some(e)) if *e != ProtocolError::Stopped => RunFailure::Protocol(e.clone()),
                _ => RunFailure::Earlier(error.clone()),
            }),
            RunStatus::Truncated => Some(RunFailure::ConnectionLost),
            _ => match pipeline {
                Some(ProtocolError::Stopped) | None => None,
                Some(e) => Some(RunFailure::Protocol(e.clone())),
            },
        };
        RunView {
            status,
            steps: run
                .map(|r| r.steps.iter().map(|(_, s)| s.clone()).collect())
                .unwrap_or_default(),
            error,
            usage: run.map(|r| r.usage.clone()).unwrap_or_default(),
            interrupts: thread.open_interrupts().to_vec(),
            pending_tool_calls: thread.pending_tool_calls(),
        }
    }
}

/// The status line's words: what a running agent is doing (told by the newest row: thinking,
/// writing, working with tools), or how the run ended.
pub fn status_label(
    status: &str,
    last_role: Option<Role>,
    awaiting: bool,
    t: &'static Strings,
) -> &'static str {
    match status {
        "running" => match last_role {
            None | Some(Role::User) | Some(Role::Reasoning) => t.status_thinking,
            Some(Role::Assistant) => t.status_streaming,
            Some(_) => t.status_working,
        },
        "success" if awaiting => t.status_waiting,
        "success" => t.status_done,
        "interrupted" => t.status_interrupted,
        "cancelled" => t.status_stopped,
        "error" => t.status_error,
        "truncated" => t.status_connection_lost,
        _ => t.status_ready,
    }
}

/// "1,234 tokens" (and the in/out split for the tooltip), or `None` when nothing was reported.
pub fn usage_text(usage: &[TokenUsage], t: &Strings) -> Option<(String, String)> {
    let thousands = |n: u64| thousands(n, t);
    let sum = |f: fn(&TokenUsage) -> Option<u64>| {
        usage
            .iter()
            .filter_map(f)
            .fold(None, |acc: Option<u64>, n| {
                Some(acc.unwrap_or(0).saturating_add(n))
            })
    };
    let input = sum(|u| u.input_tokens);
    let output = sum(|u| u.output_tokens);
    let total = sum(|u| u.total_tokens).or(match (input, output) {
        (None, None) => None,
        (i, o) => Some(i.unwrap_or(0).saturating_add(o.unwrap_or(0))),
    })?;
    let mut detail = Vec::new();
    if let Some(i) = input {
        detail.push(fill(t.usage_in, &[&thousands(i)]));
    }
    if let Some(o) = output {
        detail.push(fill(t.usage_out, &[&thousands(o)]));
    }
    if let Some(r) = sum(|u| u.reasoning_tokens) {
        detail.push(fill(t.usage_reasoning, &[&thousands(r)]));
    }
    Some((
        fill(t.usage_tokens, &[&thousands(total)]),
        detail.join(" · "),
    ))
}
