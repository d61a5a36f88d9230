//! Enforcement (spec digest §4.2): unknown material is stripped with a warning naming its JSON
//! pointer, known fields with values the schema rejects fail with a typed `Malformed`, open
//! objects pass untouched, legacy nulls are coerced to absent. Exercised on `enforce_event` and
//! `enforce_input` directly.

use agui_leptos::protocol::enforce::{enforce_event, enforce_input, Enforced, EventError};
use agui_leptos::protocol::error::Malformed;
use agui_leptos::protocol::event::EventKind;
use agui_leptos::protocol::types::{Content, ContentPart, Role, RunFinishedOutcome};
use agui_leptos::protocol::{Event, Warning};
use serde_json::{json, Value};

fn enforce(v: Value) -> (Result<Enforced, EventError>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let r = enforce_event(v, &mut warnings);
    (r, warnings)
}

/// The event must be kept; returns it with the warnings.
fn kept(v: Value) -> (Event, Vec<Warning>) {
    match enforce(v.clone()) {
        (Ok(Enforced::Event(e)), w) => (*e, w),
        (other, _) => panic!("{v} was not kept: {other:?}"),
    }
}

fn malformed(v: Value) -> Malformed {
    match enforce(v.clone()) {
        (Err(EventError::Malformed(m)), _) => m,
        (other, _) => panic!("{v} was not malformed: {other:?}"),
    }
}

fn paths(w: &[Warning]) -> Vec<&str> {
    w.iter().filter_map(|w| w.path.as_deref()).collect()
}

#[test]
fn a_conformant_event_passes_without_warnings() {
    let v = json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "user",
                   "name": "Ana", "timestamp": 1_700_000_000_000_i64,
                   "metadata": {"k": [1, null]}, "rawEvent": {"any": "thing"}});
    let (e, w) = kept(v.clone());
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(
        e.to_json(),
        v,
        "the typed event round-trips to the same JSON"
    );
}

#[test]
fn unknown_properties_are_stripped_at_any_depth_with_their_pointer() {
    let (e, w) = kept(json!({
        "type": "MESSAGES_SNAPSHOT", "futureTop": 1,
        "messages": [
            {"id": "u1", "role": "user", "content": [{"type": "text", "text": "hi", "x": 1}],
             "mood": "happy"},
            {"id": "a1", "role": "assistant",
             "toolCalls": [{"id": "c1", "type": "function",
                            "function": {"name": "f", "arguments": "{}", "strict": true}}]}
        ]
    }));
    assert_eq!(
        paths(&w),
        [
            "/futureTop",
            "/messages/0/mood",
            "/messages/0/content/0/x",
            "/messages/1/toolCalls/0/function/strict"
        ]
    );
    assert_eq!(
        e.to_json(),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "u1", "role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"id": "a1", "role": "assistant",
             "toolCalls": [{"id": "c1", "type": "function",
                            "function": {"name": "f", "arguments": "{}"}}]}
        ]})
    );
}

#[test]
fn an_unknown_role_in_an_optional_slot_is_removed_and_defaults_apply() {
    let (e, w) = kept(json!({"type": "TEXT_MESSAGE_START", "messageId": "m1",
                              "role": "narrator"}));
    assert_eq!(paths(&w), ["/role"]);
    let EventKind::TextMessageStart(s) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(s.role, None);
}

#[test]
fn unknown_union_members_are_dropped_from_lists_and_cascade_from_required_slots() {
    let (e, w) = kept(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1",
        "content": [
            {"type": "text", "text": "a"},
            {"type": "hologram", "frames": 3},
            {"type": "image", "source": {"type": "carrier-pigeon", "value": "x"}},
            {"type": "image", "source": {"type": "url", "value": "https://x/y.png"}}
        ]
    }));
    assert_eq!(
        paths(&w),
        ["/content/1", "/content/2"],
        "{:?}",
        w.iter().map(|w| w.to_string()).collect::<Vec<_>>()
    );
    let EventKind::ToolCallResult(r) = &e.kind else {
        panic!("{e:?}")
    };
    let Content::Parts(parts) = &r.content else {
        panic!("{r:?}")
    };
    assert_eq!(parts.len(), 2);
    assert!(matches!(parts[0], ContentPart::Text { .. }));
    assert!(matches!(parts[1], ContentPart::Image(_)));
}

