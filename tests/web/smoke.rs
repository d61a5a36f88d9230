//! Browser smoke test: mounts the demo chat into a fresh element in headless
//! Chromium and checks it renders and unmounts.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_smoke`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use wasm_bindgen_test::*;
use web_support::fresh_container;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn app_mounts_renders_and_unmounts() {
    let container = fresh_container();
    let store = agui_leptos::AgentStore::new(agui_leptos::AgentConfig {
        demo_speed: 0.0,
        ..agui_leptos::AgentConfig::default()
    });
    let handle = web_support::mount_demo(container.clone(), store);
    leptos::task::tick().await;

    let root = container
        .query_selector(r#"[data-testid="app-root"]"#)
        .expect("valid selector")
        .expect("app-root is rendered inside the container");
    let text = root.text_content().unwrap_or_default();
    assert!(
        text.contains("agui-leptos"),
        "unexpected app text: {text:?}"
    );
    assert!(
        root.query_selector(r#"[data-testid="composer-input"]"#)
            .expect("valid selector")
            .is_some(),
        "the chat (with its composer) is rendered"
    );
    let h1 = container
        .query_selector("h1")
        .expect("valid selector")
        .expect("header is rendered");
    assert_eq!(h1.text_content().as_deref(), Some("agui-leptos"));

    drop(handle);
    leptos::task::tick().await;
    assert!(
        container
            .query_selector(r#"[data-testid="app-root"]"#)
            .expect("valid selector")
            .is_none(),
        "app-root is still present after the unmount handle was dropped"
    );

    container.remove();
}
