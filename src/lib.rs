//! agui-leptos: an AG-UI client for the browser, in Rust compiled to WebAssembly with Leptos.
//!
//! Layering: [`protocol`] is the sans-IO AG-UI core (no web-sys, leptos or wasm-bindgen; a test
//! enforces it); [`demo`] is the offline scripted agent (pure, produces SSE bytes);
//! [`branches`] keeps regenerated / edited alternatives and the saved form of a conversation
//! (pure); [`event_log`] and [`trace`] are the event inspector's log, time travel and trace
//! files (pure); [`i18n`] is the catalog of every UI string (pure); [`embed`] reads widget
//! options (pure); [`a2ui`] is the A2UI surface model of `a2ui-surface` activities (pure); [`mcp_apps`] is
//! the MCP Apps policy, `srcdoc` and JSON-RPC bridge of `mcp-apps` activities (pure); [`base64`]
//! is the one base64 codec, shared by attachments and MCP Apps (pure). Browser-only modules — [`transport`] (fetch streaming), [`store`] (signals over the
//! thread model), [`ui`] (components) and [`app`] — build only for wasm32.

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
