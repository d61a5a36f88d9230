//! One transcript row, by role: a user bubble (plain text, never Markdown-as-HTML), an
//! assistant answer (Markdown, then its tool cards), a reasoning box, an activity card, a tool
//! result that no card shows, or a muted system line.
//!
//! Each row reads its message from the thread only when its own version signal bumps, so a
//! delta to one message re-runs this row and no other.
//!
//! Branches (`store/threads.rs`): a user message can be edited inline (the edit starts a new
//! branch), the last answer can be regenerated, and the row where variants diverge carries a
//! `‹ 1/2 ›` switcher. All three are offered only while nothing is running or waiting.

use leptos::html::Textarea;
use leptos::prelude::*;
use web_sys::KeyboardEvent;

use crate::protocol::types::{Content, ContentPart, Role};
use crate::store::Rating;
use crate::store::ThreadError;
use crate::store::{AgentStore, Row};
use crate::ui::activity::activity_card;
use crate::ui::attach::{agent_media, file_activity, sent_media};
use crate::ui::lazy::{lazy, prefetch, split};
use crate::ui::markdown_view::MarkdownMessage;
use crate::ui::reasoning::reasoning;
use crate::ui::subagent::entries;
use crate::ui::tool::tool_card;
use crate::ui::tr;
use crate::view::prompts;
use crate::view::rows::is_last_answer;
use crate::view::subagents::{group_rows, Lineage};
use crate::view::times;
use crate::wording;

/// One message of the transcript.
#[component]
pub fn MessageRow(
    /// The row to render: its key, message id and role.
    row: Row,
    /// Inside a subagent's group: the message's accessible name, which names the subagent.
    #[prop(default = None)]
    speaker: Option<Signal<String>>,
) -> impl IntoView {
    let store = AgentStore::expect();
    let role = row.role;
    let editing = RwSignal::new(false);
    let body = match role {
        Role::User => user_body(store, row.key.clone(), editing),
        Role::Assistant => assistant_body(store, row.key.clone()),
        Role::Reasoning => {
            let row = row.clone();
            lazy(store, move || reasoning(row.clone())).into_any()
        }
        Role::Activity => {
            // A source its answer lists shows there, not as a card.
            if let Some(listed) = crate::ui::sources::listed(store, &row.key) {
                let card = move || {
                    (!listed.get()).then(|| {
                        let body = activity_body(store, row.clone());
                        let footer = message_footer(store, &row, editing);
                        wrap(&row, speaker, view! { {body} {footer} }.into_any())
                    })
                };
                return card.into_any();
            }
            activity_body(store, row.clone())
        }
        Role::System | Role::Developer => system_body(store, row.key.clone()),
        // A tool result shows inside its tool card; only an orphan gets a row of its own.
        Role::Tool => return tool_row(store, row, speaker).into_any(),
    };
    let footer = message_footer(store, &row, editing);
    let time = matches!(role, Role::User | Role::Assistant).then(|| {
        let row = row.clone();
        lazy(store, move || message_time(store, row.clone()))
    });
    wrap(&row, speaker, view! { {body} {time} {footer} }.into_any()).into_any()
}

thread_local! {
    /// The page's clock for "5 min ago": one timer for every chat, ticking twice a minute.
    /// Reference-counted, not owned by the reactive owner of whichever row asked first: a
    /// chat unmounted (and its owners disposed) leaves it to the others.
    static NOW: ArcRwSignal<f64> = {
        let now = ArcRwSignal::new(js_sys::Date::now());
        let tick = now.clone();
        let _ = set_interval_with_handle(
            move || tick.set(js_sys::Date::now()),
            std::time::Duration::from_secs(30),
        );
        now
    };
}

split!(run:
    /// A message's time (the `run` module: a person's message sent before it is here gets its
    /// time once it is).
    fn message_time(store: AgentStore, row: Row) -> AnyView {
        time_stamp(store, &row).map(IntoAny::into_any).unwrap_or_else(|| ().into_any())
    }
);

