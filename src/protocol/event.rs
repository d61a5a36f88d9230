//! The 31 AG-UI 1.0 event types (spec digest §2.2–2.3) as one typed enum.
//!
//! An [`Event`] is the envelope (`timestamp`, `rawEvent`, `metadata`, `subagentRunId`) around an
//! [`EventKind`]. Values reach this type only through `enforce`, which strips unrecognised
//! material and rejects malformed fields first; serialisation is then plain serde and
//! reproduces the wire JSON (absent optionals omitted, open objects verbatim).
//!
//! Deserialisation is by hand ([`Event::from_value`]): the envelope members are taken out of the
//! object, `type` picks the kind, its members are moved into the payload. serde's derive for an
//! internally tagged enum flattened into an envelope buffers every event through serde's private
//! `Content` tree and cost about 75 KB of wasm; this gives the same values, and serde's wording
//! for the errors (`missing field`, `unknown variant`, `invalid type`) that `enforce` already
//! rules out (`tests/protocol/event_json.rs`).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::raw_json::RawJson;
use super::types::{
    list, optional, optional_object, optional_str, optional_value, required, required_object,
    required_str, required_value, Content, JsonResult, Message, Object, RunAgentInput,
    RunFinishedOutcome, SubagentOutcome, TokenUsage,
};

/// One protocol event: the kind plus the envelope fields every event may carry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    #[serde(flatten)]
    pub kind: EventKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    #[serde(rename = "rawEvent", default, skip_serializing_if = "Option::is_none")]
    pub raw_event: Option<RawJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
    /// Attribution to a subagent invocation (absent = the parent agent). Required on the
    /// `SUBAGENT_*` events, never present on `RUN_*` and `MESSAGES_SNAPSHOT`.
    #[serde(
        rename = "subagentRunId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub subagent_run_id: Option<String>,
}

impl Event {
    /// An event with no envelope fields.
    pub fn new(kind: EventKind) -> Self {
        Event {
            kind,
            timestamp: None,
            raw_event: None,
            metadata: None,
            subagent_run_id: None,
        }
    }

    /// The same event attributed to `owner`.
    pub fn owned_by(mut self, owner: Option<String>) -> Self {
        self.subagent_run_id = owner;
        self
    }

    /// The wire `type` string.
    pub fn type_name(&self) -> &'static str {
        self.kind.type_name()
    }

    /// The event as wire JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The event from wire JSON: the envelope members are taken out, the rest is the kind's
    /// payload, chosen by `type` (the same result as serde's `#[serde(flatten)]` over an
    /// internally tagged enum, without its buffering).
    #[inline(never)]
    pub fn from_value(value: Value) -> Result<Event, serde_json::Error> {
        let Value::Object(mut map) = value else {
            return Err(de::Error::custom("invalid type: expected an event object"));
        };
        let timestamp = optional(&mut map, "timestamp")?;
        let raw_event = optional_value(&mut map, "rawEvent").map(RawJson::from);
        let metadata = optional_object(&mut map, "metadata")?;
        let subagent_run_id = optional_str(&mut map, "subagentRunId")?;
        Ok(Event {
            kind: EventKind::from_object(map)?,
            timestamp,
            raw_event,
            metadata,
            subagent_run_id,
        })
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Event::from_value(Value::deserialize(deserializer)?).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for EventKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Object(map) => EventKind::from_object(map),
            _ => Err(de::Error::custom("invalid type: expected an event object")),
        }
        .map_err(de::Error::custom)
    }
}

/// A required array member (`delta`, `patch`), moved out as is.
fn required_array(map: &mut Object, key: &'static str) -> JsonResult<Vec<Value>> {
    match required_value(map, key)? {
        Value::Array(a) => Ok(a),
        other => serde_json::from_value(other),
    }
}

