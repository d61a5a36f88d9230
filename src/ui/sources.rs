//! An answer's sources and its markers on screen (the data: [`crate::view::sources`]).
//!
//! - [`provide_plan`] (the transcript's rows, once per row added): which answers have sources.
//! - [`provide_citations`] (an assistant row): its answer's sources, re-read when the plan or
//!   one of its source activities changes, never per text delta; [`sources_list`] under the
//!   answer's last assistant message.
//! - [`provide_notes`] (a message's Markdown): the labels of the footnote definitions found so
//!   far ([`crate::markdown::Block::Footnote`]); [`notes_list`] at the end of the message.
//! - [`text_with_markers`]: `[n]` and `[^label]` in plain text as small links when they resolve
//!   (a reactive part each, so a source or a definition arriving later turns them into links),
//!   as written otherwise.
//!
//! The chat renders inside a shadow root, where a `#id` link does not reach its target from
//! the document: a marker's click finds the entry in its own root (shadow root or document)
//! and focuses it, which scrolls it into view.
//!
//! Links open like Markdown links: `rel="noopener noreferrer" target="_blank"
//! referrerpolicy="no-referrer"`, and only for a URL that passed the allow-list.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::fill;
use crate::markdown::{Block, IncrementalMarkdown};
use crate::store::{AgentStore, Row};
use crate::ui::lazy::{lazy, split};
use crate::ui::tr_ctx;
use crate::view::sources::{
    has_sources, is_source_activity, pieces, plan, AnswerSources, Piece, Source, SourcesPlan,
    Target,
};

/// Which answers have sources (provided by the transcript's rows).
#[derive(Clone, Copy)]
pub struct Plan(Memo<SourcesPlan>);

/// The sources an assistant row's markers resolve against, and the id prefix of its answer's
/// list entries.
#[derive(Clone, Copy)]
struct Citations {
    sources: Memo<AnswerSources>,
    prefix: Memo<String>,
}

/// The footnote labels of one message, in the order of their definitions, and the id prefix
/// of its notes.
#[derive(Clone)]
struct Notes {
    labels: Memo<Vec<String>>,
    prefix: String,
}

