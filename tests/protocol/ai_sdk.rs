//! The AI SDK UI message stream (`protocol::ai_sdk`): hand-written captured bytes in the shape of
//! vercel/ai `ui-message-chunks.ts`, decoded and folded through the real pipeline into a thread;
//! the request body; detection.

use agui_leptos::protocol::ai_sdk::{
    approval_responses, is_ai_sdk_response, request_body, AiSdkError, AiSdkStream, Trigger, DENIED,
    MAX_PARTS,
};
use agui_leptos::protocol::types::{Content, Message, ResumeEntry, ResumeStatus, Role};
use agui_leptos::protocol::{
    Delivered, PipelineOptions, ProtocolError, RunStatus, Thread, WarningKind,
};
use agui_leptos::view::interrupt::{card_kind, CardKind};
use serde_json::{json, Value};

// ---- fixtures: what a server sends, byte for byte ------------------------------------------

const TEXT: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hello\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\" wörld\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\n\n\
data: [DONE]\n\n";

const INTERLEAVED: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"a\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"b\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"a\",\"delta\":\"A1 \"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"b\",\"delta\":\"B1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"a\",\"delta\":\"A2\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"a\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"b\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

const REASONING: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"reasoning-start\",\"id\":\"r1\",\"providerMetadata\":{\"anthropic\":{\"signature\":\"sig\"}}}\n\n\
data: {\"type\":\"reasoning-delta\",\"id\":\"r1\",\"delta\":\"Think \"}\n\n\
data: {\"type\":\"reasoning-delta\",\"id\":\"r1\",\"delta\":\"first.\"}\n\n\
data: {\"type\":\"reasoning-end\",\"id\":\"r1\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Done.\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

/// Two steps: text, a server tool with streamed input and its output, then more text. CRLF
/// line ends, a keep-alive comment and an unknown field, as real servers send.
const TOOL: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\r\n\r\n\
data: {\"type\":\"start-step\"}\r\n\r\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\r\n\r\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Checking.\"}\r\n\r\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\r\n\r\n\
: keep-alive\r\n\r\n\
data: {\"type\":\"tool-input-start\",\"toolCallId\":\"call_1\",\"toolName\":\"getWeather\",\"future\":1}\r\n\r\n\
data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"call_1\",\"inputTextDelta\":\"{\\\"city\\\":\\\"San\"}\r\n\r\n\
data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"call_1\",\"inputTextDelta\":\" Francisco\\\"}\"}\r\n\r\n\
data: {\"type\":\"tool-input-available\",\"toolCallId\":\"call_1\",\"toolName\":\"getWeather\",\"input\":{\"city\":\"San Francisco\"},\"providerExecuted\":true}\r\n\r\n\
data: {\"type\":\"tool-output-available\",\"toolCallId\":\"call_1\",\"output\":{\"weather\":\"sunny\"}}\r\n\r\n\
data: {\"type\":\"finish-step\"}\r\n\r\n\
data: {\"type\":\"start-step\"}\r\n\r\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\r\n\r\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"It is sunny.\"}\r\n\r\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\r\n\r\n\
data: {\"type\":\"finish-step\"}\r\n\r\n\
data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\r\n\r\n\
data: [DONE]\r\n\r\n";

const TOOL_ERROR: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"tool-input-available\",\"toolCallId\":\"c1\",\"toolName\":\"lookup\",\"input\":{\"q\":\"x\"}}\n\n\
data: {\"type\":\"tool-output-error\",\"toolCallId\":\"c1\",\"errorText\":\"boom\"}\n\n\
data: {\"type\":\"tool-input-error\",\"toolCallId\":\"c2\",\"toolName\":\"lookup\",\"input\":\"{bad\",\"errorText\":\"invalid input\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

const DATA: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"data-progress\",\"id\":\"p1\",\"data\":{\"percent\":10}}\n\n\
data: {\"type\":\"data-notice\",\"data\":{\"message\":\"Almost there\"},\"transient\":true}\n\n\
data: {\"type\":\"data-progress\",\"id\":\"p1\",\"data\":{\"percent\":100}}\n\n\
data: {\"type\":\"source-url\",\"sourceId\":\"s1\",\"url\":\"https://example.com\",\"title\":\"Example\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

const APPROVAL: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"tool-input-start\",\"toolCallId\":\"c9\",\"toolName\":\"bookVenue\"}\n\n\
data: {\"type\":\"tool-input-available\",\"toolCallId\":\"c9\",\"toolName\":\"bookVenue\",\"input\":{\"venue\":\"Tasca\"}}\n\n\
data: {\"type\":\"tool-approval-request\",\"approvalId\":\"ap1\",\"toolCallId\":\"c9\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"finish\",\"finishReason\":\"tool-calls\"}\n\n\
data: [DONE]\n\n";

const ERROR: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Par\"}\n\n\
data: {\"type\":\"error\",\"errorText\":\"rate limited\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

const ABORT: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Half\"}\n\n\
data: {\"type\":\"tool-input-start\",\"toolCallId\":\"c1\",\"toolName\":\"x\"}\n\n\
data: {\"type\":\"abort\",\"reason\":\"user stopped\"}\n\n";

const RESET: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Kept.\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"reasoning-start\",\"id\":\"r1\"}\n\n\
data: {\"type\":\"reasoning-delta\",\"id\":\"r1\",\"delta\":\"hmm\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t2\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t2\",\"delta\":\"Half a sen\"}\n\n\
data: {\"type\":\"data-progress\",\"data\":{\"percent\":5}}\n\n\
data: {\"type\":\"tool-input-start\",\"toolCallId\":\"c1\",\"toolName\":\"x\"}\n\n\
data: {\"type\":\"reset-step\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t2\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t2\",\"delta\":\"A whole sentence.\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t2\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

// ---- helpers ----------------------------------------------------------------------------------

fn stream() -> AiSdkStream {
    AiSdkStream::new(Thread::new(), PipelineOptions::default(), "th1", "run1")
}

fn feed(bytes: &str) -> (AiSdkStream, Vec<Delivered>) {
    let mut s = stream();
    let mut out = s.push_bytes(bytes.as_bytes());
    out.extend(s.finish());
    (s, out)
}

fn types(out: &[Delivered]) -> Vec<&'static str> {
    out.iter().map(|d| d.event.type_name()).collect()
}

