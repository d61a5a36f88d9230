//! Incremental, best-effort JSON (RFC 8259) for streaming tool-call arguments.
//!
//! AG-UI streams a tool call's JSON arguments as text fragments
//! (`TOOL_CALL_ARGS.delta`), and the UI shows the arguments while they stream.
//! This module owns turning that growing text into a [`serde_json::Value`]
//! that is always "the best value so far": fields appear as they arrive and an
//! in-progress string value grows in place.
//!
//! # Complexity
//!
//! The reference client re-parses the whole buffer on every delta, which is
//! quadratic in the length of the arguments. [`PartialJson`] never re-reads
//! an earlier byte: it is an explicit state machine with an explicit stack,
//! and it builds the value tree in place. Feeding a fragment costs
//! O(fragment) amortised, plus O(depth) to reach the innermost open container
//! (at most [`MAX_DEPTH`]). Total work is linear in the bytes fed. The only
//! re-read is the text of a number, which is converted once it ends.
//!
//! Between pushes the tree is fully assembled, so [`PartialJson::value`] hands
//! out a reference and never copies anything. During a push, the chain of open
//! containers is lifted out of the tree onto the stack and put back at the
//! end. This is O(depth) and lets the parser reach a container and its parent
//! in O(1) without any re-navigation.
//!
//! Nothing here panics or recurses on the nesting depth of the input. Dropping
//! a `Value` does recurse inside serde_json, and [`MAX_DEPTH`] bounds that.
//!
//! # Best-effort semantics
//!
//! * A string value appears as soon as its opening quote arrives, and grows as
//!   its text arrives: `{"city":"Lis` → `{"city":"Lis"}`.
//! * A key is inserted only once its value has started: `{"city":` → `{}`.
//! * Numbers, `true`, `false` and `null` appear only once complete. A number
//!   is complete once a character that cannot continue it arrives:
//!   `{"n": 12` → `{}`, `{"n": 12,` → `{"n":12}`.
//! * An open container appears as soon as its bracket arrives: `[{"a":` →
//!   `[{}]`.
//! * Escapes are decoded, including UTF-16 surrogate pairs. An unfinished
//!   escape at the end of the input is held back. So is a high surrogate that
//!   may still be followed by its low half. A lone surrogate becomes U+FFFD
//!   and is never an error, because JavaScript producers may slice strings
//!   between UTF-16 code units.
//! * Raw control characters inside strings are accepted, which is more lenient
//!   than RFC 8259.
//! * Duplicate keys: the last one wins, as in serde_json. The re-defined entry
//!   moves to the end of the object, where it is built (see
//!   [`PartialJson::push`]).
//! * Once the input can no longer be valid JSON, [`PartialJson::error`] reports
//!   why, the value keeps its last best-effort state, and further input is
//!   ignored.
//!
//! The result never depends on how the text was split into fragments.

use serde_json::{map::Entry, Map, Number, Value};

/// The deepest nesting of arrays and objects accepted. Opening container
/// number `MAX_DEPTH + 1` is a [`PartialJsonError::TooDeep`] error.
pub const MAX_DEPTH: usize = 128;

/// Why the input can no longer be valid JSON. Offsets are byte offsets into
/// the concatenation of all fragments fed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PartialJsonError {
    /// A character that cannot appear here.
    #[error("unexpected {found:?} at byte {offset}")]
    Unexpected {
        /// Byte offset of `found`.
        offset: usize,
        /// The offending character.
        found: char,
    },
    /// A number literal that is malformed (`01`, `1.`, `-`, `1e`, `1.2.3`) or
    /// does not fit in an `f64` (`1e400`).
    #[error("invalid number starting at byte {offset}")]
    InvalidNumber {
        /// Byte offset of the number's first character.
        offset: usize,
    },
    /// Arrays and objects nested deeper than `limit`.
    #[error("nesting deeper than {limit} levels at byte {offset}")]
    TooDeep {
        /// Byte offset of the bracket that went too deep.
        offset: usize,
        /// The limit, [`MAX_DEPTH`].
        limit: usize,
    },
    /// Something other than whitespace after a complete top-level value.
    #[error("trailing data at byte {offset} after a complete JSON value")]
    TrailingData {
        /// Byte offset of the first character after the value that is not whitespace.
        offset: usize,
    },
    /// [`PartialJson::finish`] was called before the value was complete.
    #[error("input ended at byte {offset} before the JSON value was complete")]
    UnexpectedEnd {
        /// Total bytes fed.
        offset: usize,
    },
}

