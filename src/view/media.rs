//! Media in messages (issue 30, item 3): what a media content part — an `image`, `audio`,
//! `video` or `document` part of a tool result, a tool message or a person's own message
//! (spec digest §3, `ContentPart` / `PartSource`), or an AI SDK `file` part (an activity
//! holding the chunk's `url` and `mediaType`, [`from_file_activity`]) — shows as, decided here
//! and nowhere else ([`Media`]):
//!
//! - **an image** when its type is one of [`IMAGE_TYPES`] (png, jpeg, gif, webp, avif; never
//!   SVG): from a `data` source a `blob:` thumbnail of the bytes it carries, from an `http(s)`
//!   URL a placeholder that loads it only when clicked;
//! - **a player** for one of [`AUDIO_TYPES`] / [`VIDEO_TYPES`] (native controls, never
//!   autoplay; a URL is not fetched before play);
//! - **a file chip** for anything else: name, type and size, downloadable (a `data` file as a
//!   `blob:` download of type `application/octet-stream`, never its declared type, so that
//!   opening it cannot run it as a page of the chat's origin; a URL as an `http(s)` link);
//! - **a chip with nothing to open** ([`Missing`]) when there is nothing safe to open: a `data`
//!   part over [`MAX_PART_BYTES`] or past [`MAX_TOTAL_BYTES`] of one message (never decoded),
//!   an attachment not saved, a provider file handle (never fetched), a URL of another scheme.
//!
//! A part's kind comes from its declared MIME type when it has one, else from its wire type (a
//! URL without `mimeType`). Pure: the UI (`ui::attach`) decodes a [`Src::Data`] once, when its
//! view is made, and revokes its `blob:` URL when the view goes.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::markdown::SafeUrl;
use crate::protocol::types::{ContentPart, MediaPart, PartSource};
use crate::view::attachments::{
    normal_mime, Kind, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_MESSAGE_BYTES,
};
use crate::view::format::truncate_chars;

/// Images shown inline (the part's declared type, parameters ignored).
pub const IMAGE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/avif",
];
/// Audio played inline.
pub const AUDIO_TYPES: &[&str] = &[
    "audio/mpeg",
    "audio/mp4",
    "audio/aac",
    "audio/ogg",
    "audio/wav",
    "audio/webm",
    "audio/flac",
];
/// Video played inline.
pub const VIDEO_TYPES: &[&str] = &["video/mp4", "video/webm", "video/ogg"];
/// A `data` part is decoded up to this many bytes (the attachments' default per file).
pub const MAX_PART_BYTES: u64 = DEFAULT_MAX_FILE_BYTES;
/// The `data` parts of one message or result are decoded up to this many bytes together (the
/// attachments' default per message); the parts past it show as too large.
pub const MAX_TOTAL_BYTES: u64 = DEFAULT_MAX_MESSAGE_BYTES;
/// Names and descriptions are cut to this many characters.
const MAX_NAME_CHARS: usize = 200;

/// How a part shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Image,
    Audio,
    Video,
    File,
}

impl Shown {
    /// Its `data-kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            Shown::Image => "image",
            Shown::Audio => "audio",
            Shown::Video => "video",
            Shown::File => "file",
        }
    }
}

/// Why a part has nothing to open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Over [`MAX_PART_BYTES`], or past [`MAX_TOTAL_BYTES`] of its message: never decoded.
    TooLarge,
    /// An attachment whose bytes a saved thread did not keep
    /// ([`crate::view::attachments::shrink_for_storage`]).
    NotSaved,
    /// A provider's file handle (`file` source): opaque, never fetched.
    ProviderFile,
    /// A URL that is not `http(s)`, or a `data:` URL that is not base64.
    Unsupported,
}

/// Where the bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Src {
    /// Base64 the part carries, within the budgets.
    Data(Arc<str>),
    /// An `http(s)` URL (never fetched by itself).
    Url(SafeUrl),
    /// Nothing to open.
    None(Missing),
}

