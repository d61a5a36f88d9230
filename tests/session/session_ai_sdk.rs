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
    // As useChat's approval answer: the assistant message it continues is named.
    assert_eq!(body["trigger"], "submit-message");
    assert_eq!(body["messageId"], "m2", "{body}");
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

// ---- resumable streams ----------------------------------------------------------------------

mod resume {
    use super::*;
    use agui_leptos::session::storage::MemoryStore;

    const PREFIX: &str = "test";

    fn resumable() -> AgentConfig {
        AgentConfig {
            resume: true,
            ..config(Wire::AiSdk)
        }
    }

    fn restore(store: &MemoryStore, config: AgentConfig) -> Session {
        Session::restore(config, Rc::new(TestEnv::default()), store.clone(), PREFIX)
    }

    /// A session that sent "Hi" and got part of the answer when the page went away.
    fn left_mid_run(store: &MemoryStore) -> String {
        let mut s = restore(store, resumable());
        let req = s.send("Hi").expect("a request");
        let half = &ANSWER[..ANSWER.find("there").expect("the second delta")];
        s.push(req.generation, half.as_bytes());
        assert!(s.running());
        req.run_id
    }

    #[test]
    fn a_reload_mid_run_asks_for_the_stream_again_and_the_replay_rebuilds_the_answer_once() {
        let store = MemoryStore::new();
        let run_id = left_mid_run(&store);
        let mut s = restore(&store, resumable());
        let req = s.resume_stream().expect("the stream is asked for again");
        assert!(s.resume_stream().is_none(), "once per restore");
        let Route::Http { endpoint, get, .. } = &req.route else {
            panic!("{:?}", req.route)
        };
        assert!(*get);
        assert_eq!(
            endpoint,
            &format!("https://agent.example/api/chat/{}/stream", s.thread_id())
        );
        assert_eq!(req.run_id, run_id, "the same run");
        // The server replays from the start, the part seen before the reload included.
        respond(&mut s, req.generation, ANSWER);
        clean(&s);
        assert_eq!(
            texts(&s),
            [
                ("User".to_owned(), "Hi".to_owned()),
                ("Assistant".to_owned(), "Hello there.".to_owned())
            ]
        );
        assert!(matches!(
            s.thread().runs.last().map(|r| &r.status),
            Some(RunStatus::Success { .. })
        ));
        // Finished: the next reload asks for nothing.
        let mut again = restore(&store, resumable());
        assert!(again.resume_stream().is_none());
        assert_eq!(texts(&again).len(), 2);
    }

    #[test]
    fn no_content_leaves_the_run_cut_off_with_no_new_error() {
        let store = MemoryStore::new();
        left_mid_run(&store);
        let mut s = restore(&store, resumable());
        let before = s.thread().runs.last().map(|r| r.status.clone());
        assert_eq!(before, Some(RunStatus::Truncated));
        let req = s.resume_stream().expect("asked");
        s.end_run(req.generation, Ok(()));
        assert!(!s.running());
        assert_eq!(s.thread().runs.last().map(|r| r.status.clone()), before);
        assert!(s.notices().is_empty(), "{:?}", s.notices());
        assert!(restore(&store, resumable()).resume_stream().is_none());
    }

    #[test]
    fn a_stopped_run_an_ag_ui_endpoint_or_resume_off_ask_for_nothing() {
        // Stop is not leaving.
        let store = MemoryStore::new();
        let mut s = restore(&store, resumable());
        s.send("Hi").expect("a request");
        s.stop();
        assert!(restore(&store, resumable()).resume_stream().is_none());

        let store = MemoryStore::new();
        left_mid_run(&store);
        assert!(restore(&store, config(Wire::AiSdk))
            .resume_stream()
            .is_none());
        let ag_ui = AgentConfig {
            resume: true,
            ..config(Wire::AgUi)
        };
        assert!(restore(&store, ag_ui).resume_stream().is_none());
    }

    #[test]
    fn a_reload_during_the_replay_asks_again() {
        let store = MemoryStore::new();
        left_mid_run(&store);
        let mut s = restore(&store, resumable());
        let req = s.resume_stream().expect("asked");
        s.push(req.generation, &ANSWER.as_bytes()[..40]);
        drop(s);
        assert!(restore(&store, resumable()).resume_stream().is_some());
    }

    #[test]
    fn the_chat_id_is_encoded_into_the_stream_url() {
        use agui_leptos::protocol::ai_sdk::resume_url;
        assert_eq!(resume_url("/api/chat/", "t-1"), "/api/chat/t-1/stream");
        assert_eq!(
            resume_url("https://x.example/c", "a/b?c#d é"),
            "https://x.example/c/a%2Fb%3Fc%23d%20%C3%A9/stream"
        );
    }
}

