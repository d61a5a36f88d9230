//! The parts every tool card is made of, for the generic body and for renderers that reuse
//! them: the arguments as they stream ([`args_section`]), the result ([`result_section`]) and
//! long texts collapsed with their size and "Show all" ([`text_block`]). Their models are pure
//! (`crate::view::tool`); agent output reaches the DOM only as text nodes.

use std::sync::Arc;

use leptos::prelude::*;

use crate::i18n::fill;
use crate::store::AgentStore;
use crate::ui::attach::agent_media;
use crate::ui::lazy::lazy;
use crate::ui::tr;
use crate::view::format::format_bytes;
use crate::view::media::Media;
use crate::view::tool::{
    args_view, result_model, ArgField, ArgsView, PartView, ResultBody, ResultModel, TextBlock,
    ToolStatus, ToolView,
};

/// The generic body: the arguments, then the result.
pub fn generic_body(view: Memo<Option<ToolView>>) -> impl IntoView {
    view! {
        {args_section(view)}
        {result_section(view)}
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgsShape {
    Waiting,
    Unparsed,
    Fields,
    Json,
}

/// The arguments, previewed from the partial JSON while they stream.
pub fn args_section(view: Memo<Option<ToolView>>) -> impl IntoView {
    let store = AgentStore::expect();
    let model = Memo::new(move |_| view.with(|v| v.as_ref().map_or(ArgsView::Waiting, args_view)));
    // Arguments may still arrive (an unknown call counts: its START is on the way).
    let streaming = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .is_none_or(|v| v.status == ToolStatus::StreamingArgs)
        })
    });
    let shape = Memo::new(move |_| {
        model.with(|m| match m {
            ArgsView::Waiting => ArgsShape::Waiting,
            ArgsView::Unparsed(_) => ArgsShape::Unparsed,
            ArgsView::Fields(_) => ArgsShape::Fields,
            ArgsView::Json(_) => ArgsShape::Json,
        })
    });
    // Only the switch between shapes rebuilds the section; a streaming field rebuilds its row.
    let content = move || {
        match shape.get() {
        ArgsShape::Waiting => view! {
            <p class="agui-tool-card__muted">
                {move || if streaming.get() { tr(store).tool_waiting_args } else { tr(store).tool_no_args }}
            </p>
        }
        .into_any(),
        ArgsShape::Unparsed => view! {
            <p class="agui-tool-card__muted">
                {move || {
                    model.with(|m| match m {
                        ArgsView::Unparsed(n) => {
                            fill(tr(store).tool_args_unparsed, &[&format_bytes(*n, tr(store))])
                        }
                        _ => String::new(),
                    })
                }}
            </p>
        }
        .into_any(),
        ArgsShape::Fields => view! {
            <dl class="agui-tool-card__fields">
                <For
                    each=move || {
                        model.with(|m| match m {
                            ArgsView::Fields(f) => f.clone(),
                            _ => Vec::new(),
                        })
                    }
                    key=|f| f.clone()
                    children=|f| {
                        let ArgField { key, value, kind } = f;
                        let class = format!("agui-tool-card__value agui-tool-card__value--{kind}");
                        let data_key = key.clone();
                        view! {
                            <div class="agui-tool-card__field" data-key=data_key>
                                <dt class="agui-tool-card__key">{key}</dt>
                                <dd class=class>{value}</dd>
                            </div>
                        }
                    }
                />
                <Show when=move || model.with(|m| matches!(m, ArgsView::Fields(f) if f.is_empty()))>
                    <div class="agui-tool-card__muted">
                        {move || if streaming.get() { "…" } else { tr(store).tool_no_args }}
                    </div>
                </Show>
            </dl>
        }
        .into_any(),
        ArgsShape::Json => view! {
            <div class="agui-tool-card__json-args">
                {move || {
                    model.with(|m| match m {
                        ArgsView::Json(b) => Some(text_block(b.clone(), "tool-args-text")),
                        _ => None,
                    })
                }}
            </div>
        }
        .into_any(),
    }
    };
    view! {
        <div
            class="agui-tool-card__section agui-tool-card__args"
            class:agui-tool-card__args--streaming=move || streaming.get()
            data-testid="tool-args"
        >
            <div class="agui-tool-card__label">"Arguments"</div>
            {content}
        </div>
    }
}

