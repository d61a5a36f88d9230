//! Helpers shared by the browser tests (`tests/web/*.rs`): a fresh mount point and the chat
//! mounted in it, queries by `data-testid`, clicks, typing and keyboard events, SSE frames, and
//! letting the store flush and the DOM settle (or waiting until a condition holds).
#![allow(dead_code)]

use agui_leptos::app::mount_with;
use agui_leptos::plugins::Plugins;
use agui_leptos::transport::sleep;
use agui_leptos::AgentStore;
use leptos::prelude::GetUntracked;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

pub fn document() -> web_sys::Document {
    web_sys::window()
        .expect("window")
        .document()
        .expect("document")
}

pub fn fresh_container() -> HtmlElement {
    let doc = document();
    let el: HtmlElement = doc
        .create_element("div")
        .expect("create div")
        .dyn_into()
        .expect("div is an HtmlElement");
    doc.body()
        .expect("body")
        .append_child(&el)
        .expect("append container");
    el
}

/// What the app's page carries: the demo plug-ins (its agent, cards, chips) and the agent
/// picker.
pub fn app_plugins() -> Plugins {
    agui_leptos::demo::ui::plugins().agent_picker(true)
}

/// The app's chat ([`app_plugins`]) on `store`, mounted into a fresh element: (container, the
/// container as the query root, the handle that unmounts on drop).
pub fn mount_chat(store: AgentStore) -> (HtmlElement, Element, impl Drop) {
    mount_chat_with(store, app_plugins())
}

/// [`mount_chat`] with other plug-ins (`Plugins::new()`: what a site pointed at its own agent
/// gets).
pub fn mount_chat_with(store: AgentStore, plugins: Plugins) -> (HtmlElement, Element, impl Drop) {
    let container = fresh_container();
    let handle = mount_with(container.clone(), store, plugins);
    let root: Element = container.clone().into();
    (container, root, handle)
}

/// The app's chat ([`app_plugins`]) on `store` mounted into `el`.
pub fn mount_demo(el: HtmlElement, store: AgentStore) -> impl Drop {
    mount_with(el, store, app_plugins())
}

pub fn q(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).expect("valid selector")
}

