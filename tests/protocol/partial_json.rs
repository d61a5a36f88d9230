//! Tests for the incremental best-effort JSON parser used for streaming
//! tool-call arguments.

use agui_leptos::protocol::partial_json::{
    parse_partial, PartialJson, PartialJsonError, MAX_DEPTH,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

// ---------------------------------------------------------------- helpers

/// Everything observable about a parser, for comparing ways of feeding it.
#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    value: Option<Value>,
    error: Option<PartialJsonError>,
    complete: bool,
    len: usize,
}

fn snapshot(p: &PartialJson) -> Snapshot {
    Snapshot {
        value: p.value().cloned(),
        error: p.error().cloned(),
        complete: p.is_complete(),
        len: p.len(),
    }
}

fn feed_pieces<'a>(pieces: impl IntoIterator<Item = &'a str>) -> PartialJson {
    let mut p = PartialJson::new();
    for piece in pieces {
        p.push(piece);
    }
    p
}

fn feed_one(text: &str) -> PartialJson {
    feed_pieces([text])
}

fn feed_chars(text: &str) -> PartialJson {
    let mut p = PartialJson::new();
    let mut buf = [0u8; 4];
    for c in text.chars() {
        p.push(c.encode_utf8(&mut buf));
    }
    p
}

/// Deterministic xorshift generator, so the tests need no `rand`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Largest char boundary `<= i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Split `text` at char boundaries into pieces of roughly the given byte
/// sizes (sizes cycle; empty pieces allowed).
fn split_sizes<'a>(text: &'a str, sizes: &[usize]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut k = 0;
    while start < text.len() {
        let size = if sizes.is_empty() {
            text.len()
        } else {
            sizes[k % sizes.len()]
        };
        k += 1;
        let mut end = floor_boundary(text, start + size);
        if end == start && size > 0 {
            // Ensure progress across a multi-byte char.
            end = start + text[start..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(&text[start..end]);
        start = end;
        if k > 4 * text.len() + 8 {
            out.push(&text[start..]);
            break;
        }
    }
    out
}

fn split_random<'a>(text: &'a str, rng: &mut Rng, max: usize) -> Vec<&'a str> {
    let sizes: Vec<usize> = (0..64).map(|_| rng.below(max + 1)).collect();
    split_sizes(text, &sizes)
}

/// `partial` is a best-effort view of `full`: strings are prefixes, objects
/// have a subset of the keys, arrays a prefix of the items, and everything
/// else is equal.
fn is_partial_of(partial: &Value, full: &Value) -> bool {
    match (partial, full) {
        (Value::String(p), Value::String(f)) => f.starts_with(p.as_str()),
        (Value::Object(p), Value::Object(f)) => p
            .iter()
            .all(|(k, pv)| f.get(k).is_some_and(|fv| is_partial_of(pv, fv))),
        (Value::Array(p), Value::Array(f)) => {
            p.len() <= f.len() && p.iter().zip(f).all(|(pv, fv)| is_partial_of(pv, fv))
        }
        _ => partial == full,
    }
}

#[track_caller]
fn assert_partial(text: &str, expected: Option<Value>) {
    assert_eq!(parse_partial(text), expected, "input {text:?}");
    let p = feed_chars(text);
    assert_eq!(p.value().cloned(), expected, "char by char {text:?}");
    assert!(
        p.error().is_none(),
        "unexpected error for {text:?}: {:?}",
        p.error()
    );
}

// ---------------------------------------------------------------- table

