//! A local agent: an AG-UI producer that runs inside the page instead of behind an endpoint
//! (the offline demo is one). It answers a `RunAgentInput` with the real SSE bytes of a run,
//! cut into timed chunks; the browser plays them into the same decoder and pipeline as a
//! network body, so nothing downstream can tell the difference.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// One piece of a response body and how long to wait before delivering it.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedChunk {
    pub delay_ms: u32,
    pub bytes: Vec<u8>,
}

/// An agent that answers in the page.
pub trait LocalAgent: Send + Sync + 'static {
    /// The reply to one request: `input` is the `RunAgentInput` JSON exactly as it would be
    /// POSTed. Must not panic on any input.
    fn respond(&self, input: &Value) -> Vec<TimedChunk>;
}

/// A shared local agent, comparable by identity (so a configuration holding one stays
/// `PartialEq`).
#[derive(Clone)]
pub struct LocalAgentRef(pub Arc<dyn LocalAgent>);

impl LocalAgentRef {
    pub fn new(agent: impl LocalAgent) -> Self {
        LocalAgentRef(Arc::new(agent))
    }

    pub fn respond(&self, input: &Value) -> Vec<TimedChunk> {
        self.0.respond(input)
    }
}

impl PartialEq for LocalAgentRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for LocalAgentRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LocalAgent")
    }
}
