//! The offline demo agent, driven end to end: every script's chunks go through the real client
//! pipeline (SSE → JSON → enforcement → chunk expansion → verification → thread model) and must
//! come out as a valid AG-UI run with no warnings and the expected final status. Follow-up runs
//! (resume after an interrupt, the answer to a frontend tool) are built from the folded thread
//! with the same request preparation the app uses.

use std::collections::HashSet;

use agui_leptos::demo::{self, respond, DemoChunk, DemoRequest, Scenario, TRIGGERS};
use agui_leptos::protocol::input::{history_for_request, prepare_request};
use agui_leptos::protocol::types::{Content, Message, ResumeEntry, ResumeStatus, RunAgentInput};
use agui_leptos::protocol::{Pipeline, PipelineOptions, ProtocolError, Role, RunStatus, Thread};
use serde_json::{json, Value};

const THREAD: &str = "thread-demo";

/// The request body the app would POST for `thread` plus the given additions.
fn request(
    thread: &Thread,
    run_id: &str,
    extra_messages: Vec<Message>,
    resume: Option<Vec<ResumeEntry>>,
) -> Value {
    let mut messages = history_for_request(&thread.messages);
    messages.extend(extra_messages);
    let input = RunAgentInput {
        thread_id: THREAD.into(),
        run_id: run_id.into(),
        protocol_version: None,
        parent_run_id: None,
        state: Some(thread.state.clone()),
        messages,
        tools: None,
        context: None,
        forwarded_props: None,
        resume,
    };
    let (body, warnings) = prepare_request(&input, None).expect("request prepares");
    assert!(warnings.is_empty(), "request warnings: {warnings:?}");
    body
}

/// Play a reply through a pipeline continuing `thread`.
fn play(thread: Thread, chunks: &[DemoChunk]) -> Pipeline {
    let mut p = Pipeline::new(thread, PipelineOptions::default());
    for c in chunks {
        p.push_bytes(&c.bytes);
    }
    p.finish();
    p
}

/// One turn on `thread`: the user says `text`, the demo answers.
fn turn(thread: Thread, run_id: &str, text: &str) -> (Vec<DemoChunk>, Pipeline) {
    let user = Message::user(format!("user-{run_id}"), text);
    follow_up(thread, run_id, vec![user], None)
}

/// A follow-up run with no new user message (resume, or a tool answer appended to history).
fn follow_up(
    mut thread: Thread,
    run_id: &str,
    extra: Vec<Message>,
    resume: Option<Vec<ResumeEntry>>,
) -> (Vec<DemoChunk>, Pipeline) {
    let body = request(&thread, run_id, extra.clone(), resume);
    let chunks = respond(&DemoRequest::from_input(&body));
    // The app appends the new messages locally before the run.
    for m in extra {
        thread.append(m);
    }
    (chunks.clone(), play(thread, &chunks))
}

/// No protocol error and no warning.
fn assert_clean(p: &Pipeline) {
    assert!(p.error().is_none(), "protocol error: {:?}", p.error());
    assert!(
        p.thread.warnings.is_empty(),
        "warnings: {:?}",
        p.thread.warnings
    );
}

fn assistant_texts(t: &Thread) -> Vec<(String, String)> {
    t.messages
        .iter()
        .filter(|m| m.role == Role::Assistant && !m.text().is_empty())
        .map(|m| (m.id.clone(), m.text().into_owned()))
        .collect()
}

fn all_text(t: &Thread) -> String {
    assistant_texts(t)
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The decoded events of a reply (every `data:` line of the whole body).
fn events(chunks: &[DemoChunk]) -> Vec<Value> {
    let body = String::from_utf8(demo::body(chunks)).expect("UTF-8 body");
    body.split("\n\n")
        .filter_map(|frame| frame.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).expect("event JSON"))
        .collect()
}

fn duration(chunks: &[DemoChunk]) -> u64 {
    demo::duration_ms(chunks)
}

// ----- the planner ---------------------------------------------------------------------------