pub fn q_all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).expect("valid selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

pub fn testid(root: &Element, id: &str) -> Option<Element> {
    q(root, &format!(r#"[data-testid="{id}"]"#))
}

pub fn text_of(el: &Element) -> String {
    el.text_content().unwrap_or_default()
}

pub fn run_status(root: &Element) -> String {
    testid(root, "run-status")
        .and_then(|e| e.get_attribute("data-status"))
        .unwrap_or_default()
}

pub fn now() -> f64 {
    js_sys::Date::now()
}

/// Write pending store changes, then let effects run and the DOM update.
pub async fn settle(store: &AgentStore) {
    store.flush();
    leptos::task::tick().await;
    sleep(5).await;
}

/// Poll until `cond` holds (15 s at most: the runner gives a test about 20 s).
pub async fn wait_until(store: &AgentStore, what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = now() + 15_000.0;
    loop {
        settle(store).await;
        if cond() {
            return;
        }
        assert!(now() < deadline, "timed out waiting for {what}");
        sleep(10).await;
    }
}

/// Wait until the store's run is over.
pub async fn wait_idle(store: &AgentStore) {
    wait_until(store, "the run to end", || !store.running().get_untracked()).await;
}

// ---- SSE --------------------------------------------------------------------------------

/// One SSE frame carrying `event`: `data: {json}` and a blank line.
pub fn sse_frame(event: Value) -> String {
    format!("data: {event}\n\n")
}

/// [`sse_frame`] as bytes (for `AgentStore::push_bytes`).
pub fn sse(event: Value) -> Vec<u8> {
    sse_frame(event).into_bytes()
}

/// A recorded run fed to `store` as an external stream: each of `events` as one SSE frame,
/// then the end of the body.
pub fn play_external(store: &AgentStore, events: impl IntoIterator<Item = Value>) {
    store.begin_external();
    for event in events {
        store.push_bytes(&sse(event));
    }
    store.end_external(None);
}

// ---- the chat -----------------------------------------------------------------------------

/// All the text of the assistant answers (not reasoning).
pub fn assistant_text(root: &Element) -> String {
    q_all(
        root,
        r#"[data-testid="message"][data-role="assistant"] [data-testid="message-text"]"#,
    )
    .iter()
    .map(text_of)
    .collect::<Vec<_>>()
    .join("\n")
}

pub fn composer(root: &Element) -> HtmlTextAreaElement {
    testid(root, "composer-input")
        .expect("composer input")
        .dyn_into()
        .expect("a textarea")
}

/// Type into the composer the way a person does (value + an `input` event).
pub fn type_text(root: &Element, text: &str) {
    let input = composer(root);
    input.set_value(text);
    let ev = web_sys::Event::new("input").expect("input event");
    input.dispatch_event(&ev).expect("dispatch input");
}

/// Type a message and press Send.
pub fn send_message(root: &Element, text: &str) {
    type_text(root, text);
    click_testid(root, "composer-send");
}

// ---- input events -------------------------------------------------------------------------

pub fn click(el: &Element) {
    el.clone()
        .dyn_into::<HtmlElement>()
        .expect("an HtmlElement")
        .click();
}

/// Click the element with `data-testid="{id}"` under `root` (panics when it is not rendered).
pub fn click_testid(root: &Element, id: &str) {
    click(&testid(root, id).unwrap_or_else(|| panic!("{id} is rendered")));
}

/// `new KeyboardEvent(kind, {...})` (built through the constructor so no extra web-sys
/// feature is needed); it bubbles and can be cancelled.
pub fn keyboard_event(kind: &str, key: &str, shift: bool, composing: bool) -> web_sys::Event {
    let init = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        js_sys::Reflect::set(&init, &JsValue::from_str(k), &v).expect("set init field");
    };
    set("key", JsValue::from_str(key));
    set("shiftKey", JsValue::from_bool(shift));
    set("isComposing", JsValue::from_bool(composing));
    set("bubbles", JsValue::TRUE);
    set("cancelable", JsValue::TRUE);
    let window = web_sys::window().expect("window");
    let ctor: js_sys::Function = js_sys::Reflect::get(&window, &JsValue::from_str("KeyboardEvent"))
        .expect("KeyboardEvent")
        .dyn_into()
        .expect("KeyboardEvent is a constructor");
    let args = js_sys::Array::of2(&JsValue::from_str(kind), &init);
    js_sys::Reflect::construct(&ctor, &args)
        .expect("construct KeyboardEvent")
        .dyn_into()
        .expect("a KeyboardEvent is an Event")
}

/// A plain `keydown` of `key` (no Shift, not composing).
pub fn keydown(key: &str) -> web_sys::Event {
    keyboard_event("keydown", key, false, false)
}

// ---- styles ----------------------------------------------------------------------------------

/// The shipped stylesheets, once per page (the browser tests do not go through trunk).
pub fn install_styles() {
    let doc = document();
    if doc.get_element_by_id("agui-test-styles").is_some() {
        return;
    }
    let style = doc.create_element("style").expect("style element");
    style.set_id("agui-test-styles");
    // The whole sheet, as the app's page has it (every style/*.css of this build's features).
    style.set_text_content(Some(agui_leptos::internals::STYLESHEET));
    doc.head()
        .expect("head")
        .append_child(&style)
        .expect("append style");
}

pub fn computed(el: &Element, property: &str) -> String {
    web_sys::window()
        .expect("window")
        .get_computed_style(el)
        .expect("getComputedStyle")
        .expect("a style")
        .get_property_value(property)
        .expect("property value")
}

// ---- files ------------------------------------------------------------------------------------

/// A `File` of `bytes` named `name` of type `mime`.
pub fn file(name: &str, mime: &str, bytes: &[u8]) -> web_sys::File {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes).into());
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"type".into(), &mime.into()).unwrap();
    let ctor = js_sys::Reflect::get(&web_sys::window().unwrap(), &"File".into()).unwrap();
    let args = js_sys::Array::of3(&parts, &name.into(), &options);
    js_sys::Reflect::construct(ctor.unchecked_ref::<js_sys::Function>(), &args)
        .unwrap()
        .unchecked_into()
}

/// `new DataTransfer()` holding `files`.
pub fn transfer(files: &[web_sys::File]) -> JsValue {
    let ctor = js_sys::Reflect::get(&web_sys::window().unwrap(), &"DataTransfer".into()).unwrap();
    let dt = js_sys::Reflect::construct(
        ctor.unchecked_ref::<js_sys::Function>(),
        &js_sys::Array::new(),
    )
    .unwrap();
    let items = js_sys::Reflect::get(&dt, &"items".into()).unwrap();
    let add: js_sys::Function = js_sys::Reflect::get(&items, &"add".into())
        .unwrap()
        .unchecked_into();
    for f in files {
        add.call1(&items, f).unwrap();
    }
    dt
}

/// Pick `files` with the composer's file input (what the attach button opens).
pub fn pick(root: &Element, files: &[web_sys::File]) {
    let input = testid(root, "attach-input").expect("the picker");
    let dt = transfer(files);
    let list = js_sys::Reflect::get(&dt, &"files".into()).unwrap();
    js_sys::Reflect::set(&input, &"files".into(), &list).unwrap();
    input
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}
