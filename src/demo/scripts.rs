//! The scripted runs. Each function builds one complete AG-UI run (or, for "drop", a run cut
//! short) with [`Script`] and returns its chunks.

use serde_json::{json, Value};

use super::content;
use super::request::DemoRequest;
use super::stream::{DemoChunk, Pace, Script};

/// The trip dates used throughout the demo.
pub const DATES: &str = "May 14–16, 2026";
/// The dinner date the booking and weather scripts use.
pub const DINNER_DATE: &str = "2026-05-14";

/// A venue returned by the `search_venues` tool.
#[derive(Debug, Clone, Copy)]
pub struct Venue {
    pub name: &'static str,
    pub kind: &'static str,
    pub area: &'static str,
    pub rating: f64,
    pub price: &'static str,
    pub capacity: u64,
    pub note: &'static str,
}

/// What `search_venues` finds (fictional places in real Lisbon neighbourhoods).
pub const VENUES: &[Venue] = &[
    Venue {
        name: "Tasca do Miradouro",
        kind: "restaurant",
        area: "Alfama",
        rating: 4.7,
        price: "€€",
        capacity: 14,
        note: "private room, river view, fado on Thursdays",
    },
    Venue {
        name: "Pátio da Graça",
        kind: "restaurant",
        area: "Graça",
        rating: 4.6,
        price: "€€€",
        capacity: 16,
        note: "courtyard garden, tasting menu",
    },
    Venue {
        name: "Casa das Sardinhas",
        kind: "restaurant",
        area: "Alfama",
        rating: 4.5,
        price: "€€",
        capacity: 20,
        note: "grilled fish, long shared tables",
    },
    Venue {
        name: "Fado & Petiscos",
        kind: "restaurant",
        area: "Alfama",
        rating: 4.2,
        price: "€",
        capacity: 12,
        note: "small plates, loud and fun",
    },
];

fn venue_json(v: &Venue) -> Value {
    json!({
        "name": v.name,
        "kind": v.kind,
        "area": v.area,
        "rating": v.rating,
        "price": v.price,
        "capacity": v.capacity,
    })
}

/// The planner's defaults: what its suggestion chip asks for.
pub const DEFAULT_TRAVELLERS: u64 = 8;
/// The default budget (whole units of [`DEFAULT_CURRENCY`]).
pub const DEFAULT_BUDGET: u64 = 12_000;
pub const DEFAULT_CURRENCY: &str = "USD";

/// The number of travellers and the budget: what the prompt says (`for 20 people`,
/// `under €30,000`), else what the state already holds, else the defaults.
fn trip_numbers(state: &Value, prompt: &str) -> (u64, u64, String) {
    let asked = asked_trip(prompt);
    let travellers = asked
        .travellers
        .or_else(|| state.get("travellers").and_then(Value::as_u64))
        .filter(|n| (1..=500).contains(n))
        .unwrap_or(DEFAULT_TRAVELLERS);
    let budget = state.get("budget");
    let (amount, currency) = match asked.budget {
        Some((amount, currency)) => (amount, currency),
        None => (
            budget
                .and_then(|b| b.get("amount"))
                .and_then(Value::as_u64)
                .filter(|a| *a > 0)
                .unwrap_or(DEFAULT_BUDGET),
            budget
                .and_then(|b| b.get("currency"))
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty())
                .unwrap_or(DEFAULT_CURRENCY)
                .to_owned(),
        ),
    };
    (travellers, amount, currency)
}

/// What a planning prompt asks for, read loosely.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AskedTrip {
    /// `8 people`, `12 travellers`, `for 20 guests`.
    pub travellers: Option<u64>,
    /// `$12,000`, `€30k`, `5000 EUR`, `under 9.000 €`: whole units and an ISO code.
    pub budget: Option<(u64, String)>,
}