fn summary(t: &Thread) -> Vec<(Role, String, String)> {
    t.messages
        .iter()
        .map(|m| (m.role, m.id.clone(), m.text().into_owned()))
        .collect()
}

fn ok(s: &AiSdkStream) {
    assert_eq!(
        s.error(),
        None,
        "warnings: {:?}",
        s.pipeline.thread.warnings
    );
}

// ---- text, blocks, reasoning ------------------------------------------------------------------

#[test]
fn text_becomes_one_assistant_message_and_a_successful_run() {
    let (s, out) = feed(TEXT);
    ok(&s);
    assert_eq!(
        types(&out),
        [
            "RUN_STARTED",
            "STEP_STARTED",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "STEP_FINISHED",
            "RUN_FINISHED"
        ]
    );
    let t = &s.pipeline.thread;
    assert_eq!(
        summary(t),
        [(Role::Assistant, "msg1:t1".into(), "Hello wörld".into())]
    );
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    let run = t.run().expect("run");
    assert_eq!(
        (run.thread_id.as_str(), run.run_id.as_str()),
        ("th1", "run1")
    );
    assert_eq!(run.step_log, ["step-1"]);
    let md = out.last().and_then(|d| d.event.metadata.clone());
    assert_eq!(
        md,
        json!({"aiSdkFinishReason": "stop"}).as_object().cloned()
    );
}

#[test]
fn interleaved_text_blocks_stay_apart() {
    let (s, _) = feed(INTERLEAVED);
    ok(&s);
    assert_eq!(
        summary(&s.pipeline.thread),
        [
            (Role::Assistant, "msg1:a".into(), "A1 A2".into()),
            (Role::Assistant, "msg1:b".into(), "B1".into()),
        ]
    );
}

