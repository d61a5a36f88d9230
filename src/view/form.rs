//! A form generated from a JSON Schema (an interrupt's `responseSchema`, spec digest §2.5 and
//! §4.11.5), as a model: the fields ([`form_fields`]), their initial texts ([`initial_inputs`])
//! and the payload collected from the raw input texts with per-field errors ([`collect`]).
//! Plain data and functions, tested natively; `ui::hitl::schema_form` renders it.
//!
//! - `boolean` → a checkbox; `string` → a text input (`format: date|email|uri` pick the input
//!   type, `minLength`/`maxLength` are checked); `string` with `enum` (or any `enum`) → a select;
//!   `number`/`integer` → a number input with `minimum`/`maximum` (and the exclusive forms)
//!   checked, integers must be whole; `object` with `properties` → a fieldset; `required` is
//!   enforced; anything else (arrays, `oneOf`, `$ref`, objects without properties, schemas
//!   nested deeper than [`MAX_DEPTH`]) → a JSON textarea, parsed and type-checked on submit.
//! - The schema is agent output, so a form is bounded: more than [`MAX_FIELDS`] fields in all
//!   turn the whole form into the JSON textarea, an `enum` of more than [`MAX_OPTIONS`] values
//!   turns that field into one (both marked [`FieldKind::Json::over_limit`], so the UI says
//!   why); the model stops reading properties at the cap. Element ids come from the field's
//!   index path ([`Field::id`]), never from property names, so `a b` and `a-b` cannot collide.

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use crate::i18n::{fill, Strings};

/// Nesting deeper than this renders as a JSON textarea.
pub const MAX_DEPTH: usize = 6;

/// At most this many fields in a form, counting nested ones (and the fieldsets holding them);
/// a schema with more is answered in a JSON textarea.
pub const MAX_FIELDS: usize = 64;

/// At most this many options in a select; a longer `enum` is answered as JSON.
pub const MAX_OPTIONS: usize = 100;

/// What kind of input a field gets.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Bool,
    Text {
        /// The `<input type>`: `text`, `date`, `email`, `url`, `datetime-local`.
        input_type: &'static str,
        min_length: Option<u64>,
        max_length: Option<u64>,
    },
    /// One of these values (`enum`).
    Choice(Vec<Value>),
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
        exclusive_minimum: Option<f64>,
        exclusive_maximum: Option<f64>,
    },
    /// A nested object: a fieldset of these fields.
    Object(Vec<Field>),
    /// Anything else, typed as JSON; `expect` is the schema's `type` when it names one.
    Json {
        expect: Option<String>,
        /// The schema was past [`MAX_FIELDS`] or [`MAX_OPTIONS`] (not merely unsupported).
        over_limit: bool,
    },
}

/// One field of the form.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// JSON pointer of the value in the payload (`""` for the root).
    pub pointer: String,
    /// A suffix for the element's id, unique in the form: the index path (`""` for the root,
    /// `-2-0` for the first field of the third one), never derived from property names.
    pub id: String,
    /// The property name (`""` for the root).
    pub key: String,
    pub label: String,
    pub description: Option<String>,
    pub required: bool,
    pub kind: FieldKind,
    pub default: Option<Value>,
}

/// A problem with one field's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub pointer: String,
    pub problem: Problem,
}

/// What is wrong with an input (the words come from the catalog: [`Problem::message`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    Required,
    PickOne,
    TooShort(u64),
    TooLong(u64),
    NotANumber,
    NotWhole,
    /// The bounds, formatted.
    AtLeast(String),
    AtMost(String),
    MoreThan(String),
    LessThan(String),
    /// The JSON parser's message.
    InvalidJson(String),
    /// Valid JSON of the wrong type (`object`, `array`, …; `None` = any value).
    JsonType(Option<String>),
}