impl PartialJsonError {
    /// Byte offset the error refers to.
    #[must_use]
    pub fn offset(&self) -> usize {
        match *self {
            Self::Unexpected { offset, .. }
            | Self::InvalidNumber { offset }
            | Self::TooDeep { offset, .. }
            | Self::TrailingData { offset }
            | Self::UnexpectedEnd { offset } => offset,
        }
    }
}

/// Best-effort parse of a whole text that may be incomplete. Equivalent to one
/// [`PartialJson::push`] followed by [`PartialJson::value`]. Invalid input
/// yields the best-effort value up to the error.
#[must_use]
pub fn parse_partial(text: &str) -> Option<Value> {
    let mut parser = PartialJson::new();
    parser.push(text);
    parser.into_value()
}

/// Where the parser is in the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Expecting a value: at the top level, after `:`, or after `,` in an array.
    Value,
    /// After `[`: a value or `]`.
    ArrayStart,
    /// After `{`: a key or `}`.
    ObjectStart,
    /// After `,` in an object: a key.
    ObjectKey,
    /// Inside a key string.
    Key,
    /// After a key: expecting `:`.
    Colon,
    /// Inside a string value.
    StringValue,
    /// Inside a number literal.
    Number(Num),
    /// Inside `true`, `false` or `null`; `usize` bytes matched so far.
    Literal(Lit, usize),
    /// After a value inside a container: `,` or the closing bracket.
    AfterValue,
    /// A complete top-level value has been read; only whitespace may follow.
    Done,
}

/// States of the number-literal automaton (RFC 8259 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpInt,
}

impl Num {
    /// First character of a number, if `b` can start one.
    fn start(b: u8) -> Option<Self> {
        match b {
            b'-' => Some(Self::Minus),
            b'0' => Some(Self::Zero),
            b'1'..=b'9' => Some(Self::Int),
            _ => None,
        }
    }

    /// Transition on a number byte; `None` if the literal became invalid.
    fn step(self, b: u8) -> Option<Self> {
        let digit = b.is_ascii_digit();
        let exp = b == b'e' || b == b'E';
        match self {
            Self::Minus if b == b'0' => Some(Self::Zero),
            Self::Minus if digit => Some(Self::Int),
            Self::Int if digit => Some(Self::Int),
            Self::Zero | Self::Int if b == b'.' => Some(Self::Dot),
            Self::Zero | Self::Int | Self::Frac if exp => Some(Self::Exp),
            Self::Dot | Self::Frac if digit => Some(Self::Frac),
            Self::Exp if b == b'+' || b == b'-' => Some(Self::ExpSign),
            Self::Exp | Self::ExpSign | Self::ExpInt if digit => Some(Self::ExpInt),
            _ => None,
        }
    }

    fn is_accepting(self) -> bool {
        matches!(self, Self::Zero | Self::Int | Self::Frac | Self::ExpInt)
    }

    fn is_integer(self) -> bool {
        matches!(self, Self::Zero | Self::Int)
    }
}

/// Bytes that may continue a number literal. Any other byte ends it.
fn is_number_byte(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lit {
    True,
    False,
    Null,
}

impl Lit {
    fn word(self) -> &'static [u8] {
        match self {
            Self::True => b"true",
            Self::False => b"false",
            Self::Null => b"null",
        }
    }

    fn value(self) -> Value {
        match self {
            Self::True => Value::Bool(true),
            Self::False => Value::Bool(false),
            Self::Null => Value::Null,
        }
    }
}

