//! Reference-reducer behaviours (spec digest §5, with §4.6–4.12 for state, activity,
//! reasoning, outcomes and interrupts), driven through the whole pipeline from SSE bytes.
//! Message tests compare the complete final `messages` JSON, not a subset.

use agui_leptos::protocol::input::prepare_request;
use agui_leptos::protocol::reducer::Run;
use agui_leptos::protocol::types::{Message, RunAgentInput};
use agui_leptos::protocol::{
    Change, Delivered, Pipeline, PipelineOptions, Rows, RunStatus, Thread,
};
use serde_json::{json, Value};

// ---- helpers --------------------------------------------------------------------------------

fn sse(events: &[Value]) -> Vec<u8> {
    let mut body = Vec::new();
    for ev in events {
        body.extend_from_slice(b"data: ");
        body.extend_from_slice(serde_json::to_string(ev).expect("json").as_bytes());
        body.extend_from_slice(b"\n\n");
    }
    body
}

fn feed(thread: Thread, events: &[Value]) -> (Pipeline, Vec<Delivered>) {
    let mut p = Pipeline::new(thread, PipelineOptions::default());
    let mut out = p.push_bytes(&sse(events));
    out.extend(p.finish());
    (p, out)
}

/// Run `events` on a fresh thread; the stream must be accepted.
fn ok(events: &[Value]) -> Pipeline {
    ok_on(Thread::new(), events)
}

fn ok_on(thread: Thread, events: &[Value]) -> Pipeline {
    let (p, _) = feed(thread, events);
    assert_eq!(p.error(), None, "stream unexpectedly failed");
    p
}

fn messages(p: &Pipeline) -> Value {
    serde_json::to_value(&p.thread.messages).expect("messages serialise")
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

fn call(id: &str, name: &str, parent: Option<&str>, args: &str) -> Vec<Value> {
    let mut start = json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name});
    if let Some(p) = parent {
        start["parentMessageId"] = json!(p);
    }
    vec![
        start,
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": args}),
        json!({"type": "TOOL_CALL_END", "toolCallId": id}),
    ]
}

fn result(message_id: &str, call_id: &str, content: &str) -> Value {
    json!({"type": "TOOL_CALL_RESULT", "messageId": message_id, "toolCallId": call_id,
           "content": content})
}

fn tool_call_json(id: &str, name: &str, args: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
}

/// One run around `body`.
fn run(body: Vec<Value>) -> Vec<Value> {
    let mut events = vec![started("r1")];
    events.extend(body);
    events.push(finished("r1"));
    events
}

fn warnings(p: &Pipeline) -> Vec<String> {
    p.thread.warnings.iter().map(|w| w.to_string()).collect()
}

fn assert_positions_consistent(thread: &Thread) {
    for (i, m) in thread.messages.iter().enumerate() {
        let first = thread
            .messages
            .iter()
            .position(|x| x.id == m.id)
            .expect("present");
        assert_eq!(
            thread.position(&m.id),
            Some(first),
            "position({:?}) wrong (message {i})",
            m.id
        );
    }
}

fn last_run(p: &Pipeline) -> &Run {
    p.thread.run().expect("a run")
}

// ---- tool calls and their assistant messages -------------------------------------------------

#[test]
fn tool_call_only_assistant_message_has_no_content_key() {
    let p = ok(&run(call("tc1", "search", None, "{\"q\":1}")));
    let msgs = messages(&p);
    assert_eq!(
        msgs,
        json!([{"id": "tc1", "role": "assistant",
                "toolCalls": [tool_call_json("tc1", "search", "{\"q\":1}")]}])
    );
    assert!(msgs[0].get("content").is_none());
}

#[test]
fn tool_call_start_without_parent_creates_assistant_message_keyed_by_tool_call_id() {
    let mut events = vec![started("r1")];
    events.extend(text("m1", "hello"));
    events.extend(call("tc9", "lookup", None, "{}"));
    events.push(finished("r1"));
    let p = ok(&events);
    assert_eq!(
        messages(&p),
        json!([
            {"id": "m1", "role": "assistant", "content": "hello"},
            {"id": "tc9", "role": "assistant", "toolCalls": [tool_call_json("tc9", "lookup", "{}")]}
        ])
    );
    assert!(p.thread.warnings.is_empty(), "{:?}", warnings(&p));
}

#[test]
fn parent_message_id_naming_a_missing_message_creates_it() {
    let p = ok(&run(call("tc1", "search", Some("never-started"), "{}")));
    assert_eq!(
        messages(&p),
        json!([{"id": "never-started", "role": "assistant",
                "toolCalls": [tool_call_json("tc1", "search", "{}")]}])
    );
    assert_eq!(p.thread.tool_call("tc1").map(|(i, _)| i), Some(0));
}

#[test]
fn parent_message_id_naming_a_user_message_gets_its_own_assistant_message_and_a_warning() {
    let history = vec![Message::user("u1", "hi")];
    let p = ok_on(
        Thread::with_history(history, json!({})),
        &run(call("tc1", "search", Some("u1"), "{}")),
    );
    assert_eq!(
        messages(&p),
        json!([
            {"id": "u1", "role": "user", "content": "hi"},
            {"id": "tc1", "role": "assistant", "toolCalls": [tool_call_json("tc1", "search", "{}")]}
        ])
    );
    let w = warnings(&p);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("TOOL_CALL_START") && w[0].contains("u1"),
        "{w:?}"
    );
}

#[test]
fn text_streamed_with_the_tool_call_parent_id_merges_into_that_assistant_message() {
    // Tool call first (creates the parent), text with the same id afterwards…
    let mut events = vec![started("r1")];
    events.extend(call("tc1", "search", Some("a1"), "{}"));
    events.extend(text("a1", "Searching."));
    events.push(finished("r1"));
    let p = ok(&events);
    assert_eq!(
        messages(&p),
        json!([{"id": "a1", "role": "assistant", "content": "Searching.",
                "toolCalls": [tool_call_json("tc1", "search", "{}")]}])
    );
    // …and text first, then a call naming it as parent: same single message.
    let mut events = vec![started("r1")];
    events.extend(text("a1", "Searching."));
    events.extend(call("tc1", "search", Some("a1"), "{}"));
    events.push(finished("r1"));
    let p = ok(&events);
    assert_eq!(
        messages(&p),
        json!([{"id": "a1", "role": "assistant", "content": "Searching.",
                "toolCalls": [tool_call_json("tc1", "search", "{}")]}])
    );
}

