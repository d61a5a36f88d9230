//! An answer's sources and its citation markers, as data.
//!
//! **Where sources come from** (docs/answers.md, "Sources and citations"):
//!
//! - AI SDK `source-url` and `source-document` parts: the decoder makes each an activity
//!   message of that `activityType` whose content is the part's fields
//!   ([`crate::protocol::ai_sdk`]);
//! - the AG-UI convention of this client: an activity message of `activityType: "sources"`
//!   ([`SOURCES_ACTIVITY`]) whose content is `{ sources: [{ id?, url, title?, snippet? }] }`;
//! - a `sources` array of the same shape in a message's `metadata`.
//!
//! **Which answer they belong to**: the answer is what follows a user message up to the next
//! one (rows of one subagent apart from the main agent's). Its sources are those of every
//! source activity and every message with `metadata.sources` in it, in transcript order —
//! whether they came before the text or after it, in one step or another. The list shows under
//! the answer's last assistant message; the activities themselves show nothing then. An answer
//! without an assistant message keeps them as activity cards. [`plan`] finds all that from the
//! rows, once per row added (never per text delta).
//!
//! **Numbers**: the n-th source as the agent sent it (counting across the answer) is `[n]` in
//! its text. A URL seen before is not listed again ([`AnswerSources::cite`] maps its number to
//! the first entry); the list numbers its entries 1, 2, … Budgets: [`MAX_SOURCES`] entries,
//! titles cut at [`MAX_TITLE_CHARS`], snippets at [`MAX_SNIPPET_CHARS`].
//!
//! **Links**: a source's URL is a link only when it passes the Markdown links' allow-list
//! ([`SafeUrl::parse_link`]) and is `http(s)` with a host; otherwise it is text.
//!
//! **Markers** ([`pieces`]): in the answer's plain text (never in code, never inside a link),
//! `[n]` and GFM footnote references `[^label]`; the UI turns those that resolve into small
//! links and leaves the rest as written.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::markdown::SafeUrl;
use crate::protocol::types::{Content, Message, Object, Role};
use crate::view::rows::Row;

/// The `activityType` of the AG-UI sources convention.
pub const SOURCES_ACTIVITY: &str = "sources";
/// The AI SDK's source parts, as the decoder names their activities.
pub const SOURCE_URL: &str = "source-url";
pub const SOURCE_DOCUMENT: &str = "source-document";
/// The most sources an answer lists; later ones are not shown.
pub const MAX_SOURCES: usize = 100;
/// The most sources read per answer (duplicates included), to bound the work.
pub const MAX_READ: usize = 1_000;
/// A title (or a URL shown as one) longer than this many characters is cut with `…`.
pub const MAX_TITLE_CHARS: usize = 160;
/// A snippet longer than this many characters is cut with `…`.
pub const MAX_SNIPPET_CHARS: usize = 300;
/// The longest footnote label read as a reference (`[^label]`), in bytes.
pub const MAX_NOTE_LABEL: usize = 64;

/// Where a source points.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// An `http(s)` URL that passed the allow-list, and the host to show (lowercase, without
    /// `www.`).
    Link { url: SafeUrl, host: String },
    /// A URL that did not pass: shown as text, never a link.
    Refused(String),
    /// A document (AI SDK `source-document`): no link.
    Document {
        media_type: Option<String>,
        filename: Option<String>,
    },
}

/// One listed source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Source {
    /// Its number in the list (1-based).
    pub number: usize,
    /// Its title, cut; `None` when it has none.
    pub title: Option<String>,
    pub target: Target,
    pub snippet: Option<String>,
}

impl Source {
    /// What the list shows as its name: the title, else the URL or file name (cut), else
    /// the media type.
    pub fn label(&self) -> String {
        if let Some(t) = &self.title {
            return t.clone();
        }
        match &self.target {
            Target::Link { url, .. } => cut(url.as_str(), MAX_TITLE_CHARS),
            Target::Refused(url) => cut(url, MAX_TITLE_CHARS),
            Target::Document {
                media_type,
                filename,
            } => filename
                .clone()
                .or_else(|| media_type.clone())
                .unwrap_or_default(),
        }
    }

    /// The badge beside the name: the host of a link, a document's media type.
    pub fn badge(&self) -> Option<&str> {
        match &self.target {
            Target::Link { host, .. } => Some(host),
            Target::Refused(_) => None,
            Target::Document { media_type, .. } => media_type.as_deref(),
        }
    }
}

/// The sources of one answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnswerSources {
    pub entries: Vec<Source>,
    /// The n-th source as sent (index n - 1) → its entry (`None`: unreadable or over budget).
    cited: Vec<Option<usize>>,
}

/// One source as a message holds it, before the budgets and the allow-list.
#[derive(Debug, Clone, PartialEq)]
struct Raw<'a> {
    url: Option<&'a str>,
    title: Option<&'a str>,
    snippet: Option<&'a str>,
    document: Option<(Option<&'a str>, Option<&'a str>, Option<&'a str>)>,
}

