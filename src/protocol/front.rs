//! What stands in front of the pipeline: the [`Wire`] a run speaks and [`WireFront`], the
//! trait of a bytes → events stage the core does not make itself (spec digest §1.4–1.5). A
//! leaf that the decoders (`ai_sdk`, `proto`) and the dispatcher (`wire.rs`, which picks one
//! and asks them what a response is) build on: it names none of them.

use super::pipeline::{Delivered, Pipeline};

/// The response header that marks an AI SDK UI message stream.
pub const AI_SDK_HEADER: &str = "x-vercel-ai-ui-message-stream";

/// The protocol a run speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wire {
    /// AG-UI 1.0: `RunAgentInput` out, SSE events back.
    #[default]
    AgUi,
    /// The AI SDK's UI message stream (`useChat`'s request, `x-vercel-ai-ui-message-stream`).
    AiSdk,
    /// AG-UI events as protobuf frames (a response only: the request is AG-UI's; spec digest
    /// §1.5). Read only in a bundle with the `protobuf` feature, by the decoder handed over
    /// for it ([`Decoder::with_front`](super::wire::Decoder::with_front)).
    Proto,
}

impl Wire {
    /// `ag-ui` / `ai-sdk` (attribute values; `agui` and `aisdk` too).
    pub fn parse(value: &str) -> Option<Wire> {
        match value.trim().to_ascii_lowercase().as_str() {
            "ag-ui" | "agui" => Some(Wire::AgUi),
            "ai-sdk" | "aisdk" => Some(Wire::AiSdk),
            _ => None,
        }
    }

    /// Whether this bundle reads it (the AI SDK's needs the `ai-sdk` feature, protobuf the
    /// `protobuf` one).
    pub fn available(self) -> bool {
        match self {
            Wire::AgUi => true,
            Wire::AiSdk => cfg!(feature = "ai-sdk"),
            Wire::Proto => cfg!(feature = "protobuf"),
        }
    }
}

/// A bytes → events stage the core does not make itself, handed over with
/// [`Decoder::with_front`](super::wire::Decoder::with_front): the protobuf binding's decoder
/// ([`super::proto::ProtoDecoder`]), which the lean widget fetches as a module of its own.
pub trait WireFront: std::fmt::Debug {
    /// The wire it reads.
    fn wire(&self) -> Wire;
    /// Fold response bytes (any split) into `pipeline`.
    fn push_bytes(&mut self, pipeline: &mut Pipeline, bytes: &[u8]) -> Vec<Delivered>;
    /// The response ended (the truncation rule applies).
    fn finish(&mut self, pipeline: &mut Pipeline) -> Vec<Delivered>;
}
