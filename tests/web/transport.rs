//! Browser tests of the real fetch-streaming transport, end to end (headless Chromium).
//!
//! There is no server inside wasm-bindgen-test, so each test replaces `window.fetch` with a
//! JS stub that records the request (method, URL, headers, body, abort signal) and answers
//! with a real `Response` whose body is a `ReadableStream` the test drives: it enqueues SSE
//! bytes over time, closes the stream, errors it, or leaves it open. The original fetch is
//! put back after each test (and before, should an earlier test have died half-way).
//!
//! The app is mounted with `mount_with_store` on an `AgentStore` whose endpoint is `/agent`,
//! so every byte goes through `transport::run_http` → `AgentStore::push_bytes` → the DOM.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_transport`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::i18n::Locale;
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::GetUntracked;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- the fetch stub -------------------------------------------------------------------------

#[wasm_bindgen(inline_js = r#"
let saved = null;
let S = null;

function stubFetch(input, init) {
  const s = S;
  const req = input instanceof Request ? input : new Request(input, init);
  const plan = s.plans.length > 0 ? s.plans.shift()
    : { status: 200, contentType: 'text/event-stream', bodyText: null, abortErrorsBody: true };
  const rec = {
    method: req.method, url: req.url, headers: {}, body: null, signal: req.signal,
    abortedAtStart: req.signal.aborted, abortEvents: 0, controller: null, done: false,
  };
  req.headers.forEach((v, k) => { rec.headers[k.toLowerCase()] = v; });
  req.signal.addEventListener('abort', () => {
    rec.abortEvents += 1;
    // A real fetch errors the response body when its signal aborts.
    if (plan.abortErrorsBody && rec.controller && !rec.done) {
      rec.done = true;
      try { rec.controller.error(new DOMException('The user aborted a request.', 'AbortError')); } catch (_) {}
    }
  });
  return req.text().then((text) => {
    rec.body = text;
    s.requests.push(rec);
    if (req.signal.aborted) {
      throw new DOMException('The user aborted a request.', 'AbortError');
    }
    const headers = new Headers();
    if (plan.contentType) headers.set('Content-Type', plan.contentType);
    for (const [k, v] of plan.headers || []) headers.set(k, v);
    if (plan.bodyText !== null && plan.bodyText !== undefined) {
      rec.done = true;
      return new Response(plan.bodyText, { status: plan.status, headers });
    }
    const stream = new ReadableStream({ start(c) { rec.controller = c; } });
    return new Response(stream, { status: plan.status, headers });
  });
}

export function stub_install() {
  if (saved === null) saved = globalThis.fetch;
  S = { requests: [], plans: [] };
  globalThis.fetch = stubFetch;
}
export function stub_restore() {
  if (S !== null) {
    for (const r of S.requests) {
      if (r.controller && !r.done) { r.done = true; try { r.controller.close(); } catch (_) {} }
    }
  }
  if (saved !== null) { globalThis.fetch = saved; saved = null; }
  S = null;
}
// A page's own fetch wrapper that rejects with a plain string, not an Error.
export function stub_reject_with_string() {
  if (saved === null) saved = globalThis.fetch;
  S = { requests: [], plans: [] };
  globalThis.fetch = () => Promise.reject('blocked by the page');
}
export function stub_active() { return globalThis.fetch === stubFetch; }
export function stub_plan(status, contentType, bodyText, abortErrorsBody) {
  S.plans.push({ status, contentType, bodyText, abortErrorsBody });
}
export function stub_plan_header(name, value) {
  const plan = S.plans[S.plans.length - 1];
  plan.headers = [...(plan.headers || []), [name, value]];
}
export function stub_request_count() { return S.requests.length; }
export function stub_method(i) { return S.requests[i].method; }
export function stub_url(i) { return S.requests[i].url; }
export function stub_header(i, name) { return S.requests[i].headers[name.toLowerCase()]; }
export function stub_body(i) { return S.requests[i].body; }
export function stub_signal_aborted(i) { return S.requests[i].signal.aborted; }
export function stub_aborted_at_start(i) { return S.requests[i].abortedAtStart; }
export function stub_abort_events(i) { return S.requests[i].abortEvents; }
export function stub_enqueue(i, bytes) {
  const r = S.requests[i];
  if (!r.controller || r.done) return false;
  try { r.controller.enqueue(new Uint8Array(bytes)); return true; } catch (_) { return false; }
}
export function stub_close(i) {
  const r = S.requests[i];
  if (!r.controller || r.done) return false;
  r.done = true;
  try { r.controller.close(); return true; } catch (_) { return false; }
}
export function stub_error(i, message) {
  const r = S.requests[i];
  if (!r.controller || r.done) return false;
  r.done = true;
  try { r.controller.error(new TypeError(message)); return true; } catch (_) { return false; }
}
"#)]
extern "C" {
    fn stub_install();
    fn stub_reject_with_string();
    fn stub_restore();
    fn stub_active() -> bool;
    fn stub_plan(status: u16, content_type: &str, body_text: Option<String>, abort_errors: bool);
    fn stub_plan_header(name: &str, value: &str);
    fn stub_request_count() -> u32;
    fn stub_method(i: u32) -> String;
    fn stub_url(i: u32) -> String;
    fn stub_header(i: u32, name: &str) -> Option<String>;
    fn stub_body(i: u32) -> String;
    fn stub_signal_aborted(i: u32) -> bool;
    fn stub_aborted_at_start(i: u32) -> bool;
    fn stub_abort_events(i: u32) -> u32;
    fn stub_enqueue(i: u32, bytes: &[u8]) -> bool;
    fn stub_close(i: u32) -> bool;
    fn stub_error(i: u32, message: &str) -> bool;
}

