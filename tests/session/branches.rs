//! Branches kept on the client (regenerate, edit, switch) and the saved form of a
//! conversation: every variant survives any sequence of forks and switches, nested forks come
//! back with their own position, and all of it round-trips through JSON.

use agui_leptos::protocol::reducer::{SavedRun, SavedThread};
use agui_leptos::protocol::types::{Interrupt, Message, Role};
use agui_leptos::session::branches::{
    check_settled, display_title, parse_index, parse_record, sort_by_activity, tail_start,
    BranchError, Branches, IndexEntry, RecordError, ThreadIndex, ThreadRecord, UNTITLED, VERSION,
};
use serde_json::{json, Value};

fn user(id: &str, text: &str) -> Message {
    Message::user(id, text)
}

fn assistant(id: &str, text: &str) -> Message {
    let mut m = Message::new(id, Role::Assistant);
    m.content = Some(agui_leptos::protocol::types::Content::Text(text.to_owned()));
    m
}

fn tool(id: &str, call: &str) -> Message {
    let mut m = Message::new(id, Role::Tool);
    m.tool_call_id = Some(call.to_owned());
    m
}

fn ids(t: &SavedThread) -> Vec<&str> {
    t.messages.iter().map(|m| m.id.as_str()).collect()
}

fn success(run_id: &str) -> Option<SavedRun> {
    Some(SavedRun {
        run_id: run_id.to_owned(),
        status: "success".to_owned(),
        interrupts: Vec::new(),
        pending_tool_calls: Vec::new(),
        error: None,
    })
}

fn thread(messages: Vec<Message>, state: Value, run: &str) -> SavedThread {
    SavedThread {
        messages,
        state,
        last_run: success(run),
        subagents: Vec::new(),
    }
}

/// The answer to the first question, and its state.
fn first_answer() -> SavedThread {
    thread(
        vec![
            user("u1", "plan our Lisbon offsite"),
            assistant("a1", "Here is a plan"),
        ],
        json!({"destination": "Lisbon", "venues": ["A"]}),
        "r1",
    )
}

/// What a run appends after a fork (the pure model only sees the result).
fn run(mut t: SavedThread, msgs: Vec<Message>, state: Value, run_id: &str) -> SavedThread {
    t.messages.extend(msgs);
    t.state = state;
    t.last_run = success(run_id);
    t
}

// ---- regenerate ----------------------------------------------------------------------------

#[test]
fn regenerate_then_switch_back_restores_the_exact_messages_and_state() {
    let mut b = Branches::default();
    let original = first_answer();
    let base = json!({});
    let cut = b
        .branch(original.clone(), Some("u1"), base.clone())
        .unwrap();
    assert_eq!(
        ids(&cut),
        ["u1"],
        "the tail after the user message is taken off"
    );
    assert_eq!(cut.state, base, "the new run starts from the base state");
    assert_eq!(cut.last_run, None);

    let second = run(
        cut,
        vec![assistant("a2", "Another plan")],
        json!({"destination": "Porto"}),
        "r2",
    );
    let sw = b.switchers(&second.messages);
    assert_eq!(sw.len(), 1);
    assert_eq!(
        sw[0].message_id, "a2",
        "the switcher sits on the first tail message"
    );
    assert_eq!((sw[0].current, sw[0].total), (1, 2));

    let back = b.switch(second.clone(), Some("u1"), 0).unwrap();
    assert_eq!(
        back, original,
        "messages, state and last run are exactly the original"
    );
    let sw = b.switchers(&back.messages);
    assert_eq!(
        (sw[0].current, sw[0].total, sw[0].message_id.as_str()),
        (0, 2, "a1")
    );

    let forward = b.switch(back, Some("u1"), 1).unwrap();
    assert_eq!(
        forward, second,
        "and the regenerated one comes back intact too"
    );
}