fn str_of<'a>(o: &'a Object, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

/// Whether a message holds sources: a source activity or `metadata.sources`.
pub fn has_sources(m: &Message) -> bool {
    is_source_activity(m)
        || m.metadata
            .as_ref()
            .is_some_and(|md| matches!(md.get("sources"), Some(Value::Array(a)) if !a.is_empty()))
}

/// Whether a message is a source activity (`source-url`, `source-document`, `sources`).
pub fn is_source_activity(m: &Message) -> bool {
    m.role == Role::Activity
        && matches!(
            m.activity_type.as_deref(),
            Some(SOURCE_URL | SOURCE_DOCUMENT | SOURCES_ACTIVITY)
        )
}

/// The sources a message holds, in order, each `None` when it cannot be read (it still
/// takes its number).
fn raw_sources<'a>(m: &'a Message, out: &mut Vec<Option<Raw<'a>>>) {
    if is_source_activity(m) {
        let Some(Content::Object(content)) = &m.content else {
            return;
        };
        match m.activity_type.as_deref() {
            Some(SOURCE_URL) => out.push(Some(Raw {
                url: str_of(content, "url"),
                title: str_of(content, "title"),
                snippet: None,
                document: None,
            })),
            Some(SOURCE_DOCUMENT) => out.push(Some(Raw {
                url: None,
                title: str_of(content, "title"),
                snippet: None,
                document: Some((
                    str_of(content, "sourceId"),
                    str_of(content, "mediaType"),
                    str_of(content, "filename"),
                )),
            })),
            _ => push_list(content.get("sources"), out),
        }
    }
    if let Some(md) = &m.metadata {
        push_list(md.get("sources"), out);
    }
}

/// `[{ id?, url, title?, snippet? }]`: an entry without a string `url` is unreadable.
fn push_list<'a>(value: Option<&'a Value>, out: &mut Vec<Option<Raw<'a>>>) {
    let Some(Value::Array(items)) = value else {
        return;
    };
    for item in items.iter().take(MAX_READ) {
        out.push(item.as_object().and_then(|o| {
            Some(Raw {
                url: Some(str_of(o, "url")?),
                title: str_of(o, "title"),
                snippet: str_of(o, "snippet"),
                document: None,
            })
        }));
    }
}

/// `text` with its whitespace runs made one space, cut at `max` characters with `…`.
pub fn cut(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    for word in text.split_whitespace() {
        for c in (!out.is_empty())
            .then_some(' ')
            .into_iter()
            .chain(word.chars())
        {
            if n == max {
                out.push('…');
                return out;
            }
            out.push(c);
            n += 1;
        }
    }
    out
}

fn non_blank(s: Option<&str>, max: usize) -> Option<String> {
    s.map(|s| cut(s, max)).filter(|s| !s.is_empty())
}

impl AnswerSources {
    /// The sources of `messages` (an answer's, in transcript order).
    pub fn collect<'a>(messages: impl IntoIterator<Item = &'a Message>) -> AnswerSources {
        let mut raw = Vec::new();
        for m in messages {
            raw_sources(m, &mut raw);
            if raw.len() >= MAX_READ {
                break;
            }
        }
        raw.truncate(MAX_READ);
        let mut out = AnswerSources::default();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for r in raw {
            let entry = r.and_then(|r| out.add(r, &mut seen));
            out.cited.push(entry);
        }
        out
    }

    /// Adds a source (or finds the entry it repeats): its entry's index.
    fn add(&mut self, r: Raw<'_>, seen: &mut HashMap<String, usize>) -> Option<usize> {
        let (key, target) = match (r.url, r.document) {
            (_, Some((id, media_type, filename))) => (
                format!(
                    "doc:{}:{}",
                    id.unwrap_or_default(),
                    filename.unwrap_or_default()
                ),
                Target::Document {
                    media_type: non_blank(media_type, MAX_TITLE_CHARS),
                    filename: non_blank(filename, MAX_TITLE_CHARS),
                },
            ),
            (Some(url), None) => {
                let url = url.trim();
                let target = match SafeUrl::parse_link(url).and_then(|u| {
                    let host = u.host()?.to_ascii_lowercase();
                    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
                    (!host.is_empty()).then_some((u, host))
                }) {
                    Some((url, host)) => Target::Link { url, host },
                    None => Target::Refused(url.to_owned()),
                };
                (format!("url:{url}"), target)
            }
            (None, None) => return None,
        };
        if let Some(&i) = seen.get(&key) {
            return Some(i);
        }
        if self.entries.len() >= MAX_SOURCES {
            return None;
        }
        let i = self.entries.len();
        self.entries.push(Source {
            number: i + 1,
            title: non_blank(r.title, MAX_TITLE_CHARS),
            target,
            snippet: non_blank(r.snippet, MAX_SNIPPET_CHARS),
        });
        seen.insert(key, i);
        Some(i)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry a marker `[n]` points at: the n-th source as sent (1-based).
    pub fn cite(&self, n: usize) -> Option<&Source> {
        let i = (*self.cited.get(n.checked_sub(1)?)?)?;
        self.entries.get(i)
    }
}

