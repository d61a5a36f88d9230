//! The shared-state panel's model (spec digest §4.7, RFC 6901/6902): how a key becomes a JSON
//! pointer token, what counts as no state. Pure.

use serde_json::Value;

/// One RFC 6901 reference token: `~` → `~0`, `/` → `~1`.
pub fn escape_pointer_token(key: &str) -> String {
    if !key.contains(['~', '/']) {
        return key.to_owned();
    }
    key.replace('~', "~0").replace('/', "~1")
}

/// No state, `null`, `{}` or `[]`.
pub fn is_empty_state(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => true,
        Some(Value::Object(o)) => o.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        _ => false,
    }
}

/// True for the reducer's warning about a `STATE_DELTA` that could not be applied.
pub fn is_state_patch_failure(warning: &str) -> bool {
    warning.to_ascii_lowercase().contains("state patch")
}
