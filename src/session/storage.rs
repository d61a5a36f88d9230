//! Where conversations are kept: a small key-value interface, so persistence is tested
//! natively. The browser shell implements it over `localStorage`; [`MemoryStore`] is the
//! in-memory one (tests, and pages where the browser keeps nothing), with failures that can be
//! switched on to play a full disk or a locked store.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A string key-value store. Every operation may fail with the store's reason (a quota, a
/// disabled storage); nothing here panics.
pub trait KeyValue {
    fn get(&self, key: &str) -> Result<Option<String>, String>;
    fn set(&self, key: &str, value: &str) -> Result<(), String>;
    fn remove(&self, key: &str) -> Result<(), String>;
    /// Every key (any order).
    fn keys(&self) -> Result<Vec<String>, String>;
}

/// An in-memory [`KeyValue`]; clones share the same data (a "reload" is a new session on a
/// clone).
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    inner: Rc<RefCell<Memory>>,
}

#[derive(Debug, Default)]
struct Memory {
    data: BTreeMap<String, String>,
    /// Writes fail with this reason (e.g. `QuotaExceededError`).
    fail_writes: Option<String>,
    /// Every operation fails with this reason (storage unavailable).
    fail_all: Option<String>,
    /// A quota: a write that would make keys and values longer than this fails.
    capacity: Option<usize>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes (set, remove) fail with `reason` from now on (`None`: they work again).
    pub fn fail_writes(&self, reason: Option<&str>) {
        self.inner.borrow_mut().fail_writes = reason.map(str::to_owned);
    }

    /// Everything fails with `reason` (a browser that blocks storage).
    pub fn fail_all(&self, reason: Option<&str>) {
        self.inner.borrow_mut().fail_all = reason.map(str::to_owned);
    }

    /// Writes past `bytes` in total (keys and values) fail with a `QuotaExceededError`, as a
    /// browser's do (`None`: no quota).
    pub fn capacity(&self, bytes: Option<usize>) {
        self.inner.borrow_mut().capacity = bytes;
    }

    /// Bytes held (keys and values).
    pub fn used(&self) -> usize {
        self.inner
            .borrow()
            .data
            .iter()
            .map(|(k, v)| k.len() + v.len())
            .sum()
    }

    /// What is stored under `key` (tests).
    pub fn peek(&self, key: &str) -> Option<String> {
        self.inner.borrow().data.get(key).cloned()
    }

    /// Put a value in directly (tests: a record written by another version, garbage).
    pub fn put(&self, key: &str, value: &str) {
        self.inner
            .borrow_mut()
            .data
            .insert(key.to_owned(), value.to_owned());
    }

    /// The stored keys, sorted (tests).
    pub fn all_keys(&self) -> Vec<String> {
        self.inner.borrow().data.keys().cloned().collect()
    }
}

impl KeyValue for MemoryStore {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        let m = self.inner.borrow();
        if let Some(e) = &m.fail_all {
            return Err(e.clone());
        }
        Ok(m.data.get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        let mut m = self.inner.borrow_mut();
        if let Some(e) = m.fail_all.as_ref().or(m.fail_writes.as_ref()) {
            return Err(e.clone());
        }
        if let Some(cap) = m.capacity {
            let used: usize = m.data.iter().map(|(k, v)| k.len() + v.len()).sum();
            let old = m.data.get(key).map_or(0, |v| key.len() + v.len());
            if used - old + key.len() + value.len() > cap {
                return Err("QuotaExceededError: the quota has been exceeded".to_owned());
            }
        }
        m.data.insert(key.to_owned(), value.to_owned());
        Ok(())
    }

    fn remove(&self, key: &str) -> Result<(), String> {
        let mut m = self.inner.borrow_mut();
        if let Some(e) = m.fail_all.as_ref().or(m.fail_writes.as_ref()) {
            return Err(e.clone());
        }
        m.data.remove(key);
        Ok(())
    }

    fn keys(&self) -> Result<Vec<String>, String> {
        let m = self.inner.borrow();
        if let Some(e) = &m.fail_all {
            return Err(e.clone());
        }
        Ok(m.data.keys().cloned().collect())
    }
}
