//! The protocol core (`src/protocol/`): the SSE decoder, the verifier, the pipeline and the
//! reducer, resumption, partial JSON, state patches, the fast path, the official conformance
//! corpus, and the other wires (the AI SDK stream, protobuf).
//!
//! One test binary per layer of `src/` (docs/dev/testing.md): `cargo test --test protocol`, or one
//! file's tests with `cargo test --test protocol FILE::`.

#[path = "../native_support/mod.rs"]
mod native_support;

mod ai_sdk;
mod ai_sdk_captured;
mod conformance;
mod enforce;
mod event_json;
mod fast_path;
mod partial_json;
mod pipeline;
mod proptest_pipeline;
mod proto;
mod reducer;
mod resume;
mod sse;
mod state_patch;
mod subagents;
