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

use crate::demo::model::{
    budget_of, dates_text, destination_text, step_of, travellers_text, venue_from_value,
    StepStatus, Venue,
};
use crate::i18n::fill;
use crate::store::AgentStore;
use crate::ui::tr;
use crate::view::format::format_money;

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