#[test]
fn tool_call_metadata_merges_into_the_tool_call_not_the_message() {
    let p = ok(&run(vec![
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "f",
               "metadata": {"a": 1, "b": {"x": 1}}}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "{}",
               "metadata": {"b": {"y": 2}}}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1", "metadata": {"c": null}}),
    ]));
    assert_eq!(
        messages(&p),
        json!([{"id": "tc1", "role": "assistant", "toolCalls": [{
            "id": "tc1", "type": "function", "function": {"name": "f", "arguments": "{}"},
            "metadata": {"a": 1, "b": {"y": 2}, "c": null}
        }]}])
    );
}

// ---- TOOL_CALL_RESULT placement ---------------------------------------------------------------

#[test]
fn tool_result_is_inserted_after_its_call_skipping_earlier_results_and_indexes_stay_right() {
    let history = vec![Message::user("u1", "weather?")];
    let events = vec![
        started("r1"),
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "w",
               "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc2", "toolCallName": "w",
               "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc2"}),
        // A later message is already streaming when the results arrive.
        json!({"type": "TEXT_MESSAGE_START", "messageId": "a2"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": "Lis"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "th1", "role": "reasoning"}),
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "th1", "delta": "hm"}),
        result("res1", "tc1", "sunny"),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": "bon "}),
        result("res2", "tc2", "rainy"),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": "is sunny"}),
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "th1", "delta": "m"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "a2"}),
        json!({"type": "REASONING_MESSAGE_END", "messageId": "th1"}),
        finished("r1"),
    ];
    let (p, delivered) = feed(Thread::with_history(history, json!({})), &events);
    assert_eq!(p.error(), None);
    assert_eq!(
        messages(&p),
        json!([
            {"id": "u1", "role": "user", "content": "weather?"},
            {"id": "a1", "role": "assistant", "toolCalls": [
                tool_call_json("tc1", "w", ""), tool_call_json("tc2", "w", "")]},
            {"id": "res1", "role": "tool", "content": "sunny", "toolCallId": "tc1"},
            {"id": "res2", "role": "tool", "content": "rainy", "toolCallId": "tc2"},
            {"id": "a2", "role": "assistant", "content": "Lisbon is sunny"},
            {"id": "th1", "role": "reasoning", "content": "hmm"}
        ])
    );
    assert_positions_consistent(&p.thread);
    assert_eq!(p.thread.position("a2"), Some(4));
    assert_eq!(p.thread.position("th1"), Some(5));
    // Inserting in the middle restructures the list; the deltas after it name the right index.
    let changes: Vec<(&str, &Change)> = delivered
        .iter()
        .map(|d| (d.event.type_name(), &d.change))
        .collect();
    // The result names its call, and that it restructured the list.
    assert!(changes.iter().any(|(t, c)| *t == "TOOL_CALL_RESULT"
        && matches!(c, Change::ToolCall { id, rows: Rows::Restructured } if id == "tc1")));
    let last_text = delivered
        .iter()
        .rev()
        .find(|d| d.event.type_name() == "TEXT_MESSAGE_CONTENT")
        .expect("delta");
    assert_eq!(last_text.change, Change::Message(4));
    assert_eq!(p.thread.tool_call("tc2").map(|(i, _)| i), Some(1));
    assert_eq!(
        p.thread.tool_result("tc2").map(|m| m.id.as_str()),
        Some("res2")
    );
}

#[test]
fn tool_result_for_a_call_from_an_earlier_run_lands_after_that_call() {
    let mut events = vec![started("r1")];
    events.extend(call("tc1", "approve", Some("a1"), "{}"));
    events.extend(text("a2", "Waiting for approval."));
    events.push(finished("r1"));
    events.push(started("r2"));
    events.extend(text("a3", "Thanks."));
    events.push(result("res1", "tc1", "approved"));
    events.push(finished("r2"));
    let p = ok(&events);
    assert_eq!(
        messages(&p),
        json!([
            {"id": "a1", "role": "assistant", "toolCalls": [tool_call_json("tc1", "approve", "{}")]},
            {"id": "res1", "role": "tool", "content": "approved", "toolCallId": "tc1"},
            {"id": "a2", "role": "assistant", "content": "Waiting for approval."},
            {"id": "a3", "role": "assistant", "content": "Thanks."}
        ])
    );
    assert_positions_consistent(&p.thread);
}

#[test]
fn tool_result_for_a_call_in_seeded_history_lands_after_that_call() {
    let history: Vec<Message> = serde_json::from_value(json!([
        {"id": "u1", "role": "user", "content": "book it"},
        {"id": "a1", "role": "assistant", "toolCalls": [tool_call_json("tc1", "book", "{}")]},
        {"id": "a2", "role": "assistant", "content": "Confirm?"}
    ]))
    .expect("history");
    let mut events = vec![started("r2"), result("res1", "tc1", "booked")];
    events.extend(text("a3", "Done."));
    events.push(finished("r2"));
    let p = ok_on(Thread::with_history(history, json!({})), &events);
    assert_eq!(
        messages(&p),
        json!([
            {"id": "u1", "role": "user", "content": "book it"},
            {"id": "a1", "role": "assistant", "toolCalls": [tool_call_json("tc1", "book", "{}")]},
            {"id": "res1", "role": "tool", "content": "booked", "toolCallId": "tc1"},
            {"id": "a2", "role": "assistant", "content": "Confirm?"},
            {"id": "a3", "role": "assistant", "content": "Done."}
        ])
    );
    assert_positions_consistent(&p.thread);
}

#[test]
fn tool_result_for_an_unknown_call_is_appended_and_kept() {
    let mut body = text("a1", "Resumed.").to_vec();
    body.push(result("res9", "never-started", "{\"ok\":true}"));
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([
            {"id": "a1", "role": "assistant", "content": "Resumed."},
            {"id": "res9", "role": "tool", "content": "{\"ok\":true}",
             "toolCallId": "never-started"}
        ])
    );
}

#[test]
fn tool_results_are_never_deduplicated() {
    let mut body = call("tc1", "f", None, "{}");
    body.push(result("res1", "tc1", "one"));
    body.push(result("res1", "tc1", "again"));
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([
            {"id": "tc1", "role": "assistant", "toolCalls": [tool_call_json("tc1", "f", "{}")]},
            {"id": "res1", "role": "tool", "content": "one", "toolCallId": "tc1"},
            {"id": "res1", "role": "tool", "content": "again", "toolCallId": "tc1"}
        ])
    );
    assert_positions_consistent(&p.thread);
}

