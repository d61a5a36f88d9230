//! Widget options parsed from attributes / JS options (`src/embed.rs`), natively.

use std::collections::HashMap;

use agui_leptos::embed::{parse_headers, Mode, Theme, WidgetOptions, DEFAULT_STORAGE_PREFIX};

fn parse(pairs: &[(&str, &str)]) -> (WidgetOptions, Vec<String>) {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    WidgetOptions::parse(|name| map.get(name).cloned())
}

#[test]
fn no_attributes_is_an_inline_demo_widget() {
    let (o, problems) = parse(&[]);
    assert!(problems.is_empty());
    assert_eq!(o, WidgetOptions::default());
    assert_eq!(o.mode, Mode::Inline);
    assert_eq!(o.theme, Theme::Auto);
    assert_eq!(o.endpoint, None, "no endpoint = the demo agent");
    assert_eq!(o.storage_prefix(), DEFAULT_STORAGE_PREFIX);
}

#[test]
fn every_attribute_is_read() {
    let (o, problems) = parse(&[
        ("endpoint", " /api/agent "),
        (
            "headers",
            r#"{"Authorization": "Bearer x", "X-Retries": 3}"#,
        ),
        ("mode", "Popup"),
        ("theme", "dark"),
        ("inspector", ""),
        ("thread-key", "support"),
        ("lang", "de"),
        ("open", "true"),
        ("title", "Acme"),
        ("speed", "4"),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.endpoint.as_deref(), Some("/api/agent"));
    assert_eq!(
        o.headers,
        vec![
            ("Authorization".to_owned(), "Bearer x".to_owned()),
            ("X-Retries".to_owned(), "3".to_owned())
        ]
    );
    assert_eq!(o.mode, Mode::Popup);
    assert!(o.mode.collapsible());
    assert_eq!(o.theme.attr(), Some("dark"));
    assert!(o.inspector, "a present boolean attribute is true");
    assert_eq!(o.open, Some(true));
    assert!(o.starts_open());
    assert_eq!(o.lang.as_deref(), Some("de"));
    assert_eq!(o.title.as_deref(), Some("Acme"));
    assert_eq!(o.speed, Some(4.0));
    assert_eq!(
        o.storage_prefix(),
        format!("{DEFAULT_STORAGE_PREFIX}:w:support")
    );
}

#[test]
fn boolean_attributes_can_be_turned_off() {
    for off in ["false", "0", "no", "off", " FALSE "] {
        let (o, _) = parse(&[("inspector", off), ("open", off)]);
        assert!(!o.inspector && o.open == Some(false), "{off}");
    }
}

#[test]
fn bad_values_fall_back_and_are_reported() {
    let (o, problems) = parse(&[
        ("headers", "{not json"),
        ("mode", "fullscreen"),
        ("theme", "purple"),
        ("speed", "-1"),
        ("endpoint", "  "),
    ]);
    assert_eq!(o.mode, Mode::Inline);
    assert_eq!(o.theme, Theme::Auto);
    assert!(o.headers.is_empty());
    assert_eq!(o.speed, None);
    assert_eq!(o.endpoint, None, "blank endpoint = demo");
    assert_eq!(problems.len(), 4, "{problems:?}");
    for key in ["headers", "mode", "theme", "speed"] {
        assert!(
            problems.iter().any(|p| p.starts_with(key)),
            "{key}: {problems:?}"
        );
    }
}

#[test]
fn headers_must_be_an_object_of_safe_strings() {
    assert_eq!(parse_headers("  "), Ok(Vec::new()));
    assert!(parse_headers("{bad").is_err());
    assert!(parse_headers("[1]").is_err());
    assert!(parse_headers(r#"{"": "x"}"#).is_err());
    assert!(parse_headers(r#"{"Bad Name": "x"}"#).is_err());
    assert!(parse_headers(r#"{"X-A": {"nested": 1}}"#).is_err());
    assert!(
        parse_headers(r#"{"X-A": "a\r\nX-Injected: 1"}"#).is_err(),
        "no header injection"
    );
    assert_eq!(
        parse_headers(r#"{"X-Flag": true}"#).unwrap(),
        vec![("X-Flag".to_owned(), "true".to_owned())]
    );
}

// Regression: a value the Fetch API refuses (beyond ISO-8859-1, a control character) reached
// `Headers.set`, which throws — from inside the wasm, in the middle of starting a run.
#[test]
fn header_values_are_what_fetch_can_send() {
    use agui_leptos::embed::HeaderError;
    assert_eq!(
        parse_headers(r#"{"X-Ok": "Bearer abc.def\tcafé"}"#).unwrap(),
        vec![("X-Ok".to_owned(), "Bearer abc.def\tcafé".to_owned())]
    );
    assert_eq!(
        parse_headers(r#"{"X-Check": "✓"}"#),
        Err(HeaderError::BadValue("X-Check".into()))
    );
    assert_eq!(
        parse_headers(r#"{"X-Nul": "a\u0000b"}"#),
        Err(HeaderError::BadValue("X-Nul".into()))
    );
    assert_eq!(
        parse_headers(r#"{"X-Bell": "\u0007"}"#),
        Err(HeaderError::BadValue("X-Bell".into()))
    );
}

#[test]
fn popups_start_closed_and_sidebars_open_unless_told() {
    let starts = |pairs: &[(&str, &str)]| parse(pairs).0.starts_open();
    assert!(!starts(&[("mode", "popup")]));
    assert!(starts(&[("mode", "popup"), ("open", "")]));
    assert!(starts(&[("mode", "sidebar")]));
    assert!(!starts(&[("mode", "sidebar"), ("open", "false")]));
    assert!(
        starts(&[("mode", "inline"), ("open", "false")]),
        "inline always shows"
    );
}

#[test]
fn widgets_with_different_keys_save_apart() {
    let (a, _) = parse(&[("thread-key", "a")]);
    let (b, _) = parse(&[("thread-key", "b")]);
    assert_ne!(a.storage_prefix(), b.storage_prefix());
}

// Regression (issue 11): visitors of a site saw the agent picker and could point the chat
// anywhere. It shows in page mode or when the page asks for it.
#[test]
fn the_agent_picker_is_the_pages_choice() {
    assert!(!parse(&[("mode", "popup"), ("endpoint", "/a")])
        .0
        .shows_settings());
    assert!(!parse(&[("mode", "inline")]).0.shows_settings());
    assert!(parse(&[("mode", "page")]).0.shows_settings());
    assert!(parse(&[("mode", "popup"), ("settings", "")])
        .0
        .shows_settings());
    assert!(!parse(&[("mode", "popup"), ("settings", "false")])
        .0
        .shows_settings());
}
