//! The DOM events a widget dispatches on its element (`agui:run-started`, …), in a fixed order
//! within one update.

use leptos::prelude::*;
use serde_json::{json, Value};
use web_sys::{CustomEvent, CustomEventInit, HtmlElement};

use crate::store::AgentStore;

use super::js::js_value;

pub(super) fn dispatch(host: &HtmlElement, name: &str, detail: &Value) {
    let init = CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    let detail = js_value(detail);
    init.set_detail(&detail);
    if let Ok(ev) = CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = host.dispatch_event(&ev);
    }
}

/// What the host has been told so far.
#[derive(Clone, PartialEq, Default)]
pub(super) struct Seen {
    running: bool,
    state: u64,
    interrupts: Vec<String>,
}

/// Turns store changes into DOM events on the host element, in a fixed order within one
/// update: run started, state changed, interrupt, run finished.
pub(super) fn bridge_events(store: AgentStore, host: HtmlElement) {
    let feedback_host = host.clone();
    Effect::new(move |_| {
        if let Some(f) = store.feedback.get() {
            dispatch(&feedback_host, "agui:feedback", &f.to_json());
        }
    });
    Effect::new(move |before: Option<Seen>| {
        let now = Seen {
            running: store.running.get(),
            state: store.state_changes.get(),
            interrupts: store
                .run
                .with(|r| r.interrupts.iter().map(|i| i.id.clone()).collect()),
        };
        let Some(before) = before else {
            return now;
        };
        let thread = store.thread_id();
        if now.running && !before.running {
            dispatch(
                &host,
                "agui:run-started",
                &json!({"threadId": thread, "runId": store.last_run_id()}),
            );
        }
        if now.state != before.state {
            dispatch(&host, "agui:state-changed", &json!({"threadId": thread}));
        }
        if now
            .interrupts
            .iter()
            .any(|id| !before.interrupts.contains(id))
        {
            // Interrupts come with a run: the lean widget's `run` module is here.
            let (host, thread) = (host.clone(), thread.clone());
            store.in_module(move || interrupted(host.clone(), store, thread.clone()));
        }
        if before.running && !now.running {
            // A run ended: the lean widget's `run` module is here, so this is at once.
            let (host, thread) = (host.clone(), thread.clone());
            store.in_module(move || run_finished(host.clone(), store, thread.clone()));
        }
        now
    });
}

crate::split::split!(run:
    /// `agui:interrupt`, with the run's open interrupts.
    fn interrupted(host: HtmlElement, store: AgentStore, thread: String) -> () {
        let interrupts = store
            .run
            .with_untracked(|r| serde_json::to_value(&r.interrupts).unwrap_or(Value::Null));
        dispatch(
            &host,
            "agui:interrupt",
            &json!({"threadId": thread, "interrupts": interrupts}),
        );
    }
);

crate::split::split!(run:
    /// `agui:run-finished`, its error worded like the banner, in the widget's language.
    fn run_finished(host: HtmlElement, store: AgentStore, thread: String) -> () {
        let (status, error) = store
            .run
            .with_untracked(|r| (r.status.name(), r.error.clone()));
        let error =
            error.map(|e| crate::wording::run_failure(crate::ui::tr_now(store), &e));
        dispatch(
            &host,
            "agui:run-finished",
            &json!({"threadId": thread, "runId": store.last_run_id(), "status": status, "error": error}),
        );
    }
);
