//! The `search_venues` renderer (registered by the demo plug-in, [`super::plugins`]): the search query
//! in words while the arguments stream ("Searching restaurants in Alfama, Lisbon for 12…"),
//! then one card per venue from the result (`{"venues":[…]}` or a bare array).
//!
//! Fields are optional everywhere: a card shows what the venue has. A result that is not a
//! venue list falls back to the generic result view, so nothing the agent sends is hidden.
//! All values reach the DOM as text.

use leptos::prelude::*;

use crate::demo::model::{parse_venues, Venue, VenueQuery};
use crate::i18n::fill;
use crate::plugins::ToolCallView;
use crate::store::AgentStore;
use crate::ui::tool::parts::result_section;
use crate::ui::tr;
use crate::view::tool::{ToolStatus, ToolView};

/// At most this many venue cards (a producer could send thousands).
const MAX_VENUES: usize = 60;

#[component]
pub fn VenueResults(
    /// The venue search to show (its live view).
    call: ToolCallView,
) -> impl IntoView {
    let store = AgentStore::expect();
    let view = call.view;
    let query = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .and_then(|v| v.args.as_ref())
                .map(VenueQuery::from_args)
                .unwrap_or_default()
        })
    });
    let phase = Memo::new(move |_| view.with(|v| v.as_ref().map_or(Phase::Waiting, phase_of)));
    let busy = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .is_none_or(|v| matches!(v.status, ToolStatus::StreamingArgs | ToolStatus::Running))
        })
    });
    let found = Memo::new(move |_| {
        phase.with(|p| match p {
            Phase::Found(vs) => Some(vs.len()),
            _ => None,
        })
    });
    let sentence = move || {
        let t = tr(store);
        query.with(|q| match found.get() {
            Some(n) => q.found_in(n, t),
            None if busy.get() => q.searching_in(t),
            None => q.describe_in(None, t),
        })
    };

    let results = move || {
        match phase.get() {
        Phase::Waiting if busy.get() => view! {
            <ul class="agui-venues__grid agui-venues__grid--loading" aria-hidden="true">
                <li class="agui-venue-card agui-venue-card--skeleton"></li>
                <li class="agui-venue-card agui-venue-card--skeleton"></li>
                <li class="agui-venue-card agui-venue-card--skeleton"></li>
            </ul>
        }
        .into_any(),
        Phase::Found(venues) if venues.is_empty() => view! {
            <p class="agui-venues__empty" data-testid="venue-empty">{move || tr(store).venues_none_matched}</p>
        }
        .into_any(),
        Phase::Found(venues) => {
            let more = venues.len().saturating_sub(MAX_VENUES);
            view! {
                <ul class="agui-venues__grid" data-testid="venue-list">
                    {venues.into_iter().take(MAX_VENUES).map(venue_card).collect_view()}
                </ul>
                {(more > 0).then(|| view! {
                    <p class="agui-venues__more">{format!("and {more} more")}</p>
                })}
            }
            .into_any()
        }
        // Not a venue list, an error, or no result after the run: the generic view says which.
        _ => result_section(view).into_any(),
    }
    };

    view! {
        <div class="agui-venues" data-testid="venue-results">
            <p
                class="agui-venues__query"
                class:agui-venues__query--busy=move || busy.get()
                data-testid="venue-query"
            >
                <Show when=move || busy.get()>
                    <span class="agui-tool-spinner" aria-hidden="true"></span>
                </Show>
                <span>{sentence}</span>
            </p>
            {results}
        </div>
    }
}

fn venue_card(v: Venue) -> impl IntoView {
    let t = tr(AgentStore::expect());
    let meta = [v.kind.as_deref(), v.area.as_deref()]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    let rating = v.rating.map(|r| {
        (
            format!("★ {r:.1}"),
            fill(t.venue_rated, &[&format!("{r:.1}")]),
        )
    });
    view! {
        <li class="agui-venue-card" data-testid="venue-card">
            <div class="agui-venue-card__top">
                <h3 class="agui-venue-card__name" data-testid="venue-name">
                    {if v.name.is_empty() { t.venue_unnamed.to_owned() } else { v.name }}
                </h3>
                {rating.map(|(text, label)| view! {
                    <span class="agui-venue-card__rating" aria-label=label>{text}</span>
                })}
            </div>
            {(!meta.is_empty()).then(|| view! { <p class="agui-venue-card__meta">{meta}</p> })}
            <p class="agui-venue-card__facts">
                {v.price.map(|p| view! { <span class="agui-venue-card__price">{p}</span> })}
                {v.capacity.map(|c| view! {
                    <span class="agui-venue-card__capacity">{fill(t.venue_up_to, &[&c])}</span>
                })}
            </p>
            {v.note.map(|n| view! { <p class="agui-venue-card__note">{n}</p> })}
        </li>
    }
}

/// Where a venue search is.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// No result yet.
    Waiting,
    Found(Vec<Venue>),
    /// A result that is not a venue list, or an error.
    Other,
}

fn phase_of(v: &ToolView) -> Phase {
    if v.result_error.is_some() {
        return Phase::Other;
    }
    match &v.result {
        None => Phase::Waiting,
        Some(c) => match parse_venues(&c.text()) {
            Some(vs) => Phase::Found(vs),
            None => Phase::Other,
        },
    }
}
