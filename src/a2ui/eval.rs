//! Dynamic values and the basic catalogue's functions (`catalogs/basic/catalog.json`
//! `functions`, and the system function `@index`): `required`, `regex`, `length`,
//! `numeric`, `email`, `formatString`, `formatNumber`, `formatCurrency`, `formatDate`,
//! `pluralize`, `openUrl`, `and`, `or`, `not`.
//!
//! Evaluation is bounded: function calls nest at most [`MAX_EVAL_DEPTH`] deep (arguments
//! and `${…}` expressions alike), and `formatString` output stops at [`MAX_FORMAT_CHARS`].
//! Numbers and dates are formatted for `en-US` (the model has no locale yet).

use serde_json::{Map, Number, Value};

use super::component::{Dynamic, FunctionCall};
use super::data::{self, Scope};
use super::error::A2uiError;
use super::regex::Regex;
use crate::markdown::SafeUrl;

pub const MAX_EVAL_DEPTH: usize = 16;
/// The longest function name sent to the agent in a `callAgentFunction`.
pub const MAX_AGENT_FUNCTION_NAME: usize = 64;

/// The functions this renderer evaluates itself (the basic catalogue's and `@index`).
pub const LOCAL_FUNCTIONS: &[&str] = &[
    "required",
    "regex",
    "length",
    "numeric",
    "email",
    "formatString",
    "formatNumber",
    "formatCurrency",
    "formatDate",
    "pluralize",
    "openUrl",
    "and",
    "or",
    "not",
    "@index",
];

/// Whether `name` may go to the agent as a `callAgentFunction` (protocol "Function Location
/// Resolution": a function the renderer does not have is the agent's): not one of
/// [`LOCAL_FUNCTIONS`], and a catalogue entity name — a UAX #31 identifier (`XID_Start` or `_`,
/// then `XID_Continue`; approximated by Unicode alphabetic / alphanumeric and `_`), so no
/// `@` system names, no spaces or punctuation — of at most [`MAX_AGENT_FUNCTION_NAME`]
/// characters. The renderer only names the function and its resolved arguments; nothing the
/// agent sends is ever run here.
pub fn is_agent_function(name: &str) -> bool {
    let mut chars = name.chars();
    let start = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic());
    start
        && name.chars().count() <= MAX_AGENT_FUNCTION_NAME
        && chars.all(|c| c == '_' || c.is_alphanumeric())
        && !LOCAL_FUNCTIONS.contains(&name)
}
pub const MAX_FORMAT_CHARS: usize = 16_384;

/// What a local function call asks the UI to do (the model never performs side effects).
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    /// `openUrl`: open this (checked) link in a new tab.
    OpenUrl(SafeUrl),
}

/// The data and scope an expression is evaluated in.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    pub model: &'a Value,
    pub scope: &'a Scope,
}