#[test]
fn planner_is_a_complete_clean_run() {
    let (chunks, p) = turn(Thread::new(), "run-plan-1", "Plan our team offsite");
    assert_clean(&p);
    let t = &p.thread;
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });

    // State: the snapshot, then venues added one delta at a time, step statuses updated.
    let venues = t.state["venues"].as_array().expect("venues");
    assert_eq!(venues.len(), 3);
    assert_eq!(venues[0]["name"], "Tasca do Miradouro");
    assert_eq!(t.state["steps"][0]["status"], "done");
    assert_eq!(t.state["steps"][1]["status"], "done");
    assert_eq!(t.state["steps"][2]["status"], "pending");
    assert_eq!(t.state["destination"], "Lisbon");
    // The numbers of the prompt the chip offers: 8 people, under $12,000.
    assert_eq!(t.state["travellers"], 8);
    assert_eq!(
        t.state["budget"],
        json!({"amount": 12000, "currency": "USD"})
    );
    let evs = events(&chunks);
    let deltas = evs.iter().filter(|e| e["type"] == "STATE_DELTA").count();
    assert!(deltas >= 3, "{deltas} state deltas");

    // The tool call: streamed args parse to the full object; its result follows the message.
    let (i, call) = t
        .messages
        .iter()
        .enumerate()
        .find_map(|(i, m)| {
            m.tool_calls
                .iter()
                .flatten()
                .find(|c| c.function.name == "search_venues")
                .map(|c| (i, c.clone()))
        })
        .expect("search_venues call");
    let args =
        json!({"city":"Lisbon","kind":"restaurant","area":"Alfama","capacity":8,"max_price":"€€€"});
    assert_eq!(t.tool_args[&call.id].parser.value(), Some(&args));
    assert!(t.tool_args[&call.id].ended);
    let holder = &t.messages[i];
    assert_eq!(holder.role, Role::Assistant);
    assert!(holder.text().contains("## Lisbon team offsite"));
    let tool_msg = &t.messages[i + 1];
    assert_eq!(tool_msg.role, Role::Tool);
    assert_eq!(tool_msg.tool_call_id.as_deref(), Some(call.id.as_str()));
    let result: Value = serde_json::from_str(&tool_msg.text()).expect("result is a JSON string");
    let found = result["venues"].as_array().expect("venues in result");
    assert!((3..=4).contains(&found.len()));
    for v in found {
        for k in ["name", "kind", "area", "price"] {
            assert!(v[k].is_string(), "{k} in {v}");
        }
        assert!(v["rating"].is_number() && v["capacity"].is_number(), "{v}");
    }

    // Two distinct assistant text messages; the second compares venues in a table.
    let texts = assistant_texts(t);
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert_ne!(texts[0].0, texts[1].0);
    assert!(texts[1].1.contains("| Venue |"));
    assert!(texts[1].1.contains("**Recommendation:"));
    assert!(texts[1].1.contains("- [ ] "));
    assert!(texts[1].1.contains("- [x] "));

    // Reasoning and activity.
    let reasoning = t
        .messages
        .iter()
        .find(|m| m.role == Role::Reasoning)
        .expect("reasoning message");
    assert!(reasoning.text().len() > 200);
    let activity = t
        .messages
        .iter()
        .find(|m| m.role == Role::Activity)
        .expect("activity message");
    assert_eq!(activity.activity_type.as_deref(), Some("PLAN"));
    match &activity.content {
        Some(Content::Object(o)) => {
            assert_eq!(o["progress"], json!(1));
            assert_eq!(o["title"], "Planning the offsite");
        }
        other => panic!("activity content {other:?}"),
    }

    // Step, protocol version, event order landmarks.
    let run = t.run().expect("run");
    assert_eq!(run.step_log, vec!["plan".to_owned()]);
    assert_eq!(run.protocol_version.as_deref(), Some("1.1"));
    let types: Vec<&str> = evs.iter().filter_map(|e| e["type"].as_str()).collect();
    let pos = |ty: &str| types.iter().position(|t| *t == ty).expect(ty);
    assert_eq!(types.first(), Some(&"RUN_STARTED"));
    assert_eq!(types.last(), Some(&"RUN_FINISHED"));
    assert!(pos("STEP_STARTED") < pos("REASONING_START"));
    assert!(pos("REASONING_END") < pos("STATE_SNAPSHOT"));
    assert!(pos("STATE_SNAPSHOT") < pos("ACTIVITY_SNAPSHOT"));
    assert!(pos("ACTIVITY_SNAPSHOT") < pos("TEXT_MESSAGE_START"));
    assert!(pos("TOOL_CALL_END") < pos("TOOL_CALL_RESULT"));
    assert!(pos("TOOL_CALL_RESULT") < pos("STATE_DELTA"));
    assert!(types.iter().filter(|t| **t == "TOOL_CALL_ARGS").count() >= 5);
    let start = evs
        .iter()
        .find(|e| e["type"] == "TOOL_CALL_START")
        .expect("start");
    assert_eq!(start["parentMessageId"], texts[0].0.as_str());
    assert_eq!(
        evs.last().expect("last")["outcome"],
        json!({"type": "success"})
    );

    // Timing.
    let ms = duration(&chunks);
    assert!((5_000..=12_000).contains(&ms), "planner plays {ms} ms");
}

#[test]
fn planner_triggers_and_default() {
    for text in ["plan", "LISBON please", "our offsite", "hello there", ""] {
        let (_, p) = turn(Thread::new(), "run-plan-2", text);
        assert_clean(&p);
        assert!(
            p.thread.messages.iter().any(|m| m
                .tool_calls
                .iter()
                .flatten()
                .any(|c| c.function.name == "search_venues")),
            "{text:?} should run the planner"
        );
    }
}

