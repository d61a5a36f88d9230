//! The transcript: a keyed `<For>` over the store's rows (a delta to one message touches one
//! row; a new `messageId` is a new block), an empty-state hero, and auto-scroll that follows
//! the stream unless the person scrolled up.
//!
//! It also hosts the human in the loop: the open interrupts' cards after the last message, and
//! the frontend tools ([`crate::ui::hitl::frontend_tools`]) — advertised to the agent, their handlers
//! run when a finished run left calls pending.
//!
//! Following costs one scroll-position write per animation frame while a run is in flight;
//! it never walks the transcript. The jump is instant (`scrollTop`), never smooth, so reduced
//! motion needs nothing more here.
//!
//! Screen readers: the transcript is a `role="log"` with `aria-live="off"`, and a separate,
//! visually hidden polite live region (`data-testid="transcript-announcer"`) receives the text
//! of the answer once the run ends. Why not `aria-busy` on the log: streaming appends a text
//! node per animation frame, and a live log reads every append (token soup); `aria-busy` is
//! meant to hold those back, but screen readers disagree on what happens when it clears
//! (NVDA and JAWS ignore it on live regions, VoiceOver sometimes re-reads the whole log).
//! Writing the finished text once into a region of its own is announced the same way
//! everywhere, and only once: the region is emptied when a run starts (the same words twice
//! are still announced), and a message is announced once (a run resumed after an interrupt
//! reads only its own answer). `aria-busy` stays on the log as a hint for tools that read it.

use std::collections::HashSet;

use leptos::html::Div;
use leptos::prelude::*;

use crate::i18n::split_placeholder;
use crate::plugins::Plugins;
use crate::protocol::types::Role;
use crate::store::AgentStore;
use crate::ui::composer::suggestion_chips;
use crate::ui::hitl::frontend_tools::use_frontend_tools;
use crate::ui::hitl::interrupt_card::InterruptList;
use crate::ui::message::MessageRow;
use crate::ui::tr;

/// Within this many pixels of the bottom counts as "at the bottom".
const STICK_SLACK_PX: i32 = 48;

fn scroll_to_bottom(el: &web_sys::HtmlDivElement) {
    el.set_scroll_top(el.scroll_height());
}

/// Keep the transcript pinned to the bottom once per animation frame while a run is in flight
/// (and for a couple of frames after, for the final flush). Stops by itself.
fn follow(scroller: NodeRef<Div>, stick: RwSignal<bool>, store: AgentStore, tail_frames: u8) {
    request_animation_frame(move || {
        let Some(Some(el)) = scroller.try_get_untracked() else {
            return;
        };
        if stick.try_get_untracked().unwrap_or(false) {
            scroll_to_bottom(&el);
        }
        match store.running.try_get_untracked() {
            Some(true) => follow(scroller, stick, store, 2),
            Some(false) if tail_frames > 0 => follow(scroller, stick, store, tail_frames - 1),
            _ => {}
        }
    });
}

