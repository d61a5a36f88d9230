//! Two versions of one conversation merged into one (`src/session/merge.rs`): appends on either
//! side, two messages sent at once, a regenerate against an append, a longer copy of the same
//! answer, titles, queues, budgets, and — over generated conversations — that no message is
//! lost, that merging again changes nothing and that both orders give the same record.

use std::collections::BTreeSet;
use std::rc::Rc;

use agui_leptos::protocol::reducer::{SavedRun, SavedThread};
use agui_leptos::protocol::types::{Content, FunctionCall, Message, Role, ToolCall};
use agui_leptos::session::branches::{Branches, ThreadRecord, Variant, VERSION};
use agui_leptos::session::merge::{merge_records, Merged, MAX_VARIANTS};
use agui_leptos::session::storage::MemoryStore;
use agui_leptos::session::{AgentConfig, Session, TestEnv};
use proptest::prelude::*;
use serde_json::{json, Value};

const ID: &str = "thread-1";

fn user(id: &str, text: &str) -> Message {
    Message::user(id, text)
}

fn assistant(id: &str, text: &str) -> Message {
    let mut m = Message::new(id, Role::Assistant);
    m.content = Some(Content::Text(text.to_owned()));
    m
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

fn record(messages: Vec<Message>, state: Value, run: &str, updated_at: f64) -> ThreadRecord {
    ThreadRecord {
        version: VERSION,
        id: ID.to_owned(),
        title: None,
        created_at: 1_000.0,
        updated_at,
        thread: SavedThread {
            messages,
            state,
            last_run: success(run),
            subagents: Vec::new(),
        },
        branches: Branches::default(),
        replayed: false,
        queued: Vec::new(),
        times: Default::default(),
    }
}

fn base() -> Vec<Message> {
    vec![
        user("u1", "plan our Lisbon offsite"),
        assistant("a1", "Here is a plan"),
    ]
}

fn with(mut messages: Vec<Message>, more: Vec<Message>) -> Vec<Message> {
    messages.extend(more);
    messages
}

fn ids(messages: &[Message]) -> Vec<&str> {
    messages.iter().map(|m| m.id.as_str()).collect()
}

/// Every message id of a record: its conversation and every variant.
fn all_ids(r: &ThreadRecord) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = r.thread.messages.iter().map(|m| m.id.clone()).collect();
    for f in &r.branches.forks {
        for v in &f.variants {
            out.extend(v.messages.iter().map(|m| m.id.clone()));
        }
    }
    out
}

fn merge(a: &ThreadRecord, b: &ThreadRecord) -> Merged {
    merge_records(a, b)
}

// ---- one side appended --------------------------------------------------------------------

#[test]
fn only_ours_appended_keeps_ours_and_writes_it_back() {
    let theirs = record(base(), json!({"step": 1}), "r1", 2_000.0);
    let ours = record(
        with(
            base(),
            vec![user("u2", "and Porto?"), assistant("a2", "Porto too")],
        ),
        json!({"step": 2}),
        "r2",
        3_000.0,
    );
    let m = merge(&ours, &theirs);
    assert_eq!(m.record, ours, "the longer conversation, as is");
    assert!(!m.changed_ours, "nothing to refresh");
    assert!(m.changed_theirs, "theirs is behind: write it back");
    assert!(m.record.branches.forks.is_empty(), "an append is no branch");
    assert_eq!((m.dropped_variants, m.dropped_queued), (0, 0));
}

#[test]
fn only_theirs_appended_shows_theirs_even_when_ours_is_newer() {
    let theirs = record(
        with(
            base(),
            vec![user("u2", "and Porto?"), assistant("a2", "Porto too")],
        ),
        json!({"step": 2}),
        "r2",
        2_000.0,
    );
    // Ours changed later (a rename touches nothing else) but holds fewer messages.
    let mut ours = record(base(), json!({"step": 1}), "r1", 5_000.0);
    ours.title = Some("Offsite".to_owned());
    let m = merge(&ours, &theirs);
    assert_eq!(ids(&m.record.thread.messages), ["u1", "a1", "u2", "a2"]);
    assert_eq!(
        m.record.thread.state,
        json!({"step": 2}),
        "state with the conversation shown"
    );
    assert_eq!(m.record.thread.last_run, success("r2"));
    assert_eq!(m.record.title.as_deref(), Some("Offsite"));
    assert_eq!(m.record.updated_at, 5_000.0);
    assert!(m.record.branches.forks.is_empty());
    assert!(m.changed_ours && m.changed_theirs);
}

// ---- both sent a message ------------------------------------------------------------------

