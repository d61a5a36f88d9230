//! The tool card: one AG-UI tool call (`TOOL_CALL_START` … `TOOL_CALL_ARGS` … `TOOL_CALL_END`
//! … `TOOL_CALL_RESULT`, spec §"Tool call events") as a card with the tool name, a status pill,
//! the duration, and a body chosen by the [`ToolRegistry`].
//!
//! The generic body (tools without a registered renderer) previews the arguments from the
//! best-effort partial JSON while they stream, then shows the result: pretty JSON, text, or
//! content parts (text + chips for media). Long results are collapsed to a bounded preview
//! with their size and a "Show all" button, so a multi-megabyte result costs one text node of
//! ~1,500 characters until someone asks for the rest.
//!
//! Everything shown here is agent output: it reaches the DOM only as text nodes and attribute
//! values, never as markup. The card re-reads the store only when its own
//! [`AgentStore::tool_version`] bumps.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::{fill, Strings};
use crate::protocol::types::{Content, ContentPart, MediaPart, PartSource};
use crate::store::{AgentStore, ToolStatus, ToolView};
use crate::ui::frontend_tools::{component_body, FrontendTools};
use crate::ui::tool_registry::ToolRegistry;
use crate::ui::{decimal, thousands, tr};

/// A text longer than this many characters is collapsed to a preview.
pub const PREVIEW_CHARS: usize = 1_500;
/// A text with more lines than this is collapsed to a preview.
pub const PREVIEW_LINES: usize = 30;
/// JSON text larger than this is shown as it came: parsing and pretty-printing it would stall
/// the frame, and nobody reads a megabyte of JSON in a chat card.
pub const PRETTY_LIMIT: usize = 256 * 1024;
/// An argument value longer than this is cut in the key/value list.
const ARG_VALUE_CHARS: usize = 400;

#[component]
pub fn ToolCard(
    /// The `toolCallId` of the call to show.
    tool_call_id: String,
) -> impl IntoView {
    let store = AgentStore::expect();
    let registry = ToolRegistry::use_registry();
    let frontend = FrontendTools::use_tools();
    let view = tool_view_memo(&tool_call_id);
    // The body (a registered renderer included) reuses this memo instead of re-reading.
    provide_context(CardView {
        id: Arc::from(tool_call_id.as_str()),
        view,
    });
    let status = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.status)));
    let name =
        Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.name.clone()).unwrap_or_default()));
    let duration = Memo::new(move |_| view.with(|v| v.as_ref().and_then(|v| v.duration_ms)));
    let open = RwSignal::new(true);

    let status_name = move || status.get().map_or("pending", ToolStatus::name);
    let busy = move || {
        matches!(
            status.get(),
            None | Some(ToolStatus::StreamingArgs | ToolStatus::Running)
        )
    };
    let id = tool_call_id.clone();
    // Re-chosen only when the name changes (it is set by TOOL_CALL_START and stays). A
    // frontend component tool shows its own UI while the call waits for the person.
    let body = move || {
        let name = name.get();
        let fallback = {
            let (registry, id, name) = (registry.clone(), id.clone(), name.clone());
            move || match registry.get(&name) {
                Some(render) => render(id.clone()),
                None => generic_body(view).into_any(),
            }
        };
        match frontend.component(&name) {
            Some(render) => component_body(view, id.clone(), render, fallback).into_any(),
            None => fallback(),
        }
    };
    // A call that starts waiting for the person takes the keyboard focus (a card shown
    // already waiting, e.g. from history, does not).
    let card: NodeRef<leptos::html::Section> = NodeRef::new();
    Effect::new(move |prev: Option<Option<ToolStatus>>| {
        let now = status.get();
        let became = now == Some(ToolStatus::AwaitingInput)
            && prev.is_some_and(|p| p != Some(ToolStatus::AwaitingInput));
        if became {
            request_animation_frame(move || {
                if let Some(Some(el)) = card.try_get_untracked() {
                    let _ = el.focus();
                }
            });
        }
        now
    });

    view! {
        <section
            class="agui-tool-card"
            data-testid="tool-card"
            data-tool-call-id=tool_call_id
            data-tool-name=move || name.get()
            data-status=status_name
            aria-busy=move || busy().to_string()
            tabindex="-1"
            node_ref=card
        >
            <header class="agui-tool-card__header">
                <button
                    type="button"
                    class="agui-tool-card__toggle"
                    aria-expanded=move || open.get().to_string()
                    title=move || if open.get() { tr(store).collapse } else { tr(store).expand }
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    <span class="agui-tool-card__chevron" aria-hidden="true"></span>
                    <span class="agui-tool-card__name" data-testid="tool-name">
                        {move || {
                            let n = name.get();
                            if n.is_empty() { tr(store).tool_fallback_name.to_owned() } else { n }
                        }}
                    </span>
                </button>
                <span class="agui-tool-card__status" data-testid="tool-status" aria-live="polite">
                    <Show when=busy>
                        <span class="agui-tool-spinner" aria-hidden="true"></span>
                    </Show>
                    {move || status_label(status.get(), tr(store))}
                </span>
                <span class="agui-tool-card__duration" data-testid="tool-duration">
                    {move || duration.get().map(|ms| format_duration(ms, tr(store)))}
                </span>
            </header>
            <div class="agui-tool-card__body" hidden=move || !open.get()>
                {body}
            </div>
        </section>
    }
}

