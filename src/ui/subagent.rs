//! The transcript's entries: rows, and subagents' groups of rows ([`crate::view::subagents`]
//! groups them). A group is a `role="group"` named "Research agent (subagent)"; its header is
//! a real button (`aria-expanded`, `aria-controls`) with the name and the status, then the
//! error a failed subagent reported; its body is open while the subagent works and collapses
//! once it finished or failed (the person's own choice, once made, wins). Each message inside
//! is an `article` named after the subagent ("Message from Research agent"). Nested
//! subagents nest.
//!
//! A group's entries are a memo of its parent's (one pass over its siblings), so a row
//! appended to a group re-diffs that group's keyed list and its ancestors', nothing else.

use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;

use crate::store::{AgentStore, Row};
use crate::ui::lazy::{lazy, split};
use crate::ui::tr;
use crate::view::subagents::{Group, Header, Item};

/// Renders one row; the second argument is the row's accessible name inside a group.
pub(crate) type RenderRow = fn(Row, Option<Signal<String>>) -> AnyView;

/// A keyed list of entries, each row drawn by `row`; `speaker` names the subagent whose group
/// holds them.
pub(crate) fn entries(
    items: Signal<Vec<Item>>,
    speaker: Option<Signal<String>>,
    row: RenderRow,
) -> AnyView {
    view! {
        <For
            each=move || items.get()
            key=Item::list_key
            children=move |item| match item {
                Item::Row(r) => row(r, speaker),
                Item::Group(group) => {
                    let store = AgentStore::expect();
                    lazy(store, move || subagent_group(items, group.clone(), row)).into_any()
                }
            }
        />
    }
    .into_any()
}

/// The id of a group's body (for `aria-controls`), unique on the page.
fn body_id() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("agui-subagent-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

split!(subagents:
    /// One subagent's group: `siblings` are the entries it is one of.
    fn subagent_group(siblings: Signal<Vec<Item>>, group: Group, row: RenderRow) -> AnyView {
        let store = AgentStore::expect();
        let Group {
            key,
            subagent,
            depth,
            ..
        } = group;
        let children = Memo::new(move |_| siblings.with(|items| Item::children_of(items, &key)));
        let id = StoredValue::new(subagent.clone());
        // Name and status: re-read when the run changes (a `SUBAGENT_*` event is a run change).
        let header = Memo::new(move |_| {
            store.run.track();
            id.with_value(|id| store.with_thread(|t| Header::of(&t.subagents, id)))
        });
        // `None`: follow the status (open while it works); `Some`: what the person chose.
        let choice = RwSignal::new(None::<bool>);
        let expanded = move || {
            choice
                .get()
                .unwrap_or_else(|| !header.with(Header::collapsed))
        };
        let speaker = Signal::derive(move || header.with(|h| h.message_label(tr(store))));
        let body = body_id();
        view! {
            <div
                class="agui-subagent"
                data-testid="subagent-group"
                data-subagent-id=subagent
                data-depth=depth
                data-status=move || header.with(|h| h.status.map_or("unknown", |s| s.name()))
                role="group"
                aria-label=move || header.with(|h| h.group_label(tr(store)))
            >
                <div class="agui-subagent__header">
                    <button
                        type="button"
                        class="agui-subagent__toggle"
                        data-testid="subagent-toggle"
                        aria-expanded=move || expanded().to_string()
                        aria-controls=body.clone()
                        title=move || header.with(|h| h.description.clone())
                        on:click=move |_| {
                            let open = expanded();
                            choice.set(Some(!open));
                        }
                    >
                        <span class="agui-subagent__name" data-testid="subagent-name">
                            {move || header.with(|h| h.display_name(tr(store)))}
                        </span>
                        <span class="agui-subagent__status" data-testid="subagent-status">
                            {move || header.with(|h| h.status_label(tr(store)))}
                        </span>
                    </button>
                    {move || {
                        header
                            .with(|h| h.error.clone())
                            .map(|e| {
                                view! {
                                    <span class="agui-subagent__error" data-testid="subagent-error">
                                        {e}
                                    </span>
                                }
                            })
                    }}
                </div>
                <div
                    class="agui-subagent__body"
                    data-testid="subagent-body"
                    id=body
                    hidden=move || !expanded()
                >
                    {entries(children.into(), Some(speaker), row)}
                </div>
            </div>
        }
        .into_any()
    }
);
