//! The composer's prompt history: ↑ recalls the person's earlier prompts of the conversation
//! ([`Session::prompts`](crate::session::Session::prompts)), ↓ comes back, past the newest to
//! what was being typed. Pure: which prompt a key lands on and whether the caret lets the key
//! through, so the browser only moves text.

/// Where ↑ (`up`) or ↓ goes from `at` in a history of `len` prompts (`None`: what is being
/// typed; `Some(0)`: the newest prompt). `None` when the key does nothing here (no older
/// prompt; ↓ while typing).
pub fn step(len: usize, at: Option<usize>, up: bool) -> Option<Option<usize>> {
    match (up, at) {
        (true, None) if len > 0 => Some(Some(0)),
        (true, Some(i)) if i + 1 < len => Some(Some(i + 1)),
        (false, Some(0)) => Some(None),
        (false, Some(i)) => Some(Some(i - 1)),
        _ => None,
    }
}

/// The prompt `at` names in `prompts` (oldest first).
pub fn prompt_at(prompts: &[String], at: usize) -> Option<&str> {
    prompts
        .len()
        .checked_sub(at + 1)
        .and_then(|i| prompts.get(i))
        .map(String::as_str)
}

/// Whether the arrow key belongs to the history rather than to the caret: ↑ with the caret
/// on the first line, ↓ on the last (`start` and `end` are the selection's, in UTF-16 code
/// units, as the browser gives them).
pub fn caret_allows(text: &str, start: u32, end: u32, up: bool) -> bool {
    let (before, after) = split_utf16(text, if up { start } else { end });
    if up {
        !before.contains('\n')
    } else {
        !after.contains('\n')
    }
}

/// `text` split at `units` UTF-16 code units (clamped to the text, on a character).
fn split_utf16(text: &str, units: u32) -> (&str, &str) {
    let mut seen = 0u32;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return text.split_at(i);
        }
        seen += c.len_utf16() as u32;
    }
    (text, "")
}

/// A person's message longer than this many characters shows collapsed, with "Show more".
pub const LONG_MESSAGE_CHARS: usize = 1_200;
/// … or with more lines than this.
pub const LONG_MESSAGE_LINES: usize = 12;

/// Whether a person's message shows collapsed at first.
pub fn is_long(text: &str) -> bool {
    text.lines().nth(LONG_MESSAGE_LINES).is_some()
        || text.char_indices().nth(LONG_MESSAGE_CHARS).is_some()
}
