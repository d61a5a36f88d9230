//! The activity card (`ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA`, AG-UI §4.9): a progress or plan
//! card updated in place. It reads `title`, a `progress` number and a `steps` list from the
//! activity object; an object of another shape falls back to a compact JSON preview. All of it
//! is agent data, shown as text.

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::Strings;
use crate::protocol::types::Content;
use crate::store::{AgentStore, Row};
use crate::ui::lazy::split;
use crate::ui::tr;

/// Longest JSON preview, in characters.
const PREVIEW_CHARS: usize = 280;

/// How a step is going (from its free-form `status` string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StepState {
    Pending,
    Active,
    Done,
    Failed,
    Skipped,
}

impl StepState {
    fn parse(status: &str) -> Self {
        match status.trim().to_ascii_lowercase().as_str() {
            "done" | "complete" | "completed" | "success" | "succeeded" | "finished" | "ok" => {
                StepState::Done
            }
            "in_progress" | "in-progress" | "inprogress" | "running" | "active" | "working"
            | "started" | "current" => StepState::Active,
            "failed" | "error" | "errored" => StepState::Failed,
            "skipped" | "cancelled" | "canceled" => StepState::Skipped,
            _ => StepState::Pending,
        }
    }

    fn name(self) -> &'static str {
        match self {
            StepState::Pending => "pending",
            StepState::Active => "in-progress",
            StepState::Done => "done",
            StepState::Failed => "failed",
            StepState::Skipped => "skipped",
        }
    }

    fn icon(self) -> &'static str {
        match self {
            StepState::Pending => "○",
            StepState::Active => "◐",
            StepState::Done => "✓",
            StepState::Failed => "✕",
            StepState::Skipped => "–",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Step {
    title: String,
    state: StepState,
}

/// What the card shows, derived from the activity content.
#[derive(Debug, Clone, PartialEq, Default)]
struct ActivityModel {
    title: String,
    detail: Option<String>,
    /// 0.0..=1.0
    progress: Option<f64>,
    steps: Vec<Step>,
    /// Compact JSON of an object this card does not understand.
    preview: Option<String>,
}

fn str_field<'a>(obj: &'a serde_json::Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str))
        .filter(|s| !s.trim().is_empty())
}

fn step(value: &Value) -> Option<Step> {
    match value {
        Value::String(s) => Some(Step {
            title: s.clone(),
            state: StepState::Pending,
        }),
        Value::Object(o) => {
            let title = str_field(o, &["title", "name", "label", "text", "description"])?;
            let state = match (str_field(o, &["status", "state"]), o.get("done")) {
                (Some(s), _) => StepState::parse(s),
                (None, Some(Value::Bool(true))) => StepState::Done,
                _ => StepState::Pending,
            };
            Some(Step {
                title: title.to_owned(),
                state,
            })
        }
        _ => None,
    }
}

fn preview(value: &Value) -> String {
    let json = value.to_string();
    if json.chars().count() <= PREVIEW_CHARS {
        json
    } else {
        let mut cut: String = json.chars().take(PREVIEW_CHARS).collect();
        cut.push('…');
        cut
    }
}

fn model(content: Option<&Content>, activity_type: &str, t: &Strings) -> ActivityModel {
    let fallback_title = if activity_type.is_empty() {
        t.activity_fallback.to_owned()
    } else {
        activity_type.to_owned()
    };
    let Some(Content::Object(obj)) = content else {
        let text = content.map(|c| c.text().into_owned()).unwrap_or_default();
        return ActivityModel {
            title: fallback_title,
            preview: (!text.is_empty()).then_some(text),
            ..ActivityModel::default()
        };
    };
    let progress = obj
        .get("progress")
        .and_then(Value::as_f64)
        .filter(|p| p.is_finite())
        // 0..1 as specified; a percentage (1 < p <= 100) is accepted too.
        .map(|p| if p > 1.0 && p <= 100.0 { p / 100.0 } else { p })
        .map(|p| p.clamp(0.0, 1.0));
    let steps: Vec<Step> = obj
        .get("steps")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(step).collect())
        .unwrap_or_default();
    let title = str_field(obj, &["title", "name", "label"]);
    let detail = str_field(obj, &["description", "message", "detail", "subtitle"])
        .or_else(|| str_field(obj, &["status"]))
        .map(str::to_owned);
    let understood = progress.is_some() || !steps.is_empty();
    ActivityModel {
        title: title.map_or(fallback_title, str::to_owned),
        detail,
        progress,
        steps,
        preview: (!understood && (title.is_none() || obj.len() > 1))
            .then(|| preview(&Value::Object(obj.clone()))),
    }
}

split!(activity:
    /// The card of an activity message (the lean widget fetches it with the first one).
    pub fn activity_card(row: Row) -> AnyView {
        view! { <ActivityCard row /> }.into_any()
    }
);

/// A progress / plan card for an activity message.
#[component]
pub fn ActivityCard(
    /// The row of the activity message.
    row: Row,
) -> impl IntoView {
    let store = AgentStore::expect();
    let version = store.row_version(&row.key);
    let key = row.key.clone();
    let data = Memo::new(move |_| {
        version.track();
        store
            .with_message(&key, |m| {
                let kind = m.activity_type.clone().unwrap_or_default();
                (kind.clone(), model(m.content.as_ref(), &kind, tr(store)))
            })
            .unwrap_or_default()
    });
    let kind = move || data.with(|(k, _)| k.clone());
    let title = move || data.with(|(_, m)| m.title.clone());
    let detail = move || data.with(|(_, m)| m.detail.clone());
    let progress = Memo::new(move |_| data.with(|(_, m)| m.progress));
    let percent = move || progress.get().map(|p| (p * 100.0).round() as u32);
    let steps = move || {
        data.with(|(_, m)| {
            m.steps
                .iter()
                .map(|s| {
                    view! {
                        <li class="agui-activity__step" data-status=s.state.name()>
                            <span class="agui-activity__step-icon" aria-hidden="true">
                                {s.state.icon()}
                            </span>
                            <span class="agui-activity__step-title">{s.title.clone()}</span>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    let has_steps = move || data.with(|(_, m)| !m.steps.is_empty());
    let preview = move || data.with(|(_, m)| m.preview.clone());
    let done = move || progress.get().is_some_and(|p| p >= 1.0);
    view! {
        <section
            class="agui-activity"
            class:agui-activity--done=done
            data-testid="activity"
            data-activity-type=kind
        >
            <header class="agui-activity__header">
                <span class="agui-activity__icon" aria-hidden="true"></span>
                <span class="agui-activity__title">{title}</span>
                {move || {
                    percent().map(|p| view! { <span class="agui-activity__percent">{format!("{p}%")}</span> })
                }}
            </header>
            {move || detail().map(|d| view! { <p class="agui-activity__detail">{d}</p> })}
            <Show when=move || progress.get().is_some()>
                <div
                    class="agui-activity__progress"
                    role="progressbar"
                    aria-label=title
                    aria-valuemin="0"
                    aria-valuemax="100"
                    aria-valuenow=move || percent().unwrap_or(0).to_string()
                >
                    <div
                        class="agui-activity__bar"
                        style:width=move || format!("{:.1}%", progress.get().unwrap_or(0.0) * 100.0)
                    ></div>
                </div>
            </Show>
            <Show when=has_steps>
                <ol class="agui-activity__steps">{steps}</ol>
            </Show>
            {move || preview().map(|p| view! { <pre class="agui-activity__preview">{p}</pre> })}
        </section>
    }
}
