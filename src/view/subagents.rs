//! Who is speaking: the transcript's rows grouped by subagent (spec digest §2.3 "Subagents").
//!
//! Rows that carry a `subagentRunId` (messages, the assistant messages holding tool calls,
//! reasoning, tool results) show inside a group named after their subagent; a subagent started
//! by another nests inside that one's group ([`Lineage`], at most
//! [`MAX_SUBAGENT_DEPTH`] levels, as the reducer placed it). Order is the transcript's: a run
//! of consecutive rows of one subagent is one group, so rows of the main agent or of another
//! subagent in between end it and a later row of the same subagent opens another group.
//! A subagent that was never announced (`SUBAGENT_STARTED` never came, or the thread's budget
//! refused it) is a group of its own under the main agent, named "Subagent".
//!
//! Cost: [`group_rows`] is one pass over the rows it is given (each row walks at most
//! [`MAX_SUBAGENT_DEPTH`] ancestors), the same order as the keyed list that renders them; it
//! runs when the rows or the [`Lineage`] change, never per text delta.

use std::collections::HashMap;

use crate::i18n::{fill, Strings};
use crate::protocol::reducer::{SubagentStatus, Subagents, MAX_SUBAGENT_DEPTH};
use crate::view::rows::Row;

/// The longest subagent name shown (characters); the rest is cut with `…`.
pub const MAX_NAME_CHARS: usize = 80;

/// Where each subagent shows: its id → the subagent it nests under (`None`: the main agent).
/// A status change does not change it, so the grouping does not re-run for one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lineage(HashMap<String, Option<String>>);

impl Lineage {
    /// The lineage of a thread's subagents.
    pub fn of(subagents: &Subagents) -> Lineage {
        Lineage(
            subagents
                .list()
                .iter()
                .map(|s| (s.id.clone(), s.nest_under.clone()))
                .collect(),
        )
    }

    /// From (id, nests under) pairs.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) -> Self {
        Lineage(
            pairs
                .into_iter()
                .map(|(id, under)| (id.to_owned(), under.map(str::to_owned)))
                .collect(),
        )
    }

    /// The groups a row of subagent `id` shows in, outermost first (its ancestors, then
    /// itself): at most [`MAX_SUBAGENT_DEPTH`], whatever the map holds.
    pub fn path<'a>(&'a self, id: &'a str) -> Vec<&'a str> {
        let mut chain = vec![id];
        let mut current = id;
        while chain.len() < MAX_SUBAGENT_DEPTH {
            match self.0.get(current) {
                Some(Some(parent)) if !chain.contains(&parent.as_str()) => {
                    chain.push(parent);
                    current = parent;
                }
                _ => break,
            }
        }
        chain.reverse();
        chain
    }
}

/// One entry of the transcript: a row, or a subagent's group of entries.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Row(Row),
    Group(Group),
}

/// A run of consecutive rows of one subagent (with its nested subagents' groups).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Unique among its siblings: the key of its first row.
    pub key: String,
    /// The subagent's run id.
    pub subagent: String,
    /// 1 under the main agent.
    pub depth: usize,
    pub items: Vec<Item>,
}

impl Item {
    /// The key of a keyed list of items: a row's key and role, a group's key and no role (a
    /// group and its first row share the key, never the tuple).
    pub fn list_key(&self) -> (String, Option<crate::protocol::types::Role>) {
        match self {
            Item::Row(r) => (r.key.clone(), Some(r.role)),
            Item::Group(g) => (g.key.clone(), None),
        }
    }

    /// The entries of the group with this key among `items` (empty when it is gone).
    pub fn children_of(items: &[Item], key: &str) -> Vec<Item> {
        items
            .iter()
            .find_map(|i| match i {
                Item::Group(g) if g.key == key => Some(g.items.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }
}

/// An open group while [`group_rows`] walks.
struct Open {
    subagent: String,
    key: String,
    items: Vec<Item>,
}

/// The rows grouped by subagent (see the module docs).
pub fn group_rows(rows: &[Row], lineage: &Lineage) -> Vec<Item> {
    let mut top = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    for row in rows {
        let path = row
            .subagent
            .as_deref()
            .map(|id| lineage.path(id))
            .unwrap_or_default();
        let keep = open
            .iter()
            .zip(&path)
            .take_while(|(o, id)| o.subagent == **id)
            .count();
        while open.len() > keep {
            close(&mut open, &mut top);
        }
        for id in path.iter().skip(keep) {
            open.push(Open {
                subagent: (*id).to_owned(),
                key: row.key.clone(),
                items: Vec::new(),
            });
        }
        match open.last_mut() {
            Some(o) => o.items.push(Item::Row(row.clone())),
            None => top.push(Item::Row(row.clone())),
        }
    }
    while !open.is_empty() {
        close(&mut open, &mut top);
    }
    top
}

/// Close the innermost open group into its parent (or the top level).
fn close(open: &mut Vec<Open>, top: &mut Vec<Item>) {
    let Some(o) = open.pop() else {
        return;
    };
    let group = Item::Group(Group {
        key: o.key,
        subagent: o.subagent,
        depth: open.len() + 1,
        items: o.items,
    });
    match open.last_mut() {
        Some(parent) => parent.items.push(group),
        None => top.push(group),
    }
}

/// What a group's header shows of its subagent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Header {
    /// The name (cut to [`MAX_NAME_CHARS`]); `None`: never announced.
    pub name: Option<String>,
    /// `None`: never announced (nothing is known of it).
    pub status: Option<SubagentStatus>,
    /// `SUBAGENT_ERROR.message`.
    pub error: Option<String>,
    pub description: Option<String>,
}

impl Header {
    /// The header of subagent `id`.
    pub fn of(subagents: &Subagents, id: &str) -> Header {
        match subagents.get(id) {
            Some(s) => Header {
                name: Some(cut(&s.name)).filter(|n| !n.trim().is_empty()),
                status: Some(s.status),
                error: s.error.clone(),
                description: s.description.clone(),
            },
            None => Header::default(),
        }
    }

    /// The name shown ("Subagent" when it has none).
    pub fn display_name(&self, t: &Strings) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| t.subagent_unnamed.to_owned())
    }

    /// The group's accessible name: "Research agent (subagent)".
    pub fn group_label(&self, t: &Strings) -> String {
        fill(t.subagent_group, &[&self.display_name(t)])
    }

    /// The accessible name of a message in the group: "Message from Research agent".
    pub fn message_label(&self, t: &Strings) -> String {
        fill(t.subagent_message, &[&self.display_name(t)])
    }

    /// The status in words (none for an unannounced subagent).
    pub fn status_label(&self, t: &'static Strings) -> Option<&'static str> {
        self.status.map(|s| match s {
            SubagentStatus::Running => t.subagent_running,
            SubagentStatus::Finished => t.subagent_finished,
            SubagentStatus::Suspended => t.subagent_suspended,
            SubagentStatus::Error => t.subagent_failed,
        })
    }

    /// Whether the group's body starts collapsed: once the subagent finished or failed (a
    /// running, paused or unannounced one stays open).
    pub fn collapsed(&self) -> bool {
        matches!(
            self.status,
            Some(SubagentStatus::Finished | SubagentStatus::Error)
        )
    }
}

/// `name` cut to [`MAX_NAME_CHARS`] characters.
fn cut(name: &str) -> String {
    match name.char_indices().nth(MAX_NAME_CHARS) {
        Some((i, _)) => format!("{}…", name.get(..i).unwrap_or_default()),
        None => name.to_owned(),
    }
}
