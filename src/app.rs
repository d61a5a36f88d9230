//! The browser application: reads the initial agent settings from the page URL
//! (`?endpoint=URL` picks an AG-UI endpoint, relative URLs work; `?speed=N` sets the demo
//! agent's playback speed), restores the saved conversations ([`AgentStore::restore`]: the
//! last open one comes back after a reload) and renders the [`Chat`]. Several widgets on one
//! page keep their conversations apart with their own storage prefix
//! ([`mount_into_with_prefix`]).

use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::Mountable;
use web_sys::HtmlElement;

use crate::store::threads::DEFAULT_STORAGE_PREFIX;
use crate::store::{AgentConfig, AgentStore};
use crate::ui::chat::Chat;

/// Demo playback speed when the URL does not say.
pub const DEFAULT_DEMO_SPEED: f64 = 1.0;

/// The agent settings from a page URL: `endpoint` (empty = the demo agent) and `speed`.
pub fn config_from_href(href: &str) -> AgentConfig {
    let mut config = AgentConfig {
        demo_speed: DEFAULT_DEMO_SPEED,
        ..AgentConfig::default()
    };
    let Ok(url) = web_sys::Url::new(href) else {
        return config;
    };
    let params = url.search_params();
    if let Some(endpoint) = params.get("endpoint") {
        let endpoint = endpoint.trim();
        if !endpoint.is_empty() {
            config.endpoint = Some(endpoint.to_owned());
        }
    }
    if let Some(speed) = params
        .get("speed")
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
    {
        config.demo_speed = speed;
    }
    config
}

/// The agent settings from `window.location`.
pub fn config_from_location() -> AgentConfig {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    config_from_href(&href)
}

/// Root component of the application.
#[component]
pub fn App(
    /// Where conversations are saved in `localStorage` (keys `{prefix}:…`); defaults to
    /// [`DEFAULT_STORAGE_PREFIX`].
    #[prop(optional, into)]
    storage_prefix: Option<String>,
) -> impl IntoView {
    let prefix = storage_prefix.unwrap_or_else(|| DEFAULT_STORAGE_PREFIX.to_owned());
    AgentStore::restore(config_from_location(), &prefix).provide();
    view! { <Chat /> }
}

/// Mounts [`App`] to `<body>` for the lifetime of the page.
pub fn mount_app() {
    leptos::mount::mount_to_body(|| view! { <App /> });
}

/// Mounts [`App`] into `el`. Dropping the returned handle unmounts the view
/// and disposes of its reactive owner.
pub fn mount_into(el: HtmlElement) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(el, || view! { <App /> })
}

/// Mounts [`App`] into `el`, saving its conversations under `storage_prefix` (one prefix per
/// widget on a page).
pub fn mount_into_with_prefix(
    el: HtmlElement,
    storage_prefix: String,
) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(
        el,
        move || view! { <App storage_prefix=storage_prefix.clone() /> },
    )
}

/// Mounts a [`Chat`] on a given store into `el` (tests and embedders: the caller keeps the
/// store, e.g. to feed a recorded stream with `begin_external` / `push_bytes`).
pub fn mount_with_store(el: HtmlElement, store: AgentStore) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(el, move || {
        store.provide();
        view! { <Chat /> }
    })
}
