//! agui-leptos: an AG-UI client for the browser, in Rust compiled to WebAssembly with Leptos.
//!
//! Layering, bottom up (`docs/dev/architecture.md`, "The layers, in order"; `tests/layering.rs`
//! keeps it): [`protocol`], the sans-IO AG-UI core (no web-sys, leptos or wasm-bindgen);
//! [`base64`], [`markdown`], [`i18n`]; [`view`], what the screen shows as data; [`event_log`]
//! and [`trace`], the event inspector's log and trace files; [`session`], runs, threads,
//! branches and persistence; [`wording`], the words of every failure; [`embed`], widget
//! options; [`a2ui`] and [`mcp_apps`], the A2UI surface model and the MCP Apps bridge — all
//! pure, tested natively. Then the browser-only modules, built only for wasm32: `transport`
//! (fetch streaming), `store` (signals over the session), `plugins`, `ui` (components), `app`
//! and `widget`; and on top the [`demo`] plug-in. A module imports only those before it.

#[cfg(feature = "a2ui")]
pub mod a2ui;
#[cfg(target_arch = "wasm32")]
pub mod app;
pub mod base64;
#[cfg(feature = "demo")]
pub mod demo;
pub mod embed;
pub mod event_log;
pub mod i18n;
pub mod markdown;
#[cfg(feature = "mcp-apps")]
pub mod mcp_apps;
#[cfg(target_arch = "wasm32")]
pub mod plugins;
pub mod protocol;
pub mod session;
#[cfg(target_arch = "wasm32")]
pub mod store;
pub mod trace;
#[cfg(target_arch = "wasm32")]
pub mod transport;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod widget;
pub mod wording;

// The surface an embedder needs (a Leptos app using this crate as a library).
#[cfg(target_arch = "wasm32")]
pub use app::AgentChat;
#[cfg(target_arch = "wasm32")]
pub use plugins::{Plugins, Suggestion};
pub use session::AgentConfig;
#[cfg(target_arch = "wasm32")]
pub use store::AgentStore;
#[cfg(target_arch = "wasm32")]
pub use ui::tool::ToolCallView;
pub use view::tool::{ToolStatus, ToolView};