#[test]
fn planner_twice_on_one_thread_and_after_ask_me_state() {
    let (_, p) = turn(Thread::new(), "run-a", "plan");
    assert_clean(&p);
    let (_, p) = turn(p.thread, "run-b", "plan it again");
    assert_clean(&p);
    assert_eq!(p.thread.runs.len(), 2);
    assert_eq!(assistant_texts(&p.thread).len(), 4);
    assert_eq!(p.thread.state["venues"].as_array().map(Vec::len), Some(3));

    // Travellers and budget already in the state carry into a new plan.
    let thread = Thread::with_history(
        vec![],
        json!({"travellers": 8, "budget": {"amount": 4000, "currency": "EUR"}}),
    );
    let (_, p) = turn(thread, "run-c", "plan");
    assert_clean(&p);
    assert_eq!(p.thread.state["travellers"], 8);
    let call = p
        .thread
        .messages
        .iter()
        .flat_map(|m| m.tool_calls.iter().flatten())
        .next()
        .expect("call");
    assert_eq!(
        p.thread.tool_args[&call.id].parser.value().expect("args")["capacity"],
        8
    );
    assert!(all_text(&p.thread).contains("€500"));
}

// ----- the other scripts ---------------------------------------------------------------------

#[test]
fn use_a_tool_calls_get_weather() {
    let (chunks, p) = turn(Thread::new(), "run-tool", "Please use a tool");
    assert_clean(&p);
    let t = &p.thread;
    assert_eq!(t.status(), RunStatus::Success { pending: vec![] });
    let (i, call) = t
        .messages
        .iter()
        .enumerate()
        .find_map(|(i, m)| {
            m.tool_calls
                .as_ref()
                .and_then(|c| c.first())
                .map(|c| (i, c))
        })
        .expect("call");
    assert_eq!(call.function.name, "get_weather");
    let args = t.tool_args[&call.id].parser.value().expect("args");
    assert_eq!(args["city"], "Lisbon");
    assert!(args["date"].is_string());
    assert_eq!(t.messages[i + 1].role, Role::Tool);
    let result: Value = serde_json::from_str(&t.messages[i + 1].text()).expect("JSON result");
    assert_eq!(result["forecast"], "sunny");
    let texts = assistant_texts(t);
    assert_eq!(texts.len(), 2);
    assert!(texts[1].1.contains("23 °C"));
    assert!(events(&chunks)
        .iter()
        .filter(|e| e["type"] == "TOOL_CALL_ARGS")
        .all(|e| e["delta"].as_str().is_some_and(|d| d.chars().count() <= 15)));
}

#[test]
fn think_streams_a_long_reasoning_block() {
    let (chunks, p) = turn(Thread::new(), "run-think", "think about the schedule");
    assert_clean(&p);
    assert_eq!(p.thread.status(), RunStatus::Success { pending: vec![] });
    let reasoning: Vec<_> = p
        .thread
        .messages
        .iter()
        .filter(|m| m.role == Role::Reasoning)
        .collect();
    assert_eq!(reasoning.len(), 1);
    assert!(reasoning[0].text().split_whitespace().count() > 150);
    let evs = events(&chunks);
    let deltas = evs
        .iter()
        .filter(|e| e["type"] == "REASONING_MESSAGE_CONTENT")
        .count();
    assert!(deltas > 40, "{deltas} reasoning deltas");
    // About three seconds of reasoning.
    let before_answer: u64 = {
        let mut ms = 0u64;
        let mut seen = 0usize;
        for c in &chunks {
            ms += u64::from(c.delay_ms);
            seen += String::from_utf8_lossy(&c.bytes)
                .matches("REASONING_MESSAGE_END")
                .count();
            if seen > 0 {
                break;
            }
        }
        ms
    };
    assert!(
        (2_000..=5_000).contains(&before_answer),
        "reasoning lasts {before_answer} ms"
    );
    assert_eq!(assistant_texts(&p.thread).len(), 1);
}

#[test]
fn markdown_showcase_has_every_feature_and_the_hostile_bits() {
    let (_, p) = turn(Thread::new(), "run-md", "show me markdown");
    assert_clean(&p);
    let text = all_text(&p.thread);
    for needle in [
        "# Markdown showcase",
        "## Lists",
        "1. Book the venue",
        "   - to the team",
        "- [x] Pick the city",
        "- [ ] Confirm the deposit",
        "| Day | Plan | Budget |",
        "```rust\nfn per_person",
        "> A blockquote",
        "~~strikethrough~~",
        "(https://docs.ag-ui.com/)",
        "(mailto:offsite@example.com)",
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[click](javascript:alert(1))",
        "![x](https://example.com/x.png)",
    ] {
        assert!(text.contains(needle), "missing {needle:?}");
    }
}

#[test]
fn error_ends_with_run_error() {
    let (chunks, p) = turn(Thread::new(), "run-err", "simulate an error");
    assert_clean(&p);
    assert_eq!(
        p.thread.status(),
        RunStatus::Error {
            message: "The venue service is unavailable (demo error)".into(),
            code: Some("demo_error".into()),
        }
    );
    assert!(all_text(&p.thread).contains("venue service"));
    let evs = events(&chunks);
    assert_eq!(evs.last().expect("last")["type"], "RUN_ERROR");
    assert!(!evs.iter().any(|e| e["type"] == "RUN_FINISHED"));
}

