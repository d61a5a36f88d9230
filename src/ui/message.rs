//! One transcript row, by role: a user bubble (plain text, never Markdown-as-HTML), an
//! assistant answer (Markdown, then its tool cards), a reasoning box, an activity card, a tool
//! result that no card shows, or a muted system line.
//!
//! Each row reads its message from the thread only when its own version signal bumps, so a
//! delta to one message re-runs this row and no other.

use leptos::prelude::*;

use crate::protocol::types::{Content, ContentPart, Role};
use crate::store::{AgentStore, Row};
use crate::ui::activity::ActivityCard;
use crate::ui::markdown_view::MarkdownMessage;
use crate::ui::reasoning::Reasoning;
use crate::ui::tool_card::ToolCard;

/// One message of the transcript.
#[component]
pub fn MessageRow(
    /// The row to render: its key, message id and role.
    row: Row,
) -> impl IntoView {
    let store = AgentStore::expect();
    let role = row.role;
    let body = match role {
        Role::User => user_body(store, row.key.clone()),
        Role::Assistant => assistant_body(store, row.key.clone()),
        Role::Reasoning => view! { <Reasoning row=row.clone() /> }.into_any(),
        Role::Activity => view! { <ActivityCard row=row.clone() /> }.into_any(),
        Role::System | Role::Developer => system_body(store, row.key.clone()),
        // A tool result shows inside its tool card; only an orphan gets a row of its own.
        Role::Tool => return tool_row(store, row).into_any(),
    };
    wrap(&row, body).into_any()
}

fn wrap(row: &Row, body: AnyView) -> impl IntoView {
    let role = row.role.as_str();
    view! {
        <div
            class=format!("agui-message agui-message--{role}")
            data-testid="message"
            data-message-id=row.id.clone()
            data-role=role
        >
            {body}
        </div>
    }
}

/// The text of a user message and a chip per media part (media is never fetched).
fn user_parts(content: Option<&Content>) -> (String, Vec<String>) {
    match content {
        Some(Content::Text(s)) => (s.clone(), Vec::new()),
        Some(Content::Parts(parts)) => {
            let mut text = Vec::new();
            let mut chips = Vec::new();
            for part in parts {
                match part {
                    ContentPart::Text { text: t, .. } => text.push(t.as_str()),
                    ContentPart::Image(_) => chips.push("image".to_owned()),
                    ContentPart::Audio(_) => chips.push("audio".to_owned()),
                    ContentPart::Video(_) => chips.push("video".to_owned()),
                    ContentPart::Document(_) => chips.push("document".to_owned()),
                }
            }
            (text.join("\n"), chips)
        }
        Some(Content::Object(_)) | None => (String::new(), Vec::new()),
    }
}

fn user_body(store: AgentStore, key: String) -> AnyView {
    let version = store.row_version(&key);
    let parts = Memo::new(move |_| {
        version.track();
        store
            .with_message(&key, |m| user_parts(m.content.as_ref()))
            .unwrap_or_default()
    });
    view! {
        <div class="agui-message__bubble">
            <div class="agui-message__text" data-testid="message-text">
                {move || parts.with(|(text, _)| text.clone())}
            </div>
            {move || {
                parts
                    .with(|(_, chips)| {
                        (!chips.is_empty())
                            .then(|| {
                                let chips: Vec<_> = chips
                                    .iter()
                                    .map(|kind| {
                                        view! {
                                            <span class="agui-chip agui-chip--media" data-testid="media-chip">
                                                {format!("[{kind}]")}
                                            </span>
                                        }
                                    })
                                    .collect();
                                view! { <div class="agui-message__media">{chips}</div> }
                            })
                    })
            }}
        </div>
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
    view! {
        <MarkdownMessage row_key=key />
        <Show when=move || tool_ids.with(|ids| !ids.is_empty())>
            <div class="agui-message__tools">
                <For
                    each=move || tool_ids.get()
                    key=|id| id.clone()
                    children=|id| view! { <ToolCard tool_call_id=id /> }
                />
            </div>
        </Show>
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

fn tool_row(store: AgentStore, row: Row) -> impl IntoView {
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
            let inner = view! {
                <div class="agui-tool-result" data-testid="tool-result">
                    <div class="agui-tool-result__label">"Tool result"</div>
                    {move || {
                        let (text, error) = body();
                        view! {
                            {error
                                .map(|e| {
                                    view! { <div class="agui-tool-result__error">{e}</div> }
                                })}
                            <pre class="agui-tool-result__text" data-testid="message-text">
                                {text}
                            </pre>
                        }
                    }}
                </div>
            }
            .into_any();
            wrap(&row, inner)
        })
    }
}
