//! Browser tests of the human in the loop (headless Chromium): frontend tools answered in the
//! tool card (`confirm_payment`) or by a handler, and interrupts answered through generated
//! forms, approvals, LangChain HITL decisions and legacy `on_interrupt` questions, then resumed
//! with a `resume` array that covers every open interrupt.
//!
//! The chat is mounted on an [`AgentStore`] driving the offline demo agent at high speed (or
//! fed recorded streams with `begin_external` / `push_bytes`); the request each run sent is
//! read back with [`AgentStore::last_request`].
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_hitl`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::internals::Chat;
use agui_leptos::plugins::Plugins;
use agui_leptos::protocol::types::{Content, Tool};
use agui_leptos::session::hitl::HitlError;
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::*;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::document;
use web_support::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- harness -----------------------------------------------------------------------------

fn fast_store() -> AgentStore {
    AgentStore::new(AgentConfig {
        demo_speed: 20.0,
        ..AgentConfig::default()
    })
}

fn is_disabled(el: &Element) -> bool {
    el.has_attribute("disabled")
        || js_sys::Reflect::get(el, &"disabled".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
}

/// Set an input's or textarea's value and fire `input`, as typing does.
fn type_into(el: &Element, value: &str) {
    if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
        input.set_value(value);
    } else if let Some(area) = el.dyn_ref::<HtmlTextAreaElement>() {
        area.set_value(value);
    } else {
        panic!("not a text control");
    }
    let ev = web_sys::Event::new("input").expect("input event");
    el.dispatch_event(&ev).expect("dispatch input");
}

fn select_value(el: &Element, value: &str) {
    let select: &HtmlSelectElement = el.dyn_ref().expect("a select");
    select.set_value(value);
    let ev = web_sys::Event::new("change").expect("change event");
    el.dispatch_event(&ev).expect("dispatch change");
}

/// Feed a recorded run (events without the RUN_STARTED/RUN_FINISHED envelope) that finishes
/// with `outcome` (`None` = no outcome).
async fn recorded_run(
    store: &AgentStore,
    run_id: &str,
    events: Vec<Value>,
    outcome: Option<Value>,
) {
    let thread = store.thread_id();
    store.begin_external();
    store.push_bytes(&sse(
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": run_id}),
    ));
    for ev in events {
        store.push_bytes(&sse(ev));
    }
    let mut finished = json!({"type": "RUN_FINISHED", "threadId": thread, "runId": run_id});
    if let (Some(o), Some(obj)) = (outcome, finished.as_object_mut()) {
        obj.insert("outcome".into(), o);
    }
    store.push_bytes(&sse(finished));
    store.end_external(None);
    settle(store).await;
}

fn tool_card(root: &Element, name: &str) -> Option<Element> {
    q(
        root,
        &format!(r#"[data-testid="tool-card"][data-tool-name="{name}"]"#),
    )
}

fn card_status(card: &Element) -> String {
    card.get_attribute("data-status").unwrap_or_default()
}

fn interrupt_cards(root: &Element) -> Vec<Element> {
    q_all(root, r#"[data-testid="interrupt"]"#)
}

fn in_card(card: &Element, id: &str) -> Option<Element> {
    testid(card, id)
}

fn request(store: &AgentStore) -> Value {
    store.last_request().expect("a request was sent")
}

fn run_id_of(body: &Value) -> String {
    body["runId"].as_str().unwrap_or_default().to_owned()
}

/// The `resume` array of a request, as (interruptId, status, payload).
fn resume_of(body: &Value) -> Vec<(String, String, Option<Value>)> {
    body.get("resume")
        .and_then(Value::as_array)
        .expect("the request carries resume")
        .iter()
        .map(|e| {
            (
                e["interruptId"].as_str().unwrap_or_default().to_owned(),
                e["status"].as_str().unwrap_or_default().to_owned(),
                e.get("payload").cloned(),
            )
        })
        .collect()
}

fn open_interrupt_ids(store: &AgentStore) -> Vec<String> {
    store.with_thread(|t| t.open_interrupts().iter().map(|i| i.id.clone()).collect())
}

/// The id of the first tool call named `name` in the thread.
fn call_id(store: &AgentStore, name: &str) -> String {
    store.with_thread(|t| {
        t.messages
            .iter()
            .flat_map(|m| m.tool_calls.iter().flatten())
            .find(|c| c.function.name == name)
            .map(|c| c.id.clone())
            .unwrap_or_else(|| panic!("a {name} call in the thread"))
    })
}

// ---- frontend tools: confirm_payment ----------------------------------------------------

/// Send "pay the deposit" and wait for the payment card to ask; returns (root, call id).
async fn pay_until_awaiting(store: &AgentStore, root: &Element) -> String {
    send_message(root, "pay the deposit");
    wait_until(store, "the payment card to await input", || {
        tool_card(root, "confirm_payment").is_some_and(|c| card_status(&c) == "awaiting-input")
    })
    .await;
    wait_idle(store).await;
    call_id(store, "confirm_payment")
}

#[wasm_bindgen_test]
async fn confirm_payment_approved_answers_the_call_and_continues_by_itself() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    assert!(
        store
            .config()
            .get_untracked()
            .tools
            .iter()
            .any(|t| t.name == "confirm_payment"),
        "confirm_payment is advertised by default"
    );

    let call = pay_until_awaiting(&store, &root).await;
    let first = request(&store);
    let tools = first["tools"].as_array().expect("tools in the request");
    assert!(
        tools.iter().any(|t| t["name"] == "confirm_payment"
            && t["parameters"]["required"]
                .as_array()
                .is_some_and(|r| r.len() == 3)),
        "the request advertises confirm_payment with its schema: {tools:?}"
    );
    let card = tool_card(&root, "confirm_payment").expect("payment card");
    wait_until(&store, "focus on the payment card", || {
        document()
            .active_element()
            .is_some_and(|a| card.contains(Some(a.unchecked_ref())))
    })
    .await;
    let amount = text_of(&testid(&card, "payment-amount").expect("amount shown"));
    assert!(amount.contains("480"), "the amount is shown: {amount:?}");
    assert!(amount.contains('$'), "with the trip's currency: {amount:?}");
    let description = text_of(&testid(&card, "payment-description").expect("description"));
    assert!(description.contains("Deposit"), "{description:?}");
    assert_eq!(
        store.run_view().get_untracked().pending_tool_calls,
        vec![call.clone()],
        "the run left the call pending"
    );

    click(&testid(&card, "frontend-tool-approve").expect("approve button"));
    settle(&store).await;

    // The answer is a tool message for that call, right after it.
    let (content, error) = store.with_thread(|t| {
        let m = t.tool_result(&call).expect("a tool message for the call");
        (m.content.clone(), m.error.clone())
    });
    assert_eq!(
        content,
        Some(Content::Text(r#"{"approved":true}"#.to_owned()))
    );
    assert_eq!(error, None);

    // A new run started by itself, with the history.
    let second = request(&store);
    assert_ne!(run_id_of(&second), run_id_of(&first), "a new runId");
    assert!(second.get("resume").is_none());
    let messages = second["messages"].as_array().expect("messages");
    let at = messages
        .iter()
        .position(|m| {
            m["toolCalls"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|c| c["id"] == call.as_str()))
        })
        .expect("the call is in the history");
    let next = &messages[at + 1];
    assert_eq!(next["role"], "tool", "the tool message follows the call");
    assert_eq!(next["toolCallId"], call.as_str());
    assert_eq!(
        serde_json::from_str::<Value>(next["content"].as_str().unwrap_or("")).ok(),
        Some(json!({"approved": true}))
    );

    wait_until(&store, "the demo's confirmation", || {
        assistant_text(&root).contains("Payment confirmed")
    })
    .await;
    wait_idle(&store).await;
    let card = tool_card(&root, "confirm_payment").expect("payment card");
    assert_eq!(card_status(&card), "success");
    assert!(
        testid(&card, "frontend-tool-approve").is_none(),
        "answered: no more buttons"
    );
}

#[wasm_bindgen_test]
async fn confirm_payment_declined_says_nothing_was_charged() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let call = pay_until_awaiting(&store, &root).await;

    click_testid(&root, "frontend-tool-decline");
    settle(&store).await;
    let content = store.with_thread(|t| t.tool_result(&call).and_then(|m| m.content.clone()));
    let Some(Content::Text(text)) = content else {
        panic!("a text tool message, got {content:?}");
    };
    assert_eq!(
        serde_json::from_str::<Value>(&text).ok(),
        Some(json!({"approved": false, "reason": "declined by user"}))
    );
    wait_until(&store, "the demo's reply to the decline", || {
        assistant_text(&root).contains("nothing was charged")
    })
    .await;
    wait_idle(&store).await;
    assert!(!assistant_text(&root).contains("Payment confirmed"));
}

#[wasm_bindgen_test]
async fn a_new_message_closes_a_pending_call_as_cancelled_by_user() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let call = pay_until_awaiting(&store, &root).await;

    send_message(&root, "think about it");
    settle(&store).await;
    let body = request(&store);
    let messages = body["messages"].as_array().expect("messages");
    let tool = messages
        .iter()
        .find(|m| m["role"] == "tool" && m["toolCallId"] == call.as_str())
        .expect("the request answers the pending call");
    assert_eq!(tool["content"], "cancelled by user");
    assert_eq!(
        messages.last().map(|m| m["role"].clone()),
        Some(json!("user")),
        "the new message comes last"
    );
    wait_idle(&store).await;
    let card = tool_card(&root, "confirm_payment").expect("payment card");
    assert_ne!(card_status(&card), "awaiting-input");
    assert!(testid(&card, "frontend-tool-approve").is_none());
}

// ---- frontend tools: handlers and the status rule -------------------------------------------

#[wasm_bindgen_test]
async fn a_handler_runs_once_after_the_run_finishes_and_its_result_continues_the_run() {
    let store = fast_store();
    let tool = Tool {
        name: "get_time".to_owned(),
        description: "The browser's clock".to_owned(),
        parameters: Some(json!({"type": "object", "properties": {"zone": {"type": "string"}}})),
        metadata: None,
    };
    let container = fresh_container();
    // Handlers must be Send + Sync: what they saw goes to thread-locals the test reads.
    thread_local! {
        static COUNT: Cell<u32> = const { Cell::new(0) };
        static ARGS: RefCell<Value> = const { RefCell::new(Value::Null) };
    }
    let plugins = agui_leptos::demo::ui::plugins().merge(Plugins::new().frontend_handler(
        tool,
        |args| async move {
            COUNT.with(|c| c.set(c.get() + 1));
            ARGS.with(|a| *a.borrow_mut() = args);
            sleep(10).await;
            Ok(json!({"time": "12:00"}))
        },
    ));
    let _handle = leptos::mount::mount_to(container.clone(), move || {
        store.provide();
        plugins.clone().provide();
        view! { <Chat /> }
    });
    let root: Element = container.into();
    settle(&store).await;
    assert!(store
        .config()
        .get_untracked()
        .tools
        .iter()
        .any(|t| t.name == "get_time"));

    // The call streams and ends, but the run is still going: nothing runs yet.
    let thread = store.thread_id();
    store.begin_external();
    for ev in [
        json!({"type": "RUN_STARTED", "threadId": thread, "runId": "run-h"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "m1", "toolCallName": "mystery_tool"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "m1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "h1", "toolCallName": "get_time"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "h1", "delta": "{\"zone\":"}),
    ] {
        store.push_bytes(&sse(ev));
    }
    settle(&store).await;
    sleep(30).await;
    assert_eq!(COUNT.with(Cell::get), 0, "never on streaming arguments");
    store.push_bytes(&sse(
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "h1", "delta": "\"UTC\"}"}),
    ));
    store.push_bytes(&sse(json!({"type": "TOOL_CALL_END", "toolCallId": "h1"})));
    settle(&store).await;
    sleep(30).await;
    assert_eq!(COUNT.with(Cell::get), 0, "not before the run finished");
    store.push_bytes(&sse(json!({
        "type": "RUN_FINISHED", "threadId": thread, "runId": "run-h",
        "outcome": {"type": "success"}
    })));
    store.end_external(None);
    // pendingToolCallIds absent: derived.
    wait_until(&store, "the handler's result", || {
        store.with_thread(|t| t.tool_result("h1").is_some())
    })
    .await;
    assert_eq!(COUNT.with(Cell::get), 1);
    assert_eq!(ARGS.with(|a| a.borrow().clone()), json!({"zone": "UTC"}));
    let body = request(&store);
    let messages = body["messages"].as_array().expect("messages");
    let tool_msg = messages
        .iter()
        .find(|m| m["role"] == "tool" && m["toolCallId"] == "h1")
        .expect("the next run carries the result");
    assert_eq!(tool_msg["content"], r#"{"time":"12:00"}"#);
    // The call nobody in the browser answers is closed, so no call goes out without a result.
    let other = messages
        .iter()
        .find(|m| m["role"] == "tool" && m["toolCallId"] == "m1")
        .expect("the unanswerable call is closed");
    assert!(other["content"]
        .as_str()
        .is_some_and(|c| c.contains("not available")));
    wait_until(&store, "the follow-up", || {
        assistant_text(&root).contains("get_time")
    })
    .await;
    wait_idle(&store).await;
    assert_eq!(COUNT.with(Cell::get), 1, "ran exactly once");
}

#[wasm_bindgen_test]
async fn a_pending_call_to_an_unregistered_tool_is_not_awaiting_input() {
    // Regression: every pending call showed "awaiting-input", also for tools nobody answers.
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    recorded_run(
        &store,
        "run-u",
        vec![
            json!({"type": "TOOL_CALL_START", "toolCallId": "u1", "toolCallName": "mystery_tool"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "u1", "delta": "{\"a\":1}"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "u1"}),
        ],
        Some(json!({"type": "success", "pendingToolCallIds": ["u1"]})),
    )
    .await;
    let card = tool_card(&root, "mystery_tool").expect("the call's card");
    assert_ne!(card_status(&card), "awaiting-input");
    assert!(testid(&card, "frontend-tool-approve").is_none());
}

// ---- interrupts: forms ---------------------------------------------------------------------

/// A fast demo chat in which `text` was sent and the run paused on an interrupt card.
async fn open_interrupt(text: &str) -> (AgentStore, Element, impl Drop) {
    let store = fast_store();
    let (_container, root, handle) = mount_chat(store);
    settle(&store).await;
    send_message(&root, text);
    wait_until(&store, "the interrupt card", || {
        !interrupt_cards(&root).is_empty()
    })
    .await;
    wait_idle(&store).await;
    (store, root, handle)
}

#[wasm_bindgen_test]
async fn ask_me_form_locks_the_composer_then_resumes_with_the_answers() {
    let (store, root, _handle) = open_interrupt("ask me").await;
    let first = request(&store);

    let cards = interrupt_cards(&root);
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    let id = card.get_attribute("data-interrupt-id").unwrap_or_default();
    assert!(id.starts_with("int-ask-"), "{id}");
    assert_eq!(open_interrupt_ids(&store), vec![id.clone()]);
    assert!(text_of(card).contains("How many people are coming"));

    // The generated form.
    let travellers = q(card, r#"input[name="/travellers"]"#).expect("a travellers input");
    assert_eq!(travellers.get_attribute("type").as_deref(), Some("number"));
    assert!(travellers.has_attribute("required"));
    assert_eq!(travellers.get_attribute("min").as_deref(), Some("1"));
    let dietary = q(card, r#"select[name="/dietary"]"#).expect("a dietary select");
    let options: Vec<String> = q_all(&dietary, "option").iter().map(text_of).collect();
    assert!(options.iter().any(|o| o == "vegan"), "{options:?}");
    assert!(q(card, r#"input[name="/budgetPerPerson"][type="number"]"#).is_some());

    // The composer is locked, with a way out.
    assert!(composer(&root).disabled(), "composer input disabled");
    assert!(testid(&root, "composer-locked").is_some());
    assert!(testid(&root, "interrupt-cancel-all").is_some());
    store.send("hello".to_owned());
    settle(&store).await;
    assert_eq!(
        run_id_of(&request(&store)),
        run_id_of(&first),
        "send is refused"
    );

    // Required and minimum are enforced before anything is sent.
    click(&in_card(card, "interrupt-submit").expect("submit"));
    settle(&store).await;
    let errors: Vec<String> = q_all(card, r#"[data-testid="field-error"]"#)
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(errors, vec!["Required".to_owned()]);
    type_into(&travellers, "0");
    click(&in_card(card, "interrupt-submit").expect("submit"));
    settle(&store).await;
    let errors: Vec<String> = q_all(card, r#"[data-testid="field-error"]"#)
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(errors, vec!["Must be at least 1".to_owned()]);
    type_into(&travellers, "2.5");
    click(&in_card(card, "interrupt-submit").expect("submit"));
    settle(&store).await;
    assert!(text_of(card).contains("Must be a whole number"));
    assert_eq!(
        run_id_of(&request(&store)),
        run_id_of(&first),
        "nothing sent yet"
    );

    type_into(&travellers, "3");
    let vegan = q_all(&dietary, "option")
        .iter()
        .find(|o| text_of(o) == "vegan")
        .and_then(|o| o.get_attribute("value"))
        .expect("vegan option");
    select_value(&dietary, &vegan);
    click(&in_card(card, "interrupt-submit").expect("submit"));
    settle(&store).await;

    let resumed = request(&store);
    assert_ne!(run_id_of(&resumed), run_id_of(&first));
    assert_eq!(resumed["threadId"], first["threadId"], "same thread");
    assert_eq!(
        resume_of(&resumed),
        vec![(
            id.clone(),
            "resolved".to_owned(),
            Some(json!({"travellers": 3, "dietary": "vegan"}))
        )],
        "exactly one entry per open interrupt"
    );
    assert!(
        resumed["forwardedProps"].get("command").is_none(),
        "a standard interrupt is not also sent the legacy way"
    );

    wait_until(&store, "the acknowledgement", || {
        assistant_text(&root).contains("Planning for 3 people")
    })
    .await;
    wait_idle(&store).await;
    assert!(assistant_text(&root).contains("vegan"));
    assert!(interrupt_cards(&root).is_empty(), "no card left");
    assert!(!composer(&root).disabled(), "composer unlocked");
    assert!(testid(&root, "interrupt-cancel-all").is_none());
}

#[wasm_bindgen_test]
async fn focus_moves_to_the_first_interrupt_card() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    recorded_run(
        &store,
        "run-f",
        vec![],
        Some(json!({"type": "interrupt", "interrupts": [
            {"id": "f-1", "reason": "confirmation", "message": "First?"},
            {"id": "f-2", "reason": "confirmation", "message": "Second?"},
        ]})),
    )
    .await;
    wait_until(&store, "focus in the first card", || {
        document()
            .active_element()
            .and_then(|a| a.closest(r#"[data-testid="interrupt"]"#).ok().flatten())
            .and_then(|c| c.get_attribute("data-interrupt-id"))
            .as_deref()
            == Some("f-1")
    })
    .await;
    assert!(root.contains(
        document()
            .active_element()
            .as_ref()
            .map(|e| e.unchecked_ref())
    ));
}

// ---- interrupts: tool-call approval ----------------------------------------------------------

/// Send "approve" and wait for the booking approval; returns (card, interrupt id, call id).
async fn booking_interrupt(store: &AgentStore, root: &Element) -> (Element, String, String) {
    send_message(root, "please approve the booking");
    wait_until(store, "the approval card", || {
        !interrupt_cards(root).is_empty()
    })
    .await;
    wait_idle(store).await;
    let card = interrupt_cards(root).remove(0);
    let id = card.get_attribute("data-interrupt-id").unwrap_or_default();
    let call = call_id(store, "book_venue");
    (card, id, call)
}

#[wasm_bindgen_test]
async fn approving_a_tool_call_interrupt_books_the_venue() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let (card, id, call) = booking_interrupt(&store, &root).await;
    assert_eq!(id, format!("int-{call}"));
    assert_eq!(
        card.get_attribute("data-reason").as_deref(),
        Some("tool_call")
    );

    // The card names the gated call with its arguments; the call's own card shows them too,
    // and does not pretend to wait for input.
    let gated = in_card(&card, "interrupt-tool-call").expect("the gated call");
    assert!(text_of(&gated).contains("book_venue"));
    assert!(text_of(&gated).contains("Tasca do Miradouro"));
    let tool = tool_card(&root, "book_venue").expect("the call's card");
    assert_eq!(card_status(&tool), "awaiting-approval");
    let args = text_of(&testid(&tool, "tool-args").expect("args"));
    assert!(
        args.contains("Tasca do Miradouro") && args.contains("2026-05-14"),
        "{args}"
    );
    assert!(in_card(&card, "interrupt-approve").is_some());
    assert!(in_card(&card, "interrupt-reject").is_some());
    assert!(
        in_card(&card, "interrupt-edit-args").is_some(),
        "editedArgs allowed"
    );

    click(&in_card(&card, "interrupt-approve").expect("approve"));
    settle(&store).await;
    assert_eq!(
        resume_of(&request(&store)),
        vec![(id, "resolved".to_owned(), Some(json!({"approved": true})))]
    );
    wait_until(&store, "the booking", || {
        assistant_text(&root).contains("is booked for")
    })
    .await;
    wait_idle(&store).await;
    let tool = tool_card(&root, "book_venue").expect("the call's card");
    assert_eq!(card_status(&tool), "success");
    assert!(text_of(&tool).contains("booked"));
}

#[wasm_bindgen_test]
async fn rejecting_a_tool_call_interrupt_declines_it() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let (card, id, _call) = booking_interrupt(&store, &root).await;
    let reason = in_card(&card, "interrupt-reason-input").expect("a reason field");
    type_into(&reason, "too pricey");
    click(&in_card(&card, "interrupt-reject").expect("reject"));
    settle(&store).await;
    assert_eq!(
        resume_of(&request(&store)),
        vec![(
            id,
            "resolved".to_owned(),
            Some(json!({"approved": false, "reason": "too pricey"}))
        )]
    );
    wait_until(&store, "the decline", || {
        assistant_text(&root).contains("didn't book")
    })
    .await;
    wait_idle(&store).await;
    assert!(assistant_text(&root).contains("too pricey"));
    assert_eq!(
        tool_card(&root, "book_venue")
            .map(|c| card_status(&c))
            .as_deref(),
        Some("success"),
        "the call got its (declined) result"
    );
}

#[wasm_bindgen_test]
async fn approving_with_edited_arguments_sends_a_full_replacement() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let (card, id, _call) = booking_interrupt(&store, &root).await;
    click(&in_card(&card, "interrupt-edit-args").expect("edit arguments"));
    settle(&store).await;
    let editor = in_card(&card, "interrupt-edited-args").expect("the editor");
    let prefilled = editor
        .dyn_ref::<HtmlTextAreaElement>()
        .map(|t| t.value())
        .unwrap_or_default();
    let original: Value = serde_json::from_str(&prefilled).expect("prefilled with JSON");
    assert_eq!(original["venue"], "Tasca do Miradouro");

    type_into(&editor, "[1, 2");
    click(&in_card(&card, "interrupt-approve").expect("approve"));
    settle(&store).await;
    assert!(text_of(&card).contains("not valid JSON"));
    assert!(request(&store).get("resume").is_none(), "nothing sent");

    let edited = json!({"venue": "Tasca do Miradouro", "date": "2026-05-21", "people": 4});
    type_into(&editor, &edited.to_string());
    click(&in_card(&card, "interrupt-approve").expect("approve"));
    settle(&store).await;
    assert_eq!(
        resume_of(&request(&store)),
        vec![(
            id,
            "resolved".to_owned(),
            Some(json!({"approved": true, "editedArgs": edited}))
        )]
    );
    wait_until(&store, "the edited booking", || {
        assistant_text(&root).contains("booked for 4 people on 2026-05-21")
    })
    .await;
    wait_idle(&store).await;
}

// ---- interrupts: several, cancel, expiry ------------------------------------------------------

fn two_interrupts() -> Value {
    json!({"type": "interrupt", "interrupts": [
        {
            "id": "multi-1",
            "reason": "input_required",
            "message": "Your name?",
            "responseSchema": {
                "type": "object",
                "properties": {"name": {"type": "string", "title": "Name"}},
                "required": ["name"]
            }
        },
        {"id": "multi-2", "reason": "confirmation", "message": "Proceed?"},
    ]})
}

#[wasm_bindgen_test]
async fn several_interrupts_are_answered_one_by_one_and_sent_together() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    recorded_run(&store, "run-m", vec![], Some(two_interrupts())).await;
    let cards = interrupt_cards(&root);
    assert_eq!(cards.len(), 2);
    let send_all = testid(&root, "interrupt-send-all").expect("Send answers");
    assert!(is_disabled(&send_all));

    // Answer the first: recorded, not sent.
    let name = q(&cards[0], r#"input[name="/name"]"#).expect("name input");
    type_into(&name, "Ada");
    click(&in_card(&cards[0], "interrupt-submit").expect("submit"));
    settle(&store).await;
    assert!(
        store.last_request().is_none(),
        "one answer of two is not sent"
    );
    assert_eq!(
        cards[0].get_attribute("data-state").as_deref(),
        Some("answered")
    );
    assert!(text_of(&testid(&root, "interrupt-progress").expect("progress")).contains("1 of 2"));
    assert!(is_disabled(&send_all));
    // An incomplete resume cannot be sent.
    assert_eq!(
        store.send_answers(),
        Err(HitlError::Resume(
            agui_leptos::protocol::resume::ResumeError::Missing("multi-2".to_owned())
        ))
    );
    assert!(store.last_request().is_none());

    // Change it before sending.
    click(&in_card(&cards[0], "interrupt-change").expect("change"));
    settle(&store).await;
    assert_eq!(
        cards[0].get_attribute("data-state").as_deref(),
        Some("open")
    );
    type_into(&name, "Grace");
    click(&in_card(&cards[0], "interrupt-submit").expect("submit"));
    click(&in_card(&cards[1], "interrupt-approve").expect("approve"));
    settle(&store).await;
    assert!(store.last_request().is_none(), "waits for Send answers");
    assert!(!is_disabled(&send_all));
    click(&send_all);
    settle(&store).await;

    let resume = resume_of(&request(&store));
    assert_eq!(
        resume,
        vec![
            (
                "multi-1".to_owned(),
                "resolved".to_owned(),
                Some(json!({"name": "Grace"}))
            ),
            (
                "multi-2".to_owned(),
                "resolved".to_owned(),
                Some(json!({"approved": true}))
            ),
        ],
        "the resume covers every interrupt id, in order"
    );
    wait_idle(&store).await;
    assert!(interrupt_cards(&root).is_empty());
}

#[wasm_bindgen_test]
async fn cancel_all_cancels_every_interrupt() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    recorded_run(&store, "run-c", vec![], Some(two_interrupts())).await;
    let cards = interrupt_cards(&root);
    // An answer recorded so far is overridden: Cancel all abandons everything.
    click(&in_card(&cards[1], "interrupt-approve").expect("approve"));
    settle(&store).await;
    click_testid(&root, "interrupt-cancel-all");
    settle(&store).await;
    let body = request(&store);
    assert_eq!(
        resume_of(&body),
        vec![
            ("multi-1".to_owned(), "cancelled".to_owned(), None),
            ("multi-2".to_owned(), "cancelled".to_owned(), None),
        ]
    );
    wait_idle(&store).await;
    assert!(interrupt_cards(&root).is_empty());
    assert!(!composer(&root).disabled());
}

#[wasm_bindgen_test]
async fn cancel_all_on_ask_me_keeps_the_numbers() {
    let (store, root, _handle) = open_interrupt("ask me").await;
    let ids = open_interrupt_ids(&store);
    click_testid(&root, "interrupt-cancel-all");
    settle(&store).await;
    let resume = resume_of(&request(&store));
    assert_eq!(resume.len(), ids.len());
    assert!(resume.iter().all(|(id, status, payload)| ids.contains(id)
        && status == "cancelled"
        && payload.is_none()));
    wait_until(&store, "the reply", || {
        assistant_text(&root).contains("keep the current numbers")
    })
    .await;
}

#[wasm_bindgen_test]
async fn an_expired_interrupt_can_only_be_cancelled() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    recorded_run(
        &store,
        "run-x",
        vec![],
        Some(json!({"type": "interrupt", "interrupts": [{
            "id": "late-1",
            "reason": "tool_call",
            "message": "Approve the transfer?",
            "expiresAt": "2020-01-01T00:00:00Z",
            "responseSchema": {
                "type": "object",
                "properties": {"approved": {"type": "boolean"}},
                "required": ["approved"]
            }
        }]})),
    )
    .await;
    let card = interrupt_cards(&root).remove(0);
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("expired"));
    assert!(in_card(&card, "interrupt-expired").is_some());
    assert!(text_of(&in_card(&card, "interrupt-expiry").expect("expiry")).contains("Expired"));
    for id in ["interrupt-approve", "interrupt-reject", "interrupt-submit"] {
        assert!(
            in_card(&card, id).is_none_or(|b| is_disabled(&b)),
            "{id} is absent or disabled"
        );
    }
    // Also refused by the store.
    assert!(matches!(
        store.answer_interrupt("late-1", json!({"approved": true})),
        Err(HitlError::Resume(
            agui_leptos::protocol::resume::ResumeError::Expired(_)
        ))
    ));
    assert!(store.last_request().is_none());

    click(&in_card(&card, "interrupt-cancel").expect("cancel"));
    settle(&store).await;
    assert_eq!(
        resume_of(&request(&store)),
        vec![("late-1".to_owned(), "cancelled".to_owned(), None)]
    );
    wait_idle(&store).await;
}

#[wasm_bindgen_test]
async fn an_interrupt_that_expires_later_shows_a_countdown() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let later = js_sys::Date::new(&(now() + 3_600_000.0).into())
        .to_iso_string()
        .as_string()
        .unwrap_or_default();
    recorded_run(
        &store,
        "run-t",
        vec![],
        Some(json!({"type": "interrupt", "interrupts": [{
            "id": "soon-1", "reason": "confirmation", "expiresAt": later
        }]})),
    )
    .await;
    let card = interrupt_cards(&root).remove(0);
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("open"));
    let expiry = text_of(&in_card(&card, "interrupt-expiry").expect("countdown"));
    assert!(expiry.starts_with("Expires in "), "{expiry}");
    assert!(in_card(&card, "interrupt-approve").is_some_and(|b| !is_disabled(&b)));
}

// ---- interrupts: legacy and LangChain HITL -----------------------------------------------------

#[wasm_bindgen_test]
async fn a_legacy_on_interrupt_question_is_answered_with_an_option() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    send_message(&root, "legacy interrupt");
    wait_until(&store, "the legacy card", || {
        !interrupt_cards(&root).is_empty()
    })
    .await;
    wait_idle(&store).await;
    let card = interrupt_cards(&root).remove(0);
    let id = card.get_attribute("data-interrupt-id").unwrap_or_default();
    assert!(id.contains(":on_interrupt:"), "{id}");
    assert_eq!(
        text_of(&in_card(&card, "interrupt-message").expect("the question")),
        "Pick a date"
    );
    let options: Vec<String> = q_all(&card, r#"[data-testid="interrupt-option"]"#)
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(options, vec!["May 12".to_owned(), "May 19".to_owned()]);

    let may19 = q(
        &card,
        r#"[data-testid="interrupt-option"][data-option="May 19"]"#,
    )
    .expect("May 19");
    click(&may19);
    settle(&store).await;
    let body = request(&store);
    assert_eq!(
        resume_of(&body),
        vec![(id, "resolved".to_owned(), Some(json!("May 19")))]
    );
    assert_eq!(
        body["forwardedProps"]["command"]["resume"],
        json!("May 19"),
        "legacy interrupts are also answered through forwardedProps.command.resume"
    );
    wait_until(&store, "the reply", || {
        assistant_text(&root).contains("May 19 it is")
    })
    .await;
    wait_idle(&store).await;
}

#[wasm_bindgen_test]
async fn a_plain_text_legacy_question_takes_a_free_text_answer() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    recorded_run(
        &store,
        "run-p",
        vec![json!({"type": "CUSTOM", "name": "on_interrupt", "value": "Which <i>city</i>?"})],
        None,
    )
    .await;
    let card = interrupt_cards(&root).remove(0);
    assert_eq!(
        text_of(&in_card(&card, "interrupt-message").expect("the question")),
        "Which <i>city</i>?"
    );
    assert!(q(&card, "i").is_none(), "the question is text, not markup");
    let answer = in_card(&card, "interrupt-text").expect("a text answer");
    click(&in_card(&card, "interrupt-submit").expect("submit"));
    settle(&store).await;
    assert!(
        store.last_request().is_none(),
        "an empty answer is not sent"
    );
    type_into(&answer, "Porto");
    click(&in_card(&card, "interrupt-submit").expect("submit"));
    settle(&store).await;
    let body = request(&store);
    let resume = resume_of(&body);
    assert_eq!(resume.len(), 1);
    assert_eq!(resume[0].2, Some(json!("Porto")));
    assert_eq!(body["forwardedProps"]["command"]["resume"], json!("Porto"));
    wait_until(&store, "the reply", || {
        assistant_text(&root).contains("Porto")
    })
    .await;
    wait_idle(&store).await;
}

#[wasm_bindgen_test]
async fn a_langchain_hitl_interrupt_collects_one_decision_per_action() {
    let store = fast_store();
    let (_container, root, _handle) = mount_chat(store);
    settle(&store).await;
    let value = json!({
        "action_requests": [
            {"name": "send_email", "args": {"to": "ada@example.com", "subject": "Hi"},
             "description": "Send an email <b>now</b>"},
            {"name": "delete_file", "args": {"path": "/tmp/x"}}
        ],
        "review_configs": [
            {"action_name": "send_email", "allowed_decisions": ["approve", "edit", "reject"]},
            {"action_name": "delete_file", "allowed_decisions": ["approve", "reject"]}
        ]
    });
    // The model's calls under review stream first (no toolCallId links them to the interrupt).
    recorded_run(
        &store,
        "run-l",
        vec![
            json!({"type": "TOOL_CALL_START", "toolCallId": "l1", "toolCallName": "send_email"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "l1",
                   "delta": "{\"to\":\"ada@example.com\",\"subject\":\"Hi\"}"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "l1"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "l2", "toolCallName": "delete_file"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "l2", "delta": "{\"path\":\"/tmp/x\"}"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "l2"}),
            json!({"type": "CUSTOM", "name": "on_interrupt", "value": value.to_string()}),
        ],
        None,
    )
    .await;
    for name in ["send_email", "delete_file"] {
        let card = tool_card(&root, name).expect("the reviewed call's card");
        assert_eq!(card_status(&card), "awaiting-approval", "{name}");
    }
    let card = interrupt_cards(&root).remove(0);
    let actions = q_all(&card, r#"[data-testid="hitl-action"]"#);
    assert_eq!(actions.len(), 2);
    assert_eq!(
        actions[0].get_attribute("data-action-name").as_deref(),
        Some("send_email")
    );
    assert!(testid(&actions[0], "hitl-edit").is_some());
    assert!(
        testid(&actions[1], "hitl-edit").is_none(),
        "edit not allowed for delete_file"
    );
    assert!(
        text_of(&actions[0]).contains("Send an email <b>now</b>"),
        "markup stays text"
    );
    assert!(q(&actions[0], "b").is_none());

    click(&in_card(&card, "interrupt-submit").expect("submit"));
    settle(&store).await;
    assert!(text_of(&card).contains("Choose a decision"));
    assert!(store.last_request().is_none());

    click(&testid(&actions[0], "hitl-edit").expect("edit"));
    settle(&store).await;
    let editor = testid(&actions[0], "hitl-edit-args").expect("the args editor");
    let edited = json!({"to": "grace@example.com", "subject": "Hello"});
    type_into(&editor, &edited.to_string());
    click(&testid(&actions[1], "hitl-reject").expect("reject"));
    settle(&store).await;
    type_into(
        &testid(&actions[1], "hitl-reject-message").expect("message"),
        "keep it",
    );
    click(&in_card(&card, "interrupt-submit").expect("submit"));
    settle(&store).await;

    // Regression: the reviewed calls (not frontend tools) blocked the resume.
    let body = request(&store);
    let expected = json!({"decisions": [
        {"type": "edit", "edited_action": {"name": "send_email", "args": edited}},
        {"type": "reject", "message": "keep it"}
    ]});
    let resume = resume_of(&body);
    assert_eq!(resume.len(), 1);
    assert_eq!(resume[0].1, "resolved");
    assert_eq!(resume[0].2, Some(expected.clone()));
    assert_eq!(body["forwardedProps"]["command"]["resume"], expected);
    wait_idle(&store).await;
}
