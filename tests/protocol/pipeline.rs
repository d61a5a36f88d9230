//! The whole inbound pipeline from bytes (spec digest §1.1, §4.1–4.3, §7.6): truncation, typed
//! errors with context, what survives a failure, unrecognised material, retired shapes, Stop,
//! per-event cost, plus the outgoing side (`input`: resume coverage, request preparation).

use agui_leptos::protocol::chunks::ChunkError;
use agui_leptos::protocol::input::{check_resume_coverage, prepare_request};
use agui_leptos::protocol::resume::ResumeError;
use agui_leptos::protocol::sse::SseError;
use agui_leptos::protocol::types::{Content, Message, ResumeEntry, ResumeStatus, Role};
use agui_leptos::protocol::verify::VerifyError;
use agui_leptos::protocol::{
    Change, Delivered, Pipeline, PipelineOptions, ProtocolError, RunAgentInput, RunStatus, Thread,
};
use serde_json::{json, Value};

// ---- helpers --------------------------------------------------------------------------------

fn frame(ev: &Value) -> Vec<u8> {
    format!("data: {}\n\n", serde_json::to_string(ev).expect("json")).into_bytes()
}

fn sse(events: &[Value]) -> Vec<u8> {
    events.iter().flat_map(frame).collect()
}

fn pipeline() -> Pipeline {
    Pipeline::new(Thread::new(), PipelineOptions::default())
}

fn feed_bytes(bytes: &[u8]) -> (Pipeline, Vec<Delivered>) {
    let mut p = pipeline();
    let mut out = p.push_bytes(bytes);
    out.extend(p.finish());
    (p, out)
}

fn feed(events: &[Value]) -> (Pipeline, Vec<Delivered>) {
    feed_bytes(&sse(events))
}

fn started(run: &str) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": run})
}

fn finished(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run})
}

fn text(id: &str, delta: &str) -> [Value; 3] {
    [
        json!({"type": "TEXT_MESSAGE_START", "messageId": id}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": delta}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": id}),
    ]
}

fn content_of(p: &Pipeline, id: &str) -> String {
    p.thread
        .message(id)
        .map(|m| m.text().into_owned())
        .unwrap_or_else(|| panic!("no message {id}"))
}

fn types(delivered: &[Delivered]) -> Vec<&'static str> {
    delivered.iter().map(|d| d.event.type_name()).collect()
}

fn warnings(p: &Pipeline) -> Vec<String> {
    p.thread.warnings.iter().map(|w| w.to_string()).collect()
}

fn is_failed(status: &RunStatus) -> bool {
    matches!(status, RunStatus::Failed { .. })
}

// ---- truncation ------------------------------------------------------------------------------

#[test]
fn stream_ending_inside_a_run_is_truncated_and_keeps_what_arrived() {
    let mut events = vec![started("r1")];
    events.extend(text("m1", "Hello there"));
    let (p, delivered) = feed(&events);
    assert_eq!(
        p.error(),
        Some(&ProtocolError::Truncated {
            run_id: "r1".into()
        })
    );
    assert_eq!(p.thread.status(), RunStatus::Truncated);
    assert_eq!(content_of(&p, "m1"), "Hello there");
    assert_eq!(delivered.len(), 4, "every event was still delivered");
    assert!(!p.run_active());
}

#[test]
fn stream_ending_after_run_finished_is_a_success() {
    let mut events = vec![started("r1")];
    events.extend(text("m1", "Hello"));
    events.push(finished("r1"));
    let (p, _) = feed(&events);
    assert_eq!(p.error(), None);
    assert_eq!(p.thread.status(), RunStatus::Success { pending: vec![] });
}

