//! The composer: a growing textarea (Enter sends, Shift+Enter inserts a newline, nothing is
//! sent while an IME composition is open), Send, Stop while a run is in flight, and the
//! page's suggestion chips ([`crate::plugins::Plugins::suggestion`]), if it registered any.
//! While a run is live, Send is "Queue": the message waits above the composer
//! ([`crate::ui::queue`]) and goes out when the agent is done.
//!
//! While the agent waits on open interrupts the composer is locked (spec digest §4.11: the
//! next run must answer them): the input is disabled with a hint, and "Cancel all" abandons
//! every interrupt and resumes.

use std::sync::atomic::{AtomicU32, Ordering};

use leptos::html::{Button, Textarea};
use leptos::prelude::*;
use web_sys::{HtmlTextAreaElement, KeyboardEvent};

use crate::plugins::{Plugins, Suggestion};
use crate::store::AgentStore;
use crate::ui::tr;

/// Ids of this composer's elements, unique on the page (several widgets may share one page,
/// and `for` / `aria-describedby` resolve to the first element with an id).
fn next_composer_id() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    format!("agui-composer-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The `keyCode` browsers report for keys pressed during an IME composition.
const IME_KEY_CODE: u32 = 229;

/// Grow the textarea with its content (the stylesheet caps the height).
fn autosize(el: &HtmlTextAreaElement) {
    let style = web_sys::HtmlElement::style(el);
    let _ = style.set_property("height", "auto");
    let _ = style.set_property("height", &format!("{}px", el.scroll_height()));
}

/// Whether a keydown in the textarea should send the message.
fn sends(ev: &KeyboardEvent) -> bool {
    ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() && ev.key_code() != IME_KEY_CODE
}

/// True while open interrupts wait for an answer (sending a message is refused then).
fn locked_by_interrupts(store: AgentStore) -> Memo<bool> {
    Memo::new(move |_| store.run.with(|r| !r.interrupts.is_empty()))
}

/// "Try:" chips with the registered suggestions; clicking one sends it. `None` when the page
/// registered none.
pub fn suggestion_chips(store: AgentStore, suggestions: &[Suggestion]) -> Option<impl IntoView> {
    if suggestions.is_empty() {
        return None;
    }
    let locked = locked_by_interrupts(store);
    let busy = move || store.running.get() || locked.get();
    let chips: Vec<_> = suggestions
        .iter()
        .cloned()
        .map(|Suggestion { prompt, hint }| {
            let label = prompt.clone();
            view! {
                <li>
                    <button
                        type="button"
                        class="agui-chip"
                        data-testid="suggestion"
                        title=hint
                        // aria-disabled, not disabled: the chips stay reachable by the keyboard
                        // (the list scrolls sideways on a narrow composer).
                        aria-disabled=move || busy().then_some("true")
                        on:click=move |_| {
                            if !busy() {
                                store.send(prompt.clone());
                            }
                        }
                    >
                        {label}
                    </button>
                </li>
            }
        })
        .collect();
    Some(view! {
        <div class="agui-suggestions" data-testid="suggestions">
            <span class="agui-suggestions__label">{move || tr(store).try_label}</span>
            <ul class="agui-suggestions__list">{chips}</ul>
        </div>
    })
}

/// Message input with Send and Stop.
#[component]
pub fn Composer() -> impl IntoView {
    let store = AgentStore::expect();
    let plugins = Plugins::use_plugins();
    let input: NodeRef<Textarea> = NodeRef::new();
    let send_button: NodeRef<Button> = NodeRef::new();
    let (text, set_text) = signal(String::new());
    let has_rows = Memo::new(move |_| store.rows.with(|r| !r.is_empty()));
    let locked = locked_by_interrupts(store);
    let cancel_error = RwSignal::new(None::<String>);
    let input_id = next_composer_id();
    let locked_id = format!("{input_id}-locked");
    let locked_ref = locked_id.clone();

    // Send's `disabled` is written imperatively, both right away (input, send) and from this
    // effect: a reactive attribute skips writes when its value looks unchanged, which would
    // miss the synchronous writes.
    let set_send_disabled = move |disabled: bool| {
        if let Some(button) = send_button.get_untracked() {
            let _ = button.toggle_attribute_with_force("disabled", disabled);
        }
    };
    // While a run is live, Send queues the message (unless the page turned the queue off).
    let can_queue = Memo::new(move |_| {
        store.queue.track();
        store.config.track();
        store.can_queue()
    });
    let blocked =
        move |running: bool, can_queue: bool, locked: bool| (running && !can_queue) || locked;
    Effect::new(move || {
        let disabled = text.with(|t| t.trim().is_empty())
            || blocked(store.running.get(), can_queue.get(), locked.get());
        send_button.track();
        set_send_disabled(disabled);
    });

    // Reads the element itself, so a value set by a script (or a test) is sent too.
    let send = move || {
        let Some(el) = input.get_untracked() else {
            return;
        };
        let value = el.value();
        if value.trim().is_empty()
            || blocked(
                store.running.get_untracked(),
                can_queue.get_untracked(),
                locked.get_untracked(),
            )
        {
            return;
        }
        store.send(value);
        el.set_value("");
        set_text.set(String::new());
        set_send_disabled(true);
        autosize(&el);
        let _ = el.focus();
    };

    let agent_suggestions = Memo::new(move |_| store.agent_suggestions());
    view! {
        <div class="agui-composer" data-testid="composer">
            // After a run: the agent's follow-ups (a `suggestions` event or state), else the
            // page's chips; none while one streams.
            {move || {
                if !has_rows.get() {
                    return None;
                }
                let from_agent = agent_suggestions.get();
                let list = if from_agent.is_empty() { plugins.suggestions().to_vec() } else { from_agent };
                suggestion_chips(store, &list)
            }}
            {crate::ui::queue::queue_list(store)}
            <form
                class="agui-composer__form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    send();
                }
            >
                <label class="agui-visually-hidden" for=input_id.clone()>
                    {move || tr(store).message_label}
                </label>
                <textarea
                    id=input_id
                    class="agui-composer__input"
                    data-testid="composer-input"
                    node_ref=input
                    rows="1"
                    placeholder=move || {
                        let t = tr(store);
                        if locked.get() { t.composer_placeholder_locked } else { t.composer_placeholder }
                    }
                    prop:disabled=move || locked.get()
                    aria-describedby=move || locked.get().then(|| locked_ref.clone())
                    autocomplete="off"
                    on:input=move |ev| {
                        let el: HtmlTextAreaElement = event_target(&ev);
                        let value = el.value();
                        // Reactive updates land a microtask later; a script (or a fast test)
                        // that types and clicks at once must find Send enabled already.
                        set_send_disabled(
                            value.trim().is_empty()
                                || blocked(
                                    store.running.get_untracked(),
                                    can_queue.get_untracked(),
                                    locked.get_untracked(),
                                ),
                        );
                        set_text.set(value);
                        autosize(&el);
                    }
                    on:keydown=move |ev: KeyboardEvent| {
                        if sends(&ev) {
                            ev.prevent_default();
                            send();
                        }
                    }
                ></textarea>
                <div class="agui-composer__actions">
                    <Show when=move || store.running.get()>
                        <button
                            type="button"
                            class="agui-button agui-button--secondary agui-composer__stop"
                            data-testid="composer-stop"
                            on:click=move |_| store.stop()
                        >
                            <span class="agui-composer__stop-icon" aria-hidden="true"></span>
                            {move || tr(store).stop}
                        </button>
                    </Show>
                    <button
                        type="submit"
                        class="agui-button agui-button--primary agui-composer__send"
                        data-testid="composer-send"
                        node_ref=send_button
                        disabled=true
                    >
                        {move || {
                            let t = tr(store);
                            if store.running.get() && store.config.with(|c| c.queue) { t.queue_button } else { t.send }
                        }}
                    </button>
                </div>
            </form>
            <Show
                when=move || locked.get()
                fallback=move || {
                    view! { <p class="agui-composer__hint">{move || tr(store).composer_hint}</p> }
                }
            >
                <div class="agui-composer__locked" data-testid="composer-locked">
                    <p class="agui-composer__locked-text" id=locked_id.clone()>
                        {move || tr(store).composer_locked}
                    </p>
                    <button
                        type="button"
                        class="agui-button agui-button--secondary"
                        data-testid="interrupt-cancel-all"
                        disabled=move || store.running.get()
                        on:click=move |_| match store.cancel_all_interrupts() {
                            Ok(()) => cancel_error.set(None),
                            Err(e) => cancel_error.set(Some(e.to_string())),
                        }
                    >
                        {move || tr(store).cancel_all}
                    </button>
                    {move || {
                        cancel_error
                            .get()
                            .map(|e| {
                                view! {
                                    <p class="agui-composer__locked-error" role="alert">{e}</p>
                                }
                            })
                    }}
                </div>
            </Show>
        </div>
    }
}