/// When the message was written (its metadata) or arrived here, as `<time>`: how long ago it
/// is to the eye, the exact time on hover and to a screen reader. Nothing for a message whose
/// time is unknown (one loaded from an older save).
fn time_stamp(store: AgentStore, row: &Row) -> Option<impl IntoView> {
    let id = row.id.clone();
    let ms = store
        .with_message(&row.key, |m| times::metadata_time(m.metadata.as_ref()))
        .flatten()
        .or_else(|| store.arrived(&id))?;
    let date = js_sys::Date::new(&ms.into());
    let iso = date.to_iso_string().as_string()?;
    let now = NOW.with(ArcRwSignal::clone);
    let lang = move || store.config.with(|c| c.locale.tag());
    let exact = move || {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into());
        let _ = js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into());
        String::from(date.to_locale_string(lang(), &options))
    };
    let relative = move || match times::ago(ms, now.get()) {
        Some((value, unit)) => {
            let locales = js_sys::Array::of1(&lang().into());
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &"numeric".into(), &"auto".into());
            let format = js_sys::Intl::RelativeTimeFormat::new(&locales, &options);
            String::from(format.format(value, unit))
        }
        None => {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into());
            String::from(js_sys::Date::new(&ms.into()).to_locale_date_string(lang(), &options))
        }
    };
    let title = exact.clone();
    Some(view! {
        <time class="agui-message__time" datetime=iso title=title data-testid="message-time">
            <span aria-hidden="true">{relative}</span>
            <span class="agui-visually-hidden">{exact}</span>
        </time>
    })
}

/// An activity row: an A2UI surface or an MCP App as itself (each a module of the lean widget,
/// fetched with the first one), any other activity as a progress or plan card.
fn activity_body(store: AgentStore, row: Row) -> AnyView {
    let kind = store
        .with_message(&row.key, |m| m.activity_type.clone())
        .flatten();
    match kind.as_deref() {
        #[cfg(feature = "a2ui")]
        Some(crate::a2ui::ACTIVITY_TYPE) => {
            lazy(store, move || crate::ui::a2ui::a2ui_card(row.clone())).into_any()
        }
        #[cfg(feature = "mcp-apps")]
        Some(crate::mcp_apps::ACTIVITY_TYPE) => {
            lazy(store, move || crate::ui::mcp_app::mcp_app_card(row.clone())).into_any()
        }
        // An AI SDK file (its chunk's `url` and `mediaType`): an image, a player or a file.
        Some("file" | "reasoning-file") if has_url(store, &row.key) => {
            lazy(store, move || file_activity(row.clone(), store)).into_any()
        }
        _ => lazy(store, move || activity_card(row.clone())).into_any(),
    }
}

/// Whether an activity's content has a `url` string (an AI SDK file part's).
fn has_url(store: AgentStore, key: &str) -> bool {
    store
        .with_message(key, |m| match &m.content {
            Some(Content::Object(o)) => o.get("url").is_some_and(serde_json::Value::is_string),
            _ => false,
        })
        .unwrap_or(false)
}

split!(run, preload fetch_run:
    /// The transcript's rows, those of `window`. The lean widget keeps the rows (bubbles,
    /// answers with their Markdown, tool cards and footers) and the list that keeps them in
    /// step with the session in the `run` module with everything that starts and reads a run
    /// ([`crate::store`]'s `run`), so a row exists only once it is here.
    /// Rows of a subagent are grouped under its name ([`crate::ui::subagent`]).
    pub fn message_rows(window: Signal<Vec<Row>>) -> AnyView {
        let store = AgentStore::expect();
        // Where each subagent shows: re-read when the run changes (`SUBAGENT_STARTED` is a run
        // change); equal after a status change, so the grouping does not re-run for one.
        let lineage = Memo::new(move |_| {
            store.run.track();
            store.with_thread(|t| Lineage::of(&t.subagents))
        });
        let items =
            Memo::new(move |_| window.with(|rows| lineage.with(|l| group_rows(rows, l))));
        crate::ui::sources::provide_plan(store, window);
        // Read aloud: one answer at a time, stopped when the rows go.
        crate::ui::voice::Speaker::provide();
        entries(items.into(), None, |row, speaker| {
            view! { <MessageRow row speaker /> }.into_any()
        })
    }
);

/// Starts fetching the `run` module when the person shows they are about to write (typing,
/// pasting or dropping into the composer, pointing at or focusing a suggestion), so it is
/// usually here by the time they send. Once per page; a fetch that fails is tried again by
/// the action that needs the module.
pub fn warm_run() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static ASKED: AtomicBool = AtomicBool::new(false);
    if !ASKED.swap(true, Ordering::Relaxed) {
        prefetch(fetch_run());
    }
}

