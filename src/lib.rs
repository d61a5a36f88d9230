//! An [AG-UI](https://docs.ag-ui.com) chat client for the browser, in Rust and
//! [Leptos](https://leptos.dev) 0.8 (client-side rendering), compiled to WebAssembly: the chat as
//! a component ([`AgentChat`]), hooks to follow and drive it from anywhere on the page
//! ([`use_agent`], [`use_agent_state`], [`use_tool_call`]), the plug-ins a page adds
//! ([`Plugins`]: tool cards, frontend tools, side panels, suggestions, its own words), and a
//! sans-IO AG-UI library ([`protocol`]) worth using alone. The same chat is the `<agui-chat>`
//! element of the npm package `agui-leptos` (`docs/` in the repository).
//!
//! # An app
//!
//! `use agui_leptos::prelude::*;` brings what an app uses. This is the crate's example app
//! (`examples/weather_desk.rs`, built with trunk from `examples/leptos-app/`): an [`AgentProvider`] holds the conversation; beside
//! the chat, a bar of the page's own sends with [`use_agent`] and follows the state with
//! [`use_agent_state`]; the chat gets the app's own tool card, side panel and a small local
//! agent, so it runs offline.
//!
//! ```no_run
#![doc = include_str!("../examples/weather_desk.rs")]
//! ```
//!
//! # Features
//!
//! The defaults are what an app needs: `ai-sdk` (the AI SDK's UI message stream), `protobuf`
//! (the AG-UI protobuf binding), `a2ui` (A2UI surfaces) and `mcp-apps` (MCP Apps in a
//! sandboxed frame). `demo` (the built-in offline demo agent and its cards) and `inspector`
//! (the event inspector) are off; `app` turns on everything (the project's own page).
//!
//! # Layers
//!
//! Bottom up (`docs/dev/architecture.md`, "The layers, in order"; `tests/project/layering.rs` keeps
//! it): [`protocol`], the sans-IO AG-UI core (no web-sys, leptos or wasm-bindgen); [`base64`],
//! [`markdown`], [`i18n`]; [`view`], what the screen shows as data; [`event_log`] and
//! [`trace`], the event inspector's log and trace files; [`session`], runs, threads, branches
//! and persistence; [`wording`], the words of every failure; [`embed`], widget options; `a2ui`
//! and `mcp_apps`, the A2UI surface model and the MCP Apps bridge — all pure, tested natively.
//! Then the browser-only modules, built for wasm32: [`transport`] (fetch streaming),
//! `store` (signals over the session: [`AgentStore`]), [`plugins`], `ui` (the components),
//! [`hooks`], [`app`] and [`widget`] (the custom element); and on top the `demo` plug-in. A
//! module imports only those before it. `store` and `ui` are the crate's own: an app reaches
//! them through [`AgentStore`], [`AgentChat`], the hooks and the plug-ins.

#[cfg(feature = "a2ui")]
pub mod a2ui;
#[cfg(target_arch = "wasm32")]
pub mod app;
pub mod base64;
#[cfg(feature = "demo")]
pub mod demo;
pub mod embed;
pub mod event_log;
#[cfg(target_arch = "wasm32")]
pub mod hooks;
pub mod i18n;
pub mod markdown;
#[cfg(feature = "mcp-apps")]
pub mod mcp_apps;
#[cfg(target_arch = "wasm32")]
pub mod plugins;
pub mod protocol;
pub mod session;
#[cfg(target_arch = "wasm32")]
pub mod split;
#[cfg(target_arch = "wasm32")]
pub(crate) mod store;
pub mod trace;
#[cfg(target_arch = "wasm32")]
pub mod transport;
#[cfg(target_arch = "wasm32")]
pub(crate) mod ui;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod widget;
pub mod wording;

// The surface an embedder needs (a Leptos app using this crate as a library).
#[cfg(target_arch = "wasm32")]
pub use app::AgentChat;
#[cfg(target_arch = "wasm32")]
pub use hooks::{
    provide_agent, use_agent, use_agent_state, use_tool_call, AgentProvider, UseAgentReturn,
};
#[cfg(target_arch = "wasm32")]
pub use plugins::{CodeBlockView, ToolCallView};
#[cfg(target_arch = "wasm32")]
pub use plugins::{Plugins, Suggestion};
pub use session::AgentConfig;
#[cfg(target_arch = "wasm32")]
pub use store::AgentStore;
pub use view::tool::{ToolStatus, ToolView};

/// The parts of the chat's view and store that this repository's browser tests and benchmarks
/// mount or read directly. Not the library's API: they change without notice, and they exist
/// only with the `app` feature (the app's bundle and the tests build with it).
#[cfg(all(target_arch = "wasm32", feature = "app"))]
#[doc(hidden)]
pub mod internals {
    pub use crate::store::BrowserStorage;
    pub use crate::ui::chat::Chat;
    pub use crate::ui::inspector::open_bytes;
    pub use crate::ui::lazy::{lazy, with_stand_in};
    pub use crate::ui::state_panel::StatePanel;
    pub use crate::ui::tool::ToolCard;
    pub use crate::ui::STYLESHEET;
    pub use crate::widget::js::js_of;
}

/// What a Leptos app uses: `use agui_leptos::prelude::*;`.
pub mod prelude {
    #[cfg(target_arch = "wasm32")]
    pub use crate::hooks::{
        provide_agent, use_agent, use_agent_state, use_tool_call, AgentProvider, UseAgentReturn,
    };
    #[cfg(target_arch = "wasm32")]
    pub use crate::plugins::FrontendToolCall;
    #[cfg(target_arch = "wasm32")]
    pub use crate::plugins::Plugins;
    #[cfg(target_arch = "wasm32")]
    pub use crate::plugins::{CodeBlockView, ToolCallView};
    pub use crate::protocol::types::Tool;
    pub use crate::session::{AgentConfig, LocalAgent, TimedChunk};
    pub use crate::view::feedback::Feedback;
    pub use crate::view::tool::{ToolStatus, ToolView};
    pub use crate::view::voice::Voice;
    #[cfg(target_arch = "wasm32")]
    pub use crate::AgentChat;
}
