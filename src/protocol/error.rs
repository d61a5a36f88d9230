//! Errors and warnings of the protocol pipeline, as values.
//!
//! A [`ProtocolError`] fails the run (the stream broke the contract); a [`Warning`] records
//! unrecognised or unappliable material that was removed or skipped while the run went on
//! (spec digest §4.2, §4.6). Both carry enough context (event type, ids, JSON pointer) to be
//! shown to a person, not only logged.

use std::fmt;

use super::chunks::ChunkError;
use super::sse::SseError;
use super::state_patch::PatchError;
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
    /// An AI SDK UI message stream broke its contract ([`super::ai_sdk`]).
    #[error("{0}")]
    #[cfg(feature = "ai-sdk")]
    AiSdk(#[from] super::ai_sdk::AiSdkError),
    /// A protobuf response body broke its framing or held bytes that are no event
    /// ([`super::proto`]).
    #[cfg(feature = "protobuf")]
    #[error("{0}")]
    Proto(#[from] super::proto::ProtoError),
    /// The person stopped the run (Stop): it ends as cancelled, content kept.
    #[error("stopped by the user")]
    Stopped,
    /// The byte stream ended while a run was open: never a success (§1.1).
    #[error("stream ended without a terminal event (run {run_id} has no RUN_FINISHED or RUN_ERROR): connection lost")]
    Truncated { run_id: String },
}

/// What a [`Warning`] is about. Layers above the protocol decide by this, never by the
/// message (which is a technical English diagnostic for people).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// An event of a type this client does not know was dropped (§4.2).
    UnknownEvent,
    /// Unrecognised material was removed or an event dropped for it: a property, a union
    /// member, an enum value (§4.2). The pointer says where.
    Stripped,
    /// A legacy `null` was read as absent.
    LegacyNull,
    /// A retired or legacy form was translated, or material was adapted for an older peer
    /// (THINKING_*, content flattened, events a pinned old peer cannot know).
    Translated,
    /// A lone UTF-16 surrogate escape was replaced with U+FFFD.
    LoneSurrogate,
    /// The producer declares a protocol version this client cannot honour exactly.
    ProtocolVersion,
    /// A `STATE_DELTA` could not be applied; the state is unchanged (§4.6).
    StatePatch(PatchError),
    /// An `ACTIVITY_DELTA` could not be applied; the content is unchanged.
    ActivityPatch(PatchError),
    /// The event names a message, tool call or entity the thread does not hold, or one of
    /// another kind (an activity message): ignored. The id.
    UnknownTarget(String),
    /// A tool call started again under another name: the new name is kept.
    ToolRenamed(String),
    /// A `parentMessageId` that is not an assistant message: the call got its own message.
    BadParent(String),
    /// A chunk event reached the reducer unexpanded: ignored.
    Unexpanded,
    /// A budget that agent data controls was reached (how many subagents a thread keeps, how
    /// deep they nest): the material past it was dropped or flattened.
    OverBudget,
}

/// The longest warning text kept (characters).
pub const MAX_WARNING_CHARS: usize = 500;

/// A non-fatal diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub kind: WarningKind,
    /// The wire type of the event it concerns, if any.
    pub event_type: Option<String>,
    /// JSON pointer inside that event, if it concerns one value.
    pub path: Option<String>,
    pub message: String,
}

impl Warning {
    pub fn new(
        kind: WarningKind,
        event_type: Option<&str>,
        path: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        let mut message = message.into();
        // The text may quote agent data (an id, a value): one preview limit for it.
        if let Some((i, _)) = message.char_indices().nth(MAX_WARNING_CHARS) {
            message.truncate(i);
            message.push('…');
        }
        Warning {
            kind,
            event_type: event_type.map(str::to_owned),
            path,
            message,
        }
    }

    /// A failed `STATE_DELTA`: the state panel says so.
    pub fn is_state_patch(&self) -> bool {
        matches!(self.kind, WarningKind::StatePatch(_))
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