#[test]
fn reasoning_is_a_reasoning_message_with_its_provider_metadata() {
    let (s, out) = feed(REASONING);
    ok(&s);
    let t = &s.pipeline.thread;
    assert_eq!(
        summary(t),
        [
            (Role::Reasoning, "msg1:r1".into(), "Think first.".into()),
            (Role::Assistant, "msg1:t1".into(), "Done.".into()),
        ]
    );
    assert!(types(&out).starts_with(&[
        "RUN_STARTED",
        "REASONING_START",
        "REASONING_MESSAGE_START"
    ]));
    let md = t.messages[0].metadata.as_ref().expect("metadata");
    assert_eq!(
        md["aiSdkProviderMetadata"],
        json!({"anthropic": {"signature": "sig"}})
    );
    assert_eq!(md["aiSdkMessageId"], json!("msg1"));
}

// ---- tools ------------------------------------------------------------------------------------

#[test]
fn a_streamed_tool_call_and_its_output_land_under_the_text_that_introduced_it() {
    let (s, _) = feed(TOOL);
    ok(&s);
    let t = &s.pipeline.thread;
    assert_eq!(
        summary(t),
        [
            (Role::Assistant, "msg1:t1".into(), "Checking.".into()),
            (
                Role::Tool,
                "call_1:result".into(),
                r#"{"weather":"sunny"}"#.into()
            ),
            // The second step's block reuses the id "t1": a new message.
            (Role::Assistant, "msg1:t1~2".into(), "It is sunny.".into()),
        ]
    );
    let (holder, call) = t.tool_call("call_1").expect("call");
    assert_eq!(holder, 0);
    assert_eq!(call.function.name, "getWeather");
    assert_eq!(call.function.arguments, r#"{"city":"San Francisco"}"#);
    let md = call.metadata.as_ref().expect("call metadata");
    assert_eq!(md["aiSdkTool"], json!({"providerExecuted": true}));
    let args = t.tool_args.get("call_1").expect("args");
    assert!(args.ended);
    assert_eq!(args.parser.value(), Some(&json!({"city": "San Francisco"})));
    assert_eq!(t.messages[1].tool_call_id.as_deref(), Some("call_1"));
    assert_eq!(t.messages[1].error, None);
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    assert_eq!(t.run().expect("run").step_log, ["step-1", "step-2"]);
}

#[test]
fn every_split_of_the_tool_stream_gives_the_same_thread_and_events() {
    let (whole, whole_out) = feed(TOOL);
    let bytes = TOOL.as_bytes();
    let want = format!("{:?}", whole.pipeline.thread.messages);
    let want_types = types(&whole_out);
    for cut in 0..=bytes.len() {
        let mut s = stream();
        let mut out = s.push_bytes(&bytes[..cut]);
        out.extend(s.push_bytes(&bytes[cut..]));
        out.extend(s.finish());
        assert_eq!(s.error(), None, "cut at {cut}");
        assert_eq!(
            format!("{:?}", s.pipeline.thread.messages),
            want,
            "cut at {cut}"
        );
        assert_eq!(types(&out), want_types, "cut at {cut}");
    }
}

#[test]
fn tool_output_and_input_errors_are_failed_tool_messages() {
    let (s, out) = feed(TOOL_ERROR);
    ok(&s);
    let t = &s.pipeline.thread;
    let r1 = t.tool_result("c1").expect("c1 result");
    assert_eq!(
        (r1.text().as_ref(), r1.error.as_deref()),
        ("boom", Some("boom"))
    );
    let r2 = t.tool_result("c2").expect("c2 result");
    assert_eq!(r2.error.as_deref(), Some("invalid input"));
    // No deltas: the input arrives as one ARGS with its JSON text.
    assert_eq!(
        t.tool_call("c2").expect("c2").1.function.arguments,
        r#""{bad""#
    );
    assert_eq!(
        t.tool_call("c1").expect("c1").1.function.arguments,
        r#"{"q":"x"}"#
    );
    let starts = types(&out)
        .iter()
        .filter(|t| **t == "TOOL_CALL_START")
        .count();
    assert_eq!(starts, 2);
}

#[test]
fn text_encoded_input_streams_as_a_json_string() {
    let bytes = "\
data: {\"type\":\"tool-input-start\",\"toolCallId\":\"c1\",\"toolName\":\"html\",\"inputEncoding\":\"text\"}\n\n\
data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"c1\",\"inputTextDelta\":\"<p class=\\\"x\\\">\"}\n\n\
data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"c1\",\"inputTextDelta\":\"hi</p>\"}\n\n\
data: {\"type\":\"tool-input-available\",\"toolCallId\":\"c1\",\"toolName\":\"html\",\"input\":\"<p class=\\\"x\\\">hi</p>\"}\n\n\
data: {\"type\":\"finish\"}\n\n";
    let (s, _) = feed(bytes);
    ok(&s);
    let t = &s.pipeline.thread;
    let args = &t.tool_call("c1").expect("c1").1.function.arguments;
    assert_eq!(
        serde_json::from_str::<Value>(args).ok(),
        Some(json!("<p class=\"x\">hi</p>"))
    );
    // A frontend tool without output: pending, as an AG-UI frontend tool would be.
    assert_eq!(
        t.status(),
        RunStatus::Success {
            pending: vec!["c1".into()]
        }
    );
}

#[test]
fn a_denied_tool_gets_a_denied_result() {
    let bytes = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"tool-output-denied\",\"toolCallId\":\"c9\"}\n\n\
data: {\"type\":\"finish\"}\n\n";
    let (s, _) = feed(bytes);
    ok(&s);
    let r = s.pipeline.thread.tool_result("c9").expect("result");
    assert_eq!(r.text(), DENIED);
    let md = r.metadata.as_ref().expect("metadata");
    assert_eq!(md["aiSdkState"], json!("output-denied"));
}

// ---- data parts, sources ----------------------------------------------------------------------

#[test]
fn data_parts_reconcile_by_id_and_transient_ones_are_never_stored() {
    let (s, out) = feed(DATA);
    ok(&s);
    let t = &s.pipeline.thread;
    let activities: Vec<_> = t
        .messages
        .iter()
        .filter(|m| m.role == Role::Activity)
        .collect();
    assert_eq!(activities.len(), 2, "{:?}", t.messages);
    let progress = t.message("msg1:data-progress:p1").expect("progress");
    assert_eq!(progress.activity_type.as_deref(), Some("data-progress"));
    assert_eq!(
        progress.content,
        Some(Content::Object(
            json!({"data": {"percent": 100}, "id": "p1"})
                .as_object()
                .cloned()
                .expect("object")
        ))
    );
    let source = activities[1];
    assert_eq!(source.activity_type.as_deref(), Some("source-url"));
    let Some(Content::Object(c)) = &source.content else {
        panic!("no content")
    };
    assert_eq!(c["url"], json!("https://example.com"));
    let notice: Vec<_> = out
        .iter()
        .filter(|d| d.event.type_name() == "CUSTOM")
        .map(|d| d.event.to_json())
        .collect();
    assert_eq!(
        notice,
        [
            json!({"type": "CUSTOM", "name": "data-notice", "value": {"data": {"message": "Almost there"}}})
        ]
    );
}

// ---- approvals --------------------------------------------------------------------------------

#[test]
fn an_approval_request_pauses_the_run_on_an_approval_card_and_is_answered_in_the_next_request() {
    let (s, _) = feed(APPROVAL);
    ok(&s);
    let t = &s.pipeline.thread;
    assert_eq!(t.status(), RunStatus::Interrupted);
    let interrupts = t.open_interrupts().to_vec();
    assert_eq!(interrupts.len(), 1);
    let i = &interrupts[0];
    assert_eq!((i.id.as_str(), i.reason.as_str()), ("ap1", "tool_call"));
    assert_eq!(i.tool_call_id.as_deref(), Some("c9"));
    assert!(matches!(card_kind(i), CardKind::Approval(spec) if spec.reason && !spec.edit_args));
    assert_eq!(t.pending_tool_calls(), ["c9"]);

    let resume = [ResumeEntry {
        interrupt_id: "ap1".into(),
        status: ResumeStatus::Resolved,
        payload: Some(json!({"approved": true, "reason": "fine"})),
        metadata: None,
    }];
    let approvals = approval_responses(&interrupts, &resume);
    assert_eq!(approvals.len(), 1);
    assert!(approvals[0].approved);
    let mut history = vec![Message::user("u1", "Book it")];
    history.extend(t.messages.iter().cloned());
    let body = request_body("chat1", &history, Trigger::SubmitMessage, &approvals);
    assert_eq!(body["trigger"], json!("submit-message"));
    assert_eq!(body["id"], json!("chat1"));
    assert_eq!(
        body["messages"][1],
        json!({"id": "msg1", "role": "assistant", "parts": [{
            "type": "tool-bookVenue", "toolCallId": "c9", "input": {"venue": "Tasca"},
            "approval": {"id": "ap1", "approved": true, "reason": "fine"},
            "state": "approval-responded",
        }]})
    );

    // A cancelled entry denies.
    let cancel = [ResumeEntry {
        interrupt_id: "ap1".into(),
        status: ResumeStatus::Cancelled,
        payload: None,
        metadata: None,
    }];
    assert!(!approval_responses(&interrupts, &cancel)[0].approved);
}

// ---- run endings ------------------------------------------------------------------------------

#[test]
fn an_error_chunk_is_a_run_error_and_what_follows_is_ignored() {
    let (s, out) = feed(ERROR);
    ok(&s);
    assert_eq!(types(&out).last(), Some(&"RUN_ERROR"));
    assert_eq!(
        s.pipeline.thread.status(),
        RunStatus::Error {
            message: "rate limited".into(),
            code: None
        }
    );
    assert_eq!(summary(&s.pipeline.thread)[0].2, "Par");
}

#[test]
fn abort_cancels_the_run_after_closing_what_was_open() {
    let (s, out) = feed(ABORT);
    ok(&s);
    assert_eq!(s.pipeline.thread.status(), RunStatus::Cancelled);
    assert_eq!(
        types(&out)[out.len() - 4..],
        [
            "TEXT_MESSAGE_END",
            "TOOL_CALL_END",
            "STEP_FINISHED",
            "RUN_FINISHED"
        ]
    );
    let md = out.last().and_then(|d| d.event.metadata.clone());
    assert_eq!(
        md,
        json!({"aiSdkAbortReason": "user stopped"})
            .as_object()
            .cloned()
    );
}

#[test]
fn done_ends_the_stream_and_a_body_without_an_end_is_truncated() {
    // [DONE] without `finish`: the run is finished; anything after [DONE] is ignored.
    let (s, _) = feed("data: {\"type\":\"text-start\",\"id\":\"t\"}\n\ndata: [DONE]\n\ndata: {\"type\":\"text-start\",\"id\":\"u\"}\n\n");
    ok(&s);
    assert_eq!(
        s.pipeline.thread.status(),
        RunStatus::Success { pending: vec![] }
    );
    assert_eq!(s.pipeline.thread.messages.len(), 1);
    assert!(s.front.decoder.ended());
    // Neither `finish` nor [DONE]: the connection was lost.
    let (s, _) = feed("data: {\"type\":\"text-start\",\"id\":\"t\"}\n\n");
    assert!(matches!(s.error(), Some(ProtocolError::Truncated { run_id }) if run_id == "run1"));
    assert_eq!(s.pipeline.thread.status(), RunStatus::Truncated);
}

#[test]
fn reset_step_removes_what_the_step_produced() {
    let (s, out) = feed(RESET);
    ok(&s);
    let t = &s.pipeline.thread;
    assert_eq!(
        summary(t),
        [
            (Role::Assistant, "msg1:t1".into(), "Kept.".into()),
            (
                Role::Assistant,
                "msg1:t2~2".into(),
                "A whole sentence.".into()
            ),
        ]
    );
    assert!(types(&out).contains(&"MESSAGES_SNAPSHOT"));
    // The reset call is gone, not pending.
    assert!(t.tool_call("c1").is_none());
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
}

// ---- unknown and malformed --------------------------------------------------------------------

#[test]
fn an_unknown_chunk_is_dropped_with_a_warning() {
    let (s, _) = feed("data: {\"type\":\"start\"}\n\ndata: {\"type\":\"future-part\",\"x\":1}\n\ndata: {\"type\":\"finish\"}\n\n");
    ok(&s);
    let w = &s.pipeline.thread.warnings;
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].kind, WarningKind::UnknownEvent);
    assert_eq!(w[0].event_type.as_deref(), Some("future-part"));
    assert_eq!(
        s.pipeline.thread.status(),
        RunStatus::Success { pending: vec![] }
    );
}

