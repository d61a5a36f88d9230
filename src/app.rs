//! The browser UI (wasm32 only).

use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::Mountable;
use web_sys::HtmlElement;

/// Root component of the application.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="app" data-testid="app-root">
            <header class="app-header">
                <h1>"agui-leptos"</h1>
            </header>
            <p class="app-intro">
                "An AG-UI chat client running in your browser (Rust, WebAssembly and Leptos)."
            </p>
            <p class="app-placeholder" data-testid="chat-placeholder">
                "The chat is coming soon."
            </p>
        </main>
    }
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
