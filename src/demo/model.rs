//! What the demo's cards read out of agent data, pure and tested natively: venues from a
//! `search_venues` result and the search as its arguments stream ([`VenueQuery`]), the trip
//! panel's fields from the planner's state, and `confirm_payment`'s request. Every field is
//! optional and every value untrusted; nothing here decides anything but what is shown.

use serde_json::{json, Map, Value};

use crate::i18n::{fill, Strings, EN};
use crate::protocol::types::Tool;
use crate::view::format::{format_money, truncate_chars};

/// A result text larger than this is not parsed for venues (generic view instead).
pub const MAX_VENUE_JSON: usize = 1024 * 1024;

/// The tool names the venue card is registered under (agents spell the search differently).
pub const VENUE_TOOL_NAMES: &[&str] = &[
    "search_venues",
    "find_venues",
    "venue_search",
    "search_venue",
    "find_venue",
    "list_venues",
];

// ---- venues ----------------------------------------------------------------------------------

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

// ---- the trip panel ----------------------------------------------------------------------------

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

    /// The status in the UI language.
    pub fn label(self, t: &Strings) -> &'static str {
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

// ---- confirm_payment ---------------------------------------------------------------------------

/// The definition of `confirm_payment`.
pub fn confirm_payment_tool() -> Tool {
    Tool {
        name: "confirm_payment".to_owned(),
        description: "Ask the person to confirm a payment in the browser. Returns \
                      {\"approved\": true} or {\"approved\": false, \"reason\": \"…\"}; nothing is \
                      charged unless approved."
            .to_owned(),
        parameters: Some(json!({
            "type": "object",
            "properties": {
                "amount": {"type": "number", "exclusiveMinimum": 0, "description": "The amount to pay"},
                "currency": {"type": "string", "description": "ISO 4217 code, e.g. EUR"},
                "description": {"type": "string", "description": "What the payment is for"},
            },
            "required": ["amount", "currency", "description"],
        })),
        metadata: None,
    }
}

/// The longest description shown.
const DESCRIPTION_CHARS: usize = 500;

/// A payment request read from `confirm_payment`'s (untrusted) arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentRequest {
    /// A finite amount above zero, or `None`.
    pub amount: Option<f64>,
    /// A three-letter code, upper-cased, or `None`.
    pub currency: Option<String>,
    pub description: Option<String>,
}

impl PaymentRequest {
    pub fn from_args(args: &Value) -> Self {
        let amount = match args.get("amount") {
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
            _ => None,
        }
        .filter(|a| a.is_finite() && *a > 0.0);
        let currency = args
            .get("currency")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|c| c.len() == 3 && c.chars().all(|ch| ch.is_ascii_alphabetic()))
            .map(str::to_ascii_uppercase);
        let description = args
            .get("description")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| truncate_chars(d, DESCRIPTION_CHARS));
        PaymentRequest {
            amount,
            currency,
            description,
        }
    }

    /// Complete enough to approve: an amount and a currency.
    pub fn is_valid(&self) -> bool {
        self.amount.is_some() && self.currency.is_some()
    }

    /// "€480", "1,250.50 CHF" (`480 €`, `1.250,50 CHF` in German).
    pub fn amount_text(&self, t: &Strings) -> Option<String> {
        self.amount
            .map(|a| format_money(a, self.currency.as_deref(), t))
    }
}

/// The answer when the person approves a payment.
pub fn payment_approved() -> Value {
    json!({"approved": true})
}

/// The answer when the person declines a payment.
pub fn payment_declined() -> Value {
    json!({"approved": false, "reason": "declined by user"})
}
