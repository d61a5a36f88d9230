//! Conversation history kept in the browser: **branches** (regenerate an answer, edit an
//! earlier user message) and the **saved form** of a conversation (one record per thread plus an
//! index). Pure: no web-sys or leptos, so all of it is tested natively (`tests/session/branches.rs`).
//!
//! ## Branches
//!
//! AG-UI has no notion of branches: a run is "the full history, the last agreed state, a new
//! `runId`" (spec digest §1.2). So branches live entirely on the client and work against any
//! server. A [`Fork`] is keyed by the id of the message *before* the fork point (its anchor;
//! `None` = the start of the conversation) and holds the alternative **tails** after it — each
//! a [`Variant`]: the messages, the state at the end of that tail, and how its last run ended.
//!
//! - Regenerate: the tail after the last user message becomes a variant, the anchor is that
//!   user message, and a new run (same user message id — LangGraph forks from its checkpoint
//!   when it sees a known id, §7.1) produces the next variant.
//! - Edit: the tail from the edited user message on becomes a variant, the anchor is the
//!   message before it, and the edited text goes out as a **new** message id (a reused id is
//!   dropped by the LangGraph adapter, §7.1).
//! - Switching saves the visible tail into its slot and restores the chosen one.
//!
//! The variant on screen lives in the thread itself: its slot in [`Fork::variants`] is empty
//! (nothing is stored twice). Forks nest naturally: a fork whose anchor sits inside a stored
//! tail is simply not visible until that tail is restored, and its own current slot is then
//! live again with it.
//!
//! Each run remembers the state it started from ([`Branches::note_run_start`]), keyed by the
//! user message that triggered it, so a regenerated or edited run starts from the state the
//! original one had — not from the state the tail being replaced ended with.
//!
//! ## Saved form
//!
//! [`ThreadRecord`] is one conversation (stored under `{prefix}:thread:{id}`), [`ThreadIndex`]
//! the list and the active thread (`{prefix}:index`). Both carry a format [`VERSION`];
//! [`parse_record`] and [`parse_index`] turn anything else into a typed error, never a panic.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::reducer::{SavedRun, SavedThread};
use crate::protocol::types::{Message, Role};

/// The storage format version written by this client.
pub const VERSION: u32 = 1;

/// Longest automatic title, in characters (an ellipsis is added when cut).
pub const TITLE_CHARS: usize = 48;

/// The title of a conversation without a user message yet.
pub const UNTITLED: &str = "New conversation";

// ---- branches ----------------------------------------------------------------------------

/// One alternative tail after a fork point.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    pub messages: Vec<Message>,
    /// The state at the end of this tail.
    #[serde(default)]
    pub state: Value,
    /// How the last run of this tail ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run: Option<SavedRun>,
}

/// The alternatives after one message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fork {
    /// Id of the message before the fork point; `None` = the start of the conversation.
    #[serde(default)]
    pub anchor: Option<String>,
    /// Every tail, oldest first. The slot of [`Fork::current`] is empty: the thread holds it.
    pub variants: Vec<Variant>,
    /// The variant on screen.
    pub current: usize,
}

/// What a switcher shows (`current + 1` / `total`) and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switcher {
    pub anchor: Option<String>,
    /// The message the switcher sits on: the first message of the visible tail (the anchor
    /// itself while that tail is still empty).
    pub message_id: String,
    pub current: usize,
    pub total: usize,
}

/// Why a branch operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BranchError {
    #[error("a run is in progress")]
    Running,
    #[error("{0} open interrupt(s) must be answered first")]
    InterruptsOpen(usize),
    #[error("{0} tool call(s) are still waiting for a result")]
    ToolCallsPending(usize),
    #[error("message '{0}' is not in the conversation")]
    UnknownMessage(String),
    #[error("there is nothing after the fork point to keep")]
    EmptyTail,
    #[error("no branches after {}", anchor_name(.0))]
    NoFork(Option<String>),
    #[error("there is no variant {index} (of {len})")]
    NoVariant { index: usize, len: usize },
}

