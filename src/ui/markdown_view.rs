//! The Markdown of a message, rendered as DOM nodes from the safe tree of [`crate::markdown`]
//! (CommonMark + GFM tables, task lists, strikethrough).
//!
//! Safety: nothing here builds an HTML string or injects markup. Text becomes text
//! nodes, raw HTML in the source becomes *visible text*, a link exists only for a
//! [`SafeUrl`] (http, https, mailto) and opens with `rel="noopener noreferrer"`, and an image
//! is never fetched until the person clicks "Load image".
//!
//! Incremental: each message keeps one [`IncrementalMarkdown`] in a `StoredValue`. When the
//! row's version bumps only the new suffix of the text is fed to it; the finished segments are
//! rendered once each (a keyed `<For>` over segment indexes: a finished segment never
//! changes) and only the open tail is re-rendered. So a token costs O(the tail), not O(the
//! message) and never O(the transcript).

use leptos::prelude::*;

use crate::i18n::fill;
use crate::i18n::Strings;
use crate::markdown::{Align, Block, IncrementalMarkdown, Inline, ListItem, MathSyntax, SafeUrl};
use crate::plugins::{CodeBlockView, Plugins};
use crate::store::AgentStore;
use crate::ui::clipboard::copy_to_clipboard;
use crate::ui::lazy::lazy_in_chat;
use crate::ui::table_tools::table_toolbar;
use crate::ui::tr_ctx;
use crate::view::highlight::{self, Highlighter, Line};
use crate::view::rows::is_last_answer;

/// The parser of one message plus a generation that changes when its text was replaced
/// (not just appended to), so every rendered segment is thrown away.
struct MdState {
    md: IncrementalMarkdown,
    generation: u64,
    /// The store's rewrite epoch when the text was last fed.
    epoch: Option<u64>,
}

impl MdState {
    fn new(math: MathSyntax) -> Self {
        MdState {
            md: IncrementalMarkdown::with_math(math),
            generation: 0,
            epoch: None,
        }
    }

    /// Bring the parser up to `text`; returns whether anything changed.
    fn feed(&mut self, text: &str, epoch: u64) -> bool {
        if let Some(rest) = appended(text, self.md.text_len(), self.epoch, epoch) {
            if !rest.is_empty() {
                self.md.push(rest);
            }
            return !rest.is_empty();
        }
        self.epoch = Some(epoch);
        match text.strip_prefix(self.md.text()) {
            Some("") => false,
            Some(rest) => {
                self.md.push(rest);
                true
            }
            None => {
                // A snapshot rewrote the message: start over.
                self.md = IncrementalMarkdown::with_math(self.md.math());
                self.generation += 1;
                self.md.push(text);
                true
            }
        }
    }
}

/// Whether blocks may still change: `None` for a finished segment; for the open tail, a
/// signal that is true while its message streams (a finished message's tail is final too).
type Live = Option<Signal<bool>>;

/// What the view needs to know after feeding: which segments are final, and a counter that
/// moves whenever the tail must be re-rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Progress {
    generation: u64,
    finished: usize,
    tail_rev: u64,
}

/// What a row's text gained since `shown` bytes of it were shown in the store's rewrite epoch
/// `shown_in`: within one epoch a text only grows, so the suffix — O(the new text), not a
/// comparison of the whole message per delta; `None` when it must be shown again from the start.
fn appended(text: &str, shown: usize, shown_in: Option<u64>, epoch: u64) -> Option<&str> {
    text.get(shown..).filter(|_| shown_in == Some(epoch))
}

/// The Markdown text of an assistant message.
#[component]
pub fn MarkdownMessage(
    /// Key of the message row (see [`crate::store::Row::key`]) whose text is rendered.
    row_key: String,
) -> impl IntoView {
    view! {
        <div class="agui-markdown" data-testid="message-text">
            {incremental_markdown(row_key)}
        </div>
    }
}

