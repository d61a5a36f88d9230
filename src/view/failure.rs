//! Why things went wrong, as values: a run's failure ([`RunFailure`]), the entries of the
//! warnings list ([`Notice`]) and a transport's failure ([`TransportError`]). Worded for
//! people by `crate::wording` in the language on screen, so a locale switch re-words a
//! banner already shown; what they carry from the agent or the browser stays as it came.

use crate::protocol::error::Malformed;
use crate::protocol::{ProtocolError, Warning};

/// Why a run's transport ended badly. Spec digest §1.2–1.4.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    #[error("HTTP {status}: {body}")]
    Status { status: u16, body: String },
    #[error("the agent answered with content type {0:?}, not text/event-stream")]
    NotSse(String),
    #[error("network error: {0}")]
    Network(String),
    #[error("network error: response has no body")]
    NoBody,
    #[error("stopped")]
    Aborted,
    /// The endpoint answered with a redirect, which is not followed unless the page says so
    /// (`redirects="follow"`): the page's headers would go wherever it points.
    #[error("the endpoint redirected the request; redirects are not followed")]
    Redirected,
    /// The decoder the response needs could not be loaded (the lean widget fetches the
    /// protobuf binding's as a module of its own): the response was not read.
    #[error("the decoder of the response could not be loaded")]
    DecoderUnavailable,
    /// The page's headers function ([`HeaderSource`](crate::session::HeaderSource)) failed or
    /// did not settle in time: nothing was sent.
    #[error("the page's headers for the request could not be had: {0}")]
    Headers(String),
    /// The endpoint is not one the page allows: not http(s), or outside `allowed-endpoints`.
    #[error("the endpoint {endpoint:?} is refused: {reason:?}")]
    Refused {
        endpoint: String,
        reason: EndpointRefusal,
    },
}

/// How much of an error response's body is read (its start is shown with the status).
pub const ERROR_BODY_BYTES: usize = 4096;

/// The text shown for an error response's first bytes: at most 2,000 characters, cut on a
/// character (a partial UTF-8 sequence at the cut is dropped, not shown as garbage).
pub fn error_body(bytes: &[u8]) -> String {
    let bytes = &bytes[..bytes.len().min(ERROR_BODY_BYTES)];
    String::from_utf8_lossy(bytes)
        .trim_end_matches('\u{fffd}')
        .chars()
        .take(2000)
        .collect()
}

/// Why a run's endpoint was refused before anything was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointRefusal {
    /// Not an http(s) URL (`data:`, `javascript:`, `blob:`…) or not a URL at all.
    Scheme,
    /// Outside the page's `allowed-endpoints`.
    NotAllowed,
}

/// Why the last run ended badly.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunFailure {
    /// The agent's `RUN_ERROR`: its message and code, as sent.
    Agent {
        message: String,
        code: Option<String>,
    },
    /// The stream broke the protocol (the pipeline's error; its diagnostic stays English).
    Protocol(ProtocolError),
    /// The transport failed (HTTP status, content type, network).
    Transport(TransportError),
    /// The request could not be built: the input broke the schema.
    Request(Malformed),
    /// The stream ended before the run finished.
    ConnectionLost,
    /// The chat has neither an endpoint nor a local agent.
    NoAgent,
    /// The run failed before this session (restored from storage); the saved reason.
    Earlier(String),
}

/// One entry of the warnings list.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Notice {
    /// A protocol warning (what the pipeline stripped, skipped or could not apply), typed:
    /// [`crate::protocol::WarningKind`] says what it is, its message stays English.
    Protocol(Warning),
    /// Storage is unavailable (the browser's reason).
    StorageUnavailable(String),
    /// A saved conversation could not be read: its storage key and the browser's reason.
    RecordUnreadable { key: String, reason: String },
    /// A saved conversation was skipped as unreadable; where its data was kept, if moved.
    RecordSkipped {
        reason: String,
        kept_under: Option<String>,
    },
    /// The saved list of conversations was unreadable and rebuilt.
    IndexUnreadable(String),
    /// The saved list of conversations could not be read (the browser's reason).
    IndexReadFailed(String),
    /// A conversation could not be saved: its title (`None`: the automatic one) and why.
    SaveFailed {
        title: Option<String>,
        reason: String,
    },
    /// The list of conversations could not be saved (the browser's reason).
    IndexSaveFailed(String),
    /// A conversation is larger than the widget's whole storage budget (bytes): not saved,
    /// the last copy that fitted stays. Its title (`None`: the automatic one).
    TooLargeToSave {
        title: Option<String>,
        budget: usize,
    },
    /// An old conversation was removed from storage (and the list) to make room within the
    /// budget. Its title (`None`: the automatic one) and id.
    Evicted { title: Option<String>, id: String },
    /// A saved conversation could not be deleted (the browser's reason).
    DeleteFailed(String),
    /// A widget option could not be used (which one and why: technical).
    WidgetOption(String),
    /// More protocol warnings than the thread keeps: how many were only counted.
    Omitted(usize),
}

impl Notice {
    /// A failed `STATE_DELTA` (the state panel shows it).
    pub fn is_state_patch(&self) -> bool {
        matches!(self, Notice::Protocol(w) if w.is_state_patch())
    }
}
