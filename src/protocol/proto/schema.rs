//! The `ag_ui` messages as data (field number → JSON name and kind, from `@ag-ui/proto` 1.0.0's
//! generated `events.ts`, `types.ts` and `patch.ts`) and one decoder that reads any of them into
//! a JSON object, the way ts-proto does: a proto3 string that is absent reads as `""`, a
//! repeated field as `[]`, an `optional` field or an unset message stays absent. A message
//! field that occurs twice is merged (protobuf's rule: later scalars win, repeated fields and
//! maps append, messages merge), an unknown field is skipped, a known field with another wire
//! type is refused.
//!
//! `google.protobuf.Value`, `Struct` and `ListValue` become JSON values ([`merge_value`]);
//! every JSON container is counted against [`MAX_DEPTH`] at the depth it will have in the
//! event (the event object is depth 1), so the decoder's recursion is bounded.

use serde_json::{Map, Number, Value};

use super::error::DecodeError;
use super::wire::{Reader, I64, LEN, VARINT};

/// Deepest JSON nesting a frame may decode to, the event object being level 1: serde_json's
/// recursion limit, which the SSE path's parser applies (128 levels fail).
pub const MAX_DEPTH: usize = 127;

/// How a field's value is read and stored.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    /// proto3 `string`: `""` when absent.
    Str,
    /// `optional string`: absent stays absent.
    OptStr,
    /// `repeated string`: `[]` when absent.
    RepStr,
    /// `optional bool`.
    Bool,
    /// `optional int64`, as a JSON integer.
    Int64,
    /// An enum (`int32`): the number, `0` when absent.
    Enum,
    /// `google.protobuf.Value`: any JSON; absent (or no kind set) stays absent.
    Value,
    /// `google.protobuf.Struct`: a JSON object; absent stays absent.
    Struct,
    /// A singular embedded message; absent stays absent.
    Msg(&'static Schema),
    /// A repeated embedded message: `[]` when absent.
    RepMsg(&'static Schema),
}

impl Kind {
    fn wire_type(self) -> u8 {
        match self {
            Kind::Bool | Kind::Int64 | Kind::Enum => VARINT,
            _ => LEN,
        }
    }
}

#[derive(Debug)]
pub(super) struct Field {
    pub num: u32,
    pub name: &'static str,
    pub kind: Kind,
    /// How many JSON levels below its message the value ends up once the event is rebuilt:
    /// 1, or 0 for a message whose fields are hoisted (`base_event`, a oneof's arm), 2 for
    /// `interrupts`, which move into `outcome`.
    pub nest: u8,
}

#[derive(Debug)]
pub(super) struct Schema {
    /// The protobuf message name, for errors.
    pub name: &'static str,
    pub fields: &'static [Field],
    /// A oneof of messages (`InputContent`, `InputContentSource`): one arm at most.
    pub oneof: bool,
}

const fn f(num: u32, name: &'static str, kind: Kind) -> Field {
    Field {
        num,
        name,
        kind,
        nest: 1,
    }
}

/// A message whose object is merged into its parent's level once rebuilt.
const fn flat(num: u32, name: &'static str, schema: &'static Schema) -> Field {
    Field {
        num,
        name,
        kind: Kind::Msg(schema),
        nest: 0,
    }
}

const fn schema(name: &'static str, fields: &'static [Field]) -> Schema {
    Schema {
        name,
        fields,
        oneof: false,
    }
}

use Kind::{Enum, Int64, Msg, OptStr, RepMsg, RepStr, Str, Struct, Value as Val};

/// `optional string subagent_run_id = n` (attributable events).
const fn sub(n: u32) -> Field {
    f(n, "subagentRunId", OptStr)
}

// ---- types.proto ------------------------------------------------------------------------------

pub(super) static TEXT_PART: Schema = schema(
    "ag_ui.TextInputPart",
    &[f(1, "text", Str), f(2, "id", OptStr), f(3, "metadata", Val)],
);

/// Image, audio, video and document parts share one shape.
const MEDIA_FIELDS: &[Field] = &[
    f(1, "source", Msg(&SOURCE)),
    f(2, "metadata", Val),
    f(3, "id", OptStr),
];
const fn media(name: &'static str) -> Schema {
    schema(name, MEDIA_FIELDS)
}
pub(super) static IMAGE_PART: Schema = media("ag_ui.ImageInputPart");
pub(super) static AUDIO_PART: Schema = media("ag_ui.AudioInputPart");
pub(super) static VIDEO_PART: Schema = media("ag_ui.VideoInputPart");
pub(super) static DOCUMENT_PART: Schema = media("ag_ui.DocumentInputPart");

static DATA_SOURCE: Schema = schema(
    "ag_ui.InputContentDataSource",
    &[f(1, "value", Str), f(2, "mimeType", Str)],
);
static URL_SOURCE: Schema = schema(
    "ag_ui.InputContentUrlSource",
    &[f(1, "value", Str), f(2, "mimeType", OptStr)],
);
static FILE_SOURCE: Schema = schema(
    "ag_ui.InputContentFileSource",
    &[
        f(1, "value", Str),
        f(2, "provider", OptStr),
        f(3, "mimeType", OptStr),
    ],
);
pub(super) static SOURCE: Schema = Schema {
    name: "ag_ui.InputContentSource",
    fields: &[
        flat(1, "data", &DATA_SOURCE),
        flat(2, "url", &URL_SOURCE),
        flat(3, "file", &FILE_SOURCE),
    ],
    oneof: true,
};
pub(super) static INPUT_CONTENT: Schema = Schema {
    name: "ag_ui.InputContent",
    fields: &[
        flat(1, "text", &TEXT_PART),
        flat(2, "image", &IMAGE_PART),
        flat(3, "audio", &AUDIO_PART),
        flat(4, "video", &VIDEO_PART),
        flat(5, "document", &DOCUMENT_PART),
    ],
    oneof: true,
};

static FUNCTION: Schema = schema(
    "ag_ui.ToolCall.Function",
    &[f(1, "name", Str), f(2, "arguments", Str)],
);
static TOOL_CALL: Schema = schema(
    "ag_ui.ToolCall",
    &[
        f(1, "id", Str),
        f(2, "type", Str),
        f(3, "function", Msg(&FUNCTION)),
        f(4, "metadata", Struct),
        f(5, "encryptedValue", OptStr),
    ],
);
pub(super) static MESSAGE: Schema = schema(
    "ag_ui.Message",
    &[
        f(1, "id", Str),
        f(2, "role", Str),
        f(3, "content", OptStr),
        f(4, "name", OptStr),
        f(5, "toolCalls", RepMsg(&TOOL_CALL)),
        f(6, "toolCallId", OptStr),
        f(7, "error", OptStr),
        // Rebuilt as `content` (one level: the parts list).
        f(8, "contentParts", RepMsg(&INPUT_CONTENT)),
        f(9, "metadata", Struct),
        f(10, "subagentRunId", OptStr),
        f(11, "encryptedValue", OptStr),
        f(12, "activityType", OptStr),
        f(13, "activityContent", Struct),
    ],
);
static TOOL: Schema = schema(
    "ag_ui.Tool",
    &[
        f(1, "name", Str),
        f(2, "description", Str),
        f(3, "parameters", Val),
        f(4, "metadata", Struct),
    ],
);
static CONTEXT: Schema = schema(
    "ag_ui.Context",
    &[f(1, "description", Str), f(2, "value", Str)],
);
static RESUME_ENTRY: Schema = schema(
    "ag_ui.ResumeEntry",
    &[
        f(1, "interruptId", Str),
        f(2, "status", Str),
        f(3, "payload", Val),
        f(4, "metadata", Struct),
    ],
);
static RUN_AGENT_INPUT: Schema = schema(
    "ag_ui.RunAgentInput",
    &[
        f(1, "threadId", Str),
        f(2, "runId", Str),
        f(3, "parentRunId", OptStr),
        f(4, "state", Val),
        f(5, "messages", RepMsg(&MESSAGE)),
        f(6, "tools", RepMsg(&TOOL)),
        f(7, "context", RepMsg(&CONTEXT)),
        f(8, "forwardedProps", Val),
        f(9, "resume", RepMsg(&RESUME_ENTRY)),
        f(10, "protocolVersion", OptStr),
    ],
);
static INTERRUPT: Schema = schema(
    "ag_ui.Interrupt",
    &[
        f(1, "id", Str),
        f(2, "reason", Str),
        f(3, "message", OptStr),
        f(4, "toolCallId", OptStr),
        f(5, "responseSchema", Val),
        f(6, "expiresAt", OptStr),
        f(7, "metadata", Val),
        f(8, "subagentRunId", OptStr),
    ],
);

// ---- patch.proto ------------------------------------------------------------------------------

static PATCH_OP: Schema = schema(
    "ag_ui.JsonPatchOperation",
    &[
        f(1, "op", Enum),
        f(2, "path", Str),
        f(3, "from", OptStr),
        f(4, "value", Val),
    ],
);

// ---- events.proto -----------------------------------------------------------------------------

pub(super) static BASE_EVENT: Schema = schema(
    "ag_ui.BaseEvent",
    &[
        f(1, "type", Enum),
        f(2, "timestamp", Int64),
        f(3, "rawEvent", Val),
        f(4, "metadata", Struct),
    ],
);
static USAGE: Schema = schema(
    "ag_ui.Usage",
    &[
        f(1, "provider", OptStr),
        f(2, "model", OptStr),
        f(3, "inputTokens", Int64),
        f(4, "outputTokens", Int64),
        f(5, "totalTokens", Int64),
        f(6, "reasoningTokens", Int64),
        f(7, "cachedInputTokens", Int64),
        f(8, "cacheWriteInputTokens", Int64),
    ],
);

/// `base_event`, field 1 of every event message: its fields are hoisted into the event.
const BASE: Field = flat(1, "baseEvent", &BASE_EVENT);

const fn event(name: &'static str, fields: &'static [Field]) -> Schema {
    schema(name, fields)
}

static TEXT_MESSAGE_START: Schema = event(
    "ag_ui.TextMessageStartEvent",
    &[
        BASE,
        f(2, "messageId", Str),
        f(3, "role", OptStr),
        f(4, "name", OptStr),
        sub(5),
    ],
);
static TEXT_MESSAGE_CONTENT: Schema = event(
    "ag_ui.TextMessageContentEvent",
    &[BASE, f(2, "messageId", Str), f(3, "delta", Str), sub(4)],
);
static TEXT_MESSAGE_END: Schema = event(
    "ag_ui.TextMessageEndEvent",
    &[BASE, f(2, "messageId", Str), sub(3)],
);
static TEXT_MESSAGE_CHUNK: Schema = event(
    "ag_ui.TextMessageChunkEvent",
    &[
        BASE,
        f(2, "messageId", OptStr),
        f(3, "role", OptStr),
        f(4, "delta", OptStr),
        f(5, "name", OptStr),
        sub(6),
    ],
);
static TOOL_CALL_START: Schema = event(
    "ag_ui.ToolCallStartEvent",
    &[
        BASE,
        f(2, "toolCallId", Str),
        f(3, "toolCallName", Str),
        f(4, "parentMessageId", OptStr),
        sub(5),
    ],
);
static TOOL_CALL_ARGS: Schema = event(
    "ag_ui.ToolCallArgsEvent",
    &[BASE, f(2, "toolCallId", Str), f(3, "delta", Str), sub(4)],
);
static TOOL_CALL_END: Schema = event(
    "ag_ui.ToolCallEndEvent",
    &[BASE, f(2, "toolCallId", Str), sub(3)],
);
static TOOL_CALL_CHUNK: Schema = event(
    "ag_ui.ToolCallChunkEvent",
    &[
        BASE,
        f(2, "toolCallId", OptStr),
        f(3, "toolCallName", OptStr),
        f(4, "parentMessageId", OptStr),
        f(5, "delta", OptStr),
        sub(6),
    ],
);
static TOOL_CALL_RESULT: Schema = event(
    "ag_ui.ToolCallResultEvent",
    &[
        BASE,
        sub(2),
        f(3, "messageId", Str),
        f(4, "toolCallId", Str),
        f(5, "content", OptStr),
        f(6, "role", OptStr),
        // Rebuilt as `content`.
        f(7, "contentParts", RepMsg(&INPUT_CONTENT)),
    ],
);
static STATE_SNAPSHOT: Schema = event(
    "ag_ui.StateSnapshotEvent",
    &[BASE, f(2, "snapshot", Val), sub(3)],
);
static STATE_DELTA: Schema = event(
    "ag_ui.StateDeltaEvent",
    &[BASE, f(2, "delta", RepMsg(&PATCH_OP)), sub(3)],
);
static MESSAGES_SNAPSHOT: Schema = event(
    "ag_ui.MessagesSnapshotEvent",
    &[BASE, f(2, "messages", RepMsg(&MESSAGE))],
);
static ACTIVITY_SNAPSHOT: Schema = event(
    "ag_ui.ActivitySnapshotEvent",
    &[
        BASE,
        sub(2),
        f(3, "messageId", Str),
        f(4, "activityType", Str),
        f(5, "content", Struct),
        f(6, "replace", Kind::Bool),
    ],
);
static ACTIVITY_DELTA: Schema = event(
    "ag_ui.ActivityDeltaEvent",
    &[
        BASE,
        sub(2),
        f(3, "messageId", Str),
        f(4, "activityType", Str),
        f(5, "patch", RepMsg(&PATCH_OP)),
    ],
);
static RAW: Schema = event(
    "ag_ui.RawEvent",
    &[BASE, f(2, "event", Val), f(3, "source", OptStr), sub(4)],
);
static CUSTOM: Schema = event(
    "ag_ui.CustomEvent",
    &[BASE, f(2, "name", Str), f(3, "value", Val), sub(4)],
);
static RUN_STARTED: Schema = event(
    "ag_ui.RunStartedEvent",
    &[
        BASE,
        f(2, "threadId", Str),
        f(3, "runId", Str),
        f(4, "parentRunId", OptStr),
        f(5, "input", Msg(&RUN_AGENT_INPUT)),
        f(6, "protocolVersion", OptStr),
    ],
);
static RUN_FINISHED: Schema = event(
    "ag_ui.RunFinishedEvent",
    &[
        BASE,
        f(2, "threadId", Str),
        f(3, "runId", Str),
        f(4, "result", Val),
        f(5, "outcome", Str),
        // Both move into the rebuilt `outcome` object.
        Field {
            nest: 2,
            ..f(6, "interrupts", RepMsg(&INTERRUPT))
        },
        f(7, "usage", RepMsg(&USAGE)),
        Field {
            nest: 2,
            ..f(8, "pendingToolCallIds", RepStr)
        },
    ],
);
static RUN_ERROR: Schema = event(
    "ag_ui.RunErrorEvent",
    &[
        BASE,
        f(2, "code", OptStr),
        f(3, "message", Str),
        f(4, "usage", RepMsg(&USAGE)),
    ],
);
static STEP_STARTED: Schema = event(
    "ag_ui.StepStartedEvent",
    &[BASE, f(2, "stepName", Str), sub(3)],
);
static STEP_FINISHED: Schema = event(
    "ag_ui.StepFinishedEvent",
    &[BASE, f(2, "stepName", Str), sub(3)],
);
static SUBAGENT_STARTED: Schema = event(
    "ag_ui.SubagentStartedEvent",
    &[
        BASE,
        f(2, "subagentRunId", Str),
        f(3, "name", Str),
        f(4, "description", OptStr),
        f(5, "parentSubagentRunId", OptStr),
        f(6, "parentToolCallId", OptStr),
        f(7, "parentMessageId", OptStr),
    ],
);
static SUBAGENT_FINISHED: Schema = event(
    "ag_ui.SubagentFinishedEvent",
    &[
        BASE,
        f(2, "subagentRunId", Str),
        f(3, "result", Val),
        f(4, "outcome", Str),
        Field {
            nest: 2,
            ..f(5, "interruptIds", RepStr)
        },
    ],
);
static SUBAGENT_ERROR: Schema = event(
    "ag_ui.SubagentErrorEvent",
    &[
        BASE,
        f(2, "subagentRunId", Str),
        f(3, "message", Str),
        f(4, "code", OptStr),
    ],
);
/// `REASONING_START`, `REASONING_MESSAGE_END`, `REASONING_END`.
const REASONING_REF: &[Field] = &[BASE, sub(2), f(3, "messageId", Str)];
const fn reasoning_ref(name: &'static str) -> Schema {
    event(name, REASONING_REF)
}
static REASONING_START: Schema = reasoning_ref("ag_ui.ReasoningStartEvent");
static REASONING_MESSAGE_START: Schema = event(
    "ag_ui.ReasoningMessageStartEvent",
    &[BASE, sub(2), f(3, "messageId", Str), f(4, "role", Str)],
);
static REASONING_MESSAGE_CONTENT: Schema = event(
    "ag_ui.ReasoningMessageContentEvent",
    &[BASE, sub(2), f(3, "messageId", Str), f(4, "delta", Str)],
);
static REASONING_MESSAGE_END: Schema = reasoning_ref("ag_ui.ReasoningMessageEndEvent");
static REASONING_MESSAGE_CHUNK: Schema = event(
    "ag_ui.ReasoningMessageChunkEvent",
    &[
        BASE,
        sub(2),
        f(3, "messageId", OptStr),
        f(4, "delta", OptStr),
    ],
);
static REASONING_END: Schema = reasoning_ref("ag_ui.ReasoningEndEvent");
static REASONING_ENCRYPTED_VALUE: Schema = event(
    "ag_ui.ReasoningEncryptedValueEvent",
    &[
        BASE,
        sub(2),
        f(3, "subtype", Str),
        f(4, "entityId", Str),
        f(5, "encryptedValue", Str),
    ],
);

/// The envelope `ag_ui.Event`'s oneof: field number `n` (1 ..= 31) is `ARMS[n - 1]`, the event
/// type it carries and its message.
pub(super) static ARMS: [(&str, &Schema); 31] = [
    ("TEXT_MESSAGE_START", &TEXT_MESSAGE_START),
    ("TEXT_MESSAGE_CONTENT", &TEXT_MESSAGE_CONTENT),
    ("TEXT_MESSAGE_END", &TEXT_MESSAGE_END),
    ("TOOL_CALL_START", &TOOL_CALL_START),
    ("TOOL_CALL_ARGS", &TOOL_CALL_ARGS),
    ("TOOL_CALL_END", &TOOL_CALL_END),
    ("STATE_SNAPSHOT", &STATE_SNAPSHOT),
    ("STATE_DELTA", &STATE_DELTA),
    ("MESSAGES_SNAPSHOT", &MESSAGES_SNAPSHOT),
    ("RAW", &RAW),
    ("CUSTOM", &CUSTOM),
    ("RUN_STARTED", &RUN_STARTED),
    ("RUN_FINISHED", &RUN_FINISHED),
    ("RUN_ERROR", &RUN_ERROR),
    ("STEP_STARTED", &STEP_STARTED),
    ("STEP_FINISHED", &STEP_FINISHED),
    ("TEXT_MESSAGE_CHUNK", &TEXT_MESSAGE_CHUNK),
    ("TOOL_CALL_CHUNK", &TOOL_CALL_CHUNK),
    ("SUBAGENT_STARTED", &SUBAGENT_STARTED),
    ("SUBAGENT_FINISHED", &SUBAGENT_FINISHED),
    ("SUBAGENT_ERROR", &SUBAGENT_ERROR),
    ("TOOL_CALL_RESULT", &TOOL_CALL_RESULT),
    ("ACTIVITY_SNAPSHOT", &ACTIVITY_SNAPSHOT),
    ("ACTIVITY_DELTA", &ACTIVITY_DELTA),
    ("REASONING_START", &REASONING_START),
    ("REASONING_MESSAGE_START", &REASONING_MESSAGE_START),
    ("REASONING_MESSAGE_CONTENT", &REASONING_MESSAGE_CONTENT),
    ("REASONING_MESSAGE_END", &REASONING_MESSAGE_END),
    ("REASONING_MESSAGE_CHUNK", &REASONING_MESSAGE_CHUNK),
    ("REASONING_END", &REASONING_END),
    ("REASONING_ENCRYPTED_VALUE", &REASONING_ENCRYPTED_VALUE),
];

/// `ag_ui.EventType`: value `n` names `EVENT_TYPES[n]` (`base_event.type`, which must agree
/// with the envelope's arm).
pub(super) static EVENT_TYPES: [&str; 31] = [
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "STATE_SNAPSHOT",
    "STATE_DELTA",
    "MESSAGES_SNAPSHOT",
    "RAW",
    "CUSTOM",
    "RUN_STARTED",
    "RUN_FINISHED",
    "RUN_ERROR",
    "STEP_STARTED",
    "STEP_FINISHED",
    "SUBAGENT_STARTED",
    "SUBAGENT_FINISHED",
    "SUBAGENT_ERROR",
    "TEXT_MESSAGE_CHUNK",
    "TOOL_CALL_CHUNK",
    "TOOL_CALL_RESULT",
    "ACTIVITY_SNAPSHOT",
    "ACTIVITY_DELTA",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_MESSAGE_CHUNK",
    "REASONING_END",
    "REASONING_ENCRYPTED_VALUE",
];

/// `ag_ui.JsonPatchOperationType`, value `n` naming `PATCH_OPS[n]`.
pub(super) static PATCH_OPS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];