fn anchor_name(anchor: &Option<String>) -> String {
    match anchor {
        Some(id) => format!("message '{id}'"),
        None => "the start".to_owned(),
    }
}

/// Every fork of one conversation, and the state each run started from.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Branches {
    #[serde(default)]
    pub forks: Vec<Fork>,
    /// User message id → the state the run it triggered started from.
    #[serde(default)]
    pub bases: BTreeMap<String, Value>,
}

/// Where the tail after `anchor` starts (the first occurrence of the id counts).
pub fn tail_start(messages: &[Message], anchor: Option<&str>) -> Result<usize, BranchError> {
    match anchor {
        None => Ok(0),
        Some(id) => messages
            .iter()
            .position(|m| m.id == id)
            .map(|i| i + 1)
            .ok_or_else(|| BranchError::UnknownMessage(id.to_owned())),
    }
}

/// A conversation can branch only when nothing is waiting: no run in flight, no open
/// interrupt, no frontend tool call without a result (a stored tail must never carry those).
pub fn check_settled(thread: &SavedThread) -> Result<(), BranchError> {
    let Some(run) = &thread.last_run else {
        return Ok(());
    };
    if run.status == "running" {
        return Err(BranchError::Running);
    }
    if !run.interrupts.is_empty() {
        return Err(BranchError::InterruptsOpen(run.interrupts.len()));
    }
    if !run.pending_tool_calls.is_empty() {
        return Err(BranchError::ToolCallsPending(run.pending_tool_calls.len()));
    }
    Ok(())
}

impl Branches {
    fn fork_index(&self, anchor: Option<&str>) -> Option<usize> {
        self.forks
            .iter()
            .position(|f| f.anchor.as_deref() == anchor)
    }

    /// The fork after `anchor`, if there is one.
    pub fn fork(&self, anchor: Option<&str>) -> Option<&Fork> {
        self.fork_index(anchor).and_then(|i| self.forks.get(i))
    }

    /// Keep the tail of `current` after `anchor` as a variant and open a new, empty one.
    /// Returns the conversation cut at the fork point, with `start_state` as its state and no
    /// last run: the caller appends what starts the new variant (an edited message) and runs.
    pub fn branch(
        &mut self,
        current: SavedThread,
        anchor: Option<&str>,
        start_state: Value,
    ) -> Result<SavedThread, BranchError> {
        check_settled(&current)?;
        let at = tail_start(&current.messages, anchor)?;
        let mut messages = current.messages;
        let tail = messages.split_off(at);
        if tail.is_empty() {
            return Err(BranchError::EmptyTail);
        }
        let kept = Variant {
            messages: tail,
            state: current.state,
            last_run: current.last_run,
        };
        match self.fork_index(anchor).and_then(|i| self.forks.get_mut(i)) {
            Some(fork) => {
                match fork.variants.get_mut(fork.current) {
                    Some(slot) => *slot = kept,
                    // A damaged record: keep the tail rather than lose it.
                    None => fork.variants.push(kept),
                }
                fork.variants.push(Variant::default());
                fork.current = fork.variants.len() - 1;
            }
            None => self.forks.push(Fork {
                anchor: anchor.map(str::to_owned),
                variants: vec![kept, Variant::default()],
                current: 1,
            }),
        }
        Ok(SavedThread {
            messages,
            state: start_state,
            last_run: None,
            subagents: current.subagents,
        })
    }

