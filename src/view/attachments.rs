//! Attachments (issue 13, item 1): files a person adds to a message — from the picker, by
//! drag-and-drop or by pasting — checked against the page's [`Limits`], shown as chips while
//! composing ([`Pending`]) and sent as AG-UI input content parts on the user message (spec
//! digest §3: `image` / `audio` / `video` / `document` parts with a `source`: `data` = base64
//! and `mimeType`, or `url`). The file name travels as `metadata.filename`, the name the digest
//! gives it when legacy `binary` parts are upgraded (§2.6); no other field carries it.
//!
//! Saved threads keep every `url` part and the small inlined ones, but not inlined bytes above
//! [`STORED_INLINE_BYTES`] ([`shrink_for_storage`], applied by the session to the copy it
//! writes, never to the live conversation): such a part stays an `image` / … part with its
//! MIME type, file name and id, its `data` value becomes `""` and its metadata gets
//! `"dropped": true` and `"size"` (the decoded bytes it had). It reloads like any part;
//! [`describe`] reports it as `dropped` (the message view says "attachment not saved"); and
//! `protocol::input::history_for_request` leaves such a part (it carries no bytes) out of the
//! next request.
//!
//! Suggested English wording for the errors (the UI words them through the i18n catalog):
//! - `NotAccepted`: "{name}: this type of file can't be attached"
//! - `FileTooLarge`: "{name} is too large ({size}; at most {max})"
//! - `MessageTooLarge`: "Attachments too large together ({total}; at most {max} per message)"
//! - `TooMany`: "At most {max} files per message"
//! - `Empty`: "{name} is empty"
//!
//! Pure: no browser types; the UI reads the files and calls these.

use serde_json::{Map, Value};

use crate::protocol::capabilities::MediaInput;
use crate::protocol::types::{Content, ContentPart, MediaPart, Message, PartSource};

/// What the composer accepts and how much.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// `accept`-style tokens, normalised (lowercase): `type/subtype`, `type/*`, `.ext`, `*/*`.
    pub accept: Vec<String>,
    /// Bytes of one file (before base64, which adds a third).
    pub max_file_bytes: u64,
    /// Bytes of all the files of one message together (before base64).
    pub max_message_bytes: u64,
    /// Files on one message.
    pub max_files: usize,
}

/// The default accepted types: media and the documents agents commonly read.
pub const DEFAULT_ACCEPT: &[&str] = &[
    "image/*",
    "audio/*",
    "video/*",
    "application/pdf",
    "text/plain",
    "text/markdown",
    "text/csv",
    "application/json",
];
/// Default: 10 MiB per file.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 10 * MIB;
/// Default: 20 MiB per message.
pub const DEFAULT_MAX_MESSAGE_BYTES: u64 = 20 * MIB;
/// Default: 10 files per message.
pub const DEFAULT_MAX_FILES: usize = 10;
/// Page attributes are clamped to this many bytes (per file and per message): the bytes are
/// held in memory, base64-encoded and sent in one request.
pub const HARD_MAX_BYTES: u64 = 100 * MIB;
/// Page attributes are clamped to this many files.
pub const HARD_MAX_FILES: usize = 100;
/// An `accept` attribute is read up to this many tokens; longer tokens are skipped.
const MAX_ACCEPT_TOKENS: usize = 64;
const MAX_TOKEN_CHARS: usize = 100;
/// Saved threads keep an inlined `data` value up to this many characters (its base64 text,
/// about 48 KiB of file): thumbnails and small documents survive a reload, photos do not.
pub const STORED_INLINE_BYTES: usize = 64 * 1024;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            accept: DEFAULT_ACCEPT.iter().map(|s| (*s).to_owned()).collect(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_files: DEFAULT_MAX_FILES,
        }
    }
}

