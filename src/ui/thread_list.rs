//! The thread list: every conversation, newest activity first, the open one highlighted.
//! "New" starts a conversation; a click opens one; each can be renamed inline (Enter saves,
//! Escape cancels; an empty name goes back to the automatic title) and deleted after a
//! confirm step. Switching is refused while a run is in flight — the list says so instead of
//! stopping the run behind the person's back.

use leptos::html::Input;
use leptos::prelude::*;
use web_sys::KeyboardEvent;

use crate::i18n::{split_placeholder, Strings};
use crate::session::branches::UNTITLED;
use crate::store::AgentStore;
use crate::store::{ThreadError, ThreadSummary};
use crate::ui::lazy::{lazy, split};
use crate::ui::{tr, tr_now};
use crate::wording;

/// The title to show: the automatic "New conversation" in the UI language.
fn shown_title(s: &ThreadSummary, t: &Strings) -> String {
    if !s.renamed && s.title == UNTITLED {
        t.thread_untitled.to_owned()
    } else {
        s.title.clone()
    }
}

/// What one item is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Idle,
    Renaming,
    ConfirmingDelete,
}

/// The list of conversations. A chat with nothing to list yet (one conversation, empty) shows
/// only "New"; the list's items are in the lean widget's `run` module, which is here whenever
/// there is something to list (a saved conversation, a message sent).
#[component]
pub fn ThreadList() -> impl IntoView {
    let store = AgentStore::expect();
    let threads = store.threads();
    let (error, set_error) = signal(None::<ThreadError>);
    // A refusal is about the moment it happened: clear it once the run is over.
    Effect::new(move |_| {
        if !store.running.get() {
            set_error.set(None);
        }
    });
    let listed = Memo::new(move |_| {
        threads.list.with(|l| l.len() > 1) || store.rows.with(|r| !r.is_empty())
    });

    view! {
        <nav class="agui-threads" data-testid="thread-list" tabindex="-1" aria-label=move || tr(store).threads_label>
            <div class="agui-threads__head">
                <h2 class="agui-threads__heading">{move || tr(store).threads_label}</h2>
                <button
                    type="button"
                    class="agui-button agui-button--secondary agui-threads__new"
                    data-testid="thread-new"
                    disabled=move || store.running.get()
                    title=move || tr(store).thread_new_title
                    on:click=move |_| store.in_module(move || new_thread(store, set_error))
                >
                    {move || tr(store).thread_new}
                </button>
            </div>
            {move || {
                error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="agui-threads__error" data-testid="thread-error" role="status">
                                {move || wording::thread_error(tr(store), &e)}
                            </p>
                        }
                    })
            }}
            <Show when=move || listed.get()>
                {lazy(store, move || thread_items(store, set_error))}
            </Show>
        </nav>
    }
}

split!(run:
    /// "New": a fresh conversation (refused while a run is in flight).
    fn new_thread(store: AgentStore, set_error: WriteSignal<Option<ThreadError>>) -> () {
        set_error.try_set(store.new_thread().err());
    }
);

split!(run:
    /// The conversations, each with its actions.
    fn thread_items(store: AgentStore, set_error: WriteSignal<Option<ThreadError>>) -> AnyView {
        let threads = store.threads();
        let ids = Memo::new(move |_| {
            threads
                .list
                .with(|l| l.iter().map(|t| t.id.clone()).collect::<Vec<_>>())
        });
        // This browser's own conversations, when the site keeps them now: offered once.
        let offer = Memo::new(move |_| {
            threads.branches.track();
            store.upload_offer()
        });
        view! {
            <Show when=move || { offer.get() > 0 }>
                <div class="agui-threads__offer" data-testid="upload-offer" role="status">
                    <p class="agui-threads__offer-text">
                        {move || crate::i18n::fill(tr(store).threads_local_only, &[&offer.get()])}
                    </p>
                    <button
                        type="button"
                        class="agui-button agui-button--primary"
                        data-testid="upload-local"
                        on:click=move |_| store.upload_local()
                    >
                        {move || tr(store).threads_upload}
                    </button>
                    <button
                        type="button"
                        class="agui-button agui-button--secondary"
                        data-testid="upload-not-now"
                        on:click=move |_| store.decline_upload()
                    >
                        {move || tr(store).threads_not_now}
                    </button>
                </div>
            </Show>
            <ul class="agui-threads__list">
                <For
                    each=move || ids.get()
                    key=|id| id.clone()
                    children=move |id| view! { <ThreadItem id set_error /> }
                />
            </ul>
        }
        .into_any()
    }
);