/// Reads travellers and a budget out of a prompt (`Plan a Lisbon offsite for 8 people, under
/// $12,000`). Numbers in any other role are ignored.
pub fn asked_trip(prompt: &str) -> AskedTrip {
    const PEOPLE: &[&str] = &[
        "people",
        "persons",
        "person",
        "travellers",
        "travelers",
        "guests",
        "colleagues",
        "of us",
        "pax",
    ];
    let symbol = |c: char| match c {
        '$' => Some("USD"),
        '€' => Some("EUR"),
        '£' => Some("GBP"),
        _ => None,
    };
    let code = |w: &str| match w
        .trim_matches(|c: char| !c.is_alphabetic())
        .to_ascii_lowercase()
        .as_str()
    {
        "usd" | "dollars" | "dollar" => Some("USD"),
        "eur" | "euros" | "euro" => Some("EUR"),
        "gbp" | "pounds" => Some("GBP"),
        "chf" => Some("CHF"),
        _ => None,
    };
    let chars: Vec<char> = prompt.chars().collect();
    let mut out = AskedTrip::default();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        // A number with thousands separators (`12,000`, `12.000`, `12 000` is two words).
        let start = i;
        let mut digits = String::new();
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || ((chars[i] == ',' || chars[i] == '.')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            if chars[i].is_ascii_digit() {
                digits.push(chars[i]);
            }
            i += 1;
        }
        let Ok(mut n) = digits.parse::<u64>() else {
            continue;
        };
        let mut rest: String = chars[i..].iter().collect();
        if rest.starts_with(['k', 'K']) && !rest[1..].starts_with(|c: char| c.is_alphabetic()) {
            n = n.saturating_mul(1000);
            rest = rest[1..].to_owned();
        }
        let before = start.checked_sub(1).map(|j| chars[j]);
        let after_word = rest.trim_start();
        let next_word = after_word.split_whitespace().next().unwrap_or("");
        let currency = before
            .and_then(symbol)
            .or_else(|| after_word.chars().next().and_then(symbol))
            .or_else(|| code(next_word));
        if let Some(c) = currency {
            out.budget.get_or_insert((n, c.to_owned()));
        } else if PEOPLE
            .iter()
            .any(|w| after_word.to_ascii_lowercase().starts_with(w))
        {
            out.travellers.get_or_insert(n);
        }
    }
    out
}

/// `6000` → `6,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn money(amount: u64, currency: &str) -> String {
    match currency {
        "EUR" => format!("€{}", thousands(amount)),
        "USD" => format!("${}", thousands(amount)),
        "GBP" => format!("£{}", thousands(amount)),
        other => format!("{} {other}", thousands(amount)),
    }
}

/// The dinner deposit per person (in the trip's currency).
pub const DEPOSIT_PER_PERSON: u64 = 60;

/// The venues that seat everyone, best rated first; the shortlist is their first three.
fn seating(travellers: u64) -> Vec<&'static Venue> {
    VENUES.iter().filter(|v| v.capacity >= travellers).collect()
}

/// 1. The Lisbon team-offsite planner (the default).
pub fn planner(req: &DemoRequest) -> Vec<DemoChunk> {
    let (travellers, budget, currency) = trip_numbers(req.state, req.last_user_text);
    let per_person = budget / travellers.max(1);
    let fits = seating(travellers);
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.step_started("plan");
    s.pause(150, 300);
    s.reasoning(&format!(
        "The team wants an offsite in Lisbon: {travellers} people and {} in total, so about \
         {} per person for three days. The evening that matters most is the group dinner, and \
         the classic choice is Alfama — but its tascas are small, so I need places that take \
         all {travellers} at one table.\n\nPlan: set up the trip, search Alfama restaurants \
         with room for {travellers} in the €€–€€€ range, put the best three on the trip panel, \
         then compare them in a table and recommend one.",
        money(budget, &currency),
        money(per_person, &currency),
    ));
    let steps = json!([
        {"title": "Find venues", "status": "in_progress"},
        {"title": "Shortlist", "status": "pending"},
        {"title": "Book", "status": "pending"},
    ]);
    s.state_snapshot(json!({
        "destination": "Lisbon",
        "travellers": travellers,
        "budget": {"amount": budget, "currency": currency},
        "dates": DATES,
        "venues": [],
        "steps": steps,
    }));
    let activity = s.activity_snapshot(
        "PLAN",
        json!({
            "title": "Planning the offsite",
            "steps": [
                {"title": "Search venues", "status": "in_progress"},
                {"title": "Compare options", "status": "pending"},
                {"title": "Recommend", "status": "pending"},
            ],
            "progress": 0,
        }),
    );
    let intro = s.text(
        &format!(
            "## Lisbon team offsite\n\nHere's how I'll set this up:\n\n\
             - **Who:** {travellers} travellers, **{}** all-in (about {} each)\n\
             - **When:** {DATES}\n\
             - **First:** a group dinner in *Alfama* — searching for venues that seat {travellers}\n",
            money(budget, &currency),
            money(per_person, &currency),
        ),
        Pace::Text,
    );
    let args = json!({
        "city": "Lisbon",
        "kind": "restaurant",
        "area": "Alfama",
        "capacity": travellers,
        "max_price": "€€€",
    });
    let call = s.tool_call("search_venues", Some(&intro), &args);
    let result = json!({"venues": fits.iter().copied().map(venue_json).collect::<Vec<_>>()});
    s.tool_result(&call, &result.to_string());
    s.activity_delta(
        &activity,
        "PLAN",
        json!([
            {"op": "replace", "path": "/progress", "value": 0.5},
            {"op": "replace", "path": "/steps/0/status", "value": "done"},
            {"op": "replace", "path": "/steps/1/status", "value": "in_progress"},
        ]),
    );
    for (i, v) in fits.iter().take(3).enumerate() {
        let mut ops = vec![json!({
            "op": "add",
            "path": "/venues/-",
            "value": {"name": v.name, "area": v.area, "rating": v.rating, "price": v.price},
        })];
        if i == 0 {
            ops.push(json!({"op": "replace", "path": "/steps/0/status", "value": "done"}));
            ops.push(json!({"op": "replace", "path": "/steps/1/status", "value": "in_progress"}));
        }
        s.state_delta(Value::Array(ops));
    }
    s.pause(200, 400);
    s.text(&comparison(travellers, &fits, &currency), Pace::Text);
    s.state_delta(json!([
        {"op": "replace", "path": "/steps/1/status", "value": "done"},
    ]));
    s.activity_delta(
        &activity,
        "PLAN",
        json!([
            {"op": "replace", "path": "/progress", "value": 1},
            {"op": "replace", "path": "/steps/1/status", "value": "done"},
            {"op": "replace", "path": "/steps/2/status", "value": "done"},
        ]),
    );
    s.step_finished("plan");
    s.run_success();
    s.into_chunks()
}