/// Where a function's arguments come from: wire values (dynamic, resolved on use) or values
/// already computed (a `${fn(a:…)}` call inside `formatString`).
enum Args<'a> {
    Wire(&'a Map<String, Value>),
    Resolved(&'a Map<String, Value>),
}

impl<'a> Ctx<'a> {
    pub fn new(model: &'a Value, scope: &'a Scope) -> Ctx<'a> {
        Ctx { model, scope }
    }

    /// The value at a binding path (`Null` when it does not exist yet).
    pub fn lookup(&self, path: &str) -> Value {
        data::get(self.model, &self.scope.resolve(path))
            .cloned()
            .unwrap_or(Value::Null)
    }

    pub fn eval(&self, d: &Dynamic) -> Result<Value, A2uiError> {
        self.eval_at(d, 0)
    }

    fn eval_at(&self, d: &Dynamic, depth: usize) -> Result<Value, A2uiError> {
        match d {
            Dynamic::Literal(v) => Ok(v.clone()),
            Dynamic::Path(p) => Ok(self.lookup(p)),
            Dynamic::Call(f) => self.call(&f.call, &Args::Wire(&f.args), depth + 1),
        }
    }

    /// Evaluates a function call; `openUrl` yields its intent as `{"openUrl": url}`.
    pub fn call_function(&self, f: &FunctionCall) -> Result<Value, A2uiError> {
        self.call(&f.call, &Args::Wire(&f.args), 1)
    }

    /// The intent of a local action's function call.
    pub fn intent(&self, f: &FunctionCall) -> Result<Intent, A2uiError> {
        if f.call != "openUrl" {
            return Err(A2uiError::UnknownFunction {
                name: f.call.clone(),
            });
        }
        let url = self.arg(&Args::Wire(&f.args), "url", 1)?;
        let url = display(&url);
        SafeUrl::parse_link(&url)
            .map(Intent::OpenUrl)
            .ok_or(A2uiError::UnsafeUrl {
                url: url.chars().take(200).collect(),
            })
    }

    /// A value as a string (interpolation rules: null → "", objects/arrays → JSON).
    pub fn string(&self, d: &Dynamic) -> String {
        self.eval(d).map(|v| display(&v)).unwrap_or_default()
    }

    /// A value as a boolean: `true`, a `ValidationResult` with `valid: true`, a non-empty
    /// string "true"; anything else (errors included) is false.
    pub fn boolean(&self, d: &Dynamic) -> bool {
        self.eval(d).map(|v| truthy(&v)).unwrap_or(false)
    }

    fn arg(&self, args: &Args, name: &str, depth: usize) -> Result<Value, A2uiError> {
        match args {
            Args::Wire(m) => match m.get(name) {
                Some(v) => self.eval_at(&Dynamic::parse(v), depth),
                None => Ok(Value::Null),
            },
            Args::Resolved(m) => Ok(m.get(name).cloned().unwrap_or(Value::Null)),
        }
    }

    fn has(args: &Args, name: &str) -> bool {
        match args {
            Args::Wire(m) | Args::Resolved(m) => m.contains_key(name),
        }
    }

    fn list_arg(&self, args: &Args, name: &str, depth: usize) -> Result<Vec<Value>, A2uiError> {
        match args {
            Args::Wire(m) => match m.get(name) {
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|v| self.eval_at(&Dynamic::parse(v), depth))
                    .collect(),
                Some(v) => Ok(vec![self.eval_at(&Dynamic::parse(v), depth)?]),
                None => Ok(Vec::new()),
            },
            Args::Resolved(m) => Ok(match m.get(name) {
                Some(Value::Array(items)) => items.clone(),
                Some(v) => vec![v.clone()],
                None => Vec::new(),
            }),
        }
    }

    fn num_arg(
        &self,
        args: &Args,
        func: &str,
        name: &'static str,
        depth: usize,
    ) -> Result<Option<f64>, A2uiError> {
        let v = self.arg(args, name, depth)?;
        if v.is_null() {
            return Ok(None);
        }
        number(&v).map(Some).ok_or(A2uiError::BadArgument {
            function: func.to_string(),
            arg: name,
        })
    }

    fn call(&self, name: &str, args: &Args, depth: usize) -> Result<Value, A2uiError> {
        if depth > MAX_EVAL_DEPTH {
            return Err(A2uiError::EvalTooDeep);
        }
        let d = depth;
        Ok(match name {
            "required" => Value::Bool(!is_empty(&self.arg(args, "value", d)?)),
            "regex" => {
                let value = display(&self.arg(args, "value", d)?);
                let pattern = display(&self.arg(args, "pattern", d)?);
                let re = Regex::new(&pattern).map_err(|e| A2uiError::BadRegex {
                    offset: e.offset,
                    kind: e.kind,
                })?;
                let hit = re
                    .is_match(&value)
                    .map_err(|kind| A2uiError::BadRegex { offset: 0, kind })?;
                Value::Bool(hit)
            }
            "length" => {
                let len = display(&self.arg(args, "value", d)?).chars().count() as f64;
                let min = self.num_arg(args, name, "min", d)?;
                let max = self.num_arg(args, name, "max", d)?;
                Value::Bool(min.is_none_or(|m| len >= m) && max.is_none_or(|m| len <= m))
            }
            "numeric" => {
                let v = number(&self.arg(args, "value", d)?);
                let min = self.num_arg(args, name, "min", d)?;
                let max = self.num_arg(args, name, "max", d)?;
                Value::Bool(
                    v.is_some_and(|v| min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m)),
                )
            }
            "email" => Value::Bool(is_email(&display(&self.arg(args, "value", d)?))),
            "formatString" => {
                let template = display(&self.arg(args, "value", d)?);
                Value::String(self.interpolate(&template, d)?)
            }
            "formatNumber" => {
                let v = self
                    .num_arg(args, name, "value", d)?
                    .ok_or(A2uiError::BadArgument {
                        function: name.to_string(),
                        arg: "value",
                    })?;
                let decimals = self.num_arg(args, name, "decimals", d)?;
                let grouping = Self::has(args, "grouping")
                    .then(|| self.arg(args, "grouping", d))
                    .transpose()?;
                Value::String(format_number(
                    v,
                    decimals,
                    grouping.is_none_or(|g| truthy(&g)),
                ))
            }
            "formatCurrency" => {
                let v = self
                    .num_arg(args, name, "value", d)?
                    .ok_or(A2uiError::BadArgument {
                        function: name.to_string(),
                        arg: "value",
                    })?;
                let code = display(&self.arg(args, "currency", d)?).to_ascii_uppercase();
                let decimals = self.num_arg(args, name, "decimals", d)?;
                let grouping = Self::has(args, "grouping")
                    .then(|| self.arg(args, "grouping", d))
                    .transpose()?;
                Value::String(format_currency(
                    v,
                    &code,
                    decimals,
                    grouping.is_none_or(|g| truthy(&g)),
                ))
            }
            "formatDate" => {
                let v = self.arg(args, "value", d)?;
                let pattern = display(&self.arg(args, "format", d)?);
                let dt = DateTime::from_value(&v).ok_or(A2uiError::BadArgument {
                    function: name.to_string(),
                    arg: "value",
                })?;
                Value::String(dt.format(&pattern))
            }
            "pluralize" => {
                let n = self.num_arg(args, name, "value", d)?.unwrap_or(0.0);
                let key = if n == 0.0 && Self::has(args, "zero") {
                    "zero"
                } else if n == 1.0 && Self::has(args, "one") {
                    "one"
                } else {
                    "other"
                };
                Value::String(display(&self.arg(args, key, d)?))
            }
            "openUrl" => {
                let url = display(&self.arg(args, "url", d)?);
                match SafeUrl::parse_link(&url) {
                    Some(u) => serde_json::json!({ "openUrl": u.as_str() }),
                    None => {
                        return Err(A2uiError::UnsafeUrl {
                            url: url.chars().take(200).collect(),
                        })
                    }
                }
            }
            "and" => Value::Bool(self.list_arg(args, "values", d)?.iter().all(truthy)),
            "or" => Value::Bool(self.list_arg(args, "values", d)?.iter().any(truthy)),
            "not" => Value::Bool(!truthy(&self.arg(args, "value", d)?)),
            "@index" => {
                let i = self.scope.index.ok_or(A2uiError::IndexOutsideTemplate)?;
                let offset = self.num_arg(args, name, "offset", d)?.unwrap_or(0.0);
                Value::Number(
                    Number::from_f64(i as f64 + offset).unwrap_or_else(|| Number::from(i)),
                )
            }
            other => {
                return Err(A2uiError::UnknownFunction {
                    name: other.chars().take(80).collect(),
                })
            }
        })
    }

    /// `formatString`: `${/abs}`, `${rel}`, `${fn(name:arg, …)}` with literal (`'x'`, `"x"`,
    /// numbers, booleans) or nested `${…}` arguments; `\${` is a literal `${`.
    fn interpolate(&self, template: &str, depth: usize) -> Result<String, A2uiError> {
        let chars: Vec<char> = template.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            if out.len() > MAX_FORMAT_CHARS {
                break;
            }
            if c == '\\' && chars.get(i + 1) == Some(&'$') && chars.get(i + 2) == Some(&'{') {
                out.push_str("${");
                i += 3;
            } else if c == '$' && chars.get(i + 1) == Some(&'{') {
                let end = closing_brace(&chars, i + 2).ok_or(A2uiError::BadExpression)?;
                let inner: String = chars.get(i + 2..end).unwrap_or(&[]).iter().collect();
                out.push_str(&display(&self.expr(&inner, depth + 1)?));
                i = end + 1;
            } else {
                out.push(c);
                i += 1;
            }
        }
        Ok(out)
    }

    /// One `${…}` expression: a function call when it reads `name(…)`, else a path.
    fn expr(&self, expr: &str, depth: usize) -> Result<Value, A2uiError> {
        if depth > MAX_EVAL_DEPTH {
            return Err(A2uiError::EvalTooDeep);
        }
        let e = expr.trim();
        let is_call = e.ends_with(')')
            && e.find('(').is_some_and(|p| {
                let name = e.get(..p).unwrap_or("").trim();
                !name.is_empty()
                    && name
                        .chars()
                        .enumerate()
                        .all(|(k, c)| c.is_alphanumeric() || c == '_' || (k == 0 && c == '@'))
            });
        if !is_call {
            return Ok(self.lookup(e));
        }
        let open = e.find('(').unwrap_or(0);
        let name = e.get(..open).unwrap_or("").trim();
        let body: Vec<char> = e.get(open + 1..e.len() - 1).unwrap_or("").chars().collect();
        let mut args = Map::new();
        for part in split_args(&body) {
            let part: String = part.iter().collect();
            let Some((k, v)) = part.split_once(':') else {
                if part.trim().is_empty() {
                    continue;
                }
                return Err(A2uiError::BadExpression);
            };
            args.insert(k.trim().to_string(), self.arg_literal(v.trim(), depth)?);
        }
        self.call(name, &Args::Resolved(&args), depth + 1)
    }

    fn arg_literal(&self, v: &str, depth: usize) -> Result<Value, A2uiError> {
        let quoted = |q: char| v.len() >= 2 && v.starts_with(q) && v.ends_with(q);
        if quoted('\'') || quoted('"') {
            return Ok(Value::String(
                v.get(1..v.len() - 1).unwrap_or("").to_string(),
            ));
        }
        if let Some(inner) = v.strip_prefix("${").and_then(|s| s.strip_suffix('}')) {
            return self.expr(inner, depth + 1);
        }
        match v {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "null" => return Ok(Value::Null),
            _ => {}
        }
        if let Ok(n) = v.parse::<f64>() {
            return Ok(Number::from_f64(n).map_or(Value::Null, Value::Number));
        }
        Ok(Value::String(v.to_string()))
    }
}

