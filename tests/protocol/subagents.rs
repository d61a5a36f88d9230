//! Subagents in the thread model (spec digest §2.3 "Subagents"): each one's parent (subagent,
//! tool call, message), name and status, the budgets on how many and how deep, and what a
//! saved conversation keeps — driven through the whole pipeline from SSE bytes.

use agui_leptos::protocol::reducer::{
    SavedThread, SubagentStatus, MAX_SUBAGENTS, MAX_SUBAGENT_DEPTH,
};
use agui_leptos::protocol::{Pipeline, PipelineOptions, RunStatus, Thread, WarningKind};
use serde_json::{json, Value};

fn sse(events: &[Value]) -> Vec<u8> {
    let mut body = Vec::new();
    for ev in events {
        body.extend_from_slice(format!("data: {ev}\n\n").as_bytes());
    }
    body
}

/// `events` on `thread`, the stream ended; the pipeline must have accepted it.
fn run_on(thread: Thread, events: &[Value]) -> Pipeline {
    let mut p = Pipeline::new(thread, PipelineOptions::default());
    p.push_bytes(&sse(events));
    p.finish();
    assert_eq!(p.error(), None, "stream unexpectedly failed");
    p
}

fn started(run: &str) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": run})
}

fn finished(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run})
}

fn sub_start(id: &str, name: &str, parent: Option<&str>) -> Value {
    let mut e = json!({"type": "SUBAGENT_STARTED", "subagentRunId": id, "name": name});
    if let Some(p) = parent {
        e["parentSubagentRunId"] = json!(p);
    }
    e
}

fn sub_done(id: &str) -> Value {
    json!({"type": "SUBAGENT_FINISHED", "subagentRunId": id})
}

fn said(id: &str, text: &str, owner: &str) -> [Value; 3] {
    [
        json!({"type": "TEXT_MESSAGE_START", "messageId": id, "subagentRunId": owner}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": text, "subagentRunId": owner}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": id, "subagentRunId": owner}),
    ]
}

#[test]
fn keeps_parents_names_descriptions_and_every_status() {
    let mut events = vec![
        started("r1"),
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "delegate", "parentMessageId": "m0"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "research", "name": "Research agent",
               "description": "Finds sources", "parentToolCallId": "tc1", "parentMessageId": "m0"}),
        sub_start("writer", "Writer", Some("research")),
        sub_start("checker", "Checker", None),
        sub_start("approver", "Approver", None),
    ];
    events.extend(said("w1", "draft", "writer"));
    events.extend([
        sub_done("writer"),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "research", "outcome": {"type": "success"}}),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "checker", "message": "quota", "code": "429"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "approver",
               "outcome": {"type": "suspended", "interruptIds": ["i1", "i2"]}}),
        finished("r1"),
    ]);
    let p = run_on(Thread::new(), &events);
    let subs = &p.thread.subagents;
    assert_eq!(subs.len(), 4);
    let research = subs.get("research").expect("research kept");
    assert_eq!(research.name, "Research agent");
    assert_eq!(research.description.as_deref(), Some("Finds sources"));
    assert_eq!(research.parent_tool_call_id.as_deref(), Some("tc1"));
    assert_eq!(research.parent_message_id.as_deref(), Some("m0"));
    assert_eq!(research.parent_subagent_run_id, None);
    assert_eq!((research.depth, research.nest_under.clone()), (1, None));
    assert_eq!(research.status, SubagentStatus::Finished);

    let writer = subs.get("writer").expect("writer kept");
    assert_eq!(writer.parent_subagent_run_id.as_deref(), Some("research"));
    assert_eq!(writer.nest_under.as_deref(), Some("research"));
    assert_eq!(writer.depth, 2);
    assert_eq!(writer.status, SubagentStatus::Finished);

    let checker = subs.get("checker").expect("checker kept");
    assert_eq!(checker.status, SubagentStatus::Error);
    assert_eq!(checker.error.as_deref(), Some("quota"));

    let approver = subs.get("approver").expect("approver kept");
    assert_eq!(approver.status, SubagentStatus::Suspended);
    assert_eq!(approver.interrupt_ids, ["i1", "i2"]);

    // Start order, and the message carries its subagent.
    let ids: Vec<&str> = subs.list().iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["research", "writer", "checker", "approver"]);
    assert_eq!(
        p.thread
            .message("w1")
            .and_then(|m| m.subagent_run_id.as_deref()),
        Some("writer")
    );
}

