//! The scanner: one forward pass over a line's bytes, from the state the line before left
//! (a comment, a string, a tag still open), cutting it into spans.

use super::line::{Class, Span};
use super::tables::{
    listed, Syntax, AT_META, CAPS, CSS, DIFF, KEY_COLON, MARKUP, MULTILINE, NOCASE, PREPROC,
    RAW_BT, RUST, SHELL, SPACED, TOML, TRIPLE, YAML,
};

/// A line is tokenised up to this many bytes (cut back to a char boundary); the rest of it is
/// one plain span.
pub const MAX_LINE_BYTES: usize = 2_000;

/// What carries from one line to the next.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct State {
    mode: Mode,
    /// Rust: the raw string's `#`s, the block comment's nesting depth. CSS: the brace depth.
    n: u8,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Mode {
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

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

/// A byte of a word (non-ASCII bytes always are, so words end at char boundaries).
fn is_word(f: u32, b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || b == b'_'
        || b >= 0x80
        || (b == b'$' && f & SHELL == 0)
        || (b == b'-' && f & (CSS | SHELL) != 0)
        || (f & SHELL != 0 && b"./+%@:~".contains(&b))
}

/// A byte of a tag or attribute name.
fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80 || b"-_:.@".contains(&b)
}

/// The end of the run of bytes from `i` that `p` accepts.
fn run(s: &[u8], mut i: usize, p: impl Fn(u8) -> bool) -> usize {
    while s.get(i).is_some_and(|&c| p(c)) {
        i += 1;
    }
    i
}

/// The start of the char after the one at `i`.
fn next_char(s: &[u8], i: usize) -> usize {
    run(s, i + 1, |c| c & 0xC0 == 0x80)
}

fn starts(s: &[u8], i: usize, pat: &str) -> bool {
    !pat.is_empty() && s.get(i..).is_some_and(|r| r.starts_with(pat.as_bytes()))
}

/// Spans being built over the tokenised prefix of a line.
struct Scan<'a> {
    s: &'a [u8],
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

/// What one token of the code mode came to.
enum Step {
    /// The token ends at this byte and has this class.
    Token(usize, Option<Class>),
    /// A comment or string opened (the state's mode says which): its body starts at this byte.
    Open(usize),
}

/// The scanner of one line: one forward pass over `sc.s`, one method per mode, from the state
/// the line before left. The code mode is a dispatcher over the token families (pulldown-cmark's
/// `html.rs::run` shape): each family is a method, tried in a fixed order.
struct Scanner<'a> {
    syn: &'a Syntax,
    sc: Scan<'a>,
    st: State,
    /// Shell: a command may start here.
    cmd: bool,
    /// The class of a name just defined (after `fn`, `class`…).
    def: Option<Class>,
}

impl<'a> Scanner<'a> {
    fn has(&self, flag: u32) -> bool {
        self.syn.flags & flag != 0
    }

    fn at(&self, i: usize) -> u8 {
        self.sc.at(i)
    }