// ---- the decoder ------------------------------------------------------------------------------

fn wire(at: &'static str, problem: &'static str) -> DecodeError {
    DecodeError::Wire { at, problem }
}

fn check_depth(depth: usize) -> Result<(), DecodeError> {
    if depth > MAX_DEPTH {
        Err(DecodeError::TooDeep { limit: MAX_DEPTH })
    } else {
        Ok(())
    }
}

/// What one frame may decode to: about as many bytes as the event would take written as JSON
/// (each value at least its shortest spelling and a comma, each member its quoted key and a
/// colon). A frame of two bytes can stand for a message of four defaulted members, so without
/// this the JSON built could outgrow the frame many times over; with it, no frame decodes to
/// more than an SSE frame of the same budget could hold.
#[derive(Debug)]
pub(super) struct Budget {
    left: usize,
    limit: usize,
}

/// The JSON cost of a container, a scalar, a member's key.
const CONTAINER: usize = 3;
const SCALAR: usize = 2;
const fn key_cost(key: &str) -> usize {
    key.len() + 3
}

impl Budget {
    pub(super) fn new(limit: usize) -> Self {
        Budget { left: limit, limit }
    }

    fn spend(&mut self, cost: usize) -> Result<(), DecodeError> {
        match self.left.checked_sub(cost) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(DecodeError::TooLarge { limit: self.limit }),
        }
    }

    /// A string value (its bytes as decoded, quotes and a comma).
    fn string(&mut self, bytes: &[u8]) -> Result<Value, DecodeError> {
        // As the reference decoder (a non-fatal TextDecoder): invalid UTF-8 becomes U+FFFD.
        let s = String::from_utf8_lossy(bytes).into_owned();
        self.spend(s.len() + SCALAR + 1)?;
        Ok(Value::String(s))
    }
}

