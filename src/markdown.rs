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
//! * **Link text cannot pose as another destination.** When a word of a link's text reads as a
//!   host name (`[https://bank.example](https://evil.example)`, `bank.example/login`, a
//!   Unicode lookalike such as `bаnk.example`) that is not the destination's host, the
//!   `shown_host` of [`Inline::Link`] carries the real host and the UI shows it next to the
//!   text (as images show theirs). Plain-text links and autolinks are unchanged.
//! * **Images are never loaded automatically.** [`Inline::Image`] only carries an `http(s)`
//!   source ([`SafeUrl::parse_image`]); the UI shows a placeholder with the alt text and a
//!   button. Any other source turns the image into its alt text.
//! * **Code block languages are sanitised**: only `[A-Za-z0-9_+-.#]` characters of the first
//!   word of the info string are kept, so the value is safe in a class name.
//! * No `unwrap`, `expect` or panicking indexing: any input, including every prefix of a
//!   document that is still streaming, parses without panicking.
//! * **Nesting is bounded**: beyond [`MAX_NESTING`] quotes, lists, items and inline spans
//!   inside each other, deeper containers are flattened into their parent (their content
//!   kept), so every recursive walk of the tree — clone, drop, rendering — stays within a
//!   fixed depth whatever an agent sends (`"> "` × 4,000 is a 32-deep quote).
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
//! as long as the message has blank lines between its blocks, which agent output does.
//!
//! **Code files stream in O(their size).** A fence at column 0 (after a blank line, a
//! paragraph or a confirmed block start — the parser is asked once) closes the segment before
//! it; while it is open, no line inside is a candidate and the tail is that code block, extended
//! by each delta instead of re-parsed (the last, partial line is asked of the parser only when
//! it could close the fence). When its closing fence arrives the block is parsed once, checked
//! to be exactly what the tail showed, and becomes a finished segment. Inside HTML blocks that
//! run across blank lines (`<pre>`, `<script>`, comments…) no line is a candidate either. Still
//! re-parsed whole on every push: one huge paragraph, table, list or HTML block (one segment).
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
        /// The destination's host ([`SafeUrl::host`]) when the visible text names a different
        /// one (`[https://bank.example](https://evil.example)`): the UI shows it next to the
        /// text. `None` when the text names no host or only the destination's (case, a leading
        /// `www.`, a trailing dot or slash and the port aside), and for `mailto:`.
        shown_host: Option<String>,
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

    /// The host (and port) an `http(s)` URL goes to, as written, userinfo dropped
    /// (`https://bank.example@evil.example/` → `evil.example`); `None` for `mailto:`.
    pub fn host(&self) -> Option<&str> {
        let (scheme, rest) = self.0.split_once("://")?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        Some(
            authority
                .rsplit_once('@')
                .map_or(authority, |(_, host)| host),
        )
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

/// The host to show next to a link whose visible `text` could pass for another destination:
/// `Some(href's host)` when a word of `text` reads as a host name (`https://bank.example`,
/// `bank.example/login`, `www.bаnk.example` with a Cyrillic `а`, `user@bank.example`) other
/// than the destination's. Hosts compare after [`host_key`] (case, a leading `www.`, a
/// trailing dot, the port and lookalike dots ignored), so a text naming the destination's host
/// — an autolink, whose text is its URL — shows nothing, and neither does plain text.
fn spoofed_host(text: &str, href: &SafeUrl) -> Option<String> {
    let host = href.host()?;
    let key = host_key(host);
    text.split_whitespace()
        .filter_map(|word| {
            // What a browser would read as the host if the word were the URL.
            let word = word.trim_matches(|c: char| c.is_ascii() && !c.is_ascii_alphanumeric());
            let rest = word.split_once("//").map_or(word, |(_, rest)| rest);
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let named = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            Some(host_key(named)).filter(|k| looks_like_host(k))
        })
        .any(|named| named != key)
        .then(|| host.to_owned())
}

/// A host reduced for comparison: the port dropped, dot lookalikes read as `.` (as IDNA maps
/// them), lowercase, without a trailing dot or a leading `www.`.
fn host_key(host: &str) -> String {
    let host = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let host: String = host
        .chars()
        .map(|c| match c {
            '\u{2024}' | '\u{3002}' | '\u{fe52}' | '\u{ff0e}' | '\u{ff61}' => '.',
            c => c,
        })
        .collect::<String>()
        .to_lowercase();
    let host = host.trim_end_matches('.');
    host.strip_prefix("www.").unwrap_or(host).to_owned()
}

/// Whether `key` ([`host_key`]) reads as a host name: two or more dot-separated labels of
/// letters, digits, `-`, `_` or any non-ASCII character (lookalikes included), the last one of
/// two or more characters not starting with a digit (so `e.g` and `1.2.3` are no host) — or
/// an IPv4 address.
fn looks_like_host(key: &str) -> bool {
    let labels: Vec<&str> = key.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_') || !c.is_ascii())
    };
    let ipv4 = labels.len() == 4 && labels.iter().all(|l| l.bytes().all(|b| b.is_ascii_digit()));
    let tld_ok = labels
        .last()
        .is_some_and(|l| l.chars().count() >= 2 && !l.starts_with(|c: char| c.is_ascii_digit()));
    labels.len() >= 2 && labels.iter().all(label_ok) && (tld_ok || ipv4)
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Parse a whole markdown document into blocks (GFM: tables, task lists, strikethrough;
/// footnotes off). Never panics.
/// How many containers (quotes, lists, list items, emphasis, strong, strikethrough, links)
/// may nest; deeper ones are flattened into their parent.
pub const MAX_NESTING: usize = 32;

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
    /// Whether this frame becomes a level of nesting in the tree.
    fn nests(&self) -> bool {
        match self {
            Frame::Quote(_) | Frame::List { .. } | Frame::Item { .. } => true,
            Frame::Span { span, .. } => !matches!(span, Span::Plain),
            _ => false,
        }
    }

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
    /// How many frames of `stack` nest ([`Frame::nests`]).
    nesting: usize,
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
    let lang: String = word.chars().filter(|&c| is_lang_char(c)).collect();
    (!lang.is_empty()).then_some(lang)
}

/// The characters a code block's language keeps (safe in a class name).
fn is_lang_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '.' | '#')
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
        self.push(frame);
    }

    /// Pushes `frame`, flattened when it would nest deeper than [`MAX_NESTING`]: a block
    /// container becomes a group and a span plain (both splice their content into the parent).
    fn push(&mut self, frame: Frame) {
        let frame = match frame {
            f if !f.nests() => f,
            f if self.nesting < MAX_NESTING => {
                self.nesting += 1;
                f
            }
            Frame::Span { .. } => Frame::Span {
                span: Span::Plain,
                content: Vec::new(),
            },
            _ => Frame::Group(Vec::new()),
        };
        self.stack.push(frame);
    }

    fn pop(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        if frame.nests() {
            self.nesting = self.nesting.saturating_sub(1);
        }
        Some(frame)
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
        if let Some(frame) = self.pop() {
            self.finish_frame(frame);
        }
    }

    /// Closes an implicit paragraph on top of the stack, if any.
    fn close_implicit(&mut self) {
        if let Some(Frame::Paragraph { implicit: true, .. }) = self.stack.last() {
            if let Some(frame) = self.pop() {
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
            self.push(Frame::Paragraph {
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
                } => {
                    let mut text = String::new();
                    plain_text(&content, &mut text);
                    self.push_inline(Inline::Link {
                        shown_host: spoofed_host(&text, &href),
                        href,
                        title,
                        content,
                    })
                }
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
        while let Some(frame) = self.pop() {
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
/// A fenced code block open at the top level of the open segment (see [`IncrementalMarkdown`]).
#[derive(Debug, Clone)]
struct Fence {
    /// '`' or '~', and how many opened it.
    ch: u8,
    len: usize,
    /// Where its content starts (after the opening line).
    content_start: usize,
    lang: Option<String>,
    /// The open segment is this block alone and its tail is built without the parser.
    fast: bool,
}

/// The line (without its `\n`) as an opening fence (up to 3 spaces of indentation): its
/// indentation, character, length and info string.
fn opening_fence(line: &str) -> Option<(usize, u8, usize, &str)> {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    let line = body;
    let ch = *line.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = line.bytes().take_while(|&b| b == ch).count();
    let info = line.get(len..)?;
    (indent <= 3 && len >= 3 && !(ch == b'`' && info.contains('`')))
        .then_some((indent, ch, len, info))
}

/// Whether the parser ends `fence`'s content before `line` (`complete`: the line's `\n` has
/// arrived; else it is the text's last, partial line): a closing fence, or — at the end of
/// the text — a line of up to three spaces. The parser decides, on the fence and this line
/// alone (O(the line)); only lines that could be either are asked.
fn ends_fence(line: &str, fence: &Fence, complete: bool) -> bool {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    let candidate = indent <= 3
        && (body.bytes().take_while(|&b| b == fence.ch).count() >= fence.len
            || (!complete && body.is_empty()));
    if !candidate {
        return false;
    }
    let mut probe = String::with_capacity(fence.len + line.len() + 2);
    probe.extend(std::iter::repeat_n(char::from(fence.ch), fence.len));
    probe.push('\n');
    probe.push_str(line);
    if complete {
        probe.push('\n');
    }
    matches!(parse(&probe).as_slice(), [Block::CodeBlock { code, .. }] if code.is_empty())
}

/// The end marker of an HTML block of CommonMark kinds 1–5 (`<pre>`, `<script>`, `<style>`,
/// `<textarea>`, comments, `<?`, `<!X`, CDATA) that `line` starts, if it does. These run
/// across blank lines until the marker.
fn html_block_end(line: &str) -> Option<&'static str> {
    let body = line.trim_start_matches(' ');
    if line.len() - body.len() > 3 || !body.starts_with('<') {
        return None;
    }
    let lower: String = body
        .chars()
        .take(12)
        .collect::<String>()
        .to_ascii_lowercase();
    for tag in ["script", "pre", "style", "textarea"] {
        if let Some(rest) = lower.strip_prefix('<').and_then(|r| r.strip_prefix(tag)) {
            if rest.is_empty() || rest.starts_with([' ', '\t', '>', '\r']) {
                return Some(match tag {
                    "script" => "</script>",
                    "pre" => "</pre>",
                    "style" => "</style>",
                    _ => "</textarea>",
                });
            }
        }
    }
    if lower.starts_with("<!--") {
        Some("-->")
    } else if lower.starts_with("<?") {
        Some("?>")
    } else if lower.starts_with("<![cdata[") {
        Some("]]>")
    } else if lower
        .get(2..3)
        .is_some_and(|c| c.bytes().all(|b| b.is_ascii_alphabetic()))
        && lower.starts_with("<!")
    {
        Some(">")
    } else {
        None
    }
}

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
    /// A top-level fenced code block is open: no line inside starts a block.
    fence: Option<Fence>,
    /// An HTML block of kinds 1–5 is open (its end marker): no line inside starts a block.
    html_end: Option<&'static str>,
    /// Since the open segment started, a line could have opened a container, a table or HTML
    /// (indented, `>`, a list marker, `|`, `<`…): a fence there may belong to it, so it gets
    /// no fast path. Cleared where the parser confirms a top-level block starts.
    uncertain: bool,
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
        if self.fast_tail() {
            return;
        }
        let tail = parse(self.text.get(self.seg_start..).unwrap_or_default());
        self.bytes_parsed += self.text.len().saturating_sub(self.seg_start);
        self.tail = tail;
    }

    /// While the open segment is one top-level fenced code block, its tail is that block with
    /// the content so far — extended by what arrived, not re-parsed — so a long code file
    /// streams in O(its size). The last line, still partial, is content unless it would close
    /// the fence or is up to three spaces (as [`parse`] of the text so far reads it).
    fn fast_tail(&mut self) -> bool {
        let Some(fence) = self.fence.as_ref().filter(|f| f.fast) else {
            return false;
        };
        // Every line before `scan_pos` is complete: the partial one starts there (no search
        // back through a long line on every push).
        let last_line = self.scan_pos.max(fence.content_start);
        let partial = self.text.get(last_line..).unwrap_or_default();
        let end = if !partial.is_empty() && ends_fence(partial, fence, false) {
            last_line
        } else {
            self.text.len()
        };
        let Some(content) = self.text.get(fence.content_start..end) else {
            return false;
        };
        // The parser rewrites `\r\n` and NUL in code: such a block takes the parser's path.
        // The tail already holds this block (same language) up to some point: extend it.
        let same = |lang: &Option<String>| *lang == fence.lang;
        let seen = match self.tail.as_slice() {
            [Block::CodeBlock { lang, code }]
                if same(lang) && content.starts_with(code.as_str()) =>
            {
                code.len()
            }
            _ => 0,
        };
        if content
            .get(seen..)
            .is_none_or(|new| new.contains(['\r', '\0']))
        {
            return false;
        }
        match self.tail.as_mut_slice() {
            [Block::CodeBlock { lang, code }]
                if same(lang) && content.starts_with(code.as_str()) =>
            {
                code.push_str(content.get(code.len()..).unwrap_or_default());
            }
            [Block::CodeBlock { lang, code }] if same(lang) && code.starts_with(content) => {
                code.truncate(content.len());
            }
            _ => {
                self.tail = vec![Block::CodeBlock {
                    lang: fence.lang.clone(),
                    code: content.to_owned(),
                }];
            }
        }
        true
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
            let line = rest.get(..newline).unwrap_or_default().to_owned();
            let line = line.as_str();
            let blank = is_blank(line);
            // Inside a fence or a long HTML block no line starts a block: no parser call.
            if let Some(fence) = self.fence.as_mut() {
                // The parser rewrites `\r\n` and NUL in code: such a block keeps the parser.
                fence.fast &= !line.contains(['\r', '\0']);
                let fence = fence.clone();
                if ends_fence(line, &fence, true) {
                    let content = self.text.get(fence.content_start..line_start);
                    if fence.fast {
                        // The block is complete: it is the segment, parsed once — and checked
                        // to be this block alone, as the fast tail showed it.
                        let segment =
                            parse(self.text.get(self.seg_start..line_end).unwrap_or_default());
                        self.bytes_parsed += line_end.saturating_sub(self.seg_start);
                        let same = matches!(segment.as_slice(),
                            [Block::CodeBlock { lang, code }]
                                if *lang == fence.lang && Some(code.as_str()) == content);
                        if same {
                            self.finished.push(segment);
                            self.tail.clear();
                            self.seg_start = line_end;
                            self.seg_has_content = false;
                        }
                    }
                    self.fence = None;
                }
                self.prev_blank = false;
                self.scan_pos = line_end;
                continue;
            }
            if let Some(end) = self.html_end {
                if line.to_ascii_lowercase().contains(end) {
                    self.html_end = None;
                }
                self.prev_blank = blank;
                self.seg_has_content |= !blank;
                self.scan_pos = line_end;
                continue;
            }
            if !blank
                && self.prev_blank
                && self.seg_has_content
                && line_start > self.seg_start
                && self.starts_top_level_block(line_start, line_end)
            {
                self.close_segment(line_start);
            }
            if self.seg_start == line_start {
                // The line starts the open segment: a top-level block starts here.
                self.uncertain = false;
            }
            if let Some((indent, ch, len, info)) = opening_fence(line) {
                let lang = code_lang(info);
                // The lang as the parser would read it: no escapes or entities in its word.
                let plain_lang = info
                    .split_whitespace()
                    .next()
                    .is_none_or(|w| w.chars().all(is_lang_char));
                // The fence line alone, as the parser reads it, is this block.
                let alone = matches!(parse(line).as_slice(),
                    [Block::CodeBlock { lang: l, code }] if *l == lang && code.is_empty());
                let mut fast = indent == 0
                    && plain_lang
                    && alone
                    && !self.uncertain
                    && !line.contains(['\r', '\0']);
                if fast && line_start > self.seg_start {
                    // …and the parser agrees a top-level block starts on it.
                    fast = self.starts_top_level_block(line_start, line_end);
                }
                if fast && line_start > self.seg_start {
                    // A fence at column 0 ends whatever came before it (a paragraph, a list,
                    // a quote): that is final.
                    self.close_segment(line_start);
                }
                self.fence = Some(Fence {
                    ch,
                    len,
                    content_start: line_end,
                    lang,
                    fast,
                });
            } else if let Some(end) = html_block_end(line) {
                let after_start = line.get(1..).unwrap_or_default().to_ascii_lowercase();
                if !after_start.contains(end) {
                    self.html_end = Some(end);
                }
            }
            if !blank && self.fence.is_none() {
                let first = line.chars().next().unwrap_or(' ');
                if first.is_whitespace()
                    || first.is_ascii_digit()
                    || matches!(first, '>' | '-' | '*' | '+' | '<' | '|' | '=' | '_')
                    || line.contains('|')
                    || self.html_end.is_some()
                {
                    self.uncertain = true;
                }
            }
            if !blank {
                self.seg_has_content = true;
            }
            self.prev_blank = blank;
            self.scan_pos = line_end;
        }
    }

    /// Finishes the open segment where `at` starts: parsed once, it never changes again.
    fn close_segment(&mut self, at: usize) {
        let segment = parse(self.text.get(self.seg_start..at).unwrap_or_default());
        self.bytes_parsed += at.saturating_sub(self.seg_start);
        self.finished.push(segment);
        self.seg_start = at;
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
