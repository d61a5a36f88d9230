//! Safe, incremental Markdown for untrusted agent output.
//!
//! Pure Rust (no web-sys, no leptos): it builds and tests natively. The UI walks the tree
//! returned here and creates DOM nodes itself.
//!
//! # Safety rules
//!
//! Agent output is untrusted, so Markdown is never turned into an HTML string and nothing here
//! is meant for raw HTML injection. [`parse`] turns pulldown-cmark's events into a closed tree
//! ([`Block`] / [`Inline`]) that can only describe harmless things:
//!
//! * **Raw HTML is text.** Block HTML (`<script>…</script>`, `<div>`…) becomes [`Block::Html`],
//!   inline HTML (`<img onerror=…>`) becomes [`Inline::Html`]; the UI shows both as literal text
//!   (a text node), never as markup.
//! * **Links pass a scheme allow-list.** A link survives only if its destination (after
//!   pulldown-cmark decoded entities and backslash escapes, so `&#106;avascript:` is seen as
//!   `javascript:`) is an absolute `http://`/`https://` URL with a host, or a `mailto:` URL —
//!   see [`SafeUrl::parse_link`]. Anything else (`javascript:`, `data:`, `vbscript:`, `file:`,
//!   protocol-relative `//host`, relative paths, fragments, URLs containing whitespace, control
//!   characters or backslashes anywhere) is dropped and the link's content is kept as plain
//!   inlines. The only way to get a [`SafeUrl`] is through its checked constructors.
//! * **Images are never loaded automatically.** [`Inline::Image`] only carries an `http(s)`
//!   source ([`SafeUrl::parse_image`]); the UI shows a placeholder with the alt text and a
//!   button. Any other source turns the image into its alt text.
//! * **Code block languages are sanitised**: only `[A-Za-z0-9_+-.#]` characters of the first
//!   word of the info string are kept, so the value is safe in a class name.
//! * No `unwrap`, `expect` or panicking indexing: any input, including every prefix of a
//!   document that is still streaming, parses without panicking.
//!
//! Syntax: CommonMark plus the GFM extensions tables, task lists and strikethrough. Footnotes,
//! math, heading attributes, smart punctuation and the like are off.
//!
//! # Incremental strategy
//!
//! A streamed message grows token by token. [`IncrementalMarkdown`] splits the text into
//! *segments* and keeps the blocks of every finished segment; only the last, still-open segment
//! (the *tail*) is re-parsed on each [`push`](IncrementalMarkdown::push).
//!
//! Segment boundaries are found line by line, and only when a line is complete (its `\n` has
//! arrived), so the segmentation depends only on the text, never on how it was split into
//! deltas. A line `L` closes the open segment just before itself when:
//!
//! 1. the line before `L` is blank (spaces/tabs only) and the open segment already has a
//!    non-blank line, and
//! 2. pulldown-cmark, parsing the open segment up to and including `L`, reports that the last
//!    *top-level* block starts on `L`.
//!
//! Rule 2 lets the parser itself decide: a blank line inside a fenced code block, a `<script>`
//! or `<!--` HTML block, a list item continued by an indented line, the next item of a loose
//! list, the rows of a table — none of those start a new top-level block, so fences, tables,
//! HTML blocks and lists are never split. CommonMark builds the block structure line by line
//! and never re-opens a closed block, so once `L` starts a new top-level block, everything
//! before it is final; and since the whole line is known, a partial line (`1` that becomes
//! `11. item` and continues an ordered list) cannot fool it. Rule 1 keeps the candidates few
//! and rules out the constructs that look back at the previous line (setext underlines, table
//! delimiter rows).
//!
//! A finished segment is parsed once, on its own; it never changes afterwards.
//!
//! Cost: each push parses the tail; each candidate line (a non-blank line after a blank line)
//! parses the open segment once more; each finished segment is parsed once. So the work is
//! O(appended text + size of the open segment) per push, independent of the message length —
//! as long as the message has blank lines between its blocks, which agent output does. A single
//! huge block (one 100 KB paragraph, a long fenced code block or table, a long list) is one
//! segment and is re-parsed whole on every push while it streams.
//!
//! ## Where the result may differ from [`parse`] of the whole text
//!
//! For paragraphs, headings, fenced and indented code, tables, tight and loose lists, quotes,
//! rules and HTML blocks, [`IncrementalMarkdown::blocks`] equals `parse(whole text)`. The known
//! difference: **link reference definitions** (`[a]: https://…`) only apply within their own
//! segment, so `[a]` used after a blank line and a new top-level block elsewhere stays text.
//! Agent output rarely uses them.