fn both_sent() -> (ThreadRecord, ThreadRecord) {
    let ours = record(
        with(
            base(),
            vec![user("o-u2", "book the venue"), assistant("o-a2", "Booked")],
        ),
        json!({"booked": true}),
        "r-ours",
        2_000.0,
    );
    let theirs = record(
        with(
            base(),
            vec![
                user("t-u2", "what about flights?"),
                assistant("t-a2", "Flights"),
            ],
        ),
        json!({"flights": 3}),
        "r-theirs",
        3_000.0,
    );
    (ours, theirs)
}

#[test]
fn both_sent_a_message_the_newer_is_shown_and_the_other_is_a_variant() {
    let (ours, theirs) = both_sent();
    let m = merge(&ours, &theirs);
    let r = &m.record;
    assert_eq!(
        ids(&r.thread.messages),
        ["u1", "a1", "t-u2", "t-a2"],
        "theirs changed last"
    );
    assert_eq!(r.thread.state, json!({"flights": 3}));
    assert_eq!(r.thread.last_run, success("r-theirs"));
    assert_eq!(r.branches.forks.len(), 1);
    let fork = &r.branches.forks[0];
    assert_eq!(
        fork.anchor.as_deref(),
        Some("a1"),
        "forked where an edit of the message would"
    );
    assert_eq!(fork.current, 1, "the shown one last, like an edit makes it");
    assert_eq!(fork.variants[1], Variant::default(), "the thread holds it");
    assert_eq!(ids(&fork.variants[0].messages), ["o-u2", "o-a2"]);
    assert_eq!(fork.variants[0].state, json!({"booked": true}));
    assert_eq!(fork.variants[0].last_run, success("r-ours"));
    assert!(m.changed_ours && m.changed_theirs);

    // The switcher shows it and switches to it.
    let mut branches = r.branches.clone();
    let sw = branches.switchers(&r.thread.messages);
    assert_eq!(sw.len(), 1);
    assert_eq!(
        (sw[0].message_id.as_str(), sw[0].current, sw[0].total),
        ("t-u2", 1, 2)
    );
    let other = branches
        .switch(r.thread.clone(), Some("a1"), 0)
        .expect("switches");
    assert_eq!(ids(&other.messages), ["u1", "a1", "o-u2", "o-a2"]);
    assert_eq!(other.state, json!({"booked": true}));
    let back = branches.switch(other, Some("a1"), 1).expect("and back");
    assert_eq!(back, r.thread, "exactly the conversation shown");

    // The other device merges the same two and writes the same record.
    assert_eq!(merge(&theirs, &ours).record, m.record);
}

#[test]
fn the_merged_variant_switches_in_a_restored_session() {
    let (ours, theirs) = both_sent();
    let merged = merge(&ours, &theirs).record;
    let store = MemoryStore::new();
    store.put(
        &format!("agui-test:thread:{ID}"),
        &serde_json::to_string(&merged).unwrap(),
    );
    let mut s = Session::restore(
        AgentConfig::default(),
        Rc::new(TestEnv::default()),
        store.clone(),
        "agui-test",
    );
    assert_eq!(s.thread_id(), ID);
    assert_eq!(ids(&s.thread().messages), ["u1", "a1", "t-u2", "t-a2"]);
    let sw = s.switchers();
    assert_eq!(sw.len(), 1);
    assert_eq!((sw[0].current, sw[0].total), (1, 2));
    s.switch_branch(sw[0].anchor.as_deref(), 0)
        .expect("the other device's version");
    assert_eq!(ids(&s.thread().messages), ["u1", "a1", "o-u2", "o-a2"]);
    assert_eq!(s.state_at("/booked"), Some(&json!(true)));
    let sw = s.switchers();
    assert_eq!((sw[0].current, sw[0].total), (0, 2));
    s.switch_branch(Some("a1"), 1).expect("back");
    assert_eq!(ids(&s.thread().messages), ["u1", "a1", "t-u2", "t-a2"]);
    assert!(s.notices().is_empty(), "{:?}", s.notices());
}

// ---- a regenerate against an append ---------------------------------------------------------

/// Ours regenerated the first answer (the Branches API, as the session does it); theirs asked
/// a follow-up to the original answer.
fn regenerate_vs_append(ours_at: f64, theirs_at: f64) -> (ThreadRecord, ThreadRecord) {
    let mut b = Branches::default();
    let original = record(base(), json!({"v": 1}), "r1", 1_000.0).thread;
    let mut cut = b.branch(original, Some("u1"), json!({})).unwrap();
    cut.messages.push(assistant("a1-again", "Another plan"));
    cut.state = json!({"v": 2});
    cut.last_run = success("r2");
    let mut ours = record(Vec::new(), json!({}), "r2", ours_at);
    ours.thread = cut;
    ours.branches = b;
    let theirs = record(
        with(
            base(),
            vec![user("u2", "and Porto?"), assistant("a2", "Porto too")],
        ),
        json!({"v": 3}),
        "r3",
        theirs_at,
    );
    (ours, theirs)
}

