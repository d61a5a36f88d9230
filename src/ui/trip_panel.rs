//! The trip panel: the demo planner's shared state (`/destination`, `/dates`, `/travellers`,
//! `/budget`, `/venues`, `/steps`) as a friendly card that updates live as `STATE_DELTA`
//! patches arrive — the "state channel" of generative UI, next to the tool cards' "tool
//! channel".
//!
//! Each part subscribes to its own [`AgentStore::path_signal`]; list rows subscribe to their
//! element (`/venues/3`) and are keyed by index, so appending a venue adds one row. Hidden
//! (renders nothing) while the state has no `destination`.

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::{fill, Strings};
use crate::store::AgentStore;
use crate::ui::tool_card::truncate_chars;
use crate::ui::venue_card::{venue_from_value, Venue};
use crate::ui::{thousands, tr};

/// Rows rendered per list (a producer could append thousands).
const MAX_ROWS: usize = 50;

#[component]
pub fn TripPanel() -> impl IntoView {
    let store = AgentStore::expect();
    let destination = text_at(store, "/destination", destination_text);
    let dates = text_at(store, "/dates", dates_text);
    let travellers = text_at(store, "/travellers", move |v| travellers_text(v, tr(store)));
    let budget = {
        let budget = store.path_signal("/budget");
        let people = store.path_signal("/travellers");
        Memo::new(move |_| {
            budget.track();
            let (amount, currency) = store.with_state("/budget", budget_of)?;
            let total = format_money(amount, currency.as_deref(), tr(store));
            // The per-person share also depends on /travellers.
            people.track();
            let n = store.with_state("/travellers", |v| v.and_then(Value::as_u64));
            Some(match n {
                Some(n) if n > 1 && amount > 0.0 => fill(
                    tr(store).trip_budget_each,
                    &[
                        &total,
                        &format_money((amount / n as f64).round(), currency.as_deref(), tr(store)),
                    ],
                ),
                _ => total,
            })
        })
    };

    view! {
        <Show when=move || destination.with(Option::is_some)>
            <section class="agui-trip" data-testid="trip-panel" aria-label="Trip">
                <header class="agui-trip__header">
                    <p class="agui-trip__eyebrow">"Trip"</p>
                    <h3 class="agui-trip__title" data-testid="trip-destination">
                        {move || destination.get().unwrap_or_default()}
                    </h3>
                    {move || dates.get().map(|d| view! {
                        <p class="agui-trip__dates" data-testid="trip-dates">{d}</p>
                    })}
                </header>
                <dl class="agui-trip__facts">
                    {move || travellers.get().map(|t| view! {
                        <div class="agui-trip__fact" data-testid="trip-travellers">
                            <dt>{move || tr(store).trip_travellers}</dt>
                            <dd>{t}</dd>
                        </div>
                    })}
                    {move || budget.get().map(|b| view! {
                        <div class="agui-trip__fact" data-testid="trip-budget">
                            <dt>{move || tr(store).trip_budget}</dt>
                            <dd>{b}</dd>
                        </div>
                    })}
                </dl>
                {venues_section(store)}
                {steps_section(store)}
            </section>
        </Show>
    }
}

/// A memo of the text of one path, re-read only when that path's signal bumps.
fn text_at(
    store: AgentStore,
    pointer: &'static str,
    read: impl Fn(Option<&Value>) -> Option<String> + Send + Sync + 'static,
) -> Memo<Option<String>> {
    let sig = store.path_signal(pointer);
    Memo::new(move |_| {
        sig.track();
        store.with_state(pointer, &read)
    })
}

/// The length of the array at `pointer` (0 when missing), re-read when it bumps.
fn len_at(store: AgentStore, pointer: &'static str) -> Memo<usize> {
    let sig = store.path_signal(pointer);
    Memo::new(move |_| {
        sig.track();
        store.with_state(pointer, |v| v.and_then(Value::as_array).map_or(0, Vec::len))
    })
}

fn venues_section(store: AgentStore) -> impl IntoView {
    let len = len_at(store, "/venues");
    view! {
        <section class="agui-trip__section" data-testid="trip-venues">
            <h4 class="agui-trip__heading">
                {move || tr(store).trip_venues} <span class="agui-trip__count">{move || len.get().to_string()}</span>
            </h4>
            <Show
                when=move || { len.get() > 0 }
                fallback=move || view! { <p class="agui-trip__muted">{move || tr(store).trip_no_venues}</p> }
            >
                <ol class="agui-trip__venues">
                    <For
                        each=move || 0..len.get().min(MAX_ROWS)
                        key=|i| *i
                        children=move |i| trip_venue(store, i)
                    />
                </ol>
            </Show>
        </section>
    }
}