use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

/// A block-level node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(Vec<Inline>),
    /// `level` is 1..=6.
    Heading {
        level: u8,
        content: Vec<Inline>,
    },
    /// Fenced or indented code. `code` is verbatim (it ends with `\n` like the source lines).
    /// `lang` is the first word of a fence's info string, only `[A-Za-z0-9_+-.#]` characters
    /// kept (`None` when empty or for indented code).
    CodeBlock {
        lang: Option<String>,
        code: String,
    },
    Quote(Vec<Block>),
    /// For an unordered list `start` is 1 and means nothing. Items of tight lists hold a
    /// [`Block::Paragraph`] too (the tree does not record tightness).
    List {
        ordered: bool,
        start: u64,
        items: Vec<ListItem>,
    },
    /// `header` has one cell per column; each row of `rows` too (GFM pads/truncates rows).
    Table {
        align: Vec<Align>,
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
    /// Raw HTML in the source: shown as literal text, never interpreted. Trailing newlines are
    /// removed.
    Html(String),
}

/// One list item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    /// `Some(checked)` for a GFM task list item (`- [x]` / `- [ ]`).
    pub task: Option<bool>,
    pub blocks: Vec<Block>,
}

/// Column alignment of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    None,
    Left,
    Center,
    Right,
}

/// An inline node. Adjacent text is merged into one [`Inline::Text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Emphasis(Vec<Inline>),
    Strong(Vec<Inline>),
    Strikethrough(Vec<Inline>),
    /// Only http, https and mailto survive; anything else (javascript:, data:, vbscript:,
    /// file:, relative URLs…) becomes the link's text only (its content, without a link).
    Link {
        href: SafeUrl,
        title: Option<String>,
        content: Vec<Inline>,
    },
    /// Images are never loaded automatically: the UI shows a placeholder with alt text and a
    /// button; only http/https sources are kept (others become alt text).
    Image {
        src: SafeUrl,
        alt: String,
        title: Option<String>,
    },
    SoftBreak,
    HardBreak,
    /// Inline raw HTML (`<b>`, `<script>`…): literal text.
    Html(String),
}

/// A URL that passed the scheme allow-list (http, https, mailto for links; http, https for
/// images). Constructed only via [`SafeUrl::parse_link`] / [`SafeUrl::parse_image`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeUrl(String);

impl SafeUrl {
    /// Accepts `http://host…`, `https://host…` (scheme case-insensitive, non-empty host) and
    /// `mailto:…` (non-empty). Rejects everything else, and any URL containing whitespace,
    /// control characters, zero-width or bidi-control characters or a backslash anywhere (browsers strip or reinterpret those, which
    /// could change what the scheme check saw). The URL is kept unchanged.
    pub fn parse_link(url: &str) -> Option<SafeUrl> {
        Self::parse_with(url, true)
    }

    /// Like [`SafeUrl::parse_link`] but only `http` and `https`.
    pub fn parse_image(url: &str) -> Option<SafeUrl> {
        Self::parse_with(url, false)
    }

    /// The URL, for an `href`/`src` attribute (set through the DOM, never spliced into HTML).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn parse_with(url: &str, allow_mailto: bool) -> Option<SafeUrl> {
        if url.is_empty()
            || url
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '\\' || is_invisible(c))
        {
            return None;
        }
        let (scheme, rest) = url.split_once(':')?;
        let scheme = scheme.to_ascii_lowercase();
        let ok = match scheme.as_str() {
            "http" | "https" => rest
                .strip_prefix("//")
                .and_then(|host| host.chars().next())
                .is_some_and(|c| !matches!(c, '/' | '?' | '#')),
            "mailto" => allow_mailto && !rest.is_empty(),
            _ => false,
        };
        ok.then(|| SafeUrl(url.to_string()))
    }
}

/// Zero-width and bidi-control characters (could hide what a URL really says).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Parse a whole markdown document into blocks (GFM: tables, task lists, strikethrough;
/// footnotes off). Never panics.
pub fn parse(source: &str) -> Vec<Block> {
    let mut builder = Builder::default();
    for event in Parser::new_ext(source, options()) {
        builder.event(event);
    }
    builder.finish()
}