/// The incrementally rendered Markdown of a row's text, without a container (the reasoning
/// box reuses it).
pub fn incremental_markdown(row_key: String) -> impl IntoView {
    let store = AgentStore::expect();
    let version = store.row_version(&row_key);
    let math = store.config.with_untracked(|c| c.math);
    let state = StoredValue::new(MdState::new(math));
    // The message streams while a run is in flight and it is the last answer (or the last
    // row: a reasoning box). Read only by a table or a drawn code block in the tail.
    let live_key = row_key.clone();
    let notes_key = row_key.clone();
    let live: Signal<bool> = Memo::new(move |_| {
        store.running.get()
            && store.rows.with(|rows| {
                rows.last().is_some_and(|r| r.key == live_key) || is_last_answer(rows, &live_key)
            })
    })
    .into();
    // Feed the new text whenever this row's version bumps (and only then).
    let progress = Memo::new(move |prev: Option<&Progress>| {
        version.track();
        let epoch = store.rewrite_epoch();
        let changed = store
            .with_message(&row_key, |m| {
                let text = m.text();
                state
                    .try_update_value(|s| s.feed(&text, epoch))
                    .unwrap_or(false)
            })
            .unwrap_or(false);
        let tail_rev = match prev {
            Some(p) if changed => p.tail_rev.wrapping_add(1),
            Some(p) => p.tail_rev,
            None => 0,
        };
        state
            .try_with_value(|s| Progress {
                generation: s.generation,
                finished: s.md.finished_len(),
                tail_rev,
            })
            .unwrap_or(Progress {
                generation: 0,
                finished: 0,
                tail_rev,
            })
    });
    // Changes only when a segment is finished (or everything was reset), so the `<For>` below
    // diffs its keys once per segment, not once per token.
    let segments = Memo::new(move |_| progress.with(|p| (p.generation, p.finished)));
    // A tail that is one code block (a code file streaming) keeps its DOM from frame to
    // frame; any other tail is redrawn.
    let tail_code = Memo::new(move |_| {
        let p = progress.get();
        let lang = state
            .try_with_value(|s| match s.md.tail() {
                [Block::CodeBlock { lang, .. }] => Some(lang.clone()),
                _ => None,
            })
            .flatten()?;
        Some((p.generation, p.finished, lang))
    });
    let tail = move || match tail_code.get() {
        Some((_, _, lang)) => streaming_code_block(state, progress, lang, live),
        None => {
            progress.track();
            let blocks = state
                .try_with_value(|s| s.md.tail().to_vec())
                .unwrap_or_default();
            render_blocks(&blocks, Some(live))
        }
    };
    let tail_rev = Memo::new(move |_| progress.with(|p| p.tail_rev));
    let notes = crate::ui::sources::provide_notes(
        state,
        |s: &MdState| &s.md,
        segments,
        tail_rev,
        &notes_key,
        |blocks| render_blocks(blocks, None),
    );
    view! {
        <For
            each=move || {
                let (generation, n) = segments.get();
                (0..n).map(move |i| (generation, i))
            }
            key=|k| *k
            children=move |(_, i)| {
                let blocks = state
                    .try_with_value(|s| s.md.finished().get(i).cloned())
                    .flatten()
                    .unwrap_or_default();
                render_blocks(&blocks, None)
            }
        />
        {tail}
        {notes}
    }
}

/// Blocks → DOM.
fn render_blocks(blocks: &[Block], live: Live) -> AnyView {
    blocks
        .iter()
        .map(|b| render_block(b, live))
        .collect::<Vec<_>>()
        .into_any()
}

fn render_block(block: &Block, live: Live) -> AnyView {
    match block {
        // Each block finds its own direction (a Hebrew paragraph in an English answer reads
        // right to left while it streams); code and math keep theirs.
        Block::Paragraph(inlines) => {
            view! { <p dir="auto">{render_inlines(inlines)}</p> }.into_any()
        }
        Block::Heading { level, content } => heading(*level, render_inlines(content)),
        Block::CodeBlock { lang, code } => code_block(lang.clone(), code.clone(), live),
        Block::Quote(blocks) => view! {
            <blockquote class="agui-md__quote">{render_blocks(blocks, live)}</blockquote>
        }
        .into_any(),
        Block::List {
            ordered,
            start,
            items,
        } => list(*ordered, *start, items, live),
        Block::Table { .. } => table(block, live),
        Block::Rule => view! { <hr class="agui-md__rule" /> }.into_any(),
        // Raw HTML from the agent is shown as what it is: text.
        Block::Html(text) => {
            view! { <p class="agui-md__raw" dir="auto">{text.clone()}</p> }.into_any()
        }
        // Shown in the notes at the end of the message (`crate::ui::sources`).
        Block::Footnote { .. } => ().into_any(),
    }
}

