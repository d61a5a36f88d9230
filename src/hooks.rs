//! Hooks over the chat, in leptos-use's shape: read-only signals and callbacks, usable anywhere
//! under the chat's store — a side panel, a tool renderer, or a page around the chat.
//!
//! [`AgentProvider`] (or [`provide_agent`]) creates the store for everything under it; an
//! [`AgentChat`](crate::AgentChat) under it uses that store, so a page can put its own controls
//! and panels beside the chat:
//!
//! ```ignore
//! use agui_leptos::prelude::*;
//! use leptos::prelude::*;
//!
//! #[component]
//! fn Page() -> impl IntoView {
//!     let config = AgentConfig { endpoint: Some("/api/agent".into()), ..AgentConfig::default() };
//!     view! {
//!         <AgentProvider config>
//!             <Forecast />
//!             <AgentChat />
//!         </AgentProvider>
//!     }
//! }
//!
//! #[component]
//! fn Forecast() -> impl IntoView {
//!     let agent = use_agent();
//!     let forecast = use_agent_state("/forecast");
//!     view! {
//!         <p>{move || forecast.get().map(|f| f.to_string()).unwrap_or_default()}</p>
//!         <button on:click=move |_| agent.send.run("What is the weather?".into())
//!             disabled=move || agent.is_running.get()>"Ask"</button>
//!     }
//! }
//! ```

use leptos::prelude::*;
use serde_json::Value;

use crate::plugins::ToolCallView;
use crate::protocol::reducer::RunStatus;
use crate::protocol::types::Message;
use crate::session::AgentConfig;
use crate::store::AgentStore;

/// Creates the chat's store on `config` and provides it to its children: the hooks and an
/// [`AgentChat`](crate::AgentChat) among them use it. With a `storage_prefix` the
/// conversations are saved in `localStorage` under it and restored on the next visit.
#[component]
pub fn AgentProvider(
    /// Where runs go (endpoint, headers, language…).
    config: AgentConfig,
    /// Where conversations are saved (`None`: not saved).
    #[prop(optional, into)]
    storage_prefix: Option<String>,
    children: Children,
) -> impl IntoView {
    provide_agent(config, storage_prefix.as_deref());
    children()
}

/// [`AgentProvider`] as a function: creates the store and provides it in the current owner.
pub fn provide_agent(config: AgentConfig, storage_prefix: Option<&str>) -> AgentStore {
    let store = match storage_prefix {
        Some(prefix) => AgentStore::restore(config, prefix),
        None => AgentStore::new(config),
    };
    store.provide();
    store
}

/// The store in context; outside any provider, a store of its own (with a console warning):
/// a hook never panics.
fn store() -> AgentStore {
    use_context::<AgentStore>().unwrap_or_else(|| {
        leptos::logging::warn!(
            "agui-leptos: a hook outside <AgentProvider> or <AgentChat>: it gets a chat of its own"
        );
        provide_agent(AgentConfig::default(), None)
    })
}

/// What [`use_agent`] gives: read-only signals and the actions a page needs.
#[derive(Clone, Copy)]
pub struct UseAgentReturn {
    /// Whether a run is under way.
    pub is_running: Signal<bool>,
    /// The last run's status (`Idle` before any).
    pub status: Signal<RunStatus>,
    /// The conversation's messages. It changes when a message is added or removed and when a
    /// run ends — not on every streamed piece of text (that would copy the whole conversation
    /// per token); a tool renderer or a view of one message reads its own live view.
    pub messages: Signal<Vec<Message>>,
    /// The conversation's id.
    pub thread_id: Signal<String>,
    /// Sends a message as the person (queued while a run is live, if the queue is on).
    pub send: Callback<String>,
    /// Stops the run in flight, keeping what arrived.
    pub stop: Callback<()>,
    /// Runs the last request again (after an error).
    pub retry: Callback<()>,
}

/// The chat's run and conversation, and its actions.
///
/// ```ignore
/// let agent = use_agent();
/// view! {
///     <button on:click=move |_| agent.stop.run(()) disabled=move || !agent.is_running.get()>
///         "Stop"
///     </button>
/// }
/// ```
pub fn use_agent() -> UseAgentReturn {
    let store = store();
    let running = store.running;
    let run = store.run;
    let rows = store.rows;
    UseAgentReturn {
        is_running: running.into(),
        status: Memo::new(move |_| run.with(|r| r.status.clone())).into(),
        messages: Memo::new(move |_| {
            rows.track();
            running.track();
            store.with_thread(|t| t.messages.clone())
        })
        .into(),
        thread_id: Memo::new(move |_| {
            rows.track();
            store.thread_id()
        })
        .into(),
        send: Callback::new(move |text: String| store.send(text)),
        stop: Callback::new(move |()| store.stop()),
        retry: Callback::new(move |()| store.retry()),
    }
}

/// The agent's state at a JSON Pointer (`""` is the whole state, `"/cart/items"` a part of
/// it), or `None` where there is nothing. It re-runs only when that path changes: a delta
/// elsewhere in the state does not wake it.
///
/// ```ignore
/// let cart = use_agent_state("/cart");
/// view! { <p>{move || cart.get().map(|c| c["items"].to_string())}</p> }
/// ```
pub fn use_agent_state(pointer: &str) -> Signal<Option<Value>> {
    let store = store();
    let version = store.path_signal(pointer);
    let pointer = pointer.to_owned();
    Memo::new(move |_| {
        version.track();
        store.with_state(&pointer, |v| v.cloned())
    })
    .into()
}

/// The live view of one tool call (name, arguments as they stream, status, result, duration),
/// re-read only when that call changes — what a tool renderer is handed.
///
/// ```ignore
/// let call = use_tool_call("call-1");
/// view! { <p>{move || call.args().map(|a| a.to_string())}</p> }
/// ```
pub fn use_tool_call(tool_call_id: &str) -> ToolCallView {
    // The view reads the store from context; make sure there is one.
    let _ = store();
    ToolCallView::new(tool_call_id)
}
