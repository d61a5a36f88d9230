//! The event inspector (issue 6): the open thread's event log as a filterable list, one event's
//! detail (decoded JSON, the raw frame, its warnings), and time travel — the transcript and the
//! state *as of* the selected event, rebuilt from the log ([`crate::event_log`]), with the
//! JSON Patch that event applied. A scrubber, step, play/pause with a speed, and Live (follow
//! new events again). Traces: export (`.jsonl`, `.sse`), open or drop a file to replay it into
//! a new thread, at once or with its original timing. Per-run metrics.
//!
//! Cost: the list renders a window of [`WINDOW`] rows around the selection (or the tail while
//! live); a filter scans only entries it has not seen; a view is rebuilt only when the
//! selection changes (nearest checkpoint + fold). Everything agent-sent is rendered as text.

pub mod toggle;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::event_log::{
    changed_paths, describe, is_changed, short, state_leaves, EntryView, RunMetrics,
    DIAGNOSTIC_TYPE,
};
use crate::i18n::fill;
use crate::protocol::event::EventKind;
use crate::protocol::types::Message;
use crate::store::AgentStore;
use crate::store::TraceFormat;
use crate::trace;
use crate::ui::{tr, tr_now};

/// Rows of the event list rendered at once.
const WINDOW: usize = 150;
/// State leaves shown before "… more".
const MAX_LEAVES: usize = 400;
/// Messages of the chat pane shown (the last ones).
const MAX_MESSAGES: usize = 200;
/// Characters of one message shown in the chat pane.
const MESSAGE_CHARS: usize = 2_000;
/// Runs shown in the metrics table (the last ones).
const MAX_METRIC_RUNS: usize = 20;
/// Playback speeds offered (× the original timing).
const SPEEDS: &[f64] = &[0.5, 1.0, 2.0, 4.0, 10.0, 100.0];
/// A played step waits at least one frame and at most this long.
const MAX_STEP_MS: f64 = 2_000.0;
/// Makes the ids of the event list's rows unique per inspector (`aria-activedescendant`).
static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// One line of the event list.
#[derive(Debug, Clone, PartialEq)]
struct RowInfo {
    index: usize,
    kind: &'static str,
    ids: String,
    summary: String,
    diagnostic: Option<String>,
}

/// Which entries pass the filter (incremental: only new entries are scanned).
#[derive(Debug, Default)]
struct FilterCache {
    thread: String,
    kind: String,
    query: String,
    scanned: usize,
    matches: Vec<usize>,
}

/// The transcript and state after one event, rebuilt from the log.
#[derive(Debug, Clone, PartialEq)]
struct AsOf {
    entry: EntryView,
    messages: Vec<Message>,
    state: Value,
    changed: Vec<String>,
    error: Option<String>,
}

fn message_text(m: &Message) -> String {
    let mut out = m
        .content
        .as_ref()
        .map(|c| c.text().into_owned())
        .unwrap_or_default();
    for call in m.tool_calls.iter().flatten() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!(
            "→ {}({})",
            call.function.name, call.function.arguments
        ));
    }
    if let Some(e) = &m.error {
        out.push_str(&format!("\n⚠ {e}"));
    }
    short(&out, MESSAGE_CHARS)
}

fn diagnostic_line(entry: &EntryView) -> Option<String> {
    let d = entry.diagnostics.as_ref()?;
    let mut parts: Vec<String> = d.warnings.clone();
    parts.extend(d.error.clone());
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Start a download of `bytes` as `name` (Blob + object URL).
fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    let fail = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not an anchor")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).map_err(fail)?;
    Ok(())
}

/// Read a dropped or picked file, parse it as a trace and replay it into a new thread.
fn open_file(
    store: AgentStore,
    file: web_sys::File,
    timed: bool,
    notice: RwSignal<Option<String>>,
) {
    leptos::task::spawn_local(async move {
        let name = file.name();
        let bytes = match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
            Ok(buf) => js_sys::Uint8Array::new(&buf).to_vec(),
            Err(e) => {
                let reason = format!("{e:?}");
                notice.try_set(Some(fill(tr_now(store).inspector_read_failed, &[&reason])));
                return;
            }
        };
        open_bytes(store, &name, &bytes, timed, notice).await;
    });
}