impl Problem {
    /// The message in the UI language.
    pub fn message(&self, t: &Strings) -> String {
        match self {
            Problem::Required => t.form_required.to_owned(),
            Problem::PickOne => t.form_pick_one.to_owned(),
            Problem::TooShort(n) => fill(t.form_too_short, &[n]),
            Problem::TooLong(n) => fill(t.form_too_long, &[n]),
            Problem::NotANumber => t.form_not_a_number.to_owned(),
            Problem::NotWhole => t.form_not_whole.to_owned(),
            Problem::AtLeast(n) => fill(t.form_at_least, &[n]),
            Problem::AtMost(n) => fill(t.form_at_most, &[n]),
            Problem::MoreThan(n) => fill(t.form_more_than, &[n]),
            Problem::LessThan(n) => fill(t.form_less_than, &[n]),
            Problem::InvalidJson(e) => fill(t.form_invalid_json, &[e]),
            Problem::JsonType(expect) => {
                let template = match expect.as_deref() {
                    Some("object") => t.form_json_object,
                    Some("array") => t.form_json_array,
                    Some("string") => t.form_json_string,
                    Some("number") => t.form_json_number,
                    Some("integer") => t.form_json_integer,
                    Some("boolean") => t.form_json_boolean,
                    _ => t.form_json_value,
                };
                template.to_owned()
            }
        }
    }
}

/// "budgetPerPerson" / "budget_per_person" → "Budget per person".
pub fn humanize(key: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if c == '_' || c == '-' || c.is_whitespace() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
        } else if c.is_uppercase() && prev_lower {
            words.push(std::mem::take(&mut cur));
            cur.extend(c.to_lowercase());
            prev_lower = false;
        } else {
            cur.extend(c.to_lowercase());
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut out = words.join(" ");
    if let Some(first) = out.get(..1).map(str::to_uppercase) {
        out.replace_range(..1, &first);
    }
    out
}

