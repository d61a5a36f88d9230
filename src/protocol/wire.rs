//! Which wire a response speaks, and the decoder in front of the pipeline for it. Every wire
//! ends in the same [`Pipeline`] (spec digest §4.1), so the thread, the cards, the inspector and
//! the tests see AG-UI events whatever came over the network.
//!
//! The request's shape follows the configured [`Wire`]; the decoder follows the response: a
//! response marked as an AI SDK UI message stream ([`ai_sdk::HEADER`]) is read as one whatever
//! was asked for, anything else as AG-UI SSE (spec digest §1.4: clients must always be ready
//! for SSE).

use super::ai_sdk::{self, AiSdkFront};
use super::pipeline::{Delivered, Pipeline, PipelineOptions};

/// The protocol a run speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wire {
    /// AG-UI 1.0: `RunAgentInput` out, SSE events back.
    #[default]
    AgUi,
    /// The AI SDK's UI message stream (`useChat`'s request, `x-vercel-ai-ui-message-stream`).
    AiSdk,
    /// AG-UI events as protobuf frames (a response only: the request is AG-UI's; spec digest
    /// §1.5). Read only in a bundle with the `protobuf` feature.
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

    /// The wire of a response, from its `content-type` and the AI SDK's header: the protobuf
    /// media type exactly (spec digest §1.4), the AI SDK's header, else AG-UI SSE.
    pub fn of_response(content_type: Option<&str>, ai_sdk_header: Option<&str>) -> Wire {
        #[cfg(feature = "protobuf")]
        if super::proto::is_proto_response(content_type) {
            return Wire::Proto;
        }
        if ai_sdk::is_ai_sdk_response(content_type, ai_sdk_header) {
            Wire::AiSdk
        } else {
            Wire::AgUi
        }
    }

    /// The `Accept` header of a request: protobuf admitted only when asked for and readable
    /// (a client that cannot parse it must not admit it, §1.2).
    pub fn accept(protobuf: bool) -> &'static str {
        #[cfg(feature = "protobuf")]
        if protobuf {
            return super::proto::ACCEPT;
        }
        let _ = protobuf;
        "text/event-stream"
    }
}

/// The bytes → events stage of one run's response.
#[derive(Debug, Default)]
pub struct Decoder(Front);

#[derive(Debug, Default)]
enum Front {
    /// The pipeline's own SSE decoder.
    #[default]
    AgUi,
    AiSdk(Box<AiSdkFront>),
    #[cfg(feature = "protobuf")]
    Proto(Box<super::proto::ProtoDecoder>),
}

impl Decoder {
    /// The decoder for `wire`; the AI SDK's runs are named `thread_id`/`run_id` (its stream
    /// carries neither).
    pub fn new(wire: Wire, options: &PipelineOptions, thread_id: &str, run_id: &str) -> Self {
        Decoder(match wire {
            Wire::AiSdk => Front::AiSdk(Box::new(AiSdkFront::new(options, thread_id, run_id))),
            #[cfg(feature = "protobuf")]
            Wire::Proto => Front::Proto(Box::new(super::proto::ProtoDecoder::new(options))),
            _ => Front::AgUi,
        })
    }

    pub fn wire(&self) -> Wire {
        match self.0 {
            Front::AgUi => Wire::AgUi,
            Front::AiSdk(_) => Wire::AiSdk,
            #[cfg(feature = "protobuf")]
            Front::Proto(_) => Wire::Proto,
        }
    }

    /// Fold response bytes (any split).
    pub fn push(&mut self, pipeline: &mut Pipeline, bytes: &[u8]) -> Vec<Delivered> {
        match &mut self.0 {
            Front::AgUi => pipeline.push_bytes(bytes),
            Front::AiSdk(f) => f.push_bytes(pipeline, bytes),
            #[cfg(feature = "protobuf")]
            Front::Proto(f) => f.push_bytes(pipeline, bytes),
        }
    }

    /// The response ended (the truncation rule applies).
    pub fn finish(&mut self, pipeline: &mut Pipeline) -> Vec<Delivered> {
        match &mut self.0 {
            Front::AgUi => pipeline.finish(),
            Front::AiSdk(f) => f.finish(pipeline),
            #[cfg(feature = "protobuf")]
            Front::Proto(f) => f.finish(pipeline),
        }
    }
}