fn trip_venue(store: AgentStore, i: usize) -> impl IntoView {
    let pointer = format!("/venues/{i}");
    let sig = store.path_signal(&pointer);
    let venue = Memo::new(move |_| {
        sig.track();
        store.with_state(&pointer, |v| v.and_then(venue_from_value))
    });
    let meta = move || {
        venue.with(|v| {
            v.as_ref().map(|v: &Venue| {
                let mut parts: Vec<String> = Vec::new();
                parts.extend(v.area.clone());
                parts.extend(v.price.clone());
                parts.extend(v.rating.map(|r| format!("★ {r:.1}")));
                parts.join(" · ")
            })
        })
    };
    view! {
        <li class="agui-trip__venue" data-testid="trip-venue">
            <span class="agui-trip__venue-name">
                {move || {
                    venue.with(|v| match v.as_ref().map(|v| v.name.as_str()) {
                        Some("") => tr(store).venue_unnamed.to_owned(),
                        name => name.unwrap_or_default().to_owned(),
                    })
                }}
            </span>
            <span class="agui-trip__venue-meta">{meta}</span>
        </li>
    }
}

fn steps_section(store: AgentStore) -> impl IntoView {
    let len = len_at(store, "/steps");
    let steps = store.path_signal("/steps");
    let done = Memo::new(move |_| {
        steps.track();
        store.with_state("/steps", |v| {
            v.and_then(Value::as_array).map_or(0, |a| {
                a.iter()
                    .filter(|s| step_of(Some(s)).is_some_and(|(_, st)| st == StepStatus::Done))
                    .count()
            })
        })
    });
    view! {
        <Show when=move || { len.get() > 0 }>
            <section class="agui-trip__section" data-testid="trip-steps">
                <h4 class="agui-trip__heading">
                    {move || tr(store).trip_plan}
                    <span class="agui-trip__count">
                        {move || fill(tr(store).trip_done_count, &[&done.get(), &len.get()])}
                    </span>
                </h4>
                <ul class="agui-trip__steps">
                    <For
                        each=move || 0..len.get().min(MAX_ROWS)
                        key=|i| *i
                        children=move |i| trip_step(store, i)
                    />
                </ul>
            </section>
        </Show>
    }
}

fn trip_step(store: AgentStore, i: usize) -> impl IntoView {
    let pointer = format!("/steps/{i}");
    let sig = store.path_signal(&pointer);
    let step = Memo::new(move |_| {
        sig.track();
        store.with_state(&pointer, step_of)
    });
    let status = move || step.with(|s| s.as_ref().map_or(StepStatus::Pending, |(_, st)| *st));
    view! {
        <li
            class=move || format!("agui-trip__step agui-trip__step--{}", status().name())
            data-testid="trip-step"
            data-status=move || status().name()
        >
            <span class="agui-trip__check" aria-hidden="true"></span>
            <span class="agui-trip__step-title">
                {move || {
                    step.with(|s| match s.as_ref().map(|(t, _)| t.as_str()) {
                        Some("") => tr(store).trip_untitled_step.to_owned(),
                        title => title.unwrap_or_default().to_owned(),
                    })
                }}
            </span>
            <span class="agui-trip__step-status">{move || status().label(tr(store))}</span>
        </li>
    }
}

// ---- pure helpers ------------------------------------------------------------------------

/// The status of a plan step, from the many spellings agents use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepStatus {
    Pending,
    Active,
    Done,
    Failed,
    Skipped,
}

impl StepStatus {
    pub fn parse(s: &str) -> Self {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['-', ' '], "_")
            .as_str()
        {
            "done" | "complete" | "completed" | "finished" | "success" | "succeeded" | "ok" => {
                StepStatus::Done
            }
            "in_progress" | "active" | "running" | "current" | "doing" | "started" => {
                StepStatus::Active
            }
            "failed" | "error" | "blocked" | "cancelled" | "canceled" => StepStatus::Failed,
            "skipped" => StepStatus::Skipped,
            _ => StepStatus::Pending,
        }
    }

    /// The `data-status` value.
    pub fn name(self) -> &'static str {
        match self {
            StepStatus::Pending => "pending",
            StepStatus::Active => "active",
            StepStatus::Done => "done",
            StepStatus::Failed => "failed",
            StepStatus::Skipped => "skipped",
        }
    }

    fn label(self, t: &Strings) -> &'static str {
        match self {
            StepStatus::Pending => t.step_pending,
            StepStatus::Active => t.step_active,
            StepStatus::Done => t.step_done,
            StepStatus::Failed => t.step_failed,
            StepStatus::Skipped => t.step_skipped,
        }
    }
}

