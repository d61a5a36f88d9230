//! The scanner: one forward pass over a line's bytes, from the state the line before left
//! (a comment, a string, a tag still open), cutting it into spans.

use super::line::{Class, Span};
use super::tables::{
    Syntax, CSS, DIFF, KEY_COLON, MARKUP, MULTILINE, PREPROC, RAW_BT, RUST, SHELL, TOML, YAML,
};

/// A line is tokenised up to this many bytes (cut back to a char boundary); the rest of it is
/// one plain span.
pub const MAX_LINE_BYTES: usize = 2_000;

/// What carries from one line to the next.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct State {
    pub(super) mode: Mode,
    /// Rust: the raw string's `#`s, the block comment's nesting depth. CSS: the brace depth.
    pub(super) n: u8,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) enum Mode {
    #[default]
    Code,
    Comment,
    /// A string opened by this quote byte; `true` when tripled (`"""`).
    Str(u8, bool),
    /// A Rust raw string (`r#"…"#`, `State::n` hashes).
    Raw,
    /// Inside an HTML/XML tag, among its attributes.
    Tag,
}

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

/// A byte of a word (non-ASCII bytes always are, so words end at char boundaries).
pub(super) fn is_word(f: u32, b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || b == b'_'
        || b >= 0x80
        || (b == b'$' && f & SHELL == 0)
        || (b == b'-' && f & (CSS | SHELL) != 0)
        || (f & SHELL != 0 && b"./+%@:~".contains(&b))
}

/// A byte of a tag or attribute name.
pub(super) fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80 || b"-_:.@".contains(&b)
}

/// The end of the run of bytes from `i` that `p` accepts.
pub(super) fn run(s: &[u8], mut i: usize, p: impl Fn(u8) -> bool) -> usize {
    while s.get(i).is_some_and(|&c| p(c)) {
        i += 1;
    }
    i
}

/// The start of the char after the one at `i`.
pub(super) fn next_char(s: &[u8], i: usize) -> usize {
    run(s, i + 1, |c| c & 0xC0 == 0x80)
}

pub(super) fn starts(s: &[u8], i: usize, pat: &str) -> bool {
    !pat.is_empty() && s.get(i..).is_some_and(|r| r.starts_with(pat.as_bytes()))
}

/// Spans being built over the tokenised prefix of a line.
pub(super) struct Scan<'a> {
    pub(super) s: &'a [u8],
    spans: Vec<Span>,
    done: usize,
}

impl Scan<'_> {
    /// The byte at `i`, 0 past the end.
    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    /// Bytes `done..end` have `class` (merged into the last span when it has the same).
    fn put(&mut self, end: usize, class: Option<Class>) {
        if end <= self.done {
            return;
        }
        let (start, end32) = (to_u32(self.done), to_u32(end));
        match self.spans.last_mut() {
            Some(last) if last.class == class => last.end = end32,
            _ => self.spans.push(Span {
                start,
                end: end32,
                class,
            }),
        }
        self.done = end;
    }
}

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// One line's spans and the state after it.
pub(super) fn tokenise(syn: &Syntax, state: State, text: &str, first: bool) -> (Vec<Span>, State) {
    let mut cut = text.len().min(MAX_LINE_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let sc = Scan {
        s: text.as_bytes().get(..cut).unwrap_or_default(),
        spans: Vec::new(),
        done: 0,
    };
    let mut scanner = Scanner {
        syn,
        sc,
        st: state,
        cmd: true,
        def: None,
    };
    scanner.line(first);
    let Scanner { mut sc, st, .. } = scanner;
    sc.put(text.len(), None);
    let mut spans = sc.spans;
    if matches!(spans.as_slice(), [Span { class: None, .. }]) {
        spans.clear();
    }
    (spans, st)
}

/// The scanner of one line: one forward pass over `sc.s`, one method per mode, from the state
/// the line before left. The code mode's methods, one per token family, are in `code.rs`.
pub(super) struct Scanner<'a> {
    pub(super) syn: &'a Syntax,
    pub(super) sc: Scan<'a>,
    pub(super) st: State,
    /// Shell: a command may start here.
    pub(super) cmd: bool,
    /// The class of a name just defined (after `fn`, `class`…).
    pub(super) def: Option<Class>,
}

