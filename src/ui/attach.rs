//! Attachments (issue 13 item 1), the browser side of [`crate::view::attachments`]: files
//! from the composer's picker, dropped on it or pasted into it are checked against the page's
//! [`Limits`], read (or handed to the page's upload hook) and shown as chips — a thumbnail
//! for an image, name, size and type for the rest — until the message is sent as content
//! parts. A sent message shows its own attachments the same way, and the agent's media (a tool
//! result's parts, an AI SDK file) look the same ([`media_item`], as [`crate::view::media`]
//! classifies them): an inlined image as a thumbnail made from the bytes it carries (a `blob:`
//! URL, never a URL), a `url` image only after a click ([`crate::ui::markdown_view`]'s
//! placeholder), audio and video with native controls, anything else as a chip to download.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use crate::i18n::{fill, Strings};
use crate::plugins::UploadHook;
use crate::protocol::types::{Content, ContentPart, PartSource};
use crate::store::{AgentStore, Row};
use crate::ui::lazy::split;
use crate::ui::{tr, tr_now};
use crate::view::attachments::{check, part, unbase64, Kind, Limits, Pending};
use crate::view::format::{format_bytes, truncate_chars};
use crate::view::media::{blob_type, classify_all, from_file_activity, Media, Missing, Shown, Src};

/// One file on its way into a message.
#[derive(Clone)]
pub struct Attached {
    id: u32,
    pending: Pending,
    /// A `blob:` URL of an image, for its thumbnail (revoked when the chip goes).
    preview: Option<String>,
    /// The part to send, once read (or uploaded).
    part: Option<ContentPart>,
    /// The conversation it waits for, while another is open ([`switch_files`]).
    thread: String,
}

/// The composer's attachments: the chips, and the refusals to show.
#[derive(Clone, Copy)]
pub struct Attachments {
    pub list: RwSignal<Vec<Attached>>,
    pub errors: RwSignal<Vec<String>>,
    limits: StoredValue<Limits>,
    upload: StoredValue<Option<UploadHook>>,
    next: StoredValue<u32>,
    /// The files of the other conversations, each with its thread id ([`switch_files`]).
    pub parked: RwSignal<Vec<Attached>>,
}

/// How many files wait for their conversations ([`switch_files`]; the oldest go).
const PARKED_FILES: usize = 100;

/// At most this many files of one drop or paste are looked at (the limits refuse the rest).
const MAX_AT_ONCE: u32 = 100;

fn revoke(url: &Option<String>) {
    if let Some(url) = url {
        let _ = web_sys::Url::revoke_object_url(url);
    }
}

/// The files of a `FileList` (picker, drop, paste).
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<File> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length().min(MAX_AT_ONCE))
        .filter_map(|i| list.get(i))
        .collect()
}

impl Attachments {
    pub fn new(limits: Limits, upload: Option<UploadHook>) -> Self {
        Attachments {
            list: RwSignal::new(Vec::new()),
            errors: RwSignal::new(Vec::new()),
            limits: StoredValue::new(limits),
            upload: StoredValue::new(upload),
            next: StoredValue::new(0),
            parked: RwSignal::new(Vec::new()),
        }
    }

    /// What may be attached from now on (the agent's declaration changed).
    pub fn set_limits(&self, limits: Limits) {
        self.limits.set_value(limits);
    }

    /// A file is still being read or uploaded (Send waits).
    pub fn busy(&self) -> bool {
        self.list.with(|l| l.iter().any(|a| a.part.is_none()))
    }