/// Escape sub-state inside a string (key or value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// Plain text.
    None,
    /// After `\`.
    Backslash,
    /// Inside `\uXXXX`, with `digits` hex digits read so far. `high` is a
    /// preceding high surrogate waiting for this escape as its low half.
    Unicode {
        high: Option<u16>,
        digits: u8,
        acc: u16,
    },
    /// A decoded high surrogate waiting to see whether `\u` + low follows.
    High(u16),
    /// A high surrogate followed by `\`.
    HighBackslash(u16),
}

/// How a scan of string content ended.
enum Scan {
    /// The fragment ran out inside the string.
    Pending,
    /// The closing quote was read; continue at this index.
    Closed(usize),
    /// Invalid escape byte at this index.
    Invalid(usize),
}

const REPLACEMENT: char = '\u{FFFD}';

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn hex_value(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some(u16::from(b - b'0')),
        b'a'..=b'f' => Some(u16::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u16::from(b - b'A' + 10)),
        _ => None,
    }
}

fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

fn is_low_surrogate(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// Decode one UTF-16 code unit from a `\u` escape that is not the low half of
/// a pair. Returns the next escape state.
fn decode_unit(unit: u16, out: &mut String) -> Esc {
    if is_high_surrogate(unit) {
        Esc::High(unit)
    } else {
        // A lone low surrogate has no `char`, so it becomes U+FFFD.
        out.push(char::from_u32(u32::from(unit)).unwrap_or(REPLACEMENT));
        Esc::None
    }
}

fn combine_surrogates(high: u16, low: u16) -> char {
    let code = 0x1_0000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
    char::from_u32(code).unwrap_or(REPLACEMENT)
}

/// Decode string content from `text[i..]` into `out` until the closing quote
/// or the end of the fragment. `esc` carries escape state across fragments.
fn scan_string(
    text: &str,
    mut i: usize,
    esc: &mut Esc,
    out: &mut String,
    scanned: &mut usize,
) -> Scan {
    let bytes = text.as_bytes();
    loop {
        match *esc {
            Esc::None => {
                let Some(rest) = bytes.get(i..) else {
                    return Scan::Pending;
                };
                // `"` and `\` are ASCII, so they are always char boundaries and
                // the slices below are valid `str` ranges.
                match rest.iter().position(|&b| b == b'"' || b == b'\\') {
                    None => {
                        out.push_str(text.get(i..).unwrap_or_default());
                        *scanned += rest.len();
                        return Scan::Pending;
                    }
                    Some(p) => {
                        let j = i + p;
                        out.push_str(text.get(i..j).unwrap_or_default());
                        *scanned += p + 1;
                        if rest.get(p) == Some(&b'"') {
                            return Scan::Closed(j + 1);
                        }
                        *esc = Esc::Backslash;
                        i = j + 1;
                    }
                }
            }
            Esc::Backslash => {
                let Some(&b) = bytes.get(i) else {
                    return Scan::Pending;
                };
                *scanned += 1;
                let c = match b {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        *esc = Esc::Unicode {
                            high: None,
                            digits: 0,
                            acc: 0,
                        };
                        i += 1;
                        continue;
                    }
                    _ => return Scan::Invalid(i),
                };
                out.push(c);
                *esc = Esc::None;
                i += 1;
            }
            Esc::Unicode { high, digits, acc } => {
                let Some(&b) = bytes.get(i) else {
                    return Scan::Pending;
                };
                *scanned += 1;
                let Some(d) = hex_value(b) else {
                    return Scan::Invalid(i);
                };
                i += 1;
                let acc = (acc << 4) | d;
                if digits < 3 {
                    *esc = Esc::Unicode {
                        high,
                        digits: digits + 1,
                        acc,
                    };
                    continue;
                }
                if let Some(h) = high {
                    if is_low_surrogate(acc) {
                        out.push(combine_surrogates(h, acc));
                        *esc = Esc::None;
                        continue;
                    }
                    // The high surrogate was lone; this unit stands on its own.
                    out.push(REPLACEMENT);
                }
                *esc = decode_unit(acc, out);
            }
            Esc::High(h) => {
                let Some(&b) = bytes.get(i) else {
                    // Its low half may still arrive: hold it back.
                    return Scan::Pending;
                };
                if b == b'\\' {
                    *scanned += 1;
                    i += 1;
                    *esc = Esc::HighBackslash(h);
                } else {
                    // Lone high surrogate; `b` is read again as plain text.
                    out.push(REPLACEMENT);
                    *esc = Esc::None;
                }
            }
            Esc::HighBackslash(h) => {
                let Some(&b) = bytes.get(i) else {
                    return Scan::Pending;
                };
                if b == b'u' {
                    *scanned += 1;
                    i += 1;
                    *esc = Esc::Unicode {
                        high: Some(h),
                        digits: 0,
                        acc: 0,
                    };
                } else {
                    // Lone high surrogate; `b` is read again as an escape.
                    out.push(REPLACEMENT);
                    *esc = Esc::Backslash;
                }
            }
        }
    }
}

