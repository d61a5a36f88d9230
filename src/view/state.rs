//! The shared-state panel's model (spec digest §4.7, RFC 6901/6902): which rendered paths a
//! `STATE_DELTA` touched ([`patched_paths`], [`touched_paths`]), how a key becomes a JSON
//! pointer token, what counts as no state. Pure.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// The pointer of the parent of `p` (`/a/b` → `/a`, `/a` → ``); `None` for the root.
pub fn parent_pointer(p: &str) -> Option<&str> {
    p.rfind('/').map(|i| &p[..i])
}

/// The pointers a successful `STATE_DELTA` changed, as the UI addresses them: an append
/// (`/list/-`) becomes the index it landed at, and a `move` also changed its `from` location.
/// `state` is the state after the patch.
pub fn patched_paths(state: &Value, paths: &[String], ops: &[Value]) -> Vec<String> {
    let mut out = Vec::with_capacity(paths.len() + 1);
    // Appends to the same array land at consecutive indices ending at its last element.
    let mut appends: HashMap<&str, (usize, usize)> = HashMap::new();
    for parent in paths.iter().filter_map(|p| p.strip_suffix("/-")) {
        appends.entry(parent).or_insert((0, 0)).1 += 1;
    }
    for p in paths {
        let Some(parent) = p.strip_suffix("/-") else {
            out.push(p.clone());
            continue;
        };
        let (nth, total) = appends.get(parent).copied().unwrap_or((0, 1));
        appends.insert(parent, (nth + 1, total));
        let len = state
            .pointer(parent)
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        match (len + nth).checked_sub(total) {
            Some(i) => out.push(format!("{parent}/{i}")),
            None => out.push(p.clone()),
        }
    }
    for op in ops {
        if op.get("op").and_then(Value::as_str) == Some("move") {
            if let Some(from) = op.get("from").and_then(Value::as_str) {
                out.push(from.to_owned());
            }
        }
    }
    out
}

/// Every rendered path (`watched`) a set of changed paths touches: each path, its ancestors,
/// its rendered descendants (a replaced subtree), and — for an insert into or removal from an
/// array — the rendered elements after it (`/list/j`, `j >= i`, and below), which shifted
/// although no operation named them. Costs O(changed × watched).
pub fn touched_paths(
    state: &Value,
    changed: &[String],
    watched: &HashSet<String>,
) -> HashSet<String> {
    let mut touched = HashSet::new();
    for p in changed {
        let mut cur = p.as_str();
        touched.insert(cur.to_owned());
        // Ancestors are looked up, and only the rendered ones copied: O(the path's length ×
        // its depth), within the state's depth budget.
        while let Some(parent) = parent_pointer(cur) {
            if watched.contains(parent) && !touched.contains(parent) {
                touched.insert(parent.to_owned());
            }
            cur = parent;
        }
        let prefix = format!("{p}/");
        touched.extend(watched.iter().filter(|k| k.starts_with(&prefix)).cloned());
        shifted_siblings(state, p, watched, &mut touched);
    }
    touched
}

fn shifted_siblings(
    state: &Value,
    pointer: &str,
    watched: &HashSet<String>,
    touched: &mut HashSet<String>,
) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let Ok(i) = last.parse::<usize>() else {
        return;
    };
    if !state.pointer(parent).is_some_and(Value::is_array) {
        return;
    }
    let prefix = format!("{parent}/");
    for k in watched {
        let Some(rest) = k.strip_prefix(&prefix) else {
            continue;
        };
        let segment = rest.split('/').next().unwrap_or(rest);
        if segment.parse::<usize>().is_ok_and(|j| j >= i) {
            touched.insert(k.clone());
        }
    }
}

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