impl Limits {
    /// The tokens of an HTML-`accept`-style attribute (`"image/*,.pdf,application/json"`),
    /// comma-separated, trimmed, lowercased; a token that is not a MIME type (`type/sub`),
    /// a `type/*` wildcard, `*/*`, `*` or an extension (`.ext`) is skipped. `None` when no
    /// token is usable (the caller keeps the default). At most 64 tokens.
    pub fn parse_accept(attr: &str) -> Option<Vec<String>> {
        let tokens: Vec<String> = attr
            .split(',')
            .map(|t| t.trim().to_ascii_lowercase())
            .filter(|t| valid_token(t))
            .take(MAX_ACCEPT_TOKENS)
            .collect();
        (!tokens.is_empty()).then_some(tokens)
    }

    /// Limits from the page's attributes (`accept`, `max-file-bytes`, `max-message-bytes`,
    /// `max-files`); an absent or unusable value keeps the default. When only the file limit
    /// is raised, the message limit grows to match (one such file still fits).
    pub fn from_attributes(
        accept: Option<&str>,
        max_file_bytes: Option<&str>,
        max_message_bytes: Option<&str>,
        max_files: Option<&str>,
    ) -> Limits {
        let d = Limits::default();
        let file = max_file_bytes.and_then(parse_bytes);
        Limits {
            accept: accept.and_then(Limits::parse_accept).unwrap_or(d.accept),
            max_file_bytes: file.unwrap_or(d.max_file_bytes),
            max_message_bytes: max_message_bytes
                .and_then(parse_bytes)
                .unwrap_or_else(|| d.max_message_bytes.max(file.unwrap_or(0))),
            max_files: max_files.and_then(parse_count).unwrap_or(d.max_files),
        }
    }

    /// Whether a file named `name` of type `mime` matches one of the accepted tokens: the
    /// exact MIME type (parameters such as `;charset=` ignored, case-insensitive), `type/*`,
    /// `.ext` by the end of the name (case-insensitive), or `*/*` / `*` for everything.
    pub fn accepts(&self, name: &str, mime: &str) -> bool {
        let mime = normal_mime(mime);
        let name = name.to_ascii_lowercase();
        self.accept.iter().any(|t| {
            let t = t.as_str();
            if t == "*" || t == "*/*" {
                true
            } else if t.starts_with('.') {
                name.len() > t.len() && name.ends_with(t)
            } else if let Some(major) = t.strip_suffix("/*") {
                mime.split_once('/').is_some_and(|(m, _)| m == major)
            } else {
                mime == t
            }
        })
    }
}

/// Which `multimodal.input` flag an accept token falls under.
fn token_input(t: &str) -> fn(&MediaInput) -> Option<bool> {
    if t.starts_with("image/") {
        |i| i.image
    } else if t.starts_with("audio/") {
        |i| i.audio
    } else if t.starts_with("video/") {
        |i| i.video
    } else if t == "application/pdf" || t == ".pdf" {
        |i| i.pdf
    } else {
        |i| i.file
    }
}

impl Limits {
    /// These limits for an agent that declared `input` (spec digest §6 `multimodal.input`):
    /// the kinds it declared `false` are not offered; an undeclared kind is unknown, never
    /// assumed unsupported. `None`: nothing is left to attach (no attach button).
    pub fn for_agent(&self, input: &MediaInput) -> Option<Limits> {
        let refused = |t: &str| token_input(t)(input) == Some(false);
        let mut accept = Vec::new();
        for t in &self.accept {
            if t == "*" || t == "*/*" {
                // "Anything" minus what the agent refuses.
                if [input.image, input.audio, input.video, input.pdf, input.file]
                    .contains(&Some(false))
                {
                    let kinds = ["image/*", "audio/*", "video/*", "application/pdf"];
                    accept.extend(
                        kinds
                            .iter()
                            .filter(|k| !refused(k))
                            .map(|k| (*k).to_owned()),
                    );
                    if input.file != Some(false) {
                        accept.extend(DEFAULT_ACCEPT.iter().skip(4).map(|k| (*k).to_owned()));
                    }
                    continue;
                }
            }
            if !refused(t) && !accept.contains(t) {
                accept.push(t.clone());
            }
        }
        (!accept.is_empty()).then(|| Limits {
            accept,
            ..self.clone()
        })
    }
}

