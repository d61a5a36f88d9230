//! The fast path (`protocol::fast`) against the general one (JSON → compat → enforcement →
//! typed event): on every frame the fast path takes, the general path gives the same event
//! and no warning; the frames a stream is mostly made of are taken; everything else is left.

use crate::native_support::Rng;
use agui_leptos::protocol::compat::Compat;
use agui_leptos::protocol::enforce::{enforce_event, Enforced};
use agui_leptos::protocol::fast::decode;
use agui_leptos::protocol::{Event, Pipeline, PipelineOptions, Thread};

/// The general path's event for `data`, when it gives one without a warning.
fn general(data: &str) -> Option<Event> {
    let value: serde_json::Value = serde_json::from_str(data).ok()?;
    let mut warnings = Vec::new();
    let value = Compat::new(None).inbound(value, &mut warnings)?;
    match enforce_event(value, &mut warnings) {
        Ok(Enforced::Event(e)) if warnings.is_empty() => Some(*e),
        _ => None,
    }
}

fn agree(data: &str) -> bool {
    match decode(data) {
        Some(fast) => {
            assert_eq!(Some(&fast), general(data).as_ref(), "{data}");
            true
        }
        None => false,
    }
}

#[test]
fn the_common_frames_are_taken_and_equal_the_general_path() {
    for data in [
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}"#,
        r#"{"delta":"Hi","type":"TEXT_MESSAGE_CONTENT","messageId":"m1"}"#,
        r#" { "type" : "TEXT_MESSAGE_CONTENT" , "messageId" : "m" , "delta" : "a\nb" } "#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\"q\" \\ \/ \u00e9 \ud83d\ude00 \t"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Grüße 👋"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"\"\\\/\b\f\n\r\t end \\u0041"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":1735689600000}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":-5}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}"#,
        r#"{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"hmm"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"city\":\"Lis"}"#,
    ] {
        assert!(agree(data), "taken: {data}");
    }
}

#[test]
fn everything_else_is_left_to_the_general_path() {
    for data in [
        // Other fields: the general path strips, keeps or checks them.
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","rawEvent":{}}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","metadata":{}}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":"s"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","extra":1}"#,
        // The wrong id for the type, two ids, duplicates.
        r#"{"type":"TOOL_CALL_ARGS","messageId":"c","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","toolCallId":"m","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","toolCallId":"m","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","delta":"y"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","messageId":"n","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","type":"TOOL_CALL_ARGS","messageId":"m","delta":"x"}"#,
        // Values the schema refuses or the JSON rules repair.
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":42}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":null,"delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\ud800"}"#,
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"a\u{1}b\"}",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":1.5}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":1e3}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":01}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":9007199254740992}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":null}"#,
        // Keys with escapes, other types, broken or trailing JSON.
        r#"{"typ\u0065":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"} x"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x",}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x""#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x\"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}"#,
        r#"{}"#,
        r#"[]"#,
        "",
    ] {
        assert!(decode(data).is_none(), "left: {data}");
    }
}