/// A short stable name for a key, safe in an `id` (FNV-1a).
fn id_part(key: &str) -> String {
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Provides the plan of `window`'s rows to the rows rendered below.
pub fn provide_plan(store: AgentStore, window: Signal<Vec<Row>>) {
    let p = Memo::new(move |_| {
        window.with(|rows| {
            plan(rows, |r| {
                store.with_message(&r.key, has_sources).unwrap_or(false)
            })
        })
    });
    provide_context(Plan(p));
}

/// Whether a row is a source activity its answer lists (then it shows nothing itself).
pub fn listed(store: AgentStore, key: &str) -> Option<Signal<bool>> {
    if !store.with_message(key, is_source_activity).unwrap_or(false) {
        return None;
    }
    let Plan(p) = use_context::<Plan>()?;
    let key = key.to_owned();
    Some(Signal::derive(move || p.with(|p| p.is_listed(&key))))
}

/// Provides an assistant row's citations; returns the view of its answer's list, shown when
/// this row is the answer's last assistant message.
pub fn provide_citations(store: AgentStore, key: String) -> AnyView {
    let Some(Plan(p)) = use_context::<Plan>() else {
        return ().into_any();
    };
    let own = key.clone();
    let answer = Memo::new(move |_| p.with(|p| p.answer_of(&own).cloned()));
    let sources = Memo::new(move |_| {
        answer.with(|a| {
            let Some(a) = a else {
                return AnswerSources::default();
            };
            let messages: Vec<_> = a
                .sources
                .iter()
                .filter_map(|k| {
                    store.row_version(k).track();
                    store.with_message(k, Clone::clone)
                })
                .collect();
            AnswerSources::collect(&messages)
        })
    });
    let prefix = Memo::new(move |_| {
        answer.with(|a| {
            a.as_ref()
                .map(|a| format!("agui-source-{}-", id_part(&a.anchor)))
                .unwrap_or_default()
        })
    });
    provide_context(Citations { sources, prefix });
    let shown = move || {
        answer.with(|a| a.as_ref().is_some_and(|a| a.anchor == key))
            && sources.with(|s| !s.is_empty())
    };
    view! {
        <Show when=shown>{move || lazy(store, move || sources_list(sources, prefix))}</Show>
    }
    .into_any()
}

split!(sources:
    /// The numbered list of an answer's sources (the lean widget fetches the `sources` module
    /// with the first).
    fn sources_list(sources: Memo<AnswerSources>, prefix: Memo<String>) -> AnyView {
        let entries = move || sources.with(|s| s.entries.clone());
        view! {
            <section class="agui-sources" data-testid="sources" aria-label=move || tr_ctx().sources_title>
                <h3 class="agui-sources__title">{move || tr_ctx().sources_title}</h3>
                <ol class="agui-sources__list">
                    <For
                        each=entries
                        key=|s: &Source| s.clone()
                        children=move |s| entry(s, prefix.get_untracked())
                    />
                </ol>
            </section>
        }    .into_any()
    }
);

fn entry(s: Source, prefix: String) -> impl IntoView {
    let label = s.label();
    let badge = s.badge().map(|b| {
        view! { <span class="agui-sources__badge" data-testid="source-host">{b.to_owned()}</span> }
    });
    let document = matches!(s.target, Target::Document { .. });
    let name = match &s.target {
        Target::Link { url, .. } => view! {
            <a
                class="agui-sources__link"
                data-testid="source-link"
                href=url.as_str().to_owned()
                rel="noopener noreferrer"
                target="_blank"
                referrerpolicy="no-referrer"
            >
                {label}
            </a>
        }
        .into_any(),
        Target::Refused(_) | Target::Document { .. } => {
            view! { <span class="agui-sources__name" data-testid="source-name">{label}</span> }
                .into_any()
        }
    };
    let filename = match &s.target {
        Target::Document {
            filename: Some(f), ..
        } if s.title.is_some() => {
            Some(view! { <span class="agui-sources__file">{f.clone()}</span> })
        }
        _ => None,
    };
    let snippet = s
        .snippet
        .clone()
        .map(|t| view! { <p class="agui-sources__snippet" dir="auto">{t}</p> });
    view! {
        <li
            class="agui-sources__item"
            class:agui-sources__item--document=document
            id=format!("{prefix}{}", s.number)
            value=s.number.to_string()
            tabindex="-1"
            data-testid="source"
            dir="auto"
        >
            {name}
            {filename}
            {badge}
            {snippet}
        </li>
    }
}

/// Focuses the element `id` in the root (shadow root or document) of the clicked link.
fn jump(ev: &leptos::ev::MouseEvent, id: &str) {
    ev.prevent_default();
    let Some(node) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
    else {
        return;
    };
    let root = node.get_root_node();
    let target = if let Some(shadow) = root.dyn_ref::<web_sys::ShadowRoot>() {
        shadow.get_element_by_id(id)
    } else if let Some(doc) = root.dyn_ref::<web_sys::Document>() {
        doc.get_element_by_id(id)
    } else {
        None
    };
    if let Some(el) = target.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// A small superscript link to `id` (`#id` for a copied link; the click focuses the entry).
fn marker(id: String, number: usize, label: String, testid: &'static str) -> AnyView {
    let href = format!("#{id}");
    view! {
        <sup class="agui-cite">
            <a
                class="agui-cite__link"
                href=href
                data-testid=testid
                aria-label=label
                on:click=move |ev| jump(&ev, &id)
            >
                {number.to_string()}
            </a>
        </sup>
    }
    .into_any()
}

fn cite(n: usize, raw: String) -> AnyView {
    let Some(c) = use_context::<Citations>() else {
        return raw.into_any();
    };
    (move || match c.sources.with(|s| s.cite(n).map(|e| e.number)) {
        Some(number) => marker(
            format!("{}{number}", c.prefix.get()),
            n,
            fill(tr_ctx().source_cite, &[&n]),
            "citation",
        ),
        None => raw.clone().into_any(),
    })
    .into_any()
}

fn note(label: String, raw: String) -> AnyView {
    let Some(notes) = use_context::<Notes>() else {
        return raw.into_any();
    };
    (move || match notes.labels.with(|l| l.iter().position(|x| *x == label)) {
        Some(i) => marker(
            format!("{}{}", notes.prefix, i + 1),
            i + 1,
            fill(tr_ctx().note_ref, &[&(i + 1)]),
            "footnote-ref",
        ),
        None => raw.clone().into_any(),
    })
    .into_any()
}

/// Plain text with its markers: those that resolve become links (see the module docs).
pub fn text_with_markers(text: &str) -> AnyView {
    pieces(text)
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => t.to_owned().into_any(),
            Piece::Cite { n, raw } => cite(n, raw.to_owned()),
            Piece::Note { label, raw } => note(label.to_owned(), raw.to_owned()),
        })
        .collect::<Vec<_>>()
        .into_any()
}

