//! A message's time: its own (`metadata.createdAt`, `timestamp` or `created_at`, as ISO 8601 or
//! epoch seconds/milliseconds), else when it arrived (the session's), and how long ago that
//! is, in the unit `Intl.RelativeTimeFormat` is asked for. Pure.

use serde_json::{Map, Value};

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
        Value::String(s) => parse_iso(s)?,
        _ => return None,
    };
    (ms.is_finite() && ms.abs() <= MAX_DATE_MS).then_some(ms)
}

/// `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]` in milliseconds since the epoch (no zone: UTC).
pub fn parse_iso(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.len() > 40 || !s.is_ascii() {
        return None;
    }
    let num = |t: &str| -> Option<i64> {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse().ok())?
    };
    let (date, rest) = s.split_at(s.find(['T', 't', ' ']).unwrap_or(s.len()));
    let mut d = date.splitn(3, '-');
    let (y, mo, day) = (num(d.next()?)?, num(d.next()?)?, num(d.next()?)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&day) {
        return None;
    }
    let rest = rest.get(1..).unwrap_or("");
    let (clock, offset_min) = match rest.find(['Z', 'z', '+', '-']) {
        Some(i) => {
            let (clock, zone) = rest.split_at(i);
            let offset = match zone {
                "Z" | "z" => 0,
                _ => {
                    let sign = if zone.starts_with('-') { -1 } else { 1 };
                    let (h, m) = zone[1..].split_once(':').unwrap_or((&zone[1..], "0"));
                    sign * (num(h)? * 60 + num(m)?)
                }
            };
            (clock, offset)
        }
        None => (rest, 0),
    };
    let mut ms = 0f64;
    if !clock.is_empty() {
        let mut c = clock.splitn(3, ':');
        let (h, mi) = (num(c.next()?)?, num(c.next()?)?);
        let (sec, frac) = match c.next() {
            Some(sec) => match sec.split_once('.') {
                Some((s, f)) => (num(s)?, format!("0.{}", &f[..f.len().min(9)])),
                None => (num(sec)?, "0".to_owned()),
            },
            None => (0, "0".to_owned()),
        };
        if h > 24 || mi > 59 || sec > 60 {
            return None;
        }
        ms = ((h * 60 + mi) * 60 + sec) as f64 * 1000.0 + frac.parse::<f64>().ok()? * 1000.0;
    }
    let days = days_from_civil(y, mo, day) as f64;
    Some(days * 86_400_000.0 + ms - offset_min as f64 * 60_000.0)
}

/// Days from 1970-01-01 to a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
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

/// The inverse of [`days_from_civil`] (the round trip is tested).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
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