    /// Show variant `to` of the fork after `anchor`: the visible tail goes back into its slot
    /// and the chosen one replaces it (messages, end state, last run).
    pub fn switch(
        &mut self,
        current: SavedThread,
        anchor: Option<&str>,
        to: usize,
    ) -> Result<SavedThread, BranchError> {
        check_settled(&current)?;
        let fi = self
            .fork_index(anchor)
            .ok_or_else(|| BranchError::NoFork(anchor.map(str::to_owned)))?;
        let at = tail_start(&current.messages, anchor)?;
        let Some(fork) = self.forks.get_mut(fi) else {
            return Err(BranchError::NoFork(anchor.map(str::to_owned)));
        };
        let len = fork.variants.len();
        if to >= len {
            return Err(BranchError::NoVariant { index: to, len });
        }
        if to == fork.current {
            return Ok(current);
        }
        let mut messages = current.messages;
        let tail = messages.split_off(at);
        let visible = Variant {
            messages: tail,
            state: current.state,
            last_run: current.last_run,
        };
        match fork.variants.get_mut(fork.current) {
            Some(slot) => *slot = visible,
            None => fork.variants.push(visible),
        }
        let chosen = fork
            .variants
            .get_mut(to)
            .map(std::mem::take)
            .unwrap_or_default();
        fork.current = to;
        messages.extend(chosen.messages);
        Ok(SavedThread {
            messages,
            state: chosen.state,
            last_run: chosen.last_run,
            subagents: current.subagents,
        })
    }

    /// The switchers of the forks visible in `messages` (their anchor is on screen).
    pub fn switchers(&self, messages: &[Message]) -> Vec<Switcher> {
        if self.forks.is_empty() {
            return Vec::new();
        }
        let mut first: HashMap<&str, usize> = HashMap::with_capacity(messages.len());
        for (i, m) in messages.iter().enumerate() {
            first.entry(m.id.as_str()).or_insert(i);
        }
        self.forks
            .iter()
            .filter_map(|f| {
                let at = match &f.anchor {
                    None => 0,
                    Some(id) => first.get(id.as_str())? + 1,
                };
                // Tool results render inside their call's card, so the first other message
                // carries the switcher.
                let shown = messages
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .find(|m| m.role != Role::Tool)
                    .map(|m| m.id.clone())
                    .or_else(|| f.anchor.clone())?;
                Some(Switcher {
                    anchor: f.anchor.clone(),
                    message_id: shown,
                    current: f.current,
                    total: f.variants.len(),
                })
            })
            .collect()
    }

    /// A run is starting on `messages` with `state`: when it answers a user message, remember
    /// the state, so regenerating or editing that message later starts from it again.
    pub fn note_run_start(&mut self, messages: &[Message], state: &Value) {
        if let Some(last) = messages.last().filter(|m| m.role == Role::User) {
            self.bases.insert(last.id.clone(), state.clone());
        }
    }

    /// The state the run after this user message started from.
    pub fn base_state(&self, user_message_id: &str) -> Option<&Value> {
        self.bases.get(user_message_id)
    }

    /// Drop forks and remembered states that can no longer be reached from `live` (the
    /// messages on screen) — e.g. after a `MESSAGES_SNAPSHOT` re-keyed the anchor.
    pub fn prune(&mut self, live: &[Message]) {
        let mut reachable: HashSet<String> = live.iter().map(|m| m.id.clone()).collect();
        let mut kept = vec![false; self.forks.len()];
        loop {
            let mut grew = false;
            for (i, f) in self.forks.iter().enumerate() {
                if kept[i] || !f.anchor.as_ref().is_none_or(|a| reachable.contains(a)) {
                    continue;
                }
                kept[i] = true;
                grew = true;
                for v in &f.variants {
                    reachable.extend(v.messages.iter().map(|m| m.id.clone()));
                }
            }
            if !grew {
                break;
            }
        }
        let mut i = 0;
        self.forks.retain(|_| {
            i += 1;
            kept[i - 1]
        });
        self.bases.retain(|id, _| reachable.contains(id));
    }
}

// ---- saved form --------------------------------------------------------------------------