/// The second planner message: a comparison table, a recommendation, next steps.
fn comparison(travellers: u64, fits: &[&Venue], currency: &str) -> String {
    let Some(best) = fits.first() else {
        return format!(
            "### No table for {travellers}\n\nNone of the Alfama venues seats {travellers} \
             people at once. Two tables side by side, or a private dining room elsewhere in \
             the city, would work — tell me which you prefer.\n"
        );
    };
    let mut t = String::from(
        "### Shortlist\n\n\
         | Venue | Area | Rating | Price | Seats | Why |\n\
         |---|---|---:|:---:|---:|---|\n",
    );
    for v in fits.iter().take(3) {
        t.push_str(&format!(
            "| {} | {} | {:.1} | {} | {} | {} |\n",
            v.name, v.area, v.rating, v.price, v.capacity, v.note
        ));
    }
    t.push_str(&format!(
        "\n**Recommendation: {}** — {} that fits all {travellers} of you, and a set menu at \
         about {} a head, which leaves most of the budget for the rest of the trip.\n\n\
         Next steps:\n\n\
         - [x] Find venues in Alfama that seat {travellers}\n\
         - [x] Shortlist the best three\n\
         - [ ] Hold a table for Thursday evening (say **approve** to try a booking)\n\
         - [ ] Pay the deposit (say **pay**)\n\
         - [ ] Book flights and the hotel\n",
        best.name,
        best.note,
        money(40, currency),
    ));
    t
}

/// 2. "use a tool": a weather lookup.
pub fn use_a_tool(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    let intro = s.text(
        "Let me check the forecast for the dinner evening in Lisbon.",
        Pace::Text,
    );
    let call = s.tool_call(
        "get_weather",
        Some(&intro),
        &json!({"city": "Lisbon", "date": DINNER_DATE}),
    );
    let result = json!({
        "city": "Lisbon",
        "date": DINNER_DATE,
        "forecast": "sunny",
        "high_c": 23,
        "low_c": 15,
        "rain_chance": 0.1,
        "wind_kmh": 14,
        "sunset": "20:41",
    });
    s.tool_result(&call, &result.to_string());
    s.pause(100, 250);
    s.text(
        "It looks like a lovely evening: **sunny, 23 °C** (15 °C after dark) with a 10% chance \
         of rain and a light breeze. Sunset is at 20:41, so a 19:30 table leaves time for a \
         drink at the *Miradouro de Santa Luzia* first — bring a light jacket for the walk back.",
        Pace::Text,
    );
    s.run_success();
    s.into_chunks()
}