/// Convert a complete, syntactically valid number literal. Integers become
/// `i64`/`u64` when they fit and `f64` otherwise, as in serde_json (which also
/// reads `-0` as the float `-0.0`). `None` if it does not fit in an `f64`.
fn parse_number(token: &str, integer: bool) -> Option<Number> {
    if integer {
        if token.starts_with('-') {
            if let Ok(v) = token.parse::<i64>() {
                return if v == 0 {
                    Number::from_f64(-0.0)
                } else {
                    Some(Number::from(v))
                };
            }
        } else if let Ok(v) = token.parse::<u64>() {
            return Some(Number::from(v));
        }
    }
    token.parse::<f64>().ok().and_then(Number::from_f64)
}

/// The value a container is building right now: its last entry.
fn last_child_mut(container: &mut Value) -> Option<&mut Value> {
    match container {
        Value::Object(map) => map.values_mut().next_back(),
        Value::Array(items) => items.last_mut(),
        _ => None,
    }
}

/// The character starting at byte `i` of `text`, for error reports.
fn char_at(text: &str, i: usize) -> char {
    text.get(i..)
        .and_then(|s| s.chars().next())
        .unwrap_or(REPLACEMENT)
}

/// Incremental best-effort JSON parser. See the [module docs](self).
///
/// ```text
/// let mut args = PartialJson::new();
/// args.push(r#"{"city":"Lis"#);
/// assert_eq!(args.value(), Some(&json!({"city": "Lis"})));
/// args.push(r#"bon","days":3}"#);
/// assert_eq!(args.value(), Some(&json!({"city": "Lisbon", "days": 3})));
/// assert!(args.is_complete());
/// ```
#[derive(Debug, Clone)]
pub struct PartialJson {
    /// The value tree. Between pushes it is complete; during a push the open
    /// containers are lifted out onto `spine`.
    root: Option<Value>,
    /// Number of open arrays and objects.
    open: usize,
    /// During a push: the open containers, outermost first. Each one's slot in
    /// its parent (always the parent's last entry) holds a `Null` placeholder.
    /// Empty between pushes.
    spine: Vec<Value>,
    state: State,
    /// Escape state of the current string.
    esc: Esc,
    /// The current object key: in progress, or read and waiting for its value.
    key: String,
    /// Text of the number in progress.
    token: String,
    /// Byte offset where the number in progress starts.
    token_start: usize,
    /// Total bytes fed.
    len: usize,
    /// Bytes examined by the state machine, counting re-reads.
    scanned: usize,
    /// Container moves to lift out and put back the open containers.
    tree_steps: usize,
    error: Option<PartialJsonError>,
}