fn heading(level: u8, content: AnyView) -> AnyView {
    match level {
        1 => view! { <h1 class="agui-md__h" dir="auto">{content}</h1> }.into_any(),
        2 => view! { <h2 class="agui-md__h" dir="auto">{content}</h2> }.into_any(),
        3 => view! { <h3 class="agui-md__h" dir="auto">{content}</h3> }.into_any(),
        4 => view! { <h4 class="agui-md__h" dir="auto">{content}</h4> }.into_any(),
        5 => view! { <h5 class="agui-md__h" dir="auto">{content}</h5> }.into_any(),
        _ => view! { <h6 class="agui-md__h" dir="auto">{content}</h6> }.into_any(),
    }
}

fn list(ordered: bool, start: u64, items: &[ListItem], live: Live) -> AnyView {
    let has_tasks = items.iter().any(|i| i.task.is_some());
    let items: Vec<AnyView> = items
        .iter()
        .map(|item| match item.task {
            Some(checked) => view! {
                <li class="agui-md__task" dir="auto" data-checked=checked.to_string()>
                    <input
                        class="agui-md__checkbox"
                        type="checkbox"
                        disabled=true
                        checked=checked
                        aria-label=move || if checked { tr_ctx().task_done } else { tr_ctx().task_not_done }
                    />
                    <div class="agui-md__task-body">{render_blocks(&item.blocks, live)}</div>
                </li>
            }
            .into_any(),
            None => view! { <li dir="auto">{render_blocks(&item.blocks, live)}</li> }.into_any(),
        })
        .collect();
    let class = if has_tasks {
        "agui-md__list agui-md__list--tasks"
    } else {
        "agui-md__list"
    };
    if ordered {
        view! { <ol class=class start=start.to_string()>{items}</ol> }.into_any()
    } else {
        view! { <ul class=class>{items}</ul> }.into_any()
    }
}

fn align_class(align: Option<&Align>) -> &'static str {
    match align {
        Some(Align::Left) => "agui-md__cell agui-md__cell--left",
        Some(Align::Center) => "agui-md__cell agui-md__cell--center",
        Some(Align::Right) => "agui-md__cell agui-md__cell--right",
        Some(Align::None) | None => "agui-md__cell",
    }
}

/// A table in its card: the table scrolls sideways inside it, the toolbar
/// ([`table_toolbar`]) under it once the table is final.
fn table(block: &Block, live: Live) -> AnyView {
    let Block::Table {
        align,
        header,
        rows,
    } = block
    else {
        return ().into_any();
    };
    let head: Vec<AnyView> = header
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            view! { <th class=align_class(align.get(i)) scope="col" dir="auto">{render_inlines(cell)}</th> }
                .into_any()
        })
        .collect();
    let body: Vec<AnyView> = rows
        .iter()
        .map(|row| {
            let cells: Vec<AnyView> = row
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    view! { <td class=align_class(align.get(i)) dir="auto">{render_inlines(cell)}</td> }
                        .into_any()
                })
                .collect();
            view! { <tr>{cells}</tr> }.into_any()
        })
        .collect();
    view! {
        <div class="agui-md__table-card" data-testid="md-table">
            <div class="agui-md__table-wrap" tabindex="0" role="region" aria-label=move || tr_ctx().table_label>
                <table class="agui-md__table">
                    <thead>
                        <tr>{head}</tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            {
                let block = block.clone();
                lazy_in_chat(move || table_toolbar(block.clone(), live))
            }
        </div>
    }
    .into_any()
}

/// A block at least this many lines long gets the line-number and wrap toggles.
const LONG_BLOCK_LINES: usize = 12;