    fn put(&mut self, end: usize, class: Option<Class>) {
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

    /// One token of code.
    fn code(&mut self, i: usize) -> usize {
        let b = self.at(i);
        let prev = if i == 0 { b' ' } else { self.at(i - 1) };
        let was_def = self.def;
        if !is_space(b) {
            self.def = None;
        }
        match self.code_token(i, prev, was_def) {
            Step::Token(e, class) => {
                self.put(e, class);
                e
            }
            Step::Open(body) => body,
        }
    }

    /// The token families, in the order they are tried.
    fn code_token(&mut self, i: usize, prev: u8, was_def: Option<Class>) -> Step {
        let s = self.sc.s;
        let n = s.len();
        let syn = self.syn;
        let f = syn.flags;
        let b = self.at(i);
        let at1 = self.at(i + 1);
        if is_space(b) {
            Step::Token(run(s, i, is_space), None)
        } else if syn.line.iter().any(|m| starts(s, i, m)) && (!self.has(SPACED) || is_space(prev))
        {
            Step::Token(n, Some(Class::Comment))
        } else if starts(s, i, syn.block.0) {
            self.st.mode = Mode::Comment;
            Step::Open(i + syn.block.0.len())
        } else if self.has(MARKUP) {
            self.markup(i)
        } else if self.has(RUST)
            && b == b'#'
            && (at1 == b'[' || at1 == b'!' && self.at(i + 2) == b'[')
        {
            self.attribute(i)
        } else if syn.quotes.contains(&b) && !(b == b'\'' && is_word(f, prev)) {
            self.quote(i)
        } else if self.has(SHELL) && b == b'$' {
            self.shell_variable(i)
        } else if self.has(AT_META) && b == b'@' && (at1.is_ascii_alphabetic() || at1 == b'_') {
            let e = run(s, i + 1, |c| is_word(f, c) || c == b'.' || c == b'-');
            Step::Token(e, Some(Class::Meta))
        } else if self.has(YAML) && b"&*!".contains(&b) && is_space(prev) && at1 > b' ' {
            // An anchor, alias or tag.
            let e = run(s, i + 1, |c| c > b' ');
            Step::Token(
                e,
                Some(if b == b'!' {
                    Class::Meta
                } else {
                    Class::Variable
                }),
            )
        } else if let Some(step) = self.css(i) {
            step
        } else if b.is_ascii_digit() || b == b'.' && at1.is_ascii_digit() && !is_word(f, prev) {
            self.number(i)
        } else if is_word(f, b)
            && (b != b'-' || self.has(SHELL) || at1 == b'-' || at1.is_ascii_alphabetic())
        {
            self.word(i, prev, was_def)
        } else if syn.ops.contains(&b) {
            if self.has(SHELL) && b"|&;".contains(&b) {
                self.cmd = true;
            }
            Step::Token(i + 1, Some(Class::Operator))
        } else {
            if self.has(SHELL) && b"({`".contains(&b) {
                self.cmd = true;
            }
            Step::Token(next_char(s, i), None)
        }
    }

    /// Markup outside a tag: a doctype or processing instruction, a tag's name (the tag mode
    /// takes its attributes), an entity, text.
    fn markup(&mut self, i: usize) -> Step {
        let s = self.sc.s;
        let b = self.at(i);
        let at1 = self.at(i + 1);
        if b == b'<' && (at1 == b'!' || at1 == b'?') {
            let e = s.get(i..).and_then(|r| r.iter().position(|&c| c == b'>'));
            Step::Token(e.map_or(s.len(), |p| i + p + 1), Some(Class::Meta))
        } else if b == b'<' && (at1 == b'/' || at1.is_ascii_alphabetic()) {
            let name = i + 1 + usize::from(at1 == b'/');
            self.put(name, None);
            self.st.mode = Mode::Tag;
            Step::Token(run(s, name, is_name), Some(Class::Tag))
        } else if b == b'&' {
            let e = run(s, i + 1, |c| c.is_ascii_alphanumeric() || c == b'#');
            if e > i + 1 && self.at(e) == b';' {
                Step::Token(e + 1, Some(Class::Literal))
            } else {
                Step::Token(i + 1, None)
            }
        } else {
            Step::Token(run(s, i + 1, |c| c != b'<' && c != b'&'), None)
        }
    }

    /// A Rust attribute, to its matching `]` (or the line's end).
    fn attribute(&mut self, i: usize) -> Step {
        let s = self.sc.s;
        let mut depth = 0u32;
        let mut e = s.len();
        for (j, &c) in s.iter().enumerate().skip(i) {
            if c == b'[' {
                depth += 1;
            } else if c == b']' {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    e = j + 1;
                    break;
                }
            }
        }
        Step::Token(e, Some(Class::Meta))
    }

    /// A quote: a string opens (tripled where the language has them); in Rust a `'` is a char
    /// literal, else a lifetime.
    fn quote(&mut self, i: usize) -> Step {
        let s = self.sc.s;
        let f = self.syn.flags;
        let b = self.at(i);
        let at1 = self.at(i + 1);
        if self.has(RUST) && b == b'\'' {
            if at1 == b'\\' || self.at(next_char(s, i + 1)) == b'\'' {
                self.st.mode = Mode::Str(b, false);
                Step::Open(i + 1)
            } else if is_word(f, at1) {
                Step::Token(run(s, i + 1, |c| is_word(f, c)), Some(Class::Meta))
            } else {
                Step::Token(i + 1, None)
            }
        } else {
            let triple = self.has(TRIPLE) && at1 == b && self.at(i + 2) == b;
            self.st.mode = Mode::Str(b, triple);
            Step::Open(i + if triple { 3 } else { 1 })
        }
    }

