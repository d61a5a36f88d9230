//! The script builder: AG-UI events encoded as SSE, each with the delay before it, then cut
//! into network-shaped chunks.
//!
//! Everything random comes from a small deterministic generator seeded from the run id, so a
//! request always produces the same bytes and the same timing.

use serde_json::{json, Value};

use crate::session::TimedChunk;

/// One piece of the response body and how long to wait before delivering it.
pub type DemoChunk = TimedChunk;

/// The longest wait before one chunk.
pub const MAX_DELAY_MS: u32 = 1500;

/// SplitMix64: tiny, deterministic, good enough to vary timing and chunking.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded from `seed` text (FNV-1a of its bytes).
    pub fn from_text(seed: &str) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi` (`lo` when the range is empty).
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        let span = u64::from(hi - lo) + 1;
        lo + u32::try_from(self.next_u64() % span).unwrap_or(0)
    }

    /// A number in `lo..=hi` for sizes.
    pub fn range_usize(&mut self, lo: usize, hi: usize) -> usize {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        lo + usize::try_from(self.next_u64() % span).unwrap_or(0)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.range(0, 99) < percent
    }
}

/// How text is streamed: words per delta and the wait between deltas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// Assistant text: 1–4 words every 25–60 ms.
    Text,
    /// Reasoning: 1–4 words every 12–30 ms, a short pause at paragraph breaks.
    Reasoning,
    /// Long answers: 3–8 words every 15–35 ms.
    Fast,
}

impl Pace {
    fn words(self) -> (usize, usize) {
        match self {
            Pace::Text | Pace::Reasoning => (1, 4),
            Pace::Fast => (3, 8),
        }
    }

    fn delay(self) -> (u32, u32) {
        match self {
            Pace::Text => (25, 60),
            Pace::Reasoning => (12, 30),
            Pace::Fast => (15, 35),
        }
    }
}

/// Split `text` into words, each keeping the whitespace that follows it (leading whitespace
/// stays with the first word), so the words concatenate back to `text` exactly.
pub fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev_space = false;
    for (i, c) in text.char_indices() {
        let space = c.is_whitespace();
        if !space && prev_space && i > start {
            if let Some(w) = text.get(start..i) {
                if !w.trim().is_empty() {
                    out.push(w);
                    start = i;
                }
            }
        }
        prev_space = space;
    }
    if let Some(w) = text.get(start..) {
        if !w.is_empty() {
            out.push(w);
        }
    }
    out
}

/// Split `text` into pieces of `lo..=hi` characters (never inside a character).
fn char_pieces<'t>(text: &'t str, rng: &mut Rng, lo: usize, hi: usize) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let n = rng.range_usize(lo, hi);
        let cut = rest.char_indices().nth(n).map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at_checked(cut).unwrap_or((rest, ""));
        out.push(piece);
        rest = tail;
    }
    out
}

/// One encoded SSE message (an event or a comment) and the wait before it.
#[derive(Debug, Clone)]
struct Frame {
    delay_ms: u32,
    bytes: Vec<u8>,
}

/// Builds one scripted run.
#[derive(Debug)]
pub struct Script {
    pub thread_id: String,
    pub run_id: String,
    pub rng: Rng,
    frames: Vec<Frame>,
    /// Extra wait added before the next frame (a "tool running" pause, thinking time).
    pending_pause: u32,
    next_id: u32,
}

impl Script {
    pub fn new(thread_id: &str, run_id: &str) -> Self {
        Script {
            thread_id: thread_id.to_owned(),
            run_id: run_id.to_owned(),
            rng: Rng::from_text(run_id),
            frames: Vec::new(),
            pending_pause: 0,
            next_id: 0,
        }
    }

    /// A fresh id, unique within this run: `<prefix>-<runId>-<n>`.
    pub fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}-{}-{}", self.run_id, self.next_id)
    }

    /// Wait `lo..=hi` ms more before the next frame.
    pub fn pause(&mut self, lo: u32, hi: u32) {
        let ms = self.rng.range(lo, hi);
        self.pending_pause = self.pending_pause.saturating_add(ms);
    }

    /// Emit one event `delay_ms` after the previous frame (plus any pending pause).
    pub fn event(&mut self, delay_ms: u32, event: Value) {
        let delay_ms = delay_ms
            .saturating_add(std::mem::take(&mut self.pending_pause))
            .min(MAX_DELAY_MS);
        self.frames.push(Frame {
            delay_ms,
            bytes: format!("data: {event}\n\n").into_bytes(),
        });
    }

    /// Emit an event after a random wait in `lo..=hi` ms.
    pub fn event_after(&mut self, lo: u32, hi: u32, event: Value) {
        let d = self.rng.range(lo, hi);
        self.event(d, event);
    }

    /// An SSE comment (keep-alive), which carries no event.
    pub fn comment(&mut self, delay_ms: u32, text: &str) {
        let delay_ms = delay_ms
            .saturating_add(std::mem::take(&mut self.pending_pause))
            .min(MAX_DELAY_MS);
        self.frames.push(Frame {
            delay_ms,
            bytes: format!(": {text}\n\n").into_bytes(),
        });
    }

    // ----- lifecycle ---------------------------------------------------------------------

    /// `RUN_STARTED`, after a time-to-first-byte of 120–350 ms.
    pub fn run_started(&mut self) {
        let ev = json!({
            "type": "RUN_STARTED",
            "threadId": self.thread_id,
            "runId": self.run_id,
            "protocolVersion": "1.1",
        });
        self.event_after(120, 350, ev);
    }

    /// `RUN_FINISHED` with an optional outcome.
    pub fn run_finished(&mut self, outcome: Option<Value>) {
        let mut ev = json!({
            "type": "RUN_FINISHED",
            "threadId": self.thread_id,
            "runId": self.run_id,
        });
        if let (Some(outcome), Some(obj)) = (outcome, ev.as_object_mut()) {
            obj.insert("outcome".into(), outcome);
        }
        self.event_after(40, 120, ev);
    }

    /// `RUN_FINISHED` carrying `result` (what an MCP middleware answers a proxied request with).
    pub fn run_result(&mut self, result: Value) {
        self.event_after(
            40,
            120,
            json!({
                "type": "RUN_FINISHED",
                "threadId": self.thread_id,
                "runId": self.run_id,
                "result": result,
            }),
        );
    }

    /// `RUN_FINISHED` with `outcome: {type: "success"}`.
    pub fn run_success(&mut self) {
        self.run_finished(Some(json!({"type": "success"})));
    }

    pub fn run_error(&mut self, message: &str, code: &str) {
        self.event_after(
            200,
            450,
            json!({"type": "RUN_ERROR", "message": message, "code": code}),
        );
    }

    pub fn step_started(&mut self, name: &str) {
        self.event_after(30, 80, json!({"type": "STEP_STARTED", "stepName": name}));
    }

    pub fn step_finished(&mut self, name: &str) {
        self.event_after(30, 80, json!({"type": "STEP_FINISHED", "stepName": name}));
    }

    // ----- text and reasoning ------------------------------------------------------------

    /// Stream `text` as deltas of `message_id` at `pace` (the message must be open).
    pub fn stream_deltas(&mut self, event_type: &str, message_id: &str, text: &str, pace: Pace) {
        let all = words(text);
        let (wlo, whi) = pace.words();
        let (dlo, dhi) = pace.delay();
        let mut rest = all.as_slice();
        while !rest.is_empty() {
            let n = self.rng.range_usize(wlo, whi).min(rest.len());
            let (head, tail) = rest.split_at_checked(n).unwrap_or((rest, &[]));
            rest = tail;
            let delta: String = head.concat();
            let ev = json!({"type": event_type, "messageId": message_id, "delta": delta});
            self.event_after(dlo, dhi, ev);
            if pace == Pace::Reasoning && delta.contains("\n\n") {
                self.pause(150, 350);
            }
        }
    }

    pub fn text_start(&mut self) -> String {
        let id = self.id("msg");
        let ev = json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"});
        self.event_after(40, 120, ev);
        id
    }

    pub fn text_end(&mut self, message_id: &str) {
        let ev = json!({"type": "TEXT_MESSAGE_END", "messageId": message_id});
        self.event_after(25, 60, ev);
    }

    /// A whole assistant text message streamed at `pace`; returns its id.
    pub fn text(&mut self, text: &str, pace: Pace) -> String {
        let id = self.text_start();
        self.stream_deltas("TEXT_MESSAGE_CONTENT", &id, text, pace);
        self.text_end(&id);
        id
    }

    /// A reasoning span holding one reasoning message with `text`.
    pub fn reasoning(&mut self, text: &str) -> String {
        let span = self.id("think");
        let id = self.id("reasoning");
        self.event_after(
            60,
            140,
            json!({"type": "REASONING_START", "messageId": span}),
        );
        self.event_after(
            20,
            50,
            json!({"type": "REASONING_MESSAGE_START", "messageId": id, "role": "reasoning"}),
        );
        self.stream_deltas("REASONING_MESSAGE_CONTENT", &id, text, Pace::Reasoning);
        self.event_after(
            20,
            50,
            json!({"type": "REASONING_MESSAGE_END", "messageId": id}),
        );
        self.event_after(10, 30, json!({"type": "REASONING_END", "messageId": span}));
        id
    }

    // ----- tools -------------------------------------------------------------------------

    /// A tool call owned by `parent`, its arguments streamed in 5–15 character pieces every
    /// 30–50 ms; returns the tool call id.
    pub fn tool_call(&mut self, name: &str, parent: Option<&str>, args: &Value) -> String {
        let id = self.id(&format!("call-{name}"));
        let mut start = json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name});
        if let (Some(p), Some(obj)) = (parent, start.as_object_mut()) {
            obj.insert("parentMessageId".into(), Value::String(p.to_owned()));
        }
        self.event_after(60, 140, start);
        let text = args.to_string();
        let pieces: Vec<String> = char_pieces(&text, &mut self.rng, 5, 15)
            .into_iter()
            .map(str::to_owned)
            .collect();
        for piece in pieces {
            let ev = json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": piece});
            self.event_after(30, 50, ev);
        }
        self.event_after(20, 50, json!({"type": "TOOL_CALL_END", "toolCallId": id}));
        id
    }

    /// The backend tool runs (300–800 ms, a keep-alive comment in the middle), then its
    /// result arrives as a tool message; returns that message's id.
    pub fn tool_result(&mut self, tool_call_id: &str, content: &str) -> String {
        let total = self.rng.range(300, 800);
        let first = total / 2;
        self.comment(first, "keep-alive");
        let id = self.id("toolmsg");
        self.event(
            total - first,
            json!({
                "type": "TOOL_CALL_RESULT",
                "messageId": id,
                "toolCallId": tool_call_id,
                "content": content,
                "role": "tool",
            }),
        );
        id
    }

    // ----- state, activity, custom -------------------------------------------------------

    pub fn state_snapshot(&mut self, snapshot: Value) {
        self.event_after(
            40,
            100,
            json!({"type": "STATE_SNAPSHOT", "snapshot": snapshot}),
        );
    }

    pub fn state_delta(&mut self, ops: Value) {
        self.event_after(80, 220, json!({"type": "STATE_DELTA", "delta": ops}));
    }

    /// `ACTIVITY_SNAPSHOT` creating an activity message; returns its id.
    pub fn activity_snapshot(&mut self, activity_type: &str, content: Value) -> String {
        let id = self.id("activity");
        self.event_after(
            40,
            100,
            json!({
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": id,
                "activityType": activity_type,
                "content": content,
            }),
        );
        id
    }

    pub fn activity_delta(&mut self, message_id: &str, activity_type: &str, patch: Value) {
        self.event_after(
            60,
            160,
            json!({
                "type": "ACTIVITY_DELTA",
                "messageId": message_id,
                "activityType": activity_type,
                "patch": patch,
            }),
        );
    }

    pub fn custom(&mut self, name: &str, value: Value) {
        self.event_after(
            80,
            200,
            json!({"type": "CUSTOM", "name": name, "value": value}),
        );
    }

    // ----- output ------------------------------------------------------------------------

    /// Cut the frames into network-shaped chunks: mostly one frame per chunk, sometimes a
    /// frame split in two, sometimes the tail of one frame together with the next, sometimes
    /// two whole frames in one chunk. At least one frame is always split.
    pub fn into_chunks(self) -> Vec<DemoChunk> {
        let Script {
            mut rng, frames, ..
        } = self;
        let mut out: Vec<DemoChunk> = Vec::with_capacity(frames.len());
        let mut split_any = false;
        let mut it = frames.into_iter().peekable();
        // Frames that follow closely may travel in one network packet.
        let close = |f: &Frame| f.delay_ms <= 80;
        while let Some(frame) = it.next() {
            let last = it.peek().is_none();
            let next_close = it.peek().is_some_and(close);
            let roll = rng.range(0, 99);
            let len = frame.bytes.len();
            let splittable = len > 16;
            if splittable && (roll < 9 || (last && !split_any)) {
                // One frame over two chunks.
                let cut = rng.range_usize(6, len - 6);
                if let Some((a, b)) = frame.bytes.split_at_checked(cut) {
                    out.push(DemoChunk {
                        delay_ms: frame.delay_ms,
                        bytes: a.to_vec(),
                    });
                    out.push(DemoChunk {
                        delay_ms: rng.range(3, 25),
                        bytes: b.to_vec(),
                    });
                    split_any = true;
                    continue;
                }
            } else if splittable && next_close && roll < 16 {
                // The tail of this frame arrives with the whole next one.
                let cut = rng.range_usize(6, len - 6);
                if let (Some((a, b)), Some(next)) = (frame.bytes.split_at_checked(cut), it.next()) {
                    out.push(DemoChunk {
                        delay_ms: frame.delay_ms,
                        bytes: a.to_vec(),
                    });
                    let mut bytes = b.to_vec();
                    bytes.extend_from_slice(&next.bytes);
                    out.push(DemoChunk {
                        delay_ms: next.delay_ms,
                        bytes,
                    });
                    split_any = true;
                    continue;
                }
            } else if next_close && roll < 26 {
                // Two whole frames in one chunk.
                if let Some(next) = it.next() {
                    let mut bytes = frame.bytes;
                    bytes.extend_from_slice(&next.bytes);
                    out.push(DemoChunk {
                        delay_ms: frame
                            .delay_ms
                            .saturating_add(next.delay_ms)
                            .min(MAX_DELAY_MS),
                        bytes,
                    });
                    continue;
                }
            }
            out.push(DemoChunk {
                delay_ms: frame.delay_ms,
                bytes: frame.bytes,
            });
        }
        if !split_any {
            // Everything travelled whole (or merged): split the last chunk after all.
            if let Some(tail) = out.pop() {
                let len = tail.bytes.len();
                let cut = (len > 16).then(|| rng.range_usize(6, len - 6)).map(|c| {
                    // Not on a frame boundary, or the split would not show.
                    if tail.bytes.get(..c).is_some_and(|a| a.ends_with(b"\n\n")) {
                        c - 1
                    } else {
                        c
                    }
                });
                match cut.and_then(|c| tail.bytes.split_at_checked(c)) {
                    Some((a, b)) => {
                        let second = DemoChunk {
                            delay_ms: rng.range(3, 25),
                            bytes: b.to_vec(),
                        };
                        out.push(DemoChunk {
                            delay_ms: tail.delay_ms,
                            bytes: a.to_vec(),
                        });
                        out.push(second);
                    }
                    None => out.push(tail),
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_concatenate_back() {
        for text in ["", "  a b", "## Head\n\n- one\n- two  ", "x", "a\n\n\nb c "] {
            assert_eq!(words(text).concat(), text);
        }
        assert_eq!(words("a b\n\nc"), vec!["a ", "b\n\n", "c"]);
    }

    #[test]
    fn char_pieces_respect_characters() {
        let mut rng = Rng::from_text("x");
        let text = "{\"max_price\":\"€€€\",\"área\":\"Alfama\"}";
        let pieces = char_pieces(text, &mut rng, 5, 15);
        assert_eq!(pieces.concat(), text);
        assert!(pieces.iter().all(|p| p.chars().count() <= 15));
    }
}
