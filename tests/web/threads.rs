//! Browser tests of threads and branches (headless Chromium, the demo agent at high speed) —
//! the thread list, the inline editor and the version switcher on screen, over real
//! `localStorage`; the rules themselves are tested natively (tests/session/session.rs):
//! each conversation keeps its own messages and state, everything survives a reload (open
//! interrupts included), rename and delete persist, regenerate and edit make versions that a
//! switcher flips between, and broken or full storage is a warning, never a dead app.
//!
//! Every test saves under its own storage prefix and clears it afterwards. A "reload" is what
//! the app does at start: a new store from storage ([`AgentStore::restore`]) on a fresh mount.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_threads`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::GetUntracked;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlInputElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- helpers ------------------------------------------------------------------------------

fn storage() -> web_sys::Storage {
    web_sys::window()
        .expect("window")
        .local_storage()
        .expect("localStorage access")
        .expect("localStorage")
}

/// A prefix no other test (or earlier run) uses.
fn unique_prefix(name: &str) -> String {
    let r = (js_sys::Math::random() * 1e9) as u64;
    format!("agui-test:{name}:{r:x}")
}

/// Every key under `prefix`.
fn keys_under(prefix: &str) -> Vec<String> {
    let s = storage();
    let n = s.length().unwrap_or(0);
    (0..n)
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| k.starts_with(&format!("{prefix}:")))
        .collect()
}

fn clear_prefix(prefix: &str) {
    let s = storage();
    for k in keys_under(prefix) {
        s.remove_item(&k).expect("remove key");
    }
}

fn config() -> AgentConfig {
    AgentConfig {
        demo_speed: 20.0,
        ..AgentConfig::default()
    }
}

/// Wait until the run is over with `want` as its status (panics on another end state).
async fn wait_for(store: &AgentStore, root: &Element, want: &str) {
    let deadline = js_sys::Date::now() + 30_000.0;
    loop {
        settle(store).await;
        let status = run_status(root);
        if !store.running().get_untracked() && status == want {
            return;
        }
        // Until RUN_STARTED arrives the line still shows how the previous run ended.
        assert!(
            store.running().get_untracked()
                || matches!(
                    status.as_str(),
                    "running" | "idle" | "success" | "interrupted"
                ),
            "unexpected run status {status:?} waiting for {want:?}"
        );
        assert!(
            js_sys::Date::now() < deadline,
            "the run did not reach {want:?} in time (status {status:?})"
        );
        sleep(20).await;
    }
}

/// Send `text` through the composer and wait for the run to end with `want`.
async fn send_and_wait(store: &AgentStore, root: &Element, text: &str, want: &str) {
    let input: HtmlTextAreaElement = testid(root, "composer-input")
        .expect("composer")
        .dyn_into()
        .expect("a textarea");
    input.set_value(text);
    input
        .dispatch_event(&web_sys::Event::new("input").expect("input event"))
        .expect("dispatch input");
    settle(store).await;
    click_testid(root, "composer-send");
    settle(store).await;
    assert!(
        store.running().get_untracked(),
        "the run started for {text:?}"
    );
    wait_for(store, root, want).await;
}

