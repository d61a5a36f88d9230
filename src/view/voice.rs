//! Voice: dictation into the composer (the `voice` option) and an answer read aloud. Pure:
//! which mode a page asked for, the budgets, where a transcript goes in the composer's text,
//! the clock of a recording and the text an answer is spoken as — the browser side
//! (`ui/voice.rs`) only records, calls and moves text.

/// How the composer takes dictation (the `voice` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Voice {
    /// No microphone button.
    #[default]
    Off,
    /// Record with `MediaRecorder` and hand the recording to the page's `transcribe` hook.
    Transcribe,
    /// The browser's own speech recognition (`SpeechRecognition`), where it has one.
    Browser,
}

impl Voice {
    /// The option's value: `off` (also empty, `false`, `none`), `transcribe`, `browser`;
    /// `None` for anything else.
    pub fn parse(value: &str) -> Option<Voice> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "off" | "false" | "none" | "no" => Some(Voice::Off),
            "transcribe" => Some(Voice::Transcribe),
            "browser" => Some(Voice::Browser),
            _ => None,
        }
    }
}

/// What dictation says under the composer when it did not simply put text in it (worded by
/// [`crate::wording::voice_note`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceNote {
    /// The person or the browser refused the microphone.
    Denied,
    /// No microphone (or no speech recognition) could be used: the browser's reason.
    NoMicrophone(String),
    /// `voice="transcribe"` without a `transcribe` hook.
    NoHook,
    /// The hook failed (threw, rejected, gave no text): its reason, at most
    /// [`MAX_REASON_CHARS`] characters.
    Failed(String),
    /// The hook gave nothing within [`TRANSCRIBE_TIMEOUT_MS`].
    TimedOut,
    /// Nothing was recorded, or the text was empty.
    Empty,
    /// The text was cut at this many characters (the budget).
    Cut(usize),
}

/// The most characters of a reason (the hook's, the browser's) shown.
pub const MAX_REASON_CHARS: usize = 300;

impl VoiceNote {
    /// A failure of the hook, its reason cut to [`MAX_REASON_CHARS`].
    pub fn failed(reason: &str) -> VoiceNote {
        VoiceNote::Failed(cut(reason, MAX_REASON_CHARS).0.to_owned())
    }

    /// No microphone, the browser's reason cut to [`MAX_REASON_CHARS`].
    pub fn no_microphone(reason: &str) -> VoiceNote {
        VoiceNote::NoMicrophone(cut(reason, MAX_REASON_CHARS).0.to_owned())
    }
}

/// A recording stops by itself after this long (5 minutes).
pub const MAX_RECORDING_MS: u32 = 5 * 60 * 1000;
/// A recording stops by itself when its audio reaches this many bytes (25 MiB: far more than
/// 5 minutes of speech in any codec a browser records with).
pub const MAX_RECORDING_BYTES: f64 = 25.0 * 1024.0 * 1024.0;
/// The page's `transcribe` hook has this long to give the text (60 s).
pub const TRANSCRIBE_TIMEOUT_MS: u32 = 60_000;
/// The most characters one dictation puts into the composer; the rest is cut (with a note).
pub const MAX_TRANSCRIPT_CHARS: usize = 20_000;
/// The most characters of an answer read aloud.
pub const MAX_SPOKEN_CHARS: usize = 20_000;
/// The most characters of the browser's interim (not yet final) words shown while listening.
pub const MAX_INTERIM_CHARS: usize = 300;

/// `text` trimmed and cut to `max` characters; `true` when something was cut.
pub fn cut(text: &str, max: usize) -> (&str, bool) {
    let text = text.trim();
    match text.char_indices().nth(max) {
        Some((i, _)) => (text[..i].trim_end(), true),
        None => (text, false),
    }
}

/// A recording's length as a clock: `0:03`, `4:59`.
pub fn clock(seconds: u32) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// The composer's text with a transcript in it, and where the caret goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inserted {
    pub value: String,
    /// After the transcript (and the space that follows it, if one was added), in UTF-16 code
    /// units, as the browser counts them.
    pub caret: u32,
}

/// `transcript` put into `value` where the selection is (`start`..`end`, UTF-16 code units, as
/// the browser gives them; a selection is replaced): a space before it when the text before
/// ends in a word, one after it when a word follows — none next to punctuation that hugs a
/// word, and none between characters of scripts written without spaces (Japanese, Chinese).
/// The transcript is trimmed; an empty one changes nothing.
pub fn insert(value: &str, start: u32, end: u32, transcript: &str) -> Inserted {
    let (start, end) = (start.min(end), start.max(end));
    let a = byte_at(value, start);
    let b = byte_at(value, end).max(a);
    let (before, after) = (&value[..a], &value[b..]);
    let transcript = transcript.trim();
    if transcript.is_empty() {
        return Inserted {
            value: value.to_owned(),
            caret: utf16_len(before),
        };
    }
    let mut out = String::with_capacity(value.len() + transcript.len() + 2);
    out.push_str(before);
    if let (Some(prev), Some(first)) = (before.chars().next_back(), transcript.chars().next()) {
        if space_between(prev, first) && !OPENING.contains(prev) && !CLOSING.contains(first) {
            out.push(' ');
        }
    }
    out.push_str(transcript);
    if let (Some(last), Some(next)) = (transcript.chars().next_back(), after.chars().next()) {
        if space_between(last, next) && !CLOSING.contains(next) && !OPENING.contains(last) {
            out.push(' ');
        }
    }
    let caret = utf16_len(&out);
    out.push_str(after);
    Inserted { value: out, caret }
}