/// The index of the `}` closing a `${` whose body starts at `from` (nested `${…}`, quotes).
fn closing_brace(chars: &[char], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut i = from;
    while let Some(&c) = chars.get(i) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{') => depth += 1,
            (None, '}') if depth == 0 => return Some(i),
            (None, '}') => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Splits call arguments at top-level commas.
fn split_args(body: &[char]) -> Vec<&[char]> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None::<char>, 0usize);
    for (i, &c) in body.iter().enumerate() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{' | '(') => depth += 1,
            (None, '}' | ')') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                parts.push(body.get(start..i).unwrap_or(&[]));
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(body.get(start..).unwrap_or(&[]));
    parts
}

/// Interpolation's string conversion (protocol "Type conversion").
pub fn display(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(m) => m.get("valid").and_then(Value::as_bool) == Some(true),
        Value::String(s) => s == "true",
        _ => false,
    }
}

/// A number, or a string that reads as one (text fields hold strings).
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// A pragmatic address check: `local@domain.tld`, no spaces, dots not doubled or at ends.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let label_ok = |l: &str| {
        !l.is_empty()
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    !local.is_empty()
        && local.len() <= 64
        && !local.contains('@')
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !"<>()[]\\,;:\"".contains(c))
        && domain.contains('.')
        && domain.split('.').all(label_ok)
        && domain
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.chars().count() >= 2)
}

