//! The view layer, natively: what the screen shows as plain data — numbers in the UI
//! language, the tool card's model, the interrupt cards' kinds and payloads, schema forms.
//! (These assertions ran in headless Chromium before the view models left the browser build.)

use agui_leptos::i18n::Locale;
use agui_leptos::view::form::{
    collect, form_fields, humanize, initial_inputs, Field, FieldKind, MAX_FIELDS, MAX_OPTIONS,
};
use agui_leptos::view::format::{
    format_bytes, format_count, format_countdown, format_duration, format_money,
};
use agui_leptos::view::interrupt::{card_kind, CardKind, Decision};
use agui_leptos::view::state::escape_pointer_token;
use agui_leptos::view::tool::{normalize_tool_name, preview_of, PREVIEW_CHARS};
use serde_json::{json, Value};

#[test]
fn formatting_helpers() {
    let en = Locale::En.strings();
    assert_eq!(format_duration(412.3, en), "412 ms");
    assert_eq!(format_duration(1234.0, en), "1.2 s");
    assert_eq!(format_duration(75_000.0, en), "1 min 15 s");
    assert_eq!(format_bytes(512, en), "512 B");
    assert_eq!(format_bytes(2 * 1024 * 1024, en), "2.0 MB");
    assert_eq!(format_count(41_000, en), "41,000");
    assert_eq!(format_money(6000.0, Some("EUR"), en), "€6,000");
    assert_eq!(format_money(1234.5, Some("CHF"), en), "1,234.50 CHF");
    assert_eq!(format_money(-5.0, Some("usd"), en), "-$5");
    assert_eq!(format_money(1_234_567.0, None, en), "1,234,567");
    // German: decimal comma, `.` groups, the symbol after the amount.
    let de = Locale::De.strings();
    assert_eq!(format_duration(412.3, de), "412 ms");
    assert_eq!(format_duration(1234.0, de), "1,2 s");
    assert_eq!(format_duration(75_000.0, de), "1 min 15 s");
    assert_eq!(format_bytes(512, de), "512 B");
    assert_eq!(format_bytes(2 * 1024 * 1024, de), "2,0 MB");
    assert_eq!(format_bytes(1536, de), "1,5 KB");
    assert_eq!(format_count(41_000, de), "41.000");
    assert_eq!(format_money(6000.0, Some("EUR"), de), "6.000 €");
    assert_eq!(format_money(480.0, Some("eur"), de), "480 €");
    assert_eq!(format_money(1234.5, Some("CHF"), de), "1.234,50 CHF");
    assert_eq!(format_money(-5.25, Some("USD"), de), "-5,25 $");
    assert_eq!(format_money(1_234_567.0, None, de), "1.234.567");
    assert_eq!(escape_pointer_token("a/b~c"), "a~1b~0c");
    assert_eq!(normalize_tool_name("searchVenues"), "search_venues");
    assert_eq!(normalize_tool_name("Search-Venues"), "search_venues");
    assert_eq!(normalize_tool_name(" get HTTP2Status "), "get_http2_status");
    // Only ASCII letters are folded; other characters compare as they are.
    assert_eq!(normalize_tool_name("Ärger-Melden"), "Ärger_melden");
    assert!(preview_of("short").is_none());
    let long = "é".repeat(5_000);
    let p = preview_of(&long).expect("long text is previewed");
    assert_eq!(p.chars().count(), PREVIEW_CHARS + 1);
    let lines = "l\n".repeat(100);
    assert_eq!(preview_of(&lines).map(|p| p.lines().count()), Some(30));
    assert!(preview_of(&"l\n".repeat(30)).is_none());
}

