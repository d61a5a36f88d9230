//! The AI SDK UI message stream decoder (`protocol::ai_sdk`) on bytes the real producer sent:
//! tests/fixtures/ai_sdk/ was captured by tests/e2e/capture_ai_sdk.mjs from
//! tests/e2e/ai_sdk_server.mjs, whose every response the npm `ai` package makes
//! (`createUIMessageStream`, `streamText` over a scripted model, `pipeUIMessageStreamToResponse`).
//! Beside each `<name>.sse` lies `<name>.ui.json`, the message the AI SDK's own client built
//! from the same bytes, and for the approval answers `<name>.request.json`, the body the AI
//! SDK's own client (`AbstractChat` + `DefaultChatTransport`) sent. Node-free: re-capture with
//! `node tests/e2e/capture_ai_sdk.mjs`.

use std::path::PathBuf;

use agui_leptos::protocol::ai_sdk::{
    approval_responses, is_ai_sdk_response, request_body, AiSdkStream, Trigger, DENIED,
};
use agui_leptos::protocol::event::EventKind;
use agui_leptos::protocol::types::{
    Content, Message, ResumeEntry, ResumeStatus, Role, RunFinishedOutcome,
};
use agui_leptos::protocol::{Delivered, PipelineOptions, RunStatus, Thread};
use serde_json::{json, Value};

/// Every captured response: the single-request scenarios, then the approval round trip.
const FIXTURES: &[&str] = &[
    "text",
    "reasoning",
    "tool",
    "data",
    "error",
    "slow",
    "approval",
    "approval-approved",
    "approval-denied",
];

// ---- fixtures -----------------------------------------------------------------------------------

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ai_sdk")
}