/// Installs the stub; puts the original `fetch` back when dropped.
struct FetchStub;

impl FetchStub {
    fn install() -> Self {
        stub_install();
        assert!(stub_active(), "the stub replaced window.fetch");
        FetchStub
    }

    /// The next response: `status`, `content_type`, and a fixed body (`None` = a stream the
    /// test drives). `abort_errors_body`: the body errors when the request's signal aborts,
    /// as a real fetch does.
    fn plan(&self, status: u16, content_type: &str, body: Option<&str>, abort_errors_body: bool) {
        stub_plan(
            status,
            content_type,
            body.map(str::to_owned),
            abort_errors_body,
        );
    }
}

impl Drop for FetchStub {
    fn drop(&mut self) {
        stub_restore();
    }
}

// ---- helpers ----------------------------------------------------------------------------

fn http_store() -> AgentStore {
    AgentStore::new(AgentConfig {
        endpoint: Some("/agent".into()),
        headers: vec![("Authorization".into(), "Bearer t".into())],
        ..Default::default()
    })
}

fn banner_text(root: &Element) -> Option<String> {
    testid(root, "error-banner").map(|b| text_of(&b))
}

fn assistant_rows(root: &Element) -> Vec<Element> {
    q_all(root, r#"[data-testid="message"][data-role="assistant"]"#)
}

fn user_rows(root: &Element) -> Vec<Element> {
    q_all(root, r#"[data-testid="message"][data-role="user"]"#)
}

/// Wait for request number `i` (0-based) to reach the stub; returns its parsed body.
async fn request(i: u32) -> Value {
    let deadline = now() + 5_000.0;
    while stub_request_count() <= i {
        assert!(now() < deadline, "request {i} never reached fetch");
        sleep(5).await;
    }
    serde_json::from_str(&stub_body(i)).expect("the request body is JSON")
}

/// Enqueue SSE text on request `i`'s body (it must still be open).
fn send_chunk(i: u32, text: &str) {
    assert!(
        stub_enqueue(i, text.as_bytes()),
        "stream {i} accepts a chunk"
    );
}

fn run_started(body: &Value) -> Value {
    json!({"type": "RUN_STARTED", "threadId": body["threadId"], "runId": body["runId"]})
}

fn run_finished(body: &Value) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": body["threadId"], "runId": body["runId"]})
}

fn text_start(id: &str) -> Value {
    json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"})
}

fn text_content(id: &str, delta: &str) -> Value {
    json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": delta})
}

fn text_end(id: &str) -> Value {
    json!({"type": "TEXT_MESSAGE_END", "messageId": id})
}

/// A whole successful run answering `text` as message `id`, then the end of the body.
/// `RUN_STARTED`, then a text message `id` opened with `text` (SSE frames).
fn opening(body: &Value, id: &str, text: &str) -> String {
    [
        sse_frame(run_started(body)),
        sse_frame(text_start(id)),
        sse_frame(text_content(id, text)),
    ]
    .concat()
}

fn answer_and_close(i: u32, body: &Value, id: &str, text: &str) {
    send_chunk(
        i,
        &[
            opening(body, id, text),
            sse_frame(text_end(id)),
            sse_frame(run_finished(body)),
        ]
        .concat(),
    );
    assert!(stub_close(i), "stream {i} closes");
}

struct Mounted<H> {
    container: HtmlElement,
    root: Element,
    store: AgentStore,
    _handle: H,
}

async fn mount() -> Mounted<impl Sized> {
    mount_store(http_store()).await
}

async fn mount_store(store: AgentStore) -> Mounted<impl Sized> {
    let container = fresh_container();
    let handle = web_support::mount_demo(container.clone(), store);
    settle(&store).await;
    Mounted {
        root: container.clone().into(),
        container,
        store,
        _handle: handle,
    }
}

impl<H> Drop for Mounted<H> {
    fn drop(&mut self) {
        self.container.remove();
    }
}

// ---- 1. deltas render while the body is still streaming ------------------------------------

#[wasm_bindgen_test]
async fn deltas_render_before_the_response_ends() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    store.send("Say hello".to_owned());
    let body = request(0).await;
    send_chunk(0, &sse_frame(run_started(&body)));
    sleep(20).await;
    send_chunk(0, &sse_frame(text_start("a-1")));
    sleep(20).await;
    send_chunk(0, &sse_frame(text_content("a-1", "Hello")));

    // No manual flush: the store's own animation-frame flush must put it on screen.
    let deadline = now() + 3_000.0;
    while !assistant_text(root).contains("Hello") {
        assert!(now() < deadline, "the first delta never rendered by itself");
        sleep(10).await;
    }
    settle(&store).await;
    assert_eq!(assistant_text(root).trim(), "Hello");
    assert_eq!(run_status(root), "running", "the stream is still open");
    assert!(store.running().get_untracked());
    assert!(testid(root, "composer-stop").is_some(), "Stop is offered");
    assert!(banner_text(root).is_none());

    sleep(30).await;
    send_chunk(0, &sse_frame(text_content("a-1", ", world")));
    sleep(20).await;
    send_chunk(0, &sse_frame(text_content("a-1", " — from the stream.")));
    wait_until(&store, "the second delta", || {
        assistant_text(root).contains(", world")
    })
    .await;
    assert_eq!(run_status(root), "running");
    send_chunk(
        0,
        &[sse_frame(text_end("a-1")), sse_frame(run_finished(&body))].concat(),
    );
    sleep(20).await;
    assert!(stub_close(0));
    wait_until(&store, "success", || run_status(root) == "success").await;

    assert_eq!(
        assistant_text(root).trim(),
        "Hello, world — from the stream."
    );
    assert_eq!(assistant_rows(root).len(), 1);
    assert!(banner_text(root).is_none(), "no error banner");
    assert!(!store.running().get_untracked());
    assert!(testid(root, "composer-stop").is_none(), "Stop is gone");
}