/// Append `item` to the list under `name` (made when absent).
fn push(
    obj: &mut Map<String, Value>,
    name: &str,
    item: Value,
    budget: &mut Budget,
) -> Result<(), DecodeError> {
    match obj.get_mut(name) {
        Some(Value::Array(items)) => items.push(item),
        _ => {
            budget.spend(key_cost(name) + CONTAINER)?;
            obj.insert(name.to_owned(), Value::Array(vec![item]));
        }
    }
    Ok(())
}

/// Run `merge` on the object under `name` (made when absent): a message or struct that occurs
/// again merges into the first.
fn with_object(
    obj: &mut Map<String, Value>,
    name: &str,
    budget: &mut Budget,
    merge: impl FnOnce(&mut Map<String, Value>, &mut Budget) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    if let Some(Value::Object(existing)) = obj.get_mut(name) {
        return merge(existing, budget);
    }
    budget.spend(key_cost(name) + CONTAINER)?;
    let mut fresh = Map::new();
    let result = merge(&mut fresh, budget);
    obj.insert(name.to_owned(), Value::Object(fresh));
    result
}

/// Merge one occurrence of a message (`bytes`) into `obj`, which sits at JSON `depth`.
pub(super) fn merge(
    bytes: &[u8],
    schema: &'static Schema,
    obj: &mut Map<String, Value>,
    depth: usize,
    budget: &mut Budget,
) -> Result<(), DecodeError> {
    check_depth(depth)?;
    let at = schema.name;
    let mut r = Reader::new(bytes);
    while !r.at_end() {
        let (num, wire_type) = r.tag().map_err(|p| wire(at, p))?;
        let Some(field) = schema.fields.iter().find(|f| f.num == num) else {
            r.skip(num, wire_type, MAX_DEPTH).map_err(|p| wire(at, p))?;
            continue;
        };
        let expected = field.kind.wire_type();
        if wire_type != expected {
            return Err(DecodeError::WireType {
                at,
                field: num,
                got: wire_type,
                expected,
            });
        }
        let name = field.name;
        let below = depth + usize::from(field.nest);
        let member = key_cost(name);
        match field.kind {
            Kind::Str | Kind::OptStr => {
                let s = r.len_delimited().map_err(|p| wire(at, p))?;
                budget.spend(member)?;
                let s = budget.string(s)?;
                obj.insert(name.to_owned(), s);
            }
            Kind::RepStr => {
                let s = r.len_delimited().map_err(|p| wire(at, p))?;
                check_depth(below)?;
                let s = budget.string(s)?;
                push(obj, name, s, budget)?;
            }
            Kind::Bool => {
                let v = r.varint().map_err(|p| wire(at, p))?;
                budget.spend(member + SCALAR)?;
                obj.insert(name.to_owned(), Value::Bool(v != 0));
            }
            Kind::Int64 => {
                // Two's complement, as protobuf's int64.
                let v = r.varint().map_err(|p| wire(at, p))? as i64;
                budget.spend(member + SCALAR)?;
                obj.insert(name.to_owned(), Value::Number(v.into()));
            }
            Kind::Enum => {
                // An int32 enum: the low 32 bits, sign-extended.
                let v = r.varint().map_err(|p| wire(at, p))? as i32;
                budget.spend(member + SCALAR)?;
                obj.insert(name.to_owned(), Value::Number(i64::from(v).into()));
            }
            Kind::Value => {
                let payload = r.len_delimited().map_err(|p| wire(at, p))?;
                budget.spend(member)?;
                if let Some(existing) = obj.get_mut(name) {
                    let mut slot = Some(std::mem::take(existing));
                    merge_value(payload, &mut slot, below, budget)?;
                    *existing = slot.unwrap_or_default();
                } else {
                    let mut slot = None;
                    merge_value(payload, &mut slot, below, budget)?;
                    if let Some(v) = slot {
                        obj.insert(name.to_owned(), v);
                    }
                }
            }
            Kind::Struct => {
                let payload = r.len_delimited().map_err(|p| wire(at, p))?;
                check_depth(below)?;
                with_object(obj, name, budget, |m, b| merge_struct(payload, m, below, b))?;
            }
            Kind::Msg(child) => {
                let payload = r.len_delimited().map_err(|p| wire(at, p))?;
                if schema.oneof && obj.keys().any(|k| k != name) {
                    return Err(DecodeError::TwoArms { at });
                }
                with_object(obj, name, budget, |m, b| merge(payload, child, m, below, b))?;
            }
            Kind::RepMsg(child) => {
                let payload = r.len_delimited().map_err(|p| wire(at, p))?;
                check_depth(below)?;
                budget.spend(CONTAINER)?;
                let mut item = Map::new();
                merge(payload, child, &mut item, below + 1, budget)?;
                push(obj, name, Value::Object(item), budget)?;
            }
        }
    }
    // proto3 defaults, as ts-proto materialises them.
    for field in schema.fields {
        let (default, cost) = match field.kind {
            Kind::Str => (Value::String(String::new()), SCALAR + 1),
            Kind::RepStr | Kind::RepMsg(_) => (Value::Array(Vec::new()), CONTAINER),
            Kind::Enum => (Value::Number(0.into()), SCALAR),
            _ => continue,
        };
        if !obj.contains_key(field.name) {
            budget.spend(key_cost(field.name) + cost)?;
            obj.insert(field.name.to_owned(), default);
        }
    }
    Ok(())
}

