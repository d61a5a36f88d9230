//! The `search_venues` renderer (registered in [`crate::ui::tool_registry`]): the search query
//! in words while the arguments stream ("Searching restaurants in Alfama, Lisbon for 12…"),
//! then one card per venue from the result (`{"venues":[…]}` or a bare array).
//!
//! Fields are optional everywhere: a card shows what the venue has. A result that is not a
//! venue list falls back to the generic result view, so nothing the agent sends is hidden.
//! All values reach the DOM as text.

use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::i18n::{fill, Strings, EN};
use crate::store::{AgentStore, ToolStatus, ToolView};
use crate::ui::tool_card::{result_section, tool_view_memo, truncate_chars};
use crate::ui::tr;

/// A result text larger than this is not parsed for venues (generic view instead).
const MAX_VENUE_JSON: usize = 1024 * 1024;
/// At most this many venue cards (a producer could send thousands).
const MAX_VENUES: usize = 60;

#[component]
pub fn VenueResults(
    /// The `toolCallId` of the venue search to show.
    tool_call_id: String,
) -> impl IntoView {
    let store = AgentStore::expect();
    let view = tool_view_memo(&tool_call_id);
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
                <h4 class="agui-venue-card__name" data-testid="venue-name">
                    {if v.name.is_empty() { t.venue_unnamed.to_owned() } else { v.name }}
                </h4>
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

// ---- pure helpers ------------------------------------------------------------------------

/// One venue from a search result; every field but the name is optional.
#[derive(Debug, Clone, PartialEq)]
pub struct Venue {
    pub name: String,
    pub kind: Option<String>,
    pub area: Option<String>,
    pub rating: Option<f64>,
    pub price: Option<String>,
    pub capacity: Option<u64>,
    pub note: Option<String>,
}

/// The venues in a result text: `{"venues":[…]}` (or `results`/`items`/`places`) or a bare
/// array. `None` when the text is not such a list (show it generically).
pub fn parse_venues(text: &str) -> Option<Vec<Venue>> {
    if text.len() > MAX_VENUE_JSON {
        return None;
    }
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let list = match &value {
        Value::Array(a) => a,
        Value::Object(o) => ["venues", "results", "items", "places"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_array))?,
        _ => return None,
    };
    let venues: Vec<Venue> = list
        .iter()
        .filter_map(Value::as_object)
        .filter_map(venue_from)
        .collect();
    if venues.is_empty() && !list.is_empty() {
        return None;
    }
    Some(venues)
}