// ---- 2. the request -------------------------------------------------------------------------

fn assert_common_request_shape(i: u32, body: &Value, store: AgentStore) {
    assert_eq!(stub_method(i), "POST");
    assert!(
        stub_url(i).ends_with("/agent"),
        "the endpoint is used: {}",
        stub_url(i)
    );
    assert_eq!(
        stub_header(i, "Content-Type").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        stub_header(i, "Accept").as_deref(),
        Some("text/event-stream")
    );
    assert_eq!(
        stub_header(i, "Authorization").as_deref(),
        Some("Bearer t"),
        "the configured header is sent"
    );
    assert_eq!(body["protocolVersion"], "1.1");
    // The frontend tools the chat advertises (none configured here: only the built-in ones
    // the chat registers itself), exactly as configured; `[]` when there are none.
    let advertised =
        serde_json::to_value(store.config().get_untracked().tools).expect("tools serialize");
    assert_eq!(body["tools"], advertised);
    assert!(body["tools"].is_array());
    assert_eq!(body["context"], json!([]));
    assert_eq!(body["forwardedProps"], json!({}));
    assert!(body["state"].is_object(), "state is sent: {body}");
    assert!(
        body["threadId"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    assert!(
        body["runId"].as_str().is_some_and(|r| !r.is_empty()),
        "{body}"
    );
}

#[wasm_bindgen_test]
async fn the_request_is_a_run_agent_input_and_a_follow_up_carries_the_history() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    store.send("  first question  ".to_owned());
    let first = request(0).await;
    assert_common_request_shape(0, &first, store);
    assert_eq!(first["threadId"], store.thread_id().as_str());
    assert_eq!(first["state"], json!({}));
    let messages = first["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 1, "{first}");
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(messages[0]["content"], "first question");
    assert!(messages[0]["id"].as_str().is_some_and(|id| !id.is_empty()));

    // Run 1 also sets some state: the follow-up must send it back.
    send_chunk(
        0,
        &[
            sse_frame(run_started(&first)),
            sse_frame(json!({"type": "STATE_SNAPSHOT", "snapshot": {"city": "Lisbon"}})),
            sse_frame(text_start("a-1")),
            sse_frame(text_content("a-1", "First answer.")),
            sse_frame(text_end("a-1")),
            sse_frame(run_finished(&first)),
        ]
        .concat(),
    );
    assert!(stub_close(0));
    wait_until(&store, "run 1 succeeds", || run_status(root) == "success").await;

    store.send("second question".to_owned());
    let second = request(1).await;
    // In flight, before any byte: the status is the new run's, not the last one's outcome.
    settle(&store).await;
    assert_eq!(run_status(root), "running", "the request is in flight");
    assert_common_request_shape(1, &second, store);
    assert_eq!(second["threadId"], first["threadId"], "same thread");
    assert_ne!(second["runId"], first["runId"], "a fresh run id");
    assert_eq!(second["state"], json!({"city": "Lisbon"}), "current state");
    let messages = second["messages"].as_array().expect("messages");
    let summary: Vec<(String, String)> = messages
        .iter()
        .map(|m| {
            (
                m["role"].as_str().unwrap_or("?").to_owned(),
                m["content"].as_str().unwrap_or("?").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("user".to_owned(), "first question".to_owned()),
            ("assistant".to_owned(), "First answer.".to_owned()),
            ("user".to_owned(), "second question".to_owned()),
        ],
        "{second}"
    );
    assert_eq!(messages[0]["id"], first["messages"][0]["id"]);
    assert_eq!(messages[1]["id"], "a-1");
    assert_ne!(messages[2]["id"], messages[0]["id"]);

    answer_and_close(1, &second, "a-2", "Second answer.");
    wait_until(&store, "run 2 succeeds", || run_status(root) == "success").await;
    assert_eq!(
        assistant_text(root),
        "First answer.\nSecond answer.",
        "both answers shown"
    );
    assert_eq!(stub_request_count(), 2, "exactly one request per send");
}

// ---- 3. / 4. responses that are not an SSE stream -------------------------------------------

#[wasm_bindgen_test]
async fn a_non_2xx_answer_shows_its_status_and_body() {
    let stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    stub.plan(500, "text/plain", Some("boom from server"), true);
    store.send("hello?".to_owned());
    request(0).await;
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;
    let banner = banner_text(root).unwrap_or_default();
    assert!(banner.contains("500"), "{banner}");
    assert!(banner.contains("boom from server"), "{banner}");
    assert_eq!(run_status(root), "error");
    assert!(!store.running().get_untracked());
    assert!(assistant_rows(root).is_empty());
    assert!(testid(root, "retry").is_some(), "Retry is offered");
}

// Regression guard for gloo-net: its `send` maps a fetch rejection that is not a JS Error with
// `unreachable!` (a panic kills every widget), and its `Headers::set` throws on a value fetch
// refuses. Both must end the run as a failure the person sees, and the chat goes on.
#[wasm_bindgen_test]
async fn a_fetch_rejected_with_anything_or_a_bad_header_is_a_failure_not_a_dead_page() {
    let _stub = FetchStub::install();
    stub_reject_with_string();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);
    store.send("hello?".to_owned());
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;
    assert!(
        banner_text(root)
            .unwrap_or_default()
            .contains("blocked by the page"),
        "{:?}",
        banner_text(root)
    );
    assert_eq!(run_status(root), "error");

    // A header no browser can carry, set from Rust (the widget's parser refuses it earlier).
    let mut config = store.config().get_untracked();
    config.headers = vec![("X-Check".into(), "✓".into())];
    store.set_config(config);
    store.retry();
    wait_until(&store, "the run to end", || {
        !store.running().get_untracked()
    })
    .await;
    let banner = banner_text(root).unwrap_or_default();
    assert!(banner.contains("X-Check"), "{banner}");
    // Still alive: the composer answers.
    type_text(root, "still here");
    assert!(testid(root, "composer-send").is_some());
}

#[wasm_bindgen_test]
async fn a_non_sse_content_type_is_refused() {
    let stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    stub.plan(
        200,
        "application/json",
        Some(r#"{"type":"RUN_STARTED"}"#),
        true,
    );
    store.send("hello?".to_owned());
    request(0).await;
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;
    let banner = banner_text(root).unwrap_or_default();
    assert!(banner.contains("application/json"), "{banner}");
    assert!(banner.contains("text/event-stream"), "{banner}");
    assert_eq!(run_status(root), "error");
    assert!(!store.running().get_untracked());
    assert!(assistant_rows(root).is_empty(), "the body was not read");
}

/// Transport failures are values worded when shown: in German with `locale = De`, and a
/// locale switch re-words the banner already on screen (the content type stays as sent).
#[wasm_bindgen_test]
async fn transport_errors_are_worded_in_the_locale_and_follow_a_switch() {
    let stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);
    store.update_config(|c| c.locale = Locale::De);

    stub.plan(200, "application/json", Some("{}"), true);
    store.send("hallo?".to_owned());
    request(0).await;
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;
    let banner = banner_text(root).unwrap_or_default();
    assert!(
        banner.contains(
            "Der Agent antwortete mit dem Inhaltstyp \"application/json\" statt text/event-stream"
        ),
        "{banner}"
    );
    assert!(!banner.contains("the agent answered"), "{banner}");

    store.update_config(|c| c.locale = Locale::En);
    wait_until(&store, "the English banner", || {
        banner_text(root).is_some_and(|b| b.contains("the agent answered with content type"))
    })
    .await;

    // A lost connection, in German.
    store.update_config(|c| c.locale = Locale::De);
    stub.plan(200, "text/event-stream", None, true);
    click(&testid(root, "retry").expect("Retry"));
    let body = request(1).await;
    send_chunk(1, &sse_frame(run_started(&body)));
    assert!(stub_close(1));
    wait_until(&store, "truncated", || run_status(root) == "truncated").await;
    let banner = banner_text(root).expect("a banner");
    assert!(
        banner.contains("Verbindung verloren: Der Datenstrom endete, bevor der Lauf fertig war."),
        "{banner}"
    );
    assert!(!banner.contains("Connection lost"), "{banner}");
}

// ---- 5. the connection breaks ---------------------------------------------------------------

#[wasm_bindgen_test]
async fn a_body_that_ends_without_a_terminal_event_is_a_lost_connection() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    store.send("tell me".to_owned());
    let body = request(0).await;
    send_chunk(0, &opening(&body, "a-1", "Partial "));
    sleep(20).await;
    send_chunk(0, &sse_frame(text_content("a-1", "answer")));
    wait_until(&store, "the partial text", || {
        assistant_text(root).contains("Partial answer")
    })
    .await;
    assert_eq!(run_status(root), "running");
    assert!(stub_close(0));
    wait_until(&store, "truncated", || run_status(root) == "truncated").await;

    let banner = banner_text(root).expect("a banner");
    assert!(banner.contains("Connection lost"), "{banner}");
    assert_eq!(
        assistant_text(root).trim(),
        "Partial answer",
        "what arrived is kept"
    );
    assert!(!store.running().get_untracked());
}

#[wasm_bindgen_test]
async fn a_body_that_errors_mid_stream_is_an_error_and_keeps_the_text() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    store.send("tell me".to_owned());
    let body = request(0).await;
    send_chunk(0, &opening(&body, "a-1", "Half an "));
    sleep(20).await;
    // A frame cut in the middle when the network fails.
    send_chunk(0, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a-1\",\"delta\":\"answer\"}\n\ndata: {\"type\":\"TEXT_MES");
    wait_until(&store, "the partial text", || {
        assistant_text(root).contains("Half an answer")
    })
    .await;
    assert!(stub_error(0, "network connection reset"));
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;

    let banner = banner_text(root).unwrap_or_default();
    assert!(banner.contains("network connection reset"), "{banner}");
    assert_eq!(run_status(root), "error");
    assert_eq!(assistant_text(root).trim(), "Half an answer");
    assert!(!store.running().get_untracked());
}

