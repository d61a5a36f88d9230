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
//! * **Math never becomes markup from a string**: a formula's TeX is parsed by pulldown-latex
//!   and built into a closed tree of MathML Core elements and attributes ([`tex_to_mathml`]),
//!   within size and nesting budgets; anything else shows as its source.
//!
//! Syntax: CommonMark plus the GFM extensions tables, task lists, strikethrough and footnotes,
//! and math (`$$…$$`, `\[…\]`, `\(…\)`; `$…$` where the page opts in: [`MathSyntax`]).
//! Heading attributes, smart punctuation and the like are off.
//!
//! **Footnotes**: a top-level definition (`[^a]: …`) is a [`Block::Footnote`]; a reference
//! (`[^a]`) stays text, whether or not the definition is in the same parse, so a reference
//! parses the same when its definition comes in a later segment of a streaming message. The UI
//! resolves references against the definitions found so far (`crate::ui::sources`).
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
//! differences: a formula whose closer has not arrived ends the tail as its source
//! ([`Inline::MathSource`]; [`parse`] reads it as text), and **link reference definitions** (`[a]: https://…`) only apply within their own
//! segment, so `[a]` used after a blank line and a new top-level block elsewhere stays text.
//! Agent output rarely uses them. Likewise a footnote reference written like a link
//! (`[^a](https://…)`, `[^a][b]`) reads as a link when the definition of `^a` is in another
//! segment, and as a reference followed by text when it is in the same one.

mod build;
mod incremental;
mod math;
mod model;
mod tex;

pub use build::{parse, parse_with, plain_text, MAX_NESTING};
pub use incremental::IncrementalMarkdown;
pub use math::MathSyntax;
pub use model::{Align, Block, Inline, ListItem, SafeUrl};
pub use tex::{
    tex_to_mathml, MathAttr, MathElement, MathNode, MathTag, TexError, MAX_TEX_BYTES, MAX_TEX_DEPTH,
};