impl Default for PartialJson {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialJson {
    /// An empty parser.
    #[must_use]
    pub fn new() -> Self {
        Self {
            root: None,
            open: 0,
            spine: Vec::new(),
            state: State::Value,
            esc: Esc::None,
            key: String::new(),
            token: String::new(),
            token_start: 0,
            len: 0,
            scanned: 0,
            tree_steps: 0,
            error: None,
        }
    }

    /// Feed the next fragment. Costs O(fragment) amortised, plus O(depth) to
    /// reach the innermost open container. Fragments may split the text
    /// anywhere, for example inside a `\u` escape, a number or a key. After an
    /// error, fragments are only counted in [`len`](Self::len).
    ///
    /// Containers and strings are built in place as the last entry of their
    /// parent. A duplicate key is therefore removed and re-inserted at the end
    /// (`swap_remove`, O(1)), so the object's former last entry takes its old
    /// position.
    pub fn push(&mut self, fragment: &str) {
        self.len = self.len.saturating_add(fragment.len());
        if self.error.is_some() || fragment.is_empty() {
            return;
        }
        let base = self.len - fragment.len();
        self.detach();
        let result = self.run(fragment, base);
        self.reattach();
        if let Err(error) = result {
            self.error = Some(error);
        }
    }

    /// Signal that no more input will come. A top-level number pending at the
    /// end (`42`) is completed; if the value is still incomplete, this records
    /// [`PartialJsonError::UnexpectedEnd`]. Later non-whitespace input is
    /// [`PartialJsonError::TrailingData`].
    pub fn finish(&mut self) {
        if self.error.is_some() {
            return;
        }
        let result = match self.state {
            State::Done => Ok(()),
            State::Number(_) if self.open == 0 => self.end_number(),
            _ => Err(PartialJsonError::UnexpectedEnd { offset: self.len }),
        };
        if let Err(error) = result {
            self.error = Some(error);
        }
    }

    /// Best-effort value of everything fed so far. `None` until a value has
    /// started (only whitespace fed, or a scalar not yet complete). A top-level
    /// string shows as `""` once its opening quote has arrived.
    #[must_use]
    pub fn value(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    /// Take the best-effort value.
    #[must_use]
    pub fn into_value(self) -> Option<Value> {
        self.root
    }

    /// `true` once a complete top-level value has been read, followed by
    /// whitespace only. `false` after any error, including trailing data.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.state == State::Done && self.error.is_none()
    }

    /// `Some` once the input can no longer be valid JSON. [`value`](Self::value)
    /// then keeps the best-effort value from just before the error.
    #[must_use]
    pub fn error(&self) -> Option<&PartialJsonError> {
        self.error.as_ref()
    }

    /// Total bytes fed, including any ignored after an error.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if no bytes have been fed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Start over, as if newly created.
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// Bytes examined by the state machine so far, counting re-reads (a
    /// number's text is read again to convert it). Used to check that the
    /// work stays linear.
    #[doc(hidden)]
    pub fn bytes_scanned(&self) -> usize {
        self.scanned
    }

    /// Container moves made so far to lift out and put back the open
    /// containers. At most twice the depth per push.
    #[doc(hidden)]
    pub fn tree_steps(&self) -> usize {
        self.tree_steps
    }

    /// Lift the open containers out of the tree onto `spine`. Each one leaves
    /// a `Null` placeholder in its parent's last entry. O(depth).
    fn detach(&mut self) {
        if self.open == 0 {
            return;
        }
        let Some(mut current) = self.root.take() else {
            return;
        };
        for _ in 1..self.open {
            self.tree_steps += 1;
            let child = last_child_mut(&mut current).map(std::mem::take);
            self.spine.push(current);
            match child {
                Some(child) => current = child,
                // Not reachable while the invariants hold. Recover by treating
                // the containers found so far as all the open ones.
                None => {
                    self.open = self.spine.len();
                    return;
                }
            }
        }
        self.tree_steps += 1;
        self.spine.push(current);
    }

