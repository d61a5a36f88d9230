//! A session whose endpoint speaks the AI SDK UI message stream (issue 15): requests in
//! `useChat`'s shape, responses folded into the same thread, approvals answered the AI SDK way,
//! and the wire detected from a response's header when the page did not say.

use std::rc::Rc;

use agui_leptos::protocol::{RunStatus, Wire};
use agui_leptos::session::{AgentConfig, Route, Session, TestEnv};
use serde_json::{json, Value};

const ANSWER: &str = "\
data: {\"type\":\"start\",\"messageId\":\"m1\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hello \"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"there.\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

const APPROVAL: &str = "\
data: {\"type\":\"start\",\"messageId\":\"m2\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"tool-input-start\",\"toolCallId\":\"c9\",\"toolName\":\"bookVenue\"}\n\n\
data: {\"type\":\"tool-input-available\",\"toolCallId\":\"c9\",\"toolName\":\"bookVenue\",\"input\":{\"venue\":\"Tasca\"}}\n\n\
data: {\"type\":\"tool-approval-request\",\"approvalId\":\"ap1\",\"toolCallId\":\"c9\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"finish\",\"finishReason\":\"tool-calls\"}\n\n\
data: [DONE]\n\n";

fn config(wire: Wire) -> AgentConfig {
    AgentConfig {
        endpoint: Some("https://agent.example/api/chat".into()),
        wire,
        ..AgentConfig::default()
    }
}

fn session(wire: Wire) -> Session {
    Session::new(config(wire), Rc::new(TestEnv::default()))
}

/// Feed `bytes` as the response of `generation` (split in two odd places), then end it.
fn respond(s: &mut Session, generation: u64, bytes: &str) {
    let (a, b) = bytes.as_bytes().split_at(bytes.len() / 3);
    s.push(generation, a);
    s.push(generation, b);
    s.end_run(generation, Ok(()));
}

/// No warning, no error, the last run not failed.
fn clean(s: &Session) {
    assert!(s.notices().is_empty(), "{:?}", s.notices());
    let status = s.thread().runs.last().map(|r| r.status.clone());
    assert!(
        !matches!(status, Some(RunStatus::Failed { .. })),
        "{status:?}"
    );
}

fn texts(s: &Session) -> Vec<(String, String)> {
    s.thread()
        .messages
        .iter()
        .map(|m| (format!("{:?}", m.role), m.text().to_string()))
        .collect()
}

#[test]
fn an_ai_sdk_endpoint_gets_use_chat_requests_and_its_stream_becomes_the_thread() {
    let mut s = session(Wire::AiSdk);
    let req = s.send("Hi").expect("a request");
    assert!(matches!(req.route, Route::Http { .. }));
    let body = &req.body;
    assert_eq!(body["id"], json!(s.thread_id()));
    assert_eq!(body["trigger"], "submit-message");
    assert!(body.get("runId").is_none(), "not a RunAgentInput: {body}");
    assert_eq!(body["messages"][0]["role"], "user");
    assert_eq!(
        body["messages"][0]["parts"],
        json!([{"type": "text", "text": "Hi"}])
    );
    respond(&mut s, req.generation, ANSWER);
    clean(&s);
    assert_eq!(
        texts(&s),
        [
            ("User".to_owned(), "Hi".to_owned()),
            ("Assistant".to_owned(), "Hello there.".to_owned())
        ]
    );
    let run = s.thread().runs.last().expect("a run");
    assert!(matches!(run.status, RunStatus::Success { .. }));
    assert_eq!(Some(run.run_id.as_str()), s.last_run_id());

    // The next request carries the answer back as a UI message with parts.
    let req = s.send("Thanks").expect("a second request");
    let messages = req.body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["id"], "m1");
    assert!(messages[1]["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .any(|p| p["type"] == "text" && p["text"] == "Hello there."));
}

#[test]
fn an_approval_request_opens_the_card_and_the_answer_goes_back_in_the_tool_part() {
    let mut s = session(Wire::AiSdk);
    let req = s.send("Book Tasca").expect("a request");
    respond(&mut s, req.generation, APPROVAL);
    let open: Vec<_> = s
        .thread()
        .open_interrupts()
        .iter()
        .map(|i| i.id.clone())
        .collect();
    assert_eq!(open, ["ap1"]);
    let answer = s
        .answer_interrupt("ap1", json!({"approved": true, "reason": "go"}))
        .expect("accepted")
        .expect("the lone interrupt resumes at once");
    let body = &answer.body;
    assert!(body.get("resume").is_none(), "an AI SDK body: {body}");
    let parts: Vec<&Value> = body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .flat_map(|m| m["parts"].as_array().into_iter().flatten())
        .collect();
    let tool = parts
        .iter()
        .find(|p| p["toolCallId"] == "c9")
        .expect("the tool part");
    assert_eq!(tool["type"], "tool-bookVenue");
    assert_eq!(tool["state"], "approval-responded");
    assert_eq!(
        tool["approval"],
        json!({"id": "ap1", "approved": true, "reason": "go"})
    );
}

#[test]
fn the_response_header_decides_the_decoder_and_the_next_request_follows_it() {
    let mut s = session(Wire::AgUi);
    let req = s.send("Hi").expect("a request");
    assert!(req.body.get("runId").is_some(), "AG-UI first: {}", req.body);
    s.open_response(req.generation, Wire::AiSdk);
    respond(&mut s, req.generation, ANSWER);
    clean(&s);
    assert_eq!(texts(&s)[1].1, "Hello there.");
    let req = s.send("More").expect("a second request");
    assert!(req.body.get("runId").is_none(), "AI SDK now: {}", req.body);
    assert_eq!(req.body["trigger"], "submit-message");

    // A stale generation's header changes nothing; an AG-UI answer turns detection off.
    s.open_response(req.generation + 7, Wire::AgUi);
    s.open_response(req.generation, Wire::AgUi);
    s.push(
        req.generation,
        b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
    );
    s.end_run(req.generation, Ok(()));
    let req = s.send("Again").expect("a third request");
    assert!(req.body.get("runId").is_some(), "AG-UI again: {}", req.body);
}

#[test]
fn an_ag_ui_stream_to_an_ai_sdk_request_is_still_read_as_ag_ui() {
    let mut s = session(Wire::AiSdk);
    let req = s.send("Hi").expect("a request");
    s.open_response(req.generation, Wire::AgUi);
    let rid = s.last_run_id().expect("a run id").to_owned();
    let events = format!(
        "data: {{\"type\":\"RUN_STARTED\",\"threadId\":\"{t}\",\"runId\":\"{rid}\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\",\"role\":\"assistant\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a\",\"delta\":\"ok\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a\"}}\n\n\
         data: {{\"type\":\"RUN_FINISHED\",\"threadId\":\"{t}\",\"runId\":\"{rid}\"}}\n\n",
        t = s.thread_id()
    );
    respond(&mut s, req.generation, &events);
    clean(&s);
    assert_eq!(texts(&s)[1].1, "ok");
}

#[test]
fn a_malformed_ai_sdk_stream_fails_the_run() {
    let mut s = session(Wire::AiSdk);
    let req = s.send("Hi").expect("a request");
    respond(
        &mut s,
        req.generation,
        "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"nope\",\"delta\":\"x\"}\n\n",
    );
    assert!(matches!(
        s.thread().runs.last().map(|r| &r.status),
        Some(RunStatus::Failed { .. })
    ));
}
