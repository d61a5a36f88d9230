//! A widget's options read from the page: its attributes (and its URL, with `url-options`) or a
//! JS object.

use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

use crate::embed::{WidgetOptions, OPTIONS};

use super::js::{own, read_json};

/// Options from an element's attributes (`prefix` = "" for `<agui-chat>`, `data-agui-` for
/// declarative mounting). The app's own page (`mode="page"`) also takes them from the URL
/// (`?endpoint=/api/agent&speed=4&theme=dark&inspector`), which win.
pub(super) fn options_of(el: &HtmlElement, prefix: &str) -> (WidgetOptions, Vec<String>) {
    let attr = |name: &str| el.get_attribute(&format!("{prefix}{name}"));
    // The page's URL is read only when the element lets it (`url-options`).
    let params = attr("url-options").and_then(|_| {
        let href = web_sys::window()?.location().href().ok()?;
        Some(web_sys::Url::new(&href).ok()?.search_params())
    });
    WidgetOptions::parse_with_url_using(
        attr,
        |name| params.as_ref().and_then(|p| p.get(name)),
        read_json,
    )
}

/// Options from a JS object (`{endpoint, headers, mode, threadKey, …}`); what it leaves out
/// comes from `el`'s attributes.
pub(super) fn options_from_js(el: &HtmlElement, obj: &JsValue) -> (WidgetOptions, Vec<String>) {
    WidgetOptions::parse_using(
        |attr| {
            let key = OPTIONS
                .iter()
                .find(|(a, _, _)| *a == attr)
                .map(|(_, k, _)| *k)?;
            let v = own(obj, key).unwrap_or(JsValue::UNDEFINED);
            if v.is_undefined() || v.is_null() {
                el.get_attribute(attr)
            } else if let Some(b) = v.as_bool() {
                // As an attribute reads them: `false` is `"false"` (a `queue: false` is off).
                Some(if b { "true" } else { "false" }.to_owned())
            } else if let Some(s) = v.as_string() {
                Some(s)
            } else {
                // Numbers too, as JS writes them (`4`, `0.5`).
                js_sys::JSON::stringify(&v).ok().and_then(|s| s.as_string())
            }
        },
        read_json,
    )
}
