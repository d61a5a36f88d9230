//! Browser tests of the chat (headless Chromium): a demo run streams into the transcript,
//! failed / truncated / stopped runs keep what arrived and say so, and the composer's
//! keyboard handling.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_chat`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::GetUntracked;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- helpers ----------------------------------------------------------------------------

fn store_with_speed(demo_speed: f64) -> AgentStore {
    AgentStore::new(AgentConfig {
        demo_speed,
        ..AgentConfig::default()
    })
}

// ---- 1. a demo run ------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn demo_run_streams_text_before_the_run_ends() {
    let store = store_with_speed(4.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    assert!(
        testid(&root, "empty-state").is_some(),
        "empty thread shows the hero"
    );
    assert_eq!(run_status(&root), "idle");

    type_text(&root, "plan a team offsite in Lisbon");
    settle(&store).await;
    let send = testid(&root, "composer-send").expect("send button");
    assert!(
        !send.has_attribute("disabled"),
        "send is enabled with text typed"
    );
    click_testid(&root, "composer-send");
    settle(&store).await;
    assert_eq!(
        composer(&root).value(),
        "",
        "the composer is cleared after sending"
    );
    assert!(testid(&root, "empty-state").is_none(), "the hero is gone");

    let mut text_while_running = false;
    let mut reasoning_while_running = false;
    let deadline = now() + 60_000.0;
    loop {
        settle(&store).await;
        let status = run_status(&root);
        if status == "running" {
            if !assistant_text(&root).trim().is_empty() {
                text_while_running = true;
            }
            if testid(&root, "reasoning").is_some() {
                reasoning_while_running = true;
            }
        }
        if status == "success" {
            break;
        }
        assert!(
            matches!(status.as_str(), "running" | "idle"),
            "unexpected run status {status:?}"
        );
        assert!(now() < deadline, "the demo run did not finish in time");
        sleep(40).await;
    }
    settle(&store).await;

    assert!(
        text_while_running,
        "assistant text appeared while the run was running"
    );
    assert!(reasoning_while_running, "reasoning appeared while running");

    // The user message.
    let user = q(&root, r#"[data-testid="message"][data-role="user"]"#).expect("user row");
    assert!(text_of(&user).contains("plan a team offsite in Lisbon"));

    // Reasoning: its own box, not inside an answer, collapsed with a duration.
    let reasoning = testid(&root, "reasoning").expect("reasoning box");
    assert!(
        reasoning
            .closest(r#"[data-role="assistant"]"#)
            .ok()
            .flatten()
            .is_none(),
        "reasoning is separate from the answer"
    );
    assert_eq!(
        reasoning.get_attribute("data-state").as_deref(),
        Some("done")
    );
    assert!(
        text_of(&reasoning).contains("Thought for"),
        "{}",
        text_of(&reasoning)
    );

    // At least two assistant messages, each its own block.
    let answers = q_all(&root, r#"[data-testid="message"][data-role="assistant"]"#);
    let mut ids: Vec<String> = answers
        .iter()
        .filter_map(|a| a.get_attribute("data-message-id"))
        .collect();
    assert!(
        ids.len() >= 2,
        "expected two assistant messages, got {}",
        ids.len()
    );
    ids.sort();
    ids.dedup();
    assert!(ids.len() >= 2, "assistant messages have distinct ids");
    let all = assistant_text(&root);
    assert!(all.contains("Lisbon team offsite"), "{all}");
    assert!(all.contains("Recommendation"), "{all}");

    // Activity card, updated in place to its final progress.
    let activity = testid(&root, "activity").expect("activity card");
    assert_eq!(
        activity.get_attribute("data-activity-type").as_deref(),
        Some("PLAN")
    );
    assert!(
        text_of(&activity).contains("100%"),
        "{}",
        text_of(&activity)
    );

    assert!(
        testid(&root, "composer-stop").is_none(),
        "no Stop once the run is over"
    );
    assert!(testid(&root, "error-banner").is_none());

    drop(handle);
    container.remove();
}

// ---- 2. runs that end badly ----------------------------------------------------------------

/// Events of a run that starts and streams one assistant message.
fn started_with_text(store: &AgentStore, run_id: &str, text: &str) -> Vec<Value> {
    vec![
        json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": run_id}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": format!("m-{run_id}"), "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": format!("m-{run_id}"), "delta": text}),
    ]
}

#[wasm_bindgen_test]
async fn run_error_shows_the_banner_with_retry() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);

    store.begin_external();
    for ev in started_with_text(&store, "r-err", "Looking that up") {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    assert_eq!(run_status(&root), "running");
    assert!(testid(&root, "error-banner").is_none());
    store.push_bytes(&sse(json!({
        "type": "RUN_ERROR",
        "message": "The venue service is <b>down</b>",
        "code": "upstream",
    })));
    store.end_external(None);
    settle(&store).await;

    let banner = testid(&root, "error-banner").expect("error banner");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    let text = text_of(&banner);
    assert!(
        text.contains("The venue service is <b>down</b>"),
        "agent text shown as text: {text}"
    );
    assert!(
        q(&banner, "b").is_none(),
        "no markup from the error message"
    );
    assert!(testid(&root, "retry").is_some(), "retry button");
    assert_eq!(run_status(&root), "error");
    assert!(
        assistant_text(&root).contains("Looking that up"),
        "streamed text is kept"
    );

    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn truncated_stream_says_connection_lost_and_keeps_the_text() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);

    store.begin_external();
    for ev in started_with_text(&store, "r-cut", "Here is the first half of the plan") {
        store.push_bytes(&sse(ev));
    }
    // The body just ends: no TEXT_MESSAGE_END, no RUN_FINISHED.
    store.end_external(None);
    settle(&store).await;

    assert_eq!(run_status(&root), "truncated");
    let banner = testid(&root, "error-banner").expect("error banner");
    assert!(
        text_of(&banner).to_lowercase().contains("connection lost"),
        "{}",
        text_of(&banner)
    );
    assert!(assistant_text(&root).contains("Here is the first half of the plan"));
    let label = testid(&root, "run-status")
        .map(|e| text_of(&e))
        .unwrap_or_default();
    assert!(label.contains("Connection lost"), "{label}");

    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn stop_keeps_what_arrived_and_nothing_more_arrives() {
    let store = store_with_speed(2.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    type_text(&root, "long");
    settle(&store).await;
    click_testid(&root, "composer-send");

    let deadline = now() + 30_000.0;
    loop {
        settle(&store).await;
        if assistant_text(&root).trim().len() > 40 {
            break;
        }
        assert!(now() < deadline, "no text arrived");
        sleep(30).await;
    }
    assert_eq!(run_status(&root), "running");
    click_testid(&root, "composer-stop");
    settle(&store).await;

    assert_eq!(run_status(&root), "cancelled");
    let label = testid(&root, "run-status")
        .map(|e| text_of(&e))
        .unwrap_or_default();
    assert!(label.contains("Stopped"), "{label}");
    let kept = assistant_text(&root);
    assert!(kept.trim().len() > 40, "the text is still there");
    assert!(testid(&root, "composer-stop").is_none(), "Stop is gone");
    assert!(
        testid(&root, "error-banner").is_none(),
        "stopping is not an error"
    );

    sleep(800).await;
    settle(&store).await;
    assert_eq!(assistant_text(&root), kept, "no more text after Stop");
    assert_eq!(run_status(&root), "cancelled");

    drop(handle);
    container.remove();
}

// ---- 3. composer keys ----------------------------------------------------------------------

#[wasm_bindgen_test]
async fn enter_sends_and_shift_enter_does_not() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    let users = |root: &Element| q_all(root, r#"[data-testid="message"][data-role="user"]"#);

    type_text(&root, "think");
    let input = composer(&root);

    // Shift+Enter: a newline is the browser's default; nothing is sent.
    let ev = keyboard_event("keydown", "Enter", true, false);
    input.dispatch_event(&ev).expect("dispatch");
    settle(&store).await;
    assert!(
        !ev.default_prevented(),
        "Shift+Enter keeps its default (newline)"
    );
    assert!(users(&root).is_empty(), "Shift+Enter does not send");
    assert_eq!(input.value(), "think");

    // Enter during an IME composition: not sent.
    let ev = keyboard_event("keydown", "Enter", false, true);
    input.dispatch_event(&ev).expect("dispatch");
    settle(&store).await;
    assert!(
        users(&root).is_empty(),
        "Enter while composing does not send"
    );

    // Enter: sent, cleared.
    let ev = keyboard_event("keydown", "Enter", false, false);
    input.dispatch_event(&ev).expect("dispatch");
    settle(&store).await;
    assert!(ev.default_prevented(), "Enter does not insert a newline");
    let sent = users(&root);
    assert_eq!(sent.len(), 1, "Enter sends");
    assert!(text_of(&sent[0]).contains("think"));
    assert_eq!(input.value(), "", "the composer is cleared");

    // Enter on an empty composer sends nothing.
    store.stop();
    settle(&store).await;
    let ev = keyboard_event("keydown", "Enter", false, false);
    input.dispatch_event(&ev).expect("dispatch");
    settle(&store).await;
    assert_eq!(users(&root).len(), 1, "an empty message is not sent");

    drop(handle);
    container.remove();
}

// ---- settings ------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn settings_reject_bad_headers_and_apply_an_endpoint() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    let label = testid(&root, "agent-label").expect("agent label");
    assert_eq!(text_of(&label), "Demo agent (offline)");
    click_testid(&root, "settings-toggle");
    settle(&store).await;

    let set_field = |id: &str, value: &str| {
        let el = testid(&root, id).expect("field");
        js_sys::Reflect::set(&el, &JsValue::from_str("value"), &JsValue::from_str(value))
            .expect("set value");
        el.dispatch_event(&web_sys::Event::new("input").expect("event"))
            .expect("dispatch");
    };
    set_field("settings-endpoint", "/agent");
    set_field("settings-headers", "{not json");
    settle(&store).await;
    click_testid(&root, "settings-apply");
    settle(&store).await;
    assert!(
        testid(&root, "settings-error").is_some(),
        "invalid JSON is reported"
    );
    assert_eq!(
        store.config().get_untracked().endpoint,
        None,
        "nothing applied"
    );

    set_field("settings-headers", r#"{"Authorization": "Bearer abc"}"#);
    // The protocol: the app speaks AG-UI (SSE or protobuf) and the AI SDK's stream.
    let protocol = testid(&root, "settings-protocol").expect("a protocol choice");
    let options: Vec<String> = (0..3)
        .filter_map(|i| {
            js_sys::Reflect::get(&protocol, &JsValue::from_f64(i as f64))
                .ok()
                .and_then(|o| js_sys::Reflect::get(&o, &JsValue::from_str("value")).ok())
                .and_then(|v| v.as_string())
        })
        .collect();
    assert_eq!(options, ["ag-ui", "protobuf", "ai-sdk"]);
    js_sys::Reflect::set(
        &protocol,
        &JsValue::from_str("value"),
        &JsValue::from_str("ai-sdk"),
    )
    .expect("set value");
    protocol
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    settle(&store).await;
    click_testid(&root, "settings-apply");
    settle(&store).await;
    let config = store.config().get_untracked();
    assert_eq!(config.wire, agui_leptos::protocol::Wire::AiSdk);
    assert!(!config.protobuf);
    assert_eq!(config.endpoint.as_deref(), Some("/agent"));
    assert_eq!(
        config.headers,
        vec![("Authorization".to_owned(), "Bearer abc".to_owned())]
    );
    assert!(testid(&root, "settings-form").is_none(), "the form closes");
    assert_eq!(
        text_of(&testid(&root, "agent-label").expect("label")),
        "/agent"
    );
    // Opened again, the form shows what is in use.
    click_testid(&root, "settings-toggle");
    settle(&store).await;
    let shown = js_sys::Reflect::get(
        &testid(&root, "settings-protocol").expect("protocol"),
        &JsValue::from_str("value"),
    )
    .ok()
    .and_then(|v| v.as_string());
    assert_eq!(shown.as_deref(), Some("ai-sdk"));

    drop(handle);
    container.remove();
}

// ---- warnings ------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn warnings_badge_counts_and_lists() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert!(
        testid(&root, "warnings").is_none(),
        "no badge without warnings"
    );

    store.begin_external();
    let thread_id = store.thread_id();
    store.push_bytes(&sse(
        json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-w"}),
    ));
    // An unknown event type is dropped with a warning.
    store.push_bytes(&sse(json!({"type": "MADE_UP_EVENT", "x": 1})));
    store.push_bytes(&sse(
        json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-w"}),
    ));
    store.end_external(None);
    settle(&store).await;

    let count = store.warnings().get_untracked().len();
    assert!(count >= 1, "the unknown event left a warning");
    let badge = testid(&root, "warnings").expect("badge");
    assert_eq!(
        text_of(&testid(&badge, "warnings-count").expect("count")),
        count.to_string()
    );
    assert!(
        testid(&root, "warnings-list").is_none(),
        "collapsed at first"
    );
    click_testid(&root, "warnings-toggle");
    settle(&store).await;
    let list = testid(&root, "warnings-list").expect("list");
    let items = q_all(&list, "li");
    assert_eq!(items.len(), count);
    assert!(
        text_of(&list).contains("MADE_UP_EVENT"),
        "{}",
        text_of(&list)
    );

    drop(handle);
    container.remove();
}

