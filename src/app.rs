//! Mounting the chat without the widget frame (tests and Rust embedders). Pages use the
//! widget (`crate::widget`): `<agui-chat>`, which is also how the app's own page is built
//! (`mode="page"`; its URL parameters are read there).

use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::Mountable;
use web_sys::HtmlElement;

use crate::store::threads::DEFAULT_STORAGE_PREFIX;
use crate::store::{AgentConfig, AgentStore};
use crate::ui::chat::Chat;

/// Demo playback speed when nothing says otherwise.
pub const DEFAULT_DEMO_SPEED: f64 = 1.0;

/// The chat on the demo agent, with the conversations saved under `storage_prefix`
/// ([`DEFAULT_STORAGE_PREFIX`] when absent).
#[component]
pub fn App(#[prop(optional, into)] storage_prefix: Option<String>) -> impl IntoView {
    let prefix = storage_prefix.unwrap_or_else(|| DEFAULT_STORAGE_PREFIX.to_owned());
    let config = AgentConfig {
        demo_speed: DEFAULT_DEMO_SPEED,
        ..AgentConfig::default()
    };
    AgentStore::restore(config, &prefix).provide();
    view! { <Chat /> }
}

/// Mounts [`App`] into `el`. Dropping the returned handle unmounts the view
/// and disposes of its reactive owner.
pub fn mount_into(el: HtmlElement) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(el, || view! { <App /> })
}

/// Mounts a [`Chat`] on a given store into `el` (tests and embedders: the caller keeps the
/// store, e.g. to feed a recorded stream with `begin_external` / `push_bytes`).
pub fn mount_with_store(el: HtmlElement, store: AgentStore) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(el, move || {
        store.provide();
        view! { <Chat /> }
    })
}