    /// Shell: `${…}`, `$NAME`, `$1`, `$?`…; a bare `$` (or `$(`, where a command starts).
    fn shell_variable(&mut self, i: usize) -> Step {
        let s = self.sc.s;
        let at1 = self.at(i + 1);
        let e = if at1 == b'{' {
            let close = s.get(i..).and_then(|r| r.iter().position(|&c| c == b'}'));
            close.map_or(s.len(), |p| i + p + 1)
        } else if at1.is_ascii_alphabetic() || at1 == b'_' {
            run(s, i + 1, |c| c.is_ascii_alphanumeric() || c == b'_')
        } else if at1.is_ascii_digit() || (at1 != 0 && b"@*#?$!-".contains(&at1)) {
            i + 2
        } else {
            i
        };
        if e > i {
            Step::Token(e, Some(Class::Variable))
        } else {
            self.cmd = at1 == b'(';
            Step::Token(i + 1, None)
        }
    }

    /// CSS's own tokens: braces (counted: a rule's depth), `.class` and `#id` selectors or a
    /// `#fff` colour, pseudo-classes and `!important`. `None` for anything else.
    fn css(&mut self, i: usize) -> Option<Step> {
        if !self.has(CSS) {
            return None;
        }
        let s = self.sc.s;
        let f = self.syn.flags;
        let b = self.at(i);
        let at1 = self.at(i + 1);
        if b == b'{' {
            self.st.n = self.st.n.saturating_add(1);
            Some(Step::Token(i + 1, None))
        } else if b == b'}' {
            self.st.n = self.st.n.saturating_sub(1);
            Some(Step::Token(i + 1, None))
        } else if (b == b'#' || b == b'.')
            && is_word(f, at1)
            && !(b == b'.' && at1.is_ascii_digit())
        {
            // `.class` and `#id` selectors; `#fff` in a rule (or an SCSS variable).
            let e = run(s, i + 1, |c| is_word(f, c));
            let hex = s.get(i + 1..e).unwrap_or_default();
            let colour =
                matches!(hex.len(), 3 | 4 | 6 | 8) && hex.iter().all(u8::is_ascii_hexdigit);
            let class = match (self.st.n, b) {
                (_, b'#') if colour => Some(Class::Number),
                (0, _) => Some(Class::Type),
                (_, b'#') => Some(Class::Number),
                _ => None,
            };
            Some(Step::Token(e, class))
        } else if ((b == b':' && self.st.n == 0) || b == b'!')
            && is_word(f, self.at(run(s, i + 1, |c| c == b':')))
        {
            // `:hover`, `::before`; `!important`.
            let e = run(s, run(s, i + 1, |c| c == b':'), |c| is_word(f, c));
            Some(Step::Token(
                e,
                Some(if b == b'!' {
                    Class::Keyword
                } else {
                    Class::Meta
                }),
            ))
        } else {
            None
        }
    }

    /// A number: digits, letters (`0xFF`, `1e3`, `10px`, `42u32`), `_`, a `.` before a digit,
    /// an exponent's sign.
    fn number(&mut self, i: usize) -> Step {
        let hex = self.at(i) == b'0' && matches!(self.at(i + 1), b'x' | b'X');
        let mut j = i + 1;
        loop {
            let c = self.at(j);
            let more = c.is_ascii_alphanumeric()
                || c == b'_'
                || (c == b'%' && self.has(CSS))
                || (c == b'.' && self.at(j + 1).is_ascii_digit())
                || (matches!(c, b'+' | b'-') && !hex && matches!(self.at(j - 1), b'e' | b'E'));
            if !more {
                break;
            }
            j += 1;
        }
        Step::Token(j, Some(Class::Number))
    }