fn group(int_digits: &str, grouping: bool) -> String {
    if !grouping {
        return int_digits.to_string();
    }
    let n = int_digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in int_digits.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `en-US` number formatting: `decimals` fixed places (default: up to 3, trailing zeros
/// dropped, as `Intl.NumberFormat` does), `,` grouping.
pub fn format_number(v: f64, decimals: Option<f64>, grouping: bool) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "∞".into()
        } else {
            "-∞".into()
        };
    }
    let fixed = decimals.map(|d| d.clamp(0.0, 20.0) as usize);
    let places = fixed.unwrap_or(3);
    // Round half away from zero, as Intl.NumberFormat does (`{:.0}` of 2.5 is "2").
    let scale = 10f64.powi(places.min(15) as i32);
    let scaled = (v.abs() * scale).round() / scale;
    let s = format!(
        "{:.*}",
        places,
        if scaled.is_finite() { scaled } else { v.abs() }
    );
    let (int, mut frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (s.clone(), String::new()),
    };
    if fixed.is_none() {
        while frac.ends_with('0') {
            frac.pop();
        }
    }
    let negative = v < 0.0 && (int.bytes().any(|b| b != b'0') || frac.bytes().any(|b| b != b'0'));
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    out.push_str(&group(&int, grouping));
    if !frac.is_empty() {
        out.push('.');
        out.push_str(&frac);
    }
    out
}