#[test]
fn a_regenerate_against_an_append_keeps_both_answers_as_variants() {
    // Theirs is newer: their continuation is shown; ours' regenerated answer is a variant.
    let (ours, theirs) = regenerate_vs_append(2_000.0, 3_000.0);
    let m = merge(&ours, &theirs);
    let r = &m.record;
    assert_eq!(ids(&r.thread.messages), ["u1", "a1", "u2", "a2"]);
    assert_eq!(r.thread.state, json!({"v": 3}));
    assert_eq!(r.branches.forks.len(), 1, "ours' fork, no second one");
    let fork = &r.branches.forks[0];
    assert_eq!(fork.anchor.as_deref(), Some("u1"));
    // Ours stored the original answer as variant 0: theirs continued that same variant.
    assert_eq!(fork.current, 0);
    assert_eq!(ids(&fork.variants[1].messages), ["a1-again"]);
    assert_eq!(fork.variants[1].state, json!({"v": 2}));
    let mut branches = r.branches.clone();
    let regenerated = branches.switch(r.thread.clone(), Some("u1"), 1).unwrap();
    assert_eq!(ids(&regenerated.messages), ["u1", "a1-again"]);

    // Ours is newer: the regenerated answer stays on screen and variant 0 is the original,
    // with the follow-up the other device asked.
    let (ours, theirs) = regenerate_vs_append(4_000.0, 3_000.0);
    let m = merge(&ours, &theirs);
    let r = &m.record;
    assert_eq!(ids(&r.thread.messages), ["u1", "a1-again"]);
    assert_eq!(r.thread.state, json!({"v": 2}));
    let fork = &r.branches.forks[0];
    assert_eq!(fork.current, 1);
    assert_eq!(ids(&fork.variants[0].messages), ["a1", "u2", "a2"]);
    assert_eq!(fork.variants[0].state, json!({"v": 3}));
    assert!(m.changed_ours, "the stored variant grew");
    assert_eq!(merge(&theirs, &ours).record, m.record);
    assert_eq!(merge(&m.record, &theirs).record, m.record);
}

#[test]
fn a_newer_regenerate_that_said_nothing_does_not_hide_the_longer_conversation() {
    // Ours regenerated the answer later, and that run failed before a word: ours ends at the
    // question (an empty tail of its fork). Theirs asked a follow-up to the original answer.
    let mut b = Branches::default();
    let original = record(base(), json!({"v": 1}), "r1", 1_000.0).thread;
    let mut cut = b.branch(original, Some("u1"), json!({})).unwrap();
    cut.last_run = Some(SavedRun {
        run_id: "r-failed".to_owned(),
        status: "error".to_owned(),
        interrupts: Vec::new(),
        pending_tool_calls: Vec::new(),
        error: Some("down".to_owned()),
    });
    let mut ours = record(Vec::new(), json!({}), "r", 4_000.0);
    ours.thread = cut.clone();
    ours.branches = b;
    let theirs = record(
        with(
            base(),
            vec![user("u2", "and Porto?"), assistant("a2", "Porto too")],
        ),
        json!({"v": 3}),
        "r3",
        3_000.0,
    );
    let m = merge(&ours, &theirs);
    let r = &m.record;
    assert_eq!(
        ids(&r.thread.messages),
        ["u1", "a1", "u2", "a2"],
        "one side is a prefix of the other: the longer is shown"
    );
    assert_eq!(r.thread.last_run, success("r3"));
    let fork = &r.branches.forks[0];
    assert_eq!((fork.anchor.as_deref(), fork.current), (Some("u1"), 0));
    assert_eq!(fork.variants.len(), 2);
    // The failed regenerate stays a variant: switching to it shows what ours showed.
    let mut branches = r.branches.clone();
    let failed = branches.switch(r.thread.clone(), Some("u1"), 1).unwrap();
    assert_eq!(failed, cut);
    assert_eq!(merge(&theirs, &ours).record, m.record);
}

