//! Answering interrupts (spec digest §4.11): a resume must cover **every** open interrupt —
//! `resolved` with a payload or `cancelled` — and an expired interrupt can only be cancelled.
//!
//! [`ResumeBuilder`] collects the person's answers; only [`ResumeBuilder::build`] can produce a
//! [`CompleteResume`], and it refuses while any interrupt is unanswered. The run API takes a
//! `CompleteResume`, so an incomplete resume cannot be sent: it does not type-check.
//!
//! Also here: the legacy resume channel (`forwardedProps.command.resume`, LangGraph/Mastra,
//! §7.1, §7.4) and the expiry rule (`expiresAt` ≤ now, ISO-8601).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::types::{Interrupt, ResumeEntry, ResumeStatus};

/// Why an answer or a resume was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    #[error("interrupt '{0}' is not open")]
    Unknown(String),
    #[error("interrupt '{0}' has expired: it can only be cancelled")]
    Expired(String),
    #[error("interrupt '{0}' is not answered yet (answer it or cancel it)")]
    Missing(String),
    #[error("interrupt '{0}' answered twice")]
    Duplicate(String),
    #[error("there is no open interrupt to resume")]
    NothingOpen,
}

/// A resume that covers every open interrupt. Only [`ResumeBuilder::build`] makes one.
#[derive(Debug, Clone, PartialEq)]
pub struct CompleteResume {
    entries: Vec<ResumeEntry>,
}

impl CompleteResume {
    /// The `resume` array for `RunAgentInput`, one entry per interrupt in interrupt order.
    pub fn entries(&self) -> &[ResumeEntry] {
        &self.entries
    }

    /// The older resume channel some servers still read (`forwardedProps.command.resume`):
    /// the single payload when there is one interrupt, else a map interrupt id → payload.
    pub fn legacy_command(&self) -> Value {
        let payload = |e: &ResumeEntry| match e.status {
            ResumeStatus::Resolved => e.payload.clone().unwrap_or(Value::Null),
            ResumeStatus::Cancelled => json!({"cancelled": true}),
        };
        let resume = match self.entries.as_slice() {
            [one] => payload(one),
            many => Value::Object(
                many.iter()
                    .map(|e| (e.interrupt_id.clone(), payload(e)))
                    .collect::<Map<_, _>>(),
            ),
        };
        json!({ "command": { "resume": resume } })
    }
}

/// Collects answers to the open interrupts of a thread.
#[derive(Debug, Clone)]
pub struct ResumeBuilder {
    open: Vec<Interrupt>,
    answers: HashMap<String, ResumeEntry>,
}

impl ResumeBuilder {
    /// Start answering `open` (the thread's open interrupts).
    pub fn new(open: &[Interrupt]) -> Self {
        ResumeBuilder {
            open: open.to_vec(),
            answers: HashMap::new(),
        }
    }

    fn find(&self, id: &str) -> Result<&Interrupt, ResumeError> {
        self.open
            .iter()
            .find(|i| i.id == id)
            .ok_or_else(|| ResumeError::Unknown(id.to_owned()))
    }

    /// Answer one interrupt. `now_ms` is the current time (ms since the epoch) for expiry.
    pub fn resolve(&mut self, id: &str, payload: Value, now_ms: f64) -> Result<(), ResumeError> {
        let interrupt = self.find(id)?;
        if is_expired(interrupt, now_ms) {
            return Err(ResumeError::Expired(id.to_owned()));
        }
        self.answers.insert(
            id.to_owned(),
            ResumeEntry {
                interrupt_id: id.to_owned(),
                status: ResumeStatus::Resolved,
                payload: Some(payload),
                metadata: None,
            },
        );
        Ok(())
    }

    /// Abandon one interrupt (always allowed, also when expired).
    pub fn cancel(&mut self, id: &str) -> Result<(), ResumeError> {
        self.find(id)?;
        self.answers.insert(
            id.to_owned(),
            ResumeEntry {
                interrupt_id: id.to_owned(),
                status: ResumeStatus::Cancelled,
                payload: None,
                metadata: None,
            },
        );
        Ok(())
    }

    /// Abandon every interrupt not answered yet.
    pub fn cancel_remaining(&mut self) {
        let ids = self
            .open
            .iter()
            .filter(|i| !self.answers.contains_key(&i.id))
            .map(|i| i.id.clone())
            .collect::<Vec<_>>();
        for id in ids {
            let _ = self.cancel(&id);
        }
    }

