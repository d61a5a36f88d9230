//! The outgoing request (spec digest §1.2): a `RunAgentInput` prepared exactly as a careful
//! client sends it — activity messages removed, the protocol version declared, defaults that
//! older Python servers require (`state`, `tools`, `context`, `forwardedProps`) filled in,
//! downgrades for a pinned older peer applied (with warnings where lossy), and the same
//! strip-unknown / fail-malformed enforcement as inbound events, before anything leaves.

use serde_json::{Map, Value};

use super::compat::{upgrade_messages, Version, V0_0_39};
use super::enforce::enforce_input;
use super::error::{Malformed, Warning, WarningKind};
use super::resume::ResumeError;
use super::types::{Content, ContentPart, Message, PartSource, ResumeEntry, Role, RunAgentInput};

/// The protocol version this client speaks (1.1 only adds optional `encryptedValueType` to 1.0).
pub const PROTOCOL_VERSION: &str = "1.1";

/// Build the JSON body for a run. `peer` is the agent's highest protocol version when known.
pub fn prepare_request(
    input: &RunAgentInput,
    peer: Option<Version>,
) -> Result<(Value, Vec<Warning>), Malformed> {
    let mut warnings = Vec::new();
    let mut input = input.clone();
    input.messages.retain(|m| m.role != Role::Activity);
    let pinned_old = peer.is_some_and(|p| p < Version(1, 0, 0));
    input.protocol_version = if pinned_old {
        None
    } else {
        Some(PROTOCOL_VERSION.to_owned())
    };
    if pinned_old {
        for m in &mut input.messages {
            m.subagent_run_id = None;
        }
    }
    input.state.get_or_insert_with(|| Value::Object(Map::new()));
    input.tools.get_or_insert_with(Vec::new);
    input.context.get_or_insert_with(Vec::new);
    input
        .forwarded_props
        .get_or_insert_with(|| Value::Object(Map::new()));
    let mut value = serde_json::to_value(&input).map_err(|e| Malformed {
        event_type: "RunAgentInput".into(),
        path: String::new(),
        problem: e.to_string(),
    })?;
    if let Some(Value::Array(ms)) = value.get_mut("messages") {
        upgrade_messages(ms);
        if peer.is_some_and(|p| p <= V0_0_39) {
            flatten_parts(ms, &mut warnings);
        }
    }
    enforce_input(&mut value, &mut warnings)?;
    Ok((value, warnings))
}

/// A peer ≤ 0.0.39 only understands string content: keep the text parts, report the rest.
fn flatten_parts(messages: &mut [Value], warnings: &mut Vec<Warning>) {
    for (i, m) in messages.iter_mut().enumerate() {
        let Some(Value::Array(parts)) = m.get("content") else {
            continue;
        };
        let mut texts = Vec::new();
        let mut dropped = 0;
        for p in parts {
            match (p.get("type").and_then(Value::as_str), p.get("text")) {
                (Some("text"), Some(Value::String(t))) => texts.push(t.clone()),
                _ => dropped += 1,
            }
        }
        if dropped > 0 {
            warnings.push(Warning::new(
                WarningKind::Translated,
                Some("RunAgentInput"),
                Some(format!("/messages/{i}/content")),
                format!("peer speaks protocol ≤ 0.0.39: flattening content to text DROPS non-text parts ({dropped} dropped)"),
            ));
        }
        if let Some(obj) = m.as_object_mut() {
            obj.insert("content".into(), Value::String(texts.join("\n")));
        }
    }
}

/// Check that a `resume` array covers exactly the open interrupt ids (the last guard before a
/// request with `resume` leaves; [`super::resume::ResumeBuilder`] builds complete ones).
pub fn check_resume_coverage(open: &[String], resume: &[ResumeEntry]) -> Result<(), ResumeError> {
    let mut seen = std::collections::HashSet::new();
    for r in resume {
        if !open.contains(&r.interrupt_id) {
            return Err(ResumeError::Unknown(r.interrupt_id.clone()));
        }
        if !seen.insert(r.interrupt_id.as_str()) {
            return Err(ResumeError::Duplicate(r.interrupt_id.clone()));
        }
    }
    match open.iter().find(|id| !seen.contains(id.as_str())) {
        Some(id) => Err(ResumeError::Missing(id.clone())),
        None => Ok(()),
    }
}

/// The history to send: every message except activity (also stripped by `prepare_request`),
/// without the media parts whose `data` value is empty — they carry no bytes (an attachment
/// not kept when the thread was saved, `view::attachments::shrink_for_storage`) and a provider
/// would refuse them. A message left with no part at all gets empty text content.
pub fn history_for_request(messages: &[Message]) -> Vec<Message> {
    messages
        .iter()
        .filter(|m| m.role != Role::Activity)
        .map(|m| {
            let mut m = m.clone();
            if let Some(Content::Parts(parts)) = &mut m.content {
                let before = parts.len();
                parts.retain(|p| !no_bytes(p));
                if parts.is_empty() && before > 0 {
                    m.content = Some(Content::Text(String::new()));
                }
            }
            m
        })
        .collect()
}

/// A media part with an empty `data` value.
fn no_bytes(part: &ContentPart) -> bool {
    match part {
        ContentPart::Image(m)
        | ContentPart::Audio(m)
        | ContentPart::Video(m)
        | ContentPart::Document(m) => {
            matches!(&m.source, PartSource::Data { value, .. } if value.is_empty())
        }
        ContentPart::Text { .. } => false,
    }
}