/// `*`, `*/*`, `.ext`, `type/*` or `type/subtype` (RFC 6838 name characters).
fn valid_token(t: &str) -> bool {
    let name = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
    };
    if t.len() > MAX_TOKEN_CHARS {
        return false;
    }
    if t == "*" || t == "*/*" {
        return true;
    }
    if let Some(ext) = t.strip_prefix('.') {
        return name(ext);
    }
    match t.split_once('/') {
        Some((major, minor)) => name(major) && (minor == "*" || name(minor)),
        None => false,
    }
}

/// A byte size from a page attribute: a positive integer, optionally followed (spaces
/// allowed, any case) by `B`, `K` / `KB` / `KiB` or `M` / `MB` / `MiB` — all binary (1 KB =
/// 1024 bytes, as file managers show them). Clamped to [`HARD_MAX_BYTES`]. `None` for
/// anything else: zero, negative, fractions, other units, overflow.
pub fn parse_bytes(attr: &str) -> Option<u64> {
    let s = attr.trim();
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, unit) = s.split_at(end);
    let n: u64 = digits.parse().ok()?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => KIB,
        "m" | "mb" | "mib" => MIB,
        _ => return None,
    };
    let bytes = n.checked_mul(scale)?;
    (bytes > 0).then(|| bytes.min(HARD_MAX_BYTES))
}

/// A file count from a page attribute: a positive integer, clamped to [`HARD_MAX_FILES`];
/// `None` for anything else (zero included).
pub fn parse_count(attr: &str) -> Option<usize> {
    let n: usize = attr.trim().parse().ok()?;
    (n > 0).then(|| n.min(HARD_MAX_FILES))
}

/// The MIME type lowercased, without parameters.
pub fn normal_mime(mime: &str) -> String {
    let base = mime.split(';').next().unwrap_or_default();
    base.trim().to_ascii_lowercase()
}

/// What kind of part a file becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Image,
    Audio,
    Video,
    Document,
}

impl Kind {
    /// The wire `type` of its part.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Image => "image",
            Kind::Audio => "audio",
            Kind::Video => "video",
            Kind::Document => "document",
        }
    }
}

/// `image/…`, `audio/…`, `video/…` by the MIME type (any case); everything else — PDFs,
/// text, JSON, unknown types — is a document.
pub fn kind(mime: &str) -> Kind {
    match normal_mime(mime).split_once('/').map(|(m, _)| m) {
        Some("image") => Kind::Image,
        Some("audio") => Kind::Audio,
        Some("video") => Kind::Video,
        _ => Kind::Document,
    }
}

/// A file the person added, not yet sent: what its chip in the composer shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub name: String,
    /// Normalised by [`Pending::new`]: lowercase, without parameters, guessed from the name
    /// when the browser gave none.
    pub mime: String,
    /// Bytes.
    pub size: u64,
}

impl Pending {
    /// A pending file as the browser describes it (`File.name`, `.type`, `.size`). Browsers
    /// give no type for some files (`.md` often): it is guessed from the extension for the
    /// common documents, else `application/octet-stream`.
    pub fn new(name: &str, mime: &str, size: u64) -> Pending {
        let mut mime = normal_mime(mime);
        if mime.is_empty() {
            mime = guess_mime(name).to_owned();
        }
        Pending {
            name: name.to_owned(),
            mime,
            size,
        }
    }

    pub fn kind(&self) -> Kind {
        kind(&self.mime)
    }

    /// The part to send, with the file's bytes inlined (a `data` source).
    pub fn part(&self, bytes: &[u8]) -> ContentPart {
        part(
            self.kind(),
            data_source(&self.mime, bytes),
            Some(&self.name),
        )
    }
}

fn guess_mime(name: &str) -> &'static str {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("csv") => "text/csv",
        Some("txt") => "text/plain",
        Some("json") => "application/json",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// Why a file cannot be attached (the UI words it; the `Display` is English, for logs).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AttachError {
    #[error("{name}: files of type '{mime}' are not accepted")]
    NotAccepted { name: String, mime: String },
    #[error("{name} is {size} bytes, more than the {max} allowed per file")]
    FileTooLarge { name: String, size: u64, max: u64 },
    #[error("the attachments total {total} bytes, more than the {max} allowed per message")]
    MessageTooLarge { total: u64, max: u64 },
    #[error("at most {max} files per message")]
    TooMany { max: usize },
    #[error("{name} is empty")]
    Empty { name: String },
}

