//! Browser tests of the event inspector (headless Chromium): open it on a run, scrub to an
//! earlier event and check that the chat and state panes show exactly that point; export a
//! trace, open it again and check that the replay gives the same conversation.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_inspector`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::i18n::Locale;
use agui_leptos::internals::open_bytes;
use agui_leptos::session::inspector::TraceFormat;
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The state pane's leaves: pointer → (value text, highlighted).
fn state_leaves(root: &Element) -> Vec<(String, String, bool)> {
    let pane = testid(root, "inspector-state").expect("state pane");
    q_all(&pane, r#"[data-testid="inspector-state-path"]"#)
        .iter()
        .map(|el| {
            let path = el.get_attribute("data-path").unwrap_or_default();
            let value = q(el, ".agui-inspector__leaf-value")
                .map(|v| text_of(&v))
                .unwrap_or_default();
            let changed = el.get_attribute("data-changed").as_deref() == Some("true");
            (path, value, changed)
        })
        .collect()
}

/// The chat pane's messages: (role, text).
fn chat_pane(root: &Element) -> Vec<(String, String)> {
    let pane = testid(root, "inspector-chat").expect("chat pane");
    q_all(&pane, r#"[data-testid="inspector-message"]"#)
        .iter()
        .map(|el| {
            let role = el.get_attribute("data-role").unwrap_or_default();
            let text = q(el, r#"[data-testid="inspector-message-text"]"#)
                .map(|t| text_of(&t))
                .unwrap_or_default();
            (role, text)
        })
        .collect()
}

fn scrub_to(root: &Element, k: usize) {
    let input: HtmlInputElement = testid(root, "inspector-scrubber")
        .expect("scrubber")
        .dyn_into()
        .expect("an input");
    input.set_value(&k.to_string());
    let ev = web_sys::Event::new("input").expect("input event");
    input.dispatch_event(&ev).expect("dispatch input");
}

fn position(root: &Element) -> String {
    testid(root, "inspector-position")
        .map(|e| text_of(&e))
        .unwrap_or_default()
}

/// Choose a file in the `trace-open` picker (a `DataTransfer` makes the `FileList`).
fn pick_file(root: &Element, name: &str, bytes: &[u8]) {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, name).expect("a File");
    let dt = web_sys::DataTransfer::new().expect("a DataTransfer");
    let items = js_sys::Reflect::get(&dt, &"items".into()).expect("items");
    let add: js_sys::Function = js_sys::Reflect::get(&items, &"add".into())
        .expect("add")
        .dyn_into()
        .expect("a function");
    add.call1(&items, &file).expect("add the file");
    let input: HtmlInputElement = testid(root, "trace-open")
        .expect("trace-open")
        .dyn_into()
        .expect("an input");
    input.set_files(dt.files().as_ref());
    input
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch change");
}

/// The index of the selected row (`aria-selected`), and whether the listbox's active
/// descendant is that row.
fn selected_row(root: &Element) -> (Option<String>, bool) {
    let list = testid(root, "inspector-events").expect("event list");
    let row = q(&list, r#"[role="option"][aria-selected="true"]"#);
    let active = list.get_attribute("aria-activedescendant");
    let consistent = match (&row, &active) {
        (Some(r), Some(a)) => r.id() == *a,
        (None, None) => true,
        _ => false,
    };
    (row.and_then(|r| r.get_attribute("data-index")), consistent)
}

/// A run with two answers and three state changes; the event indices are fixed.
fn scripted_run(store: &AgentStore) {
    let events = [
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}), // 0
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 0, "items": []}}), // 1
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}), // 2
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"}), // 3
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),         // 4
        json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": 1}]}), // 5
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m2", "role": "assistant"}), // 6
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "Second"}), // 7
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m2"}),                        // 8
        json!({"type": "STATE_DELTA", "delta": [
            {"op": "replace", "path": "/count", "value": 2},
            {"op": "add", "path": "/items/-", "value": "x"}
        ]}), // 9
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}),               // 10
    ];
    play_external(store, events);
}

