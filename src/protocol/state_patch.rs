//! RFC 6902 JSON Patch for `STATE_DELTA` and `ACTIVITY_DELTA` (spec digest §4.6): parsed
//! operation by operation ([`parse`]) and applied **atomically** ([`apply`]) — every operation,
//! or none, with the document left exactly as it was (key order included) when one fails.
//! Failures are values in json-patch's shape: [`PatchError`] `{ op, path, kind }`.
//!
//! The operation types are json-patch's; the engine is not `json_patch::patch`: its rollback
//! panics when it cannot undo a move from a child to an ancestor (`unreachable!`), loses the
//! source of a move whose target is missing, and restores removed keys at the end of their
//! object (serde_json's `remove` is a `swap_remove` with `preserve_order`, which also reorders
//! keys on a successful `remove`).
//!
//! Cost: O(the patch) plus the size of each object a `remove` touches; nothing is cloned but
//! the values the operations carry (and the source of a `copy`).

use serde::Deserialize;
use serde_json::Value;

pub use json_patch::{Patch, PatchOperation};

/// Why an operation of a patch failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatchErrorKind {
    /// Not an RFC 6902 operation (the parser's reason).
    #[error("{0}")]
    Invalid(String),
    #[error("path not found")]
    PathNotFound,
    #[error("'from' path not found")]
    FromNotFound,
    #[error("array index out of bounds")]
    IndexOutOfBounds,
    #[error("the parent is not an object or array")]
    NotAContainer,
    #[error("cannot remove the whole document")]
    RemoveRoot,
    #[error("cannot move a value into itself")]
    MoveIntoItself,
    #[error("test failed")]
    TestFailed,
    /// An activity's content must stay an object; the patch made it something else.
    #[error("the patched content is not an object")]
    NotAnObject,
}

/// A patch that could not be applied: which operation (its index and name), at which JSON
/// pointer, and why. The document is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("operation {op} ({op_name}) failed at path '{path}': {kind}")]
pub struct PatchError {
    /// Index of the failing operation in the patch.
    pub op: usize,
    /// Its `op` (`add`, `remove`, …; `?` when it did not parse).
    pub op_name: &'static str,
    /// Its `path` (RFC 6901 pointer; as sent when it did not parse).
    pub path: String,
    pub kind: PatchErrorKind,
}

/// The name of an operation.
pub fn op_name(op: &PatchOperation) -> &'static str {
    match op {
        PatchOperation::Add(_) => "add",
        PatchOperation::Remove(_) => "remove",
        PatchOperation::Replace(_) => "replace",
        PatchOperation::Move(_) => "move",
        PatchOperation::Copy(_) => "copy",
        PatchOperation::Test(_) => "test",
    }
}

/// Parse the operations of a delta, one by one, so a bad one is named by its index.
pub fn parse(ops: &[Value]) -> Result<Patch, PatchError> {
    let mut out = Vec::with_capacity(ops.len());
    for (n, op) in ops.iter().enumerate() {
        match PatchOperation::deserialize(op) {
            Ok(parsed) => out.push(parsed),
            Err(e) => {
                return Err(PatchError {
                    op: n,
                    op_name: "?",
                    path: op
                        .get("path")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    kind: PatchErrorKind::Invalid(e.to_string()),
                })
            }
        }
    }
    Ok(Patch(out))
}

/// The pointers a patch names (its operations' `path`s, in order).
pub fn paths(patch: &Patch) -> Vec<String> {
    patch
        .iter()
        .map(|op| op.path().as_str().to_owned())
        .collect()
}

/// Apply a patch atomically: every operation, or none (see the module docs).
pub fn apply(doc: &mut Value, patch: &Patch) -> Result<(), PatchError> {
    let mut journal = Vec::with_capacity(patch.len());
    for (n, op) in patch.iter().enumerate() {
        if let Err(kind) = apply_op(doc, op, &mut journal) {
            while let Some(step) = journal.pop() {
                undo(doc, step);
            }
            return Err(PatchError {
                op: n,
                op_name: op_name(op),
                path: op.path().as_str().to_owned(),
                kind,
            });
        }
    }
    Ok(())
}

/// Where a removed value sat.
enum Slot {
    /// Key of the object at this pointer, at this position.
    Key(String, String, usize),
    /// Index of the array at this pointer.
    Index(String, usize),
}

/// How an added value went in (to take it out again).
enum Added {
    /// A new key appended to the object at this pointer.
    NewKey(String, String),
    /// The value at this pointer (a key or the root) was overwritten; the old value.
    Overwrote(String, Value),
    /// An element inserted into the array at this pointer.
    Inserted(String, usize),
}

/// One applied operation, as what takes it back.
enum Undo {
    Added(Added),
    Removed(Slot, Value),
    Replaced(String, Value),
    Moved(Added, Slot),
}

use PatchErrorKind as K;

