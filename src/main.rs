//! Binary entry point: the app's own bundle.
//!
//! In the browser (wasm32) this defines `<agui-chat>` (the app's page is one, `mode="page"`),
//! installs `window.AguiChat` and mounts `[data-agui-endpoint]` elements, with the built-in
//! demo registered as a plug-in for widgets that have no endpoint; build and serve it with
//! `trunk serve` (see `scripts/run.sh`). The native binary only exists so that
//! `cargo build` / `cargo clippy` work on the host.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    #[cfg(feature = "demo")]
    agui_leptos::widget::start_with_demo(agui_leptos::demo::ui::plugins);
    #[cfg(not(feature = "demo"))]
    agui_leptos::widget::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!(
        "agui-leptos is a browser app: build and serve it with `trunk serve` \
         (or `scripts/run.sh`), then open http://127.0.0.1:8080/"
    );
}