/// The memo of the enclosing card, shared with its body through context.
#[derive(Clone)]
struct CardView {
    id: Arc<str>,
    view: Memo<Option<ToolView>>,
}

/// The card's view of one tool call, re-read from the store only when the call's version
/// bumps; equal reads do not wake what depends on it. Inside a [`ToolCard`] for the same id
/// (a registered renderer), this is the card's own memo.
pub fn tool_view_memo(tool_call_id: &str) -> Memo<Option<ToolView>> {
    if let Some(card) = use_context::<CardView>().filter(|c| &*c.id == tool_call_id) {
        return card.view;
    }
    let store = AgentStore::expect();
    let version = store.tool_version(tool_call_id);
    let id = tool_call_id.to_owned();
    Memo::new(move |_| {
        version.track();
        store.tool_view(&id)
    })
}

/// The generic body: the arguments, then the result.
pub fn generic_body(view: Memo<Option<ToolView>>) -> impl IntoView {
    view! {
        {args_section(view)}
        {result_section(view)}
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
        Some(other) => ArgsView::Json(TextBlock::new(
            serde_json::to_string_pretty(other).unwrap_or_default(),
            true,
        )),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgsShape {
    Waiting,
    Unparsed,
    Fields,
    Json,
}

/// The arguments, previewed from the partial JSON while they stream.
pub fn args_section(view: Memo<Option<ToolView>>) -> impl IntoView {
    let store = AgentStore::expect();
    let model = Memo::new(move |_| view.with(|v| v.as_ref().map_or(ArgsView::Waiting, args_view)));
    // Arguments may still arrive (an unknown call counts: its START is on the way).
    let streaming = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .is_none_or(|v| v.status == ToolStatus::StreamingArgs)
        })
    });
    let shape = Memo::new(move |_| {
        model.with(|m| match m {
            ArgsView::Waiting => ArgsShape::Waiting,
            ArgsView::Unparsed(_) => ArgsShape::Unparsed,
            ArgsView::Fields(_) => ArgsShape::Fields,
            ArgsView::Json(_) => ArgsShape::Json,
        })
    });
    // Only the switch between shapes rebuilds the section; a streaming field rebuilds its row.
    let content = move || {
        match shape.get() {
        ArgsShape::Waiting => view! {
            <p class="agui-tool-card__muted">
                {move || if streaming.get() { tr(store).tool_waiting_args } else { tr(store).tool_no_args }}
            </p>
        }
        .into_any(),
        ArgsShape::Unparsed => view! {
            <p class="agui-tool-card__muted">
                {move || {
                    model.with(|m| match m {
                        ArgsView::Unparsed(n) => {
                            fill(tr(store).tool_args_unparsed, &[&format_bytes(*n, tr(store))])
                        }
                        _ => String::new(),
                    })
                }}
            </p>
        }
        .into_any(),
        ArgsShape::Fields => view! {
            <dl class="agui-tool-card__fields">
                <For
                    each=move || {
                        model.with(|m| match m {
                            ArgsView::Fields(f) => f.clone(),
                            _ => Vec::new(),
                        })
                    }
                    key=|f| f.clone()
                    children=|f| {
                        let ArgField { key, value, kind } = f;
                        let class = format!("agui-tool-card__value agui-tool-card__value--{kind}");
                        let data_key = key.clone();
                        view! {
                            <div class="agui-tool-card__field" data-key=data_key>
                                <dt class="agui-tool-card__key">{key}</dt>
                                <dd class=class>{value}</dd>
                            </div>
                        }
                    }
                />
                <Show when=move || model.with(|m| matches!(m, ArgsView::Fields(f) if f.is_empty()))>
                    <div class="agui-tool-card__muted">
                        {move || if streaming.get() { "…" } else { tr(store).tool_no_args }}
                    </div>
                </Show>
            </dl>
        }
        .into_any(),
        ArgsShape::Json => view! {
            <div class="agui-tool-card__json-args">
                {move || {
                    model.with(|m| match m {
                        ArgsView::Json(b) => Some(text_block(b.clone(), "tool-args-text")),
                        _ => None,
                    })
                }}
            </div>
        }
        .into_any(),
    }
    };
    view! {
        <div
            class="agui-tool-card__section agui-tool-card__args"
            class:agui-tool-card__args--streaming=move || streaming.get()
            data-testid="tool-args"
        >
            <div class="agui-tool-card__label">"Arguments"</div>
            {content}
        </div>
    }
}