    /// Check, then read (or upload) each file; refusals are worded into `errors`.
    pub fn add(&self, files: Vec<File>, t: &'static Strings) {
        let mut errors = Vec::new();
        for file in files {
            let pending = Pending::new(&file.name(), &file.type_(), file.size().max(0.0) as u64);
            let already: Vec<Pending> = self
                .list
                .with_untracked(|l| l.iter().map(|a| a.pending.clone()).collect());
            if let Err(e) = self.limits.with_value(|l| check(l, &already, &pending)) {
                errors.push(crate::wording::attach_error(t, &e));
                continue;
            }
            let id = self.next.with_value(|n| *n);
            self.next.set_value(id.wrapping_add(1));
            let preview = (pending.kind() == Kind::Image)
                .then(|| web_sys::Url::create_object_url_with_blob(&file).ok())
                .flatten();
            self.list.update(|l| {
                l.push(Attached {
                    id,
                    pending: pending.clone(),
                    preview,
                    part: None,
                    thread: String::new(),
                })
            });
            let this = *self;
            let upload = self.upload.get_value();
            leptos::task::spawn_local(async move {
                let made = match upload {
                    Some(upload) => upload(file).await.map(|url| {
                        part(
                            pending.kind(),
                            PartSource::Url {
                                value: url,
                                mime_type: Some(pending.mime.clone()),
                            },
                            Some(&pending.name),
                        )
                    }),
                    None => read(&file).await.map(|bytes| pending.part(&bytes)),
                };
                match made {
                    Ok(p) => {
                        this.list.try_update(|l| {
                            if let Some(a) = l.iter_mut().find(|a| a.id == id) {
                                a.part = Some(p);
                            }
                        });
                    }
                    Err(reason) => {
                        let text = if this.upload.with_value(Option::is_some) {
                            fill(t.attach_upload_failed, &[&pending.name, &reason])
                        } else {
                            fill(t.attach_read_failed, &[&pending.name])
                        };
                        this.remove(id);
                        this.errors.try_update(|e| e.push(text));
                    }
                }
            });
        }
        self.errors.set(errors);
    }

    pub fn remove(&self, id: u32) {
        self.list.try_update(|l| {
            l.retain(|a| {
                let keep = a.id != id;
                if !keep {
                    revoke(&a.preview);
                }
                keep
            })
        });
    }

    /// The parts to send (every file is ready: see [`Attachments::busy`]); the chips go.
    pub fn take_parts(&self) -> Vec<ContentPart> {
        let list = self.list.try_update(std::mem::take).unwrap_or_default();
        self.errors.set(Vec::new());
        list.into_iter()
            .filter_map(|a| {
                revoke(&a.preview);
                a.part
            })
            .collect()
    }
}

/// A file's bytes.
async fn read(file: &File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| e.as_string().unwrap_or_default())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// "2.0 KB · image/png".
fn meta_line(size: Option<u64>, mime: Option<&str>, t: &Strings) -> String {
    let size = size.map(|n| format_bytes(usize::try_from(n).unwrap_or(usize::MAX), t));
    [size.as_deref(), mime]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

fn kind_label(kind: Kind, t: &Strings) -> &'static str {
    match kind {
        Kind::Image => t.media_image,
        Kind::Audio => t.media_audio,
        Kind::Video => t.media_video,
        Kind::Document => t.media_document,
    }
}

split!(attach:
    /// Another conversation opens (or the first, `from` empty): the files of the one left
    /// wait for it, the ones that waited for `to` come back (at most [`PARKED_FILES`] wait;
    /// the oldest go) — or, when none did, those its draft had when the page was left are
    /// named.
    pub fn switch_files(att: Attachments, from: String, to: String, store: AgentStore) -> () {
        let mut leaving = att.list.try_update(std::mem::take).unwrap_or_default();
        att.errors.set(Vec::new());
        for a in &mut leaving {
            a.thread = from.clone();
        }
        let mut back = Vec::new();
        att.parked.update(|parked| {
            parked.append(&mut leaving);
            let excess = parked.len().saturating_sub(PARKED_FILES);
            for a in parked.drain(..excess) {
                revoke(&a.preview);
            }
            let (mine, others): (Vec<_>, Vec<_>) =
                std::mem::take(parked).into_iter().partition(|a| a.thread == to);
            *parked = others;
            back = mine;
        });
        if !back.is_empty() {
            att.list.set(back);
            note_files(att, store);
        } else {
            // The files its draft had when the page was left (reloaded, closed): what they
            // were, to be attached again (a page cannot keep a file the person picked).
            let t = tr_now(store);
            let notes = store
                .draft_files_from_before()
                .iter()
                .map(|(name, size)| {
                    let bytes = format_bytes(usize::try_from(*size).unwrap_or(usize::MAX), t);
                    fill(t.attach_again, &[&truncate_chars(name, 60), &bytes])
                })
                .collect();
            att.errors.set(notes);
        }
    }
);

