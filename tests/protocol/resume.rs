//! Human-in-the-loop at the protocol level: resume coverage (an incomplete resume cannot be
//! built), expiry, the legacy resume channel, pending frontend tool calls (trusted, derived,
//! answered, cancelled) and a thread that survives a reload with its open interrupt.

use agui_leptos::protocol::resume::{is_expired, parse_iso8601_ms, ResumeBuilder, ResumeError};
use agui_leptos::protocol::types::{Content, Interrupt, ResumeStatus, Role};
use agui_leptos::protocol::{Pipeline, PipelineOptions, RunStatus, Thread};
use serde_json::{json, Value};

fn interrupt(id: &str, expires_at: Option<&str>) -> Interrupt {
    serde_json::from_value(json!({"id": id, "reason": "input_required"}))
        .map(|mut i: Interrupt| {
            i.expires_at = expires_at.map(str::to_owned);
            i
        })
        .expect("interrupt")
}

fn run(thread: Thread, events: &[Value]) -> Pipeline {
    let mut p = Pipeline::new(thread, PipelineOptions::default());
    let mut body = Vec::new();
    for e in events {
        body.extend_from_slice(format!("data: {e}\n\n").as_bytes());
    }
    p.push_bytes(&body);
    p.finish();
    p
}

const NOW: f64 = 1_800_000_000_000.0;

#[test]
fn a_resume_cannot_be_built_until_every_interrupt_is_answered() {
    let open = [interrupt("a", None), interrupt("b", None)];
    let mut b = ResumeBuilder::new(&open);
    assert_eq!(b.build(NOW), Err(ResumeError::Missing("a".into())));
    b.resolve("a", json!({"approved": true}), NOW)
        .expect("resolve a");
    assert_eq!(b.build(NOW), Err(ResumeError::Missing("b".into())));
    b.cancel("b").expect("cancel b");
    let resume = b.build(NOW).expect("complete");
    let entries = resume.entries();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].interrupt_id, "a");
    assert_eq!(entries[0].status, ResumeStatus::Resolved);
    assert_eq!(entries[0].payload, Some(json!({"approved": true})));
    assert_eq!(entries[1].status, ResumeStatus::Cancelled);
    assert_eq!(
        entries[1].payload, None,
        "cancelled entries carry no payload"
    );
}

#[test]
fn unknown_ids_are_refused_and_cancel_remaining_completes() {
    let open = [
        interrupt("a", None),
        interrupt("b", None),
        interrupt("c", None),
    ];
    let mut b = ResumeBuilder::new(&open);
    assert_eq!(
        b.resolve("zzz", json!(1), NOW),
        Err(ResumeError::Unknown("zzz".into()))
    );
    b.resolve("b", json!("x"), NOW).expect("b");
    b.cancel_remaining();
    let r = b.build(NOW).expect("complete");
    let statuses: Vec<_> = r.entries().iter().map(|e| e.status).collect();
    assert_eq!(
        statuses,
        [
            ResumeStatus::Cancelled,
            ResumeStatus::Resolved,
            ResumeStatus::Cancelled
        ]
    );
    assert_eq!(
        ResumeBuilder::new(&[]).build(NOW),
        Err(ResumeError::NothingOpen)
    );
}

#[test]
fn an_expired_interrupt_can_only_be_cancelled() {
    let past = "2020-01-01T00:00:00Z";
    let future = "2999-01-01T00:00:00Z";
    let open = [interrupt("old", Some(past)), interrupt("new", Some(future))];
    let mut b = ResumeBuilder::new(&open);
    assert_eq!(
        b.resolve("old", json!(true), NOW),
        Err(ResumeError::Expired("old".into()))
    );
    b.cancel("old").expect("cancel expired");
    b.resolve("new", json!(true), NOW).expect("resolve live");
    assert!(b.build(NOW).is_ok());
    // Answered in time but expired before sending: refused.
    let later = parse_iso8601_ms(future).expect("future") + 1.0;
    assert_eq!(b.build(later), Err(ResumeError::Expired("new".into())));
}

#[test]
fn iso8601_parsing_matches_known_instants() {
    assert_eq!(parse_iso8601_ms("1970-01-01T00:00:00Z"), Some(0.0));
    assert_eq!(
        parse_iso8601_ms("2000-03-01T00:00:00Z"),
        Some(951_868_800_000.0)
    );
    assert_eq!(
        parse_iso8601_ms("2026-11-29T12:00:00.250+01:00"),
        Some(1_795_950_000_250.0)
    );
    assert_eq!(parse_iso8601_ms("2026-11-29"), Some(1_795_910_400_000.0));
    for bad in [
        "",
        "soon",
        "2026-13-01T00:00:00Z",
        "2026-11-29T25:00:00Z",
        "2026-11",
    ] {
        assert_eq!(parse_iso8601_ms(bad), None, "{bad}");
    }
    let i = interrupt("x", Some("not a date"));
    assert!(!is_expired(&i, NOW), "an unparseable expiry never expires");
}

#[test]
fn legacy_command_carries_the_single_payload_or_a_map() {
    let mut b = ResumeBuilder::new(&[interrupt("a", None)]);
    b.resolve("a", json!({"approved": false}), NOW).expect("a");
    assert_eq!(
        b.build(NOW).expect("one").legacy_command(),
        json!({"command": {"resume": {"approved": false}}})
    );
    let mut b = ResumeBuilder::new(&[interrupt("a", None), interrupt("b", None)]);
    b.resolve("a", json!(1), NOW).expect("a");
    b.cancel("b").expect("b");
    assert_eq!(
        b.build(NOW).expect("two").legacy_command(),
        json!({"command": {"resume": {"a": 1, "b": {"cancelled": true}}}})
    );
}

