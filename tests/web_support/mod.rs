//! Helpers shared by the browser tests (`tests/web_*.rs`): a fresh mount point, queries by
//! `data-testid`, and letting the store flush and the DOM settle.
#![allow(dead_code)]

use agui_leptos::store::AgentStore;
use agui_leptos::transport::sleep;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

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