impl<'a> Scanner<'a> {
    pub(super) fn has(&self, flag: u32) -> bool {
        self.syn.flags & flag != 0
    }

    pub(super) fn at(&self, i: usize) -> u8 {
        self.sc.at(i)
    }

    pub(super) fn put(&mut self, end: usize, class: Option<Class>) {
        self.sc.put(end, class);
    }

    /// The whole line: its start (in code), then one mode after the other to its end.
    fn line(&mut self, first: bool) {
        let n = self.sc.s.len();
        let mut i = 0;
        if self.st.mode == Mode::Code {
            match self.line_start(first) {
                Some(start) => i = start,
                None => return,
            }
        }
        while i < n {
            i = match self.st.mode {
                Mode::Comment => self.comment(i),
                Mode::Str(q, triple) => self.string(i, q, triple),
                Mode::Raw => self.raw(i),
                Mode::Tag => self.tag(i),
                Mode::Code => self.code(i),
            };
        }
        self.end_of_line();
    }

    /// What only a line's start can be: a shebang or preprocessor line, a diff line, YAML's
    /// document markers, list dashes and key, TOML's table or key, a console prompt. `None`
    /// when the whole line was one of them.
    fn line_start(&mut self, first: bool) -> Option<usize> {
        let s = self.sc.s;
        let n = s.len();
        let mut i = run(s, 0, is_space);
        self.put(i, None);
        if (first && s.starts_with(b"#!") && !s.starts_with(b"#!["))
            || (self.has(PREPROC) && self.at(i) == b'#')
        {
            self.put(n, Some(Class::Meta));
            return None;
        }
        if self.has(DIFF) {
            self.diff_line();
            return None;
        }
        if self.has(YAML) {
            i = self.yaml_start(i);
        }
        if self.has(TOML) {
            i = self.toml_start(i);
        }
        if self.has(SHELL) && starts(s, i, "$ ") {
            // A console prompt.
            self.put(i + 1, Some(Class::Meta));
            i += 1;
        }
        Some(i)
    }

    fn diff_line(&mut self) {
        let s = self.sc.s;
        let header = ["+++ ", "--- ", "@@", "diff ", "index "];
        let class = if header.iter().any(|h| starts(s, 0, h)) {
            Some(Class::Meta)
        } else {
            match s.first() {
                Some(b'+') => Some(Class::Inserted),
                Some(b'-') => Some(Class::Deleted),
                _ => None,
            }
        };
        self.put(s.len(), class);
    }

    /// `---` / `...`, list dashes, then a `key:`.
    fn yaml_start(&mut self, mut i: usize) -> usize {
        let s = self.sc.s;
        let n = s.len();
        if (starts(s, 0, "---") || starts(s, 0, "...")) && (n == 3 || is_space(self.at(3))) {
            self.put(3, Some(Class::Meta));
            i = 3;
        }
        while self.at(i) == b'-' && (i + 1 == n || is_space(self.at(i + 1))) {
            self.put(i + 1, Some(Class::Operator));
            i = run(s, i + 1, is_space);
            self.put(i, None);
        }
        if let Some(e) = yaml_key(s, i) {
            self.put(e, Some(Class::Property));
            i = e;
        }
        i
    }

    /// A `[table]` header, or a `key =`.
    fn toml_start(&mut self, i: usize) -> usize {
        let s = self.sc.s;
        if self.at(i) == b'[' {
            let e = s.iter().position(|&b| b == b']').map_or(s.len(), |p| p + 1);
            self.put(e, Some(Class::Type));
            return e;
        }
        let e = run(s, i, |c| c.is_ascii_alphanumeric() || b"_-.".contains(&c));
        if e > i && self.at(run(s, e, is_space)) == b'=' {
            self.put(e, Some(Class::Property));
            return e;
        }
        i
    }

