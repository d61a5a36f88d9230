//! The custom element `<agui-chat>`, defined from JS, its callbacks handed to the chat.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::embed::observed_attributes;

use super::js::{error_text, warn};
use super::mount::{mount_from_attributes, reconfigure, state_of, unmount};
use super::mounted::ELEMENT;

#[wasm_bindgen(inline_js = r#"
export function define_element(name, observed, connect, disconnect, changed, state) {
  if (customElements.get(name)) return false;
  customElements.define(name, class extends HTMLElement {
    static get observedAttributes() { return observed; }
    connectedCallback() { connect(this); }
    disconnectedCallback() { disconnect(this); }
    attributeChangedCallback(attr, before, after) { if (before !== after) changed(this, attr); }
    get state() { return state(this); }
  });
  return true;
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn define_element(
        name: &str,
        observed: js_sys::Array,
        connect: &js_sys::Function,
        disconnect: &js_sys::Function,
        changed: &js_sys::Function,
        state: &js_sys::Function,
    ) -> Result<bool, JsValue>;
}

pub(super) fn define() {
    let connect = Closure::<dyn Fn(HtmlElement)>::new(|el: HtmlElement| {
        mount_from_attributes(el, "");
    });
    let disconnect = Closure::<dyn Fn(HtmlElement)>::new(|el: HtmlElement| {
        // Moving an element in the DOM disconnects and reconnects it: unmount only if it is
        // still detached once the current task is done.
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL))
                .await;
            if !el.is_connected() {
                unmount(&el);
            }
        });
    });
    let changed = Closure::<dyn Fn(HtmlElement, String)>::new(|el: HtmlElement, attr: String| {
        reconfigure(&el, &attr);
    });
    let state = Closure::<dyn Fn(HtmlElement) -> JsValue>::new(|el: HtmlElement| state_of(&el));
    let observed: js_sys::Array = observed_attributes()
        .into_iter()
        .map(JsValue::from_str)
        .collect();
    if let Err(e) = define_element(
        ELEMENT,
        observed,
        connect.as_ref().unchecked_ref(),
        disconnect.as_ref().unchecked_ref(),
        changed.as_ref().unchecked_ref(),
        state.as_ref().unchecked_ref(),
    ) {
        warn(&format!("could not define <{ELEMENT}>: {}", error_text(&e)));
    }
    // The element class lives as long as the page.
    connect.forget();
    disconnect.forget();
    changed.forget();
    state.forget();
}