// ---- composer: type and click in one go ----------------------------------------------------

#[wasm_bindgen_test]
async fn send_works_when_typing_and_clicking_in_one_task() {
    // Regression: Send's reactive `disabled` lagged one microtask behind typing, so a script
    // that typed and clicked at once hit a disabled button (and after sending, the button
    // stayed enabled because the reactive value looked unchanged).
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    let send = testid(&root, "composer-send").expect("send");
    assert!(send.has_attribute("disabled"), "disabled while empty");

    type_text(&root, "use a tool");
    click_testid(&root, "composer-send");
    settle(&store).await;
    assert_eq!(
        q_all(&root, r#"[data-testid="message"][data-role="user"]"#).len(),
        1,
        "sent"
    );
    assert!(send.has_attribute("disabled"), "disabled again once sent");
    store.stop();
    settle(&store).await;

    drop(handle);
    container.remove();
}

// ---- reasoning, activity, history -----------------------------------------------------------

#[wasm_bindgen_test]
async fn encrypted_reasoning_shows_a_label_and_never_the_value() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);

    store.begin_external();
    let thread_id = store.thread_id();
    for ev in [
        json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-enc"}),
        json!({"type": "REASONING_START", "messageId": "span-1"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "rs-1", "role": "reasoning"}),
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "message", "entityId": "rs-1",
               "encryptedValue": "SECRET-CIPHERTEXT"}),
        json!({"type": "REASONING_MESSAGE_END", "messageId": "rs-1"}),
        json!({"type": "REASONING_END", "messageId": "span-1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "a-1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-1", "delta": "The answer."}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "a-1"}),
        json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-enc"}),
    ] {
        store.push_bytes(&sse(ev));
    }
    store.end_external(None);
    settle(&store).await;

    let reasoning = testid(&root, "reasoning").expect("reasoning");
    assert!(text_of(&reasoning).contains("Reasoning (encrypted)"));
    assert_eq!(
        reasoning.get_attribute("data-state").as_deref(),
        Some("done")
    );
    assert!(
        !text_of(&root).contains("SECRET-CIPHERTEXT"),
        "the value is never shown"
    );
    assert!(assistant_text(&root).contains("The answer."));
    assert_eq!(run_status(&root), "success");

    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn activity_card_updates_in_place_and_previews_unknown_shapes() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);

    store.begin_external();
    let thread_id = store.thread_id();
    for ev in [
        json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-act"}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act-1", "activityType": "PLAN",
               "content": {"title": "Planning", "progress": 0.25,
                           "steps": [{"title": "Search", "status": "in_progress"}, "Compare"]}}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act-2", "activityType": "SEARCH",
               "content": {"query": {"city": "Lisbon"}, "hits": 4}}),
    ] {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;

    let cards = q_all(&root, r#"[data-testid="activity"]"#);
    assert_eq!(cards.len(), 2);
    let plan = cards[0].clone();
    assert_eq!(
        plan.get_attribute("data-activity-type").as_deref(),
        Some("PLAN")
    );
    assert!(text_of(&plan).contains("Planning"));
    assert!(text_of(&plan).contains("25%"));
    let steps = q_all(&plan, "li");
    assert_eq!(steps.len(), 2);
    assert_eq!(
        steps[0].get_attribute("data-status").as_deref(),
        Some("in-progress")
    );
    assert_eq!(
        steps[1].get_attribute("data-status").as_deref(),
        Some("pending")
    );
    // An unknown shape: title from the activity type, a compact JSON preview.
    let search = cards[1].clone();
    assert!(text_of(&search).contains("SEARCH"));
    assert!(
        text_of(&search).contains(r#""city":"Lisbon""#),
        "{}",
        text_of(&search)
    );

    store.push_bytes(&sse(json!({
        "type": "ACTIVITY_DELTA", "messageId": "act-1", "activityType": "PLAN",
        "patch": [
            {"op": "replace", "path": "/progress", "value": 1},
            {"op": "replace", "path": "/steps/0/status", "value": "done"},
        ],
    })));
    settle(&store).await;
    let now = q_all(&root, r#"[data-testid="activity"]"#);
    assert_eq!(now.len(), 2, "updated in place, not appended");
    assert!(plan.is_same_node(Some(&now[0])), "the same card element");
    assert!(text_of(&plan).contains("100%"));
    assert_eq!(
        q_all(&plan, "li")[0]
            .get_attribute("data-status")
            .as_deref(),
        Some("done")
    );

    store.end_external(None);
    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn snapshot_history_shows_user_parts_as_text_and_chips() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);

    store.begin_external();
    let thread_id = store.thread_id();
    for ev in [
        json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-snap"}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "s-1", "role": "system", "content": "You are a planner."},
            {"id": "u-1", "role": "user", "content": [
                {"type": "text", "text": "What about <b>this</b> place?"},
                {"type": "image", "source": {"type": "url", "value": "https://example.com/p.png"}},
            ]},
            {"id": "a-1", "role": "assistant", "content": "It looks **lovely**."},
        ]}),
        json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-snap"}),
    ] {
        store.push_bytes(&sse(ev));
    }
    store.end_external(None);
    settle(&store).await;

    let user = q(&root, r#"[data-testid="message"][data-role="user"]"#).expect("user row");
    let text = testid(&user, "message-text").expect("user text");
    assert_eq!(
        text_of(&text),
        "What about <b>this</b> place?",
        "plain text, not HTML"
    );
    assert!(q(&user, "b").is_none());
    assert!(q(&user, "img").is_none(), "media parts are never loaded");
    // An image URL in history: a placeholder that names its host, loaded only on a click.
    let placeholder = testid(&user, "load-image").expect("a click-to-load placeholder");
    assert!(text_of(&placeholder).contains("example.com"));
    let system = q(&root, r#"[data-testid="message"][data-role="system"]"#).expect("system");
    assert!(text_of(&system).contains("You are a planner."));
    let answer = q(&root, r#"[data-role="assistant"] strong"#).expect("markdown answer");
    assert_eq!(text_of(&answer), "lovely");

    drop(handle);
    container.remove();
}

// ---- auto-scroll ---------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn transcript_follows_the_stream_until_the_person_scrolls_up() {
    let store = store_with_speed(3.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    // No stylesheet in tests: make the transcript a small scroller.
    let transcript: HtmlElement = testid(&root, "transcript")
        .expect("transcript")
        .dyn_into()
        .expect("html");
    transcript
        .set_attribute("style", "height: 200px; overflow-y: auto; display: block")
        .expect("style");
    let distance = |t: &HtmlElement| t.scroll_height() - t.scroll_top() - t.client_height();

    store.send("long".to_owned());
    let deadline = now() + 30_000.0;
    while transcript.scroll_height() < 1200 {
        settle(&store).await;
        assert!(now() < deadline, "not enough text arrived");
        sleep(30).await;
    }
    sleep(100).await;
    assert!(
        distance(&transcript) < 60,
        "pinned to the bottom: {}",
        distance(&transcript)
    );
    assert!(testid(&root, "jump-to-latest").is_none());

    // The person scrolls up: the view stays where they put it while text keeps coming.
    transcript.set_scroll_top(0);
    sleep(100).await;
    let height = transcript.scroll_height();
    let until = now() + 3_000.0;
    while transcript.scroll_height() <= height + 200 && now() < until {
        settle(&store).await;
        sleep(30).await;
    }
    assert!(transcript.scroll_height() > height, "more text arrived");
    assert!(transcript.scroll_top() < 20, "not yanked back down");
    settle(&store).await;
    assert!(
        testid(&root, "jump-to-latest").is_some(),
        "offers to jump back"
    );

    // Jumping back pins it again.
    click_testid(&root, "jump-to-latest");
    sleep(100).await;
    settle(&store).await;
    assert!(distance(&transcript) < 60);

    store.stop();
    settle(&store).await;
    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn a_message_id_that_comes_back_still_streams() {
    // A row removed by a snapshot whose message id comes back (an agent reusing ids after a
    // retry) keeps streaming: its version signal is live again.
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    let thread_id = store.thread_id();

    play_external(
        &store,
        [
            json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-1"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a-1", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-1", "delta": "First try."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a-1"}),
            json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-1"}),
        ],
    );
    settle(&store).await;
    assert!(assistant_text(&root).contains("First try."));

    store.begin_external();
    for ev in [
        json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-2"}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": []}),
    ] {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    assert!(
        assistant_text(&root).is_empty(),
        "the snapshot removed the row"
    );
    for ev in [
        json!({"type": "TEXT_MESSAGE_START", "messageId": "a-1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-1", "delta": "Second"}),
    ] {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-1", "delta": " try, streaming on."}),
    ));
    settle(&store).await;
    assert_eq!(assistant_text(&root).trim(), "Second try, streaming on.");

    store.end_external(None);
    drop(handle);
    container.remove();
}

