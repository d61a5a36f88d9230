//! Text and reasoning messages (spec digest §5): start, content, end, encrypted values, and
//! `MESSAGES_SNAPSHOT` by id with the per-role rule.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{merge_md, Change, Cx, Thread, ToolArgs, WarningKind};
use crate::protocol::event::{Delta, EncryptedSubtype, ReasoningEncryptedValue};
use crate::protocol::partial_json::PartialJson;
use crate::protocol::types::{Content, Message, Object, Role};

impl Thread {
    /// `TEXT_MESSAGE_START` / `REASONING_MESSAGE_START`: a new message, or the one with that id
    /// again (its metadata merged).
    pub(super) fn open_message(
        &mut self,
        id: &str,
        role: Role,
        name: Option<&str>,
        cx: Cx,
    ) -> Change {
        match self.position(id) {
            Some(i) => {
                let Some(m) = self.messages.get_mut(i) else {
                    return Change::Nothing;
                };
                if m.role == Role::Activity {
                    return self.warn(
                        WarningKind::UnknownTarget(id.to_owned()),
                        cx.t,
                        format!("'{id}' is an activity message; not reused"),
                    );
                }
                merge_md(&mut m.metadata, cx.md);
                Change::Message(i)
            }
            None => {
                let mut m = Message::new(id, role);
                m.content = Some(Content::Text(String::new()));
                m.name = name.map(str::to_owned);
                m.subagent_run_id = cx.owner.clone();
                merge_md(&mut m.metadata, cx.md);
                Change::Appended(self.push_message(m))
            }
        }
    }

    /// A text or reasoning delta, appended in place.
    pub(super) fn message_delta(&mut self, d: &Delta, cx: Cx) -> Change {
        let Some(i) = self.position(&d.message_id) else {
            return self.warn(
                WarningKind::UnknownTarget(d.message_id.clone()),
                cx.t,
                format!("no message with id '{}'", d.message_id),
            );
        };
        let Some(m) = self.messages.get_mut(i) else {
            return Change::Nothing;
        };
        if m.role == Role::Activity {
            return self.warn(
                WarningKind::UnknownTarget(d.message_id.clone()),
                cx.t,
                format!("'{}' is an activity message", d.message_id),
            );
        }
        match &mut m.content {
            Some(Content::Text(s)) => s.push_str(&d.delta),
            other => *other = Some(Content::Text(d.delta.clone())),
        }
        merge_md(&mut m.metadata, cx.md);
        Change::Message(i)
    }

    pub(super) fn message_end(&mut self, id: &str, cx: Cx) -> Change {
        let Some(i) = self.position(id) else {
            return Change::Nothing;
        };
        let Some(m) = self.messages.get_mut(i) else {
            return Change::Nothing;
        };
        if m.role == Role::Activity {
            return Change::Nothing;
        }
        merge_md(&mut m.metadata, cx.md);
        Change::Message(i)
    }

    /// `REASONING_ENCRYPTED_VALUE` on a tool call or a message (never shown).
    pub(super) fn encrypted_value(&mut self, ev: &ReasoningEncryptedValue, cx: Cx) -> Change {
        let on_call = matches!(ev.subtype, EncryptedSubtype::ToolCall);
        let target = if on_call {
            self.tool_index.get(&ev.entity_id).copied()
        } else {
            self.position(&ev.entity_id)
        };
        let Some(i) = target else {
            return self.warn(
                WarningKind::UnknownTarget(ev.entity_id.clone()),
                cx.t,
                format!("no entity with id '{}'", ev.entity_id),
            );
        };
        let Some(m) = self.messages.get_mut(i) else {
            return Change::Nothing;
        };
        if on_call {
            if let Some(c) = m
                .tool_calls
                .as_mut()
                .and_then(|cs| cs.iter_mut().find(|c| c.id == ev.entity_id))
            {
                c.encrypted_value = Some(ev.encrypted_value.clone());
                c.encrypted_value_type = ev.encrypted_value_type.clone();
            }
            return Change::tool(&ev.entity_id, Change::Message(i));
        }
        if m.role == Role::Activity {
            return self.warn(
                WarningKind::UnknownTarget(ev.entity_id.clone()),
                cx.t,
                format!("'{}' is an activity message", ev.entity_id),
            );
        }
        m.encrypted_value = Some(ev.encrypted_value.clone());
        m.encrypted_value_type = ev.encrypted_value_type.clone();
        Change::Message(i)
    }