// ---- MESSAGES_SNAPSHOT -----------------------------------------------------------------------

#[test]
fn messages_snapshot_replaces_in_place_appends_newcomers_and_drops_omitted() {
    let mut body = Vec::new();
    body.extend(text("m1", "one"));
    body.extend(text("m2", "two"));
    body.extend(text("m3", "three"));
    body.push(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "n2", "role": "user", "content": "new two"},
        {"id": "m3", "role": "assistant", "content": "THREE"},
        {"id": "n1", "role": "assistant", "content": "new one"},
        {"id": "m1", "role": "assistant", "content": "ONE", "name": "bot"}
    ]}));
    body.extend(text("m4", "four"));
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([
            {"id": "m1", "role": "assistant", "content": "ONE", "name": "bot"},
            {"id": "m3", "role": "assistant", "content": "THREE"},
            {"id": "n2", "role": "user", "content": "new two"},
            {"id": "n1", "role": "assistant", "content": "new one"},
            {"id": "m4", "role": "assistant", "content": "four"}
        ])
    );
    assert_positions_consistent(&p.thread);
    assert_eq!(p.thread.position("m2"), None);
}

fn reasoning(id: &str, delta: &str) -> [Value; 3] {
    [
        json!({"type": "REASONING_MESSAGE_START", "messageId": id, "role": "reasoning"}),
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": id, "delta": delta}),
        json!({"type": "REASONING_MESSAGE_END", "messageId": id}),
    ]
}

fn activity(id: &str, kind: &str, content: Value) -> Value {
    json!({"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": kind,
           "content": content})
}

#[test]
fn snapshot_without_reasoning_or_activity_keeps_the_client_only_messages() {
    let mut body = Vec::new();
    body.extend(reasoning("th1", "thinking"));
    body.push(activity("act1", "PLAN", json!({"steps": 1})));
    body.extend(text("m1", "streamed"));
    body.push(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "m1", "role": "assistant", "content": "final"}
    ]}));
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([
            {"id": "th1", "role": "reasoning", "content": "thinking"},
            {"id": "act1", "role": "activity", "activityType": "PLAN", "content": {"steps": 1}},
            {"id": "m1", "role": "assistant", "content": "final"}
        ])
    );
}

#[test]
fn snapshot_with_a_role_owns_all_messages_of_that_role() {
    let mut body = Vec::new();
    body.extend(reasoning("th1", "streamed thought"));
    body.push(activity("act1", "PLAN", json!({"steps": 1})));
    body.push(activity("act2", "SEARCH", json!({"q": "x"})));
    body.extend(text("m1", "answer"));
    // The snapshot carries reasoning under another id and one activity: the streamed reasoning
    // and the omitted activity go; the listed ones stay or arrive.
    body.push(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "rs_1", "role": "reasoning", "content": "provider thought"},
        {"id": "m1", "role": "assistant", "content": "answer"},
        {"id": "act2", "role": "activity", "activityType": "SEARCH", "content": {"q": "y"}}
    ]}));
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([
            {"id": "act2", "role": "activity", "activityType": "SEARCH", "content": {"q": "y"}},
            {"id": "m1", "role": "assistant", "content": "answer"},
            {"id": "rs_1", "role": "reasoning", "content": "provider thought"}
        ])
    );
    assert_positions_consistent(&p.thread);
}

#[test]
fn snapshot_authoritative_activity_types_array_owns_only_those_types() {
    let body = vec![
        activity("act1", "PLAN", json!({"n": 1})),
        activity("act2", "SEARCH", json!({"n": 2})),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [],
               "metadata": {"@ag-ui/client": {"authoritativeActivityTypes": ["PLAN"]}}}),
    ];
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([{"id": "act2", "role": "activity", "activityType": "SEARCH", "content": {"n": 2}}])
    );
}

#[test]
fn snapshot_authoritative_activity_types_null_owns_every_activity() {
    let body = vec![
        activity("act1", "PLAN", json!({"n": 1})),
        json!({"type": "MESSAGES_SNAPSHOT",
               "messages": [{"id": "m1", "role": "user", "content": "hi"}],
               "metadata": {"@ag-ui/client": {"authoritativeActivityTypes": null}}}),
    ];
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([{"id": "m1", "role": "user", "content": "hi"}])
    );
}

#[test]
fn snapshot_adopts_tool_arguments_that_do_not_extend_the_streamed_text() {
    let body = vec![
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "weather",
               "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "{\"city\":\"Lis"}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "a1", "role": "assistant",
             "toolCalls": [tool_call_json("tc1", "weather", "{\"city\":\"Porto\"}")]}
        ]}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1"}),
    ];
    let p = ok(&run(body));
    let args = p.thread.tool_args.get("tc1").expect("args view");
    assert_eq!(args.parser.value(), Some(&json!({"city": "Porto"})));
    assert_eq!(
        messages(&p),
        json!([{"id": "a1", "role": "assistant",
                "toolCalls": [tool_call_json("tc1", "weather", "{\"city\":\"Porto\"}")]}])
    );
}

#[test]
fn snapshot_tool_arguments_extending_the_streamed_text_continue_the_parser() {
    let body = vec![
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "weather",
               "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "{\"city\":\"Lis"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1"}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "a1", "role": "assistant",
             "toolCalls": [tool_call_json("tc1", "weather", "{\"city\":\"Lisbon\"}")]}
        ]}),
    ];
    let p = ok(&run(body));
    let args = p.thread.tool_args.get("tc1").expect("args view");
    assert_eq!(args.parser.value(), Some(&json!({"city": "Lisbon"})));
    assert!(args.ended);
    assert_eq!(
        p.thread
            .tool_call("tc1")
            .map(|(_, c)| c.function.arguments.as_str()),
        Some("{\"city\":\"Lisbon\"}")
    );
}

#[test]
fn partial_tool_arguments_are_visible_before_the_call_ends() {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(&sse(&[
        started("r1"),
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "search"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "{\"que"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "ry\":\"ven"}),
    ]));
    let args = p.thread.tool_args.get("tc1").expect("args view");
    assert_eq!(args.parser.value(), Some(&json!({"query": "ven"})));
    assert!(!args.ended);
    p.push_bytes(&sse(&[
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "ice\"}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1"}),
    ]));
    let args = p.thread.tool_args.get("tc1").expect("args view");
    assert_eq!(args.parser.value(), Some(&json!({"query": "venice"})));
    assert!(args.ended);
    assert_eq!(p.error(), None);
}

// ---- state -----------------------------------------------------------------------------------