/// 3. "think": a long reasoning block, then a short answer.
pub fn think(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.step_started("reason");
    s.pause(200, 400);
    s.reasoning(content::LONG_REASONING);
    s.step_finished("reason");
    s.text(
        "**Thursday dinner in Alfama, Friday workshop in a LX Factory loft, Saturday free in \
         Belém.** That order keeps the big group event early, when energy is highest, and puts \
         the unstructured day last so people can leave for the airport whenever they need to.",
        Pace::Text,
    );
    s.run_success();
    s.into_chunks()
}

/// 4. "markdown": every markdown feature plus hostile content.
pub fn markdown(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(content::MARKDOWN_SHOWCASE, Pace::Text);
    s.run_success();
    s.into_chunks()
}

/// 5. "error": text streams, then the agent fails.
pub fn error(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.step_started("search");
    let id = s.text_start();
    s.stream_deltas(
        "TEXT_MESSAGE_CONTENT",
        &id,
        "Let me look up venues in Alfama that can seat your group. I'm checking availability \
         with the venue service for Thursday evening",
        Pace::Text,
    );
    s.pause(500, 900);
    s.run_error(
        "The venue service is unavailable (demo error)",
        "demo_error",
    );
    s.into_chunks()
}

/// 6. "drop": text streams, then the body just ends (no terminal event).
pub fn drop(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    let id = s.text_start();
    s.stream_deltas(
        "TEXT_MESSAGE_CONTENT",
        &id,
        "Here's a first draft of the itinerary. **Day one:** arrive in the morning, drop the \
         bags at the hotel in Baixa, and meet for lunch at",
        Pace::Text,
    );
    s.into_chunks()
}

/// The response schema of the "ask me" interrupt.
fn ask_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "travellers": {"type": "integer", "minimum": 1},
            "budgetPerPerson": {"type": "number"},
            "dietary": {"type": "string", "enum": ["none", "vegetarian", "vegan"]},
        },
        "required": ["travellers"],
    })
}

fn ask_interrupt(s: &Script) -> Value {
    json!({
        "id": format!("int-ask-{}", s.run_id),
        "reason": "input_required",
        "message": "How many people are coming, and what is the budget per person?",
        "responseSchema": ask_schema(),
    })
}

/// 7. "ask me": the run pauses for input.
pub fn ask_me(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(
        "Happy to plan this — I just need a couple of details first.",
        Pace::Text,
    );
    let interrupt = ask_interrupt(&s);
    s.run_finished(Some(
        json!({"type": "interrupt", "interrupts": [interrupt]}),
    ));
    s.into_chunks()
}

/// The tool-approval interrupt of a `book_venue` call.
fn approval_interrupt(call: &str, venue: &str, date: &str) -> Value {
    json!({
        "id": format!("int-{call}"),
        "reason": "tool_call",
        "toolCallId": call,
        "message": format!("Approve booking {venue} for {date}?"),
        "responseSchema": {
            "type": "object",
            "properties": {
                "approved": {"type": "boolean"},
                "editedArgs": {"type": "object"},
                "reason": {"type": "string"},
            },
            "required": ["approved"],
        },
    })
}

/// 8. "approve" / "book": a tool call that needs approval.
pub fn approve(req: &DemoRequest) -> Vec<DemoChunk> {
    let (travellers, _, _) = trip_numbers(req.state, req.last_user_text);
    let venue = VENUES.first().map_or("Tasca do Miradouro", |v| v.name);
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    let intro = s.text(
        &format!(
            "**{venue}** has a table for {travellers} on Thursday evening. Booking it commits a \
             deposit, so I need your approval first."
        ),
        Pace::Text,
    );
    let call = s.tool_call(
        "book_venue",
        Some(&intro),
        &json!({"venue": venue, "date": DINNER_DATE, "people": travellers}),
    );
    let interrupt = approval_interrupt(&call, venue, DINNER_DATE);
    s.run_finished(Some(
        json!({"type": "interrupt", "interrupts": [interrupt]}),
    ));
    s.into_chunks()
}