// ---- 6. Stop --------------------------------------------------------------------------------

/// Sends, streams "Some text", returns the request body (stream 0 left open).
async fn stream_some_text(root: &Element, store: AgentStore) -> Value {
    store.send("write a lot".to_owned());
    let body = request(0).await;
    send_chunk(0, &opening(&body, "a-1", "Some text"));
    wait_until(&store, "the first text", || {
        assistant_text(root).contains("Some text")
    })
    .await;
    assert_eq!(run_status(root), "running");
    body
}

#[wasm_bindgen_test]
async fn stop_aborts_the_request_and_keeps_what_arrived() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    stream_some_text(root, store).await;
    assert!(!stub_aborted_at_start(0));
    assert!(!stub_signal_aborted(0), "not aborted before Stop");
    click_testid(root, "composer-stop");
    wait_until(&store, "cancelled", || run_status(root) == "cancelled").await;

    assert!(stub_signal_aborted(0), "the fetch's signal is aborted");
    assert_eq!(stub_abort_events(0), 1, "the abort event fired once");
    assert_eq!(assistant_text(root).trim(), "Some text", "text kept");
    assert!(banner_text(root).is_none(), "stopping is not an error");
    assert!(!store.running().get_untracked());
    assert!(testid(root, "composer-stop").is_none());

    // The body was errored by the abort, as a real fetch does: nothing more gets through.
    let later = sse_frame(text_content("a-1", " MORE"));
    assert!(!stub_enqueue(0, later.as_bytes()), "the body is closed");
    sleep(50).await;
    settle(&store).await;
    assert_eq!(assistant_text(root).trim(), "Some text");
    assert_eq!(run_status(root), "cancelled");
}

