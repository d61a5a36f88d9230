//! Attachments (issue 13 item 1), the browser side of [`crate::view::attachments`]: files
//! from the composer's picker, dropped on it or pasted into it are checked against the page's
//! [`Limits`], read (or handed to the page's upload hook) and shown as chips — a thumbnail
//! for an image, name, size and type for the rest — until the message is sent as content
//! parts. A sent message shows its own attachments the same way: an inlined image as a
//! thumbnail made from the bytes it carries (a `blob:` URL, never a URL), a `url` image only
//! after a click ([`crate::ui::markdown_view`]'s placeholder), anything else as a chip.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use crate::i18n::{fill, Strings};
use crate::markdown::SafeUrl;
use crate::plugins::UploadHook;
use crate::protocol::types::{ContentPart, MediaPart, PartSource};
use crate::store::AgentStore;
use crate::ui::lazy::split;
use crate::ui::{tr, tr_now};
use crate::view::attachments::{check, describe, part, unbase64, Kind, Limits, Pending};
use crate::view::format::{format_bytes, truncate_chars};

/// One file on its way into a message.
#[derive(Clone)]
pub struct Attached {
    id: u32,
    pending: Pending,
    /// A `blob:` URL of an image, for its thumbnail (revoked when the chip goes).
    preview: Option<String>,
    /// The part to send, once read (or uploaded).
    part: Option<ContentPart>,
}

/// The composer's attachments: the chips, and the refusals to show.
#[derive(Clone, Copy)]
pub struct Attachments {
    pub list: RwSignal<Vec<Attached>>,
    pub errors: RwSignal<Vec<String>>,
    limits: StoredValue<Limits>,
    upload: StoredValue<Option<UploadHook>>,
    next: StoredValue<u32>,
}

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
    /// [`Attachments::add`] (the lean widget's `attach` module, fetched with the first file).
    pub fn add_files(att: Attachments, files: Vec<File>, store: AgentStore) -> () {
        att.add(files, tr_now(store))
    }
);

split!(attach:
    /// The composer's chips and refusals, while there are any (the lean widget fetches the
    /// `attach` chunk with the first file or refusal).
    pub fn attachment_chips(att: Attachments, store: AgentStore) -> AnyView {
        pending_chips(att, move || tr(store)).into_any()
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
pub fn pending_chips(
    att: Attachments,
    t: impl Fn() -> &'static Strings + Copy + Send + Sync + 'static,
) -> impl IntoView {
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
                                on:click=move |_| att.remove(id)
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

/// A thumbnail of an image the message itself carries (its bytes as a `blob:` URL).
fn inline_thumbnail(m: &MediaPart) -> Option<String> {
    let PartSource::Data { value, mime_type } = &m.source else {
        return None;
    };
    // Budget: a thumbnail is decoded from at most this much base64 (a 24 MB image).
    if value.is_empty() || value.len() > 32 * 1024 * 1024 {
        return None;
    }
    let bytes = unbase64(value)?;
    let array = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()).into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime_type);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&array, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// The attachments of a sent message.
pub fn sent_attachments(parts: &[ContentPart], t: &'static Strings) -> Option<AnyView> {
    let chips: Vec<AnyView> = parts
        .iter()
        .filter_map(|p| {
            let chip = describe(p)?;
            let name = chip
                .name
                .as_deref()
                .map(|n| truncate_chars(n, 60))
                .unwrap_or_else(|| kind_label(chip.kind, t).to_owned());
            let meta = if chip.dropped {
                t.attach_not_saved.to_owned()
            } else {
                meta_line(chip.size, chip.mime.as_deref(), t)
            };
            let media = match p {
                ContentPart::Image(m) => Some(m),
                _ => None,
            };
            let thumb = media.and_then(inline_thumbnail);
            if let Some(url) = thumb {
                let revoke_url = url.clone();
                on_cleanup(move || {
                    let _ = web_sys::Url::revoke_object_url(&revoke_url);
                });
                return Some(
                    view! {
                        <figure class="agui-attachment agui-attachment--sent" data-testid="sent-attachment" data-kind="image">
                            <img class="agui-attachment__image" src=url alt=name.clone() />
                            <figcaption class="agui-attachment__meta">{name}" · "{meta}</figcaption>
                        </figure>
                    }
                    .into_any(),
                );
            }
            // A URL is shown, never fetched: an image only after a click, the rest as a link.
            let url_image = (chip.kind == Kind::Image)
                .then(|| chip.url.as_deref().and_then(SafeUrl::parse_image))
                .flatten();
            if let Some(src) = url_image {
                return Some(crate::ui::markdown_view::image(src, name, None));
            }
            let link = chip.url.as_deref().and_then(SafeUrl::parse_link);
            let label = view! {
                <span class="agui-attachment__icon" aria-hidden="true">{kind_label(chip.kind, t)}</span>
                <span class="agui-attachment__body">
                    <span class="agui-attachment__name">{name}</span>
                    <span class="agui-attachment__meta">{meta}</span>
                </span>
            };
            Some(match link {
                Some(href) => view! {
                    <a class="agui-attachment agui-attachment--sent" data-testid="sent-attachment" data-kind=chip.kind.as_str()
                        href=href.as_str().to_owned() target="_blank" rel="noopener noreferrer" referrerpolicy="no-referrer">
                        {label}
                    </a>
                }
                .into_any(),
                None => view! {
                    <span class="agui-attachment agui-attachment--sent" data-testid="sent-attachment" data-kind=chip.kind.as_str() data-dropped=chip.dropped.to_string()>
                        {label}
                    </span>
                }
                .into_any(),
            })
        })
        .collect();
    (!chips.is_empty()).then(|| view! { <div class="agui-message__media">{chips}</div> }.into_any())
}
