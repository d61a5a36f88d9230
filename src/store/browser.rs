//! The session's world in the browser: `Date.now()` and `Math.random()` ([`BrowserEnv`]),
//! `localStorage` ([`BrowserStorage`]), the browser's preferred language ([`browser_locale`]).

use crate::i18n::Locale;
use crate::session::storage::KeyValue;
use crate::session::Env;

/// The browser's clock and a random id source.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserEnv;

impl Env for BrowserEnv {
    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn new_id(&self, prefix: &str) -> String {
        let a = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        let b = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        format!("{prefix}-{:x}{a:08x}{b:08x}", js_sys::Date::now() as u64)
    }
}

/// The first shipped language among the browser's preferred ones, else English.
pub fn browser_locale() -> Locale {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return Locale::default();
    };
    let preferred: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .chain(navigator.language())
        .collect();
    Locale::negotiate(preferred.iter().map(String::as_str))
}

/// The page's `localStorage` (the default) or `sessionStorage` as a [`KeyValue`]; every failure
/// (blocked, sandboxed, a quota) is the browser's reason as text.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserStorage {
    /// `sessionStorage` instead of `localStorage`.
    pub session: bool,
}

impl BrowserStorage {
    /// The storage a widget's `persist` names (`None` is no storage at all: not this).
    pub fn of(persist: crate::embed::Persist) -> Self {
        BrowserStorage {
            session: persist == crate::embed::Persist::Session,
        }
    }
}

/// `"QuotaExceededError: …"` from a thrown DOMException, or whatever text the value has.
fn js_text(e: &wasm_bindgen::JsValue) -> String {
    let field = |k: &str| {
        js_sys::Reflect::get(e, &wasm_bindgen::JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
            .filter(|s| !s.is_empty())
    };
    match (field("name"), field("message")) {
        (Some(n), Some(m)) => format!("{n}: {m}"),
        (Some(t), None) | (None, Some(t)) => t,
        (None, None) => e.as_string().unwrap_or_else(|| "unknown error".to_owned()),
    }
}

fn storage(session: bool) -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or_else(|| "no window".to_owned())?;
    let (area, name) = if session {
        (window.session_storage(), "sessionStorage")
    } else {
        (window.local_storage(), "localStorage")
    };
    match area {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(format!("{name} is not available")),
        Err(e) => Err(js_text(&e)),
    }
}

impl KeyValue for BrowserStorage {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        storage(self.session)?
            .get_item(key)
            .map_err(|e| js_text(&e))
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        storage(self.session)?
            .set_item(key, value)
            .map_err(|e| js_text(&e))
    }

    fn remove(&self, key: &str) -> Result<(), String> {
        storage(self.session)?
            .remove_item(key)
            .map_err(|e| js_text(&e))
    }

    fn keys(&self) -> Result<Vec<String>, String> {
        let s = storage(self.session)?;
        let n = s.length().map_err(|e| js_text(&e))?;
        Ok((0..n).filter_map(|i| s.key(i).ok().flatten()).collect())
    }
}