#[test]
fn schema_forms_cover_the_types_and_enforce_required() {
    let schema = json!({
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 1, "maximum": 9},
            "ratio": {"type": "number", "exclusiveMaximum": 1},
            "ok": {"type": "boolean", "default": true},
            "kind": {"type": "string", "enum": ["a", "b"]},
            "note": {"type": ["string", "null"], "maxLength": 5},
            "tags": {"type": "array", "items": {"type": "string"}},
            "address": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                "required": ["city"]
            }
        },
        "required": ["count"]
    });
    let root = form_fields(&schema);
    let FieldKind::Object(fields) = &root.kind else {
        panic!("an object form");
    };
    let kinds: Vec<&str> = fields
        .iter()
        .map(|f| match f.kind {
            FieldKind::Bool => "bool",
            FieldKind::Text { .. } => "text",
            FieldKind::Choice(_) => "choice",
            FieldKind::Number { integer: true, .. } => "integer",
            FieldKind::Number { .. } => "number",
            FieldKind::Object(_) => "object",
            FieldKind::Json { .. } => "json",
        })
        .collect();
    assert_eq!(
        kinds,
        ["integer", "number", "bool", "choice", "text", "json", "object"]
    );
    assert_eq!(fields[6].label, "Address");

    let mut inputs = initial_inputs(&root, None);
    assert_eq!(
        inputs.get("/ok").map(String::as_str),
        Some("true"),
        "default applied"
    );
    let err = collect(&root, &inputs).expect_err("count is required");
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].pointer, "/count");

    inputs.insert("/count".into(), "4".into());
    assert_eq!(
        collect(&root, &inputs),
        Ok(json!({"count": 4, "ok": true})),
        "empty optional fields and an untouched optional object are left out"
    );

    inputs.insert("/ratio".into(), "1".into());
    inputs.insert("/note".into(), "too long".into());
    inputs.insert("/tags".into(), "{\"a\":1}".into());
    inputs.insert("/address/zip".into(), "1100".into());
    let mut pointers: Vec<String> = collect(&root, &inputs)
        .expect_err("four problems")
        .into_iter()
        .map(|e| e.pointer)
        .collect();
    pointers.sort();
    assert_eq!(pointers, ["/address/city", "/note", "/ratio", "/tags"]);

    inputs.insert("/ratio".into(), "0.5".into());
    inputs.insert("/note".into(), "short".into());
    inputs.insert("/tags".into(), "[\"x\"]".into());
    inputs.insert("/address/city".into(), "Lisbon".into());
    inputs.insert("/kind".into(), "1".into());
    assert_eq!(
        collect(&root, &inputs),
        Ok(json!({
            "count": 4, "ratio": 0.5, "ok": true, "kind": "b", "note": "short",
            "tags": ["x"], "address": {"city": "Lisbon", "zip": "1100"}
        }))
    );
    assert_eq!(humanize("budgetPerPerson"), "Budget per person");
    assert_eq!(humanize("dietary_needs"), "Dietary needs");
}

/// Every field of a form, depth first (the root included).
fn all_fields(f: &Field) -> Vec<&Field> {
    let mut out = vec![f];
    if let FieldKind::Object(children) = &f.kind {
        out.extend(children.iter().flat_map(all_fields));
    }
    out
}

/// An object schema with `n` string properties.
fn object_of(n: usize) -> Value {
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("f{i}"), json!({"type": "string"})))
        .collect();
    json!({"type": "object", "properties": props})
}

/// `Some(over_limit)` when the field is a JSON textarea.
fn json_over_limit(f: &Field) -> Option<bool> {
    match &f.kind {
        FieldKind::Json { over_limit, .. } => Some(*over_limit),
        _ => None,
    }
}

// Regression (issue 12, item 13): ids were the pointer with every non-alphanumeric character
// turned into `-`, so `a b`, `a-b` and `a/b` shared one id (labels pointed at the wrong input).
#[test]
fn schema_form_ids_come_from_indexes_not_names() {
    let s = json!({"type": "string"});
    let schema = json!({
        "type": "object",
        "properties": {
            "a b": s, "a-b": s, "a/b": s, "a~b": s, "0": s,
            "x": {"type": "object", "properties": {"a b": s, "a-b": s}}
        }
    });
    let root = form_fields(&schema);
    let ids: Vec<&str> = all_fields(&root).iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["", "-0", "-1", "-2", "-3", "-4", "-5", "-5-0", "-5-1"]
    );
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
}