fn sse(name: &str) -> Vec<u8> {
    let path = dir().join(format!("{name}.sse"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json_file(name: &str) -> Value {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The chunks of a fixture, read independently of the decoder: the producer writes every frame
/// as one `data: <json>\n\n` and ends with `data: [DONE]`.
fn chunks(name: &str) -> Vec<Value> {
    let bytes = sse(name);
    let text = String::from_utf8(bytes).expect("UTF-8");
    text.split("\n\n")
        .filter_map(|frame| frame.strip_prefix("data: "))
        .filter(|data| *data != "[DONE]")
        .map(|data| serde_json::from_str(data).expect("chunk JSON"))
        .collect()
}

fn of_type<'a>(chunks: &'a [Value], ty: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    chunks.iter().filter(move |c| c["type"] == ty)
}

/// The concatenated `field` of every chunk of type `ty` (the deltas of a stream).
fn concat(chunks: &[Value], ty: &str, field: &str) -> String {
    of_type(chunks, ty)
        .map(|c| c[field].as_str().expect("a string delta"))
        .collect()
}

// ---- decoding -------------------------------------------------------------------------------------

/// The prompt of the approval round trip, as the AI SDK's client sent it (its first message).
fn approval_user() -> Message {
    let sent = json_file("approval-approved.request.json");
    let m = &sent["messages"][0];
    Message::user(
        m["id"].as_str().expect("id"),
        m["parts"][0]["text"].as_str().expect("text"),
    )
}

/// The thread a fixture continues: the approval answers continue the approval's thread.
fn base(name: &str) -> Thread {
    match name {
        "approval-approved" | "approval-denied" => fixture("approval").0,
        "approval" => Thread::with_history(vec![approval_user()], json!({})),
        _ => Thread::new(),
    }
}

fn run_id(name: &str) -> String {
    format!("run-{name}")
}

fn stream(thread: Thread, name: &str) -> AiSdkStream {
    AiSdkStream::new(thread, PipelineOptions::default(), "chat", run_id(name))
}

/// The fixture `name` pushed in two pieces cut at `cut`.
fn decode_cut(thread: Thread, name: &str, cut: usize) -> (Thread, Vec<Delivered>, AiSdkStream) {
    let bytes = sse(name);
    let mut s = stream(thread, name);
    let mut out = s.push_bytes(&bytes[..cut]);
    out.extend(s.push_bytes(&bytes[cut..]));
    out.extend(s.finish());
    (s.pipeline.thread.clone(), out, s)
}

/// The fixture `name` on the thread it continues, checked clean: no protocol error, no warning.
fn decode(thread: Thread, name: &str) -> (Thread, Vec<Delivered>) {
    let len = sse(name).len();
    let (t, out, s) = decode_cut(thread, name, len);
    assert_eq!(s.error(), None, "{name}: {:?}", t.warnings);
    assert!(t.warnings.is_empty(), "{name}: {:?}", t.warnings);
    assert_eq!(t.warnings_omitted, 0);
    (t, out)
}

fn fixture(name: &str) -> (Thread, Vec<Delivered>) {
    decode(base(name), name)
}

/// The messages this run added (the thread minus what it continued).
fn added<'a>(t: &'a Thread, name: &str) -> &'a [Message] {
    &t.messages[base(name).messages.len()..]
}

fn texts(messages: &[Message], role: Role) -> Vec<String> {
    messages
        .iter()
        .filter(|m| m.role == role)
        .map(|m| m.text().into_owned())
        .collect()
}

fn last_finished(out: &[Delivered]) -> Option<&Option<RunFinishedOutcome>> {
    out.iter().rev().find_map(|d| match &d.event.kind {
        EventKind::RunFinished(f) => Some(&f.outcome),
        _ => None,
    })
}

fn object(v: Value) -> Content {
    Content::Object(v.as_object().cloned().expect("an object"))
}

// ---- the wire -------------------------------------------------------------------------------------

#[test]
fn every_capture_is_a_v1_ui_message_stream_from_ai_7() {
    let manifest = json_file("manifest.json");
    let version = manifest["ai"].as_str().expect("ai version");
    assert!(version.starts_with("7."), "captured with ai@{version}");
    for name in FIXTURES {
        let m = &manifest["scenarios"][name];
        assert_eq!(m["header"], "v1", "{name}");
        assert!(
            is_ai_sdk_response(m["contentType"].as_str(), m["header"].as_str()),
            "{name}: {m}"
        );
        let bytes = sse(name);
        assert!(bytes.starts_with(b"data: {\"type\":\"start\""), "{name}");
        assert!(bytes.ends_with(b"data: [DONE]\n\n"), "{name}");
    }
    assert_eq!(
        manifest["scenarios"].as_object().map(|m| m.len()),
        Some(FIXTURES.len())
    );
}

#[test]
fn every_split_point_of_every_capture_gives_the_same_thread_and_events() {
    for name in FIXTURES {
        let bytes = sse(name);
        let base = base(name);
        let (want, want_out, _) = decode_cut(base.clone(), name, bytes.len());
        let want_messages = format!("{:?}", want.messages);
        let want_events: Vec<Value> = want_out.iter().map(|d| d.event.to_json()).collect();
        let want_runs = format!("{:?}", want.runs);
        for cut in 0..=bytes.len() {
            let (t, out, s) = decode_cut(base.clone(), name, cut);
            assert_eq!(s.error(), None, "{name} cut at {cut}");
            assert_eq!(
                format!("{:?}", t.messages),
                want_messages,
                "{name} cut at {cut}"
            );
            assert_eq!(format!("{:?}", t.runs), want_runs, "{name} cut at {cut}");
            let events: Vec<Value> = out.iter().map(|d| d.event.to_json()).collect();
            assert_eq!(events, want_events, "{name} cut at {cut}");
        }
    }
}

#[test]
fn a_stream_cut_before_its_end_is_never_a_success() {
    for name in FIXTURES {
        let bytes = sse(name);
        let ends = ["\"type\":\"finish\"", "\"type\":\"error\"", "[DONE]"];
        let end = ends
            .iter()
            .filter_map(|e| String::from_utf8_lossy(&bytes).find(e))
            .min()
            .expect("an end");
        let before = base(name);
        for cut in (0..end).step_by(7) {
            let mut s = stream(before.clone(), name);
            s.push_bytes(&bytes[..cut]);
            s.finish();
            let t = &s.pipeline.thread;
            if t.runs.len() == before.runs.len() {
                // Nothing started (no chunk yet): the thread is as it was.
                assert_eq!(t.status(), before.status(), "{name} cut at {cut}");
                continue;
            }
            let status = t.status();
            assert!(
                !matches!(status, RunStatus::Success { .. } | RunStatus::Interrupted),
                "{name} cut at {cut}: {status:?}"
            );
        }
    }
}

// ---- the scenarios ----------------------------------------------------------------------------------

#[test]
fn text_is_one_assistant_message_holding_every_delta() {
    let (t, out) = fixture("text");
    let c = chunks("text");
    let want = concat(&c, "text-delta", "delta");
    assert!(of_type(&c, "text-delta").count() >= 3, "several deltas");
    assert!(
        want.contains("**short**") && want.contains("\n- one\n"),
        "markdown: {want}"
    );
    assert_eq!(texts(&t.messages, Role::Assistant), [want]);
    assert_eq!(t.messages.len(), 1);
    let mid = c[0]["messageId"].as_str().expect("messageId");
    assert_eq!(t.messages[0].id, format!("{mid}:text-1"));
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    assert_eq!(last_finished(&out), Some(&None));
    let md = out.last().and_then(|d| d.event.metadata.clone());
    assert_eq!(
        md,
        json!({"aiSdkFinishReason": "stop"}).as_object().cloned()
    );
}

#[test]
fn reasoning_comes_before_the_answer_as_its_own_message() {
    let (t, _) = fixture("reasoning");
    let c = chunks("reasoning");
    let roles: Vec<Role> = t.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::Reasoning, Role::Assistant]);
    assert_eq!(
        texts(&t.messages, Role::Reasoning),
        [concat(&c, "reasoning-delta", "delta")]
    );
    assert_eq!(
        texts(&t.messages, Role::Assistant),
        [concat(&c, "text-delta", "delta")]
    );
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
}