// ---- result ------------------------------------------------------------------------------

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
    /// A media part shown as a chip: kind (`image`, `audio`, …) and a one-line description.
    Media {
        kind: &'static str,
        label: String,
    },
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
pub fn result_model(v: &ToolView, t: &Strings) -> Option<ResultModel> {
    if v.result.is_none() && v.result_error.is_none() {
        return None;
    }
    let body = match &v.result {
        None => ResultBody::Empty,
        Some(Content::Text(s)) if s.trim().is_empty() => ResultBody::Empty,
        Some(Content::Text(s)) => ResultBody::Text(TextBlock::from_result_text(s)),
        Some(Content::Parts(parts)) => {
            ResultBody::Parts(parts.iter().map(|p| part_view(p, t)).collect())
        }
        Some(Content::Object(o)) => ResultBody::Text(TextBlock::new(
            serde_json::to_string_pretty(o).unwrap_or_default(),
            true,
        )),
    };
    Some(ResultModel {
        error: v.result_error.clone(),
        body,
    })
}

fn part_view(p: &ContentPart, t: &Strings) -> PartView {
    let (kind, media): (&'static str, &MediaPart) = match p {
        ContentPart::Text { text, .. } => return PartView::Text(TextBlock::from_result_text(text)),
        ContentPart::Image(m) => ("image", m),
        ContentPart::Audio(m) => ("audio", m),
        ContentPart::Video(m) => ("video", m),
        ContentPart::Document(m) => ("document", m),
    };
    PartView::Media {
        kind,
        label: media_label(&media.source, t),
    }
}

/// A one-line description of where a media part's bytes are. Nothing is fetched or decoded.
pub fn media_label(source: &PartSource, t: &Strings) -> String {
    match source {
        PartSource::Data { value, mime_type } => {
            // Base64: 4 characters per 3 bytes.
            format!("{mime_type}, {}", format_bytes(value.len() / 4 * 3, t))
        }
        PartSource::Url { value, mime_type } => match mime_type {
            Some(m) => format!("{m}, {}", truncate_chars(value, 80)),
            None => truncate_chars(value, 80),
        },
        PartSource::File {
            value,
            provider,
            mime_type,
        } => {
            let mut s = format!("file {}", truncate_chars(value, 60));
            if let Some(p) = provider {
                s.push_str(&format!(" ({p})"));
            }
            if let Some(m) = mime_type {
                s.push_str(&format!(", {m}"));
            }
            s
        }
    }
}

/// The result: an error notice, then the body. Rendered only once a result (or error) exists.
pub fn result_section(view: Memo<Option<ToolView>>) -> impl IntoView {
    let store = AgentStore::expect();
    let model = Memo::new(move |_| {
        let t = tr(store);
        view.with(|v| v.as_ref().and_then(|v| result_model(v, t)))
    });
    let status = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.status)));
    move || match model.get() {
        Some(m) => result_view(m).into_any(),
        None => match status.get() {
            Some(ToolStatus::Error) => view! {
                <p class="agui-tool-card__muted" data-testid="tool-no-result">
                    {move || tr(store).tool_no_result}
                </p>
            }
            .into_any(),
            Some(ToolStatus::AwaitingInput) => view! {
                <p class="agui-tool-card__muted" data-testid="tool-awaiting">
                    {move || tr(store).tool_awaiting_input}
                </p>
            }
            .into_any(),
            Some(ToolStatus::AwaitingApproval) => view! {
                <p class="agui-tool-card__muted" data-testid="tool-awaiting-approval">
                    {move || tr(store).tool_awaiting_approval}
                </p>
            }
            .into_any(),
            _ => ().into_any(),
        },
    }
}