/// Parse `bytes` as a trace named `name` and replay it into a new thread; problems go to
/// `notice`.
pub async fn open_bytes(
    store: AgentStore,
    name: &str,
    bytes: &[u8],
    timed: bool,
    notice: RwSignal<Option<String>>,
) {
    let trace = match trace::parse(name, bytes) {
        Ok(t) => t,
        Err(e) => {
            notice.try_set(Some(fill(
                tr_now(store).inspector_not_a_trace,
                &[&name, &e],
            )));
            return;
        }
    };
    notice.try_set(None);
    if let Err(e) = store.replay_trace(trace, timed).await {
        let t = tr_now(store);
        let reason = crate::wording::thread_error(t, &e);
        notice.try_set(Some(fill(t.inspector_replay_refused, &[&reason])));
    }
}

fn metrics_row(i: usize, m: RunMetrics) -> impl IntoView {
    let ms = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.0} ms"));
    let tools = m
        .tools
        .iter()
        .map(|(n, d)| format!("{n} {d:.0} ms"))
        .collect::<Vec<_>>()
        .join(", ");
    let usage = m
        .usage
        .as_ref()
        .map_or_else(|| "–".to_owned(), |u| short(&u.to_string(), 120));
    let cps = m
        .chars_per_second()
        .map_or_else(|| "–".to_owned(), |c| format!("{c:.0}"));
    let run = if m.run_id.is_empty() {
        format!("#{}", i + 1)
    } else {
        short(&m.run_id, 24)
    };
    view! {
        <tr data-testid="inspector-run">
            <td>{run}</td>
            <td>{m.events}</td>
            <td data-testid="inspector-ttft">{ms(m.first_token_ms)}</td>
            <td>{cps}</td>
            <td>{tools}</td>
            <td>{usage}</td>
            <td>{m.warnings + m.errors}</td>
        </tr>
    }
}

