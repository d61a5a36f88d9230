//! Shared state and activity (spec digest §4.6, §4.7): `STATE_DELTA` patched atomically in place
//! ([`state_patch`]), `ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA` on activity messages. A delta that
//! cannot be applied changes nothing and is a warning that says which operation failed.

use serde_json::Value;

use super::{merge_md, Change, Cx, Thread, WarningKind};
use crate::protocol::event::{ActivityDelta, ActivitySnapshot};
use crate::protocol::state_patch::{self, PatchError, PatchErrorKind};
use crate::protocol::types::{Content, Message, Object, Role};

impl Thread {
    pub(super) fn state_snapshot(&mut self, snapshot: &Value, cx: Cx) -> Change {
        match state_patch::measure(snapshot, self.patch_limits) {
            Ok((bytes, _)) => {
                self.state = snapshot.clone();
                self.state_size = Some(bytes);
                Change::StateReplaced
            }
            Err(kind) => {
                let message = format!("STATE_SNAPSHOT refused (state unchanged): {kind}");
                let e = snapshot_error(kind);
                self.warn(WarningKind::StatePatch(e), cx.t, message)
            }
        }
    }

    pub(super) fn state_delta(&mut self, ops: &[Value], cx: Cx) -> Change {
        let patch = match state_patch::parse(ops) {
            Ok(p) => p,
            Err(e) => {
                let message = format!("Failed to apply state patch: {e}");
                return self.warn(WarningKind::StatePatch(e), cx.t, message);
            }
        };
        let limits = self.patch_limits;
        match state_patch::apply(&mut self.state, &patch, limits, &mut self.state_size) {
            Ok(()) => Change::StatePatched(state_patch::paths(&patch)),
            Err(e) => {
                let message = format!("Failed to apply state patch (state unchanged): {e}");
                self.warn(WarningKind::StatePatch(e), cx.t, message)
            }
        }
    }

    pub(super) fn activity_snapshot(&mut self, a: &ActivitySnapshot, cx: Cx) -> Change {
        let replace = a.replace.unwrap_or(true);
        let content = Value::Object(a.content.clone());
        let bytes = match state_patch::measure(&content, self.patch_limits) {
            Ok((bytes, _)) => bytes,
            Err(kind) => {
                let message = format!("ACTIVITY_SNAPSHOT refused (content unchanged): {kind}");
                let e = snapshot_error(kind);
                return self.warn(WarningKind::ActivityPatch(e), cx.t, message);
            }
        };
        let Value::Object(content) = content else {
            return Change::Nothing;
        };
        let mut fresh = Message::new(a.message_id.clone(), Role::Activity);
        fresh.activity_type = Some(a.activity_type.clone());
        fresh.content = Some(Content::Object(content));
        fresh.subagent_run_id = cx.owner.clone();
        let Some(i) = self.position(&a.message_id) else {
            merge_md(&mut fresh.metadata, cx.md);
            let i = self.push_message(fresh);
            self.activity_sizes.insert(a.message_id.clone(), bytes);
            return Change::Appended(i);
        };
        let Some(m) = self.messages.get_mut(i) else {
            return Change::Nothing;
        };
        if replace {
            self.activity_sizes.insert(a.message_id.clone(), bytes);
        }
        if m.role == Role::Activity {
            if replace {
                m.activity_type = fresh.activity_type;
                m.content = fresh.content;
                m.subagent_run_id = fresh.subagent_run_id;
            }
            merge_md(&mut m.metadata, cx.md);
        } else if replace {
            merge_md(&mut fresh.metadata, cx.md);
            *m = fresh;
            self.reindex_from(i);
        } else {
            return Change::Nothing;
        }
        Change::Message(i)
    }

    pub(super) fn activity_delta(&mut self, a: &ActivityDelta, cx: Cx) -> Change {
        let unknown = |id: &str| WarningKind::UnknownTarget(id.to_owned());
        let Some(i) = self.position(&a.message_id) else {
            return self.warn(
                unknown(&a.message_id),
                cx.t,
                format!("no activity message with id '{}'", a.message_id),
            );
        };
        let patch = match state_patch::parse(&a.patch) {
            Ok(p) => p,
            Err(e) => {
                let message = format!("Failed to apply activity patch: {e}");
                return self.warn(WarningKind::ActivityPatch(e), cx.t, message);
            }
        };
        let Some(m) = self.messages.get_mut(i) else {
            return Change::Nothing;
        };
        if m.role != Role::Activity {
            return self.warn(
                unknown(&a.message_id),
                cx.t,
                format!("'{}' is not an activity message", a.message_id),
            );
        }
        merge_md(&mut m.metadata, cx.md);
        let mut doc = match m.content.take() {
            Some(Content::Object(o)) => Value::Object(o),
            _ => Value::Object(Object::new()),
        };
        let root_op = patch.iter().position(|op| op.path().as_str().is_empty());
        let backup = root_op.map(|_| doc.clone());
        let mut size = self.activity_sizes.get(&a.message_id).copied();
        let result = state_patch::apply(&mut doc, &patch, self.patch_limits, &mut size);
        if let Some(bytes) = size.filter(|_| result.is_ok()) {
            self.activity_sizes.insert(a.message_id.clone(), bytes);
        }
        let (content, problem) = match (result, doc) {
            (Ok(()), Value::Object(o)) => (o, None),
            (Ok(()), _) => (
                match backup {
                    Some(Value::Object(o)) => o,
                    _ => Object::new(),
                },
                Some(PatchError {
                    op: root_op.unwrap_or(0),
                    op_name: root_op
                        .and_then(|n| patch.get(n))
                        .map_or("?", state_patch::op_name),
                    path: String::new(),
                    kind: PatchErrorKind::NotAnObject,
                }),
            ),
            (Err(e), Value::Object(o)) => (o, Some(e)),
            (Err(e), _) => (Object::new(), Some(e)),
        };
        m.content = Some(Content::Object(content));
        match problem {
            None => {
                m.activity_type = Some(a.activity_type.clone());
                Change::Message(i)
            }
            Some(e) => {
                let message = format!("Failed to apply activity patch (content unchanged): {e}");
                self.warn(WarningKind::ActivityPatch(e), cx.t, message);
                Change::Message(i)
            }
        }
    }
}

/// A refused snapshot, in the shape of a failed patch (the whole document, at the root).
fn snapshot_error(kind: PatchErrorKind) -> PatchError {
    PatchError {
        op: 0,
        op_name: "snapshot",
        path: String::new(),
        kind,
    }
}