#[test]
fn regenerating_again_adds_a_third_variant_to_the_same_fork() {
    let mut b = Branches::default();
    let v0 = first_answer();
    let v1 = run(
        b.branch(v0.clone(), Some("u1"), json!({})).unwrap(),
        vec![assistant("a2", "two")],
        json!({"n": 2}),
        "r2",
    );
    let v2 = run(
        b.branch(v1.clone(), Some("u1"), json!({})).unwrap(),
        vec![assistant("a3", "three")],
        json!({"n": 3}),
        "r3",
    );
    assert_eq!(b.forks.len(), 1, "one fork point, three variants");
    assert_eq!(b.forks[0].variants.len(), 3);
    assert!(
        b.forks[0].variants[2].messages.is_empty(),
        "the visible variant is not stored twice"
    );
    let mut cur = v2.clone();
    // Every order of switches gives back each variant exactly.
    for (to, want) in [(0, &v0), (2, &v2), (1, &v1), (0, &v0), (1, &v1), (2, &v2)] {
        cur = b.switch(cur, Some("u1"), to).unwrap();
        assert_eq!(&cur, want, "variant {to}");
    }
}

#[test]
fn a_switch_to_the_current_variant_changes_nothing() {
    let mut b = Branches::default();
    let v1 = run(
        b.branch(first_answer(), Some("u1"), json!({})).unwrap(),
        vec![assistant("a2", "two")],
        json!({}),
        "r2",
    );
    let before = b.clone();
    assert_eq!(b.switch(v1.clone(), Some("u1"), 1).unwrap(), v1);
    assert_eq!(b, before);
}

// ---- edit ----------------------------------------------------------------------------------

#[test]
fn editing_the_first_message_forks_at_the_start() {
    let mut b = Branches::default();
    let original = run(
        first_answer(),
        vec![user("u2", "and dinner?"), assistant("a2", "Alfama")],
        json!({"dinner": true}),
        "r2",
    );
    let mut cut = b.branch(original.clone(), None, json!({})).unwrap();
    assert!(
        cut.messages.is_empty(),
        "the whole conversation is the tail"
    );
    cut.messages.push(user("u1-edit", "plan our Porto offsite"));
    let edited = run(
        cut,
        vec![assistant("b1", "Porto plan")],
        json!({"destination": "Porto"}),
        "r3",
    );
    let sw = b.switchers(&edited.messages);
    assert_eq!(sw.len(), 1);
    assert_eq!(sw[0].anchor, None);
    assert_eq!(
        sw[0].message_id, "u1-edit",
        "the switcher sits on the edited message"
    );
    assert_eq!((sw[0].current, sw[0].total), (1, 2));

    let back = b.switch(edited.clone(), None, 0).unwrap();
    assert_eq!(back, original);
    assert_eq!(b.switch(back, None, 1).unwrap(), edited);
}

#[test]
fn editing_a_later_message_keeps_the_prefix() {
    let mut b = Branches::default();
    let original = run(
        first_answer(),
        vec![user("u2", "and dinner?"), assistant("a2", "Alfama")],
        json!({"dinner": "Alfama"}),
        "r2",
    );
    let mut cut = b
        .branch(original.clone(), Some("a1"), json!({"before": "u2"}))
        .unwrap();
    assert_eq!(ids(&cut), ["u1", "a1"]);
    assert_eq!(cut.state, json!({"before": "u2"}));
    cut.messages.push(user("u2b", "and lunch?"));
    let edited = run(
        cut,
        vec![assistant("a2b", "Baixa")],
        json!({"lunch": "Baixa"}),
        "r3",
    );
    let sw = b.switchers(&edited.messages);
    assert_eq!(
        (sw[0].message_id.as_str(), sw[0].current, sw[0].total),
        ("u2b", 1, 2)
    );
    assert_eq!(b.switch(edited, Some("a1"), 0).unwrap(), original);
}

// ---- nesting -------------------------------------------------------------------------------

