//! The fast path for the events a stream is mostly made of — `TEXT_MESSAGE_CONTENT`,
//! `REASONING_MESSAGE_CONTENT`, `TOOL_CALL_ARGS` — decoded straight from the frame into the
//! typed event, with no intermediate `serde_json::Value` (a map per event, a hash per key).
//!
//! It only takes a frame the general path would turn into exactly the same event *without a
//! warning*: one flat object holding `type`, the id and `delta` as strings (in any order) and
//! optionally an integer `timestamp`. Anything else — another field (`rawEvent`, `metadata`,
//! `subagentRunId`, an unknown one), a duplicate key, a string the JSON rules refuse (a lone
//! surrogate escape, a control character), a non-string value, trailing bytes — is left to the
//! general path (`None`), which decides, warns or fails as it always does. `tests/fast_path.rs`
//! checks the two agree on every frame it takes.

use super::event::{Delta, Event, EventKind, ToolCallArgs};

// The general path's `timestamp` rule: ±(2^53 − 1).
use super::enforce::MAX_SAFE;

/// The typed event for `data`, when it is one of the fast path's frames.
pub fn decode(data: &str) -> Option<Event> {
    let mut p = Scan {
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
        let slot = match key {
            "type" => &mut ty,
            "messageId" | "toolCallId" => {
                // One id, and the one the type names (checked below).
                if id.is_some() {
                    return None;
                }
                id = Some((key, p.string(data)?));
                p.ws();
                if p.sep()? {
                    continue;
                }
                break;
            }
            "delta" => &mut delta,
            "timestamp" => {
                if timestamp.is_some() {
                    return None;
                }
                timestamp = Some(p.int()?);
                p.ws();
                if p.sep()? {
                    continue;
                }
                break;
            }
            _ => return None,
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(p.string(data)?);
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
    let kind = match (ty?.as_str(), id_key) {
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

    /// A key: only escape-free ones (every key this path takes is plain).
    fn raw_string(&mut self) -> Option<&'a str> {
        let (s, e, escaped) = self.token()?;
        if escaped {
            return None;
        }
        std::str::from_utf8(self.b.get(s + 1..e - 1)?).ok()
    }

    /// A string value, unescaped by serde_json's own rules (which refuse what the general
    /// path would have to repair).
    fn string(&mut self, data: &str) -> Option<String> {
        let (s, e, escaped) = self.token()?;
        let token = data.get(s..e)?;
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