/// A media part, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// The wire type of the part (an AI SDK file: by its type's major part).
    pub kind: Kind,
    pub shown: Shown,
    pub src: Src,
    /// Lowercase, without parameters.
    pub mime: Option<String>,
    /// `metadata.filename` (or `name`, `title`); an AI SDK file's `filename`.
    pub name: Option<String>,
    /// What an image shows as its alternative text: `metadata.alt` / `description` / `title`,
    /// else the name. `None`: the UI says "Image from the agent".
    pub alt: Option<String>,
    /// Bytes: decoded from the `data` (computed from its length), or `metadata.size`.
    pub size: Option<u64>,
}

/// How a part shows, by its type; without one, by its wire type when `by_kind` (a URL or a
/// provider file), else as a file (bytes of no declared type).
fn shown_for(mime: Option<&str>, kind: Kind, by_kind: bool) -> Shown {
    let listed = |list: &[&str], m: &str| list.contains(&m);
    match mime {
        Some(m) if listed(IMAGE_TYPES, m) => Shown::Image,
        Some(m) if listed(AUDIO_TYPES, m) => Shown::Audio,
        Some(m) if listed(VIDEO_TYPES, m) => Shown::Video,
        Some(_) => Shown::File,
        None if !by_kind => Shown::File,
        None => match kind {
            Kind::Image => Shown::Image,
            Kind::Audio => Shown::Audio,
            Kind::Video => Shown::Video,
            Kind::Document => Shown::File,
        },
    }
}

/// The bytes a base64 text decodes to (padded or not, whitespace counted), without decoding.
pub fn decoded_len(b64: &str) -> u64 {
    b64.trim_end_matches('=').len() as u64 * 3 / 4
}

fn text_field(meta: Option<&Map<String, Value>>, keys: &[&str]) -> Option<String> {
    let meta = meta?;
    keys.iter()
        .find_map(|k| meta.get(*k).and_then(Value::as_str))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| truncate_chars(s, MAX_NAME_CHARS))
}

/// Running total of the bytes decoded for one message.
struct Budget(u64);

impl Budget {
    /// `value` as a [`Src::Data`] when it fits, else too large.
    fn data(&mut self, value: &str) -> Src {
        let size = decoded_len(value);
        let total = self.0.saturating_add(size);
        if size > MAX_PART_BYTES || total > MAX_TOTAL_BYTES {
            return Src::None(Missing::TooLarge);
        }
        self.0 = total;
        Src::Data(Arc::from(value))
    }
}

fn url_src(value: &str) -> Src {
    SafeUrl::parse_image(value).map_or(Src::None(Missing::Unsupported), Src::Url)
}

fn classify_with(kind: Kind, m: &MediaPart, budget: &mut Budget) -> Media {
    let meta = m.metadata.as_ref().and_then(Value::as_object);
    let name = text_field(meta, &["filename", "name", "title"]);
    let alt = text_field(meta, &["alt", "description", "title"]).or_else(|| name.clone());
    let recorded = meta.and_then(|o| o.get("size")).and_then(Value::as_u64);
    let (mime, size, src) = match &m.source {
        PartSource::Data { value, mime_type } => {
            let dropped =
                value.is_empty() && meta.and_then(|o| o.get("dropped")) == Some(&Value::Bool(true));
            if dropped {
                (
                    Some(mime_type.as_str()),
                    recorded,
                    Src::None(Missing::NotSaved),
                )
            } else {
                let size = Some(decoded_len(value));
                (Some(mime_type.as_str()), size, budget.data(value))
            }
        }
        PartSource::Url { value, mime_type } => (mime_type.as_deref(), recorded, url_src(value)),
        PartSource::File { mime_type, .. } => (
            mime_type.as_deref(),
            recorded,
            Src::None(Missing::ProviderFile),
        ),
    };
    let by_kind = !matches!(m.source, PartSource::Data { .. });
    let mime = mime.map(normal_mime).filter(|m| !m.is_empty());
    Media {
        kind,
        shown: shown_for(mime.as_deref(), kind, by_kind),
        src,
        mime,
        name,
        alt,
        size,
    }
}