#[wasm_bindgen_test]
async fn after_stop_a_body_that_keeps_streaming_changes_nothing() {
    // A body that ignores the abort (bytes already on their way): later chunks, a terminal
    // event and the end of the body must not change the stopped run.
    let stub = FetchStub::install();
    stub.plan(200, "text/event-stream", None, false);
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    let body = stream_some_text(root, store).await;
    click_testid(root, "composer-stop");
    wait_until(&store, "cancelled", || run_status(root) == "cancelled").await;
    assert!(stub_signal_aborted(0));
    let before = root.inner_html();

    send_chunk(0, &sse_frame(text_content("a-1", " MORE TEXT")));
    sleep(30).await;
    send_chunk(
        0,
        &[sse_frame(text_end("a-1")), sse_frame(run_finished(&body))].concat(),
    );
    sleep(30).await;
    assert!(stub_close(0));
    sleep(50).await;
    settle(&store).await;
    sleep(50).await;
    settle(&store).await;

    assert_eq!(assistant_text(root).trim(), "Some text");
    assert_eq!(run_status(root), "cancelled");
    assert!(banner_text(root).is_none());
    assert!(!store.running().get_untracked());
    assert_eq!(root.inner_html(), before, "the DOM did not change");
}

#[wasm_bindgen_test]
async fn a_new_run_right_after_stop_is_not_disturbed_by_the_stopped_one() {
    // Stop, then send again at once: whatever the stopped request does afterwards (its
    // abort landing, late bytes, its body ending) belongs to a finished run.
    for abort_errors_body in [true, false] {
        let stub = FetchStub::install();
        stub.plan(200, "text/event-stream", None, abort_errors_body);
        let m = mount().await;
        let (root, store) = (&m.root, m.store);

        let first = stream_some_text(root, store).await;
        store.stop();
        store.send("second".to_owned());
        let second = request(1).await;
        assert_ne!(second["runId"], first["runId"]);
        send_chunk(1, &opening(&second, "a-2", "Run two"));
        // The stopped request: late bytes and the end of its body (when it ignores the abort).
        if !abort_errors_body {
            send_chunk(0, &sse_frame(text_content("a-1", " LATE")));
            sleep(20).await;
            assert!(stub_close(0));
        }
        sleep(50).await;
        wait_until(&store, "run two's text", || {
            assistant_text(root).contains("Run two")
        })
        .await;
        sleep(30).await;
        settle(&store).await;
        let mode = if abort_errors_body {
            "abort errors the body"
        } else {
            "body ignores the abort"
        };
        assert!(
            store.running().get_untracked(),
            "{mode}: run two is still running"
        );
        assert_eq!(run_status(root), "running", "{mode}");
        assert!(
            testid(root, "composer-stop").is_some(),
            "{mode}: Stop shown"
        );
        assert!(
            banner_text(root).is_none(),
            "{mode}: {:?}",
            banner_text(root)
        );
        assert!(!assistant_text(root).contains("LATE"), "{mode}");

        send_chunk(
            1,
            &[
                sse_frame(text_content("a-2", ", finished.")),
                sse_frame(text_end("a-2")),
                sse_frame(run_finished(&second)),
            ]
            .concat(),
        );
        assert!(stub_close(1));
        wait_until(&store, "run two succeeds", || run_status(root) == "success").await;
        assert_eq!(
            assistant_text(root),
            "Some text\nRun two, finished.",
            "{mode}"
        );
        assert!(!store.running().get_untracked(), "{mode}");
        drop(m);
        drop(stub);
    }
}