#[test]
fn malformed_chunks_fail_the_stream_with_a_typed_error() {
    let cases: [(&str, AiSdkError); 5] = [
        (
            "{\"type\":\"text-start\",\"id\":\"t\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":5}",
            AiSdkError::Malformed { chunk_type: "text-delta".into(), field: "delta", problem: "must be a string" },
        ),
        (
            "{\"type\":\"text-delta\",\"id\":\"nope\",\"delta\":\"x\"}",
            AiSdkError::NotOpen { chunk_type: "text-delta".into(), id: "nope".into() },
        ),
        (
            "{\"type\":\"tool-input-start\",\"toolCallId\":\"c\"}",
            AiSdkError::Malformed { chunk_type: "tool-input-start".into(), field: "toolName", problem: "is required" },
        ),
        ("[1,2]", AiSdkError::NotAChunk("expected a JSON object")),
        (
            "{\"type\":\"source-url\",\"sourceId\":\"s\"}",
            AiSdkError::Malformed { chunk_type: "source-url".into(), field: "url", problem: "must be a string" },
        ),
    ];
    for (data, want) in cases {
        let (s, _) = feed(&format!(
            "data: {{\"type\":\"start\"}}\n\ndata: {data}\n\ndata: {{\"type\":\"finish\"}}\n\n"
        ));
        assert_eq!(
            s.error(),
            Some(&ProtocolError::AiSdk(want.clone())),
            "{data}"
        );
        assert!(
            matches!(s.pipeline.thread.status(), RunStatus::Failed { .. }),
            "{data}"
        );
    }
    let (s, _) = feed("data: {not json\n\n");
    assert!(matches!(
        s.error(),
        Some(ProtocolError::AiSdk(AiSdkError::InvalidJson(_)))
    ));
}