/// RFC 6901 escaping of one pointer token.
fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The schema's `type`, ignoring `"null"` in a type list (`["string", "null"]` → `string`).
fn schema_type(schema: &Map<String, Value>) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(ts)) => {
            let named: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            match named.as_slice() {
                [one] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

fn number(schema: &Map<String, Value>, key: &str) -> Option<f64> {
    schema
        .get(key)
        .and_then(Value::as_f64)
        .filter(|f| f.is_finite())
}

/// Where a field sits: its pointer, id and depth, and how many fields the form has so far.
struct At<'a> {
    pointer: String,
    id: String,
    depth: usize,
    count: &'a mut usize,
}

fn field(schema: &Value, key: &str, required: bool, mut at: At<'_>) -> Field {
    let obj = schema.as_object();
    let text = |k: &str| {
        obj.and_then(|o| o.get(k))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let label = text("title")
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| humanize(key));
    let kind = match obj {
        None => FieldKind::Json {
            expect: None,
            over_limit: false,
        },
        Some(o) => field_kind(o, &mut at),
    };
    Field {
        pointer: at.pointer,
        id: at.id,
        key: key.to_owned(),
        label,
        description: text("description"),
        required,
        kind,
        default: obj.and_then(|o| o.get("default")).cloned(),
    }
}

fn field_kind(o: &Map<String, Value>, at: &mut At<'_>) -> FieldKind {
    let ty = schema_type(o);
    let json = |over_limit| FieldKind::Json {
        expect: ty.map(str::to_owned),
        over_limit,
    };
    if let Some(Value::Array(options)) = o.get("enum") {
        if options.len() > MAX_OPTIONS {
            return json(true);
        }
        if !options.is_empty() {
            return FieldKind::Choice(options.clone());
        }
    }
    let complex = ["$ref", "oneOf", "anyOf", "allOf", "not", "if"]
        .iter()
        .any(|k| o.contains_key(*k));
    if complex || at.depth > MAX_DEPTH {
        return json(false);
    }
    match ty {
        Some("boolean") => FieldKind::Bool,
        Some("string") => FieldKind::Text {
            input_type: match o.get("format").and_then(Value::as_str) {
                Some("date") => "date",
                Some("email") => "email",
                Some("uri" | "url") => "url",
                _ => "text",
            },
            min_length: o.get("minLength").and_then(Value::as_u64),
            max_length: o.get("maxLength").and_then(Value::as_u64),
        },
        Some(t @ ("number" | "integer")) => FieldKind::Number {
            integer: t == "integer",
            minimum: number(o, "minimum"),
            maximum: number(o, "maximum"),
            exclusive_minimum: number(o, "exclusiveMinimum"),
            exclusive_maximum: number(o, "exclusiveMaximum"),
        },
        Some("object") | None if o.get("properties").is_some_and(Value::is_object) => {
            let required: Vec<&str> = o
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut fields = Vec::new();
            let props = o.get("properties").and_then(Value::as_object);
            for (i, (k, s)) in props.into_iter().flatten().enumerate() {
                *at.count += 1;
                if *at.count > MAX_FIELDS {
                    // The form becomes JSON (see `form_fields`): read no further.
                    break;
                }
                let child = At {
                    pointer: format!("{}/{}", at.pointer, escape_token(k)),
                    id: format!("{}-{i}", at.id),
                    depth: at.depth + 1,
                    count: &mut *at.count,
                };
                fields.push(field(s, k, required.contains(&k.as_str()), child));
            }
            FieldKind::Object(fields)
        }
        _ => json(false),
    }
}

/// The form for a schema: the root field (pointer `""`, always required; a root without a
/// title is labelled "Answer" in the UI language when rendered). Past [`MAX_FIELDS`] fields
/// the root is a JSON field marked `over_limit`.
pub fn form_fields(schema: &Value) -> Field {
    let mut count = 0;
    let at = At {
        pointer: String::new(),
        id: String::new(),
        depth: 0,
        count: &mut count,
    };
    let mut root = field(schema, "", true, at);
    if count > MAX_FIELDS {
        // Only an object's properties count: the root is an object.
        root.kind = FieldKind::Json {
            expect: Some("object".to_owned()),
            over_limit: true,
        };
    }
    root
}

/// The display text of an enum value (strings as they are, anything else as JSON).
pub fn choice_label(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The raw input texts to start from: `initial` (an earlier answer) where it has a value,
/// else the schema's `default`, else empty (unchecked for booleans). Choices are stored as the
/// option's index.
pub fn initial_inputs(root: &Field, initial: Option<&Value>) -> HashMap<String, String> {
    let mut out = HashMap::new();
    fill_inputs(root, initial, &mut out);
    out
}

fn fill_inputs(f: &Field, initial: Option<&Value>, out: &mut HashMap<String, String>) {
    let value = initial
        .and_then(|v| v.pointer(&f.pointer))
        .or(f.default.as_ref());
    let raw = match &f.kind {
        FieldKind::Object(children) => {
            for c in children {
                fill_inputs(c, initial, out);
            }
            return;
        }
        FieldKind::Bool => value.and_then(Value::as_bool).unwrap_or(false).to_string(),
        FieldKind::Choice(options) => value
            .and_then(|v| options.iter().position(|o| o == v))
            .map(|i| i.to_string())
            .unwrap_or_default(),
        FieldKind::Text { .. } => value
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_default(),
        FieldKind::Number { .. } => value
            .filter(|v| v.is_number())
            .map(Value::to_string)
            .unwrap_or_default(),
        FieldKind::Json { .. } => value
            .map(|v| serde_json::to_string_pretty(v).unwrap_or_default())
            .unwrap_or_default(),
    };
    out.insert(f.pointer.clone(), raw);
}

/// The payload the inputs describe, or every problem with them. Empty optional fields are left
/// out; an optional nested object nobody filled in is left out too.
pub fn collect(root: &Field, inputs: &HashMap<String, String>) -> Result<Value, Vec<FieldError>> {
    match collect_field(root, inputs) {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Ok(Value::Object(Map::new())),
        Err(e) => Err(e),
    }
}

fn err(f: &Field, problem: Problem) -> Vec<FieldError> {
    vec![FieldError {
        pointer: f.pointer.clone(),
        problem,
    }]
}

pub fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

fn collect_field(
    f: &Field,
    inputs: &HashMap<String, String>,
) -> Result<Option<Value>, Vec<FieldError>> {
    let raw = inputs.get(&f.pointer).map(String::as_str).unwrap_or("");
    let empty = raw.trim().is_empty();
    let missing = |f: &Field| {
        if f.required {
            Err(err(f, Problem::Required))
        } else {
            Ok(None)
        }
    };
    match &f.kind {
        FieldKind::Object(children) => {
            let mut obj = Map::new();
            let mut errors = Vec::new();
            let mut required_missing = Vec::new();
            let mut given = false;
            for c in children {
                match collect_field(c, inputs) {
                    Ok(Some(v)) => {
                        // A checkbox always has a value: it does not make an object "filled in".
                        given |= !matches!(c.kind, FieldKind::Bool);
                        obj.insert(c.key.clone(), v);
                    }
                    Ok(None) => {}
                    Err(e) if e.iter().all(|e| e.problem == Problem::Required) && !f.required => {
                        required_missing.extend(e);
                    }
                    Err(e) => {
                        given = true;
                        errors.extend(e);
                    }
                }
            }
            if !f.required && !given && errors.is_empty() {
                return Ok(None);
            }
            errors.extend(required_missing);
            if errors.is_empty() {
                Ok(Some(Value::Object(obj)))
            } else {
                Err(errors)
            }
        }
        FieldKind::Bool => Ok(Some(Value::Bool(raw == "true"))),
        FieldKind::Choice(options) => {
            if empty {
                return missing(f);
            }
            match raw
                .trim()
                .parse::<usize>()
                .ok()
                .and_then(|i| options.get(i))
            {
                Some(v) => Ok(Some(v.clone())),
                None => Err(err(f, Problem::PickOne)),
            }
        }
        FieldKind::Text {
            min_length,
            max_length,
            ..
        } => {
            if empty {
                return missing(f);
            }
            let len = raw.chars().count() as u64;
            if let Some(min) = min_length.filter(|m| len < *m) {
                return Err(err(f, Problem::TooShort(min)));
            }
            if let Some(max) = max_length.filter(|m| len > *m) {
                return Err(err(f, Problem::TooLong(max)));
            }
            Ok(Some(Value::String(raw.to_owned())))
        }
        FieldKind::Number {
            integer,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
        } => {
            if empty {
                return missing(f);
            }
            let Some(n) = raw.trim().parse::<f64>().ok().filter(|n| n.is_finite()) else {
                return Err(err(f, Problem::NotANumber));
            };
            if *integer && n.fract() != 0.0 {
                return Err(err(f, Problem::NotWhole));
            }
            if let Some(m) = minimum.filter(|m| n < *m) {
                return Err(err(f, Problem::AtLeast(fmt_num(m))));
            }
            if let Some(m) = maximum.filter(|m| n > *m) {
                return Err(err(f, Problem::AtMost(fmt_num(m))));
            }
            if let Some(m) = exclusive_minimum.filter(|m| n <= *m) {
                return Err(err(f, Problem::MoreThan(fmt_num(m))));
            }
            if let Some(m) = exclusive_maximum.filter(|m| n >= *m) {
                return Err(err(f, Problem::LessThan(fmt_num(m))));
            }
            let value = if *integer && n.abs() < 9.007_199_254_740_992e15 {
                Value::Number(Number::from(n as i64))
            } else {
                Number::from_f64(n).map_or(Value::Null, Value::Number)
            };
            Ok(Some(value))
        }
        FieldKind::Json { expect, .. } => {
            if empty {
                return missing(f);
            }
            let v: Value = serde_json::from_str(raw)
                .map_err(|e| err(f, Problem::InvalidJson(e.to_string())))?;
            let ok = match expect.as_deref() {
                Some("object") => v.is_object(),
                Some("array") => v.is_array(),
                Some("string") => v.is_string(),
                Some("number") => v.is_number(),
                Some("integer") => v.is_i64() || v.is_u64(),
                Some("boolean") => v.is_boolean(),
                _ => true,
            };
            if ok {
                Ok(Some(v))
            } else {
                Err(err(f, Problem::JsonType(expect.clone())))
            }
        }
    }
}