    /// Put the containers on `spine` back into the tree. O(depth).
    fn reattach(&mut self) {
        while let Some(child) = self.spine.pop() {
            self.tree_steps += 1;
            match self.spine.last_mut() {
                Some(parent) => {
                    if let Some(slot) = last_child_mut(parent) {
                        *slot = child;
                    }
                }
                None => self.root = Some(child),
            }
        }
    }

    /// Run the state machine over one fragment. `base` is the offset of its
    /// first byte.
    fn run(&mut self, text: &str, base: usize) -> Result<(), PartialJsonError> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            match self.state {
                State::Key | State::StringValue => {
                    let is_key = self.state == State::Key;
                    let mut sink = String::new();
                    let out = if is_key {
                        &mut self.key
                    } else {
                        let slot = match self.spine.last_mut() {
                            Some(container) => last_child_mut(container),
                            None => self.root.as_mut(),
                        };
                        match slot {
                            Some(Value::String(s)) => s,
                            // Not reachable while the invariants hold.
                            _ => &mut sink,
                        }
                    };
                    match scan_string(text, i, &mut self.esc, out, &mut self.scanned) {
                        Scan::Pending => i = bytes.len(),
                        Scan::Closed(next) => {
                            i = next;
                            if is_key {
                                self.state = State::Colon;
                            } else {
                                self.value_done();
                            }
                        }
                        Scan::Invalid(at) => {
                            return Err(PartialJsonError::Unexpected {
                                offset: base + at,
                                found: char_at(text, at),
                            })
                        }
                    }
                }
                State::Number(num) => {
                    if is_number_byte(b) {
                        self.scanned += 1;
                        let Some(next) = num.step(b) else {
                            return Err(PartialJsonError::InvalidNumber {
                                offset: self.token_start,
                            });
                        };
                        self.state = State::Number(next);
                        self.token.push(char::from(b));
                        i += 1;
                    } else {
                        // `b` ends the number and is read again in the next state.
                        self.end_number()?;
                    }
                }
                State::Literal(lit, matched) => {
                    self.scanned += 1;
                    let word = lit.word();
                    if word.get(matched) != Some(&b) {
                        return Err(PartialJsonError::Unexpected {
                            offset: base + i,
                            found: char_at(text, i),
                        });
                    }
                    i += 1;
                    if matched + 1 == word.len() {
                        self.insert_child(lit.value());
                        self.value_done();
                    } else {
                        self.state = State::Literal(lit, matched + 1);
                    }
                }
                _ => {
                    self.scanned += 1;
                    self.structural(b, base + i)
                        .map_err(|kind| kind.into_error(text, base, i))?;
                    i += 1;
                }
            }
        }
        Ok(())
    }

    /// One byte outside strings, numbers and literals.
    fn structural(&mut self, b: u8, offset: usize) -> Result<(), Fail> {
        if is_ws(b) {
            return Ok(());
        }
        match self.state {
            State::Value => self.start_value(b, offset),
            State::ArrayStart if b == b']' => {
                self.close();
                Ok(())
            }
            State::ArrayStart => self.start_value(b, offset),
            State::ObjectStart | State::ObjectKey if b == b'"' => {
                self.key.clear();
                self.esc = Esc::None;
                self.state = State::Key;
                Ok(())
            }
            State::ObjectStart if b == b'}' => {
                self.close();
                Ok(())
            }
            State::Colon if b == b':' => {
                self.state = State::Value;
                Ok(())
            }
            State::AfterValue => {
                let in_object = matches!(self.spine.last(), Some(Value::Object(_)));
                match b {
                    b',' if in_object => self.state = State::ObjectKey,
                    b',' => self.state = State::Value,
                    b'}' if in_object => self.close(),
                    b']' if !in_object => self.close(),
                    _ => return Err(Fail::Unexpected),
                }
                Ok(())
            }
            State::Done => Err(Fail::Trailing),
            State::ObjectStart
            | State::ObjectKey
            | State::Colon
            | State::Key
            | State::StringValue
            | State::Number(_)
            | State::Literal(..) => Err(Fail::Unexpected),
        }
    }

    /// The first byte of a value.
    fn start_value(&mut self, b: u8, offset: usize) -> Result<(), Fail> {
        match b {
            b'{' => {
                self.open(Value::Object(Map::new()))?;
                self.state = State::ObjectStart;
            }
            b'[' => {
                self.open(Value::Array(Vec::new()))?;
                self.state = State::ArrayStart;
            }
            b'"' => {
                self.insert_child(Value::String(String::new()));
                self.esc = Esc::None;
                self.state = State::StringValue;
            }
            b't' => self.state = State::Literal(Lit::True, 1),
            b'f' => self.state = State::Literal(Lit::False, 1),
            b'n' => self.state = State::Literal(Lit::Null, 1),
            _ => {
                let num = Num::start(b).ok_or(Fail::Unexpected)?;
                self.token.clear();
                self.token.push(char::from(b));
                self.token_start = offset;
                self.state = State::Number(num);
            }
        }
        Ok(())
    }

    /// Open an array or object (passed empty) inside the current container.
    fn open(&mut self, container: Value) -> Result<(), Fail> {
        if self.open >= MAX_DEPTH {
            return Err(Fail::TooDeep);
        }
        if !self.spine.is_empty() {
            self.insert_child(Value::Null);
        }
        self.spine.push(container);
        self.open += 1;
        Ok(())
    }

    /// Close the innermost container and put it into its parent's placeholder.
    fn close(&mut self) {
        let Some(child) = self.spine.pop() else {
            return;
        };
        self.open = self.open.saturating_sub(1);
        match self.spine.last_mut() {
            Some(parent) => {
                if let Some(slot) = last_child_mut(parent) {
                    *slot = child;
                }
                self.state = State::AfterValue;
            }
            None => {
                self.root = Some(child);
                self.state = State::Done;
            }
        }
    }

    /// Convert and insert the number that just ended.
    fn end_number(&mut self) -> Result<(), PartialJsonError> {
        let State::Number(num) = self.state else {
            return Ok(());
        };
        let invalid = PartialJsonError::InvalidNumber {
            offset: self.token_start,
        };
        if !num.is_accepting() {
            return Err(invalid);
        }
        self.scanned += self.token.len();
        let number = parse_number(&self.token, num.is_integer()).ok_or(invalid)?;
        self.insert_child(Value::Number(number));
        self.value_done();
        Ok(())
    }

    /// Add a value to the current container (under the pending key for an
    /// object) or make it the root.
    fn insert_child(&mut self, value: Value) {
        match self.spine.last_mut() {
            None => self.root = Some(value),
            Some(Value::Array(items)) => items.push(value),
            Some(Value::Object(map)) => match map.entry(std::mem::take(&mut self.key)) {
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                Entry::Occupied(entry) => {
                    // Last wins, and the entry moves to the end where the
                    // parser builds values.
                    let (key, _) = entry.swap_remove_entry();
                    map.insert(key, value);
                }
            },
            Some(_) => {}
        }
    }

    /// A value just ended.
    fn value_done(&mut self) {
        self.state = if self.spine.is_empty() {
            State::Done
        } else {
            State::AfterValue
        };
    }
}

/// A structural error before its offset and character are attached.
enum Fail {
    Unexpected,
    Trailing,
    TooDeep,
}

impl Fail {
    fn into_error(self, text: &str, base: usize, i: usize) -> PartialJsonError {
        let offset = base + i;
        match self {
            Self::Unexpected => PartialJsonError::Unexpected {
                offset,
                found: char_at(text, i),
            },
            Self::Trailing => PartialJsonError::TrailingData { offset },
            Self::TooDeep => PartialJsonError::TooDeep {
                offset,
                limit: MAX_DEPTH,
            },
        }
    }
}