    /// Inside a block comment (Rust's nest), to its end or the line's.
    fn comment(&mut self, i: usize) -> usize {
        let s = self.sc.s;
        let n = s.len();
        let (open, close) = self.syn.block;
        let nest = self.has(RUST);
        let mut j = i;
        let mut end = n;
        while j < n {
            if starts(s, j, close) {
                j += close.len();
                if !nest || self.st.n == 0 {
                    self.st.mode = Mode::Code;
                    end = j;
                    break;
                }
                self.st.n -= 1;
            } else if nest && starts(s, j, open) {
                j += open.len();
                self.st.n = self.st.n.saturating_add(1);
            } else {
                j += 1;
            }
        }
        self.put(end, Some(Class::Comment));
        end
    }

    /// Inside a string opened by `q` (tripled or not), to its end or the line's.
    fn string(&mut self, i: usize, q: u8, triple: bool) -> usize {
        let s = self.sc.s;
        let n = s.len();
        let esc = !((q == b'\'' && self.has(SHELL)) || (q == b'`' && self.has(RAW_BT)));
        let mut j = i;
        let mut end = None;
        while j < n {
            let b = self.at(j);
            if esc && b == b'\\' {
                j += 2;
            } else if b == q && (!triple || self.at(j + 1) == q && self.at(j + 2) == q) {
                end = Some(j + if triple { 3 } else { 1 });
                break;
            } else {
                j += 1;
            }
        }
        let Some(e) = end else {
            self.put(n, Some(Class::String));
            return n;
        };
        let key = self.has(KEY_COLON) && self.at(run(s, e, is_space)) == b':';
        self.put(e, Some(if key { Class::Property } else { Class::String }));
        self.st.mode = if self.has(MARKUP) {
            Mode::Tag
        } else {
            Mode::Code
        };
        e
    }

    /// Inside a Rust raw string, to its closing `"` and hashes or the line's end.
    fn raw(&mut self, i: usize) -> usize {
        let n = self.sc.s.len();
        let h = usize::from(self.st.n);
        let mut j = i;
        let mut end = n;
        while j < n {
            if self.at(j) == b'"' && (1..=h).all(|k| self.at(j + k) == b'#') {
                end = j + 1 + h;
                self.st = State::default();
                break;
            }
            j += 1;
        }
        self.put(end, Some(Class::String));
        end
    }

    /// Inside an HTML/XML tag: attribute names and values, to its `>`.
    fn tag(&mut self, i: usize) -> usize {
        let s = self.sc.s;
        let b = self.at(i);
        if b == b'>' {
            self.st.mode = Mode::Code;
            self.put(i + 1, None);
            i + 1
        } else if self.syn.quotes.contains(&b) {
            self.st.mode = Mode::Str(b, false);
            i + 1
        } else if is_name(b) {
            let e = run(s, i, is_name);
            self.put(e, Some(Class::Property));
            e
        } else {
            let e = next_char(s, i);
            self.put(e, None);
            e
        }
    }

    /// Strings that cannot span lines end with theirs.
    fn end_of_line(&mut self) {
        if let Mode::Str(q, triple) = self.st.mode {
            if !triple && q != b'`' && !self.has(MULTILINE) {
                self.st.mode = if self.has(MARKUP) {
                    Mode::Tag
                } else {
                    Mode::Code
                };
            }
        }
    }
}

/// The end of a YAML key starting at `i` (`key:` followed by a space or the line's end).
fn yaml_key(s: &[u8], i: usize) -> Option<usize> {
    let first = *s.get(i)?;
    if b"\"'#[]{}&*!|>%@`?,".contains(&first) {
        return None;
    }
    let mut prev = b' ';
    for (j, &c) in s.iter().enumerate().skip(i) {
        if c == b':' && s.get(j + 1).is_none_or(|&d| is_space(d)) {
            let key = s.get(i..j).unwrap_or_default();
            return Some(i + key.iter().rposition(|&c| !is_space(c)).map_or(0, |p| p + 1));
        }
        if c == b'#' && is_space(prev) {
            return None;
        }
        prev = c;
    }
    None
}