/// The result: an error notice, then the body. Rendered only once a result (or error) exists.
pub fn result_section(view: Memo<Option<ToolView>>) -> impl IntoView {
    let store = AgentStore::expect();
    let model = Memo::new(move |_| view.with(|v| v.as_ref().and_then(result_model)));
    let status = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.status)));
    move || match model.get() {
        Some(m) => result_view(m).into_any(),
        None => match status.get() {
            Some(ToolStatus::Error) => view! {
                <p class="agui-tool-card__muted" data-testid="tool-no-result">
                    {move || tr(store).tool_no_result}
                </p>
            }
            .into_any(),
            Some(ToolStatus::AwaitingInput) => view! {
                <p class="agui-tool-card__muted" data-testid="tool-awaiting">
                    {move || tr(store).tool_awaiting_input}
                </p>
            }
            .into_any(),
            Some(ToolStatus::AwaitingApproval) => view! {
                <p class="agui-tool-card__muted" data-testid="tool-awaiting-approval">
                    {move || tr(store).tool_awaiting_approval}
                </p>
            }
            .into_any(),
            _ => ().into_any(),
        },
    }
}

/// The view of one result model.
pub fn result_view(m: ResultModel) -> impl IntoView {
    let store = AgentStore::expect();
    let failed = m.error.is_some();
    let body = match m.body {
        ResultBody::Empty if failed => None,
        ResultBody::Empty => Some(
            view! { <p class="agui-tool-card__muted">{move || tr(store).tool_empty_result}</p> }
                .into_any(),
        ),
        ResultBody::Text(b) => Some(text_block(b, "tool-result-text").into_any()),
        ResultBody::Parts(parts) => Some(
            view! { <div class="agui-tool-card__parts">{parts_views(parts, store)}</div> }
                .into_any(),
        ),
    };
    view! {
        <div
            class="agui-tool-card__section agui-tool-card__result"
            class:agui-tool-card__result--error=failed
            data-testid="tool-result"
        >
            <div class="agui-tool-card__label">
                {move || if failed { tr(store).tool_error } else { tr(store).tool_result }}
            </div>
            {m.error.map(|e| view! {
                <p class="agui-tool-card__error" data-testid="tool-error" role="alert">{e}</p>
            })}
            {body}
        </div>
    }
}

/// A result's parts in order: each text a block, each run of media one row of them (images,
/// players, files: `ui::attach`'s, fetched with the first).
fn parts_views(parts: Vec<PartView>, store: AgentStore) -> Vec<AnyView> {
    let mut out = Vec::new();
    let mut run: Vec<Media> = Vec::new();
    let flush = |run: &mut Vec<Media>, out: &mut Vec<AnyView>| {
        if !run.is_empty() {
            let items = std::mem::take(run);
            out.push(lazy(store, move || agent_media(items.clone(), store)).into_any());
        }
    };
    for p in parts {
        match p {
            PartView::Text(b) => {
                flush(&mut run, &mut out);
                out.push(text_block(b, "tool-result-text").into_any());
            }
            PartView::Media(m) => run.push(m),
        }
    }
    flush(&mut run, &mut out);
    out
}

/// A text block: whole when short; otherwise its size, a bounded preview and "Show all".
pub fn text_block(b: TextBlock, testid: &'static str) -> impl IntoView {
    let store = AgentStore::expect();
    let expanded = RwSignal::new(false);
    let long = b.preview.is_some();
    let size = b.size_label(tr(store));
    let TextBlock {
        json,
        full,
        preview,
        ..
    } = b;
    let shown = move || -> Arc<str> {
        match &preview {
            Some(p) if !expanded.get() => p.clone(),
            _ => full.clone(),
        }
    };
    view! {
        <div
            class="agui-tool-card__text"
            class:agui-tool-card__text--json=json
            class:agui-tool-card__text--collapsed=move || long && !expanded.get()
            data-testid=testid
        >
            {long.then(|| view! {
                <div class="agui-tool-card__size" data-testid="tool-result-size">{size}</div>
            })}
            <pre class="agui-tool-card__pre">{shown}</pre>
            {long.then(|| view! {
                <button
                    type="button"
                    class="agui-tool-card__more"
                    data-testid="tool-result-show-all"
                    aria-expanded=move || expanded.get().to_string()
                    on:click=move |_| expanded.update(|e| *e = !*e)
                >
                    {move || if expanded.get() { tr(store).show_less } else { tr(store).show_all }}
                </button>
            })}
        </div>
    }
}
