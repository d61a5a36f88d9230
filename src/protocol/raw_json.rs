//! JSON kept as its text until something reads it: a `RAW` event's `event` and any event's
//! `rawEvent` are the producer's own payloads (a LangGraph callback, a provider chunk), often
//! the largest part of a frame, and almost never read — so the pipeline keeps them as the
//! frame's text (validated, never built into a `Value`), serialises them verbatim, and
//! parses them only when asked ([`RawJson::value`], [`RawJson::get`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// A JSON value as text (valid JSON by construction).
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The text of `value`.
    pub fn from_value(value: &Value) -> Self {
        let text = value.to_string();
        match RawValue::from_string(text) {
            Ok(raw) => RawJson(raw),
            Err(_) => RawJson::null(),
        }
    }

    fn null() -> Self {
        RawJson(RawValue::NULL.to_owned())
    }

    /// The JSON text as it arrived.
    pub fn text(&self) -> &str {
        self.0.get()
    }

    /// The value, parsed now (`null` for text `serde_json` refuses, such as a lone surrogate
    /// escape, which the syntax allows).
    pub fn value(&self) -> Value {
        serde_json::from_str(self.text()).unwrap_or(Value::Null)
    }

    /// Member `key` of an object, parsed now.
    pub fn get(&self, key: &str) -> Option<Value> {
        match self.value() {
            Value::Object(mut m) => m.remove(key),
            _ => None,
        }
    }
}

impl From<Value> for RawJson {
    fn from(value: Value) -> Self {
        RawJson::from_value(&value)
    }
}

/// Equal when the values are (whitespace and escapes aside).
impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text() || self.value() == other.value()
    }
}

impl std::fmt::Debug for RawJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(RawJson::from_value(&Value::deserialize(d)?))
    }
}

// ---- the frame, split ---------------------------------------------------------------------

/// A frame's object with its raw payloads kept aside as text (see [`split`]).
pub struct Split {
    map: serde_json::Map<String, Value>,
    raw_event: Option<Box<RawValue>>,
    event: Option<Box<RawValue>>,
}

/// Parse a frame that carries a `rawEvent` or an `event` member, keeping those as text. `None`
/// when it has neither or is not a JSON object serde_json reads as is (the general path then
/// parses, repairs or refuses it as always).
pub fn split(data: &str) -> Option<Split> {
    if !data.contains("\"rawEvent\"") && !data.contains("\"event\"") {
        return None;
    }
    serde_json::from_str(data).ok()
}

impl Split {
    /// The object for enforcement (with what enforcement must still see: a `null` `rawEvent`,
    /// which it coerces with a warning; a place holder for `RAW`'s required `event`; an
    /// `event` member on another type, which it strips with a warning), the `rawEvent`, and a
    /// `RAW` payload.
    pub fn into_parts(self) -> (Value, Option<RawJson>, Option<RawJson>) {
        let Split {
            mut map,
            raw_event,
            event,
        } = self;
        let is_raw = map.get("type").and_then(Value::as_str) == Some("RAW");
        let raw_event = match raw_event {
            Some(r) if r.get() == "null" => {
                map.insert("rawEvent".into(), Value::Null);
                None
            }
            r => r.map(RawJson),
        };
        let payload = match event {
            Some(e) if is_raw => {
                map.insert("event".into(), Value::Null);
                Some(RawJson(e))
            }
            Some(e) => {
                let v = serde_json::from_str(e.get()).unwrap_or(Value::Null);
                map.insert("event".into(), v);
                None
            }
            None => None,
        };
        (Value::Object(map), raw_event, payload)
    }
}

impl<'de> Deserialize<'de> for Split {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Split;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an event object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Split, A::Error> {
                let mut s = Split {
                    map: serde_json::Map::new(),
                    raw_event: None,
                    event: None,
                };
                while let Some(key) = a.next_key::<String>()? {
                    match key.as_str() {
                        "rawEvent" => s.raw_event = Some(a.next_value()?),
                        "event" => s.event = Some(a.next_value()?),
                        _ => {
                            let v = a.next_value::<Value>()?;
                            s.map.insert(key, v);
                        }
                    }
                }
                Ok(s)
            }
        }
        d.deserialize_map(V)
    }
}