#[test]
fn nested_forks_come_back_with_their_own_position() {
    let mut b = Branches::default();
    // v0: u1 a1 u2 a2
    let v0 = run(
        first_answer(),
        vec![user("u2", "and dinner?"), assistant("a2", "Alfama")],
        json!({"v": 0}),
        "r2",
    );
    // Inner fork: regenerate the answer to u2 → a2' .
    let inner1 = run(
        b.branch(v0.clone(), Some("u2"), json!({"base": "u2"}))
            .unwrap(),
        vec![assistant("a2x", "Bairro Alto")],
        json!({"v": "inner1"}),
        "r3",
    );
    // Outer fork: edit u1 → a conversation without u2 at all.
    let mut cut = b.branch(inner1.clone(), None, json!({})).unwrap();
    cut.messages.push(user("u1b", "plan Porto instead"));
    let outer1 = run(
        cut,
        vec![assistant("b1", "Porto")],
        json!({"v": "outer1"}),
        "r4",
    );

    let sw = b.switchers(&outer1.messages);
    assert_eq!(
        sw.len(),
        1,
        "the inner fork is hidden: its anchor is not on screen"
    );
    assert_eq!(sw[0].anchor, None);

    // Back to the outer original: the inner fork is visible again, still on its 2nd variant.
    let back = b.switch(outer1.clone(), None, 0).unwrap();
    assert_eq!(back, inner1);
    let mut sw = b.switchers(&back.messages);
    sw.sort_by(|a, c| a.anchor.cmp(&c.anchor));
    assert_eq!(sw.len(), 2);
    assert_eq!(
        (sw[0].anchor.as_deref(), sw[0].current, sw[0].total),
        (None, 0, 2)
    );
    assert_eq!(
        (
            sw[1].anchor.as_deref(),
            sw[1].message_id.as_str(),
            sw[1].current,
            sw[1].total
        ),
        (Some("u2"), "a2x", 1, 2)
    );

    // The inner switch works inside the restored outer variant…
    let inner0 = b.switch(back, Some("u2"), 0).unwrap();
    assert_eq!(inner0, v0);
    // …and the outer switch now carries the inner choice along.
    let away = b.switch(inner0, None, 1).unwrap();
    assert_eq!(away, outer1);
    let again = b.switch(away, None, 0).unwrap();
    assert_eq!(
        again, v0,
        "the outer tail was saved with the inner variant 0 on screen"
    );
    let inner = b.fork(Some("u2")).unwrap();
    assert_eq!(inner.current, 0);
    assert_eq!(
        inner.variants[1].messages[0].id, "a2x",
        "the other inner variant is intact"
    );
}

// ---- refusals ------------------------------------------------------------------------------

#[test]
fn no_branching_while_running_interrupted_or_waiting_for_a_tool() {
    let mut b = Branches::default();
    let mut t = first_answer();
    let mut r = success("r1").unwrap();

    r.status = "running".into();
    t.last_run = Some(r.clone());
    assert_eq!(check_settled(&t), Err(BranchError::Running));

    r.status = "interrupted".into();
    r.interrupts = vec![Interrupt {
        id: "i1".into(),
        reason: "input_required".into(),
        message: None,
        tool_call_id: None,
        response_schema: None,
        expires_at: None,
        metadata: None,
        subagent_run_id: None,
    }];
    t.last_run = Some(r.clone());
    assert_eq!(
        b.branch(t.clone(), Some("u1"), json!({})),
        Err(BranchError::InterruptsOpen(1))
    );

    r.status = "success".into();
    r.interrupts.clear();
    r.pending_tool_calls = vec!["call-1".into()];
    t.last_run = Some(r);
    assert_eq!(
        b.branch(t, Some("u1"), json!({})),
        Err(BranchError::ToolCallsPending(1))
    );
    assert_eq!(b, Branches::default(), "a refused branch leaves no trace");
}

#[test]
fn bad_anchors_and_indices_are_errors_not_panics() {
    let mut b = Branches::default();
    let t = first_answer();
    assert_eq!(
        b.branch(t.clone(), Some("nope"), json!({})),
        Err(BranchError::UnknownMessage("nope".into()))
    );
    assert_eq!(
        b.branch(t.clone(), Some("a1"), json!({})),
        Err(BranchError::EmptyTail),
        "nothing after the last message"
    );
    assert_eq!(
        b.switch(t.clone(), Some("u1"), 0),
        Err(BranchError::NoFork(Some("u1".into())))
    );
    let v1 = b.branch(t, Some("u1"), json!({})).unwrap();
    assert_eq!(
        b.switch(v1.clone(), Some("u1"), 7),
        Err(BranchError::NoVariant { index: 7, len: 2 })
    );
    // A damaged record (current out of range) still never panics.
    b.forks[0].current = 99;
    let r = b.switch(v1, Some("u1"), 0);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(tail_start(&[], None), Ok(0));
}

