//! The composer: a growing textarea (Enter sends, Shift+Enter inserts a newline, nothing is
//! sent while an IME composition is open), Send, Stop while a run is in flight, and the
//! page's suggestion chips ([`crate::plugins::Plugins::suggestion`]), if it registered any.
//! While a run is live, Send is "Queue": the message waits above the composer
//! ([`crate::ui::queue`]) and goes out when the agent is done.
//!
//! With the page's `voice` option, a microphone button beside attach takes dictation
//! ([`crate::ui::voice`]): the text lands in the box, never sent by itself.
//!
//! While the agent waits on open interrupts the composer is locked (spec digest §4.11: the
//! next run must answer them): the input is disabled with a hint, and "Cancel all" abandons
//! every interrupt and resumes.

use std::sync::atomic::{AtomicU32, Ordering};

use leptos::html::{Button, Textarea};
use leptos::prelude::*;
use web_sys::{ClipboardEvent, DragEvent, HtmlTextAreaElement, KeyboardEvent};

use crate::i18n::fill;
use crate::plugins::Command;
use crate::plugins::{Plugins, Suggestion};
use crate::store::AgentStore;
use crate::ui::attach::{add_files, attachment_chips, files_of, switch_files, Attachments};
use crate::ui::lazy::{lazy, split};
use crate::ui::message::warm_run;
use crate::ui::queue::queue_view;
use crate::ui::voice::{voice_bar, voice_button, Dictation};
use crate::ui::{locked_by_interrupts, tr};
use crate::view::{commands, prompts};

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

/// How long typing pauses before the draft is written to storage.
const DRAFT_SAVE_MS: u64 = 400;

/// ↑ (`true`) or ↓ (`false`) for the prompt history: a bare arrow key, outside an IME
/// composition.
fn history_key(ev: &KeyboardEvent) -> Option<bool> {
    let up = match ev.key().as_str() {
        "ArrowUp" => true,
        "ArrowDown" => false,
        _ => return None,
    };
    let modified = ev.shift_key() || ev.alt_key() || ev.ctrl_key() || ev.meta_key();
    (!modified && !ev.is_composing() && ev.key_code() != IME_KEY_CODE).then_some(up)
}

