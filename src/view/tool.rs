//! The tool card's model, pure: a tool call's status and what its card shows ([`ToolView`]),
//! the arguments section while they stream ([`args_view`]), the result ([`result_model`]) with
//! long texts collapsed to a bounded preview ([`TextBlock`]), and how tool names match
//! ([`normalize_tool_name`]). Spec digest §"Tool call events". The components are in `ui::tool`.

use std::sync::Arc;

use serde_json::Value;

use crate::i18n::Strings;
use crate::protocol::types::{Content, ContentPart};
use crate::view::format::{format_bytes, format_count, truncate_chars};
use crate::view::media::{classify_all, Media};

/// A text longer than this many characters is collapsed to a preview.
pub const PREVIEW_CHARS: usize = 1_500;
/// A text with more lines than this is collapsed to a preview.
pub const PREVIEW_LINES: usize = 30;
/// JSON text larger than this is shown as it came: parsing and pretty-printing it would stall
/// the frame, and nobody reads a megabyte of JSON in a chat card.
pub const PRETTY_LIMIT: usize = 256 * 1024;
/// An argument value longer than this is cut in the key/value list.
const ARG_VALUE_CHARS: usize = 400;

/// Status of a tool card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolStatus {
    StreamingArgs,
    Running,
    Success,
    Error,
    AwaitingInput,
    /// Left pending behind an open interrupt (`reason: tool_call`): the interrupt card asks.
    AwaitingApproval,
}

impl ToolStatus {
    pub fn name(self) -> &'static str {
        match self {
            ToolStatus::StreamingArgs => "streaming-args",
            ToolStatus::Running => "running",
            ToolStatus::Success => "success",
            ToolStatus::Error => "error",
            ToolStatus::AwaitingInput => "awaiting-input",
            ToolStatus::AwaitingApproval => "awaiting-approval",
        }
    }
}

/// Everything a tool card shows, read from the thread when its version changes.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolView {
    pub id: String,
    pub name: String,
    pub status: ToolStatus,
    /// Best-effort value of the (possibly still streaming) arguments.
    pub args: Option<Value>,
    pub args_text_len: usize,
    pub result: Option<Content>,
    pub result_error: Option<String>,
    /// Milliseconds from `TOOL_CALL_END` to `TOOL_CALL_RESULT`.
    pub duration_ms: Option<f64>,
}

/// A result text larger than this is handed to a page's renderer as it came, not parsed.
pub const RESULT_JSON_LIMIT: usize = 1024 * 1024;

impl ToolView {
    /// The call as the JSON object a page's renderer element receives (its `toolCall`
    /// property): `{id, name, status, args, result, error, durationMs}`. `args` is the
    /// best-effort value of the arguments so far (they may still stream); `result` is the
    /// result parsed as JSON when it is JSON (up to [`RESULT_JSON_LIMIT`]), else its text.
    pub fn to_json(&self) -> Value {
        let result = self.result.as_ref().map(|c| match c {
            Content::Text(text) => (text.len() <= RESULT_JSON_LIMIT && looks_like_json(text))
                .then(|| serde_json::from_str::<Value>(text).ok())
                .flatten()
                .unwrap_or_else(|| Value::String(text.clone())),
            other => serde_json::to_value(other).unwrap_or(Value::Null),
        });
        serde_json::json!({
            "id": self.id,
            "name": self.name,
            "status": self.status.name(),
            "args": self.args,
            "result": result,
            "error": self.result_error,
            "durationMs": self.duration_ms,
        })
    }
}

/// The pill text of a status.
pub fn status_label(status: Option<ToolStatus>, t: &Strings) -> &'static str {
    match status {
        None => t.tool_pending,
        Some(ToolStatus::StreamingArgs) => t.tool_preparing,
        Some(ToolStatus::Running) => t.tool_running,
        Some(ToolStatus::Success) => t.tool_done,
        Some(ToolStatus::Error) => t.tool_failed,
        Some(ToolStatus::AwaitingInput) => t.tool_needs_input,
        Some(ToolStatus::AwaitingApproval) => t.tool_needs_approval,
    }
}

