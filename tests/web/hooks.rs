//! The hooks of a Leptos app (`src/hooks.rs`) in the browser: `use_agent_state` re-runs only
//! when its own path changes, `use_agent` follows the run and its messages, and an
//! `AgentChat` under an `AgentProvider` shares the provider's store.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use std::cell::Cell;
use std::rc::Rc;

use agui_leptos::prelude::*;
use agui_leptos::AgentStore;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen_test::*;
use web_support::fresh_container;

wasm_bindgen_test_configure!(run_in_browser);

/// Feeds AG-UI events to the store as a run's response would, then lets the views settle.
async fn feed(store: AgentStore, events: &[serde_json::Value]) {
    for e in events {
        store.push_bytes(format!("data: {e}\n\n").as_bytes());
    }
    store.flush();
    for _ in 0..3 {
        leptos::task::tick().await;
    }
}

#[wasm_bindgen_test]
async fn use_agent_state_reruns_only_when_its_path_changes() {
    let container = fresh_container();
    let runs = Rc::new(Cell::new(0u32));
    let slot: Rc<Cell<Option<(AgentStore, UseAgentReturn)>>> = Rc::default();
    let (counted, made) = (runs.clone(), slot.clone());
    let handle = leptos::mount::mount_to(container.clone(), move || {
        let store = provide_agent(AgentConfig::default(), None);
        let cart = use_agent_state("/cart");
        Effect::new(move |_| {
            cart.track();
            counted.set(counted.get() + 1);
        });
        made.set(Some((store, use_agent())));
        view! { <p data-testid="cart">{move || cart.get().map(|c| c.to_string())}</p> }
    });
    leptos::task::tick().await;
    let (store, agent) = slot.take().expect("the store");
    assert_eq!(runs.get(), 1, "the first run");
    assert!(!agent.is_running.get_untracked());

    let thread = store.thread_id();
    store.begin_external();
    feed(
        store,
        &[
            json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r1"}),
            json!({"type": "STATE_SNAPSHOT", "snapshot": {"cart": {"items": 1}, "user": {"name": "Ana"}}}),
        ],
    )
    .await;
    assert!(agent.is_running.get_untracked(), "a run is under way");
    assert_eq!(runs.get(), 2, "the snapshot gave /cart a value");
    let shown = container
        .query_selector("[data-testid=cart]")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap_or_default();
    assert_eq!(shown, r#"{"items":1}"#);

    // Another path changes: the hook does not wake.
    feed(
        store,
        &[
            json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/user/name", "value": "Bo"}]}),
        ],
    )
    .await;
    assert_eq!(runs.get(), 2, "a delta on /user/name re-ran the /cart hook");

    // Its own path changes: once.
    feed(
        store,
        &[
            json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/cart/items", "value": 2}]}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Two items."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
            json!({"type": "RUN_FINISHED", "threadId": thread, "runId": "r1"}),
        ],
    )
    .await;
    store.end_external(None);
    store.flush();
    leptos::task::tick().await;
    assert_eq!(runs.get(), 3, "a delta under /cart re-ran it once");
    assert!(!agent.is_running.get_untracked(), "the run ended");
    assert_eq!(agent.status.get_untracked().name(), "success");
    let messages = agent.messages.get_untracked();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(agent.thread_id.get_untracked(), thread);

    drop(handle);
    container.remove();
}

thread_local! {
    /// What the probe below saw under the provider.
    static PROBED: Cell<Option<(AgentStore, UseAgentReturn)>> = const { Cell::new(None) };
}

/// A component of the page under the provider, beside the chat: it keeps what the hooks give.
#[component]
fn Probe() -> impl IntoView {
    PROBED.set(Some((AgentStore::expect(), use_agent())));
}

#[wasm_bindgen_test]
async fn a_chat_under_a_provider_uses_its_store_and_use_agent_sends_into_it() {
    let container = fresh_container();
    let handle = leptos::mount::mount_to(container.clone(), move || {
        view! {
            <AgentProvider config=AgentConfig { demo_speed: 0.0, ..AgentConfig::default() }>
                <Probe />
                <AgentChat />
            </AgentProvider>
        }
    });
    leptos::task::tick().await;
    let (store, agent) = PROBED.take().expect("the provider's store");
    // No endpoint and no local agent: the run fails, and says so in the chat under the same
    // store — the message the page sent is the chat's.
    agent.send.run("Hello from the page".to_owned());
    for _ in 0..10 {
        leptos::task::tick().await;
    }
    let texts: Vec<String> = web_support::q_all(&container, r#"[data-testid="message-text"]"#)
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("Hello from the page")),
        "the chat shows what use_agent sent: {texts:?}"
    );
    assert_eq!(
        store.with_thread(|t| t.messages.len()),
        agent.messages.get_untracked().len(),
        "one conversation"
    );
    drop(handle);
    container.remove();
}
