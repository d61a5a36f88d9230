//! What a session needs from the world, injected so it runs the same natively: a clock and a
//! source of ids. The browser shell passes `Date.now()` and `Math.random()`; tests pass a
//! [`TestEnv`] whose clock they move by hand and whose ids count up.

use std::cell::Cell;

/// The clock and the id source of a session.
pub trait Env {
    /// Milliseconds since the epoch.
    fn now_ms(&self) -> f64;
    /// A fresh id with `prefix` (`msg-…`, `run-…`, `thread-…`), unique for the session.
    fn new_id(&self, prefix: &str) -> String;
}

/// A deterministic [`Env`]: the clock stands still until [`TestEnv::advance`], ids are
/// `prefix-1`, `prefix-2`, … (one counter for all prefixes).
#[derive(Debug)]
pub struct TestEnv {
    now: Cell<f64>,
    next: Cell<u64>,
}

impl TestEnv {
    /// A clock at `now_ms`.
    pub fn at(now_ms: f64) -> Self {
        TestEnv {
            now: Cell::new(now_ms),
            next: Cell::new(1),
        }
    }

    /// Move the clock on.
    pub fn advance(&self, ms: f64) {
        self.now.set(self.now.get() + ms);
    }
}

impl Default for TestEnv {
    fn default() -> Self {
        TestEnv::at(1_700_000_000_000.0)
    }
}

impl Env for TestEnv {
    fn now_ms(&self) -> f64 {
        self.now.get()
    }

    fn new_id(&self, prefix: &str) -> String {
        let n = self.next.get();
        self.next.set(n + 1);
        format!("{prefix}-{n}")
    }
}

/// An [`Env`] shared with the test that made it (so the test can move its clock).
impl<E: Env + ?Sized> Env for std::rc::Rc<E> {
    fn now_ms(&self) -> f64 {
        (**self).now_ms()
    }

    fn new_id(&self, prefix: &str) -> String {
        (**self).new_id(prefix)
    }
}