    pub(super) fn messages_snapshot(&mut self, snapshot: &[Message], md: &Option<Object>) {
        let snap: HashMap<&str, &Message> = snapshot.iter().map(|m| (m.id.as_str(), m)).collect();
        let authoritative = md
            .as_ref()
            .and_then(|m| m.get("@ag-ui/client"))
            .and_then(|c| c.as_object())
            .and_then(|c| c.get("authoritativeActivityTypes"));
        let snap_has_activity = snapshot.iter().any(|m| m.role == Role::Activity);
        let snap_has_reasoning = snapshot.iter().any(|m| m.role == Role::Reasoning);
        let keep = |m: &Message| -> bool {
            match m.role {
                Role::Activity => match authoritative {
                    Some(Value::Array(types)) => !types.iter().any(|t| {
                        t.as_str()
                            .is_some_and(|t| Some(t) == m.activity_type.as_deref())
                    }),
                    Some(Value::Null) => false,
                    _ => !snap_has_activity,
                },
                Role::Reasoning => !snap_has_reasoning,
                _ => false,
            }
        };
        // Old argument texts, to adopt a snapshot's arguments without re-parsing a prefix.
        let old_args: HashMap<String, String> = self
            .messages
            .iter()
            .flat_map(|m| m.tool_calls.iter().flatten())
            .map(|c| (c.id.clone(), c.function.arguments.clone()))
            .collect();
        let old = std::mem::take(&mut self.messages);
        let mut next: Vec<Message> = Vec::with_capacity(snapshot.len().max(old.len()));
        let mut ids: HashSet<String> = HashSet::new();
        for m in old {
            if let Some(s) = snap.get(m.id.as_str()) {
                ids.insert(m.id.clone());
                next.push((*s).clone());
            } else if keep(&m) {
                ids.insert(m.id.clone());
                next.push(m);
            }
        }
        for m in snapshot {
            if ids.insert(m.id.clone()) {
                next.push(m.clone());
            }
        }
        self.messages = next;
        self.index.clear();
        self.tool_index.clear();
        self.reindex_from(0);
        self.sync_tool_args(&old_args);
    }

    /// Bring the parsed-args views in line with the arguments text the messages now hold: keep
    /// a parser whose text the new arguments extend (feed only the rest), restart otherwise —
    /// a final text that is not a prefix extension replaces the streamed one, never freezes it.
    pub(super) fn sync_tool_args(&mut self, old_args: &HashMap<String, String>) {
        let run_id = self
            .runs
            .last()
            .map(|r| r.run_id.clone())
            .unwrap_or_default();
        for m in &self.messages {
            for c in m.tool_calls.iter().flatten() {
                let new = &c.function.arguments;
                let entry = self
                    .tool_args
                    .entry(c.id.clone())
                    .or_insert_with(|| ToolArgs {
                        parser: PartialJson::new(),
                        ended: true,
                        run_id: run_id.clone(),
                    });
                match old_args.get(&c.id) {
                    Some(old)
                        if entry.parser.len() == old.len() && new.starts_with(old.as_str()) =>
                    {
                        if let Some(rest) = new.get(old.len()..) {
                            entry.parser.push(rest);
                        }
                    }
                    _ if entry.parser.is_empty() && new.is_empty() => {}
                    _ => {
                        entry.parser.reset();
                        entry.parser.push(new);
                    }
                }
            }
        }
    }
}
