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
    let mut sc = Scan {
        s: text.as_bytes().get(..cut).unwrap_or_default(),
        spans: Vec::new(),
        done: 0,
    };
    let state = scan(syn, state, &mut sc, first);
    sc.put(text.len(), None);
    let mut spans = sc.spans;
    if matches!(spans.as_slice(), [Span { class: None, .. }]) {
        spans.clear();
    }
    (spans, state)
}

/// The scanner: one forward pass over `sc.s`.
fn scan(syn: &Syntax, mut st: State, sc: &mut Scan, first: bool) -> State {
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