// ---- 7. Retry -------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn retry_after_a_500_sends_the_same_history_with_a_new_run_id() {
    let stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    stub.plan(500, "text/plain", Some("boom from server"), true);
    store.send("question".to_owned());
    let failed = request(0).await;
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;

    // The stub now succeeds (default plan).
    click_testid(root, "retry");
    let retried = request(1).await;
    settle(&store).await;
    assert_eq!(run_status(root), "running", "the retry is in flight");
    assert!(
        banner_text(root).is_none(),
        "the old error is gone while retrying: {:?}",
        banner_text(root)
    );
    assert_common_request_shape(1, &retried, store);
    assert_eq!(retried["threadId"], failed["threadId"]);
    assert_ne!(retried["runId"], failed["runId"], "a new run id");
    assert_eq!(retried["messages"], failed["messages"], "the same history");
    answer_and_close(1, &retried, "a-1", "It worked.");
    wait_until(&store, "success", || run_status(root) == "success").await;

    assert!(banner_text(root).is_none(), "the banner is gone");
    assert_eq!(user_rows(root).len(), 1, "the question is not duplicated");
    assert_eq!(assistant_text(root).trim(), "It worked.");
}

#[wasm_bindgen_test]
async fn retry_after_a_broken_stream_drops_the_partial_answer() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    // A first, successful exchange: part of the history to keep.
    store.send("warm up".to_owned());
    let first = request(0).await;
    answer_and_close(0, &first, "a-0", "Ready.");
    wait_until(&store, "run 1 succeeds", || run_status(root) == "success").await;

    store.send("question".to_owned());
    let failed = request(1).await;
    send_chunk(1, &opening(&failed, "a-1", "half-written"));
    wait_until(&store, "partial text", || {
        assistant_text(root).contains("half-written")
    })
    .await;
    assert!(stub_error(1, "network connection reset"));
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;

    click_testid(root, "retry");
    let retried = request(2).await;
    assert_eq!(retried["threadId"], failed["threadId"]);
    assert_ne!(retried["runId"], failed["runId"]);
    assert_eq!(
        retried["messages"], failed["messages"],
        "the history of the failed run, without its partial answer"
    );
    assert_eq!(retried["messages"].as_array().map(Vec::len), Some(3));
    assert!(!stub_body(2).contains("half-written"));
    answer_and_close(2, &retried, "a-2", "The full answer.");
    wait_until(&store, "success", || run_status(root) == "success").await;

    assert!(banner_text(root).is_none());
    assert_eq!(assistant_text(root), "Ready.\nThe full answer.");
    assert_eq!(user_rows(root).len(), 2);
}

// ---- 8. CRLF framing split across chunks ----------------------------------------------------

#[wasm_bindgen_test]
async fn crlf_framing_split_between_cr_and_lf_renders() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    store.send("crlf please".to_owned());
    let body = request(0).await;
    let events = [
        run_started(&body),
        text_start("a-1"),
        text_content("a-1", "Olá, "),
        text_content("a-1", "**café** ☕ "),
        text_content("a-1", "over CRLF."),
        text_end("a-1"),
        run_finished(&body),
    ];
    // Each event as a multi-line frame: a comment, `event:` and `id:` fields, and the JSON
    // pretty-printed over several `data:` lines (joined with '\n' it is the same JSON). A
    // client that took a CRLF split across chunks for two line ends would dispatch half a
    // frame here.
    let wire: String = events
        .iter()
        .enumerate()
        .map(|(n, e)| {
            let pretty = serde_json::to_string_pretty(e).expect("json");
            let data: String = pretty.lines().map(|l| format!("data: {l}\r\n")).collect();
            format!(": keep-alive\r\nevent: message\r\nid: {n}\r\n{data}\r\n")
        })
        .collect();
    let bytes = wire.as_bytes();
    // Cut right after every '\r' of a "\r\n" (so the next chunk starts with '\n'), and once
    // inside the multi-byte '☕'.
    let mut cuts: Vec<usize> = bytes
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w == b"\r\n")
        .map(|(i, _)| i + 1)
        .collect();
    let cup = wire.find('☕').expect("the cup") + 1;
    cuts.push(cup);
    cuts.sort_unstable();
    let mut start = 0;
    let mut pieces = Vec::new();
    for cut in cuts {
        pieces.push(&bytes[start..cut]);
        start = cut;
    }
    pieces.push(&bytes[start..]);
    assert!(pieces.iter().any(|p| p.ends_with(b"\r")));
    assert!(pieces
        .iter()
        .skip(1)
        .all(|p| p.starts_with(b"\n") || p[0] >= 0x80));
    for (n, piece) in pieces.iter().enumerate() {
        assert!(stub_enqueue(0, piece), "piece {n} accepted");
        if n % 3 == 0 {
            sleep(5).await;
        }
    }
    assert!(stub_close(0));
    wait_until(&store, "the run ends", || {
        !store.running().get_untracked() && run_status(root) != "running"
    })
    .await;

    assert_eq!(run_status(root), "success", "{:?}", banner_text(root));
    assert!(banner_text(root).is_none());
    assert_eq!(assistant_rows(root).len(), 1);
    assert_eq!(assistant_text(root).trim(), "Olá, café ☕ over CRLF.");
    let strong = q(root, r#"[data-role="assistant"] strong"#).expect("markdown bold");
    assert_eq!(text_of(&strong), "café");
    assert!(
        store.warnings().get_untracked().is_empty(),
        "{:?}",
        store.warnings().get_untracked()
    );
}

