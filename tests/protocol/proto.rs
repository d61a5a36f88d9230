//! The protobuf binding (`protocol::proto`): streams the reference encoder made
//! (`tests/e2e/proto_fixtures.mjs`, committed under `tests/fixtures/proto/`) decode to the same
//! JSON as the reference decoder, to the same typed events as their SSE JSON, and fold to the
//! same thread — at every split point; framing errors (truncation, oversize, garbage), unknown
//! events, the reference decoder's verdicts on hand-made frames, a depth bomb, and random
//! mutations that never panic.
#![cfg(feature = "protobuf")]

use std::path::PathBuf;

use crate::native_support::Rng;
use agui_leptos::protocol::enforce::{enforce_event, Enforced};
use agui_leptos::protocol::proto::{
    decode_event, decode_frame, decode_frame_within, is_proto_response, DecodeError, ProtoDecoder,
    ProtoError, ProtoFrame, ProtoFrames, ACCEPT, CONTENT_TYPE, MAX_DEPTH, MAX_FRAME_BYTES,
};
use agui_leptos::protocol::{
    Delivered, Event, Pipeline, PipelineOptions, ProtocolError, RunStatus, Thread, Warning,
    WarningKind,
};
use serde_json::{json, Value};

const STREAMS: &[&str] = &["run", "snapshots", "failure"];