/// 9. "pay": the agent calls the frontend tool `confirm_payment` and leaves it pending.
pub fn pay(req: &DemoRequest) -> Vec<DemoChunk> {
    let venue = VENUES.first().map_or("Tasca do Miradouro", |v| v.name);
    let (travellers, _, currency) = trip_numbers(req.state, req.last_user_text);
    // The deposit: a fixed share per person, in the trip's currency.
    let deposit = DEPOSIT_PER_PERSON * travellers;
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    let intro = s.text(
        &format!(
            "To hold the table I need a deposit of **{}**. Please confirm the payment below — \
             nothing is charged until you do.",
            money(deposit, &currency)
        ),
        Pace::Text,
    );
    let call = s.tool_call(
        "confirm_payment",
        Some(&intro),
        &json!({
            "amount": deposit,
            "currency": currency,
            "description": format!("Deposit for the team dinner at {venue} ({travellers} people)"),
        }),
    );
    s.run_finished(Some(
        json!({"type": "success", "pendingToolCallIds": [call]}),
    ));
    s.into_chunks()
}

/// 10. "legacy interrupt": LangGraph-style `CUSTOM on_interrupt`, no outcome.
pub fn legacy_interrupt(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(
        "Two Thursdays work for the venue. Which one should I hold?",
        Pace::Text,
    );
    let value = json!({"message": "Pick a date", "options": ["May 12", "May 19"]});
    s.custom("on_interrupt", Value::String(value.to_string()));
    s.run_finished(None);
    s.into_chunks()
}

/// 11. "long": a ~3,000-word answer.
pub fn long(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(&content::long_guide(), Pace::Fast);
    s.run_success();
    s.into_chunks()
}

// ----- follow-ups ---------------------------------------------------------------------------

/// The text of a message's `content` (a string, or the text parts joined).
fn content_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Whether an answer approves: `{"approved": bool}` (also `confirmed`), a status string, or
/// plain words. `None` when it cannot tell.
fn decision(text: &str) -> Option<bool> {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        for key in ["approved", "confirmed", "ok"] {
            if let Some(b) = v.get(key).and_then(Value::as_bool) {
                return Some(b);
            }
        }
        if let Some(b) = v.as_bool() {
            return Some(b);
        }
        if let Some(status) = v.get("status").and_then(Value::as_str) {
            return decision(status);
        }
    }
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let no = [
        "declined",
        "decline",
        "rejected",
        "reject",
        "cancelled",
        "canceled",
        "cancel",
        "denied",
        "refused",
        "no",
        "not",
        "false",
        "failed",
    ];
    let yes = [
        "approved",
        "approve",
        "confirmed",
        "confirm",
        "paid",
        "accepted",
        "accept",
        "yes",
        "ok",
        "true",
        "success",
    ];
    if words.iter().any(|w| no.contains(w)) {
        Some(false)
    } else if words.iter().any(|w| yes.contains(w)) {
        Some(true)
    } else {
        None
    }
}

/// A run whose last message answers a frontend tool call.
pub fn tool_follow_up(req: &DemoRequest, tool: &Value) -> Vec<DemoChunk> {
    let call_id = tool.get("toolCallId").and_then(Value::as_str).unwrap_or("");
    let name = req
        .find_tool_call(call_id)
        .map(|(name, _)| name)
        .filter(|n| !n.is_empty())
        .unwrap_or(if call_id.starts_with("call-confirm_payment-") {
            "confirm_payment"
        } else {
            ""
        });
    let text = content_text(tool);
    let failed = tool.get("error").and_then(Value::as_str);
    let reply = match (name, failed, decision(&text)) {
        ("confirm_payment", Some(err), _) => format!(
            "The payment didn't go through ({err}), so nothing was charged. We can try again \
             later — the table is held until tomorrow."
        ),
        ("confirm_payment", None, Some(true)) => {
            "Payment confirmed — the **€480** deposit is paid and the table is held for Thursday \
             evening. I've noted the receipt in the trip plan."
                .to_owned()
        }
        ("confirm_payment", None, Some(false)) => {
            "No problem, nothing was charged. The table stays on the shortlist if you change \
             your mind."
                .to_owned()
        }
        ("confirm_payment", None, None) => format!(
            "I couldn't tell whether the payment went through (the answer was \"{}\"), so I'll \
             treat it as not paid — nothing was charged.",
            text.chars().take(80).collect::<String>()
        ),
        _ => format!(
            "Thanks — I got the result of `{}`. Anything else you'd like me to do?",
            if name.is_empty() { "the tool" } else { name }
        ),
    };
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(&reply, Pace::Text);
    s.run_success();
    s.into_chunks()
}