// ---- the demo transport: the same Stop race ------------------------------------------------

#[wasm_bindgen_test]
async fn demo_agent_stop_then_send_keeps_the_new_run_running() {
    // The same race on the demo transport, where a person can hit it: Stop, then send again
    // while the stopped playback is still sleeping before its next chunk. When that sleep
    // ends, the stopped playback must not end the new run.
    let container = fresh_container();
    let store = AgentStore::new(AgentConfig {
        endpoint: None,
        demo_speed: 1.0,
        ..Default::default()
    });
    let handle = web_support::mount_demo(container.clone(), store);
    let root: Element = container.clone().into();
    settle(&store).await;

    store.send("plan a team offsite in Lisbon".to_owned());
    wait_until(&store, "the demo answers", || {
        !assistant_text(root.as_ref()).trim().is_empty()
    })
    .await;
    store.stop();
    store.send("and a second question".to_owned());
    settle(&store).await;
    assert_eq!(run_status(&root), "running");

    // For 1.5 s: the Stop button and `running` agree with the run status at every look.
    let until = now() + 1_500.0;
    while now() < until {
        settle(&store).await;
        let status = run_status(&root);
        let running = store.running().get_untracked();
        assert_eq!(
            running,
            status == "running",
            "running flag {running} while the run is {status}"
        );
        assert_eq!(testid(&root, "composer-stop").is_some(), running);
        sleep(20).await;
    }
    store.stop();
    settle(&store).await;
    drop(handle);
    container.remove();
}

// ---- retry of a failed resume --------------------------------------------------------------

// Regression: Retry after a resume run that failed truncated the message that asked and ran
// again without `resume`, while the interrupt was still open.
#[wasm_bindgen_test]
async fn retry_after_a_failed_resume_resends_the_same_answers() {
    let _stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);

    store.send("ask me".to_owned());
    let first = request(0).await;
    let interrupted = json!({
        "type": "RUN_FINISHED", "threadId": first["threadId"], "runId": first["runId"],
        "outcome": {"type": "interrupt", "interrupts": [
            {"id": "i-1", "reason": "input_required", "message": "How many?"}
        ]}
    });
    send_chunk(
        0,
        &[
            sse_frame(run_started(&first)),
            sse_frame(text_start("ask-1")),
            sse_frame(text_content("ask-1", "How many are coming?")),
            sse_frame(text_end("ask-1")),
            sse_frame(interrupted),
        ]
        .concat(),
    );
    assert!(stub_close(0), "stream 0 closes");
    wait_until(&store, "interrupted", || run_status(root) == "interrupted").await;

    store
        .answer_interrupt("i-1", json!({"n": 3}))
        .expect("the open interrupt accepts an answer");
    let resumed = request(1).await;
    assert_eq!(
        resumed["resume"],
        json!([{"interruptId": "i-1", "status": "resolved", "payload": {"n": 3}}])
    );
    send_chunk(
        1,
        &[
            sse_frame(run_started(&resumed)),
            sse_frame(json!({"type": "RUN_ERROR", "message": "payload rejected"})),
        ]
        .concat(),
    );
    assert!(stub_close(1), "stream 1 closes");
    wait_until(&store, "the error banner", || banner_text(root).is_some()).await;

    click_testid(root, "retry");
    let retried = request(2).await;
    assert_ne!(retried["runId"], resumed["runId"], "a new run id");
    assert_eq!(retried["resume"], resumed["resume"], "the same answers");
    assert_eq!(
        retried["messages"], resumed["messages"],
        "the history, including the message that asked, is unchanged"
    );
    answer_and_close(2, &retried, "a-2", "Three it is.");
    wait_until(&store, "success", || run_status(root) == "success").await;
    assert!(assistant_text(root).contains("Three it is."));
    assert!(assistant_text(root).contains("How many are coming?"));
}

// Issue 12.1: every run's endpoint is checked where it is sent, whoever set it (attribute,
// URL, the agent picker, JS), with the browser's own URL parser.
#[wasm_bindgen_test]
fn the_transport_refuses_non_http_endpoints_and_those_outside_the_allow_list() {
    use agui_leptos::session::EndpointRefusal;
    use agui_leptos::transport::{check_endpoint, TransportError};
    let reason =
        |endpoint: &str, allowed: Option<&[String]>| match check_endpoint(endpoint, allowed) {
            Ok(()) => None,
            Err(TransportError::Refused { reason, .. }) => Some(reason),
            Err(e) => panic!("{e}"),
        };
    for bad in [
        "data:text/event-stream,x",
        "javascript:alert(1)",
        " java\tscript:x",
        "blob:x",
    ] {
        assert_eq!(reason(bad, None), Some(EndpointRefusal::Scheme), "{bad:?}");
    }
    assert_eq!(reason("/api/agui", None), None);
    assert_eq!(reason("https://agent.example/x", None), None);
    let allowed = ["/api".to_owned(), "https://agent.example".to_owned()];
    assert_eq!(reason("/api/agui", Some(&allowed)), None);
    assert_eq!(
        reason("https://agent.example/deep/path", Some(&allowed)),
        None
    );
    for outside in [
        "/apix",
        "/other",
        "https://evil.example/api",
        "//evil.example/api",
    ] {
        assert_eq!(
            reason(outside, Some(&allowed)),
            Some(EndpointRefusal::NotAllowed),
            "{outside:?}"
        );
    }
    // userinfo does not change the origin the browser would connect to.
    assert_eq!(
        reason("https://agent.example@evil.example/", Some(&allowed)),
        Some(EndpointRefusal::NotAllowed)
    );
}

