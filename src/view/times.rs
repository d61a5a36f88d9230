//! A message's time: its own (`metadata.createdAt`, `timestamp` or `created_at`, as ISO 8601 or
//! epoch seconds/milliseconds), else when it arrived (the session's), and how long ago that
//! is, in the unit `Intl.RelativeTimeFormat` is asked for. Pure.

use serde_json::{Map, Value};

use crate::protocol::resume::{civil_from_days, parse_iso8601_ms};

/// The latest instant a browser's `Date` holds (milliseconds from the epoch, either way).
const MAX_DATE_MS: f64 = 8.64e15;

/// The time a message says it was written, in milliseconds since the epoch.
pub fn metadata_time(metadata: Option<&Map<String, Value>>) -> Option<f64> {
    let m = metadata?;
    let v = ["createdAt", "timestamp", "created_at"]
        .iter()
        .find_map(|k| m.get(*k))?;
    let ms = match v {
        // Seconds until the year 5138, milliseconds after.
        Value::Number(n) => n.as_f64().map(|n| if n < 1e11 { n * 1000.0 } else { n })?,
        Value::String(s) => parse_iso8601_ms(s)?,
        _ => return None,
    };
    (ms.is_finite() && ms.abs() <= MAX_DATE_MS).then_some(ms)
}

/// How long ago `then` is at `now`, as a value and an `Intl.RelativeTimeFormat` unit
/// (negative: the past; `0 second` reads "now"); `None` past a week — the date then says it
/// better.
pub fn ago(then: f64, now: f64) -> Option<(f64, &'static str)> {
    let s = ((now - then) / 1000.0).max(0.0);
    let v = |x: f64| -(x.floor());
    Some(match s {
        s if s < 45.0 => (0.0, "second"),
        s if s < 45.0 * 60.0 => (v(s / 60.0).min(-1.0), "minute"),
        s if s < 22.0 * 3600.0 => (v(s / 3600.0).min(-1.0), "hour"),
        s if s < 7.0 * 86_400.0 => (v(s / 86_400.0).min(-1.0), "day"),
        _ => return None,
    })
}

/// `ms` since the epoch as ISO 8601 in UTC with milliseconds (`2026-12-05T22:16:33.000Z`), as
/// `Date.prototype.toISOString` writes it; `None` outside what a `Date` holds.
pub fn iso_8601(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms.abs() > MAX_DATE_MS {
        return None;
    }
    let ms = ms.floor() as i64;
    let (days, in_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let (h, rest) = (in_day / 3_600_000, in_day % 3_600_000);
    let (mi, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else {
        format!("{}{:06}", if y < 0 { '-' } else { '+' }, y.abs())
    };
    Some(format!(
        "{year}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z"
    ))
}