#[test]
fn drop_is_a_truncated_run_that_keeps_its_text() {
    for word in ["drop", "disconnect"] {
        let (chunks, p) = turn(Thread::new(), "run-drop", word);
        assert!(
            matches!(p.error(), Some(ProtocolError::Truncated { run_id }) if run_id == "run-drop"),
            "{:?}",
            p.error()
        );
        assert!(p.thread.warnings.is_empty(), "{:?}", p.thread.warnings);
        assert_eq!(p.thread.status(), RunStatus::Truncated);
        assert!(all_text(&p.thread).starts_with("Here's a first draft"));
        let evs = events(&chunks);
        assert!(!evs
            .iter()
            .any(|e| e["type"] == "RUN_FINISHED" || e["type"] == "RUN_ERROR"));
        // The body ends on a whole event, not mid-frame.
        assert!(demo::body(&chunks).ends_with(b"\n\n"));
    }
}

// ----- interrupts and frontend tools -------------------------------------------------------

#[test]
fn ask_me_interrupts_and_resumes() {
    let (chunks, p) = turn(Thread::new(), "run-ask", "ask me what you need");
    assert_clean(&p);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let open = p.thread.open_interrupts().to_vec();
    assert_eq!(open.len(), 1);
    let int = &open[0];
    assert_eq!(int.id, "int-ask-run-ask");
    assert_eq!(int.reason, "input_required");
    assert_eq!(
        int.message.as_deref(),
        Some("How many people are coming, and what is the budget per person?")
    );
    let schema = Value::Object(int.response_schema.clone().expect("schema"));
    assert_eq!(schema["required"], json!(["travellers"]));
    assert_eq!(
        schema["properties"]["dietary"]["enum"],
        json!(["none", "vegetarian", "vegan"])
    );
    assert_eq!(schema["properties"]["travellers"]["minimum"], 1);
    assert_eq!(
        events(&chunks).last().expect("last")["outcome"]["type"],
        "interrupt"
    );

    // Resume with an answer.
    let resume = vec![ResumeEntry {
        interrupt_id: int.id.clone(),
        status: ResumeStatus::Resolved,
        payload: Some(json!({"travellers": 8, "budgetPerPerson": 450, "dietary": "vegetarian"})),
        metadata: None,
    }];
    let (_, p2) = follow_up(p.thread, "run-ask-2", vec![], Some(resume));
    assert_clean(&p2);
    assert_eq!(p2.thread.status(), RunStatus::Success { pending: vec![] });
    assert_eq!(p2.thread.state["travellers"], 8);
    assert_eq!(p2.thread.state["budget"]["amount"], 3600);
    assert_eq!(p2.thread.state["dietary"], "vegetarian");
    let last = assistant_texts(&p2.thread).pop().expect("reply").1;
    assert!(last.contains("8 people"), "{last}");
    assert!(last.contains("$450"), "{last}");
    assert!(last.contains("vegetarian"), "{last}");
}

#[test]
fn ask_me_resume_updates_an_existing_trip_cancel_and_reask() {
    // After a planner run the state has a budget object: the delta patches it.
    let (_, p) = turn(Thread::new(), "run-p", "plan");
    let (_, p) = turn(p.thread, "run-ask", "ask me");
    assert_clean(&p);
    let id = p.thread.open_interrupts()[0].id.clone();
    let resume = vec![ResumeEntry {
        interrupt_id: id.clone(),
        status: ResumeStatus::Resolved,
        payload: Some(json!({"travellers": 10})),
        metadata: None,
    }];
    let (_, p2) = follow_up(p.thread, "run-ask-2", vec![], Some(resume));
    assert_clean(&p2);
    assert_eq!(p2.thread.state["travellers"], 10);
    assert_eq!(p2.thread.state["budget"]["amount"], 12000);
    assert_eq!(p2.thread.state["venues"].as_array().map(Vec::len), Some(3));

    // Cancelled: no change, success.
    let (_, p) = turn(Thread::new(), "run-ask-c", "ask me");
    let id = p.thread.open_interrupts()[0].id.clone();
    let resume = vec![ResumeEntry {
        interrupt_id: id,
        status: ResumeStatus::Cancelled,
        payload: None,
        metadata: None,
    }];
    let (_, p2) = follow_up(p.thread, "run-ask-c2", vec![], Some(resume));
    assert_clean(&p2);
    assert_eq!(p2.thread.status(), RunStatus::Success { pending: vec![] });
    assert_eq!(p2.thread.state, json!({}));

    // An unusable answer: asked again with a fresh interrupt id.
    let (_, p) = turn(Thread::new(), "run-ask-r", "ask me");
    let id = p.thread.open_interrupts()[0].id.clone();
    let resume = vec![ResumeEntry {
        interrupt_id: id.clone(),
        status: ResumeStatus::Resolved,
        payload: Some(json!({"travellers": 0})),
        metadata: None,
    }];
    let (_, p2) = follow_up(p.thread, "run-ask-r2", vec![], Some(resume));
    assert_clean(&p2);
    assert_eq!(p2.thread.status(), RunStatus::Interrupted);
    let again = &p2.thread.open_interrupts()[0];
    assert_ne!(again.id, id);
    assert_eq!(again.reason, "input_required");
}