fn frontend_call_run(outcome: Value) -> Vec<Value> {
    let mut finished = json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"});
    if !outcome.is_null() {
        finished["outcome"] = outcome;
    }
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "pay-1", "toolCallName": "confirm_payment", "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "pay-1", "delta": "{\"amount\":480}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "pay-1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "srv-1", "toolCallName": "lookup"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "srv-1"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "srv-1", "content": "ok"}),
        finished,
    ]
}

#[test]
fn pending_calls_are_trusted_when_named_and_derived_when_absent() {
    let p = run(Thread::new(), &frontend_call_run(Value::Null));
    assert_eq!(
        p.thread.pending_tool_calls(),
        ["pay-1"],
        "derived: started, no result"
    );
    let p = run(
        Thread::new(),
        &frontend_call_run(json!({"type": "success", "pendingToolCallIds": []})),
    );
    assert_eq!(
        p.thread.pending_tool_calls(),
        ["pay-1"],
        "empty list: derived"
    );
    let p = run(
        Thread::new(),
        &frontend_call_run(json!({"type": "success", "pendingToolCallIds": ["pay-1"]})),
    );
    assert_eq!(p.thread.pending_tool_calls(), ["pay-1"]);
}

#[test]
fn answering_a_pending_call_places_the_tool_message_after_it() {
    let mut p = run(Thread::new(), &frontend_call_run(Value::Null));
    p.thread.add_tool_result(
        "answer-1".into(),
        "pay-1",
        Content::Text("{\"approved\":true}".into()),
        None,
    );
    assert!(p.thread.pending_tool_calls().is_empty());
    let roles: Vec<_> = p
        .thread
        .messages
        .iter()
        .map(|m| (m.id.as_str(), m.role))
        .collect();
    assert_eq!(
        roles,
        [
            ("a1", Role::Assistant),
            ("answer-1", Role::Tool),
            ("srv-1", Role::Assistant),
            ("t1", Role::Tool)
        ]
    );
}

#[test]
fn sending_a_new_message_cancels_pending_calls_with_a_result() {
    let mut p = run(Thread::new(), &frontend_call_run(Value::Null));
    let mut n = 0;
    let closed = p.thread.cancel_pending_tool_calls("cancelled by user", || {
        n += 1;
        format!("cancel-{n}")
    });
    assert_eq!(closed, ["pay-1"]);
    assert!(p.thread.pending_tool_calls().is_empty());
    let m = p.thread.message("cancel-1").expect("tool message");
    assert_eq!(m.tool_call_id.as_deref(), Some("pay-1"));
    assert_eq!(m.error.as_deref(), Some("cancelled by user"));
    // Every tool call in the history now has a tool message.
    for call in p
        .thread
        .messages
        .iter()
        .flat_map(|m| m.tool_calls.iter().flatten())
    {
        assert!(
            p.thread.tool_result(&call.id).is_some(),
            "{} answered",
            call.id
        );
    }
}

#[test]
fn an_interrupted_thread_survives_a_reload_with_its_interrupt_answerable() {
    let events = [
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "How many?"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1",
               "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "input_required", "message": "How many?"}]}}),
    ];
    let p = run(Thread::new(), &events);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let text = serde_json::to_string(&p.thread.saved()).expect("save");
    let restored = Thread::from_saved(serde_json::from_str(&text).expect("load"));
    assert_eq!(restored.status(), RunStatus::Interrupted);
    assert_eq!(restored.open_interrupts().len(), 1);
    assert_eq!(restored.open_interrupts()[0].id, "i1");
    assert_eq!(restored.state, json!({"n": 1}));
    assert_eq!(restored.messages, p.thread.messages);
    let mut b = ResumeBuilder::new(restored.open_interrupts());
    b.resolve("i1", json!({"n": 3}), NOW)
        .expect("answerable after reload");
    assert!(b.build(NOW).is_ok());
}

#[test]
fn a_run_cut_off_by_a_reload_is_restored_as_truncated() {
    let p = run(
        Thread::new(),
        &[json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"})],
    );
    let mut saved = p.thread.saved();
    if let Some(r) = &mut saved.last_run {
        r.status = "running".into();
    }
    assert_eq!(Thread::from_saved(saved).status(), RunStatus::Truncated);
}

// Regression (issue 12.8): a huge year or offset overflowed i64 (a panic in debug builds,
// garbage in release), and the interrupt was saved and re-read on every reload.
#[test]
fn agent_supplied_timestamps_never_overflow() {
    use agui_leptos::protocol::resume::parse_iso8601_ms;
    for hostile in [
        "99999999999999999-01-01",
        "9223372036854775807-12-31T23:59:59Z",
        "2026-01-01T00:00:00+9999999999999999:00",
        "2026-01-01T00:00:00-99:99",
        "2026-01-01T00:00:00.5e300Z",
        "2026-01-01T00:00:00.NaNZ",
        "2026-01-01T999999999999999999999:00:00Z",
    ] {
        assert_eq!(parse_iso8601_ms(hostile), None, "{hostile:?}");
    }
    // Ordinary ones still parse, fractions and offsets included.
    assert_eq!(parse_iso8601_ms("1970-01-01T00:00:01.5Z"), Some(1500.0));
    assert_eq!(parse_iso8601_ms("1970-01-01T01:00:00+01:00"), Some(0.0));
    assert!(
        parse_iso8601_ms("275760-09-13").is_some(),
        "six-digit years are ISO-8601 too"
    );
}