#[test]
fn the_tool_call_has_its_streamed_arguments_and_its_result() {
    let (t, _) = fixture("tool");
    let c = chunks("tool");
    let start = of_type(&c, "tool-input-start")
        .next()
        .expect("tool-input-start");
    let id = start["toolCallId"].as_str().expect("id");
    let streamed = concat(&c, "tool-input-delta", "inputTextDelta");
    assert!(
        of_type(&c, "tool-input-delta").count() >= 3,
        "several deltas"
    );
    let available = of_type(&c, "tool-input-available")
        .next()
        .expect("available");
    let output = &of_type(&c, "tool-output-available").next().expect("output")["output"];

    let (holder, call) = t.tool_call(id).expect("the call");
    assert_eq!(
        call.function.name,
        start["toolName"].as_str().expect("name")
    );
    assert_eq!(call.function.arguments, streamed);
    let args: Value = serde_json::from_str(&call.function.arguments).expect("JSON args");
    assert_eq!(args, available["input"]);
    let parsed = t.tool_args.get(id).expect("args view");
    assert!(parsed.ended);
    assert_eq!(parsed.parser.value(), Some(&available["input"]));
    // The call hangs under the text that introduced it.
    assert_eq!(t.messages[holder].role, Role::Assistant);
    assert_eq!(t.messages[holder].text(), "Let me look that up.");

    let result = t.tool_result(id).expect("the result");
    assert_eq!(result.error, None);
    let content: Value = serde_json::from_str(&result.text()).expect("JSON result");
    assert_eq!(&content, output);
    // Two steps: the answer after the result is a message of its own, after it.
    let roles: Vec<Role> = t.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::Assistant, Role::Tool, Role::Assistant]);
    assert_eq!(t.messages[2].text(), "It is sunny and 21 °C in Lisbon.");
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    assert_eq!(t.run().expect("run").step_log, ["step-1", "step-2"]);
}

#[test]
fn the_data_part_is_updated_in_place_and_the_transient_one_is_not_stored() {
    let (t, out) = fixture("data");
    let c = chunks("data");
    let weather: Vec<&Value> = of_type(&c, "data-weather").collect();
    assert_eq!(weather.len(), 2, "written, then updated by the same id");
    assert_eq!(weather[0]["id"], weather[1]["id"]);
    assert_ne!(weather[0]["data"], weather[1]["data"]);
    let last = weather[1];

    let activities: Vec<&Message> = t
        .messages
        .iter()
        .filter(|m| m.role == Role::Activity)
        .collect();
    assert_eq!(activities.len(), 1, "{:?}", t.messages);
    let a = activities[0];
    assert_eq!(a.activity_type.as_deref(), Some("data-weather"));
    assert_eq!(
        a.content,
        Some(object(json!({"data": last["data"], "id": last["id"]})))
    );
    // In place: still where it was first written, before the text (as in the AI SDK's message).
    assert_eq!(t.messages[0].id, a.id);
    assert_eq!(texts(&t.messages, Role::Assistant), ["The forecast is in."]);

    let notice = of_type(&c, "data-notice")
        .next()
        .expect("the transient part");
    assert_eq!(notice["transient"], true);
    assert_eq!(t.messages.len(), 2, "the transient part is not a message");
    let customs: Vec<Value> = out
        .iter()
        .filter_map(|d| match &d.event.kind {
            EventKind::Custom(c) => Some(json!({"name": c.name, "value": c.value})),
            _ => None,
        })
        .collect();
    assert_eq!(
        customs,
        [json!({"name": "data-notice", "value": {"data": notice["data"]}})]
    );
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
}