#[test]
fn two_failed_regenerates_stay_two_empty_variants() {
    let failed = |run: &str| {
        Some(SavedRun {
            run_id: run.to_owned(),
            status: "error".to_owned(),
            interrupts: Vec::new(),
            pending_tool_calls: Vec::new(),
            error: Some("down".to_owned()),
        })
    };
    // Regenerate, the run fails before a word; back to the answer; regenerate, fails again.
    let mut b = Branches::default();
    let mut t = record(base(), json!({"v": 1}), "r1", 1_000.0).thread;
    t = b.branch(t, Some("u1"), json!({})).unwrap();
    t.last_run = failed("r-f1");
    t = b.switch(t, Some("u1"), 0).unwrap();
    t = b.branch(t, Some("u1"), json!({})).unwrap();
    t.last_run = failed("r-f2");
    let mut ours = record(Vec::new(), json!({}), "r", 3_000.0);
    ours.thread = t;
    ours.branches = b;
    assert_eq!(ours.branches.forks[0].variants.len(), 3);
    assert_eq!(
        merge(&ours, &ours).record,
        ours,
        "each empty tail is its run's"
    );

    // The other device continued the answer: it is shown, both failures stay variants.
    let theirs = record(
        with(
            base(),
            vec![user("u2", "and Porto?"), assistant("a2", "Porto too")],
        ),
        json!({"v": 3}),
        "r3",
        2_000.0,
    );
    let r = merge(&ours, &theirs).record;
    assert_eq!(ids(&r.thread.messages), ["u1", "a1", "u2", "a2"]);
    let fork = &r.branches.forks[0];
    assert_eq!((fork.variants.len(), fork.current), (3, 0));
    let runs: Vec<_> = fork.variants[1..]
        .iter()
        .map(|v| {
            (
                v.messages.len(),
                v.last_run.as_ref().map(|r| r.run_id.as_str()),
            )
        })
        .collect();
    assert_eq!(runs, [(0, Some("r-f1")), (0, Some("r-f2"))]);
    assert_eq!(merge(&theirs, &ours).record, r);
}

#[test]
fn two_different_answers_to_one_question_fork_at_the_question() {
    // Each device asked the same question (the shared u2) and got its own answer.
    let ours = record(
        with(base(), vec![user("u2", "Porto?"), assistant("o-a2", "Yes")]),
        json!({"o": 1}),
        "ro",
        3_000.0,
    );
    let theirs = record(
        with(base(), vec![user("u2", "Porto?"), assistant("t-a2", "No")]),
        json!({"t": 1}),
        "rt",
        2_000.0,
    );
    let m = merge(&ours, &theirs);
    let r = &m.record;
    assert_eq!(ids(&r.thread.messages), ["u1", "a1", "u2", "o-a2"]);
    let fork = &r.branches.forks[0];
    assert_eq!(
        fork.anchor.as_deref(),
        Some("u2"),
        "where a regenerate forks"
    );
    assert_eq!(ids(&fork.variants[0].messages), ["t-a2"]);
    assert_eq!(fork.current, 1);
    assert!(m.changed_ours, "ours gains a variant");
    assert!(m.changed_theirs, "theirs is no longer shown");
}

// ---- one message, two contents ------------------------------------------------------------

#[test]
fn the_more_complete_copy_of_a_message_is_kept_never_both() {
    // Ours saved the answer mid-stream, later (a rename); theirs has it finished.
    let mut ours = record(
        with(base(), vec![assistant("a2", "Porto has")]),
        json!({}),
        "r2",
        5_000.0,
    );
    ours.thread.last_run.as_mut().unwrap().status = "running".to_owned();
    let theirs = record(
        with(base(), vec![assistant("a2", "Porto has three good venues")]),
        json!({"venues": 3}),
        "r2",
        3_000.0,
    );
    let m = merge(&ours, &theirs);
    assert_eq!(ids(&m.record.thread.messages), ["u1", "a1", "a2"]);
    assert_eq!(
        m.record.thread.messages[2].text(),
        "Porto has three good venues"
    );
    assert!(
        m.record.branches.forks.is_empty(),
        "one message, no variant"
    );

    // A tool call counts before text: the copy with the call wins over a longer text.
    let mut called = assistant("a2", "x");
    called.tool_calls = Some(vec![ToolCall {
        id: "call-1".to_owned(),
        kind: "function".to_owned(),
        function: FunctionCall {
            name: "search".to_owned(),
            arguments: "{}".to_owned(),
        },
        encrypted_value: None,
        encrypted_value_type: None,
        metadata: None,
    }]);
    let a = record(
        with(base(), vec![assistant("a2", "a much longer text")]),
        json!({}),
        "r",
        9_000.0,
    );
    let b = record(with(base(), vec![called.clone()]), json!({}), "r", 1_000.0);
    assert_eq!(merge(&a, &b).record.thread.messages[2], called);
    assert_eq!(merge(&b, &a).record.thread.messages[2], called);

    // Equally complete: the newer record's copy.
    let a = record(
        with(base(), vec![assistant("a2", "abc")]),
        json!({}),
        "r",
        2_000.0,
    );
    let b = record(
        with(base(), vec![assistant("a2", "xyz")]),
        json!({}),
        "r",
        3_000.0,
    );
    assert_eq!(merge(&a, &b).record.thread.messages[2].text(), "xyz");
    assert_eq!(merge(&b, &a).record.thread.messages[2].text(), "xyz");
}

// ---- titles, times, queue ---------------------------------------------------------------------

