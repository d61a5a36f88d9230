//! Which wire a response speaks, and the decoder in front of the pipeline for it. Every wire
//! ends in the same [`Pipeline`] (spec digest §4.1), so the thread, the cards, the inspector and
//! the tests see AG-UI events whatever came over the network.
//!
//! The request's shape follows the configured [`Wire`]; the decoder follows the response: a
//! response marked as an AI SDK UI message stream ([`ai_sdk::HEADER`]) is read as one whatever
//! was asked for, anything else as AG-UI SSE (spec digest §1.4: clients must always be ready
//! for SSE).
//!
//! A protobuf response is read by a decoder the core does not make itself: the caller hands
//! it over ([`Decoder::with_front`], a [`WireFront`]), so the lean widget can keep the protobuf
//! binding ([`super::proto`]) in a module of its own, fetched when such a response comes.

#[cfg(feature = "ai-sdk")]
use super::ai_sdk::{self, AiSdkFront};
use super::pipeline::{Delivered, Pipeline, PipelineOptions};
use super::reducer::Thread;
use super::types::ResumeEntry;
use serde_json::Value;

pub use super::front::{Wire, WireFront, AI_SDK_HEADER};

// The rest of `Wire`: what it knows of a response asks the decoders, which build on
// `front.rs`, so it lives here, above them.
impl Wire {
    /// The wire of a response, from its `content-type` and the AI SDK's header: the protobuf
    /// media type exactly (spec digest §1.4), the AI SDK's header, else AG-UI SSE.
    pub fn of_response(content_type: Option<&str>, ai_sdk_header: Option<&str>) -> Wire {
        #[cfg(feature = "protobuf")]
        if super::proto::is_proto_response(content_type) {
            return Wire::Proto;
        }
        #[cfg(feature = "ai-sdk")]
        if ai_sdk::is_ai_sdk_response(content_type, ai_sdk_header) {
            return Wire::AiSdk;
        }
        let _ = (content_type, ai_sdk_header);
        Wire::AgUi
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
    #[cfg(feature = "ai-sdk")]
    AiSdk(Box<AiSdkFront>),
    /// One handed over (protobuf's).
    Other(Box<dyn WireFront>),
}

impl Decoder {
    /// The decoder the core has for `wire`: the AI SDK's (its runs are named
    /// `thread_id`/`run_id`: its stream carries neither), else AG-UI SSE — also for
    /// [`Wire::Proto`], whose decoder is handed over ([`Decoder::with_front`]).
    pub fn new(wire: Wire, options: &PipelineOptions, thread_id: &str, run_id: &str) -> Self {
        let _ = (options, thread_id, run_id);
        Decoder(match wire {
            #[cfg(feature = "ai-sdk")]
            Wire::AiSdk => Front::AiSdk(Box::new(AiSdkFront::new(options, thread_id, run_id))),
            _ => Front::AgUi,
        })
    }

    /// A decoder made outside the core (protobuf's).
    pub fn with_front(front: Box<dyn WireFront>) -> Self {
        Decoder(Front::Other(front))
    }

    pub fn wire(&self) -> Wire {
        match &self.0 {
            Front::AgUi => Wire::AgUi,
            #[cfg(feature = "ai-sdk")]
            Front::AiSdk(_) => Wire::AiSdk,
            Front::Other(f) => f.wire(),
        }
    }

    /// Fold response bytes (any split).
    pub fn push(&mut self, pipeline: &mut Pipeline, bytes: &[u8]) -> Vec<Delivered> {
        match &mut self.0 {
            Front::AgUi => pipeline.push_bytes(bytes),
            #[cfg(feature = "ai-sdk")]
            Front::AiSdk(f) => f.push_bytes(pipeline, bytes),
            Front::Other(f) => f.push_bytes(pipeline, bytes),
        }
    }

    /// The response ended (the truncation rule applies).
    pub fn finish(&mut self, pipeline: &mut Pipeline) -> Vec<Delivered> {
        match &mut self.0 {
            Front::AgUi => pipeline.finish(),
            #[cfg(feature = "ai-sdk")]
            Front::AiSdk(f) => f.finish(pipeline),
            Front::Other(f) => f.finish(pipeline),
        }
    }
}

/// The AI SDK's request for the next run of `thread` (chat `chat_id`), answering its open
/// approvals with `resume` (`None`: not answering), `regenerate` when it answers the last
/// user message again. `None` in a bundle without the `ai-sdk` feature (the session then
/// sends AG-UI's).
pub fn ai_sdk_request(
    chat_id: &str,
    thread: &mut Thread,
    resume: Option<&[ResumeEntry]>,
    regenerate: bool,
) -> Option<Value> {
    #[cfg(feature = "ai-sdk")]
    {
        let approvals = resume
            .map(|r| ai_sdk::approval_responses(thread.open_interrupts(), r))
            .unwrap_or_default();
        ai_sdk::record_approvals(thread, &approvals);
        Some(ai_sdk::request_body(
            chat_id,
            &thread.messages,
            if regenerate {
                ai_sdk::Trigger::RegenerateMessage
            } else {
                ai_sdk::Trigger::SubmitMessage
            },
            &approvals,
        ))
    }
    #[cfg(not(feature = "ai-sdk"))]
    {
        let _ = (chat_id, thread, resume, regenerate);
        None
    }
}

/// Where an AI SDK chat's in-flight stream is asked for again ([`ai_sdk::resume_url`]);
/// `None` without the `ai-sdk` feature.
pub fn ai_sdk_resume_url(endpoint: &str, chat_id: &str) -> Option<String> {
    #[cfg(feature = "ai-sdk")]
    return Some(ai_sdk::resume_url(endpoint, chat_id));
    #[cfg(not(feature = "ai-sdk"))]
    {
        let _ = (endpoint, chat_id);
        None
    }
}