/// (message id, role) of every row on screen.
fn rows(root: &Element) -> Vec<(String, String)> {
    q_all(root, r#"[data-testid="message"]"#)
        .iter()
        .map(|m| {
            (
                m.get_attribute("data-message-id").unwrap_or_default(),
                m.get_attribute("data-role").unwrap_or_default(),
            )
        })
        .collect()
}

fn user_texts(root: &Element) -> Vec<String> {
    q_all(
        root,
        r#"[data-testid="message"][data-role="user"] [data-testid="message-text"]"#,
    )
    .iter()
    .map(text_of)
    .collect()
}

fn thread_item(root: &Element, id: &str) -> Option<Element> {
    q(
        root,
        &format!(r#"[data-testid="thread-item"][data-thread-id="{id}"]"#),
    )
}

fn thread_ids(root: &Element) -> Vec<String> {
    q_all(root, r#"[data-testid="thread-item"]"#)
        .iter()
        .filter_map(|e| e.get_attribute("data-thread-id"))
        .collect()
}

fn open_thread(root: &Element, id: &str) {
    let item = thread_item(root, id).unwrap_or_else(|| panic!("thread {id} is listed"));
    click(&q(&item, r#"[data-testid="thread-open"]"#).expect("open button"));
}

fn state(store: &AgentStore, pointer: &str) -> Option<Value> {
    store.with_state(pointer, |v| v.cloned())
}

fn warnings_text(store: &AgentStore) -> String {
    store
        .warnings()
        .get_untracked()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn branch_position(root: &Element) -> String {
    testid(root, "branch-position")
        .map(|e| text_of(&e))
        .unwrap_or_default()
}

/// The assistant answers on screen: (id, text). Only the answer text: tool timings are
/// measured live and not saved, so a reloaded card shows no duration.
fn answers(root: &Element) -> Vec<(String, String)> {
    q_all(root, r#"[data-testid="message"][data-role="assistant"]"#)
        .iter()
        .map(|m| {
            (
                m.get_attribute("data-message-id").unwrap_or_default(),
                q_all(m, r#"[data-testid="message-text"]"#)
                    .iter()
                    .map(text_of)
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })
        .collect()
}

// ---- (a) switching keeps each thread's own messages and state ------------------------------

#[wasm_bindgen_test]
async fn switching_threads_keeps_each_threads_messages_and_state() {
    let prefix = unique_prefix("switch");
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert!(testid(&root, "thread-list").is_some());

    // Thread A: the planner.
    send_and_wait(&store, &root, "plan our Lisbon offsite", "success").await;
    let a = store.thread_id();
    let a_rows = rows(&root);
    assert!(a_rows.len() >= 3, "{a_rows:?}");
    assert_eq!(state(&store, "/destination"), Some(json!("Lisbon")));
    let a_state = store.with_thread(|t| t.state.clone());
    let a_venues = state(&store, "/venues").expect("venues in the trip");
    assert!(testid(&root, "trip-panel").is_some(), "A shows its trip");

    // Thread B: a tool call, no trip.
    click_testid(&root, "thread-new");
    settle(&store).await;
    let b = store.thread_id();
    assert_ne!(a, b, "a new conversation has a new threadId");
    assert!(rows(&root).is_empty(), "B starts empty");
    assert!(testid(&root, "empty-state").is_some());
    assert_eq!(
        state(&store, "/destination"),
        None,
        "B has none of A's state"
    );
    send_and_wait(&store, &root, "use a tool", "success").await;
    let b_rows = rows(&root);
    let b_state = store.with_thread(|t| t.state.clone());
    assert_eq!(
        store
            .last_request()
            .and_then(|r| r.get("threadId").cloned()),
        Some(json!(b)),
        "B's runs carry B's threadId"
    );

    // Both listed, newest first, B highlighted.
    assert_eq!(thread_ids(&root), vec![b.clone(), a.clone()]);
    let b_item = thread_item(&root, &b).expect("B listed");
    assert_eq!(b_item.get_attribute("data-active").as_deref(), Some("true"));
    assert!(
        text_of(&b_item).contains("use a tool"),
        "title = first message"
    );

    // Back to A.
    open_thread(&root, &a);
    settle(&store).await;
    assert_eq!(store.thread_id(), a);
    assert_eq!(rows(&root), a_rows, "A's messages are back, in order");
    assert_eq!(store.with_thread(|t| t.state.clone()), a_state);
    assert_eq!(state(&store, "/venues"), Some(a_venues));
    assert!(
        !user_texts(&root).iter().any(|t| t.contains("use a tool")),
        "B's messages are not shown"
    );
    assert_eq!(
        thread_item(&root, &a)
            .and_then(|e| e.get_attribute("data-active"))
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        thread_item(&root, &b)
            .and_then(|e| e.get_attribute("data-active"))
            .as_deref(),
        Some("false")
    );
    let trip = testid(&root, "trip-destination").expect("A's trip panel");
    assert!(text_of(&trip).contains("Lisbon"), "{}", text_of(&trip));
    assert_eq!(
        run_status(&root),
        "success",
        "A's last run status comes back"
    );

    // The next run on A continues A: same threadId, A's history and state.
    // Switching is refused while it is in flight.
    store.send("think".to_owned());
    settle(&store).await;
    assert!(store.running().get_untracked());
    let body = store.last_request().expect("request sent");
    assert_eq!(body["threadId"], json!(a));
    assert_eq!(body["state"], a_state, "A's last agreed state goes out");
    let sent_ids: Vec<&str> = body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    for (id, role) in &a_rows {
        if role != "activity" {
            assert!(sent_ids.contains(&id.as_str()), "history carries {id}");
        }
    }
    open_thread(&root, &b);
    settle(&store).await;
    assert_eq!(store.thread_id(), a, "no switch while running");
    let err = testid(&root, "thread-error").expect("the refusal is shown");
    assert!(text_of(&err).contains("stop it first"), "{}", text_of(&err));
    wait_for(&store, &root, "success").await;

    // And B again: its own rows and state.
    open_thread(&root, &b);
    settle(&store).await;
    assert_eq!(rows(&root), b_rows);
    assert_eq!(store.with_thread(|t| t.state.clone()), b_state);

    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

// ---- (b) reload with an open interrupt -----------------------------------------------------

#[wasm_bindgen_test]
async fn an_open_interrupt_survives_a_reload_and_can_be_answered() {
    let prefix = unique_prefix("reload");
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    send_and_wait(&store, &root, "ask me", "interrupted").await;
    let thread_id = store.thread_id();
    let before_rows = rows(&root);
    let interrupts = store.run_view().get_untracked().interrupts;
    assert_eq!(interrupts.len(), 1);
    drop(handle);
    container.remove();

    // The reload: a new store from storage, a fresh mount.
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    assert_eq!(
        store.thread_id(),
        thread_id,
        "the open conversation is reopened"
    );
    assert_eq!(rows(&root), before_rows);
    assert_eq!(run_status(&root), "interrupted");
    assert_eq!(store.run_view().get_untracked().interrupts, interrupts);
    let card = testid(&root, "interrupt").expect("the interrupt card is back");
    assert!(
        text_of(&card).contains("How many people"),
        "{}",
        text_of(&card)
    );
    assert!(
        testid(&root, "regenerate").is_none() && testid(&root, "edit-message").is_none(),
        "no branching while an interrupt is open"
    );

    // Answerable: the resume goes out on the same thread and the run completes.
    store
        .answer_interrupt(&interrupts[0].id, json!({"travellers": 6}))
        .expect("answer accepted");
    settle(&store).await;
    let body = store.last_request().expect("resume sent");
    assert_eq!(body["threadId"], json!(thread_id));
    assert_eq!(body["resume"][0]["interruptId"], json!(interrupts[0].id));
    assert_eq!(body["resume"][0]["status"], json!("resolved"));
    wait_for(&store, &root, "success").await;
    assert_eq!(state(&store, "/travellers"), Some(json!(6)));
    assert!(
        testid(&root, "interrupt").is_none(),
        "the card is gone once answered"
    );

    drop(handle);
    container.remove();

    // Reloaded again: the interrupt stays closed.
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert_eq!(run_status(&root), "success");
    assert!(store.run_view().get_untracked().interrupts.is_empty());
    assert_eq!(state(&store, "/travellers"), Some(json!(6)));

    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

// ---- (c) rename and delete persist ---------------------------------------------------------

#[wasm_bindgen_test]
async fn rename_and_delete_persist_across_a_reload() {
    let prefix = unique_prefix("rename");
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    send_and_wait(&store, &root, "use a tool", "success").await;
    let first = store.thread_id();
    click_testid(&root, "thread-new");
    settle(&store).await;
    send_and_wait(&store, &root, "think", "success").await;
    let second = store.thread_id();
    click_testid(&root, "thread-new");
    settle(&store).await;
    send_and_wait(&store, &root, "markdown", "success").await;
    let third = store.thread_id();
    assert_eq!(
        thread_ids(&root),
        vec![third.clone(), second.clone(), first.clone()]
    );

    // Rename the first (not the open one) inline.
    let item = thread_item(&root, &first).expect("first listed");
    click(&q(&item, r#"[data-testid="thread-rename"]"#).expect("rename button"));
    settle(&store).await;
    let item = thread_item(&root, &first).expect("first listed");
    let input: HtmlInputElement = q(&item, r#"[data-testid="thread-rename-input"]"#)
        .expect("inline rename field")
        .dyn_into()
        .expect("an input");
    assert_eq!(
        input.value(),
        "use a tool",
        "the field starts with the title"
    );
    input.set_value("  Weather   check ");
    click(&q(&item, r#"[data-testid="thread-rename-save"]"#).expect("save"));
    settle(&store).await;
    let item = thread_item(&root, &first).expect("first listed");
    assert_eq!(
        text_of(&q(&item, r#"[data-testid="thread-title"]"#).expect("title")),
        "Weather check"
    );
    assert_eq!(store.thread_id(), third, "renaming does not switch");

    // Delete the second: a confirm step first; cancelling keeps it.
    let item = thread_item(&root, &second).expect("second listed");
    click(&q(&item, r#"[data-testid="thread-delete"]"#).expect("delete button"));
    settle(&store).await;
    assert!(
        thread_item(&root, &second).is_some(),
        "not deleted before confirming"
    );
    click_testid(&root, "thread-delete-cancel");
    settle(&store).await;
    assert!(thread_item(&root, &second).is_some());
    let item = thread_item(&root, &second).expect("second listed");
    click(&q(&item, r#"[data-testid="thread-delete"]"#).expect("delete button"));
    settle(&store).await;
    click_testid(&root, "thread-delete-confirm");
    settle(&store).await;
    assert!(thread_item(&root, &second).is_none(), "deleted");
    assert!(
        !keys_under(&prefix)
            .iter()
            .any(|k| k.ends_with(&format!(":thread:{second}"))),
        "its key is gone: {:?}",
        keys_under(&prefix)
    );

    // Open the renamed one (older than the third: the reload must follow what was open, not
    // the newest).
    open_thread(&root, &first);
    settle(&store).await;
    assert_eq!(store.thread_id(), first);

    // Reload: the name stays, the deleted one stays deleted, the open one is reopened.
    drop(handle);
    container.remove();
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert_eq!(thread_ids(&root), vec![third.clone(), first.clone()]);
    let item = thread_item(&root, &first).expect("first listed");
    assert_eq!(
        text_of(&q(&item, r#"[data-testid="thread-title"]"#).expect("title")),
        "Weather check"
    );
    assert_eq!(store.thread_id(), first, "the conversation that was open");
    assert_eq!(user_texts(&root), vec!["use a tool".to_owned()]);
    assert_eq!(
        thread_item(&root, &first)
            .and_then(|e| e.get_attribute("data-active"))
            .as_deref(),
        Some("true")
    );

    // Deleting the open conversation opens the other one.
    let item = thread_item(&root, &first).expect("first listed");
    click(&q(&item, r#"[data-testid="thread-delete"]"#).expect("delete button"));
    settle(&store).await;
    click_testid(&root, "thread-delete-confirm");
    settle(&store).await;
    assert_eq!(store.thread_id(), third);
    assert!(user_texts(&root).iter().any(|t| t == "markdown"));
    assert_eq!(thread_ids(&root), vec![third.clone()]);

    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

// ---- (d) regenerate ------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn regenerate_keeps_the_first_answer_as_a_version() {
    let prefix = unique_prefix("regen");
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    send_and_wait(&store, &root, "plan our Lisbon offsite", "success").await;
    let first_rows = rows(&root);
    let first_answers = answers(&root);
    let first_state = store.with_thread(|t| t.state.clone());
    let user_id = first_rows
        .iter()
        .find(|(_, r)| r == "user")
        .map(|(id, _)| id.clone())
        .expect("user row");
    assert!(
        testid(&root, "branch-switcher").is_none(),
        "no versions yet"
    );
    let first_run = store.last_request().expect("first request")["runId"].clone();

    // Only the last answer offers Regenerate.
    let buttons = q_all(&root, r#"[data-testid="regenerate"]"#);
    assert_eq!(buttons.len(), 1);
    let last_answer = q_all(&root, r#"[data-testid="message"][data-role="assistant"]"#)
        .pop()
        .expect("an answer");
    assert!(q(&last_answer, r#"[data-testid="regenerate"]"#).is_some());

    click_testid(&root, "regenerate");
    settle(&store).await;
    assert!(store.running().get_untracked(), "a new run started");
    let body = store.last_request().expect("regenerate request");
    assert_ne!(body["runId"], first_run, "a new runId");
    let sent = body["messages"].as_array().expect("messages");
    assert_eq!(
        sent.len(),
        1,
        "history up to the user message only: {sent:?}"
    );
    assert_eq!(sent[0]["id"], json!(user_id), "the same user message id");
    assert_eq!(
        body["state"],
        json!({}),
        "the state the first run started from"
    );
    wait_for(&store, &root, "success").await;

    let second_answers = answers(&root);
    assert!(!second_answers.is_empty());
    assert!(
        second_answers
            .iter()
            .all(|(id, _)| !first_answers.iter().any(|(f, _)| f == id)),
        "a second, different answer"
    );
    assert_eq!(branch_position(&root), "2/2");
    assert_eq!(
        user_texts(&root),
        vec!["plan our Lisbon offsite".to_owned()],
        "one question, two answers"
    );

    click_testid(&root, "branch-prev");
    settle(&store).await;
    assert_eq!(branch_position(&root), "1/2");
    assert_eq!(rows(&root), first_rows, "the first answer again, exactly");
    assert_eq!(answers(&root), first_answers);
    assert_eq!(store.with_thread(|t| t.state.clone()), first_state);
    assert_eq!(run_status(&root), "success");

    click_testid(&root, "branch-next");
    settle(&store).await;
    assert_eq!(branch_position(&root), "2/2");
    assert_eq!(answers(&root), second_answers);

    // The versions are saved with the thread.
    drop(handle);
    container.remove();
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert_eq!(branch_position(&root), "2/2");
    assert_eq!(answers(&root), second_answers);
    click_testid(&root, "branch-prev");
    settle(&store).await;
    assert_eq!(rows(&root), first_rows);
    assert_eq!(store.with_thread(|t| t.state.clone()), first_state);

    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

// ---- (e) edit ------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn editing_a_message_starts_a_new_branch_with_a_new_id() {
    let prefix = unique_prefix("edit");
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;

    send_and_wait(&store, &root, "use a tool", "success").await;
    send_and_wait(&store, &root, "think", "success").await;
    let original_rows = rows(&root);
    let original_user = original_rows
        .iter()
        .find(|(_, r)| r == "user")
        .map(|(id, _)| id.clone())
        .expect("first user message");

    // Edit the first user message inline.
    let first_user = q(
        &root,
        &format!(r#"[data-testid="message"][data-message-id="{original_user}"]"#),
    )
    .expect("first user row");
    click(&q(&first_user, r#"[data-testid="edit-message"]"#).expect("edit button"));
    settle(&store).await;
    let input: HtmlTextAreaElement = testid(&root, "edit-input")
        .expect("inline editor")
        .dyn_into()
        .expect("a textarea");
    assert_eq!(
        input.value(),
        "use a tool",
        "the editor starts with the text"
    );
    // Cancel leaves everything as it was.
    click_testid(&root, "edit-cancel");
    settle(&store).await;
    assert!(testid(&root, "edit-input").is_none());
    assert_eq!(rows(&root), original_rows);

    let first_user = q(
        &root,
        &format!(r#"[data-testid="message"][data-message-id="{original_user}"]"#),
    )
    .expect("first user row");
    click(&q(&first_user, r#"[data-testid="edit-message"]"#).expect("edit button"));
    settle(&store).await;
    let input: HtmlTextAreaElement = testid(&root, "edit-input")
        .expect("inline editor")
        .dyn_into()
        .expect("a textarea");
    input.set_value("plan our Lisbon offsite");
    click_testid(&root, "edit-save");
    settle(&store).await;
    assert!(store.running().get_untracked(), "the edit starts a run");

    let body = store.last_request().expect("edit request");
    let sent = body["messages"].as_array().expect("messages");
    assert_eq!(sent.len(), 1, "only the edited message: {sent:?}");
    let new_id = sent[0]["id"].as_str().expect("id").to_owned();
    assert_ne!(new_id, original_user, "the edited message has a new id");
    assert_eq!(sent[0]["content"], json!("plan our Lisbon offsite"));
    wait_for(&store, &root, "success").await;

    assert_eq!(
        user_texts(&root),
        vec!["plan our Lisbon offsite".to_owned()],
        "the old tail is out of sight"
    );
    let edited = q(
        &root,
        &format!(r#"[data-testid="message"][data-message-id="{new_id}"]"#),
    )
    .expect("the edited message is shown with its new id");
    let switcher = q(&edited, r#"[data-testid="branch-switcher"]"#)
        .expect("the switcher sits on the edited message");
    assert_eq!(
        text_of(&q(&switcher, r#"[data-testid="branch-position"]"#).expect("position")),
        "2/2"
    );
    assert_eq!(state(&store, "/destination"), Some(json!("Lisbon")));

    click(&q(&switcher, r#"[data-testid="branch-prev"]"#).expect("prev"));
    settle(&store).await;
    assert_eq!(
        rows(&root),
        original_rows,
        "the original conversation, whole"
    );
    assert_eq!(branch_position(&root), "1/2");
    assert_eq!(state(&store, "/destination"), None);

    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

// ---- the browser's storage ----------------------------------------------------------------

// The session's persistence is tested natively over a `MemoryStore` (tests/session/session.rs); this
// is the `localStorage` side: the same records land there, garbage in it is skipped with a
// warning the person sees, and the chat starts.
#[wasm_bindgen_test]
async fn local_storage_holds_the_conversations_and_garbage_in_it_is_a_visible_warning() {
    use agui_leptos::internals::BrowserStorage;
    use agui_leptos::session::storage::KeyValue;
    let prefix = unique_prefix("local");
    let kv = BrowserStorage::default();
    kv.set(&format!("{prefix}:probe"), "1").expect("set");
    assert_eq!(kv.get(&format!("{prefix}:probe")), Ok(Some("1".to_owned())));
    assert!(kv
        .keys()
        .expect("keys")
        .contains(&format!("{prefix}:probe")));
    kv.remove(&format!("{prefix}:probe")).expect("remove");
    assert_eq!(kv.get(&format!("{prefix}:probe")), Ok(None));

    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    send_and_wait(&store, &root, "use a tool", "success").await;
    let good = store.thread_id();
    drop(handle);
    container.remove();
    assert!(
        keys_under(&prefix).contains(&format!("{prefix}:thread:{good}")),
        "{:?}",
        keys_under(&prefix)
    );
    storage()
        .set_item(
            &format!("{prefix}:thread:thread-bad"),
            "{\"version\": 1, \"id\": ",
        )
        .expect("write garbage");

    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    assert_eq!(store.thread_id(), good, "the readable thread opens");
    assert_eq!(thread_ids(&root), vec![good.clone()]);
    let count = testid(&root, "warnings-count").expect("the warnings badge shows");
    assert_eq!(text_of(&count).trim(), "1");
    assert!(
        warnings_text(&store).contains("was skipped"),
        "{}",
        warnings_text(&store)
    );
    assert!(keys_under(&prefix).contains(&format!("{prefix}:unreadable:thread-bad")));
    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

// ---- long threads -------------------------------------------------------------------------

/// The ids of the message rows on screen, in order.
fn row_ids(root: &Element) -> Vec<String> {
    rows(root).into_iter().map(|(id, _)| id).collect()
}

/// `n` short messages, alternating user / assistant, ids `{prefix}-{i}`.
fn long_history(prefix: &str, n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    json!({"id": format!("{prefix}-{i}"), "role": "user", "content": format!("question {i}")})
                } else {
                    json!({"id": format!("{prefix}-{i}"), "role": "assistant",
                           "content": format!("answer {i}:\n\n- one\n- two")})
                }
            })
            .collect(),
    )
}

/// One finished run whose `MESSAGES_SNAPSHOT` holds `messages`; the DOM is not settled.
async fn push_snapshot(store: &AgentStore, messages: Value) {
    let thread_id = store.thread_id();
    store.begin_external();
    for ev in [
        json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-long"}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": messages}),
        json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-long"}),
    ] {
        store.push_bytes(&sse(ev));
    }
    store.end_external(None);
    store.flush();
    leptos::task::tick().await;
}

/// The ids `{prefix}-{from}` … `{prefix}-{to - 1}`.
fn ids(prefix: &str, from: usize, to: usize) -> Vec<String> {
    (from..to).map(|i| format!("{prefix}-{i}")).collect()
}

#[wasm_bindgen_test]
async fn a_long_thread_mounts_its_newest_rows_first_and_a_switch_mid_way_does_not_mix_threads() {
    let prefix = unique_prefix("long");
    let store = AgentStore::restore(config(), &prefix);
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    // No stylesheet in tests: make the transcript a small scroller.
    let transcript: web_sys::HtmlElement = testid(&root, "transcript")
        .expect("transcript")
        .dyn_into()
        .expect("an HtmlElement");
    transcript
        .set_attribute("style", "height: 300px; overflow-y: auto")
        .expect("style");
    let distance =
        |t: &web_sys::HtmlElement| t.scroll_height() - t.scroll_top() - t.client_height();

    // A: 1,000 messages in one snapshot. Right after it: the newest rows only, in order.
    let a = store.thread_id();
    push_snapshot(&store, long_history("a", 1_000)).await;
    let first = row_ids(&root);
    assert!(
        !first.is_empty() && first.len() < 100,
        "a slice is mounted at once, not the thread: {} rows",
        first.len()
    );
    assert_eq!(
        first,
        ids("a", 1_000 - first.len(), 1_000),
        "the newest rows, in order"
    );
    // Then older rows, a batch per frame, until all are there; the view rests at the bottom.
    let mut seen = vec![first.len()];
    wait_until(&store, "all 1,000 rows of A", || {
        let n = q_all(&root, r#"[data-testid="message"]"#).len();
        if seen.last() != Some(&n) {
            seen.push(n);
        }
        n == 1_000
    })
    .await;
    assert!(seen.len() > 2, "mounted over several frames: {seen:?}");
    assert_eq!(row_ids(&root), ids("a", 0, 1_000));
    sleep(50).await;
    assert!(
        distance(&transcript) < 60,
        "at the bottom: {}",
        distance(&transcript)
    );
    assert!(testid(&root, "jump-to-latest").is_none());

    // B: 300 messages; switch back to A while B is still being mounted.
    store.new_thread().expect("a new thread");
    settle(&store).await;
    let b = store.thread_id();
    assert_ne!(a, b);
    push_snapshot(&store, long_history("b", 300)).await;
    sleep(20).await;
    let partial = row_ids(&root);
    assert!(
        partial.len() < 300,
        "B is still being mounted: {} rows",
        partial.len()
    );
    assert!(partial.iter().all(|id| id.starts_with("b-")), "{partial:?}");
    store.switch_thread(&a).expect("back to A");
    store.flush();
    leptos::task::tick().await;
    let after = row_ids(&root);
    assert!(
        after.len() < 1_000,
        "A is mounted in slices again: {} rows",
        after.len()
    );
    assert_eq!(
        after,
        ids("a", 1_000 - after.len(), 1_000),
        "only A's newest rows"
    );
    wait_until(&store, "all of A again", || {
        let now = row_ids(&root);
        assert!(
            now.iter().all(|id| id.starts_with("a-")),
            "no row of B in A"
        );
        now.len() == 1_000
    })
    .await;
    assert_eq!(row_ids(&root), ids("a", 0, 1_000));
    // And B, whole, without A.
    store.switch_thread(&b).expect("to B");
    wait_until(&store, "all of B", || row_ids(&root).len() == 300).await;
    assert_eq!(row_ids(&root), ids("b", 0, 300));
    sleep(50).await;
    assert!(distance(&transcript) < 60, "at the bottom of B");

    drop(handle);
    container.remove();
    clear_prefix(&prefix);
}

fn composer_box(root: &Element) -> HtmlTextAreaElement {
    testid(root, "composer-input")
        .expect("composer")
        .dyn_into()
        .expect("a textarea")
}

/// Type `text` as a person does (the value, then an `input` event).
fn type_into(root: &Element, text: &str) {
    let input = composer_box(root);
    input.set_value(text);
    input
        .dispatch_event(&web_sys::Event::new("input").expect("input event"))
        .expect("dispatch input");
}

/// An arrow key on the composer (`composing`: inside an IME composition).
fn arrow(root: &Element, key: &str, composing: bool) -> bool {
    let ev = keyboard_event("keydown", key, false, composing);
    composer_box(root).dispatch_event(&ev).expect("dispatch");
    ev.default_prevented()
}

// Issue 31, items 3 and 4: what is typed stays with its conversation (a switch, a reload),
// goes when sent; ↑/↓ go through the conversation's earlier prompts, never inside an IME
// composition.
#[wasm_bindgen_test]
async fn a_draft_follows_its_conversation_and_survives_a_reload_and_arrows_recall_prompts() {
    let prefix = unique_prefix("draft");
    let store = AgentStore::restore(config(), &prefix);
    let (_container, root, handle) = mount_chat(store);
    settle(&store).await;
    send_and_wait(&store, &root, "plan our Lisbon offsite", "success").await;
    send_and_wait(&store, &root, "use a tool", "success").await;
    let a = store.thread_id();
    assert_eq!(composer_box(&root).value(), "", "sent: no draft left");

    // ↑ in the empty box: the newest prompt, then the one before; ↓ back to the typing.
    type_into(&root, "");
    assert!(arrow(&root, "ArrowUp", false));
    assert_eq!(composer_box(&root).value(), "use a tool");
    assert!(arrow(&root, "ArrowUp", false));
    assert_eq!(composer_box(&root).value(), "plan our Lisbon offsite");
    assert!(
        !arrow(&root, "ArrowUp", false),
        "no older prompt: the key is the caret's"
    );
    assert!(arrow(&root, "ArrowDown", false));
    assert!(arrow(&root, "ArrowDown", false));
    assert_eq!(composer_box(&root).value(), "", "back to what was typed");
    assert!(
        !arrow(&root, "ArrowUp", true),
        "never inside an IME composition"
    );
    assert_eq!(composer_box(&root).value(), "");
    // On the second line of a text, ↑ moves the caret, not the history.
    type_into(&root, "two\nlines");
    assert!(!arrow(&root, "ArrowUp", false));
    assert_eq!(composer_box(&root).value(), "two\nlines");

    // A draft in A, another in a new conversation B: each comes back with its conversation.
    type_into(&root, "and the budget?");
    click_testid(&root, "thread-new");
    settle(&store).await;
    assert_eq!(composer_box(&root).value(), "", "B has no draft");
    type_into(&root, "a question for B");
    open_thread(&root, &a);
    settle(&store).await;
    assert_eq!(composer_box(&root).value(), "and the budget?");
    // Typing pauses: the draft is written; a reload finds it in its conversation.
    sleep(600).await;
    assert!(keys_under(&prefix).contains(&format!("{prefix}:draft:{a}")));
    drop(handle);
    let store = AgentStore::restore(config(), &prefix);
    let (_container, root, handle) = mount_chat(store);
    settle(&store).await;
    wait_until(&store, "the saved conversation", || store.thread_id() == a).await;
    settle(&store).await;
    assert_eq!(
        composer_box(&root).value(),
        "and the budget?",
        "after a reload"
    );
    // Sent: gone from the box and from storage.
    click_testid(&root, "composer-send");
    settle(&store).await;
    wait_for(&store, &root, "success").await;
    assert_eq!(composer_box(&root).value(), "");
    assert!(!keys_under(&prefix).contains(&format!("{prefix}:draft:{a}")));
    drop(handle);
    clear_prefix(&prefix);
}

// The files a draft had are named after a reload (the files themselves cannot be kept), to be
// attached again; sent, they are not named again.
#[wasm_bindgen_test]
async fn a_drafts_files_are_named_after_a_reload() {
    const PNG: &[u8] = &[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ];
    let prefix = unique_prefix("files");
    let store = AgentStore::restore(config(), &prefix);
    let (_container, root, handle) = mount_chat(store);
    settle(&store).await;
    send_and_wait(&store, &root, "plan our Lisbon offsite", "success").await;
    type_into(&root, "see the plan");
    pick(&root, &[file("plan.png", "image/png", PNG)]);
    settle(&store).await;
    sleep(600).await;
    assert!(keys_under(&prefix)
        .iter()
        .any(|k| k.contains(":draft-files:")));
    drop(handle);
    let store = AgentStore::restore(config(), &prefix);
    let (_container, root, handle) = mount_chat(store);
    settle(&store).await;
    wait_until(&store, "the note", || {
        testid(&root, "attach-error").is_some_and(|e| text_of(&e).contains("plan.png"))
    })
    .await;
    assert_eq!(composer_box(&root).value(), "see the plan");
    drop(handle);
    clear_prefix(&prefix);
}