#[test]
fn titles_a_rename_wins_over_none_else_the_newer() {
    let mut a = record(base(), json!({}), "r", 2_000.0);
    let mut b = record(base(), json!({}), "r", 3_000.0);
    a.title = Some("Lisbon".to_owned());
    a.created_at = 500.0;
    let m = merge(&a, &b).record;
    assert_eq!(
        m.title.as_deref(),
        Some("Lisbon"),
        "the newer has none: the rename wins"
    );
    assert_eq!((m.created_at, m.updated_at), (500.0, 3_000.0));
    b.title = Some("Porto".to_owned());
    assert_eq!(merge(&a, &b).record.title.as_deref(), Some("Porto"));
    assert_eq!(merge(&b, &a).record.title.as_deref(), Some("Porto"));
    // A rename does not touch `updated_at`: two tabs renamed the same conversation. Both
    // devices still agree.
    b.updated_at = 2_000.0;
    let ab = merge(&a, &b).record;
    assert_eq!(ab, merge(&b, &a).record);
    assert_eq!(ab.title.as_deref(), Some("Porto"), "the larger text");
    a.replayed = true;
    assert!(merge(&b, &a).record.replayed);
}

#[test]
fn queues_are_joined_by_id_without_what_was_sent() {
    let mut ours = record(base(), json!({}), "r", 3_000.0);
    ours.queued = vec![user("q1", "first"), user("q2", "second")];
    // Theirs sent q1 already (it is in their conversation) and queued q3.
    let mut theirs = record(
        with(base(), vec![user("q1", "first"), assistant("a-q1", "ok")]),
        json!({}),
        "r",
        2_000.0,
    );
    theirs.queued = vec![user("q2", "second"), user("q3", "third")];
    let m = merge(&ours, &theirs);
    assert_eq!(ids(&m.record.thread.messages), ["u1", "a1", "q1", "a-q1"]);
    assert_eq!(
        ids(&m.record.queued),
        ["q2", "q3"],
        "q1 went out: not queued again"
    );
    assert_eq!(merge(&theirs, &ours).record, m.record);

    // Nothing sent: ours (newer) first, then theirs'.
    theirs.thread.messages = base();
    let m = merge(&ours, &theirs);
    assert_eq!(ids(&m.record.queued), ["q1", "q2", "q3"]);

    // The queue's budget holds.
    ours.queued = (0..15).map(|i| user(&format!("o{i}"), "x")).collect();
    theirs.queued = (0..15).map(|i| user(&format!("t{i}"), "x")).collect();
    let m = merge(&ours, &theirs);
    assert_eq!(m.record.queued.len(), 20);
    assert_eq!(m.dropped_queued, 10);
    assert_eq!(m.record.queued[0].id, "o0", "the newer side's first");
    assert_eq!(merge(&m.record, &theirs).record, m.record, "stable");
}

// ---- edge cases ---------------------------------------------------------------------------------

#[test]
fn records_of_two_conversations_give_ours_back() {
    let (ours, mut theirs) = both_sent();
    theirs.id = "thread-2".to_owned();
    let m = merge(&ours, &theirs);
    assert_eq!(m.record, ours);
    assert!(!m.changed_ours && !m.changed_theirs);
}

#[test]
fn merging_a_record_with_itself_changes_nothing() {
    let (ours, theirs) = regenerate_vs_append(2_000.0, 3_000.0);
    for r in [&ours, &theirs, &merge(&ours, &theirs).record] {
        let m = merge(r, r);
        assert_eq!(m.record, *r);
        assert!(!m.changed_ours && !m.changed_theirs);
    }
}

#[test]
fn a_fork_over_budget_loses_its_oldest_variants_never_the_conversation() {
    // Each device regenerated the first answer 20 times.
    let side = |tag: &str, at: f64| {
        let mut b = Branches::default();
        let mut t = record(base(), json!({}), "r", 1_000.0).thread;
        for i in 0..20 {
            t = b.branch(t, Some("u1"), json!({})).unwrap();
            t.messages.push(assistant(&format!("{tag}{i}"), "again"));
            t.last_run = success("r");
        }
        let mut r = record(Vec::new(), json!({}), "r", at);
        r.thread = t;
        r.branches = b;
        r
    };
    let (ours, theirs) = (side("o", 3_000.0), side("t", 2_000.0));
    assert_eq!(ours.branches.forks[0].variants.len(), 21);
    let m = merge(&ours, &theirs);
    let fork = &m.record.branches.forks[0];
    // a1, o0..o19 and t0..t19: 41 tails, one fork.
    assert_eq!(fork.variants.len(), MAX_VARIANTS);
    assert_eq!(m.dropped_variants, 41 - MAX_VARIANTS);
    assert_eq!(
        ids(&m.record.thread.messages),
        ["u1", "o19"],
        "the conversation shown stays"
    );
    assert_eq!(fork.variants[fork.current], Variant::default());
    // The oldest went: the variants only theirs (the older side) has are listed first, from
    // t0 on; the shared original answer keeps its place in ours.
    let kept = all_ids(&m.record);
    for i in 0..9 {
        assert!(!kept.contains(&format!("t{i}")), "t{i} is among the oldest");
    }
    for id in ["t9", "t19", "a1", "o0", "o18"] {
        assert!(kept.contains(id), "{id} kept");
    }
    // Merging again with either side changes nothing.
    assert_eq!(merge(&m.record, &theirs).record, m.record);
    assert_eq!(merge(&m.record, &ours).record, m.record);
    assert_eq!(merge(&theirs, &m.record).record, m.record);
}