// ---- arguments ---------------------------------------------------------------------------

/// What the arguments section shows.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgsView {
    /// Nothing has arrived yet.
    Waiting,
    /// Text arrived but does not start a JSON value (its length in bytes).
    Unparsed(usize),
    /// An object: one row per field, in arrival order.
    Fields(Vec<ArgField>),
    /// Any other JSON value, pretty-printed.
    Json(TextBlock),
}

/// One argument row: key, display text, and a value class (`string`, `number`, `bool`,
/// `null`, `json`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArgField {
    pub key: String,
    pub value: String,
    pub kind: &'static str,
}

/// The arguments section's model for a tool view.
pub fn args_view(v: &ToolView) -> ArgsView {
    match &v.args {
        None if v.args_text_len == 0 => ArgsView::Waiting,
        None => ArgsView::Unparsed(v.args_text_len),
        Some(Value::Object(map)) => ArgsView::Fields(
            map.iter()
                .map(|(k, v)| {
                    let (value, kind) = match v {
                        Value::String(s) => (truncate_chars(s, ARG_VALUE_CHARS), "string"),
                        Value::Number(n) => (n.to_string(), "number"),
                        Value::Bool(b) => (b.to_string(), "bool"),
                        Value::Null => ("null".to_owned(), "null"),
                        other => (truncate_chars(&other.to_string(), ARG_VALUE_CHARS), "json"),
                    };
                    ArgField {
                        key: k.clone(),
                        value,
                        kind,
                    }
                })
                .collect(),
        ),
        Some(other) => ArgsView::Json(TextBlock::new(pretty_value(other), true)),
    }
}

/// A text shown in a card, with the preview it collapses to when it is long.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    /// Pretty-printed JSON (monospace, JSON colours) rather than plain text.
    pub json: bool,
    pub full: Arc<str>,
    /// The collapsed preview; `None` when the text is short enough to show whole.
    pub preview: Option<Arc<str>>,
    pub bytes: usize,
    pub lines: usize,
}

impl TextBlock {
    /// A block for `text`; `json` marks it as JSON for styling.
    pub fn new(text: String, json: bool) -> Self {
        let bytes = text.len();
        let lines = count_lines(&text);
        let preview = preview_of(&text).map(Arc::from);
        TextBlock {
            json,
            full: Arc::from(text),
            preview,
            bytes,
            lines,
        }
    }

    /// A block for a result text: JSON objects and arrays pretty-printed (unless huge),
    /// everything else as it came.
    pub fn from_result_text(text: &str) -> Self {
        match pretty_json(text) {
            Some(pretty) => Self::new(pretty, true),
            None => {
                let json = looks_like_json(text);
                Self::new(text.to_owned(), json)
            }
        }
    }

    /// "2.0 MB, 41,000 lines".
    pub fn size_label(&self, t: &Strings) -> String {
        format!(
            "{}, {} {}",
            format_bytes(self.bytes, t),
            format_count(self.lines, t),
            if self.lines == 1 {
                t.line_one
            } else {
                t.line_other
            }
        )
    }
}

/// One content part of a result.
#[derive(Debug, Clone, PartialEq)]
pub enum PartView {
    Text(TextBlock),
    /// A media part: an image, a player or a file chip ([`crate::view::media`]).
    Media(Media),
}

/// What the result section shows.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultBody {
    Empty,
    Text(TextBlock),
    Parts(Vec<PartView>),
}

/// The result section's model.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultModel {
    pub error: Option<String>,
    pub body: ResultBody,
}

/// The result model of a tool view; `None` until there is a result or an error.
pub fn result_model(v: &ToolView) -> Option<ResultModel> {
    if v.result.is_none() && v.result_error.is_none() {
        return None;
    }
    let body = match &v.result {
        None => ResultBody::Empty,
        Some(Content::Text(s)) if s.trim().is_empty() => ResultBody::Empty,
        Some(Content::Text(s)) => ResultBody::Text(TextBlock::from_result_text(s)),
        Some(Content::Parts(parts)) => ResultBody::Parts(parts_view(parts)),
        Some(Content::Object(o)) => ResultBody::Text(TextBlock::new(
            pretty_value(&Value::Object(o.clone())),
            true,
        )),
    };
    Some(ResultModel {
        error: v.result_error.clone(),
        body,
    })
}

