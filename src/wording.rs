//! Wording of the typed failures and notices (the session's, the transport's, the widget's):
//! they are values until shown, and worded here with the catalog of the locale in force, so a
//! locale switch re-words a banner or a warning already on screen.
//!
//! What is carried inside them as text stays as it came: the agent's own messages, the
//! browser's reasons, and the technical diagnostics of `src/protocol/` (JSON pointers, event
//! names), which are English.
//!
//! It words the session's errors (threads, branches, human in the loop) as well as the view's
//! failures and attachments, so it sits above the session in the layers
//! (`docs/dev/architecture.md`).

use std::fmt;

use crate::i18n::{fill, Strings, EN};
use crate::protocol::resume::ResumeError;
use crate::session::branches::BranchError;
use crate::session::hitl::HitlError;
use crate::session::threads::ThreadError;
use crate::view::failure::{EndpointRefusal, Notice, RunFailure, TransportError};
use crate::view::format::{format_bytes, format_count};

/// The banner text of a failed run.
pub fn run_failure(t: &Strings, f: &RunFailure) -> String {
    match f {
        RunFailure::Agent {
            message,
            code: Some(code),
        } => fill(t.error_agent_code, &[message, code]),
        RunFailure::Agent {
            message,
            code: None,
        } => fill(t.error_agent, &[message]),
        // The diagnostics inside are technical and stay English.
        RunFailure::Protocol(error) => fill(t.error_protocol, &[error]),
        RunFailure::Transport(e) => transport_error(t, e),
        RunFailure::Request(error) => fill(t.error_request, &[error]),
        RunFailure::ConnectionLost => t.error_connection_lost.to_owned(),
        RunFailure::NoAgent => t.error_no_agent.to_owned(),
        RunFailure::Earlier(error) => fill(t.error_earlier, &[error]),
    }
}

/// A transport failure.
pub fn transport_error(t: &Strings, e: &TransportError) -> String {
    match e {
        TransportError::Status { status, body } => fill(t.error_http, &[status, body]),
        TransportError::NotSse(content_type) => {
            fill(t.error_not_sse, &[&format!("{content_type:?}")])
        }
        TransportError::Network(message) => fill(t.error_network, &[message]),
        TransportError::NoBody => t.error_no_body.to_owned(),
        TransportError::Aborted => t.error_stopped.to_owned(),
        TransportError::Redirected => t.error_redirected.to_owned(),
        TransportError::DecoderUnavailable => t.lazy_failed.to_owned(),
        TransportError::Headers(reason) => fill(t.error_headers, &[reason]),
        TransportError::Refused { endpoint, reason } => fill(
            match reason {
                EndpointRefusal::Scheme => t.error_endpoint_scheme,
                EndpointRefusal::NotAllowed => t.error_endpoint_not_allowed,
            },
            &[&endpoint.chars().take(200).collect::<String>()],
        ),
    }
}

/// One entry of the warnings list.
pub fn notice(t: &Strings, n: &Notice) -> String {
    match n {
        // Protocol warnings (`src/protocol/`) are technical diagnostics with JSON pointers:
        // they stay English.
        Notice::Protocol(warning) => warning.to_string(),
        Notice::StorageUnavailable(reason) => fill(t.notice_storage_unavailable, &[reason]),
        Notice::RecordUnreadable { key, reason } => {
            fill(t.notice_record_unreadable, &[key, reason])
        }
        Notice::RecordSkipped { reason, kept_under } => {
            let mut text = fill(t.notice_record_skipped, &[reason]);
            if let Some(key) = kept_under {
                text.push_str(&fill(t.notice_record_kept, &[key]));
            }
            text
        }
        Notice::IndexUnreadable(reason) => fill(t.notice_index_unreadable, &[reason]),
        Notice::IndexReadFailed(reason) => fill(t.notice_index_read_failed, &[reason]),
        Notice::SaveFailed { title, reason } => {
            let title = title.as_deref().unwrap_or(t.thread_untitled);
            fill(t.notice_save_failed, &[&title, reason])
        }
        Notice::IndexSaveFailed(reason) => fill(t.notice_index_save_failed, &[reason]),
        Notice::TooLargeToSave { title, budget } => {
            let title = title.as_deref().unwrap_or(t.thread_untitled);
            fill(
                t.notice_too_large_to_save,
                &[&title, &format_bytes(*budget, t)],
            )
        }
        Notice::Evicted { title, .. } => {
            let title = title.as_deref().unwrap_or(t.thread_untitled);
            fill(t.notice_evicted, &[&title])
        }
        Notice::DeleteFailed(reason) => fill(t.notice_delete_failed, &[reason]),
        Notice::WidgetOption(problem) => fill(t.notice_widget_option, &[problem]),
        Notice::Omitted(n) => fill(t.notice_omitted, &[&format_count(*n, t)]),
    }
}

