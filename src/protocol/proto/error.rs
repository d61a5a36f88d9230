//! Why a protobuf frame or body was refused, as data. A leaf: the protocol's error hub
//! ([`ProtocolError::Proto`](crate::protocol::ProtocolError::Proto)) wraps [`ProtoError`], the
//! decoder's files return [`DecodeError`], and nothing here names either back.

/// Why a frame's bytes are not an `ag_ui.Event`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// Not protobuf: a truncated or overlong varint, a length past the end, field number 0, an
    /// invalid wire type, an unbalanced group.
    #[error("malformed {at}: {problem}")]
    Wire {
        at: &'static str,
        problem: &'static str,
    },
    /// A known field encoded with another wire type than its schema's.
    #[error("{at} field {field} has wire type {got}, expected {expected}")]
    WireType {
        at: &'static str,
        field: u32,
        got: u8,
        expected: u8,
    },
    #[error("JSON value nested deeper than {limit} levels")]
    TooDeep { limit: usize },
    /// The event would be larger than `limit` bytes written as JSON.
    #[error("the event decodes to more than {limit} bytes of JSON")]
    TooLarge { limit: usize },
    /// The envelope has no event this client knows, and nothing that reads as a newer one.
    #[error("the frame carries no event")]
    NoEvent,
    #[error("the frame carries two events (envelope fields {first} and {second})")]
    TwoEvents { first: u32, second: u32 },
    #[error("{event_type} without base_event")]
    NoBaseEvent { event_type: &'static str },
    #[error("the envelope carries {event_type} but base_event.type is {declared}")]
    TypeMismatch {
        event_type: &'static str,
        declared: i64,
    },
    /// A oneof (content part, source) with more than one arm set.
    #[error("{at} with more than one arm set")]
    TwoArms { at: &'static str },
    #[error("{event_type}: {problem}")]
    Contradiction {
        event_type: &'static str,
        problem: &'static str,
    },
}

/// Why a protobuf response body was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtoError {
    #[error("protobuf frame at stream byte {offset} declares {declared} bytes: with its 4-byte length more than the {limit}-byte limit")]
    FrameTooLarge {
        offset: u64,
        declared: u32,
        limit: usize,
    },
    #[error(
        "protobuf body ended mid-frame ({buffered} bytes of the frame at stream byte {offset})"
    )]
    EndedMidFrame { offset: u64, buffered: usize },
    #[error("undecodable protobuf frame at stream byte {offset}: {error}")]
    Decode { offset: u64, error: DecodeError },
}
