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
//! **Budgets** ([`Limits`]): a document (the state, one activity's content) stays within
//! [`MAX_DEPTH`] levels of nesting and [`MAX_BYTES`] of approximate JSON size ([`measure`]).
//! An operation that would go past either fails (`TooDeep` / `TooLarge`) and the patch rolls
//! back like any other failure; a `copy` source is measured — with the budget as the cap —
//! before it is cloned, so `copy "" → /cN` (which doubles the document per operation) or
//! `copy /a → /a/a` (which doubles its depth) stop at the budget instead of exhausting wasm's
//! memory or stack. Within [`MAX_DEPTH`], every recursive walk of a document (clone, drop,
//! compare, serialise, reload through serde's 128-level parser) is safe.
//!
//! Cost: O(the patch) plus the size of each value an operation writes, overwrites or removes
//! (what cloning and dropping them costs anyway); a `move` deeper into the document also
//! measures the moved value's depth. The document's own size is carried between patches by
//! the caller (`size`), never re-measured per patch.

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
    /// The document would nest deeper than this many levels.
    #[error("the document would nest deeper than {0} levels")]
    TooDeep(usize),
    /// The document would be larger than this many bytes (approximate JSON size).
    #[error("the document would be larger than {0} bytes")]
    TooLarge(usize),
}

/// Default nesting budget of a patched document: half of serde_json's parse limit (128), so a
/// saved state always reloads inside the record that wraps it.
pub const MAX_DEPTH: usize = 64;
/// Default size budget of a patched document (approximate JSON bytes, see [`measure`]).
pub const MAX_BYTES: usize = 8 * 1024 * 1024;

/// The budgets of one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Levels of nesting (a scalar is 0, `{}` or `[]` is 1, `{"a": []}` is 2).
    pub max_depth: usize,
    /// Approximate JSON size in bytes ([`measure`]).
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: MAX_DEPTH,
            max_bytes: MAX_BYTES,
        }
    }
}

impl Limits {
    /// No budget (for measuring what is already held).
    pub const NONE: Limits = Limits {
        max_depth: usize::MAX,
        max_bytes: usize::MAX,
    };
}

/// A value's `(approximate JSON size, depth)`, walking iteratively (no recursion) and stopping
/// as soon as either passes `limits`: `Err(TooLarge | TooDeep)`. The size is the JSON text's
/// length with every scalar counted at least 8 bytes (closer to what it takes in memory):
/// strings `len + 2`, numbers 8, containers 2, each element a comma more, each key
/// `len + 3` more (quotes, colon). [`apply`] keeps the carried size equal to it.
pub fn measure(v: &Value, limits: Limits) -> Result<(usize, usize), PatchErrorKind> {
    let mut bytes = 0usize;
    let mut depth = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(v, 0)];
    while let Some((v, level)) = stack.pop() {
        let add = match v {
            Value::String(s) => s.len().saturating_add(2).max(8),
            Value::Array(items) => {
                stack.extend(items.iter().map(|x| (x, level + 1)));
                items.len().saturating_add(2)
            }
            Value::Object(map) => {
                stack.extend(map.values().map(|x| (x, level + 1)));
                map.keys()
                    .fold(2, |n: usize, k| n.saturating_add(k.len() + 4))
            }
            _ => 8,
        };
        if v.is_array() || v.is_object() {
            depth = depth.max(level + 1);
            if depth > limits.max_depth {
                return Err(PatchErrorKind::TooDeep(limits.max_depth));
            }
        }
        bytes = bytes.saturating_add(add);
        if bytes > limits.max_bytes {
            return Err(PatchErrorKind::TooLarge(limits.max_bytes));
        }
    }
    Ok((bytes, depth))
}

/// The size [`measure`] gives a value already held (no budget).
pub fn size_of(v: &Value) -> usize {
    measure(v, Limits::NONE).map_or(usize::MAX, |(bytes, _)| bytes)
}