#[test]
fn stream_ending_with_an_open_chunk_message_is_truncated_and_keeps_its_content() {
    let (p, delivered) = feed(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Partial "}),
        json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "answer"}),
    ]);
    assert!(
        matches!(p.error(), Some(ProtocolError::Truncated { run_id }) if run_id == "r1"),
        "{:?}",
        p.error()
    );
    assert_eq!(p.thread.status(), RunStatus::Truncated);
    assert_eq!(content_of(&p, "m1"), "Partial answer");
    // No END is synthesised at end of stream (the reference discards pending ENDs).
    assert_eq!(
        types(&delivered),
        [
            "RUN_STARTED",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_CONTENT"
        ]
    );
}

#[test]
fn an_empty_body_is_not_a_truncated_run() {
    let (p, delivered) = feed_bytes(b"");
    assert_eq!(p.error(), None);
    assert!(delivered.is_empty());
    assert_eq!(p.thread.status(), RunStatus::Idle);
}

// ---- lone UTF-16 surrogates (§7.6) -----------------------------------------------------------

fn raw_frame(json_text: &str) -> Vec<u8> {
    format!("data: {json_text}\n\n").into_bytes()
}

fn with_raw_deltas(raw_deltas: &[&str]) -> Vec<u8> {
    let mut body = sse(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1"}),
    ]);
    for d in raw_deltas {
        body.extend(raw_frame(&format!(
            r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"{d}"}}"#
        )));
    }
    body.extend(sse(&[
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        finished("r1"),
    ]));
    body
}

#[test]
fn a_lone_surrogate_escape_becomes_a_replacement_character_with_a_warning() {
    let (p, _) = feed_bytes(&with_raw_deltas(&[r"a\ud83d", r"b"]));
    assert_eq!(p.error(), None);
    assert_eq!(p.thread.status(), RunStatus::Success { pending: vec![] });
    assert_eq!(content_of(&p, "m1"), "a\u{FFFD}b");
    let w = warnings(&p);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("surrogate"), "{w:?}");
}

#[test]
fn a_surrogate_pair_split_across_two_deltas_does_not_fail_the_run() {
    let (p, _) = feed_bytes(&with_raw_deltas(&[r"\ud83d", r"\ude00"]));
    assert_eq!(p.error(), None);
    assert_eq!(p.thread.status(), RunStatus::Success { pending: vec![] });
    let content = content_of(&p, "m1");
    assert!(content.contains('\u{FFFD}'), "{content:?}");
    assert_eq!(content, "\u{FFFD}\u{FFFD}");
    assert_eq!(warnings(&p).len(), 2);
}

#[test]
fn a_valid_escaped_surrogate_pair_stays_one_character_without_warnings() {
    let (p, _) = feed_bytes(&with_raw_deltas(&[r"hi \ud83d\ude00", r"\\ud83d"]));
    assert_eq!(p.error(), None);
    // The second delta is an escaped backslash followed by text, not an escape.
    assert_eq!(content_of(&p, "m1"), "hi 😀\\ud83d");
    assert!(p.thread.warnings.is_empty(), "{:?}", warnings(&p));
}

// ---- typed errors ----------------------------------------------------------------------------

#[test]
fn a_malformed_known_field_is_a_typed_error_with_event_type_and_path() {
    let (p, delivered) = feed(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": 42}),
    ]);
    let Some(ProtocolError::Malformed(m)) = p.error() else {
        panic!("expected Malformed, got {:?}", p.error());
    };
    assert_eq!(m.event_type, "TEXT_MESSAGE_CONTENT");
    assert_eq!(m.path, "/delta");
    assert!(m.problem.contains("string"), "{m}");
    assert_eq!(types(&delivered), ["RUN_STARTED", "TEXT_MESSAGE_START"]);
}

#[test]
fn content_without_start_is_a_verify_error_naming_the_id() {
    let (p, _) = feed(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "ghost", "delta": "x"}),
    ]);
    match p.error() {
        Some(ProtocolError::Verify(VerifyError::NotOpen { event_type, id, .. })) => {
            assert_eq!(*event_type, "TEXT_MESSAGE_CONTENT");
            assert_eq!(id, "ghost");
        }
        other => panic!("expected Verify(NotOpen), got {other:?}"),
    }
    assert!(p.error().is_some_and(|e| e.to_string().contains("ghost")));
}