/// One line of code: its pieces as text nodes, a token's inside a `<span>` with its class.
fn code_line(line: &Line) -> AnyView {
    let pieces: Vec<AnyView> = line
        .parts()
        .map(|(class, text)| match class {
            Some(c) => view! { <span class=c.css()>{text.to_owned()}</span> }.into_any(),
            None => text.to_owned().into_any(),
        })
        .collect();
    view! { <span class="agui-code__line">{pieces}"\n"</span> }.into_any()
}

/// The lines of a finished block: highlighted when its language is known, else plain.
fn code_lines(lang: Option<&str>, code: &str) -> Vec<Line> {
    match lang.and_then(highlight::language) {
        Some(l) => highlight::highlight(l, code),
        None => code
            .strip_suffix('\n')
            .unwrap_or(code)
            .split('\n')
            .map(|l| Line {
                text: l.to_owned(),
                spans: Vec::new(),
            })
            .collect(),
    }
}

/// A code block's frame: the bar (language, toggles for a long block, Copy) around `body`.
/// With `drawn` (the page's renderer for its language, [`drawn_code`]) that is shown instead,
/// and a toggle in the bar shows the source (`body`) and back.
fn code_frame(
    lang: Option<String>,
    long: bool,
    copy: impl Fn() -> String + Send + Sync + 'static,
    body: AnyView,
    drawn: Option<AnyView>,
) -> AnyView {
    let (copied, set_copied) = signal(false);
    let numbered = RwSignal::new(false);
    let wrapped = RwSignal::new(false);
    let has_drawn = drawn.is_some();
    let source = RwSignal::new(false);
    let class = lang
        .as_ref()
        .map(|l| format!("language-{l}"))
        .unwrap_or_default();
    let toggle =
        move |on: RwSignal<bool>, testid: &'static str, label: fn(&Strings) -> &'static str| {
            view! {
                <button
                    type="button"
                    class="agui-code__copy"
                    data-testid=testid
                    aria-pressed=move || on.get().to_string()
                    on:click=move |_| on.update(|v| *v = !*v)
                >
                    {move || label(tr_ctx())}
                </button>
            }
        };
    view! {
        <div
            class="agui-code"
            class:agui-code--numbered=move || numbered.get()
            class:agui-code--wrap=move || wrapped.get()
            data-testid="code-block"
        >
            <div class="agui-code__bar">
                <span class="agui-code__lang">{lang.unwrap_or_else(|| "text".to_owned())}</span>
                <span class="agui-code__tools">
                    {has_drawn.then(|| view! {
                        <button
                            type="button"
                            class="agui-code__copy"
                            data-testid="code-source"
                            on:click=move |_| source.update(|v| *v = !*v)
                        >
                            {move || if source.get() { tr_ctx().code_diagram } else { tr_ctx().code_source }}
                        </button>
                    })}
                    {long.then(|| view! {
                        {toggle(numbered, "code-numbers", |t| t.code_line_numbers)}
                        {toggle(wrapped, "code-wrap", |t| t.code_wrap)}
                    })}
                    <button
                        type="button"
                        class="agui-code__copy"
                        data-testid="copy-code"
                        aria-label=move || tr_ctx().copy_code_label
                        on:click=move |_| copy_to_clipboard(copy(), set_copied)
                    >
                        {move || if copied.get() { tr_ctx().copied } else { tr_ctx().copy }}
                    </button>
                </span>
            </div>
            {drawn.map(|d| view! {
                <div class="agui-code__drawn" data-testid="code-drawn" hidden=move || source.get()>
                    {d}
                </div>
            })}
            <pre class="agui-code__pre" dir="ltr" tabindex="0" hidden=move || has_drawn && !source.get()>
                <code class=class>{body}</code>
            </pre>
        </div>
    }
    .into_any()
}

fn code_block(lang: Option<String>, code: String, live: Live) -> AnyView {
    let lines = code_lines(lang.as_deref(), &code);
    let long = lines.len() >= LONG_BLOCK_LINES;
    let body: Vec<AnyView> = lines.iter().map(code_line).collect();
    let text = code.clone();
    let drawn = drawn_code(lang.as_deref(), move || Signal::stored(text), live);
    code_frame(lang, long, move || code.clone(), body.into_any(), drawn)
}

