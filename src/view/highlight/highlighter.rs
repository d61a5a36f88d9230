//! [`Highlighter`]: a block fed in deltas of any size, tokenised a line at a time as each
//! line's `\n` arrives, within the block's budgets.

use super::line::{Line, Span};
use super::scan::{tokenise, State};
use super::tables::{syntax, Lang};

/// Only this many lines of a block are tokenised; later lines are plain.
pub const MAX_LINES: usize = 5_000;
/// Lines starting after this many bytes of the block (line breaks included) are plain.
pub const MAX_BLOCK_BYTES: usize = 256 * 1024;

/// A block being highlighted as it streams.
#[derive(Clone, Debug)]
pub struct Highlighter {
    lang: Lang,
    state: State,
    lines: Vec<Line>,
    open: String,
    /// Bytes of the finished lines, line breaks included.
    bytes: usize,
}

impl Highlighter {
    pub fn new(lang: Lang) -> Self {
        Highlighter {
            lang,
            state: State::default(),
            lines: Vec::new(),
            open: String::new(),
            bytes: 0,
        }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Feeds more of the block. Every line whose `\n` arrives is tokenised now, once.
    pub fn push(&mut self, appended: &str) {
        let mut rest = appended;
        while let Some((head, tail)) = rest.split_once('\n') {
            self.open.push_str(head);
            let text = std::mem::take(&mut self.open);
            self.commit(text);
            rest = tail;
        }
        self.open.push_str(rest);
    }

    /// The finished lines (those whose `\n` arrived). They never change once here.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The text after the last `\n`.
    pub fn open_text(&self) -> &str {
        &self.open
    }

    /// The spans of [`Self::open_text`], tokenised from the carried state (not kept).
    pub fn open_spans(&self) -> Vec<Span> {
        self.tokenise(&self.open).0
    }

    /// The still-open last line (a copy of its text with [`Self::open_spans`]).
    pub fn open_line(&self) -> Line {
        Line {
            text: self.open.clone(),
            spans: self.open_spans(),
        }
    }

    /// The block is complete: every line, the open one too when it is not empty.
    pub fn finish(mut self) -> Vec<Line> {
        if !self.open.is_empty() {
            let text = std::mem::take(&mut self.open);
            self.commit(text);
        }
        self.lines
    }

    fn commit(&mut self, text: String) {
        let (spans, state) = self.tokenise(&text);
        self.state = state;
        self.bytes = self.bytes.saturating_add(text.len() + 1);
        self.lines.push(Line { text, spans });
    }

    fn tokenise(&self, text: &str) -> (Vec<Span>, State) {
        if self.lines.len() >= MAX_LINES || self.bytes >= MAX_BLOCK_BYTES {
            return (Vec::new(), self.state);
        }
        tokenise(syntax(self.lang), self.state, text, self.lines.is_empty())
    }
}

/// A finished block's lines (the last one may lack its `\n`; an empty last line is dropped).
pub fn highlight(lang: Lang, code: &str) -> Vec<Line> {
    let mut h = Highlighter::new(lang);
    h.push(code);
    h.finish()
}
