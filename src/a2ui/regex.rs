//! A small, bounded regular-expression engine for the catalogue's `regex` check.
//!
//! Patterns compile to a Thompson NFA that is simulated over the input with a set of states
//! (no backtracking), so matching costs at most `program length × input length` steps —
//! `(a*)*b` against 10,000 `a`s is linear. Budgets: [`MAX_PATTERN_CHARS`],
//! [`MAX_PROGRAM`] instructions after `{m,n}` expansion, [`MAX_REPEAT`] per counted
//! repetition, [`MAX_GROUP_DEPTH`] nested groups, [`MAX_STEPS`] per match.
//!
//! Syntax (the common subset of JavaScript `RegExp`, which the spec's renderers use):
//! literals, `.`, classes `[a-z]` `[^…]`, `\d \D \w \W \s \S`, `\b \B`, anchors `^ $`,
//! `* + ?` and `{m}` `{m,}` `{m,n}` (a trailing lazy `?` is accepted: it does not change
//! whether a string matches), alternation `|`, groups `(…)` `(?:…)`, escapes `\n \t \r \uXXXX`.
//! Everything else (back-references, look-around, named groups, flags) is an error.
//! `test` semantics: the pattern may match anywhere unless anchored.

use std::fmt;

pub const MAX_PATTERN_CHARS: usize = 512;
pub const MAX_PROGRAM: usize = 4_096;
pub const MAX_REPEAT: u32 = 1_000;
pub const MAX_GROUP_DEPTH: usize = 32;
pub const MAX_STEPS: usize = 4_000_000;

/// Why a pattern was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegexErrorKind {
    TooLong,
    TooComplex,
    TooDeep,
    Unsupported,
    Unbalanced,
    NothingToRepeat,
    BadRepeat,
    BadClass,
    BadEscape,
    /// Matching would exceed [`MAX_STEPS`].
    StepBudget,
}

impl fmt::Display for RegexErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Empty,
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    Start,
    End,
    WordBoundary(bool),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

#[derive(Debug, Clone, Copy)]
enum Inst {
    Char(char),
    Any,
    /// Index into the class table.
    Class(usize),
    Start,
    End,
    WordBoundary(bool),
    Split(usize, usize),
    Jmp(usize),
    Match,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Regex {
    prog: Vec<Inst>,
    classes: Vec<(Vec<(char, char)>, bool)>,
}

/// Where parsing failed and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegexError {
    /// Character offset into the pattern.
    pub offset: usize,
    pub kind: RegexErrorKind,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];

impl Parser {
    fn err(&self, kind: RegexErrorKind) -> RegexError {
        RegexError {
            offset: self.pos,
            kind,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn alternation(&mut self) -> Result<Node, RegexError> {
        let mut alts = vec![self.concat()?];
        while self.eat('|') {
            alts.push(self.concat()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn concat(&mut self) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(Node::Concat(items))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let s: String = self.chars.get(start..self.pos)?.iter().collect();
        s.parse().ok()
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, RegexError> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                let save = self.pos;
                self.pos += 1;
                let Some(min) = self.number() else {
                    // A `{` that starts no quantifier is a literal in JavaScript; keep it
                    // simple and strict instead.
                    self.pos = save;
                    return Err(self.err(RegexErrorKind::BadRepeat));
                };
                let max = if self.eat(',') {
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.number().ok_or(self.err(RegexErrorKind::BadRepeat))?)
                    }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') {
                    return Err(self.err(RegexErrorKind::BadRepeat));
                }
                if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT || m < min) {
                    return Err(self.err(RegexErrorKind::BadRepeat));
                }
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.pos += 1;
        if matches!(atom, Node::Start | Node::End | Node::WordBoundary(_)) {
            return Err(self.err(RegexErrorKind::NothingToRepeat));
        }
        self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return Err(self.err(RegexErrorKind::NothingToRepeat));
        }
        Ok(Node::Repeat(Box::new(atom), min, max))
    }

    fn atom(&mut self) -> Result<Node, RegexError> {
        let Some(c) = self.peek() else {
            return Err(self.err(RegexErrorKind::Unbalanced));
        };
        self.pos += 1;
        Ok(match c {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '*' | '+' | '?' | '{' => {
                self.pos -= 1;
                return Err(self.err(RegexErrorKind::NothingToRepeat));
            }
            '}' | ']' => Node::Char(c),
            '(' => {
                if self.eat('?') && !self.eat(':') {
                    return Err(self.err(RegexErrorKind::Unsupported));
                }
                self.depth += 1;
                if self.depth > MAX_GROUP_DEPTH {
                    return Err(self.err(RegexErrorKind::TooDeep));
                }
                let inner = self.alternation()?;
                self.depth -= 1;
                if !self.eat(')') {
                    return Err(self.err(RegexErrorKind::Unbalanced));
                }
                inner
            }
            '[' => self.class()?,
            '\\' => self.escape(false)?,
            c => Node::Char(c),
        })
    }

