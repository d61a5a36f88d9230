//! The code mode of the scanner: one token at a time, its family found by trying each in a
//! fixed order (pulldown-cmark's `html.rs::run` shape: a dispatcher with short arms). The other
//! modes (comments, strings, tags) are in `scan.rs`.

use super::line::Class;
use super::scan::{is_name, is_space, is_word, next_char, run, starts, Mode, Scanner, State};
use super::tables::{
    listed, AT_META, CAPS, CSS, MARKUP, NOCASE, RUST, SHELL, SPACED, TRIPLE, YAML,
};

/// What one token of the code mode came to.
enum Step {
    /// The token ends at this byte and has this class.
    Token(usize, Option<Class>),
    /// A comment or string opened (the state's mode says which): its body starts at this byte.
    Open(usize),
}

impl Scanner<'_> {
    /// One token of code.
    pub(super) fn code(&mut self, i: usize) -> usize {
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
}