/// A row's element. In a subagent's group it is an `article` named after the subagent.
fn wrap(row: &Row, speaker: Option<Signal<String>>, body: AnyView) -> impl IntoView {
    let role = row.role.as_str();
    view! {
        <div
            class=format!("agui-message agui-message--{role}")
            data-testid="message"
            data-message-id=row.id.clone()
            data-role=role
            role=speaker.map(|_| "article")
            aria-label=move || speaker.map(|s| s.get())
        >
            {body}
        </div>
    }
}

/// Under a message: the branch switcher (where variants diverge), Edit (user messages) and
/// Regenerate (the last answer), with the reason when an action is refused.
fn message_footer(store: AgentStore, row: &Row, editing: RwSignal<bool>) -> AnyView {
    let id = StoredValue::new(row.id.clone());
    let key = row.key.clone();
    let role = row.role;
    let (error, set_error) = signal(None::<ThreadError>);
    // A switch or regenerate may replace this very row: write only while it is alive.
    let report = move |r: Result<(), ThreadError>| {
        set_error.try_set(r.err());
    };
    let switcher = Memo::new(move |_| id.with_value(|id| store.switcher_on(id)));
    let idle = Memo::new(move |_| store.can_branch());
    let key_for_actions = StoredValue::new(row.key.clone());
    let last_answer = Memo::new(move |_| {
        role == Role::Assistant && store.rows.with(|rows| is_last_answer(rows, &key))
    });
    let can_edit = move || role == Role::User && idle.get() && !editing.get();
    // Copy and feedback on a finished answer with text (not the one streaming now).
    let rate_key = row.key.clone();
    let has_text = Memo::new(move |_| {
        store.row_version(&rate_key).track();
        role == Role::Assistant
            && store
                .with_message(&rate_key, |m| !m.text().trim().is_empty())
                .unwrap_or(false)
    });
    let answer_done = move || has_text.get() && !(last_answer.get() && store.running.get());
    let show = move || {
        switcher.with(Option::is_some)
            || can_edit()
            || (last_answer.get() && idle.get())
            || answer_done()
            || error.with(Option::is_some)
    };
    let step = move |delta: isize| {
        let Some(s) = switcher.get_untracked() else {
            return;
        };
        let Some(to) = s.current.checked_add_signed(delta).filter(|t| *t < s.total) else {
            return;
        };
        report(store.switch_branch(s.anchor.as_deref(), to));
    };
    view! {
        <Show when=show>
            <div class="agui-message__footer" data-testid="message-footer">
                {move || {
                    switcher
                        .get()
                        .map(|s| {
                            let first = s.current == 0;
                            let last = s.current + 1 >= s.total;
                            view! {
                                <div
                                    class="agui-branch"
                                    data-testid="branch-switcher"
                                    role="group"
                                    aria-label=move || tr(store).versions_label
                                >
                                    <button
                                        type="button"
                                        class="agui-branch__button"
                                        data-testid="branch-prev"
                                        aria-label=move || tr(store).version_previous
                                        disabled=move || first || !idle.get()
                                        on:click=move |_| step(-1)
                                    >
                                        "‹"
                                    </button>
                                    <span class="agui-branch__position" data-testid="branch-position">
                                        {format!("{}/{}", s.current + 1, s.total)}
                                    </span>
                                    <button
                                        type="button"
                                        class="agui-branch__button"
                                        data-testid="branch-next"
                                        aria-label=move || tr(store).version_next
                                        disabled=move || last || !idle.get()
                                        on:click=move |_| step(1)
                                    >
                                        "›"
                                    </button>
                                </div>
                            }
                        })
                }}
                <Show when=can_edit>
                    <button
                        type="button"
                        class="agui-message__action"
                        data-testid="edit-message"
                        title=move || tr(store).edit_title
                        on:click=move |_| {
                            set_error.set(None);
                            editing.set(true);
                        }
                    >
                        {move || tr(store).edit}
                    </button>
                </Show>
                <Show when=move || last_answer.get() && idle.get()>
                    <button
                        type="button"
                        class="agui-message__action"
                        data-testid="regenerate"
                        title=move || tr(store).regenerate_title
                        on:click=move |_| report(store.regenerate())
                    >
                        {move || tr(store).regenerate}
                    </button>
                </Show>
                <Show when=answer_done>
                    {move || answer_actions(store, id.get_value(), key_for_actions.get_value())}
                </Show>
                {move || {
                    error
                        .get()
                        .map(|e| {
                            view! {
                                <span class="agui-message__action-error" data-testid="message-action-error" role="status">
                                    {move || wording::thread_error(tr(store), &e)}
                                </span>
                            }
                        })
                }}
            </div>
        </Show>
    }
    .into_any()
}