    /// A word: a Rust raw string or a prefixed string (`b"…"`, `f'…'`) opens, else the word
    /// gets its class.
    fn word(&mut self, i: usize, prev: u8, was_def: Option<Class>) -> Step {
        let s = self.sc.s;
        let f = self.syn.flags;
        let e = run(s, i, |c| is_word(f, c));
        let w = s.get(i..e).unwrap_or_default();
        let next = self.at(e);
        if self.has(RUST) && matches!(w, b"r" | b"br" | b"cr") {
            let h = run(s, e, |c| c == b'#') - e;
            if let (b'"', Ok(h8)) = (self.at(e + h), u8::try_from(h)) {
                self.st = State {
                    mode: Mode::Raw,
                    n: h8,
                };
                return Step::Open(e + h + 1);
            }
        }
        if w.len() <= 2
            && self.syn.quotes.contains(&next)
            && w.iter().all(|c| self.syn.prefixes.contains(c))
        {
            let triple = self.has(TRIPLE) && self.at(e + 1) == next && self.at(e + 2) == next;
            self.st.mode = Mode::Str(next, triple);
            return Step::Open(e + if triple { 3 } else { 1 });
        }
        if self.has(SHELL) {
            let class = self.shell_word(w, self.at(i), next, prev);
            return Step::Token(e, class);
        }
        self.word_class(w, e, was_def)
    }

    /// Shell: an assignment's name, a keyword (after which a command may start), a command.
    fn shell_word(&mut self, w: &[u8], first: u8, next: u8, prev: u8) -> Option<Class> {
        if next == b'=' && prev != b'=' {
            Some(Class::Variable)
        } else if listed(self.syn.keywords, w, false) {
            self.cmd = listed(
                "do elif else exec function if then time until while",
                w,
                false,
            );
            Some(Class::Keyword)
        } else if self.cmd && prev != b'=' && first != b'-' {
            self.cmd = false;
            Some(Class::Function)
        } else {
            if prev != b'=' {
                self.cmd = false;
            }
            None
        }
    }

