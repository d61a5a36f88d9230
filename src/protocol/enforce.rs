//! Enforcement: the schema check between "JSON arrived" and "typed event" (spec digest §4.2).
//!
//! The AG-UI schema closes every event and record object. What a newer or sloppier peer adds is
//! *unrecognised material*: unknown properties are stripped, unknown union members (content
//! part, source, outcome, patch op) and unknown values of closed string sets (roles, subtypes)
//! are removed from optional slots, dropped from lists, or take their container with them from
//! a required slot — each with a [`Warning`] naming the JSON pointer. A *known* field with a
//! value the schema rejects (`delta: 42`, a float `timestamp`, an array `outcome`) is
//! [`Malformed`] and fails the run: never coerced. Open-by-design values (`metadata`, `state`,
//! `rawEvent`, activity `content`, patch-op extras, `responseSchema`) pass untouched.
//!
//! The schema is data (the `static` tables below), walked once per event: O(the event).

use serde_json::{Map, Value};

use super::error::{Malformed, Warning, WarningKind};
use super::event::Event;

/// Largest integer JSON producers can represent exactly (2^53 − 1).
pub(crate) const MAX_SAFE: u64 = (1 << 53) - 1;

#[derive(Debug)]
enum Ty {
    Str,
    /// Integer in ±(2^53 − 1); a float is malformed.
    Int,
    /// Non-negative integer ≤ 2^53 − 1.
    Count,
    Bool,
    /// Any JSON, `null` included (required payloads such as `snapshot`).
    Any,
    /// Any JSON but a whole `null`.
    AnyNotNull,
    /// An open JSON object.
    Object,
    Const(&'static str),
    /// A closed set of strings: an unknown member is unrecognised material.
    Enum(&'static [&'static str]),
    /// An RFC 6901 JSON pointer.
    Pointer,
    Rec(&'static Rec),
    List(&'static Ty),
    Union(&'static Union),
    /// A string or a list of content parts.
    TextOrParts,
}

#[derive(Debug)]
struct Field {
    name: &'static str,
    ty: Ty,
    required: bool,
    /// Legacy producers sent `null` here; it is coerced to absent with a warning.
    legacy_null: bool,
}

const fn req(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: true,
        legacy_null: false,
    }
}
const fn opt(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
        legacy_null: false,
    }
}
const fn legacy(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
        legacy_null: true,
    }
}

#[derive(Debug)]
struct Rec {
    fields: &'static [Field],
    /// Extra members are preserved (JSON Patch operations are open objects).
    open: bool,
}

#[derive(Debug)]
struct Union {
    tag: &'static str,
    variants: &'static [(&'static str, &'static Rec)],
}

const fn closed(fields: &'static [Field]) -> Rec {
    Rec {
        fields,
        open: false,
    }
}

// ---- records -------------------------------------------------------------------------------

static TEXT_PART: Rec = closed(&[
    req("text", Ty::Str),
    opt("id", Ty::Str),
    opt("metadata", Ty::AnyNotNull),
]);
static SOURCE_DATA: Rec = closed(&[req("value", Ty::Str), req("mimeType", Ty::Str)]);
static SOURCE_URL: Rec = closed(&[req("value", Ty::Str), opt("mimeType", Ty::Str)]);
static SOURCE_FILE: Rec = closed(&[
    req("value", Ty::Str),
    opt("provider", Ty::Str),
    opt("mimeType", Ty::Str),
]);
static SOURCE: Union = Union {
    tag: "type",
    variants: &[
        ("data", &SOURCE_DATA),
        ("url", &SOURCE_URL),
        ("file", &SOURCE_FILE),
    ],
};
static MEDIA_PART: Rec = closed(&[
    req("source", Ty::Union(&SOURCE)),
    opt("id", Ty::Str),
    legacy("metadata", Ty::AnyNotNull),
]);
static CONTENT_PART: Union = Union {
    tag: "type",
    variants: &[
        ("text", &TEXT_PART),
        ("image", &MEDIA_PART),
        ("audio", &MEDIA_PART),
        ("video", &MEDIA_PART),
        ("document", &MEDIA_PART),
    ],
};