/// The payload of each kind, read member by member from the event object with the same
/// results and messages as the payloads' derived `Deserialize` (which is kept for callers that
/// deserialise a payload on its own), but without one inlined serde visitor per payload.
#[inline(never)]
fn payload(ty: &str, mut map: Object) -> JsonResult<EventKind> {
    let m = &mut map;
    use EventKind as K;
    Ok(match ty {
        "RUN_STARTED" => K::RunStarted(RunStarted {
            thread_id: required_str(m, "threadId")?,
            run_id: required_str(m, "runId")?,
            protocol_version: optional_str(m, "protocolVersion")?,
            parent_run_id: optional_str(m, "parentRunId")?,
            input: optional(m, "input")?,
        }),
        "RUN_FINISHED" => K::RunFinished(RunFinished {
            thread_id: required_str(m, "threadId")?,
            run_id: required_str(m, "runId")?,
            result: optional_value(m, "result"),
            outcome: optional_value(m, "outcome")
                .map(RunFinishedOutcome::from_value)
                .transpose()?,
            usage: optional(m, "usage")?,
        }),
        "RUN_ERROR" => K::RunError(RunError {
            message: required_str(m, "message")?,
            code: optional_str(m, "code")?,
            usage: optional(m, "usage")?,
        }),
        "STEP_STARTED" => K::StepStarted(Step {
            step_name: required_str(m, "stepName")?,
        }),
        "STEP_FINISHED" => K::StepFinished(Step {
            step_name: required_str(m, "stepName")?,
        }),
        "TEXT_MESSAGE_START" => K::TextMessageStart(TextMessageStart {
            message_id: required_str(m, "messageId")?,
            role: optional(m, "role")?,
            name: optional_str(m, "name")?,
        }),
        "TEXT_MESSAGE_CONTENT" => K::TextMessageContent(delta(m)?),
        "TEXT_MESSAGE_END" => K::TextMessageEnd(message_ref(m)?),
        "TEXT_MESSAGE_CHUNK" => K::TextMessageChunk(TextMessageChunk {
            message_id: optional_str(m, "messageId")?,
            role: optional(m, "role")?,
            delta: optional_str(m, "delta")?,
            name: optional_str(m, "name")?,
        }),
        "TOOL_CALL_START" => K::ToolCallStart(ToolCallStart {
            tool_call_id: required_str(m, "toolCallId")?,
            tool_call_name: required_str(m, "toolCallName")?,
            parent_message_id: optional_str(m, "parentMessageId")?,
        }),
        "TOOL_CALL_ARGS" => K::ToolCallArgs(ToolCallArgs {
            tool_call_id: required_str(m, "toolCallId")?,
            delta: required_str(m, "delta")?,
        }),
        "TOOL_CALL_END" => K::ToolCallEnd(ToolCallRef {
            tool_call_id: required_str(m, "toolCallId")?,
        }),
        "TOOL_CALL_CHUNK" => K::ToolCallChunk(ToolCallChunk {
            tool_call_id: optional_str(m, "toolCallId")?,
            tool_call_name: optional_str(m, "toolCallName")?,
            parent_message_id: optional_str(m, "parentMessageId")?,
            delta: optional_str(m, "delta")?,
        }),
        "TOOL_CALL_RESULT" => K::ToolCallResult(ToolCallResult {
            message_id: required_str(m, "messageId")?,
            tool_call_id: required_str(m, "toolCallId")?,
            content: Content::from_value(required_value(m, "content")?)?,
            role: optional_str(m, "role")?,
        }),
        "REASONING_START" => K::ReasoningStart(message_ref(m)?),
        "REASONING_END" => K::ReasoningEnd(message_ref(m)?),
        "REASONING_MESSAGE_START" => K::ReasoningMessageStart(ReasoningMessageStart {
            message_id: required_str(m, "messageId")?,
            role: required_str(m, "role")?,
        }),
        "REASONING_MESSAGE_CONTENT" => K::ReasoningMessageContent(delta(m)?),
        "REASONING_MESSAGE_END" => K::ReasoningMessageEnd(message_ref(m)?),
        "REASONING_MESSAGE_CHUNK" => K::ReasoningMessageChunk(ReasoningMessageChunk {
            message_id: optional_str(m, "messageId")?,
            delta: optional_str(m, "delta")?,
        }),
        "REASONING_ENCRYPTED_VALUE" => K::ReasoningEncryptedValue(ReasoningEncryptedValue {
            subtype: required(m, "subtype")?,
            entity_id: required_str(m, "entityId")?,
            encrypted_value: required_str(m, "encryptedValue")?,
            encrypted_value_type: optional_str(m, "encryptedValueType")?,
        }),
        "STATE_SNAPSHOT" => K::StateSnapshot(StateSnapshot {
            snapshot: required_value(m, "snapshot")?,
        }),
        "STATE_DELTA" => K::StateDelta(StateDelta {
            delta: required_array(m, "delta")?,
        }),
        "MESSAGES_SNAPSHOT" => K::MessagesSnapshot(MessagesSnapshot {
            messages: list(required_value(m, "messages")?, Message::from_value)?,
        }),
        "ACTIVITY_SNAPSHOT" => K::ActivitySnapshot(ActivitySnapshot {
            message_id: required_str(m, "messageId")?,
            activity_type: required_str(m, "activityType")?,
            content: required_object(m, "content")?,
            replace: optional(m, "replace")?,
        }),
        "ACTIVITY_DELTA" => K::ActivityDelta(ActivityDelta {
            message_id: required_str(m, "messageId")?,
            activity_type: required_str(m, "activityType")?,
            patch: required_array(m, "patch")?,
        }),
        "RAW" => K::Raw(Raw {
            event: required_value(m, "event")?.into(),
            source: optional_str(m, "source")?,
        }),
        "CUSTOM" => K::Custom(Custom {
            name: required_str(m, "name")?,
            value: required_value(m, "value")?,
        }),
        "SUBAGENT_STARTED" => K::SubagentStarted(SubagentStarted {
            name: required_str(m, "name")?,
            description: optional_str(m, "description")?,
            parent_subagent_run_id: optional_str(m, "parentSubagentRunId")?,
            parent_tool_call_id: optional_str(m, "parentToolCallId")?,
            parent_message_id: optional_str(m, "parentMessageId")?,
        }),
        "SUBAGENT_FINISHED" => K::SubagentFinished(SubagentFinished {
            result: optional_value(m, "result"),
            outcome: optional_value(m, "outcome")
                .map(SubagentOutcome::from_value)
                .transpose()?,
        }),
        "SUBAGENT_ERROR" => K::SubagentError(SubagentError {
            message: required_str(m, "message")?,
            code: optional_str(m, "code")?,
        }),
        other => return Err(de::Error::unknown_variant(other, EVENT_TYPES)),
    })
}

