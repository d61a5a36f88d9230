//! Errors and warnings of the protocol pipeline, as values.
//!
//! A [`ProtocolError`] fails the run (the stream broke the contract); a [`Warning`] records
//! unrecognised or unappliable material that was removed or skipped while the run went on
//! (spec digest §4.2, §4.6). Both carry enough context (event type, ids, JSON pointer) to be
//! shown to a person, not only logged.

use std::fmt;

use super::chunks::ChunkError;
use super::sse::SseError;
use super::verify::VerifyError;

/// A known field whose value the schema rejects (§4.2): fatal, never coerced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{event_type} {path}: {problem}")]
pub struct Malformed {
    /// The wire `type` of the event (or `RunAgentInput` for outgoing input).
    pub event_type: String,
    /// JSON pointer of the offending value inside the event.
    pub path: String,
    /// What was wrong, e.g. `expected string, received number`.
    pub problem: String,
}

/// Why a run was failed by the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    #[error("transport: {0}")]
    Sse(#[from] SseError),
    #[error("invalid JSON in SSE data at stream byte {offset}: {message}")]
    InvalidJson { offset: u64, message: String },
    #[error("invalid event: {0}")]
    NotAnEvent(String),
    #[error("malformed event: {0}")]
    Malformed(#[from] Malformed),
    #[error("{0}")]
    Chunk(#[from] ChunkError),
    #[error("{0}")]
    Verify(#[from] VerifyError),
    /// The person stopped the run (Stop): it ends as cancelled, content kept.
    #[error("stopped by the user")]
    Stopped,
    /// The byte stream ended while a run was open: never a success (§1.1).
    #[error("stream ended without a terminal event (run {run_id} has no RUN_FINISHED or RUN_ERROR): connection lost")]
    Truncated { run_id: String },
}

/// A non-fatal diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The wire type of the event it concerns, if any.
    pub event_type: Option<String>,
    /// JSON pointer inside that event, if it concerns one value.
    pub path: Option<String>,
    pub message: String,
}

impl Warning {
    pub fn new(event_type: Option<&str>, path: Option<String>, message: impl Into<String>) -> Self {
        Warning {
            event_type: event_type.map(str::to_owned),
            path,
            message: message.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = &self.event_type {
            write!(f, "{t}")?;
            if let Some(p) = &self.path {
                write!(f, " {p}")?;
            }
            write!(f, ": ")?;
        } else if let Some(p) = &self.path {
            write!(f, "{p}: ")?;
        }
        write!(f, "{}", self.message)
    }
}