/// The composer's files, as the open conversation's draft keeps them (name and size).
fn note_files(att: Attachments, store: AgentStore) {
    let files = att.list.with_untracked(|l| {
        l.iter()
            .map(|a| (a.pending.name.clone(), a.pending.size))
            .collect()
    });
    store.set_draft_files(files);
}

split!(attach:
    /// [`Attachments::add`] (the lean widget's `attach` module, fetched with the first file).
    pub fn add_files(att: Attachments, files: Vec<File>, store: AgentStore) -> () {
        att.add(files, tr_now(store));
        note_files(att, store)
    }
);

split!(attach:
    /// Media from the agent (a tool result's or a tool message's media parts, an AI SDK file):
    /// [`media_list`] (`attach` chunk, fetched with the first).
    pub fn agent_media(items: Vec<Media>, store: AgentStore) -> AnyView {
        media_list(items, Whose::Agent, tr(store)).unwrap_or_else(|| ().into_any())
    }
);

split!(attach:
    /// An AI SDK `file` part (an activity row holding the chunk's `url` and `mediaType`,
    /// [`from_file_activity`]), as media from the agent (`attach` chunk).
    pub fn file_activity(row: Row, store: AgentStore) -> AnyView {
        let version = store.row_version(&row.key);
        let key = row.key;
        let media = Memo::new(move |_| {
            version.track();
            store
                .with_message(&key, |m| match &m.content {
                    Some(Content::Object(o)) => from_file_activity(o),
                    _ => None,
                })
                .flatten()
        });
        (move || {
            media.get().map(|m| {
                view! { <div class="agui-message__media">{media_item(m, Whose::Agent, tr(store))}</div> }
            })
        })
        .into_any()
    }
);

split!(attach:
    /// The composer's chips and refusals, while there are any (the lean widget fetches the
    /// `attach` chunk with the first file or refusal).
    pub fn attachment_chips(att: Attachments, store: AgentStore) -> AnyView {
        pending_chips(att, store).into_any()
    }
);

split!(attach:
    /// The attachments of a sent message that has any ([`sent_attachments`]; `attach` chunk):
    /// `parts` is the message's (text, media), read where it is (the media are not copied).
    pub fn sent_media(parts: Memo<(String, Vec<ContentPart>)>, store: AgentStore) -> AnyView {
        parts
            .with_untracked(|(_, media)| sent_attachments(media, tr(store)))
            .unwrap_or_else(|| ().into_any())
    }
);