fn first_str(o: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match o.get(*k)? {
        Value::String(s) if !s.trim().is_empty() => Some(truncate_chars(s.trim(), 200)),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

/// A venue from one list item: an object with venue fields, or just a name.
pub fn venue_from_value(v: &Value) -> Option<Venue> {
    match v {
        Value::Object(o) => venue_from(o),
        Value::String(s) if !s.trim().is_empty() => Some(Venue {
            name: truncate_chars(s.trim(), 200),
            kind: None,
            area: None,
            rating: None,
            price: None,
            capacity: None,
            note: None,
        }),
        _ => None,
    }
}

fn venue_from(o: &Map<String, Value>) -> Option<Venue> {
    let name = first_str(o, &["name", "title"]);
    let kind = first_str(o, &["kind", "type", "category", "cuisine"]);
    let area = first_str(
        o,
        &[
            "area",
            "neighbourhood",
            "neighborhood",
            "district",
            "location",
        ],
    );
    // An object with none of the identifying fields is not a venue.
    if name.is_none() && kind.is_none() && area.is_none() {
        return None;
    }
    let rating = ["rating", "stars", "score"].iter().find_map(|k| {
        let v = o.get(*k)?;
        v.as_f64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            .filter(|r: &f64| r.is_finite())
    });
    let capacity = ["capacity", "seats", "max_capacity", "maxCapacity"]
        .iter()
        .find_map(|k| {
            let v = o.get(*k)?;
            v.as_u64()
                .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        });
    Some(Venue {
        // Empty when the agent gave none: the view says "Unnamed venue" in its language.
        name: name.unwrap_or_default(),
        kind,
        area,
        rating,
        price: first_str(
            o,
            &[
                "price",
                "price_level",
                "priceLevel",
                "price_range",
                "priceRange",
            ],
        ),
        capacity,
        note: first_str(o, &["note", "notes", "description", "summary"]),
    })
}

/// The search as far as its arguments have streamed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VenueQuery {
    pub city: Option<String>,
    pub area: Option<String>,
    pub kind: Option<String>,
    pub capacity: Option<String>,
    pub max_price: Option<String>,
}

impl VenueQuery {
    /// The fields that have arrived (a streaming string shows its prefix).
    pub fn from_args(args: &Value) -> Self {
        let Some(o) = args.as_object() else {
            return Self::default();
        };
        VenueQuery {
            city: first_str(o, &["city", "destination", "location"]),
            area: first_str(o, &["area", "neighbourhood", "neighborhood", "district"]),
            kind: first_str(o, &["kind", "type", "category", "cuisine"]),
            capacity: first_str(
                o,
                &["capacity", "party_size", "partySize", "guests", "people"],
            ),
            max_price: first_str(o, &["max_price", "maxPrice", "price", "budget"]),
        }
    }

    /// "restaurants in Alfama, Lisbon for 12, up to €€€".
    pub fn describe(&self) -> String {
        self.describe_in(None, &EN)
    }

    /// "Searching restaurants in Alfama, Lisbon for 12…".
    pub fn searching_sentence(&self) -> String {
        self.searching_in(&EN)
    }

    /// "Found 3 restaurants in Alfama, Lisbon for 12".
    pub fn found_sentence(&self, n: usize) -> String {
        self.found_in(n, &EN)
    }

    /// [`VenueQuery::describe`] in a language (the kind is the agent's word, pluralised the
    /// English way since agents name kinds in English; without one, the catalog's noun).
    pub fn describe_in(&self, count: Option<usize>, t: &Strings) -> String {
        let (one, other) = match self.kind.as_deref() {
            Some(kind) => (kind.to_owned(), plural(kind)),
            None => (t.venue_kind_one.to_owned(), t.venue_kind_other.to_owned()),
        };
        let mut s = match count {
            Some(1) => format!("1 {one}"),
            Some(n) => format!("{n} {other}"),
            None => other,
        };
        let place: Vec<&str> = [self.area.as_deref(), self.city.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        if !place.is_empty() {
            s.push_str(&fill(t.venue_query_place, &[&place.join(", ")]));
        }
        if let Some(c) = &self.capacity {
            s.push_str(&fill(t.venue_query_capacity, &[c]));
        }
        if let Some(p) = &self.max_price {
            s.push_str(&fill(t.venue_query_price, &[p]));
        }
        s
    }

    /// [`VenueQuery::searching_sentence`] in a language.
    pub fn searching_in(&self, t: &Strings) -> String {
        fill(t.venue_searching, &[&self.describe_in(None, t)])
    }

    /// [`VenueQuery::found_sentence`] in a language.
    pub fn found_in(&self, n: usize, t: &Strings) -> String {
        if n == 0 {
            return fill(t.venue_found_none, &[&self.describe_in(None, t)]);
        }
        fill(t.venue_found, &[&self.describe_in(Some(n), t)])
    }
}

/// English plural of a venue kind (`restaurant` → `restaurants`, `winery` → `wineries`).
pub fn plural(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower.ends_with('s') {
        return word.to_owned();
    }
    if let Some(stem) = word.strip_suffix('y') {
        let vowel_before = stem
            .chars()
            .last()
            .is_some_and(|c| "aeiou".contains(c.to_ascii_lowercase()));
        if !vowel_before && !stem.is_empty() {
            return format!("{stem}ies");
        }
    }
    if lower.ends_with("ch") || lower.ends_with("sh") || lower.ends_with('x') {
        return format!("{word}es");
    }
    format!("{word}s")
}
