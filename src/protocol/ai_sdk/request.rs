//! The request: the AI SDK's body (`DefaultChatTransport`'s shape) built from the thread's
//! AG-UI messages ([`request_body`]), the approval answers it carries
//! ([`approval_responses`]), and where a stream is asked for again ([`resume_url`]).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::protocol::reducer::Thread;
use crate::protocol::types::{
    Content, ContentPart, Interrupt, MediaPart, Message, Object, PartSource, ResumeEntry,
    ResumeStatus, Role, ToolCall,
};

use super::decode::{MD_APPROVAL, MD_MESSAGE, MD_PROVIDER, MD_STATE, MD_TOOL, PART_TYPES};

/// On a tool call: the reason the person gave with their approval answer, restated on the
/// tool part of every later request (`approval.reason`: a denied tool's reason is what the
/// model is told it was denied for).
const MD_APPROVAL_REASON: &str = "aiSdkApprovalReason";

/// Where an AI SDK chat's in-flight stream is asked for again (`DefaultChatTransport`'s
/// `reconnectToStream`: `{api}/{chatId}/stream`); the id is percent-encoded (it may come from
/// storage the host page shares).
pub fn resume_url(endpoint: &str, chat_id: &str) -> String {
    let mut url = endpoint.trim_end_matches('/').to_owned();
    url.push('/');
    for b in chat_id.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push_str("/stream");
    url
}

/// Why the AI SDK request is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    SubmitMessage,
    RegenerateMessage,
}

impl Trigger {
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::SubmitMessage => "submit-message",
            Trigger::RegenerateMessage => "regenerate-message",
        }
    }
}

/// The person's answer to one `tool-approval-request`, sent as the tool part's
/// `approval-responded` state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalResponse {
    pub approval_id: String,
    pub tool_call_id: String,
    pub approved: bool,
    pub reason: Option<String>,
}

