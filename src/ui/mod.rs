//! The chat UI: one Leptos component per file (a component that grows is a folder: `tool/`,
//! `hitl/`, `inspector/`), all reading the [`crate::store::AgentStore`] from context and the
//! page's [`crate::plugins::Plugins`]. Generic: nothing here imports the demo. Nothing here
//! renders agent output as raw HTML. Every string shown comes from the [`crate::i18n`]
//! catalog of the store's locale ([`tr`]).

#[cfg(feature = "a2ui")]
pub mod a2ui;
pub mod activity;
pub mod attach;
pub mod catalog;
pub mod chat;
pub mod clipboard;
pub mod composer;
pub mod error_banner;
pub mod hitl;
#[cfg(feature = "inspector")]
pub mod inspector;
pub mod lazy;
pub mod markdown_view;
pub mod math;
#[cfg(feature = "mcp-apps")]
pub mod mcp_app;
pub mod message;
pub mod queue;
pub mod reasoning;
pub mod run_status;
pub mod settings;
pub mod sources;
pub mod state_panel;
pub mod styles;
pub mod subagent;
pub mod table_tools;
pub mod thread_list;
pub mod tool;
pub mod transcript;
pub mod voice;
pub mod warnings;
pub mod widget_shell;

use leptos::prelude::*;

pub use styles::STYLESHEET;

use crate::i18n::Strings;
use crate::store::AgentStore;

/// True while open interrupts wait for an answer: sending a message is refused (the composer),
/// the queue waits, and the transcript shows their cards.
pub(crate) fn locked_by_interrupts(store: AgentStore) -> Memo<bool> {
    Memo::new(move |_| store.run.with(|r| !r.interrupts.is_empty()))
}

/// The UI strings of the store's locale. Tracked: called inside a view closure, the text
/// follows a locale change.
pub fn tr(store: AgentStore) -> &'static Strings {
    store.config.with(|c| c.ui_strings())
}

/// [`tr`] for helpers that may render outside a chat (markdown): English without a store.
pub fn tr_ctx() -> &'static Strings {
    use_context::<AgentStore>().map_or(&crate::i18n::EN, tr)
}

/// [`tr`] without subscribing (event handlers, one-off messages).
pub fn tr_now(store: AgentStore) -> &'static Strings {
    store.config.with_untracked(|c| c.ui_strings())
}

/// The `dir` of a chat's root element: `rtl` in a right-to-left language, unless the page set
/// a direction on the chat's element ([`AgentConfig::page_dir`](crate::session::AgentConfig)). `None` (inherited) otherwise. The stylesheets use logical properties
/// only, so this is all a language needs.
pub(crate) fn direction(store: AgentStore) -> impl Fn() -> Option<&'static str> + Copy {
    move || {
        store
            .config
            .with(|c| c.locale.rtl() && !c.page_dir)
            .then_some("rtl")
    }
}

/// Whether the page set the chat's direction itself: `dir` on the element the chat mounts in.
/// An ancestor's `dir` is the page's own layout (`<html dir="ltr">` is boilerplate of many
/// site generators), not a choice for the chat: an Arabic chat is right to left inside it.
pub fn page_sets_dir(el: &web_sys::Element) -> bool {
    el.has_attribute("dir")
}

/// Moves the keyboard to the first element under `root` that matches `selector`, on the next
/// frame (after the change that shows it has rendered).
pub(crate) fn focus_in(root: NodeRef<leptos::html::Div>, selector: &str) {
    let selector = selector.to_owned();
    request_animation_frame(move || {
        // The widget may be gone by the next frame.
        if let Some(el) = root
            .try_get_untracked()
            .flatten()
            .and_then(|p| p.query_selector(&selector).ok().flatten())
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = el.focus();
        }
    });
}

/// An inline editor's textarea gets the keyboard on the next frame (it may be gone by then:
/// cancelled at once — never panic on it).
pub(crate) fn focus_editor(input: NodeRef<leptos::html::Textarea>) {
    request_animation_frame(move || {
        if let Some(Some(el)) = input.try_get_untracked() {
            let _ = el.focus();
        }
    });
}

/// An inline editor's keys: Escape cancels, Enter saves (Shift+Enter is a new line, nothing
/// while an IME composition is open).
pub(crate) fn editor_keys(ev: &web_sys::KeyboardEvent, cancel: impl FnOnce(), save: impl FnOnce()) {
    if ev.key() == "Escape" {
        ev.prevent_default();
        cancel();
    } else if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
        ev.prevent_default();
        save();
    }
}
