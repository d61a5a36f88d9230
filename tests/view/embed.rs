//! Widget options parsed from attributes / JS options (`src/embed.rs`), natively.

use std::collections::HashMap;

use agui_leptos::embed::{
    code_renderer_entries, endpoint_allowed, endpoint_list, fence_key, has_http_scheme,
    parse_headers, Mode, Persist, Target, Theme, WidgetOptions, DEFAULT_STORAGE_PREFIX,
    MAX_CODE_RENDERERS,
};

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
fn the_protocol_attribute_picks_the_wire_and_a_bad_one_is_reported() {
    use agui_leptos::protocol::Wire;
    assert_eq!(parse(&[]).0.wire, Wire::AgUi);
    for v in ["ai-sdk", " AI-SDK ", "aisdk"] {
        assert_eq!(parse(&[("protocol", v)]).0.wire, Wire::AiSdk, "{v}");
    }
    assert_eq!(parse(&[("protocol", "ag-ui")]).0.wire, Wire::AgUi);
    assert!(!parse(&[]).0.resume);
    assert!(parse(&[("resume", "")]).0.resume);
    assert!(!parse(&[("resume", "off")]).0.resume);
    assert!(!parse(&[]).0.protobuf);
    assert!(parse(&[("transport", "protobuf")]).0.protobuf);
    assert!(!parse(&[("transport", "sse")]).0.protobuf);
    let (o, problems) = parse(&[("transport", "carrier-pigeon")]);
    assert!(!o.protobuf && problems.len() == 1, "{problems:?}");
    let (o, problems) = parse(&[("protocol", "grpc")]);
    assert_eq!(o.wire, Wire::AgUi);
    assert!(
        problems.len() == 1 && problems[0].starts_with("protocol"),
        "{problems:?}"
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
fn the_strings_attribute_is_an_object_of_texts_by_key() {
    let (o, problems) = parse(&[(
        "strings",
        r#"{"composer_placeholder": "Ask Acme…", "send": 3, "nope": "kept for the check"}"#,
    )]);
    // Which keys exist is checked where the texts are applied (`i18n::overrides`): the lean
    // widget's main module holds no key names.
    assert_eq!(
        o.strings,
        [
            ("composer_placeholder".to_owned(), "Ask Acme…".to_owned()),
            ("nope".to_owned(), "kept for the check".to_owned()),
        ]
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("strings:") && problems[0].contains("\"send\""));
    for bad in ["[\"send\"]", "\"Go\"", "{not json"] {
        let (o, problems) = parse(&[("strings", bad)]);
        assert!(o.strings.is_empty(), "{bad}");
        assert_eq!(
            problems,
            ["strings: not a JSON object of texts by key"],
            "{bad}"
        );
    }
    let (o, problems) = parse(&[("strings", "  ")]);
    assert!(o.strings.is_empty() && problems.is_empty(), "blank is none");
}

#[test]
fn every_language_is_known_and_another_tag_is_reported() {
    for tag in ["en", "de", "fr-CA", "es", "pt-BR", "ja", "zh-Hans", "ar"] {
        let (o, problems) = parse(&[("lang", tag)]);
        assert_eq!(
            (o.lang.as_deref(), problems.len()),
            (Some(tag), 0),
            "{problems:?}"
        );
    }
    let (_, problems) = parse(&[("lang", "zh-TW")]);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].starts_with("lang: \"zh-TW\""), "{problems:?}");
    assert!(
        problems[0].contains("en, de, fr, es, pt, ja, zh, ar"),
        "{problems:?}"
    );
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

// Issue 12, item 11: redirects were followed, custom auth headers included.
#[test]
fn redirects_are_refused_and_credentials_stated_unless_the_page_says_otherwise() {
    use agui_leptos::session::Credentials;
    let (o, _) = parse(&[]);
    assert_eq!(
        (o.fetch.follow_redirects, o.fetch.credentials),
        (false, Credentials::SameOrigin)
    );
    let (o, problems) = parse(&[("redirects", "follow"), ("credentials", "include")]);
    assert!(problems.is_empty());
    assert_eq!(
        (o.fetch.follow_redirects, o.fetch.credentials),
        (true, Credentials::Include)
    );
    let (o, problems) = parse(&[("redirects", "sometimes"), ("credentials", "always")]);
    assert_eq!(o.fetch, Default::default());
    assert_eq!(problems.len(), 2, "{problems:?}");
    // Never from a link.
    let (o, _) = parse_url(
        &[("url-options", "")],
        &[("redirects", "follow"), ("credentials", "include")],
    );
    assert_eq!(o.fetch, Default::default());
}

#[test]
fn suggestions_come_from_a_json_attribute() {
    let (o, problems) = parse(&[(
        "suggestions",
        r#"["Book it", {"title": "Compare", "description": "prices"}]"#,
    )]);
    assert!(problems.is_empty(), "{problems:?}");
    let got: Vec<(&str, Option<&str>)> = o
        .suggestions
        .iter()
        .map(|s| (s.prompt.as_str(), s.hint.as_deref()))
        .collect();
    assert_eq!(got, [("Book it", None), ("Compare", Some("prices"))]);
    let (o, problems) = parse(&[("suggestions", "Book it, Compare")]);
    assert!(o.suggestions.is_empty());
    assert_eq!(problems.len(), 1);
}

#[test]
fn persist_and_the_storage_budget_are_the_pages_choice() {
    assert_eq!(parse(&[]).0.persist, Persist::Local);
    assert_eq!(parse(&[]).0.storage_budget, None);
    for (value, want) in [
        ("local", Persist::Local),
        ("Session", Persist::Session),
        ("none", Persist::None),
        ("memory", Persist::None),
    ] {
        assert_eq!(parse(&[("persist", value)]).0.persist, want, "{value}");
    }
    let (o, problems) = parse(&[("persist", "cloud"), ("storage-budget", "-3")]);
    assert_eq!((o.persist, o.storage_budget), (Persist::Local, None));
    assert_eq!(problems.len(), 2, "{problems:?}");
    let (o, _) = parse(&[("storage-budget", "250_000")]);
    assert_eq!(o.storage_budget, Some(250_000));
}

// Regression (issue 12, item 2): any `[data-agui-endpoint]` element in a page's content became
// a chat that restored the visitor's saved conversations.
#[test]
fn a_declarative_widget_keeps_nothing_without_its_own_thread_key() {
    let (o, _) = parse(&[("endpoint", "/agent"), ("persist", "local")]);
    assert_eq!(o.declarative().persist, Persist::None);
    let (o, _) = parse(&[("endpoint", "/agent"), ("thread-key", "support")]);
    let o = o.declarative();
    assert_eq!(o.persist, Persist::Local);
    assert_ne!(o.storage_prefix(), DEFAULT_STORAGE_PREFIX);
    // The URL can never say where conversations go.
    let (o, _) = parse_url(
        &[("url-options", "")],
        &[("persist", "none"), ("thread-key", "x")],
    );
    assert_eq!((o.persist, o.thread_key), (Persist::Local, None));
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

/// Attributes `attrs` on the element, `url` the page's query parameters.
fn parse_url(attrs: &[(&str, &str)], url: &[(&str, &str)]) -> (WidgetOptions, Vec<String>) {
    let map = |pairs: &[(&str, &str)]| -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let (attrs, url) = (map(attrs), map(url));
    WidgetOptions::parse_with_url(|n| attrs.get(n).cloned(), |n| url.get(n).cloned())
}

const AUTH: (&str, &str) = ("headers", r#"{"Authorization":"Bearer secret"}"#);

// Regression (issue 12.1): in page mode every URL parameter won on its own, so
// `/?endpoint=https://evil.example/agui` sent the page's auth header (and the restored
// conversation) to that server.
#[test]
fn the_url_configures_nothing_unless_the_page_lets_it() {
    let attrs = [("mode", "page"), ("endpoint", "/agent"), AUTH];
    let evil = [
        ("endpoint", "https://evil.example/agui"),
        ("headers", r#"{"X":"y"}"#),
        ("mode", "popup"),
        ("thread-key", "other"),
        ("theme", "dark"),
    ];
    let (o, problems) = parse_url(&attrs, &evil);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.endpoint.as_deref(), Some("/agent"));
    assert_eq!(
        o.headers,
        vec![("Authorization".into(), "Bearer secret".into())]
    );
    assert_eq!(
        (o.mode, o.theme, o.thread_key),
        (Mode::Page, Theme::Auto, None)
    );
}

#[test]
fn an_endpoint_from_the_url_gets_no_headers_and_the_url_never_sets_headers_mode_or_storage() {
    let attrs = [
        ("mode", "page"),
        ("endpoint", "/agent"),
        AUTH,
        ("url-options", ""),
    ];
    let url = [
        ("endpoint", "https://other.example/agui"),
        ("headers", r#"{"X":"y"}"#),
        ("mode", "popup"),
        ("thread-key", "other"),
        ("allowed-endpoints", "https://other.example"),
        ("theme", "dark"),
        ("lang", "de"),
    ];
    let (o, problems) = parse_url(&attrs, &url);
    assert_eq!(o.endpoint.as_deref(), Some("https://other.example/agui"));
    assert!(
        o.headers.is_empty(),
        "the page's auth must not go to a URL's endpoint"
    );
    assert!(
        problems.iter().any(|p| p.starts_with("headers:")),
        "{problems:?}"
    );
    assert_eq!(
        (o.mode, o.thread_key, o.allowed_endpoints),
        (Mode::Page, None, None)
    );
    assert_eq!((o.theme, o.lang.as_deref()), (Theme::Dark, Some("de")));
    // The same page without a URL endpoint keeps its headers.
    let (o, _) = parse_url(&attrs, &[("theme", "dark")]);
    assert_eq!(o.headers.len(), 1);
    assert_eq!(o.endpoint.as_deref(), Some("/agent"));
}

#[test]
fn url_options_can_name_what_the_url_may_set() {
    let attrs = [
        ("endpoint", "/agent"),
        AUTH,
        ("url-options", "theme, lang mode"),
    ];
    let (o, problems) = parse_url(
        &attrs,
        &[
            ("endpoint", "/elsewhere"),
            ("theme", "dark"),
            ("mode", "popup"),
        ],
    );
    assert_eq!(
        o.endpoint.as_deref(),
        Some("/agent"),
        "endpoint was not named"
    );
    assert_eq!(o.headers.len(), 1);
    assert_eq!((o.theme, o.mode), (Theme::Dark, Mode::Inline));
    assert!(
        problems.iter().any(|p| p.contains("\"mode\"")),
        "{problems:?}"
    );
    let (o, _) = parse_url(
        &[("url-options", "false"), ("endpoint", "/a")],
        &[("endpoint", "/b")],
    );
    assert_eq!(o.endpoint.as_deref(), Some("/a"));
}

#[test]
fn an_endpoint_from_the_url_must_be_http() {
    let attrs = [("endpoint", "/agent"), ("url-options", "")];
    for bad in [
        "data:text/event-stream,data: {}",
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " java\tscr\nipt:alert(1)",
        "blob:https://x/1",
        "\u{1}data:,x",
    ] {
        let (o, problems) = parse_url(&attrs, &[("endpoint", bad)]);
        assert_eq!(
            o.endpoint.as_deref(),
            Some("/agent"),
            "{bad:?} must be ignored"
        );
        assert!(
            problems.iter().any(|p| p.starts_with("endpoint:")),
            "{bad:?}"
        );
    }
    for good in [
        "/api/agui",
        "https://a.example/x",
        "HTTP://a.example",
        "//a.example/x",
        "agui?x=a:b",
    ] {
        let (o, _) = parse_url(&attrs, &[("endpoint", good)]);
        assert_eq!(o.endpoint.as_deref(), Some(good));
    }
    assert!(has_http_scheme("relative/path:with-colon-later"));
    assert!(!has_http_scheme("vbscript:x"));
}

#[test]
fn allowed_endpoints_are_read_from_a_list_or_a_js_array_and_match_by_origin_and_path() {
    assert_eq!(
        parse(&[("allowed-endpoints", " https://a.example  /api/agui,/b ")])
            .0
            .allowed_endpoints,
        Some(vec![
            "https://a.example".into(),
            "/api/agui".into(),
            "/b".into()
        ])
    );
    assert_eq!(
        endpoint_list(r#"["https://a.example/x", " "]"#),
        vec!["https://a.example/x"]
    );
    assert_eq!(
        endpoint_list(&"a ".repeat(1000)).len(),
        64,
        "a bounded list"
    );
    assert_eq!(parse(&[]).0.allowed_endpoints, None);

    let t = |origin, path| Target { origin, path };
    let allowed = [
        t("https://a.example", "/"),
        t("https://b.example", "/api/agui"),
    ];
    assert!(endpoint_allowed(
        t("https://a.example", "/anything"),
        &allowed
    ));
    assert!(endpoint_allowed(
        t("https://b.example", "/api/agui"),
        &allowed
    ));
    assert!(endpoint_allowed(
        t("https://b.example", "/api/agui/run"),
        &allowed
    ));
    assert!(!endpoint_allowed(
        t("https://b.example", "/api/aguix"),
        &allowed
    ));
    assert!(!endpoint_allowed(
        t("https://b.example", "/other"),
        &allowed
    ));
    assert!(!endpoint_allowed(
        t("https://evil.example", "/api/agui"),
        &allowed
    ));
    assert!(
        !endpoint_allowed(t("http://a.example", "/"), &allowed),
        "the scheme is the origin's"
    );
    assert!(
        !endpoint_allowed(t("https://a.example", "/"), &[]),
        "an empty list allows nothing"
    );
}

// The sandbox proxy sees every View's HTML and relays its calls: where it is, is the page
// author's choice, never a link's.
#[test]
fn the_mcp_apps_proxy_comes_from_the_element_never_from_the_url() {
    let proxy = "https://sandbox.example/mcp/";
    let (o, problems) = parse(&[("mcp-apps-proxy", &format!("  {proxy} "))]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.mcp_apps_proxy.as_deref(), Some(proxy));
    assert_eq!(parse(&[("mcp-apps-proxy", " ")]).0.mcp_apps_proxy, None);
    // The URL sets it neither with every URL option allowed nor by naming it.
    let url = [("mcp-apps-proxy", "https://evil.example/")];
    for allowed in ["", "true", "mcp-apps-proxy theme"] {
        let (o, problems) = parse_url(&[("url-options", allowed)], &url);
        assert_eq!(o.mcp_apps_proxy, None, "url-options={allowed:?}");
        if allowed.contains("mcp") {
            assert!(
                problems.iter().any(|p| p.contains("\"mcp-apps-proxy\"")),
                "{problems:?}"
            );
        }
    }
    let (o, _) = parse_url(&[("url-options", ""), ("mcp-apps-proxy", proxy)], &url);
    assert_eq!(
        o.mcp_apps_proxy.as_deref(),
        Some(proxy),
        "the element's stays"
    );
    assert!(!agui_leptos::embed::URL_OPTIONS.contains(&"mcp-apps-proxy"));
}

#[test]
fn a_decimal_attribute_reads_as_written() {
    use agui_leptos::embed::decimal;
    for (text, want) in [
        ("4", Some(4.0)),
        ("0.5", Some(0.5)),
        (".25", Some(0.25)),
        ("12.", Some(12.0)),
        ("0", Some(0.0)),
        ("1.1", Some(1.1)),
        ("007", Some(7.0)),
    ] {
        assert_eq!(decimal(text), want, "{text:?}");
    }
    for text in [
        "", ".", "-1", "+1", "1e3", "inf", "NaN", "1.2.3", " 1", "1,5", "٣",
    ] {
        assert_eq!(decimal(text), None, "{text:?}");
    }
    // Huge digit strings do not overflow into infinity or panic.
    assert_eq!(decimal(&"9".repeat(400)), None);
    assert!(decimal(&format!("0.{}", "1".repeat(500))).is_some());
}

/// Every JSON attribute is read by the reader given (the widget's is the browser's
/// `JSON.parse`): one that refuses everything makes each a problem, and the endpoint list
/// falls back to its plain form.
#[test]
fn the_json_attributes_are_read_by_the_reader_given() {
    fn refuse(_: &str) -> Result<serde_json::Value, String> {
        Err("refused by the reader".to_owned())
    }
    let attrs = |name: &str| match name {
        "headers" => Some(r#"{"X-A": "1"}"#.to_owned()),
        "capabilities" => Some("{}".to_owned()),
        "suggestions" => Some(r#"["Hi"]"#.to_owned()),
        "allowed-endpoints" => Some(r#"["https://a.example/x"]"#.to_owned()),
        _ => None,
    };
    let (o, problems) = WidgetOptions::parse_using(attrs, refuse);
    assert!(o.headers.is_empty() && o.suggestions.is_empty() && o.capabilities.is_none());
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(
        problems[0].contains("refused by the reader"),
        "{problems:?}"
    );
    assert_eq!(
        o.allowed_endpoints,
        Some(vec![r#"["https://a.example/x"]"#.to_owned()])
    );
    // The default reader is serde_json's.
    let (o, problems) = WidgetOptions::parse(attrs);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.headers, [("X-A".to_owned(), "1".to_owned())]);
    assert_eq!(o.suggestions.len(), 1);
    assert_eq!(
        o.allowed_endpoints,
        Some(vec!["https://a.example/x".to_owned()])
    );
}

#[test]
fn code_renderers_take_only_custom_element_names_for_sanitised_languages() {
    let entry = |l: &str, t: Option<&str>| (l.to_owned(), t.map(str::to_owned));
    let (ok, problems) = code_renderer_entries([
        entry("mermaid", Some("my-mermaid-element")),
        entry("Chart extra words", Some("demo-chart")),
        entry("c++", Some("x-cpp.v2_view")),
        entry("dot", Some("script")),
        entry("svg", Some("img onerror")),
        entry("html", Some("Acme-Card")),
        entry("font", Some("font-face")),
        entry("raw", Some("-lead")),
        entry("num", None),
        entry("<>", Some("x-y")),
        entry("", Some("x-y")),
        entry("MERMAID", Some("other-mermaid")),
    ]);
    assert_eq!(
        ok,
        [
            ("chart".to_owned(), "demo-chart".to_owned()),
            ("c++".to_owned(), "x-cpp.v2_view".to_owned()),
            ("mermaid".to_owned(), "other-mermaid".to_owned()),
        ],
        "valid names, keys like a fence's language, the last of a language wins"
    );
    assert_eq!(problems.len(), 8, "{problems:?}");
    assert!(problems.iter().all(|p| p.starts_with("codeRenderers: ")));
    assert!(problems.iter().any(|p| p.contains("dot:")));

    assert_eq!(fence_key("Mermaid"), Some("mermaid".to_owned()));
    assert_eq!(fence_key("  js{1,3} title=x"), Some("js13".to_owned()));
    assert_eq!(fence_key("<script>"), Some("script".to_owned()));
    assert_eq!(fence_key("\\"), None);
    assert_eq!(fence_key(&"a".repeat(65)), None);

    let many = (0..MAX_CODE_RENDERERS + 3).map(|i| entry(&format!("l{i}"), Some("x-y")));
    let (ok, problems) = code_renderer_entries(many);
    assert_eq!((ok.len(), problems.len()), (MAX_CODE_RENDERERS, 3));
}

/// A bad value is quoted in its problem as `{:?}` quotes it (quotes, backslashes and control
/// characters escaped), though the widget writes it without `str`'s `Debug`.
#[test]
fn a_bad_value_is_quoted_as_debug_quotes_it() {
    for value in [
        "dark-ish",
        "a \"b\" \\c",
        "line\nbreak\ttab\r\u{1b}",
        "étoile ☾",
    ] {
        let (_, problems) = parse(&[("theme", value)]);
        assert_eq!(
            problems,
            [format!(
                "theme: unknown value {:?} (auto, light, dark)",
                value.trim()
            )]
        );
    }
}
