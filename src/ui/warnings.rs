//! The warnings badge: protocol warnings (dropped unknown fields, repaired streams, …) are
//! something the person can see, not only a console line. A count, expandable to the list.
//! Each entry is a [`crate::store::Notice`] worded with the current locale's catalog; protocol
//! warnings from `src/protocol/` are technical diagnostics (JSON pointers) and stay English.

use leptos::prelude::*;

use crate::store::AgentStore;
use crate::ui::lazy::{lazy, split};
use crate::ui::tr;
use crate::wording;

/// Badge with the number of warnings; click to list them. (The lean widget fetches it, the
/// `warnings` module, with the first warning.)
#[component]
pub fn WarningsBadge() -> impl IntoView {
    let store = AgentStore::expect();
    let any = Memo::new(move |_| store.warnings.with(|w| !w.is_empty()));
    view! {
        <Show when=move || any.get()>
            {lazy(store, move || warnings_badge(store))}
        </Show>
    }
}

split!(warnings:
    /// The badge and its list.
    fn warnings_badge(store: AgentStore) -> AnyView {
        badge(store).into_any()
    }
);

fn badge(store: AgentStore) -> impl IntoView {
    let (open, set_open) = signal(false);
    let count = Memo::new(move |_| store.warnings.with(Vec::len));
    let items = move || {
        let t = tr(store);
        store.warnings.with(|ws| {
            ws.iter()
                .map(|w| view! { <li class="agui-warnings__item">{wording::notice(t, w)}</li> })
                .collect::<Vec<_>>()
        })
    };
    move || {
        (count.get() > 0).then(|| {
            view! {
                <div class="agui-warnings" data-testid="warnings">
                    <button
                        type="button"
                        class="agui-warnings__badge"
                        data-testid="warnings-toggle"
                        aria-expanded=move || open.get().to_string()
                        title=move || tr(store).warnings_title
                        on:click=move |_| set_open.update(|o| *o = !*o)
                    >
                        <span class="agui-warnings__icon" aria-hidden="true">
                            "⚠"
                        </span>
                        <span class="agui-warnings__count" data-testid="warnings-count">
                            {move || count.get()}
                        </span>
                        <span class="agui-visually-hidden">
                            {move || {
                                let t = tr(store);
                                let word = if count.get() == 1 { t.warnings_one } else { t.warnings_other };
                                format!(" {word}")
                            }}
                        </span>
                    </button>
                    <Show when=move || open.get()>
                        <div class="agui-warnings__panel" data-testid="warnings-list">
                            <div class="agui-warnings__heading">{move || tr(store).warnings_title}</div>
                            <ul class="agui-warnings__list">{items}</ul>
                        </div>
                    </Show>
                </div>
            }
        })
    }
}