#[test]
fn an_unknown_value_in_a_required_slot_drops_the_whole_event() {
    let (r, w) = enforce(
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "image",
                                "entityId": "m1", "encryptedValue": "E"}),
    );
    assert!(matches!(r, Ok(Enforced::Dropped)), "{r:?}");
    assert!(!w.is_empty());
    assert!(w
        .iter()
        .all(|w| w.event_type.as_deref() == Some("REASONING_ENCRYPTED_VALUE")));
}

#[test]
fn an_unknown_event_type_is_dropped_with_a_warning() {
    let (r, w) = enforce(json!({"type": "META", "metaType": "x"}));
    assert!(matches!(r, Ok(Enforced::Dropped)));
    assert_eq!(w.len(), 1);
    assert!(w[0].to_string().contains("META"), "{}", w[0]);
}

#[test]
fn wrong_types_are_malformed_with_event_type_and_path() {
    for (v, path) in [
        (
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": 5, "delta": "x"}),
            "/messageId",
        ),
        (
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": null}),
            "/delta",
        ),
        (
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "timestamp": 1.5}),
            "/timestamp",
        ),
        (
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "timestamp": 9_007_199_254_740_992_u64}),
            "/timestamp",
        ),
        (
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "metadata": null}),
            "/metadata",
        ),
        (
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "subagentRunId": null}),
            "/subagentRunId",
        ),
        (
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": []}),
            "/outcome",
        ),
        (
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                "usage": [{"inputTokens": -1}]}),
            "/usage/0/inputTokens",
        ),
        (
            json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "no-slash", "value": 1}]}),
            "/delta/0/path",
        ),
        (
            json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a"}]}),
            "/delta/0/value",
        ),
        (
            json!({"type": "TOOL_CALL_START", "toolCallId": "c"}),
            "/toolCallName",
        ),
        (
            json!({"type": "REASONING_MESSAGE_START", "messageId": "r", "role": "assistant"}),
            "/role",
        ),
    ] {
        let m = malformed(v.clone());
        assert_eq!(m.path, path, "{v}: {m}");
        assert_eq!(Some(m.event_type.as_str()), v["type"].as_str(), "{v}: {m}");
    }
}

#[test]
fn integral_numbers_written_with_a_fraction_are_integers() {
    // Regression: `1.0` is an integer for JSON Schema (and for the reference client, where
    // JSON.parse makes it 1), but enforcement rejected it as a float and failed the run.
    let (e, w) = kept(json!({"type": "TEXT_MESSAGE_END", "messageId": "m",
                              "timestamp": 1_700_000_000_000.0_f64}));
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(e.timestamp, Some(1_700_000_000_000));
    let (e, _) = kept(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                              "usage": [{"inputTokens": 12.0, "outputTokens": 0}]}),
    );
    let EventKind::RunFinished(rf) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(rf.usage.as_ref().map(|u| u[0].input_tokens), Some(Some(12)));
    // A real fraction stays malformed.
    assert_eq!(
        malformed(
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                         "usage": [{"inputTokens": 12.5}]})
        )
        .path,
        "/usage/0/inputTokens"
    );
}

#[test]
fn legacy_nulls_are_coerced_to_absent_with_a_warning() {
    let (e, w) = kept(json!({"type": "TOOL_CALL_START", "toolCallId": "c1",
                              "toolCallName": "f", "parentMessageId": null, "rawEvent": null}));
    assert_eq!(paths(&w), ["/rawEvent", "/parentMessageId"]);
    assert_eq!(
        e.to_json(),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"})
    );
    let (e, w) = kept(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                              "outcome": null, "result": null}),
    );
    assert_eq!(paths(&w), ["/result", "/outcome"]);
    let EventKind::RunFinished(rf) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(rf.outcome, None);
}

