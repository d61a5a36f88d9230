//! Which delimiters make math ([`MathSyntax`]) and the pass over the source that readies them
//! for pulldown-cmark's math extension.
//!
//! pulldown-cmark reads `$$…$$` (display) and `$…$` (inline) — both or neither. Agents also
//! write `\[…\]` and `\(…\)`, which CommonMark reads as escaped brackets and parentheses
//! (`\[x\]` shows as `[x]`, the backslash eaten). So before parsing, [`prepare`] rewrites,
//! in text only (never in code, HTML or autolinks: a first parse says where text is):
//!
//! * a paired `\[ … \]` into `$$ … $$`, a paired `\( … \)` into `$ … $` (pairs within one
//!   paragraph, heading or table cell; an unpaired one is left to CommonMark);
//! * unless the page chose [`MathSyntax::Dollars`], every other single `$` into `\$`, so
//!   "$5 and $10" stays text.
//!
//! The pass is a parse of the segment it is given (only when it has a `$` or a backslash)
//! and a linear rewrite: O(the segment), like the parse that follows.
//!
//! A formula still streaming — an opening `$$`, `\[` or `\(` whose closer has not arrived,
//! in the last paragraph of the text — is cut off by [`prepare`] when asked (`open`): the
//! text before it is parsed, and the formula's source so far is shown as such
//! ([`Inline::MathSource`](super::Inline::MathSource)) until it closes.

use std::borrow::Cow;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

/// Which delimiters make math in answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MathSyntax {
    /// No math: dollars and backslashes read as CommonMark reads them.
    Off,
    /// `$$…$$`, `\[…\]` and `\(…\)` (the default): single dollars stay text (prices).
    #[default]
    On,
    /// Also `$…$` (the page opts in: "$5 and $10" would be read as a formula).
    Dollars,
}

impl MathSyntax {
    /// `off`, `on` (or empty), `dollars`; anything else is `None`.
    pub fn parse(value: &str) -> Option<MathSyntax> {
        match value.trim().to_ascii_lowercase().as_str() {
            "off" | "false" | "none" => Some(MathSyntax::Off),
            "" | "on" | "true" => Some(MathSyntax::On),
            "dollars" | "dollar" => Some(MathSyntax::Dollars),
            _ => None,
        }
    }
}

/// The source readied for the parser, and where an unclosed formula starts.
pub(super) struct Prepared<'a> {
    /// What pulldown-cmark parses.
    pub text: Cow<'a, str>,
    /// With `open`: the source of a formula whose closer has not arrived yet, in the last
    /// paragraph (cut from `text`).
    pub pending: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// `$$`
    Double,
    /// `$`
    Single,
    /// `\[` / `\]`
    OpenBracket,
    CloseBracket,
    /// `\(` / `\)`
    OpenParen,
    CloseParen,
}

/// A rewrite of the source: replace `len` bytes at `at` with `with`.
struct Edit {
    at: usize,
    len: usize,
    with: &'static str,
}

/// Readies `source` for the parser (see the [module docs](self)) that reads with `options`;
/// `open`: the text may still grow, so an unclosed formula at its end is cut off as pending.
///
/// Where a delimiter may be is the parser's call: a first parse of `source` gives the text
/// runs (never code, HTML or autolinks) and the blocks that pair their delimiters (a
/// paragraph, a heading, a table cell, a tight list item).
pub(super) fn prepare(
    source: &str,
    syntax: MathSyntax,
    open: bool,
    options: Options,
) -> Prepared<'_> {
    let unchanged = Prepared {
        text: Cow::Borrowed(source),
        pending: None,
    };
    // Only a dollar or an opening `\[` / `\(` can start a formula: most text needs no pass.
    if syntax == MathSyntax::Off
        || !(source.contains('$') || source.contains("\\[") || source.contains("\\("))
    {
        return unchanged;
    }
    let bytes = source.as_bytes();
    let mut edits = Vec::new();
    let mut tokens: Vec<(usize, Token)> = Vec::new();
    // An opener left unclosed by the last block that paired, while nothing has followed it.
    let mut pending_at = None;
    // In a code block or an autolink: no delimiters.
    let mut in_code = false;
    let mut scanned = 0;
    for (event, range) in Parser::new_ext(source, options).into_offset_iter() {
        match event {
            // An autolink's text is its URL, shown as written.
            Event::Start(Tag::Link {
                link_type: LinkType::Autolink | LinkType::Email,
                ..
            }) => in_code = true,
            Event::Start(tag) if is_inline(&tag) => {}
            Event::End(TagEnd::Link) => in_code = false,
            Event::End(tag) if is_inline_end(&tag) => {}
            Event::Start(tag) => {
                in_code = matches!(tag, Tag::CodeBlock(_));
                pair(&mut tokens, syntax, &mut edits);
                pending_at = None;
            }
            Event::End(_) => {
                in_code = false;
                if let Some(at) = pair(&mut tokens, syntax, &mut edits) {
                    pending_at = Some(at);
                }
            }
            Event::Text(_) if !in_code => {
                pending_at = None;
                text_tokens(bytes, range, &mut scanned, &mut tokens);
            }
            Event::InlineMath(_) => {
                pending_at = None;
                if syntax != MathSyntax::Dollars {
                    // `$x$`: the page did not opt in; both dollars become text.
                    tokens.push((range.start, Token::Single));
                    tokens.push((range.end.saturating_sub(1), Token::Single));
                }
            }
            _ => pending_at = None,
        }
    }
    if let Some(at) = pair(&mut tokens, syntax, &mut edits) {
        pending_at = Some(at);
    }
    let cut = match pending_at {
        Some(at) if open => at,
        _ => source.len(),
    };
    let pending = (cut < source.len()).then(|| source.get(cut..)).flatten();
    edits.retain(|e| e.at < cut);
    let head = source.get(..cut).unwrap_or(source);
    if edits.is_empty() {
        return Prepared {
            text: Cow::Borrowed(head),
            pending,
        };
    }
    let mut out = String::with_capacity(head.len() + edits.len());
    let mut from = 0;
    for e in &edits {
        out.push_str(head.get(from..e.at).unwrap_or_default());
        out.push_str(e.with);
        from = e.at + e.len;
    }
    out.push_str(head.get(from..).unwrap_or_default());
    Prepared {
        text: Cow::Owned(out),
        pending,
    }
}

