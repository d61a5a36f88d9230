//! Reading what the page gives: JSON through the browser's `JSON.parse` within a nesting budget,
//! own properties only, and the console.

use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub(super) fn warn(text: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("agui-chat: {text}")));
}

pub(super) fn error_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "the handler failed".to_owned())
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

/// `v` as a JS value ([`js_of`] within [`JSON_DEPTH`] levels): what the page is handed.
pub(super) fn js_value(v: &Value) -> JsValue {
    js_of(v, JSON_DEPTH)
}

/// `v` as the JS value `JSON.parse` would make of its text, without the text (the lean
/// widget's main module has no JSON writer): an object by its own entries
/// (`Object.fromEntries`, so a `__proto__` key is a key like any other), a number as JS's
/// `f64`; deeper than `depth` levels is `null`.
pub fn js_of(v: &Value, depth: u32) -> JsValue {
    match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => n.as_f64().map_or(JsValue::NULL, JsValue::from_f64),
        Value::String(s) => JsValue::from_str(s),
        _ if depth == 0 => JsValue::NULL,
        Value::Array(items) => {
            let items: js_sys::Array = items.iter().map(|x| js_of(x, depth - 1)).collect();
            items.into()
        }
        Value::Object(map) => {
            let entries: js_sys::Array = map
                .iter()
                .map(|(k, x)| js_sys::Array::of2(&JsValue::from_str(k), &js_of(x, depth - 1)))
                .collect();
            js_sys::Object::from_entries(&entries).map_or(JsValue::NULL, JsValue::from)
        }
    }
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

pub(super) fn set(obj: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &key.into(), value);
}