// ---- configuration from the URL and the settings form -----------------------------------

#[wasm_bindgen_test]
async fn retry_replaces_the_failed_answer() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    let answers = |root: &Element| q_all(root, r#"[data-testid="message"][data-role="assistant"]"#);

    store.send("show an error".to_owned());
    let deadline = now() + 10_000.0;
    while testid(&root, "error-banner").is_none() {
        settle(&store).await;
        assert!(now() < deadline, "the demo error did not arrive");
        sleep(20).await;
    }
    assert_eq!(run_status(&root), "error");
    assert_eq!(answers(&root).len(), 1);

    click_testid(&root, "retry");
    settle(&store).await;
    let deadline = now() + 10_000.0;
    while store.running().get_untracked() {
        settle(&store).await;
        assert!(now() < deadline, "the retry did not finish");
        sleep(20).await;
    }
    settle(&store).await;
    assert_eq!(
        q_all(&root, r#"[data-testid="message"][data-role="user"]"#).len(),
        1,
        "the question is kept, not sent twice"
    );
    assert_eq!(answers(&root).len(), 1, "the failed answer was replaced");
    assert_eq!(run_status(&root), "error", "the demo fails again");

    drop(handle);
    container.remove();
}

// ---- the queue while a run is live ------------------------------------------------------------

fn queued(root: &Element) -> Vec<String> {
    q_all(root, r#"[data-testid="queued-text"]"#)
        .iter()
        .map(text_of)
        .collect()
}

fn user_texts(root: &Element) -> Vec<String> {
    q_all(
        root,
        r#"[data-testid="message"][data-role="user"] [data-testid="message-text"]"#,
    )
    .iter()
    .map(|e| text_of(e).trim().to_owned())
    .collect()
}

#[wasm_bindgen_test]
async fn messages_sent_while_the_agent_streams_wait_editable_and_go_out_when_it_is_done() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    store.begin_external();
    for ev in started_with_text(&store, "r-q", "Working on it") {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    let send = testid(&root, "composer-send").expect("send");
    assert_eq!(
        text_of(&send).trim(),
        "Queue",
        "Send queues while the agent works"
    );
    type_text(&root, "and book a dinner");
    assert!(!send.has_attribute("disabled"), "enabled while running");
    click_testid(&root, "composer-send");
    send_message(&root, "with a view");
    settle(&store).await;
    assert_eq!(composer(&root).value(), "", "the composer is free again");
    assert_eq!(queued(&root), ["and book a dinner", "with a view"]);
    assert!(user_texts(&root).is_empty(), "nothing sent yet");
    assert!(text_of(&testid(&root, "queue-hint").expect("hint")).contains("when the agent is done"));

    // Edit the first, remove the second.
    let first = q(&root, r#"[data-testid="queued"]"#).expect("an item");
    click(&q(&first, r#"[data-testid="queued-edit"]"#).expect("edit"));
    settle(&store).await;
    let input: web_sys::HtmlTextAreaElement = testid(&root, "queued-input")
        .expect("the editor")
        .dyn_into()
        .unwrap();
    assert_eq!(input.value(), "and book a dinner");
    input.set_value("and book a dinner for 12");
    click_testid(&root, "queued-save");
    settle(&store).await;
    assert_eq!(queued(&root), ["and book a dinner for 12", "with a view"]);
    let second = q_all(&root, r#"[data-testid="queued"]"#)
        .pop()
        .expect("second");
    click(&q(&second, r#"[data-testid="queued-remove"]"#).expect("remove"));
    settle(&store).await;
    assert_eq!(queued(&root), ["and book a dinner for 12"]);
    assert!(
        testid(&root, "queued-send").is_none(),
        "no Send now while it runs"
    );

    // The run ends: the queued message goes out by itself, and the queue is gone.
    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m-r-q"}),
    ));
    store.push_bytes(&sse(
        json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r-q"}),
    ));
    store.end_external(None);
    wait_until(&store, "the queued message to be sent", || {
        user_texts(&root) == ["and book a dinner for 12"]
    })
    .await;
    assert!(testid(&root, "queue").is_none());
    store.stop();
    settle(&store).await;
    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn stop_keeps_the_queue_for_send_now_and_queue_off_keeps_send_waiting() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    store.begin_external();
    for ev in started_with_text(&store, "r-s", "Working on it") {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    send_message(&root, "then the budget");
    settle(&store).await;
    click_testid(&root, "composer-stop");
    settle(&store).await;
    assert_eq!(queued(&root), ["then the budget"], "Stop keeps the queue");
    assert!(text_of(&testid(&root, "queue-hint").unwrap()).contains("did not finish"));
    assert!(user_texts(&root).is_empty());
    click_testid(&root, "queued-send");
    wait_until(&store, "the queued message to be sent", || {
        user_texts(&root) == ["then the budget"]
    })
    .await;
    assert!(testid(&root, "queue").is_none());
    wait_idle(&store).await;
    drop(handle);
    container.remove();

    // queue="off": Send waits for the run, as before.
    let store = AgentStore::new(AgentConfig {
        queue: false,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    store.begin_external();
    for ev in started_with_text(&store, "r-o", "Working on it") {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    type_text(&root, "not now");
    let send = testid(&root, "composer-send").expect("send");
    assert!(
        send.has_attribute("disabled"),
        "off: disabled while running"
    );
    assert_eq!(text_of(&send).trim(), "Send");
    click_testid(&root, "composer-send");
    settle(&store).await;
    assert!(testid(&root, "queue").is_none());
    assert_eq!(
        composer(&root).value(),
        "not now",
        "the text stays in the composer"
    );
    store.end_external(None);
    settle(&store).await;
    drop(handle);
    container.remove();
}

// ---- attachments ------------------------------------------------------------------------------

use agui_leptos::plugins::{Limits, Plugins};

/// Dispatch `new {ctor}(kind, {[key]: DataTransfer(files), bubbles, cancelable})` on `target`.
fn transfer_event(
    target: &Element,
    ctor: &str,
    kind: &str,
    key: &str,
    files: &[web_sys::File],
) -> web_sys::Event {
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &key.into(), &transfer(files)).unwrap();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    js_sys::Reflect::set(&init, &"cancelable".into(), &true.into()).unwrap();
    let class = js_sys::Reflect::get(&web_sys::window().unwrap(), &ctor.into()).unwrap();
    let ev: web_sys::Event = js_sys::Reflect::construct(
        class.unchecked_ref::<js_sys::Function>(),
        &js_sys::Array::of2(&kind.into(), &init),
    )
    .unwrap()
    .unchecked_into();
    target.dispatch_event(&ev).unwrap();
    ev
}

/// A 1×1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

fn chips(root: &Element) -> Vec<String> {
    q_all(root, r#"[data-testid="attachment"]"#)
        .iter()
        .map(|e| e.get_attribute("data-kind").unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn an_attached_image_previews_and_goes_out_as_an_image_part_with_its_bytes() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    let attach = testid(&root, "attach").expect("the attach button");
    assert_eq!(
        attach.get_attribute("aria-label").as_deref(),
        Some("Attach files")
    );
    let accept = testid(&root, "attach-input")
        .unwrap()
        .get_attribute("accept")
        .unwrap();
    assert!(
        accept.contains("image/*") && accept.contains("application/pdf"),
        "{accept}"
    );

    pick(
        &root,
        &[
            file("dot.png", "image/png", PNG),
            file("notes.md", "", b"# Notes"),
        ],
    );
    wait_until(&store, "both files read", || {
        q_all(&root, r#"[data-testid="attachment"][data-ready="true"]"#).len() == 2
    })
    .await;
    assert_eq!(chips(&root), ["image", "document"]);
    let thumb = q(&root, r#"[data-testid="attachment"] img"#).expect("a thumbnail");
    assert!(
        thumb.get_attribute("src").unwrap().starts_with("blob:"),
        "from the local file"
    );
    let names = text_of(&testid(&root, "attachments").unwrap());
    assert!(
        names.contains("dot.png") && names.contains("notes.md") && names.contains("text/markdown"),
        "{names}"
    );
    let send = testid(&root, "composer-send").unwrap();
    assert!(
        !send.has_attribute("disabled"),
        "attachments alone can be sent"
    );

    // Remove one, send the other with text.
    let second = q_all(&root, r#"[data-testid="attachment"]"#).pop().unwrap();
    click(&q(&second, r#"[data-testid="attachment-remove"]"#).unwrap());
    settle(&store).await;
    assert_eq!(chips(&root), ["image"]);
    send_message(&root, "what is in this picture?");
    settle(&store).await;
    assert!(
        testid(&root, "attachments").is_none(),
        "the chips went with the message"
    );
    let body = store.last_request().expect("a request");
    let user = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "user")
        .unwrap()
        .clone();
    assert_eq!(
        user["content"][0],
        json!({"type": "text", "text": "what is in this picture?"})
    );
    assert_eq!(user["content"][1]["type"], "image");
    assert_eq!(user["content"][1]["source"]["type"], "data");
    assert_eq!(user["content"][1]["source"]["mimeType"], "image/png");
    assert_eq!(
        user["content"][1]["source"]["value"],
        agui_leptos::base64::encode(PNG)
    );
    assert_eq!(user["content"][1]["metadata"]["filename"], "dot.png");
    // The person's message shows its picture from the bytes it carries.
    let sent = q(
        &root,
        r#"[data-testid="message"][data-role="user"] [data-testid="sent-attachment"] img"#,
    )
    .expect("the sent image");
    assert!(sent.get_attribute("src").unwrap().starts_with("blob:"));
    wait_idle(&store).await;
    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn limits_refuse_with_a_clear_error_and_drop_and_paste_attach_too() {
    let store = store_with_speed(0.0);
    let limits = Limits {
        accept: vec!["image/*".into()],
        max_files: 2,
        ..Limits::default()
    };
    let (container, root, handle) = mount_chat_with(store, Plugins::new().attachments(limits));
    settle(&store).await;
    pick(
        &root,
        &[file("setup.exe", "application/x-msdownload", b"MZ")],
    );
    settle(&store).await;
    let error = testid(&root, "attach-error").expect("a refusal");
    assert_eq!(error.get_attribute("role").as_deref(), Some("alert"));
    assert!(
        text_of(&error).contains("setup.exe: this type of file can’t be attached"),
        "{}",
        text_of(&error)
    );
    assert!(chips(&root).is_empty());

    // Dropped on the composer.
    let form = q(&root, ".agui-composer__form").unwrap();
    let ev = transfer_event(
        &form,
        "DragEvent",
        "drop",
        "dataTransfer",
        &[file("a.png", "image/png", PNG)],
    );
    assert!(ev.default_prevented(), "the drop is taken");
    // Pasted into the textarea.
    let ev = transfer_event(
        &composer(&root).into(),
        "ClipboardEvent",
        "paste",
        "clipboardData",
        &[file("b.png", "image/png", PNG)],
    );
    assert!(
        ev.default_prevented(),
        "a pasted file is attached, not pasted as text"
    );
    settle(&store).await;
    assert_eq!(chips(&root), ["image", "image"]);
    assert!(
        testid(&root, "attach-error").is_none(),
        "a good file clears the refusal"
    );
    pick(&root, &[file("c.png", "image/png", PNG)]);
    settle(&store).await;
    assert!(
        text_of(&testid(&root, "attach-error").unwrap()).contains("At most 2 files per message")
    );
    assert_eq!(chips(&root).len(), 2);
    drop(handle);
    container.remove();

    // Off: no button.
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat_with(store, Plugins::new().no_attachments());
    settle(&store).await;
    assert!(testid(&root, "attach").is_none());
    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn an_upload_hook_sends_a_url_part_and_the_url_is_not_fetched_without_a_click() {
    let store = store_with_speed(0.0);
    let plugins = app_plugins().upload(|file: web_sys::File| async move {
        Ok(format!("https://files.example/{}", file.name()))
    });
    let (container, root, handle) = mount_chat_with(store, plugins);
    settle(&store).await;
    pick(&root, &[file("plan.png", "image/png", PNG)]);
    wait_until(&store, "the upload", || {
        q(&root, r#"[data-testid="attachment"][data-ready="true"]"#).is_some()
    })
    .await;
    send_message(&root, "see the plan");
    settle(&store).await;
    let body = store.last_request().expect("a request");
    let part = body["messages"][0]["content"][1].clone();
    assert_eq!(
        part["source"],
        json!({"type": "url", "value": "https://files.example/plan.png", "mimeType": "image/png"})
    );
    let user = q(&root, r#"[data-testid="message"][data-role="user"]"#).unwrap();
    assert!(q(&user, "img").is_none(), "nothing loaded by itself");
    assert!(
        q(&user, r#"[data-testid="load-image"]"#).is_some(),
        "a click loads it"
    );
    wait_idle(&store).await;
    drop(handle);
    container.remove();
}

// Files attached in one conversation are that conversation's: another one opened does not
// show (or send) them; back in the first, they are there again.
#[wasm_bindgen_test]
async fn attachments_wait_for_their_conversation() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat_with(store, app_plugins());
    settle(&store).await;
    send_message(&root, "plan our Lisbon offsite");
    wait_idle(&store).await;
    let first = store.thread_id();
    pick(&root, &[file("plan.png", "image/png", PNG)]);
    settle(&store).await;
    assert_eq!(chips(&root), ["image"]);
    store.new_thread().unwrap();
    settle(&store).await;
    assert!(chips(&root).is_empty(), "not the new conversation's");
    store.switch_thread(&first).unwrap();
    settle(&store).await;
    assert_eq!(chips(&root), ["image"], "back with its conversation");
    drop(handle);
    container.remove();
}

// ---- parts fetched on first use (src/ui/lazy.rs) -----------------------------------------

/// The lean widget fetches some parts as wasm chunks: nothing shows while one is on the way, a
/// failed fetch says so with Retry (never a panic), and Retry tries again.
#[wasm_bindgen_test]
async fn a_part_that_fails_to_load_offers_retry_and_retry_loads_it() {
    use agui_leptos::internals::lazy;
    use agui_leptos::split::LoadFailed;
    use leptos::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    let store = store_with_speed(1.0);
    let container = fresh_container();
    let attempts = Arc::new(AtomicU32::new(0));
    let counted = attempts.clone();
    let handle = leptos::mount::mount_to(container.clone(), move || {
        store.provide();
        let counted = counted.clone();
        lazy(store, move || {
            let n = counted.fetch_add(1, Ordering::SeqCst);
            async move {
                sleep(30).await;
                if n == 0 {
                    Err(LoadFailed)
                } else {
                    Ok(view! { <p data-testid="lazy-part">"loaded"</p> }.into_any())
                }
            }
        })
    });
    let root: Element = container.clone().into();
    leptos::task::tick().await;
    assert!(
        testid(&root, "lazy-failed").is_none() && testid(&root, "lazy-part").is_none(),
        "nothing while loading"
    );
    wait_until(&store, "the failure is shown", || {
        testid(&root, "lazy-failed").is_some()
    })
    .await;
    let notice = testid(&root, "lazy-failed").unwrap();
    assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
    assert!(
        text_of(&notice).contains("could not be loaded"),
        "{}",
        text_of(&notice)
    );
    click_testid(&root, "lazy-retry");
    wait_until(&store, "Retry loads the part", || {
        testid(&root, "lazy-part").is_some()
    })
    .await;
    assert!(testid(&root, "lazy-failed").is_none(), "the notice is gone");
    assert_eq!(attempts.load(Ordering::SeqCst), 2, "one load per attempt");
    drop(handle);
}

// Issue 31, item 7: each message shows when it was written — its own time (metadata) or when
// it arrived — relative to the eye, exact on hover and to a screen reader; a person's long
// message shows collapsed with "Show more".
#[wasm_bindgen_test]
async fn messages_show_their_time_and_a_long_one_collapses() {
    let store = store_with_speed(0.0);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    play_external(
        &store,
        [
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [
                {"id": "old", "role": "user", "content": "From last year",
                 "metadata": {"createdAt": "2025-01-02T03:04:05Z"}},
                {"id": "a1", "role": "assistant", "content": "Noted."}
            ]}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a2", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": "Fresh."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a2"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}),
        ],
    );
    settle(&store).await;
    let time_of = |id: &str| {
        root.query_selector(&format!(
            r#"[data-message-id="{id}"] [data-testid="message-time"]"#
        ))
        .unwrap()
    };
    let old = time_of("old").expect("the metadata's time");
    assert_eq!(
        old.get_attribute("datetime").as_deref(),
        Some("2025-01-02T03:04:05.000Z")
    );
    let exact = old.get_attribute("title").expect("the exact time on hover");
    assert!(exact.contains("2025"), "{exact}");
    assert!(text_of(&old).contains(&exact), "and for a screen reader");
    let fresh = time_of("a2").expect("the arrival time");
    assert!(text_of(&fresh).starts_with("now"), "{}", text_of(&fresh));
    assert!(
        time_of("a1").is_none(),
        "a message handed over with no time shows none"
    );

    // A long message of the person: collapsed, "Show more" opens it.
    let long = "line of a long paste\n".repeat(30);
    let input = composer(&root);
    input.set_value(&long);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle(&store).await;
    click_testid(&root, "composer-send");
    settle(&store).await;
    let text = q_all(&root, r#".agui-message--user [data-testid="message-text"]"#)
        .pop()
        .expect("the sent message");
    assert!(text.class_list().contains("agui-message__text--collapsed"));
    let more = testid(&root, "show-more").expect("Show more");
    assert_eq!(
        more.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert_eq!(
        more.get_attribute("aria-controls"),
        text.get_attribute("id")
    );
    click(&more);
    settle(&store).await;
    assert!(!text.class_list().contains("agui-message__text--collapsed"));
    assert_eq!(more.get_attribute("aria-expanded").as_deref(), Some("true"));
    assert_eq!(text_of(&more), "Show less");
    store.stop();
    drop(handle);
    container.remove();
}