/// Merge one occurrence of a `google.protobuf.Value` into `slot` (`None`: no kind set yet). A
/// container it holds sits at JSON `depth`. The kind set last wins; a second struct or list of
/// the same kind merges into the first (protobuf's rule for a repeated message field).
pub(super) fn merge_value(
    bytes: &[u8],
    slot: &mut Option<Value>,
    depth: usize,
    budget: &mut Budget,
) -> Result<(), DecodeError> {
    const AT: &str = "google.protobuf.Value";
    let mut r = Reader::new(bytes);
    while !r.at_end() {
        let (num, wire_type) = r.tag().map_err(|p| wire(AT, p))?;
        let expected = match num {
            1 | 4 => VARINT,
            2 => I64,
            3 | 5 | 6 => LEN,
            _ => {
                r.skip(num, wire_type, MAX_DEPTH).map_err(|p| wire(AT, p))?;
                continue;
            }
        };
        if wire_type != expected {
            return Err(DecodeError::WireType {
                at: AT,
                field: num,
                got: wire_type,
                expected,
            });
        }
        match num {
            // null_value: any enum value is JSON null (as the reference decoder reads it).
            1 => {
                r.varint().map_err(|p| wire(AT, p))?;
                budget.spend(SCALAR)?;
                *slot = Some(Value::Null);
            }
            2 => {
                let bits = r.fixed64().map_err(|p| wire(AT, p))?;
                budget.spend(SCALAR)?;
                *slot = Some(number(f64::from_bits(bits)));
            }
            3 => {
                let s = r.len_delimited().map_err(|p| wire(AT, p))?;
                *slot = Some(budget.string(s)?);
            }
            4 => {
                let v = r.varint().map_err(|p| wire(AT, p))?;
                budget.spend(SCALAR)?;
                *slot = Some(Value::Bool(v != 0));
            }
            5 => {
                let payload = r.len_delimited().map_err(|p| wire(AT, p))?;
                check_depth(depth)?;
                if !matches!(slot, Some(Value::Object(_))) {
                    budget.spend(CONTAINER)?;
                    *slot = Some(Value::Object(Map::new()));
                }
                if let Some(Value::Object(m)) = slot {
                    merge_struct(payload, m, depth, budget)?;
                }
            }
            _ => {
                let payload = r.len_delimited().map_err(|p| wire(AT, p))?;
                check_depth(depth)?;
                if !matches!(slot, Some(Value::Array(_))) {
                    budget.spend(CONTAINER)?;
                    *slot = Some(Value::Array(Vec::new()));
                }
                if let Some(Value::Array(items)) = slot {
                    merge_list(payload, items, depth, budget)?;
                }
            }
        }
    }
    Ok(())
}

