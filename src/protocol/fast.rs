//! The fast path for the events a stream is mostly made of — `TEXT_MESSAGE_CONTENT`,
//! `REASONING_MESSAGE_CONTENT`, `TOOL_CALL_ARGS` — decoded straight from the frame into the
//! typed event, with no intermediate `serde_json::Value` (a map per event, a hash per key).
//!
//! It only takes a frame the general path would turn into exactly the same event *without a
//! warning*: one flat object holding `type`, the id and `delta` as strings (in any order) and
//! optionally an integer `timestamp`. Anything else — another field (`rawEvent`, `metadata`,
//! `subagentRunId`, an unknown one), a duplicate key, a string the JSON rules refuse (a lone
//! surrogate escape, a control character), a non-string value, trailing bytes — is left to the
//! general path (`None`), which decides, warns or fails as it always does. `tests/protocol/fast_path.rs`
//! checks the two agree on every frame it takes.

use super::event::{Delta, Event, EventKind, ToolCallArgs};

// The general path's `timestamp` rule: ±(2^53 − 1).
use super::enforce::MAX_SAFE;

/// The typed event for `data`, when it is one of the fast path's frames.
pub fn decode(data: &str) -> Option<Event> {
    let mut p = Scan {
        s: data,
        b: data.as_bytes(),
        at: 0,
    };
    p.ws();
    p.byte(b'{')?;
    let (mut ty, mut id, mut delta, mut timestamp) = (None, None, None, None);
    p.ws();
    if p.peek() == Some(b'}') {
        return None;
    }
    loop {
        p.ws();
        let key = p.raw_string()?;
        p.ws();
        p.byte(b':')?;
        p.ws();
        // Each key once: a duplicate, like any other key, is the general path's to judge.
        match key {
            // Borrowed: the type is matched, never kept.
            "type" if ty.is_none() => ty = Some(p.raw_string()?),
            // One id, and the one the type names (checked below).
            "messageId" | "toolCallId" if id.is_none() => id = Some((key, p.string()?)),
            "delta" if delta.is_none() => delta = Some(p.string()?),
            "timestamp" if timestamp.is_none() => timestamp = Some(p.int()?),
            _ => return None,
        }
        p.ws();
        if !p.sep()? {
            break;
        }
    }
    p.ws();
    if p.at != p.b.len() {
        return None;
    }
    let (id_key, id) = id?;
    let delta = delta?;
    let kind = match (ty?, id_key) {
        ("TEXT_MESSAGE_CONTENT", "messageId") => EventKind::TextMessageContent(Delta {
            message_id: id,
            delta,
        }),
        ("REASONING_MESSAGE_CONTENT", "messageId") => EventKind::ReasoningMessageContent(Delta {
            message_id: id,
            delta,
        }),
        ("TOOL_CALL_ARGS", "toolCallId") => EventKind::ToolCallArgs(ToolCallArgs {
            tool_call_id: id,
            delta,
        }),
        _ => return None,
    };
    Some(Event {
        kind,
        timestamp,
        raw_event: None,
        metadata: None,
        subagent_run_id: None,
    })
}

struct Scan<'a> {
    s: &'a str,
    b: &'a [u8],
    at: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn byte(&mut self, want: u8) -> Option<()> {
        (self.peek()? == want).then(|| self.at += 1)
    }

    /// `,` → true (another member), `}` → false (the end).
    fn sep(&mut self) -> Option<bool> {
        let c = self.peek()?;
        self.at += 1;
        match c {
            b',' => Some(true),
            b'}' => Some(false),
            _ => None,
        }
    }

    /// The extent of a string token (quotes included) and whether it has escapes; `None` for a
    /// raw control character or no closing quote.
    fn token(&mut self) -> Option<(usize, usize, bool)> {
        let start = self.at;
        self.byte(b'"')?;
        let mut escaped = false;
        loop {
            self.skip_plain();
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some((start, self.at, escaped));
                }
                b'\\' => {
                    escaped = true;
                    self.at += 2;
                }
                c if c < 0x20 => return None,
                _ => self.at += 1,
            }
        }
    }

    /// Past the bytes a string token holds as they are (not `"`, `\\`, a control character),
    /// eight at a time: the word holds none of them when no byte of it is below 0x20 or
    /// equal to either.
    fn skip_plain(&mut self) {
        const LO: u64 = 0x0101_0101_0101_0101;
        const HI: u64 = 0x8080_8080_8080_8080;
        let has_zero = |w: u64| w.wrapping_sub(LO) & !w & HI;
        while let Some(chunk) = self.b.get(self.at..self.at + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let w = u64::from_le_bytes(word);
            // Bytes ≥ 0x80 (UTF-8) never match; below 0x20 ⇔ `w & 0xE0…` is zero.
            let special = has_zero(w ^ (LO * u64::from(b'"')))
                | has_zero(w ^ (LO * u64::from(b'\\')))
                | has_zero(w & (LO * 0xE0));
            if special != 0 {
                return;
            }
            self.at += 8;
        }
    }

    /// A key: only escape-free ones (every key this path takes is plain).
    fn raw_string(&mut self) -> Option<&'a str> {
        let (s, e, escaped) = self.token()?;
        if escaped {
            return None;
        }
        // Quotes are ASCII: both ends are character boundaries.
        self.s.get(s + 1..e - 1)
    }

    /// A string value, unescaped by serde_json's own rules (which refuse what the general
    /// path would have to repair).
    fn string(&mut self) -> Option<String> {
        let (s, e, escaped) = self.token()?;
        let token = self.s.get(s..e)?;
        let inner = token.get(1..token.len() - 1)?;
        if !escaped {
            return Some(inner.to_owned());
        }
        // The short escapes here (tool arguments are JSON inside a string: `\"` everywhere);
        // `\u` and anything else by serde_json's rules.
        let mut out = String::with_capacity(inner.len());
        let mut rest = inner;
        while let Some(i) = rest.find('\\') {
            out.push_str(rest.get(..i)?);
            let c = match rest.as_bytes().get(i + 1)? {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'n' => '\n',
                b't' => '\t',
                b'r' => '\r',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                _ => return serde_json::from_str(token).ok(),
            };
            out.push(c);
            rest = rest.get(i + 2..)?;
        }
        out.push_str(rest);
        Some(out)
    }

    /// An integer in ±(2^53 − 1), in JSON's syntax (no leading zeros, no fraction or exponent).
    fn int(&mut self) -> Option<i64> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let n = self.at - digits;
        if n == 0 || n > 16 || (n > 1 && self.b.get(digits) == Some(&b'0')) {
            return None;
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let v: i64 = std::str::from_utf8(self.b.get(start..self.at)?)
            .ok()?
            .parse()
            .ok()?;
        (v.unsigned_abs() <= MAX_SAFE).then_some(v)
    }
}