/// A run that answers the previous run's interrupt(s).
pub fn resume(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    let mut reask = false;
    let mut said_anything = false;
    for entry in req.resume() {
        let id = entry
            .get("interruptId")
            .and_then(Value::as_str)
            .unwrap_or("");
        let cancelled = entry.get("status").and_then(Value::as_str) == Some("cancelled");
        let payload = entry.get("payload").unwrap_or(&Value::Null);
        said_anything = true;
        if id.starts_with("int-ask-") {
            reask |= resume_ask(&mut s, req, cancelled, payload);
        } else if let Some(call) = id
            .strip_prefix("int-")
            .filter(|c| c.starts_with("call-book_venue-"))
        {
            resume_booking(&mut s, req, call, cancelled, payload);
        } else if id.contains(":on_interrupt:") {
            let text = if cancelled {
                "Okay, I won't hold either date for now.".to_owned()
            } else {
                legacy_answer_text(payload)
            };
            s.text(&text, Pace::Text);
        } else {
            s.text(
                &format!(
                    "I don't recognise the answer to `{id}` (it may belong to an older run), so \
                     I'll carry on without it."
                ),
                Pace::Text,
            );
        }
    }
    if !said_anything {
        s.text("Carrying on.", Pace::Text);
    }
    if reask {
        let interrupt = ask_interrupt(&s);
        s.run_finished(Some(
            json!({"type": "interrupt", "interrupts": [interrupt]}),
        ));
    } else {
        s.run_success();
    }
    s.into_chunks()
}

/// Answer to "ask me". Returns true when the answer is unusable and the question is asked again.
fn resume_ask(s: &mut Script, req: &DemoRequest, cancelled: bool, payload: &Value) -> bool {
    if cancelled {
        s.text(
            "No problem — I'll keep the current numbers. Ask me again any time.",
            Pace::Text,
        );
        return false;
    }
    let Some(travellers) = payload
        .get("travellers")
        .and_then(Value::as_u64)
        .filter(|n| *n >= 1)
    else {
        s.text(
            "I need at least the number of travellers (a whole number, 1 or more) to continue.",
            Pace::Text,
        );
        return true;
    };
    let per_person = payload.get("budgetPerPerson").and_then(Value::as_f64);
    let dietary = payload
        .get("dietary")
        .and_then(Value::as_str)
        .filter(|d| ["none", "vegetarian", "vegan"].contains(d));
    let mut text = format!("Thanks! Planning for **{travellers} people**");
    let mut ops = vec![json!({"op": "add", "path": "/travellers", "value": travellers})];
    if let Some(pp) = per_person.filter(|p| p.is_finite() && *p > 0.0) {
        let total = (pp * travellers as f64).round() as u64;
        let (_, _, currency) = trip_numbers(req.state, "");
        text.push_str(&format!(
            " at about **{} per person** (≈ {} in total)",
            money(pp.round() as u64, &currency),
            money(total, &currency)
        ));
        let budget_ok = req.state.get("budget").is_some_and(Value::is_object);
        ops.push(if budget_ok {
            json!({"op": "add", "path": "/budget/amount", "value": total})
        } else {
            json!({"op": "add", "path": "/budget", "value": {"amount": total, "currency": currency}})
        });
    }
    match dietary {
        Some("vegetarian") => text.push_str(", with vegetarian menus"),
        Some("vegan") => text.push_str(", with vegan menus"),
        _ => {}
    }
    if let Some(d) = dietary {
        ops.push(json!({"op": "add", "path": "/dietary", "value": d}));
    }
    text.push_str(". I've updated the trip.");
    s.text(&text, Pace::Text);
    if req.state.is_object() {
        s.state_delta(Value::Array(ops));
    } else {
        // No object to patch: restate the trip instead.
        let mut trip = json!({"destination": "Lisbon", "dates": DATES});
        for op in &ops {
            let key = op
                .get("path")
                .and_then(Value::as_str)
                .and_then(|p| p.strip_prefix('/'))
                .filter(|k| !k.contains('/'));
            if let (Some(k), Some(v), Some(obj)) = (key, op.get("value"), trip.as_object_mut()) {
                obj.insert(k.to_owned(), v.clone());
            }
        }
        s.state_snapshot(trip);
    }
    false
}

