//! Numbers, sizes, durations and money in the UI language: the one place digits are grouped
//! and decimals separated (the separators come from the [`Strings`] of the locale). Pure.

use crate::i18n::{fill, Strings};

/// Plain digits grouped by threes with the language's separator: `1234567` → `1,234,567`
/// (`1.234.567` in German). The one digit grouping of the UI (counts, tokens, amounts).
pub fn thousands(digits: impl std::fmt::Display, t: &Strings) -> String {
    let digits = digits.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push_str(t.thousands_separator);
        }
        out.push(c);
    }
    out
}

/// `x` with `places` fractional digits and the language's decimal separator:
/// `1.23, 1` → `1.2` (`1,2` in German). No digit grouping.
pub fn decimal(x: f64, places: usize, t: &Strings) -> String {
    let s = format!("{x:.places$}");
    if t.decimal_separator == "." {
        s
    } else {
        s.replacen('.', t.decimal_separator, 1)
    }
}

/// At most `max` characters of `s`, with `…` when cut.
pub fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((i, _)) => {
            let mut out = s.get(..i).unwrap_or_default().to_owned();
            out.push('…');
            out
        }
    }
}

/// `41000` → `41,000` (`41.000` in German).
pub fn format_count(n: usize, t: &Strings) -> String {
    thousands(n, t)
}

/// `512` → `512 B`, `2048` → `2.0 KB`, `2097152` → `2.0 MB` (`2,0 MB` in German).
pub fn format_bytes(n: usize, t: &Strings) -> String {
    const K: f64 = 1024.0;
    let f = n as f64;
    if f < K {
        format!("{n} B")
    } else if f < K * K {
        format!("{} KB", decimal(f / K, 1, t))
    } else if f < K * K * K {
        format!("{} MB", decimal(f / (K * K), 1, t))
    } else {
        format!("{} GB", decimal(f / (K * K * K), 1, t))
    }
}

/// `412.3` → `412 ms`, `1234` → `1.2 s`, `75000` → `1 min 15 s` (`1,2 s` in German).
pub fn format_duration(ms: f64, t: &Strings) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        return "0 ms".to_owned();
    }
    let rounded = ms.round();
    if rounded < 1000.0 {
        return format!("{rounded} ms");
    }
    let s = ms / 1000.0;
    if s < 59.95 {
        return format!("{} s", decimal(s, 1, t));
    }
    let total = s.round() as u64;
    format!("{} min {} s", thousands(total / 60, t), total % 60)
}

/// "4 min 05 s", "42 s" (never negative); the hours grouped in the UI language.
pub fn format_countdown(ms: f64, t: &Strings) -> String {
    let s = (ms.max(0.0) / 1000.0).ceil() as u64;
    if s >= 3600 {
        format!("{} h {:02} min", thousands(s / 3600, t), (s % 3600) / 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

/// `6000, "EUR"` → `€6,000`; `1234.5, "CHF"` → `1,234.50 CHF`; in German `6.000 €` and
/// `1.234,50 CHF` (the language's separators and [`Strings::money_symbol`]).
pub fn format_money(amount: f64, currency: Option<&str>, t: &Strings) -> String {
    let negative = amount < 0.0;
    let abs = amount.abs();
    let whole = abs.trunc();
    let cents = ((abs - whole) * 100.0).round();
    let (whole, cents) = if cents >= 100.0 {
        (whole + 1.0, 0.0)
    } else {
        (whole, cents)
    };
    let mut number = thousands(format_args!("{whole:.0}"), t);
    if cents > 0.0 {
        number.push_str(t.decimal_separator);
        number.push_str(&format!("{cents:02.0}"));
    }
    let sign = if negative { "-" } else { "" };
    let symbol = |s: &str| format!("{sign}{}", fill(t.money_symbol, &[&number]).replace('¤', s));
    match currency.map(|c| c.to_ascii_uppercase()).as_deref() {
        Some("EUR") => symbol("€"),
        Some("USD") => symbol("$"),
        Some("GBP") => symbol("£"),
        Some("JPY") => symbol("¥"),
        Some(other) if !other.is_empty() => format!("{sign}{number} {other}"),
        _ => format!("{sign}{number}"),
    }
}