#[test]
fn a_first_chunk_without_its_id_is_a_chunk_error() {
    let (p, _) = feed(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "orphan"}),
    ]);
    assert_eq!(
        p.error(),
        Some(&ProtocolError::Chunk(ChunkError::MissingOpenerField {
            event_type: "TEXT_MESSAGE_CHUNK",
            field: "messageId"
        }))
    );
    assert!(is_failed(&p.thread.status()), "{:?}", p.thread.status());
}

#[test]
fn after_a_failure_later_bytes_are_ignored_and_earlier_deliveries_stay() {
    let mut p = pipeline();
    let mut events = vec![started("r1")];
    events.extend(text("m1", "kept"));
    let first = p.push_bytes(&sse(&events));
    assert_eq!(first.len(), 4);
    let bad = p.push_bytes(&sse(&[
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": " after end"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m2"}),
    ]));
    assert!(bad.is_empty(), "{:?}", types(&bad));
    assert!(matches!(
        p.error(),
        Some(ProtocolError::Verify(VerifyError::NotOpen { .. }))
    ));
    let error_before = p.error().cloned();
    let later = p.push_bytes(&sse(&[
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m3"}),
        finished("r1"),
    ]));
    assert!(later.is_empty());
    assert!(p.finish().is_empty());
    assert_eq!(p.error().cloned(), error_before, "the first error is kept");
    assert_eq!(content_of(&p, "m1"), "kept");
    assert_eq!(p.thread.messages.len(), 1);
    assert!(is_failed(&p.thread.status()), "{:?}", p.thread.status());
    assert!(!p.run_active());
}

#[test]
fn a_violation_after_run_finished_fails_the_run_instead_of_leaving_it_successful() {
    // Regression: a stream rejected after RUN_FINISHED kept its run marked as a success (the
    // client must never report a rejected stream as success).
    let mut events = vec![started("r1")];
    events.extend(text("m1", "done"));
    events.push(finished("r1"));
    events.push(json!({"type": "TEXT_MESSAGE_START", "messageId": "m2"}));
    let (p, _) = feed(&events);
    assert!(
        matches!(
            p.error(),
            Some(ProtocolError::Verify(VerifyError::AfterRunFinished { .. }))
        ),
        "{:?}",
        p.error()
    );
    let RunStatus::Failed { error } = p.thread.status() else {
        panic!("expected Failed, got {:?}", p.thread.status());
    };
    assert!(error.contains("TEXT_MESSAGE_START"), "{error}");
    assert_eq!(content_of(&p, "m1"), "done");
}

#[test]
fn invalid_json_in_a_frame_is_an_invalid_json_error() {
    let mut body = sse(&[started("r1")]);
    body.extend_from_slice(b"data: {\"type\": \"TEXT_MESSAGE_START\", \n\n");
    let (p, delivered) = feed_bytes(&body);
    assert!(
        matches!(p.error(), Some(ProtocolError::InvalidJson { .. })),
        "{:?}",
        p.error()
    );
    assert_eq!(types(&delivered), ["RUN_STARTED"]);
    assert!(is_failed(&p.thread.status()));
}

#[test]
fn invalid_json_error_does_not_depend_on_how_the_bytes_were_chunked() {
    // Regression: the reported offset was "bytes pushed so far", so the same stream gave a
    // different error depending on the network's chunking.
    let mut body = sse(&[started("r1")]);
    body.extend_from_slice(b"data: {\"type\": nope}\n\n");
    body.extend(sse(&text("m1", "never")));
    let (whole, _) = feed_bytes(&body);
    let expected = whole.error().cloned();
    assert!(
        matches!(expected, Some(ProtocolError::InvalidJson { offset, .. }) if offset > 0),
        "{expected:?}"
    );
    for size in [1, 2, 7, 50] {
        let mut p = pipeline();
        for chunk in body.chunks(size) {
            p.push_bytes(chunk);
        }
        p.finish();
        assert_eq!(p.error().cloned(), expected, "chunk size {size}");
    }
}