/// Copy an answer (its markdown source), read it aloud (where the browser can speak), and
/// rate it: 👍 or 👎, then an optional comment
/// (Enter or "Send" passes it on, "Skip" or Escape without one). The feedback goes to the page
/// (`agui:feedback`, [`crate::plugins::Plugins::on_feedback`]), nowhere else.
fn answer_actions(store: AgentStore, message_id: String, key: String) -> impl IntoView {
    let plugins = crate::plugins::Plugins::use_plugins();
    let rated = RwSignal::new(store.rating(&message_id));
    // The rating waiting for its optional comment.
    let asking = RwSignal::new(None::<Rating>);
    let thanked = RwSignal::new(false);
    let (copied, set_copied) = signal(false);
    let comment: NodeRef<Textarea> = NodeRef::new();
    let id = StoredValue::new(message_id);
    let plugins = StoredValue::new(plugins);
    let read_key = key.clone();
    let submit = move |with_comment: bool| {
        let Some(rating) = asking.get_untracked() else {
            return;
        };
        let text = if with_comment {
            comment
                .get_untracked()
                .map(|c| c.value())
                .unwrap_or_default()
        } else {
            String::new()
        };
        if let Some(f) = id.with_value(|id| store.rate(id, rating, &text)) {
            plugins.with_value(|p| p.feedback(&f));
            rated.set(Some(rating));
            thanked.set(true);
        }
        asking.set(None);
    };
    let thumb = move |rating: Rating| {
        asking.set(Some(rating));
        thanked.set(false);
    };
    let thumb_button = move |rating: Rating| {
        // One drawing (no emoji: a system without an emoji font shows an empty box); down is
        // up turned over.
        let (testid, class) = match rating {
            Rating::Up => ("rate-up", "agui-icon"),
            Rating::Down => ("rate-down", "agui-icon agui-thumb--down"),
        };
        view! {
            <button
                type="button"
                class="agui-message__action agui-answer-actions__thumb"
                data-testid=testid
                aria-label=move || match rating {
                    Rating::Up => tr(store).rate_up,
                    Rating::Down => tr(store).rate_down,
                }
                aria-pressed=move || (asking.get().or(rated.get()) == Some(rating)).to_string()
                on:click=move |_| thumb(rating)
            >
                <svg class=class viewBox="0 0 24 24" aria-hidden="true">
                    <path d="M7 10v11H3V10zM7 10l4-7a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2.3l-1.4 7a2 2 0 0 1-2 1.7H7" />
                </svg>
            </button>
        }
    };
    view! {
        <div class="agui-answer-actions" role="group" aria-label=move || tr(store).answer_actions>
            <button
                type="button"
                class="agui-message__action"
                data-testid="copy-answer"
                title=move || tr(store).copy_answer
                on:click=move |_| {
                    let text = store.with_message(&key, |m| m.text().into_owned()).unwrap_or_default();
                    crate::ui::clipboard::copy_to_clipboard(text, set_copied);
                }
            >
                {move || if copied.get() { tr(store).copied } else { tr(store).copy }}
            </button>
            {crate::ui::voice::read_aloud_button(store, read_key)}
            {thumb_button(Rating::Up)}
            {thumb_button(Rating::Down)}
            <Show when=move || thanked.get()>
                <span class="agui-answer-actions__thanks" data-testid="feedback-thanks" role="status">
                    {move || tr(store).feedback_thanks}
                </span>
            </Show>
        </div>
        <Show when=move || asking.get().is_some()>
            <form
                class="agui-feedback"
                data-testid="feedback-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    submit(true);
                }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Escape" {
                        submit(false);
                    } else if ev.key() == "Enter" && !ev.shift_key() {
                        ev.prevent_default();
                        submit(true);
                    }
                }
            >
                <label class="agui-feedback__label">
                    {move || tr(store).feedback_comment_label}
                    <textarea
                        class="agui-feedback__comment"
                        data-testid="feedback-comment"
                        rows="2"
                        maxlength="2000"
                        node_ref=comment
                    ></textarea>
                </label>
                <div class="agui-feedback__buttons">
                    <button type="submit" class="agui-button agui-button--primary" data-testid="feedback-send">
                        {move || tr(store).feedback_send}
                    </button>
                    <button
                        type="button"
                        class="agui-button agui-button--secondary"
                        data-testid="feedback-skip"
                        on:click=move |_| submit(false)
                    >
                        {move || tr(store).feedback_skip}
                    </button>
                </div>
            </form>
        </Show>
    }
}