fn delta(m: &mut Object) -> JsonResult<Delta> {
    Ok(Delta {
        message_id: required_str(m, "messageId")?,
        delta: required_str(m, "delta")?,
    })
}

fn message_ref(m: &mut Object) -> JsonResult<MessageRef> {
    Ok(MessageRef {
        message_id: required_str(m, "messageId")?,
    })
}

macro_rules! event_kinds {
    ($($variant:ident($payload:ident) = $wire:literal,)*) => {
        /// Which event it is, with its own fields.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(tag = "type")]
        pub enum EventKind {
            $( #[serde(rename = $wire)] $variant($payload), )*
        }

        impl EventKind {
            /// The wire `type` string.
            pub fn type_name(&self) -> &'static str {
                match self { $( EventKind::$variant(_) => $wire, )* }
            }

            /// The kind from an event object (its `type` member and payload fields; any other
            /// members are ignored, as serde does).
            #[inline(never)]
            fn from_object(mut map: Object) -> Result<EventKind, serde_json::Error> {
                let ty = match map.remove("type") {
                    Some(Value::String(ty)) => ty,
                    Some(_) => return Err(de::Error::custom("invalid type: expected a string `type`")),
                    None => return Err(de::Error::missing_field("type")),
                };
                payload(&ty, map)
            }
        }

        /// Every event type of AG-UI 1.0, in schema order.
        pub const EVENT_TYPES: &[&str] = &[$($wire),*];
    };
}