/// The number of reference tokens of a JSON pointer (`""` 0, `/a` 1, `/a/b` 2): the levels
/// of containers above the value it names.
fn tokens(path: &str) -> usize {
    path.bytes().filter(|b| *b == b'/').count()
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
        match parse_op(op) {
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
                    kind: PatchErrorKind::Invalid(e),
                })
            }
        }
    }
    Ok(Patch(out))
}

/// One operation, read member by member into json-patch's types (its serde derive costs the
/// bundle 7.5 KB for the same thing). Unknown members are ignored, as RFC 6902 says.
fn parse_op(op: &Value) -> Result<PatchOperation, String> {
    use json_patch::jsonptr::PointerBuf;
    use json_patch::{
        AddOperation, CopyOperation, MoveOperation, RemoveOperation, ReplaceOperation,
        TestOperation,
    };
    let o = op
        .as_object()
        .ok_or_else(|| "an operation is a JSON object".to_owned())?;
    let pointer = |key: &str| -> Result<PointerBuf, String> {
        match o.get(key) {
            Some(Value::String(s)) => PointerBuf::parse(s.as_str()).map_err(|e| e.to_string()),
            Some(_) => Err(format!("`{key}` is not a string")),
            None => Err(format!("missing field `{key}`")),
        }
    };
    let value = || {
        o.get("value")
            .cloned()
            .ok_or_else(|| "missing field `value`".to_owned())
    };
    Ok(match o.get("op").and_then(Value::as_str) {
        Some("add") => PatchOperation::Add(AddOperation {
            path: pointer("path")?,
            value: value()?,
        }),
        Some("remove") => PatchOperation::Remove(RemoveOperation {
            path: pointer("path")?,
        }),
        Some("replace") => PatchOperation::Replace(ReplaceOperation {
            path: pointer("path")?,
            value: value()?,
        }),
        Some("move") => PatchOperation::Move(MoveOperation {
            from: pointer("from")?,
            path: pointer("path")?,
        }),
        Some("copy") => PatchOperation::Copy(CopyOperation {
            from: pointer("from")?,
            path: pointer("path")?,
        }),
        Some("test") => PatchOperation::Test(TestOperation {
            path: pointer("path")?,
            value: value()?,
        }),
        Some(other) => {
            return Err(format!(
                "unknown variant `{other}`, expected one of `add`, `remove`, `replace`, `move`, `copy`, `test`"
            ))
        }
        None => return Err("missing field `op`".to_owned()),
    })
}

/// The pointers a patch names (its operations' `path`s, in order).
pub fn paths(patch: &Patch) -> Vec<String> {
    patch
        .iter()
        .map(|op| op.path().as_str().to_owned())
        .collect()
}

/// Apply a patch atomically within `limits`: every operation, or none (see the module docs).
/// `size` is the document's [`measure`]d size, carried by the caller from patch to patch
/// (`None`: measured now, once); it is updated on success and left alone on failure.
pub fn apply(
    doc: &mut Value,
    patch: &Patch,
    limits: Limits,
    size: &mut Option<usize>,
) -> Result<(), PatchError> {
    let mut journal = Vec::with_capacity(patch.len());
    let mut bytes = size.unwrap_or_else(|| size_of(doc));
    for (n, op) in patch.iter().enumerate() {
        let mut budget = Budget {
            limits,
            bytes: &mut bytes,
        };
        if let Err(kind) = apply_op(doc, op, &mut journal, &mut budget) {
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
    *size = Some(bytes);
    Ok(())
}

/// The running size of the document being patched, against its limits.
struct Budget<'a> {
    limits: Limits,
    bytes: &'a mut usize,
}

impl Budget<'_> {
    /// Check that `value` fits at `path` (depth and the size left); its size.
    fn fits(&self, path: &str, value: &Value) -> Result<usize, K> {
        let limits = Limits {
            max_depth: self.limits.max_depth.saturating_sub(tokens(path)),
            max_bytes: self.limits.max_bytes,
        };
        measure(value, limits)
            .map(|(bytes, _)| bytes)
            .map_err(|e| match e {
                K::TooDeep(_) => K::TooDeep(self.limits.max_depth),
                other => other,
            })
    }

    /// Account for `added` bytes written and `gone` bytes they replaced.
    fn swap(&mut self, added: usize, gone: usize) -> Result<(), K> {
        let after = self.bytes.saturating_sub(gone).saturating_add(added);
        if after > self.limits.max_bytes {
            return Err(K::TooLarge(self.limits.max_bytes));
        }
        *self.bytes = after;
        Ok(())
    }
}