/// The inspector panel. Needs an [`AgentStore`] in context.
#[component]
pub fn Inspector() -> impl IntoView {
    let store = AgentStore::expect();
    // None = live (following the tail).
    let selected: RwSignal<Option<usize>> = RwSignal::new(None);
    let kind_filter = RwSignal::new(String::new());
    let query = RwSignal::new(String::new());
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(1.0f64);
    let timed = RwSignal::new(false);
    let notice: RwSignal<Option<String>> = RwSignal::new(None);
    let cache = StoredValue::new(FilterCache::default());
    let active = store.threads().active;

    // Another thread: its own log, back to live.
    Effect::new(move |previous: Option<String>| {
        let id = active.get();
        if previous.is_some_and(|p| p != id) {
            selected.set(None);
            playing.set(false);
        }
        id
    });

    let len = Memo::new(move |_| {
        store.log_version.track();
        store.rows.track();
        active.track();
        store.with_log(|l| l.len()).unwrap_or(0)
    });
    let stopped = Memo::new(move |_| {
        len.track();
        store
            .with_log(|l| l.stopped().map(|_| (l.len(), l.limits().max_bytes)))
            .flatten()
    });
    // The types seen so far, for the filter (only new entries are scanned).
    let kinds_seen = StoredValue::new((String::new(), 0usize, BTreeSet::<&'static str>::new()));
    let kinds = Memo::new(move |_| {
        let n = len.get();
        let thread = active.get();
        kinds_seen
            .try_update_value(|(t, scanned, set)| {
                if *t != thread || *scanned > n {
                    *t = thread;
                    *scanned = 0;
                    set.clear();
                }
                store.with_log(|l| set.extend((*scanned..n).filter_map(|i| l.kind(i))));
                *scanned = n;
                set.iter().copied().collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });
    let position = move || selected.get().unwrap_or(len.get().saturating_sub(1));

    let rows = Memo::new(move |_| {
        let n = len.get();
        let kind = kind_filter.get();
        let q = query.get().to_lowercase();
        let sel = selected.get();
        let thread = active.get();
        store
            .with_log(|log| {
                let filtered = !kind.is_empty() || !q.is_empty();
                let (start, total, matches) = cache
                    .try_update_value(|c| {
                        if c.thread != thread || c.kind != kind || c.query != q || c.scanned > n {
                            *c = FilterCache {
                                thread: thread.clone(),
                                kind: kind.clone(),
                                query: q.clone(),
                                ..Default::default()
                            };
                        }
                        if filtered {
                            for i in c.scanned..n {
                                let kind_ok = kind.is_empty() || log.kind(i) == Some(kind.as_str());
                                let text_ok = q.is_empty()
                                    || String::from_utf8_lossy(log.raw(i))
                                        .to_lowercase()
                                        .contains(&q)
                                    || log.kind(i).is_some_and(|k| k.to_lowercase().contains(&q));
                                if kind_ok && text_ok {
                                    c.matches.push(i);
                                }
                            }
                        }
                        c.scanned = n;
                        let total = if filtered { c.matches.len() } else { n };
                        let at = |p: usize| {
                            if filtered {
                                c.matches.get(p).copied()
                            } else {
                                Some(p)
                            }
                        };
                        let pos = match sel {
                            Some(i) if filtered => c.matches.partition_point(|&m| m < i),
                            Some(i) => i,
                            None => total,
                        };
                        let start = pos
                            .saturating_sub(WINDOW / 2)
                            .min(total.saturating_sub(WINDOW));
                        let end = (start + WINDOW).min(total);
                        let picked: Vec<usize> = (start..end).filter_map(at).collect();
                        (start, total, picked)
                    })
                    .unwrap_or_default();
                let rows: Vec<RowInfo> = matches
                    .into_iter()
                    .filter_map(|i| {
                        let v = log.view(i)?;
                        let (ids, summary) = v.event.as_ref().map(describe).unwrap_or_default();
                        Some(RowInfo {
                            index: i,
                            kind: v.kind,
                            ids,
                            summary,
                            diagnostic: diagnostic_line(&v),
                        })
                    })
                    .collect();
                (start, total, rows)
            })
            .unwrap_or_default()
    });

    let as_of = Memo::new(move |_| {
        active.track();
        let i = selected.get()?;
        store
            .with_log(|log| {
                let entry = log.view(i)?;
                let changed = entry.event.as_ref().map(changed_paths).unwrap_or_default();
                let (messages, state, error) = match log.thread_at(i + 1) {
                    Ok(t) => (t.messages, t.state, None),
                    Err(e) => (Vec::new(), Value::Null, Some(e.to_string())),
                };
                Some(AsOf {
                    entry,
                    messages,
                    state,
                    changed,
                    error,
                })
            })
            .flatten()
    });

    let step = move |delta: i64| {
        playing.set(false);
        let n = len.get_untracked();
        if n == 0 {
            return;
        }
        let cur = selected.get_untracked().unwrap_or(n - 1) as i64;
        let next = (cur + delta).clamp(0, n as i64 - 1) as usize;
        selected.set(Some(next));
    };
    let play = move || {
        if playing.get_untracked() {
            playing.set(false);
            return;
        }
        let n = len.get_untracked();
        if n == 0 {
            return;
        }
        if selected.get_untracked().is_none_or(|i| i + 1 >= n) {
            selected.set(Some(0));
        }
        playing.set(true);
        leptos::task::spawn_local(async move {
            while let (Some(true), Some(Some(cur)), Some(n)) = (
                playing.try_get_untracked(),
                selected.try_get_untracked(),
                len.try_get_untracked(),
            ) {
                if cur + 1 >= n {
                    playing.try_set(false);
                    break;
                }
                let gap = store
                    .with_log(|l| l.at_ms(cur + 1).zip(l.at_ms(cur)).map(|(b, a)| b - a))
                    .flatten()
                    .unwrap_or(0.0);
                let wait = (gap / speed.get_untracked().max(0.01)).clamp(16.0, MAX_STEP_MS);
                crate::transport::sleep(wait as u32).await;
                if playing.try_get_untracked() != Some(true) {
                    break;
                }
                selected.try_set(Some(cur + 1));
            }
        });
    };
    let export = move |format: TraceFormat| {
        let bytes = store.export_trace(format);
        let name = format!("agui-trace-{}.{}", store.thread_id(), format.extension());
        if let Err(e) = download(&name, &bytes, format.mime()) {
            notice.set(Some(fill(tr_now(store).inspector_download_failed, &[&e])));
        }
    };
    let on_file = move |ev: web_sys::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            open_file(store, file, timed.get_untracked(), notice);
        }
        input.set_value("");
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            open_file(store, file, timed.get_untracked(), notice);
        }
    };

    // Keep the selected row in sight while scrubbing or playing: the list scrolls, never the
    // drawer or the page around it (the list is the rows' offset parent, see inspector.css).
    let events_list: NodeRef<leptos::html::Ol> = NodeRef::new();
    Effect::new(move |_| {
        let Some(i) = selected.get() else { return };
        rows.track();
        let Some(list) = events_list.get_untracked() else {
            return;
        };
        let Some(row) = list
            .query_selector(&format!(r#"[data-index="{i}"]"#))
            .ok()
            .flatten()
            .and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        let (top, height) = (row.offset_top(), row.offset_height());
        let (scroll, view) = (list.scroll_top(), list.client_height());
        if top < scroll {
            list.set_scroll_top(top);
        } else if top + height > scroll + view {
            list.set_scroll_top(top + height - view);
        }
    });

    // The event list is a listbox: the list keeps the focus, the selected row is its active
    // descendant, arrow keys (and Home/End) move the selection through the rows shown.
    let uid = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let row_id = move |i: usize| format!("agui-inspector-{uid}-event-{i}");
    let on_list_key = move |ev: web_sys::KeyboardEvent| {
        let (_, _, shown) = rows.get_untracked();
        let (Some(first), Some(last)) = (shown.first(), shown.last()) else {
            return;
        };
        let at = selected
            .get_untracked()
            .and_then(|i| shown.iter().position(|r| r.index == i));
        let next = match (ev.key().as_str(), at) {
            ("Home", _) => first.index,
            ("End", _) => last.index,
            ("ArrowUp" | "ArrowDown", None) => last.index,
            ("ArrowUp", Some(p)) => shown[p.saturating_sub(1)].index,
            ("ArrowDown", Some(p)) => shown[(p + 1).min(shown.len() - 1)].index,
            _ => return,
        };
        ev.prevent_default();
        playing.set(false);
        selected.set(Some(next));
    };
    let items = move || {
        let (_, _, rows) = rows.get();
        let sel = selected.get();
        rows.into_iter()
            .map(|r| {
                let i = r.index;
                let class = format!(
                    "agui-inspector__event{}{}",
                    if sel == Some(i) { " agui-inspector__event--selected" } else { "" },
                    if r.diagnostic.is_some() { " agui-inspector__event--diagnostic" } else { "" },
                );
                view! {
                    <li
                        class=class
                        id=row_id(i)
                        role="option"
                        data-testid="inspector-event"
                        data-index=i.to_string()
                        data-type=r.kind
                        aria-selected=(sel == Some(i)).to_string()
                        on:click=move |_| {
                            playing.set(false);
                            selected.set(Some(i));
                        }
                    >
                        <span class="agui-inspector__event-index">{i}</span>
                        <span class="agui-inspector__event-type">{r.kind}</span>
                        <span class="agui-inspector__event-ids">{r.ids}</span>
                        <span class="agui-inspector__event-summary">{r.summary}</span>
                        {r.diagnostic.map(|d| view! {
                            <span class="agui-inspector__event-diagnostic" data-testid="inspector-diagnostic">{d}</span>
                        })}
                    </li>
                }
            })
            .collect::<Vec<_>>()
    };
    let range = move || {
        let (start, total, _) = rows.get();
        (total > 0).then(|| format!("{}–{} / {total}", start + 1, (start + WINDOW).min(total)))
    };
    let active_row = move || {
        let sel = selected.get()?;
        rows.with(|(_, _, shown)| shown.iter().any(|r| r.index == sel))
            .then(|| row_id(sel))
    };

    let detail = move || {
        let t = tr(store);
        let Some(v) = as_of.get() else {
            let hint = if len.get() == 0 {
                t.inspector_empty
            } else {
                t.inspector_live_hint
            };
            return view! { <p class="agui-inspector__hint" data-testid="inspector-live-hint">{hint}</p> }.into_any();
        };
        let json = v
            .entry
            .event
            .as_ref()
            .map(crate::view::tool::pretty_value)
            .unwrap_or_else(|| DIAGNOSTIC_TYPE.to_owned());
        let diagnostics = diagnostic_line(&v.entry);
        let patch = match v.entry.event.as_ref().map(|e| &e.kind) {
            Some(EventKind::StateDelta(d)) => d
                .delta
                .iter()
                .map(|op| {
                    let name = op.get("op").and_then(Value::as_str).unwrap_or("?").to_owned();
                    let path = op.get("path").and_then(Value::as_str).unwrap_or("").to_owned();
                    let from = op.get("from").and_then(Value::as_str).map(|f| format!(" ← {f}"));
                    let value = op.get("value").map(|x| short(&x.to_string(), 120));
                    let (op_attr, path_attr) = (name.clone(), path.clone());
                    view! {
                        <li class="agui-inspector__op" data-testid="inspector-patch-op" data-op=op_attr data-path=path_attr>
                            <span class="agui-inspector__op-name">{name}</span>
                            " "
                            <code>{path}</code>
                            {from}
                            {value.map(|x| view! { " " <code class="agui-inspector__op-value">{x}</code> })}
                        </li>
                    }
                })
                .collect::<Vec<_>>()
                .into_any(),
            Some(EventKind::StateSnapshot(_)) => view! { <li>{t.inspector_snapshot}</li> }.into_any(),
            _ => view! { <li>{t.inspector_no_state_change}</li> }.into_any(),
        };
        let (leaves, cut) = state_leaves(&v.state, MAX_LEAVES);
        let leaves = if leaves.is_empty() {
            view! { <li>{t.inspector_no_state}</li> }.into_any()
        } else {
            leaves
                .into_iter()
                .map(|(path, value)| {
                    let changed = is_changed(&path, &v.changed);
                    let path_attr = path.clone();
                    view! {
                        <li
                            class=if changed { "agui-inspector__leaf agui-inspector__leaf--changed" } else { "agui-inspector__leaf" }
                            data-testid="inspector-state-path"
                            data-path=path_attr
                            data-changed=changed.to_string()
                        >
                            <code class="agui-inspector__leaf-path">{path}</code>
                            " "
                            <code class="agui-inspector__leaf-value">{value}</code>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
                .into_any()
        };
        let skip = v.messages.len().saturating_sub(MAX_MESSAGES);
        let messages = v
            .messages
            .iter()
            .skip(skip)
            .map(|m| {
                let role = m.role.as_str();
                view! {
                    <li
                        class=format!("agui-inspector__message agui-inspector__message--{role}")
                        data-testid="inspector-message"
                        data-role=role
                        data-message-id=m.id.clone()
                    >
                        <span class="agui-inspector__message-role">{role}</span>
                        <span class="agui-inspector__message-text" data-testid="inspector-message-text">{message_text(m)}</span>
                    </li>
                }
            })
            .collect::<Vec<_>>();
        view! {
            <div class="agui-inspector__panes">
                <section class="agui-inspector__pane agui-inspector__pane--event" data-testid="inspector-detail">
                    <h3 class="agui-inspector__pane-title">
                        {fill(t.inspector_event_title, &[&v.entry.index, &v.entry.kind, &format!("{:.0}", v.entry.at_ms)])}
                    </h3>
                    {diagnostics.map(|d| view! { <p class="agui-inspector__diagnostics" data-testid="inspector-detail-diagnostics">{d}</p> })}
                    {v.error.clone().map(|e| view! { <p class="agui-inspector__diagnostics">{e}</p> })}
                    <pre class="agui-inspector__json" data-testid="inspector-json">{json}</pre>
                    <h4 class="agui-inspector__pane-subtitle">{t.inspector_raw}</h4>
                    <pre class="agui-inspector__json" data-testid="inspector-raw">{v.entry.raw.clone()}</pre>
                </section>
                <section class="agui-inspector__pane agui-inspector__pane--state">
                    <h3 class="agui-inspector__pane-title">{t.inspector_patch}</h3>
                    <ul class="agui-inspector__patch" data-testid="inspector-patch">{patch}</ul>
                    <h3 class="agui-inspector__pane-title">{t.inspector_state}</h3>
                    <ul class="agui-inspector__state" data-testid="inspector-state" data-index=v.entry.index.to_string()>
                        {leaves}
                    </ul>
                    {cut.then(|| view! { <p class="agui-inspector__hint">{t.inspector_more_leaves}</p> })}
                </section>
                <section class="agui-inspector__pane agui-inspector__pane--chat" data-testid="inspector-chat">
                    <h3 class="agui-inspector__pane-title">{t.inspector_chat}</h3>
                    <ol class="agui-inspector__messages">{messages}</ol>
                </section>
            </div>
        }
        .into_any()
    };

    // The last runs' metrics (a long thread's older runs are not re-rendered every frame).
    let metrics = move || {
        len.track();
        store
            .with_log(|l| {
                let runs = l.runs();
                let first = runs.len().saturating_sub(MAX_METRIC_RUNS);
                runs.iter()
                    .enumerate()
                    .skip(first)
                    .map(|(i, r)| (i, r.metrics.clone()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
            .into_iter()
            .map(|(i, m)| metrics_row(i, m))
            .collect::<Vec<_>>()
    };

    view! {
        <section
            class="agui-inspector"
            data-testid="inspector"
            aria-label=move || tr(store).inspector_title
            on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=on_drop
        >
            <header class="agui-inspector__header">
                <h2 class="agui-inspector__title">{move || tr(store).inspector_title}</h2>
                <div class="agui-inspector__traces">
                    <button type="button" class="agui-button agui-button--secondary" data-testid="trace-export" on:click=move |_| export(TraceFormat::Jsonl)>
                        {move || tr(store).inspector_export_jsonl}
                    </button>
                    <button type="button" class="agui-button agui-button--ghost" data-testid="trace-export-sse" on:click=move |_| export(TraceFormat::Sse)>
                        {move || tr(store).inspector_export_sse}
                    </button>
                    <label class="agui-button agui-button--ghost agui-inspector__open">
                        {move || tr(store).inspector_open}
                        <input type="file" class="agui-visually-hidden" accept=".jsonl,.json,.sse,.txt" data-testid="trace-open" on:change=on_file />
                    </label>
                    <label class="agui-inspector__check">
                        <input type="checkbox" data-testid="trace-timed" prop:checked=move || timed.get() on:change=move |ev| timed.set(event_target_checked(&ev)) />
                        {move || tr(store).inspector_timed}
                    </label>
                </div>
                <button type="button" class="agui-button agui-button--ghost" aria-label=move || tr(store).inspector_close on:click=move |_| store.inspector_open.set(false)>
                    "×"
                </button>
            </header>
            {move || stopped.get().map(|(events, max_bytes)| {
                let mb = format!("{:.0}", max_bytes as f64 / 1e6);
                let text = fill(tr(store).inspector_log_full, &[&events, &mb]);
                view! { <p class="agui-inspector__notice" role="status" data-testid="inspector-notice">{text}</p> }
            })}
            {move || notice.get().map(|s| view! { <p class="agui-inspector__notice" role="alert" data-testid="inspector-error">{s}</p> })}
            <div class="agui-inspector__timeline" role="group" aria-label=move || tr(store).inspector_timeline_label>
                <button type="button" class="agui-button agui-button--ghost" data-testid="inspector-back" aria-label=move || tr(store).inspector_back on:click=move |_| step(-1)>"◀"</button>
                <button type="button" class="agui-button agui-button--ghost" data-testid="inspector-play" on:click=move |_| play()>
                    {move || if playing.get() { tr(store).inspector_pause } else { tr(store).inspector_play }}
                </button>
                <button type="button" class="agui-button agui-button--ghost" data-testid="inspector-forward" aria-label=move || tr(store).inspector_forward on:click=move |_| step(1)>"▶"</button>
                <input
                    type="range"
                    class="agui-inspector__scrubber"
                    data-testid="inspector-scrubber"
                    aria-label=move || tr(store).inspector_scrubber
                    aria-valuetext=move || {
                        let n = len.get();
                        fill(tr(store).inspector_position, &[&if n == 0 { 0 } else { position() + 1 }, &n])
                    }
                    min="0"
                    prop:max=move || len.get().saturating_sub(1).to_string()
                    prop:value=move || position().to_string()
                    disabled=move || len.get() == 0
                    on:input=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            playing.set(false);
                            selected.set(Some(i));
                        }
                    }
                />
                <span class="agui-inspector__position" data-testid="inspector-position">
                    {move || format!("{} / {}", if len.get() == 0 { 0 } else { position() + 1 }, len.get())}
                </span>
                <label class="agui-inspector__speed">
                    {move || tr(store).inspector_speed}
                    <select data-testid="inspector-speed" aria-label=move || tr(store).inspector_speed on:change=move |ev| {
                        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
                            speed.set(s);
                        }
                    }>
                        {SPEEDS.iter().map(|s| view! { <option value=s.to_string() selected=*s == 1.0>{format!("{s}×")}</option> }).collect::<Vec<_>>()}
                    </select>
                </label>
                <button
                    type="button"
                    class="agui-button agui-button--secondary"
                    data-testid="inspector-live"
                    aria-pressed=move || selected.get().is_none().to_string()
                    on:click=move |_| {
                        playing.set(false);
                        selected.set(None);
                    }
                >
                    {move || tr(store).inspector_live}
                </button>
            </div>
            <div class="agui-inspector__body">
                <div class="agui-inspector__list">
                    <div class="agui-inspector__filters">
                        <select
                            data-testid="inspector-type-filter"
                            aria-label=move || tr(store).inspector_type_filter
                            on:change=move |ev| kind_filter.set(event_target_value(&ev))>
                            <option value="">{move || tr(store).inspector_all_types}</option>
                            {move || kinds.get().into_iter().map(|k| view! { <option value=k>{k}</option> }).collect::<Vec<_>>()}
                        </select>
                        <input
                            type="search"
                            data-testid="inspector-search"
                            placeholder=move || tr(store).inspector_search
                            aria-label=move || tr(store).inspector_search
                            on:input=move |ev| query.set(event_target_value(&ev))
                        />
                    </div>
                    <p class="agui-inspector__range">{range}</p>
                    <ol
                        class="agui-inspector__events"
                        data-testid="inspector-events"
                        node_ref=events_list
                        role="listbox"
                        tabindex="0"
                        aria-label=move || tr(store).inspector_events
                        aria-activedescendant=active_row
                        on:keydown=on_list_key
                    >
                        {items}
                    </ol>
                </div>
                <div class="agui-inspector__detail">{detail}</div>
            </div>
            <details class="agui-inspector__metrics" open>
                <summary>{move || tr(store).inspector_runs}</summary>
                <table data-testid="inspector-metrics">
                    <thead>
                        <tr>
                            <th>{move || tr(store).inspector_run}</th>
                            <th>{move || tr(store).inspector_events}</th>
                            <th>{move || tr(store).inspector_ttft}</th>
                            <th>{move || tr(store).inspector_cps}</th>
                            <th>{move || tr(store).inspector_tools}</th>
                            <th>{move || tr(store).inspector_usage}</th>
                            <th>{move || tr(store).inspector_warnings}</th>
                        </tr>
                    </thead>
                    <tbody>{metrics}</tbody>
                </table>
            </details>
            <p class="agui-inspector__drop-hint">{move || tr(store).inspector_drop}</p>
        </section>
    }
}
