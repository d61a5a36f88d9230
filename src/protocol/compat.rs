//! The compatibility boundary (spec digest §2.6, §4.14): retired shapes from older peers are
//! translated before enforcement sees them, and a peer pinned below a protocol version gets
//! the downgrades the reference client applies.
//!
//! - `THINKING_*` (retired in 1.0) become `REASONING_*` with minted ids, with a warning.
//! - Legacy `{"type":"binary"}` content parts become `image|audio|video|document` parts.
//! - A peer pinned at ≤ 0.0.57 predates subagents: `SUBAGENT_*` are withheld (warning) and
//!   `subagentRunId` is stripped.

use serde_json::{Map, Value};

use super::error::{Warning, WarningKind};

/// A `MAJOR.MINOR[.PATCH]` version, compared numerically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// Parse `1.0`, `0.0.57`; `None` for anything else.
    pub fn parse(s: &str) -> Option<Version> {
        let mut parts = s.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let patch = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Version(major, minor, patch))
    }

    /// True when this peer predates the given version.
    pub fn below(self, other: Version) -> bool {
        self < other
    }
}

/// The last version without subagents.
pub const V0_0_57: Version = Version(0, 0, 57);
/// The last version without content parts on the wire.
pub const V0_0_39: Version = Version(0, 0, 39);

/// Stateful inbound translation for one stream.
#[derive(Debug, Default)]
pub struct Compat {
    /// The peer's highest protocol version, when pinned.
    peer: Option<Version>,
    run_id: String,
    minted: u64,
    thinking_span: Option<String>,
    thinking_message: Option<String>,
}

impl Compat {
    pub fn new(peer: Option<Version>) -> Self {
        Compat {
            peer,
            ..Default::default()
        }
    }

    fn mint(&mut self, what: &str) -> String {
        self.minted += 1;
        format!("{}-{what}-{}", self.run_id, self.minted)
    }

    /// Translate one inbound event; `None` when it is withheld.
    pub fn inbound(&mut self, mut value: Value, warnings: &mut Vec<Warning>) -> Option<Value> {
        let Value::Object(obj) = &mut value else {
            return Some(value);
        };
        let event_type = obj
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if event_type == "RUN_STARTED" {
            if let Some(Value::String(id)) = obj.get("runId") {
                self.run_id = id.clone();
            }
        }
        if let Some(peer) = self.peer {
            if peer <= V0_0_57 {
                if event_type.starts_with("SUBAGENT_") {
                    warnings.push(Warning::new(
                        WarningKind::Translated,
                        Some(&event_type),
                        None,
                        format!(
                            "peer speaks protocol ≤ 0.0.57: dropping {event_type} (subagents did not exist)"
                        ),
                    ));
                    return None;
                }
                obj.remove("subagentRunId");
            }
        }
        if event_type.starts_with("THINKING_") {
            self.translate_thinking(&event_type, obj, warnings);
        }
        match event_type.as_str() {
            "TOOL_CALL_RESULT" => {
                if let Some(Value::Array(parts)) = obj.get_mut("content") {
                    upgrade_binary_parts(parts);
                }
            }
            "MESSAGES_SNAPSHOT" => {
                if let Some(Value::Array(ms)) = obj.get_mut("messages") {
                    upgrade_messages(ms);
                }
            }
            "RUN_STARTED" => {
                if let Some(Value::Array(ms)) = obj
                    .get_mut("input")
                    .and_then(Value::as_object_mut)
                    .and_then(|i| i.get_mut("messages"))
                {
                    upgrade_messages(ms);
                }
            }
            _ => {}
        }
        Some(value)
    }

    fn translate_thinking(
        &mut self,
        event_type: &str,
        obj: &mut Map<String, Value>,
        warnings: &mut Vec<Warning>,
    ) {
        let (new_type, id) = match event_type {
            "THINKING_START" => {
                if obj.remove("title").is_some() {
                    warnings.push(Warning::new(
                        WarningKind::Translated,
                        Some(event_type),
                        Some("/title".into()),
                        "THINKING_START title dropped (no REASONING_START equivalent)",
                    ));
                }
                let id = self.mint("thinking");
                self.thinking_span = Some(id.clone());
                ("REASONING_START", id)
            }
            "THINKING_END" => {
                let id = match self.thinking_span.take() {
                    Some(id) => id,
                    None => self.mint("thinking"),
                };
                ("REASONING_END", id)
            }
            "THINKING_TEXT_MESSAGE_START" => {
                let id = self.mint("thought");
                self.thinking_message = Some(id.clone());
                obj.insert("role".into(), Value::String("reasoning".into()));
                ("REASONING_MESSAGE_START", id)
            }
            "THINKING_TEXT_MESSAGE_CONTENT" => {
                let id = match &self.thinking_message {
                    Some(id) => id.clone(),
                    None => self.mint("thought"),
                };
                ("REASONING_MESSAGE_CONTENT", id)
            }
            "THINKING_TEXT_MESSAGE_END" => {
                let id = match self.thinking_message.take() {
                    Some(id) => id,
                    None => self.mint("thought"),
                };
                ("REASONING_MESSAGE_END", id)
            }
            _ => return,
        };
        warnings.push(Warning::new(
            WarningKind::Translated,
            Some(event_type),
            None,
            format!("retired {event_type} translated to {new_type}"),
        ));
        obj.insert("type".into(), Value::String(new_type.into()));
        obj.insert("messageId".into(), Value::String(id));
    }
}

/// Upgrade legacy `binary` parts inside the `content` of each message.
pub fn upgrade_messages(messages: &mut [Value]) {
    for m in messages {
        if let Some(Value::Array(parts)) = m.get_mut("content") {
            upgrade_binary_parts(parts);
        }
    }
}

/// Rewrite retired `{"type":"binary", mimeType, data|url|id, filename?}` parts as media parts
/// chosen by MIME prefix. Id-only parts cannot be converted and are left for enforcement to
/// drop with a warning.
pub fn upgrade_binary_parts(parts: &mut [Value]) {
    for part in parts {
        let Value::Object(p) = part else { continue };
        if p.get("type").and_then(Value::as_str) != Some("binary") {
            continue;
        }
        let mime = p
            .get("mimeType")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let source = if let Some(Value::String(data)) = p.get("data") {
            let mut s = Map::new();
            s.insert("type".into(), "data".into());
            s.insert("value".into(), Value::String(data.clone()));
            s.insert("mimeType".into(), Value::String(mime.clone()));
            s
        } else if let Some(Value::String(url)) = p.get("url") {
            let mut s = Map::new();
            s.insert("type".into(), "url".into());
            s.insert("value".into(), Value::String(url.clone()));
            if !mime.is_empty() {
                s.insert("mimeType".into(), Value::String(mime.clone()));
            }
            s
        } else {
            continue;
        };
        let kind = ["image", "audio", "video"]
            .into_iter()
            .find(|k| mime.starts_with(&format!("{k}/")))
            .unwrap_or("document");
        let mut out = Map::new();
        out.insert("type".into(), Value::String(kind.into()));
        out.insert("source".into(), Value::Object(source));
        if let Some(id) = p.get("id") {
            out.insert("id".into(), id.clone());
        }
        if let Some(Value::String(name)) = p.get("filename") {
            let mut md = Map::new();
            md.insert("filename".into(), Value::String(name.clone()));
            out.insert("metadata".into(), Value::Object(md));
        }
        *p = out;
    }
}