fn booking_call(t: &Thread) -> (String, Value) {
    let call = t
        .messages
        .iter()
        .flat_map(|m| m.tool_calls.iter().flatten())
        .find(|c| c.function.name == "book_venue")
        .expect("book_venue call");
    let args = t.tool_args[&call.id].parser.value().expect("args").clone();
    (call.id.clone(), args)
}

#[test]
fn approve_interrupts_on_a_tool_call_and_books_on_resume() {
    let (_, p) = turn(Thread::new(), "run-book", "book it");
    assert_clean(&p);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let (call, args) = booking_call(&p.thread);
    assert_eq!(args["people"], 8);
    assert!(args["venue"].is_string() && args["date"].is_string());
    let int = p.thread.open_interrupts()[0].clone();
    assert_eq!(int.id, format!("int-{call}"));
    assert_eq!(int.reason, "tool_call");
    assert_eq!(int.tool_call_id.as_deref(), Some(call.as_str()));
    assert!(int
        .message
        .as_deref()
        .is_some_and(|m| m.starts_with("Approve booking")));
    let schema = Value::Object(int.response_schema.clone().expect("schema"));
    assert_eq!(schema["required"], json!(["approved"]));
    assert!(schema["properties"]["editedArgs"].is_object());
    assert!(p.thread.tool_result(&call).is_none());

    // Approved, with edited args.
    let resume = vec![ResumeEntry {
        interrupt_id: int.id.clone(),
        status: ResumeStatus::Resolved,
        payload: Some(
            json!({"approved": true, "editedArgs": {"venue": "Pátio da Graça", "date": "2026-05-15", "people": 11}}),
        ),
        metadata: None,
    }];
    let (chunks, p2) = follow_up(p.thread, "run-book-2", vec![], Some(resume));
    assert_clean(&p2);
    assert_eq!(p2.thread.status(), RunStatus::Success { pending: vec![] });
    assert!(!events(&chunks)
        .iter()
        .any(|e| e["type"] == "TOOL_CALL_START"));
    let result = p2.thread.tool_result(&call).expect("result");
    let r: Value = serde_json::from_str(&result.text()).expect("JSON");
    assert_eq!(r["status"], "booked");
    assert_eq!(r["venue"], "Pátio da Graça");
    assert_eq!(r["people"], 11);
    // The tool message sits right after the assistant message holding the call.
    let (i, _) = p2.thread.tool_call(&call).expect("call");
    assert_eq!(p2.thread.messages[i + 1].id, result.id);
    let last = assistant_texts(&p2.thread).pop().expect("reply").1;
    assert!(
        last.contains("booked") && last.contains("Pátio da Graça"),
        "{last}"
    );
}

#[test]
fn approve_declined() {
    let (_, p) = turn(Thread::new(), "run-appr", "approve");
    let int = p.thread.open_interrupts()[0].clone();
    let call = int.tool_call_id.clone().expect("call id");
    let resume = vec![ResumeEntry {
        interrupt_id: int.id,
        status: ResumeStatus::Resolved,
        payload: Some(json!({"approved": false, "reason": "too pricey"})),
        metadata: None,
    }];
    let (_, p2) = follow_up(p.thread, "run-appr-2", vec![], Some(resume));
    assert_clean(&p2);
    let r: Value =
        serde_json::from_str(&p2.thread.tool_result(&call).expect("result").text()).expect("JSON");
    assert_eq!(r["status"], "declined");
    let last = assistant_texts(&p2.thread).pop().expect("reply").1;
    assert!(
        last.contains("didn't book") && last.contains("too pricey"),
        "{last}"
    );
}

fn tool_answer(id: &str, call: &str, content: &str) -> Message {
    let mut m = Message::new(id, Role::Tool);
    m.tool_call_id = Some(call.into());
    m.content = Some(Content::Text(content.into()));
    m
}

