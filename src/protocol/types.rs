//! The AG-UI 1.0 record types that events carry (spec digest §2.5 and §3): messages, content
//! parts, tool calls, tools, context, `RunAgentInput`, interrupts, resume entries, token usage
//! and run outcomes.
//!
//! These are the *validated* shapes: `enforce` has already stripped unknown material and
//! rejected malformed values before anything is deserialised into them, so serde here only
//! moves data. Serialisation reproduces the AG-UI wire form (camelCase, absent optionals
//! omitted, open objects such as `metadata` kept verbatim including explicit `null`s).
//!
//! The tagged and untagged enums (`Content`, `ContentPart`, `PartSource`, the outcomes) are
//! deserialised by hand through a [`Value`]: serde's derive for them buffers through its private
//! `Content` tree once per deserializer type, which is large in wasm. Same values, same messages.

use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// An open JSON object (`metadata`, activity `content`, `responseSchema`, …).
pub type Object = Map<String, Value>;

/// The role of a message. `Activity` and `Reasoning` messages are client-side history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Developer,
    System,
    Assistant,
    User,
    Tool,
    Activity,
    Reasoning,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Developer => "developer",
            Role::System => "system",
            Role::Assistant => "assistant",
            Role::User => "user",
            Role::Tool => "tool",
            Role::Activity => "activity",
            Role::Reasoning => "reasoning",
        }
    }
}

/// `content` of a message: text, a list of parts (user and tool messages), or the open object
/// of an activity message.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
    Object(Object),
}

impl Content {
    /// The text of the content: the string itself, or the `text` parts joined with `\n`.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Content::Text(s) => std::borrow::Cow::Borrowed(s),
            Content::Parts(parts) => std::borrow::Cow::Owned(
                parts
                    .iter()
                    .filter_map(|p| match p {
                        ContentPart::Text { text, .. } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Content::Object(_) => std::borrow::Cow::Borrowed(""),
        }
    }
}

/// One multimodal content part (§3).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ContentPart {
    Text {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        metadata: Option<Value>,
    },
    Image(MediaPart),
    Audio(MediaPart),
    Video(MediaPart),
    Document(MediaPart),
}

/// The body shared by image, audio, video and document parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaPart {
    pub source: PartSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// Where a media part's bytes live. `File` values are provider handles: never fetched.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PartSource {
    Data {
        value: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    Url {
        value: String,
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    File {
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
}

/// A function call made by an assistant message. `arguments` is raw text, possibly invalid JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub function: FunctionCall,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    pub arguments: String,
}

/// One message of the conversation, in AG-UI wire shape (a flat record; which fields may be
/// present depends on `role`, and `enforce` guarantees that).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub id: String,
    pub role: Role,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Content>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
}

impl Message {
    /// A bare message with only `id` and `role`.
    pub fn new(id: impl Into<String>, role: Role) -> Self {
        Message {
            id: id.into(),
            role,
            content: None,
            name: None,
            tool_calls: None,
            tool_call_id: None,
            error: None,
            activity_type: None,
            encrypted_value: None,
            encrypted_value_type: None,
            metadata: None,
            subagent_run_id: None,
        }
    }

    /// A user message with text content.
    pub fn user(id: impl Into<String>, text: impl Into<String>) -> Self {
        let mut m = Message::new(id, Role::User);
        m.content = Some(Content::Text(text.into()));
        m
    }

    /// The text content (empty for none, parts joined, activity objects empty).
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match &self.content {
            Some(c) => c.text(),
            None => std::borrow::Cow::Borrowed(""),
        }
    }
}

/// A frontend tool advertised in `RunAgentInput.tools`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

/// Ambient information for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    pub description: String,
    pub value: String,
}

/// `resolved` or `cancelled` in a resume entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResumeStatus {
    Resolved,
    Cancelled,
}

/// The answer to one interrupt, sent in the next run's `resume` array (§4.11).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    pub interrupt_id: String,
    pub status: ResumeStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

/// The one request body of a run (§1.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    pub thread_id: String,
    pub run_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    pub messages: Vec<Message>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Vec<Context>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forwarded_props: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Vec<ResumeEntry>>,
}

/// A request for outside input that pauses a run (§2.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Interrupt {
    pub id: String,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Object>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
}

/// Token accounting for one provider + model (§2.5). Absent is not zero.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_input_tokens: Option<u64>,
}

/// `RUN_FINISHED.outcome` on the JSON wire (§2.4).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum RunFinishedOutcome {
    Success {
        #[serde(
            rename = "pendingToolCallIds",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        pending_tool_call_ids: Option<Vec<String>>,
    },
    Interrupt {
        interrupts: Vec<Interrupt>,
    },
    Cancelled,
}