/// The page's own view of a block of `lang` ([`Plugins::code_renderer`]), if it registered
/// one: it gets the block's text (`code`, asked for only then) and whether it is finished (not
/// while `live`).
fn drawn_code(
    lang: Option<&str>,
    code: impl FnOnce() -> Signal<String>,
    live: Live,
) -> Option<AnyView> {
    let lang = lang?;
    let render = with_context::<Plugins, _>(|p| p.code_renderer_for(lang)).flatten()?;
    let complete = match live {
        Some(live) => Signal::derive(move || !live.get()),
        None => Signal::stored(true),
    };
    Some(render(CodeBlockView {
        lang: crate::embed::fence_key(lang).unwrap_or_default().into(),
        code: code(),
        complete,
    }))
}

/// The lines of a code block as it streams: highlighted when its language is known.
struct CodeStream {
    highlighter: Option<Highlighter>,
    /// Finished lines of a block without a known language.
    plain: Vec<Line>,
    /// Its open line.
    open: String,
    /// Bytes of the block's code fed so far.
    fed: usize,
}

impl CodeStream {
    fn new(lang: Option<&str>) -> Self {
        CodeStream {
            highlighter: lang.and_then(highlight::language).map(Highlighter::new),
            plain: Vec::new(),
            open: String::new(),
            fed: 0,
        }
    }

    fn push(&mut self, rest: &str) {
        self.fed += rest.len();
        if let Some(h) = &mut self.highlighter {
            return h.push(rest);
        }
        self.open.push_str(rest);
        while let Some(i) = self.open.find('\n') {
            let text: String = self.open.drain(..=i).collect();
            self.plain.push(Line {
                text: text.trim_end_matches('\n').to_owned(),
                spans: Vec::new(),
            });
        }
    }

    fn lines(&self) -> &[Line] {
        match &self.highlighter {
            Some(h) => h.lines(),
            None => &self.plain,
        }
    }

    fn open_line(&self) -> Line {
        match &self.highlighter {
            Some(h) => h.open_line(),
            None => Line {
                text: self.open.clone(),
                spans: Vec::new(),
            },
        }
    }
}

/// The code block a message is streaming (the open tail is exactly this block): each frame
/// feeds the highlighter only the new text; a finished line is tokenised and mounted once (a
/// keyed `<For>` that only grows) and only the open last line is redrawn — O(the new text +
/// the open line) per frame, not O(the block).
fn streaming_code_block(
    state: StoredValue<MdState>,
    progress: Memo<Progress>,
    lang: Option<String>,
    live: Signal<bool>,
) -> AnyView {
    let stream = StoredValue::new(CodeStream::new(lang.as_deref()));
    let tail_code = move |from: usize| {
        state
            .try_with_value(|s| match s.md.tail() {
                [Block::CodeBlock { code, .. }] => code.get(from..).map(str::to_owned),
                _ => None,
            })
            .flatten()
    };
    // Feed what arrived since the last frame: (finished lines, the open line's revision).
    let fed = Memo::new(move |prev: Option<&(usize, u64)>| {
        progress.track();
        let from = stream.with_value(|c| c.fed);
        if let Some(rest) = tail_code(from).filter(|r| !r.is_empty()) {
            stream.update_value(|c| c.push(&rest));
        }
        let rev = prev.map_or(0, |p| p.1.wrapping_add(1));
        (stream.with_value(|c| c.lines().len()), rev)
    });
    let finished = Memo::new(move |_| fed.get().0);
    let body = view! {
        <For
            each=move || 0..finished.get()
            key=|i| *i
            children=move |i| {
                stream
                    .with_value(|c| c.lines().get(i).map(code_line))
                    .unwrap_or_else(|| ().into_any())
            }
        />
        {move || {
            fed.track();
            let open = stream.with_value(CodeStream::open_line);
            (!open.text.is_empty()).then(|| code_line(&open))
        }}
    }
    .into_any();
    let copy = move || tail_code(0).unwrap_or_default();
    // The whole text, for a page's renderer.
    let code = move || {
        Memo::new(move |_| {
            fed.track();
            tail_code(0).unwrap_or_default()
        })
        .into()
    };
    let drawn = drawn_code(lang.as_deref(), code, Some(live));
    code_frame(lang, false, copy, body, drawn)
}