/// The composer's chips and refusals.
pub fn pending_chips(att: Attachments, store: AgentStore) -> impl IntoView {
    let t = move || tr(store);
    let chips = move || {
        let list = att.list.get();
        (!list.is_empty()).then(|| {
            let items: Vec<_> = list
                .into_iter()
                .map(|a| {
                    let t = t();
                    let name = truncate_chars(&a.pending.name, 60);
                    let remove = fill(t.attach_remove, &[&name]);
                    let meta = meta_line(Some(a.pending.size), Some(&a.pending.mime), t);
                    let thumb = match &a.preview {
                        Some(url) => view! { <img class="agui-attachment__thumb" src=url.clone() alt="" /> }.into_any(),
                        None => view! { <span class="agui-attachment__icon" aria-hidden="true">{kind_label(a.pending.kind(), t)}</span> }.into_any(),
                    };
                    let id = a.id;
                    view! {
                        <li class="agui-attachment" data-testid="attachment" data-kind=a.pending.kind().as_str() data-ready=a.part.is_some().to_string()>
                            {thumb}
                            <span class="agui-attachment__body">
                                <span class="agui-attachment__name">{name}</span>
                                <span class="agui-attachment__meta">
                                    {if a.part.is_some() { meta } else { t.attach_uploading.to_owned() }}
                                </span>
                            </span>
                            <button
                                type="button"
                                class="agui-attachment__remove"
                                data-testid="attachment-remove"
                                aria-label=remove.clone()
                                title=remove
                                on:click=move |_| {
                                    att.remove(id);
                                    note_files(att, store);
                                }
                            >
                                "×"
                            </button>
                        </li>
                    }
                })
                .collect();
            view! { <ul class="agui-attachments" data-testid="attachments" aria-label=move || t().attach_list_label>{items}</ul> }
        })
    };
    let errors = move || {
        att.errors.with(|e| {
            (!e.is_empty()).then(|| {
                let lines: Vec<_> = e.iter().map(|e| view! { <span>{e.clone()}</span> }).collect();
                view! { <p class="agui-attach-error" data-testid="attach-error" role="alert">{lines}</p> }
            })
        })
    };
    view! { {chips} {errors} }
}

/// A `blob:` URL of the bytes a part carries (base64), of type `kind`; `None` when they are not
/// base64. Revoked when the current owner (the view showing it) is cleaned up. Decoded here,
/// once per view of the part: the budgets ([`crate::view::media`]) bound it.
fn blob_of(b64: &str, kind: &str) -> Option<String> {
    let bytes = unbase64(b64)?;
    let array = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()).into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(kind);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&array, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let revoke_url = url.clone();
    on_cleanup(move || {
        let _ = web_sys::Url::revoke_object_url(&revoke_url);
    });
    Some(url)
}

/// Whose media a message shows: the person's own attachments or the agent's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    Person,
    Agent,
}

impl Whose {
    fn testid(self) -> &'static str {
        match self {
            Whose::Person => "sent-attachment",
            Whose::Agent => "agent-media",
        }
    }
}

/// The second line of a media chip: size and type, and why there is nothing to open.
fn media_meta(m: &Media, unreadable: bool, t: &Strings) -> String {
    let why = match &m.src {
        Src::None(Missing::NotSaved) => return t.attach_not_saved.to_owned(),
        Src::None(Missing::TooLarge) => Some(t.media_too_large),
        Src::None(Missing::ProviderFile) => Some(t.media_provider_file),
        Src::None(Missing::Unsupported) => Some(t.media_unavailable),
        _ if unreadable => Some(t.media_unavailable),
        _ => None,
    };
    let line = meta_line(m.size, m.mime.as_deref(), t);
    match why {
        Some(why) if line.is_empty() => why.to_owned(),
        Some(why) => format!("{line} · {why}"),
        None => line,
    }
}

