//! A widget's options read from the page: its attributes (and its URL, with `url-options`) or
//! a JS object, JSON read by the browser's `JSON.parse` within a nesting budget.

use super::*;

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

/// How deep a JSON value from the page may nest (serde_json's own limit is 128).
pub(super) const JSON_DEPTH: u32 = 128;

/// The browser's `JSON.parse` as the widget's [`crate::embed::ReadJson`]: the lean widget's
/// main module has no JSON parser of its own (serde_json's is in the `run` module). As a
/// serde_json value, with JS's readings: a number is an `f64` (an integer up to 2^53 is an
/// integer), an object's integer-like keys come first.
pub(super) fn read_json(text: &str) -> Result<Value, String> {
    let v = js_sys::JSON::parse(text).map_err(|e| error_text(&e))?;
    value_of(&v, JSON_DEPTH).ok_or_else(|| format!("nested deeper than {JSON_DEPTH} levels"))
}

/// A JS value as JSON: what `JSON.stringify` makes of it (`toJSON`, functions left out…),
/// read back; `None` for what it cannot write (`undefined`, a function, a cycle).
pub(super) fn json_of(v: &JsValue) -> Option<Value> {
    let text = js_sys::JSON::stringify(v).ok()?.as_string()?;
    read_json(&text).ok()
}

/// `v`, a value `JSON.parse` made (null, a boolean, number, string, array or plain object),
/// as a serde_json value; `None` when it nests deeper than `depth`. An object is read by its
/// own entries, so a `__proto__` key is a key like any other.
pub(super) fn value_of(v: &JsValue, depth: u32) -> Option<Value> {
    if let Some(b) = v.as_bool() {
        return Some(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        return Some(if n.fract() == 0.0 && n.abs() <= EXACT {
            Value::from(n as i64)
        } else {
            serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
        });
    }
    if let Some(s) = v.as_string() {
        return Some(Value::String(s));
    }
    if v.is_null() || v.is_undefined() {
        return Some(Value::Null);
    }
    let depth = depth.checked_sub(1)?;
    if js_sys::Array::is_array(v) {
        let items = js_sys::Array::from(v);
        let items = items.iter().map(|x| value_of(&x, depth));
        return items.collect::<Option<Vec<_>>>().map(Value::Array);
    }
    let Some(obj) = v.dyn_ref::<js_sys::Object>() else {
        return Some(Value::Null);
    };
    let mut map = serde_json::Map::new();
    for entry in js_sys::Object::entries(obj).iter() {
        let entry = js_sys::Array::from(&entry);
        let key = entry.get(0).as_string().unwrap_or_default();
        map.insert(key, value_of(&entry.get(1), depth)?);
    }
    Some(Value::Object(map))
}

/// `obj[key]` when `obj` has it as its own property: options never come from the prototype
/// chain (a polluted `Object.prototype.endpoint` must not redirect `mount()`).
pub(super) fn own(obj: &JsValue, key: &str) -> Option<JsValue> {
    let o = obj.dyn_ref::<js_sys::Object>()?;
    if !js_sys::Object::has_own(o, &JsValue::from_str(key)) {
        return None;
    }
    js_sys::Reflect::get(obj, &key.into()).ok()
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