/// Inlines → DOM.
pub fn render_inlines(inlines: &[Inline]) -> AnyView {
    inlines_view(inlines, true)
}

/// Inlines → DOM; `markers`: citation and footnote markers in the text may become links (not
/// inside a link).
fn inlines_view(inlines: &[Inline], markers: bool) -> AnyView {
    inlines
        .iter()
        .map(|i| render_inline(i, markers))
        .collect::<Vec<_>>()
        .into_any()
}

fn render_inline(inline: &Inline, markers: bool) -> AnyView {
    let render_inlines = |c: &[Inline]| inlines_view(c, markers);
    match inline {
        Inline::Text(text) if markers && text.contains('[') => {
            crate::ui::sources::text_with_markers(text)
        }
        Inline::Text(text) => text.clone().into_any(),
        Inline::Code(code) => {
            view! { <code class="agui-md__code">{code.clone()}</code> }.into_any()
        }
        Inline::Emphasis(c) => view! { <em>{render_inlines(c)}</em> }.into_any(),
        Inline::Strong(c) => view! { <strong>{render_inlines(c)}</strong> }.into_any(),
        Inline::Strikethrough(c) => view! { <del>{render_inlines(c)}</del> }.into_any(),
        Inline::Link {
            href,
            title,
            content,
            shown_host,
        } => {
            // Text that names another host: the real one beside it, the full URL as the title.
            let title = match shown_host {
                Some(_) => Some(href.as_str().to_owned()),
                None => title.clone(),
            };
            let host = shown_host.as_ref().map(|host| {
                view! { <span class="agui-md__link-host">{format!(" ({host})")}</span> }
            });
            view! {
                <a
                    class="agui-md__link"
                    href=href.as_str().to_owned()
                    title=title
                    rel="noopener noreferrer"
                    target="_blank"
                    referrerpolicy="no-referrer"
                >
                    {inlines_view(content, false)}
                    {host}
                </a>
            }
            .into_any()
        }
        Inline::Image { src, alt, title } => image(src.clone(), alt.clone(), title.clone()),
        Inline::SoftBreak => " ".into_any(),
        Inline::HardBreak => view! { <br /> }.into_any(),
        // Raw inline HTML from the agent: literal text.
        Inline::Html(text) => view! { <span class="agui-md__raw">{text.clone()}</span> }.into_any(),
        Inline::Math { tex, display } => formula(tex.clone(), *display),
        // A formula still streaming: its source, muted, until it closes.
        Inline::MathSource(source) => {
            view! { <span class="agui-math-pending" data-testid="math-pending">{source.clone()}</span> }
                .into_any()
        }
    }
}

/// A formula: MathML from the math module (fetched with the first one in the lean widget).
fn formula(tex: String, display: bool) -> AnyView {
    lazy_in_chat(move || crate::ui::math::formula(tex.clone(), display))
}

/// An image placeholder: nothing is fetched until the person asks for it.
pub(crate) fn image(src: SafeUrl, alt: String, title: Option<String>) -> AnyView {
    let (loaded, set_loaded) = signal(false);
    let host = src.host().unwrap_or_default().to_owned();
    let t = tr_ctx();
    let label = if alt.trim().is_empty() {
        t.image_alt.to_owned()
    } else {
        alt.clone()
    };
    let button_title = fill(t.image_load_title, &[&host]);
    view! {
        <span class="agui-md__image" data-testid="image-placeholder">
            {move || {
                if loaded.get() {
                    view! {
                        <img
                            class="agui-md__img"
                            src=src.as_str().to_owned()
                            alt=alt.clone()
                            title=title.clone()
                            referrerpolicy="no-referrer"
                        />
                    }
                        .into_any()
                } else {
                    view! {
                        <button
                            type="button"
                            class="agui-md__image-load"
                            data-testid="load-image"
                            title=button_title.clone()
                            on:click=move |_| set_loaded.set(true)
                        >
                            <span class="agui-md__image-label">{label.clone()}</span>
                            <span class="agui-md__image-host">{host.clone()}</span>
                            <span class="agui-md__image-action">{t.image_load}</span>
                        </button>
                    }
                        .into_any()
                }
            }}
        </span>
    }
    .into_any()
}