#[test]
fn a_frame_larger_than_the_limit_is_a_transport_error() {
    let options = PipelineOptions {
        max_frame_bytes: 256,
        ..PipelineOptions::default()
    };
    let mut p = Pipeline::new(Thread::new(), options);
    let mut body = sse(&[started("r1")]);
    body.extend(frame(
        &json!({"type": "TEXT_MESSAGE_START", "messageId": "x".repeat(400)}),
    ));
    let delivered = p.push_bytes(&body);
    p.finish();
    assert!(
        matches!(
            p.error(),
            Some(ProtocolError::Sse(SseError::FrameTooLarge {
                limit: 256,
                ..
            }))
        ),
        "{:?}",
        p.error()
    );
    assert_eq!(types(&delivered), ["RUN_STARTED"]);
}

#[test]
fn a_frame_that_is_not_an_event_object_is_rejected() {
    let mut body = sse(&[started("r1")]);
    body.extend_from_slice(b"data: [1,2]\n\n");
    let (p, _) = feed_bytes(&body);
    assert!(
        matches!(p.error(), Some(ProtocolError::NotAnEvent(_))),
        "{:?}",
        p.error()
    );
}

// ---- unrecognised material and retired shapes ------------------------------------------------

#[test]
fn an_unknown_event_type_is_dropped_with_a_warning_naming_it() {
    let (p, delivered) = feed(&[
        started("r1"),
        json!({"type": "META", "metaType": "x", "payload": {}}),
        finished("r1"),
    ]);
    assert_eq!(p.error(), None);
    assert_eq!(types(&delivered), ["RUN_STARTED", "RUN_FINISHED"]);
    let w = warnings(&p);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("META"), "{w:?}");
}

#[test]
fn an_unknown_property_is_stripped_with_a_warning_and_never_delivered() {
    let (p, delivered) = feed(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "futureProp": {"a": 1}}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        finished("r1"),
    ]);
    assert_eq!(p.error(), None);
    let start = delivered
        .iter()
        .find(|d| d.event.type_name() == "TEXT_MESSAGE_START")
        .expect("start delivered");
    assert_eq!(
        start.event.to_json(),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1"})
    );
    assert_eq!(p.thread.warnings.len(), 1);
    assert_eq!(p.thread.warnings[0].path.as_deref(), Some("/futureProp"));
    assert_eq!(
        p.thread.warnings[0].event_type.as_deref(),
        Some("TEXT_MESSAGE_START")
    );
}

#[test]
fn retired_thinking_events_become_a_reasoning_message() {
    let (p, delivered) = feed(&[
        started("r1"),
        json!({"type": "THINKING_START", "title": "Plan"}),
        json!({"type": "THINKING_TEXT_MESSAGE_START"}),
        json!({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "Let me "}),
        json!({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "think."}),
        json!({"type": "THINKING_TEXT_MESSAGE_END"}),
        json!({"type": "THINKING_END"}),
        finished("r1"),
    ]);
    assert_eq!(p.error(), None);
    assert_eq!(
        types(&delivered),
        [
            "RUN_STARTED",
            "REASONING_START",
            "REASONING_MESSAGE_START",
            "REASONING_MESSAGE_CONTENT",
            "REASONING_MESSAGE_CONTENT",
            "REASONING_MESSAGE_END",
            "REASONING_END",
            "RUN_FINISHED"
        ]
    );
    assert_eq!(p.thread.messages.len(), 1);
    let m = &p.thread.messages[0];
    assert_eq!(m.role, Role::Reasoning);
    assert_eq!(m.content, Some(Content::Text("Let me think.".into())));
    assert!(warnings(&p).iter().any(|w| w.contains("/title")));
}

// ---- Stop ------------------------------------------------------------------------------------