/// One conversation in the list.
#[component]
fn ThreadItem(
    /// The thread id.
    id: String,
    /// Where a refused action is reported.
    set_error: WriteSignal<Option<ThreadError>>,
) -> impl IntoView {
    let store = AgentStore::expect();
    let report = move |r: Result<(), ThreadError>| {
        set_error.try_set(r.err());
    };
    let threads = store.threads();
    let id = StoredValue::new(id);
    let summary = Memo::new(move |_| {
        threads.list.with(|l| {
            id.with_value(|id| l.iter().find(|t| &t.id == id).cloned())
                .unwrap_or_else(|| ThreadSummary {
                    id: id.get_value(),
                    title: String::new(),
                    renamed: false,
                    updated_at: 0.0,
                })
        })
    });
    let active = Memo::new(move |_| threads.active.with(|a| id.with_value(|id| a == id)));
    let (mode, set_mode) = signal(Mode::Idle);
    let input: NodeRef<Input> = NodeRef::new();

    let open = move |_| {
        if let Some(id) = id.try_get_value() {
            report(store.switch_thread(&id));
        }
    };
    let start_rename = move |_| {
        set_mode.set(Mode::Renaming);
        request_animation_frame(move || {
            if let Some(Some(el)) = input.try_get_untracked() {
                let _ = el.focus();
                el.select();
            }
        });
    };
    let save_rename = move || {
        let Some(el) = input.get_untracked() else {
            return;
        };
        set_mode.set(Mode::Idle);
        report(store.rename_thread(&id.get_value(), &el.value()));
    };
    let delete = move |_| {
        set_mode.set(Mode::Idle);
        if let Some(id) = id.try_get_value() {
            report(store.delete_thread(&id));
        }
    };

    view! {
        <li
            class="agui-threads__item"
            class:agui-threads__item--active=move || active.get()
            data-testid="thread-item"
            data-thread-id=id.get_value()
            data-active=move || active.get().to_string()
            aria-current=move || active.get().then_some("true")
        >
            {move || match mode.get() {
                Mode::Idle => {
                    view! {
                        <button
                            type="button"
                            class="agui-threads__open"
                            data-testid="thread-open"
                            title=move || summary.with(|s| shown_title(s, tr(store)))
                            on:click=open
                        >
                            <span class="agui-threads__title" data-testid="thread-title">
                                {move || summary.with(|s| shown_title(s, tr(store)))}
                            </span>
                        </button>
                        <div class="agui-threads__actions">
                            <button
                                type="button"
                                class="agui-threads__action"
                                data-testid="thread-rename"
                                aria-label=move || tr(store).rename
                                title=move || tr(store).rename
                                on:click=start_rename
                            >
                                "✎"
                            </button>
                            <button
                                type="button"
                                class="agui-threads__action agui-threads__action--danger"
                                data-testid="thread-delete"
                                aria-label=move || tr(store).delete
                                title=move || tr(store).delete
                                on:click=move |_| set_mode.set(Mode::ConfirmingDelete)
                            >
                                "×"
                            </button>
                        </div>
                    }
                        .into_any()
                }
                Mode::Renaming => {
                    view! {
                        <form
                            class="agui-threads__rename"
                            on:submit=move |ev| {
                                ev.prevent_default();
                                save_rename();
                            }
                        >
                            <input
                                class="agui-threads__input"
                                data-testid="thread-rename-input"
                                node_ref=input
                                aria-label=move || tr(store).thread_name_label
                                prop:value=move || summary.with_untracked(|s| shown_title(s, tr_now(store)))
                                on:keydown=move |ev: KeyboardEvent| {
                                    if ev.key() == "Escape" {
                                        ev.prevent_default();
                                        set_mode.set(Mode::Idle);
                                    }
                                }
                            />
                            <button
                                type="submit"
                                class="agui-threads__action"
                                data-testid="thread-rename-save"
                                aria-label=move || tr(store).thread_save_name
                                title=move || tr(store).save
                            >
                                "✓"
                            </button>
                            <button
                                type="button"
                                class="agui-threads__action"
                                data-testid="thread-rename-cancel"
                                aria-label=move || tr(store).cancel
                                title=move || tr(store).cancel
                                on:click=move |_| set_mode.set(Mode::Idle)
                            >
                                "✕"
                            </button>
                        </form>
                    }
                        .into_any()
                }
                Mode::ConfirmingDelete => {
                    view! {
                        <div
                            class="agui-threads__confirm"
                            role="group"
                            aria-label=move || tr(store).thread_confirm_delete_label
                        >
                            <span class="agui-threads__confirm-text">
                                {move || split_placeholder(tr(store).thread_confirm_delete).0}
                                {move || summary.with(|s| shown_title(s, tr(store)))}
                                {move || split_placeholder(tr(store).thread_confirm_delete).1}
                            </span>
                            <button
                                type="button"
                                class="agui-button agui-button--primary agui-threads__confirm-yes"
                                data-testid="thread-delete-confirm"
                                on:click=delete
                            >
                                {move || tr(store).delete}
                            </button>
                            <button
                                type="button"
                                class="agui-button agui-button--ghost"
                                data-testid="thread-delete-cancel"
                                on:click=move |_| set_mode.set(Mode::Idle)
                            >
                                {move || tr(store).cancel}
                            </button>
                        </div>
                    }
                        .into_any()
                }
            }}
        </li>
    }
}