/// The media parts of a message or result, in order (text parts are skipped), with the budget
/// of one message: the `data` parts past [`MAX_TOTAL_BYTES`] together are too large.
pub fn classify_all<'a>(parts: impl IntoIterator<Item = &'a ContentPart>) -> Vec<Media> {
    let mut budget = Budget(0);
    parts
        .into_iter()
        .filter_map(|p| classify_in(p, &mut budget))
        .collect()
}

/// One media part on its own (`None` for a text part).
pub fn classify(part: &ContentPart) -> Option<Media> {
    classify_in(part, &mut Budget(0))
}

fn classify_in(part: &ContentPart, budget: &mut Budget) -> Option<Media> {
    let (kind, m) = match part {
        ContentPart::Text { .. } => return None,
        ContentPart::Image(m) => (Kind::Image, m),
        ContentPart::Audio(m) => (Kind::Audio, m),
        ContentPart::Video(m) => (Kind::Video, m),
        ContentPart::Document(m) => (Kind::Document, m),
    };
    Some(classify_with(kind, m, budget))
}

/// A `data:` URL's type and base64 text (`data:image/png;base64,iVBOR…`); `None` when `url`
/// is not a `data:` URL. A `data:` URL that is not base64 gives an empty type and `None` text.
pub fn parse_data_url(url: &str) -> Option<(String, Option<&str>)> {
    let scheme = url.get(..5)?;
    if !scheme.eq_ignore_ascii_case("data:") {
        return None;
    }
    let rest = url.get(5..)?;
    let (head, body) = rest.split_once(',')?;
    let mut params = head.split(';');
    let mime = normal_mime(params.next().unwrap_or_default());
    let base64 = params.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    Some((mime, base64.then_some(body)))
}

/// An AI SDK `file` (or `reasoning-file`) part, as the decoder keeps it: an activity whose
/// content is the chunk's fields, `url` (an `http(s)` or `data:` URL) and `mediaType`, with an
/// optional `filename`. `None` when the content has no `url` string (the activity card shows
/// it as it is). The declared `mediaType` decides how it shows.
pub fn from_file_activity(content: &Map<String, Value>) -> Option<Media> {
    let url = content.get("url").and_then(Value::as_str)?;
    let declared = content
        .get("mediaType")
        .and_then(Value::as_str)
        .map(normal_mime)
        .filter(|m| !m.is_empty());
    let name = text_field(Some(content), &["filename", "title"]);
    let mut budget = Budget(0);
    let (mime, size, src) = match parse_data_url(url) {
        Some((own, Some(b64))) => (
            declared.or((!own.is_empty()).then_some(own)),
            Some(decoded_len(b64)),
            budget.data(b64),
        ),
        Some((own, None)) => (
            declared.or((!own.is_empty()).then_some(own)),
            None,
            Src::None(Missing::Unsupported),
        ),
        None => (declared, None, url_src(url)),
    };
    let kind = crate::view::attachments::kind(mime.as_deref().unwrap_or_default());
    Some(Media {
        kind,
        shown: shown_for(mime.as_deref(), kind, false),
        src,
        mime,
        alt: name.clone(),
        name,
        size,
    })
}

/// The type a `blob:` URL of this part is made with: the allow-listed type of an image or a
/// player; `application/octet-stream` for a file (whatever it declared, so that opening the
/// `blob:` URL, which has the chat's origin, can never run it as a page).
pub fn blob_type(m: &Media) -> &str {
    match (m.shown, m.mime.as_deref()) {
        (Shown::Image | Shown::Audio | Shown::Video, Some(mime)) => mime,
        _ => "application/octet-stream",
    }
}