#[wasm_bindgen_test]
async fn scrubbing_shows_the_chat_and_the_state_as_of_that_event() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (_container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert!(testid(&root, "inspector").is_none(), "closed at first");
    click_testid(&root, "inspector-toggle");
    settle(&store).await;
    assert!(testid(&root, "inspector").is_some(), "the toggle opens it");

    scripted_run(&store);
    settle(&store).await;
    let rows = q_all(&root, r#"[data-testid="inspector-event"]"#);
    assert_eq!(rows.len(), 11, "every event is listed while live");
    assert_eq!(
        rows[5].get_attribute("data-type").as_deref(),
        Some("STATE_DELTA")
    );
    assert_eq!(rows[5].get_attribute("data-index").as_deref(), Some("5"));
    assert!(testid(&root, "inspector-live-hint").is_some());

    // Select the first STATE_DELTA: one answer, count 1, the change highlighted.
    click(&rows[5]);
    settle(&store).await;
    assert_eq!(
        chat_pane(&root),
        [("assistant".to_owned(), "Hello".to_owned())]
    );
    let leaves = state_leaves(&root);
    assert_eq!(
        leaves,
        [
            ("/count".to_owned(), "1".to_owned(), true),
            ("/items".to_owned(), "[]".to_owned(), false),
        ]
    );
    let patch = testid(&root, "inspector-patch").expect("patch pane");
    let ops = q_all(&patch, r#"[data-testid="inspector-patch-op"]"#);
    assert_eq!(ops.len(), 1);
    assert_eq!(ops[0].get_attribute("data-path").as_deref(), Some("/count"));
    assert_eq!(position(&root), "6 / 11");
    // The live chat still shows everything.
    let live = q_all(&root, r#"[data-testid="message"][data-role="assistant"]"#);
    assert_eq!(live.len(), 2);

    // Scrub to the second delta: both answers, count 2, the appended item.
    scrub_to(&root, 9);
    settle(&store).await;
    assert_eq!(chat_pane(&root).len(), 2);
    assert_eq!(
        state_leaves(&root),
        [
            ("/count".to_owned(), "2".to_owned(), true),
            ("/items/0".to_owned(), "\"x\"".to_owned(), true),
        ]
    );
    // One step back: the second answer's end, before the delta.
    click_testid(&root, "inspector-back");
    settle(&store).await;
    assert_eq!(position(&root), "9 / 11");
    assert_eq!(
        state_leaves(&root),
        [
            ("/count".to_owned(), "1".to_owned(), false),
            ("/items".to_owned(), "[]".to_owned(), false),
        ]
    );
    assert_eq!(chat_pane(&root)[1].1, "Second");
    // Scrub to the first text delta: the answer so far.
    scrub_to(&root, 3);
    settle(&store).await;
    assert_eq!(
        chat_pane(&root),
        [("assistant".to_owned(), "Hello".to_owned())]
    );
    assert_eq!(
        state_leaves(&root),
        [
            ("/count".to_owned(), "0".to_owned(), false),
            ("/items".to_owned(), "[]".to_owned(), false),
        ]
    );
    let detail = testid(&root, "inspector-raw").expect("raw frame");
    assert!(text_of(&detail).contains(r#""delta":"Hello""#));

    // The type filter keeps only that type.
    let filter: web_sys::HtmlSelectElement = testid(&root, "inspector-type-filter")
        .expect("filter")
        .dyn_into()
        .expect("a select");
    filter.set_value("STATE_DELTA");
    filter
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    settle(&store).await;
    let rows = q_all(&root, r#"[data-testid="inspector-event"]"#);
    let indices: Vec<String> = rows
        .iter()
        .filter_map(|r| r.get_attribute("data-index"))
        .collect();
    assert_eq!(indices, ["5", "9"]);

    // Play from the start runs through to the last event, then stops by itself.
    filter.set_value("");
    filter
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    scrub_to(&root, 0);
    settle(&store).await;
    assert_eq!(position(&root), "1 / 11");
    click_testid(&root, "inspector-play");
    for _ in 0..200 {
        sleep(20).await;
        if position(&root) == "11 / 11" {
            break;
        }
    }
    settle(&store).await;
    assert_eq!(position(&root), "11 / 11");
    let play = testid(&root, "inspector-play").expect("play button");
    assert_eq!(text_of(&play), "Play", "stopped at the end");
    assert_eq!(chat_pane(&root).len(), 2);

    // Live leaves time travel.
    click_testid(&root, "inspector-live");
    settle(&store).await;
    assert!(testid(&root, "inspector-live-hint").is_some());
    assert!(testid(&root, "inspector-chat").is_none());
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_inspector_speaks_the_catalog_language_and_its_list_works_with_the_keyboard() {
    let container = fresh_container();
    let store = AgentStore::new(AgentConfig {
        locale: Locale::De,
        ..AgentConfig::default()
    });
    let handle = web_support::mount_demo(container.clone(), store);
    let root: Element = container.clone().into();
    settle(&store).await;
    let toggle = testid(&root, "inspector-toggle").expect("toggle");
    assert_eq!(text_of(&toggle).trim(), "Inspektor");
    click(&toggle);
    settle(&store).await;

    let attr = |id: &str, name: &str| {
        testid(&root, id)
            .unwrap_or_else(|| panic!("{id} is rendered"))
            .get_attribute(name)
            .unwrap_or_default()
    };
    let text = |id: &str| text_of(&testid(&root, id).unwrap_or_else(|| panic!("{id}")));
    assert_eq!(attr("inspector", "aria-label"), "Ereignis-Inspektor");
    assert_eq!(
        text("inspector-live-hint"),
        "Noch keine Ereignisse: Senden Sie eine Nachricht oder öffnen Sie eine Aufzeichnung."
    );
    assert_eq!(attr("inspector-type-filter", "aria-label"), "Ereignistyp");
    assert_eq!(
        attr("inspector-search", "aria-label"),
        "Ereignisse durchsuchen"
    );
    assert_eq!(
        attr("inspector-search", "placeholder"),
        "Ereignisse durchsuchen"
    );
    assert_eq!(
        attr("inspector-scrubber", "aria-label"),
        "Position im Ereignisprotokoll"
    );
    assert_eq!(attr("inspector-back", "aria-label"), "Einen Schritt zurück");
    assert_eq!(attr("inspector-forward", "aria-label"), "Einen Schritt vor");
    assert_eq!(text("inspector-play").trim(), "Abspielen");
    assert_eq!(
        text("trace-export").trim(),
        "Aufzeichnung exportieren (.jsonl)"
    );
    assert_eq!(attr("inspector-events", "role"), "listbox");
    assert_eq!(attr("inspector-events", "aria-label"), "Ereignisse");
    let metrics = text("inspector-metrics");
    for header in [
        "Lauf",
        "Ereignisse",
        "Erstes Token",
        "Werkzeuge",
        "Warnungen",
    ] {
        assert!(metrics.contains(header), "{header} in {metrics:?}");
    }

    scripted_run(&store);
    settle(&store).await;
    assert!(text("inspector-live-hint").starts_with("Neue Ereignisse werden verfolgt."));
    assert_eq!(
        attr("inspector-scrubber", "aria-valuetext"),
        "Ereignis 11 von 11"
    );

    // The list is a listbox: it keeps the focus, arrows move the selection, and the active
    // descendant follows it.
    let list: HtmlElement = testid(&root, "inspector-events")
        .expect("event list")
        .dyn_into()
        .expect("an HtmlElement");
    assert_eq!(list.tab_index(), 0, "the list is in the tab order");
    list.focus().expect("focus the list");
    assert_eq!(selected_row(&root), (None, true), "live: nothing selected");
    let press = |key: &str| {
        list.dispatch_event(&keydown(key))
            .expect("dispatch keydown");
    };
    for (key, index) in [
        ("ArrowUp", "10"),
        ("ArrowUp", "9"),
        ("Home", "0"),
        ("ArrowUp", "0"),
        ("ArrowDown", "1"),
        ("End", "10"),
        ("ArrowDown", "10"),
        ("Home", "0"),
    ] {
        press(key);
        settle(&store).await;
        assert_eq!(
            selected_row(&root),
            (Some(index.to_owned()), true),
            "after {key}"
        );
    }
    for _ in 0..5 {
        press("ArrowDown");
    }
    settle(&store).await;
    assert_eq!(selected_row(&root), (Some("5".to_owned()), true));
    assert_eq!(
        position(&root),
        "6 / 11",
        "the scrubber follows the keyboard"
    );
    let active = web_support::document()
        .active_element()
        .expect("a focused element");
    assert_eq!(
        active.get_attribute("data-testid").as_deref(),
        Some("inspector-events"),
        "the focus stays on the list while the rows re-render"
    );
    let detail = text("inspector-detail");
    assert!(detail.contains("Ereignis #5 · STATE_DELTA"), "{detail}");
    assert!(detail.contains("Rohdaten"), "{detail}");
    let panes = text("inspector");
    for title in [
        "Änderung durch dieses Ereignis",
        "Zustand nach diesem Ereignis",
        "Unterhaltung bis zu diesem Ereignis",
    ] {
        assert!(panes.contains(title), "{title}");
    }

    // A locale change reaches the open inspector.
    store.update_config(|c| c.locale = Locale::En);
    settle(&store).await;
    assert_eq!(attr("inspector", "aria-label"), "Event inspector");
    assert_eq!(text_of(&toggle).trim(), "Inspector");
    assert_eq!(attr("inspector-type-filter", "aria-label"), "Event type");
    assert_eq!(
        attr("inspector-scrubber", "aria-valuetext"),
        "Event 6 of 11"
    );
    assert!(text("inspector").contains("State as of this event"));
    assert_eq!(selected_row(&root), (Some("5".to_owned()), true));
    drop(handle);
}

#[wasm_bindgen_test]
async fn an_exported_trace_reopened_replays_the_same_conversation() {
    let container = fresh_container();
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let handle = web_support::mount_demo(container.clone(), store);
    let root: Element = container.clone().into();
    store.set_inspector_open(true);
    settle(&store).await;

    // Two runs of the demo agent: a tool call, then state and reasoning.
    store.send("use a tool".into());
    wait_idle(&store).await;
    store.send("think".into());
    wait_idle(&store).await;
    let original = store.with_thread(|t| (t.messages.clone(), t.state.clone()));
    let original_thread = store.thread_id();
    let original_len = store.with_log(|l| l.len()).expect("a log");
    assert!(original_len > 20);
    assert!(original.0.len() >= 4, "two exchanges");
    let message_ids = |root: &Element| -> Vec<String> {
        q_all(root, r#".agui-main [data-testid="message"]"#)
            .iter()
            .filter_map(|m| m.get_attribute("data-message-id"))
            .collect()
    };
    let original_ids = message_ids(&root);
    let metrics = q_all(&root, r#"[data-testid="inspector-run"]"#);
    assert_eq!(metrics.len(), 2, "one metrics row per run");

    // The export button downloads without failing; the bytes are the JSONL trace.
    click_testid(&root, "trace-export");
    settle(&store).await;
    assert!(testid(&root, "inspector-error").is_none());
    let bytes = store.export_trace(TraceFormat::Jsonl);

    // Re-open it through the file picker, with its original timing.
    click_testid(&root, "trace-timed");
    pick_file(&root, "trace.jsonl", &bytes);
    for _ in 0..500 {
        sleep(10).await;
        if store.thread_id() != original_thread && !store.running().get_untracked() {
            break;
        }
    }
    wait_idle(&store).await;
    assert!(testid(&root, "inspector-error").is_none());
    assert_ne!(
        store.thread_id(),
        original_thread,
        "replayed into a new thread"
    );
    let replayed = store.with_thread(|t| (t.messages.clone(), t.state.clone()));
    assert_eq!(replayed.0, original.0, "same messages");
    assert_eq!(replayed.1, original.1, "same state");
    assert_eq!(
        message_ids(&root),
        original_ids,
        "same transcript on screen"
    );
    assert_eq!(run_status(&root), "success");
    // The new thread has its own log: the replayed events, as many as the original's.
    let rows = q_all(&root, r#"[data-testid="inspector-event"]"#);
    assert_eq!(
        rows.last()
            .and_then(|r| r.get_attribute("data-type"))
            .as_deref(),
        Some("RUN_FINISHED")
    );
    assert_eq!(store.with_log(|l| l.len()), Some(original_len));
    assert_eq!(position(&root), format!("{original_len} / {original_len}"));

    // Not a trace: a message, never a panic.
    let notice = RwSignal::new(None);
    open_bytes(store, "bad.jsonl", b"{not json", false, notice).await;
    assert!(notice.get_untracked().is_some_and(|n| n.contains("line 1")));
    pick_file(&root, "bad.jsonl", b"[1]");
    for _ in 0..100 {
        sleep(10).await;
        if testid(&root, "inspector-error").is_some() {
            break;
        }
    }
    let error = testid(&root, "inspector-error").expect("the error is shown");
    assert!(
        text_of(&error).contains("not a trace"),
        "{}",
        text_of(&error)
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn scrubbing_a_10000_event_trace_stays_interactive() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (_container, root, handle) = mount_chat(store);
    store.set_inspector_open(true);
    let mut body = Vec::new();
    body.extend(sse(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "big"}),
    ));
    body.extend(sse(
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 0}}),
    ));
    body.extend(sse(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
    ));
    for i in 3..9_998 {
        let e = if i % 50 == 0 {
            json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": i}]})
        } else {
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "word "})
        };
        body.extend(sse(e));
    }
    body.extend(sse(json!({"type": "TEXT_MESSAGE_END", "messageId": "m"})));
    body.extend(sse(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "big"}),
    ));
    store.begin_external();
    store.push_bytes(&body);
    store.end_external(None);
    settle(&store).await;
    assert_eq!(store.with_log(|l| l.len()), Some(10_000));
    assert!(
        q_all(&root, r#"[data-testid="inspector-event"]"#).len() <= 150,
        "the list renders a window, not 10,000 rows"
    );

    // Scrub to positions spread over the trace; each view is checked and timed (input to
    // DOM updated).
    let mut times = Vec::new();
    for n in 0..20 {
        let k = (n * 4_999 + 7) % 10_000;
        let t0 = now();
        scrub_to(&root, k);
        leptos::task::tick().await;
        let shown = state_leaves(&root);
        times.push(now() - t0);
        // The count is the index of the last STATE_DELTA at or before k (0 before the first).
        let expected = if k < 50 { 0 } else { k / 50 * 50 };
        assert_eq!(shown[0].1, expected.to_string(), "state as of event {k}");
        let words = chat_pane(&root)
            .first()
            .map(|m| m.1.split_whitespace().filter(|w| *w == "word").count())
            .unwrap_or(0);
        let deltas = (3..=k).filter(|i| i % 50 != 0).count();
        assert_eq!(
            words,
            deltas.min(400),
            "answer as of event {k} (first 2,000 chars shown)"
        );
    }
    times.sort_by(f64::total_cmp);
    web_sys::console::log_1(
        &format!(
            "scrub on 10,000 events (debug wasm): median {:.1} ms, max {:.1} ms",
            times[times.len() / 2],
            times[times.len() - 1]
        )
        .into(),
    );
    assert!(times[times.len() / 2] < 250.0, "interactive: {times:?}");
    drop(handle);
}

/// The wasm heap's size in bytes (it only grows).
fn wasm_heap() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as f64
}

#[wasm_bindgen_test]
async fn a_100000_event_log_fits_its_budget_in_the_wasm_heap() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let before = wasm_heap();
    store.begin_external();
    store.push_bytes(&sse(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "huge"}),
    ));
    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
    ));
    let t0 = now();
    let mut chunk = Vec::new();
    for i in 0..99_997 {
        let e = if i % 50 == 0 {
            json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": i}]})
        } else {
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "word "})
        };
        chunk.extend(sse(e));
        if chunk.len() > 64 * 1024 {
            store.push_bytes(&chunk);
            chunk.clear();
        }
    }
    store.push_bytes(&chunk);
    store.push_bytes(&sse(json!({"type": "TEXT_MESSAGE_END", "messageId": "m"})));
    store.end_external(None);
    let ms = now() - t0;
    let (len, heap, stopped) = store
        .with_log(|l| (l.len(), l.heap_bytes(), l.stopped().is_some()))
        .expect("a log");
    let grown = wasm_heap() - before;
    web_sys::console::log_1(
        &format!(
            "100,000 events (debug wasm): log {:.1} MB counted, wasm heap grew {:.1} MB \
             (log + thread + pipeline), {ms:.0} ms",
            heap as f64 / 1e6,
            grown / 1e6
        )
        .into(),
    );
    assert!(len >= 99_999 && !stopped, "{len} recorded");
    assert!(heap <= 64 * 1024 * 1024);
    assert!(grown <= 96.0 * 1024.0 * 1024.0, "grew {grown} bytes");
}
