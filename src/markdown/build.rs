//! The tree builder: pulldown-cmark's events into the closed tree of the model, with the
//! nesting budget.

use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::math::{is_inline, is_inline_end, prepare, MathSyntax};
use super::model::*;

pub(super) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_MATH
        | Options::ENABLE_FOOTNOTES
}

/// How many containers (quotes, lists, list items, emphasis, strong, strikethrough, links)
/// may nest; deeper ones are flattened into their parent.
pub const MAX_NESTING: usize = 32;

/// Parse a whole markdown document into blocks (GFM: tables, task lists, strikethrough,
/// footnotes; math with the default [`MathSyntax`]). Never panics.
pub fn parse(source: &str) -> Vec<Block> {
    parse_with(source, MathSyntax::default(), false)
}

/// [`parse`] with the page's math syntax; `open`: the text may still grow, so a formula whose
/// closer has not arrived ends the text as [`Inline::MathSource`].
pub fn parse_with(source: &str, math: MathSyntax, open: bool) -> Vec<Block> {
    let mut options = options();
    if math == MathSyntax::Off {
        options.remove(Options::ENABLE_MATH);
    }
    let prepared = prepare(source, math, open, options);
    let mut builder = Builder::default();
    for event in Parser::new_ext(&prepared.text, options) {
        builder.event(event);
    }
    let mut blocks = builder.finish();
    if let Some(source) = prepared.pending {
        let pending = Inline::MathSource(source.to_owned());
        match blocks.last_mut() {
            Some(Block::Paragraph(content) | Block::Heading { content, .. })
                if continues_paragraph(&prepared.text) =>
            {
                // The parser trimmed the paragraph's end: the space before the formula.
                match prepared.text.chars().last() {
                    Some('\n') => content.push(Inline::SoftBreak),
                    Some(' ' | '\t') => push_inline_merged(content, Inline::Text(" ".into())),
                    _ => {}
                }
                content.push(pending)
            }
            _ => blocks.push(Block::Paragraph(vec![pending])),
        }
    }
    blocks
}

/// Whether what follows `head` continues its last paragraph (no blank line between).
fn continues_paragraph(head: &str) -> bool {
    let head = head.trim_end_matches([' ', '\t']);
    let head = head.strip_suffix('\n').unwrap_or(head);
    let head = head.trim_end_matches([' ', '\t', '\r']);
    !head.is_empty() && !head.ends_with('\n')
}

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
    /// An unsupported block container (a footnote definition inside another container, a
    /// definition list, metadata): its blocks are spliced into the parent.
    Group(Vec<Block>),
    /// A footnote definition at the top level.
    Footnote {
        label: String,
        blocks: Vec<Block>,
    },
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
            Frame::Quote(_) | Frame::List { .. } | Frame::Item { .. } | Frame::Footnote { .. } => {
                true
            }
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
    // Cells and rows live inside a table; they never close an implicit paragraph.
    !is_inline(tag) && !matches!(tag, Tag::TableHead | Tag::TableRow | Tag::TableCell)
}

fn is_block_end(tag: &TagEnd) -> bool {
    !is_inline_end(tag)
        && !matches!(
            tag,
            TagEnd::TableHead | TagEnd::TableRow | TagEnd::TableCell
        )
}

pub(super) fn code_lang(info: &str) -> Option<String> {
    let word = info.split_whitespace().next()?;
    let lang: String = word.chars().filter(|&c| is_lang_char(c)).collect();
    (!lang.is_empty()).then_some(lang)
}

/// The characters a code block's language keeps (safe in a class name).
pub(super) fn is_lang_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '.' | '#')
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

/// The text a person reads in `inlines`: a link's text, code's code, an image's alt text, raw
/// HTML as written, a formula's TeX, a line break as a space.
pub fn plain_text(inlines: &[Inline]) -> String {
    let mut out = String::new();
    push_plain_text(inlines, &mut out);
    out
}

fn push_plain_text(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Text(t) | Inline::Code(t) | Inline::Html(t) | Inline::MathSource(t) => {
                out.push_str(t)
            }
            Inline::Math { tex, .. } => out.push_str(tex),
            Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => {
                push_plain_text(c, out)
            }
            Inline::Link { content, .. } => push_plain_text(content, out),
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
            Event::Code(code) => self.push_inline(Inline::Code(code.into_string())),
            Event::InlineMath(tex) => self.push_inline(Inline::Math {
                tex: tex.into_string(),
                display: false,
            }),
            Event::DisplayMath(tex) => self.push_inline(Inline::Math {
                tex: tex.into_string(),
                display: true,
            }),
            // A reference stays the text it is: the UI resolves it against the definitions
            // found so far (which may be in a later segment of a streaming message).
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
            Tag::FootnoteDefinition(label) if self.stack.is_empty() => Frame::Footnote {
                label: label.into_string(),
                blocks: Vec::new(),
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
                Frame::Quote(blocks)
                | Frame::Item { blocks, .. }
                | Frame::Group(blocks)
                | Frame::Footnote { blocks, .. } => {
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
            Frame::Footnote { label, blocks } => {
                self.attach_block(Block::Footnote { label, blocks })
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
                    push_plain_text(&content, &mut text);
                    self.push_inline(Inline::Link {
                        shown_host: spoofed_host(&text, &href),
                        href,
                        title,
                        content,
                    })
                }
                Span::Image { src, title } => {
                    let mut alt = String::new();
                    push_plain_text(&content, &mut alt);
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
