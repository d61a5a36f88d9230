//! One frame → the event object the reference decoder (`@ag-ui/proto` 1.0.0 `decode`,
//! `proto.ts`) returns, which then goes through the same pipeline as an SSE event's JSON: the
//! envelope's one arm picks the event, `base_event` is hoisted into it, and the protobuf-only
//! shapes are rebuilt as their JSON forms — the flattened `RUN_FINISHED` / `SUBAGENT_FINISHED`
//! outcomes, patch ops by name, a message's `content` from whichever carrier its role uses,
//! content parts and their sources from their oneofs.
//!
//! Like the reference decoder this judges no values (enforcement does, for both transports); it
//! refuses only frames that map to no event: bytes that are not protobuf, no or two arms, an arm
//! without `base_event` or whose `base_event.type` names another event, a oneof with two arms, a
//! message or result with contradicting content carriers.

use serde_json::{Map, Value};

use super::error::DecodeError;
use super::schema::{merge, Budget, ARMS, EVENT_TYPES, MAX_DEPTH, PATCH_OPS};
use super::wire::{Reader, LEN};
use crate::protocol::error::{Warning, WarningKind};

type Object = Map<String, Value>;

/// The roles of the 1.0 message union (a message with another role is judged by enforcement).
const KNOWN_ROLES: &[&str] = &[
    "developer",
    "system",
    "assistant",
    "user",
    "tool",
    "activity",
    "reasoning",
];

/// Decode one frame's `ag_ui.Event` to JSON of about `max_json_bytes` at most. `Ok(None)`: the
/// frame carries only an arm this client does not know (an event from a newer protocol),
/// dropped with a warning.
pub(super) fn decode(
    frame: &[u8],
    max_json_bytes: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Value>, DecodeError> {
    const AT: &str = "ag_ui.Event";
    let wire = |problem| DecodeError::Wire { at: AT, problem };
    let mut r = Reader::new(frame);
    let mut arm: Option<u32> = None;
    let mut event = Object::new();
    let mut budget = Budget::new(max_json_bytes);
    let mut future = 0usize;
    let mut unreadable = false;
    while !r.at_end() {
        let (num, wire_type) = r.tag().map_err(wire)?;
        let known = usize::try_from(num)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| ARMS.get(i));
        if let Some((_, schema)) = known {
            if wire_type != LEN {
                return Err(DecodeError::WireType {
                    at: AT,
                    field: num,
                    got: wire_type,
                    expected: LEN,
                });
            }
            if let Some(first) = arm.filter(|a| *a != num) {
                return Err(DecodeError::TwoEvents { first, second: num });
            }
            arm = Some(num);
            let payload = r.len_delimited().map_err(wire)?;
            // The arm's object is the event: depth 1.
            merge(payload, schema, &mut event, 1, &mut budget)?;
        } else if wire_type == LEN {
            // Possibly an event from a later protocol: it must at least be a message.
            let payload = r.len_delimited().map_err(wire)?;
            if walks_as_message(payload) {
                future += 1;
            } else {
                unreadable = true;
            }
        } else {
            r.skip(num, wire_type, MAX_DEPTH).map_err(wire)?;
        }
    }
    let Some(arm) = arm else {
        if future > 0 && !unreadable {
            warnings.push(Warning::new(
                WarningKind::UnknownEvent,
                None,
                None,
                "protobuf frame with an event this client does not know (a newer protocol?) dropped",
            ));
            return Ok(None);
        }
        return Err(DecodeError::NoEvent);
    };
    let index = usize::try_from(arm).unwrap_or(0).saturating_sub(1);
    let Some(&(ty, _)) = ARMS.get(index) else {
        return Err(DecodeError::NoEvent);
    };
    let Some(Value::Object(mut base)) = event.remove("baseEvent") else {
        return Err(DecodeError::NoBaseEvent { event_type: ty });
    };
    let declared = base.get("type").and_then(Value::as_i64).unwrap_or(0);
    let names = usize::try_from(declared)
        .ok()
        .and_then(|i| EVENT_TYPES.get(i));
    if names != Some(&ty) {
        return Err(DecodeError::TypeMismatch {
            event_type: ty,
            declared,
        });
    }
    event.insert("type".to_owned(), Value::String(ty.to_owned()));
    for key in ["timestamp", "rawEvent", "metadata"] {
        if let Some(v) = base.remove(key) {
            event.insert(key.to_owned(), v);
        }
    }
    rebuild(ty, &mut event, warnings)?;
    Ok(Some(Value::Object(event)))
}