/// `SUBAGENT_FINISHED.outcome`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SubagentOutcome {
    Success,
    Suspended {
        #[serde(
            rename = "interruptIds",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        interrupt_ids: Option<Vec<String>>,
    },
}

// --- hand-written Deserialize for the tagged / untagged enums ---------------------------------

/// `Deserialize` through a [`Value`] and a non-generic `from_value` (one copy of the logic
/// whatever the deserializer).
macro_rules! deserialize_via_value {
    ($($ty:ident),*) => {$(
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $ty::from_value(Value::deserialize(deserializer)?).map_err(de::Error::custom)
            }
        }
    )*};
}
deserialize_via_value!(
    Message,
    Interrupt,
    Content,
    ContentPart,
    PartSource,
    RunFinishedOutcome,
    SubagentOutcome
);

pub(crate) type JsonResult<T> = Result<T, serde_json::Error>;

/// The object and its `type` tag (removed), as serde's internally tagged enums read them.
fn tagged(value: Value, what: &str) -> JsonResult<(String, Object)> {
    let Value::Object(mut map) = value else {
        return Err(de::Error::custom(format_args!(
            "invalid type: expected internally tagged enum {what}"
        )));
    };
    match map.remove("type") {
        Some(Value::String(tag)) => Ok((tag, map)),
        Some(_) => Err(de::Error::custom("invalid type: expected a string `type`")),
        None => Err(de::Error::missing_field("type")),
    }
}

/// A required member of `map` (serde's messages: ``missing field `key` ``, `invalid type: …`).
pub(crate) fn required<T: DeserializeOwned>(map: &mut Object, key: &'static str) -> JsonResult<T> {
    match map.remove(key) {
        Some(v) => serde_json::from_value(v),
        None => Err(de::Error::missing_field(key)),
    }
}

/// An optional member of `map` (`null` reads as absent, like serde's `Option`).
pub(crate) fn optional<T: DeserializeOwned>(
    map: &mut Object,
    key: &'static str,
) -> JsonResult<Option<T>> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v).map(Some),
    }
}

/// The object a record is read from (`what` names the record in the message).
fn object(value: Value, what: &str) -> JsonResult<Object> {
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(de::Error::custom(format_args!(
            "invalid type: expected struct {what}"
        ))),
    }
}

impl Message {
    /// Member by member (messages are read from events, requests and saved threads: one copy
    /// of the code for all of them).
    #[inline(never)]
    pub(crate) fn from_value(value: Value) -> JsonResult<Message> {
        let m = &mut object(value, "Message")?;
        Ok(Message {
            id: required_str(m, "id")?,
            role: required(m, "role")?,
            content: optional_value(m, "content")
                .map(Content::from_value)
                .transpose()?,
            name: optional_str(m, "name")?,
            tool_calls: optional(m, "toolCalls")?,
            tool_call_id: optional_str(m, "toolCallId")?,
            error: optional_str(m, "error")?,
            activity_type: optional_str(m, "activityType")?,
            encrypted_value: optional_str(m, "encryptedValue")?,
            encrypted_value_type: optional_str(m, "encryptedValueType")?,
            metadata: optional_object(m, "metadata")?,
            subagent_run_id: optional_str(m, "subagentRunId")?,
        })
    }
}

impl Interrupt {
    #[inline(never)]
    pub(crate) fn from_value(value: Value) -> JsonResult<Interrupt> {
        let m = &mut object(value, "Interrupt")?;
        Ok(Interrupt {
            id: required_str(m, "id")?,
            reason: required_str(m, "reason")?,
            message: optional_str(m, "message")?,
            tool_call_id: optional_str(m, "toolCallId")?,
            response_schema: optional_object(m, "responseSchema")?,
            expires_at: optional_str(m, "expiresAt")?,
            metadata: optional_object(m, "metadata")?,
            subagent_run_id: optional_str(m, "subagentRunId")?,
        })
    }
}

/// A list of records, each moved into `read`.
pub(crate) fn list<T>(value: Value, read: fn(Value) -> JsonResult<T>) -> JsonResult<Vec<T>> {
    match value {
        Value::Array(items) => items.into_iter().map(read).collect(),
        other => serde_json::from_value::<Vec<Value>>(other).map(|_| Vec::new()),
    }
}

impl Content {
    #[inline(never)]
    pub(crate) fn from_value(value: Value) -> JsonResult<Content> {
        match value {
            Value::String(s) => Ok(Content::Text(s)),
            Value::Object(o) => Ok(Content::Object(o)),
            Value::Array(items) => items
                .into_iter()
                .map(ContentPart::from_value)
                .collect::<JsonResult<Vec<_>>>()
                .map(Content::Parts)
                .map_err(|_| {
                    de::Error::custom("data did not match any variant of untagged enum Content")
                }),
            _ => Err(de::Error::custom(
                "data did not match any variant of untagged enum Content",
            )),
        }
    }
}