#[test]
fn a_merge_inside_a_stored_variant_nests_and_switches() {
    // Shared: u1 a1 u2 a2; ours edited u2 (fork at a1, the original tail stored), theirs
    // appended to the original tail. Theirs' message lands inside ours' stored variant.
    let shared = with(base(), vec![user("u2", "Porto?"), assistant("a2", "Yes")]);
    let mut b = Branches::default();
    let mut t = record(shared.clone(), json!({"s": 0}), "r", 1_000.0).thread;
    t = b.branch(t, Some("a1"), json!({})).unwrap();
    t.messages
        .extend([user("u2-edit", "Faro?"), assistant("a2-edit", "Sure")]);
    t.last_run = success("r-edit");
    let mut ours = record(Vec::new(), json!({}), "r", 3_000.0);
    ours.thread = t;
    ours.branches = b;
    let theirs = record(
        with(shared, vec![user("u3", "Book it"), assistant("a3", "Done")]),
        json!({"s": 3}),
        "r3",
        2_000.0,
    );
    let m = merge(&ours, &theirs);
    let r = &m.record;
    assert_eq!(ids(&r.thread.messages), ["u1", "a1", "u2-edit", "a2-edit"]);
    let fork = &r.branches.forks[0];
    assert_eq!(
        ids(&fork.variants[0].messages),
        ["u2", "a2", "u3", "a3"],
        "the stored tail grew"
    );
    assert_eq!(fork.variants[0].state, json!({"s": 3}));
    let mut branches = r.branches.clone();
    let original = branches.switch(r.thread.clone(), Some("a1"), 0).unwrap();
    assert_eq!(
        ids(&original.messages),
        ["u1", "a1", "u2", "a2", "u3", "a3"]
    );
    assert_eq!(merge(&theirs, &ours).record, m.record);
}

#[test]
fn deep_nesting_and_long_conversations_merge_without_recursion() {
    // 5,000 forks, each inside the stored variant of the one before: no recursion on data.
    let mut deep = record(vec![user("r", "start")], json!({}), "r", 2_000.0);
    let mut anchor = "r".to_owned();
    for i in 0..5_000 {
        let id = format!("s{i}");
        deep.branches
            .forks
            .push(agui_leptos::session::branches::Fork {
                anchor: Some(anchor),
                variants: vec![
                    Variant {
                        messages: vec![user(&id, "x")],
                        state: json!(i),
                        last_run: None,
                    },
                    Variant::default(),
                ],
                current: 1,
            });
        anchor = id;
    }
    let m = merge(&deep, &deep);
    assert_eq!(m.record, deep);
    let mut longer = deep.clone();
    longer.thread.messages.push(assistant("x", "more"));
    longer.branches.forks[0].current = 1;
    let m = merge(&deep, &longer);
    assert_eq!(all_ids(&m.record).len(), 5_002);
    assert_eq!(ids(&m.record.thread.messages), ["r", "x"]);
    assert_eq!(merge(&longer, &deep).record, m.record);

    // Two 20,000-message conversations that part in the middle.
    let shared: Vec<Message> = (0..10_000).map(|i| user(&format!("m{i}"), "x")).collect();
    let side = |tag: &str, at: f64| {
        let tail = (0..10_000).map(|i| assistant(&format!("{tag}{i}"), "y"));
        record(
            shared.iter().cloned().chain(tail).collect(),
            json!({}),
            "r",
            at,
        )
    };
    let (a, b) = (side("a", 2_000.0), side("b", 3_000.0));
    let m = merge(&a, &b);
    assert_eq!(all_ids(&m.record).len(), 30_000);
    assert_eq!(
        m.record.thread.messages.last().map(|m| m.id.as_str()),
        Some("b9999")
    );
    assert_eq!(m.record.branches.forks[0].anchor.as_deref(), Some("m9999"));
}

// ---- properties over generated conversations -------------------------------------------------