// ---------------------------------------------------------------------------------------------
// Tree builder
// ---------------------------------------------------------------------------------------------

/// An open inline container.
enum Span {
    Emphasis,
    Strong,
    Strikethrough,
    /// `None`: the destination failed the allow-list; the content is spliced into the parent.
    Link {
        href: Option<SafeUrl>,
        title: Option<String>,
    },
    Image {
        src: Option<SafeUrl>,
        title: Option<String>,
    },
    /// An unsupported inline container (superscript…): its content is spliced into the parent.
    Plain,
}

/// An open node on the builder's stack (the document root is kept apart).
enum Frame {
    Quote(Vec<Block>),
    List {
        ordered: bool,
        start: u64,
        items: Vec<ListItem>,
    },
    Item {
        task: Option<bool>,
        blocks: Vec<Block>,
    },
    /// An unsupported block container (footnote definition, definition list, metadata): its
    /// blocks are spliced into the parent.
    Group(Vec<Block>),
    /// `implicit`: opened by the builder for inline content outside a paragraph (the items of
    /// tight lists), closed by the next block-level event.
    Paragraph {
        implicit: bool,
        content: Vec<Inline>,
    },
    Heading {
        level: u8,
        content: Vec<Inline>,
    },
    Code {
        lang: Option<String>,
        code: String,
    },
    Html(String),
    Table {
        align: Vec<Align>,
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
        row: Vec<Vec<Inline>>,
    },
    Cell(Vec<Inline>),
    Span {
        span: Span,
        content: Vec<Inline>,
    },
}

impl Frame {
    fn inline_content(&mut self) -> Option<&mut Vec<Inline>> {
        match self {
            Frame::Paragraph { content, .. }
            | Frame::Heading { content, .. }
            | Frame::Cell(content)
            | Frame::Span { content, .. } => Some(content),
            _ => None,
        }
    }
}

#[derive(Default)]
struct Builder {
    root: Vec<Block>,
    stack: Vec<Frame>,
}

fn push_inline_merged(content: &mut Vec<Inline>, inline: Inline) {
    if let Inline::Text(text) = &inline {
        if text.is_empty() {
            return;
        }
        if let Some(Inline::Text(last)) = content.last_mut() {
            last.push_str(text);
            return;
        }
    }
    content.push(inline);
}

fn is_block_tag(tag: &Tag<'_>) -> bool {
    !matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
            // Cells and rows live inside a table; they never close an implicit paragraph.
            | Tag::TableHead
            | Tag::TableRow
            | Tag::TableCell
    )
}

fn is_block_end(tag: &TagEnd) -> bool {
    !matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::TableCell
    )
}

fn code_lang(info: &str) -> Option<String> {
    let word = info.split_whitespace().next()?;
    let lang: String = word
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '.' | '#'))
        .collect();
    (!lang.is_empty()).then_some(lang)
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

fn plain_text(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Text(t) | Inline::Code(t) | Inline::Html(t) => out.push_str(t),
            Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => {
                plain_text(c, out)
            }
            Inline::Link { content, .. } => plain_text(content, out),
            Inline::Image { alt, .. } => out.push_str(alt),
            Inline::SoftBreak | Inline::HardBreak => out.push(' '),
        }
    }
}

