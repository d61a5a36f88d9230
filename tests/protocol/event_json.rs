//! The hand-written deserialisation of events and records (`Event::from_value`, the tagged and
//! untagged enums, `Message`, `Interrupt`): every kind with every member reads back to the same
//! wire JSON, through a `Value` and through a string, and errors keep serde's wording.

use agui_leptos::protocol::types::{Content, Interrupt, Message};
use agui_leptos::protocol::{Event, EventKind};
use serde_json::{json, Value};

/// One event of each of the 31 kinds, every optional member present.
fn all_kinds() -> Vec<Value> {
    let message = json!({
        "id": "m1", "role": "assistant", "content": "hi", "name": "bot",
        "toolCalls": [{"id": "c1", "type": "function",
            "function": {"name": "f", "arguments": "{\"a\":1}"},
            "encryptedValue": "e", "encryptedValueType": "t", "metadata": {"k": null}}],
        "encryptedValue": "ev", "encryptedValueType": "evt", "metadata": {"z": 1, "a": 2},
        "subagentRunId": "s1"
    });
    let parts = json!([
        {"type": "text", "text": "see", "id": "p1", "metadata": {"x": 1}},
        {"type": "image", "source": {"type": "url", "value": "https://x/y.png", "mimeType": "image/png"}},
        {"type": "audio", "source": {"type": "data", "value": "AAAA", "mimeType": "audio/wav"}},
        {"type": "video", "source": {"type": "file", "value": "f1", "provider": "p", "mimeType": "video/mp4"}},
        {"type": "document", "source": {"type": "url", "value": "https://x/d.pdf"}, "id": "d"}
    ]);
    let interrupt = json!({
        "id": "i1", "reason": "input_required", "message": "Pick", "toolCallId": "c1",
        "responseSchema": {"type": "object"}, "expiresAt": "2030-01-01T00:00:00Z",
        "metadata": {"m": true}, "subagentRunId": "s1"
    });
    let usage = json!([{"provider": "p", "model": "m", "inputTokens": 1, "outputTokens": 2,
        "totalTokens": 3, "reasoningTokens": 4, "cachedInputTokens": 5, "cacheWriteInputTokens": 6}]);
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "protocolVersion": "1.1",
            "parentRunId": "p", "input": {"threadId": "t", "runId": "r", "state": {"b": 1, "a": 2},
            "messages": [message.clone()], "tools": [{"name": "n", "description": "d",
            "parameters": {"type": "object"}, "metadata": {}}], "context": [{"description": "d",
            "value": "v"}], "forwardedProps": {"x": [1]}, "resume": [{"interruptId": "i1",
            "status": "resolved", "payload": {"ok": true}, "metadata": {}}]},
            "timestamp": 17, "rawEvent": {"raw": 1}, "metadata": {"env": "x"}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "result": {"r": null},
            "outcome": {"type": "interrupt", "interrupts": [interrupt.clone()]}, "usage": usage.clone()}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "success", "pendingToolCallIds": ["c1"]}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "cancelled"}}),
        json!({"type": "RUN_ERROR", "message": "boom", "code": "E", "usage": usage}),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        json!({"type": "STEP_FINISHED", "stepName": "s"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "user", "name": "n"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": ""}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "d", "name": "n"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "{"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m", "delta": "}"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": "ok", "role": "tool"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": parts.clone()}),
        json!({"type": "REASONING_START", "messageId": "m"}),
        json!({"type": "REASONING_END", "messageId": "m"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "m", "role": "reasoning"}),
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "m", "delta": "d"}),
        json!({"type": "REASONING_MESSAGE_END", "messageId": "m"}),
        json!({"type": "REASONING_MESSAGE_CHUNK", "messageId": "m", "delta": "d"}),
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c",
            "encryptedValue": "x", "encryptedValueType": "t"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": null}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"z": 1, "a": {"y": 2, "b": 3}}}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a", "value": 1, "extra": true}]}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [message,
            {"id": "u", "role": "user", "content": parts},
            {"id": "a", "role": "activity", "content": {"k": 1}, "activityType": "plan"},
            {"id": "t", "role": "tool", "content": "r", "toolCallId": "c", "error": "e"}]}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "m", "activityType": "a", "content": {"b": 1, "a": 2}, "replace": false}),
        json!({"type": "ACTIVITY_DELTA", "messageId": "m", "activityType": "a", "patch": [{"op": "remove", "path": "/b"}]}),
        json!({"type": "RAW", "event": {"any": [1, 2]}, "source": "s"}),
        json!({"type": "CUSTOM", "name": "n", "value": null}),
        json!({"type": "SUBAGENT_STARTED", "name": "n", "description": "d", "parentSubagentRunId": "p",
            "parentToolCallId": "c", "parentMessageId": "m", "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_FINISHED", "result": 1, "outcome": {"type": "suspended", "interruptIds": ["i"]},
            "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_FINISHED", "outcome": {"type": "success"}, "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_ERROR", "message": "m", "code": "c", "subagentRunId": "s"}),
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "interrupt": [{"id": "legacy"}]}),
    ]
}

