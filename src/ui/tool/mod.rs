//! The tool card: one AG-UI tool call (`TOOL_CALL_START` … `TOOL_CALL_ARGS` … `TOOL_CALL_END`
//! … `TOOL_CALL_RESULT`, spec §"Tool call events") as a card with the tool name, a status pill,
//! the duration, and a body: a frontend tool's own UI while the call waits for the person, the
//! renderer registered for the tool's name ([`crate::plugins::Plugins`]), or the generic body
//! ([`parts`]: the arguments previewed from the partial JSON while they stream, then the
//! result, collapsed when long).
//!
//! Everything shown here is agent output: it reaches the DOM only as text nodes and attribute
//! values, never as markup. The card re-reads the store only when its own
//! [`AgentStore::tool_version`] bumps.

pub mod parts;

use leptos::prelude::*;

use crate::plugins::{Plugins, ToolCallView};
use crate::store::AgentStore;
use crate::ui::hitl::frontend_tools::component_body;
use crate::ui::lazy::split;
use crate::ui::tr;
use crate::view::format::format_duration;
use crate::view::tool::{status_label, ToolStatus};

pub use parts::generic_body;

split!(run:
    /// A tool call's card (the lean widget's `run` module, with the rows).
    pub fn tool_card(tool_call_id: String) -> AnyView {
        view! { <ToolCard tool_call_id /> }.into_any()
    }
);

#[component]
pub fn ToolCard(
    /// The `toolCallId` of the call to show.
    tool_call_id: String,
) -> impl IntoView {
    let store = AgentStore::expect();
    let plugins = Plugins::use_plugins();
    let call = ToolCallView::new(&tool_call_id);
    let view = call.view;
    let status = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.status)));
    let name =
        Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.name.clone()).unwrap_or_default()));
    let duration = Memo::new(move |_| view.with(|v| v.as_ref().and_then(|v| v.duration_ms)));
    let open = RwSignal::new(true);

    let status_name = move || status.get().map_or("pending", ToolStatus::name);
    let busy = move || {
        matches!(
            status.get(),
            None | Some(ToolStatus::StreamingArgs | ToolStatus::Running)
        )
    };
    let id = tool_call_id.clone();
    // Re-chosen only when the name changes (it is set by TOOL_CALL_START and stays). A
    // frontend component tool shows its own UI while the call waits for the person.
    let body = move || {
        let name = name.get();
        let fallback = {
            let (plugins, call, name) = (plugins.clone(), call.clone(), name.clone());
            move || match plugins.renderer(&name) {
                Some(render) => render(call.clone()),
                None => generic_body(view).into_any(),
            }
        };
        match plugins.tools().component(&name) {
            Some(render) => component_body(view, id.clone(), render, fallback).into_any(),
            None => fallback(),
        }
    };
    // A call that starts waiting for the person takes the keyboard focus (a card shown
    // already waiting, e.g. from history, does not).
    let card: NodeRef<leptos::html::Section> = NodeRef::new();
    Effect::new(move |prev: Option<Option<ToolStatus>>| {
        let now = status.get();
        let became = now == Some(ToolStatus::AwaitingInput)
            && prev.is_some_and(|p| p != Some(ToolStatus::AwaitingInput));
        if became {
            request_animation_frame(move || {
                if let Some(Some(el)) = card.try_get_untracked() {
                    let _ = el.focus();
                }
            });
        }
        now
    });

    view! {
        <section
            class="agui-tool-card"
            data-testid="tool-card"
            data-tool-call-id=tool_call_id
            data-tool-name=move || name.get()
            data-status=status_name
            aria-busy=move || busy().to_string()
            tabindex="-1"
            node_ref=card
        >
            <header class="agui-tool-card__header">
                <button
                    type="button"
                    class="agui-tool-card__toggle"
                    aria-expanded=move || open.get().to_string()
                    title=move || if open.get() { tr(store).collapse } else { tr(store).expand }
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    <span class="agui-tool-card__chevron" aria-hidden="true"></span>
                    <span class="agui-tool-card__name" data-testid="tool-name">
                        {move || {
                            let n = name.get();
                            if n.is_empty() { tr(store).tool_fallback_name.to_owned() } else { n }
                        }}
                    </span>
                </button>
                <span class="agui-tool-card__status" data-testid="tool-status" aria-live="polite">
                    <Show when=busy>
                        <span class="agui-tool-spinner" aria-hidden="true"></span>
                    </Show>
                    {move || status_label(status.get(), tr(store))}
                </span>
                <span class="agui-tool-card__duration" data-testid="tool-duration">
                    {move || duration.get().map(|ms| format_duration(ms, tr(store)))}
                </span>
            </header>
            <div class="agui-tool-card__body" hidden=move || !open.get()>
                {body}
            </div>
        </section>
    }
}