/// A result's parts in order: text blocks, and the media classified with one message's
/// budget ([`classify_all`]).
fn parts_view(parts: &[ContentPart]) -> Vec<PartView> {
    let mut media = classify_all(parts).into_iter();
    parts
        .iter()
        .filter_map(|p| match p {
            ContentPart::Text { text, .. } => {
                Some(PartView::Text(TextBlock::from_result_text(text)))
            }
            _ => media.next().map(PartView::Media),
        })
        .collect()
}

// ---- pure helpers ------------------------------------------------------------------------

/// True when the text starts like a JSON object or array.
pub fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// The text pretty-printed when it is a JSON object or array no larger than
/// [`PRETTY_LIMIT`].
pub fn pretty_json(text: &str) -> Option<String> {
    if text.len() > PRETTY_LIMIT || !looks_like_json(text) {
        return None;
    }
    let v: Value = serde_json::from_str(text).ok()?;
    serde_json::to_string_pretty(&v).ok()
}

/// A value pretty-printed, at most [`PRETTY_LIMIT`] bytes of it (then `…`): the serialiser
/// stops writing there, so a value of any size costs O(the limit) — the one bound every
/// pretty-printed value in a card or the inspector goes through.
pub fn pretty_value(v: &impl serde::Serialize) -> String {
    struct Bounded(Vec<u8>);
    impl std::io::Write for Bounded {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let room = PRETTY_LIMIT - self.0.len();
            if room == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            let n = buf.len().min(room);
            self.0.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Bounded(Vec::new());
    let cut = serde_json::to_writer_pretty(&mut out, v).is_err();
    let mut text = String::from_utf8_lossy(&out.0).into_owned();
    if cut {
        // A character cut at the limit is dropped, not shown as U+FFFD.
        text.truncate(text.trim_end_matches('\u{fffd}').len());
        text.push('…');
    }
    text
}

/// Lines in a text (a trailing newline does not start another line).
pub fn count_lines(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    let newlines = text.bytes().filter(|b| *b == b'\n').count();
    if text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// The preview of a long text (at most [`PREVIEW_LINES`] lines and [`PREVIEW_CHARS`]
/// characters, ending with `…`); `None` when the text is short enough to show whole.
/// Costs O(preview), whatever the length of the text.
pub fn preview_of(text: &str) -> Option<String> {
    let mut lines = 0;
    let mut end = None;
    for (n, (i, c)) in text.char_indices().enumerate() {
        if n == PREVIEW_CHARS {
            end = Some(i);
            break;
        }
        if c == '\n' {
            lines += 1;
            if lines == PREVIEW_LINES {
                end = Some(i);
                break;
            }
        }
    }
    let end = end?;
    // Exactly PREVIEW_LINES lines ending in a final newline is not long.
    if text
        .get(end..)
        .is_some_and(|rest| rest.trim_end().is_empty())
    {
        return None;
    }
    let mut p = text.get(..end).unwrap_or_default().to_owned();
    p.push('…');
    Some(p)
}

/// Tool names compare in snake case: trimmed, `camelCase` split, dashes and spaces turned into
/// `_`, lower case. `searchVenues` and `Search-Venues` → `search_venues`. Tool names are ASCII
/// identifiers in practice (the model APIs allow `[a-zA-Z0-9_-]`): ASCII letters are folded,
/// any other character compares as it is (no Unicode case tables in the lean widget).
pub fn normalize_tool_name(name: &str) -> String {
    let name = name.trim();
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c == '-' || c.is_whitespace() {
            out.push('_');
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// The part of a (normalized) tool name after its last namespace separator.
pub fn strip_namespace(name: &str) -> &str {
    let mut start = 0;
    for sep in [".", "/", ":", "__"] {
        if let Some(i) = name.rfind(sep) {
            start = start.max(i + sep.len());
        }
    }
    name.get(start..).unwrap_or(name)
}