    /// Forget the answer to one interrupt.
    pub fn clear(&mut self, id: &str) {
        self.answers.remove(id);
    }

    /// The answer recorded for an interrupt, if any.
    pub fn answer(&self, id: &str) -> Option<&ResumeEntry> {
        self.answers.get(id)
    }

    /// The interrupts being answered.
    pub fn open(&self) -> &[Interrupt] {
        &self.open
    }

    /// Interrupts still without an answer.
    pub fn unanswered(&self) -> Vec<&Interrupt> {
        self.open
            .iter()
            .filter(|i| !self.answers.contains_key(&i.id))
            .collect()
    }

    /// The complete resume, or the first interrupt still unanswered. A resolved answer to an
    /// interrupt that has expired since is refused too.
    pub fn build(&self, now_ms: f64) -> Result<CompleteResume, ResumeError> {
        if self.open.is_empty() {
            return Err(ResumeError::NothingOpen);
        }
        let mut entries = Vec::with_capacity(self.open.len());
        for i in &self.open {
            let entry = self
                .answers
                .get(&i.id)
                .ok_or_else(|| ResumeError::Missing(i.id.clone()))?;
            if entry.status == ResumeStatus::Resolved && is_expired(i, now_ms) {
                return Err(ResumeError::Expired(i.id.clone()));
            }
            entries.push(entry.clone());
        }
        Ok(CompleteResume { entries })
    }
}

/// True when `expiresAt` is set, parses, and is not in the future (TS: `new Date(x) <= now`).
/// An unparseable `expiresAt` never expires (the person can still answer; the agent decides).
pub fn is_expired(interrupt: &Interrupt, now_ms: f64) -> bool {
    interrupt
        .expires_at
        .as_deref()
        .and_then(parse_iso8601_ms)
        .is_some_and(|t| t <= now_ms)
}

/// Milliseconds until expiry (negative once expired), if the interrupt expires.
pub fn remaining_ms(interrupt: &Interrupt, now_ms: f64) -> Option<f64> {
    interrupt
        .expires_at
        .as_deref()
        .and_then(parse_iso8601_ms)
        .map(|t| t - now_ms)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm); the one
/// calendar of the crate (timestamps here, A2UI's dates, a message's time).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `z` days from 1970-01-01, as (year, month, day): the inverse of
/// [`days_from_civil`].
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Parse an ISO-8601 / RFC 3339 timestamp (`2026-11-29T12:00:00Z`, optional fraction, `Z` or
/// `±hh:mm` offset, or a date alone) to milliseconds since the Unix epoch.
pub fn parse_iso8601_ms(s: &str) -> Option<f64> {
    let s = s.trim();
    // At most six digits per field (ISO-8601's widest year): every sum below stays far from
    // i64's range, whatever an agent sends.
    let num = |t: &str| -> Option<i64> {
        if t.is_empty() || t.len() > 6 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    let (date, rest) = match s.find(['T', 't', ' ']) {
        Some(i) => (s.get(..i)?, s.get(i + 1..)?),
        None => (s, ""),
    };
    let mut d = date.split('-');
    let (y, m, day) = (num(d.next()?)?, num(d.next()?)?, num(d.next()?)?);
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let (time, offset_min) = if rest.is_empty() {
        ("00:00:00", 0)
    } else if let Some(t) = rest.strip_suffix(['Z', 'z']) {
        (t, 0)
    } else if let Some(i) = rest.rfind(['+', '-']) {
        let (t, off) = (rest.get(..i)?, rest.get(i..)?);
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let mut parts = off.get(1..)?.split(':');
        let oh = num(parts.next()?)?;
        let om = parts.next().map(num).unwrap_or(Some(0))?;
        if oh > 23 || om > 59 {
            return None;
        }
        (t, sign * (oh * 60 + om))
    } else {
        (rest, 0)
    };
    let mut t = time.split(':');
    let h = num(t.next()?)?;
    let mi = num(t.next()?)?;
    let sec_text = t.next().unwrap_or("0");
    let (sec, frac) = match sec_text.split_once('.') {
        Some((a, b)) if !b.is_empty() && b.len() <= 9 && b.bytes().all(|c| c.is_ascii_digit()) => {
            (num(a)?, format!("0.{b}").parse::<f64>().ok()?)
        }
        Some(_) => return None,
        None => (num(sec_text)?, 0.0),
    };
    if h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let days = days_from_civil(y, m, day);
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset_min * 60;
    Some(secs as f64 * 1000.0 + frac * 1000.0)
}