/// One step a device takes on a conversation.
#[derive(Debug, Clone)]
enum Step {
    /// A question and its answer.
    Send(u8),
    /// Regenerate the last answer.
    Regenerate,
    /// Regenerate the last answer, and the run fails before it says anything (an empty tail).
    RegenerateFails,
    /// Edit the n-th user message (a new id) and get an answer.
    Edit(u8),
    /// The n-th message grows, when it is an answer (one saved mid-stream, finished here).
    Grow(u8, u8),
    /// Show variant `to` of the n-th fork on screen.
    Switch(u8, u8),
    /// Queue a message (a shared id when the flag is set).
    Queue(bool, u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (1u8..4).prop_map(Step::Send),
        1 => Just(Step::Regenerate),
        1 => Just(Step::RegenerateFails),
        1 => any::<u8>().prop_map(Step::Edit),
        3 => (any::<u8>(), 1u8..4).prop_map(|(n, by)| Step::Grow(n, by)),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Step::Switch(a, b)),
        1 => (any::<bool>(), 0u8..3).prop_map(|(s, n)| Step::Queue(s, n)),
    ]
}

/// A device's copy of the conversation; its new ids start with `tag`.
struct Device {
    record: ThreadRecord,
    tag: char,
    next: u32,
}

impl Device {
    fn id(&mut self, kind: &str) -> String {
        self.next += 1;
        format!("{}-{kind}{}", self.tag, self.next)
    }

    fn answer(&mut self) {
        let id = self.id("a");
        let n = self.next;
        let t = &mut self.record.thread;
        t.messages.push(assistant(&id, &"w".repeat(n as usize % 5)));
        t.state = json!({ "by": self.tag.to_string(), "n": n });
        t.last_run = success(&format!("run-{id}"));
    }

    fn apply(&mut self, step: &Step) {
        let r = &mut self.record;
        match *step {
            Step::Send(len) => {
                let id = self.id("u");
                let text = "q".repeat(len as usize);
                self.record.thread.messages.push(user(&id, &text));
                self.answer();
            }
            Step::Regenerate | Step::RegenerateFails => {
                let Some(i) = r.thread.messages.iter().rposition(|m| m.role == Role::User) else {
                    return;
                };
                if i + 1 == r.thread.messages.len() {
                    return;
                }
                let anchor = r.thread.messages[i].id.clone();
                let t = r.thread.clone();
                if let Ok(cut) = r.branches.branch(t, Some(&anchor), json!({})) {
                    r.thread = cut;
                    if matches!(step, Step::Regenerate) {
                        self.answer();
                    } else {
                        let id = self.id("run");
                        self.record.thread.last_run = Some(SavedRun {
                            run_id: id,
                            status: "error".to_owned(),
                            interrupts: Vec::new(),
                            pending_tool_calls: Vec::new(),
                            error: Some("down".to_owned()),
                        });
                    }
                }
            }
            Step::Edit(n) => {
                let users: Vec<usize> = (0..r.thread.messages.len())
                    .filter(|&i| r.thread.messages[i].role == Role::User)
                    .collect();
                if users.is_empty() {
                    return;
                }
                let i = users[n as usize % users.len()];
                let anchor = i.checked_sub(1).map(|j| r.thread.messages[j].id.clone());
                let t = r.thread.clone();
                if let Ok(cut) = r.branches.branch(t, anchor.as_deref(), json!({})) {
                    self.record.thread = cut;
                    let id = self.id("e");
                    self.record.thread.messages.push(user(&id, "edited"));
                    self.answer();
                }
            }
            Step::Grow(n, by) => {
                let len = r.thread.messages.len().max(1);
                if let Some(m) = r.thread.messages.get_mut(n as usize % len) {
                    if let (Role::Assistant, Some(Content::Text(s))) = (m.role, &mut m.content) {
                        s.push_str(&self.tag.to_string().repeat(by as usize));
                    }
                }
            }
            Step::Switch(k, to) => {
                let sw = r.branches.switchers(&r.thread.messages);
                if sw.is_empty() {
                    return;
                }
                let s = &sw[k as usize % sw.len()];
                let to = to as usize % s.total;
                let t = r.thread.clone();
                if let Ok(t) = r.branches.switch(t, s.anchor.as_deref(), to) {
                    r.thread = t;
                }
            }
            Step::Queue(shared, n) => {
                let id = if shared {
                    format!("q-shared-{n}")
                } else {
                    self.id("q")
                };
                let queued = &mut self.record.queued;
                if !queued.iter().any(|m| m.id == id) {
                    queued.push(user(&id, "later"));
                }
            }
        }
        self.record.branches.prune(&self.record.thread.messages);
    }
}

fn device(record: ThreadRecord, tag: char, steps: &[Step]) -> ThreadRecord {
    let mut d = Device {
        record,
        tag,
        next: 0,
    };
    for s in steps {
        d.apply(s);
    }
    d.record
}