/// Whether `new` may join the files `already` pending. Checked in this order: the type, an
/// empty file, the file's size, the number of files, the message's total.
pub fn check(limits: &Limits, already: &[Pending], new: &Pending) -> Result<(), AttachError> {
    if !limits.accepts(&new.name, &new.mime) {
        return Err(AttachError::NotAccepted {
            name: new.name.clone(),
            mime: new.mime.clone(),
        });
    }
    if new.size == 0 {
        return Err(AttachError::Empty {
            name: new.name.clone(),
        });
    }
    if new.size > limits.max_file_bytes {
        return Err(AttachError::FileTooLarge {
            name: new.name.clone(),
            size: new.size,
            max: limits.max_file_bytes,
        });
    }
    if already.len() >= limits.max_files {
        return Err(AttachError::TooMany {
            max: limits.max_files,
        });
    }
    let total = already
        .iter()
        .fold(new.size, |sum, p| sum.saturating_add(p.size));
    if total > limits.max_message_bytes {
        return Err(AttachError::MessageTooLarge {
            total,
            max: limits.max_message_bytes,
        });
    }
    Ok(())
}

/// The bytes of a base64 text ([`crate::base64::decode`]: strict, padding optional) with its
/// ASCII whitespace skipped (line-wrapped base64); `None` when it is not base64. O(the text):
/// the thumbnail of a person's own image is made from the bytes the message carries.
pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    if text.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        crate::base64::decode(&compact)
    } else {
        crate::base64::decode(text)
    }
}

/// The bytes a base64 text decodes to (padded or not), without decoding it.
fn decoded_len(b64: &str) -> u64 {
    let data = b64.trim_end_matches('=').len() as u64;
    data * 3 / 4
}

/// A `data` source holding `bytes`.
pub fn data_source(mime: &str, bytes: &[u8]) -> PartSource {
    PartSource::Data {
        value: crate::base64::encode(bytes),
        mime_type: mime.to_owned(),
    }
}

/// A media part of `kind` from `source`; a non-blank `name` becomes `metadata.filename`.
pub fn part(kind: Kind, source: PartSource, name: Option<&str>) -> ContentPart {
    let metadata = name.map(str::trim).filter(|n| !n.is_empty()).map(|n| {
        let mut m = Map::new();
        m.insert("filename".into(), Value::String(n.to_owned()));
        Value::Object(m)
    });
    let media = MediaPart {
        source,
        id: None,
        metadata,
    };
    match kind {
        Kind::Image => ContentPart::Image(media),
        Kind::Audio => ContentPart::Audio(media),
        Kind::Video => ContentPart::Video(media),
        Kind::Document => ContentPart::Document(media),
    }
}

/// The user message to send: with no parts exactly [`Message::user`] (string content); with
/// parts, `content` is a list — a `text` part first when `text` is not blank, then `parts`.
pub fn user_message(id: String, text: &str, parts: Vec<ContentPart>) -> Message {
    if parts.is_empty() {
        return Message::user(id, text);
    }
    let mut all = Vec::with_capacity(parts.len() + 1);
    if !text.trim().is_empty() {
        all.push(ContentPart::Text {
            text: text.to_owned(),
            id: None,
            metadata: None,
        });
    }
    all.extend(parts);
    let mut m = Message::user(id, "");
    m.content = Some(Content::Parts(all));
    m
}

fn media(part: &ContentPart) -> Option<(Kind, &MediaPart)> {
    match part {
        ContentPart::Text { .. } => None,
        ContentPart::Image(m) => Some((Kind::Image, m)),
        ContentPart::Audio(m) => Some((Kind::Audio, m)),
        ContentPart::Video(m) => Some((Kind::Video, m)),
        ContentPart::Document(m) => Some((Kind::Document, m)),
    }
}