#[test]
fn pay_leaves_a_frontend_tool_pending_and_reacts_to_the_answer() {
    for (text, answer, expect) in [
        ("pay", r#"{"approved":true}"#, "Payment confirmed"),
        (
            "confirm payment",
            r#"{"approved":false}"#,
            "No problem, nothing was charged",
        ),
        (
            "pay the deposit",
            "declined",
            "No problem, nothing was charged",
        ),
        ("pay", "approved", "Payment confirmed"),
    ] {
        let (chunks, p) = turn(Thread::new(), "run-pay", text);
        assert_clean(&p);
        let call = p
            .thread
            .messages
            .iter()
            .flat_map(|m| m.tool_calls.iter().flatten())
            .find(|c| c.function.name == "confirm_payment")
            .expect("confirm_payment")
            .clone();
        assert_eq!(
            p.thread.status(),
            RunStatus::Success {
                pending: vec![call.id.clone()]
            }
        );
        assert_eq!(p.thread.pending_tool_calls(), vec![call.id.clone()]);
        let args = p.thread.tool_args[&call.id].parser.value().expect("args");
        // 8 people × 60 in the trip's currency (the default trip is in dollars).
        assert_eq!(args["amount"], 480);
        assert_eq!(args["currency"], "USD");
        assert!(args["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("Deposit for")));
        let evs = events(&chunks);
        assert!(!evs.iter().any(|e| e["type"] == "TOOL_CALL_RESULT"));
        assert_eq!(
            evs.last().expect("last")["outcome"],
            json!({"type": "success", "pendingToolCallIds": [call.id]})
        );

        let reply = tool_answer("tool-answer-1", &call.id, answer);
        let (_, p2) = follow_up(p.thread, "run-pay-2", vec![reply], None);
        assert_clean(&p2);
        assert_eq!(p2.thread.status(), RunStatus::Success { pending: vec![] });
        let last = assistant_texts(&p2.thread).pop().expect("reply").1;
        assert!(last.starts_with(expect), "{answer}: {last}");
    }
}

#[test]
fn legacy_interrupt_uses_custom_on_interrupt() {
    let (chunks, p) = turn(Thread::new(), "run-leg", "legacy interrupt");
    assert_clean(&p);
    assert_eq!(p.thread.status(), RunStatus::Interrupted);
    let int = p.thread.open_interrupts()[0].clone();
    assert_eq!(int.message.as_deref(), Some("Pick a date"));
    let evs = events(&chunks);
    let custom = evs
        .iter()
        .find(|e| e["type"] == "CUSTOM")
        .expect("CUSTOM event");
    assert_eq!(custom["name"], "on_interrupt");
    let value: Value =
        serde_json::from_str(custom["value"].as_str().expect("value is a string")).expect("JSON");
    assert_eq!(
        value,
        json!({"message": "Pick a date", "options": ["May 12", "May 19"]})
    );
    let fin = evs.last().expect("last");
    assert_eq!(fin["type"], "RUN_FINISHED");
    assert!(fin.get("outcome").is_none());

    // Answered through the standard resume array…
    let resume = vec![ResumeEntry {
        interrupt_id: int.id.clone(),
        status: ResumeStatus::Resolved,
        payload: Some(json!("May 19")),
        metadata: None,
    }];
    let (_, p2) = follow_up(p.thread, "run-leg-2", vec![], Some(resume));
    assert_clean(&p2);
    assert_eq!(p2.thread.status(), RunStatus::Success { pending: vec![] });
    assert!(assistant_texts(&p2.thread)
        .pop()
        .expect("reply")
        .1
        .contains("**May 19**"));

    // …or the deprecated forwardedProps.command.resume.
    let (_, p) = turn(Thread::new(), "run-leg-3", "legacy interrupt");
    let mut body = request(&p.thread, "run-leg-4", vec![], None);
    body["forwardedProps"] = json!({"command": {"resume": "May 12"}});
    let chunks = respond(&DemoRequest::from_input(&body));
    let p2 = play(p.thread, &chunks);
    assert_clean(&p2);
    assert!(all_text(&p2.thread).contains("**May 12**"));
}

#[test]
fn long_answer_is_about_three_thousand_words() {
    let (chunks, p) = turn(Thread::new(), "run-long", "give me a long answer");
    assert_clean(&p);
    let text = all_text(&p.thread);
    let words = text.split_whitespace().count();
    println!("long: {words} words, {} ms", duration(&chunks));
    assert!((2_500..=3_600).contains(&words), "{words} words");
    let deltas = events(&chunks)
        .iter()
        .filter(|e| e["type"] == "TEXT_MESSAGE_CONTENT")
        .count();
    assert!(deltas > 300, "{deltas} deltas");
}

// ----- properties of every reply ---------------------------------------------------------------

/// Every script, including follow-ups, as (name, chunks, pipeline).
fn every_reply() -> Vec<(String, Vec<DemoChunk>, Pipeline)> {
    let mut out = Vec::new();
    for (phrase, _) in TRIGGERS {
        let (chunks, p) = turn(Thread::new(), "run-all-1", phrase);
        out.push((phrase.to_string(), chunks, p));
    }
    // Follow-ups.
    let (_, p) = turn(Thread::new(), "run-all-2", "ask me");
    let id = p.thread.open_interrupts()[0].id.clone();
    let (c, p2) = follow_up(
        p.thread,
        "run-all-3",
        vec![],
        Some(vec![ResumeEntry {
            interrupt_id: id,
            status: ResumeStatus::Resolved,
            payload: Some(json!({"travellers": 3})),
            metadata: None,
        }]),
    );
    out.push(("ask me → resume".into(), c, p2));
    let (_, p) = turn(Thread::new(), "run-all-4", "approve");
    let id = p.thread.open_interrupts()[0].id.clone();
    let (c, p2) = follow_up(
        p.thread,
        "run-all-5",
        vec![],
        Some(vec![ResumeEntry {
            interrupt_id: id,
            status: ResumeStatus::Resolved,
            payload: Some(json!({"approved": true})),
            metadata: None,
        }]),
    );
    out.push(("approve → resume".into(), c, p2));
    let (_, p) = turn(Thread::new(), "run-all-6", "pay");
    let call = p.thread.pending_tool_calls()[0].clone();
    let (c, p2) = follow_up(
        p.thread,
        "run-all-7",
        vec![tool_answer("t-1", &call, r#"{"approved":true}"#)],
        None,
    );
    out.push(("pay → answer".into(), c, p2));
    out
}

#[test]
fn every_reply_is_clean_well_framed_and_timed() {
    for (name, chunks, p) in every_reply() {
        if name == "drop" {
            assert!(matches!(p.error(), Some(ProtocolError::Truncated { .. })));
            assert!(
                p.thread.warnings.is_empty(),
                "{name}: {:?}",
                p.thread.warnings
            );
        } else {
            assert!(p.error().is_none(), "{name}: {:?}", p.error());
            assert!(
                p.thread.warnings.is_empty(),
                "{name}: {:?}",
                p.thread.warnings
            );
            assert!(!p.run_active(), "{name}");
        }
        // Delays in range.
        assert!(
            chunks.iter().all(|c| c.delay_ms <= 1500),
            "{name}: a delay over 1500 ms"
        );
        assert!(chunks.iter().all(|c| !c.bytes.is_empty()), "{name}");
        // Some chunk boundary falls inside an event.
        assert!(
            chunks.iter().any(|c| !c.bytes.ends_with(b"\n\n")),
            "{name}: no event was split"
        );
        // The body: `data: <compact JSON>\n\n` frames (and keep-alive comments), LF only.
        let body = String::from_utf8(demo::body(&chunks)).expect("UTF-8");
        assert!(!body.contains('\r'), "{name}");
        assert!(body.ends_with("\n\n"), "{name}");
        for frame in body.trim_end_matches('\n').split("\n\n") {
            if frame.starts_with(": ") {
                continue;
            }
            let data = frame.strip_prefix("data: ").expect("data frame");
            assert!(!data.contains('\n'), "{name}: multi-line frame");
            let v: Value = serde_json::from_str(data).expect("JSON");
            assert_eq!(v.to_string(), data, "{name}: not compact");
        }
        // Ids: unique per run and derived from the run id.
        let run_id = p.thread.run().expect("run").run_id.clone();
        let evs = events(&chunks);
        let mut opened = HashSet::new();
        for e in &evs {
            let ty = e["type"].as_str().unwrap_or("");
            let id = match ty {
                "TEXT_MESSAGE_START"
                | "REASONING_START"
                | "REASONING_MESSAGE_START"
                | "ACTIVITY_SNAPSHOT"
                | "TOOL_CALL_RESULT" => e["messageId"].as_str(),
                "TOOL_CALL_START" => e["toolCallId"].as_str(),
                _ => None,
            };
            if let Some(id) = id {
                assert!(id.contains(&run_id), "{name}: id {id} not from {run_id}");
                assert!(opened.insert(id.to_owned()), "{name}: id {id} reused");
            }
            if let Some(ints) = e["outcome"]["interrupts"].as_array() {
                for i in ints {
                    let id = i["id"].as_str().expect("interrupt id");
                    assert!(id.contains(&run_id) || id.starts_with("int-call-"), "{id}");
                }
            }
        }
        assert_eq!(evs.first().expect("first")["type"], "RUN_STARTED", "{name}");
        assert_eq!(evs[0]["protocolVersion"], "1.1");
        println!(
            "{name:>24}: {:>5} ms, {:>4} chunks, {:>4} events",
            duration(&chunks),
            chunks.len(),
            evs.len()
        );
    }
}

#[test]
fn every_trigger_picks_its_own_script() {
    let picked: Vec<Scenario> = TRIGGERS
        .iter()
        .map(|(phrase, _)| demo::scenario_for(phrase))
        .collect();
    let distinct: HashSet<_> = picked.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(distinct.len(), TRIGGERS.len(), "{picked:?}");
    assert_eq!(TRIGGERS.len(), 13);
    assert!(TRIGGERS.iter().all(|(p, d)| !p.is_empty() && !d.is_empty()));
}

#[test]
fn replies_are_deterministic_and_vary_with_the_run_id() {
    for text in ["plan", "use a tool", "markdown", "pay"] {
        let a = turn(Thread::new(), "run-same", text).0;
        let b = turn(Thread::new(), "run-same", text).0;
        assert_eq!(a, b, "{text}");
        let c = turn(Thread::new(), "run-other", text).0;
        assert_ne!(a, c, "{text}");
        // Same script, same events apart from ids.
        let strip = |chunks: &[DemoChunk], run: &str| -> Vec<String> {
            events(chunks)
                .iter()
                .map(|e| e["type"].as_str().unwrap_or("").to_owned())
                .filter(|t| {
                    t != "TEXT_MESSAGE_CONTENT"
                        && t != "TOOL_CALL_ARGS"
                        && t != "REASONING_MESSAGE_CONTENT"
                })
                .map(|t| t.replace(run, ""))
                .collect()
        };
        assert_eq!(strip(&a, "run-same"), strip(&c, "run-other"), "{text}");
    }
}

#[test]
fn the_app_style_request_works_too() {
    // The browser store builds the request by hand, with `{}` for a missing state.
    let body = json!({
        "threadId": "t", "runId": "r-app", "state": {}, "tools": [], "context": [],
        "forwardedProps": {},
        "messages": [{"id": "u1", "role": "user", "content": "use a tool"}],
    });
    let empty = json!({});
    let req = DemoRequest {
        thread_id: "t",
        run_id: "r-app",
        last_user_text: "use a tool",
        state: &empty,
        input: &body,
    };
    let chunks = respond(&req);
    assert_eq!(chunks, respond(&DemoRequest::from_input(&body)));
    let p = play(Thread::new(), &chunks);
    assert_clean(&p);
    // Content parts: the last text part is the user's text.
    let body = json!({
        "threadId": "t", "runId": "r-parts",
        "messages": [{"id": "u1", "role": "user", "content": [
            {"type": "text", "text": "think"}]}],
    });
    let req = DemoRequest::from_input(&body);
    assert_eq!(req.last_user_text, "think");
    assert_eq!(req.state, &Value::Null);
    assert_clean(&play(Thread::new(), &respond(&req)));
}

#[test]
fn many_run_ids_all_play_clean_and_in_time() {
    for n in 0..40 {
        let run = format!("run-{n:03}-{}", n * 7919);
        let (chunks, p) = turn(Thread::new(), &run, "plan");
        assert_clean(&p);
        let ms = duration(&chunks);
        assert!(
            (5_000..=12_000).contains(&ms),
            "{run}: planner plays {ms} ms"
        );
        assert!(chunks.iter().all(|c| c.delay_ms <= 1500));
        assert!(chunks.iter().any(|c| !c.bytes.ends_with(b"\n\n")));
        for (phrase, _) in TRIGGERS.iter().skip(1) {
            let (chunks, p) = turn(Thread::new(), &run, phrase);
            assert!(p.thread.warnings.is_empty(), "{run} {phrase}");
            if *phrase == "drop" {
                assert_eq!(p.thread.status(), RunStatus::Truncated);
            } else {
                assert!(p.error().is_none(), "{run} {phrase}: {:?}", p.error());
            }
            assert!(chunks.iter().all(|c| c.delay_ms <= 1500));
            assert!(
                chunks.iter().any(|c| !c.bytes.ends_with(b"\n\n")),
                "{run} {phrase}"
            );
        }
    }
}

// Regression: the chip asked for one trip and the trip panel showed another (12 travellers,
// €6,000); the planner now plans what the prompt asks for.
#[test]
fn the_planner_plans_what_the_prompt_asks_for() {
    let chip = agui_leptos::demo::TRIGGERS[0].0;
    let (_, p) = turn(Thread::new(), "run-chip", chip);
    assert_clean(&p);
    assert_eq!(p.thread.state["travellers"], 8);
    assert_eq!(
        p.thread.state["budget"],
        json!({"amount": 12000, "currency": "USD"})
    );
    let text = all_answers(&p.thread);
    assert!(
        text.contains("8 travellers") && text.contains("$12,000"),
        "{text}"
    );
    assert!(text.contains("$1,500 each"), "{text}");
    assert!(
        !text.contains("12 travellers") && !text.contains("€6,000"),
        "{text}"
    );

    // Other numbers, other currency: everything follows, and only venues that seat all.
    let (_, p) = turn(
        Thread::new(),
        "run-big",
        "Plan a Lisbon offsite for 20 people, under €30k",
    );
    assert_clean(&p);
    assert_eq!(p.thread.state["travellers"], 20);
    assert_eq!(
        p.thread.state["budget"],
        json!({"amount": 30000, "currency": "EUR"})
    );
    let venues = p.thread.state["venues"].as_array().expect("venues");
    assert_eq!(venues.len(), 1, "one venue seats 20: {venues:?}");
    let text = all_answers(&p.thread);
    assert!(
        text.contains("€30,000") && text.contains("all 20 of you"),
        "{text}"
    );

    // Nobody fits a table for 40.
    let (_, p) = turn(Thread::new(), "run-huge", "plan an offsite for 40 guests");
    assert_clean(&p);
    assert_eq!(p.thread.state["venues"], json!([]));
    let text = all_answers(&p.thread);
    assert!(text.contains("No table for 40"), "{text}");
}

#[test]
fn trip_requests_are_read_loosely() {
    use agui_leptos::demo::scripts::{asked_trip, AskedTrip};
    assert_eq!(
        asked_trip("Plan a Lisbon offsite for 8 people, under $12,000"),
        AskedTrip {
            travellers: Some(8),
            budget: Some((12_000, "USD".into()))
        }
    );
    assert_eq!(
        asked_trip("12 travellers and 9.000 € please").budget,
        Some((9_000, "EUR".into()))
    );
    assert_eq!(asked_trip("5000 EUR for 3 of us").travellers, Some(3));
    assert_eq!(asked_trip("£2k").budget, Some((2_000, "GBP".into())));
    assert_eq!(
        asked_trip("plan our offsite in May 2026"),
        AskedTrip::default()
    );
    // Absurd numbers never overflow.
    assert!(
        asked_trip("$99999999999999999999999 for 999999999999999999999 people")
            .budget
            .is_none()
    );
}

/// Every assistant text of a thread, concatenated.
fn all_answers(thread: &Thread) -> String {
    assistant_texts(thread)
        .into_iter()
        .map(|(_, t)| t)
        .collect()
}
