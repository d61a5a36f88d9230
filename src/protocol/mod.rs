//! The sans-IO AG-UI 1.0 protocol core: no browser bindings and no UI framework (a test keeps it
//! so), so every stage tests natively in seconds.
//!
//! The inbound pipeline, in the reference client's order (spec digest §4.1):
//! [`sse`] → JSON → [`compat`] → [`enforce`] → [`chunks`] → [`verify`] → [`reducer`];
//! [`pipeline`] strings them together. [`input`] prepares the outgoing `RunAgentInput`,
//! [`partial_json`] previews tool arguments while they stream. [`ai_sdk`] translates an AI SDK
//! UI message stream into the same events and builds that protocol's request. [`proto`] (feature
//! `protobuf`) decodes the protobuf binding's frames into the same events; [`wire`] picks the
//! decoder a response needs ([`front`]: the [`Wire`] and [`WireFront`](front::WireFront) they
//! share).

#[cfg(feature = "ai-sdk")]
pub mod ai_sdk;
pub mod capabilities;
pub mod chunks;
pub mod compat;
pub mod enforce;
pub mod error;
pub mod event;
pub mod fast;
pub mod front;
pub mod id_map;
pub mod input;
pub mod partial_json;
pub mod pipeline;
#[cfg(feature = "protobuf")]
pub mod proto;
pub mod raw_json;
pub mod reducer;
pub mod resume;
pub mod sse;
pub mod state_patch;
pub mod types;
pub mod verify;
pub mod wire;

pub use error::{ProtocolError, Warning, WarningKind};
pub use event::{Event, EventKind};
pub use pipeline::{Delivered, Pipeline, PipelineOptions};
pub use reducer::{Change, Rows, RunStatus, Thread};
pub use types::{Message, Role, RunAgentInput};
pub use wire::{Decoder, Wire};
