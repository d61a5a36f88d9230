//! The surface data model: JSON Pointer (RFC 6901) reads and upserts, and the evaluation
//! scope that makes template paths item-relative (A2UI v1.0 protocol, "Path resolution &
//! scope" and "Agent to renderer updates").

use serde_json::{Map, Value};

use super::error::A2uiError;

/// At most this many reference tokens in one pointer.
pub const MAX_POINTER_SEGMENTS: usize = 64;

/// Where a component instance reads relative paths from: the root scope, or one item of a
/// template list (its absolute pointer and index, for `@index`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    /// Absolute pointer of the current template item (`/employees/1`); `None` at the root.
    pub base: Option<String>,
    /// The 0-based index of the item in its list; `None` outside templates.
    pub index: Option<usize>,
}

impl Scope {
    /// The root scope (absolute paths only; relative ones resolve from the root).
    pub fn root() -> Scope {
        Scope::default()
    }

    /// The absolute pointer a binding path names in this scope: `/x` stays, `x` becomes
    /// `<base>/x`, `.` and the empty path name the item itself.
    pub fn resolve(&self, path: &str) -> String {
        if path.starts_with('/') {
            return path.to_string();
        }
        let base = self.base.as_deref().unwrap_or("");
        let rel = path.strip_prefix("./").unwrap_or(path);
        if rel.is_empty() || rel == "." {
            return base.to_string();
        }
        format!("{base}/{rel}")
    }
}

/// Splits a pointer into unescaped tokens. `""` and `"/"` are the whole document.
pub fn tokens(pointer: &str) -> Result<Vec<String>, A2uiError> {
    if pointer.is_empty() || pointer == "/" {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(A2uiError::BadPointer {
            pointer: pointer.to_string(),
        });
    };
    let parts: Vec<String> = rest
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    if parts.len() > MAX_POINTER_SEGMENTS {
        return Err(A2uiError::BadPointer {
            pointer: pointer.chars().take(80).collect(),
        });
    }
    Ok(parts)
}

fn array_index(token: &str) -> Option<usize> {
    if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

/// The value at `pointer`, or `None` when the path does not exist (yet).
pub fn get<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut cur = root;
    for t in tokens(pointer).ok()? {
        cur = match cur {
            Value::Object(m) => m.get(&t)?,
            Value::Array(a) => a.get(array_index(&t)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Upsert semantics of `updateDataModel`: the value at `pointer` is replaced (intermediate
/// objects are created), `null` removes the key; the whole model for `""` / `"/"`.
pub fn set(root: &mut Value, pointer: &str, value: Value) -> Result<(), A2uiError> {
    let toks = tokens(pointer)?;
    let Some((last, parents)) = toks.split_last() else {
        *root = if value.is_null() {
            Value::Object(Map::new())
        } else {
            value
        };
        return Ok(());
    };
    let bad = || A2uiError::BadPointer {
        pointer: pointer.chars().take(80).collect(),
    };
    let mut cur = root;
    for t in parents {
        if !cur.is_object() && !cur.is_array() {
            *cur = Value::Object(Map::new());
        }
        cur = match cur {
            Value::Object(m) => m
                .entry(t.clone())
                .or_insert_with(|| Value::Object(Map::new())),
            Value::Array(a) => {
                let i = array_index(t).ok_or_else(bad)?;
                if i == a.len() {
                    a.push(Value::Object(Map::new()));
                }
                a.get_mut(i).ok_or_else(bad)?
            }
            _ => return Err(bad()),
        };
    }
    if !cur.is_object() && !cur.is_array() {
        if value.is_null() {
            return Ok(());
        }
        *cur = Value::Object(Map::new());
    }
    match cur {
        Value::Object(m) => {
            if value.is_null() {
                m.remove(last);
            } else {
                m.insert(last.clone(), value);
            }
        }
        Value::Array(a) => {
            let i = if last == "-" {
                a.len()
            } else {
                array_index(last).ok_or_else(bad)?
            };
            match (i.cmp(&a.len()), value.is_null()) {
                (std::cmp::Ordering::Less, true) => {
                    a.remove(i);
                }
                (std::cmp::Ordering::Less, false) => {
                    if let Some(slot) = a.get_mut(i) {
                        *slot = value;
                    }
                }
                (std::cmp::Ordering::Equal, false) => a.push(value),
                (std::cmp::Ordering::Equal, true) => {}
                (std::cmp::Ordering::Greater, _) => return Err(bad()),
            }
        }
        _ => return Err(bad()),
    }
    Ok(())
}