/// The protobuf-only shapes of `ty` as their JSON forms (`proto.ts` `decode`).
fn rebuild(
    ty: &'static str,
    event: &mut Object,
    warnings: &mut Vec<Warning>,
) -> Result<(), DecodeError> {
    match ty {
        "MESSAGES_SNAPSHOT" => messages(ty, event, "/messages", warnings)?,
        "RUN_STARTED" => {
            if let Some(Value::Object(input)) = event.get_mut("input") {
                messages(ty, input, "/input/messages", warnings)?;
            }
        }
        "RUN_FINISHED" => {
            run_outcome(event);
            drop_empty(event, "usage");
        }
        "RUN_ERROR" => drop_empty(event, "usage"),
        "SUBAGENT_FINISHED" => subagent_outcome(event),
        "STATE_DELTA" => patch_ops(event, "delta"),
        "ACTIVITY_DELTA" => patch_ops(event, "patch"),
        "TOOL_CALL_RESULT" => {
            let parts = take_list(event, "contentParts");
            if event.contains_key("content") {
                if !parts.is_empty() {
                    return Err(DecodeError::Contradiction {
                        event_type: ty,
                        problem: "string content and content parts together",
                    });
                }
            } else {
                let parts = content_parts(ty, parts, "/content", warnings);
                event.insert("content".to_owned(), Value::Array(parts));
            }
        }
        _ => {}
    }
    Ok(())
}

fn take_list(obj: &mut Object, key: &str) -> Vec<Value> {
    match obj.remove(key) {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    }
}

fn drop_empty(obj: &mut Object, key: &str) {
    if obj
        .get(key)
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
    {
        obj.remove(key);
    }
}

/// `RUN_FINISHED`: `outcome` is a string on the wire with `interrupts` and `pendingToolCallIds`
/// beside it; the JSON form is `{type, interrupts?, pendingToolCallIds?}` (`interrupts` always
/// for `interrupt`, otherwise only when not empty). No outcome: non-empty lists stay where
/// they are (enforcement judges them, as it would on the JSON path).
fn run_outcome(event: &mut Object) {
    let outcome = match event.remove("outcome") {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        _ => None,
    };
    let pending = take_list(event, "pendingToolCallIds");
    let interrupts = take_list(event, "interrupts");
    let Some(kind) = outcome else {
        if !pending.is_empty() {
            event.insert("pendingToolCallIds".to_owned(), Value::Array(pending));
        }
        if !interrupts.is_empty() {
            event.insert("interrupts".to_owned(), Value::Array(interrupts));
        }
        return;
    };
    let mut o = Object::new();
    let always = kind == "interrupt";
    o.insert("type".to_owned(), Value::String(kind));
    if always || !interrupts.is_empty() {
        o.insert("interrupts".to_owned(), Value::Array(interrupts));
    }
    if !pending.is_empty() {
        o.insert("pendingToolCallIds".to_owned(), Value::Array(pending));
    }
    event.insert("outcome".to_owned(), Value::Object(o));
}

/// `SUBAGENT_FINISHED`: the string `outcome` and `interruptIds` as `{type, interruptIds?}`.
fn subagent_outcome(event: &mut Object) {
    let outcome = match event.remove("outcome") {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        _ => None,
    };
    let ids = take_list(event, "interruptIds");
    let Some(kind) = outcome else {
        if !ids.is_empty() {
            event.insert("interruptIds".to_owned(), Value::Array(ids));
        }
        return;
    };
    let mut o = Object::new();
    o.insert("type".to_owned(), Value::String(kind));
    if !ids.is_empty() {
        o.insert("interruptIds".to_owned(), Value::Array(ids));
    }
    event.insert("outcome".to_owned(), Value::Object(o));
}

/// Patch ops by name; a value this client cannot name rides on as its decimal spelling, an op
/// enforcement strips with a warning (as the reference decoder does).
fn patch_ops(event: &mut Object, key: &str) {
    let Some(Value::Array(ops)) = event.get_mut(key) else {
        return;
    };
    for op in ops.iter_mut() {
        let Value::Object(op) = op else { continue };
        let n = op.get("op").and_then(Value::as_i64).unwrap_or(0);
        let name = usize::try_from(n)
            .ok()
            .and_then(|i| PATCH_OPS.get(i))
            .map_or_else(|| n.to_string(), |s| (*s).to_owned());
        op.insert("op".to_owned(), Value::String(name));
    }
}

