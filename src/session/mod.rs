//! The session layer: what a chat does between the protocol core and the screen, as plain Rust
//! (no web-sys, leptos or wasm-bindgen; `tests/layering.rs` keeps it so). The browser store is
//! a thin shell around it.

pub mod local;

pub use local::{LocalAgent, LocalAgentRef, TimedChunk};