fn state_delta(ops: Value) -> Value {
    json!({"type": "STATE_DELTA", "delta": ops})
}

#[test]
fn state_delta_applies_ops_in_order_and_reports_their_paths() {
    let events = run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"todos": [], "count": 0}}),
        state_delta(json!([
            {"op": "add", "path": "/todos/-", "value": "a"},
            {"op": "add", "path": "/todos/-", "value": "b"},
            {"op": "replace", "path": "/count", "value": 2},
            {"op": "move", "from": "/todos/0", "path": "/todos/-"}
        ])),
    ]);
    let (p, delivered) = feed(Thread::new(), &events);
    assert_eq!(p.error(), None);
    assert_eq!(p.thread.state, json!({"todos": ["b", "a"], "count": 2}));
    let change = delivered
        .iter()
        .find(|d| d.event.type_name() == "STATE_DELTA")
        .map(|d| d.change.clone());
    assert_eq!(
        change,
        Some(Change::StatePatched(vec![
            "/todos/-".into(),
            "/todos/-".into(),
            "/count".into(),
            "/todos/-".into()
        ]))
    );
    assert!(p.thread.warnings.is_empty(), "{:?}", warnings(&p));
}

#[test]
fn failing_state_delta_leaves_the_state_exactly_as_before() {
    // Regression: a failed patch put the keys it had removed back at the end of their object.
    let before = json!({"a": 1, "b": {"c": [1, 2]}, "z": true});
    let events = run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": before}),
        // The first op applies, the second fails: nothing of the patch may remain.
        state_delta(json!([
            {"op": "remove", "path": "/a"},
            {"op": "replace", "path": "/missing", "value": 1},
            {"op": "add", "path": "/b/c/-", "value": 3}
        ])),
    ]);
    let (p, delivered) = feed(Thread::new(), &events);
    assert_eq!(p.error(), None, "an unappliable patch is not fatal");
    // Byte-exact, key order included: the UI renders this JSON.
    assert_eq!(
        serde_json::to_string(&p.thread.state).expect("json"),
        serde_json::to_string(&before).expect("json")
    );
    let w = warnings(&p);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("Failed to apply state patch"), "{w:?}");
    let change = delivered
        .iter()
        .find(|d| d.event.type_name() == "STATE_DELTA")
        .map(|d| d.change.clone());
    assert_eq!(change, Some(Change::Warning));
}

#[test]
fn failing_state_delta_after_a_move_to_an_ancestor_does_not_panic_and_keeps_the_state() {
    // Regression: json-patch's own rollback cannot undo a move from a child to its ancestor and
    // panicked (`unreachable!`), killing the app on a well-formed producer patch.
    let before = json!({"a": {"b": {"c": 1}}, "k": 0});
    let events = run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": before}),
        state_delta(json!([
            {"op": "move", "from": "/a/b", "path": "/a"},
            {"op": "test", "path": "/k", "value": 1}
        ])),
    ]);
    let p = ok(&events);
    assert_eq!(
        serde_json::to_string(&p.thread.state).expect("json"),
        serde_json::to_string(&before).expect("json")
    );
    assert_eq!(warnings(&p).len(), 1);
}

#[test]
fn failing_move_keeps_its_source_value() {
    // Regression: a move whose target parent is missing removed the source and lost it.
    let before = json!({"a": 1, "b": 2});
    let events = run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": before}),
        state_delta(json!([{"op": "move", "from": "/a", "path": "/missing/x"}])),
    ]);
    let p = ok(&events);
    assert_eq!(
        serde_json::to_string(&p.thread.state).expect("json"),
        serde_json::to_string(&before).expect("json")
    );
    assert_eq!(warnings(&p).len(), 1);
}

#[test]
fn successful_remove_keeps_the_order_of_the_other_keys() {
    // Regression: removing a key moved the last key into its place (serde_json swap_remove),
    // so the state's key order differed from the producer's.
    let events = run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": 1, "b": 2, "c": 3, "d": 4}}),
        state_delta(json!([{"op": "remove", "path": "/b"}])),
    ]);
    let p = ok(&events);
    assert_eq!(
        serde_json::to_string(&p.thread.state).expect("json"),
        r#"{"a":1,"c":3,"d":4}"#
    );
}

#[test]
fn state_delta_on_null_and_scalar_states_follows_rfc_6902() {
    let events = run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": null}),
        state_delta(json!([{"op": "add", "path": "", "value": {"n": 1}}])),
        state_delta(json!([{"op": "add", "path": "/m", "value": 2}])),
        json!({"type": "STATE_SNAPSHOT", "snapshot": 7}),
        // A member of a number does not exist: warned, state kept.
        state_delta(json!([{"op": "add", "path": "/x", "value": 1}])),
        state_delta(json!([{"op": "test", "path": "", "value": 7},
                           {"op": "replace", "path": "", "value": [false]}])),
    ]);
    let p = ok(&events);
    assert_eq!(p.thread.state, json!([false]));
    let w = warnings(&p);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("Failed to apply state patch"), "{w:?}");

    let p = ok(&run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": null}),
        state_delta(json!([{"op": "add", "path": "", "value": {"n": 1}},
                           {"op": "add", "path": "/m", "value": 2}])),
    ]));
    assert_eq!(p.thread.state, json!({"n": 1, "m": 2}));
}

#[test]
fn empty_state_delta_is_a_no_op() {
    let p = ok(&run(vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}}),
        state_delta(json!([])),
    ]));
    assert_eq!(p.thread.state, json!({"a": 1}));
    assert!(p.thread.warnings.is_empty());
}

// ---- activity --------------------------------------------------------------------------------

#[test]
fn activity_snapshot_creates_replaces_or_preserves() {
    let p = ok(&run(vec![
        activity("act1", "PLAN", json!({"steps": ["a"]})),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act1", "activityType": "OTHER",
               "content": {"x": 1}, "replace": false, "metadata": {"seen": 1}}),
    ]));
    assert_eq!(
        messages(&p),
        json!([{"id": "act1", "role": "activity", "activityType": "PLAN",
                "content": {"steps": ["a"]}, "metadata": {"seen": 1}}])
    );
    let p = ok(&run(vec![
        activity("act1", "PLAN", json!({"steps": ["a"]})),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act1", "activityType": "OTHER",
               "content": {"x": 1}, "metadata": {"seen": 2}}),
    ]));
    assert_eq!(
        messages(&p),
        json!([{"id": "act1", "role": "activity", "activityType": "OTHER",
                "content": {"x": 1}, "metadata": {"seen": 2}}])
    );
}