    /// After a backslash. Inside a class, `\b` is a backspace and assertions are refused.
    fn escape(&mut self, in_class: bool) -> Result<Node, RegexError> {
        let Some(c) = self.peek() else {
            return Err(self.err(RegexErrorKind::BadEscape));
        };
        self.pos += 1;
        Ok(match c {
            'd' => Node::Class(DIGIT.to_vec(), false),
            'D' => Node::Class(DIGIT.to_vec(), true),
            'w' => Node::Class(WORD.to_vec(), false),
            'W' => Node::Class(WORD.to_vec(), true),
            's' => Node::Class(SPACE.to_vec(), false),
            'S' => Node::Class(SPACE.to_vec(), true),
            'b' if in_class => Node::Char('\u{8}'),
            'b' => Node::WordBoundary(true),
            'B' if !in_class => Node::WordBoundary(false),
            'n' => Node::Char('\n'),
            't' => Node::Char('\t'),
            'r' => Node::Char('\r'),
            'f' => Node::Char('\u{c}'),
            'v' => Node::Char('\u{b}'),
            '0' => Node::Char('\0'),
            'u' => {
                let hex: String = self
                    .chars
                    .get(self.pos..self.pos + 4)
                    .unwrap_or(&[])
                    .iter()
                    .collect();
                let ch = u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 4)
                    .and_then(char::from_u32)
                    .ok_or(self.err(RegexErrorKind::BadEscape))?;
                self.pos += 4;
                Node::Char(ch)
            }
            c if c.is_ascii_punctuation() => Node::Char(c),
            _ => {
                self.pos -= 1;
                return Err(self.err(RegexErrorKind::Unsupported));
            }
        })
    }

    fn class(&mut self) -> Result<Node, RegexError> {
        let negated = self.eat('^');
        let mut ranges: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(RegexErrorKind::BadClass));
            };
            if c == ']' && !first {
                self.pos += 1;
                break;
            }
            first = false;
            self.pos += 1;
            let lo = if c == '\\' {
                match self.escape(true)? {
                    Node::Char(ch) => ch,
                    Node::Class(set, false) => {
                        ranges.extend(set);
                        continue;
                    }
                    // `[\D]`, `[\W]`, `[\S]`: a negated set inside a set.
                    Node::Class(set, true) => {
                        ranges.extend(complement(&set));
                        continue;
                    }
                    _ => return Err(self.err(RegexErrorKind::BadClass)),
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']') {
                self.pos += 1;
                let Some(hc) = self.peek() else {
                    return Err(self.err(RegexErrorKind::BadClass));
                };
                self.pos += 1;
                let hi = if hc == '\\' {
                    match self.escape(true)? {
                        Node::Char(ch) => ch,
                        _ => return Err(self.err(RegexErrorKind::BadClass)),
                    }
                } else {
                    hc
                };
                if hi < lo {
                    return Err(self.err(RegexErrorKind::BadClass));
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Node::Class(ranges, negated))
    }
}

fn complement(set: &[(char, char)]) -> Vec<(char, char)> {
    let mut sorted = set.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut next = '\0';
    for (lo, hi) in sorted {
        if lo > next {
            if let Some(end) = char::from_u32(lo as u32 - 1) {
                out.push((next, end));
            }
        }
        if hi >= next {
            next = match hi {
                '\u{d7ff}' => '\u{e000}',
                _ => char::from_u32(hi as u32 + 1).unwrap_or(char::MAX),
            };
        }
    }
    if next < char::MAX {
        out.push((next, char::MAX));
    }
    out
}

struct Compiler {
    prog: Vec<Inst>,
    classes: Vec<(Vec<(char, char)>, bool)>,
}

impl Compiler {
    fn push(&mut self, i: Inst) -> Result<usize, RegexErrorKind> {
        if self.prog.len() >= MAX_PROGRAM {
            return Err(RegexErrorKind::TooComplex);
        }
        self.prog.push(i);
        Ok(self.prog.len() - 1)
    }

    fn patch(&mut self, at: usize, i: Inst) {
        if let Some(slot) = self.prog.get_mut(at) {
            *slot = i;
        }
    }

