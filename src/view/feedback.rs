//! Feedback on an answer (thumbs up or down, an optional comment): what the chat hands the
//! page — the `agui:feedback` event and the Rust callbacks of [`crate::plugins::Plugins`] —
//! never a backend of its own. AG-UI 1.0 carries no feedback event, so nothing goes to the
//! agent. Pure.

use serde_json::{json, Value};

/// The longest comment passed on (characters); the rest is cut.
pub const MAX_COMMENT_CHARS: usize = 2_000;

/// Thumbs up or down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rating {
    Up,
    Down,
}

impl Rating {
    /// `up` or `down` (the event's `rating`).
    pub fn name(self) -> &'static str {
        match self {
            Rating::Up => "up",
            Rating::Down => "down",
        }
    }
}

/// One person's feedback on one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Feedback {
    pub thread_id: String,
    pub message_id: String,
    pub rating: Rating,
    /// Trimmed, at most [`MAX_COMMENT_CHARS`]; `None` when empty.
    pub comment: Option<String>,
}

impl Feedback {
    pub fn new(thread_id: &str, message_id: &str, rating: Rating, comment: &str) -> Self {
        let comment = comment.trim();
        let comment = match comment.char_indices().nth(MAX_COMMENT_CHARS) {
            Some((i, _)) => &comment[..i],
            None => comment,
        };
        Feedback {
            thread_id: thread_id.to_owned(),
            message_id: message_id.to_owned(),
            rating,
            comment: (!comment.is_empty()).then(|| comment.to_owned()),
        }
    }

    /// The `agui:feedback` event's `detail`: `{threadId, messageId, rating, comment}`
    /// (`comment` is `null` without one).
    pub fn to_json(&self) -> Value {
        json!({
            "threadId": self.thread_id,
            "messageId": self.message_id,
            "rating": self.rating.name(),
            "comment": self.comment,
        })
    }
}