/// Random frames near the fast path's shape: whenever it takes one, the general path agrees.
#[test]
fn random_frames_never_disagree() {
    let mut rng = Rng(0xFA57_9A7B);
    let keys = [
        "\"type\"",
        "\"messageId\"",
        "\"toolCallId\"",
        "\"delta\"",
        "\"timestamp\"",
        "\"rawEvent\"",
    ];
    let types = [
        "\"TEXT_MESSAGE_CONTENT\"",
        "\"REASONING_MESSAGE_CONTENT\"",
        "\"TOOL_CALL_ARGS\"",
        "\"TEXT_MESSAGE_END\"",
    ];
    let strings = [
        "\"a\"",
        "\"\"",
        "\"\\u00e9\\n\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud800x\"",
        "\"é\"",
        "\"\\\"\"",
        "\"\\x\"",
        "\"a\\\\b\\/c\\td\\u0041\\\"\"",
        "\"\\",
    ];
    let others = [
        "1",
        "-0",
        "12.0",
        "null",
        "{}",
        "[]",
        "true",
        "9007199254740991",
    ];
    let spaces = ["", " ", "\n", "\t "];
    let (mut taken, mut left) = (0, 0);
    for _ in 0..60_000 {
        // Mostly the right members in a random order, then a few mutations.
        let mut members: Vec<(String, String)> = vec![
            ("\"type\"".into(), rng.pick(&types).into()),
            (
                rng.pick(&["\"messageId\"", "\"toolCallId\""]).into(),
                rng.pick(&strings).into(),
            ),
            ("\"delta\"".into(), rng.pick(&strings).into()),
        ];
        if rng.chance(30) {
            members.push(("\"timestamp\"".into(), rng.pick(&others).into()));
        }
        for _ in 0..rng.range(0, 3) {
            if rng.chance(50) {
                continue;
            }
            let i = rng.below(members.len());
            match rng.below(3) {
                0 => members[i].0 = rng.pick(&keys).into(),
                1 => members[i].1 = rng.pick(&others).into(),
                _ => {
                    let m = members[i].clone();
                    members.push(m);
                }
            }
        }
        for i in (1..members.len()).rev() {
            members.swap(i, rng.below(i + 1));
        }
        let mut s = String::from(rng.pick(&spaces));
        s.push('{');
        for (i, (k, v)) in members.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            for part in [
                rng.pick(&spaces),
                k,
                rng.pick(&spaces),
                ":",
                rng.pick(&spaces),
                v,
            ] {
                s.push_str(part);
            }
        }
        s.push_str(rng.pick(&spaces));
        s.push('}');
        if rng.chance(3) {
            s.push_str(rng.pick(&[",", "x", "}"]));
        }
        if agree(&s) {
            taken += 1;
        } else {
            left += 1;
        }
    }
    assert!(taken > 1_000 && left > 1_000, "{taken} taken, {left} left");
}

/// Through a whole pipeline: the same stream gives the same thread whether its deltas take
/// the fast path or not (a `metadata: {}`-free twin forces the general one... is equal).
#[test]
fn a_stream_folds_the_same_on_either_path() {
    let frames = |extra: &str| {
        let mut s = String::from(
            "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
             data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n",
        );
        for d in ["Hel", "lo \\\"x\\\"", " \\u00e9"] {
            s.push_str(&format!(
                "data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"{d}\"{extra}}}\n\n"
            ));
        }
        s.push_str(
            "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n\
             data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
        );
        s
    };
    let fold = |s: &str| {
        let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
        let mut events: Vec<Event> = p
            .push_bytes(s.as_bytes())
            .into_iter()
            .map(|d| d.event)
            .collect();
        events.extend(p.finish().into_iter().map(|d| d.event));
        assert!(p.error().is_none());
        (p.thread.messages, events.len())
    };
    // `"metadata":{}` sends the deltas down the general path; the messages are the same.
    let (fast, n) = fold(&frames(""));
    let (general, m) = fold(&frames(",\"metadata\":{}"));
    assert_eq!(n, m);
    assert_eq!(fast.len(), general.len());
    assert_eq!(fast[0].text(), "Hello \"x\" é");
    assert_eq!(fast[0].text(), general[0].text());
}

// ---- raw payloads kept as text ----------------------------------------------------------------

/// The event and the warnings a pipeline gives for `frame` after a `RUN_STARTED`.
fn through_pipeline(frame: &str) -> (Option<Event>, Vec<String>, bool) {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    let start = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";
    assert_eq!(p.push_bytes(start.as_bytes()).len(), 1);
    let got = p
        .push_bytes(format!("data: {frame}\n\n").as_bytes())
        .pop()
        .map(|d| d.event);
    let warnings = p.thread.warnings.iter().map(|w| w.to_string()).collect();
    (got, warnings, p.error().is_some())
}

