//! A conversation as a site's thread store keeps it (`docs/dev/thread-store.md`): one JSON
//! record with `id`, `title`, `updatedAt` (ISO 8601) and `messages` (the AG-UI messages) at its
//! top level — what the site reads, searches and audits — and the rest of the chat's
//! [`ThreadRecord`] under `chat`, which the site may ignore. Pure: the shape both ways.
//!
//! The top level is the truth where both say something: a site that redacts a message or
//! renames a conversation on its side is read as it wrote it. A record the site wrote itself
//! (no `chat`) is read as a conversation with those messages and that title.

use serde_json::{json, Map, Value};

use super::branches::{display_title, RecordError, ThreadRecord, VERSION};
use crate::protocol::resume::parse_iso8601_ms;
use crate::protocol::types::Message;
use crate::view::times::iso_8601;

/// The longest id a thread store takes (`examples/threads-server`: 1 to 200 of
/// `A-Z a-z 0-9 . _ : -`).
pub const MAX_ID_CHARS: usize = 200;

/// Whether `id` can name a conversation in a thread store's URL.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_CHARS
        && id != "."
        && id != ".."
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// `record` as a thread store keeps it.
pub fn to_wire(record: &ThreadRecord) -> Value {
    let mut chat = serde_json::to_value(record).unwrap_or(Value::Null);
    let messages = chat
        .get_mut("thread")
        .and_then(Value::as_object_mut)
        .and_then(|t| t.remove("messages"))
        .unwrap_or_else(|| json!([]));
    let when = |ms: f64| iso_8601(ms).map_or(Value::Null, Value::String);
    json!({
        "id": record.id,
        "title": record.display_title(),
        "createdAt": when(record.created_at),
        "updatedAt": when(record.updated_at),
        "messages": messages,
        "chat": chat,
    })
}

/// The conversation a thread store answered for `id`.
pub fn from_wire(id: &str, value: &Value) -> Result<ThreadRecord, RecordError> {
    let json_err = |e: serde_json::Error| RecordError::Json(e.to_string());
    let top = value
        .as_object()
        .ok_or_else(|| RecordError::Json("not a JSON object".to_owned()))?;
    let found = top.get("id").and_then(Value::as_str).unwrap_or_default();
    if found != id {
        return Err(RecordError::IdMismatch {
            expected: id.to_owned(),
            found: found.to_owned(),
        });
    }
    let messages = top.get("messages").cloned().unwrap_or_else(|| json!([]));
    let title = top.get("title").and_then(Value::as_str);
    let updated = top
        .get("updatedAt")
        .and_then(Value::as_str)
        .and_then(parse_iso8601_ms);
    let mut record = match top.get("chat").filter(|c| c.is_object()) {
        Some(chat) => {
            let mut chat = chat.clone();
            if let Some(thread) = chat.get_mut("thread").and_then(Value::as_object_mut) {
                thread.insert("messages".to_owned(), messages);
            }
            let record: ThreadRecord = serde_json::from_value(chat).map_err(json_err)?;
            if record.version != VERSION {
                return Err(RecordError::Version(record.version));
            }
            record
        }
        None => {
            let messages: Vec<Message> = serde_json::from_value(messages).map_err(json_err)?;
            let created = top
                .get("createdAt")
                .and_then(Value::as_str)
                .and_then(parse_iso8601_ms);
            let mut record = ThreadRecord::empty(id.to_owned(), created.or(updated).unwrap_or(0.0));
            record.thread.messages = messages;
            record
        }
    };
    record.id = id.to_owned();
    if let Some(ms) = updated {
        record.updated_at = ms;
    }
    // A title the site gave (or changed) is a name, as if the person had renamed it.
    if let Some(title) = title.map(str::trim).filter(|t| !t.is_empty()) {
        if title != display_title(record.title.as_deref(), &record.thread.messages) {
            record.title = Some(title.to_owned());
        }
    }
    Ok(record)
}