impl ContentPart {
    #[inline(never)]
    fn from_value(value: Value) -> JsonResult<ContentPart> {
        let (tag, mut map) = tagged(value, "ContentPart")?;
        let media = |map: Object| serde_json::from_value::<MediaPart>(Value::Object(map));
        match tag.as_str() {
            "text" => Ok(ContentPart::Text {
                text: required(&mut map, "text")?,
                id: optional(&mut map, "id")?,
                metadata: optional(&mut map, "metadata")?,
            }),
            "image" => media(map).map(ContentPart::Image),
            "audio" => media(map).map(ContentPart::Audio),
            "video" => media(map).map(ContentPart::Video),
            "document" => media(map).map(ContentPart::Document),
            other => Err(de::Error::unknown_variant(
                other,
                &["text", "image", "audio", "video", "document"],
            )),
        }
    }
}

impl PartSource {
    #[inline(never)]
    fn from_value(value: Value) -> JsonResult<PartSource> {
        let (tag, mut map) = tagged(value, "PartSource")?;
        match tag.as_str() {
            "data" => Ok(PartSource::Data {
                value: required(&mut map, "value")?,
                mime_type: required(&mut map, "mimeType")?,
            }),
            "url" => Ok(PartSource::Url {
                value: required(&mut map, "value")?,
                mime_type: optional(&mut map, "mimeType")?,
            }),
            "file" => Ok(PartSource::File {
                value: required(&mut map, "value")?,
                provider: optional(&mut map, "provider")?,
                mime_type: optional(&mut map, "mimeType")?,
            }),
            other => Err(de::Error::unknown_variant(other, &["data", "url", "file"])),
        }
    }
}

impl RunFinishedOutcome {
    #[inline(never)]
    pub(crate) fn from_value(value: Value) -> JsonResult<RunFinishedOutcome> {
        let (tag, mut map) = tagged(value, "RunFinishedOutcome")?;
        match tag.as_str() {
            "success" => Ok(RunFinishedOutcome::Success {
                pending_tool_call_ids: optional(&mut map, "pendingToolCallIds")?,
            }),
            "interrupt" => Ok(RunFinishedOutcome::Interrupt {
                interrupts: list(
                    required_value(&mut map, "interrupts")?,
                    Interrupt::from_value,
                )?,
            }),
            "cancelled" => Ok(RunFinishedOutcome::Cancelled),
            other => Err(de::Error::unknown_variant(
                other,
                &["success", "interrupt", "cancelled"],
            )),
        }
    }
}

impl SubagentOutcome {
    #[inline(never)]
    pub(crate) fn from_value(value: Value) -> JsonResult<SubagentOutcome> {
        let (tag, mut map) = tagged(value, "SubagentOutcome")?;
        match tag.as_str() {
            "success" => Ok(SubagentOutcome::Success),
            "suspended" => Ok(SubagentOutcome::Suspended {
                interrupt_ids: optional(&mut map, "interruptIds")?,
            }),
            other => Err(de::Error::unknown_variant(other, &["success", "suspended"])),
        }
    }
}

/// A required member holding any JSON value, moved out as is.
pub(crate) fn required_value(map: &mut Object, key: &'static str) -> JsonResult<Value> {
    map.remove(key).ok_or_else(|| de::Error::missing_field(key))
}

/// An optional member holding any JSON value but `null`, moved out as is.
pub(crate) fn optional_value(map: &mut Object, key: &'static str) -> Option<Value> {
    map.remove(key).filter(|v| !v.is_null())
}

/// A required string member.
pub(crate) fn required_str(map: &mut Object, key: &'static str) -> JsonResult<String> {
    required(map, key)
}

/// An optional string member.
pub(crate) fn optional_str(map: &mut Object, key: &'static str) -> JsonResult<Option<String>> {
    optional(map, key)
}

/// A required object member, moved out as is.
pub(crate) fn required_object(map: &mut Object, key: &'static str) -> JsonResult<Object> {
    match required_value(map, key)? {
        Value::Object(o) => Ok(o),
        other => serde_json::from_value(other),
    }
}

/// An optional object member (`null` reads as absent), moved out as is.
pub(crate) fn optional_object(map: &mut Object, key: &'static str) -> JsonResult<Option<Object>> {
    match optional_value(map, key) {
        None => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(other) => serde_json::from_value(other),
    }
}