/// Answer to a `book_venue` approval: the call's result, then a sentence.
fn resume_booking(s: &mut Script, req: &DemoRequest, call: &str, cancelled: bool, payload: &Value) {
    let original: Value = req
        .find_tool_call(call)
        .and_then(|(_, args)| serde_json::from_str(args).ok())
        .unwrap_or_else(|| {
            json!({
                "venue": VENUES.first().map_or("Tasca do Miradouro", |v| v.name),
                "date": DINNER_DATE,
                "people": 12,
            })
        });
    let approved = !cancelled && payload.get("approved").and_then(Value::as_bool) == Some(true);
    let args = match payload.get("editedArgs") {
        Some(edited) if approved && edited.is_object() => edited.clone(),
        _ => original,
    };
    let field = |k: &str| -> String {
        match args.get(k) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => "?".to_owned(),
            Some(other) => other.to_string(),
        }
    };
    let (venue, date, people) = (field("venue"), field("date"), field("people"));
    if approved {
        let code = format!("LIS-{}", 1000 + s.rng.range(0, 8999));
        let result = json!({
            "status": "booked",
            "venue": venue,
            "date": date,
            "people": args.get("people").cloned().unwrap_or(Value::Null),
            "confirmation": code,
        });
        s.tool_result(call, &result.to_string());
        s.text(
            &format!(
                "Done — **{venue}** is booked for {people} people on {date}. Confirmation \
                 code: `{code}`."
            ),
            Pace::Text,
        );
    } else {
        let reason = payload
            .get("reason")
            .and_then(Value::as_str)
            .filter(|r| !r.trim().is_empty());
        let status = if cancelled { "cancelled" } else { "declined" };
        let mut result = json!({"status": status, "venue": venue});
        if let (Some(r), Some(obj)) = (reason, result.as_object_mut()) {
            obj.insert("reason".into(), Value::String(r.to_owned()));
        }
        s.tool_result(call, &result.to_string());
        let because = reason.map_or(String::new(), |r| format!(" (you said: \"{r}\")"));
        s.text(
            &format!(
                "Okay, I didn't book {venue}{because}. It stays on the shortlist — say \
                 **approve** when you want to try again."
            ),
            Pace::Text,
        );
    }
}

/// The reply to a legacy `on_interrupt` answer ("May 12", or `{"date": …}`).
fn legacy_answer_text(answer: &Value) -> String {
    let picked = match answer {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => ["date", "choice", "value", "answer"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str).map(str::to_owned)),
        _ => None,
    };
    match picked {
        Some(d) if !d.trim().is_empty() => {
            format!("Great — **{d}** it is. I've asked the venue to hold that evening.")
        }
        _ => format!("Got it ({answer}). I'll hold that date."),
    }
}

/// A run resumed through the deprecated `forwardedProps.command.resume`.
pub fn legacy_resumed(req: &DemoRequest, answer: &Value) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(&legacy_answer_text(answer), Pace::Text);
    s.run_success();
    s.into_chunks()
}

/// Scenario 12, "reserve a table": the agent describes a booking form as an A2UI surface
/// (an `a2ui-surface` activity, the AG-UI binding of `@ag-ui/a2ui-middleware`); its button
/// comes back as `forwardedProps.a2uiAction` ([`reserved`]).
pub fn reserve(req: &DemoRequest) -> Vec<DemoChunk> {
    let (travellers, _, _) = trip_numbers(req.state, req.last_user_text);
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(
        "Here is the reservation form for the team dinner at Tasca do Miradouro:",
        Pace::Text,
    );
    let ops = json!([{ "version": "v1.0", "createSurface": {
        "surfaceId": "reservation", "catalogId": "basic",
        "components": [
            {"id": "root", "component": "Card", "child": "form"},
            {"id": "form", "component": "Column", "children": ["title", "name", "guests", "guests-label", "date", "diet", "send"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": "Dinner at Tasca do Miradouro"},
            {"id": "name", "component": "TextField", "label": "Name for the booking", "value": {"path": "/name"},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "Whose name should the table be under?"}]},
            {"id": "guests", "component": "Slider", "label": "Guests", "min": 2, "max": 20, "value": {"path": "/guests"}},
            {"id": "guests-label", "component": "Text", "variant": "caption",
             "text": {"call": "formatString", "args": {"value": "${/guests} guests"}}},
            {"id": "date", "component": "DateTimeInput", "label": "Evening", "enableDate": true, "value": {"path": "/date"}},
            {"id": "diet", "component": "ChoicePicker", "label": "Dietary needs", "value": {"path": "/diet"},
             "options": [{"label": "Vegetarian", "value": "vegetarian"}, {"label": "Vegan", "value": "vegan"}, {"label": "Gluten-free", "value": "gluten-free"}]},
            {"id": "send", "component": "Button", "child": "send-label", "variant": "primary",
             "action": {"event": {"name": "reserve", "context": {
                 "name": {"path": "/name"}, "guests": {"path": "/guests"}, "date": {"path": "/date"}, "diet": {"path": "/diet"}}}},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "Add a name first."}]},
            {"id": "send-label", "component": "Text", "text": "Reserve"}
        ],
        "dataModel": {"name": "", "guests": travellers, "date": "2026-06-04", "diet": []}
    }}]);
    s.activity_snapshot("a2ui-surface", json!({ "a2ui_operations": ops }));
    s.run_finished(None);
    s.into_chunks()
}

