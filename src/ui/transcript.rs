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
//! A long thread is mounted in slices ([`crate::view::slices`]): the newest rows at once, then
//! older ones a batch per animation frame, prepended above what the person sees. At the
//! bottom the view stays at the bottom; scrolled up, the first row on screen stays where it
//! was (its offset is measured before the batch and restored after it, so it does not depend
//! on the browser's scroll anchoring). Rows stay keyed, so streaming into the last message
//! costs the same in a 1,000-message thread as in an empty one.
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
use crate::ui::hitl::interrupt_card::interrupt_list;
use crate::ui::lazy::{lazy, lazy_or};
use crate::ui::message::message_rows;
use crate::ui::{locked_by_interrupts, tr};
use crate::view::slices::Slices;

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

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Mounts the older rows of a long thread, one batch per animation frame (see the module
/// docs). Everything it holds belongs to the transcript: once that is gone, every access
/// fails softly and the loop ends.
#[derive(Clone, Copy)]
struct Slicer {
    store: AgentStore,
    plan: StoredValue<Slices>,
    /// Bumped after each step: the window's memo re-reads the plan.
    stepped: RwSignal<u64>,
    scroller: NodeRef<Div>,
    inner: NodeRef<Div>,
    stick: RwSignal<bool>,
    /// A frame is scheduled or running.
    busy: StoredValue<bool>,
}

impl Slicer {
    /// Schedule the next batch unless one is scheduled or every row is mounted.
    fn schedule(self) {
        if self.busy.try_get_value() != Some(false) {
            return;
        }
        if self.plan.try_with_value(Slices::done).unwrap_or(true) {
            return;
        }
        self.busy.set_value(true);
        request_animation_frame(move || leptos::task::spawn_local(self.frame()));
    }

    /// One batch: measure the first row on screen, mount, wait for the DOM, restore.
    async fn frame(self) {
        let scroller = self.scroller.try_get_untracked().flatten();
        let pinned = self.stick.try_get_untracked().unwrap_or(true);
        // Scrolled up: the first mounted row's offset, to keep it in place.
        let anchor = if pinned {
            None
        } else {
            self.inner
                .try_get_untracked()
                .flatten()
                .and_then(|inner| inner.first_element_child())
                .map(|el| {
                    let top = el.get_bounding_client_rect().top();
                    (el, top)
                })
        };
        let t0 = now_ms();
        let stepped = self
            .store
            .rows
            .try_with_untracked(|rows| self.plan.try_update_value(|p| p.step(rows)))
            .flatten()
            .is_some();
        if !stepped || self.stepped.try_update(|v| *v += 1).is_none() {
            return;
        }
        // The window's memo and the list re-render in tasks of their own: let them run (all
        // before this frame's style and layout).
        leptos::task::tick().await;
        leptos::task::tick().await;
        let ms = now_ms() - t0;
        if self.plan.try_update_value(|p| p.measured(ms)).is_none() {
            return;
        }
        if let Some(el) = scroller {
            if self.stick.try_get_untracked().unwrap_or(false) {
                scroll_to_bottom(&el);
            } else if let Some((row, before)) = anchor {
                let moved = row.get_bounding_client_rect().top() - before;
                if moved.abs() >= 0.5 {
                    el.set_scroll_top(el.scroll_top() + moved.round() as i32);
                }
            }
        }
        if self.busy.try_update_value(|b| *b = false).is_none() {
            return;
        }
        self.schedule();
    }
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
    let inner: NodeRef<Div> = NodeRef::new();
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

    // The mounted rows: a suffix of the rows, grown a batch per frame (see the module docs).
    let slicer = Slicer {
        store,
        plan: StoredValue::new(store.rows.with_untracked(|rows| Slices::new(rows))),
        stepped: RwSignal::new(0),
        scroller,
        inner,
        stick,
        busy: StoredValue::new(false),
    };
    let start = Memo::new(move |_| {
        slicer.stepped.track();
        store
            .rows
            .with(|rows| {
                slicer.plan.try_update_value(|p| {
                    p.update(rows);
                    p.start()
                })
            })
            .unwrap_or(0)
    });
    Effect::new(move |_| {
        if start.get() > 0 {
            slicer.schedule();
        }
    });
    let window = move || {
        let from = start.get();
        store
            .rows
            .with(|rows| rows.get(from..).unwrap_or_default().to_vec())
    };

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
    // No welcome while what is saved is on its way (it would flash before the conversation).
    let welcome_shown = move || empty.get() && !store.restoring.get();
    let open_interrupts = locked_by_interrupts(store);
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
                <div class="agui-transcript__inner" node_ref=inner>
                    <Show when=welcome_shown>
                        <div class="agui-hero" data-testid="empty-state">
                            <h2 class="agui-hero__title">{move || tr(store).hero_title}</h2>
                            {welcome.clone()}
                            {suggestion_chips(store, plugins.suggestions())}
                        </div>
                    </Show>
                    // Rows exist once the `run` module is here (the lean widget): it renders them.
                    <Show when=move || store.rows.with(|r| !r.is_empty())>
                        {lazy_or(move || message_rows(Signal::derive(window)), || ())}
                    </Show>
                    {move || {
                        // Sent before the conversation's code is here: shown, pending.
                        store.sending.get().map(|text| {
                            view! {
                                <div
                                    class="agui-message agui-message--user agui-message--sending"
                                    data-testid="message-sending"
                                    aria-busy="true"
                                >
                                    <div class="agui-message__bubble">
                                        <div class="agui-message__text">{text}</div>
                                    </div>
                                </div>
                            }
                        })
                    }}
                    <Show when=move || open_interrupts.get()>
                        {lazy(store, interrupt_list)}
                    </Show>
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
