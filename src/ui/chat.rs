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
use crate::ui::hitl::frontend_tools::HeldRunBanner;
use crate::ui::lazy::lazy;
use crate::ui::run_status::RunStatusLine;
use crate::ui::settings::endpoint_settings;
use crate::ui::state_panel::StatePanel;
use crate::ui::thread_list::ThreadList;
use crate::ui::transcript::Transcript;
use crate::ui::warnings::WarningsBadge;
use crate::ui::{direction, focus_in, tr};
use crate::view::state::is_empty_state;

const MENU: &str = r#"[data-testid="chat-menu"]"#;
const STATE_TOGGLE: &str = r#"[data-testid="state-toggle"]"#;

/// The name in the chat's header, when an embedder gives one (the widget's `title`).
#[derive(Clone)]
pub struct ChatTitle(pub String);

/// Given in context when the chat is the page (the widget's `page` mode): its main column is
/// then the page's `main` landmark. Elsewhere it is a named region, so a host page keeps its
/// own single `main`.
#[derive(Clone, Copy)]
pub struct OwnsPage;

/// The whole chat. Needs an [`crate::store::AgentStore`] in context, and takes the page's
/// [`Plugins`] from context (none when absent).
#[component]
pub fn Chat() -> impl IntoView {
    let title = use_context::<ChatTitle>().map_or_else(|| "agui-leptos".to_owned(), |t| t.0);
    let main_role = if use_context::<OwnsPage>().is_some() {
        "main"
    } else {
        "region"
    };
    let main_label = title.clone();
    let store = AgentStore::expect();
    let plugins = Plugins::use_plugins();
    plugins.install(store);
    // The UI strings: the language's catalog with the page's own over it, following the
    // language (in the lean widget a catalog but English comes a moment later, as a module).
    crate::ui::catalog::follow(store, plugins.page_strings().to_vec().into());
    let panels = plugins
        .panels()
        .iter()
        .map(|render| render())
        .collect_view();
    let picker = plugins
        .shows_agent_picker()
        .then(|| lazy(store, endpoint_settings));
    let lang = move || store.config.with(|c| c.locale.tag());
    let dir = direction(store);
    let (toggle, inspector) = inspector_parts(store);
    // The compact layout (containers under 560px, style/narrow.css) folds the header's actions
    // into a menu and shows the thread list and the side column as drawers.
    let menu = RwSignal::new(false);
    let threads = RwSignal::new(false);
    let side = RwSignal::new(false);
    let has_state = Memo::new(move |_| {
        store.state_changes.track();
        store.state_version.track();
        store.with_state("", |v| !is_empty_state(v))
    });
    // Opening a conversation closes the drawer it was picked from.
    let active = store.threads().active;
    Effect::new(move |before: Option<String>| {
        let now = active.get();
        if before.is_some_and(|b| b != now) {
            threads.set(false);
        }
        now
    });
    // Opening moves the keyboard into what opened; Escape closes it and returns the keyboard
    // to the button that opens it again.
    let root = NodeRef::<leptos::html::Div>::new();
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let (m, t, s) = (
            menu.get_untracked(),
            threads.get_untracked(),
            side.get_untracked(),
        );
        if ev.key() == "Escape" && !ev.default_prevented() && (m || t || s) {
            ev.stop_propagation();
            menu.set(false);
            threads.set(false);
            side.set(false);
            let back = if s && !m && !t { STATE_TOGGLE } else { MENU };
            focus_in(root, back);
        }
    };
    let open_attr = |s: RwSignal<bool>| move || s.get().then_some("open");
    view! {
        <div
            class="agui-root"
            data-testid="app-root"
            lang=lang
            dir=dir
            data-menu=open_attr(menu)
            data-threads=open_attr(threads)
            data-side=open_attr(side)
            on:keydown=on_key
            node_ref=root
        >
            <header class="agui-header">
                <div class="agui-header__brand">
                    <span class="agui-header__logo" aria-hidden="true"></span>
                    <h1 class="agui-header__title">{title}</h1>
                </div>
                <div class="agui-header__status">
                    <RunStatusLine />
                </div>
                <button
                    type="button"
                    class="agui-button agui-button--ghost agui-header__compact agui-header__state"
                    data-testid="state-toggle"
                    hidden=move || !has_state.get()
                    aria-expanded=move || side.get().to_string()
                    on:click=move |_| {
                        side.update(|s| *s = !*s);
                        if side.get_untracked() {
                            focus_in(root, r#"[data-testid="side-close"]"#);
                        }
                    }
                >
                    {move || tr(store).state_toggle}
                </button>
                <div class="agui-header__actions" data-testid="header-actions">
                    <button
                        type="button"
                        class="agui-button agui-button--ghost agui-header__compact"
                        data-testid="threads-toggle"
                        aria-expanded=move || threads.get().to_string()
                        on:click=move |_| {
                            menu.set(false);
                            threads.update(|t| *t = !*t);
                            focus_in(root, if threads.get_untracked() { ".agui-threads" } else { MENU });
                        }
                    >
                        {move || tr(store).threads_label}
                    </button>
                    <WarningsBadge />
                    {toggle}
                    {picker}
                </div>
                <button
                    type="button"
                    class="agui-button agui-button--ghost agui-header__compact agui-header__menu"
                    data-testid="chat-menu"
                    aria-expanded=move || menu.get().to_string()
                    aria-label=move || tr(store).menu_label
                    on:click=move |_| {
                        menu.update(|m| *m = !*m);
                        if menu.get_untracked() {
                            focus_in(root, r#"[data-testid="threads-toggle"]"#);
                        }
                    }
                >
                    <span aria-hidden="true">"☰"</span>
                </button>
            </header>
            <div class="agui-body">
                <ThreadList />
                <div class="agui-layout">
                    <div
                        class="agui-main"
                        data-testid="chat-main"
                        role=main_role
                        aria-label=main_label
                    >
                        <Transcript />
                        <div class="agui-main__footer">
                            <ErrorBanner />
                            <HeldRunBanner />
                            <Composer />
                        </div>
                    </div>
                    <aside class="agui-side" data-testid="chat-side" aria-label=move || tr(store).side_label>
                        <button
                            type="button"
                            class="agui-button agui-button--ghost agui-header__compact agui-side__close"
                            data-testid="side-close"
                            on:click=move |_| {
                                side.set(false);
                                focus_in(root, STATE_TOGGLE);
                            }
                        >
                            {move || tr(store).dismiss}
                        </button>
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
