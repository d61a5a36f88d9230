//! Follow-up suggestions: chips the page provides ([`crate::plugins::Plugins::suggestion`]) or
//! the agent sends — a `CUSTOM` event named `suggestions` (spec digest §4.13: the payload is
//! the producer's), or a `suggestions` array in its shared state. Read leniently, bounded. Pure.

use serde_json::Value;

/// At most this many chips from the agent.
pub const MAX_SUGGESTIONS: usize = 8;
/// A chip's prompt or hint is cut at this many characters.
pub const MAX_SUGGESTION_CHARS: usize = 200;

/// A prompt offered as a chip: clicking it sends `prompt`.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub prompt: String,
    /// A longer description (the chip's tooltip).
    pub hint: Option<String>,
}

fn cut(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(MAX_SUGGESTION_CHARS) {
        Some((i, _)) => s[..i].to_owned(),
        None => s.to_owned(),
    }
}

/// The suggestions in an agent's value: an array (or `{"suggestions": [...]}`) of strings or
/// of objects with `prompt` / `message` / `title` and an optional `hint` / `description`.
/// Anything else is skipped; empty prompts too; at most [`MAX_SUGGESTIONS`].
pub fn from_value(value: &Value) -> Vec<Suggestion> {
    let items = match value {
        Value::Array(a) => a,
        Value::Object(o) => match o.get("suggestions") {
            Some(Value::Array(a)) => a,
            _ => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    let text = |o: &serde_json::Map<String, Value>, keys: &[&str]| {
        keys.iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str))
            .map(cut)
            .filter(|s| !s.is_empty())
    };
    items
        .iter()
        .filter_map(|item| match item {
            Value::String(s) => Some(Suggestion {
                prompt: cut(s),
                hint: None,
            }),
            Value::Object(o) => Some(Suggestion {
                prompt: text(o, &["prompt", "message", "title"])?,
                hint: text(o, &["hint", "description"]),
            }),
            _ => None,
        })
        .filter(|s| !s.prompt.is_empty())
        .take(MAX_SUGGESTIONS)
        .collect()
}
