//! The embedded widget's frame around the [`Chat`]: the element that carries the theme,
//! direction and language, and — in the collapsible modes — a launcher button and a close
//! button. `popup` floats a launcher at the inline-end bottom corner that opens the chat in a
//! dialog-like panel; `sidebar` docks the panel to the inline-end edge with a tab to collapse
//! it; `inline` and `page` show the chat as is. A closed panel stays mounted (`hidden`), so a
//! run keeps streaming while the person looks elsewhere.
//!
//! Keyboard: the launcher is a button (`aria-expanded`, `aria-controls`); opening moves focus
//! into the composer, Escape in a popup closes it and returns focus to the launcher.

use leptos::ev::KeyboardEvent;
use leptos::html::{Button, Div};
use leptos::prelude::*;

use crate::embed::{Mode, Theme};
use crate::i18n::fill;
use crate::store::AgentStore;
use crate::ui::chat::{Chat, ChatTitle, OwnsPage};
use crate::ui::{direction, focus_in, tr};

/// What the host can change on a mounted widget without remounting it.
#[derive(Clone, Copy)]
pub struct ShellControls {
    pub theme: RwSignal<Theme>,
    pub open: RwSignal<bool>,
}

/// The widget frame. `panel_id` must be unique in its shadow root.
#[component]
pub fn WidgetShell(
    mode: Mode,
    controls: ShellControls,
    #[prop(optional)] title: Option<String>,
    /// Move the keyboard into the composer once mounted (opened before the chat loaded).
    #[prop(optional)]
    focus_on_start: bool,
) -> impl IntoView {
    let ShellControls { theme, open } = controls;
    let store = AgentStore::expect();
    let panel = NodeRef::<Div>::new();
    if focus_on_start {
        focus_in(panel, r#"[data-testid="composer-input"]"#);
    }
    let launcher = NodeRef::<Button>::new();
    let collapsible = mode.collapsible();
    let shown = move || !collapsible || open.get();
    let toggle = move |_| {
        let now = !open.get_untracked();
        open.set(now);
        if now {
            focus_in(panel, r#"[data-testid="composer-input"]"#);
        }
    };
    let close = move || {
        open.set(false);
        if let Some(Some(b)) = launcher.try_get_untracked() {
            let _ = b.focus();
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        if mode == Mode::Popup && ev.key() == "Escape" && open.get_untracked() {
            ev.stop_propagation();
            close();
        }
    };
    if mode == Mode::Page {
        provide_context(OwnsPage);
    }
    if let Some(t) = title.clone().filter(|t| !t.is_empty()) {
        provide_context(ChatTitle(t));
    }
    let title = title.filter(|t| !t.is_empty());
    let label = move || {
        title
            .clone()
            .unwrap_or_else(|| tr(store).widget_default_title.to_owned())
    };
    let launcher_label = {
        let label = label.clone();
        move || {
            let t = tr(store);
            fill(
                if open.get() {
                    t.widget_close
                } else {
                    t.widget_open
                },
                &[&label()],
            )
        }
    };
    let close_label = {
        let label = label.clone();
        move || fill(tr(store).widget_close, &[&label()])
    };
    let lang = move || store.config.with(|c| c.locale.tag());
    let dir = direction(store);
    let role = match mode {
        Mode::Popup => Some("dialog"),
        Mode::Sidebar => Some("complementary"),
        _ => None,
    };
    view! {
        <div
            class="agui-widget"
            data-testid="widget"
            data-mode=mode.name()
            data-open=move || shown().to_string()
            data-theme=move || theme.get().attr()
            lang=lang
            dir=dir
        >
            {collapsible
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="agui-launcher"
                            data-testid="widget-launcher"
                            aria-controls="agui-widget-panel"
                            aria-expanded=move || open.get().to_string()
                            aria-label=launcher_label
                            node_ref=launcher
                            on:click=toggle
                        >
                            <span class="agui-launcher__icon" aria-hidden="true"></span>
                        </button>
                    }
                })}
            <div
                id="agui-widget-panel"
                class="agui-widget__panel"
                data-testid="widget-panel"
                role=role
                aria-label=move || collapsible.then(&label)
                hidden=move || !shown()
                node_ref=panel
                on:keydown=on_key
            >
                {collapsible
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                class="agui-widget__close"
                                data-testid="widget-close"
                                aria-label=close_label.clone()
                                on:click=move |_| close()
                            >
                                <span aria-hidden="true">"×"</span>
                            </button>
                        }
                    })}
                <Chat />
            </div>
        </div>
    }
}
