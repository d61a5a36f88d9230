//! Browser tests of accessibility, language and theming (headless Chromium): the transcript is
//! a log that announces finished answers (never tokens) through its own polite region, the run
//! status is a status region and errors an alert, every control has an accessible name (with
//! the human-in-the-loop cards shown), focus moves to the card that waits for the person, the
//! keyboard path to send a message, the German catalog, `Plugins::strings` over a catalog and
//! `dir="rtl"` for Arabic, `dir="rtl"` on an ancestor, and
//! `data-theme` forcing light or dark (on the root, an ancestor or the shadow host).
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_a11y`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::demo::model::VenueQuery;
use agui_leptos::i18n::Locale;
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::GetUntracked;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- harness -----------------------------------------------------------------------------

fn store_with(locale: Locale, demo_speed: f64) -> AgentStore {
    AgentStore::new(AgentConfig {
        demo_speed,
        locale,
        ..AgentConfig::default()
    })
}

fn announcer(root: &Element) -> Element {
    testid(root, "transcript-announcer").expect("the transcript's live region")
}

fn status_label(root: &Element) -> String {
    text_of(&testid(root, "run-status-label").expect("status label"))
}

/// The accessible name as the checks below need it: `aria-labelledby`, `aria-label`, an
/// associated `<label>` (form controls), or the text content (buttons).
fn accessible_name(el: &Element) -> String {
    let doc = document();
    if let Some(ids) = el.get_attribute("aria-labelledby") {
        let text: String = ids
            .split_whitespace()
            .filter_map(|id| doc.get_element_by_id(id))
            .map(|e| text_of(&e))
            .collect::<Vec<_>>()
            .join(" ");
        if !text.trim().is_empty() {
            return text.trim().to_owned();
        }
    }
    if let Some(label) = el
        .get_attribute("aria-label")
        .filter(|l| !l.trim().is_empty())
    {
        return label.trim().to_owned();
    }
    if let Ok(labels) = js_sys::Reflect::get(el, &"labels".into()) {
        if let Ok(list) = labels.dyn_into::<web_sys::NodeList>() {
            let text: String = (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| n.text_content())
                .collect::<Vec<_>>()
                .join(" ");
            if !text.trim().is_empty() {
                return text.trim().to_owned();
            }
        }
    }
    if el.tag_name().eq_ignore_ascii_case("button") {
        return text_of(el).trim().to_owned();
    }
    String::new()
}

/// Every control without an accessible name, described.
fn unnamed_controls(root: &Element) -> Vec<String> {
    q_all(root, "button, input:not([type=hidden]), textarea, select")
        .iter()
        .filter(|el| accessible_name(el).is_empty())
        .map(|el| el.outer_html().chars().take(160).collect())
        .collect()
}

fn focus_is_inside(el: &Element) -> bool {
    document()
        .active_element()
        .is_some_and(|a| el.contains(Some(a.unchecked_ref())))
}

// ---- the transcript and the live regions -------------------------------------------------

#[wasm_bindgen_test]
async fn the_log_announces_the_answer_once_it_is_finished_not_while_it_streams() {
    let store = store_with(Locale::En, 0.0);
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;

    let log = testid(&root, "transcript").expect("transcript");
    assert_eq!(log.get_attribute("role").as_deref(), Some("log"));
    assert_eq!(
        log.get_attribute("aria-live").as_deref(),
        Some("off"),
        "the log itself does not read each streamed token"
    );
    let region = announcer(&root);
    assert_eq!(region.get_attribute("aria-live").as_deref(), Some("polite"));
    assert!(
        !log.contains(Some(region.unchecked_ref())),
        "the announcer is not inside the (silent) log"
    );

    let thread = store.thread_id();
    store.begin_external();
    store.push_bytes(&sse(
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r1"}),
    ));
    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
    ));
    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Lisbon in May "}),
    ));
    settle(&store).await;
    assert!(
        text_of(&log).contains("Lisbon in May"),
        "the text streams into the log"
    );
    assert_eq!(log.get_attribute("aria-busy").as_deref(), Some("true"));
    assert_eq!(
        text_of(&region),
        "",
        "nothing is announced while the answer streams"
    );
    assert_eq!(status_label(&root), "Streaming…");

    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "is warm."}),
    ));
    store.push_bytes(&sse(json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"})));
    settle(&store).await;
    assert_eq!(text_of(&region), "", "still nothing before the run ends");

    store.push_bytes(&sse(
        json!({"type": "RUN_FINISHED", "threadId": thread, "runId": "r1"}),
    ));
    store.end_external(None);
    settle(&store).await;
    assert_eq!(text_of(&region), "Lisbon in May is warm.");
    assert_eq!(log.get_attribute("aria-busy").as_deref(), Some("false"));

    // The next run empties the region first (the same words again are announced again), and
    // a run that continues without a new user message (a resume) announces only its own text.
    store.begin_external();
    settle(&store).await;
    assert_eq!(text_of(&region), "", "cleared when a run starts");
    for event in [
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r2"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m2", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "Booked."}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m2"}),
        json!({"type": "RUN_FINISHED", "threadId": thread, "runId": "r2"}),
    ] {
        store.push_bytes(&sse(event));
    }
    store.end_external(None);
    settle(&store).await;
    assert_eq!(text_of(&region), "Booked.");
}

#[wasm_bindgen_test]
async fn run_status_is_a_status_region_and_errors_are_alerts() {
    let store = store_with(Locale::En, 0.0);
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;

    let status = testid(&root, "run-status").expect("run status");
    assert_eq!(status.get_attribute("role").as_deref(), Some("status"));
    assert_eq!(status.get_attribute("aria-live").as_deref(), Some("polite"));
    assert_eq!(status_label(&root), "Ready");

    let thread = store.thread_id();
    store.begin_external();
    store.push_bytes(&sse(
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": "r1"}),
    ));
    settle(&store).await;
    assert_eq!(run_status(&root), "running");
    assert_eq!(status_label(&root), "Thinking…");

    store.push_bytes(&sse(
        json!({"type": "RUN_ERROR", "message": "the model is overloaded"}),
    ));
    store.end_external(None);
    settle(&store).await;
    assert_eq!(run_status(&root), "error");
    assert_eq!(status_label(&root), "Error");
    let banner = testid(&root, "error-banner").expect("error banner");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert!(text_of(&banner).contains("the model is overloaded"));
    assert_eq!(
        accessible_name(&testid(&root, "retry").expect("retry")),
        "Retry"
    );
}

// ---- names and focus -------------------------------------------------------------------

#[wasm_bindgen_test]
async fn every_control_has_a_name_and_focus_goes_to_the_card_that_waits() {
    // (what to send, the card that must appear and take the focus)
    let cases = [
        (
            "pay the deposit",
            r#"[data-testid="tool-card"][data-tool-name="confirm_payment"]"#,
        ),
        ("approve", r#"[data-testid="interrupt"]"#),
        ("ask me", r#"[data-testid="interrupt"]"#),
    ];
    for (message, card_selector) in cases {
        let store = store_with(Locale::En, 20.0);
        let (_container, root, handle) = mount_chat(store);
        settle(&store).await;
        assert_eq!(unnamed_controls(&root), Vec::<String>::new(), "empty chat");

        send_message(&root, message);
        wait_until(&store, "the card to wait for the person", || {
            !store.running().get_untracked() && q(&root, card_selector).is_some()
        })
        .await;
        let card = q(&root, card_selector).expect("card");
        wait_until(&store, "focus in the card", || focus_is_inside(&card)).await;
        if message == "pay the deposit" {
            assert_eq!(
                card.get_attribute("data-status").as_deref(),
                Some("awaiting-input")
            );
        }

        // The settings popover and a rename form are controls too.
        click(&testid(&root, "settings-toggle").expect("settings toggle"));
        settle(&store).await;
        assert!(testid(&root, "settings-form").is_some());
        if let Some(rename) = testid(&root, "thread-rename") {
            click(&rename);
            settle(&store).await;
        }
        let controls = q_all(&root, "button, input, textarea, select").len();
        assert!(controls > 10, "{message}: {controls} controls checked");
        assert_eq!(
            unnamed_controls(&root),
            Vec::<String>::new(),
            "{message}: controls without an accessible name"
        );
        drop(handle);
    }
}

#[wasm_bindgen_test]
async fn the_keyboard_alone_reaches_the_composer_and_sends() {
    install_styles();
    let store = store_with(Locale::En, 0.0);
    let (container, root, _handle) = mount_chat(store);
    container
        .style()
        .set_property("height", "600px")
        .expect("height");
    settle(&store).await;

    // In the tab order: a native control, enabled, not removed with tabindex=-1, and Send
    // right after it.
    let input = composer(&root);
    assert!(!input.disabled());
    assert!(input.tab_index() >= 0, "the composer is in the tab order");
    let tabbable = q_all(
        &root,
        "button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select, [tabindex]:not([tabindex='-1'])",
    );
    let at = tabbable
        .iter()
        .position(|e| e.get_attribute("data-testid").as_deref() == Some("composer-input"))
        .expect("the composer is tabbable");

    input.focus().expect("focus the composer");
    type_text(&root, "plan a team offsite in Lisbon");
    settle(&store).await;
    let send = testid(&root, "composer-send").expect("send");
    assert!(
        !send.has_attribute("disabled"),
        "Send is enabled once typed"
    );
    let after: Vec<String> = q_all(
        &root,
        "button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select, [tabindex]:not([tabindex='-1'])",
    )
    .iter()
    .skip(at + 1)
    .filter_map(|e| e.get_attribute("data-testid"))
    .collect();
    assert_eq!(
        after.first().map(String::as_str),
        Some("composer-send"),
        "Tab from the composer goes to Send"
    );

    // A visible focus: the composer's form shows the outline token.
    let form = input.closest("form").expect("form").expect("a form");
    assert_eq!(computed(&form, "outline-style"), "solid");
    assert_ne!(computed(&form, "outline-width"), "0px");

    // Enter sends.
    let ev = keydown("Enter");
    input.dispatch_event(&ev).expect("dispatch Enter");
    assert!(ev.default_prevented(), "Enter is taken by the composer");
    wait_until(&store, "the run to end", || {
        !store.running().get_untracked()
    })
    .await;
    assert!(
        q(&root, r#"[data-testid="message"][data-role="user"]"#).is_some(),
        "the message was sent"
    );
    assert!(
        text_of(&announcer(&root)).len() > 20,
        "and the answer announced: {:?}",
        text_of(&announcer(&root))
    );
}

// ---- language ----------------------------------------------------------------------------

/// Sends `text` to the demo agent and waits for its answer.
async fn ask_demo(store: &AgentStore, root: &Element, text: &str) {
    send_message(root, text);
    wait_until(store, "the demo run to end", || {
        !store.running().get_untracked()
            && !q_all(root, r#"[data-testid="message"][data-role="assistant"]"#).is_empty()
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_german_catalog_renders_german_and_follows_a_locale_change() {
    let store = store_with(Locale::De, 0.0);
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;

    let app = testid(&root, "app-root").expect("app root");
    assert_eq!(app.get_attribute("lang").as_deref(), Some("de"));
    assert_eq!(
        composer(&root).placeholder(),
        "Nachricht an den Agenten…",
        "composer placeholder"
    );
    let send = testid(&root, "composer-send").expect("send");
    assert_eq!(text_of(&send).trim(), "Senden");
    assert_eq!(accessible_name(&composer(&root).into()), "Nachricht");
    assert_eq!(status_label(&root), "Bereit");
    assert_eq!(
        text_of(&testid(&root, "thread-new").expect("new")).trim(),
        "+ Neu"
    );
    // A fresh conversation is listed once there is another: its automatic title translated.
    ask_demo(&store, &root, "hallo").await;
    click(&testid(&root, "thread-new").expect("new"));
    settle(&store).await;
    let title = || text_of(&testid(&root, "thread-title").expect("thread title"));
    assert_eq!(
        title(),
        "Neue Unterhaltung",
        "the automatic title is translated"
    );
    assert_eq!(
        testid(&root, "transcript")
            .and_then(|t| t.get_attribute("aria-label"))
            .as_deref(),
        Some("Unterhaltung")
    );

    // Sentences built around the agent's words use the catalog's frame and nouns.
    let query = VenueQuery {
        city: Some("Lisboa".into()),
        capacity: Some("12".into()),
        ..VenueQuery::default()
    };
    let de = Locale::De.strings();
    assert_eq!(query.searching_in(de), "Suche Orte in Lisboa für 12…");
    assert_eq!(query.found_in(1, de), "Gefunden: 1 Ort in Lisboa für 12");
    assert_eq!(query.found_sentence(2), "Found 2 venues in Lisboa for 12");

    store.update_config(|c| c.locale = Locale::En);
    settle(&store).await;
    assert_eq!(app.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(text_of(&send).trim(), "Send");
    assert_eq!(composer(&root).placeholder(), "Message the agent…");
    assert_eq!(status_label(&root), "Ready");
    assert_eq!(title(), "New conversation");
}

#[wasm_bindgen_test]
async fn plugins_strings_stay_over_the_catalog_across_a_locale_switch() {
    let store = store_with(Locale::Ja, 0.0);
    let plugins = agui_leptos::plugins::Plugins::new()
        .strings([("composer_placeholder", "Acme に質問…"), ("nope", "x")]);
    let (_container, root, _handle) = mount_chat_with(store, plugins);
    settle(&store).await;
    let app = testid(&root, "app-root").expect("app root");
    assert_eq!(app.get_attribute("lang").as_deref(), Some("ja"));
    assert_eq!(app.get_attribute("dir"), None, "Japanese is left to right");
    assert_eq!(composer(&root).placeholder(), "Acme に質問…");
    let send = testid(&root, "composer-send").expect("send");
    assert_eq!(text_of(&send).trim(), "送信", "the rest is the catalog's");
    assert_eq!(
        testid(&root, "warnings-count")
            .map(|c| text_of(&c).trim().to_owned())
            .as_deref(),
        Some("1"),
        "the unknown key is reported"
    );

    // Another language: its catalog, the page's text still over it; right to left in Arabic.
    store.update_config(|c| c.locale = Locale::Ar);
    settle(&store).await;
    assert_eq!(app.get_attribute("lang").as_deref(), Some("ar"));
    assert_eq!(app.get_attribute("dir").as_deref(), Some("rtl"));
    assert_eq!(text_of(&send).trim(), "إرسال");
    assert_eq!(composer(&root).placeholder(), "Acme に質問…");
    assert_eq!(
        testid(&root, "warnings-count")
            .map(|c| text_of(&c).trim().to_owned())
            .as_deref(),
        Some("1"),
        "reported once"
    );
    store.update_config(|c| c.locale = Locale::En);
    settle(&store).await;
    assert_eq!(app.get_attribute("dir"), None);
    assert_eq!(text_of(&send).trim(), "Send");
}

#[wasm_bindgen_test]
async fn the_inspector_names_every_control_and_leaves_the_composer_usable_beside_it() {
    install_styles();
    // (language, direction): the names come from the catalog, the drawer mirrors.
    for (locale, dir) in [(Locale::En, "ltr"), (Locale::De, "rtl")] {
        let store = store_with(locale, 0.0);
        let (container, root, handle) = mount_chat(store);
        container.set_attribute("dir", dir).expect("dir");
        // The widget's panel is the `agui` container the layout queries (widget.css).
        let style = container.style();
        for (property, value) in [
            ("width", "1400px"),
            ("height", "800px"),
            ("container-type", "inline-size"),
            ("container-name", "agui"),
        ] {
            style.set_property(property, value).expect("style");
        }
        ask_demo(&store, &root, "plan our Lisbon offsite").await;
        click(&testid(&root, "inspector-toggle").expect("inspector toggle"));
        settle(&store).await;
        let inspector = testid(&root, "inspector").expect("the inspector is open");
        let rows = q_all(&inspector, r#"[data-testid="inspector-event"]"#);
        assert!(rows.len() > 10, "{locale:?}: events listed");
        click(&rows[rows.len() / 2]);
        settle(&store).await;
        assert!(
            testid(&root, "inspector-state").is_some(),
            "an event is selected"
        );

        let controls = q_all(&inspector, "button, input, textarea, select").len();
        assert!(controls >= 12, "{locale:?}: {controls} inspector controls");
        assert_eq!(
            unnamed_controls(&root),
            Vec::<String>::new(),
            "{locale:?}: controls without an accessible name, inspector open"
        );
        let de = locale == Locale::De;
        let scrubber = testid(&root, "inspector-scrubber").expect("scrubber");
        assert_eq!(
            accessible_name(&scrubber),
            if de {
                "Position im Ereignisprotokoll"
            } else {
                "Position in the event log"
            }
        );
        let speed = testid(&root, "inspector-speed").expect("speed");
        assert_eq!(accessible_name(&speed), if de { "Tempo" } else { "Speed" });
        let timed = testid(&root, "trace-timed").expect("timed checkbox");
        assert_eq!(
            accessible_name(&timed),
            if de {
                "Im Originaltempo wiedergeben"
            } else {
                "Replay with original timing"
            }
        );
        let open = testid(&root, "trace-open").expect("file input");
        assert_eq!(
            accessible_name(&open),
            if de {
                "Aufzeichnung öffnen"
            } else {
                "Open a trace"
            }
        );

        // Wide: a drawer at the inline end, the conversation and its composer beside it.
        let drawer = inspector.get_bounding_client_rect();
        let box_ = container.get_bounding_client_rect();
        let input = composer(&root).get_bounding_client_rect();
        let send = testid(&root, "composer-send")
            .expect("send")
            .get_bounding_client_rect();
        assert!(
            drawer.width() < box_.width() * 0.6,
            "{dir}: a drawer, not the whole chat ({} of {})",
            drawer.width(),
            box_.width()
        );
        assert!(
            input.width() > 200.0 && input.height() > 0.0,
            "{dir}: composer shown"
        );
        if dir == "ltr" {
            assert!(
                (drawer.right() - box_.right()).abs() < 1.0,
                "{dir}: drawer on the right"
            );
            assert!(
                input.right() <= drawer.left() && send.right() <= drawer.left(),
                "{dir}: the composer is beside the drawer"
            );
        } else {
            assert!(
                (drawer.left() - box_.left()).abs() < 1.0,
                "{dir}: drawer on the left"
            );
            assert!(
                input.left() >= drawer.right() && send.left() >= drawer.right(),
                "{dir}: the composer is beside the drawer"
            );
        }
        // Nothing covers the composer: a click there reaches it.
        container.scroll_into_view();
        let input_el = composer(&root);
        input_el.scroll_into_view();
        let r = input_el.get_bounding_client_rect();
        let (x, y) = (r.left() + 10.0, r.top() + r.height() / 2.0);
        let viewport_width = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|w| w.as_f64())
            .unwrap_or_default();
        if x < viewport_width {
            let hit = document().element_from_point(x as f32, y as f32);
            assert!(
                hit.is_some_and(|h| input_el.contains(Some(h.unchecked_ref()))),
                "{dir}: the composer is on top at its own place"
            );
        }
        // The panes scroll inside themselves: they never grow past their max height.
        for pane in q_all(&inspector, ".agui-inspector__pane") {
            assert!(
                ["auto", "scroll"].contains(&computed(&pane, "overflow-y").as_str()),
                "panes scroll"
            );
        }
        let metrics = testid(&root, "inspector-metrics")
            .expect("metrics")
            .get_bounding_client_rect();
        let chat_pane = testid(&root, "inspector-chat")
            .expect("chat pane")
            .get_bounding_client_rect();
        assert!(
            chat_pane.bottom() <= metrics.top(),
            "{dir}: the conversation pane ends above the Runs table"
        );

        // The keyboard moves through the list; the list scrolls to keep the selection in
        // sight, the drawer around it does not move.
        let list = testid(&root, "inspector-events").expect("event list");
        list.clone()
            .dyn_into::<HtmlElement>()
            .expect("an HtmlElement")
            .focus()
            .expect("focus");
        let drawer_scroll = inspector.scroll_top();
        for key in ["End", "Home", "End"] {
            list.dispatch_event(&keydown(key)).expect("keydown");
            settle(&store).await;
            let row = q(&list, r#"[aria-selected="true"]"#).expect("a selected row");
            assert_eq!(
                list.get_attribute("aria-activedescendant"),
                Some(row.id()),
                "{key}: the active descendant"
            );
            let (r, l) = (
                row.get_bounding_client_rect(),
                list.get_bounding_client_rect(),
            );
            assert!(
                r.top() >= l.top() - 1.0 && r.bottom() <= l.bottom() + 1.0,
                "{key}: the selected row is in sight"
            );
            assert_eq!(
                inspector.scroll_top(),
                drawer_scroll,
                "{key}: the drawer stays"
            );
        }
        assert!(
            list.scroll_height() > list.client_height(),
            "the list scrolls inside"
        );

        // Narrow (the popup): the drawer takes the whole width.
        style.set_property("width", "420px").expect("width");
        settle(&store).await;
        let drawer = inspector.get_bounding_client_rect();
        let box_ = container.get_bounding_client_rect();
        assert!(
            (drawer.width() - box_.width()).abs() < 1.0,
            "{dir}: full width when narrow ({} of {})",
            drawer.width(),
            box_.width()
        );
        drop(handle);
        container.remove();
    }
}

// ---- layout and theme --------------------------------------------------------------------

#[wasm_bindgen_test]
async fn rtl_on_an_ancestor_mirrors_the_layout() {
    install_styles();
    let mut layouts = Vec::new();
    for dir in ["ltr", "rtl"] {
        let store = store_with(Locale::En, 0.0);
        let (container, root, handle) = mount_chat(store);
        container.set_attribute("dir", dir).expect("dir");
        let style = container.style();
        style.set_property("width", "1200px").expect("width");
        style.set_property("height", "700px").expect("height");
        type_text(&root, "hi");
        settle(&store).await;

        let input = composer(&root).get_bounding_client_rect();
        let send = testid(&root, "composer-send")
            .expect("send")
            .get_bounding_client_rect();
        let brand = q(&root, ".agui-header__brand")
            .expect("brand")
            .get_bounding_client_rect();
        let actions = q(&root, ".agui-header__actions")
            .expect("header actions")
            .get_bounding_client_rect();
        let form = q(&root, ".agui-composer__form").expect("composer form");
        layouts.push((
            send.left() > input.left(),
            brand.left() < actions.left(),
            computed(&form, "padding-left"),
            computed(&form, "padding-right"),
            computed(&testid(&root, "app-root").expect("root"), "--agui-dir-sign"),
        ));
        drop(handle);
        container.remove();
    }
    let (ltr, rtl) = (&layouts[0], &layouts[1]);
    assert!(
        ltr.0 && ltr.1,
        "left-to-right: Send after the input, the title first: {ltr:?}"
    );
    assert!(!rtl.0 && !rtl.1, "right-to-left: both mirrored: {rtl:?}");
    assert_eq!(
        (ltr.2.as_str(), ltr.3.as_str()),
        ("16px", "8px"),
        "padding-inline-start of the composer is on the left"
    );
    assert_eq!(
        (rtl.2.as_str(), rtl.3.as_str()),
        ("8px", "16px"),
        "and on the right in right-to-left"
    );
    assert_eq!((ltr.4.trim(), rtl.4.trim()), ("1", "-1"), "icons mirror");
}

#[wasm_bindgen_test]
async fn data_theme_forces_light_or_dark_on_the_root_or_an_ancestor() {
    install_styles();
    let store = store_with(Locale::En, 0.0);
    let (container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let app = testid(&root, "app-root").expect("app root");
    let light = "rgb(246, 246, 244)";
    let dark = "rgb(20, 20, 22)";
    // Without an attribute the system's preference decides.
    let prefers_dark = web_sys::window()
        .expect("window")
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    assert_eq!(
        computed(&app, "background-color"),
        if prefers_dark { dark } else { light }
    );

    container.set_attribute("data-theme", "dark").expect("attr");
    assert_eq!(computed(&app, "background-color"), dark, "ancestor: dark");
    assert_eq!(computed(&app, "color-scheme"), "dark");

    app.set_attribute("data-theme", "light").expect("attr");
    assert_eq!(
        computed(&app, "background-color"),
        light,
        "the root's own attribute wins over the ancestor"
    );

    container.remove_attribute("data-theme").expect("attr");
    app.set_attribute("data-theme", "dark").expect("attr");
    assert_eq!(computed(&app, "background-color"), dark, "root: dark");
    // Buttons fade their colours (a transition): read after it.
    sleep(400).await;
    let send = testid(&root, "composer-send").expect("send");
    assert_eq!(
        computed(&send, "color"),
        "rgb(16, 19, 31)",
        "tokens reach the components"
    );
}

#[wasm_bindgen_test]
async fn data_theme_on_the_shadow_host_reaches_the_root_inside() {
    let host = fresh_container();
    let shadow = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .expect("attach a shadow root");
    let doc = document();
    let style = doc.create_element("style").expect("style");
    style.set_text_content(Some(agui_leptos::internals::STYLESHEET));
    shadow.append_child(&style).expect("append style");
    let mount_point: HtmlElement = doc
        .create_element("div")
        .expect("div")
        .dyn_into()
        .expect("an HtmlElement");
    shadow
        .append_child(&mount_point)
        .expect("append mount point");
    let store = store_with(Locale::En, 0.0);
    let _handle = web_support::mount_demo(mount_point.clone(), store);
    settle(&store).await;
    let root: Element = mount_point.into();
    let app = testid(&root, "app-root").expect("app root");

    host.set_attribute("data-theme", "dark").expect("attr");
    assert_eq!(computed(&app, "background-color"), "rgb(20, 20, 22)");
    host.set_attribute("data-theme", "light").expect("attr");
    assert_eq!(computed(&app, "background-color"), "rgb(246, 246, 244)");
}