/// Whether a keydown in the textarea should send the message.
fn sends(ev: &KeyboardEvent) -> bool {
    ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() && ev.key_code() != IME_KEY_CODE
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
        <div
            class="agui-suggestions"
            data-testid="suggestions"
            on:pointerover=|_| warm_run()
            on:focusin=|_| warm_run()
        >
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
    let dragging = RwSignal::new(false);
    // What may be attached: the page's limits, narrowed to what the agent declares it takes
    // (`None`: nothing — no attach button, no drop or paste).
    let base = plugins.attachment_limits();
    let offered = base.is_some();
    let limits = Memo::new(move |_| {
        let base = base.clone()?;
        store.config.with(|c| match &c.capabilities {
            Some(cap) => base.for_agent(&cap.input),
            None => Some(base),
        })
    });
    let att = offered.then(|| {
        Attachments::new(
            limits.get_untracked().unwrap_or_default(),
            plugins.uploader(),
        )
    });
    let attaching = move || limits.with_untracked(Option::is_some);
    // Dictation, where the page asked for it and the browser can.
    let dictation = Dictation::new(store, plugins.voice_mode(), plugins.transcriber(), input);
    Effect::new(move || {
        if let (Some(a), Some(l)) = (att, limits.get()) {
            a.set_limits(l);
        }
    });
    // Whether `value` (and the attachments) can go out now (reads nothing reactively).
    let sendable = move |value: &str| {
        let attached = att.is_some_and(|a| !a.list.with_untracked(Vec::is_empty));
        let busy = att.is_some_and(|a| a.list.with_untracked(|l| !l.is_empty()) && a.busy());
        let blocked =
            (store.running.get_untracked() && !can_queue.get_untracked()) || locked.get_untracked();
        (attached || !value.trim().is_empty()) && !busy && !blocked
    };
    Effect::new(move || {
        // What the answer depends on, tracked.
        text.track();
        store.running.track();
        can_queue.track();
        locked.track();
        if let Some(a) = att {
            a.list.track();
        }
        send_button.track();
        set_send_disabled(!text.with_untracked(|t| sendable(t)));
    });

    // The text box's value set by the chat (a draft, a recalled prompt): Send and the height
    // follow it.
    let show_text = move |el: &HtmlTextAreaElement, value: String| {
        el.set_value(&value);
        set_send_disabled(!sendable(&value));
        set_text.set(value);
        autosize(el);
    };
    // The prompt history: where ↑/↓ stand (`None`: what is being typed) and what was being
    // typed before ↑.
    let recalled = StoredValue::new(None::<(usize, String)>);
    // The draft is kept in memory at each input and written to storage when typing pauses
    // (the timer of the latest input writes).
    let draft_timer = StoredValue::new(0u32);
    let keep_draft = move |value: &str| {
        store.set_draft(value);
        let n = draft_timer.get_value().wrapping_add(1);
        draft_timer.set_value(n);
        set_timeout(
            move || {
                if draft_timer.try_get_value() == Some(n) {
                    store.save_drafts();
                }
            },
            std::time::Duration::from_millis(DRAFT_SAVE_MS),
        );
    };
    // The open conversation's draft in the box, and its attachments: at the start, and when
    // another conversation is opened (the one left keeps its own).
    // (Not through the thread list's signals: they would bring the branches' code into the
    // lean widget's main module. The rows change when another conversation opens.)
    // What is typed while the saved conversations are still being read stays in the box, as
    // the draft of the conversation they open.
    // (The restoring flag of the run before in a StoredValue: a tuple as the effect's value
    // would be one more effect type in the lean widget's main module.)
    let was_restoring = StoredValue::new(false);
    Effect::new(move |before: Option<String>| {
        store.rows.track();
        let restoring = store.restoring.get();
        let id = store.thread_id();
        if let Some(el) = input.get() {
            let typed = !el.value().is_empty();
            match before {
                Some(was) if was == id => {}
                Some(_) if typed && was_restoring.get_value() => keep_draft(&el.value()),
                None if typed => keep_draft(&el.value()),
                before => {
                    recalled.set_value(None);
                    show_text(&el, store.draft());
                    // The files attached in the conversation left wait for it, and the files
                    // its draft had when the page was left are named, to be attached again
                    // (the `attach` module is here once a file was attached).
                    if let Some(a) = att {
                        let any = |l: &Vec<_>| !l.is_empty();
                        if a.list.with_untracked(any)
                            || a.parked.with_untracked(any)
                            || store.has_draft_files_from_before()
                        {
                            let (from, to) = (before.unwrap_or_default(), id.clone());
                            store.in_module(move || {
                                switch_files(a, from.clone(), to.clone(), store)
                            });
                        }
                    }
                }
            }
        }
        was_restoring.set_value(restoring);
        id
    });
    // ↑/↓: the person's earlier prompts of this conversation, when the caret is on the first
    // (last) line; `true` when the key was used.
    let recall = move |el: &HtmlTextAreaElement, up: bool| -> bool {
        let value = el.value();
        let (start, end) = (
            el.selection_start().ok().flatten().unwrap_or(0),
            el.selection_end().ok().flatten().unwrap_or(0),
        );
        if !prompts::caret_allows(&value, start, end, up) {
            return false;
        }
        let prompts = store.prompts();
        let at = recalled.with_value(|r| r.as_ref().map(|(i, _)| *i));
        let Some(to) = prompts::step(prompts.len(), at, up) else {
            return false;
        };
        let typed = recalled
            .with_value(|r| r.as_ref().map(|(_, t)| t.clone()))
            .unwrap_or(value);
        let text = match to {
            Some(i) => prompts::prompt_at(&prompts, i)
                .unwrap_or_default()
                .to_owned(),
            None => typed.clone(),
        };
        recalled.set_value(to.map(|i| (i, typed)));
        let end = text.encode_utf16().count() as u32;
        show_text(el, text);
        let _ = el.set_selection_range(end, end);
        true
    };

    // The page's commands: `/` at the start of the box opens the matching ones.
    let list_id = format!("{input_id}-commands");
    let commands = StoredValue::new(plugins.commands().to_vec());
    let has_commands = commands.with_value(|c| !c.is_empty());
    let commands_closed = RwSignal::new(false);
    let command_at = RwSignal::new(0usize);
    let matches = Memo::new(move |_| {
        if !has_commands {
            return Vec::new();
        }
        text.with(|t| {
            let q = commands::query(t)?;
            Some(commands.with_value(|c| commands::matching(c, q)))
        })
        .unwrap_or_default()
    });
    let commands_open = Memo::new(move |_| !commands_closed.get() && !matches.with(Vec::is_empty));

    // Reads the element itself, so a value set by a script (or a test) is sent too.
    let send = move || {
        let Some(el) = input.get_untracked() else {
            return;
        };
        let value = el.value();
        if !sendable(&value) {
            return;
        }
        let parts = att.map(|a| a.take_parts()).unwrap_or_default();
        // Sent: no longer a draft (before the message changes which draft is the open one's).
        recalled.set_value(None);
        draft_timer.update_value(|n| *n = n.wrapping_add(1));
        store.set_draft("");
        store.save_drafts();
        store.send_with(value, parts);
        el.set_value("");
        set_text.set(String::new());
        set_send_disabled(true);
        autosize(&el);
        let _ = el.focus();
    };

    // The command at `pos` in the list: its prompt in the box, or sent at once.
    let pick = move |pos: usize| {
        let Some(el) = input.get_untracked() else {
            return;
        };
        let Some(command) = matches
            .with_untracked(|m| m.get(pos).copied())
            .and_then(|i| commands.with_value(|c| c.get(i).cloned()))
        else {
            return;
        };
        show_text(&el, command.prompt.clone());
        if command.send {
            send();
        } else {
            keep_draft(&command.prompt);
            let end = command.prompt.encode_utf16().count() as u32;
            let _ = el.set_selection_range(end, end);
        }
        let _ = el.focus();
    };
    // The keys of an open command list (↑ ↓ choose, Enter or Tab pick, Escape closes it);
    // `true` when the key was the list's.
    let command_key = move |ev: &KeyboardEvent| -> bool {
        if !commands_open.get_untracked() || ev.is_composing() || ev.key_code() == IME_KEY_CODE {
            return false;
        }
        let len = matches.with_untracked(Vec::len);
        match ev.key().as_str() {
            "ArrowDown" | "ArrowUp" => {
                let down = ev.key() == "ArrowDown";
                command_at.update(|at| *at = commands::move_active(len, *at, down));
            }
            "Enter" | "Tab" if !ev.shift_key() => pick(command_at.get_untracked().min(len - 1)),
            "Escape" => {
                // The list's, not the popup's: it stays open.
                ev.stop_propagation();
                commands_closed.set(true);
            }
            _ => return false,
        }
        true
    };

    let agent_suggestions = Memo::new(move |_| store.agent_suggestions());
    let has_queue = Memo::new(move |_| store.queue.with(|q| !q.is_empty()));
    view! {
        <div
            class="agui-composer"
            data-testid="composer"
            on:keydown=move |ev: KeyboardEvent| {
                if let Some(d) = dictation {
                    d.escape(&ev);
                }
            }
        >
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
            <Show when=move || has_queue.get()>
                {lazy(store, move || queue_view(store))}
            </Show>
            {att.map(|a| view! {
                <Show when=move || !a.list.with(Vec::is_empty) || !a.errors.with(Vec::is_empty)>
                    {lazy(store, move || attachment_chips(a, store))}
                </Show>
            })}
            <Show when=move || dragging.get()>
                <p class="agui-composer__drop-hint" role="status">{move || tr(store).attach_drop_hint}</p>
            </Show>
            {has_commands.then(|| {
                let menu = CommandMenu {
                    list_id: list_id.clone(),
                    commands,
                    matches,
                    open: commands_open,
                    at: command_at,
                    pick: Callback::new(pick),
                };
                lazy(store, move || command_list(store, menu.clone()))
            })}
            <form
                class="agui-composer__form"
                class:agui-composer__form--drop=move || dragging.get()
                on:submit=move |ev| {
                    ev.prevent_default();
                    send();
                }
                on:dragover=move |ev: DragEvent| {
                    // Files dragged over the composer: take the drop.
                    if attaching() && carries_files(&ev) {
                        ev.prevent_default();
                        dragging.set(true);
                    }
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |ev: DragEvent| {
                    warm_run();
                    dragging.set(false);
                    if let Some(a) = att.filter(|_| attaching()) {
                        let files = files_of(ev.data_transfer().and_then(|d| d.files()));
                        if !files.is_empty() {
                            ev.prevent_default();
                            store.in_module(move || add_files(a, files.clone(), store));
                        }
                    }
                }
            >
                {move || {
                    let accept = limits.with(|l| l.as_ref().map(|l| l.accept.join(",")))?;
                    att.map(|a| attach_button(store, a, accept, locked))
                }}
                {dictation.map(|d| voice_button(d, locked))}
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
                    aria-autocomplete=has_commands.then_some("list")
                    aria-controls={
                        let list_id = list_id.clone();
                        move || commands_open.get().then(|| list_id.clone())
                    }
                    aria-activedescendant={
                        let list_id = list_id.clone();
                        move || {
                            commands_open
                                .get()
                                .then(|| format!("{list_id}-{}", command_at.get()))
                        }
                    }
                    autocomplete="off"
                    on:input=move |ev| {
                        warm_run();
                        let el: HtmlTextAreaElement = event_target(&ev);
                        let value = el.value();
                        // Reactive updates land a microtask later; a script (or a fast test)
                        // that types and clicks at once must find Send enabled already.
                        set_send_disabled(!sendable(&value));
                        // Typing leaves the history: what is in the box is the draft.
                        recalled.set_value(None);
                        command_at.set(0);
                        commands_closed.set(false);
                        keep_draft(&value);
                        set_text.set(value);
                        autosize(&el);
                        if let Some(d) = dictation {
                            d.typed();
                        }
                    }
                    on:keydown=move |ev: KeyboardEvent| {
                        if command_key(&ev) {
                            ev.prevent_default();
                        } else if sends(&ev) {
                            ev.prevent_default();
                            send();
                        } else if let Some(up) = history_key(&ev) {
                            let el: HtmlTextAreaElement = event_target(&ev);
                            if recall(&el, up) {
                                ev.prevent_default();
                            }
                        }
                    }
                    on:paste=move |ev: ClipboardEvent| {
                        warm_run();
                        // Pasted files (a screenshot) are attached; pasted text stays text.
                        if let Some(a) = att.filter(|_| attaching()) {
                            let files = files_of(ev.clipboard_data().and_then(|d| d.files()));
                            if !files.is_empty() {
                                ev.prevent_default();
                                store.in_module(move || add_files(a, files.clone(), store));
                            }
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
            {dictation.map(voice_bar)}
            <Show
                when=move || locked.get()
                fallback=move || {
                    view! { <p class="agui-composer__hint">{move || tr(store).composer_hint}</p> }
                }
            >
                {interrupt_lock(store, locked_id.clone())}
            </Show>
        </div>
    }
}

/// What the command list shows and does: the composer's state, handed to the list.
#[derive(Clone)]
struct CommandMenu {
    list_id: String,
    commands: StoredValue<Vec<Command>>,
    /// Indexes into `commands`, best first.
    matches: Memo<Vec<usize>>,
    open: Memo<bool>,
    /// The active option (a position in `matches`).
    at: RwSignal<usize>,
    pick: Callback<usize>,
}

split!(run:
    /// The page's commands matching what follows `/` in the composer: a listbox the text box
    /// points into (`aria-activedescendant`), announced with its count. In the `run` module,
    /// which typing fetches.
    fn command_list(store: AgentStore, menu: CommandMenu) -> AnyView {
        command_list_view(store, menu).into_any()
    }
);

fn command_list_view(store: AgentStore, menu: CommandMenu) -> impl IntoView {
    let CommandMenu {
        list_id,
        commands,
        matches,
        open,
        at,
        pick,
    } = menu;
    let list_id_attr = list_id.clone();
    let options = move || {
        let list_id = list_id.clone();
        matches
            .get()
            .into_iter()
            .enumerate()
            .filter_map(|(pos, i)| {
                let c = commands.with_value(|c| c.get(i).cloned())?;
                let selected = move || at.get() == pos;
                Some(view! {
                    <li
                        role="option"
                        id=format!("{list_id}-{pos}")
                        class="agui-commands__option"
                        data-testid="command"
                        aria-selected=move || if selected() { "true" } else { "false" }
                        // The text box keeps the focus.
                        on:mousedown=|ev| ev.prevent_default()
                        on:click=move |_| pick.run(pos)
                    >
                        <span class="agui-commands__name">"/"{c.name}</span>
                        <span class="agui-commands__description">{c.description}</span>
                    </li>
                })
            })
            .collect_view()
    };
    view! {
        <Show when=move || open.get()>
            <ul
                role="listbox"
                id=list_id_attr.clone()
                class="agui-commands"
                data-testid="commands"
                aria-label=move || tr(store).commands_label
            >
                {options.clone()}
            </ul>
        </Show>
        <p class="agui-visually-hidden" role="status">
            {move || {
                open.get()
                    .then(|| fill(tr(store).commands_matching, &[&matches.with(Vec::len)]))
            }}
        </p>
    }
}

/// Under the composer while interrupts are open: why it is locked, and "Cancel all".
fn interrupt_lock(store: AgentStore, locked_id: String) -> impl IntoView {
    let cancel_error = RwSignal::new(None::<String>);
    view! {
        <div class="agui-composer__locked" data-testid="composer-locked">
            <p class="agui-composer__locked-text" id=locked_id>
                {move || tr(store).composer_locked}
            </p>
            <button
                type="button"
                class="agui-button agui-button--secondary"
                data-testid="interrupt-cancel-all"
                disabled=move || store.running.get()
                on:click=move |_| store.in_module(move || cancel_all(store, cancel_error))
            >
                {move || tr(store).cancel_all}
            </button>
            {move || {
                cancel_error
                    .get()
                    .map(|e| {
                        view! { <p class="agui-composer__locked-error" role="alert">{e}</p> }
                    })
            }}
        </div>
    }
}

split!(run:
    /// "Cancel all": every open interrupt cancelled, the run resumed (the `run` module is
    /// here while interrupts are open).
    fn cancel_all(store: AgentStore, error: RwSignal<Option<String>>) -> () {
        error.try_set(store.cancel_all_interrupts().err().map(|e| e.to_string()));
    }
);

/// Whether a drag carries files (not text or a link).
fn carries_files(ev: &DragEvent) -> bool {
    ev.data_transfer()
        .map(|d| {
            d.types()
                .iter()
                .any(|t| t.as_string().as_deref() == Some("Files"))
        })
        .unwrap_or(false)
}

/// The attach button and the hidden file picker it opens.
fn attach_button(
    store: AgentStore,
    att: Attachments,
    accept: String,
    locked: Memo<bool>,
) -> impl IntoView {
    let picker: NodeRef<leptos::html::Input> = NodeRef::new();
    view! {
        <input
            type="file"
            multiple=true
            // Out of the page (and of the accessibility tree): the button opens it.
            hidden=true
            aria-label=move || tr(store).attach_button
            data-testid="attach-input"
            accept=accept
            node_ref=picker
            on:change=move |ev| {
                let el: web_sys::HtmlInputElement = event_target(&ev);
                let files = files_of(el.files());
                store.in_module(move || add_files(att, files.clone(), store));
                // The same file can be picked again after removing it.
                el.set_value("");
            }
        />
        <button
            type="button"
            class="agui-composer__attach"
            data-testid="attach"
            aria-label=move || tr(store).attach_button
            title=move || tr(store).attach_button
            disabled=move || locked.get()
            on:click=move |_| {
                if let Some(p) = picker.get_untracked() {
                    p.click();
                }
            }
        >
            <svg class="agui-icon agui-composer__attach-icon" viewBox="0 0 24 24" aria-hidden="true">
                <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.9-8.9a3.7 3.7 0 0 1 5.2 5.2l-8.9 8.9a1.8 1.8 0 0 1-2.6-2.6l8.2-8.2" />
            </svg>
        </button>
    }
}
