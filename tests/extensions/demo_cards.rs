//! The demo's card models, natively: venues out of a search result and the search sentence
//! while its arguments stream, `confirm_payment`'s request. (These ran in headless Chromium
//! before the models left the browser build.)

use agui_leptos::demo::model::{parse_venues, plural, PaymentRequest, VenueQuery};
use agui_leptos::i18n::Locale;
use serde_json::json;

#[test]
fn venue_parsing_tolerates_shapes() {
    assert_eq!(
        parse_venues(r#"[{"name":"A"},{"title":"B","stars":"4.5"}]"#).map(|v| v.len()),
        Some(2)
    );
    assert_eq!(parse_venues(r#"{"venues":[]}"#), Some(vec![]));
    assert_eq!(parse_venues("not json"), None);
    assert_eq!(parse_venues(r#"{"other":1}"#), None);
    assert_eq!(parse_venues("[1,2,3]"), None);
    let q = VenueQuery::from_args(&json!({"city": "Lis"}));
    assert_eq!(q.searching_sentence(), "Searching venues in Lis…");
    let q = VenueQuery::from_args(&json!({"kind": "bar", "max_price": "€€"}));
    assert_eq!(q.found_sentence(1), "Found 1 bar, up to €€");
    assert_eq!(plural("restaurant"), "restaurants");
    assert_eq!(plural("winery"), "wineries");
    assert_eq!(plural("bar"), "bars");
}

#[test]
fn payment_requests_are_validated() {
    let ok = PaymentRequest::from_args(
        &json!({"amount": 480, "currency": "eur", "description": "Deposit"}),
    );
    assert!(ok.is_valid());
    assert_eq!(
        ok.amount_text(Locale::En.strings()).as_deref(),
        Some("€480")
    );
    assert_eq!(
        ok.amount_text(Locale::De.strings()).as_deref(),
        Some("480 €")
    );
    let bad = PaymentRequest::from_args(&json!({"amount": -3, "currency": "euros"}));
    assert!(!bad.is_valid());
    assert_eq!(bad.amount, None);
    assert_eq!(bad.currency, None);
}
