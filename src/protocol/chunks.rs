//! Chunk expansion (spec digest §4.5): `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and
//! `REASONING_MESSAGE_CHUNK` become the explicit START / CONTENT / END triads, so everything
//! after this stage sees one shape.
//!
//! One pending chunk item per *lane* (the `subagentRunId`, absent = the parent agent). Ids are
//! never invented: a first chunk without its id (or a tool chunk without its name) is fatal, as
//! is a continuation that contradicts its opener. Other events close pending items exactly as
//! the reference client does (table in §4.5), which is observable in where the synthesised END
//! lands.

use super::event::{
    Delta, Event, EventKind, MessageRef, ReasoningMessageStart, TextMessageStart, ToolCallArgs,
    ToolCallRef, ToolCallStart,
};
use super::types::Role;

/// A chunk sequence the client must refuse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChunkError {
    #[error("First {event_type} must have a {field}")]
    MissingOpenerField {
        event_type: &'static str,
        field: &'static str,
    },
    #[error(
        "{event_type} {field} {got:?} does not match the open stream's {field} {open:?} (id {id})"
    )]
    Conflict {
        event_type: &'static str,
        field: &'static str,
        id: String,
        open: String,
        got: String,
    },
    #[error("Ambiguous {event_type}: no id and no subagentRunId, and several lanes have an open chunk stream")]
    Ambiguous { event_type: &'static str },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Tool,
    Reasoning,
}

impl Kind {
    fn chunk_type(self) -> &'static str {
        match self {
            Kind::Text => "TEXT_MESSAGE_CHUNK",
            Kind::Tool => "TOOL_CALL_CHUNK",
            Kind::Reasoning => "REASONING_MESSAGE_CHUNK",
        }
    }
}

#[derive(Debug, Clone)]
struct Open {
    lane: Option<String>,
    kind: Kind,
    id: String,
    role: Role,
    name: Option<String>,
    parent: Option<String>,
}

/// The fields of a chunk, whatever its kind.
struct Chunk {
    kind: Kind,
    id: Option<String>,
    role: Option<Role>,
    name: Option<String>,
    parent: Option<String>,
    delta: Option<String>,
}

/// Expands chunk events; see the module docs.
#[derive(Debug, Default)]
pub struct ChunkExpander {
    /// Open items in the order they were opened, at most one per lane.
    open: Vec<Open>,
}

impl ChunkExpander {
    pub fn new() -> Self {
        Self::default()
    }

    /// True while some chunk item is pending.
    pub fn has_open(&self) -> bool {
        !self.open.is_empty()
    }

    /// Expand one event into the events that follow it downstream.
    pub fn push(&mut self, event: Event) -> Result<Vec<Event>, ChunkError> {
        let mut out = Vec::new();
        self.push_into(event, &mut out)?;
        Ok(out)
    }

    /// [`ChunkExpander::push`] appending to `out` (a buffer the caller reuses: no allocation
    /// per event).
    pub fn push_into(&mut self, event: Event, out: &mut Vec<Event>) -> Result<(), ChunkError> {
        let Event {
            kind,
            timestamp,
            raw_event,
            metadata,
            subagent_run_id,
        } = event;
        let chunk = match kind {
            EventKind::TextMessageChunk(c) => Chunk {
                kind: Kind::Text,
                id: c.message_id,
                role: c.role,
                name: c.name,
                parent: None,
                delta: c.delta,
            },
            EventKind::ToolCallChunk(c) => Chunk {
                kind: Kind::Tool,
                id: c.tool_call_id,
                role: None,
                name: c.tool_call_name,
                parent: c.parent_message_id,
                delta: c.delta,
            },
            EventKind::ReasoningMessageChunk(c) => Chunk {
                kind: Kind::Reasoning,
                id: c.message_id,
                role: None,
                name: None,
                parent: None,
                delta: c.delta,
            },
            kind => {
                let event = Event {
                    kind,
                    timestamp,
                    raw_event,
                    metadata,
                    subagent_run_id,
                };
                self.close_for(&event, out);
                out.push(event);
                return Ok(());
            }
        };
        let chunk_type = chunk.kind.chunk_type();
        let lane = match (&subagent_run_id, &chunk.id) {
            (Some(lane), _) => Some(lane.clone()),
            (None, Some(_)) => None,
            (None, None) => self.resolve_lane(chunk.kind, chunk_type)?,
        };
        // Continue the lane's open item, or close it.
        if let Some((pos, open)) = self.open.iter().enumerate().find(|(_, o)| o.lane == lane) {
            let same = open.kind == chunk.kind && chunk.id.as_ref().is_none_or(|id| *id == open.id);
            if same {
                check_conflicts(open, &chunk)?;
                let id = open.id.clone();
                if chunk.delta.is_some() || raw_event.is_some() || metadata.is_some() {
                    out.push(content(
                        chunk.kind,
                        id,
                        chunk.delta.unwrap_or_default(),
                        raw_event,
                        metadata,
                        lane,
                    ));
                }
                return Ok(());
            }
            let open = self.open.remove(pos);
            out.push(end_of(open));
        }
        // Open a new item.
        let Some(id) = chunk.id else {
            let field = match chunk.kind {
                Kind::Tool => "toolCallId",
                _ => "messageId",
            };
            return Err(ChunkError::MissingOpenerField {
                event_type: chunk_type,
                field,
            });
        };
        let start = match chunk.kind {
            Kind::Text => EventKind::TextMessageStart(TextMessageStart {
                message_id: id.clone(),
                role: Some(chunk.role.unwrap_or(Role::Assistant)),
                name: chunk.name.clone(),
            }),
            Kind::Tool => {
                let Some(name) = chunk.name.clone() else {
                    return Err(ChunkError::MissingOpenerField {
                        event_type: chunk_type,
                        field: "toolCallName",
                    });
                };
                EventKind::ToolCallStart(ToolCallStart {
                    tool_call_id: id.clone(),
                    tool_call_name: name,
                    parent_message_id: chunk.parent.clone(),
                })
            }
            Kind::Reasoning => EventKind::ReasoningMessageStart(ReasoningMessageStart {
                message_id: id.clone(),
                role: "reasoning".into(),
            }),
        };
        let mut start = Event::new(start).owned_by(lane.clone());
        start.metadata = metadata.clone();
        out.push(start);
        if chunk.delta.is_some() || raw_event.is_some() {
            out.push(content(
                chunk.kind,
                id.clone(),
                chunk.delta.unwrap_or_default(),
                raw_event,
                metadata,
                lane.clone(),
            ));
        }
        self.open.push(Open {
            lane,
            kind: chunk.kind,
            id,
            role: chunk.role.unwrap_or(Role::Assistant),
            name: chunk.name,
            parent: chunk.parent,
        });
        Ok(())
    }

