//! The page's commands: typing `/` at the start of the composer opens a list of them
//! ([`crate::plugins::Plugins::command`], the `commands` option), filtered as the person
//! types; picking one fills the composer with its prompt, or sends it. Pure: reading the
//! option, what the typed text asks for, and which commands match.

use serde_json::Value;

/// At most this many commands.
pub const MAX_COMMANDS: usize = 100;
/// A command's name is cut at this many characters; its description too, at
/// [`MAX_DESCRIPTION_CHARS`]; its prompt at [`MAX_PROMPT_CHARS`].
pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 200;
pub const MAX_PROMPT_CHARS: usize = 8_000;
/// The list shows at most this many matches.
pub const MAX_SHOWN: usize = 20;

/// A command of the page: `/name` picks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// What is typed after `/` (no spaces).
    pub name: String,
    pub description: String,
    /// What the composer gets.
    pub prompt: String,
    /// Send the prompt at once instead of filling the composer with it.
    pub send: bool,
}

impl Command {
    /// A command, its fields cut to their budgets (`None`: a name that cannot be typed — empty
    /// or with white space — or an empty prompt).
    pub fn new(name: &str, description: &str, prompt: &str, send: bool) -> Option<Self> {
        let name = cut(name.trim().trim_start_matches('/'), MAX_NAME_CHARS);
        let prompt = cut(prompt, MAX_PROMPT_CHARS);
        if name.is_empty() || name.chars().any(char::is_whitespace) || prompt.trim().is_empty() {
            return None;
        }
        Some(Command {
            name,
            description: cut(description.trim(), MAX_DESCRIPTION_CHARS),
            prompt,
            send,
        })
    }
}

fn cut(s: &str, chars: usize) -> String {
    match s.char_indices().nth(chars) {
        Some((i, _)) => s[..i].to_owned(),
        None => s.to_owned(),
    }
}

/// The commands in the `commands` option: an array of `{name, description, prompt, send}`.
/// Entries that cannot be used are skipped; a name seen before too; at most [`MAX_COMMANDS`].
/// The second value counts the entries skipped.
pub fn from_value(value: &Value) -> (Vec<Command>, usize) {
    let Some(items) = value.as_array() else {
        return (Vec::new(), 1);
    };
    let mut out: Vec<Command> = Vec::new();
    let mut skipped = 0;
    for item in items {
        let text = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or_default();
        let command = Command::new(
            text("name"),
            text("description"),
            text("prompt"),
            item.get("send").and_then(Value::as_bool).unwrap_or(false),
        )
        .filter(|c| !out.iter().any(|o| o.name.eq_ignore_ascii_case(&c.name)));
        match command {
            Some(c) if out.len() < MAX_COMMANDS => out.push(c),
            _ => skipped += 1,
        }
    }
    (out, skipped)
}

/// What the person is typing after a `/` at the very start of the composer (`Some("")` for
/// `/` alone); `None` when the text is not a command being typed (no `/` first, or a space
/// or line after the name).
pub fn query(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('/')?;
    (!rest.chars().any(char::is_whitespace)).then_some(rest)
}

/// The commands that match `query`, best first: names that start with it, then names that
/// contain it, then descriptions that do (ASCII case ignored: full Unicode case folding would
/// bring its tables into the lean widget's first bytes), each group in the page's order; at
/// most [`MAX_SHOWN`]. Indexes into `commands`.
pub fn matching(commands: &[Command], query: &str) -> Vec<usize> {
    let q = query.to_ascii_lowercase();
    let rank = |c: &Command| {
        let name = c.name.to_ascii_lowercase();
        if name.starts_with(&q) {
            Some(0)
        } else if name.contains(&q) {
            Some(1)
        } else if c.description.to_ascii_lowercase().contains(&q) {
            Some(2)
        } else {
            None
        }
    };
    let mut ranked: Vec<(u8, usize)> = commands
        .iter()
        .enumerate()
        .filter_map(|(i, c)| rank(c).map(|r| (r, i)))
        .collect();
    ranked.sort();
    ranked.into_iter().take(MAX_SHOWN).map(|(_, i)| i).collect()
}

/// The option after `at` moved by ↓ (`down`) or ↑ in a list of `len`, wrapping around.
pub fn move_active(len: usize, at: usize, down: bool) -> usize {
    match (len, down) {
        (0, _) => 0,
        (_, true) => (at + 1) % len,
        (_, false) => (at + len - 1) % len,
    }
}