#[test]
fn the_error_chunk_fails_the_run_with_its_text_after_the_text_so_far() {
    let (t, out) = fixture("error");
    let c = chunks("error");
    let error = of_type(&c, "error").next().expect("error chunk");
    let text = error["errorText"].as_str().expect("errorText");
    assert_eq!(
        t.status(),
        RunStatus::Error {
            message: text.into(),
            code: None
        }
    );
    assert_eq!(out.last().map(|d| d.event.type_name()), Some("RUN_ERROR"));
    assert_eq!(
        texts(&t.messages, Role::Assistant),
        [concat(&c, "text-delta", "delta")]
    );
}

#[test]
fn the_slow_stream_is_one_long_message() {
    let (t, _) = fixture("slow");
    let c = chunks("slow");
    assert_eq!(of_type(&c, "text-delta").count(), 40);
    let want = concat(&c, "text-delta", "delta");
    assert!(want.starts_with("word1 word2 ") && want.ends_with("word40 "));
    assert_eq!(texts(&t.messages, Role::Assistant), [want]);
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
}

// ---- the approval round trip ------------------------------------------------------------------------

#[test]
fn the_approval_request_is_an_open_interrupt_raised_by_run_finished() {
    let (t, out) = fixture("approval");
    let c = chunks("approval");
    let request = of_type(&c, "tool-approval-request")
        .next()
        .expect("request");
    let (approval_id, call_id) = (
        request["approvalId"].as_str().expect("approvalId"),
        request["toolCallId"].as_str().expect("toolCallId"),
    );
    let Some(Some(RunFinishedOutcome::Interrupt { interrupts })) = last_finished(&out) else {
        panic!(
            "RUN_FINISHED without an interrupt outcome: {:?}",
            last_finished(&out)
        );
    };
    assert_eq!(interrupts.len(), 1);
    assert_eq!(t.status(), RunStatus::Interrupted);
    let open = t.open_interrupts();
    assert_eq!(open, interrupts.as_slice());
    assert_eq!(open[0].id, approval_id);
    assert_eq!(open[0].reason, "tool_call");
    assert_eq!(open[0].tool_call_id.as_deref(), Some(call_id));
    let (_, call) = t.tool_call(call_id).expect("the call");
    assert_eq!(call.function.name, "bookVenue");
    let input = &of_type(&c, "tool-input-available").next().expect("input")["input"];
    assert_eq!(
        serde_json::from_str::<Value>(&call.function.arguments)
            .ok()
            .as_ref(),
        Some(input)
    );
    assert!(t.tool_result(call_id).is_none());
    assert_eq!(t.pending_tool_calls(), [call_id]);
}

/// The thread after `approval`, the person's answer, and the request our client sends for it.
fn answer(approved: bool, reason: Option<&str>) -> (Thread, Value) {
    let (t, _) = fixture("approval");
    let interrupts = t.open_interrupts().to_vec();
    let mut payload = json!({"approved": approved});
    if let Some(r) = reason {
        payload["reason"] = json!(r);
    }
    let resume = [ResumeEntry {
        interrupt_id: interrupts[0].id.clone(),
        status: ResumeStatus::Resolved,
        payload: Some(payload),
        metadata: None,
    }];
    let approvals = approval_responses(&interrupts, &resume);
    assert_eq!(approvals.len(), 1);
    let chat = if approved {
        "capture-approval-approved"
    } else {
        "capture-approval-denied"
    };
    let body = request_body(chat, &t.messages, Trigger::SubmitMessage, &approvals);
    (t, body)
}

/// UI message parts without `step-start`: the AI SDK's client adds one per step, our request
/// one after each tool result (where `convertToModelMessages` needs it).
fn without_steps(parts: &Value) -> Vec<Value> {
    parts
        .as_array()
        .expect("parts")
        .iter()
        .filter(|p| p["type"] != "step-start")
        .cloned()
        .collect()
}