#[test]
fn activity_delta_patches_content_and_sets_the_activity_type() {
    let p = ok(&run(vec![
        activity("act1", "PLAN", json!({"steps": ["a"], "done": false})),
        json!({"type": "ACTIVITY_DELTA", "messageId": "act1", "activityType": "PLAN_V2",
               "patch": [{"op": "add", "path": "/steps/-", "value": "b"},
                         {"op": "replace", "path": "/done", "value": true}]}),
    ]));
    assert_eq!(
        messages(&p),
        json!([{"id": "act1", "role": "activity", "activityType": "PLAN_V2",
                "content": {"steps": ["a", "b"], "done": true}}])
    );
    assert!(p.thread.warnings.is_empty(), "{:?}", warnings(&p));
}

#[test]
fn failing_activity_delta_keeps_content_and_type() {
    // Regression: this well-formed patch made json-patch's rollback panic (`unreachable!`).
    let p = ok(&run(vec![
        activity("act1", "PLAN", json!({"a": {"b": 1}, "k": 0})),
        json!({"type": "ACTIVITY_DELTA", "messageId": "act1", "activityType": "NEW",
               "patch": [{"op": "move", "from": "/a/b", "path": "/a"},
                         {"op": "test", "path": "/k", "value": 5}]}),
    ]));
    assert_eq!(
        messages(&p),
        json!([{"id": "act1", "role": "activity", "activityType": "PLAN",
                "content": {"a": {"b": 1}, "k": 0}}])
    );
    assert_eq!(warnings(&p).len(), 1);
}

#[test]
fn activity_delta_for_a_missing_message_warns_and_creates_nothing() {
    let p = ok(&run(vec![json!({
        "type": "ACTIVITY_DELTA", "messageId": "ghost", "activityType": "PLAN",
        "patch": [{"op": "add", "path": "/x", "value": 1}]
    })]));
    assert_eq!(messages(&p), json!([]));
    let w = warnings(&p);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("ACTIVITY_DELTA") && w[0].contains("ghost"),
        "{w:?}"
    );
}

#[test]
fn activity_messages_are_stripped_from_the_request() {
    let mut body = vec![activity("act1", "PLAN", json!({"steps": []}))];
    body.extend(text("m1", "hi"));
    let p = ok(&run(body));
    assert_eq!(p.thread.messages.len(), 2);
    let input = RunAgentInput {
        thread_id: "t1".into(),
        run_id: "r2".into(),
        protocol_version: None,
        parent_run_id: None,
        state: None,
        messages: p.thread.messages.clone(),
        tools: None,
        context: None,
        forwarded_props: None,
        resume: None,
    };
    let (body, _) = prepare_request(&input, None).expect("request");
    assert_eq!(
        body["messages"],
        json!([{"id": "m1", "role": "assistant", "content": "hi"}])
    );
}

// ---- reasoning encrypted values --------------------------------------------------------------

#[test]
fn encrypted_values_are_stored_on_messages_and_tool_calls() {
    let mut body = Vec::new();
    body.extend(reasoning("th1", "x"));
    body.extend(call("tc1", "f", Some("a1"), "{}"));
    for (subtype, entity, value) in [("message", "th1", "ENC-M"), ("tool-call", "tc1", "ENC-T")] {
        body.push(
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": subtype,
                         "entityId": entity, "encryptedValue": value}),
        );
    }
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([
            {"id": "th1", "role": "reasoning", "content": "x", "encryptedValue": "ENC-M"},
            {"id": "a1", "role": "assistant", "toolCalls": [{
                "id": "tc1", "type": "function", "function": {"name": "f", "arguments": "{}"},
                "encryptedValue": "ENC-T"}]}
        ])
    );
    assert!(p.thread.warnings.is_empty(), "{:?}", warnings(&p));
}

#[test]
fn encrypted_value_for_an_unknown_entity_warns_and_changes_nothing() {
    let mut body = text("m1", "hi").to_vec();
    for (subtype, entity) in [("message", "ghost"), ("tool-call", "m1")] {
        body.push(
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": subtype,
                         "entityId": entity, "encryptedValue": "E"}),
        );
    }
    let p = ok(&run(body));
    assert_eq!(
        messages(&p),
        json!([{"id": "m1", "role": "assistant", "content": "hi"}])
    );
    let w = warnings(&p);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w.iter().all(|w| w.contains("REASONING_ENCRYPTED_VALUE")),
        "{w:?}"
    );
}

// ---- run status and outcome ------------------------------------------------------------------

fn finished_with(run: &str, outcome: Value) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run, "outcome": outcome})
}

fn three_calls_one_answered() -> Vec<Value> {
    let mut events = vec![started("r1")];
    events.extend(call("c2", "ask", None, "{}"));
    events.extend(call("c1", "search", None, "{}"));
    events.extend(call("c3", "ask", None, "{}"));
    events.push(result("res1", "c1", "found"));
    events
}

#[test]
fn explicit_pending_tool_call_ids_are_trusted() {
    let mut events = three_calls_one_answered();
    events.push(finished_with(
        "r1",
        json!({"type": "success", "pendingToolCallIds": ["c3"]}),
    ));
    let p = ok(&events);
    assert_eq!(
        p.thread.status(),
        RunStatus::Success {
            pending: vec!["c3".into()]
        }
    );
    assert_eq!(p.thread.pending_tool_calls(), vec!["c3".to_owned()]);
}

#[test]
fn absent_or_empty_pending_tool_call_ids_are_derived_in_call_order() {
    for last in [
        finished("r1"),
        finished_with("r1", json!({"type": "success"})),
        finished_with("r1", json!({"type": "success", "pendingToolCallIds": []})),
    ] {
        let mut events = three_calls_one_answered();
        events.push(last.clone());
        let p = ok(&events);
        assert_eq!(
            p.thread.status(),
            RunStatus::Success {
                pending: vec!["c2".into(), "c3".into()]
            },
            "{last}"
        );
    }
}

#[test]
fn a_reopened_tool_call_is_pending_once() {
    // Regression: a tool call reopened with a second TOOL_CALL_START (allowed after its END)
    // was listed twice in the derived pending list, asking the app to answer it twice.
    let mut events = vec![started("r1")];
    events.extend(call("c1", "ask", None, "{\"a\":"));
    events.extend(call("c1", "ask", None, "1}"));
    events.push(finished("r1"));
    let p = ok(&events);
    assert_eq!(
        p.thread.status(),
        RunStatus::Success {
            pending: vec!["c1".into()]
        }
    );
    assert_eq!(
        messages(&p),
        json!([{"id": "c1", "role": "assistant",
                "toolCalls": [tool_call_json("c1", "ask", "{\"a\":1}")]}])
    );
    assert_eq!(
        p.thread.tool_args.get("c1").and_then(|a| a.parser.value()),
        Some(&json!({"a": 1}))
    );
}