/// English, for logs, events to the host page and tests.
impl fmt::Display for RunFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&run_failure(&EN, self))
    }
}

/// English, for logs and tests.
impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&notice(&EN, self))
    }
}

/// Why a thread or branch action was refused.
pub fn thread_error(t: &Strings, e: &ThreadError) -> String {
    match e {
        ThreadError::Running => t.err_running_stop.to_owned(),
        ThreadError::UnknownThread(id) => fill(t.err_unknown_thread, &[id]),
        ThreadError::NotEditable => t.err_not_editable.to_owned(),
        ThreadError::EmptyText => t.err_empty_text.to_owned(),
        ThreadError::NothingToRegenerate => t.err_nothing_to_regenerate.to_owned(),
        ThreadError::Branch(e) => branch_error(t, e),
        ThreadError::Closed => t.err_closed.to_owned(),
    }
}

/// Why a branch operation was refused.
pub fn branch_error(t: &Strings, e: &BranchError) -> String {
    match e {
        BranchError::Running => t.err_running.to_owned(),
        BranchError::InterruptsOpen(n) => fill(t.err_interrupts_open, &[n]),
        BranchError::ToolCallsPending(n) => fill(t.err_tool_calls_waiting, &[n]),
        BranchError::UnknownMessage(id) => fill(t.err_unknown_message, &[id]),
        BranchError::EmptyTail => t.err_empty_tail.to_owned(),
        BranchError::NoFork(None) => t.err_no_fork_start.to_owned(),
        BranchError::NoFork(Some(id)) => fill(t.err_no_fork_after, &[id]),
        BranchError::NoVariant { index, len } => fill(t.err_no_variant, &[index, len]),
    }
}

/// Why a human-in-the-loop action was refused.
pub fn hitl_error(t: &Strings, e: &HitlError) -> String {
    match e {
        HitlError::Running => t.err_running.to_owned(),
        HitlError::Resume(e) => resume_error(t, e),
        HitlError::NotPending(id) => fill(t.err_tool_not_pending, &[id]),
        HitlError::ToolCallsPending(ids) => fill(t.err_answer_tool_calls_first, &[&ids.join(", ")]),
        HitlError::Closed => t.err_closed.to_owned(),
    }
}

/// Why an answer or a resume was refused (the protocol's [`ResumeError`], worded here: the
/// protocol layer knows no catalog).
pub fn resume_error(t: &Strings, e: &ResumeError) -> String {
    match e {
        ResumeError::Unknown(id) => fill(t.err_interrupt_unknown, &[id]),
        ResumeError::Expired(id) => fill(t.err_interrupt_expired, &[id]),
        ResumeError::Missing(id) => fill(t.err_interrupt_missing, &[id]),
        ResumeError::Duplicate(id) => fill(t.err_interrupt_duplicate, &[id]),
        ResumeError::NothingOpen => t.err_nothing_open.to_owned(),
    }
}

/// Why a file was not attached.
pub fn attach_error(t: &Strings, e: &crate::view::attachments::AttachError) -> String {
    use crate::view::attachments::AttachError as E;
    let bytes = |n: u64| format_bytes(usize::try_from(n).unwrap_or(usize::MAX), t);
    match e {
        E::NotAccepted { name, .. } => fill(t.attach_not_accepted, &[name]),
        E::FileTooLarge { name, size, max } => fill(
            t.attach_file_too_large,
            &[name, &bytes(*size), &bytes(*max)],
        ),
        E::MessageTooLarge { total, max } => {
            fill(t.attach_message_too_large, &[&bytes(*total), &bytes(*max)])
        }
        E::TooMany { max } => fill(t.attach_too_many, &[&format_count(*max, t)]),
        E::Empty { name } => fill(t.attach_empty, &[name]),
    }
}

/// What dictation says under the composer.
pub fn voice_note(t: &Strings, n: &crate::view::voice::VoiceNote) -> String {
    use crate::view::voice::VoiceNote as N;
    match n {
        N::Denied => t.voice_denied.to_owned(),
        N::NoMicrophone(reason) => fill(t.voice_no_microphone, &[reason]),
        N::NoHook => t.voice_no_hook.to_owned(),
        N::Failed(reason) => fill(t.voice_failed, &[reason]),
        N::TimedOut => t.voice_timeout.to_owned(),
        N::Empty => t.voice_empty.to_owned(),
        N::Cut(kept) => fill(t.voice_cut, &[&format_count(*kept, t)]),
    }
}