impl Builder {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => match self.stack.last_mut() {
                Some(Frame::Code { code, .. }) => code.push_str(&text),
                Some(Frame::Html(html)) => html.push_str(&text),
                _ => self.push_inline(Inline::Text(text.into_string())),
            },
            Event::Html(html) => match self.stack.last_mut() {
                Some(Frame::Html(buf)) => buf.push_str(&html),
                _ => self.push_inline(Inline::Html(html.into_string())),
            },
            Event::InlineHtml(html) => self.push_inline(Inline::Html(html.into_string())),
            Event::Code(code) | Event::InlineMath(code) | Event::DisplayMath(code) => {
                self.push_inline(Inline::Code(code.into_string()))
            }
            Event::FootnoteReference(label) => {
                self.push_inline(Inline::Text(format!("[^{label}]")))
            }
            Event::SoftBreak => self.push_inline(Inline::SoftBreak),
            Event::HardBreak => self.push_inline(Inline::HardBreak),
            Event::Rule => {
                self.close_implicit();
                self.attach_block(Block::Rule);
            }
            Event::TaskListMarker(checked) => {
                for frame in self.stack.iter_mut().rev() {
                    if let Frame::Item { task, .. } = frame {
                        *task = Some(checked);
                        break;
                    }
                }
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        if is_block_tag(&tag) {
            self.close_implicit();
        } else if matches!(tag, Tag::TableHead | Tag::TableRow | Tag::TableCell) {
            // Part of a table: no paragraph to open.
        } else {
            self.ensure_inline_container();
        }
        let frame = match tag {
            Tag::Paragraph => Frame::Paragraph {
                implicit: false,
                content: Vec::new(),
            },
            Tag::Heading { level, .. } => Frame::Heading {
                level: level as u8,
                content: Vec::new(),
            },
            Tag::BlockQuote(_) => Frame::Quote(Vec::new()),
            Tag::CodeBlock(kind) => Frame::Code {
                lang: match kind {
                    CodeBlockKind::Fenced(info) => code_lang(&info),
                    CodeBlockKind::Indented => None,
                },
                code: String::new(),
            },
            Tag::HtmlBlock => Frame::Html(String::new()),
            Tag::List(start) => Frame::List {
                ordered: start.is_some(),
                start: start.unwrap_or(1),
                items: Vec::new(),
            },
            Tag::Item => Frame::Item {
                task: None,
                blocks: Vec::new(),
            },
            Tag::Table(align) => Frame::Table {
                align: align
                    .iter()
                    .map(|a| match a {
                        Alignment::None => Align::None,
                        Alignment::Left => Align::Left,
                        Alignment::Center => Align::Center,
                        Alignment::Right => Align::Right,
                    })
                    .collect(),
                header: Vec::new(),
                rows: Vec::new(),
                row: Vec::new(),
            },
            Tag::TableHead | Tag::TableRow => {
                if let Some(Frame::Table { row, .. }) = self.stack.last_mut() {
                    row.clear();
                }
                return;
            }
            Tag::TableCell => Frame::Cell(Vec::new()),
            Tag::Emphasis => Frame::Span {
                span: Span::Emphasis,
                content: Vec::new(),
            },
            Tag::Strong => Frame::Span {
                span: Span::Strong,
                content: Vec::new(),
            },
            Tag::Strikethrough => Frame::Span {
                span: Span::Strikethrough,
                content: Vec::new(),
            },
            Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => {
                let href = if link_type == LinkType::Email
                    && !dest_url.to_ascii_lowercase().starts_with("mailto:")
                {
                    SafeUrl::parse_link(&format!("mailto:{dest_url}"))
                } else {
                    SafeUrl::parse_link(&dest_url)
                };
                Frame::Span {
                    span: Span::Link {
                        href,
                        title: non_empty(&title),
                    },
                    content: Vec::new(),
                }
            }
            Tag::Image {
                dest_url, title, ..
            } => Frame::Span {
                span: Span::Image {
                    src: SafeUrl::parse_image(&dest_url),
                    title: non_empty(&title),
                },
                content: Vec::new(),
            },
            Tag::Superscript | Tag::Subscript => Frame::Span {
                span: Span::Plain,
                content: Vec::new(),
            },
            Tag::FootnoteDefinition(_)
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => Frame::Group(Vec::new()),
        };
        self.stack.push(frame);
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some(Frame::Table {
                    header, rows, row, ..
                }) = self.stack.last_mut()
                {
                    let cells = std::mem::take(row);
                    if tag == TagEnd::TableHead {
                        *header = cells;
                    } else {
                        rows.push(cells);
                    }
                }
                return;
            }
            TagEnd::Paragraph => {}
            other if is_block_end(&other) => self.close_implicit(),
            _ => {}
        }
        if let Some(frame) = self.stack.pop() {
            self.finish_frame(frame);
        }
    }

    /// Closes an implicit paragraph on top of the stack, if any.
    fn close_implicit(&mut self) {
        if let Some(Frame::Paragraph { implicit: true, .. }) = self.stack.last() {
            if let Some(frame) = self.stack.pop() {
                self.finish_frame(frame);
            }
        }
    }

    fn ensure_inline_container(&mut self) {
        let has = self
            .stack
            .last_mut()
            .is_some_and(|f| f.inline_content().is_some());
        if !has {
            self.stack.push(Frame::Paragraph {
                implicit: true,
                content: Vec::new(),
            });
        }
    }

    fn push_inline(&mut self, inline: Inline) {
        self.ensure_inline_container();
        if let Some(content) = self.stack.last_mut().and_then(Frame::inline_content) {
            push_inline_merged(content, inline);
        }
    }

    fn attach_block(&mut self, block: Block) {
        for frame in self.stack.iter_mut().rev() {
            match frame {
                Frame::Quote(blocks) | Frame::Item { blocks, .. } | Frame::Group(blocks) => {
                    blocks.push(block);
                    return;
                }
                Frame::List { items, .. } => {
                    items.push(ListItem {
                        task: None,
                        blocks: vec![block],
                    });
                    return;
                }
                _ => {}
            }
        }
        self.root.push(block);
    }

    fn finish_frame(&mut self, frame: Frame) {
        match frame {
            Frame::Paragraph { content, .. } => {
                if !content.is_empty() {
                    self.attach_block(Block::Paragraph(content));
                }
            }
            Frame::Heading { level, content } => {
                self.attach_block(Block::Heading { level, content })
            }
            Frame::Code { lang, code } => self.attach_block(Block::CodeBlock { lang, code }),
            Frame::Html(html) => {
                self.attach_block(Block::Html(html.trim_end_matches(['\n', '\r']).to_string()))
            }
            Frame::Quote(blocks) => self.attach_block(Block::Quote(blocks)),
            Frame::List {
                ordered,
                start,
                items,
            } => self.attach_block(Block::List {
                ordered,
                start,
                items,
            }),
            Frame::Item { task, blocks } => {
                if let Some(Frame::List { items, .. }) = self.stack.last_mut() {
                    items.push(ListItem { task, blocks });
                } else {
                    for block in blocks {
                        self.attach_block(block);
                    }
                }
            }
            Frame::Group(blocks) => {
                for block in blocks {
                    self.attach_block(block);
                }
            }
            Frame::Table {
                align,
                header,
                mut rows,
                row,
            } => {
                if !row.is_empty() {
                    rows.push(row);
                }
                self.attach_block(Block::Table {
                    align,
                    header,
                    rows,
                });
            }
            Frame::Cell(content) => {
                if let Some(Frame::Table { row, .. }) = self.stack.last_mut() {
                    row.push(content);
                } else {
                    for inline in content {
                        self.push_inline(inline);
                    }
                }
            }
            Frame::Span { span, content } => match span {
                Span::Emphasis => self.push_inline(Inline::Emphasis(content)),
                Span::Strong => self.push_inline(Inline::Strong(content)),
                Span::Strikethrough => self.push_inline(Inline::Strikethrough(content)),
                Span::Link {
                    href: Some(href),
                    title,
                } => self.push_inline(Inline::Link {
                    href,
                    title,
                    content,
                }),
                Span::Image { src, title } => {
                    let mut alt = String::new();
                    plain_text(&content, &mut alt);
                    match src {
                        Some(src) => self.push_inline(Inline::Image { src, alt, title }),
                        None => self.push_inline(Inline::Text(alt)),
                    }
                }
                Span::Link { href: None, .. } | Span::Plain => {
                    for inline in content {
                        self.push_inline(inline);
                    }
                }
            },
        }
    }

    fn finish(mut self) -> Vec<Block> {
        while let Some(frame) = self.stack.pop() {
            self.finish_frame(frame);
        }
        self.root
    }
}