/// One media part as a message shows it ([`crate::view::media`] decides how): an image (a
/// `blob:` thumbnail, or a placeholder loading its URL when clicked), a player with native
/// controls (never autoplay; a URL is not fetched before play), a file to download, or a chip.
pub fn media_item(m: Media, whose: Whose, t: &'static Strings) -> AnyView {
    let testid = whose.testid();
    let kind = m.shown.as_str();
    let name = m
        .name
        .as_deref()
        .map(|n| truncate_chars(n, 60))
        .unwrap_or_else(|| kind_label(m.kind, t).to_owned());
    let alt = m.alt.clone().unwrap_or_else(|| match whose {
        Whose::Person => name.clone(),
        Whose::Agent => t.media_from_agent.to_owned(),
    });
    let blob = match &m.src {
        Src::Data(b64) => Some(blob_of(b64, blob_type(&m))),
        _ => None,
    };
    let meta = media_meta(&m, blob == Some(None), t);
    let caption = format!("{name} · {meta}");
    match (m.shown, blob.flatten(), &m.src) {
        (Shown::Image, Some(url), _) => view! {
            <figure class="agui-attachment agui-attachment--sent" data-testid=testid data-kind=kind>
                <img class="agui-attachment__image" src=url alt=alt />
                <figcaption class="agui-attachment__meta">{caption}</figcaption>
            </figure>
        }
        .into_any(),
        (Shown::Image, None, Src::Url(src)) => view! {
            <span class="agui-attachment-url" data-testid=testid data-kind=kind>
                {crate::ui::markdown_view::image(src.clone(), alt, None)}
            </span>
        }
        .into_any(),
        (Shown::Audio | Shown::Video, Some(url), _) => {
            player(m.shown, url, "metadata", name, caption, testid)
        }
        (Shown::Audio | Shown::Video, None, Src::Url(src)) => player(
            m.shown,
            src.as_str().to_owned(),
            "none",
            name,
            caption,
            testid,
        ),
        (_, url, src) => {
            let label = view! {
                <span class="agui-attachment__icon" aria-hidden="true">{kind_label(m.kind, t)}</span>
                <span class="agui-attachment__body">
                    <span class="agui-attachment__name">{name.clone()}</span>
                    <span class="agui-attachment__meta">{meta.clone()}</span>
                </span>
            };
            // "Download report.pdf, 2.0 KB · application/pdf": what the link does, and what.
            let download = format!("{}, {meta}", fill(t.media_download, &[&name]));
            match (url, src) {
                // Bytes it carries: a download (an octet stream: never opened as a page).
                (Some(href), _) => view! {
                    <a class="agui-attachment agui-attachment--sent" data-testid=testid data-kind=kind
                        href=href download=m.name.clone().unwrap_or_default() aria-label=download.clone() title=download>
                        {label}
                    </a>
                }
                .into_any(),
                (None, Src::Url(href)) => view! {
                    <a class="agui-attachment agui-attachment--sent" data-testid=testid data-kind=kind
                        href=href.as_str().to_owned() target="_blank" rel="noopener noreferrer" referrerpolicy="no-referrer">
                        {label}
                    </a>
                }
                .into_any(),
                (None, _) => {
                    let missing = match src {
                        Src::None(Missing::TooLarge) => "too-large",
                        Src::None(Missing::NotSaved) => "not-saved",
                        Src::None(Missing::ProviderFile) => "provider-file",
                        _ => "unavailable",
                    };
                    view! {
                        <span class="agui-attachment agui-attachment--sent" data-testid=testid data-kind=kind
                            data-missing=missing data-dropped=(missing == "not-saved").to_string()>
                            {label}
                        </span>
                    }
                    .into_any()
                }
            }
        }
    }
}

/// An audio or video player with native controls: never autoplay; `preload` is `none` for a
/// URL (nothing is fetched before the person plays it).
fn player(
    shown: Shown,
    src: String,
    preload: &'static str,
    name: String,
    caption: String,
    testid: &'static str,
) -> AnyView {
    let element = match shown {
        Shown::Video => view! {
            <video class="agui-attachment__player agui-attachment__player--video" src=src controls=true preload=preload aria-label=name></video>
        }
        .into_any(),
        _ => view! {
            <audio class="agui-attachment__player" src=src controls=true preload=preload aria-label=name></audio>
        }
        .into_any(),
    };
    view! {
        <figure class="agui-attachment agui-attachment--sent" data-testid=testid data-kind=shown.as_str()>
            {element}
            <figcaption class="agui-attachment__meta">{caption}</figcaption>
        </figure>
    }
    .into_any()
}

/// Media parts side by side (a message's, a tool result's run of them).
pub fn media_list(items: Vec<Media>, whose: Whose, t: &'static Strings) -> Option<AnyView> {
    let items: Vec<AnyView> = items.into_iter().map(|m| media_item(m, whose, t)).collect();
    (!items.is_empty()).then(|| view! { <div class="agui-message__media">{items}</div> }.into_any())
}

/// The attachments of a sent message.
pub fn sent_attachments(parts: &[ContentPart], t: &'static Strings) -> Option<AnyView> {
    media_list(classify_all(parts), Whose::Person, t)
}