#[test]
fn tool_results_do_not_carry_the_switcher() {
    let mut b = Branches::default();
    let t = thread(
        vec![
            user("u1", "q"),
            tool("t-orphan", "c1"),
            assistant("a1", "x"),
        ],
        json!({}),
        "r1",
    );
    let v1 = b.branch(t, Some("u1"), json!({})).unwrap();
    // An empty visible tail: the switcher stays reachable on the anchor.
    let sw = b.switchers(&v1.messages);
    assert_eq!(sw[0].message_id, "u1");
    let v1 = run(
        v1,
        vec![tool("t2", "c2"), assistant("a2", "y")],
        json!({}),
        "r2",
    );
    assert_eq!(b.switchers(&v1.messages)[0].message_id, "a2");
}

// ---- run start states and pruning ------------------------------------------------------------

#[test]
fn the_state_a_run_started_from_is_remembered_per_user_message() {
    let mut b = Branches::default();
    b.note_run_start(&[user("u1", "x")], &json!({"a": 1}));
    b.note_run_start(
        &[user("u1", "x"), assistant("a1", "y")],
        &json!({"ignored": true}),
    );
    assert_eq!(b.base_state("u1"), Some(&json!({"a": 1})));
    assert_eq!(
        b.base_state("a1"),
        None,
        "only runs answering a user message count"
    );
}

#[test]
fn prune_drops_forks_whose_anchor_is_gone_but_keeps_nested_ones() {
    let mut b = Branches::default();
    let v0 = run(
        first_answer(),
        vec![user("u2", "more"), assistant("a2", "more")],
        json!({}),
        "r2",
    );
    b.note_run_start(&v0.messages[..1], &json!({"base": 1}));
    b.note_run_start(&v0.messages[..3], &json!({"base": 2}));
    let inner = run(
        b.branch(v0, Some("u2"), json!({})).unwrap(),
        vec![assistant("a2b", "other")],
        json!({}),
        "r3",
    );
    let mut cut = b.branch(inner, None, json!({})).unwrap();
    cut.messages.push(user("n1", "new"));
    b.note_run_start(&cut.messages, &json!({"base": 3}));
    let before = b.clone();
    b.prune(&cut.messages);
    assert_eq!(
        b, before,
        "the inner fork is reachable through the stored outer tail"
    );

    // A fork whose anchor exists nowhere any more goes, with its remembered states.
    b.forks.push(agui_leptos::session::branches::Fork {
        anchor: Some("ghost".into()),
        variants: vec![Default::default(), Default::default()],
        current: 1,
    });
    b.bases.insert("ghost-user".into(), json!({}));
    b.prune(&cut.messages);
    assert_eq!(b, before);
}

// ---- persistence -----------------------------------------------------------------------------

fn record_with_branches() -> ThreadRecord {
    let mut b = Branches::default();
    let v0 = run(
        first_answer(),
        vec![
            user("u2", "and dinner? <b>tasca</b>"),
            assistant("a2", "Alfama"),
        ],
        json!({"destination": "Lisbon", "nested": {"list": [1, 2, {"x": null}]}}),
        "r2",
    );
    b.note_run_start(&v0.messages[..3], &json!({"destination": "Lisbon"}));
    let v1 = run(
        b.branch(v0, Some("u2"), json!({"destination": "Lisbon"}))
            .unwrap(),
        vec![assistant("a2b", "Bairro Alto")],
        json!({"destination": "Lisbon", "dinner": "Bairro Alto"}),
        "r3",
    );
    let mut cut = b.branch(v1, None, json!({})).unwrap();
    cut.messages.push(user("u1b", "Porto instead"));
    let edited = run(
        cut,
        vec![assistant("b1", "Porto")],
        json!({"destination": "Porto"}),
        "r4",
    );
    ThreadRecord {
        version: VERSION,
        id: "thread-1".into(),
        title: Some("Offsite".into()),
        created_at: 1.0,
        updated_at: 2.5,
        thread: edited,
        branches: b,
        replayed: false,
        queued: Vec::new(),
        times: Default::default(),
    }
}