static FUNCTION: Rec = closed(&[req("name", Ty::Str), req("arguments", Ty::Str)]);
static TOOL_CALL: Rec = closed(&[
    req("id", Ty::Str),
    req("type", Ty::Const("function")),
    req("function", Ty::Rec(&FUNCTION)),
    opt("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
    opt("metadata", Ty::Object),
]);

static MSG_PLAIN: Rec = closed(&[
    req("id", Ty::Str),
    req("content", Ty::Str),
    opt("name", Ty::Str),
    opt("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static MSG_ASSISTANT: Rec = closed(&[
    req("id", Ty::Str),
    opt("content", Ty::Str),
    opt("toolCalls", Ty::List(&Ty::Rec(&TOOL_CALL))),
    opt("name", Ty::Str),
    opt("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static MSG_USER: Rec = closed(&[
    req("id", Ty::Str),
    req("content", Ty::TextOrParts),
    opt("name", Ty::Str),
    opt("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static MSG_TOOL: Rec = closed(&[
    req("id", Ty::Str),
    req("content", Ty::TextOrParts),
    req("toolCallId", Ty::Str),
    opt("error", Ty::Str),
    opt("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static MSG_ACTIVITY: Rec = closed(&[
    req("id", Ty::Str),
    req("activityType", Ty::Str),
    req("content", Ty::Object),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static MSG_REASONING: Rec = closed(&[
    req("id", Ty::Str),
    req("content", Ty::Str),
    opt("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static MESSAGE: Union = Union {
    tag: "role",
    variants: &[
        ("developer", &MSG_PLAIN),
        ("system", &MSG_PLAIN),
        ("assistant", &MSG_ASSISTANT),
        ("user", &MSG_USER),
        ("tool", &MSG_TOOL),
        ("activity", &MSG_ACTIVITY),
        ("reasoning", &MSG_REASONING),
    ],
};
static MESSAGES: Ty = Ty::List(&Ty::Union(&MESSAGE));

static TOOL: Rec = closed(&[
    req("name", Ty::Str),
    req("description", Ty::Str),
    legacy("parameters", Ty::AnyNotNull),
    opt("metadata", Ty::Object),
]);
static CONTEXT: Rec = closed(&[req("description", Ty::Str), req("value", Ty::Str)]);
static RESUME_ENTRY: Rec = closed(&[
    req("interruptId", Ty::Str),
    req("status", Ty::Enum(&["resolved", "cancelled"])),
    legacy("payload", Ty::AnyNotNull),
    opt("metadata", Ty::Object),
]);
static RUN_INPUT: Rec = closed(&[
    req("threadId", Ty::Str),
    req("runId", Ty::Str),
    opt("protocolVersion", Ty::Str),
    opt("parentRunId", Ty::Str),
    opt("state", Ty::AnyNotNull),
    req("messages", Ty::List(&Ty::Union(&MESSAGE))),
    opt("tools", Ty::List(&Ty::Rec(&TOOL))),
    opt("context", Ty::List(&Ty::Rec(&CONTEXT))),
    legacy("forwardedProps", Ty::AnyNotNull),
    opt("resume", Ty::List(&Ty::Rec(&RESUME_ENTRY))),
]);

static INTERRUPT: Rec = closed(&[
    req("id", Ty::Str),
    req("reason", Ty::Str),
    opt("message", Ty::Str),
    opt("toolCallId", Ty::Str),
    opt("responseSchema", Ty::Object),
    opt("expiresAt", Ty::Str),
    opt("metadata", Ty::Object),
    opt("subagentRunId", Ty::Str),
]);
static USAGE: Rec = closed(&[
    opt("provider", Ty::Str),
    opt("model", Ty::Str),
    opt("inputTokens", Ty::Count),
    opt("outputTokens", Ty::Count),
    opt("totalTokens", Ty::Count),
    opt("reasoningTokens", Ty::Count),
    opt("cachedInputTokens", Ty::Count),
    opt("cacheWriteInputTokens", Ty::Count),
]);
static USAGES: Ty = Ty::List(&Ty::Rec(&USAGE));
static OUTCOME_SUCCESS: Rec = closed(&[opt("pendingToolCallIds", Ty::List(&Ty::Str))]);
static OUTCOME_INTERRUPT: Rec = closed(&[req("interrupts", Ty::List(&Ty::Rec(&INTERRUPT)))]);
static OUTCOME_CANCELLED: Rec = closed(&[]);
static OUTCOME: Union = Union {
    tag: "type",
    variants: &[
        ("success", &OUTCOME_SUCCESS),
        ("interrupt", &OUTCOME_INTERRUPT),
        ("cancelled", &OUTCOME_CANCELLED),
    ],
};
static SUB_SUCCESS: Rec = closed(&[]);
static SUB_SUSPENDED: Rec = closed(&[opt("interruptIds", Ty::List(&Ty::Str))]);
static SUB_OUTCOME: Union = Union {
    tag: "type",
    variants: &[("success", &SUB_SUCCESS), ("suspended", &SUB_SUSPENDED)],
};

static OP_VALUE: Rec = Rec {
    fields: &[req("path", Ty::Pointer), req("value", Ty::Any)],
    open: true,
};
static OP_PATH: Rec = Rec {
    fields: &[req("path", Ty::Pointer)],
    open: true,
};
static OP_FROM: Rec = Rec {
    fields: &[req("from", Ty::Pointer), req("path", Ty::Pointer)],
    open: true,
};
static PATCH_OP: Union = Union {
    tag: "op",
    variants: &[
        ("add", &OP_VALUE),
        ("remove", &OP_PATH),
        ("replace", &OP_VALUE),
        ("move", &OP_FROM),
        ("copy", &OP_FROM),
        ("test", &OP_VALUE),
    ],
};
static PATCH: Ty = Ty::List(&Ty::Union(&PATCH_OP));

const TEXT_ROLES: &[&str] = &["developer", "system", "assistant", "user"];

static EV_1: &[Field] = &[
    req("threadId", Ty::Str),
    req("runId", Ty::Str),
    opt("protocolVersion", Ty::Str),
    opt("parentRunId", Ty::Str),
    opt("input", Ty::Rec(&RUN_INPUT)),
];
static EV_2: &[Field] = &[
    req("threadId", Ty::Str),
    req("runId", Ty::Str),
    legacy("result", Ty::AnyNotNull),
    legacy("outcome", Ty::Union(&OUTCOME)),
    opt("usage", Ty::List(&Ty::Rec(&USAGE))),
];
static EV_3: &[Field] = &[
    req("message", Ty::Str),
    opt("code", Ty::Str),
    opt("usage", Ty::List(&Ty::Rec(&USAGE))),
];
static EV_4: &[Field] = &[req("stepName", Ty::Str)];
static EV_5: &[Field] = &[
    req("messageId", Ty::Str),
    opt("role", Ty::Enum(TEXT_ROLES)),
    opt("name", Ty::Str),
];
static EV_6: &[Field] = &[req("messageId", Ty::Str), req("delta", Ty::Str)];
static EV_7: &[Field] = &[req("messageId", Ty::Str)];
static EV_8: &[Field] = &[
    opt("messageId", Ty::Str),
    opt("role", Ty::Enum(TEXT_ROLES)),
    opt("delta", Ty::Str),
    opt("name", Ty::Str),
];
static EV_9: &[Field] = &[
    req("toolCallId", Ty::Str),
    req("toolCallName", Ty::Str),
    legacy("parentMessageId", Ty::Str),
];
static EV_10: &[Field] = &[req("toolCallId", Ty::Str), req("delta", Ty::Str)];
static EV_11: &[Field] = &[req("toolCallId", Ty::Str)];
static EV_12: &[Field] = &[
    opt("toolCallId", Ty::Str),
    opt("toolCallName", Ty::Str),
    legacy("parentMessageId", Ty::Str),
    opt("delta", Ty::Str),
];
static EV_13: &[Field] = &[
    req("messageId", Ty::Str),
    req("toolCallId", Ty::Str),
    req("content", Ty::TextOrParts),
    opt("role", Ty::Const("tool")),
];
static EV_14: &[Field] = &[
    req("messageId", Ty::Str),
    req("role", Ty::Const("reasoning")),
];
static EV_15: &[Field] = &[opt("messageId", Ty::Str), opt("delta", Ty::Str)];
static EV_16: &[Field] = &[
    req("subtype", Ty::Enum(&["tool-call", "message"])),
    req("entityId", Ty::Str),
    req("encryptedValue", Ty::Str),
    opt("encryptedValueType", Ty::Str),
];
static EV_17: &[Field] = &[req("snapshot", Ty::Any)];
static EV_18: &[Field] = &[req("delta", Ty::List(&Ty::Union(&PATCH_OP)))];
static EV_19: &[Field] = &[req("messages", Ty::List(&Ty::Union(&MESSAGE)))];
static EV_20: &[Field] = &[
    req("messageId", Ty::Str),
    req("activityType", Ty::Str),
    req("content", Ty::Object),
    opt("replace", Ty::Bool),
];
static EV_21: &[Field] = &[
    req("messageId", Ty::Str),
    req("activityType", Ty::Str),
    req("patch", Ty::List(&Ty::Union(&PATCH_OP))),
];
static EV_22: &[Field] = &[req("event", Ty::Any), opt("source", Ty::Str)];
static EV_23: &[Field] = &[req("name", Ty::Str), req("value", Ty::Any)];
static EV_24: &[Field] = &[
    req("name", Ty::Str),
    opt("description", Ty::Str),
    opt("parentSubagentRunId", Ty::Str),
    opt("parentToolCallId", Ty::Str),
    opt("parentMessageId", Ty::Str),
];
static EV_25: &[Field] = &[
    legacy("result", Ty::AnyNotNull),
    opt("outcome", Ty::Union(&SUB_OUTCOME)),
];
static EV_26: &[Field] = &[req("message", Ty::Str), opt("code", Ty::Str)];

/// Event bodies, without the envelope (`type`, `timestamp`, `rawEvent`, `metadata`,
/// `subagentRunId`), which [`enforce_event`] handles for all.
fn event_schema(event_type: &str) -> Option<(&'static [Field], Attribution)> {
    let fields: &'static [Field] = match event_type {
        "RUN_STARTED" => EV_1,
        "RUN_FINISHED" => EV_2,
        "RUN_ERROR" => EV_3,
        "STEP_STARTED" | "STEP_FINISHED" => EV_4,
        "TEXT_MESSAGE_START" => EV_5,
        "TEXT_MESSAGE_CONTENT" | "REASONING_MESSAGE_CONTENT" => EV_6,
        "TEXT_MESSAGE_END" | "REASONING_START" | "REASONING_END" | "REASONING_MESSAGE_END" => EV_7,
        "TEXT_MESSAGE_CHUNK" => EV_8,
        "TOOL_CALL_START" => EV_9,
        "TOOL_CALL_ARGS" => EV_10,
        "TOOL_CALL_END" => EV_11,
        "TOOL_CALL_CHUNK" => EV_12,
        "TOOL_CALL_RESULT" => EV_13,
        "REASONING_MESSAGE_START" => EV_14,
        "REASONING_MESSAGE_CHUNK" => EV_15,
        "REASONING_ENCRYPTED_VALUE" => EV_16,
        "STATE_SNAPSHOT" => EV_17,
        "STATE_DELTA" => EV_18,
        "MESSAGES_SNAPSHOT" => EV_19,
        "ACTIVITY_SNAPSHOT" => EV_20,
        "ACTIVITY_DELTA" => EV_21,
        "RAW" => EV_22,
        "CUSTOM" => EV_23,
        "SUBAGENT_STARTED" => EV_24,
        "SUBAGENT_FINISHED" => EV_25,
        "SUBAGENT_ERROR" => EV_26,
        _ => return None,
    };
    let attribution = match event_type {
        "RUN_STARTED" | "RUN_FINISHED" | "RUN_ERROR" | "MESSAGES_SNAPSHOT" => Attribution::None,
        "SUBAGENT_STARTED" | "SUBAGENT_FINISHED" | "SUBAGENT_ERROR" => Attribution::Required,
        _ => Attribution::Optional,
    };
    Some((fields, attribution))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Attribution {
    None,
    Optional,
    Required,
}

/// What happened to one event in enforcement.
#[derive(Debug)]
pub enum Enforced {
    /// The event, cleaned and typed.
    Event(Box<Event>),
    /// The whole event was unrecognised (unknown `type`, or a required member removed).
    Dropped,
}

/// Check one decoded JSON value as an inbound event: strip, warn, or fail.
pub fn enforce_event(
    mut value: Value,
    warnings: &mut Vec<Warning>,
) -> Result<Enforced, EventError> {
    let Value::Object(obj) = &mut value else {
        return Err(EventError::NotAnEvent(format!(
            "expected a JSON object, received {}",
            kind_of(&value)
        )));
    };
    let event_type = match obj.get("type") {
        Some(Value::String(t)) if !t.is_empty() => t.clone(),
        _ => {
            return Err(EventError::NotAnEvent(
                "the event has no non-empty string `type`".into(),
            ))
        }
    };
    let Some((fields, attribution)) = event_schema(&event_type) else {
        warnings.push(Warning::new(
            WarningKind::UnknownEvent,
            Some(&event_type),
            None,
            format!("unknown event type {event_type} dropped"),
        ));
        return Ok(Enforced::Dropped);
    };
    let mut cx = Cx {
        event_type: &event_type,
        warnings,
        path: String::new(),
    };
    let sub = match attribution {
        Attribution::None => None,
        Attribution::Optional => Some(opt("subagentRunId", Ty::Str)),
        Attribution::Required => Some(req("subagentRunId", Ty::Str)),
    };
    let envelope = [
        opt("timestamp", Ty::Int),
        legacy("rawEvent", Ty::AnyNotNull),
        opt("metadata", Ty::Object),
    ];
    let all = envelope
        .iter()
        .chain(sub.iter())
        .chain(fields.iter())
        .collect::<Vec<_>>();
    match cx.record(obj, &all, false, Some("type"))? {
        Verdict::Keep => {}
        Verdict::Drop => {
            cx.warnings.push(Warning::new(
                WarningKind::Stripped,
                Some(&event_type),
                None,
                "event dropped: a required member was unrecognised",
            ));
            return Ok(Enforced::Dropped);
        }
    }
    match Event::from_value(value) {
        Ok(ev) => Ok(Enforced::Event(Box::new(ev))),
        // Enforcement guarantees the shape; reaching this is a bug, but still only an error.
        Err(e) => Err(EventError::Malformed(Malformed {
            event_type,
            path: String::new(),
            problem: e.to_string(),
        })),
    }
}

/// Check an outgoing or seeded list of messages (e.g. `RunAgentInput.messages`) in place.
pub fn enforce_messages(
    messages: &mut Value,
    context: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(), Malformed> {
    let mut cx = Cx {
        event_type: context,
        warnings,
        path: String::new(),
    };
    cx.check(messages, &MESSAGES).map(|_| ())
}

/// Check a whole outgoing `RunAgentInput` in place (strip unknown, fail malformed).
pub fn enforce_input(input: &mut Value, warnings: &mut Vec<Warning>) -> Result<(), Malformed> {
    let mut cx = Cx {
        event_type: "RunAgentInput",
        warnings,
        path: String::new(),
    };
    cx.check(input, &Ty::Rec(&RUN_INPUT)).map(|_| ())
}

/// Check a JSON Patch document (state delta or activity patch), used by tests and replay tools.
pub fn enforce_patch(patch: &mut Value, warnings: &mut Vec<Warning>) -> Result<(), Malformed> {
    let mut cx = Cx {
        event_type: "JsonPatch",
        warnings,
        path: String::new(),
    };
    cx.check(patch, &PATCH).map(|_| ())
}

/// Token usage lists are validated with the events that carry them; exposed for reuse.
#[doc(hidden)]
pub fn enforce_usage(usage: &mut Value, warnings: &mut Vec<Warning>) -> Result<(), Malformed> {
    let mut cx = Cx {
        event_type: "usage",
        warnings,
        path: String::new(),
    };
    cx.check(usage, &USAGES).map(|_| ())
}

/// A frame that could not become an event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("{0}")]
    NotAnEvent(String),
    #[error(transparent)]
    Malformed(#[from] Malformed),
}

enum Verdict {
    Keep,
    /// Unrecognised material: the caller removes the value from its slot.
    Drop,
}

struct Cx<'a> {
    event_type: &'a str,
    warnings: &'a mut Vec<Warning>,
    /// JSON pointer of the value being checked.
    path: String,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A number written with a zero fraction (`12.0`) within ±(2^53 − 1), as an integer. JSON
/// Schema counts it as an integer, and so does the reference client (`JSON.parse` makes it 12);
/// the value is rewritten as `12` so the typed event can hold it. Same number, not a repair.
fn integral(n: &serde_json::Number) -> Option<i64> {
    let f = n.as_f64()?;
    let safe = f.fract() == 0.0 && f.abs() <= MAX_SAFE as f64;
    // In range, so the conversion is exact.
    safe.then_some(f as i64)
}

/// RFC 6901 pointer syntax: `^(/([^/~]|~[01])*)*$`.
fn is_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0') | Some('1')) {
            return false;
        }
    }
    true
}

fn escape_token(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) {
        std::borrow::Cow::Owned(key.replace('~', "~0").replace('/', "~1"))
    } else {
        std::borrow::Cow::Borrowed(key)
    }
}

impl Cx<'_> {
    fn malformed(&self, problem: impl Into<String>) -> Malformed {
        Malformed {
            event_type: self.event_type.to_owned(),
            path: if self.path.is_empty() {
                "/".into()
            } else {
                self.path.clone()
            },
            problem: problem.into(),
        }
    }

    fn expected(&self, what: &str, got: &Value) -> Malformed {
        self.malformed(format!("expected {what}, received {}", kind_of(got)))
    }

    fn warn(&mut self, kind: WarningKind, message: impl Into<String>) {
        let path = if self.path.is_empty() {
            None
        } else {
            Some(self.path.clone())
        };
        self.warnings
            .push(Warning::new(kind, Some(self.event_type), path, message));
    }

    fn with_segment<T>(&mut self, seg: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let len = self.path.len();
        self.path.push('/');
        self.path.push_str(&escape_token(seg));
        let out = f(self);
        self.path.truncate(len);
        out
    }

    fn check(&mut self, v: &mut Value, ty: &Ty) -> Result<Verdict, Malformed> {
        match ty {
            Ty::Str => match v {
                Value::String(_) => Ok(Verdict::Keep),
                _ => Err(self.expected("string", v)),
            },
            Ty::Pointer => match v {
                Value::String(s) if is_pointer(s) => Ok(Verdict::Keep),
                Value::String(s) => Err(self.malformed(format!("invalid JSON pointer {s:?}"))),
                _ => Err(self.expected("string", v)),
            },
            Ty::Bool => match v {
                Value::Bool(_) => Ok(Verdict::Keep),
                _ => Err(self.expected("boolean", v)),
            },
            Ty::Int => match v {
                Value::Number(n) => match (n.as_i64(), n.as_u64(), integral(n)) {
                    (Some(i), _, _) if i.unsigned_abs() <= MAX_SAFE => Ok(Verdict::Keep),
                    (None, Some(_), _) | (Some(_), _, _) => {
                        Err(self.malformed("integer outside ±(2^53−1)"))
                    }
                    (None, None, Some(i)) => {
                        *v = Value::from(i);
                        Ok(Verdict::Keep)
                    }
                    (None, None, None) => Err(self.malformed("expected integer, received number")),
                },
                _ => Err(self.expected("integer", v)),
            },
            Ty::Count => match v {
                Value::Number(n) => match (n.as_u64(), integral(n)) {
                    (Some(u), _) if u <= MAX_SAFE => Ok(Verdict::Keep),
                    (None, Some(i)) if i >= 0 => {
                        *v = Value::from(i);
                        Ok(Verdict::Keep)
                    }
                    _ => Err(self.malformed("expected a non-negative integer ≤ 2^53−1")),
                },
                _ => Err(self.expected("non-negative integer", v)),
            },
            Ty::Any => Ok(Verdict::Keep),
            Ty::AnyNotNull => match v {
                Value::Null => Err(self.expected("a JSON value", v)),
                _ => Ok(Verdict::Keep),
            },
            Ty::Object => match v {
                Value::Object(_) => Ok(Verdict::Keep),
                _ => Err(self.expected("object", v)),
            },
            Ty::Const(c) => match v {
                Value::String(s) if s == c => Ok(Verdict::Keep),
                Value::String(s) => {
                    Err(self.malformed(format!("expected \"{c}\", received \"{s}\"")))
                }
                _ => Err(self.expected(&format!("\"{c}\""), v)),
            },
            Ty::Enum(set) => match v {
                Value::String(s) if set.contains(&s.as_str()) => Ok(Verdict::Keep),
                Value::String(_) => Ok(Verdict::Drop),
                _ => Err(self.expected("string", v)),
            },
            Ty::Rec(rec) => match v {
                Value::Object(obj) => {
                    let fields = rec.fields.iter().collect::<Vec<_>>();
                    self.record(obj, &fields, rec.open, None)
                }
                _ => Err(self.expected("object", v)),
            },
            Ty::List(item) => match v {
                Value::Array(items) => {
                    self.list(items, item)?;
                    Ok(Verdict::Keep)
                }
                _ => Err(self.expected("array", v)),
            },
            Ty::Union(u) => match v {
                Value::Object(obj) => {
                    let tag = match obj.get(u.tag) {
                        Some(Value::String(t)) => t.clone(),
                        Some(other) => {
                            let e = self.with_segment(u.tag, |cx| cx.expected("string", other));
                            return Err(e);
                        }
                        None => {
                            return Err(self
                                .with_segment(u.tag, |cx| cx.malformed("required field missing")))
                        }
                    };
                    match u.variants.iter().find(|(name, _)| *name == tag) {
                        Some((_, rec)) => {
                            let fields = rec.fields.iter().collect::<Vec<_>>();
                            self.record(obj, &fields, rec.open, Some(u.tag))
                        }
                        None => Ok(Verdict::Drop),
                    }
                }
                _ => Err(self.expected("object", v)),
            },
            Ty::TextOrParts => match v {
                Value::String(_) => Ok(Verdict::Keep),
                Value::Array(items) => {
                    self.list(items, &Ty::Union(&CONTENT_PART))?;
                    Ok(Verdict::Keep)
                }
                _ => Err(self.expected("string or array of content parts", v)),
            },
        }
    }

    fn list(&mut self, items: &mut Vec<Value>, item_ty: &Ty) -> Result<(), Malformed> {
        let mut drop = Vec::new();
        for (i, item) in items.iter_mut().enumerate() {
            let verdict = self.with_segment(&i.to_string(), |cx| cx.check(item, item_ty))?;
            if let Verdict::Drop = verdict {
                let what = describe(item);
                self.with_segment(&i.to_string(), |cx| {
                    cx.warn(
                        WarningKind::Stripped,
                        format!("dropped unrecognised element{what}"),
                    )
                });
                drop.push(i);
            }
        }
        if !drop.is_empty() {
            let mut i = 0;
            items.retain(|_| {
                let keep = !drop.contains(&i);
                i += 1;
                keep
            });
        }
        Ok(())
    }

    fn record(
        &mut self,
        obj: &mut Map<String, Value>,
        fields: &[&Field],
        open: bool,
        tag: Option<&str>,
    ) -> Result<Verdict, Malformed> {
        if !open {
            let unknown = obj
                .keys()
                .filter(|k| Some(k.as_str()) != tag && !fields.iter().any(|f| f.name == *k))
                .cloned()
                .collect::<Vec<_>>();
            for key in unknown {
                obj.remove(&key);
                self.with_segment(&key, |cx| {
                    cx.warn(WarningKind::Stripped, "stripped unrecognised property")
                });
            }
        }
        for field in fields {
            let Some(value) = obj.get_mut(field.name) else {
                if field.required {
                    return Err(
                        self.with_segment(field.name, |cx| cx.malformed("required field missing"))
                    );
                }
                continue;
            };
            if value.is_null() && !matches!(field.ty, Ty::Any) {
                if field.legacy_null {
                    obj.remove(field.name);
                    self.with_segment(field.name, |cx| {
                        cx.warn(WarningKind::LegacyNull, "legacy null coerced to absent")
                    });
                    continue;
                }
                return Err(self.with_segment(field.name, |cx| {
                    cx.expected(&expected_name(&field.ty), &Value::Null)
                }));
            }
            let verdict = self.with_segment(field.name, |cx| cx.check(value, &field.ty))?;
            if let Verdict::Drop = verdict {
                if field.required {
                    return Ok(Verdict::Drop);
                }
                let what = describe(value);
                obj.remove(field.name);
                self.with_segment(field.name, |cx| {
                    cx.warn(
                        WarningKind::Stripped,
                        format!("removed unrecognised value{what}"),
                    )
                });
            }
        }
        Ok(Verdict::Keep)
    }
}

fn expected_name(ty: &Ty) -> String {
    match ty {
        Ty::Str | Ty::Pointer | Ty::Enum(_) => "string".into(),
        Ty::Int | Ty::Count => "integer".into(),
        Ty::Bool => "boolean".into(),
        Ty::Any | Ty::AnyNotNull => "a JSON value".into(),
        Ty::Object | Ty::Rec(_) | Ty::Union(_) => "object".into(),
        Ty::Const(c) => format!("\"{c}\""),
        Ty::List(_) => "array".into(),
        Ty::TextOrParts => "string or array of content parts".into(),
    }
}

/// A short description of an unrecognised value for the warning text.
fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!(" \"{}\"", s.chars().take(40).collect::<String>()),
        Value::Object(o) => {
            for key in ["type", "op", "role"] {
                if let Some(Value::String(t)) = o.get(key) {
                    return format!(" ({key} \"{}\")", t.chars().take(40).collect::<String>());
                }
            }
            String::new()
        }
        _ => String::new(),
    }
}
