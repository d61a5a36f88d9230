//! Why a UI message stream was refused, as data. A leaf: the protocol's error hub
//! ([`ProtocolError::AiSdk`](crate::protocol::ProtocolError::AiSdk)) wraps it, and nothing
//! here names the hub back.

/// Why a UI message stream was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AiSdkError {
    #[error("invalid JSON in a UI message stream chunk: {0}")]
    InvalidJson(String),
    #[error("not a UI message stream chunk: {0}")]
    NotAChunk(&'static str),
    #[error("malformed '{chunk_type}' chunk: `{field}` {problem}")]
    Malformed {
        chunk_type: String,
        field: &'static str,
        problem: &'static str,
    },
    /// A delta or end for a text/reasoning block or tool call that is not open.
    #[error("'{chunk_type}' for '{id}', which is not open")]
    NotOpen { chunk_type: String, id: String },
    #[error("more than {limit} parts in one UI message stream")]
    TooManyParts { limit: usize },
}