/// The text of a run's answer: the assistant messages after the last user message that were
/// not announced yet (a run resumed after an interrupt does not repeat what came before it).
fn answer_text(store: AgentStore, announced: &mut HashSet<String>) -> String {
    let keys: Vec<String> = store.rows.with_untracked(|rows| {
        let first = rows
            .iter()
            .rposition(|r| r.role == Role::User)
            .map_or(0, |i| i + 1);
        rows.get(first..)
            .unwrap_or_default()
            .iter()
            .filter(|r| r.role == Role::Assistant && announced.insert(r.key.clone()))
            .map(|r| r.key.clone())
            .collect()
    });
    keys.iter()
        .filter_map(|key| store.with_message(key, |m| m.text().trim().to_owned()))
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The message list.
#[component]
pub fn Transcript() -> impl IntoView {
    let store = AgentStore::expect();
    let scroller: NodeRef<Div> = NodeRef::new();
    let stick = RwSignal::new(true);
    let last_top = StoredValue::new(0i32);
    let plugins = Plugins::use_plugins();
    use_frontend_tools(store, plugins.tools().clone());

    // What the polite live region says (see the module docs).
    let announcement = RwSignal::new(String::new());
    let announced = StoredValue::new(HashSet::new());
    // A run starts (the person just sent something): jump to the bottom and follow.
    Effect::new(move |was_running: Option<bool>| {
        let running = store.running.get();
        if running && was_running != Some(true) {
            stick.set(true);
            follow(scroller, stick, store, 2);
            announcement.set(String::new());
        } else if !running && was_running == Some(true) {
            // Effects run after the store's synchronous end-of-run flush: the rows are final.
            announcement.set(
                announced
                    .try_update_value(|a| answer_text(store, a))
                    .unwrap_or_default(),
            );
        }
        running
    });
    // New rows outside a run (history loaded, a row appended by an action): scroll if pinned.
    Effect::new(move |_| {
        store.rows.track();
        if stick.get_untracked() {
            follow(scroller, stick, store, 1);
        }
    });

    let on_scroll = move |_| {
        let Some(el) = scroller.get_untracked() else {
            return;
        };
        let top = el.scroll_top();
        let distance = el.scroll_height() - top - el.client_height();
        let previous = last_top.get_value();
        last_top.set_value(top);
        if distance <= STICK_SLACK_PX {
            if !stick.get_untracked() {
                stick.set(true);
            }
        } else if top < previous - 1 && stick.get_untracked() {
            // Only moving up un-pins: content growing below never does.
            stick.set(false);
        }
    };
    let jump = move |_| {
        stick.set(true);
        if let Some(el) = scroller.get_untracked() {
            scroll_to_bottom(&el);
        }
    };

    let empty = Memo::new(move |_| store.rows.with(Vec::is_empty));
    // Under the title: the page's welcome text; on a developer page (agent picker shown)
    // talking to an endpoint, which endpoint.
    let welcome = {
        let plugins = plugins.clone();
        move || {
            let t = tr(store);
            let endpoint = store.config.with(|c| c.endpoint.clone());
            match endpoint.filter(|_| plugins.shows_agent_picker()) {
                Some(url) => {
                    let (before, after) = split_placeholder(t.hero_connected);
                    Some(
                        view! {
                            <p class="agui-hero__text">
                                {before} <code>{url}</code> {after}
                            </p>
                        }
                        .into_any(),
                    )
                }
                None => plugins
                    .welcome_text(t)
                    .map(|text| view! { <p class="agui-hero__text">{text}</p> }.into_any()),
            }
        }
    };
    // Waiting for the first event of a run: show a typing indicator.
    let waiting = move || {
        store.running.get()
            && store
                .rows
                .with(|r| r.last().is_none_or(|r| r.role == Role::User))
    };

    view! {
        <div class="agui-transcript-wrap">
            <div
                class="agui-transcript"
                data-testid="transcript"
                role="log"
                aria-live="off"
                aria-busy=move || store.running.get().to_string()
                aria-label=move || tr(store).transcript_label
                tabindex="0"
                node_ref=scroller
                on:scroll=on_scroll
            >
                <div class="agui-transcript__inner">
                    <Show when=move || empty.get()>
                        <div class="agui-hero" data-testid="empty-state">
                            <h2 class="agui-hero__title">{move || tr(store).hero_title}</h2>
                            {welcome.clone()}
                            {suggestion_chips(store, plugins.suggestions())}
                        </div>
                    </Show>
                    <For
                        each=move || store.rows.get()
                        key=|row| (row.key.clone(), row.role)
                        children=|row| view! { <MessageRow row /> }
                    />
                    <InterruptList />
                    <Show when=waiting>
                        <div
                            class="agui-typing"
                            data-testid="typing"
                            role="img"
                            aria-label=move || tr(store).typing_label
                        >
                            <span></span>
                            <span></span>
                            <span></span>
                        </div>
                    </Show>
                </div>
            </div>
            <div
                class="agui-visually-hidden"
                data-testid="transcript-announcer"
                aria-live="polite"
                aria-atomic="true"
            >
                {move || announcement.get()}
            </div>
            <Show when=move || !stick.get() && !empty.get()>
                <button
                    type="button"
                    class="agui-transcript__jump"
                    data-testid="jump-to-latest"
                    on:click=jump
                >
                    {move || tr(store).jump_latest}
                </button>
            </Show>
        </div>
    }
}