#[test]
fn interrupt_outcome_marks_the_run_interrupted_with_open_interrupts() {
    let events = vec![
        started("r1"),
        finished_with(
            "r1",
            json!({"type": "interrupt", "interrupts": [
                {"id": "i1", "reason": "tool_call", "toolCallId": "c1", "message": "Run it?"},
                {"id": "i2", "reason": "input_required"}
            ]}),
        ),
    ];
    let p = ok(&events);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let ids: Vec<&str> = p
        .thread
        .open_interrupts()
        .iter()
        .map(|i| i.id.as_str())
        .collect();
    assert_eq!(ids, ["i1", "i2"]);
    assert_eq!(
        p.thread.open_interrupts()[0].message.as_deref(),
        Some("Run it?")
    );
}

#[test]
fn cancelled_outcome_is_neither_success_nor_failure() {
    let p = ok(&[
        started("r1"),
        finished_with("r1", json!({"type": "cancelled"})),
    ]);
    assert_eq!(p.thread.status(), RunStatus::Cancelled);
    assert!(p.thread.open_interrupts().is_empty());
}

#[test]
fn run_error_marks_the_run_errored_with_message_and_code() {
    let mut events = vec![started("r1")];
    events.extend(text("m1", "partial"));
    events.push(json!({"type": "RUN_ERROR", "message": "rate limited", "code": "429"}));
    let p = ok(&events);
    assert_eq!(
        p.thread.status(),
        RunStatus::Error {
            message: "rate limited".into(),
            code: Some("429".into())
        }
    );
    assert_eq!(
        messages(&p),
        json!([{"id": "m1", "role": "assistant", "content": "partial"}])
    );
}

#[test]
fn late_run_error_after_run_finished_turns_the_run_into_an_error() {
    let p = ok(&[
        started("r1"),
        finished("r1"),
        json!({"type": "RUN_ERROR", "message": "post-processing failed"}),
    ]);
    assert_eq!(
        p.thread.status(),
        RunStatus::Error {
            message: "post-processing failed".into(),
            code: None
        }
    );
    assert_eq!(p.thread.runs.len(), 1);
}

#[test]
fn a_run_error_after_a_run_error_is_rejected() {
    // Regression: after RUN_ERROR only RUN_STARTED may follow (§4.3), but a second RUN_ERROR
    // was accepted and overwrote the first error.
    let (p, _) = feed(
        Thread::new(),
        &[
            started("r1"),
            json!({"type": "RUN_ERROR", "message": "first"}),
            json!({"type": "RUN_ERROR", "message": "second"}),
        ],
    );
    assert!(p.error().is_some());
    assert_eq!(
        p.thread.status(),
        RunStatus::Error {
            message: "first".into(),
            code: None
        }
    );
}

// ---- legacy interrupts (§7.1, §7.4) ----------------------------------------------------------

fn on_interrupt(value: Value) -> Value {
    json!({"type": "CUSTOM", "name": "on_interrupt", "value": value})
}

#[test]
fn legacy_on_interrupt_json_string_then_plain_run_finished_is_an_interrupt() {
    let p = ok(&[
        started("r1"),
        on_interrupt(json!("{\"message\":\"Approve?\",\"id\":\"x\"}")),
        finished("r1"),
    ]);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let open = p.thread.open_interrupts();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].id, "x");
    assert_eq!(open[0].message.as_deref(), Some("Approve?"));
}

#[test]
fn legacy_on_interrupt_with_a_non_json_string_uses_it_as_the_message() {
    let p = ok(&[
        started("r1"),
        on_interrupt(json!("Shall I proceed?")),
        on_interrupt(json!("And this too?")),
        finished("r1"),
    ]);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let open = p.thread.open_interrupts();
    assert_eq!(open.len(), 2);
    assert_eq!(open[0].message.as_deref(), Some("Shall I proceed?"));
    assert_eq!(open[1].message.as_deref(), Some("And this too?"));
    assert!(!open[0].id.is_empty());
    assert_ne!(open[0].id, open[1].id, "generated ids must be distinct");
}

#[test]
fn legacy_mastra_suspend_carries_the_tool_call_and_parsed_schema() {
    let value = json!({
        "type": "mastra_suspend", "toolCallId": "tc7", "toolName": "pay",
        "resumeSchema": "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}}}",
        "runId": "r1"
    });
    let p = ok(&[
        started("r1"),
        on_interrupt(json!(value.to_string())),
        finished("r1"),
    ]);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let open = p.thread.open_interrupts();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].tool_call_id.as_deref(), Some("tc7"));
    assert_eq!(
        open[0].response_schema.clone().map(Value::Object),
        Some(json!({"type": "object", "properties": {"ok": {"type": "boolean"}}}))
    );
}

#[test]
fn legacy_interrupts_do_not_leak_into_the_next_run() {
    let p = ok(&[
        started("r1"),
        on_interrupt(json!("Approve?")),
        finished("r1"),
        started("r2"),
        finished("r2"),
    ]);
    assert_eq!(p.thread.status(), RunStatus::Success { pending: vec![] });
    assert!(p.thread.open_interrupts().is_empty());
}

// ---- usage and steps -------------------------------------------------------------------------

#[test]
fn usage_from_run_finished_is_stored_on_the_run() {
    let p = ok(&[
        started("r1"),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "usage": [
            {"provider": "openai", "model": "gpt-x", "inputTokens": 120, "outputTokens": 30,
             "totalTokens": 150, "reasoningTokens": 10}
        ]}),
    ]);
    let usage = &last_run(&p).usage;
    assert_eq!(usage.len(), 1);
    assert_eq!(usage[0].provider.as_deref(), Some("openai"));
    assert_eq!(usage[0].model.as_deref(), Some("gpt-x"));
    assert_eq!(usage[0].input_tokens, Some(120));
    assert_eq!(usage[0].output_tokens, Some(30));
    assert_eq!(usage[0].total_tokens, Some(150));
    assert_eq!(usage[0].reasoning_tokens, Some(10));
    assert_eq!(usage[0].cached_input_tokens, None, "absent is not zero");
}