    fn emit(&mut self, n: &Node) -> Result<(), RegexErrorKind> {
        match n {
            Node::Empty => {}
            Node::Char(c) => {
                self.push(Inst::Char(*c))?;
            }
            Node::Any => {
                self.push(Inst::Any)?;
            }
            Node::Class(r, neg) => {
                self.classes.push((r.clone(), *neg));
                self.push(Inst::Class(self.classes.len() - 1))?;
            }
            Node::Start => {
                self.push(Inst::Start)?;
            }
            Node::End => {
                self.push(Inst::End)?;
            }
            Node::WordBoundary(b) => {
                self.push(Inst::WordBoundary(*b))?;
            }
            Node::Concat(items) => {
                for i in items {
                    self.emit(i)?;
                }
            }
            Node::Alt(alts) => {
                let mut jumps = Vec::new();
                let last = alts.len().saturating_sub(1);
                for (k, a) in alts.iter().enumerate() {
                    if k == last {
                        self.emit(a)?;
                    } else {
                        let split = self.push(Inst::Jmp(0))?;
                        self.emit(a)?;
                        jumps.push(self.push(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.patch(split, Inst::Split(split + 1, next));
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.patch(j, Inst::Jmp(end));
                }
            }
            Node::Repeat(inner, min, max) => {
                for _ in 0..*min {
                    self.emit(inner)?;
                }
                match max {
                    None => {
                        let split = self.push(Inst::Jmp(0))?;
                        self.emit(inner)?;
                        self.push(Inst::Jmp(split))?;
                        let end = self.prog.len();
                        self.patch(split, Inst::Split(split + 1, end));
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.push(Inst::Jmp(0))?);
                            self.emit(inner)?;
                        }
                        let end = self.prog.len();
                        for s in splits {
                            self.patch(s, Inst::Split(s + 1, end));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Regex {
    /// Compiles `pattern`; refuses what the engine does not support or cannot bound.
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        let chars: Vec<char> = pattern.chars().collect();
        if chars.len() > MAX_PATTERN_CHARS {
            return Err(RegexError {
                offset: MAX_PATTERN_CHARS,
                kind: RegexErrorKind::TooLong,
            });
        }
        let mut p = Parser {
            chars,
            pos: 0,
            depth: 0,
        };
        let ast = p.alternation()?;
        if p.pos < p.chars.len() {
            return Err(p.err(RegexErrorKind::Unbalanced));
        }
        let mut c = Compiler {
            prog: Vec::new(),
            classes: Vec::new(),
        };
        let tail = c.emit(&ast).and_then(|_| c.push(Inst::Match));
        tail.map_err(|kind| RegexError { offset: 0, kind })?;
        Ok(Regex {
            prog: c.prog,
            classes: c.classes,
        })
    }

    fn class_has(&self, k: usize, ch: char) -> bool {
        self.classes.get(k).is_some_and(|(ranges, neg)| {
            ranges.iter().any(|&(lo, hi)| lo <= ch && ch <= hi) != *neg
        })
    }

    /// Adds `pc` and everything reachable from it by empty moves to `list`.
    fn add(
        &self,
        list: &mut Vec<usize>,
        seen: &mut [bool],
        pc: usize,
        prev: Option<char>,
        cur: Option<char>,
        at_start: bool,
    ) -> bool {
        let mut stack = vec![pc];
        let mut matched = false;
        while let Some(pc) = stack.pop() {
            let Some(slot) = seen.get_mut(pc) else {
                continue;
            };
            if *slot {
                continue;
            }
            *slot = true;
            match self.prog.get(pc) {
                Some(Inst::Jmp(t)) => stack.push(*t),
                Some(Inst::Split(a, b)) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Some(Inst::Start) if at_start => stack.push(pc + 1),
                Some(Inst::End) if cur.is_none() => stack.push(pc + 1),
                Some(Inst::WordBoundary(want)) if (is_word(prev) != is_word(cur)) == *want => {
                    stack.push(pc + 1)
                }
                Some(Inst::Match) => matched = true,
                Some(Inst::Char(_) | Inst::Any | Inst::Class(_)) => list.push(pc),
                _ => {}
            }
        }
        matched
    }

    /// Whether the pattern matches anywhere in `text` (JavaScript `RegExp.test`).
    pub fn is_match(&self, text: &str) -> Result<bool, RegexErrorKind> {
        let n = self.prog.len();
        let mut clist: Vec<usize> = Vec::new();
        let mut nlist: Vec<usize> = Vec::new();
        let mut seen = vec![false; n];
        let mut steps = 0usize;
        let mut prev: Option<char> = None;
        let mut chars = text.chars().peekable();
        let mut at_start = true;
        loop {
            let cur = chars.peek().copied();
            // A new attempt may start at every position (unanchored search).
            if self.add(&mut clist, &mut seen, 0, prev, cur, at_start) {
                return Ok(true);
            }
            let Some(ch) = cur else { return Ok(false) };
            chars.next();
            let next = chars.peek().copied();
            seen.iter_mut().for_each(|s| *s = false);
            steps += clist.len() + n / 8 + 1;
            if steps > MAX_STEPS {
                return Err(RegexErrorKind::StepBudget);
            }
            for &pc in &clist {
                let ok = match self.prog.get(pc) {
                    Some(Inst::Char(c)) => *c == ch,
                    Some(Inst::Any) => {
                        ch != '\n' && ch != '\r' && ch != '\u{2028}' && ch != '\u{2029}'
                    }
                    Some(Inst::Class(k)) => self.class_has(*k, ch),
                    _ => false,
                };
                if ok && self.add(&mut nlist, &mut seen, pc + 1, Some(ch), next, false) {
                    return Ok(true);
                }
            }
            std::mem::swap(&mut clist, &mut nlist);
            nlist.clear();
            prev = Some(ch);
            at_start = false;
        }
    }
}