// ---- issue 15.1: an AI SDK route ------------------------------------------------------------

const AI_SDK_HEADER: &str = "x-vercel-ai-ui-message-stream";

fn chunks(parts: &[Value]) -> String {
    parts.iter().map(|p| format!("data: {p}\n\n")).collect()
}

#[wasm_bindgen_test]
async fn an_ai_sdk_route_gets_use_chat_requests_and_its_stream_renders_as_it_arrives() {
    let stub = FetchStub::install();
    let m = mount_store(AgentStore::new(AgentConfig {
        endpoint: Some("/api/chat".into()),
        wire: agui_leptos::protocol::Wire::AiSdk,
        ..Default::default()
    }))
    .await;
    let (root, store) = (&m.root, m.store);
    stub.plan(200, "text/event-stream", None, true);
    stub_plan_header(AI_SDK_HEADER, "v1");
    store.send("Hi".to_owned());
    let body = request(0).await;
    assert_eq!(body["trigger"], "submit-message");
    assert_eq!(body["messages"][0]["parts"][0]["text"], "Hi");
    assert!(body.get("runId").is_none(), "{body}");
    assert_eq!(
        stub_header(0, "accept").as_deref(),
        Some("text/event-stream")
    );
    send_chunk(
        0,
        &chunks(&[
            json!({"type": "start", "messageId": "m1"}),
            json!({"type": "text-start", "id": "t1"}),
            json!({"type": "text-delta", "id": "t1", "delta": "Hel"}),
        ]),
    );
    let deadline = now() + 3_000.0;
    while !assistant_text(root).contains("Hel") {
        assert!(now() < deadline, "the first delta never rendered");
        sleep(10).await;
    }
    send_chunk(
        0,
        &[
            chunks(&[
                json!({"type": "text-delta", "id": "t1", "delta": "lo **there**"}),
                json!({"type": "text-end", "id": "t1"}),
                json!({"type": "finish"}),
            ]),
            "data: [DONE]\n\n".to_owned(),
        ]
        .concat(),
    );
    assert!(stub_close(0));
    wait_until(&store, "success", || run_status(root) == "success").await;
    assert!(assistant_text(root).contains("Hello there"));
    assert!(banner_text(root).is_none());
}

#[wasm_bindgen_test]
async fn an_ag_ui_endpoint_that_answers_an_ai_sdk_stream_is_read_and_then_spoken_to_that_way() {
    let stub = FetchStub::install();
    let m = mount().await;
    let (root, store) = (&m.root, m.store);
    stub.plan(200, "text/event-stream; charset=utf-8", None, true);
    stub_plan_header(AI_SDK_HEADER, "v1");
    store.send("Hi".to_owned());
    let body = request(0).await;
    assert!(
        body.get("runId").is_some(),
        "an AG-UI request first: {body}"
    );
    send_chunk(
        0,
        &chunks(&[
            json!({"type": "start", "messageId": "m1"}),
            json!({"type": "text-start", "id": "t1"}),
            json!({"type": "text-delta", "id": "t1", "delta": "Detected."}),
            json!({"type": "text-end", "id": "t1"}),
            json!({"type": "finish"}),
        ]),
    );
    assert!(stub_close(0));
    wait_until(&store, "success", || run_status(root) == "success").await;
    assert!(assistant_text(root).contains("Detected."));
    store.send("More".to_owned());
    let second = request(1).await;
    assert_eq!(second["trigger"], "submit-message", "{second}");
    assert_eq!(second["messages"][1]["parts"][0]["text"], "Detected.");
}

// ---- issue 15.2: the protobuf binding ------------------------------------------------------

#[wasm_bindgen_test]
async fn a_protobuf_response_is_read_from_its_frames_when_the_page_admits_it() {
    let stub = FetchStub::install();
    let m = mount_store(AgentStore::new(AgentConfig {
        endpoint: Some("/agent".into()),
        protobuf: true,
        ..Default::default()
    }))
    .await;
    let (root, store) = (&m.root, m.store);
    stub.plan(200, "application/vnd.ag-ui.event+proto", None, true);
    store.send("Hi".to_owned());
    request(0).await;
    assert_eq!(
        stub_header(0, "accept").as_deref(),
        Some("text/event-stream, application/vnd.ag-ui.event+proto")
    );
    // The reference encoder's bytes (tests/e2e/proto_fixtures.mjs), in uneven pieces.
    let body = include_bytes!("../fixtures/proto/run.bin");
    for piece in body.chunks(97) {
        assert!(stub_enqueue(0, piece));
        sleep(1).await;
    }
    assert!(stub_close(0));
    // The fixture's run ends with an interrupt outcome (an approval).
    wait_until(&store, "the interrupt", || {
        run_status(root) == "interrupted"
    })
    .await;
    assert!(
        assistant_text(root).contains("Ein Kätzchen."),
        "{}",
        assistant_text(root)
    );
    assert!(banner_text(root).is_none());
}