/// `useChat`'s wording of each request: a new message is `submit-message` without a
/// `messageId`; answering the last user message again (regenerate, retry after a failure)
/// is `regenerate-message`, the answer it replaces dropped from `messages`.
#[test]
fn a_regenerated_answer_is_asked_for_as_use_chat_regenerates() {
    let mut s = session(Wire::AiSdk);
    let req = s.send("Hi").expect("a request");
    assert_eq!(req.body["trigger"], "submit-message");
    assert!(req.body.get("messageId").is_none(), "{}", req.body);
    respond(&mut s, req.generation, ANSWER);
    clean(&s);

    let again = s.regenerate().expect("regenerable").expect("a request");
    assert_eq!(
        again.body["trigger"], "regenerate-message",
        "{}",
        again.body
    );
    assert!(again.body.get("messageId").is_none(), "{}", again.body);
    let messages = again.body["messages"].as_array().expect("messages");
    assert_eq!(
        messages.len(),
        1,
        "the old answer is not sent: {}",
        again.body
    );
    assert_eq!(messages[0]["role"], "user");

    // A failed run retried: the same.
    s.end_run(
        again.generation,
        Err(agui_leptos::session::TransportError::Network("down".into())),
    );
    let retry = s.retry().expect("a retry");
    assert_eq!(
        retry.body["trigger"], "regenerate-message",
        "{}",
        retry.body
    );
    let next = {
        s.end_run(retry.generation, Ok(()));
        s.send("Next").expect("a request")
    };
    assert_eq!(next.body["trigger"], "submit-message");
}

/// A denial's reason goes back with the answer and is restated on the tool part of every
/// later request, after the producer's `tool-output-denied` came back (useChat keeps it on
/// the part; the model is told why it was denied).
#[test]
fn a_denial_reason_is_restated_on_later_requests() {
    let mut s = session(Wire::AiSdk);
    let req = s.send("Book Tasca").expect("a request");
    respond(&mut s, req.generation, APPROVAL);
    let answer = s
        .answer_interrupt("ap1", json!({"approved": false, "reason": "too pricey"}))
        .expect("accepted")
        .expect("the lone interrupt resumes at once");
    respond(
        &mut s,
        answer.generation,
        "data: {\"type\":\"start\",\"messageId\":\"m2\"}\n\n\
         data: {\"type\":\"tool-output-denied\",\"toolCallId\":\"c9\"}\n\n\
         data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
         data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Understood.\"}\n\n\
         data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
         data: {\"type\":\"finish\"}\n\n\
         data: [DONE]\n\n",
    );
    clean(&s);
    let later = s.send("Something cheaper").expect("a request");
    let part = later.body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .flat_map(|m| m["parts"].as_array().into_iter().flatten())
        .find(|p| p["toolCallId"] == "c9")
        .cloned()
        .expect("the tool part");
    assert_eq!(part["state"], "output-denied", "{part}");
    assert_eq!(
        part["approval"],
        json!({"id": "ap1", "approved": false, "reason": "too pricey"}),
        "{part}"
    );
}

/// The `.sse` export of an AI SDK conversation is an AG-UI trace (the events as delivered),
/// not the UI-stream bytes: replayed, it gives the same conversation.
#[cfg(feature = "inspector")]
#[test]
fn the_sse_export_of_an_ai_sdk_run_is_an_ag_ui_trace() {
    use agui_leptos::protocol::{Pipeline, PipelineOptions, Thread};
    use agui_leptos::session::inspector::TraceFormat;
    let mut s = session(Wire::AiSdk);
    let req = s.send("Book Tasca").expect("a request");
    respond(&mut s, req.generation, APPROVAL);
    let answer = s
        .answer_interrupt("ap1", json!({"approved": true}))
        .expect("accepted")
        .expect("a request");
    respond(&mut s, answer.generation, ANSWER);
    clean(&s);
    let trace = s.export_trace(TraceFormat::Sse);
    let text = String::from_utf8(trace.clone()).expect("text");
    assert!(!text.contains("\"text-delta\""), "UI-stream bytes: {text}");
    assert!(text.starts_with("data: {"), "{text}");
    let mut replay = Pipeline::new(Thread::new(), PipelineOptions::default());
    replay.push_bytes(&trace);
    replay.finish();
    assert!(replay.error().is_none(), "{:?}", replay.error());
    assert_eq!(texts_of(&replay.thread), texts_of(s.thread()));
    assert!(texts_of(s.thread())
        .iter()
        .any(|t| t.contains("Hello there.")));
}

#[cfg(feature = "inspector")]
fn texts_of(t: &agui_leptos::protocol::Thread) -> Vec<String> {
    t.messages
        .iter()
        .filter(|m| m.role != agui_leptos::protocol::Role::User)
        .map(|m| m.text().into_owned())
        .collect()
}
