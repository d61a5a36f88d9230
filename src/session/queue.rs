//! Messages written while a run is live wait in a queue (issue 13 item 3): the person keeps
//! typing, each message shows as pending (editable, removable) and goes out when the agent is
//! free.
//!
//! - [`Session::send`] queues instead of refusing while a run is in flight (unless the page
//!   turned it off, [`AgentConfig::queue`](crate::session::AgentConfig::queue)), up to [`MAX_QUEUED`] messages.
//! - [`Session::next_queued`] is asked when a run ends: the first message goes out only after a
//!   run that **succeeded with nothing left to answer** — an open interrupt or a frontend tool
//!   call waiting for a result blocks the queue until it is answered (the answer's run ends
//!   and the queue moves on; spec digest §4.11: the run after an interrupt must answer it),
//!   and a stopped, failed or cut-off run keeps the queue for the person to send
//!   ([`Session::send_queued`]) or drop. One message per run, in order: each gets its answer.
//! - The queue belongs to its conversation: it is saved with it (a reload mid-run keeps what
//!   was typed) and parked with it.

use crate::protocol::types::{Content, ContentPart, Message, Role};
use crate::protocol::RunStatus;

use super::{RunRequest, Session};

/// At most this many messages wait (a person does not type more ahead; a script that sends in
/// a loop is held here).
pub const MAX_QUEUED: usize = 20;

/// A saved queue, held to [`MAX_QUEUED`] messages of the person's own: storage is shared with
/// the page's own scripts, and only [`Role::User`] messages are ever queued, so anything else
/// found there is dropped (it would go out as if the assistant, a tool or the system said it).
pub(super) fn bounded(mut queued: Vec<Message>) -> Vec<Message> {
    queued.retain(|m| m.role == Role::User);
    queued.truncate(MAX_QUEUED);
    queued
}

/// Where a message offered with [`Session::offer`] went.
#[derive(Debug)]
pub enum Offered {
    /// Appended to the conversation: its run, or `None` when that could not start (the
    /// failure is recorded and shown, as for the composer).
    /// (Boxed: a request is large, and the other answers carry nothing.)
    Sent(Option<Box<RunRequest>>),
    /// Waiting in the queue for the run in flight (it goes out as the composer's would).
    Queued,
    /// Not taken, nothing changed: it is empty, an interrupt is open (it must be answered
    /// first, §4.11), or a run is in flight and the queue is off or full.
    Refused,
}

impl Session {
    /// [`Session::send`] for a message the person did not type (an MCP App's `ui/message`
    /// they chose to send): says whether it was sent, queued or refused, so whoever asked
    /// can be told.
    pub fn offer(&mut self, text: &str) -> Offered {
        if text.trim().is_empty() {
            return Offered::Refused;
        }
        if self.running() {
            if !self.can_queue() {
                return Offered::Refused;
            }
            let _ = self.send(text);
            return Offered::Queued;
        }
        if !self.thread().open_interrupts().is_empty() {
            return Offered::Refused;
        }
        Offered::Sent(self.send(text).map(Box::new))
    }

    /// The messages waiting for the agent, in the order they go out.
    pub fn queued(&self) -> &[Message] {
        &self.threads.queued
    }

    /// Room for one more queued message.
    pub fn can_queue(&self) -> bool {
        self.config.queue && self.threads.queued.len() < MAX_QUEUED
    }

    /// Queue `message` (a run is in flight). `false` when the queue is off or full.
    pub(super) fn enqueue(&mut self, message: Message) -> bool {
        if !self.can_queue() {
            return false;
        }
        self.threads.queued.push(message);
        self.queue_changed();
        true
    }

    /// Change a queued message's text (its attachments stay). An empty text with nothing
    /// attached removes it. `false` for an unknown id.
    pub fn edit_queued(&mut self, id: &str, text: &str) -> bool {
        let Some(i) = self.threads.queued.iter().position(|m| m.id == id) else {
            return false;
        };
        let text = text.trim();
        let Some(m) = self.threads.queued.get_mut(i) else {
            return false;
        };
        match &mut m.content {
            Some(Content::Parts(parts)) => {
                set_text(parts, text);
                if parts.is_empty() {
                    self.threads.queued.remove(i);
                }
            }
            _ if text.is_empty() => {
                self.threads.queued.remove(i);
            }
            content => *content = Some(Content::Text(text.to_owned())),
        }
        self.queue_changed();
        true
    }

    /// Drop a queued message. `false` for an unknown id.
    pub fn remove_queued(&mut self, id: &str) -> bool {
        let before = self.threads.queued.len();
        self.threads.queued.retain(|m| m.id != id);
        let removed = self.threads.queued.len() != before;
        if removed {
            self.queue_changed();
        }
        removed
    }

    /// Send a queued message now (the person asked): refused, like [`Session::send`], while a
    /// run is in flight or interrupts are open.
    pub fn send_queued(&mut self, id: &str) -> Option<RunRequest> {
        if !self.can_start() {
            return None;
        }
        let i = self.threads.queued.iter().position(|m| m.id == id)?;
        let message = self.threads.queued.remove(i);
        self.queue_changed();
        self.send_message(message)
    }

    /// The first queued message's run, when the agent is free for it: no run in flight, the
    /// last one succeeded, nothing waits for an answer, no automatic run is held. The shell
    /// asks after every run end.
    pub fn next_queued(&mut self) -> Option<RunRequest> {
        if self.running || self.threads.queued.is_empty() || self.run_held() {
            return None;
        }
        let thread = &self.pipeline.thread;
        let free = matches!(thread.status(), RunStatus::Success { pending } if pending.is_empty())
            && thread.open_interrupts().is_empty()
            && self.pending_frontend_calls().is_empty();
        if !free {
            return None;
        }
        let first = self.threads.queued.first()?.id.clone();
        self.send_queued(&first)
    }

    fn queue_changed(&mut self) {
        self.dirty.queue = true;
        self.save(false);
    }
}

/// The text of a message with parts: the first text part's, or a new one in front; an empty
/// text removes the text parts.
fn set_text(parts: &mut Vec<ContentPart>, text: &str) {
    parts.retain(|p| !matches!(p, ContentPart::Text { .. }));
    if !text.is_empty() {
        parts.insert(
            0,
            ContentPart::Text {
                text: text.to_owned(),
                id: None,
                metadata: None,
            },
        );
    }
}