fn media_mut(part: &mut ContentPart) -> Option<&mut MediaPart> {
    match part {
        ContentPart::Text { .. } => None,
        ContentPart::Image(m)
        | ContentPart::Audio(m)
        | ContentPart::Video(m)
        | ContentPart::Document(m) => Some(m),
    }
}

/// The inlined `data` value of a media part longer than `max` characters, if any.
fn oversized(part: &mut ContentPart, max: usize) -> Option<&mut MediaPart> {
    let m = media_mut(part)?;
    match &m.source {
        PartSource::Data { value, .. } if value.len() > max => Some(m),
        _ => None,
    }
}

/// Whether any message holds a `data` value longer than `max_inline_bytes` (what
/// [`shrink_for_storage`] would drop), without copying anything.
pub fn needs_shrinking(messages: &[Message], max_inline_bytes: usize) -> bool {
    messages.iter().any(|m| match &m.content {
        Some(Content::Parts(parts)) => parts.iter().any(|p| {
            media(p).is_some_and(|(_, m)| {
                matches!(&m.source, PartSource::Data { value, .. } if value.len() > max_inline_bytes)
            })
        }),
        _ => false,
    })
}

/// For a saved copy of a conversation: every media part whose `data` value is longer than
/// `max_inline_bytes` characters keeps its type, MIME type, id and metadata, but its value
/// becomes `""` and its metadata gets `"dropped": true` and `"size"` (decoded bytes; metadata
/// that is not an object is replaced). `url`, `file` and text parts are untouched; so is a
/// part already dropped (idempotent). Returns how many parts were dropped.
pub fn shrink_for_storage(messages: &mut [Message], max_inline_bytes: usize) -> usize {
    let mut dropped = 0;
    for m in messages {
        let Some(Content::Parts(parts)) = &mut m.content else {
            continue;
        };
        for p in parts.iter_mut() {
            let Some(media) = oversized(p, max_inline_bytes) else {
                continue;
            };
            let PartSource::Data { value, .. } = &mut media.source else {
                continue;
            };
            let size = decoded_len(value);
            *value = String::new();
            let mut meta = match media.metadata.take() {
                Some(Value::Object(o)) => o,
                _ => Map::new(),
            };
            meta.insert("dropped".into(), Value::Bool(true));
            meta.insert("size".into(), Value::from(size));
            media.metadata = Some(Value::Object(meta));
            dropped += 1;
        }
    }
    dropped
}

/// An attachment as a message shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chip {
    pub kind: Kind,
    /// `metadata.filename`.
    pub name: Option<String>,
    pub mime: Option<String>,
    /// Decoded bytes: of the inlined data, or as recorded when it was dropped.
    pub size: Option<u64>,
    /// A `url` source's value, verbatim: the UI checks its scheme and never loads it by
    /// itself. `file` sources (provider handles) give none.
    pub url: Option<String>,
    /// Not kept when the conversation was saved ([`shrink_for_storage`]).
    pub dropped: bool,
}

/// The chip of a media part; `None` for a text part.
pub fn describe(part: &ContentPart) -> Option<Chip> {
    let (kind, m) = media(part)?;
    let meta = m.metadata.as_ref().and_then(Value::as_object);
    let field = |k: &str| meta.and_then(|o| o.get(k));
    let name = field("filename").and_then(Value::as_str).map(str::to_owned);
    let recorded = field("size").and_then(Value::as_u64);
    let (mime, size, url, dropped) = match &m.source {
        PartSource::Data { value, mime_type } => {
            let dropped = value.is_empty() && field("dropped") == Some(&Value::Bool(true));
            let size = if dropped {
                recorded
            } else {
                Some(decoded_len(value))
            };
            (Some(mime_type.clone()), size, None, dropped)
        }
        PartSource::Url { value, mime_type } => {
            (mime_type.clone(), recorded, Some(value.clone()), false)
        }
        PartSource::File { mime_type, .. } => (mime_type.clone(), recorded, None, false),
    };
    Some(Chip {
        kind,
        name,
        mime,
        size,
        url,
        dropped,
    })
}
