//! The browser application: reads the initial agent settings from the page URL
//! (`?endpoint=URL` picks an AG-UI endpoint, relative URLs work; `?speed=N` sets the demo
//! agent's playback speed), creates the [`AgentStore`] and renders the [`Chat`].

use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::Mountable;
use web_sys::HtmlElement;

use crate::store::{AgentConfig, AgentStore};
use crate::ui::chat::Chat;

/// Demo playback speed when the URL does not say.
pub const DEFAULT_DEMO_SPEED: f64 = 1.0;

/// The agent settings from a page URL: `endpoint` (empty = the demo agent) and `speed`.
pub fn config_from_href(href: &str) -> AgentConfig {
    let mut config = AgentConfig {
        endpoint: None,
        headers: Vec::new(),
        demo_speed: DEFAULT_DEMO_SPEED,
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
pub fn App() -> impl IntoView {
    AgentStore::new(config_from_location()).provide();
    view! { <Chat /> }
}

/// Mounts [`App`] to `<body>` for the lifetime of the page.
pub fn mount_app() {
    leptos::mount::mount_to_body(App);
}

/// Mounts [`App`] into `el`. Dropping the returned handle unmounts the view
/// and disposes of its reactive owner.
pub fn mount_into(el: HtmlElement) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(el, App)
}

/// Mounts a [`Chat`] on a given store into `el` (tests and embedders: the caller keeps the
/// store, e.g. to feed a recorded stream with `begin_external` / `push_bytes`).
pub fn mount_with_store(el: HtmlElement, store: AgentStore) -> UnmountHandle<impl Mountable> {
    leptos::mount::mount_to(el, move || {
        store.provide();
        view! { <Chat /> }
    })
}
