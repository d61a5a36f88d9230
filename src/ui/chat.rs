//! The chat layout: the widget root (`.agui-root`, where the design tokens live), a header
//! (title, run status, warnings, the inspector button, the agent picker when the page shows
//! it), the thread list on the left, the main column (transcript, error banner, composer) and
//! a side column (the page's side panels, then the shared-state panel). On narrow screens the
//! thread list moves above and the side column below the conversation. The event inspector, when open, is a drawer over the body (below the
//! header): beside the conversation on a wide chat, over all of it on a narrow one.

use leptos::prelude::*;

use crate::plugins::Plugins;
use crate::store::AgentStore;
use crate::ui::composer::Composer;
use crate::ui::error_banner::ErrorBanner;
use crate::ui::run_status::RunStatusLine;
use crate::ui::settings::EndpointSettings;
use crate::ui::state_panel::StatePanel;
use crate::ui::thread_list::ThreadList;
use crate::ui::tr;
use crate::ui::transcript::Transcript;
use crate::ui::warnings::WarningsBadge;

/// The name in the chat's header, when an embedder gives one (the widget's `title`).
#[derive(Clone)]
pub struct ChatTitle(pub String);

/// The whole chat. Needs an [`crate::store::AgentStore`] in context, and takes the page's
/// [`Plugins`] from context (none when absent).
#[component]
pub fn Chat() -> impl IntoView {
    let title = use_context::<ChatTitle>().map_or_else(|| "agui-leptos".to_owned(), |t| t.0);
    let store = AgentStore::expect();
    let plugins = Plugins::use_plugins();
    plugins.install(store);
    let panels = plugins
        .panels()
        .iter()
        .map(|render| render())
        .collect_view();
    let picker = plugins
        .shows_agent_picker()
        .then(|| view! { <EndpointSettings /> });
    let lang = move || store.config.with(|c| c.locale.tag());
    let (toggle, inspector) = inspector_parts(store);
    view! {
        <div class="agui-root" data-testid="app-root" lang=lang>
            <header class="agui-header">
                <div class="agui-header__brand">
                    <span class="agui-header__logo" aria-hidden="true"></span>
                    <h1 class="agui-header__title">{title}</h1>
                </div>
                <div class="agui-header__status">
                    <RunStatusLine />
                </div>
                <div class="agui-header__actions">
                    <WarningsBadge />
                    {toggle}
                    {picker}
                </div>
            </header>
            <div class="agui-body">
                <ThreadList />
                <div class="agui-layout">
                    <main class="agui-main" data-testid="chat-main">
                        <Transcript />
                        <div class="agui-main__footer">
                            <ErrorBanner />
                            <Composer />
                        </div>
                    </main>
                    <aside class="agui-side" data-testid="chat-side" aria-label=move || tr(store).side_label>
                        {panels}
                        <StatePanel />
                    </aside>
                </div>
                {inspector}
            </div>
        </div>
    }
}

/// The inspector's header button and drawer, in a bundle that has the inspector.
#[cfg(feature = "inspector")]
fn inspector_parts(store: AgentStore) -> (AnyView, AnyView) {
    use crate::ui::inspector::toggle::InspectorToggle;
    use crate::ui::inspector::Inspector;
    (
        view! { <InspectorToggle /> }.into_any(),
        view! {
            <Show when=move || store.inspector_open.get()>
                <Inspector />
            </Show>
        }
        .into_any(),
    )
}

/// A bundle without the inspector shows neither its button nor its drawer.
#[cfg(not(feature = "inspector"))]
fn inspector_parts(_store: AgentStore) -> (AnyView, AnyView) {
    (().into_any(), ().into_any())
}
