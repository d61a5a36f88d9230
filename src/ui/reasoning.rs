//! The reasoning box: kept apart from the answer (its own box above it), open and streaming
//! while the model thinks, collapsed to "Thought for N s" once done. An encrypted-only
//! reasoning (no text, an `encryptedValue`) shows a label and never the value.

use leptos::prelude::*;

use crate::i18n::{fill, Strings};
use crate::store::{AgentStore, Row};
use crate::ui::lazy::split;
use crate::ui::markdown_view::incremental_markdown;
use crate::ui::tr;

/// The summary of finished reasoning.
fn done_label(seconds: Option<f64>, t: &Strings) -> String {
    match seconds {
        Some(s) if s.is_finite() => fill(t.reasoning_thought_for, &[&(s.round().max(1.0) as u64)]),
        _ => t.reasoning_thought.to_owned(),
    }
}

split!(run:
    /// A reasoning message (in the `run` module, with the rows).
    pub fn reasoning(row: Row) -> AnyView {
        view! { <Reasoning row /> }.into_any()
    }
);

/// A reasoning message.
#[component]
pub fn Reasoning(
    /// The row of the reasoning message.
    row: Row,
) -> impl IntoView {
    let store = AgentStore::expect();
    let version = store.row_version(&row.key);
    let shape_key = row.key.clone();
    let encrypted_only = Memo::new(move |_| {
        version.track();
        store
            .with_message(&shape_key, |m| {
                m.text().is_empty() && m.encrypted_value.is_some()
            })
            .unwrap_or(false)
    });
    let open_id = row.id.clone();
    let streaming = Memo::new(move |_| {
        version.track();
        store.running.track();
        store.reasoning_open(&open_id)
    });
    let seconds_id = row.id.clone();
    let summary = move || {
        if streaming.get() {
            tr(store).reasoning_thinking.to_owned()
        } else {
            version.track();
            done_label(store.reasoning_seconds(&seconds_id), tr(store))
        }
    };
    let state = move || if streaming.get() { "streaming" } else { "done" };
    let key = row.key.clone();
    move || {
        if encrypted_only.get() {
            view! {
                <div
                    class="agui-reasoning agui-reasoning--encrypted"
                    data-testid="reasoning"
                    data-state=state
                    data-encrypted="true"
                >
                    <div class="agui-reasoning__summary">
                        <span class="agui-reasoning__icon" aria-hidden="true"></span>
                        <span class="agui-reasoning__label">{move || tr(store).reasoning_encrypted}</span>
                    </div>
                </div>
            }
            .into_any()
        } else {
            view! {
                <details
                    class="agui-reasoning"
                    data-testid="reasoning"
                    data-state=state
                    prop:open=move || streaming.get()
                >
                    <summary class="agui-reasoning__summary">
                        <span class="agui-reasoning__icon" aria-hidden="true"></span>
                        <span class="agui-reasoning__label">{summary.clone()}</span>
                    </summary>
                    <div class="agui-reasoning__body" data-testid="reasoning-text">
                        {incremental_markdown(key.clone())}
                    </div>
                </details>
            }
            .into_any()
        }
    }
}