#[test]
fn schema_forms_past_the_field_cap_fall_back_to_json() {
    assert_eq!(MAX_FIELDS, 64);
    let at_cap = form_fields(&object_of(MAX_FIELDS));
    assert!(matches!(&at_cap.kind, FieldKind::Object(f) if f.len() == MAX_FIELDS));
    assert_eq!(all_fields(&at_cap).len(), MAX_FIELDS + 1);

    let over = form_fields(&object_of(MAX_FIELDS + 1));
    assert_eq!(
        over.kind,
        FieldKind::Json {
            expect: Some("object".into()),
            over_limit: true
        }
    );
    // The fallback is the JSON textarea of the whole answer.
    let inputs = [(String::new(), r#"{"f0": "x"}"#.to_owned())].into();
    assert_eq!(collect(&over, &inputs), Ok(json!({"f0": "x"})));

    // Nested fields count, fieldsets included: 8 objects of 7 fields are 64, one more is 65.
    let mut nested = serde_json::Map::new();
    for i in 0..8 {
        nested.insert(format!("o{i}"), object_of(7));
    }
    let nested_schema = json!({"type": "object", "properties": nested});
    assert_eq!(json_over_limit(&form_fields(&nested_schema)), None);
    nested.insert("last".into(), json!({"type": "boolean"}));
    let nested_schema = json!({"type": "object", "properties": nested});
    assert_eq!(json_over_limit(&form_fields(&nested_schema)), Some(true));

    // A huge schema is not read past the cap.
    let huge = form_fields(&object_of(100_000));
    assert_eq!(json_over_limit(&huge), Some(true));
}

#[test]
fn enums_past_the_option_cap_fall_back_to_json() {
    assert_eq!(MAX_OPTIONS, 100);
    let enum_of = |n: usize| json!({"type": "string", "enum": (0..n).map(|i| format!("o{i}")).collect::<Vec<_>>()});
    let form = |n: usize| {
        let root = form_fields(&json!({"type": "object", "properties": {"pick": enum_of(n)}}));
        match root.kind {
            FieldKind::Object(mut fields) if fields.len() == 1 => fields.remove(0),
            other => panic!("an object form: {other:?}"),
        }
    };
    assert!(matches!(&form(MAX_OPTIONS).kind, FieldKind::Choice(o) if o.len() == MAX_OPTIONS));
    assert_eq!(
        form(MAX_OPTIONS + 1).kind,
        FieldKind::Json {
            expect: Some("string".into()),
            over_limit: true
        }
    );
    // A root enum too.
    assert_eq!(
        json_over_limit(&form_fields(&enum_of(MAX_OPTIONS + 1))),
        Some(true)
    );
    // Unsupported schemas are JSON without being over a limit.
    assert_eq!(
        json_over_limit(&form_fields(&json!({"type": "array"}))),
        Some(false)
    );
}

#[test]
fn card_kinds_follow_the_interrupt() {
    let interrupt = |v: Value| -> agui_leptos::protocol::types::Interrupt {
        serde_json::from_value(v).expect("an interrupt")
    };
    let approval = card_kind(&interrupt(json!({
        "id": "a", "reason": "tool_call", "toolCallId": "c",
        "responseSchema": {"type": "object", "properties": {
            "approved": {"type": "boolean"}, "editedArgs": {"type": "object"},
            "reason": {"type": "string"}, "priority": {"type": "integer"}
        }, "required": ["approved", "priority"]}
    })));
    let CardKind::Approval(spec) = approval else {
        panic!("an approval, got {approval:?}");
    };
    assert!(spec.edit_args && spec.reason);
    assert_eq!(
        spec.extra,
        Some(
            json!({"type": "object", "properties": {"priority": {"type": "integer"}}, "required": ["priority"]})
        )
    );
    assert_eq!(
        card_kind(&interrupt(json!({"id": "b", "reason": "confirmation"}))),
        CardKind::Approval(Default::default())
    );
    assert_eq!(
        card_kind(&interrupt(
            json!({"id": "c", "reason": "custom:thing", "message": "?"})
        )),
        CardKind::FreeText
    );
    assert!(matches!(
        card_kind(&interrupt(json!({"id": "d", "reason": "input_required",
            "responseSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}))),
        CardKind::Form(_)
    ));
    let hitl = card_kind(&interrupt(
        json!({"id": "e", "reason": "on_interrupt", "metadata": {
            "source": "CUSTOM on_interrupt",
            "value": {"action_requests": [{"name": "x", "args": {}}],
                      "review_configs": [{"action_name": "x", "allowed_decisions": ["edit"]}]}
        }}),
    ));
    let CardKind::Hitl(reviews) = hitl else {
        panic!("a HITL card, got {hitl:?}");
    };
    assert_eq!(reviews[0].allowed, vec![Decision::Edit]);
    // A legacy question with options is a choice, up to the form's option cap.
    let legacy = |n: usize| {
        interrupt(json!({"id": "f", "reason": "on_interrupt", "metadata": {
            "source": "CUSTOM on_interrupt",
            "value": {"question": "?", "options": (0..n).map(|i| i.to_string()).collect::<Vec<_>>()}
        }}))
    };
    let max = agui_leptos::view::form::MAX_OPTIONS;
    assert!(matches!(card_kind(&legacy(max)), CardKind::Choice(o) if o.len() == max));
    assert_eq!(card_kind(&legacy(max + 1)), CardKind::FreeText);
    let en = Locale::En.strings();
    assert_eq!(format_countdown(65_000.0, en), "1 min 05 s");
    assert_eq!(format_countdown(-5.0, en), "0 s");
    assert_eq!(format_countdown(3_725_000.0, en), "1 h 02 min");
    let de = Locale::De.strings();
    assert_eq!(format_countdown(65_000.0, de), "1 min 05 s");
    assert_eq!(format_countdown(42_000.0, de), "42 s");
    assert_eq!(format_countdown(3_725_000.0, de), "1 h 02 min");
    assert_eq!(format_countdown(3_600_000_000.0, de), "1.000 h 00 min");
}

// Issue 12, item 14: an arguments value that is not an object and an object result were
// pretty-printed whole, whatever their size.
#[test]
fn pretty_printing_is_bounded_on_every_path() {
    use agui_leptos::view::tool::{pretty_value, PRETTY_LIMIT};
    let small = json!({"a": [1, 2], "b": "x"});
    assert_eq!(
        pretty_value(&small),
        serde_json::to_string_pretty(&small).unwrap()
    );
    let huge = json!((0..200_000).map(|i| format!("é{i}")).collect::<Vec<_>>());
    let text = pretty_value(&huge);
    assert!(
        text.len() <= PRETTY_LIMIT + '…'.len_utf8(),
        "{}",
        text.len()
    );
    assert!(text.ends_with('…') && !text.contains('\u{fffd}'));
}

// Issue 13, item 4: feedback is what the page is handed, bounded.
#[test]
fn feedback_is_trimmed_bounded_and_shaped_as_the_event() {
    use agui_leptos::view::feedback::{Feedback, Rating, MAX_COMMENT_CHARS};
    let f = Feedback::new("t1", "m1", Rating::Down, "  too vague  ");
    assert_eq!(
        f.to_json(),
        json!({"threadId": "t1", "messageId": "m1", "rating": "down", "comment": "too vague"})
    );
    assert_eq!(
        Feedback::new("t", "m", Rating::Up, " \n ").to_json()["comment"],
        Value::Null
    );
    let long = "é".repeat(MAX_COMMENT_CHARS + 50);
    let cut = Feedback::new("t", "m", Rating::Up, &long).comment.unwrap();
    assert_eq!(cut.chars().count(), MAX_COMMENT_CHARS);
}

// Issue 13, item 4: follow-ups the agent suggests, read leniently and bounded.
#[test]
fn agent_suggestions_are_read_leniently_and_bounded() {
    use agui_leptos::view::suggestions::{from_value, MAX_SUGGESTIONS, MAX_SUGGESTION_CHARS};
    let got = from_value(&json!([
        "Book it",
        {"title": "Compare prices", "description": "side by side"},
        {"prompt": "  "},
        42,
        {"message": "Ask the team"}
    ]));
    let prompts: Vec<&str> = got.iter().map(|s| s.prompt.as_str()).collect();
    assert_eq!(prompts, ["Book it", "Compare prices", "Ask the team"]);
    assert_eq!(got[1].hint.as_deref(), Some("side by side"));
    assert_eq!(from_value(&json!({"suggestions": ["x"]})).len(), 1);
    assert!(from_value(&json!("just text")).is_empty());
    let many: Vec<String> = (0..50)
        .map(|i| "y".repeat(i + MAX_SUGGESTION_CHARS))
        .collect();
    let got = from_value(&json!(many));
    assert_eq!(got.len(), MAX_SUGGESTIONS);
    assert!(got
        .iter()
        .all(|s| s.prompt.chars().count() == MAX_SUGGESTION_CHARS));
}