#[test]
fn nesting_deeper_than_the_budget_is_flattened_to_a_sibling() {
    let n = MAX_SUBAGENT_DEPTH + 3;
    let mut events = vec![started("r1")];
    for i in 0..n {
        let parent = (i > 0).then(|| format!("s{}", i - 1));
        events.push(sub_start(&format!("s{i}"), "deep", parent.as_deref()));
    }
    for i in (0..n).rev() {
        events.push(sub_done(&format!("s{i}")));
    }
    events.push(finished("r1"));
    let p = run_on(Thread::new(), &events);
    let subs = &p.thread.subagents;
    assert_eq!(subs.len(), n);
    let deepest_kept = format!("s{}", MAX_SUBAGENT_DEPTH - 1);
    for (i, s) in subs.list().iter().enumerate() {
        assert_eq!(s.depth, (i + 1).min(MAX_SUBAGENT_DEPTH), "{}", s.id);
        // The agent's parent is kept as said; where it shows is capped.
        assert_eq!(
            s.parent_subagent_run_id,
            (i > 0).then(|| format!("s{}", i - 1))
        );
        if i >= MAX_SUBAGENT_DEPTH {
            let parent_of_deepest = subs.get(&deepest_kept).and_then(|d| d.nest_under.clone());
            assert_eq!(s.nest_under, parent_of_deepest, "{} is a sibling", s.id);
        }
        // Always under one started before it: a tree.
        if let Some(under) = &s.nest_under {
            let j = subs
                .list()
                .iter()
                .position(|o| &o.id == under)
                .expect("known");
            assert!(j < i);
        }
    }
}

#[test]
fn more_subagents_than_the_budget_are_refused_with_a_warning() {
    let extra = 3;
    let mut events = vec![started("r1")];
    for i in 0..MAX_SUBAGENTS + extra {
        events.push(sub_start(&format!("s{i}"), "many", None));
        events.push(sub_done(&format!("s{i}")));
    }
    events.push(finished("r1"));
    let p = run_on(Thread::new(), &events);
    assert_eq!(p.thread.subagents.len(), MAX_SUBAGENTS);
    assert!(p
        .thread
        .subagents
        .get(&format!("s{MAX_SUBAGENTS}"))
        .is_none());
    let over = p
        .thread
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::OverBudget)
        .count();
    assert_eq!(over, extra);
}

#[test]
fn a_run_that_ends_under_a_running_subagent_leaves_it_in_error() {
    // RUN_ERROR.
    let p = run_on(
        Thread::new(),
        &[
            started("r1"),
            sub_start("a", "A", None),
            sub_start("b", "B", None),
            sub_done("b"),
            json!({"type": "RUN_ERROR", "message": "boom"}),
        ],
    );
    let a = p.thread.subagents.get("a").expect("a");
    assert_eq!((a.status, a.error.clone()), (SubagentStatus::Error, None));
    assert_eq!(
        p.thread.subagents.get("b").map(|b| b.status),
        Some(SubagentStatus::Finished)
    );
    // A stream that stops without a terminal event.
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(&sse(&[started("r1"), sub_start("a", "A", None)]));
    assert_eq!(
        p.thread.subagents.get("a").map(|a| a.status),
        Some(SubagentStatus::Running)
    );
    p.finish();
    assert_eq!(p.thread.status(), RunStatus::Truncated);
    assert_eq!(
        p.thread.subagents.get("a").map(|a| a.status),
        Some(SubagentStatus::Error)
    );
}

