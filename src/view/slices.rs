//! Mounting a long transcript in slices: which rows are in the DOM, as plain data.
//!
//! A thread of 1,000 messages mounted at once blocks the page for hundreds of milliseconds
//! (docs/dev/benchmarks.md, "Long threads"). The transcript mounts the newest [`FIRST_ROWS`] rows at once —
//! what the person sees, at the bottom — and then older rows, a batch per animation frame,
//! until all are mounted. Mounted rows are always a suffix `rows[start..]` of the current rows,
//! so a window can never hold rows of another thread.
//!
//! The plan follows the rows as they change: rows appended at the end (a new message, a
//! stream) keep the mounted suffix and extend it; the first mounted row is tracked by key, so
//! a snapshot that resends the same history keeps it too; when that row is gone (another
//! thread, another branch, a cleared conversation) the plan starts over from the end.
//!
//! Batches adapt to the time the last one took ([`Slices::measured`]): about
//! [`BATCH_BUDGET_MS`] of script per frame, between [`MIN_BATCH`] and [`MAX_BATCH`] rows.

use crate::view::rows::Row;

/// Rows mounted at once when a list appears: the newest ones.
pub const FIRST_ROWS: usize = 30;
/// The first batch of older rows, before any was measured.
pub const FIRST_BATCH: usize = 20;
/// The smallest batch (progress even on a slow machine or a row that costs a frame).
pub const MIN_BATCH: usize = 16;
/// The largest batch (a cheap row type does not make one frame mount hundreds).
pub const MAX_BATCH: usize = 200;
/// Script time one batch aims at, in milliseconds (style and layout of the new rows come on
/// top, in the same frame).
pub const BATCH_BUDGET_MS: f64 = 12.0;

/// The mounted part of a transcript: `rows[start..]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Slices {
    start: usize,
    /// The key of `rows[start]` (`None`: no rows).
    anchor: Option<String>,
    batch: usize,
}

impl Slices {
    /// The plan for a list that just appeared: its newest [`FIRST_ROWS`] rows mounted.
    pub fn new(rows: &[Row]) -> Self {
        let mut s = Slices {
            start: 0,
            anchor: None,
            batch: FIRST_BATCH,
        };
        s.restart(rows);
        s
    }

    fn restart(&mut self, rows: &[Row]) {
        self.start = rows.len().saturating_sub(FIRST_ROWS);
        self.anchor = rows.get(self.start).map(|r| r.key.clone());
    }

    /// The index of the first mounted row.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Every row is mounted.
    pub fn done(&self) -> bool {
        self.start == 0
    }

    /// The rows changed: keep the mounted suffix when its first row is still there (O(1) when
    /// it did not move), else start over from the end. True when it started over.
    pub fn update(&mut self, rows: &[Row]) -> bool {
        let Some(anchor) = self.anchor.as_deref() else {
            self.restart(rows);
            return true;
        };
        if rows.get(self.start).is_some_and(|r| r.key == anchor) {
            return false;
        }
        match rows.iter().position(|r| r.key == anchor) {
            Some(at) => {
                self.start = at;
                false
            }
            None => {
                self.restart(rows);
                true
            }
        }
    }

    /// Mount the next batch of older rows; the new start.
    pub fn step(&mut self, rows: &[Row]) -> usize {
        self.update(rows);
        self.start = self.start.saturating_sub(self.batch);
        self.anchor = rows.get(self.start).map(|r| r.key.clone());
        self.start
    }