#[test]
fn a_record_with_nested_branches_round_trips_through_json() {
    let rec = record_with_branches();
    let text = serde_json::to_string(&rec).unwrap();
    let back = parse_record("thread-1", &text).unwrap();
    assert_eq!(back, rec);

    // And the restored branches still switch to the exact originals.
    let mut b = back.branches.clone();
    let outer0 = b.switch(back.thread.clone(), None, 0).unwrap();
    let mut b2 = rec.branches.clone();
    assert_eq!(outer0, b2.switch(rec.thread.clone(), None, 0).unwrap());
    let inner0 = b.switch(outer0, Some("u2"), 0).unwrap();
    assert_eq!(
        inner0.messages.last().map(|m| m.id.as_str()),
        Some("a2"),
        "the first answer to u2"
    );
    assert_eq!(inner0.state["nested"], json!({"list": [1, 2, {"x": null}]}));
}

#[test]
fn the_saved_form_is_documented_camel_case_json() {
    let rec = record_with_branches();
    let v: Value = serde_json::to_value(&rec).unwrap();
    for key in [
        "version",
        "id",
        "title",
        "createdAt",
        "updatedAt",
        "thread",
        "branches",
    ] {
        assert!(v.get(key).is_some(), "record has {key}: {v}");
    }
    assert!(v["thread"]["lastRun"]["runId"].is_string());
    assert!(v["branches"]["forks"][0]["variants"].is_array());
    assert!(v["branches"]["forks"][0]["current"].is_u64());
    assert!(v["branches"]["bases"].is_object());
}

