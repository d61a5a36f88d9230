//! The run status line: what the agent is doing (`data-status` is one of `idle`, `running`,
//! `success`, `interrupted`, `cancelled`, `error`, `truncated`), the open step names and the
//! token usage when the agent reports it.

use leptos::prelude::*;

use crate::store::AgentStore;
use crate::ui::tr;
use crate::view::run::{status_label, usage_text};

/// The status of the current (or last) run.
#[component]
pub fn RunStatusLine() -> impl IntoView {
    let store = AgentStore::expect();
    let status = Memo::new(move |_| store.run.with(|r| r.status.name()));
    // What the newest row is tells thinking apart from writing (rows change on append only).
    let last_role = Memo::new(move |_| store.rows.with(|rows| rows.last().map(|r| r.role)));
    let awaiting = Memo::new(move |_| store.run.with(|r| !r.pending_tool_calls.is_empty()));
    let label = move || status_label(status.get(), last_role.get(), awaiting.get(), tr(store));
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
