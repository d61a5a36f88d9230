//! Incremental parsing of a streaming message (the strategy is in the [module docs](super)).

use pulldown_cmark::{Event, Parser};

use super::build::{code_lang, is_lang_char, options, parse, parse_with};
use super::math::MathSyntax;
use super::model::Block;

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

/// Incremental parser for a streaming message; see the [module docs](super) for the strategy.
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
    /// A top-level fenced code block is open: no line inside starts a block.
    fence: Option<Fence>,
    /// An HTML block of kinds 1–5 is open (its end marker): no line inside starts a block.
    html_end: Option<&'static str>,
    /// Since the open segment started, a line could have opened a container, a table or HTML
    /// (indented, `>`, a list marker, `|`, `<`…): a fence there may belong to it, so it gets
    /// no fast path. Cleared where the parser confirms a top-level block starts.
    uncertain: bool,
    /// Which delimiters make math.
    math: MathSyntax,
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

impl IncrementalMarkdown {
    pub fn new() -> Self {
        Self::default()
    }

    /// Which delimiters make math here.
    pub fn math(&self) -> MathSyntax {
        self.math
    }

    /// A parser whose math delimiters are `math`'s (the page's `math` option).
    pub fn with_math(math: MathSyntax) -> Self {
        IncrementalMarkdown {
            math,
            ..Self::default()
        }
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
        let tail = parse_with(
            self.text.get(self.seg_start..).unwrap_or_default(),
            self.math,
            true,
        );
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
                *self = Self::with_math(self.math);
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
        let segment = parse_with(
            self.text.get(self.seg_start..at).unwrap_or_default(),
            self.math,
            false,
        );
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