/// Where the answers with sources are: which rows hold their sources, which assistant row
/// shows their list, which rows it resolves markers for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourcesPlan {
    answers: Vec<PlannedAnswer>,
    /// An assistant row → its answer.
    member: HashMap<String, usize>,
    /// Source activities shown in their answer's list, not as cards.
    listed: HashSet<String>,
}

/// One answer with sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedAnswer {
    /// The row that shows the list: the answer's last assistant row.
    pub anchor: String,
    /// The rows holding its sources, in transcript order.
    pub sources: Vec<String>,
}

impl SourcesPlan {
    /// The answer an assistant row belongs to, if it has sources.
    pub fn answer_of(&self, key: &str) -> Option<&PlannedAnswer> {
        self.answers.get(*self.member.get(key)?)
    }

    /// Whether a source activity shows in a list (then it shows nothing itself).
    pub fn is_listed(&self, key: &str) -> bool {
        self.listed.contains(key)
    }
}

/// The plan of `rows`: `has_sources(row)` tells which rows hold sources ([`has_sources`]).
/// One pass over the rows.
pub fn plan(rows: &[Row], has_sources: impl Fn(&Row) -> bool) -> SourcesPlan {
    #[derive(Default)]
    struct Group {
        assistants: Vec<String>,
        sources: Vec<(String, bool)>,
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut open: HashMap<Option<String>, usize> = HashMap::new();
    for row in rows {
        if row.role == Role::User {
            open.clear();
            continue;
        }
        let holds = matches!(row.role, Role::Activity | Role::Assistant) && has_sources(row);
        if row.role != Role::Assistant && !holds {
            continue;
        }
        let g = *open.entry(row.subagent.clone()).or_insert_with(|| {
            groups.push(Group::default());
            groups.len() - 1
        });
        let Some(group) = groups.get_mut(g) else {
            continue;
        };
        if row.role == Role::Assistant {
            group.assistants.push(row.key.clone());
        }
        if holds {
            group
                .sources
                .push((row.key.clone(), row.role == Role::Activity));
        }
    }
    let mut plan = SourcesPlan::default();
    for g in groups {
        let Some(anchor) = g.assistants.last().cloned() else {
            continue;
        };
        if g.sources.is_empty() {
            continue;
        }
        let i = plan.answers.len();
        for a in g.assistants {
            plan.member.insert(a, i);
        }
        plan.listed.extend(
            g.sources
                .iter()
                .filter(|(_, activity)| *activity)
                .map(|(k, _)| k.clone()),
        );
        plan.answers.push(PlannedAnswer {
            anchor,
            sources: g.sources.into_iter().map(|(k, _)| k).collect(),
        });
    }
    plan
}

/// A piece of an answer's plain text: text, a citation `[n]` or a footnote reference
/// `[^label]` (`raw` is the marker as written, shown when it does not resolve).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    Cite { n: usize, raw: &'a str },
    Note { label: &'a str, raw: &'a str },
}

/// The markers of a text: `[n]` (1 to 3 digits, no leading zero) and `[^label]` (letters,
/// digits, `-` and `_`, at most [`MAX_NOTE_LABEL`] bytes). One pass; a text without `[` is one
/// piece.
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut i = 0;
    let bytes = text.as_bytes();
    while let Some(off) = text.get(i..).and_then(|t| t.find('[')) {
        let start = i + off;
        let marker = marker_at(text, start);
        match marker {
            Some((piece, end)) => {
                if start > from {
                    out.push(Piece::Text(text.get(from..start).unwrap_or_default()));
                }
                out.push(piece);
                from = end;
                i = end;
            }
            None => i = start + 1,
        }
        if i >= bytes.len() {
            break;
        }
    }
    if from < text.len() {
        out.push(Piece::Text(text.get(from..).unwrap_or_default()));
    }
    out
}

/// The marker starting at `start` (a `[`) and where it ends.
fn marker_at(text: &str, start: usize) -> Option<(Piece<'_>, usize)> {
    let rest = text.get(start + 1..)?;
    let close = rest.find(']')?;
    let inner = rest.get(..close)?;
    let end = start + 1 + close + 1;
    let raw = text.get(start..end)?;
    if let Some(label) = inner.strip_prefix('^') {
        let ok = !label.is_empty()
            && label.len() <= MAX_NOTE_LABEL
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        return ok.then_some((Piece::Note { label, raw }, end));
    }
    let ok = (1..=3).contains(&inner.len())
        && inner.bytes().all(|b| b.is_ascii_digit())
        && !inner.starts_with('0');
    let n = inner.parse().ok().filter(|_| ok)?;
    Some((Piece::Cite { n, raw }, end))
}