#[test]
fn a_later_run_may_start_the_same_handle_again_and_it_keeps_its_place() {
    let p = run_on(
        Thread::new(),
        &[
            started("r1"),
            sub_start("a", "A", None),
            sub_start("b", "B", Some("a")),
            sub_done("b"),
            sub_done("a"),
            finished("r1"),
        ],
    );
    let thread = p.thread;
    let p = run_on(
        thread,
        &[
            started("r2"),
            sub_start("b", "B again", None),
            sub_start("c", "C", None),
            sub_done("c"),
            json!({"type": "SUBAGENT_ERROR", "subagentRunId": "b", "message": "again"}),
            finished("r2"),
        ],
    );
    let subs = &p.thread.subagents;
    assert_eq!(subs.len(), 3);
    let b = subs.get("b").expect("b");
    assert_eq!(b.name, "B again");
    assert_eq!(
        (b.status, b.error.as_deref()),
        (SubagentStatus::Error, Some("again"))
    );
    assert_eq!((b.nest_under.as_deref(), b.depth), (Some("a"), 2));
    assert_eq!(subs.get("c").map(|c| c.depth), Some(1));
}

#[test]
fn saved_conversations_keep_subagents_and_old_saves_still_load() {
    let mut events = vec![
        started("r1"),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "a", "name": "Research agent",
               "parentToolCallId": "tc9", "parentMessageId": "m9"}),
        sub_start("b", "Writer", Some("a")),
    ];
    events.extend(said("w1", "draft", "b"));
    events.extend([
        sub_done("b"),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "a", "message": "quota"}),
        finished("r1"),
    ]);
    let p = run_on(Thread::new(), &events);
    let json = serde_json::to_value(p.thread.saved()).expect("serialises");
    assert_eq!(json["subagents"][0]["name"], "Research agent");
    assert_eq!(json["subagents"][0]["status"], "error");
    assert_eq!(json["subagents"][0]["error"], "quota");
    assert_eq!(json["subagents"][0]["parentToolCallId"], "tc9");
    assert_eq!(json["subagents"][1]["parentSubagentRunId"], "a");
    assert_eq!(json["messages"][0]["subagentRunId"], "b");

    let saved: SavedThread = serde_json::from_value(json).expect("reads back");
    let back = Thread::from_saved(saved);
    assert_eq!(back.subagents, p.thread.subagents);
    let b = back.subagents.get("b").expect("b");
    assert_eq!((b.nest_under.as_deref(), b.depth), (Some("a"), 2));

    // A save older than subagents (no key) loads, with none; a save with none writes no key.
    let old: SavedThread = serde_json::from_value(json!({
        "messages": [{"id": "u1", "role": "user", "content": "hi"}],
        "state": {},
    }))
    .expect("old save loads");
    let t = Thread::from_saved(old);
    assert!(t.subagents.is_empty());
    let again = serde_json::to_value(t.saved()).expect("serialises");
    assert!(again.get("subagents").is_none());

    // A subagent saved while it ran (the page went away mid-run) was cut off.
    let cut: SavedThread = serde_json::from_value(json!({
        "messages": [], "state": {},
        "subagents": [{"id": "x", "name": "X", "status": "running"}, {"id": "y", "name": "Y"}],
    }))
    .expect("loads");
    let t = Thread::from_saved(cut);
    let statuses: Vec<SubagentStatus> = t.subagents.list().iter().map(|s| s.status).collect();
    assert_eq!(statuses, [SubagentStatus::Error, SubagentStatus::Error]);

    // A save is data too: a parent naming itself, or one saved after it, nests nothing (the
    // nesting stays a tree); one past the budget is not kept.
    let mut many = vec![
        json!({"id": "p", "name": "P", "status": "finished", "parentSubagentRunId": "p"}),
        json!({"id": "q", "name": "Q", "status": "finished", "parentSubagentRunId": "r"}),
        json!({"id": "r", "name": "R", "status": "finished", "parentSubagentRunId": "q"}),
    ];
    many.extend((0..MAX_SUBAGENTS).map(|i| json!({"id": format!("z{i}"), "name": "Z"})));
    let odd: SavedThread =
        serde_json::from_value(json!({"messages": [], "state": {}, "subagents": many}))
            .expect("loads");
    let t = Thread::from_saved(odd);
    assert_eq!(t.subagents.len(), MAX_SUBAGENTS);
    let place = |id: &str| t.subagents.get(id).map(|s| (s.nest_under.clone(), s.depth));
    assert_eq!(place("p"), Some((None, 1)));
    assert_eq!(place("q"), Some((None, 1)));
    assert_eq!(place("r"), Some((Some("q".to_owned()), 2)));
}