/// The view of one result model.
pub fn result_view(m: ResultModel) -> impl IntoView {
    let store = AgentStore::expect();
    let failed = m.error.is_some();
    let body = match m.body {
        ResultBody::Empty if failed => None,
        ResultBody::Empty => Some(
            view! { <p class="agui-tool-card__muted">{move || tr(store).tool_empty_result}</p> }
                .into_any(),
        ),
        ResultBody::Text(b) => Some(text_block(b, "tool-result-text").into_any()),
        ResultBody::Parts(parts) => Some(
            view! {
                <div class="agui-tool-card__parts">
                    {parts
                        .into_iter()
                        .map(|p| match p {
                            PartView::Text(b) => text_block(b, "tool-result-text").into_any(),
                            PartView::Media { kind, label } => view! {
                                <span
                                    class="agui-tool-card__chip"
                                    data-testid="tool-result-media"
                                    data-kind=kind
                                >
                                    <span class="agui-tool-card__chip-kind">{kind}</span>
                                    <span class="agui-tool-card__chip-label">{label}</span>
                                </span>
                            }
                            .into_any(),
                        })
                        .collect_view()}
                </div>
            }
            .into_any(),
        ),
    };
    view! {
        <div
            class="agui-tool-card__section agui-tool-card__result"
            class:agui-tool-card__result--error=failed
            data-testid="tool-result"
        >
            <div class="agui-tool-card__label">
                {move || if failed { tr(store).tool_error } else { tr(store).tool_result }}
            </div>
            {m.error.map(|e| view! {
                <p class="agui-tool-card__error" data-testid="tool-error" role="alert">{e}</p>
            })}
            {body}
        </div>
    }
}

/// A text block: whole when short; otherwise its size, a bounded preview and "Show all".
pub fn text_block(b: TextBlock, testid: &'static str) -> impl IntoView {
    let store = AgentStore::expect();
    let expanded = RwSignal::new(false);
    let long = b.preview.is_some();
    let size = b.size_label(tr(store));
    let TextBlock {
        json,
        full,
        preview,
        ..
    } = b;
    let shown = move || -> Arc<str> {
        match &preview {
            Some(p) if !expanded.get() => p.clone(),
            _ => full.clone(),
        }
    };
    view! {
        <div
            class="agui-tool-card__text"
            class:agui-tool-card__text--json=json
            class:agui-tool-card__text--collapsed=move || long && !expanded.get()
            data-testid=testid
        >
            {long.then(|| view! {
                <div class="agui-tool-card__size" data-testid="tool-result-size">{size}</div>
            })}
            <pre class="agui-tool-card__pre">{shown}</pre>
            {long.then(|| view! {
                <button
                    type="button"
                    class="agui-tool-card__more"
                    data-testid="tool-result-show-all"
                    aria-expanded=move || expanded.get().to_string()
                    on:click=move |_| expanded.update(|e| *e = !*e)
                >
                    {move || if expanded.get() { tr(store).show_less } else { tr(store).show_all }}
                </button>
            })}
        </div>
    }
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

/// At most `max` characters of `s`, with `…` when cut.
pub fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((i, _)) => {
            let mut out = s.get(..i).unwrap_or_default().to_owned();
            out.push('…');
            out
        }
    }
}

/// `41000` → `41,000` (`41.000` in German).
pub fn format_count(n: usize, t: &Strings) -> String {
    thousands(n, t)
}

/// `512` → `512 B`, `2048` → `2.0 KB`, `2097152` → `2.0 MB` (`2,0 MB` in German).
pub fn format_bytes(n: usize, t: &Strings) -> String {
    const K: f64 = 1024.0;
    let f = n as f64;
    if f < K {
        format!("{n} B")
    } else if f < K * K {
        format!("{} KB", decimal(f / K, 1, t))
    } else if f < K * K * K {
        format!("{} MB", decimal(f / (K * K), 1, t))
    } else {
        format!("{} GB", decimal(f / (K * K * K), 1, t))
    }
}

/// `412.3` → `412 ms`, `1234` → `1.2 s`, `75000` → `1 min 15 s` (`1,2 s` in German).
pub fn format_duration(ms: f64, t: &Strings) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        return "0 ms".to_owned();
    }
    let rounded = ms.round();
    if rounded < 1000.0 {
        return format!("{rounded} ms");
    }
    let s = ms / 1000.0;
    if s < 59.95 {
        return format!("{} s", decimal(s, 1, t));
    }
    let total = s.round() as u64;
    format!("{} min {} s", thousands(total / 60, t), total % 60)
}