/// Each message of `obj["messages"]` in its JSON form.
fn messages(
    ty: &'static str,
    obj: &mut Object,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(), DecodeError> {
    let Some(Value::Array(list)) = obj.get_mut("messages") else {
        return Ok(());
    };
    for (i, m) in list.iter_mut().enumerate() {
        if let Value::Object(m) = m {
            message(ty, m, &format!("{path}/{i}/content"), warnings)?;
        }
    }
    Ok(())
}

/// One `ag_ui.Message` (the union of every role's fields) in its JSON form (`fromWireMessage`):
/// `content` comes from the string, the parts or the activity object, as the role says (for a
/// role this client does not know, from the one carrier that is set); `toolCalls` goes when
/// empty.
fn message(
    ty: &'static str,
    m: &mut Object,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(), DecodeError> {
    let contradiction = |problem| DecodeError::Contradiction {
        event_type: ty,
        problem,
    };
    let role = m.get("role").and_then(Value::as_str).unwrap_or("");
    let known = KNOWN_ROLES.contains(&role);
    let parts_len = m
        .get("contentParts")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let has_text = m.contains_key("content");
    let has_object = m.contains_key("activityContent");
    let (uses_parts, uses_object) = if known {
        (role == "user" || role == "tool", role == "activity")
    } else {
        let parts = parts_len > 0;
        (parts, !parts && has_object)
    };
    if known {
        if !uses_parts && parts_len > 0 {
            return Err(contradiction("content parts for a role that has none"));
        }
        if has_object && !uses_object {
            return Err(contradiction("activity content for a non-activity role"));
        }
        if uses_object && has_text {
            return Err(contradiction("activity content with other content"));
        }
        if uses_parts && has_text && parts_len > 0 {
            return Err(contradiction("string content and content parts together"));
        }
    } else if usize::from(has_text) + usize::from(parts_len > 0) + usize::from(has_object) > 1 {
        return Err(contradiction("more than one content form"));
    }
    let parts = take_list(m, "contentParts");
    let object = m.remove("activityContent");
    if uses_parts && !has_text {
        let parts = content_parts(ty, parts, path, warnings);
        m.insert("content".to_owned(), Value::Array(parts));
    }
    if uses_object {
        if let Some(object) = object {
            m.insert("content".to_owned(), object);
        }
    }
    drop_empty(m, "toolCalls");
    Ok(())
}

/// `ag_ui.InputContent` oneofs as JSON content parts. A part (or a part's source) naming no arm
/// this client knows is dropped with a warning: over JSON the same unknown union member would
/// be stripped from the list, not fail the event.
fn content_parts(
    ty: &'static str,
    parts: Vec<Value>,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Vec<Value> {
    let mut out = Vec::with_capacity(parts.len());
    for (i, part) in parts.into_iter().enumerate() {
        match content_part(part) {
            Some(part) => out.push(part),
            None => warnings.push(Warning::new(
                WarningKind::Stripped,
                Some(ty),
                Some(format!("{path}/{i}")),
                "protobuf content part (or its source) of a kind this client does not know dropped",
            )),
        }
    }
    out
}

fn content_part(part: Value) -> Option<Value> {
    let Value::Object(part) = part else {
        return None;
    };
    // The oneof check let one arm through at most.
    let (kind, body) = part.into_iter().next()?;
    let Value::Object(mut body) = body else {
        return None;
    };
    if kind != "text" {
        if let Some(source) = body.remove("source") {
            body.insert("source".to_owned(), content_source(source)?);
        }
    }
    body.insert("type".to_owned(), Value::String(kind));
    Some(Value::Object(body))
}

fn content_source(source: Value) -> Option<Value> {
    let Value::Object(source) = source else {
        return None;
    };
    let (kind, body) = source.into_iter().next()?;
    let Value::Object(mut body) = body else {
        return None;
    };
    body.insert("type".to_owned(), Value::String(kind));
    Some(Value::Object(body))
}

/// Whether `bytes` walk as a protobuf message (tags, values and groups well formed), without
/// looking inside its fields: the test an unknown envelope arm passes to be taken for an event
/// from a later protocol rather than broken bytes (`walksAsMessage`).
fn walks_as_message(bytes: &[u8]) -> bool {
    let mut r = Reader::new(bytes);
    while !r.at_end() {
        let Ok((num, wire_type)) = r.tag() else {
            return false;
        };
        if r.skip(num, wire_type, MAX_DEPTH).is_err() {
            return false;
        }
    }
    true
}
