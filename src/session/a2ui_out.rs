//! A2UI renderer→agent messages (`error`, `callAgentFunction`; A2UI v1.0
//! `renderer_to_agent.json`) waiting for the next run a person starts. The chat never starts a
//! run to deliver them: they ride along in that run's `forwardedProps` as
//! `{"a2uiMessages": [message, …]}` (the AG-UI binding names no place for them; this key sits
//! next to the binding's `a2uiAction`).
//!
//! Bounds (the agent controls what fails): a message over [`MAX_MESSAGE_BYTES`] is dropped, at
//! most [`MAX_PENDING`] wait, and a message equal to one already queued in this page's life is
//! never queued again — after [`MAX_REMEMBERED`] distinct messages nothing more is queued, so
//! none can go twice.
//!
//! It also remembers the `callAgentFunction`s sent (at most [`MAX_CALLS`], the oldest
//! forgotten), so an `agentFunctionResponse` is taken only as the answer to one of them, once.

use std::collections::{HashSet, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;

/// The `forwardedProps` key of the messages.
pub const KEY: &str = "a2uiMessages";
pub const MAX_PENDING: usize = 16;
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024;
pub const MAX_REMEMBERED: usize = 512;
pub const MAX_CALLS: usize = 16;

#[derive(Debug, Default)]
pub struct A2uiOutbox {
    pending: Vec<Value>,
    /// Fingerprints of every message queued so far.
    seen: HashSet<u64>,
    /// The `functionCallId`s of `callAgentFunction`s not answered yet.
    calls: VecDeque<String>,
}

impl A2uiOutbox {
    /// Queues `message` for the next run; `false` when it was dropped (seen before, too big,
    /// or no room).
    pub fn queue(&mut self, message: Value) -> bool {
        let text = message.to_string();
        if text.len() > MAX_MESSAGE_BYTES
            || self.pending.len() >= MAX_PENDING
            || self.seen.len() >= MAX_REMEMBERED
        {
            return false;
        }
        let mut h = DefaultHasher::new();
        text.hash(&mut h);
        if !self.seen.insert(h.finish()) {
            return false;
        }
        self.pending.push(message);
        true
    }

    pub fn pending(&self) -> &[Value] {
        &self.pending
    }

    /// Takes what waits, as the array to send.
    pub fn take(&mut self) -> Option<Value> {
        (!self.pending.is_empty()).then(|| Value::Array(std::mem::take(&mut self.pending)))
    }

    /// A `callAgentFunction` with this id went (or goes) to the agent.
    pub fn expect_call(&mut self, function_call_id: String) {
        if self.calls.len() >= MAX_CALLS {
            self.calls.pop_front();
        }
        self.calls.push_back(function_call_id);
    }

    /// Whether `function_call_id` answers a call still open (it is closed then).
    pub fn answer(&mut self, function_call_id: &str) -> bool {
        let Some(i) = self.calls.iter().position(|c| c == function_call_id) else {
            return false;
        };
        self.calls.remove(i);
        true
    }

    /// Another thread opened: what waits was about this one (what was sent stays sent).
    pub fn clear(&mut self) {
        self.pending.clear();
    }
}

/// `forwarded` with the waiting messages added to its own `a2uiMessages` (theirs first).
pub fn attach(forwarded: Option<Value>, waiting: Option<Value>) -> Option<Value> {
    let Some(Value::Array(mut waiting)) = waiting else {
        return forwarded;
    };
    let mut props = match forwarded {
        Some(Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    if let Some(Value::Array(own)) = props.remove(KEY) {
        waiting.extend(own);
    }
    props.insert(KEY.to_owned(), Value::Array(waiting));
    Some(Value::Object(props))
}