#[test]
fn an_unknown_outcome_type_is_stripped_and_reads_as_success() {
    let (e, w) = kept(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                              "outcome": {"type": "paused"}}),
    );
    assert_eq!(paths(&w), ["/outcome"]);
    let EventKind::RunFinished(rf) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(rf.outcome, None);
    let (e, w) = kept(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                              "outcome": {"type": "success", "pendingToolCallIds": ["c1"]}}),
    );
    assert!(w.is_empty());
    let EventKind::RunFinished(rf) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(
        rf.outcome,
        Some(RunFinishedOutcome::Success {
            pending_tool_call_ids: Some(vec!["c1".into()])
        })
    );
}

#[test]
fn patch_ops_are_open_objects_and_unknown_ops_are_dropped() {
    let (e, w) = kept(json!({"type": "STATE_DELTA", "delta": [
        {"op": "add", "path": "/a", "value": 1, "x-origin": "llm"},
        {"op": "merge", "path": "/b", "value": {}},
        {"op": "remove", "path": "/c"}
    ]}));
    assert_eq!(paths(&w), ["/delta/1"]);
    assert_eq!(
        e.to_json(),
        json!({"type": "STATE_DELTA", "delta": [
            {"op": "add", "path": "/a", "value": 1, "x-origin": "llm"},
            {"op": "remove", "path": "/c"}
        ]})
    );
}

#[test]
fn open_objects_keep_everything_without_warnings() {
    let v = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "PLAN",
                   "content": {"anything": {"deep": [null, {"x": 1}]}},
                   "metadata": {"@ag-ui/client": {"authoritativeActivityTypes": null}}});
    let (e, w) = kept(v.clone());
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(e.to_json(), v);
    let v = json!({"type": "CUSTOM", "name": "PredictState", "value": null});
    let (e, w) = kept(v.clone());
    assert!(w.is_empty());
    assert_eq!(e.to_json(), v);
}

#[test]
fn a_snapshot_message_with_an_unknown_role_is_dropped_from_the_list() {
    let (e, w) = kept(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "x", "role": "narrator", "content": "…"},
        {"id": "u1", "role": "user", "content": "hi"}
    ]}));
    assert_eq!(paths(&w), ["/messages/0"]);
    let EventKind::MessagesSnapshot(ms) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(ms.messages.len(), 1);
    assert_eq!(ms.messages[0].role, Role::User);
}

#[test]
fn non_objects_and_missing_types_are_not_events() {
    for v in [
        json!([1]),
        json!("RUN_STARTED"),
        json!({"type": ""}),
        json!({"type": 3}),
    ] {
        let (r, _) = enforce(v.clone());
        assert!(matches!(r, Err(EventError::NotAnEvent(_))), "{v}: {r:?}");
    }
}

#[test]
fn outgoing_input_is_stripped_and_checked_like_events() {
    let mut input = json!({
        "threadId": "t", "runId": "r", "messages": [{"id": "u", "role": "user", "content": "x"}],
        "clientSecret": "do not send", "forwardedProps": null
    });
    let mut w = Vec::new();
    enforce_input(&mut input, &mut w).expect("valid input");
    assert_eq!(
        input,
        json!({"threadId": "t", "runId": "r",
               "messages": [{"id": "u", "role": "user", "content": "x"}]})
    );
    assert_eq!(paths(&w), ["/clientSecret", "/forwardedProps"]);
    let mut bad = json!({"threadId": "t", "runId": 7, "messages": []});
    let err = enforce_input(&mut bad, &mut Vec::new()).expect_err("malformed");
    assert_eq!(err.event_type, "RunAgentInput");
    assert_eq!(err.path, "/runId");
}