#[test]
fn garbage_and_foreign_records_are_typed_errors() {
    assert!(matches!(
        parse_record("t", "{not json"),
        Err(RecordError::Json(_))
    ));
    assert!(matches!(
        parse_record("t", "null"),
        Err(RecordError::Json(_))
    ));
    assert!(matches!(
        parse_record("t", "[1,2]"),
        Err(RecordError::Json(_))
    ));
    let mut rec = record_with_branches();
    rec.version = 99;
    let text = serde_json::to_string(&rec).unwrap();
    assert_eq!(
        parse_record("thread-1", &text),
        Err(RecordError::Version(99))
    );
    rec.version = VERSION;
    let text = serde_json::to_string(&rec).unwrap();
    assert_eq!(
        parse_record("thread-2", &text),
        Err(RecordError::IdMismatch {
            expected: "thread-2".into(),
            found: "thread-1".into()
        })
    );
    assert!(matches!(parse_index("\u{0}"), Err(RecordError::Json(_))));
    assert_eq!(
        parse_index(r#"{"version": 2, "active": "x"}"#),
        Err(RecordError::Version(2))
    );
}

#[test]
fn an_index_round_trips_and_older_records_without_branches_load() {
    let index = ThreadIndex {
        version: VERSION,
        active: Some("b".into()),
        threads: vec![IndexEntry {
            id: "b".into(),
            title: "B".into(),
            updated_at: 3.0,
        }],
    };
    let text = serde_json::to_string(&index).unwrap();
    assert_eq!(parse_index(&text).unwrap(), index);

    let minimal = json!({
        "version": VERSION,
        "id": "t",
        "thread": {"messages": [{"id": "u", "role": "user", "content": "hi"}], "state": {}},
    });
    let rec = parse_record("t", &minimal.to_string()).unwrap();
    assert_eq!(rec.branches, Branches::default());
    assert_eq!(rec.display_title(), "hi");
}

// ---- titles and order ------------------------------------------------------------------------

#[test]
fn titles_come_from_the_first_user_message_until_renamed() {
    let msgs = vec![
        assistant("a0", "Welcome!"),
        user("u1", "  plan   our\nLisbon offsite  "),
        user("u2", "second"),
    ];
    assert_eq!(display_title(None, &msgs), "plan our Lisbon offsite");
    assert_eq!(display_title(Some("Trip"), &msgs), "Trip");
    assert_eq!(display_title(Some("   "), &msgs), "plan our Lisbon offsite");
    assert_eq!(display_title(None, &[]), UNTITLED);
    let long = "é".repeat(100);
    let t = display_title(None, &[user("u", &long)]);
    assert_eq!(t.chars().count(), 49, "48 characters and an ellipsis: {t}");
    assert!(t.ends_with('…'));
}

#[test]
fn threads_sort_by_last_activity() {
    let e = |id: &str, at: f64| IndexEntry {
        id: id.into(),
        title: id.into(),
        updated_at: at,
    };
    let mut list = vec![e("a", 1.0), e("b", 3.0), e("c", 2.0), e("d", 3.0)];
    sort_by_activity(&mut list);
    let order: Vec<_> = list.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(order, ["b", "d", "c", "a"]);
}

// ---- a site's thread store (issue 31, item 1) --------------------------------------------------

/// The record as a thread store keeps it: the site's four fields on top, the chat's rest under
/// `chat`, and back to the same record.
#[test]
fn a_record_goes_to_a_thread_store_and_back_unchanged() {
    use agui_leptos::session::remote::{from_wire, to_wire};
    let mut record = record_with_branches();
    record.updated_at = 1_796_508_993_250.0;
    record.times.insert("u1b".into(), 1_796_508_990_000.0);
    let wire = to_wire(&record);
    assert_eq!(wire["id"], "thread-1");
    assert_eq!(wire["title"], "Offsite");
    assert_eq!(wire["updatedAt"], "2026-12-05T22:16:33.250Z");
    assert_eq!(wire["createdAt"], "1970-01-01T00:00:00.001Z");
    let ids: Vec<&str> = wire["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ids_of(&record.thread),
        "the messages on top, for the site"
    );
    assert!(
        wire["chat"]["thread"].get("messages").is_none(),
        "not twice"
    );
    assert_eq!(from_wire("thread-1", &wire).unwrap(), record);
    // An automatic title is written out, and read back as automatic.
    record.title = None;
    let wire = to_wire(&record);
    assert_eq!(wire["title"], "Porto instead");
    assert_eq!(from_wire("thread-1", &wire).unwrap().title, None);
}

fn ids_of(t: &SavedThread) -> Vec<&str> {
    t.messages.iter().map(|m| m.id.as_str()).collect()
}

/// What the site changed on its side wins; a record the site wrote itself is a conversation;
/// garbage and another id are errors, never a panic.
#[test]
fn a_thread_store_s_own_changes_and_records_are_read_as_it_wrote_them() {
    use agui_leptos::session::branches::RecordError;
    use agui_leptos::session::remote::{from_wire, list_entry, to_wire, valid_id};
    let record = record_with_branches();
    let mut wire = to_wire(&record);
    wire["title"] = json!("Renamed by support");
    wire["messages"][0]["content"] = json!("[redacted]");
    wire["updatedAt"] = json!("2027-01-01T00:00:00+01:00");
    let read = from_wire("thread-1", &wire).unwrap();
    assert_eq!(read.title.as_deref(), Some("Renamed by support"));
    assert_eq!(read.thread.messages[0].text(), "[redacted]");
    assert_eq!(read.updated_at, 1_798_758_000_000.0);
    let own = json!({
        "id": "imported:7", "title": "From the CRM", "updatedAt": "2026-01-01T00:00:00Z",
        "messages": [{"id": "m1", "role": "user", "content": "Hello"}]
    });
    let read = from_wire("imported:7", &own).unwrap();
    assert_eq!(read.title.as_deref(), Some("From the CRM"));
    assert_eq!(read.thread.messages.len(), 1);
    assert_eq!(read.created_at, 1_767_225_600_000.0);
    assert!(matches!(
        from_wire("other", &own),
        Err(RecordError::IdMismatch { .. })
    ));
    for bad in [
        json!([]),
        json!({"id": "x", "messages": "no"}),
        json!({"id": "x", "chat": {"version": 99}}),
    ] {
        assert!(from_wire("x", &bad).is_err(), "{bad}");
    }
    assert_eq!(
        list_entry(&json!({"id": "t:1", "title": "A", "updatedAt": "1970-01-01T00:00:01Z"})),
        Some(("t:1".to_owned(), "A".to_owned(), 1000.0))
    );
    assert_eq!(list_entry(&json!({"id": "../etc"})), None);
    assert!(valid_id("thread-1a2b:3.x_y") && !valid_id("") && !valid_id("a b"));
    assert!(!valid_id(&"x".repeat(201)) && !valid_id(".."));
}