    /// Any other language's word ending at `e`: a CSS property or element, the name after
    /// `fn` or `class`, a keyword, literal or type of the tables, a macro or a call, a
    /// capitalised type or `ALL_CAPS` literal.
    fn word_class(&mut self, w: &[u8], mut e: usize, was_def: Option<Class>) -> Step {
        let s = self.sc.s;
        let syn = self.syn;
        let nocase = self.has(NOCASE);
        let next = self.at(e);
        let class = if self.has(CSS)
            && ((self.st.n > 0 && self.at(run(s, e, is_space)) == b':')
                || (next == b':' && matches!(self.at(e + 1), b' ' | b'\t' | 0)))
        {
            // `color: red`; at the top level `$var: 1` and `max-width: 600px`.
            Some(Class::Property)
        } else if self.has(CSS) && self.st.n == 0 {
            Some(Class::Tag)
        } else if was_def.is_some() {
            was_def
        } else if listed(syn.keywords, w, nocase) {
            // The name after `fn` is a function's, after `class` a type's.
            if listed("def fn fun func function", w, false) {
                self.def = Some(Class::Function);
            } else if listed("class enum interface struct trait type", w, false) {
                self.def = Some(Class::Type);
            }
            Some(Class::Keyword)
        } else if listed(syn.literals, w, nocase) {
            Some(Class::Literal)
        } else if listed(syn.types, w, nocase) {
            Some(Class::Type)
        } else if self.has(RUST) && next == b'!' && self.at(e + 1) != b'=' {
            e += 1;
            Some(Class::Function)
        } else if next == b'(' {
            Some(Class::Function)
        } else if self.has(CAPS) && w.first().is_some_and(u8::is_ascii_uppercase) {
            if w.len() > 1 && !w.iter().any(u8::is_ascii_lowercase) {
                Some(Class::Literal)
            } else {
                Some(Class::Type)
            }
        } else {
            None
        };
        Step::Token(e, class)
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

/// The scanner as it was: one function of 416 lines. Kept for a while, for the test below.
#[cfg(test)]
fn scan_old(syn: &Syntax, mut st: State, sc: &mut Scan, first: bool) -> State {
    use Class::*;
    let s = sc.s;
    let n = s.len();
    let f = syn.flags;
    let has = |flag: u32| f & flag != 0;
    let nocase = has(NOCASE);
    let mut i = 0;
    // Shell: a command may start here. Others: the class of a name just defined.
    let mut cmd = true;
    let mut def: Option<Class> = None;

    if st.mode == Mode::Code {
        i = run(s, 0, is_space);
        sc.put(i, None);
        if (first && s.starts_with(b"#!") && !s.starts_with(b"#!["))
            || (has(PREPROC) && sc.at(i) == b'#')
        {
            sc.put(n, Some(Meta));
            return st;
        }
        if has(DIFF) {
            let header = ["+++ ", "--- ", "@@", "diff ", "index "];
            let class = if header.iter().any(|h| starts(s, 0, h)) {
                Some(Meta)
            } else {
                match s.first() {
                    Some(b'+') => Some(Inserted),
                    Some(b'-') => Some(Deleted),
                    _ => None,
                }
            };
            sc.put(n, class);
            return st;
        }
        if has(YAML) {
            if (starts(s, 0, "---") || starts(s, 0, "...")) && (n == 3 || is_space(sc.at(3))) {
                sc.put(3, Some(Meta));
                i = 3;
            }
            while sc.at(i) == b'-' && (i + 1 == n || is_space(sc.at(i + 1))) {
                sc.put(i + 1, Some(Operator));
                i = run(s, i + 1, is_space);
                sc.put(i, None);
            }
            if let Some(e) = yaml_key(s, i) {
                sc.put(e, Some(Property));
                i = e;
            }
        }
        if has(TOML) {
            if sc.at(i) == b'[' {
                let e = s.iter().position(|&b| b == b']').map_or(n, |p| p + 1);
                sc.put(e, Some(Type));
                i = e;
            } else {
                let e = run(s, i, |c| c.is_ascii_alphanumeric() || b"_-.".contains(&c));
                if e > i && sc.at(run(s, e, is_space)) == b'=' {
                    sc.put(e, Some(Property));
                    i = e;
                }
            }
        }
        if has(SHELL) && starts(s, i, "$ ") {
            // A console prompt.
            sc.put(i + 1, Some(Meta));
            i += 1;
        }
    }

    while i < n {
        match st.mode {
            Mode::Comment => {
                let (open, close) = syn.block;
                let nest = has(RUST);
                let mut j = i;
                let mut end = n;
                while j < n {
                    if starts(s, j, close) {
                        j += close.len();
                        if !nest || st.n == 0 {
                            st.mode = Mode::Code;
                            end = j;
                            break;
                        }
                        st.n -= 1;
                    } else if nest && starts(s, j, open) {
                        j += open.len();
                        st.n = st.n.saturating_add(1);
                    } else {
                        j += 1;
                    }
                }
                sc.put(end, Some(Comment));
                i = end;
            }
            Mode::Str(q, triple) => {
                let esc = !((q == b'\'' && has(SHELL)) || (q == b'`' && has(RAW_BT)));
                let mut j = i;
                let mut end = None;
                while j < n {
                    let b = sc.at(j);
                    if esc && b == b'\\' {
                        j += 2;
                    } else if b == q && (!triple || sc.at(j + 1) == q && sc.at(j + 2) == q) {
                        end = Some(j + if triple { 3 } else { 1 });
                        break;
                    } else {
                        j += 1;
                    }
                }
                match end {
                    Some(e) => {
                        let key = has(KEY_COLON) && sc.at(run(s, e, is_space)) == b':';
                        sc.put(e, Some(if key { Property } else { String }));
                        st.mode = if has(MARKUP) { Mode::Tag } else { Mode::Code };
                        i = e;
                    }
                    None => {
                        sc.put(n, Some(String));
                        i = n;
                    }
                }
            }
            Mode::Raw => {
                let h = usize::from(st.n);
                let mut j = i;
                let mut end = n;
                while j < n {
                    if sc.at(j) == b'"' && (1..=h).all(|k| sc.at(j + k) == b'#') {
                        end = j + 1 + h;
                        st = State::default();
                        break;
                    }
                    j += 1;
                }
                sc.put(end, Some(String));
                i = end;
            }
            Mode::Tag => {
                let b = sc.at(i);
                if b == b'>' {
                    st.mode = Mode::Code;
                    i += 1;
                    sc.put(i, None);
                } else if syn.quotes.contains(&b) {
                    st.mode = Mode::Str(b, false);
                    i += 1;
                } else if is_name(b) {
                    i = run(s, i, is_name);
                    sc.put(i, Some(Property));
                } else {
                    i = next_char(s, i);
                    sc.put(i, None);
                }
            }
            Mode::Code => {
                let b = sc.at(i);
                let prev = if i == 0 { b' ' } else { sc.at(i - 1) };
                let was_def = def;
                if !is_space(b) {
                    def = None;
                }
                let at1 = sc.at(i + 1);
                let (e, class) = if is_space(b) {
                    (run(s, i, is_space), None)
                } else if syn.line.iter().any(|m| starts(s, i, m))
                    && (!has(SPACED) || is_space(prev))
                {
                    (n, Some(Comment))
                } else if starts(s, i, syn.block.0) {
                    st.mode = Mode::Comment;
                    i += syn.block.0.len();
                    continue;
                } else if has(MARKUP) {
                    if b == b'<' && (at1 == b'!' || at1 == b'?') {
                        let e = s.get(i..).and_then(|r| r.iter().position(|&c| c == b'>'));
                        (e.map_or(n, |p| i + p + 1), Some(Meta))
                    } else if b == b'<' && (at1 == b'/' || at1.is_ascii_alphabetic()) {
                        let name = i + 1 + usize::from(at1 == b'/');
                        sc.put(name, None);
                        st.mode = Mode::Tag;
                        (run(s, name, is_name), Some(Tag))
                    } else if b == b'&' {
                        let e = run(s, i + 1, |c| c.is_ascii_alphanumeric() || c == b'#');
                        if e > i + 1 && sc.at(e) == b';' {
                            (e + 1, Some(Literal))
                        } else {
                            (i + 1, None)
                        }
                    } else {
                        (run(s, i + 1, |c| c != b'<' && c != b'&'), None)
                    }
                } else if has(RUST)
                    && b == b'#'
                    && (at1 == b'[' || at1 == b'!' && sc.at(i + 2) == b'[')
                {
                    // An attribute, to its matching `]` (or the line's end).
                    let mut depth = 0u32;
                    let mut e = n;
                    for (j, &c) in s.iter().enumerate().skip(i) {
                        if c == b'[' {
                            depth += 1;
                        } else if c == b']' {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                e = j + 1;
                                break;
                            }
                        }
                    }
                    (e, Some(Meta))
                } else if syn.quotes.contains(&b) && !(b == b'\'' && is_word(f, prev)) {
                    if has(RUST) && b == b'\'' {
                        // A char literal, else a lifetime.
                        if at1 == b'\\' || sc.at(next_char(s, i + 1)) == b'\'' {
                            st.mode = Mode::Str(b, false);
                            i += 1;
                            continue;
                        } else if is_word(f, at1) {
                            (run(s, i + 1, |c| is_word(f, c)), Some(Meta))
                        } else {
                            (i + 1, None)
                        }
                    } else {
                        let triple = has(TRIPLE) && at1 == b && sc.at(i + 2) == b;
                        st.mode = Mode::Str(b, triple);
                        i += if triple { 3 } else { 1 };
                        continue;
                    }
                } else if has(SHELL) && b == b'$' {
                    let e = if at1 == b'{' {
                        let close = s.get(i..).and_then(|r| r.iter().position(|&c| c == b'}'));
                        close.map_or(n, |p| i + p + 1)
                    } else if at1.is_ascii_alphabetic() || at1 == b'_' {
                        run(s, i + 1, |c| c.is_ascii_alphanumeric() || c == b'_')
                    } else if at1.is_ascii_digit() || (at1 != 0 && b"@*#?$!-".contains(&at1)) {
                        i + 2
                    } else {
                        i
                    };
                    if e > i {
                        (e, Some(Variable))
                    } else {
                        cmd = at1 == b'(';
                        (i + 1, None)
                    }
                } else if has(AT_META) && b == b'@' && (at1.is_ascii_alphabetic() || at1 == b'_') {
                    (
                        run(s, i + 1, |c| is_word(f, c) || c == b'.' || c == b'-'),
                        Some(Meta),
                    )
                } else if has(YAML) && b"&*!".contains(&b) && is_space(prev) && at1 > b' ' {
                    let e = run(s, i + 1, |c| c > b' ');
                    (e, Some(if b == b'!' { Meta } else { Variable }))
                } else if has(CSS) && b == b'{' {
                    st.n = st.n.saturating_add(1);
                    (i + 1, None)
                } else if has(CSS) && b == b'}' {
                    st.n = st.n.saturating_sub(1);
                    (i + 1, None)
                } else if has(CSS)
                    && (b == b'#' || b == b'.')
                    && is_word(f, at1)
                    && !(b == b'.' && at1.is_ascii_digit())
                {
                    // `.class` and `#id` selectors; `#fff` in a rule (or an SCSS variable).
                    let e = run(s, i + 1, |c| is_word(f, c));
                    let hex = s.get(i + 1..e).unwrap_or_default();
                    let colour =
                        matches!(hex.len(), 3 | 4 | 6 | 8) && hex.iter().all(u8::is_ascii_hexdigit);
                    let class = match (st.n, b) {
                        (_, b'#') if colour => Some(Number),
                        (0, _) => Some(Type),
                        (_, b'#') => Some(Number),
                        _ => None,
                    };
                    (e, class)
                } else if has(CSS)
                    && ((b == b':' && st.n == 0) || b == b'!')
                    && is_word(f, sc.at(run(s, i + 1, |c| c == b':')))
                {
                    // `:hover`, `::before`; `!important`.
                    let e = run(s, run(s, i + 1, |c| c == b':'), |c| is_word(f, c));
                    (e, Some(if b == b'!' { Keyword } else { Meta }))
                } else if b.is_ascii_digit()
                    || b == b'.' && at1.is_ascii_digit() && !is_word(f, prev)
                {
                    let hex = b == b'0' && matches!(at1, b'x' | b'X');
                    let mut j = i + 1;
                    // Digits, letters (`0xFF`, `1e3`, `10px`, `42u32`), `_`, a `.` before a
                    // digit, an exponent's sign.
                    loop {
                        let c = sc.at(j);
                        let more = c.is_ascii_alphanumeric()
                            || c == b'_'
                            || (c == b'%' && has(CSS))
                            || (c == b'.' && sc.at(j + 1).is_ascii_digit())
                            || (matches!(c, b'+' | b'-')
                                && !hex
                                && matches!(sc.at(j - 1), b'e' | b'E'));
                        if !more {
                            break;
                        }
                        j += 1;
                    }
                    (j, Some(Number))
                } else if is_word(f, b)
                    && (b != b'-' || has(SHELL) || at1 == b'-' || at1.is_ascii_alphabetic())
                {
                    let e = run(s, i, |c| is_word(f, c));
                    let w = s.get(i..e).unwrap_or_default();
                    let next = sc.at(e);
                    if has(RUST) && matches!(w, b"r" | b"br" | b"cr") {
                        let h = run(s, e, |c| c == b'#') - e;
                        if let (b'"', Ok(h8)) = (sc.at(e + h), u8::try_from(h)) {
                            st = State {
                                mode: Mode::Raw,
                                n: h8,
                            };
                            i = e + h + 1;
                            continue;
                        }
                    }
                    if w.len() <= 2
                        && syn.quotes.contains(&next)
                        && w.iter().all(|c| syn.prefixes.contains(c))
                    {
                        let triple = has(TRIPLE) && sc.at(e + 1) == next && sc.at(e + 2) == next;
                        st.mode = Mode::Str(next, triple);
                        i = e + if triple { 3 } else { 1 };
                        continue;
                    }
                    let mut e = e;
                    let class = if has(SHELL) {
                        if next == b'=' && prev != b'=' {
                            Some(Variable)
                        } else if listed(syn.keywords, w, false) {
                            cmd = listed(
                                "do elif else exec function if then time until while",
                                w,
                                false,
                            );
                            Some(Keyword)
                        } else if cmd && prev != b'=' && b != b'-' {
                            cmd = false;
                            Some(Function)
                        } else {
                            if prev != b'=' {
                                cmd = false;
                            }
                            None
                        }
                    } else if has(CSS)
                        && ((st.n > 0 && sc.at(run(s, e, is_space)) == b':')
                            || (next == b':' && matches!(sc.at(e + 1), b' ' | b'\t' | 0)))
                    {
                        // `color: red`; at the top level `$var: 1` and `max-width: 600px`.
                        Some(Property)
                    } else if has(CSS) && st.n == 0 {
                        Some(Tag)
                    } else if was_def.is_some() {
                        was_def
                    } else if listed(syn.keywords, w, nocase) {
                        // The name after `fn` is a function's, after `class` a type's.
                        if listed("def fn fun func function", w, false) {
                            def = Some(Function);
                        } else if listed("class enum interface struct trait type", w, false) {
                            def = Some(Type);
                        }
                        Some(Keyword)
                    } else if listed(syn.literals, w, nocase) {
                        Some(Literal)
                    } else if listed(syn.types, w, nocase) {
                        Some(Type)
                    } else if has(RUST) && next == b'!' && sc.at(e + 1) != b'=' {
                        e += 1;
                        Some(Function)
                    } else if next == b'(' {
                        Some(Function)
                    } else if has(CAPS) && w.first().is_some_and(u8::is_ascii_uppercase) {
                        if w.len() > 1 && !w.iter().any(u8::is_ascii_lowercase) {
                            Some(Literal)
                        } else {
                            Some(Type)
                        }
                    } else {
                        None
                    };
                    (e, class)
                } else if syn.ops.contains(&b) {
                    if has(SHELL) && b"|&;".contains(&b) {
                        cmd = true;
                    }
                    (i + 1, Some(Operator))
                } else {
                    if has(SHELL) && b"({`".contains(&b) {
                        cmd = true;
                    }
                    (next_char(s, i), None)
                };
                sc.put(e, class);
                i = e;
            }
        }
    }
    // Strings that cannot span lines end with theirs.
    if let Mode::Str(q, triple) = st.mode {
        if !triple && q != b'`' && !has(MULTILINE) {
            st.mode = if has(MARKUP) { Mode::Tag } else { Mode::Code };
        }
    }
    st
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::highlight::tables::{syntax, ALIASES};

    fn tokenise_old(syn: &Syntax, state: State, text: &str, first: bool) -> (Vec<Span>, State) {
        let mut cut = text.len().min(MAX_LINE_BYTES);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut sc = Scan {
            s: text.as_bytes().get(..cut).unwrap_or_default(),
            spans: Vec::new(),
            done: 0,
        };
        let state = scan_old(syn, state, &mut sc, first);
        sc.put(text.len(), None);
        let mut spans = sc.spans;
        if matches!(spans.as_slice(), [Span { class: None, .. }]) {
            spans.clear();
        }
        (spans, state)
    }

    /// Pieces the generated blocks are made of: every byte some mode or family looks at.
    const PIECES: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\n",
        "\n",
        "\r",
        "a",
        "x",
        "Foo",
        "ALL_CAPS",
        "_v",
        "é",
        "日本",
        "fn",
        "def",
        "class",
        "struct",
        "let",
        "select",
        "SELECT",
        "true",
        "None",
        "int",
        "null",
        "if",
        "then",
        "do",
        "exec",
        "r",
        "br",
        "b",
        "f",
        "u8",
        "$",
        "@",
        "#",
        "##",
        "#!",
        "#![",
        "#[",
        "]",
        "[",
        "{",
        "}",
        "(",
        ")",
        "<",
        ">",
        "</",
        "<!",
        "<?",
        "&amp;",
        "&",
        ";",
        ":",
        "::",
        ": ",
        "=",
        "==",
        "!",
        "!=",
        "-",
        "--",
        "---",
        "...",
        "+",
        "+++ ",
        "@@",
        "*",
        "/",
        "//",
        "/*",
        "*/",
        "<!--",
        "-->",
        "\"",
        "\"\"\"",
        "'",
        "'''",
        "`",
        "\\",
        "\\\"",
        "'a",
        "'\\n'",
        "'x'",
        "r#\"",
        "\"#",
        "0",
        "0x1F",
        "1e-3",
        "10px",
        ".5",
        "42u32",
        "50%",
        "#fff",
        ".cls",
        ":hover",
        "!important",
        "${HOME}",
        "$1",
        "$?",
        "$(",
        "|",
        "&&",
        "key: ",
        "- ",
        "[table]",
        "k = ",
        "~",
        ",",
        ".",
        "%",
    ];

    /// A xorshift generator: the same blocks on every run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn the_scanner_gives_what_the_long_function_gave() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut lines = 0;
        for (lang, _) in ALIASES {
            let syn = syntax(*lang);
            for _ in 0..1000 {
                let len = rng.below(60);
                let block: String = (0..len).map(|_| PIECES[rng.below(PIECES.len())]).collect();
                let (mut old_state, mut new_state) = (State::default(), State::default());
                for (k, line) in block.split('\n').enumerate() {
                    let old = tokenise_old(syn, old_state, line, k == 0);
                    let new = tokenise(syn, new_state, line, k == 0);
                    assert_eq!(new, old, "{lang:?}, line {k} of {block:?}");
                    (old_state, new_state) = (old.1, new.1);
                    lines += 1;
                }
            }
        }
        assert!(lines > 25_000, "{lines} lines");
    }
}
