//! Copying text to the clipboard, with the "Copied" feedback the Copy buttons show.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// `navigator.clipboard.writeText`; failures (no permission, insecure context) are ignored.
pub(crate) fn copy_to_clipboard(text: String, set_copied: WriteSignal<bool>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let navigator = window.navigator();
    // `navigator.clipboard` is undefined outside secure contexts; calling into it would throw.
    let available = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !available {
        return;
    }
    let promise = navigator.clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        if wasm_bindgen_futures::JsFuture::from(promise).await.is_ok() {
            set_copied.try_set(true);
            crate::transport::sleep(1500).await;
            set_copied.try_set(false);
        }
    });
}