#[test]
fn abort_mid_run_cancels_keeps_content_and_ignores_later_bytes() {
    let mut p = pipeline();
    p.push_bytes(&sse(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Half an"}),
    ]));
    assert!(p.run_active());
    p.abort();
    assert_eq!(p.thread.status(), RunStatus::Cancelled);
    assert_eq!(p.error(), Some(&ProtocolError::Stopped));
    let later = p.push_bytes(&sse(&[
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": " answer"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        finished("r1"),
    ]));
    assert!(later.is_empty());
    assert!(p.finish().is_empty());
    assert_eq!(
        p.thread.status(),
        RunStatus::Cancelled,
        "not truncated, not failed"
    );
    assert_eq!(content_of(&p, "m1"), "Half an");
    assert!(!p.run_active());
}

// ---- per-event cost --------------------------------------------------------------------------

#[test]
fn text_deltas_change_one_message_in_place_whatever_the_history() {
    let history: Vec<Message> = (0..2000)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(format!("u{i}"), format!("question {i}"))
            } else {
                let mut m = Message::new(format!("a{i}"), Role::Assistant);
                m.content = Some(Content::Text(format!("answer {i}")));
                m
            }
        })
        .collect();
    let mut p = Pipeline::new(
        Thread::with_history(history, json!({})),
        PipelineOptions::default(),
    );
    let before = p.thread.messages.len();
    let mut delivered = p.push_bytes(&sse(&[
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "new"}),
    ]));
    let mut body = Vec::new();
    for i in 0..5000 {
        body.extend(frame(
            &json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "new",
                                  "delta": format!("{} ", i % 10)}),
        ));
    }
    delivered.extend(p.push_bytes(&body));
    delivered.extend(p.push_bytes(&sse(&[
        json!({"type": "TEXT_MESSAGE_END", "messageId": "new"}),
        finished("r1"),
    ])));
    delivered.extend(p.finish());
    assert_eq!(p.error(), None);
    assert_eq!(p.thread.messages.len(), before + 1);
    let contents: Vec<&Change> = delivered
        .iter()
        .filter(|d| d.event.type_name() == "TEXT_MESSAGE_CONTENT")
        .map(|d| &d.change)
        .collect();
    assert_eq!(contents.len(), 5000);
    assert!(
        contents.iter().all(|c| **c == Change::Message(before)),
        "a delta needed more than an in-place update: {:?}",
        contents.iter().find(|c| ***c != Change::Message(before))
    );
    let start = delivered
        .iter()
        .find(|d| d.event.type_name() == "TEXT_MESSAGE_START")
        .map(|d| &d.change);
    assert_eq!(start, Some(&Change::Appended(before)));
    assert!(delivered.iter().all(|d| d.change != Change::Messages));
    assert_eq!(content_of(&p, "new").len(), 10_000);
}

// ---- outgoing: resume coverage and the request body ------------------------------------------

fn entry(id: &str, status: ResumeStatus) -> ResumeEntry {
    ResumeEntry {
        interrupt_id: id.into(),
        status,
        payload: match status {
            ResumeStatus::Resolved => Some(json!({"approved": true})),
            ResumeStatus::Cancelled => None,
        },
        metadata: None,
    }
}

#[test]
fn resume_coverage_requires_exactly_one_entry_per_open_interrupt() {
    let open = vec!["i1".to_owned(), "i2".to_owned()];
    assert_eq!(
        check_resume_coverage(&open, &[entry("i1", ResumeStatus::Resolved)]),
        Err(ResumeError::Missing("i2".into()))
    );
    assert_eq!(
        check_resume_coverage(
            &open,
            &[
                entry("i1", ResumeStatus::Resolved),
                entry("i2", ResumeStatus::Cancelled),
                entry("i9", ResumeStatus::Resolved)
            ]
        ),
        Err(ResumeError::Unknown("i9".into()))
    );
    assert_eq!(
        check_resume_coverage(
            &open,
            &[
                entry("i1", ResumeStatus::Resolved),
                entry("i1", ResumeStatus::Cancelled),
                entry("i2", ResumeStatus::Resolved)
            ]
        ),
        Err(ResumeError::Duplicate("i1".into()))
    );
    assert_eq!(
        check_resume_coverage(
            &open,
            &[
                entry("i2", ResumeStatus::Cancelled),
                entry("i1", ResumeStatus::Resolved)
            ]
        ),
        Ok(())
    );
    assert_eq!(check_resume_coverage(&[], &[]), Ok(()));
}