/// Appends the labels of `blocks`' footnote definitions that are new (the first definition of
/// a label wins, as in GFM) and calls `found` with each new one's index in `blocks`.
fn add_labels(labels: &mut Vec<String>, blocks: &[Block], mut found: impl FnMut(usize)) {
    for (i, b) in blocks.iter().enumerate() {
        if let Block::Footnote { label, .. } = b {
            if !labels.contains(label) {
                labels.push(label.clone());
                found(i);
            }
        }
    }
}

/// The definitions of the finished segments: their labels, and where each is (segment, block).
#[derive(Debug, Clone, PartialEq, Default)]
struct Finished {
    generation: u64,
    scanned: usize,
    labels: Vec<String>,
    at: Vec<(usize, usize)>,
}

/// Provides the footnotes of a message's Markdown, and returns the notes list for its end.
/// `segments` moves when a segment is finished (or the text was replaced: its generation),
/// `tail` on every update of the open tail. Per update: the tail's blocks; per finished
/// segment: that segment's.
pub fn provide_notes<S: Send + Sync + 'static>(
    state: StoredValue<S>,
    md: fn(&S) -> &IncrementalMarkdown,
    segments: Memo<(u64, usize)>,
    tail: Memo<u64>,
    row_key: &str,
    render: fn(&[Block]) -> AnyView,
) -> AnyView {
    let finished = Memo::new(move |prev: Option<&Finished>| {
        let (generation, n) = segments.get();
        let mut f = prev
            .filter(|p| p.generation == generation)
            .cloned()
            .unwrap_or(Finished {
                generation,
                ..Finished::default()
            });
        state.with_value(|s| {
            let segs = md(s).finished();
            for (i, seg) in segs.iter().enumerate().take(n).skip(f.scanned) {
                let Finished { labels, at, .. } = &mut f;
                add_labels(labels, seg, |j| at.push((i, j)));
            }
        });
        f.scanned = n.max(f.scanned);
        f
    });
    // The tail's new definitions: (label, blocks).
    let tail_defs = Memo::new(move |_| {
        tail.track();
        let mut labels = finished.with(|f| f.labels.clone());
        let known = labels.len();
        state
            .with_value(|s| {
                let blocks = md(s).tail();
                let mut at = Vec::new();
                add_labels(&mut labels, blocks, |j| at.push(j));
                at.into_iter()
                    .filter_map(|j| match blocks.get(j) {
                        Some(Block::Footnote { label, blocks }) => {
                            Some((label.clone(), blocks.clone()))
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            })
            .into_iter()
            .enumerate()
            .map(|(k, (l, b))| (known + k + 1, l, b))
            .collect::<Vec<_>>()
    });
    let labels = Memo::new(move |_| {
        let mut labels = finished.with(|f| f.labels.clone());
        tail_defs.with(|t| labels.extend(t.iter().map(|(_, l, _)| l.clone())));
        labels
    });
    let prefix = format!("agui-note-{}-", id_part(row_key));
    provide_context(Notes {
        labels,
        prefix: prefix.clone(),
    });
    let finished_prefix = prefix.clone();
    let items = move || {
        finished.with(|f| {
            f.at.iter()
                .enumerate()
                .map(|(i, (seg, j))| (f.generation, i + 1, *seg, *j))
                .collect::<Vec<_>>()
        })
    };
    let finished_item = move |(_, number, seg, j): (u64, usize, usize, usize)| {
        let blocks = state.with_value(|s| match md(s).finished().get(seg).and_then(|b| b.get(j)) {
            Some(Block::Footnote { blocks, .. }) => blocks.clone(),
            _ => Vec::new(),
        });
        note_item(&finished_prefix, number, render(&blocks))
    };
    view! {
        <Show when=move || labels.with(|l| !l.is_empty())>
            <section class="agui-notes" data-testid="footnotes" aria-label=move || tr_ctx().notes_title>
                <h3 class="agui-notes__title">{move || tr_ctx().notes_title}</h3>
                <ol class="agui-notes__list">
                    <For each=items key=|k| *k children=finished_item.clone() />
                    {
                        let prefix = prefix.clone();
                        move || {
                            tail_defs
                                .with(|t| {
                                    t.iter()
                                        .map(|(n, _, blocks)| note_item(&prefix, *n, render(blocks)))
                                        .collect::<Vec<_>>()
                                })
                        }
                    }
                </ol>
            </section>
        </Show>
    }
    .into_any()
}

/// One note of the list.
fn note_item(prefix: &str, number: usize, body: AnyView) -> AnyView {
    view! {
        <li
            class="agui-notes__item"
            id=format!("{prefix}{number}")
            value=number.to_string()
            tabindex="-1"
            data-testid="footnote"
            dir="auto"
        >
            {body}
        </li>
    }
    .into_any()
}
