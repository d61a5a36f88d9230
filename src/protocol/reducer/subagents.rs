//! Subagents (spec digest §2.3 "Subagents"): `SUBAGENT_STARTED` / `SUBAGENT_FINISHED` /
//! `SUBAGENT_ERROR`, kept per thread with their parent (subagent, tool call, message), name and
//! status, indexed by subagent run id so each event costs O(the event).
//!
//! Statuses are the spec's: running from `SUBAGENT_STARTED`; `SUBAGENT_FINISHED` without an
//! outcome or with `{type:"success"}` is finished, with `{type:"suspended", interruptIds?}` it
//! is suspended (paused, waiting on those interrupts — the only suspension signal the spec
//! has); `SUBAGENT_ERROR` is an error (it ends the invocation, not the run). A run that ends
//! while a subagent still runs (`RUN_ERROR`, a lost stream, Stop, a page closed mid-run) leaves
//! it in error with no message.
//!
//! Budgets (agent data controls both): a thread keeps at most [`MAX_SUBAGENTS`] — a later one
//! is refused with a warning, and its messages show as an unannounced subagent's — and nesting
//! is at most [`MAX_SUBAGENT_DEPTH`] levels: a subagent that would nest deeper is flattened to a
//! sibling of its parent ([`Subagent::nest_under`]), as Markdown flattens past its
//! `MAX_NESTING`. A subagent nests only under one registered before it, so the nesting is a
//! tree whatever ids the agent sends.

//!
//! The `SUBAGENT_*` handlers are in `run.rs`, with the run lifecycle that also ends them.

use serde::{Deserialize, Serialize};

use crate::protocol::id_map::IdMap;

/// The most subagents a thread keeps.
pub const MAX_SUBAGENTS: usize = 256;
/// The deepest nesting kept (1: a subagent of the main agent).
pub const MAX_SUBAGENT_DEPTH: usize = 4;

/// Where a subagent invocation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubagentStatus {
    #[default]
    Running,
    Finished,
    /// Paused on interrupts (`SUBAGENT_FINISHED` with a `suspended` outcome).
    Suspended,
    Error,
}

impl SubagentStatus {
    /// Short machine name (`running`, `finished`, `suspended`, `error`), the UI's `data-status`.
    pub fn name(self) -> &'static str {
        match self {
            SubagentStatus::Running => "running",
            SubagentStatus::Finished => "finished",
            SubagentStatus::Suspended => "suspended",
            SubagentStatus::Error => "error",
        }
    }
}

/// A subagent invocation as seen in the stream (and as saved with the conversation).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subagent {
    /// Its `subagentRunId`.
    pub id: String,
    /// The subagent's name (`SUBAGENT_STARTED.name`).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub status: SubagentStatus,
    /// `SUBAGENT_ERROR.message` (none when a run ended under it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The interrupts a suspended subagent waits on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interrupt_ids: Vec<String>,
    /// The subagent that started it, as the agent said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_subagent_run_id: Option<String>,
    /// The tool call that started it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_tool_call_id: Option<String>,
    /// The message that started it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
    /// The subagent it shows under: its parent, or past [`MAX_SUBAGENT_DEPTH`] its parent's
    /// (flattened); `None` under the main agent. Always one registered before it.
    #[serde(skip)]
    pub nest_under: Option<String>,
    /// Its nesting level as shown: 1 under the main agent, at most [`MAX_SUBAGENT_DEPTH`].
    #[serde(skip)]
    pub depth: usize,
}

/// The thread's subagents in start order, indexed by id.
#[derive(Debug, Clone, Default)]
pub struct Subagents {
    list: Vec<Subagent>,
    index: IdMap<usize>,
}

impl PartialEq for Subagents {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

impl Subagents {
    /// Every subagent, in start order.
    pub fn list(&self) -> &[Subagent] {
        &self.list
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The subagent with this run id.
    pub fn get(&self, id: &str) -> Option<&Subagent> {
        self.index.get(id).and_then(|i| self.list.get(*i))
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut Subagent> {
        let i = *self.index.get(id)?;
        self.list.get_mut(i)
    }

    /// Register `s` (a start): placed under its parent within the depth budget. A start of a
    /// known id (a new invocation with the same handle, in a later run) updates it in place
    /// and keeps where it shows. False: refused, over [`MAX_SUBAGENTS`].
    pub fn start(&mut self, mut s: Subagent) -> bool {
        if let Some(known) = self.get_mut(&s.id) {
            s.nest_under = known.nest_under.take();
            s.depth = known.depth;
            *known = s;
            return true;
        }
        if self.list.len() >= MAX_SUBAGENTS {
            return false;
        }
        let parent = s
            .parent_subagent_run_id
            .as_deref()
            .and_then(|p| self.get(p));
        (s.nest_under, s.depth) = match parent {
            None => (None, 1),
            Some(p) if p.depth < MAX_SUBAGENT_DEPTH => (Some(p.id.clone()), p.depth + 1),
            Some(p) => (p.nest_under.clone(), p.depth),
        };
        self.index.insert(s.id.clone(), self.list.len());
        self.list.push(s);
        true
    }

    /// Subagents saved with a conversation, placed again (the budgets hold for a save too). One
    /// that was running when the page went away was cut off: an error.
    pub fn restore(saved: Vec<Subagent>) -> Self {
        let mut all = Subagents::default();
        for mut s in saved {
            if s.status == SubagentStatus::Running {
                s.status = SubagentStatus::Error;
            }
            if !all.start(s) {
                break;
            }
        }
        all
    }

    /// The run ended under the running ones: they end in error (at most [`MAX_SUBAGENTS`]).
    pub(crate) fn abandon_running(&mut self) -> bool {
        let mut any = false;
        for s in &mut self.list {
            if s.status == SubagentStatus::Running {
                s.status = SubagentStatus::Error;
                any = true;
            }
        }
        any
    }
}