#[test]
fn the_part_budget_fails_the_stream() {
    let mut bytes = String::from("data: {\"type\":\"start\"}\n\n");
    for i in 0..=MAX_PARTS {
        bytes.push_str(&format!("data: {{\"type\":\"data-x\",\"data\":{i}}}\n\n"));
    }
    let (s, _) = feed(&bytes);
    assert_eq!(
        s.error(),
        Some(&ProtocolError::AiSdk(AiSdkError::TooManyParts {
            limit: MAX_PARTS
        }))
    );
}

#[test]
fn no_input_panics_and_every_prefix_ends_cleanly() {
    // Every prefix of every fixture: decoding never panics, and a stream that stops early is
    // truncated or refused, never a success without its end.
    for fixture in [
        TEXT,
        INTERLEAVED,
        REASONING,
        TOOL,
        TOOL_ERROR,
        DATA,
        APPROVAL,
        ERROR,
        ABORT,
        RESET,
    ] {
        for cut in (0..fixture.len()).filter(|c| fixture.is_char_boundary(*c)) {
            let (s, _) = feed(&fixture[..cut]);
            let status = s.pipeline.thread.status();
            if !fixture[..cut].contains("\"finish\"") && !fixture[..cut].contains("[DONE]\n") {
                assert!(
                    !matches!(status, RunStatus::Success { .. }),
                    "cut at {cut}: {status:?}"
                );
            }
        }
    }
}

