//! The messages waiting for the agent ([`crate::session::queue`]), above the composer: each
//! can be edited (Enter saves, Escape cancels) or removed while it waits, and sent at once
//! when nothing is running (after a Stop or a failed run the queue does not go by itself).

use leptos::html::Textarea;
use leptos::prelude::*;
use web_sys::KeyboardEvent;

use crate::protocol::types::{Content, ContentPart, Message};
use crate::store::AgentStore;
use crate::ui::lazy::split;
use crate::ui::{locked_by_interrupts, tr};

split!(queue:
    /// The queue (the lean widget fetches it with the first queued message).
    pub fn queue_view(store: AgentStore) -> AnyView {
        queue_list(store).into_any()
    }
);

/// The queue, or nothing while it is empty.
fn queue_list(store: AgentStore) -> impl IntoView {
    // An answer the agent waits for comes first: no "Send now" then.
    let blocked = locked_by_interrupts(store);
    let hint = move || {
        let t = tr(store);
        if store.running.get() {
            t.queue_hint
        } else if blocked.get() || !store.run.with(|r| r.pending_tool_calls.is_empty()) {
            t.queue_blocked
        } else {
            t.queue_held
        }
    };
    move || {
        let items = store.queue.get();
        (!items.is_empty()).then(|| {
            let rows: Vec<_> = items
                .into_iter()
                .map(|m| queued_item(store, m, blocked))
                .collect();
            view! {
                <section class="agui-queue" data-testid="queue" aria-label=move || tr(store).queue_label>
                    <p class="agui-queue__label">
                        {move || tr(store).queue_label}
                        <span class="agui-queue__hint" data-testid="queue-hint">{hint}</span>
                    </p>
                    <ol class="agui-queue__list">{rows}</ol>
                </section>
            }
        })
    }
}

/// Attachments of a queued message, as a count of parts that are not text.
fn attached(m: &Message) -> usize {
    match &m.content {
        Some(Content::Parts(parts)) => parts
            .iter()
            .filter(|p| !matches!(p, ContentPart::Text { .. }))
            .count(),
        _ => 0,
    }
}

fn queued_item(store: AgentStore, m: Message, blocked: Memo<bool>) -> impl IntoView {
    let editing = RwSignal::new(false);
    let text = m.text().into_owned();
    let files = attached(&m);
    let id = StoredValue::new(m.id);
    let input: NodeRef<Textarea> = NodeRef::new();
    let save = move || {
        if let Some(el) = input.get_untracked() {
            id.with_value(|id| store.edit_queued(id, &el.value()));
        }
        editing.try_set(false);
    };
    let shown = text.clone();
    view! {
        <li class="agui-queue__item" data-testid="queued">
            {move || {
                if editing.get() {
                    crate::ui::focus_editor(input);
                    view! {
                        <textarea
                            class="agui-message__edit-input"
                            data-testid="queued-input"
                            aria-label=move || tr(store).edit_message_label
                            node_ref=input
                            rows="2"
                            prop:value=text.clone()
                            on:keydown=move |ev: KeyboardEvent| {
                                crate::ui::editor_keys(&ev, || editing.set(false), save)
                            }
                        ></textarea>
                        <div class="agui-queue__actions">
                            <button type="button" class="agui-button agui-button--ghost" on:click=move |_| editing.set(false)>
                                {move || tr(store).queue_cancel_edit}
                            </button>
                            <button type="button" class="agui-button agui-button--primary" data-testid="queued-save" on:click=move |_| save()>
                                {move || tr(store).queue_save}
                            </button>
                        </div>
                    }
                        .into_any()
                } else {
                    view! {
                        <span class="agui-queue__text" data-testid="queued-text">{shown.clone()}</span>
                        {(files > 0).then(|| view! {
                            <span class="agui-chip agui-queue__files">
                                <svg class="agui-icon" viewBox="0 0 24 24" aria-hidden="true">
                                    <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.9-8.9a3.7 3.7 0 0 1 5.2 5.2l-8.9 8.9a1.8 1.8 0 0 1-2.6-2.6l8.2-8.2" />
                                </svg>
                                {files}
                            </span>
                        })}
                        <div class="agui-queue__actions">
                            <Show when=move || !store.running.get() && !blocked.get()>
                                <button
                                    type="button"
                                    class="agui-button agui-button--secondary"
                                    data-testid="queued-send"
                                    on:click=move |_| id.with_value(|id| store.send_queued(id))
                                >
                                    {move || tr(store).queue_send_now}
                                </button>
                            </Show>
                            <button type="button" class="agui-button agui-button--ghost" data-testid="queued-edit" on:click=move |_| editing.set(true)>
                                {move || tr(store).queue_edit}
                            </button>
                            <button
                                type="button"
                                class="agui-button agui-button--ghost"
                                data-testid="queued-remove"
                                on:click=move |_| id.with_value(|id| store.remove_queued(id))
                            >
                                {move || tr(store).queue_remove}
                            </button>
                        </div>
                    }
                        .into_any()
                }
            }}
        </li>
    }
}