/// A step: `{title|name|label, status|state|done}` or a bare string.
pub fn step_of(v: Option<&Value>) -> Option<(String, StepStatus)> {
    match v? {
        Value::String(s) => Some((truncate_chars(s, 200), StepStatus::Pending)),
        Value::Object(o) => {
            let title = ["title", "name", "label", "description"]
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_str))
                .map(|s| truncate_chars(s, 200))
                // Empty when the agent gave none: the view says "Untitled step".
                .unwrap_or_default();
            let status = match (
                o.get("status")
                    .or_else(|| o.get("state"))
                    .and_then(Value::as_str),
                o.get("done").and_then(Value::as_bool),
            ) {
                (Some(s), _) => StepStatus::parse(s),
                (None, Some(true)) => StepStatus::Done,
                _ => StepStatus::Pending,
            };
            Some((title, status))
        }
        _ => None,
    }
}

/// The trip title: a string, or an object's `name`/`city`.
pub fn destination_text(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => s.as_str(),
        Value::Object(o) => ["name", "city", "title"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str))?,
        _ => return None,
    };
    let s = s.trim();
    (!s.is_empty()).then(|| truncate_chars(s, 120))
}

/// Dates: a string, `{start, end}` / `{from, to}`, or `[start, end]`.
pub fn dates_text(v: Option<&Value>) -> Option<String> {
    let text = match v? {
        Value::String(s) => s.trim().to_owned(),
        Value::Object(o) => {
            let get = |keys: &[&str]| keys.iter().find_map(|k| o.get(*k).and_then(Value::as_str));
            match (
                get(&["start", "from", "checkIn"]),
                get(&["end", "to", "checkOut"]),
            ) {
                (Some(a), Some(b)) => format!("{a} – {b}"),
                (Some(a), None) | (None, Some(a)) => a.to_owned(),
                (None, None) => return None,
            }
        }
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" – "),
        _ => return None,
    };
    (!text.is_empty()).then(|| truncate_chars(&text, 120))
}

/// "12 travellers" (a number, a string, or a list of people).
pub fn travellers_text(v: Option<&Value>, t: &Strings) -> Option<String> {
    let count = |n: &dyn std::fmt::Display, one: bool| {
        fill(
            if one {
                t.travellers_one
            } else {
                t.travellers_other
            },
            &[n],
        )
    };
    match v? {
        Value::Number(n) => {
            let n = n.as_f64()?;
            Some(count(&n, n == 1.0))
        }
        Value::String(s) if !s.trim().is_empty() => Some(truncate_chars(s.trim(), 80)),
        Value::Array(a) => Some(count(&a.len(), a.len() == 1)),
        _ => None,
    }
}

/// `(amount, currency)` from `{amount, currency}` or a bare number.
pub fn budget_of(v: Option<&Value>) -> Option<(f64, Option<String>)> {
    match v? {
        Value::Number(n) => Some((n.as_f64()?, None)),
        Value::Object(o) => {
            let amount = o
                .get("amount")
                .or_else(|| o.get("total"))
                .or_else(|| o.get("value"))?;
            let amount = amount
                .as_f64()
                .or_else(|| amount.as_str().and_then(|s| s.trim().parse().ok()))?;
            let currency = o
                .get("currency")
                .and_then(Value::as_str)
                .map(|c| truncate_chars(c.trim(), 8));
            amount.is_finite().then_some((amount, currency))
        }
        _ => None,
    }
}

/// `6000, "EUR"` → `€6,000`; `1234.5, "CHF"` → `1,234.50 CHF`; in German `6.000 €` and
/// `1.234,50 CHF` (the language's separators and [`Strings::money_symbol`]).
pub fn format_money(amount: f64, currency: Option<&str>, t: &Strings) -> String {
    let negative = amount < 0.0;
    let abs = amount.abs();
    let whole = abs.trunc();
    let cents = ((abs - whole) * 100.0).round();
    let (whole, cents) = if cents >= 100.0 {
        (whole + 1.0, 0.0)
    } else {
        (whole, cents)
    };
    let mut number = thousands(format_args!("{whole:.0}"), t);
    if cents > 0.0 {
        number.push_str(t.decimal_separator);
        number.push_str(&format!("{cents:02.0}"));
    }
    let sign = if negative { "-" } else { "" };
    let symbol = |s: &str| format!("{sign}{}", fill(t.money_symbol, &[&number]).replace('¤', s));
    match currency.map(|c| c.to_ascii_uppercase()).as_deref() {
        Some("EUR") => symbol("€"),
        Some("USD") => symbol("$"),
        Some("GBP") => symbol("£"),
        Some("JPY") => symbol("¥"),
        Some(other) if !other.is_empty() => format!("{sign}{number} {other}"),
        _ => format!("{sign}{number}"),
    }
}
