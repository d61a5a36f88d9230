//! What the browser benchmarks share (`benches/browser.rs`, `benches/long_thread.rs`):
//! the clock, yielding to the event loop and to the next frame, the `longtask` observer, the
//! app's stylesheet and the containers they mount into (a plain one is `tests/web/support`'s).
#![allow(dead_code)]

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement};

// The document and a plain container in the body are the browser tests' own.
#[path = "../../tests/web/support/mod.rs"]
mod web_support;
pub use web_support::{document, fresh_container};

#[wasm_bindgen(inline_js = r#"
let observer = null;
let entries = [];
export function longtask_supported() {
  return typeof PerformanceObserver !== 'undefined'
    && Array.isArray(PerformanceObserver.supportedEntryTypes)
    && PerformanceObserver.supportedEntryTypes.includes('longtask');
}
export function longtask_start() {
  entries = [];
  if (!longtask_supported()) return false;
  observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) entries.push(e.duration);
  });
  observer.observe({ type: 'longtask' });
  return true;
}
export function longtask_stop() {
  if (observer !== null) {
    for (const e of observer.takeRecords()) entries.push(e.duration);
    observer.disconnect();
    observer = null;
  }
  return entries.slice();
}
export function next_task() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(0);
  });
}
export function next_frame() {
  return new Promise((resolve) => requestAnimationFrame((t) => resolve(t)));
}
"#)]
extern "C" {
    pub fn longtask_supported() -> bool;
    pub fn longtask_start() -> bool;
    pub fn longtask_stop() -> js_sys::Array;
    pub fn next_task() -> js_sys::Promise;
    pub fn next_frame() -> js_sys::Promise;
}

pub fn now() -> f64 {
    web_sys::window()
        .expect("window")
        .performance()
        .expect("performance")
        .now()
}

pub async fn yield_task() {
    let _ = JsFuture::from(next_task()).await;
}

/// The next animation frame (resolves inside its callback).
pub async fn frame_tick() {
    let _ = JsFuture::from(next_frame()).await;
}

pub fn inject_styles() -> Element {
    let doc = document();
    let style = doc.create_element("style").expect("style");
    style.set_text_content(Some(agui_leptos::internals::STYLESHEET));
    doc.head()
        .expect("head")
        .append_child(&style)
        .expect("append style");
    style
}

/// A box the size of a laptop's chat pane, so the transcript scrolls.
pub fn sized_container() -> HtmlElement {
    let el = fresh_container();
    el.set_attribute(
        "style",
        "height: 800px; width: 1000px; display: flex; flex-direction: column",
    )
    .expect("style attribute");
    el
}