    /// Which lane an id-less, untagged chunk continues.
    fn resolve_lane(
        &self,
        kind: Kind,
        chunk_type: &'static str,
    ) -> Result<Option<String>, ChunkError> {
        if self.open.iter().any(|o| o.lane.is_none() && o.kind == kind) {
            return Ok(None);
        }
        let mut lanes = self.open.iter().filter(|o| o.kind == kind);
        match (lanes.next(), lanes.next()) {
            (Some(only), None) => Ok(only.lane.clone()),
            (Some(_), Some(_)) => Err(ChunkError::Ambiguous {
                event_type: chunk_type,
            }),
            (None, _) => Ok(None),
        }
    }

    /// Close pending items as the arrival of a non-chunk `event` requires (§4.5 table).
    fn close_for(&mut self, event: &Event, out: &mut Vec<Event>) {
        use EventKind as K;
        match &event.kind {
            K::RunStarted(_) | K::RunFinished(_) | K::RunError(_) | K::MessagesSnapshot(_) => {
                self.close_all(out)
            }
            K::Raw(_)
            | K::ActivitySnapshot(_)
            | K::ActivityDelta(_)
            | K::ReasoningEncryptedValue(_)
            | K::SubagentStarted(_) => {}
            _ => {
                let lane = &event.subagent_run_id;
                if let Some(pos) = self.open.iter().position(|o| &o.lane == lane) {
                    let open = self.open.remove(pos);
                    out.push(end_of(open));
                }
            }
        }
    }

    /// Close every pending item, in the order they were opened.
    pub fn close_all(&mut self, out: &mut Vec<Event>) {
        for open in self.open.drain(..) {
            out.push(end_of(open));
        }
    }
}

fn check_conflicts(open: &Open, chunk: &Chunk) -> Result<(), ChunkError> {
    let conflict = |field: &'static str, open_v: &str, got: &str| ChunkError::Conflict {
        event_type: chunk.kind.chunk_type(),
        field,
        id: open.id.clone(),
        open: open_v.to_owned(),
        got: got.to_owned(),
    };
    if let Some(role) = chunk.role {
        if role != open.role {
            return Err(conflict("role", open.role.as_str(), role.as_str()));
        }
    }
    let name_field = match chunk.kind {
        Kind::Tool => "toolCallName",
        _ => "name",
    };
    if let (Some(got), Some(was)) = (&chunk.name, &open.name) {
        if got != was {
            return Err(conflict(name_field, was, got));
        }
    }
    if let (Some(got), Some(was)) = (&chunk.parent, &open.parent) {
        if got != was {
            return Err(conflict("parentMessageId", was, got));
        }
    }
    Ok(())
}

fn content(
    kind: Kind,
    id: String,
    delta: String,
    raw_event: Option<super::raw_json::RawJson>,
    metadata: Option<super::types::Object>,
    lane: Option<String>,
) -> Event {
    let k = match kind {
        Kind::Text => EventKind::TextMessageContent(Delta {
            message_id: id,
            delta,
        }),
        Kind::Reasoning => EventKind::ReasoningMessageContent(Delta {
            message_id: id,
            delta,
        }),
        Kind::Tool => EventKind::ToolCallArgs(ToolCallArgs {
            tool_call_id: id,
            delta,
        }),
    };
    let mut ev = Event::new(k).owned_by(lane);
    ev.raw_event = raw_event;
    ev.metadata = metadata;
    ev
}

fn end_of(open: Open) -> Event {
    let k = match open.kind {
        Kind::Text => EventKind::TextMessageEnd(MessageRef {
            message_id: open.id,
        }),
        Kind::Reasoning => EventKind::ReasoningMessageEnd(MessageRef {
            message_id: open.id,
        }),
        Kind::Tool => EventKind::ToolCallEnd(ToolCallRef {
            tool_call_id: open.id,
        }),
    };
    Event::new(k).owned_by(open.lane)
}