fn input(messages: Vec<Message>) -> RunAgentInput {
    RunAgentInput {
        thread_id: "t1".into(),
        run_id: "r2".into(),
        protocol_version: None,
        parent_run_id: None,
        state: None,
        messages,
        tools: None,
        context: None,
        forwarded_props: None,
        resume: None,
    }
}

#[test]
fn prepared_request_strips_activity_declares_the_version_and_fills_defaults() {
    let mut user = Message::user("u1", "hi");
    user.metadata = serde_json::from_value(json!({
        "client": {"draft": true, "nested": {"x": [1, 2]}},
        "anything": null
    }))
    .expect("metadata");
    let mut act = Message::new("act1", Role::Activity);
    act.activity_type = Some("PLAN".into());
    act.content = Some(Content::Object(serde_json::Map::new()));
    let (body, warnings) = prepare_request(&input(vec![user, act]), None).expect("request");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        body,
        json!({
            "threadId": "t1",
            "runId": "r2",
            "protocolVersion": "1.1",
            "state": {},
            "messages": [{"id": "u1", "role": "user", "content": "hi", "metadata": {
                "client": {"draft": true, "nested": {"x": [1, 2]}},
                "anything": null
            }}],
            "tools": [],
            "context": [],
            "forwardedProps": {}
        })
    );
}

#[test]
fn prepared_request_keeps_given_state_and_props() {
    let mut i = input(vec![Message::user("u1", "hi")]);
    i.state = Some(json!({"count": 3}));
    i.forwarded_props = Some(json!({"command": {"resume": "yes"}}));
    let (body, _) = prepare_request(&i, None).expect("request");
    assert_eq!(body["state"], json!({"count": 3}));
    assert_eq!(
        body["forwardedProps"],
        json!({"command": {"resume": "yes"}})
    );
    assert_eq!(body["tools"], json!([]));
    assert_eq!(body["context"], json!([]));
}

#[test]
fn a_failure_before_any_run_of_this_stream_leaves_earlier_runs_alone() {
    // Regression: a stream refused before its RUN_STARTED left the thread reporting the previous
    // request's success.
    let mut events = vec![started("r1")];
    events.extend(text("m1", "first answer"));
    events.push(finished("r1"));
    let (mut p, _) = feed(&events);
    assert_eq!(p.thread.status(), RunStatus::Success { pending: vec![] });
    // The next request's response is refused before its RUN_STARTED.
    let mut p2 = Pipeline::new(std::mem::take(&mut p.thread), PipelineOptions::default());
    p2.push_bytes(&sse(&[
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m2"}),
    ]));
    p2.finish();
    assert!(matches!(
        p2.error(),
        Some(ProtocolError::Verify(VerifyError::FirstEvent { .. }))
    ));
    assert_eq!(p2.thread.runs.len(), 2);
    assert_eq!(
        p2.thread.runs[0].status,
        RunStatus::Success { pending: vec![] },
        "the earlier request's run is not this stream's failure"
    );
    assert!(is_failed(&p2.thread.status()));
}

#[test]
fn invalid_json_in_the_last_unterminated_frame_reports_the_end_of_the_body() {
    // Regression: a frame decoded by `finish` (no trailing blank line) reported offset 0,
    // because the SSE decoder resets its byte count when it finishes.
    let mut body = sse(&[started("r1")]);
    body.extend_from_slice(b"data: {\"type\":");
    let (p, _) = feed_bytes(&body);
    assert!(
        matches!(p.error(), Some(ProtocolError::InvalidJson { offset, .. })
                 if *offset == body.len() as u64),
        "{:?} (body is {} bytes)",
        p.error(),
        body.len()
    );
}