split!(edit:
    /// The inline editor of a user message (the lean widget fetches it when one is edited).
    fn user_editor(store: AgentStore, key: String, editing: RwSignal<bool>) -> AnyView {
        user_editor_view(store, key, editing).into_any()
    }
);

/// The inline editor of a user message: Enter saves (a new message and a new branch),
/// Shift+Enter is a new line, Escape cancels.
fn user_editor_view(store: AgentStore, key: String, editing: RwSignal<bool>) -> impl IntoView {
    let input: NodeRef<Textarea> = NodeRef::new();
    let (error, set_error) = signal(None::<ThreadError>);
    let original = store
        .with_message(&key, |m| m.text().into_owned())
        .unwrap_or_default();
    let message_id = store
        .with_message(&key, |m| m.id.clone())
        .unwrap_or_default();
    let save = move || {
        let Some(el) = input.get_untracked() else {
            return;
        };
        // The edit replaces this row: its signals may already be on their way out.
        match store.edit_message(&message_id, &el.value()) {
            Ok(()) => {
                editing.try_set(false);
            }
            Err(e) => {
                set_error.try_set(Some(e));
            }
        }
    };
    let save = StoredValue::new(save);
    crate::ui::focus_editor(input);
    view! {
        <form
            class="agui-message__editor"
            data-testid="edit-form"
            on:submit=move |ev| {
                ev.prevent_default();
                save.with_value(|f| f());
            }
        >
            <textarea
                class="agui-message__edit-input"
                data-testid="edit-input"
                aria-label=move || tr(store).edit_message_label
                node_ref=input
                rows="3"
                prop:value=original
                on:keydown=move |ev: KeyboardEvent| {
                    crate::ui::editor_keys(&ev, || editing.set(false), || save.with_value(|f| f()))
                }
            ></textarea>
            {move || {
                error
                    .get()
                    .map(|e| {
                        view! { <p class="agui-message__action-error" data-testid="edit-error">{move || wording::thread_error(tr(store), &e)}</p> }
                    })
            }}
            <div class="agui-message__editor-actions">
                <button
                    type="button"
                    class="agui-button agui-button--ghost"
                    data-testid="edit-cancel"
                    on:click=move |_| editing.set(false)
                >
                    {move || tr(store).cancel}
                </button>
                <button type="submit" class="agui-button agui-button--primary" data-testid="edit-save">
                    {move || tr(store).save_and_send}
                </button>
            </div>
        </form>
    }
}