// ---------------------------------------------------------------------------------------------
// Incremental parsing
// ---------------------------------------------------------------------------------------------

/// Incremental parser for a streaming message; see the [module docs](self) for the strategy.
///
/// The finished part is exposed per segment: [`finished`](Self::finished) returns one
/// `Vec<Block>` per finished segment (a segment may hold zero blocks, e.g. only a link
/// reference definition). Once a segment is finished, its `Vec` never changes and
/// [`finished_len`](Self::finished_len) only grows, so the UI renders `finished()[n..]` for the
/// new `n..finished_len()` and re-renders only [`tail`](Self::tail) on each update.
#[derive(Debug, Clone, Default)]
pub struct IncrementalMarkdown {
    text: String,
    /// Byte offset where the open segment starts.
    seg_start: usize,
    /// Byte offset of the first line not yet scanned (every line before it is complete).
    scan_pos: usize,
    /// The last scanned line was blank.
    prev_blank: bool,
    /// The open segment has a scanned non-blank line.
    seg_has_content: bool,
    finished: Vec<Vec<Block>>,
    tail: Vec<Block>,
    bytes_parsed: usize,
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

impl IncrementalMarkdown {
    pub fn new() -> Self {
        Self::default()
    }

    /// Append streamed text. Cost: O(appended text + the size of the last, still-open segment)
    /// — never the whole message.
    pub fn push(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        self.text.push_str(delta);
        self.scan_lines();
        let tail = parse(self.text.get(self.seg_start..).unwrap_or_default());
        self.bytes_parsed += self.text.len().saturating_sub(self.seg_start);
        self.tail = tail;
    }

