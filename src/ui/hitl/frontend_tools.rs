//! The frontend tools' side in the chat: advertising the page's tools, running their handlers
//! for the calls a finished run left pending, a component's card body, and the banner that asks
//! the person to continue after a few automatic runs. The tools themselves, and when they act,
//! are [`crate::plugins::FrontendTools`].

use leptos::prelude::*;

use crate::plugins::{FrontendToolCall, FrontendTools, ToolComponent};
use crate::store::AgentStore;
use crate::ui::lazy::split;
use crate::ui::tr;
use crate::view::tool::{ToolStatus, ToolView};

/// Advertise `tools` on `store` and run their handlers for calls the finished run left
/// pending (see the module docs for when). Call once, inside the chat.
pub fn use_frontend_tools(store: AgentStore, tools: FrontendTools) {
    tools.advertise(store);
    Effect::new(move |_| {
        let running = store.running.get();
        let pending = store.run.with(|r| r.pending_tool_calls.len());
        if running || pending == 0 {
            return;
        }
        let tools = tools.clone();
        store.in_module(move || run_handlers(store, tools.clone()));
    });
}

split!(run:
    /// Runs the handlers of the pending calls `tools` has (after a run, so the lean widget's
    /// `run` module is here).
    fn run_handlers(store: AgentStore, tools: FrontendTools) -> () {
        for call in store.pending_frontend_calls() {
            let Some(handler) = tools.handler(&call.name) else {
                continue;
            };
            if !store.claim_tool_call(&call.id) {
                continue;
            }
            let id = call.id;
            let work = call.args.map(|args| handler(args));
            leptos::task::spawn_local(async move {
                let result = match work {
                    Ok(fut) => fut.await,
                    Err(bad_args) => Err(bad_args),
                };
                // Dropped when the person moved on meanwhile (the call is no longer pending).
                if let Err(e) = store.answer_tool_call_from_handler(&id, result) {
                    web_sys::console::warn_1(
                        &format!("frontend tool result for {id} dropped: {e}").into(),
                    );
                }
            });
        }
    }
);

/// The component body of a frontend tool card: the tool's UI while the call waits for the
/// person, `otherwise` before and after. `view` is the card's memo.
pub fn component_body(
    view: Memo<Option<ToolView>>,
    tool_call_id: String,
    render: ToolComponent,
    otherwise: impl Fn() -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let store = AgentStore::expect();
    let awaiting = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .is_some_and(|v| v.status == ToolStatus::AwaitingInput)
        })
    });
    move || {
        if !awaiting.get() {
            return otherwise();
        }
        let pending = store
            .pending_frontend_calls()
            .into_iter()
            .find(|c| c.id == tool_call_id);
        match pending {
            Some(call) => match call.args {
                Ok(args) => render(FrontendToolCall {
                    tool_call_id: call.id,
                    name: call.name,
                    args,
                    store,
                }),
                Err(problem) => bad_args_view(store, call.id, problem).into_any(),
            },
            None => otherwise(),
        }
    }
}

/// The agent sent arguments that do not parse: say so, and let the person report it back.
fn bad_args_view(store: AgentStore, id: String, problem: String) -> impl IntoView {
    let message = problem.clone();
    view! {
        <div class="agui-frontend-tool agui-frontend-tool--invalid" data-testid="frontend-tool-invalid">
            <p class="agui-frontend-tool__problem" role="alert">{problem}</p>
            <button
                type="button"
                class="agui-button agui-button--secondary"
                data-testid="frontend-tool-decline"
                on:click=move |_| {
                    let _ = store.answer_tool_call(&id, Err(message.clone()));
                }
            >
                {move || tr(store).tell_the_agent}
            </button>
        </div>
    }
}

/// Shown when handlers answered every call but the run they would start waits for a person:
/// the agent has kept calling browser tools on its own.
#[component]
pub fn HeldRunBanner() -> impl IntoView {
    let store = AgentStore::expect();
    let version = store.hitl_version();
    let held = Memo::new(move |_| {
        version.track();
        store.running.track();
        store.run_held()
    });
    move || {
        held.get().then(|| {
            view! {
                <div class="agui-error-banner agui-held-run" data-testid="held-run" role="status">
                    <p class="agui-error-banner__text">
                        {move || tr(store).held_run_text}
                    </p>
                    <button
                        type="button"
                        class="agui-button agui-button--secondary agui-error-banner__retry"
                        data-testid="continue-run"
                        on:click=move |_| store.continue_held_run()
                    >
                        {move || tr(store).held_run_continue}
                    </button>
                </div>
            }
        })
    }
}