#[test]
fn steps_open_and_close_per_owner() {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(&sse(&[
        started("r1"),
        json!({"type": "STEP_STARTED", "stepName": "plan"}),
        json!({"type": "STEP_STARTED", "stepName": "plan", "subagentRunId": "sub1"}),
        json!({"type": "STEP_STARTED", "stepName": "act"}),
        json!({"type": "STEP_FINISHED", "stepName": "plan", "subagentRunId": "sub1"}),
    ]));
    assert_eq!(p.error(), None);
    let steps = &last_run(&p).steps;
    assert_eq!(
        steps,
        &vec![(None, "plan".to_owned()), (None, "act".to_owned())]
    );
    assert_eq!(last_run(&p).step_log, ["plan", "plan", "act"]);
    p.push_bytes(&sse(&[
        json!({"type": "STEP_FINISHED", "stepName": "plan"}),
        json!({"type": "STEP_FINISHED", "stepName": "act"}),
        finished("r1"),
    ]));
    assert_eq!(p.error(), None);
    assert!(last_run(&p).steps.is_empty());
    // Finishing a step its owner never started is a violation.
    let (p, _) = feed(
        Thread::new(),
        &[
            started("r1"),
            json!({"type": "STEP_STARTED", "stepName": "plan", "subagentRunId": "sub1"}),
            json!({"type": "STEP_FINISHED", "stepName": "plan"}),
        ],
    );
    assert!(p.error().is_some());
}

/// Continue `p`'s thread with a new response body, as the app does for the next request.
fn next_stream(p: &mut Pipeline, events: &[Value]) -> Pipeline {
    let thread = std::mem::take(&mut p.thread);
    let (next, _) = feed(thread, events);
    next
}

#[test]
fn interrupts_stay_open_when_the_resumed_run_ends_in_run_error() {
    // Regression: a resume the agent rejected with RUN_ERROR (e.g. an invalid payload) emptied
    // `open_interrupts`, so the next request would no longer cover them (§4.11: only a
    // RUN_FINISHED closes them, RUN_ERROR leaves them).
    let mut p = ok(&[
        started("r1"),
        finished_with(
            "r1",
            json!({"type": "interrupt", "interrupts": [{"id": "i1", "reason": "confirmation"}]}),
        ),
    ]);
    let mut p2 = next_stream(
        &mut p,
        &[
            started("r2"),
            json!({"type": "RUN_ERROR", "message": "payload does not match responseSchema"}),
        ],
    );
    assert!(matches!(p2.thread.status(), RunStatus::Error { .. }));
    let ids: Vec<&str> = p2
        .thread
        .open_interrupts()
        .iter()
        .map(|i| i.id.as_str())
        .collect();
    assert_eq!(ids, ["i1"]);
    // A truncated retry leaves them open too…
    let mut p3 = next_stream(&mut p2, &[started("r3")]);
    assert_eq!(p3.thread.status(), RunStatus::Truncated);
    assert_eq!(p3.thread.open_interrupts().len(), 1);
    // …and a finished run closes them.
    let p4 = next_stream(&mut p3, &[started("r4"), finished("r4")]);
    assert!(p4.thread.open_interrupts().is_empty());
}

#[test]
fn a_cancelled_run_finished_closes_open_interrupts() {
    let mut p = ok(&[
        started("r1"),
        finished_with(
            "r1",
            json!({"type": "interrupt", "interrupts": [{"id": "i1", "reason": "confirmation"}]}),
        ),
    ]);
    let mut p2 = Pipeline::new(std::mem::take(&mut p.thread), PipelineOptions::default());
    p2.push_bytes(&sse(&[started("r2")]));
    assert!(
        p2.thread.open_interrupts().is_empty(),
        "nothing to answer while the resumed run is in progress"
    );
    p2.push_bytes(&sse(&[finished_with("r2", json!({"type": "cancelled"}))]));
    p2.finish();
    assert_eq!(p2.error(), None);
    assert!(p2.thread.open_interrupts().is_empty());
}