fn apply_op(doc: &mut Value, op: &PatchOperation, journal: &mut Vec<Undo>) -> Result<(), K> {
    use PatchOperation as P;
    match op {
        P::Add(o) => {
            let added = add_at(doc, o.path.as_str(), o.value.clone()).map_err(|(e, _)| e)?;
            journal.push(Undo::Added(added));
        }
        P::Remove(o) => {
            let (slot, old) = remove_at(doc, o.path.as_str())?;
            journal.push(Undo::Removed(slot, old));
        }
        P::Replace(o) => {
            let target = doc.pointer_mut(o.path.as_str()).ok_or(K::PathNotFound)?;
            let old = std::mem::replace(target, o.value.clone());
            journal.push(Undo::Replaced(o.path.as_str().to_owned(), old));
        }
        P::Move(o) => {
            let (from, path) = (o.from.as_str(), o.path.as_str());
            if doc.pointer(from).is_none() {
                return Err(K::FromNotFound);
            }
            if from == path {
                return Ok(());
            }
            if path
                .strip_prefix(from)
                .is_some_and(|rest| rest.starts_with('/'))
            {
                return Err(K::MoveIntoItself);
            }
            let (slot, value) = remove_at(doc, from)?;
            match add_at(doc, path, value) {
                Ok(added) => journal.push(Undo::Moved(added, slot)),
                Err((e, value)) => {
                    put_back(doc, slot, value);
                    return Err(e);
                }
            }
        }
        P::Copy(o) => {
            let value = doc
                .pointer(o.from.as_str())
                .cloned()
                .ok_or(K::FromNotFound)?;
            let added = add_at(doc, o.path.as_str(), value).map_err(|(e, _)| e)?;
            journal.push(Undo::Added(added));
        }
        P::Test(o) => {
            if doc.pointer(o.path.as_str()) != Some(&o.value) {
                return Err(K::TestFailed);
            }
        }
    }
    Ok(())
}

fn undo(doc: &mut Value, step: Undo) {
    match step {
        Undo::Added(added) => {
            take_added(doc, added);
        }
        Undo::Removed(slot, old) => put_back(doc, slot, old),
        Undo::Replaced(path, old) => {
            if let Some(target) = doc.pointer_mut(&path) {
                *target = old;
            }
        }
        Undo::Moved(added, slot) => {
            if let Some(value) = take_added(doc, added) {
                put_back(doc, slot, value);
            }
        }
    }
}

/// `(parent pointer, decoded last token)`; `None` for the root pointer `""`.
fn split_pointer(path: &str) -> Option<(&str, String)> {
    let i = path.rfind('/')?;
    let parent = path.get(..i)?;
    let token = path.get(i + 1..)?.replace("~1", "/").replace("~0", "~");
    Some((parent, token))
}

/// An RFC 6901 array index: `0` or digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

/// RFC 6902 `add`. On failure the value is handed back untouched.
fn add_at(doc: &mut Value, path: &str, value: Value) -> Result<Added, (K, Value)> {
    let Some((parent, token)) = split_pointer(path) else {
        let old = std::mem::replace(doc, value);
        return Ok(Added::Overwrote(String::new(), old));
    };
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => match map.get_mut(&token) {
            Some(slot) => {
                let old = std::mem::replace(slot, value);
                Ok(Added::Overwrote(path.to_owned(), old))
            }
            None => {
                map.insert(token.clone(), value);
                Ok(Added::NewKey(parent.to_owned(), token))
            }
        },
        Some(Value::Array(items)) => {
            let index = if token == "-" {
                Some(items.len())
            } else {
                array_index(&token).filter(|i| *i <= items.len())
            };
            match index {
                Some(i) => {
                    items.insert(i, value);
                    Ok(Added::Inserted(parent.to_owned(), i))
                }
                None => Err((K::IndexOutOfBounds, value)),
            }
        }
        Some(_) => Err((K::NotAContainer, value)),
        None => Err((K::PathNotFound, value)),
    }
}

/// RFC 6902 `remove`, keeping the order of the remaining keys.
fn remove_at(doc: &mut Value, path: &str) -> Result<(Slot, Value), K> {
    let (parent, token) = split_pointer(path).ok_or(K::RemoveRoot)?;
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            let index = map
                .keys()
                .position(|k| *k == token)
                .ok_or(K::PathNotFound)?;
            let old = map.shift_remove(&token).ok_or(K::PathNotFound)?;
            Ok((Slot::Key(parent.to_owned(), token, index), old))
        }
        Some(Value::Array(items)) => {
            let i = array_index(&token)
                .filter(|i| *i < items.len())
                .ok_or(K::IndexOutOfBounds)?;
            Ok((Slot::Index(parent.to_owned(), i), items.remove(i)))
        }
        _ => Err(K::PathNotFound),
    }
}

/// Take an added value out again (the undo of [`add_at`]).
fn take_added(doc: &mut Value, added: Added) -> Option<Value> {
    match added {
        Added::NewKey(parent, key) => doc
            .pointer_mut(&parent)?
            .as_object_mut()?
            .shift_remove(&key),
        Added::Overwrote(path, old) => doc
            .pointer_mut(&path)
            .map(|target| std::mem::replace(target, old)),
        Added::Inserted(parent, i) => {
            let items = doc.pointer_mut(&parent)?.as_array_mut()?;
            (i < items.len()).then(|| items.remove(i))
        }
    }
}

/// Put a removed value back where it was (the undo of [`remove_at`]).
fn put_back(doc: &mut Value, slot: Slot, value: Value) {
    match slot {
        Slot::Key(parent, key, index) => {
            if let Some(map) = doc.pointer_mut(&parent).and_then(Value::as_object_mut) {
                let index = index.min(map.len());
                map.shift_insert(index, key, value);
            }
        }
        Slot::Index(parent, i) => {
            if let Some(items) = doc.pointer_mut(&parent).and_then(Value::as_array_mut) {
                let i = i.min(items.len());
                items.insert(i, value);
            }
        }
    }
}
