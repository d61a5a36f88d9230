//! The session (`src/session/`) and what sits on it natively: runs, threads, branches, human in the
//! loop, attachments, capabilities, the AI SDK session, the inspector's log and traces
//! (`src/event_log.rs`, `src/trace.rs`) and the `replay` tool.
//!
//! One test binary per layer of `src/` (docs/dev/testing.md): `cargo test --test session`, or one
//! file's tests with `cargo test --test session FILE::`.

mod attachments;
mod branches;
mod capabilities;
mod inspector;
mod merge;
mod replay_cli;
mod session;
mod session_ai_sdk;
mod sync;
