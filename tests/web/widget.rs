//! Browser tests of the embeddable widget (headless Chromium): `<agui-chat>` in a shadow root,
//! isolation from host CSS both ways, the JS API (`window.AguiChat`) with a JS frontend tool,
//! DOM events out, several independent widgets, the popup mode's keyboard behaviour,
//! declarative `[data-agui-endpoint]` mounting, and the language: right to left, the page's
//! own strings.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::transport::sleep;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use web_support::{document, now, q_all, testid, text_of};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
let requests = [];
let saved = null;
const sse = (events) => events.map((e) => 'data: ' + JSON.stringify(e) + '\n\n').join('');
// Replaces fetch with an agent: `reply(body, r)` gives the response to each request body
// (`r` = its threadId and runId); every body is recorded.
function install_agent(reply) {
  requests = [];
  if (saved === null) saved = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const body = JSON.parse(await req.text());
    requests.push(body);
    return reply(body, { threadId: body.threadId, runId: body.runId });
  };
}
export function install_tool_agent() {
  install_agent((body, r) => {
    const last = body.messages[body.messages.length - 1];
    const events = last.role === 'tool'
      ? [{ type: 'RUN_STARTED', ...r },
         { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
         { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'You are in ' + JSON.parse(last.content).city },
         { type: 'TEXT_MESSAGE_END', messageId: 'a2' },
         { type: 'RUN_FINISHED', ...r }]
      : [{ type: 'RUN_STARTED', ...r },
         { type: 'TOOL_CALL_START', toolCallId: 'loc-1', toolCallName: 'get_location' },
         { type: 'TOOL_CALL_ARGS', toolCallId: 'loc-1', delta: '{"precise":true}' },
         { type: 'TOOL_CALL_END', toolCallId: 'loc-1' },
         { type: 'RUN_FINISHED', ...r }];
    return new Response(sse(events), { headers: { 'content-type': 'text/event-stream' } });
  });
}
// An agent that calls the page's tool again on every answer (issue 12, item 7).
export function install_looping_agent() {
  let n = 0;
  install_agent((body, r) => {
    n += 1;
    const id = 'loop-' + n;
    const events = [{ type: 'RUN_STARTED', ...r },
      { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'get_location' },
      { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: id },
      { type: 'RUN_FINISHED', ...r }];
    return new Response(sse(events), { headers: { 'content-type': 'text/event-stream' } });
  });
}
export function request_count() { return requests.length; }
// An agent that answers and suggests follow-ups with a CUSTOM `suggestions` event.
export function install_suggesting_agent() {
  install_agent((body, r) => {
    const events = [{ type: 'RUN_STARTED', ...r },
      { type: 'TEXT_MESSAGE_START', messageId: 'a-' + r.runId, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a-' + r.runId, delta: 'Done.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a-' + r.runId },
      { type: 'CUSTOM', name: 'suggestions', value: ['Book the venue', { title: 'Compare prices' }] },
      { type: 'RUN_FINISHED', ...r }];
    return new Response(sse(events), { headers: { 'content-type': 'text/event-stream' } });
  });
}
export function last_user_text() {
  const last = requests[requests.length - 1];
  const users = last.messages.filter((m) => m.role === 'user');
  return users[users.length - 1].content;
}
export function adopted_css(root) {
  return [...root.adoptedStyleSheets].map((s) => [...s.cssRules].map((r) => r.cssText).join('\n')).join('\n');
}
export function same_sheet(a, b) {
  return a.adoptedStyleSheets.length === 1 && a.adoptedStyleSheets[0] === b.adoptedStyleSheets[0];
}
// A site's own agent: a venue search whose arguments stream in pieces, then a call to a tool
// the page never registered. The body is a real stream, so the page sees the pieces arrive.
export function install_site_agent() {
  install_agent((body, r) => {
    const steps = [
      [0, { type: 'RUN_STARTED', ...r }],
      [0, { type: 'TOOL_CALL_START', toolCallId: 'v-1', toolCallName: 'search_venues' }],
      [0, { type: 'TOOL_CALL_ARGS', toolCallId: 'v-1', delta: '{"city":"Lis' }],
      [120, { type: 'TOOL_CALL_ARGS', toolCallId: 'v-1', delta: 'bon","kind":"bar"}' }],
      [120, { type: 'TOOL_CALL_END', toolCallId: 'v-1' }],
      [0, { type: 'TOOL_CALL_RESULT', messageId: 'res-1', toolCallId: 'v-1',
            content: JSON.stringify({ venues: [{ name: 'Bar Azul', area: 'Alfama' }] }) }],
      [0, { type: 'TOOL_CALL_START', toolCallId: 'p-1', toolCallName: 'confirm_payment' }],
      [0, { type: 'TOOL_CALL_ARGS', toolCallId: 'p-1', delta: '{"amount":5,"currency":"EUR"}' }],
      [0, { type: 'TOOL_CALL_END', toolCallId: 'p-1' }],
      [0, { type: 'RUN_FINISHED', ...r }],
    ];
    const enc = new TextEncoder();
    const stream = new ReadableStream({
      async start(c) {
        for (const [wait, e] of steps) {
          if (wait) await new Promise((ok) => setTimeout(ok, wait));
          c.enqueue(enc.encode('data: ' + JSON.stringify(e) + '\n\n'));
        }
        c.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  });
}
// The page's own card: remembers every toolCall it was given.
export function define_venue_element() {
  if (customElements.get('acme-venue-card')) return;
  customElements.define('acme-venue-card', class extends HTMLElement {
    constructor() { super(); this.seen = []; }
    set toolCall(call) {
      this.seen.push(call);
      this.textContent = call.name + ':' + call.status + ':' + JSON.stringify(call.args) +
        (call.result ? ':' + call.result.venues.map((v) => v.name).join(',') : '');
    }
  });
}
export function mount_with_renderer(el) {
  return window.AguiChat.mount(el, {
    endpoint: '/site-agent', threadKey: 'site-' + Math.random(),
    renderers: { search_venues: 'acme-venue-card', other: 'img onerror', third: 'script' },
    suggestions: ['What is on tonight?', { prompt: 'Book a table', hint: 'reserve' }],
  });
}
export function seen_calls(el) { return JSON.stringify(el.seen || []); }
export function restore_fetch() { if (saved !== null) { globalThis.fetch = saved; saved = null; } }
export function requests_json() { return JSON.stringify(requests); }
// A schema with what JSON.stringify keeps, changes and drops.
const schema = () => ({
  type: 'object',
  properties: {
    precise: { type: 'boolean', default: false },
    radius: { type: 'number', minimum: 0.5, maximum: 100, examples: [1, -2.25, null, undefined] },
    mode: { enum: ['gps', 'ip', 'é ✓'] },
  },
  required: ['precise'], additionalProperties: false,
  note: undefined, method() {}, notANumber: NaN,
});
export function schema_json() { return JSON.stringify(schema()); }
export function mount_with_tool(el, calls) {
  return window.AguiChat.mount(el, {
    endpoint: '/tool-agent', threadKey: 'tool-' + Math.random(),
    tools: [{ name: 'get_location', description: 'Where the browser is',
              parameters: schema(),
              handler: async (args) => { calls.push(args); return { city: 'Lisbon' }; } }],
  });
}
// The options object the chat was mounted with, its handler replaced after the mount (what the
// loader's element does when a page gives a new handler): the new one answers.
export function mount_then_swap_handler(el, calls) {
  const options = {
    endpoint: '/tool-agent', threadKey: 'swap-' + Math.random(),
    tools: [{ name: 'get_location', description: 'Where the browser is', parameters: schema(),
              handler: async () => { calls.push('first'); return { city: 'Porto' }; } }],
  };
  const handle = window.AguiChat.mount(el, options);
  options.tools = [{ ...options.tools[0],
                     handler: async () => { calls.push('second'); return { city: 'Lisbon' }; } }];
  return handle;
}
// A polluted prototype, then a mount with empty options; the pollution is taken back.
export function mount_polluted(el) {
  const keys = { mode: 'popup', endpoint: 'https://evil.example/agui', title: 'Evil',
                 tools: [{ name: 'steal', handler: () => 1 }] };
  Object.assign(Object.prototype, keys);
  try { return window.AguiChat.mount(el, {}); } finally {
    for (const k of Object.keys(keys)) delete Object.prototype[k];
  }
}
export function mount_json(el, json) { return window.AguiChat.mount(el, JSON.parse(json)); }
// The site's thread store in the page's code: records by id with a version, every call
// logged; `conflictNext` answers the next save 412 after another device's save.
export function thread_store() {
  const store = {
    records: { 'phone-1': { etag: 'e1', record: {
      id: 'phone-1', title: 'From the phone', updatedAt: '2026-12-01T10:00:00.000Z',
      messages: [{ id: 'pu1', role: 'user', content: 'hello from the phone' },
                 { id: 'pa1', role: 'assistant', content: 'Hi! How can I help?' }] } } },
    log: [], version: 1, conflictNext: false,
    list(cursor) {
      this.log.push('list ' + cursor);
      return Object.values(this.records).map(({ record: r }) => ({ id: r.id, title: r.title, updatedAt: r.updatedAt }));
    },
    async load(id) { this.log.push('load ' + id); return this.records[id] || null; },
    async save(id, record, { etag }) {
      this.log.push('save ' + id + ' ' + etag);
      const have = this.records[id];
      if (this.conflictNext) {
        this.conflictNext = false;
        const r = structuredClone(have.record);
        r.messages.push({ id: 'pu9', role: 'user', content: 'meanwhile on the phone' });
        r.updatedAt = '2026-12-02T10:00:00.000Z';
        this.records[id] = { etag: 'e' + ++this.version, record: r };
        throw Object.assign(new Error('moved on'), { status: 412 });
      }
      if (etag === null ? have : !have || (etag !== '*' && etag !== have.etag)) {
        throw Object.assign(new Error('moved on'), { status: 412 });
      }
      this.records[id] = { etag: 'e' + ++this.version, record };
      return this.records[id].etag;
    },
    async remove(id) { this.log.push('remove ' + id); delete this.records[id]; },
  };
  return store;
}
export function mount_with_threads(el, threads) {
  return window.AguiChat.mount(el, { threadKey: 'threads-' + Math.random(), speed: 0, threads });
}
export function mount_keyed(el, key, threads) {
  return window.AguiChat.mount(el, threads ? { threadKey: key, speed: 0, threads } : { threadKey: key, speed: 0 });
}
export function empty_store() {
  const store = thread_store();
  store.records = {};
  return store;
}
export function store_log(store) { return JSON.stringify(store.log); }
export function stored_json(store, id) { return JSON.stringify(store.records[id]?.record ?? null); }
export function conflict_next(store) { store.conflictNext = true; }
export function forget_all() { return window.AguiChat.forget(); }
// An agent whose answer streams a ```chart block in pieces (a real stream, so the page sees
// the block grow), then a ```dot block no renderer of the page draws.
export function install_chart_agent() {
  install_agent((body, r) => {
    const m = 'chart-' + r.runId;
    const text = (delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: m, delta });
    const steps = [
      [0, { type: 'RUN_STARTED', ...r }],
      [0, { type: 'TEXT_MESSAGE_START', messageId: m, role: 'assistant' }],
      [0, text('Sales:\n\n```Chart\nmon 3\n')],
      [150, text('tue 5\n')],
      [150, text('wed 8\n```\n\n```dot\ndigraph { a -> b }\n```\n')],
      [0, { type: 'TEXT_MESSAGE_END', messageId: m }],
      [0, { type: 'RUN_FINISHED', ...r }],
    ];
    const enc = new TextEncoder();
    const stream = new ReadableStream({
      async start(c) {
        for (const [wait, e] of steps) {
          if (wait) await new Promise((ok) => setTimeout(ok, wait));
          c.enqueue(enc.encode('data: ' + JSON.stringify(e) + '\n\n'));
        }
        c.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  });
}
// The page's chart: every (code, complete) any of them was given (the streaming block's
// element gives way to the finished block's).
let charts_seen = [];
export function define_chart_element() {
  charts_seen = [];
  if (customElements.get('acme-chart')) return;
  customElements.define('acme-chart', class extends HTMLElement {
    set code(text) { this._code = text; charts_seen.push({ code: text, complete: this._complete }); }
    get code() { return this._code; }
    set complete(done) { this._complete = done; charts_seen.push({ code: this._code, complete: done }); }
    get complete() { return this._complete; }
  });
}
export function mount_with_code_renderers(el) {
  return window.AguiChat.mount(el, {
    endpoint: '/chart-agent', threadKey: 'chart-' + Math.random(),
    codeRenderers: { chart: 'acme-chart', dot: 'script', svg: 'Acme-Chart', '<>': 'x-y' },
  });
}
export function seen_code() { return JSON.stringify(charts_seen); }
// An agent that takes only `Authorization: Bearer fresh` (401 for anything else; 403 for
// `Bearer banned`) and a page whose `headers` function hands out a cached token until it is
// asked to refresh. Every Authorization sent and every ask are recorded.
let auths = [];
let asks = [];
export function install_token_agent() {
  auths = [];
  install_agent((body, r) => {
    return new Response(sse([{ type: 'RUN_STARTED', ...r },
      { type: 'TEXT_MESSAGE_START', messageId: 'a-' + r.runId, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a-' + r.runId, delta: 'Signed in.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a-' + r.runId },
      { type: 'RUN_FINISHED', ...r }]), { headers: { 'content-type': 'text/event-stream' } });
  });
  const reply = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const auth = req.headers.get('authorization');
    auths.push(auth + '|' + req.headers.get('x-tenant'));
    if (auth === 'Bearer banned') return new Response('banned', { status: 403 });
    if (auth !== 'Bearer fresh') return new Response('expired', { status: 401 });
    return reply(req);
  };
}
export function mount_with_token_source(el, mode) {
  asks = [];
  let token = mode === 'banned' ? 'banned' : 'stale';
  return window.AguiChat.mount(el, {
    endpoint: '/token-agent', threadKey: 'token-' + Math.random(),
    headers: async ({ refresh }) => {
      asks.push(refresh);
      if (mode === 'throws') throw new Error('no session');
      if (refresh && mode !== 'banned') token = 'fresh';
      return { Authorization: 'Bearer ' + token, 'X-Tenant': 'acme' };
    },
  });
}
export function token_log() { return JSON.stringify({ auths, asks }); }
export function press(el, key) {
  el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
}
export function listen(el, names) {
  const seen = [];
  for (const n of names) el.addEventListener(n, (e) => seen.push({ type: e.type, detail: e.detail }));
  return seen;
}
"#)]
extern "C" {
    fn install_tool_agent();
    fn install_looping_agent();
    fn request_count() -> u32;
    fn install_suggesting_agent();
    fn last_user_text() -> String;
    fn adopted_css(root: &web_sys::ShadowRoot) -> String;
    fn same_sheet(a: &web_sys::ShadowRoot, b: &web_sys::ShadowRoot) -> bool;
    fn install_site_agent();
    fn define_venue_element();
    fn mount_with_renderer(el: &HtmlElement) -> JsValue;
    fn seen_calls(el: &Element) -> String;
    fn restore_fetch();
    fn install_token_agent();
    fn mount_with_token_source(el: &HtmlElement, mode: &str) -> JsValue;
    fn token_log() -> String;
    fn requests_json() -> String;
    fn mount_with_tool(el: &HtmlElement, calls: &js_sys::Array) -> JsValue;
    fn mount_then_swap_handler(el: &HtmlElement, calls: &js_sys::Array) -> JsValue;
    fn schema_json() -> String;
    fn listen(el: &HtmlElement, names: js_sys::Array) -> js_sys::Array;
    fn press(el: &Element, key: &str);
    fn mount_polluted(el: &HtmlElement) -> JsValue;
    fn mount_json(el: &HtmlElement, options: &str) -> JsValue;
    fn thread_store() -> JsValue;
    fn mount_with_threads(el: &HtmlElement, threads: &JsValue) -> JsValue;
    fn store_log(store: &JsValue) -> String;
    fn mount_keyed(el: &HtmlElement, key: &str, threads: &JsValue) -> JsValue;
    fn empty_store() -> JsValue;
    fn stored_json(store: &JsValue, id: &str) -> String;
    fn conflict_next(store: &JsValue);
    fn forget_all() -> u32;
    fn install_chart_agent();
    fn define_chart_element();
    fn mount_with_code_renderers(el: &HtmlElement) -> JsValue;
    fn seen_code() -> String;
}

/// The app's binary does this: the widget side of the page, with the demo as a plug-in for
/// widgets without an endpoint.
fn start() {
    agui_leptos::widget::start_with_demo(agui_leptos::demo::ui::plugins);
}

/// A fresh `<agui-chat>` with `attrs`, appended to the body (which mounts it).
fn element(attrs: &[(&str, &str)]) -> HtmlElement {
    start();
    let el: HtmlElement = document()
        .create_element("agui-chat")
        .expect("create")
        .dyn_into()
        .expect("html element");
    for (k, v) in attrs {
        el.set_attribute(k, v).expect("attribute");
    }
    // A fresh thread per test: the key is unique.
    if !attrs.iter().any(|(k, _)| *k == "thread-key") {
        let key = format!("t{}", (js_sys::Math::random() * 1e9) as u64);
        el.set_attribute("thread-key", &key).expect("key");
    }
    document()
        .body()
        .expect("body")
        .append_child(&el)
        .expect("append");
    el
}

/// The widget's frame inside the shadow root (queries start here).
fn frame(host: &HtmlElement) -> Element {
    host.shadow_root()
        .expect("an open shadow root")
        .query_selector(".agui-frame")
        .expect("selector")
        .expect("the frame is mounted")
}

async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = now() + 5000.0;
    while !cond() {
        assert!(now() < deadline, "timed out waiting for {what}");
        sleep(10).await;
    }
}

async fn send(host: &HtmlElement, text: &str) {
    let root = frame(host);
    let input: web_sys::HtmlTextAreaElement = testid(&root, "composer-input")
        .expect("composer")
        .dyn_into()
        .expect("textarea");
    input.set_value(text);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    testid(&root, "composer-send")
        .expect("send")
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
}

/// Waits until a message of the widget in `host` says `needle`.
async fn until_text(host: &HtmlElement, needle: &str) {
    until("the answer", || {
        q_all(&frame(host), r#"[data-testid="message-text"]"#)
            .iter()
            .any(|m| text_of(m).contains(needle))
    })
    .await;
}

fn status(host: &HtmlElement) -> String {
    web_support::run_status(&frame(host))
}

#[wasm_bindgen_test]
async fn custom_element_renders_in_its_own_shadow_root() {
    let el = element(&[("speed", "0")]);
    leptos::task::tick().await;
    let root = frame(&el);
    assert!(
        testid(&root, "composer-input").is_some(),
        "the chat is inside"
    );
    // Its styles: one constructed stylesheet (a strict CSP blocks a <style> element), the
    // same object in every widget of the page.
    let shadow = el.shadow_root().unwrap();
    assert!(
        shadow.query_selector("style").unwrap().is_none(),
        "no <style> element"
    );
    assert!(adopted_css(&shadow).contains("--agui-color-accent"));
    let other = element(&[("speed", "0")]);
    leptos::task::tick().await;
    assert!(
        same_sheet(&shadow, &other.shadow_root().unwrap()),
        "one shared sheet"
    );
    other.remove();
    // Nothing of the chat lands in the light DOM.
    assert_eq!(el.children().length(), 0);
    el.remove();
}

#[wasm_bindgen_test]
async fn host_css_does_not_break_the_widget_and_ours_does_not_touch_the_host() {
    let doc = document();
    // A host button styled only by the browser, measured before any widget CSS exists…
    let host_button: HtmlElement = doc.create_element("button").unwrap().dyn_into().unwrap();
    host_button.set_class_name("agui-button agui-composer__send");
    host_button.set_text_content(Some("host"));
    doc.body().unwrap().append_child(&host_button).unwrap();
    let window = web_sys::window().unwrap();
    let before = window
        .get_computed_style(&host_button)
        .unwrap()
        .unwrap()
        .get_property_value("border-radius")
        .unwrap();

    let hostile = doc.create_element("style").unwrap();
    hostile.set_text_content(Some(
        "* { color: rgb(255, 0, 0) !important; font-family: serif !important; }
         button { background: rgb(0, 255, 0) !important; padding: 40px !important; }
         div { display: inline !important; margin: 30px !important; }",
    ));
    doc.head().unwrap().append_child(&hostile).unwrap();
    let el = element(&[("speed", "0")]);
    leptos::task::tick().await;
    let root = frame(&el);
    let send = testid(&root, "composer-send").expect("send button");
    let css = window.get_computed_style(&send).unwrap().unwrap();
    assert_ne!(
        css.get_property_value("background-color").unwrap(),
        "rgb(0, 255, 0)"
    );
    assert_ne!(css.get_property_value("padding-top").unwrap(), "40px");
    let input = testid(&root, "composer-input").unwrap();
    let css = window.get_computed_style(&input).unwrap().unwrap();
    assert_ne!(css.get_property_value("color").unwrap(), "rgb(255, 0, 0)");
    assert!(!css
        .get_property_value("font-family")
        .unwrap()
        .starts_with("serif"));
    let main = testid(&root, "chat-main").unwrap();
    let css = window.get_computed_style(&main).unwrap().unwrap();
    assert_ne!(css.get_property_value("display").unwrap(), "inline");

    // …and is still the same with the widget's stylesheet on the page.
    hostile.remove();
    let after = window
        .get_computed_style(&host_button)
        .unwrap()
        .unwrap()
        .get_property_value("border-radius")
        .unwrap();
    assert_eq!(before, after, "widget CSS must not style host elements");
    host_button.remove();
    el.remove();
}

// Issue 13, item 4: the agent's follow-ups (a CUSTOM `suggestions` event) become chips after
// its run; one sends its prompt.
#[wasm_bindgen_test]
async fn the_agents_suggestions_become_chips_after_its_run() {
    install_suggesting_agent();
    let el = element(&[("endpoint", "/suggesting-agent")]);
    leptos::task::tick().await;
    send(&el, "find a venue").await;
    until("the run to finish", || status(&el) == "success").await;
    until("the chips", || {
        !q_all(&frame(&el), r#"[data-testid="suggestion"]"#).is_empty()
    })
    .await;
    let chips = q_all(&frame(&el), r#"[data-testid="suggestion"]"#);
    let labels: Vec<String> = chips.iter().map(text_of).collect();
    assert_eq!(labels, ["Book the venue", "Compare prices"]);
    chips[0].clone().dyn_into::<HtmlElement>().unwrap().click();
    until("the chip's run", || request_count() == 2).await;
    assert_eq!(last_user_text(), "Book the venue");
    until("the run to finish", || status(&el) == "success").await;
    restore_fetch();
    el.remove();
}

// Issue 13, item 4: the page's chips from an attribute.
#[wasm_bindgen_test]
async fn the_suggestions_attribute_gives_the_chips() {
    let el = element(&[
        ("endpoint", "/not-called"),
        (
            "suggestions",
            r#"["Track my order", {"title": "Talk to a person", "description": "a human"}]"#,
        ),
    ]);
    leptos::task::tick().await;
    let chips = q_all(&frame(&el), r#"[data-testid="suggestion"]"#);
    let labels: Vec<String> = chips.iter().map(text_of).collect();
    assert_eq!(labels, ["Track my order", "Talk to a person"]);
    assert_eq!(chips[1].get_attribute("title").as_deref(), Some("a human"));
    el.remove();
}

/// The JSON attributes are read by the browser's `JSON.parse` (the lean widget has no JSON
/// parser of its own): an object by its own entries, and nesting past a budget is a problem
/// shown, never a crash.
#[wasm_bindgen_test]
async fn json_attributes_are_read_by_the_browser_within_a_nesting_budget() {
    let el = element(&[
        ("endpoint", "/not-called"),
        (
            "suggestions",
            r#"[{"__proto__": {"title": "polluted"}, "title": "Ask"}, "Track"]"#,
        ),
    ]);
    leptos::task::tick().await;
    let labels: Vec<String> = q_all(&frame(&el), r#"[data-testid="suggestion"]"#)
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(labels, ["Ask", "Track"]);
    assert!(
        testid(&frame(&el), "warnings-count").is_none(),
        "no problem"
    );
    el.remove();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let el = element(&[("endpoint", "/not-called"), ("suggestions", &deep)]);
    leptos::task::tick().await;
    let count = testid(&frame(&el), "warnings-count").expect("the deep value is reported");
    assert_eq!(text_of(&count).trim(), "1");
    assert!(
        testid(&frame(&el), "composer-input").is_some(),
        "the widget is whole"
    );
    el.remove();
}

// Issue 13, items 1 and 6: the attachment attributes, and the agent's declared capabilities.
#[wasm_bindgen_test]
async fn attachment_attributes_and_declared_capabilities_shape_the_composer() {
    let el = element(&[
        ("endpoint", "/not-called"),
        ("accept", "image/*,.pdf"),
        ("max-files", "3"),
    ]);
    leptos::task::tick().await;
    let root = frame(&el);
    let picker = testid(&root, "attach-input").expect("the picker");
    assert_eq!(
        picker.get_attribute("accept").as_deref(),
        Some("image/*,.pdf")
    );
    // The agent declares it reads no images: only PDFs are offered.
    el.set_attribute(
        "capabilities",
        r#"{"multimodal": {"input": {"image": false}}}"#,
    )
    .unwrap();
    until("the narrowed picker", || {
        testid(&frame(&el), "attach-input").and_then(|p| p.get_attribute("accept"))
            == Some(".pdf".to_owned())
    })
    .await;
    el.remove();

    // An agent that takes no media input at all: no attach button; its name is the title.
    let el = element(&[
        ("endpoint", "/not-called"),
        ("mode", "popup"),
        (
            "capabilities",
            r#"{"identity": {"name": "Trip planner"}, "multimodal": {"input": {"image": false, "audio": false, "video": false, "pdf": false, "file": false}}}"#,
        ),
    ]);
    leptos::task::tick().await;
    let root = frame(&el);
    assert!(testid(&root, "composer").is_some());
    assert!(testid(&root, "attach").is_none(), "nothing to attach");
    assert!(
        text_of(&root).contains("Trip planner"),
        "the declared name is the title"
    );
    el.remove();

    // attachments="off", and an unusable declaration is ignored with a warning.
    let el = element(&[
        ("endpoint", "/not-called"),
        ("attachments", "off"),
        ("capabilities", r#"{"tools": {"clientProvided": "no"}}"#),
    ]);
    leptos::task::tick().await;
    let root = frame(&el);
    assert!(testid(&root, "attach").is_none());
    testid(&root, "warnings-toggle")
        .expect("a warning")
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    leptos::task::tick().await;
    let list = testid(&frame(&el), "warnings-list").expect("list");
    assert!(
        text_of(&list).contains("tools.clientProvided"),
        "{}",
        text_of(&list)
    );
    el.remove();
}

// Issue 13, item 4: thumbs and an optional comment reach the page as `agui:feedback`.
#[wasm_bindgen_test]
async fn rating_an_answer_dispatches_feedback_with_its_comment() {
    let el = element(&[("speed", "0")]);
    let seen = listen(
        &el,
        [JsValue::from_str("agui:feedback")].into_iter().collect(),
    );
    leptos::task::tick().await;
    send(&el, "think").await;
    until("the run to finish", || status(&el) == "success").await;
    let root = frame(&el);
    let click = |id: &str| {
        testid(&root, id)
            .unwrap_or_else(|| panic!("{id}"))
            .dyn_into::<HtmlElement>()
            .unwrap()
            .click()
    };
    assert!(
        testid(&root, "copy-answer").is_some(),
        "an answer can be copied"
    );
    click("rate-down");
    leptos::task::tick().await;
    let comment: web_sys::HtmlTextAreaElement = testid(&root, "feedback-comment")
        .expect("the optional comment")
        .dyn_into()
        .unwrap();
    comment.set_value("  too long  ");
    click("feedback-send");
    leptos::task::tick().await;
    assert_eq!(seen.length(), 1, "one feedback event");
    let detail = js_sys::Reflect::get(&seen.get(0), &"detail".into()).unwrap();
    let detail: serde_json::Value = serde_json::from_str(
        &js_sys::JSON::stringify(&detail)
            .unwrap()
            .as_string()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(detail["rating"], "down");
    assert_eq!(detail["comment"], "too long");
    assert!(detail["messageId"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(detail["threadId"].as_str().is_some_and(|t| !t.is_empty()));
    let down = testid(&root, "rate-down").unwrap();
    assert_eq!(down.get_attribute("aria-pressed").as_deref(), Some("true"));
    // The thumbs are drawn (an SVG, no emoji a system may lack) and named.
    for id in ["rate-up", "rate-down"] {
        let button = testid(&root, id).unwrap();
        assert!(
            button.query_selector("svg").ok().flatten().is_some(),
            "{id}: an svg"
        );
        assert_eq!(
            button.text_content().unwrap_or_default().trim(),
            "",
            "{id}: no emoji"
        );
        assert!(button
            .get_attribute("aria-label")
            .is_some_and(|l| !l.is_empty()));
    }
    assert!(testid(&root, "feedback-form").is_none(), "the form closed");
    assert!(testid(&root, "feedback-thanks").is_some());
    // Thumbs up, skipping the comment: a second event, without one.
    click("rate-up");
    leptos::task::tick().await;
    click("feedback-skip");
    leptos::task::tick().await;
    assert_eq!(seen.length(), 2);
    let detail = js_sys::Reflect::get(&seen.get(1), &"detail".into()).unwrap();
    let comment = js_sys::Reflect::get(&detail, &"comment".into()).unwrap();
    assert!(comment.is_null(), "no comment: {comment:?}");
    el.remove();
}

#[wasm_bindgen_test]
async fn a_run_dispatches_dom_events_and_the_state_is_readable() {
    let el = element(&[("speed", "0")]);
    let seen = listen(
        &el,
        [
            "agui:run-started",
            "agui:run-finished",
            "agui:state-changed",
        ]
        .into_iter()
        .map(JsValue::from_str)
        .collect(),
    );
    leptos::task::tick().await;
    send(&el, "plan our Lisbon offsite").await;
    until("the run to finish", || status(&el) == "success").await;
    until("run-finished", || {
        seen.iter()
            .any(|e| js_sys::Reflect::get(&e, &"type".into()).unwrap() == "agui:run-finished")
    })
    .await;
    let events: Vec<(String, JsValue)> = seen
        .iter()
        .map(|e| {
            (
                js_sys::Reflect::get(&e, &"type".into())
                    .unwrap()
                    .as_string()
                    .unwrap(),
                js_sys::Reflect::get(&e, &"detail".into()).unwrap(),
            )
        })
        .collect();
    let types: Vec<&str> = events.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(types.first(), Some(&"agui:run-started"), "{types:?}");
    assert_eq!(types.last(), Some(&"agui:run-finished"), "{types:?}");
    assert!(types.contains(&"agui:state-changed"), "{types:?}");
    let finished = &events.last().unwrap().1;
    let get = |k: &str| js_sys::Reflect::get(finished, &k.into()).unwrap();
    assert_eq!(get("status").as_string().as_deref(), Some("success"));
    assert!(get("runId")
        .as_string()
        .is_some_and(|r| r.starts_with("run-")));
    assert!(get("threadId").as_string().is_some());
    // `element.state` is the state the panel shows.
    let state = js_sys::Reflect::get(&el, &"state".into()).unwrap();
    assert!(state.is_object(), "state readable from the element");
    let keys = js_sys::Object::keys(state.unchecked_ref::<js_sys::Object>());
    assert!(keys.length() > 0, "the planner wrote state");
    el.remove();
}

#[wasm_bindgen_test]
async fn an_interrupt_is_announced_to_the_page() {
    let el = element(&[("speed", "0")]);
    let seen = listen(
        &el,
        [JsValue::from_str("agui:interrupt")].into_iter().collect(),
    );
    leptos::task::tick().await;
    send(&el, "ask me").await;
    until("the interrupt card", || {
        testid(&frame(&el), "interrupt").is_some()
    })
    .await;
    until("agui:interrupt", || seen.length() > 0).await;
    let detail = js_sys::Reflect::get(&seen.get(0), &"detail".into()).unwrap();
    let interrupts: js_sys::Array = js_sys::Reflect::get(&detail, &"interrupts".into())
        .unwrap()
        .dyn_into()
        .expect("an array of interrupts");
    assert_eq!(interrupts.length(), 1);
    let card_id = testid(&frame(&el), "interrupt")
        .unwrap()
        .get_attribute("data-interrupt-id");
    let id = js_sys::Reflect::get(&interrupts.get(0), &"id".into())
        .unwrap()
        .as_string();
    assert_eq!(id, card_id, "the event names the card's interrupt");
    el.remove();
}

#[wasm_bindgen_test]
async fn a_page_can_override_tokens_on_the_element() {
    let el = element(&[]);
    el.style()
        .set_property("--agui-color-bg", "rgb(1, 2, 3)")
        .unwrap();
    leptos::task::tick().await;
    let root = testid(&frame(&el), "app-root").unwrap();
    assert_eq!(background(&root), "rgb(1, 2, 3)");
    el.remove();
}

#[wasm_bindgen_test]
async fn two_widgets_on_one_page_stay_independent() {
    let a = element(&[("speed", "0")]);
    let b = element(&[("speed", "0")]);
    leptos::task::tick().await;
    send(&a, "use a tool").await;
    until("a's run", || status(&a) == "success").await;
    let messages = |h: &HtmlElement| q_all(&frame(h), r#"[data-testid="message"]"#).len();
    assert!(messages(&a) >= 2);
    assert_eq!(messages(&b), 0, "b saw nothing of a's conversation");
    assert_eq!(status(&b), "idle");
    a.remove();
    b.remove();
}

// Regression (issue 12, item 7): an agent that calls a browser tool on every answer ran
// forever by itself.
#[wasm_bindgen_test]
async fn a_tool_loop_stops_after_a_few_automatic_runs_and_asks_the_person() {
    use agui_leptos::session::hitl::MAX_AUTO_RUNS;
    start();
    install_looping_agent();
    let host = web_support::fresh_container();
    let calls = js_sys::Array::new();
    let _handle = mount_with_tool(&host, &calls);
    leptos::task::tick().await;
    send(&host, "where am I?").await;
    until("the chat to ask", || {
        testid(&frame(&host), "held-run").is_some()
    })
    .await;
    sleep(100).await;
    let runs = 1 + MAX_AUTO_RUNS;
    assert_eq!(
        request_count(),
        runs,
        "the person's run and {MAX_AUTO_RUNS} by the handler"
    );
    assert_eq!(calls.length(), runs, "the handler answered every call");
    testid(&frame(&host), "continue-run")
        .unwrap()
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    until("the held run and the next automatic ones", || {
        request_count() == 2 * runs && testid(&frame(&host), "held-run").is_some()
    })
    .await;
    restore_fetch();
    host.remove();
}

#[wasm_bindgen_test]
async fn js_api_mounts_with_a_frontend_tool_whose_answer_goes_back_to_the_agent() {
    start();
    install_tool_agent();
    let host = web_support::fresh_container();
    let calls = js_sys::Array::new();
    let handle = mount_with_tool(&host, &calls);
    leptos::task::tick().await;
    send(&host, "where am I?").await;
    until_text(&host, "You are in Lisbon").await;
    restore_fetch();
    assert_eq!(calls.length(), 1, "the handler ran once");
    let args = js_sys::JSON::stringify(&calls.get(0)).unwrap();
    assert_eq!(args.as_string().unwrap(), r#"{"precise":true}"#);
    let requests: serde_json::Value = serde_json::from_str(&requests_json()).unwrap();
    let first = &requests[0];
    let tool = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "get_location")
        .unwrap_or_else(|| panic!("the JS tool is advertised: {}", first["tools"]));
    let schema: serde_json::Value = serde_json::from_str(&schema_json()).unwrap();
    assert_eq!(
        tool["parameters"], schema,
        "its parameters as JSON.stringify reads them"
    );
    let second = &requests[1];
    let last = second["messages"].as_array().unwrap().last().unwrap();
    assert_eq!(last["role"], "tool");
    assert_eq!(last["toolCallId"], "loc-1");
    // unmount() empties the shadow root.
    let unmount: js_sys::Function = js_sys::Reflect::get(&handle, &"unmount".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(unmount.call0(&handle).unwrap(), JsValue::TRUE);
    assert_eq!(host.shadow_root().unwrap().child_element_count(), 0);
    host.remove();
}

// A tool's handler is looked up when the agent calls it, in the options object the chat was
// mounted with: a page (or the loader's element) that gives a new handler needs no remount.
#[wasm_bindgen_test]
async fn a_tool_handler_given_after_the_mount_is_the_one_called() {
    start();
    install_tool_agent();
    let host = web_support::fresh_container();
    let calls = js_sys::Array::new();
    let _handle = mount_then_swap_handler(&host, &calls);
    leptos::task::tick().await;
    send(&host, "where am I?").await;
    until_text(&host, "You are in Lisbon").await;
    restore_fetch();
    assert_eq!(calls.length(), 1);
    assert_eq!(calls.get(0).as_string().as_deref(), Some("second"));
    host.remove();
}

#[wasm_bindgen_test]
async fn in_page_mode_the_conversation_is_the_main_landmark() {
    let el = element(&[("mode", "page"), ("speed", "0")]);
    leptos::task::tick().await;
    let column = testid(&frame(&el), "chat-main").unwrap();
    assert_eq!(column.get_attribute("role").as_deref(), Some("main"));
    el.remove();
}

#[wasm_bindgen_test]
async fn popup_opens_from_the_launcher_and_escape_closes_it() {
    let el = element(&[("mode", "popup"), ("title", "Acme")]);
    leptos::task::tick().await;
    let root = frame(&el);
    let launcher: HtmlElement = testid(&root, "widget-launcher")
        .expect("launcher")
        .dyn_into()
        .unwrap();
    let panel = testid(&root, "widget-panel").unwrap();
    assert!(panel.has_attribute("hidden"), "starts closed");
    // A widget leaves the host page its single `main`: its column is a region named by it.
    let column = testid(&root, "chat-main").unwrap();
    assert_eq!(column.get_attribute("role").as_deref(), Some("region"));
    assert_eq!(column.get_attribute("aria-label").as_deref(), Some("Acme"));
    assert!(q_all(&root, "main, [role=main]").is_empty());
    assert_eq!(
        launcher.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert!(launcher
        .get_attribute("aria-label")
        .unwrap_or_default()
        .contains("Acme"));
    launcher.click();
    leptos::task::tick().await;
    assert!(!panel.has_attribute("hidden"), "opened");
    assert_eq!(
        launcher.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    press(&testid(&root, "composer-input").unwrap(), "Escape");
    leptos::task::tick().await;
    assert!(panel.has_attribute("hidden"), "Escape closes the popup");
    let active = el.shadow_root().unwrap().active_element();
    assert_eq!(
        active.map(|a| a.get_attribute("data-testid")),
        Some(Some("widget-launcher".to_owned())),
        "focus returns to the launcher"
    );
    el.remove();
}

fn background(el: &Element) -> String {
    web_sys::window()
        .unwrap()
        .get_computed_style(el)
        .unwrap()
        .unwrap()
        .get_property_value("background-color")
        .unwrap()
}

#[wasm_bindgen_test]
async fn theme_attribute_switches_in_place_and_bad_options_become_warnings() {
    let el = element(&[("theme", "dark"), ("headers", "{not json")]);
    leptos::task::tick().await;
    let widget = testid(&frame(&el), "widget").unwrap();
    assert_eq!(widget.get_attribute("data-theme").as_deref(), Some("dark"));
    let root = testid(&frame(&el), "app-root").unwrap();
    let dark = background(&root);
    let composer_before = testid(&frame(&el), "composer-input").unwrap();
    el.set_attribute("theme", "light").unwrap();
    leptos::task::tick().await;
    assert_eq!(widget.get_attribute("data-theme").as_deref(), Some("light"));
    let light = background(&root);
    assert_eq!(light, "rgb(246, 246, 244)", "the light background");
    assert_eq!(dark, "rgb(20, 20, 22)", "the dark background");
    assert!(
        composer_before.is_connected(),
        "a theme change does not remount"
    );
    let count = testid(&frame(&el), "warnings-count").expect("warnings badge");
    assert_eq!(
        text_of(&count).trim(),
        "1",
        "the bad headers attribute is reported"
    );
    testid(&frame(&el), "warnings-toggle")
        .unwrap()
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    leptos::task::tick().await;
    let list = testid(&frame(&el), "warnings-list").expect("list");
    assert!(text_of(&list).contains("headers"), "{}", text_of(&list));
    el.remove();
}

#[wasm_bindgen_test]
async fn data_attribute_elements_mount_and_removal_unmounts() {
    start();
    let host = web_support::fresh_container();
    host.set_attribute("data-agui-endpoint", "").unwrap();
    host.set_attribute("data-agui-thread-key", "declarative")
        .unwrap();
    // Declarative mounting is opt-in (issue 12, item 2): booting does not scan the page.
    start();
    leptos::task::tick().await;
    assert!(
        host.shadow_root().is_none(),
        "start() mounted a data-agui-endpoint element"
    );
    let api = js_sys::Reflect::get(&web_sys::window().unwrap(), &"AguiChat".into()).unwrap();
    let scan: js_sys::Function = js_sys::Reflect::get(&api, &"scan".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    scan.call0(&api).unwrap();
    leptos::task::tick().await;
    assert!(testid(&frame(&host), "composer-input").is_some());
    // A removed <agui-chat> unmounts (after the task, so a move would not).
    let el = element(&[]);
    leptos::task::tick().await;
    let shadow = el.shadow_root().unwrap();
    el.remove();
    sleep(20).await;
    assert_eq!(shadow.child_element_count(), 0, "unmounted when removed");
    host.remove();
}

#[wasm_bindgen_test]
async fn the_inspector_attribute_opens_the_inspector() {
    let closed = element(&[]);
    let open = element(&[("inspector", "")]);
    leptos::task::tick().await;
    assert!(testid(&frame(&closed), "inspector").is_none());
    assert!(
        testid(&frame(&open), "inspector").is_some(),
        "inspector open from the attribute"
    );
    closed.remove();
    open.remove();
}

// Regression: a widget pointed at a site's own agent advertised the demo's `confirm_payment`,
// rendered `search_venues` with the demo's venue card and carried the trip panel, the demo's
// chips and the agent picker.
#[wasm_bindgen_test]
async fn a_widget_pointed_at_an_agent_gets_only_what_its_page_registered() {
    install_site_agent();
    let el = element(&[("endpoint", "/site-agent")]);
    leptos::task::tick().await;
    let root = frame(&el);
    assert!(
        testid(&root, "settings-toggle").is_none(),
        "no agent picker for visitors"
    );
    assert!(testid(&root, "suggestions").is_none(), "no demo chips");
    send(&el, "find me a bar").await;
    until("the run to finish", || status(&el) == "success").await;
    sleep(50).await;
    restore_fetch();
    let requests: serde_json::Value = serde_json::from_str(&requests_json()).unwrap();
    assert_eq!(
        requests[0]["tools"],
        serde_json::json!([]),
        "no tool but the page's"
    );
    let root = frame(&el);
    let venues = q_all(
        &root,
        r#"[data-testid="tool-card"][data-tool-name="search_venues"]"#,
    );
    assert_eq!(venues.len(), 1);
    assert!(
        q_all(&venues[0], r#"[data-testid="venue-results"]"#).is_empty(),
        "the generic card, not the demo's"
    );
    assert!(!q_all(&venues[0], r#"[data-testid="tool-result"]"#).is_empty());
    let pay = q_all(
        &root,
        r#"[data-testid="tool-card"][data-tool-name="confirm_payment"]"#,
    );
    assert_eq!(pay.len(), 1);
    assert_ne!(
        pay[0].get_attribute("data-status").as_deref(),
        Some("awaiting-input"),
        "a tool the page never registered is not the visitor's to answer"
    );
    assert!(testid(&root, "payment-request").is_none());
    assert!(testid(&root, "trip-panel").is_none());
    el.remove();
}

#[wasm_bindgen_test]
async fn a_page_renderer_element_gets_the_live_call_and_bad_names_are_refused() {
    start();
    define_venue_element();
    install_site_agent();
    let host = web_support::fresh_container();
    let _handle = mount_with_renderer(&host);
    leptos::task::tick().await;
    let chips = q_all(&frame(&host), r#"[data-testid="suggestion"]"#);
    assert_eq!(
        chips.iter().map(text_of).collect::<Vec<_>>(),
        ["What is on tonight?", "Book a table"],
        "the page's suggestions"
    );
    send(&host, "find me a bar").await;
    until("the page's element", || {
        q_all(&frame(&host), "acme-venue-card").len() == 1
    })
    .await;
    until("the run to finish", || status(&host) == "success").await;
    sleep(50).await;
    restore_fetch();
    let root = frame(&host);
    let card = q_all(&root, "acme-venue-card").remove(0);
    assert_eq!(
        text_of(&card),
        r#"search_venues:success:{"city":"Lisbon","kind":"bar"}:Bar Azul"#
    );
    let seen: serde_json::Value = serde_json::from_str(&seen_calls(&card)).unwrap();
    let seen = seen.as_array().unwrap();
    assert!(
        seen.iter()
            .any(|c| c["status"] == "streaming-args" && c["args"]["city"] == "Lis"),
        "the element saw the arguments while they streamed: {seen:?}"
    );
    assert_eq!(
        seen.last().unwrap()["result"]["venues"][0]["name"],
        "Bar Azul"
    );
    // The card holds the element and nothing else of ours.
    assert!(q_all(&root, r#"[data-testid="venue-results"]"#).is_empty());
    assert!(
        q_all(&root, "img, script").is_empty(),
        "no element from a bad name"
    );
    let warnings = testid(&root, "warnings-count").expect("the bad names are reported");
    assert_eq!(text_of(&warnings).trim(), "2");
    host.remove();
}

#[wasm_bindgen_test]
async fn a_page_code_renderer_element_gets_the_block_as_it_streams_and_bad_names_are_refused() {
    start();
    define_chart_element();
    install_chart_agent();
    let host = web_support::fresh_container();
    let _handle = mount_with_code_renderers(&host);
    leptos::task::tick().await;
    send(&host, "chart the week").await;
    until("the page's element", || {
        q_all(&frame(&host), "acme-chart").len() == 1
    })
    .await;
    until("the run to finish", || status(&host) == "success").await;
    sleep(50).await;
    restore_fetch();
    let root = frame(&host);
    let charts = q_all(&root, "acme-chart");
    assert_eq!(charts.len(), 1, "one block of the page's language");
    let chart = charts[0].clone();
    assert_eq!(
        js_sys::Reflect::get(&chart, &"code".into())
            .ok()
            .and_then(|c| c.as_string())
            .as_deref(),
        Some("mon 3\ntue 5\nwed 8\n")
    );
    assert_eq!(
        js_sys::Reflect::get(&chart, &"complete".into())
            .ok()
            .and_then(|c| c.as_bool()),
        Some(true)
    );
    let seen: serde_json::Value = serde_json::from_str(&seen_code()).unwrap();
    let seen = seen.as_array().unwrap();
    assert!(
        seen.iter()
            .any(|s| s["complete"] == false && s["code"] == "mon 3\n"),
        "the element saw the block while it streamed: {seen:?}"
    );
    assert!(
        seen.iter()
            .any(|s| s["complete"] == false && s["code"] == "mon 3\ntue 5\n"),
        "and as it grew: {seen:?}"
    );
    // In the code block's card, with the bar; the source a click away.
    let block = chart
        .closest(r#"[data-testid="code-block"]"#)
        .unwrap()
        .expect("inside the code block's card");
    assert!(testid(&block, "copy-code").is_some());
    let pre = block.query_selector("pre").unwrap().expect("the source");
    assert!(pre.has_attribute("hidden"));
    testid(&block, "code-source")
        .expect("the source toggle")
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    leptos::task::tick().await;
    assert!(!pre.has_attribute("hidden"));
    assert!(text_of(&pre).contains("tue 5"));
    // The other fence is highlighted code, and no element came from a bad name.
    assert_eq!(q_all(&root, r#"[data-testid="code-block"]"#).len(), 2);
    assert!(
        q_all(&root, "script").is_empty(),
        "no element from a bad name"
    );
    let warnings = testid(&root, "warnings-count").expect("the bad entries are reported");
    assert_eq!(text_of(&warnings).trim(), "3");
    host.remove();
}

// Regression (issue 12.10): JS options were read with `Reflect.get`, so a polluted
// `Object.prototype` (`endpoint`, `mode`, `tools`…) reconfigured every `mount()`.
#[wasm_bindgen_test]
async fn js_options_are_read_from_the_object_itself_never_its_prototype() {
    start();
    let el: HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    el.style().set_property("height", "400px").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    mount_polluted(&el);
    leptos::task::tick().await;
    let root = frame(&el);
    let widget = testid(&root, "widget").expect("mounted");
    assert_eq!(widget.get_attribute("data-mode").as_deref(), Some("inline"));
    assert!(testid(&root, "widget-launcher").is_none(), "not a popup");
    assert!(!text_of(&root).contains("Evil"));
    el.remove();
}

// ---- language ----------------------------------------------------------------------------

/// A fresh `<div>` in the body, mounted from JS with `options` (JSON).
fn mounted_with(options: &str) -> HtmlElement {
    start();
    let el: HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    el.style().set_property("height", "500px").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    mount_json(&el, options);
    el
}

fn composer_placeholder(host: &HtmlElement) -> String {
    testid(&frame(host), "composer-input")
        .and_then(|e| e.get_attribute("placeholder"))
        .unwrap_or_default()
}

fn send_label(host: &HtmlElement) -> String {
    text_of(&testid(&frame(host), "composer-send").expect("send"))
        .trim()
        .to_owned()
}

#[wasm_bindgen_test]
async fn an_arabic_widget_is_right_to_left_unless_the_page_says_otherwise() {
    let key = format!("ar{}", (js_sys::Math::random() * 1e9) as u64);
    let el = mounted_with(&format!(
        r#"{{"endpoint": "/not-called", "lang": "ar", "threadKey": "{key}"}}"#
    ));
    until("the Arabic chat", || {
        testid(&frame(&el), "composer-input").is_some()
    })
    .await;
    leptos::task::tick().await;
    let widget = testid(&frame(&el), "widget").expect("the frame");
    assert_eq!(widget.get_attribute("dir").as_deref(), Some("rtl"));
    assert_eq!(widget.get_attribute("lang").as_deref(), Some("ar"));
    let root = testid(&frame(&el), "app-root").expect("the chat");
    assert_eq!(root.get_attribute("lang").as_deref(), Some("ar"));
    assert_eq!(
        web_sys::window()
            .unwrap()
            .get_computed_style(&root)
            .unwrap()
            .unwrap()
            .get_property_value("direction")
            .unwrap(),
        "rtl",
        "the chat inherits the frame's direction"
    );
    assert_eq!(composer_placeholder(&el), "اكتب رسالة إلى الوكيل…");
    assert_eq!(send_label(&el), "إرسال");
    el.remove();

    // An ancestor's `dir` is the page's own layout (`<html dir="ltr">` is boilerplate of many
    // site generators): an Arabic chat inside it is still right to left.
    let page = web_support::fresh_container();
    page.set_attribute("dir", "ltr").unwrap();
    let el: HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    page.append_child(&el).unwrap();
    mount_json(
        &el,
        r#"{"endpoint": "/not-called", "lang": "ar", "persist": "none"}"#,
    );
    until("the Arabic chat", || {
        testid(&frame(&el), "composer-input").is_some()
    })
    .await;
    leptos::task::tick().await;
    let widget = testid(&frame(&el), "widget").expect("the frame");
    assert_eq!(widget.get_attribute("dir").as_deref(), Some("rtl"));
    page.remove();

    // The element's own `dir` wins: the page asked for that direction for this chat.
    let page = web_support::fresh_container();
    let el: HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    el.set_attribute("dir", "ltr").unwrap();
    page.append_child(&el).unwrap();
    mount_json(
        &el,
        r#"{"endpoint": "/not-called", "lang": "ar", "persist": "none"}"#,
    );
    until("the Arabic chat", || {
        testid(&frame(&el), "composer-input").is_some()
    })
    .await;
    leptos::task::tick().await;
    let widget = testid(&frame(&el), "widget").expect("the frame");
    assert_eq!(widget.get_attribute("dir"), None, "the element's dir wins");
    assert_eq!(
        testid(&frame(&el), "app-root")
            .unwrap()
            .get_attribute("dir"),
        None
    );
    assert_eq!(send_label(&el), "إرسال", "still in Arabic");
    page.remove();

    // A left-to-right language sets no direction.
    let el = mounted_with(r#"{"endpoint": "/not-called", "lang": "fr", "persist": "none"}"#);
    until("the French chat", || {
        testid(&frame(&el), "composer-input").is_some()
    })
    .await;
    let widget = testid(&frame(&el), "widget").expect("the frame");
    assert_eq!(widget.get_attribute("dir"), None);
    assert_eq!(widget.get_attribute("lang").as_deref(), Some("fr"));
    assert_eq!(send_label(&el), "Envoyer");
    el.remove();
}

#[wasm_bindgen_test]
async fn the_page_s_own_strings_replace_the_catalog_s_key_by_key() {
    let el = mounted_with(
        r#"{"endpoint": "/not-called", "persist": "none", "lang": "de",
            "strings": {"composer_placeholder": "Fragen Sie Acme…", "nope": "x", "stop": "Halt {}",
                        "send": "<b>Los</b>"}}"#,
    );
    until("the chat", || {
        testid(&frame(&el), "composer-input").is_some()
    })
    .await;
    leptos::task::tick().await;
    assert_eq!(composer_placeholder(&el), "Fragen Sie Acme…");
    // Text, never HTML.
    assert_eq!(send_label(&el), "<b>Los</b>");
    assert!(frame(&el).query_selector("b").unwrap().is_none());
    // A key left out keeps the language's text.
    assert_eq!(
        text_of(&testid(&frame(&el), "thread-new").expect("new")).trim(),
        "+ Neu"
    );
    // The unknown key and the text with an extra placeholder are reported, and ignored.
    let count = testid(&frame(&el), "warnings-count").expect("the refused texts are reported");
    assert_eq!(text_of(&count).trim(), "2");
    testid(&frame(&el), "warnings-toggle")
        .unwrap()
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    leptos::task::tick().await;
    let list = text_of(&testid(&frame(&el), "warnings-list").expect("list"));
    assert!(list.contains("nope") && list.contains("stop"), "{list}");
    el.remove();

    // The attribute, on an English element.
    let el = element(&[
        ("endpoint", "/not-called"),
        ("lang", "en"),
        (
            "strings",
            r#"{"send": "Ask", "composer_placeholder": "Ask Acme…"}"#,
        ),
    ]);
    until("the chat", || {
        testid(&frame(&el), "composer-input").is_some()
    })
    .await;
    assert_eq!(send_label(&el), "Ask");
    assert_eq!(composer_placeholder(&el), "Ask Acme…");
    assert!(
        testid(&frame(&el), "warnings-count").is_none(),
        "no problem"
    );
    el.remove();
}

/// The page's `headers` function: asked before every request, asked again with `refresh`
/// after a `401` and the request sent once more; the next request uses what it hands out
/// then, with no refusal first.
#[wasm_bindgen_test]
async fn headers_from_a_page_function_are_refreshed_after_a_401_and_the_request_retried_once() {
    start();
    install_token_agent();
    let host = web_support::fresh_container();
    let _handle = mount_with_token_source(&host, "refresh");
    leptos::task::tick().await;
    send(&host, "hello").await;
    until("the run to finish", || status(&host) == "success").await;
    assert!(text_of(&frame(&host)).contains("Signed in."));
    send(&host, "again").await;
    until("the second run", || {
        token_log().matches("fresh").count() == 2 && status(&host) == "success"
    })
    .await;
    restore_fetch();
    let log: serde_json::Value = serde_json::from_str(&token_log()).unwrap();
    assert_eq!(
        log["auths"],
        serde_json::json!([
            "Bearer stale|acme",
            "Bearer fresh|acme",
            "Bearer fresh|acme"
        ]),
        "refused once, sent again with the refreshed token, which the next run keeps"
    );
    assert_eq!(log["asks"], serde_json::json!([false, true, false]));
    assert!(testid(&frame(&host), "error-banner").is_none());
}

/// A token refused again after the refresh fails the run (one retry, no loop); a function
/// that throws fails it before anything is sent, with its own words.
#[wasm_bindgen_test]
async fn a_refused_refresh_fails_once_and_a_throwing_headers_function_sends_nothing() {
    start();
    install_token_agent();
    let host = web_support::fresh_container();
    let _handle = mount_with_token_source(&host, "banned");
    leptos::task::tick().await;
    send(&host, "hello").await;
    until("the banner", || {
        testid(&frame(&host), "error-banner").is_some()
    })
    .await;
    let log: serde_json::Value = serde_json::from_str(&token_log()).unwrap();
    assert_eq!(log["auths"].as_array().map(Vec::len), Some(2), "{log}");
    assert_eq!(log["asks"], serde_json::json!([false, true]));
    assert!(text_of(&testid(&frame(&host), "error-banner").unwrap()).contains("403"));

    install_token_agent();
    let host = web_support::fresh_container();
    let _handle = mount_with_token_source(&host, "throws");
    leptos::task::tick().await;
    send(&host, "hello").await;
    until("the banner", || {
        testid(&frame(&host), "error-banner").is_some()
    })
    .await;
    restore_fetch();
    let banner = text_of(&testid(&frame(&host), "error-banner").unwrap());
    assert!(
        banner.contains("could not give this request its headers") && banner.contains("no session"),
        "{banner}"
    );
    let log: serde_json::Value = serde_json::from_str(&token_log()).unwrap();
    assert_eq!(log["auths"], serde_json::json!([]), "nothing was sent");
}

fn composer_of(host: &HtmlElement) -> web_sys::HtmlTextAreaElement {
    testid(&frame(host), "composer-input")
        .expect("composer")
        .dyn_into()
        .expect("textarea")
}

async fn type_in(host: &HtmlElement, text: &str) {
    let input = composer_of(host);
    input.set_value(text);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
}

/// A key on the composer; whether the chat took it (`preventDefault`).
fn key_on(host: &HtmlElement, key: &str) -> bool {
    let ev = web_support::keyboard_event("keydown", key, false, false);
    composer_of(host).dispatch_event(&ev).unwrap();
    ev.default_prevented()
}

fn command_names(host: &HtmlElement) -> Vec<String> {
    q_all(
        &frame(host),
        r#"[data-testid="command"] .agui-commands__name"#,
    )
    .iter()
    .map(text_of)
    .collect()
}

// Issue 31, item 5: `/` opens the page's commands, typing filters them, the keyboard picks
// one (the text box points at the active option), Escape closes the list, a `send` command
// goes at once.
#[wasm_bindgen_test]
async fn a_slash_opens_the_pages_commands_and_the_keyboard_picks_one() {
    start();
    install_suggesting_agent();
    let host = web_support::fresh_container();
    let _handle = mount_json(
        &host,
        r#"{"endpoint": "/cmd-agent", "threadKey": "cmd",
            "commands": [
              {"name": "summarize", "description": "A short version", "prompt": "Summarize the page"},
              {"name": "translate", "description": "Into French", "prompt": "Translate into French:"},
              {"name": "ship", "description": "Ship it now", "prompt": "Ship the order", "send": true},
              {"name": "bad name", "prompt": "x"}
            ]}"#,
    );
    leptos::task::tick().await;
    let input = composer_of(&host);
    assert_eq!(
        input.get_attribute("aria-autocomplete").as_deref(),
        Some("list")
    );
    assert!(testid(&frame(&host), "commands").is_none());
    type_in(&host, "/").await;
    assert_eq!(command_names(&host), ["/summarize", "/translate", "/ship"]);
    let list = testid(&frame(&host), "commands").expect("the list");
    assert_eq!(list.get_attribute("role").as_deref(), Some("listbox"));
    assert_eq!(
        input.get_attribute("aria-controls"),
        list.get_attribute("id")
    );
    let shown = text_of(&frame(&host));
    assert!(shown.contains("Commands matching: 3"), "announced: {shown}");
    // Filtered as typed; ↓ moves the active option, which the text box points at.
    type_in(&host, "/s").await;
    assert_eq!(
        command_names(&host),
        ["/summarize", "/ship", "/translate"],
        "names that start with it first"
    );
    assert!(key_on(&host, "ArrowDown"));
    leptos::task::tick().await;
    let options = q_all(&frame(&host), r#"[data-testid="command"]"#);
    assert_eq!(
        options[1].get_attribute("aria-selected").as_deref(),
        Some("true")
    );
    assert_eq!(
        input.get_attribute("aria-activedescendant"),
        options[1].get_attribute("id")
    );
    assert!(key_on(&host, "ArrowUp"));
    leptos::task::tick().await;
    // Enter picks: the prompt fills the box, nothing is sent.
    assert!(key_on(&host, "Enter"));
    leptos::task::tick().await;
    assert_eq!(input.value(), "Summarize the page");
    assert!(testid(&frame(&host), "commands").is_none());
    assert_eq!(
        request_count(),
        0,
        "a command without send only fills the box"
    );
    // Escape closes the list and keeps the text.
    type_in(&host, "/tr").await;
    assert_eq!(command_names(&host), ["/translate"]);
    assert!(key_on(&host, "Escape"));
    leptos::task::tick().await;
    assert!(testid(&frame(&host), "commands").is_none());
    assert_eq!(input.value(), "/tr");
    // A `send` command goes at once.
    type_in(&host, "/shi").await;
    assert!(key_on(&host, "Tab"));
    until("the run", || request_count() == 1).await;
    until("the run to finish", || status(&host) == "success").await;
    restore_fetch();
    assert_eq!(last_user_text(), "Ship the order");
    assert_eq!(composer_of(&host).value(), "");
}

// The site's thread store in the page's code (`threads: {list, load, save, remove}`): the
// conversation the store has opens (the list, then that one loaded), what is said is saved
// over the version loaded, a conflict (`status: 412`) is loaded, merged and saved again, and
// `AguiChat.forget()` clears the browser's copy.
#[wasm_bindgen_test]
async fn the_pages_thread_store_hooks_list_load_save_and_merge_a_conflict() {
    start();
    let host = web_support::fresh_container();
    let store = thread_store();
    mount_with_threads(&host, &store);
    until_text(&host, "hello from the phone").await;
    assert_eq!(store_log(&store), r#"["list null","load phone-1"]"#);

    send(&host, "plan our Lisbon offsite").await;
    until("the save", || store_log(&store).contains("save phone-1 e1")).await;
    let saved: serde_json::Value = serde_json::from_str(&stored_json(&store, "phone-1")).unwrap();
    let users: Vec<&str> = saved["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(users, ["hello from the phone", "plan our Lisbon offsite"]);

    // Another device saved meanwhile: 412, then the chat loads, merges and saves again.
    conflict_next(&store);
    send(&host, "and the budget?").await;
    until("the second save", || {
        store_log(&store).matches("save phone-1").count() == 3
    })
    .await;
    let log = store_log(&store);
    assert!(
        log.ends_with(r#""save phone-1 e2","load phone-1","save phone-1 e3"]"#),
        "{log}"
    );
    let text = stored_json(&store, "phone-1");
    assert!(text.contains("meanwhile on the phone"), "{text}");
    assert!(text.contains("and the budget?"), "{text}");

    // Sign-out: the browser's copy goes; the chat shows a fresh conversation.
    assert!(forget_all() >= 1);
    until("a fresh conversation", || {
        q_all(&frame(&host), r#"[data-testid="message-text"]"#).is_empty()
    })
    .await;
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let left: Vec<String> = (0..storage.length().unwrap())
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter(|k| k.starts_with("agui-leptos:v1:w:threads-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    host.remove();
}

// A visitor's own conversations from before the site's store are offered, never sent unasked:
// "Keep them in your account" sends them.
#[wasm_bindgen_test]
async fn a_visitors_own_conversations_are_offered_for_the_sites_store() {
    start();
    let key = format!("offer-{}", (js_sys::Math::random() * 1e9) as u64);
    let host = web_support::fresh_container();
    let handle = mount_keyed(&host, &key, &JsValue::NULL);
    leptos::task::tick().await;
    send(&host, "mine alone").await;
    until_text(&host, "mine alone").await;
    until("the run's end", || status(&host) == "success").await;
    let unmount: js_sys::Function = js_sys::Reflect::get(&handle, &"unmount".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    unmount.call0(&handle).unwrap();

    // The site now keeps conversations: the old one is offered, and nothing is sent.
    let store = empty_store();
    mount_keyed(&host, &key, &store);
    until("the offer", || {
        testid(&frame(&host), "upload-offer").is_some()
    })
    .await;
    sleep(2_000).await;
    assert!(!store_log(&store).contains("save"), "{}", store_log(&store));
    let offer = testid(&frame(&host), "upload-offer").unwrap();
    assert!(text_of(&offer).contains('1'), "{}", text_of(&offer));
    testid(&frame(&host), "upload-local")
        .unwrap()
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    until("the upload", || store_log(&store).contains("save thread-")).await;
    until("the offer gone", || {
        testid(&frame(&host), "upload-offer").is_none()
    })
    .await;
    host.remove();
}

/// `element.state` is built from the chat's state without JSON text (the lean widget's main
/// module has no JSON writer): the same value `JSON.parse` makes of serde_json's text, a
/// `__proto__` key an own key (never the object's prototype), nesting past the budget `null`.
#[wasm_bindgen_test]
fn the_state_reaches_js_as_json_parse_would_make_it() {
    use agui_leptos::internals::js_of;
    let v = serde_json::json!({
        "list": [1, -2, 2.5, "x", null, true, {"10": "ten", "2": "two"}],
        "__proto__": {"polluted": true},
        "big": 9_007_199_254_740_993u64,
        "nested": {"a": {"b": {}}},
    });
    let js = js_of(&v, 128);
    let parsed = js_sys::JSON::parse(&serde_json::to_string(&v).unwrap()).unwrap();
    let text = |x: &JsValue| js_sys::JSON::stringify(x).unwrap().as_string().unwrap();
    assert_eq!(text(&js), text(&parsed));
    let obj: &js_sys::Object = js.unchecked_ref();
    assert!(
        js_sys::Object::has_own(obj, &"__proto__".into()),
        "an own key"
    );
    assert_eq!(
        js_sys::Object::get_prototype_of(&js),
        js_sys::Object::get_prototype_of(&js_sys::Object::new().into()),
        "the prototype stays Object.prototype"
    );
    let shallow = js_of(&v, 2);
    let nested = js_sys::Reflect::get(&shallow, &"nested".into()).unwrap();
    let a = js_sys::Reflect::get(&nested, &"a".into()).unwrap();
    assert!(a.is_null(), "past the budget: null");
}
