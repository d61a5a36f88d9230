//! The chat as a Leptos component for Rust apps ([`AgentChat`]) and mounting helpers (tests and
//! embedders). Pages use the widget (`crate::widget`): `<agui-chat>`, which is also how the
//! app's own page is built (`mode="page"`).
//!
//! ```ignore
//! use agui_leptos::prelude::*;
//! let config = AgentConfig { endpoint: Some("/api/agent".into()), ..AgentConfig::default() };
//! let plugins = Plugins::new().tool_renderer("get_weather", |call| view! { <Weather call /> }.into_any());
//! view! { <AgentChat config plugins storage_prefix="my-app" /> }
//! ```

use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::Mountable;
use web_sys::HtmlElement;

use crate::plugins::Plugins;
use crate::store::{AgentConfig, AgentStore};
use crate::ui::chat::{Chat, ChatTitle, OwnsPage};
use crate::ui::STYLESHEET;

/// The whole chat, with the page's `plugins`. Under an [`AgentProvider`](crate::AgentProvider)
/// it uses the provider's store (its config and saved conversations; `config` and
/// `storage_prefix` are then not read); else it makes its own on `config`. With a
/// `storage_prefix` the conversations are saved in `localStorage` under it and restored on the
/// next visit; without, they live as long as the page.
///
/// ```ignore
/// use agui_leptos::prelude::*;
/// let config = AgentConfig { endpoint: Some("/api/agent".into()), ..AgentConfig::default() };
/// view! { <AgentChat config storage_prefix="my-app" /> }
/// ```
#[component]
pub fn AgentChat(
    /// Where runs go (endpoint, headers, language…); default: `AgentConfig::default()`.
    #[prop(optional, into)]
    config: Option<AgentConfig>,
    /// What the page adds: tool renderers, frontend tools, side panels, suggestions.
    #[prop(optional)]
    plugins: Plugins,
    /// Where conversations are saved (`None`: not saved).
    #[prop(optional, into)]
    storage_prefix: Option<String>,
    /// The name in the chat's header.
    #[prop(optional, into)]
    title: Option<String>,
    /// The chat is the page's main content: its conversation column becomes the page's `main`
    /// landmark (otherwise a region named by the title, beside the app's own `main`).
    #[prop(optional)]
    page: bool,
    /// Put the chat's stylesheet beside it (`false` when the page ships `STYLESHEET` itself).
    #[prop(default = true)]
    styles: bool,
) -> impl IntoView {
    if let Some(title) = title {
        provide_context(ChatTitle(title));
    }
    if page {
        provide_context(OwnsPage);
    }
    if use_context::<AgentStore>().is_none() {
        crate::hooks::provide_agent(config.unwrap_or_default(), storage_prefix.as_deref());
    }
    plugins.provide();
    view! {
        {styles.then(|| view! { <style>{STYLESHEET}</style> })}
        <Chat />
    }
}

/// Mounts the chat on a given store with `plugins` into `el` (tests and embedders: the
/// caller keeps the store, e.g. to feed a recorded stream with `begin_external` /
/// `push_bytes`). Dropping the returned handle unmounts the view and disposes its owner.
pub fn mount_with(
    el: HtmlElement,
    store: AgentStore,
    plugins: Plugins,
) -> UnmountHandle<impl Mountable> {
    if crate::ui::page_sets_dir(&el) {
        store.config.update(|c| c.page_dir = true);
    }
    leptos::mount::mount_to(el, move || {
        store.provide();
        plugins.clone().provide();
        view! { <Chat /> }
    })
}

/// [`mount_with`] without plug-ins.
pub fn mount_with_store(el: HtmlElement, store: AgentStore) -> UnmountHandle<impl Mountable> {
    mount_with(el, store, Plugins::new())
}