/// One entry of a thread store's list (`GET {url}`): `{id, title, updatedAt}`; `None` for an
/// entry that cannot be one (no usable id).
pub fn list_entry(value: &Value) -> Option<(String, String, f64)> {
    let o: &Map<String, Value> = value.as_object()?;
    let id = o.get("id")?.as_str().filter(|id| valid_id(id))?;
    let title = o.get("title").and_then(Value::as_str).unwrap_or_default();
    let updated = o
        .get("updatedAt")
        .and_then(Value::as_str)
        .and_then(parse_iso8601_ms)
        .unwrap_or(0.0);
    Some((id.to_owned(), title.chars().take(500).collect(), updated))
}

/// The `rel="next"` target of a `Link` header (`<…>; rel="next"`), as written (relative to the
/// request's URL); `None` when there is none (that was the last page).
pub fn next_link(header: &str) -> Option<String> {
    header.split(',').find_map(|link| {
        let (target, params) = link.trim().strip_prefix('<')?.split_once('>')?;
        params
            .split(';')
            .filter_map(|p| p.trim().split_once('='))
            .any(|(k, v)| {
                k.trim().eq_ignore_ascii_case("rel")
                    && v.trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("next"))
            })
            .then(|| target.trim().to_owned())
    })
}

// ---- the store itself ------------------------------------------------------------------------

/// Why a call to a [`ThreadStore`] did not succeed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StoreFailure {
    /// `412`: the stored version moved on (or, creating, the id exists): load, merge, save.
    Conflict,
    /// `404`: the store has no such conversation.
    NotFound,
    /// Anything else (a status, the network, the page's headers), for the person and the
    /// inspector; the call is tried again later.
    Failed(String),
}

/// A conversation as a store answered it: its record ([`to_wire`]'s shape) and its version.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub record: Value,
    /// The version to save over (`If-Match`); `None` when the store has none.
    pub etag: Option<String>,
}

/// One page of a store's list: entries as [`list_entry`] reads them, and where the next page
/// is (`None`: the last).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListPage {
    pub entries: Vec<Value>,
    pub next: Option<String>,
}

/// What a save expects of the stored copy (compare-and-swap).
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// None yet (`If-None-Match: *`).
    New,
    /// This version (`If-Match`).
    Version(String),
    /// Whichever version is there (`If-Match: *`): a store that gives no versions.
    Any,
}

/// What a [`ThreadStore`] call settles to.
pub type StoreFuture<T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, StoreFailure>>>>;

/// Where a site keeps its visitors' conversations (`docs/dev/thread-store.md`): the chat's
/// `threads-url` speaks it over REST, a page's `threads: {list, load, save, remove}` hooks and
/// a Leptos app's own type implement it directly. Every call may fail; none may panic.
pub trait ThreadStore: Send + Sync + 'static {
    /// A page of the list, newest first (`cursor`: the `next` of the page before).
    fn list(&self, cursor: Option<&str>) -> StoreFuture<ListPage>;
    /// One conversation.
    fn load(&self, id: &str) -> StoreFuture<Loaded>;
    /// Save `record` as `id` if the stored copy is as `expect` says: the new version.
    fn save(&self, id: &str, record: &Value, expect: &Expect) -> StoreFuture<Option<String>>;
    /// Delete a conversation (a missing one is not an error).
    fn remove(&self, id: &str) -> StoreFuture<()>;
}

/// A shared [`ThreadStore`], compared by identity (a configuration holding one stays
/// `PartialEq`).
#[derive(Clone)]
pub struct ThreadStoreRef(pub std::sync::Arc<dyn ThreadStore>);

impl ThreadStoreRef {
    pub fn new(store: impl ThreadStore) -> Self {
        ThreadStoreRef(std::sync::Arc::new(store))
    }
}

impl PartialEq for ThreadStoreRef {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for ThreadStoreRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ThreadStore")
    }
}