event_kinds! {
    RunStarted(RunStarted) = "RUN_STARTED",
    RunFinished(RunFinished) = "RUN_FINISHED",
    RunError(RunError) = "RUN_ERROR",
    StepStarted(Step) = "STEP_STARTED",
    StepFinished(Step) = "STEP_FINISHED",
    TextMessageStart(TextMessageStart) = "TEXT_MESSAGE_START",
    TextMessageContent(Delta) = "TEXT_MESSAGE_CONTENT",
    TextMessageEnd(MessageRef) = "TEXT_MESSAGE_END",
    TextMessageChunk(TextMessageChunk) = "TEXT_MESSAGE_CHUNK",
    ToolCallStart(ToolCallStart) = "TOOL_CALL_START",
    ToolCallArgs(ToolCallArgs) = "TOOL_CALL_ARGS",
    ToolCallEnd(ToolCallRef) = "TOOL_CALL_END",
    ToolCallChunk(ToolCallChunk) = "TOOL_CALL_CHUNK",
    ToolCallResult(ToolCallResult) = "TOOL_CALL_RESULT",
    ReasoningStart(MessageRef) = "REASONING_START",
    ReasoningEnd(MessageRef) = "REASONING_END",
    ReasoningMessageStart(ReasoningMessageStart) = "REASONING_MESSAGE_START",
    ReasoningMessageContent(Delta) = "REASONING_MESSAGE_CONTENT",
    ReasoningMessageEnd(MessageRef) = "REASONING_MESSAGE_END",
    ReasoningMessageChunk(ReasoningMessageChunk) = "REASONING_MESSAGE_CHUNK",
    ReasoningEncryptedValue(ReasoningEncryptedValue) = "REASONING_ENCRYPTED_VALUE",
    StateSnapshot(StateSnapshot) = "STATE_SNAPSHOT",
    StateDelta(StateDelta) = "STATE_DELTA",
    MessagesSnapshot(MessagesSnapshot) = "MESSAGES_SNAPSHOT",
    ActivitySnapshot(ActivitySnapshot) = "ACTIVITY_SNAPSHOT",
    ActivityDelta(ActivityDelta) = "ACTIVITY_DELTA",
    Raw(Raw) = "RAW",
    Custom(Custom) = "CUSTOM",
    SubagentStarted(SubagentStarted) = "SUBAGENT_STARTED",
    SubagentFinished(SubagentFinished) = "SUBAGENT_FINISHED",
    SubagentError(SubagentError) = "SUBAGENT_ERROR",
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunStarted {
    pub thread_id: String,
    pub run_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Box<RunAgentInput>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFinished {
    pub thread_id: String,
    pub run_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RunFinishedOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Vec<TokenUsage>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunError {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Vec<TokenUsage>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub step_name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageStart {
    pub message_id: String,
    /// Absent means `assistant` (normative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<super::types::Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `…_CONTENT`: a fragment of a text or reasoning message (may be empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delta {
    pub message_id: String,
    pub delta: String,
}

/// Events that only name a message (or a reasoning span).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageRef {
    pub message_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageChunk {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<super::types::Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallStart {
    pub tool_call_id: String,
    pub tool_call_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallArgs {
    pub tool_call_id: String,
    pub delta: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallRef {
    pub tool_call_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallChunk {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallResult {
    /// Id of the tool message this result mints.
    pub message_id: String,
    pub tool_call_id: String,
    pub content: Content,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessageStart {
    pub message_id: String,
    /// Always `"reasoning"`.
    pub role: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessageChunk {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
}

/// Whether an encrypted value belongs to a tool call or a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EncryptedSubtype {
    #[serde(rename = "tool-call")]
    ToolCall,
    #[serde(rename = "message")]
    Message,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningEncryptedValue {
    pub subtype: EncryptedSubtype,
    pub entity_id: String,
    pub encrypted_value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateSnapshot {
    /// Any JSON value, including `null`.
    pub snapshot: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateDelta {
    /// RFC 6902 operations (open objects; validated by `enforce`).
    pub delta: Vec<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessagesSnapshot {
    pub messages: Vec<Message>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivitySnapshot {
    pub message_id: String,
    pub activity_type: String,
    pub content: Object,
    /// Absent means `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityDelta {
    pub message_id: String,
    pub activity_type: String,
    pub patch: Vec<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Raw {
    pub event: RawJson,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Custom {
    pub name: String,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubagentStarted {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_subagent_run_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubagentFinished {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<SubagentOutcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubagentError {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}