    /// The rows the next step mounts (at most).
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// The last step's batch took `ms` of script: size the next one for
    /// [`BATCH_BUDGET_MS`]. Growth is capped at 2× a step, so one cheap batch does not jump
    /// to a size that a heavier part of the thread cannot afford; a slow one shrinks at once.
    pub fn measured(&mut self, ms: f64) {
        let rate = if ms.is_nan() {
            1.0
        } else if ms <= 0.05 {
            2.0
        } else {
            BATCH_BUDGET_MS / ms
        };
        let next = (self.batch as f64 * rate.min(2.0)).floor();
        let next = if next.is_finite() {
            next as usize
        } else {
            MIN_BATCH
        };
        self.batch = next.clamp(MIN_BATCH, MAX_BATCH);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::types::Role;

    fn rows(prefix: &str, n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| Row {
                key: format!("{prefix}{i}"),
                id: format!("{prefix}{i}"),
                role: if i % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                },
                subagent: None,
            })
            .collect()
    }

    #[test]
    fn a_short_list_is_mounted_whole() {
        for n in [0, 1, FIRST_ROWS] {
            let s = Slices::new(&rows("m", n));
            assert_eq!(s.start(), 0);
            assert!(s.done());
        }
    }

    #[test]
    fn a_long_list_starts_with_the_newest_and_mounts_older_rows_until_done() {
        let r = rows("m", 1_000);
        let mut s = Slices::new(&r);
        assert_eq!(s.start(), 1_000 - FIRST_ROWS);
        let mut steps = 0;
        let mut last = s.start();
        while !s.done() {
            let start = s.step(&r);
            assert!(start < last, "every step mounts older rows");
            assert!(last - start <= MAX_BATCH);
            last = start;
            steps += 1;
            assert!(steps < 1_000);
        }
        assert_eq!(s.start(), 0);
        // Done stays done.
        assert_eq!(s.step(&r), 0);
        assert!(!s.update(&r));
    }

    #[test]
    fn appended_rows_keep_the_mounted_suffix() {
        let mut r = rows("m", 500);
        let mut s = Slices::new(&r);
        s.step(&r);
        let start = s.start();
        r.extend(rows("new", 3));
        assert!(!s.update(&r));
        assert_eq!(s.start(), start);
        // A resent history with rows inserted before the window: the first mounted row is
        // followed by key.
        let mut resent = rows("x", 2);
        resent.extend(r.clone());
        assert!(!s.update(&resent));
        assert_eq!(s.start(), start + 2);
        assert_eq!(resent[s.start()].key, r[start].key);
    }

    #[test]
    fn another_thread_starts_over_from_its_end() {
        let a = rows("a", 1_000);
        let mut s = Slices::new(&a);
        while !s.done() {
            s.step(&a);
        }
        let b = rows("b", 400);
        assert!(s.update(&b), "a different list starts over");
        assert_eq!(s.start(), 400 - FIRST_ROWS);
        // Mid-slicing too, and the window is always a suffix of the current rows.
        s.step(&b);
        let c = rows("c", 50);
        assert!(s.update(&c));
        assert_eq!(s.start(), 50 - FIRST_ROWS);
        // Emptied, then a first message.
        assert!(s.update(&[]));
        assert_eq!(s.start(), 0);
        assert!(s.update(&rows("d", 1)));
        assert_eq!(s.start(), 0);
        assert!(!s.update(&rows("d", 2)));
    }

    #[test]
    fn a_step_on_changed_rows_never_leaves_the_list() {
        let a = rows("a", 1_000);
        let mut s = Slices::new(&a);
        let b = rows("b", 10);
        let start = s.step(&b);
        assert!(start <= b.len());
        assert_eq!(start, 0);
    }

    #[test]
    fn batches_follow_the_measured_time_within_bounds() {
        let mut s = Slices::new(&rows("m", 1_000));
        assert_eq!(s.batch(), FIRST_BATCH);
        s.measured(BATCH_BUDGET_MS / 4.0);
        assert_eq!(s.batch(), FIRST_BATCH * 2, "growth is capped at 2x");
        s.measured(BATCH_BUDGET_MS * 2.0);
        assert_eq!(s.batch(), FIRST_BATCH);
        s.measured(1_000.0);
        assert_eq!(s.batch(), MIN_BATCH);
        for _ in 0..20 {
            s.measured(0.0);
        }
        assert_eq!(s.batch(), MAX_BATCH);
        s.measured(f64::NAN);
        assert_eq!(s.batch(), MAX_BATCH);
        s.measured(f64::INFINITY);
        assert_eq!(s.batch(), MIN_BATCH);
    }
}