/// One conversation as stored (`{prefix}:thread:{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadRecord {
    pub version: u32,
    pub id: String,
    /// Set when the person renamed the thread; otherwise the title is derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Milliseconds since the epoch.
    #[serde(default)]
    pub created_at: f64,
    /// Last activity (a run, an edit), milliseconds since the epoch.
    #[serde(default)]
    pub updated_at: f64,
    pub thread: SavedThread,
    #[serde(default)]
    pub branches: Branches,
    /// A trace was replayed into it: it is a recording, never a live conversation — no
    /// frontend tool handler runs for it and nothing continues it by itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
    /// Messages the person wrote while a run was live, not sent yet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queued: Vec<Message>,
    /// When each message arrived (milliseconds since the epoch, by message id): what the
    /// transcript shows as its time when the message carries none of its own.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub times: std::collections::BTreeMap<String, f64>,
}

impl ThreadRecord {
    /// An empty conversation.
    pub fn empty(id: String, now: f64) -> Self {
        ThreadRecord {
            version: VERSION,
            id,
            title: None,
            created_at: now,
            updated_at: now,
            thread: SavedThread {
                messages: Vec::new(),
                state: Value::Object(Default::default()),
                last_run: None,
                subagents: Vec::new(),
            },
            branches: Branches::default(),
            replayed: false,
            queued: Vec::new(),
            times: Default::default(),
        }
    }

    /// The title shown in the thread list.
    pub fn display_title(&self) -> String {
        display_title(self.title.as_deref(), &self.thread.messages)
    }

    /// Worth keeping: it has messages, or the person named it.
    pub fn worth_saving(&self) -> bool {
        !self.thread.messages.is_empty() || self.title.is_some()
    }
}

/// One line of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexEntry {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub updated_at: f64,
}

/// The list of threads and the one that was open (`{prefix}:index`). The thread keys are the
/// truth about which threads exist (a thread saved before a failed index write still loads);
/// the index says which one to reopen.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadIndex {
    pub version: u32,
    #[serde(default)]
    pub active: Option<String>,
    #[serde(default)]
    pub threads: Vec<IndexEntry>,
}

/// Why a stored value could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    #[error("not valid saved data: {0}")]
    Json(String),
    #[error("saved by an unknown format version {0}")]
    Version(u32),
    #[error("saved under id '{found}' but stored as '{expected}'")]
    IdMismatch { expected: String, found: String },
}

/// Read a thread record stored under the key of thread `id`.
pub fn parse_record(id: &str, text: &str) -> Result<ThreadRecord, RecordError> {
    let record: ThreadRecord =
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))?;
    if record.version != VERSION {
        return Err(RecordError::Version(record.version));
    }
    if record.id != id {
        return Err(RecordError::IdMismatch {
            expected: id.to_owned(),
            found: record.id,
        });
    }
    Ok(record)
}

/// Read the index.
pub fn parse_index(text: &str) -> Result<ThreadIndex, RecordError> {
    let index: ThreadIndex =
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))?;
    if index.version != VERSION {
        return Err(RecordError::Version(index.version));
    }
    Ok(index)
}

/// A custom title, else the first user message (whitespace collapsed, cut at
/// [`TITLE_CHARS`]), else [`UNTITLED`].
pub fn display_title(custom: Option<&str>, messages: &[Message]) -> String {
    if let Some(t) = custom.map(str::trim).filter(|t| !t.is_empty()) {
        return t.to_owned();
    }
    let text = messages
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.text().split_whitespace().collect::<Vec<_>>().join(" "))
        .find(|t| !t.is_empty());
    let Some(text) = text else {
        return UNTITLED.to_owned();
    };
    if text.chars().count() <= TITLE_CHARS {
        return text;
    }
    let cut: String = text.chars().take(TITLE_CHARS).collect();
    format!("{}…", cut.trim_end())
}

/// The thread list order: newest activity first, ties by id (so the order is stable).
/// Arguments are `(updated_at, id)`.
pub fn by_activity(a: (f64, &str), b: (f64, &str)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1))
}

/// Sort index entries in the thread list order ([`by_activity`]).
pub fn sort_by_activity(entries: &mut [IndexEntry]) {
    entries.sort_by(|a, b| by_activity((a.updated_at, &a.id), (b.updated_at, &b.id)));
}