/// `en-US` currency formatting: `$1,234.50`, `€9.99`, `¥1,200`; other codes as `CHF 10.00`.
pub fn format_currency(v: f64, code: &str, decimals: Option<f64>, grouping: bool) -> String {
    let (symbol, default_places) = match code {
        "USD" => ("$", 2.0),
        "EUR" => ("€", 2.0),
        "GBP" => ("£", 2.0),
        "JPY" => ("¥", 0.0),
        "INR" => ("₹", 2.0),
        "CNY" => ("CN¥", 2.0),
        "KRW" => ("₩", 0.0),
        _ => ("", 2.0),
    };
    let body = format_number(v.abs(), Some(decimals.unwrap_or(default_places)), grouping);
    let sign = if v < 0.0 && body.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        "-"
    } else {
        ""
    };
    if symbol.is_empty() {
        let code: String = code
            .chars()
            .filter(char::is_ascii_alphabetic)
            .take(3)
            .collect();
        format!("{sign}{code}\u{a0}{body}")
    } else {
        format!("{sign}{symbol}{body}")
    }
}

/// A civil date-time as written (no time-zone conversion; epoch numbers are UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 ([`crate::protocol::resume::days_from_civil`]).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    crate::protocol::resume::days_from_civil(y, m.into(), d.into())
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let (y, m, d) = crate::protocol::resume::civil_from_days(z);
    (y, m as u32, d as u32)
}

impl DateTime {
    /// ISO 8601 (`2026-01-16`, `2026-01-16T14:30`, `…:05.123Z`, `…+02:00`, `14:30` alone)
    /// or milliseconds since the epoch.
    pub fn from_value(v: &Value) -> Option<DateTime> {
        match v {
            Value::Number(n) => {
                let ms = n.as_f64()?;
                if !ms.is_finite() || ms.abs() > 8.64e15 {
                    return None;
                }
                let secs = (ms / 1000.0).floor() as i64;
                let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
                let rem = secs.rem_euclid(86_400) as u32;
                Some(DateTime {
                    year,
                    month,
                    day,
                    hour: rem / 3600,
                    minute: rem / 60 % 60,
                    second: rem % 60,
                })
            }
            Value::String(s) => Self::parse(s.trim()),
            _ => None,
        }
    }