/// Whether `tag` is an inline span (emphasis, a link…), not a block.
pub(super) fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

/// [`is_inline`] for an end tag.
pub(super) fn is_inline_end(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

/// The delimiters of a text run at `range`. The parser leaves an escape's backslash out of
/// every run: a run that starts just after an odd number of backslashes starts with an
/// escaped character — `\[`, `\]`, `\(`, `\)` are delimiters, `\$` is a dollar sign.
///
/// The parser may split `$$` into two runs: `scanned` (where the last `$$` ended) keeps the
/// second dollar from being read twice.
fn text_tokens(
    bytes: &[u8],
    range: std::ops::Range<usize>,
    scanned: &mut usize,
    out: &mut Vec<(usize, Token)>,
) {
    let mut i = range.start;
    let backslashes = bytes
        .get(..i)
        .unwrap_or_default()
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    if backslashes % 2 == 1 {
        let token = match bytes.get(i) {
            Some(b'[') => Some(Token::OpenBracket),
            Some(b']') => Some(Token::CloseBracket),
            Some(b'(') => Some(Token::OpenParen),
            Some(b')') => Some(Token::CloseParen),
            _ => None,
        };
        if let Some(token) = token {
            out.push((i - 1, token));
        }
        i += 1;
    }
    i = i.max(*scanned);
    while i < range.end {
        if bytes.get(i) == Some(&b'$') {
            if bytes.get(i + 1) == Some(&b'$') {
                out.push((i, Token::Double));
                i += 2;
                *scanned = i;
            } else {
                out.push((i, Token::Single));
                i += 1;
            }
        } else {
            i += 1;
        }
    }
}

/// Pairs the tokens of one block into formulas and records the rewrites; gives where an
/// opener left unclosed is.
fn pair(
    tokens: &mut Vec<(usize, Token)>,
    syntax: MathSyntax,
    edits: &mut Vec<Edit>,
) -> Option<usize> {
    let from = edits.len();
    let mut open: Option<(usize, Token)> = None;
    let mut singles = Vec::new();
    for &(at, token) in tokens.iter() {
        match (open, token) {
            (None, Token::Double | Token::OpenBracket | Token::OpenParen) => {
                open = Some((at, token))
            }
            (None, Token::Single) => singles.push(at),
            (None, _) => {}
            (Some((_, Token::Double)), Token::Double) => open = None,
            (Some((start, Token::OpenBracket)), Token::CloseBracket) => {
                edits.push(Edit {
                    at: start,
                    len: 2,
                    with: "$$",
                });
                edits.push(Edit {
                    at,
                    len: 2,
                    with: "$$",
                });
                open = None;
            }
            (Some((start, Token::OpenParen)), Token::CloseParen) => {
                edits.push(Edit {
                    at: start,
                    len: 2,
                    with: "$",
                });
                edits.push(Edit {
                    at,
                    len: 2,
                    with: "$",
                });
                open = None;
            }
            (Some(_), _) => {}
        }
    }
    if syntax != MathSyntax::Dollars {
        edits.extend(singles.into_iter().map(|at| Edit {
            at,
            len: 1,
            with: "\\$",
        }));
    }
    // This paragraph's edits come after every earlier one's.
    if let Some(mine) = edits.get_mut(from..) {
        mine.sort_by_key(|e| e.at);
    }
    tokens.clear();
    open.map(|(at, _)| at)
}