/// `google.protobuf.Struct` into the object `map` at JSON `depth`: each entry replaces the key
/// (a map's rule); an entry whose value has no kind leaves the key as it was (as ts-proto).
pub(super) fn merge_struct(
    bytes: &[u8],
    map: &mut Map<String, Value>,
    depth: usize,
    budget: &mut Budget,
) -> Result<(), DecodeError> {
    const AT: &str = "google.protobuf.Struct";
    const ENTRY: &str = "google.protobuf.Struct.FieldsEntry";
    let mut r = Reader::new(bytes);
    while !r.at_end() {
        let (num, wire_type) = r.tag().map_err(|p| wire(AT, p))?;
        if num != 1 {
            r.skip(num, wire_type, MAX_DEPTH).map_err(|p| wire(AT, p))?;
            continue;
        }
        if wire_type != LEN {
            return Err(DecodeError::WireType {
                at: AT,
                field: num,
                got: wire_type,
                expected: LEN,
            });
        }
        let entry = r.len_delimited().map_err(|p| wire(AT, p))?;
        let mut e = Reader::new(entry);
        let mut key = String::new();
        let mut value = None;
        while !e.at_end() {
            let (num, wire_type) = e.tag().map_err(|p| wire(ENTRY, p))?;
            if num != 1 && num != 2 {
                e.skip(num, wire_type, MAX_DEPTH)
                    .map_err(|p| wire(ENTRY, p))?;
                continue;
            }
            if wire_type != LEN {
                return Err(DecodeError::WireType {
                    at: ENTRY,
                    field: num,
                    got: wire_type,
                    expected: LEN,
                });
            }
            let payload = e.len_delimited().map_err(|p| wire(ENTRY, p))?;
            if num == 1 {
                key = String::from_utf8_lossy(payload).into_owned();
            } else {
                merge_value(payload, &mut value, depth + 1, budget)?;
            }
        }
        if let Some(value) = value {
            budget.spend(key_cost(&key))?;
            map.insert(key, value);
        }
    }
    Ok(())
}