/// The general path with its warnings (the reference).
fn reference(frame: &str) -> (Option<Event>, Vec<String>, bool) {
    let value: serde_json::Value = serde_json::from_str(frame).expect("JSON");
    let mut warnings = Vec::new();
    let value = Compat::new(None).inbound(value, &mut warnings);
    let (event, failed) = match value.map(|v| enforce_event(v, &mut warnings)) {
        Some(Ok(Enforced::Event(e))) => (Some(*e), false),
        Some(Ok(Enforced::Dropped)) | None => (None, false),
        Some(Err(_)) => (None, true),
    };
    (
        event,
        warnings.iter().map(|w| w.to_string()).collect(),
        failed,
    )
}

#[test]
fn raw_payloads_stay_text_and_the_events_equal_the_general_path() {
    let big = format!(
        "{{\"event\":\"on_chat_model_stream\",\"data\":{{\"chunk\":{{\"content\":\"hi\",\"n\":[1,2.5,-3e2,null,true]}}}},\"tags\":[\"{}\"]}}",
        "x".repeat(2_000)
    );
    for frame in [
        format!(r#"{{"type":"RAW","event":{big},"source":"langgraph"}}"#),
        format!(r#"{{"source":"s","event":{big},"type":"RAW"}}"#),
        r#"{"type":"RAW","event":null}"#.to_owned(),
        r#"{"type":"RAW","event":"just text"}"#.to_owned(),
        format!(
            r#"{{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","rawEvent":{big}}}"#
        ),
        format!(r#"{{"type":"CUSTOM","name":"n","value":{{"event":1}},"rawEvent":{big}}}"#),
        // Enforcement still sees what it must: a null rawEvent, an `event` where none belongs.
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","rawEvent":null}"#
            .to_owned(),
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","event":{"a":1}}"#
            .to_owned(),
        r#"{"type":"RAW","source":"s"}"#.to_owned(),
        r#"{"type":"RAW","event":{},"rawEvent":{},"rawEvent":[1]}"#.to_owned(),
    ] {
        let (got, warned, failed) = through_pipeline(&frame);
        let (want, want_warned, want_failed) = reference(&frame);
        assert_eq!(got, want, "{frame}");
        assert_eq!(warned, want_warned, "{frame}");
        assert_eq!(failed, want_failed, "{frame}");
    }
    // Verbatim: the payload's own text, serialised as it came.
    let frame = format!(r#"{{"type":"RAW","event":{big}}}"#);
    let (Some(event), _, _) = through_pipeline(&frame) else {
        panic!("a RAW event")
    };
    let agui_leptos::protocol::EventKind::Raw(raw) = &event.kind else {
        panic!("{event:?}")
    };
    assert_eq!(raw.event.text(), big);
    assert!(serde_json::to_string(&event).expect("json").contains(&big));
    assert_eq!(raw.event.get("event"), Some("on_chat_model_stream".into()));
}

/// The string scan goes eight bytes at a time: a quote, a backslash or a control character at
/// any position of a long string (every offset against the word boundaries) is still seen.
#[test]
fn every_special_byte_is_seen_wherever_it_falls() {
    let plain = "abcdefghijklmnopqrstuvwxyzé0123456789ABCDEFGHIJ";
    for at in 0..plain.len() {
        if !plain.is_char_boundary(at) {
            continue;
        }
        let (head, tail) = plain.split_at(at);
        for special in [r#"\""#, r"\\", r"\n", r"\u0041"] {
            let data = format!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"{head}{special}{tail}"}}"#
            );
            assert!(agree(&data), "taken: {data}");
        }
        // A raw control character or a quote that ends the string early: not the fast path's.
        for bad in ["\u{1}", "\t", "\""] {
            let data = format!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"{head}{bad}{tail}"}}"#
            );
            assert!(decode(&data).is_none(), "left: {data:?}");
        }
    }
}
