//! The chat UI: one Leptos component per file, all reading the [`crate::store::AgentStore`]
//! from context. Nothing here renders agent output as raw HTML.

pub mod activity;
pub mod chat;
pub mod composer;
pub mod error_banner;
pub mod frontend_tools;
pub mod inspector;
pub mod inspector_toggle;
pub mod interrupt_card;
pub mod markdown_view;
pub mod message;
pub mod reasoning;
pub mod run_status;
pub mod schema_form;
pub mod settings;
pub mod state_panel;
pub mod thread_list;
pub mod tool_card;
pub mod tool_registry;
pub mod transcript;
pub mod trip_panel;
pub mod venue_card;
pub mod warnings;
pub mod widget_shell;