/// `google.protobuf.ListValue`, appended to `items` (a list at JSON `depth`). An element with
/// no kind set is `null` (what `JSON.stringify` makes of the reference decoder's `undefined`).
fn merge_list(
    bytes: &[u8],
    items: &mut Vec<Value>,
    depth: usize,
    budget: &mut Budget,
) -> Result<(), DecodeError> {
    const AT: &str = "google.protobuf.ListValue";
    let mut r = Reader::new(bytes);
    while !r.at_end() {
        let (num, wire_type) = r.tag().map_err(|p| wire(AT, p))?;
        if num != 1 {
            r.skip(num, wire_type, MAX_DEPTH).map_err(|p| wire(AT, p))?;
            continue;
        }
        if wire_type != LEN {
            return Err(DecodeError::WireType {
                at: AT,
                field: num,
                got: wire_type,
                expected: LEN,
            });
        }
        let payload = r.len_delimited().map_err(|p| wire(AT, p))?;
        let mut value = None;
        merge_value(payload, &mut value, depth + 1, budget)?;
        if value.is_none() {
            budget.spend(SCALAR)?;
        }
        items.push(value.unwrap_or(Value::Null));
    }
    Ok(())
}

/// A `number_value` as the JSON number a JavaScript producer's text would parse to: an integral
/// double below 10^21 is written as digits by `JSON.stringify` (its shortest round-trip digits,
/// then zeros) and read back as an integer when it fits 64 bits; `-0` is `0`; `NaN` and the
/// infinities, which JSON cannot hold, are `null` (as `JSON.stringify` writes them).
fn number(f: f64) -> Value {
    if f == 0.0 {
        return Value::Number(0u64.into());
    }
    if f.fract() == 0.0 && f.abs() < 1e21 {
        if f.abs() < 9_007_199_254_740_992.0 {
            // Below 2^53 the integer is exact.
            return Value::Number((f as i64).into());
        }
        // Rust prints the shortest round-trip digits padded with zeros, as JavaScript does.
        let text = format!("{f}");
        if let Ok(u) = text.parse::<u64>() {
            return Value::Number(u.into());
        }
        if let Ok(i) = text.parse::<i64>() {
            return Value::Number(i.into());
        }
    }
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}