/// The text of a user message and its media parts.
fn user_parts(content: Option<&Content>) -> (String, Vec<ContentPart>) {
    match content {
        Some(Content::Text(s)) => (s.clone(), Vec::new()),
        Some(Content::Parts(parts)) => {
            let text: Vec<&str> = parts
                .iter()
                .filter_map(|p| match p {
                    ContentPart::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            let media = parts
                .iter()
                .filter(|p| !matches!(p, ContentPart::Text { .. }))
                .cloned()
                .collect();
            (text.join("\n"), media)
        }
        Some(Content::Object(_)) | None => (String::new(), Vec::new()),
    }
}

/// A number for the ids of a person's message text (unique on the page).
fn next_text_id() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn user_body(store: AgentStore, key: String, editing: RwSignal<bool>) -> AnyView {
    let version = store.row_version(&key);
    let editor_key = key.clone();
    let parts = Memo::new(move |_| {
        version.track();
        store
            .with_message(&key, |m| user_parts(m.content.as_ref()))
            .unwrap_or_default()
    });
    let editor = move || {
        let key = editor_key.clone();
        lazy(store, move || user_editor(store, key.clone(), editing))
    };
    // A long message shows collapsed, with "Show more".
    let long = Memo::new(move |_| parts.with(|(text, _)| prompts::is_long(text)));
    let open = RwSignal::new(false);
    let text_id = format!("agui-text-{}", next_text_id());
    let text_ref = StoredValue::new(text_id.clone());
    view! {
        <Show when=move || !editing.get() fallback=editor>
            <div class="agui-message__bubble">
                <div
                    class="agui-message__text"
                    class:agui-message__text--collapsed=move || long.get() && !open.get()
                    id=text_id.clone()
                    data-testid="message-text"
                >
                    {move || parts.with(|(text, _)| text.clone())}
                </div>
                <Show when=move || long.get()>
                    <button
                        type="button"
                        class="agui-message__more"
                        data-testid="show-more"
                        aria-expanded=move || if open.get() { "true" } else { "false" }
                        aria-controls=move || text_ref.get_value()
                        on:click=move |_| open.update(|o| *o = !*o)
                    >
                        {move || if open.get() { tr(store).show_less } else { tr(store).show_more }}
                    </button>
                </Show>
                {move || {
                    let has_media = parts.with(|(_, media)| !media.is_empty());
                    has_media.then(|| lazy(store, move || sent_media(parts, store)))
                }}
            </div>
        </Show>
    }
    .into_any()
}

fn assistant_body(store: AgentStore, key: String) -> AnyView {
    let version = store.row_version(&key);
    let ids_key = key.clone();
    // The ids of this message's tool calls: recomputed per delta (a short list), but the
    // `<For>` only re-diffs when the list really changed.
    let tool_ids = Memo::new(move |_| {
        version.track();
        store
            .with_message(&ids_key, |m| {
                m.tool_calls
                    .as_ref()
                    .map(|calls| calls.iter().map(|c| c.id.clone()).collect::<Vec<_>>())
                    .unwrap_or_default()
            })
            .unwrap_or_default()
    });
    let sources = crate::ui::sources::provide_citations(store, key.clone());
    view! {
        <MarkdownMessage row_key=key />
        <Show when=move || tool_ids.with(|ids| !ids.is_empty())>
            <div class="agui-message__tools">
                <For
                    each=move || tool_ids.get()
                    key=|id| id.clone()
                    children=move |id| lazy(store, move || tool_card(id.clone()))
                />
            </div>
        </Show>
        {sources}
    }
    .into_any()
}

fn system_body(store: AgentStore, key: String) -> AnyView {
    let version = store.row_version(&key);
    let text = move || {
        version.track();
        store
            .with_message(&key, |m| m.text().into_owned())
            .unwrap_or_default()
    };
    view! { <div class="agui-message__system" data-testid="message-text">{text}</div> }.into_any()
}

fn tool_row(store: AgentStore, row: Row, speaker: Option<Signal<String>>) -> impl IntoView {
    let version = store.row_version(&row.key);
    let key = row.key.clone();
    // Whether the call this result answers is in the thread (then its card shows it).
    let known = Memo::new(move |_| {
        version.track();
        store
            .with_message(&key, |m| m.tool_call_id.clone())
            .flatten()
            .is_some_and(|id| store.with_thread(|t| t.tool_call(&id).is_some()))
    });
    move || {
        (!known.get()).then(|| {
            let key = row.key.clone();
            let body = move || {
                version.track();
                store
                    .with_message(&key, |m| {
                        let text = m.text().into_owned();
                        (text, m.error.clone())
                    })
                    .unwrap_or_default()
            };
            let media_key = row.key.clone();
            let media = Memo::new(move |_| {
                version.track();
                store
                    .with_message(&media_key, |m| match &m.content {
                        Some(Content::Parts(parts)) => crate::view::media::classify_all(parts),
                        _ => Vec::new(),
                    })
                    .unwrap_or_default()
            });
            let media = move || {
                let items = media.get();
                (!items.is_empty()).then(|| lazy(store, move || agent_media(items.clone(), store)))
            };
            let inner = view! {
                <div class="agui-tool-result" data-testid="tool-result">
                    <div class="agui-tool-result__label">{move || tr(store).tool_result_label}</div>
                    {move || {
                        let (text, error) = body();
                        view! {
                            {error
                                .map(|e| {
                                    view! { <div class="agui-tool-result__error">{e}</div> }
                                })}
                            {crate::ui::tool::parts::text_block(
                                crate::view::tool::TextBlock::from_result_text(&text),
                                "message-text",
                            )}
                        }
                    }}
                    {media}
                </div>
            }
            .into_any();
            wrap(&row, speaker, inner)
        })
    }
}