#[test]
fn every_kind_reads_back_to_its_wire_json() {
    let events = all_kinds();
    let mut kinds: Vec<&str> = Vec::new();
    for v in events {
        let ev = Event::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"));
        let mut expected = v.clone();
        // Members no kind knows are ignored, as serde ignores them.
        expected.as_object_mut().unwrap().remove("interrupt");
        assert_eq!(ev.to_json(), expected, "{v}");
        // Key order survives (preserve_order), nested objects included.
        assert_eq!(ev.to_json().to_string(), expected.to_string());
        // The serde entry points give the same event.
        assert_eq!(serde_json::from_value::<Event>(v.clone()).unwrap(), ev);
        assert_eq!(serde_json::from_str::<Event>(&v.to_string()).unwrap(), ev);
        assert_eq!(
            serde_json::from_value::<EventKind>(v.clone()).unwrap(),
            ev.kind
        );
        if !kinds.contains(&ev.type_name()) {
            kinds.push(ev.type_name());
        }
    }
    assert_eq!(kinds.len(), agui_leptos::protocol::event::EVENT_TYPES.len());
}

#[test]
fn null_envelope_members_read_as_absent() {
    let ev = Event::from_value(json!({"type": "STEP_STARTED", "stepName": "s",
        "timestamp": null, "rawEvent": null, "metadata": null, "subagentRunId": null}))
    .unwrap();
    assert_eq!(
        ev.to_json(),
        json!({"type": "STEP_STARTED", "stepName": "s"})
    );
}

#[test]
fn errors_keep_serde_wording() {
    let err = |v: Value| Event::from_value(v).unwrap_err().to_string();
    assert_eq!(err(json!({"stepName": "s"})), "missing field `type`");
    assert!(err(json!({"type": "NOPE"}))
        .starts_with("unknown variant `NOPE`, expected one of `RUN_STARTED`"));
    assert_eq!(
        err(json!({"type": "TEXT_MESSAGE_END"})),
        "missing field `messageId`"
    );
    assert_eq!(
        err(json!({"type": "TEXT_MESSAGE_END", "messageId": 5})),
        "invalid type: integer `5`, expected a string"
    );
    assert_eq!(
        err(
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "done"}})
        ),
        "unknown variant `done`, expected one of `success`, `interrupt`, `cancelled`"
    );
    assert_eq!(
        err(json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": 1})),
        "data did not match any variant of untagged enum Content"
    );
    assert_eq!(
        err(
            json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c",
            "content": [{"type": "image", "source": {"type": "data", "value": "x"}}]})
        ),
        "data did not match any variant of untagged enum Content"
    );
}

#[test]
fn records_read_the_same_from_a_string_and_from_a_value() {
    let m =
        json!({"id": "m", "role": "user", "content": [{"type": "text", "text": "t"}], "extra": 1});
    let from_value = serde_json::from_value::<Message>(m.clone()).unwrap();
    let from_str = serde_json::from_str::<Message>(&m.to_string()).unwrap();
    assert_eq!(from_value, from_str);
    assert_eq!(from_value.text(), "t");
    let missing = serde_json::from_value::<Message>(json!({"id": "m"})).unwrap_err();
    assert_eq!(missing.to_string(), "missing field `role`");
    let i = json!({"id": "i", "reason": "r", "responseSchema": null});
    let i = serde_json::from_str::<Interrupt>(&i.to_string()).unwrap();
    assert_eq!(i.response_schema, None);
    assert_eq!(
        serde_json::from_value::<Content>(json!({"a": 1})).unwrap(),
        Content::Object(serde_json::from_value(json!({"a": 1})).unwrap())
    );
    assert!(serde_json::from_value::<Content>(Value::Null).is_err());
}
