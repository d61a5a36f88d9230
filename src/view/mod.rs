//! The view layer: what the screen shows, as plain data and functions of the session's state
//! (no web-sys, leptos or wasm-bindgen; `tests/project/layering.rs` keeps it so). Components render
//! these models; every assertion about them is a native test.

pub mod attachments;
pub mod commands;
pub mod failure;
pub mod feedback;
pub mod form;
pub mod format;
pub mod highlight;
pub mod interrupt;
pub mod media;
pub mod prompts;
pub mod rows;
pub mod run;
pub mod slices;
pub mod sources;
pub mod state;
pub mod subagents;
pub mod suggestions;
pub mod table_export;
pub mod times;
pub mod tool;
pub mod voice;