// ---- request ----------------------------------------------------------------------------------

#[test]
fn the_request_turns_the_thread_back_into_ui_messages() {
    let (s, _) = feed(TOOL);
    let mut history = vec![Message::user("u1", "Weather in SF?")];
    history.extend(s.pipeline.thread.messages.iter().cloned());
    let body = request_body("chat1", &history, Trigger::RegenerateMessage, &[]);
    assert_eq!(
        body,
        json!({
            "id": "chat1",
            "messages": [
                {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather in SF?"}]},
                {"id": "msg1", "role": "assistant", "parts": [
                    {"type": "text", "text": "Checking.", "state": "done"},
                    {"type": "tool-getWeather", "toolCallId": "call_1",
                     "input": {"city": "San Francisco"}, "providerExecuted": true,
                     "output": {"weather": "sunny"}, "state": "output-available"},
                    {"type": "step-start"},
                    {"type": "text", "text": "It is sunny.", "state": "done"},
                ]},
            ],
            "trigger": "regenerate-message",
        })
    );
}

#[test]
fn the_request_carries_errors_reasoning_and_data_parts() {
    let (errors, _) = feed(TOOL_ERROR);
    let (reasoning, _) = feed(REASONING);
    let (data, _) = feed(DATA);
    let parts = |s: &AiSdkStream| {
        request_body(
            "c",
            &s.pipeline.thread.messages,
            Trigger::SubmitMessage,
            &[],
        )["messages"][0]["parts"]
            .clone()
    };
    let e = parts(&errors);
    assert_eq!(e[0]["state"], json!("output-error"));
    assert_eq!(e[0]["errorText"], json!("boom"));
    let r = parts(&reasoning);
    assert_eq!(
        r[0],
        json!({"type": "reasoning", "text": "Think first.", "state": "done",
               "providerMetadata": {"anthropic": {"signature": "sig"}}})
    );
    let d = parts(&data);
    assert_eq!(
        d[0],
        json!({"type": "data-progress", "data": {"percent": 100}, "id": "p1"})
    );
    assert_eq!(d[1]["type"], json!("source-url"));
    assert_eq!(d[1]["url"], json!("https://example.com"));
}

#[test]
fn source_parts_go_back_to_the_agent_as_they_came() {
    const SOURCES: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Cited [1].\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"source-url\",\"sourceId\":\"s1\",\"url\":\"https://example.com/a\",\"title\":\"A\",\"providerMetadata\":{\"p\":{\"k\":1}}}\n\n\
data: {\"type\":\"source-document\",\"sourceId\":\"d1\",\"mediaType\":\"application/pdf\",\"title\":\"Spec\",\"filename\":\"spec.pdf\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";
    let (s, _) = feed(SOURCES);
    ok(&s);
    let body = request_body(
        "c",
        &s.pipeline.thread.messages,
        Trigger::SubmitMessage,
        &[],
    );
    assert_eq!(
        body["messages"][0]["parts"],
        json!([
            {"type": "text", "text": "Cited [1].", "state": "done"},
            {"type": "source-url", "sourceId": "s1", "url": "https://example.com/a", "title": "A",
             "providerMetadata": {"p": {"k": 1}}},
            {"type": "source-document", "sourceId": "d1", "mediaType": "application/pdf",
             "title": "Spec", "filename": "spec.pdf"},
        ])
    );
}

// ---- detection --------------------------------------------------------------------------------

#[test]
fn detection_needs_the_v1_header_on_an_event_stream() {
    assert!(is_ai_sdk_response(Some("text/event-stream"), Some("v1")));
    assert!(is_ai_sdk_response(
        Some("Text/Event-Stream; charset=utf-8"),
        Some(" V1 ")
    ));
    assert!(is_ai_sdk_response(None, Some("v1")));
    assert!(!is_ai_sdk_response(Some("text/event-stream"), None));
    assert!(!is_ai_sdk_response(Some("text/event-stream"), Some("v2")));
    assert!(!is_ai_sdk_response(Some("application/json"), Some("v1")));
}