#[test]
fn string_values_appear_and_grow() {
    assert_partial(r#"{"city":"Lis"#, Some(json!({"city": "Lis"})));
    assert_partial(r#"{"city":""#, Some(json!({"city": ""})));
    assert_partial(r#"{"city":"Lisbon""#, Some(json!({"city": "Lisbon"})));
    assert_partial(r#"{"city":"Lisbon","#, Some(json!({"city": "Lisbon"})));
}

#[test]
fn keys_appear_only_with_their_value() {
    assert_partial("{", Some(json!({})));
    assert_partial(r#"{""#, Some(json!({})));
    assert_partial(r#"{"ci"#, Some(json!({})));
    assert_partial(r#"{"city""#, Some(json!({})));
    assert_partial(r#"{"city":"#, Some(json!({})));
    assert_partial(r#"{"city": "#, Some(json!({})));
    assert_partial(r#"{"a":1, "b"#, Some(json!({"a": 1})));
}

#[test]
fn scalars_appear_only_when_complete() {
    assert_partial(r#"{"n": 12"#, Some(json!({})));
    assert_partial(r#"{"n": 12,"#, Some(json!({"n": 12})));
    assert_partial(r#"{"n": 12 "#, Some(json!({"n": 12})));
    assert_partial(r#"{"n": 12}"#, Some(json!({"n": 12})));
    assert_partial(r#"{"n": -1.5e3"#, Some(json!({})));
    assert_partial(
        r#"{"n": -1.5e3]"#.replace(']', "}").as_str(),
        Some(json!({"n": -1500.0})),
    );
    assert_partial(r#"{"a": tr"#, Some(json!({})));
    assert_partial(r#"{"a": true"#, Some(json!({"a": true})));
    assert_partial(r#"{"a": fals"#, Some(json!({})));
    assert_partial(r#"{"a": false"#, Some(json!({"a": false})));
    assert_partial(r#"{"a": nul"#, Some(json!({})));
    assert_partial(r#"{"a": null"#, Some(json!({"a": null})));
}

#[test]
fn arrays_and_nesting() {
    assert_partial(r#"[1, 2, "x"#, Some(json!([1, 2, "x"])));
    assert_partial("[1, 2", Some(json!([1])));
    assert_partial(r#"[{"a":"#, Some(json!([{}])));
    assert_partial("[", Some(json!([])));
    assert_partial(r#"{"a":{"b":["#, Some(json!({"a": {"b": []}})));
    assert_partial(
        r#"{"a":{"b":[],"c":{"#,
        Some(json!({"a": {"b": [], "c": {}}})),
    );
    assert_partial(r#"[[1,[2,[3"#, Some(json!([[1, [2, []]]])));
    assert_partial(r#"[[], {}, [{}]"#, Some(json!([[], {}, [{}]])));
}

#[test]
fn escapes() {
    assert_partial(
        r#"{"s":"a\nb\"c\\d\/e\bf\fg\rh\ti"}"#,
        Some(json!({"s": "a\nb\"c\\d/e\u{8}f\u{c}g\rh\ti"})),
    );
    assert_partial(r#"{"s":"\u00e9\u4E2D"}"#, Some(json!({"s": "é中"})));
    assert_partial(r#""\ud83d\ude00""#, Some(json!("😀")));
    assert_partial(r#""\uD83D\uDE00""#, Some(json!("😀")));
    // Incomplete escapes are held back.
    assert_partial(r#""a\"#, Some(json!("a")));
    assert_partial(r#""a\u"#, Some(json!("a")));
    assert_partial(r#""a\u00"#, Some(json!("a")));
    assert_partial(r#""a\u00e"#, Some(json!("a")));
    assert_partial(r#""a\u00e9"#, Some(json!("aé")));
    // A high surrogate at the end of the input is pending.
    assert_partial(r#""a\ud83d"#, Some(json!("a")));
    assert_partial(r#""a\ud83d\"#, Some(json!("a")));
    assert_partial(r#""a\ud83d\u"#, Some(json!("a")));
    assert_partial(r#""a\ud83d\ude0"#, Some(json!("a")));
    assert_partial(r#""a\ud83d\ude00"#, Some(json!("a😀")));
    // Escaped keys.
    assert_partial(r#"{"k\u00e9\n":1}"#, Some(json!({"ké\n": 1})));
}

#[test]
fn lone_surrogates_become_replacement_characters() {
    let r = '\u{FFFD}';
    // High followed by plain text, by the closing quote, by another escape.
    assert_partial(r#""a\ud83db""#, Some(json!(format!("a{r}b"))));
    assert_partial(r#""a\ud83d""#, Some(json!(format!("a{r}"))));
    assert_partial(r#""a\ud83d\n""#, Some(json!(format!("a{r}\n"))));
    // High followed by a non-surrogate escape, or by another high.
    assert_partial(r#""\ud83d\u0041""#, Some(json!(format!("{r}A"))));
    assert_partial(r#""\ud83d\ud83d\ude00""#, Some(json!(format!("{r}😀"))));
    // Lone low.
    assert_partial(r#""x\ude00y""#, Some(json!(format!("x{r}y"))));
    // Lone high in a key.
    assert_partial(r#"{"\ud800":1}"#, Some(json!({ r.to_string(): 1 })));
    // Lone high followed by a non-`u` escape is still validated.
    let p = feed_one(r#""\ud83d\x""#);
    assert!(matches!(
        p.error(),
        Some(PartialJsonError::Unexpected {
            offset: 8,
            found: 'x'
        })
    ));
}

#[test]
fn top_level_scalars() {
    assert_partial(r#""abc"#, Some(json!("abc")));
    assert_partial(r#"""#, Some(json!("")));
    assert_partial("  ", None);
    assert_partial("", None);
    assert_partial("42", None);
    assert_partial("42 ", Some(json!(42)));
    assert_partial("tru", None);
    assert_partial("true", Some(json!(true)));
    assert_partial("null", Some(json!(null)));
    assert_partial("-0 ", Some(serde_json::from_str("-0").unwrap()));

    assert!(!feed_one("42").is_complete());
    assert!(feed_one("42 ").is_complete());
    assert!(feed_one("42\n").is_complete());
    assert!(feed_one("true").is_complete());
    assert!(feed_one(r#""abc""#).is_complete());
    assert!(!feed_one(r#""abc"#).is_complete());
    assert!(feed_one(" {} ").is_complete());
    assert!(!feed_one("{").is_complete());
}

#[test]
fn numbers() {
    let cases = [
        "0",
        "-0",
        "7",
        "-7",
        "9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "98765432109876543210",
        "1.5",
        "-0.0",
        "1e10",
        "1E+2",
        "2.5e-3",
        "-12.5E3",
        "0.1",
        "123456789.123456789",
    ];
    for text in cases {
        let expected: Value = serde_json::from_str(text).unwrap();
        let doc = format!("[{text}]");
        let p = feed_one(&doc);
        assert_eq!(p.value(), Some(&json!([expected])), "{text}");
        assert!(p.is_complete(), "{text}");
        // Integer kinds match serde_json too, not only the numeric value.
        let got = &p.value().unwrap()[0];
        assert_eq!(got.is_i64(), expected.is_i64(), "{text}");
        assert_eq!(got.is_u64(), expected.is_u64(), "{text}");
        assert_eq!(got.is_f64(), expected.is_f64(), "{text}");
    }
}

#[test]
fn invalid_numbers_fail_once_they_cannot_be_valid() {
    for (text, offset) in [
        ("[01", 1),
        ("[1.]", 1),
        ("[-]", 1),
        ("[1e]", 1),
        ("[1.2.3", 1),
        ("[--1", 1),
        ("[1e+-", 1),
        ("[1e400]", 1),
        ("[ -x", 2),
    ] {
        let p = feed_one(text);
        assert_eq!(
            p.error(),
            Some(&PartialJsonError::InvalidNumber { offset }),
            "{text}"
        );
        assert_eq!(p.value(), Some(&json!([])), "{text}");
    }
    // Still possibly valid: no error yet.
    for text in ["[1.", "[-", "[1e", "[1e+", "[0"] {
        assert!(feed_one(text).error().is_none(), "{text}");
    }
}

#[test]
fn duplicate_keys_last_wins() {
    let p = feed_one(r#"{"a":1,"b":2,"a":"x"}"#);
    assert_eq!(p.value(), Some(&json!({"a": "x", "b": 2})));
    let text = r#"{"a":[1],"b":{},"a":{"c":true},"b":null}"#;
    let p = feed_chars(text);
    assert_eq!(
        p.value(),
        Some(&serde_json::from_str::<Value>(text).unwrap())
    );
    assert!(p.is_complete());
}

#[test]
fn invalid_input_keeps_last_value() {
    let cases: [(&str, Value, PartialJsonError); 9] = [
        (
            "{]",
            json!({}),
            PartialJsonError::Unexpected {
                offset: 1,
                found: ']',
            },
        ),
        (
            r#"{"a" 1}"#,
            json!({}),
            PartialJsonError::Unexpected {
                offset: 5,
                found: '1',
            },
        ),
        (
            "nul x",
            Value::Null,
            PartialJsonError::Unexpected {
                offset: 3,
                found: ' ',
            },
        ),
        (
            r#"{"a":"x"]"#,
            json!({"a": "x"}),
            PartialJsonError::Unexpected {
                offset: 8,
                found: ']',
            },
        ),
        (
            r#"[1,]"#,
            json!([1]),
            PartialJsonError::Unexpected {
                offset: 3,
                found: ']',
            },
        ),
        (
            r#"{"a":1,}"#,
            json!({"a": 1}),
            PartialJsonError::Unexpected {
                offset: 7,
                found: '}',
            },
        ),
        (
            r#"["a\qb"]"#,
            json!(["a"]),
            PartialJsonError::Unexpected {
                offset: 4,
                found: 'q',
            },
        ),
        (
            r#"["\u12g4"]"#,
            json!([""]),
            PartialJsonError::Unexpected {
                offset: 6,
                found: 'g',
            },
        ),
        (
            "[é]",
            json!([]),
            PartialJsonError::Unexpected {
                offset: 1,
                found: 'é',
            },
        ),
    ];
    for (text, value, error) in cases {
        let expected_value = if text.starts_with("nul") {
            None
        } else {
            Some(value)
        };
        for p in [feed_one(text), feed_chars(text)] {
            assert_eq!(p.error(), Some(&error), "{text}");
            assert_eq!(p.value().cloned(), expected_value, "{text}");
            assert!(!p.is_complete(), "{text}");
        }
    }
}

#[test]
fn trailing_data() {
    let mut p = feed_one(r#"{"a":1} "#);
    assert!(p.is_complete());
    p.push("\n\t ");
    assert!(p.is_complete());
    p.push(" x");
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::TrailingData { offset: 12 })
    );
    assert_eq!(p.value(), Some(&json!({"a": 1})));
    assert!(!p.is_complete());

    let p = feed_one("42x");
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::TrailingData { offset: 2 })
    );
    assert_eq!(p.value(), Some(&json!(42)));
    let p = feed_one(r#""a""b""#);
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::TrailingData { offset: 3 })
    );
    assert_eq!(p.value(), Some(&json!("a")));
}

#[test]
fn raw_control_characters_in_strings_are_tolerated() {
    assert_partial(
        "{\"s\":\"a\nb\tc\u{0}\"}",
        Some(json!({"s": "a\nb\tc\u{0}"})),
    );
}

#[test]
fn pushes_after_an_error_are_ignored() {
    let mut p = feed_one("[1,]");
    let before = snapshot(&p);
    let scanned = p.bytes_scanned();
    p.push(r#"[2, "more"]"#);
    let after = snapshot(&p);
    assert_eq!(after.value, before.value);
    assert_eq!(after.error, before.error);
    assert_eq!(after.len, before.len + 11);
    assert_eq!(p.bytes_scanned(), scanned);
}

#[test]
fn depth_limit() {
    let ok = "[".repeat(MAX_DEPTH);
    let p = feed_one(&ok);
    assert!(p.error().is_none());
    let closed = format!("{ok}{}", "]".repeat(MAX_DEPTH));
    let p = feed_chars(&closed);
    assert!(p.is_complete());
    // serde_json itself stops at 127 levels, so build the expected value.
    let mut expected = json!([]);
    for _ in 1..MAX_DEPTH {
        expected = Value::Array(vec![expected]);
    }
    assert_eq!(p.value(), Some(&expected));
    assert!(serde_json::from_str::<Value>(&closed).is_err());

    let deep = "[".repeat(MAX_DEPTH + 1);
    let p = feed_one(&deep);
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::TooDeep {
            offset: MAX_DEPTH,
            limit: MAX_DEPTH
        })
    );
    // The best-effort value keeps the MAX_DEPTH levels read before the error.
    let mut depth = 0;
    let mut v = p.value().unwrap();
    while let Value::Array(items) = v {
        depth += 1;
        match items.first() {
            Some(child) => v = child,
            None => break,
        }
    }
    assert_eq!(depth, MAX_DEPTH);

    // Objects count too, and a huge hostile input stops cheaply.
    let hostile = r#"{"a":"#.repeat(100_000);
    let p = feed_one(&hostile);
    assert!(matches!(p.error(), Some(PartialJsonError::TooDeep { .. })));
    assert!(p.bytes_scanned() < 5 * MAX_DEPTH + 10);
}

#[test]
fn finish_completes_a_top_level_number() {
    let mut p = feed_one("42");
    assert_eq!(p.value(), None);
    p.finish();
    assert_eq!(p.value(), Some(&json!(42)));
    assert!(p.is_complete());
    p.finish();
    assert!(p.is_complete());
    p.push(" ");
    assert!(p.is_complete());
    p.push("7");
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::TrailingData { offset: 3 })
    );

    let mut p = feed_one("1.");
    p.finish();
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::InvalidNumber { offset: 0 })
    );

    let mut p = feed_one(r#"{"a":"x"#);
    p.finish();
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::UnexpectedEnd { offset: 7 })
    );
    assert_eq!(p.value(), Some(&json!({"a": "x"})));

    let mut p = feed_one("[12");
    p.finish();
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::UnexpectedEnd { offset: 3 })
    );

    let mut p = PartialJson::new();
    p.finish();
    assert_eq!(
        p.error(),
        Some(&PartialJsonError::UnexpectedEnd { offset: 0 })
    );

    let mut p = feed_one("{}");
    p.finish();
    assert!(p.is_complete());
}

#[test]
fn len_reset_and_errors_display() {
    let mut p = PartialJson::default();
    assert!(p.is_empty());
    p.push("[1, ");
    p.push("");
    p.push("é");
    assert_eq!(p.len(), 6);
    assert!(!p.is_empty());
    assert!(p.error().is_some());
    p.reset();
    assert!(p.is_empty());
    assert_eq!(p.value(), None);
    assert!(p.error().is_none());
    p.push("[]");
    assert!(p.is_complete());

    let e = PartialJsonError::TooDeep {
        offset: 3,
        limit: MAX_DEPTH,
    };
    assert_eq!(e.offset(), 3);
    assert!(e.to_string().contains("128"));
    let e = PartialJsonError::Unexpected {
        offset: 9,
        found: ']',
    };
    assert_eq!(e.offset(), 9);
    assert!(e.to_string().contains("']'"));
}

#[test]
fn splits_inside_escapes_keys_and_numbers() {
    let text = r#"{"key\u00e9":[-12.5e+3,"x\ud83d\ude00y",true]}"#;
    let expected: Value = serde_json::from_str(text).unwrap();
    for cut in 1..text.len() {
        let p = feed_pieces([&text[..cut], &text[cut..]]);
        assert_eq!(p.value(), Some(&expected), "cut at {cut}");
        assert!(p.is_complete());
    }
    // A fragment ending between a high surrogate and its low escape.
    let mut p = PartialJson::new();
    p.push(r#"["a\ud83d"#);
    assert_eq!(p.value(), Some(&json!(["a"])));
    p.push(r#"\ude00b"]"#);
    assert_eq!(p.value(), Some(&json!(["a😀b"])));
}

// ---------------------------------------------------------------- every prefix

fn venue_search_doc() -> String {
    r#"{
  "query": "cafés near \"Praça do Comércio\"\nopen now",
  "location": {"lat": 38.7077, "lng": -9.1365, "radius_m": 1.5e3, "floor": -2},
  "filters": {
    "price": [1, 2, 3],
    "open_now": true,
    "wheelchair": false,
    "rating_min": null,
    "tags": [],
    "extra": {}
  },
  "emoji": "☕ \ud83d\ude00 😀 — \u00e9\u4E2D",
  "path": "C:\\venues\\lisbon\/list",
  "controls": "\b\f\r\t",
  "results": [
    {"id": "v_001", "name": "Café A Brasileira", "score": 0.92, "distance": -12,
     "big": 12345678901234567890, "neg": -9223372036854775808, "exp": -2.5E-3,
     "hours": [{"day": "mon", "open": "08:00"}, {"day": "tue", "open": null}]},
    {"id": "v_002", "name": "日本語テキスト", "score": 1, "tags": ["wifi", "outdoor"], "zero": 0}
  ],
  "limit": 20
}
"#
    .to_owned()
}

fn deep_doc(depth: usize) -> String {
    let mut s = String::new();
    for level in 0..depth {
        if level % 2 == 0 {
            s.push_str(&format!(r#"{{"k{level}":"#));
        } else {
            s.push_str("[0, ");
        }
    }
    s.push_str(r#""leaf \ud83d\ude00""#);
    for level in (0..depth).rev() {
        s.push(if level % 2 == 0 { '}' } else { ']' });
    }
    s
}

fn prefix_docs() -> Vec<String> {
    vec![
        venue_search_doc(),
        r#"[1, -0.5, "two", [3, [4, {}]], {"k": [true, false, null]}, "", 0, 1e10, "\u0041", -0, []]"#.to_owned(),
        deep_doc(50),
        r#""line1\nline2 \"quoted\" \\ \/ \ud83d\ude00 tail""#.to_owned(),
        "  -12.5e+3 ".to_owned(),
        r#"{"a":{},"b":[],"c":[{}],"d":{"e":[[]]},"":""}"#.to_owned(),
    ]
}

#[test]
fn every_prefix() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for doc in prefix_docs() {
        let full: Value = serde_json::from_str(&doc).unwrap();
        let boundaries: Vec<usize> = (0..=doc.len())
            .filter(|&i| doc.is_char_boundary(i))
            .collect();
        for &end in &boundaries {
            let prefix = &doc[..end];
            let one = feed_one(prefix);
            let expected = snapshot(&one);
            // (a) one push == parse_partial == char by char == random pieces.
            assert_eq!(parse_partial(prefix), expected.value, "prefix {prefix:?}");
            assert_eq!(snapshot(&feed_chars(prefix)), expected, "chars {prefix:?}");
            for max in [1, 3, 17] {
                let pieces = split_random(prefix, &mut rng, max);
                assert_eq!(pieces.concat(), prefix);
                assert_eq!(
                    snapshot(&feed_pieces(pieces)),
                    expected,
                    "pieces {prefix:?}"
                );
            }
            // A prefix of valid JSON is never an error.
            assert_eq!(expected.error, None, "prefix {prefix:?}");
            // (b) monotone.
            if let Some(v) = &expected.value {
                assert!(
                    is_partial_of(v, &full),
                    "prefix {prefix:?} gave {v}, not partial of {full}"
                );
            }
        }
        // (c) the whole document.
        let p = feed_one(&doc);
        assert_eq!(p.value(), Some(&full));
        // A top-level number needs its trailing whitespace (present in the doc).
        assert!(p.is_complete(), "{doc}");
    }
}

#[test]
fn prefix_values_grow_by_appending() {
    // While one string streams, the value is extended in place: each
    // snapshot is a partial of the next.
    let doc = venue_search_doc();
    let mut p = PartialJson::new();
    let mut prev: Option<Value> = None;
    for piece in split_sizes(&doc, &[1, 2, 5]) {
        p.push(piece);
        let now = p.value().cloned();
        if let (Some(a), Some(b)) = (&prev, &now) {
            assert!(is_partial_of(a, b), "{a} -> {b}");
        }
        prev = now;
    }
}

// ---------------------------------------------------------------- linear work

/// A realistic ~1 MB arguments document.
fn big_args_doc() -> String {
    let mut s = String::from(r#"{"query":"coffee","venues":["#);
    let mut i = 0u64;
    while s.len() < 1_000_000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":"v_{i:06}","name":"Café nº {i} \"Ribeira\" \ud83d\ude00","lat":{lat},"lng":-9.{i},"open":{open},"rating":null,"tags":["wifi","terrace","a\nb"],"address":{{"street":"Rua Augusta {i}","zip":"1100-0{i}"}}}}"#,
            lat = 38.0 + (i as f64) / 1e6,
            open = i % 2 == 0,
        ));
        i += 1;
    }
    s.push_str("],\"limit\":20}");
    s
}

#[test]
fn linear_work_on_a_1mb_document() {
    let doc = big_args_doc();
    let pushes = 10_000;
    let size = doc.len().div_ceil(pushes);
    let pieces = split_sizes(&doc, &[size]);
    assert!(pieces.len() <= pushes + 10);
    let mut p = PartialJson::new();
    for piece in &pieces {
        p.push(piece);
    }
    assert!(p.is_complete());
    assert_eq!(
        p.value(),
        Some(&serde_json::from_str::<Value>(&doc).unwrap())
    );
    let n = pieces.len();
    let scanned = p.bytes_scanned();
    assert!(
        scanned <= 2 * doc.len() + 16 * n,
        "scanned {scanned} for {} bytes",
        doc.len()
    );
    // Lifting out and putting back the open containers: at most 2 × depth
    // (here 4) per push.
    assert!(p.tree_steps() <= 2 * 4 * n, "tree steps {}", p.tree_steps());
}

#[test]
fn linear_work_on_a_1mb_string_value() {
    let mut p = PartialJson::new();
    p.push(r#"{"a":{"b":[{"content":""#);
    let chunk = "lorem ipsum \u{e9} \\n \\\" dolor sit amet, ".repeat(3);
    let mut fed = p.len();
    for _ in 0..10_000 {
        p.push(&chunk);
        fed += chunk.len();
    }
    p.push(r#""}]}}"#);
    fed += 5;
    assert!(p.is_complete());
    let scanned = p.bytes_scanned();
    assert!(scanned <= fed + 4, "scanned {scanned} for {fed} bytes");
    let content = p.value().unwrap()["a"]["b"][0]["content"].as_str().unwrap();
    assert_eq!(content.len(), 10_000 * (chunk.len() - 6));
}

#[test]
fn linear_work_with_huge_keys_and_many_closes() {
    // Re-navigating by key would hash the 200 kB key on every close.
    let key = "k".repeat(200_000);
    let mut doc = format!(r#"{{"{key}":[[[{{"{key}":["#);
    for _ in 0..100_000 {
        doc.push_str("[],");
    }
    doc.push_str("[]]}]]]}");
    let pieces = split_sizes(&doc, &[7]);
    let mut p = PartialJson::new();
    for piece in &pieces {
        p.push(piece);
    }
    assert!(p.is_complete());
    assert!(p.bytes_scanned() <= 2 * doc.len());
    assert!(p.tree_steps() <= 2 * 6 * pieces.len());
}

// ---------------------------------------------------------------- proptest

fn json_ish_text() -> impl Strategy<Value = String> {
    let punct = prop::sample::select(vec![
        "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "d83d", "\\ude00", "\\n", "true", "fals",
        "null", "-", "0", "1", "23", "e", "E+", ".", " ", "\n", "\"k\":", "é", "😀",
    ]);
    prop::collection::vec(
        prop_oneof![
            3 => any::<char>().prop_map(String::from),
            10 => punct.prop_map(str::to_owned),
        ],
        0..64,
    )
    .prop_map(|parts| parts.concat())
}

fn arb_string() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => any::<char>(),
            1 => prop::sample::select(vec!['"', '\\', '\n', '\u{0}', '\u{1f}', '😀', '\u{FFFD}']),
        ],
        0..12,
    )
    .prop_map(String::from_iter)
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        arb_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((arb_string(), inner), 0..8)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_is_split_invariant(text in json_ish_text(), sizes in prop::collection::vec(0usize..9, 1..16)) {
        let one = snapshot(&feed_one(&text));
        let chunked = snapshot(&feed_pieces(split_sizes(&text, &sizes)));
        prop_assert_eq!(&chunked, &one);
        prop_assert_eq!(&snapshot(&feed_chars(&text)), &one);
        prop_assert_eq!(parse_partial(&text), one.value.clone());
        // If serde_json accepts it, so do we, with the same value.
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            let mut p = feed_one(&text);
            p.finish();
            prop_assert_eq!(p.value(), Some(&v));
            prop_assert!(p.is_complete());
        }
        // Errors are reported within the input.
        if let Some(e) = &one.error {
            prop_assert!(e.offset() < text.len());
        }
    }

    #[test]
    fn arbitrary_values_round_trip(value in arb_value(), sizes in prop::collection::vec(0usize..12, 1..16)) {
        let text = serde_json::to_string(&value).unwrap();
        let mut p = PartialJson::new();
        for piece in split_sizes(&text, &sizes) {
            p.push(piece);
            prop_assert!(p.error().is_none());
            if let Some(v) = p.value() {
                prop_assert!(is_partial_of(v, &value), "{} not partial of {}", v, value);
            }
        }
        p.finish();
        prop_assert_eq!(p.value(), Some(&value));
        prop_assert!(p.is_complete());
        prop_assert!(p.error().is_none());

        // Every prefix, fed char by char into one parser, is a partial.
        let mut p = PartialJson::new();
        let mut buf = [0u8; 4];
        for c in text.chars() {
            p.push(c.encode_utf8(&mut buf));
            prop_assert!(p.error().is_none());
            if let Some(v) = p.value() {
                prop_assert!(is_partial_of(v, &value), "{} not partial of {}", v, value);
            }
        }
        // And the same, pretty-printed (whitespace everywhere).
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let mut p = feed_pieces(split_sizes(&pretty, &sizes));
        p.finish();
        prop_assert_eq!(p.value(), Some(&value));
    }
}

/// The example in `PartialJson`'s docs (kept here so the protocol sources name no crate).
#[test]
fn doc_example_streams_a_city_then_completes() {
    let mut args = PartialJson::new();
    args.push(r#"{"city":"Lis"#);
    assert_eq!(args.value(), Some(&json!({"city": "Lis"})));
    args.push(r#"bon","days":3}"#);
    assert_eq!(args.value(), Some(&json!({"city": "Lisbon", "days": 3})));
    assert!(args.is_complete());
}