/// The reservation form's button: the agent confirms what it was sent.
pub fn reserved(req: &DemoRequest, action: &Value) -> Vec<DemoChunk> {
    let ctx = action.get("context").cloned().unwrap_or(Value::Null);
    let text = |k: &str| match ctx.get(k) {
        Some(Value::String(v)) => v.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Array(a)) if !a.is_empty() => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        _ => "—".to_owned(),
    };
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text(
        &format!(
            "Reserved: a table for **{}** on {} under the name **{}** (dietary needs: {}).",
            text("guests"),
            text("date"),
            text("name"),
            text("diet")
        ),
        Pace::Text,
    );
    s.run_finished(None);
    s.into_chunks()
}

/// The demo's MCP App: a self-contained `ui://` View (its own script and styles, no network)
/// that shakes hands, draws the venues it gets as `ui/notifications/tool-input` on a little
/// map of Lisbon (text nodes and SVG it builds itself), sizes itself and offers a link.
const MAP_VIEW: &str = include_str!("map_view.html");

/// Scenario 13, "show the map": the venues as a small MCP App, in the shape
/// `@ag-ui/mcp-apps-middleware` sends (`resourceUri`, no HTML: the chat fetches it with a
/// proxied `resources/read`, [`mcp_proxied`]); the View gets the venues as its tool input and
/// asks `venue_details` when a venue is clicked.
pub fn map_app(req: &DemoRequest) -> Vec<DemoChunk> {
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.text("Here are the three venues on a map:", Pace::Text);
    let venues: Vec<Value> = VENUES
        .iter()
        .take(3)
        .map(|v| json!({"name": v.name, "area": v.area}))
        .collect();
    s.activity_snapshot(
        "mcp-apps",
        json!({
            "resourceUri": MAP_URI,
            "serverId": "lisbon-demo",
            "toolInput": {"venues": venues},
            "result": {"content": [{"type": "text", "text": "3 venues"}]},
        }),
    );
    s.run_finished(None);
    s.into_chunks()
}

const MAP_URI: &str = "ui://lisbon/venue-map";

/// What the demo's "MCP middleware" answers a proxied request with (`RUN_FINISHED.result`,
/// no agent involved): the View for `resources/read`, a venue's note for `tools/call
/// venue_details`, an `{error}` for anything else.
pub fn mcp_proxied(req: &DemoRequest, proxied: &Value) -> Vec<DemoChunk> {
    let method = proxied.get("method").and_then(Value::as_str).unwrap_or("");
    let params = proxied.get("params").cloned().unwrap_or(Value::Null);
    let result = match method {
        "resources/read" if params.get("uri").and_then(Value::as_str) == Some(MAP_URI) => json!({
            "contents": [{"uri": MAP_URI, "mimeType": "text/html;profile=mcp-app", "text": MAP_VIEW}]
        }),
        "tools/call" if params.get("name").and_then(Value::as_str) == Some("venue_details") => {
            let name = params
                .get("arguments")
                .and_then(|a| a.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("");
            match VENUES.iter().find(|v| v.name == name) {
                Some(v) => json!({"content": [{"type": "text", "text": format!(
                    "{} ({}, {}): {}, up to {} people, rated {}.",
                    v.name, v.area, v.price, v.note, v.capacity, v.rating
                )}]}),
                None => json!({"error": "no such venue"}),
            }
        }
        _ => json!({"error": format!("{method} is not offered")}),
    };
    let mut s = Script::new(req.thread_id, req.run_id);
    s.run_started();
    s.run_result(result);
    s.into_chunks()
}