#[test]
fn the_approval_answer_is_the_request_the_ai_sdk_client_sends() {
    for (name, approved, reason) in [
        ("approval-approved", true, None),
        ("approval-denied", false, Some("Too expensive")),
    ] {
        let (_, ours) = answer(approved, reason);
        let sdk = json_file(&format!("{name}.request.json"));
        assert_eq!(ours["id"], sdk["id"], "{name}");
        assert_eq!(ours["trigger"], sdk["trigger"], "{name}");
        let (ours, sdk) = (
            ours["messages"].as_array().unwrap(),
            sdk["messages"].as_array().unwrap(),
        );
        assert_eq!(ours.len(), sdk.len(), "{name}");
        for (o, s) in ours.iter().zip(sdk) {
            assert_eq!((&o["id"], &o["role"]), (&s["id"], &s["role"]), "{name}");
            assert_eq!(
                without_steps(&o["parts"]),
                without_steps(&s["parts"]),
                "{name}"
            );
        }
        // What the server reads (ai_sdk_server.mjs `approvalAnswers`, and `streamText`'s own
        // approval handling): the last message is the assistant's, its tool part answered.
        let last = ours.last().expect("messages");
        assert_eq!(last["role"], "assistant");
        let part = last["parts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["type"] == "tool-bookVenue")
            .expect("the tool part");
        assert_eq!(part["state"], "approval-responded");
        assert_eq!(part["approval"]["approved"], approved);
        assert_eq!(
            part["approval"]["reason"],
            reason.map_or(Value::Null, |r| json!(r))
        );
    }
}

#[test]
fn the_answered_approval_continues_the_same_message_with_the_output_or_the_denial() {
    let call_id = "call-book-1";
    let (t, _) = fixture("approval-approved");
    let c = chunks("approval-approved");
    let output = &of_type(&c, "tool-output-available").next().expect("output")["output"];
    let result = t.tool_result(call_id).expect("the result");
    assert_eq!(result.error, None);
    assert_eq!(
        serde_json::from_str::<Value>(&result.text()).ok().as_ref(),
        Some(output)
    );
    assert_eq!(
        texts(added(&t, "approval-approved"), Role::Assistant),
        ["Booked: confirmation TASCA-0042."]
    );
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    assert!(t.open_interrupts().is_empty());
    assert_eq!(t.runs.len(), 2);

    let (t, _) = fixture("approval-denied");
    let result = t.tool_result(call_id).expect("the denial");
    assert_eq!(result.text(), DENIED);
    let md = result.metadata.as_ref().expect("metadata");
    assert_eq!(md["aiSdkState"], "output-denied");
    assert_eq!(
        texts(added(&t, "approval-denied"), Role::Assistant),
        ["Okay, I did not book it (Too expensive)."]
    );
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    assert!(t.pending_tool_calls().is_empty());
    // Later requests restate the answered approval: the AI SDK's `validateUIMessages` refuses an
    // `output-denied` part without `approval: {id, approved: false}`.
    let message = our_message(&t);
    let part = message["parts"]
        .as_array()
        .and_then(|parts| parts.iter().find(|p| p["type"] == "tool-bookVenue"))
        .expect("the tool part");
    assert_eq!(part["state"], "output-denied");
    assert_eq!(
        part["approval"],
        json!({"id": "approval-request-1", "approved": false})
    );
}

// ---- the AI SDK's own reading of the same bytes -----------------------------------------------------

/// The assistant UI message our request would send for `t` (no approvals pending).
fn our_message(t: &Thread) -> Value {
    let body = request_body("chat", &t.messages, Trigger::SubmitMessage, &[]);
    let messages = body["messages"].as_array().expect("messages").clone();
    let assistant: Vec<&Value> = messages
        .iter()
        .filter(|m| m["role"] == "assistant")
        .collect();
    assert_eq!(assistant.len(), 1, "{messages:?}");
    assistant[0].clone()
}

/// The AI SDK client's parts, less what our thread does not keep: `step-start` (see
/// [`without_steps`]), a reasoning part's block `id`, and the person's `reason` on an answered
/// approval (it is in the answering request, not in the stream): both optional in its schema.
fn sdk_parts(message: &Value) -> Vec<Value> {
    let mut parts = without_steps(&message["parts"]);
    for p in &mut parts {
        if p["type"] == "reasoning" {
            p.as_object_mut().map(|o| o.remove("id"));
        }
        if let Some(approval) = p.get_mut("approval").and_then(Value::as_object_mut) {
            approval.remove("reason");
        }
    }
    parts
}

#[test]
fn the_request_holds_what_the_ai_sdk_client_built_from_the_same_bytes() {
    for name in [
        "text",
        "reasoning",
        "tool",
        "data",
        "slow",
        "approval-approved",
        "approval-denied",
    ] {
        let (t, _) = fixture(name);
        let ours = our_message(&t);
        let sdk = json_file(&format!("{name}.ui.json"));
        assert_eq!(ours["id"], sdk["id"], "{name}");
        assert_eq!(without_steps(&ours["parts"]), sdk_parts(&sdk), "{name}");
    }
    // A failed stream: the text so far (the AI SDK leaves its part `streaming`).
    let (t, _) = fixture("error");
    let (ours, sdk) = (our_message(&t), json_file("error.ui.json"));
    let text = |m: &Value| without_steps(&m["parts"])[0]["text"].clone();
    assert_eq!(text(&ours), text(&sdk));
}