    /// Replace the whole text (e.g. a snapshot changed it): if `text` starts with what was fed,
    /// only the rest is pushed; else reset and re-feed.
    pub fn set_text(&mut self, text: &str) {
        match text.strip_prefix(self.text.as_str()) {
            Some(rest) => self.push(rest),
            None => {
                let bytes_parsed = self.bytes_parsed;
                *self = Self::new();
                self.bytes_parsed = bytes_parsed;
                self.push(text);
            }
        }
    }

    /// Blocks of the finished segments, one `Vec` per segment (stable: a segment's `Vec` never
    /// changes once finished; the UI renders it once).
    pub fn finished(&self) -> &[Vec<Block>] {
        &self.finished
    }

    /// Blocks of the last, still-open segment (re-parsed on each push).
    pub fn tail(&self) -> &[Block] {
        &self.tail
    }

    /// Number of finished segments (monotone, except after a [`set_text`](Self::set_text) that
    /// had to reset) — lets the UI append only new ones.
    pub fn finished_len(&self) -> usize {
        self.finished.len()
    }

    /// All blocks (finished + tail), cloned — for tests.
    pub fn blocks(&self) -> Vec<Block> {
        self.finished
            .iter()
            .flatten()
            .chain(self.tail.iter())
            .cloned()
            .collect()
    }

    /// The text fed so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Length in bytes of the text fed so far.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Total bytes handed to pulldown-cmark so far (for the linearity test).
    #[doc(hidden)]
    pub fn bytes_parsed(&self) -> usize {
        self.bytes_parsed
    }

    /// Scans every newly completed line and closes the open segment where a boundary is
    /// confirmed (see the module docs).
    fn scan_lines(&mut self) {
        loop {
            let Some(rest) = self.text.get(self.scan_pos..) else {
                return;
            };
            let Some(newline) = rest.find('\n') else {
                return;
            };
            let line_start = self.scan_pos;
            let line_end = line_start + newline + 1;
            let blank = is_blank(rest.get(..newline).unwrap_or_default());
            if !blank
                && self.prev_blank
                && self.seg_has_content
                && line_start > self.seg_start
                && self.starts_top_level_block(line_start, line_end)
            {
                let segment = parse(
                    self.text
                        .get(self.seg_start..line_start)
                        .unwrap_or_default(),
                );
                self.bytes_parsed += line_start.saturating_sub(self.seg_start);
                self.finished.push(segment);
                self.seg_start = line_start;
            }
            if !blank {
                self.seg_has_content = true;
            }
            self.prev_blank = blank;
            self.scan_pos = line_end;
        }
    }

    /// Whether parsing the open segment up to `line_end` puts the start of its last top-level
    /// block on the line starting at `line_start` (only blanks before it on that line).
    fn starts_top_level_block(&mut self, line_start: usize, line_end: usize) -> bool {
        let Some(source) = self.text.get(self.seg_start..line_end) else {
            return false;
        };
        self.bytes_parsed += source.len();
        let line_offset = line_start.saturating_sub(self.seg_start);
        let mut depth = 0usize;
        let mut last_start = None;
        for (event, range) in Parser::new_ext(source, options()).into_offset_iter() {
            match event {
                Event::Start(_) => {
                    if depth == 0 {
                        last_start = Some(range.start);
                    }
                    depth += 1;
                }
                Event::End(_) => depth = depth.saturating_sub(1),
                _ => {
                    if depth == 0 {
                        last_start = Some(range.start);
                    }
                }
            }
        }
        match last_start {
            Some(start) if start >= line_offset => source
                .get(line_offset..start)
                .is_some_and(|indent| indent.bytes().all(|b| b == b' ' || b == b'\t')),
            _ => false,
        }
    }
}