// ---- fixtures ---------------------------------------------------------------------------------

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/proto")
        .join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(fixture_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn lines(name: &str) -> Vec<Value> {
    String::from_utf8(bytes(name))
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The body cut into frames in one push.
fn frames(body: &[u8]) -> Vec<ProtoFrame> {
    let mut f = ProtoFrames::new();
    let frames = f
        .push(body)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .expect("frames");
    f.finish().expect("no leftover");
    frames
}

/// The SSE body carrying the same events (one `data:` line each).
fn sse(jsonl: &[Value]) -> Vec<u8> {
    jsonl
        .iter()
        .map(|v| format!("data: {v}\n\n"))
        .collect::<String>()
        .into_bytes()
}

// ---- a tiny encoder for hand-made frames ------------------------------------------------------

fn varint(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn tag(field: u32, wire_type: u8, out: &mut Vec<u8>) {
    varint(u64::from(field) << 3 | u64::from(wire_type), out);
}

fn len_field(field: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    tag(field, 2, &mut out);
    varint(payload.len() as u64, &mut out);
    out.extend_from_slice(payload);
    out
}

fn varint_field(field: u32, v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    tag(field, 0, &mut out);
    varint(v, &mut out);
    out
}

fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

/// `base_event` with `type`.
fn base(ty: u64) -> Vec<u8> {
    len_field(1, &varint_field(1, ty))
}

/// A `RAW` envelope whose `event` Value is `value` (encoded Value bytes).
fn raw_event(value: &[u8]) -> Vec<u8> {
    let mut body = base(9);
    body.extend(len_field(2, value));
    len_field(10, &body)
}

/// A Value holding `depth` nested lists, innermost `[]`: `{6: {1: {6: {1: … {6: {}}}}}}`,
/// written outside-in from the sizes (no recursion, linear in the output).
fn nested_lists(depth: usize) -> Vec<u8> {
    fn varint_len(v: usize) -> usize {
        let mut n = 1;
        let mut v = v >> 7;
        while v > 0 {
            n += 1;
            v >>= 7;
        }
        n
    }
    // value[i]: the Value of i + 1 nested lists; list[i]: its ListValue payload.
    let mut value = Vec::with_capacity(depth);
    let mut list = Vec::with_capacity(depth);
    for i in 0..depth {
        let l = if i == 0 {
            0
        } else {
            1 + varint_len(value[i - 1]) + value[i - 1]
        };
        list.push(l);
        value.push(1 + varint_len(l) + l);
    }
    let mut out = Vec::with_capacity(value.last().copied().unwrap_or(0));
    for i in (0..depth).rev() {
        tag(6, 2, &mut out);
        varint(list[i] as u64, &mut out);
        if i > 0 {
            tag(1, 2, &mut out);
            varint(value[i - 1] as u64, &mut out);
        }
    }
    out
}

// ---- folding ----------------------------------------------------------------------------------

struct Folded {
    delivered: Vec<Delivered>,
    pipeline: Pipeline,
}

fn fold_sse(body: &[u8]) -> Folded {
    let mut pipeline = Pipeline::new(Thread::new(), PipelineOptions::default());
    let mut delivered = pipeline.push_bytes(body);
    delivered.extend(pipeline.finish());
    Folded {
        delivered,
        pipeline,
    }
}

fn fold_proto(chunks: &[&[u8]]) -> Folded {
    let options = PipelineOptions::default();
    let mut decoder = ProtoDecoder::new(&options);
    let mut pipeline = Pipeline::new(Thread::new(), options);
    let mut delivered = Vec::new();
    for chunk in chunks {
        delivered.extend(decoder.push_bytes(&mut pipeline, chunk));
    }
    delivered.extend(decoder.finish(&mut pipeline));
    Folded {
        delivered,
        pipeline,
    }
}

fn events(f: &Folded) -> Vec<&Event> {
    f.delivered.iter().map(|d| &d.event).collect()
}

fn assert_same(a: &Folded, b: &Folded, what: &str) {
    assert_eq!(events(a), events(b), "{what}: delivered events");
    let changes = |f: &Folded| {
        f.delivered
            .iter()
            .map(|d| d.change.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(changes(a), changes(b), "{what}: changes");
    let (ta, tb) = (&a.pipeline.thread, &b.pipeline.thread);
    assert_eq!(ta.messages, tb.messages, "{what}: messages");
    assert_eq!(ta.state, tb.state, "{what}: state");
    assert_eq!(ta.runs, tb.runs, "{what}: runs");
    assert_eq!(ta.subagents, tb.subagents, "{what}: subagents");
    assert_eq!(ta.warnings, tb.warnings, "{what}: warnings");
    assert_eq!(a.pipeline.error(), b.pipeline.error(), "{what}: error");
}

// ---- the fixtures -----------------------------------------------------------------------------

#[test]
fn fixtures_cover_every_event_type() {
    let mut seen: Vec<String> = STREAMS
        .iter()
        .flat_map(|s| lines(&format!("{s}.jsonl")))
        .map(|v| v["type"].as_str().unwrap_or("").to_owned())
        .collect();
    seen.sort();
    seen.dedup();
    let mut all: Vec<String> = agui_leptos::protocol::event::EVENT_TYPES
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    all.sort();
    assert_eq!(seen, all);
}

#[test]
fn frames_decode_to_what_the_reference_decoder_returns() {
    for stream in STREAMS {
        let frames = frames(&bytes(&format!("{stream}.bin")));
        let expected = lines(&format!("{stream}.decoded.jsonl"));
        assert_eq!(frames.len(), expected.len(), "{stream}: frame count");
        for (i, (frame, expected)) in frames.iter().zip(&expected).enumerate() {
            let mut warnings = Vec::new();
            let got = decode_frame(&frame.payload, &mut warnings)
                .unwrap_or_else(|e| panic!("{stream} frame {i}: {e}"))
                .expect("a known event");
            assert_eq!(&got, expected, "{stream} frame {i}");
            assert!(warnings.is_empty(), "{stream} frame {i}: {warnings:?}");
        }
    }
}

#[test]
fn typed_events_equal_the_json_paths() {
    for stream in STREAMS {
        let frames = frames(&bytes(&format!("{stream}.bin")));
        let json = lines(&format!("{stream}.jsonl"));
        assert_eq!(frames.len(), json.len());
        for (i, (frame, json)) in frames.iter().zip(json).enumerate() {
            let mut w1 = Vec::new();
            let from_proto = decode_event(&frame.payload, &mut w1)
                .unwrap_or_else(|e| panic!("{stream} {i}: {e}"))
                .expect("kept");
            let mut w2 = Vec::new();
            let Ok(Enforced::Event(from_json)) = enforce_event(json, &mut w2) else {
                panic!("{stream} {i}: the JSON path refused it");
            };
            assert_eq!(from_proto, *from_json, "{stream} event {i}");
            assert_eq!(w1, w2, "{stream} event {i}: warnings");
        }
    }
}

#[test]
fn streams_fold_to_the_same_thread_as_over_sse() {
    for stream in STREAMS {
        let body = bytes(&format!("{stream}.bin"));
        let json = lines(&format!("{stream}.jsonl"));
        let over_sse = fold_sse(&sse(&json));
        let over_proto = fold_proto(&[&body]);
        assert_same(&over_sse, &over_proto, stream);
        // Every event arrived, and the streams are the runs they were written to be.
        assert!(
            over_proto.pipeline.error().is_none(),
            "{stream}: {:?}",
            over_proto.pipeline.error()
        );
        assert!(over_proto.delivered.len() >= json.len(), "{stream}");
    }
    let run = fold_proto(&[&bytes("run.bin")]);
    let t = &run.pipeline.thread;
    assert!(
        matches!(t.status(), RunStatus::Interrupted),
        "{:?}",
        t.status()
    );
    assert_eq!(t.open_interrupts().len(), 2);
    assert_eq!(t.runs[0].usage.len(), 2);
    assert_eq!(t.state["creator"], json!("Ana"));
    assert_eq!(
        t.state["nested"]["n"][7],
        json!(1_152_921_504_606_847_000u64)
    );
    let failure = fold_proto(&[&bytes("failure.bin")]);
    assert!(matches!(
        failure.pipeline.thread.status(),
        RunStatus::Error { .. }
    ));
}

#[test]
fn every_split_point_gives_the_same_result() {
    for stream in STREAMS {
        let body = bytes(&format!("{stream}.bin"));
        let whole = fold_proto(&[&body]);
        for i in 0..=body.len() {
            let (a, b) = body.split_at(i);
            assert_same(
                &whole,
                &fold_proto(&[a, b]),
                &format!("{stream} split at {i}"),
            );
        }
        for size in [1, 3, 7, 64] {
            let chunks: Vec<&[u8]> = body.chunks(size).collect();
            assert_same(
                &whole,
                &fold_proto(&chunks),
                &format!("{stream} in {size}-byte chunks"),
            );
        }
    }
}

#[test]
fn frames_split_anywhere_are_the_same_frames() {
    let body = bytes("run.bin");
    let whole = frames(&body);
    let mut rng = Rng(7);
    for _ in 0..200 {
        let mut f = ProtoFrames::new();
        let mut got = Vec::new();
        let mut rest: &[u8] = &body;
        while !rest.is_empty() {
            let n = rng.range(0, 40).min(rest.len());
            let (chunk, tail) = rest.split_at(n);
            rest = tail;
            got.extend(f.push(chunk).into_iter().map(|r| r.expect("frame")));
        }
        assert_eq!(f.finish(), Ok(()));
        assert_eq!(got, whole);
    }
    // Offsets are where each length prefix starts.
    let mut at = 0u64;
    for frame in &whole {
        assert_eq!(frame.offset, at);
        at += 4 + frame.payload.len() as u64;
    }
    assert_eq!(at, body.len() as u64);
}

// ---- framing errors ---------------------------------------------------------------------------

#[test]
fn a_truncated_body_fails_at_finish() {
    let body = bytes("snapshots.bin");
    let boundaries: Vec<usize> = {
        let mut at = 0;
        let mut b = vec![0];
        for f in frames(&body) {
            at += 4 + f.payload.len();
            b.push(at);
        }
        b
    };
    let whole = fold_proto(&[&body]);
    assert!(whole.pipeline.error().is_none());
    for cut in 1..body.len() {
        let prefix = &body[..cut];
        let mut f = ProtoFrames::new();
        let _ = f.push(prefix);
        let mid_frame = !boundaries.contains(&cut);
        assert_eq!(f.finish().is_err(), mid_frame, "cut at {cut}");

        let folded = fold_proto(&[prefix]);
        let error = folded.pipeline.error();
        // What arrived stays: the prefix's events are the whole stream's first ones.
        assert_eq!(
            events(&folded),
            events(&whole)[..folded.delivered.len()].to_vec()
        );
        let in_run = folded
            .pipeline
            .thread
            .runs
            .last()
            .is_some_and(|r| matches!(r.status, RunStatus::Truncated));
        match error {
            // Inside a run: the run is truncated (connection lost), as over SSE.
            Some(ProtocolError::Truncated { .. }) => assert!(in_run, "cut at {cut}"),
            // Between runs, mid-frame: the body is broken.
            Some(ProtocolError::Proto(ProtoError::EndedMidFrame { offset, buffered })) => {
                assert!(mid_frame, "cut at {cut}");
                assert_eq!(*offset as usize + buffered, cut);
            }
            None => assert!(
                !mid_frame,
                "cut at {cut} ends between runs on a frame boundary"
            ),
            other => panic!("cut at {cut}: {other:?}"),
        }
        if mid_frame {
            assert!(
                error.is_some(),
                "cut at {cut}: a body ending mid-frame is never a success"
            );
        }
    }
}

#[test]
fn an_oversized_length_prefix_fails_before_buffering() {
    // The limit counts the 4-byte prefix: 60 + 4 = 64 fits, 61 + 4 does not.
    let payload = |n: usize| {
        let mut p = len_field(1, &base(0));
        let pad = n - p.len() - 3; // field 99's tag is two bytes, the length one
        p.extend(len_field(99, &vec![b'x'; pad]));
        assert_eq!(p.len(), n);
        p
    };
    let mut f = ProtoFrames::with_max_frame_bytes(64);
    let got = f.push(&framed(&payload(60)));
    assert!(matches!(got.as_slice(), [Ok(frame)] if frame.payload.len() == 60));
    let got = f.push(&framed(&payload(61)));
    assert_eq!(
        got,
        vec![Err(ProtoError::FrameTooLarge {
            offset: 64,
            declared: 61,
            limit: 64
        })]
    );
    // Framing is lost: the rest is ignored, and finishing reports nothing more.
    assert!(f.push(&framed(&payload(10))).is_empty());
    assert_eq!(f.finish(), Ok(()));

    // 4 GiB declared: refused as soon as the prefix is complete, nothing buffered.
    let options = PipelineOptions::default();
    let mut decoder = ProtoDecoder::new(&options);
    let mut pipeline = Pipeline::new(Thread::new(), options);
    assert!(decoder.push_bytes(&mut pipeline, &[0xff, 0xff]).is_empty());
    assert!(pipeline.error().is_none());
    let _ = decoder.push_bytes(&mut pipeline, &[0xff, 0xff]);
    assert_eq!(
        pipeline.error(),
        Some(&ProtocolError::Proto(ProtoError::FrameTooLarge {
            offset: 0,
            declared: u32::MAX,
            limit: MAX_FRAME_BYTES
        }))
    );
    assert!(matches!(pipeline.thread.status(), RunStatus::Failed { .. }));

    // The limit: 10 MiB, or the pipeline's when lower.
    let f = ProtoFrames::new();
    assert_eq!(f.max_frame_bytes(), 10 * 1024 * 1024);
    let just_over = (MAX_FRAME_BYTES as u32 - 3).to_be_bytes();
    assert!(matches!(
        ProtoFrames::new().push(&just_over).as_slice(),
        [Err(ProtoError::FrameTooLarge { .. })]
    ));
    let at_limit = (MAX_FRAME_BYTES as u32 - 4).to_be_bytes();
    assert!(ProtoFrames::new().push(&at_limit).is_empty());
    let small = PipelineOptions {
        max_frame_bytes: 100,
        ..PipelineOptions::default()
    };
    let mut decoder = ProtoDecoder::new(&small);
    let mut pipeline = Pipeline::new(Thread::new(), small);
    let _ = decoder.push_bytes(&mut pipeline, &97u32.to_be_bytes());
    assert!(matches!(
        pipeline.error(),
        Some(ProtocolError::Proto(ProtoError::FrameTooLarge {
            limit: 100,
            ..
        }))
    ));
}

#[test]
fn garbage_fails_the_stream() {
    // Text where a length should be: 0x68656c6c bytes declared.
    let f = fold_proto(&[b"hello, world\n"]);
    assert!(matches!(
        f.pipeline.error(),
        Some(ProtocolError::Proto(ProtoError::FrameTooLarge { .. }))
    ));
    // A frame of bytes that are not an event, after a valid one.
    let mut body =
        bytes("failure.bin")[..frames(&bytes("failure.bin"))[0].payload.len() + 4].to_vec();
    body.extend(framed(&[0x0a, 0x05, 0x01]));
    body.extend(framed(&base(0)));
    let f = fold_proto(&[&body]);
    assert_eq!(
        f.delivered.len(),
        1,
        "the event before the garbage stays delivered"
    );
    match f.pipeline.error() {
        Some(ProtocolError::Proto(ProtoError::Decode { offset, error })) => {
            assert_eq!(*offset as usize, body.len() - 4 - 3 - 4 - base(0).len());
            assert!(matches!(error, DecodeError::Wire { .. }), "{error}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        f.pipeline.thread.status(),
        RunStatus::Failed { .. }
    ));
    // The error reads like one.
    let text = f
        .pipeline
        .error()
        .map(ToString::to_string)
        .unwrap_or_default();
    assert!(
        text.starts_with("undecodable protobuf frame at stream byte"),
        "{text}"
    );
    // An empty frame names no event.
    let mut w = Vec::new();
    assert_eq!(decode_frame(&[], &mut w), Err(DecodeError::NoEvent));
}

// ---- the reference decoder's verdicts -----------------------------------------------------------

/// Where this decoder is deliberately stricter than `@ag-ui/proto` 1.0.0: it refuses a known field
/// sent with another wire type (the reference skips it as if unknown).
const STRICTER: &[&str] = &["wrong-wire-type-inner"];

#[test]
fn hand_made_frames_get_the_reference_decoders_verdict() {
    let edges: Vec<Value> = serde_json::from_slice(&bytes("edge.json")).expect("edge.json");
    assert!(edges.len() >= 30);
    for edge in &edges {
        let name = edge["name"].as_str().expect("name");
        let hex = edge["hex"].as_str().expect("hex");
        let frame: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect();
        let mut warnings = Vec::new();
        let got = decode_frame(&frame, &mut warnings);
        if STRICTER.contains(&name) {
            assert_eq!(edge["verdict"], "event", "{name}");
            assert!(
                matches!(got, Err(DecodeError::WireType { .. })),
                "{name}: {got:?}"
            );
            continue;
        }
        match edge["verdict"].as_str() {
            Some("event") => {
                assert_eq!(got, Ok(Some(edge["decoded"].clone())), "{name}");
                let dropped_part = name == "unknown-content-part";
                assert_eq!(
                    warnings.len(),
                    usize::from(dropped_part),
                    "{name}: {warnings:?}"
                );
            }
            Some("unknown") => {
                assert_eq!(got, Ok(None), "{name}");
                assert!(
                    matches!(
                        warnings.as_slice(),
                        [Warning {
                            kind: WarningKind::UnknownEvent,
                            ..
                        }]
                    ),
                    "{name}: {warnings:?}"
                );
            }
            _ => assert!(got.is_err(), "{name}: {got:?}"),
        }
    }
}

#[test]
fn an_unknown_event_is_dropped_with_a_warning_and_the_stream_goes_on() {
    let body = bytes("snapshots.bin");
    let all = frames(&body);
    let unknown = framed(&len_field(40, &len_field(1, &varint_field(1, 3))));
    let mut spliced = Vec::new();
    for (i, f) in all.iter().enumerate() {
        spliced.extend(framed(&f.payload));
        if i == 1 {
            spliced.extend(&unknown);
        }
    }
    let plain = fold_proto(&[&body]);
    let with = fold_proto(&[&spliced]);
    assert!(with.pipeline.error().is_none());
    assert_eq!(events(&plain), events(&with));
    assert_eq!(
        plain.pipeline.thread.messages,
        with.pipeline.thread.messages
    );
    let unknown_warnings: Vec<&Warning> = with
        .pipeline
        .thread
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::UnknownEvent)
        .collect();
    assert_eq!(unknown_warnings.len(), 1);
    assert_eq!(
        with.pipeline.thread.warnings.len(),
        plain.pipeline.thread.warnings.len() + 1
    );
}

#[test]
fn absent_strings_read_as_the_reference_client_reads_them() {
    // A TEXT_MESSAGE_START without message_id is `"messageId": ""` (what the TypeScript client
    // hands its pipeline), and folds exactly as that JSON does over SSE.
    let mut start = base(0);
    start.extend(varint_field(99, 1)); // an unknown field, skipped
    let events_proto = [
        {
            let mut b = base(11);
            b.extend(len_field(2, b"t"));
            b.extend(len_field(3, b"r"));
            len_field(12, &b)
        },
        len_field(1, &start),
        len_field(3, &base(2)),
        {
            let mut b = base(12);
            b.extend(len_field(2, b"t"));
            b.extend(len_field(3, b"r"));
            len_field(13, &b)
        },
    ];
    let body: Vec<u8> = events_proto.iter().flat_map(|e| framed(e)).collect();
    let json = [
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": ""}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": ""}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ];
    let over_proto = fold_proto(&[&body]);
    assert_same(&fold_sse(&sse(&json)), &over_proto, "absent strings");
    assert_eq!(over_proto.delivered.len(), 4);
    // A required Value left out stays out, and enforcement refuses the event as it refuses
    // `{"type": "STATE_SNAPSHOT"}`.
    let mut w = Vec::new();
    let frame = len_field(7, &base(6));
    assert_eq!(
        decode_frame(&frame, &mut w),
        Ok(Some(json!({"type": "STATE_SNAPSHOT"})))
    );
    let from_proto = decode_event(&frame, &mut w);
    let from_json = enforce_event(json!({"type": "STATE_SNAPSHOT"}), &mut w);
    match (from_proto, from_json) {
        (
            Err(ProtocolError::Malformed(a)),
            Err(agui_leptos::protocol::enforce::EventError::Malformed(b)),
        ) => {
            assert_eq!(a, b)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn numbers_read_as_a_javascript_producers_json_text() {
    // (the double, the text JSON.stringify writes for it)
    let cases: &[(f64, &str)] = &[
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.0, "-1"),
        (1.5, "1.5"),
        (9_007_199_254_740_991.0, "9007199254740991"),
        (9_007_199_254_740_992.0, "9007199254740992"),
        (2f64.powi(60), "1152921504606847000"),
        (-(2f64.powi(62)), "-4611686018427388000"),
        (-(2f64.powi(63)), "-9223372036854776000"),
        (2f64.powi(64), "18446744073709552000"),
        (1e20, "100000000000000000000"),
        (1e21, "1e21"),
        (123_456_789_012.0, "123456789012"),
        (-2.25e-7, "-2.25e-7"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e300, "1e300"),
        (f64::NAN, "null"),
        (f64::INFINITY, "null"),
        (f64::NEG_INFINITY, "null"),
    ];
    for &(f, js) in cases {
        let mut value = Vec::new();
        tag(2, 1, &mut value);
        value.extend(f.to_bits().to_le_bytes());
        let mut w = Vec::new();
        let event = decode_frame(&raw_event(&value), &mut w)
            .expect("decodes")
            .expect("known");
        let expected: Value = serde_json::from_str(js).expect("json");
        assert_eq!(event["event"], expected, "{f:e} as {js}");
    }
}

#[test]
fn int64_outside_the_safe_range_is_refused_like_its_json() {
    // timestamp 2^53: enforcement refuses it on both paths (the reference decoder throws).
    let mut b = len_field(1, &[varint_field(1, 11), varint_field(2, 1 << 53)].concat());
    b.extend(len_field(2, b"t"));
    b.extend(len_field(3, b"r"));
    let frame = len_field(12, &b);
    let mut w = Vec::new();
    let from_proto = decode_event(&frame, &mut w);
    let from_json = enforce_event(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 9007199254740992u64}),
        &mut w,
    );
    assert!(
        matches!(from_proto, Err(ProtocolError::Malformed(_))),
        "{from_proto:?}"
    );
    assert!(from_json.is_err());
    // A negative int64 is two's complement: -1 is ten bytes on the wire, and in range.
    let mut b = len_field(
        1,
        &[varint_field(1, 11), varint_field(2, u64::MAX)].concat(),
    );
    b.extend(len_field(2, b"t"));
    b.extend(len_field(3, b"r"));
    let event = decode_event(&len_field(12, &b), &mut w)
        .expect("ok")
        .expect("kept");
    assert_eq!(event.timestamp, Some(-1));
}

// ---- budgets ----------------------------------------------------------------------------------

#[test]
fn a_depth_bomb_is_an_error_not_a_stack_overflow() {
    for depth in [MAX_DEPTH + 1, 10_000, 1_000_000] {
        let frame = raw_event(&nested_lists(depth));
        let mut w = Vec::new();
        assert_eq!(
            decode_frame(&frame, &mut w),
            Err(DecodeError::TooDeep { limit: MAX_DEPTH }),
            "depth {depth}"
        );
        // Through the stream too: the run fails.
        let f = fold_proto(&[&framed(&frame)]);
        assert!(matches!(
            f.pipeline.error(),
            Some(ProtocolError::Proto(ProtoError::Decode {
                error: DecodeError::TooDeep { .. },
                ..
            }))
        ));
    }
    // Structs nest the same way (Value → Struct → entry → Value).
    let mut v = Vec::new();
    for _ in 0..1000 {
        let entry = [len_field(1, b"k"), len_field(2, &v)].concat();
        v = len_field(5, &len_field(1, &entry));
    }
    let mut w = Vec::new();
    assert!(matches!(
        decode_frame(&raw_event(&v), &mut w),
        Err(DecodeError::TooDeep { .. })
    ));
}

#[test]
fn the_depth_limit_is_the_json_paths() {
    // `{"type":"RAW","event":[[…]]}` with `n` nested lists: the SSE path's parser accepts it
    // exactly when this decoder does.
    for n in 100..=MAX_DEPTH + 3 {
        let text = format!(
            "{{\"type\":\"RAW\",\"event\":{}{}}}",
            "[".repeat(n),
            "]".repeat(n)
        );
        let json_ok = serde_json::from_str::<Value>(&text).is_ok();
        let mut w = Vec::new();
        let proto = decode_frame(&raw_event(&nested_lists(n)), &mut w);
        assert_eq!(proto.is_ok(), json_ok, "{n} levels: {proto:?}");
        if let Ok(Some(v)) = proto {
            assert_eq!(v, serde_json::from_str::<Value>(&text).expect("json"));
        }
    }
    // Inside a message of a snapshot the levels above count too: message metadata (a Struct)
    // sits at depth 4 (event, messages, message, metadata).
    let mut inner = nested_lists(MAX_DEPTH - 4);
    let entry = [len_field(1, b"k"), len_field(2, &inner)].concat();
    let message = [
        len_field(1, b"m"),
        len_field(2, b"user"),
        len_field(9, &len_field(1, &entry)),
    ]
    .concat();
    let frame = len_field(9, &[base(8), len_field(2, &message)].concat());
    let mut w = Vec::new();
    assert!(decode_frame(&frame, &mut w).is_ok());
    inner = nested_lists(MAX_DEPTH - 3);
    let entry = [len_field(1, b"k"), len_field(2, &inner)].concat();
    let message = [
        len_field(1, b"m"),
        len_field(2, b"user"),
        len_field(9, &len_field(1, &entry)),
    ]
    .concat();
    let frame = len_field(9, &[base(8), len_field(2, &message)].concat());
    assert_eq!(
        decode_frame(&frame, &mut w),
        Err(DecodeError::TooDeep { limit: MAX_DEPTH })
    );
}

#[test]
fn groups_are_skipped_within_the_depth_budget() {
    // An unknown field as a group nested past the budget: refused, iteratively.
    let mut event = base(0);
    for _ in 0..(MAX_DEPTH + 1) {
        tag(77, 3, &mut event);
    }
    for _ in 0..(MAX_DEPTH + 1) {
        tag(77, 4, &mut event);
    }
    let mut w = Vec::new();
    assert!(matches!(
        decode_frame(&len_field(1, &event), &mut w),
        Err(DecodeError::Wire { .. })
    ));
    // Mismatched end.
    let mut event = base(0);
    tag(77, 3, &mut event);
    tag(78, 4, &mut event);
    assert!(decode_frame(&len_field(1, &event), &mut w).is_err());
}

// ---- hostile bytes ----------------------------------------------------------------------------

#[test]
fn random_mutations_never_panic() {
    let scale: f64 = std::env::var("FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 1.0 } else { 10.0 });
    let cases = (1500.0 * scale) as usize;
    let bodies: Vec<Vec<u8>> = STREAMS.iter().map(|s| bytes(&format!("{s}.bin"))).collect();
    let mut rng = Rng(0x5eed_0fba_5e00);
    for case in 0..cases {
        let mut body = rng.pick(&bodies);
        for _ in 0..rng.range(1, 6) {
            mutate(&mut rng, &mut body);
        }
        // One push, and a random chunking: the same outcome.
        let whole = fold_proto(&[&body]);
        let mut chunks = Vec::new();
        let mut rest: &[u8] = &body;
        while !rest.is_empty() {
            let (c, t) = rest.split_at(rng.range(1, 97).min(rest.len()));
            chunks.push(c);
            rest = t;
        }
        let chunked = fold_proto(&chunks);
        assert_same(&whole, &chunked, &format!("case {case}"));
        // Never a success after a failure.
        if whole.pipeline.error().is_some() {
            assert!(
                !matches!(whole.pipeline.thread.status(), RunStatus::Success { .. }),
                "case {case}"
            );
        }
        // Frame by frame, too.
        let mut f = ProtoFrames::new();
        for frame in f.push(&body).into_iter().flatten() {
            let mut w = Vec::new();
            let _ = decode_event(&frame.payload, &mut w);
        }
        let _ = f.finish();
    }
}

fn mutate(rng: &mut Rng, body: &mut Vec<u8>) {
    if body.is_empty() {
        body.push(rng.next() as u8);
        return;
    }
    let i = rng.below(body.len());
    match rng.below(7) {
        0 => body[i] ^= 1 << rng.below(8),
        1 => body[i] = rng.next() as u8,
        2 => {
            body.remove(i);
        }
        3 => body.insert(i, rng.pick(&[0x00, 0x08, 0x0a, 0x12, 0x80, 0xff, 0x7f])),
        4 => body.truncate(i),
        5 => {
            // Duplicate a range (repeated fields and frames).
            let j = rng.range(i, body.len().min(i + 64));
            let copy = body[i..j].to_vec();
            body.splice(i..i, copy);
        }
        _ => {
            // A varint made huge (lengths, tags).
            body.splice(i..i, [0xff, 0xff, 0xff, 0xff, 0x0f]);
        }
    }
}

// ---- detection --------------------------------------------------------------------------------

#[test]
fn the_content_type_must_match_exactly() {
    assert_eq!(CONTENT_TYPE, "application/vnd.ag-ui.event+proto");
    assert!(is_proto_response(Some("application/vnd.ag-ui.event+proto")));
    assert!(is_proto_response(Some(
        " application/vnd.ag-ui.event+proto\t"
    )));
    for other in [
        None,
        Some(""),
        Some("text/event-stream"),
        Some("application/json"),
        Some("application/vnd.ag-ui.event+proto; charset=binary"),
        Some("Application/Vnd.AG-UI.Event+Proto"),
        Some("application/vnd.ag-ui.event+protobuf"),
        Some("application/x-protobuf"),
    ] {
        assert!(!is_proto_response(other), "{other:?}");
    }
    assert!(ACCEPT.starts_with("text/event-stream"));
    assert!(ACCEPT.contains(CONTENT_TYPE));
}

#[test]
fn a_frame_decodes_to_no_more_json_than_its_budget() {
    // Two bytes per message, four defaulted members each: 400,000 of them are 800 kB of
    // protobuf and over 20 MB of JSON as decoded (`{"id":"","role":"","toolCalls":[],…}`).
    let mut body = base(8);
    for _ in 0..400_000 {
        body.extend(len_field(2, &[]));
    }
    let frame = len_field(9, &body);
    assert!(frame.len() < 900_000);
    let mut w = Vec::new();
    let got = decode_frame(&frame, &mut w);
    assert!(
        matches!(got, Err(DecodeError::TooLarge { limit }) if limit == agui_leptos::protocol::sse::DEFAULT_MAX_FRAME_BYTES),
        "{:?}",
        got.map(|v| v.map(|v| v.to_string().len()))
    );
    // The budget is about the event's JSON size: every fixture event fits a budget a little
    // above its JSON length and none fits half of it.
    for stream in STREAMS {
        for (i, frame) in frames(&bytes(&format!("{stream}.bin"))).iter().enumerate() {
            let json = decode_frame(&frame.payload, &mut w)
                .expect("decodes")
                .expect("known")
                .to_string();
            let n = json.len();
            assert!(
                decode_frame_within(&frame.payload, n + n / 4 + 64, &mut w).is_ok(),
                "{stream} {i}: {n} bytes of JSON"
            );
            assert_eq!(
                decode_frame_within(&frame.payload, n / 2, &mut w),
                Err(DecodeError::TooLarge { limit: n / 2 }),
                "{stream} {i}"
            );
        }
    }
    // Through the stream: the pipeline's SSE frame limit is the budget.
    let options = PipelineOptions {
        max_frame_bytes: 1000,
        ..PipelineOptions::default()
    };
    let mut decoder = ProtoDecoder::new(&options);
    let mut pipeline = Pipeline::new(Thread::new(), options);
    let mut small = base(8);
    for _ in 0..100 {
        small.extend(len_field(2, &[]));
    }
    let _ = decoder.push_bytes(&mut pipeline, &framed(&len_field(9, &small)));
    assert!(matches!(
        pipeline.error(),
        Some(ProtocolError::Proto(ProtoError::Decode {
            error: DecodeError::TooLarge { limit: 1000 },
            ..
        }))
    ));
}

// ---- through a session (transport="protobuf") ---------------------------------------------------

#[test]
fn a_session_admits_protobuf_only_when_asked_and_reads_a_proto_response() {
    use agui_leptos::session::{AgentConfig, Route, Session, TestEnv};
    let config = |protobuf| AgentConfig {
        endpoint: Some("/agent".into()),
        protobuf,
        ..AgentConfig::default()
    };
    let accept = |s: &mut Session| {
        let req = s.send("Hi").expect("a request");
        let Route::Http { accept, .. } = req.route else {
            panic!("http")
        };
        (req.generation, accept)
    };
    let mut plain = Session::new(config(false), std::rc::Rc::new(TestEnv::default()));
    assert_eq!(accept(&mut plain).1, "text/event-stream");

    let mut s = Session::new(config(true), std::rc::Rc::new(TestEnv::default()));
    let (generation, accept) = accept(&mut s);
    assert_eq!(
        accept,
        "text/event-stream, application/vnd.ag-ui.event+proto"
    );
    // The shell hands the decoder over (the lean widget fetches it as a module of its own).
    s.open_response_with(generation, Box::new(ProtoDecoder::default()));
    let body = bytes("run.bin");
    for piece in body.chunks(7) {
        s.push(generation, piece);
    }
    s.end_run(generation, Ok(()));
    // The same stream over SSE gives the same messages.
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(&sse(&lines("run.jsonl")));
    p.finish();
    let texts = |m: &[agui_leptos::protocol::Message]| {
        m.iter()
            .filter(|m| m.role != agui_leptos::protocol::Role::User)
            .map(|m| (m.id.clone(), m.text().to_string()))
            .collect::<Vec<_>>()
    };
    assert!(!texts(&p.thread.messages).is_empty());
    assert_eq!(texts(&s.thread().messages), texts(&p.thread.messages));
}

// A protobuf response whose decoder (the lean widget's `proto` module) could not be loaded:
// the run fails with that reason, worded as a part that could not be loaded, and Retry sends
// the request again.
#[test]
fn a_response_whose_decoder_could_not_be_loaded_fails_the_run_and_retry_sends_again() {
    use agui_leptos::i18n::EN;
    use agui_leptos::session::{AgentConfig, RunFailure, Session, TestEnv, TransportError};
    use agui_leptos::wording::run_failure;
    let config = AgentConfig {
        endpoint: Some("/agent".into()),
        protobuf: true,
        ..AgentConfig::default()
    };
    let mut s = Session::new(config, std::rc::Rc::new(TestEnv::default()));
    let first = s.send("Hi").expect("a request");
    s.end_run(first.generation, Err(TransportError::DecoderUnavailable));
    let failure = s.run_view().error.expect("the run failed");
    assert_eq!(
        failure,
        RunFailure::Transport(TransportError::DecoderUnavailable)
    );
    assert_eq!(run_failure(&EN, &failure), EN.lazy_failed);
    let again = s.retry().expect("Retry sends the request again");
    assert_ne!(again.run_id, first.run_id);
    assert_eq!(again.body["messages"], first.body["messages"]);
}