/// Two devices that shared a conversation and then each went on.
fn two_devices() -> impl Strategy<Value = (ThreadRecord, ThreadRecord)> {
    let steps = || prop::collection::vec(step(), 0..6);
    let title = || prop_oneof![Just(None), Just(Some("A")), Just(Some("B"))];
    (
        steps(),
        steps(),
        steps(),
        (0u8..3, 0u8..3),
        (title(), title()),
    )
        .prop_map(|(shared, ours, theirs, (ta, tb), (na, nb))| {
            let start = record(Vec::new(), json!({}), "r0", 1_000.0);
            let base = device(start, 'b', &shared);
            let mut a = device(base.clone(), 'o', &ours);
            let mut b = device(base, 't', &theirs);
            a.updated_at = 2_000.0 + f64::from(ta);
            b.updated_at = 2_000.0 + f64::from(tb);
            a.title = na.map(str::to_owned);
            b.title = nb.map(str::to_owned);
            (a, b)
        })
}

/// Two devices that changed the same conversation at the same time without moving what is shown:
/// the same answers grew by as much with different text, different queues and titles — no side
/// leads, every choice must still come out the same on both.
fn tied_devices() -> impl Strategy<Value = (ThreadRecord, ThreadRecord)> {
    let queue = || prop::collection::vec((any::<bool>(), 0u8..3), 0..3);
    let title = || prop_oneof![Just(None), Just(Some("A")), Just(Some("B"))];
    (
        prop::collection::vec(step(), 1..8),
        prop::collection::vec((any::<u8>(), 1u8..3), 0..3),
        (queue(), queue()),
        (title(), title()),
    )
        .prop_map(|(shared, grow, (qa, qb), (na, nb))| {
            let start = record(Vec::new(), json!({}), "r0", 1_000.0);
            let base = device(start, 'b', &shared);
            let side = |tag: char, queue: &[(bool, u8)], title: Option<&str>| {
                let mut steps: Vec<Step> = grow.iter().map(|&(n, by)| Step::Grow(n, by)).collect();
                steps.extend(queue.iter().map(|&(s, n)| Step::Queue(s, n)));
                let mut r = device(base.clone(), tag, &steps);
                r.title = title.map(str::to_owned);
                r.updated_at = 2_000.0;
                r
            };
            (side('o', &qa, na), side('t', &qb, nb))
        })
}

/// Both kinds of pairs.
fn pairs() -> impl Strategy<Value = (ThreadRecord, ThreadRecord)> {
    prop_oneof![3 => two_devices(), 1 => tied_devices()]
}

/// Every visible fork switches to each of its variants and back to exactly the same thread.
fn switches_cleanly(r: &ThreadRecord) -> Result<(), TestCaseError> {
    for s in r.branches.switchers(&r.thread.messages) {
        for to in 0..s.total {
            let mut b = r.branches.clone();
            let there = b
                .switch(r.thread.clone(), s.anchor.as_deref(), to)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let back = b
                .switch(there, s.anchor.as_deref(), s.current)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&back, &r.thread);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// No message of either side is lost, and the result is a conversation the switcher works on.
    #[test]
    fn no_message_is_lost((a, b) in pairs()) {
        let m = merge(&a, &b);
        prop_assert_eq!(m.dropped_variants, 0);
        let kept = all_ids(&m.record);
        for id in all_ids(&a).union(&all_ids(&b)) {
            prop_assert!(kept.contains(id), "{} lost", id);
        }
        // The conversation shown is one side's, or extends one.
        let shown = ids(&m.record.thread.messages);
        prop_assert!(
            shown.starts_with(&ids(&a.thread.messages)) || shown.starts_with(&ids(&b.thread.messages)),
            "{:?}", shown
        );
        switches_cleanly(&m.record)?;
    }

    /// Merging again changes nothing: merge(merge(a, b), b) == merge(a, b), and with either side.
    #[test]
    fn merging_is_idempotent((a, b) in pairs()) {
        let m = merge(&a, &b).record;
        prop_assert_eq!(&merge(&m, &b).record, &m);
        prop_assert_eq!(&merge(&m, &a).record, &m);
        prop_assert_eq!(&merge(&a, &m).record, &m);
        let again = merge(&m, &m);
        prop_assert!(!again.changed_ours && !again.changed_theirs);
        // A record alone is its own merge.
        prop_assert_eq!(&merge(&a, &a).record, &a);
    }

    /// Both orders keep the same messages — and write the same record, so two devices agree.
    #[test]
    fn merging_is_symmetric((a, b) in pairs()) {
        let ab = merge(&a, &b);
        let ba = merge(&b, &a);
        prop_assert_eq!(all_ids(&ab.record), all_ids(&ba.record));
        prop_assert_eq!(&ab.record, &ba.record);
        prop_assert_eq!(ab.changed_ours, ba.changed_theirs);
    }
}
