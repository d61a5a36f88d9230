//! The run status line: what the agent is doing (`data-status` is one of `idle`, `running`,
//! `success`, `interrupted`, `cancelled`, `error`, `truncated`), the open step names and the
//! token usage when the agent reports it.

use leptos::prelude::*;

use crate::i18n::{fill, Strings};
use crate::protocol::types::{Role, TokenUsage};
use crate::store::AgentStore;
use crate::ui::tr;
use crate::view::format::thousands;

/// "1,234 tokens" (and the in/out split for the tooltip), or `None` when nothing was reported.
fn usage_text(usage: &[TokenUsage], t: &Strings) -> Option<(String, String)> {
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

/// The status of the current (or last) run.
#[component]
pub fn RunStatusLine() -> impl IntoView {
    let store = AgentStore::expect();
    let status = Memo::new(move |_| store.run.with(|r| r.status.name()));
    // What the newest row is tells thinking apart from writing (rows change on append only).
    let last_role = Memo::new(move |_| store.rows.with(|rows| rows.last().map(|r| r.role)));
    let awaiting = Memo::new(move |_| store.run.with(|r| !r.pending_tool_calls.is_empty()));
    let label = move || {
        let t = tr(store);
        match status.get() {
            "running" => match last_role.get() {
                None | Some(Role::User) | Some(Role::Reasoning) => t.status_thinking,
                Some(Role::Assistant) => t.status_streaming,
                Some(_) => t.status_working,
            },
            "success" if awaiting.get() => t.status_waiting,
            "success" => t.status_done,
            "interrupted" => t.status_interrupted,
            "cancelled" => t.status_stopped,
            "error" => t.status_error,
            "truncated" => t.status_connection_lost,
            _ => t.status_ready,
        }
    };
    let steps = move || {
        store.run.with(|r| {
            (!r.steps.is_empty() && status.get() == "running").then(|| r.steps.join(" › "))
        })
    };
    let usage = move || store.run.with(|r| usage_text(&r.usage, tr(store)));
    view! {
        <div
            class="agui-run-status"
            data-testid="run-status"
            data-status=move || status.get()
            role="status"
            aria-live="polite"
            aria-atomic="true"
        >
            <span class="agui-run-status__dot" aria-hidden="true"></span>
            <span class="agui-run-status__label" data-testid="run-status-label">
                {label}
            </span>
            {move || {
                steps()
                    .map(|s| {
                        view! {
                            <span class="agui-run-status__step" data-testid="run-step">
                                {s}
                            </span>
                        }
                    })
            }}
            {move || {
                usage()
                    .map(|(text, detail)| {
                        view! {
                            <span class="agui-run-status__usage" data-testid="run-usage" title=detail>
                                {text}
                            </span>
                        }
                    })
            }}
        </div>
    }
}