#[test]
fn json_patch_cases_apply_or_leave_the_state_unchanged() {
    // RFC 6902 Appendix A plus edge cases, as data: (document, patch, Some(result) | None = error).
    let cases: Vec<(Value, Value, Option<Value>)> = vec![
        // A.1–A.5
        (
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/baz", "value": "qux"}]),
            Some(json!({"foo": "bar", "baz": "qux"})),
        ),
        (
            json!({"foo": ["bar", "baz"]}),
            json!([{"op": "add", "path": "/foo/1", "value": "qux"}]),
            Some(json!({"foo": ["bar", "qux", "baz"]})),
        ),
        (
            json!({"baz": "qux", "foo": "bar"}),
            json!([{"op": "remove", "path": "/baz"}]),
            Some(json!({"foo": "bar"})),
        ),
        (
            json!({"foo": ["bar", "qux", "baz"]}),
            json!([{"op": "remove", "path": "/foo/1"}]),
            Some(json!({"foo": ["bar", "baz"]})),
        ),
        (
            json!({"baz": "qux", "foo": "bar"}),
            json!([{"op": "replace", "path": "/baz", "value": "boo"}]),
            Some(json!({"baz": "boo", "foo": "bar"})),
        ),
        // A.6, A.7 moves
        (
            json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}),
            json!([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]),
            Some(json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}})),
        ),
        (
            json!({"foo": ["all", "grass", "cows", "eat"]}),
            json!([{"op": "move", "from": "/foo/1", "path": "/foo/3"}]),
            Some(json!({"foo": ["all", "cows", "eat", "grass"]})),
        ),
        // A.8, A.9 test
        (
            json!({"baz": "qux", "foo": ["a", 2, "c"]}),
            json!([{"op": "test", "path": "/baz", "value": "qux"},
                {"op": "test", "path": "/foo/1", "value": 2}]),
            Some(json!({"baz": "qux", "foo": ["a", 2, "c"]})),
        ),
        (
            json!({"baz": "qux"}),
            json!([{"op": "test", "path": "/baz", "value": "bar"}]),
            None,
        ),
        // A.10 nested add, A.12 add to a missing parent
        (
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/child", "value": {"grandchild": {}}}]),
            Some(json!({"foo": "bar", "child": {"grandchild": {}}})),
        ),
        (
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/baz/bat", "value": "qux"}]),
            None,
        ),
        // A.14, A.15 escapes and type-strict test
        (
            json!({"/": 9, "~1": 10}),
            json!([{"op": "test", "path": "/~01", "value": 10}]),
            Some(json!({"/": 9, "~1": 10})),
        ),
        (
            json!({"/": 9, "~1": 10}),
            json!([{"op": "test", "path": "/~01", "value": "10"}]),
            None,
        ),
        (
            json!({"/": 9}),
            json!([{"op": "replace", "path": "/~1", "value": 1}]),
            Some(json!({"/": 1})),
        ),
        // A.16 add an array value at the end
        (
            json!({"foo": ["bar"]}),
            json!([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]),
            Some(json!({"foo": ["bar", ["abc", "def"]]})),
        ),
        // copy, and its failures
        (
            json!({"a": {"x": 1}}),
            json!([{"op": "copy", "from": "/a", "path": "/b"}]),
            Some(json!({"a": {"x": 1}, "b": {"x": 1}})),
        ),
        (
            json!({"a": 1}),
            json!([{"op": "copy", "from": "/nope", "path": "/b"}]),
            None,
        ),
        // array index rules: out of bounds, leading zero, "-" only for add
        (
            json!({"a": [1]}),
            json!([{"op": "add", "path": "/a/2", "value": 0}]),
            None,
        ),
        (
            json!({"a": [1, 2]}),
            json!([{"op": "remove", "path": "/a/01"}]),
            None,
        ),
        (
            json!({"a": [1]}),
            json!([{"op": "remove", "path": "/a/-"}]),
            None,
        ),
        (
            json!({"a": [1]}),
            json!([{"op": "replace", "path": "/a/-", "value": 0}]),
            None,
        ),
        // remove / replace of something missing
        (
            json!({"a": 1}),
            json!([{"op": "remove", "path": "/b"}]),
            None,
        ),
        (
            json!({"a": 1}),
            json!([{"op": "replace", "path": "/b", "value": 2}]),
            None,
        ),
        // move into its own child fails; move onto itself is a no-op
        (
            json!({"a": {"b": 1}}),
            json!([{"op": "move", "from": "/a", "path": "/a/c"}]),
            None,
        ),
        (
            json!({"a": {"b": 1}}),
            json!([{"op": "move", "from": "/a", "path": "/a"}]),
            Some(json!({"a": {"b": 1}})),
        ),
        // a move to an ancestor, then the root
        (
            json!({"a": {"b": {"c": 1}}}),
            json!([{"op": "move", "from": "/a/b", "path": "/a"}]),
            Some(json!({"a": {"c": 1}})),
        ),
        (
            json!({"a": {"b": 1}}),
            json!([{"op": "move", "from": "/a", "path": ""}]),
            Some(json!({"b": 1})),
        ),
        // long patches fail atomically whatever op failed, after every kind of op applied
        (
            json!({"k": {"x": 1, "y": 2, "z": 3}, "l": [1, 2, 3], "m": "s"}),
            json!([{"op": "remove", "path": "/k/x"},
                {"op": "add", "path": "/k/w", "value": 0},
                {"op": "add", "path": "/k/y", "value": 20},
                {"op": "move", "from": "/l/0", "path": "/l/-"},
                {"op": "copy", "from": "/k", "path": "/l/1"},
                {"op": "replace", "path": "", "value": {"fresh": true}},
                {"op": "add", "path": "/fresh2", "value": 1},
                {"op": "move", "from": "/fresh", "path": "/moved"},
                {"op": "test", "path": "/moved", "value": false}]),
            None,
        ),
    ];
    for (doc, patch, expected) in cases {
        let p = ok(&run(vec![
            json!({"type": "STATE_SNAPSHOT", "snapshot": doc}),
            state_delta(patch.clone()),
        ]));
        match expected {
            Some(want) => {
                assert_eq!(p.thread.state, want, "{patch}");
                assert!(p.thread.warnings.is_empty(), "{patch}: {:?}", warnings(&p));
            }
            None => {
                assert_eq!(
                    serde_json::to_string(&p.thread.state).expect("json"),
                    serde_json::to_string(&doc).expect("json"),
                    "{patch} must leave the state exactly as it was"
                );
                let w = warnings(&p);
                assert_eq!(w.len(), 1, "{patch}: {w:?}");
                assert!(w[0].contains("Failed to apply state patch"), "{w:?}");
            }
        }
    }
}

#[test]
fn messages_echoed_in_run_started_input_are_appended_once_with_their_tool_args() {
    // Regression: tool calls that arrived in `RUN_STARTED.input.messages` had no parsed-args
    // view (`tool_args`), unlike calls from seeded history or a snapshot, so their cards showed
    // no arguments.
    let history = vec![Message::user("u1", "hi")];
    let echoed = json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "input": {
        "threadId": "t1", "runId": "r1",
        "messages": [
            {"id": "u1", "role": "user", "content": "hi (echo)"},
            {"id": "a0", "role": "assistant",
             "toolCalls": [tool_call_json("tc0", "lookup", "{\"k\":[1,2]}")]},
            {"id": "a0", "role": "assistant", "content": "duplicate id"}
        ]
    }});
    let p = ok_on(
        Thread::with_history(history, json!({})),
        &[echoed, finished("r1")],
    );
    assert_eq!(
        messages(&p),
        json!([
            {"id": "u1", "role": "user", "content": "hi"},
            {"id": "a0", "role": "assistant",
             "toolCalls": [tool_call_json("tc0", "lookup", "{\"k\":[1,2]}")]}
        ])
    );
    let args = p
        .thread
        .tool_args
        .get("tc0")
        .expect("args view for the echoed call");
    assert_eq!(args.parser.value(), Some(&json!({"k": [1, 2]})));
    assert!(args.ended);
}

// Issue 12, item 14: an agent can cause a warning per event; the list (re-sent to the screen on
// every flush) and each text are bounded.
#[test]
fn warnings_are_kept_up_to_a_bound_and_the_rest_counted() {
    use agui_leptos::protocol::reducer::MAX_WARNINGS;
    use agui_leptos::protocol::{Pipeline, PipelineOptions, Thread};
    let mut body =
        String::from("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
    let long_id = "x".repeat(10_000);
    for _ in 0..1_000 {
        body.push_str(&format!(
            "data: {{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"{long_id}\",\"activityType\":\"a\",\"patch\":[]}}\n\n"
        ));
    }
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(body.as_bytes());
    assert_eq!(p.thread.warnings.len(), MAX_WARNINGS);
    assert_eq!(p.thread.warnings_omitted, 1_000 - MAX_WARNINGS);
    let w = &p.thread.warnings[0];
    assert!(w.message.chars().count() <= 501, "{}", w.message.len());
}