/// Punctuation written against the word after it (no space after it).
const OPENING: &str = "([{¿¡\"'“‘«/";
/// Punctuation written against the word before it (no space before it).
const CLOSING: &str = ",.;:!?)]}\"'”’»…%";

/// Whether two characters side by side want a space between them: not when either is a
/// space already, nor between characters of scripts written without spaces.
fn space_between(a: char, b: char) -> bool {
    !(a.is_whitespace() || b.is_whitespace() || unspaced(a) || unspaced(b))
}

/// Kana, CJK ideographs, Hangul compatibility aside, and the full-width punctuation around them.
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x30FF      // CJK punctuation, hiragana, katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF00..=0xFFEF    // full-width forms
        | 0x20000..=0x2FFFF) // CJK extensions B…
}

fn utf16_len(text: &str) -> u32 {
    text.encode_utf16().count().min(u32::MAX as usize) as u32
}

/// The byte offset of `units` UTF-16 code units into `text` (clamped to the text; a position
/// inside a character moves past it).
fn byte_at(text: &str, units: u32) -> usize {
    let mut seen = 0u32;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return i;
        }
        seen += c.len_utf16() as u32;
    }
    text.len()
}

/// How far a `[text](url)` is looked for: a link's text and URL longer than this on one line
/// are read as they are.
const LINK_WINDOW: usize = 500;

/// An answer's Markdown as it is read aloud: code fences' lines, the markers of headings,
/// quotes, lists, emphasis and code, table rules and the URLs of links and images are left
/// out (a link reads as its text, an image as its description); at most
/// [`MAX_SPOKEN_CHARS`] characters.
pub fn speakable(markdown: &str) -> String {
    // What is read is bounded: so is what is looked at.
    let markdown = &markdown[..floor_char(markdown, MAX_SPOKEN_CHARS * 8)];
    let mut out = String::new();
    let mut chars = 0usize;
    for line in markdown.lines() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") || is_table_rule(t) {
            continue;
        }
        let t = t.trim_start_matches('>').trim_start();
        let t = match t.trim_start_matches('#') {
            rest if rest.len() < t.len() && (rest.is_empty() || rest.starts_with(' ')) => rest,
            _ => t,
        };
        let t = ["- ", "* ", "+ "]
            .iter()
            .find_map(|m| t.strip_prefix(m))
            .unwrap_or(t);
        // Enough of the line for what is left of the budget (a character is at most 4 bytes).
        let spoken = inline_text(t, (MAX_SPOKEN_CHARS - chars) * 4);
        let spoken = spoken.trim();
        if spoken.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        for c in spoken.chars() {
            if chars >= MAX_SPOKEN_CHARS {
                return out;
            }
            out.push(c);
            chars += 1;
        }
    }
    out
}

/// A table's rule line (`|---|:--:|`).
fn is_table_rule(line: &str) -> bool {
    line.contains('-') && line.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// One line's inline Markdown as text: links and images as their text, code and emphasis
/// markers and table pipes dropped; it stops once it has `max_bytes` bytes.
fn inline_text(line: &str, max_bytes: usize) -> String {
    let mut out = String::with_capacity(line.len().min(max_bytes));
    let mut rest = line;
    while let Some(c) = rest.chars().next().filter(|_| out.len() < max_bytes) {
        let image = c == '!' && rest[1..].starts_with('[');
        if c == '[' || image {
            let open = if image { 2 } else { 1 };
            if let Some((text, after)) = link(&rest[open..]) {
                out.push_str(&inline_text(text, max_bytes));
                rest = after;
                continue;
            }
        }
        match c {
            '`' | '*' | '~' => {}
            '|' => out.push(' '),
            // `__bold__` (a single `_` stays: snake_case reads as written).
            '_' if rest.starts_with("__") => {
                rest = &rest[2..];
                continue;
            }
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// After a link's `[`: its text and what follows `](url)`, when the line has one within
/// [`LINK_WINDOW`] bytes.
fn link(after_open: &str) -> Option<(&str, &str)> {
    let window = &after_open[..floor_char(after_open, LINK_WINDOW)];
    let close = window.find("](")?;
    let text = &after_open[..close];
    if text.contains('[') {
        return None;
    }
    let url_start = close + 2;
    let url_end = window[url_start..].find(')')? + url_start;
    Some((text, &after_open[url_end + 1..]))
}

/// The largest char boundary of `s` at or below `max`.
fn floor_char(s: &str, max: usize) -> usize {
    if max >= s.len() {
        return s.len();
    }
    (0..=max)
        .rev()
        .find(|i| s.is_char_boundary(*i))
        .unwrap_or(0)
}
