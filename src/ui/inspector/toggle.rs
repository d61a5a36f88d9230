//! The header button that shows or hides the event inspector ([`super`]).

use leptos::prelude::*;

use crate::store::AgentStore;
use crate::ui::tr;

/// Toggles [`AgentStore::inspector_open`].
#[component]
pub fn InspectorToggle() -> impl IntoView {
    let store = AgentStore::expect();
    view! {
        <button
            type="button"
            class="agui-button agui-button--ghost agui-inspector-toggle"
            data-testid="inspector-toggle"
            aria-pressed=move || store.inspector_open.get().to_string()
            on:click=move |_| store.inspector_open.update(|o| *o = !*o)
        >
            {move || tr(store).inspector_toggle}
        </button>
    }
}
