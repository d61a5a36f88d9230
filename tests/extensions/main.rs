//! The optional parts above the session: A2UI (`src/a2ui/`), MCP Apps (`src/mcp_apps/`) and the
//! demo agent with its cards (`src/demo/`).
//!
//! One test binary per layer of `src/` (docs/dev/testing.md): `cargo test --test extensions`, or
//! one file's tests with `cargo test --test extensions FILE::`.

mod a2ui;
mod demo;
mod demo_cards;
mod mcp_apps;