/// The approval answers in `resume` (the entries the approval cards made for the open
/// `interrupts`): `resolved` with `payload.approved == true` approves, anything else denies.
pub fn approval_responses(
    interrupts: &[Interrupt],
    resume: &[ResumeEntry],
) -> Vec<ApprovalResponse> {
    resume
        .iter()
        .filter_map(|r| {
            let i = interrupts.iter().find(|i| i.id == r.interrupt_id)?;
            let payload = r.payload.as_ref();
            let approved = r.status == ResumeStatus::Resolved
                && payload
                    .and_then(|p| p.get("approved"))
                    .and_then(Value::as_bool)
                    == Some(true);
            Some(ApprovalResponse {
                approval_id: i.id.clone(),
                tool_call_id: i.tool_call_id.clone()?,
                approved,
                reason: payload
                    .and_then(|p| p.get("reason"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
        })
        .collect()
}

/// Keep each answer's reason on its tool call (the thread is saved with it), so that later
/// requests restate it after the call's result came back.
pub fn record_approvals(thread: &mut Thread, approvals: &[ApprovalResponse]) {
    for a in approvals {
        let Some(reason) = &a.reason else { continue };
        if let Some(call) = thread.tool_call_mut(&a.tool_call_id) {
            call.metadata
                .get_or_insert_with(Object::new)
                .insert(MD_APPROVAL_REASON.to_owned(), Value::String(reason.clone()));
        }
    }
}

/// The AI SDK request body (`DefaultChatTransport`'s shape):
/// `{id, messages: UIMessage[], trigger, messageId?}`. As `useChat` does, `messageId` names the
/// assistant message an approval answer continues (the last one, holding the answered tool
/// part) and is absent otherwise (a new message, or regenerating the last answer). Consecutive assistant, reasoning, tool and activity
/// messages become one assistant `UIMessage` (its id from `aiSdkMessageId`), with a
/// `step-start` part before what follows a tool result; tool calls become `tool-<name>` (or
/// `dynamic-tool`) parts whose state comes from their result, or from `approvals`.
pub fn request_body(
    chat_id: &str,
    messages: &[Message],
    trigger: Trigger,
    approvals: &[ApprovalResponse],
) -> Value {
    let messages = ui_messages(messages, approvals);
    let continued = (!approvals.is_empty())
        .then(|| messages.last())
        .flatten()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["id"].clone());
    let mut body = json!({
        "id": chat_id,
        "messages": messages,
        "trigger": trigger.as_str(),
    });
    if let (Some(id), Some(o)) = (continued, body.as_object_mut()) {
        o.insert("messageId".into(), id);
    }
    body
}

/// One assistant `UIMessage` being assembled.
struct Group {
    id: String,
    parts: Vec<Value>,
    after_result: bool,
}

impl Group {
    fn boundary(&mut self) {
        if std::mem::take(&mut self.after_result) {
            self.parts.push(json!({"type": "step-start"}));
        }
    }

    fn into_message(self) -> Option<Value> {
        (!self.parts.is_empty())
            .then(|| json!({"id": self.id, "role": "assistant", "parts": self.parts}))
    }
}

fn md_get<'a>(md: &'a Option<Object>, key: &str) -> Option<&'a Value> {
    md.as_ref().and_then(|m| m.get(key))
}

fn ui_messages(messages: &[Message], approvals: &[ApprovalResponse]) -> Vec<Value> {
    let mut results: HashMap<&str, &Message> = HashMap::new();
    for m in messages.iter().filter(|m| m.role == Role::Tool) {
        if let Some(id) = &m.tool_call_id {
            results.entry(id.as_str()).or_insert(m);
        }
    }
    let mut out = Vec::new();
    let mut group: Option<Group> = None;
    for m in messages {
        let role = match m.role {
            Role::User => "user",
            Role::System | Role::Developer => "system",
            Role::Assistant | Role::Reasoning | Role::Tool | Role::Activity => {
                let g = group.get_or_insert_with(|| Group {
                    id: String::new(),
                    parts: Vec::new(),
                    after_result: false,
                });
                if g.id.is_empty() && m.role != Role::Tool {
                    // A call's own message carries the UI message id on the call (§4.10).
                    let calls = m.tool_calls.iter().flatten();
                    g.id = std::iter::once(&m.metadata)
                        .chain(calls.map(|c| &c.metadata))
                        .find_map(|md| md_get(md, MD_MESSAGE).and_then(Value::as_str))
                        .map_or_else(|| m.id.clone(), str::to_owned);
                }
                add_part(g, m, &results, approvals);
                continue;
            }
        };
        out.extend(group.take().and_then(Group::into_message));
        out.push(json!({"id": m.id, "role": role, "parts": user_parts(m)}));
    }
    out.extend(group.and_then(Group::into_message));
    out
}

fn add_part(
    g: &mut Group,
    m: &Message,
    results: &HashMap<&str, &Message>,
    approvals: &[ApprovalResponse],
) {
    let provider = md_get(&m.metadata, MD_PROVIDER);
    let with_provider = |mut part: Value| {
        if let (Some(p), Some(o)) = (provider, part.as_object_mut()) {
            o.insert("providerMetadata".into(), p.clone());
        }
        part
    };
    match m.role {
        Role::Tool => g.after_result = true,
        Role::Reasoning => {
            g.boundary();
            let part = json!({"type": "reasoning", "text": m.text(), "state": "done"});
            g.parts.push(with_provider(part));
        }
        Role::Assistant => {
            g.boundary();
            let text = m.text();
            if !text.is_empty() {
                let part = json!({"type": "text", "text": text, "state": "done"});
                g.parts.push(with_provider(part));
            }
            for call in m.tool_calls.iter().flatten() {
                let result = results.get(call.id.as_str()).copied();
                g.parts.push(tool_part(call, result, approvals));
            }
        }
        Role::Activity => {
            let ty = m.activity_type.as_deref().unwrap_or("");
            let ours = ty.starts_with("data-") || PART_TYPES.iter().any(|(t, _)| *t == ty);
            if let (true, Some(Content::Object(content))) = (ours, &m.content) {
                let mut part = content.clone();
                part.insert("type".into(), Value::String(ty.to_owned()));
                g.parts.push(Value::Object(part));
            }
        }
        _ => {}
    }
}

/// JSON text as its value; anything else as the string itself.
fn json_or_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

fn tool_part(call: &ToolCall, result: Option<&Message>, approvals: &[ApprovalResponse]) -> Value {
    let tool = md_get(&call.metadata, MD_TOOL).and_then(Value::as_object);
    let flag = |k: &str| tool.and_then(|t| t.get(k)).cloned();
    let mut p = Map::new();
    if flag("dynamic") == Some(Value::Bool(true)) {
        p.insert("type".into(), "dynamic-tool".into());
        p.insert("toolName".into(), call.function.name.clone().into());
    } else {
        p.insert("type".into(), format!("tool-{}", call.function.name).into());
    }
    p.insert("toolCallId".into(), call.id.clone().into());
    let args = call.function.arguments.trim();
    let input = if args.is_empty() {
        json!({})
    } else {
        json_or_text(args)
    };
    p.insert("input".into(), input);
    for k in ["providerExecuted", "title"] {
        if let Some(v) = flag(k) {
            p.insert(k.into(), v);
        }
    }
    if let Some(pm) = md_get(&call.metadata, MD_PROVIDER) {
        p.insert("callProviderMetadata".into(), pm.clone());
    }
    let approval = approvals.iter().find(|a| a.tool_call_id == call.id);
    let state = match result {
        Some(r) => {
            let state = md_get(&r.metadata, MD_STATE).and_then(Value::as_str);
            match (state, &r.error) {
                (Some("output-denied"), _) => "output-denied",
                (Some("output-error"), _) | (_, Some(_)) => {
                    let text = r.error.clone().unwrap_or_else(|| r.text().into_owned());
                    p.insert("errorText".into(), text.into());
                    "output-error"
                }
                _ => {
                    p.insert("output".into(), json_or_text(&r.text()));
                    "output-available"
                }
            }
        }
        None if approval.is_some() => "approval-responded",
        None => "input-available",
    };
    let answered = result.and_then(|r| md_get(&r.metadata, MD_APPROVAL));
    if let Some(a) = approval.filter(|a| state != "output-available" || a.approved) {
        let mut o = json!({"id": a.approval_id, "approved": a.approved});
        if let (Some(r), Some(o)) = (&a.reason, o.as_object_mut()) {
            o.insert("reason".into(), r.clone().into());
        }
        p.insert("approval".into(), o);
    } else if let Some(Value::String(id)) = answered {
        let approved = state != "output-denied";
        let mut o = json!({"id": id, "approved": approved});
        if let (Some(r), Some(o)) = (
            md_get(&call.metadata, MD_APPROVAL_REASON),
            o.as_object_mut(),
        ) {
            o.insert("reason".into(), r.clone());
        }
        p.insert("approval".into(), o);
    }
    p.insert("state".into(), state.into());
    Value::Object(p)
}

/// A user or system message's parts: its text, and its media as `file` parts (provider file
/// handles are never sent on: they are not URLs).
fn user_parts(m: &Message) -> Vec<Value> {
    let parts = match &m.content {
        Some(Content::Text(s)) => return vec![json!({"type": "text", "text": s})],
        Some(Content::Parts(parts)) => parts,
        _ => return Vec::new(),
    };
    parts
        .iter()
        .filter_map(|p| match p {
            ContentPart::Text { text, .. } => Some(json!({"type": "text", "text": text})),
            ContentPart::Image(media)
            | ContentPart::Audio(media)
            | ContentPart::Video(media)
            | ContentPart::Document(media) => file_part(media),
        })
        .collect()
}

fn file_part(media: &MediaPart) -> Option<Value> {
    let (url, mime) = match &media.source {
        PartSource::Data { value, mime_type } => (
            format!("data:{mime_type};base64,{value}"),
            mime_type.clone(),
        ),
        PartSource::Url { value, mime_type } => (
            value.clone(),
            mime_type
                .clone()
                .unwrap_or_else(|| "application/octet-stream".into()),
        ),
        PartSource::File { .. } => return None,
    };
    let mut part = json!({"type": "file", "mediaType": mime, "url": url});
    let filename = media.metadata.as_ref().and_then(|m| m.get("filename"));
    if let (Some(Value::String(f)), Some(o)) = (filename, part.as_object_mut()) {
        o.insert("filename".into(), f.clone().into());
    }
    Some(part)
}