    fn parse(s: &str) -> Option<DateTime> {
        let num = |t: &str| -> Option<u32> {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse().ok())?
        };
        let (date, time) = match s.split_once(['T', 't', ' ']) {
            Some((d, t)) => (Some(d), Some(t)),
            None if s.contains(':') => (None, Some(s)),
            None => (Some(s), None),
        };
        let (mut year, mut month, mut day) = (1970i64, 1u32, 1u32);
        if let Some(d) = date {
            let mut it = d.splitn(3, '-');
            year = i64::from(num(it.next()?)?);
            month = num(it.next()?)?;
            day = num(it.next()?)?;
            if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
                return None;
            }
        }
        let (mut hour, mut minute, mut second) = (0, 0, 0);
        if let Some(t) = time {
            let t = t.trim_end_matches(['Z', 'z']);
            let t = match t.rfind(['+', '-']) {
                Some(p) if p >= 5 => t.get(..p)?,
                _ => t,
            };
            let t = t.split('.').next().unwrap_or(t);
            let mut it = t.split(':');
            hour = num(it.next()?)?;
            minute = num(it.next()?)?;
            second = it.next().map_or(Some(0), num)?;
            if hour > 23 || minute > 59 || second > 60 {
                return None;
            }
        }
        Some(DateTime {
            year,
            month,
            day,
            hour,
            minute,
            second,
        })
    }

    /// Monday = 0.
    fn weekday(&self) -> usize {
        (days_from_civil(self.year, self.month, self.day) + 3).rem_euclid(7) as usize
    }

    /// Unicode TR35 patterns: `y yy yyyy`, `M MM MMM MMMM`, `d dd`, `E EEE EEEE`,
    /// `H HH h hh`, `m mm`, `s ss`, `a`, `'quoted text'`; other letters pass through.
    pub fn format(&self, pattern: &str) -> String {
        let chars: Vec<char> = pattern.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            if c == '\'' {
                let mut j = i + 1;
                while let Some(&q) = chars.get(j) {
                    if q == '\'' {
                        break;
                    }
                    out.push(q);
                    j += 1;
                }
                if j == i + 1 && chars.get(j) == Some(&'\'') {
                    out.push('\'');
                }
                i = j + 1;
                continue;
            }
            let mut n = 1;
            while chars.get(i + n) == Some(&c) {
                n += 1;
            }
            let month = MONTHS
                .get(self.month.saturating_sub(1) as usize)
                .copied()
                .unwrap_or("");
            let weekday = WEEKDAYS.get(self.weekday()).copied().unwrap_or("");
            let h12 = match self.hour % 12 {
                0 => 12,
                h => h,
            };
            let pad = |v: u32| {
                if n >= 2 {
                    format!("{v:02}")
                } else {
                    v.to_string()
                }
            };
            match c {
                'y' | 'Y' if n == 2 => out.push_str(&format!("{:02}", self.year.rem_euclid(100))),
                'y' | 'Y' => out.push_str(&format!("{:0w$}", self.year, w = n)),
                'M' | 'L' if n >= 4 => out.push_str(month),
                'M' | 'L' if n == 3 => out.extend(month.chars().take(3)),
                'M' | 'L' => out.push_str(&pad(self.month)),
                'd' => out.push_str(&pad(self.day)),
                'E' if n >= 4 => out.push_str(weekday),
                'E' => out.extend(weekday.chars().take(3)),
                'H' => out.push_str(&pad(self.hour)),
                'h' => out.push_str(&pad(h12)),
                'm' => out.push_str(&pad(self.minute)),
                's' => out.push_str(&pad(self.second)),
                'a' => out.push_str(if self.hour < 12 { "AM" } else { "PM" }),
                other => out.extend(std::iter::repeat_n(other, n)),
            }
            i += n;
        }
        out
    }
}
