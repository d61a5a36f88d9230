//! The error banner: shown when the last run ended badly (the agent's `RUN_ERROR`, a protocol
//! violation, a transport failure or a lost connection), with a Retry button. The message may
//! come from the agent: it is shown as text. The failure is a value ([`crate::store::RunFailure`]) worded
//! here with the current locale's catalog ([`wording::run_failure`]); the agent's message and
//! protocol diagnostics inside it stay as they are.

use leptos::prelude::*;

use crate::store::AgentStore;
use crate::ui::lazy::{lazy_or, split};
use crate::ui::tr;
use crate::wording;

/// Banner for a failed run.
#[component]
pub fn ErrorBanner() -> impl IntoView {
    let store = AgentStore::expect();
    // Whether the last run failed; what the failure was is read by the banner, in the lean
    // widget's `run` module (its words, and comparing failures, are nothing the main module
    // needs).
    let failed = Memo::new(move |_| store.run.with(|r| r.error.is_some()));
    move || {
        if store.part_error.get() {
            // A part of the chat that an action needed could not be loaded (the lean
            // widget's `run` module): Retry tries the action again.
            return Some(banner(
                store,
                "part-failed",
                move || tr(store).lazy_failed.to_owned(),
                move || store.retry_part(),
            ));
        }
        failed
            .get()
            .then(|| lazy_or(move || failure_banner(store), || ()).into_any())
    }
}

split!(run:
    /// The banner of a failed run, worded (a run failed: the lean widget's `run` module is
    /// here).
    fn failure_banner(store: AgentStore) -> AnyView {
        banner(
            store,
            "error-banner",
            move || {
                store
                    .run
                    .with(|r| r.error.as_ref().map(|f| wording::run_failure(tr(store), f)))
                    .unwrap_or_default()
            },
            move || store.retry(),
        )
    }
);

fn banner(
    store: AgentStore,
    testid: &'static str,
    message: impl Fn() -> String + Send + Sync + 'static,
    retry: impl Fn() + Send + Sync + 'static,
) -> AnyView {
    view! {
        <div class="agui-error-banner" data-testid=testid role="alert">
            <span class="agui-error-banner__icon" aria-hidden="true">
                "!"
            </span>
            <p class="agui-error-banner__text" data-testid="error-text">
                {message}
            </p>
            <button
                type="button"
                class="agui-button agui-button--secondary agui-error-banner__retry"
                data-testid="retry"
                disabled=move || store.running.get()
                on:click=move |_| retry()
            >
                {move || tr(store).retry}
            </button>
        </div>
    }
    .into_any()
}