/// What an `add` changed in size beyond its value: `(the new slot, what it overwrote)`.
fn added_cost(added: &Added) -> (usize, usize) {
    match added {
        Added::NewKey(_, key) => (key.len() + 4, 0),
        Added::Inserted(..) => (1, 0),
        Added::Overwrote(_, old) => (0, size_of(old)),
    }
}

/// What a removed slot took beyond its value (see [`measure`]: a key, its quotes, colon and
/// comma; an element's comma).
fn slot_cost(slot: &Slot) -> usize {
    match slot {
        Slot::Key(_, key, _) => key.len() + 4,
        Slot::Index(..) => 1,
    }
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

fn apply_op(
    doc: &mut Value,
    op: &PatchOperation,
    journal: &mut Vec<Undo>,
    budget: &mut Budget,
) -> Result<(), K> {
    use PatchOperation as P;
    match op {
        P::Add(o) => {
            let path = o.path.as_str();
            let bytes = budget.fits(path, &o.value)?;
            let added = add_at(doc, path, o.value.clone()).map_err(|(e, _)| e)?;
            let (slot, gone) = added_cost(&added);
            let result = budget.swap(bytes.saturating_add(slot), gone);
            journal.push(Undo::Added(added));
            result?;
        }
        P::Remove(o) => {
            let (slot, old) = remove_at(doc, o.path.as_str())?;
            let gone = size_of(&old).saturating_add(slot_cost(&slot));
            *budget.bytes = budget.bytes.saturating_sub(gone);
            journal.push(Undo::Removed(slot, old));
        }
        P::Replace(o) => {
            let bytes = budget.fits(o.path.as_str(), &o.value)?;
            let target = doc.pointer_mut(o.path.as_str()).ok_or(K::PathNotFound)?;
            let old = std::mem::replace(target, o.value.clone());
            let result = budget.swap(bytes, size_of(&old));
            journal.push(Undo::Replaced(o.path.as_str().to_owned(), old));
            result?;
        }
        P::Move(o) => {
            let (from, path) = (o.from.as_str(), o.path.as_str());
            let Some(value) = doc.pointer(from) else {
                return Err(K::FromNotFound);
            };
            if from == path {
                return Ok(());
            }
            if path
                .strip_prefix(from)
                .is_some_and(|rest| rest.starts_with('/'))
            {
                return Err(K::MoveIntoItself);
            }
            if tokens(path) > tokens(from) {
                budget.fits(path, value)?;
            }
            let (slot, value) = remove_at(doc, from)?;
            match add_at(doc, path, value) {
                Ok(added) => {
                    let (new_slot, gone) = added_cost(&added);
                    let result = budget.swap(new_slot, gone.saturating_add(slot_cost(&slot)));
                    journal.push(Undo::Moved(added, slot));
                    result?;
                }
                Err((e, value)) => {
                    put_back(doc, slot, value);
                    return Err(e);
                }
            }
        }
        P::Copy(o) => {
            let source = doc.pointer(o.from.as_str()).ok_or(K::FromNotFound)?;
            // Measured against the budget before anything is cloned.
            let path = o.path.as_str();
            let bytes = budget.fits(path, source)?;
            let value = source.clone();
            let added = add_at(doc, path, value).map_err(|(e, _)| e)?;
            let (slot, gone) = added_cost(&added);
            let result = budget.swap(bytes.saturating_add(slot), gone);
            journal.push(Undo::Added(added));
            result?;
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
