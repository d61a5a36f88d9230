//! RFC 6902 in `src/protocol/state_patch.rs`, as data: every case applies to a document and
//! either gives the expected one or fails with the expected `PatchError { op, path, kind }` —
//! and then the document is exactly as before (key order included). Then the same failure
//! through the reducer: a `STATE_DELTA` warning whose kind carries the error (the state panel
//! matches that, never the text).

use agui_leptos::protocol::state_patch::{self, Limits, PatchError, PatchErrorKind};
use agui_leptos::protocol::{Pipeline, PipelineOptions, Thread, WarningKind};
use serde_json::{json, Value};

enum Expect {
    Doc(Value),
    Fails(usize, &'static str, PatchErrorKind),
}

fn cases() -> Vec<(&'static str, Value, Value, Expect)> {
    use Expect::{Doc, Fails};
    use PatchErrorKind as K;
    let doc = json!({"a": 1, "b": {"c": [1, 2, 3]}, "z": true});
    vec![
        (
            "add a key",
            doc.clone(),
            json!([{"op": "add", "path": "/d", "value": 4}]),
            Doc(json!({"a": 1, "b": {"c": [1, 2, 3]}, "z": true, "d": 4})),
        ),
        (
            "append and insert",
            doc.clone(),
            json!([
                {"op": "add", "path": "/b/c/-", "value": 4},
                {"op": "add", "path": "/b/c/0", "value": 0}
            ]),
            Doc(json!({"a": 1, "b": {"c": [0, 1, 2, 3, 4]}, "z": true})),
        ),
        (
            "remove keeps the order of the other keys",
            doc.clone(),
            json!([{"op": "remove", "path": "/a"}]),
            Doc(json!({"b": {"c": [1, 2, 3]}, "z": true})),
        ),
        (
            "replace the root",
            doc.clone(),
            json!([{"op": "replace", "path": "", "value": [1]}]),
            Doc(json!([1])),
        ),
        (
            "move and copy",
            doc.clone(),
            json!([
                {"op": "copy", "from": "/b/c/0", "path": "/first"},
                {"op": "move", "from": "/z", "path": "/b/z"}
            ]),
            Doc(json!({"a": 1, "b": {"c": [1, 2, 3], "z": true}, "first": 1})),
        ),
        (
            "escaped tokens",
            json!({"a/b": {"m~n": 1}}),
            json!([{"op": "replace", "path": "/a~1b/m~0n", "value": 2}]),
            Doc(json!({"a/b": {"m~n": 2}})),
        ),
        (
            "a passing test",
            doc.clone(),
            json!([{"op": "test", "path": "/b/c/1", "value": 2}]),
            Doc(doc.clone()),
        ),
        (
            "replace a missing key",
            doc.clone(),
            json!([
                {"op": "remove", "path": "/a"},
                {"op": "replace", "path": "/missing", "value": 1}
            ]),
            Fails(1, "/missing", K::PathNotFound),
        ),
        (
            "index out of bounds",
            doc.clone(),
            json!([
                {"op": "add", "path": "/b/c/-", "value": 9},
                {"op": "add", "path": "/b/c/9", "value": 1}
            ]),
            Fails(1, "/b/c/9", K::IndexOutOfBounds),
        ),
        (
            "a leading zero is not an index",
            doc.clone(),
            json!([{"op": "remove", "path": "/b/c/01"}]),
            Fails(0, "/b/c/01", K::IndexOutOfBounds),
        ),
        (
            "add under a scalar",
            doc.clone(),
            json!([{"op": "add", "path": "/a/x", "value": 1}]),
            Fails(0, "/a/x", K::NotAContainer),
        ),
        (
            "remove the root",
            doc.clone(),
            json!([{"op": "remove", "path": ""}]),
            Fails(0, "", K::RemoveRoot),
        ),
        (
            "move into itself",
            doc.clone(),
            json!([{"op": "move", "from": "/b", "path": "/b/c/x"}]),
            Fails(0, "/b/c/x", K::MoveIntoItself),
        ),
        (
            // Regression (json-patch 5): its rollback of a move from a child to an ancestor
            // panicked; here the whole patch is undone.
            "a move to an ancestor, then a failure",
            doc.clone(),
            json!([
                {"op": "move", "from": "/b/c", "path": "/b"},
                {"op": "test", "path": "/a", "value": 2}
            ]),
            Fails(1, "/a", K::TestFailed),
        ),
        (
            "copy from nowhere",
            doc.clone(),
            json!([{"op": "copy", "from": "/nope", "path": "/x"}]),
            Fails(0, "/x", K::FromNotFound),
        ),
    ]
}

#[test]
fn every_case_applies_or_fails_with_its_error_and_leaves_the_document_as_it_was() {
    for (name, doc, ops, expect) in cases() {
        let patch = state_patch::parse(ops.as_array().expect("ops")).expect(name);
        let mut out = doc.clone();
        let mut size = None;
        let result = state_patch::apply(&mut out, &patch, Limits::default(), &mut size);
        match expect {
            Expect::Doc(want) => {
                assert_eq!(result, Ok(()), "{name}");
                // The size carried to the next patch is the document's, exactly.
                assert_eq!(
                    size,
                    Some(state_patch::size_of(&out)),
                    "{name}: carried size"
                );
                assert_eq!(
                    serde_json::to_string(&out).unwrap(),
                    serde_json::to_string(&want).unwrap(),
                    "{name}"
                );
            }
            Expect::Fails(op, path, kind) => {
                let e = result.expect_err(name);
                assert_eq!(
                    (e.op, e.path.as_str(), &e.kind),
                    (op, path, &kind),
                    "{name}"
                );
                assert_eq!(size, None, "{name}: a failed patch carries no size");
                // Unchanged, byte for byte (key order included).
                assert_eq!(
                    serde_json::to_string(&out).unwrap(),
                    serde_json::to_string(&doc).unwrap(),
                    "{name}: the document changed"
                );
            }
        }
    }
}

#[test]
fn an_operation_that_does_not_parse_is_named_by_its_index() {
    let ops = json!([
        {"op": "add", "path": "/a", "value": 1},
        {"op": "frobnicate", "path": "/b"}
    ]);
    let e = state_patch::parse(ops.as_array().unwrap()).expect_err("not RFC 6902");
    assert_eq!((e.op, e.op_name, e.path.as_str()), (1, "?", "/b"));
    assert!(matches!(e.kind, PatchErrorKind::Invalid(_)), "{e:?}");
    assert!(e
        .to_string()
        .starts_with("operation 1 (?) failed at path '/b'"));
}

#[test]
fn a_failed_state_delta_is_a_warning_whose_kind_carries_the_patch_error() {
    let sse = |e: Value| format!("data: {e}\n\n");
    let body = [
        sse(json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})),
        sse(json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}})),
        sse(json!({"type": "STATE_DELTA", "delta": [
            {"op": "replace", "path": "/a", "value": 2},
            {"op": "remove", "path": "/nope"}
        ]})),
        sse(json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"})),
    ]
    .concat();
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(body.as_bytes());
    p.finish();
    assert_eq!(p.thread.state, json!({"a": 1}), "atomic: nothing applied");
    let w = &p.thread.warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].is_state_patch());
    assert_eq!(
        w[0].kind,
        WarningKind::StatePatch(PatchError {
            op: 1,
            op_name: "remove",
            path: "/nope".into(),
            kind: PatchErrorKind::PathNotFound,
        })
    );
    assert_eq!(w[0].event_type.as_deref(), Some("STATE_DELTA"));
    // The text is for people (and the conformance corpus): the kind is for code.
    assert!(w[0].message.starts_with("Failed to apply state patch"));
}

fn run(events: &[Value]) -> Pipeline {
    let body: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(body.as_bytes());
    p.finish();
    p
}

fn delta(ops: Value) -> Value {
    json!({"type": "STATE_DELTA", "delta": ops})
}

fn started() -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})
}

/// The kinds of the thread's state-patch warnings, in order.
fn patch_failures(p: &Pipeline) -> Vec<PatchErrorKind> {
    p.thread
        .warnings
        .iter()
        .filter_map(|w| match &w.kind {
            WarningKind::StatePatch(e) | WarningKind::ActivityPatch(e) => Some(e.kind.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn copying_the_root_into_itself_stops_at_the_size_budget_and_rolls_back() {
    // 24 ops of `copy "" -> /cN` double the state each: 2^24 times a 1 KB state, past 4 GiB.
    let ops: Vec<Value> = (0..24)
        .map(|n| json!({"op": "copy", "from": "", "path": format!("/c{n}")}))
        .collect();
    let p = run(&[
        started(),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"seed": "x".repeat(1000)}}),
        delta(json!(ops)),
    ]);
    assert_eq!(p.thread.state, json!({"seed": "x".repeat(1000)}), "atomic");
    assert_eq!(
        patch_failures(&p),
        [PatchErrorKind::TooLarge(state_patch::MAX_BYTES)]
    );
    let w = p.thread.warnings.last().unwrap();
    assert!(
        w.message.contains("larger than 8388608 bytes"),
        "{}",
        w.message
    );
    // Patches that fit still apply after it.
    let mut q = run(&[started(), delta(json!(ops[..10].to_vec()))]);
    assert!(patch_failures(&q).is_empty(), "{:?}", q.thread.warnings);
    assert_eq!(q.thread.state.as_object().map(|o| o.len()), Some(10));
    q.finish();
}

#[test]
fn many_small_patches_cannot_grow_the_state_past_the_budget_either() {
    // Each event copies the whole state once: the size carried between events stops it.
    let mut events = vec![
        started(),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"seed": "y".repeat(4096)}}),
    ];
    for n in 0..30 {
        events.push(delta(
            json!([{"op": "copy", "from": "", "path": format!("/c{n}")}]),
        ));
    }
    let p = run(&events);
    let size = state_patch::size_of(&p.thread.state);
    assert!(size <= state_patch::MAX_BYTES, "{size}");
    assert!(
        size > state_patch::MAX_BYTES / 4,
        "it grew until the budget: {size}"
    );
    let failures = patch_failures(&p);
    assert!(!failures.is_empty());
    assert!(failures
        .iter()
        .all(|k| *k == PatchErrorKind::TooLarge(state_patch::MAX_BYTES)));
}

#[test]
fn copying_a_value_into_itself_stops_at_the_depth_budget_and_the_state_reloads() {
    // `copy /a -> /a/a/…/a` (the deepest point) doubles the depth per event: 12 events would
    // reach 4,096 levels.
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    let push = |p: &mut Pipeline, e: Value| p.push_bytes(format!("data: {e}\n\n").as_bytes());
    push(&mut p, started());
    push(
        &mut p,
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": {}}}),
    );
    let mut chain = 1; // levels of "a"
    for _ in 0..12 {
        let path = "/a".repeat(chain + 1);
        push(
            &mut p,
            delta(json!([{"op": "copy", "from": "/a", "path": path}])),
        );
        if patch_failures(&p).is_empty() {
            chain *= 2;
        }
    }
    p.finish();
    let (_, depth) = state_patch::measure(&p.thread.state, Limits::NONE).unwrap();
    assert_eq!(depth, 33, "1, 2, 4, … 32 levels of a, in the root object");
    assert_eq!(
        patch_failures(&p),
        vec![PatchErrorKind::TooDeep(state_patch::MAX_DEPTH); 7]
    );
    // What is kept survives a save and a reload (serde's parser stops at 128 levels).
    let saved = serde_json::to_string(&json!({"record": {"thread": {"state": p.thread.state}}}));
    let back: Value = serde_json::from_str(&saved.unwrap()).expect("reloads");
    assert_eq!(back["record"]["thread"]["state"], p.thread.state);
}

#[test]
fn adds_moves_and_snapshots_are_held_to_the_same_budgets() {
    let deep = |n: usize| (0..n).fold(json!(1), |v, _| json!([v]));
    let limits = Limits {
        max_depth: 8,
        max_bytes: 200,
    };
    let apply = |doc: &mut Value, ops: Value| {
        let patch = state_patch::parse(ops.as_array().unwrap()).unwrap();
        let mut size = None;
        state_patch::apply(doc, &patch, limits, &mut size).map(|()| size)
    };
    let mut doc = json!({"a": {"b": {}}, "s": "short"});
    let before = doc.clone();
    // The value is 7 deep and goes 1 level down: 8 fits; at /a/b it would be 9.
    assert!(apply(
        &mut doc.clone(),
        json!([{"op": "add", "path": "/x", "value": deep(7)}])
    )
    .is_ok());
    let e = apply(
        &mut doc,
        json!([{"op": "add", "path": "/a/b/x", "value": deep(7)}]),
    );
    assert_eq!(e.unwrap_err().kind, PatchErrorKind::TooDeep(8));
    // A move deeper is measured too; a move up never needs to be.
    let mut d = json!({"a": {"b": {"c": {}}}, "v": deep(6)});
    let e = apply(
        &mut d,
        json!([{"op": "move", "from": "/v", "path": "/a/b/c/v"}]),
    );
    assert_eq!(e.unwrap_err().kind, PatchErrorKind::TooDeep(8));
    assert_eq!(
        d,
        json!({"a": {"b": {"c": {}}}, "v": deep(6)}),
        "the move rolled back"
    );
    // Size: a long key counts, not only its value; a replace or remove frees room.
    let e = apply(
        &mut doc,
        json!([{"op": "add", "path": format!("/{}", "k".repeat(300)), "value": 0}]),
    );
    assert_eq!(e.unwrap_err().kind, PatchErrorKind::TooLarge(200));
    assert_eq!(doc, before);
    let e = apply(
        &mut doc,
        json!([
            {"op": "add", "path": "/big", "value": "z".repeat(150)},
            {"op": "add", "path": "/more", "value": "z".repeat(100)}
        ]),
    );
    assert_eq!(
        (e.as_ref().unwrap_err().op, &e.unwrap_err().kind),
        (1, &PatchErrorKind::TooLarge(200))
    );
    assert_eq!(doc, before, "both rolled back");
    let ok = apply(
        &mut doc,
        json!([
            {"op": "add", "path": "/big", "value": "z".repeat(150)},
            {"op": "remove", "path": "/big"},
            {"op": "add", "path": "/more", "value": "z".repeat(100)}
        ]),
    );
    assert_eq!(ok, Ok(Some(state_patch::size_of(&doc))));

    // Snapshots (state and activity) are refused whole, with the state left as it was.
    let p = run(&[
        started(),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"kept": true}}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"huge": "h".repeat(9 << 20)}}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "m", "activityType": "x",
               "content": {"deep": deep(70)}}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "m2", "activityType": "x",
               "content": {"ok": 1}}),
        json!({"type": "ACTIVITY_DELTA", "messageId": "m2", "activityType": "x",
               "patch": [{"op": "copy", "from": "", "path": "/again"},
                         {"op": "add", "path": "/d", "value": deep(70)}]}),
    ]);
    assert_eq!(p.thread.state, json!({"kept": true}));
    assert_eq!(
        patch_failures(&p),
        [
            PatchErrorKind::TooLarge(state_patch::MAX_BYTES),
            PatchErrorKind::TooDeep(state_patch::MAX_DEPTH),
            PatchErrorKind::TooDeep(state_patch::MAX_DEPTH),
        ]
    );
    assert_eq!(
        p.thread.position("m"),
        None,
        "the refused activity was not added"
    );
    let m2 = &p.thread.messages[p.thread.position("m2").unwrap()];
    assert_eq!(
        m2.content,
        Some(agui_leptos::protocol::types::Content::Object(
            json!({"ok": 1}).as_object().unwrap().clone()
        ))
    );
}

/// The operations are read member by member (not by json-patch's serde derive): the same
/// operations as the derive gives for what it accepts, and a refusal for what it refuses.
#[test]
fn operations_parse_as_json_patch_itself_reads_them() {
    use serde::Deserialize;
    for op in [
        json!({"op": "add", "path": "/a/0", "value": {"x": [1, null]}}),
        json!({"op": "add", "path": "", "value": null}),
        json!({"op": "remove", "path": "/a~1b"}),
        json!({"op": "replace", "path": "/a", "value": "v", "extra": true}),
        json!({"op": "move", "from": "/a", "path": "/b"}),
        json!({"op": "copy", "from": "/a", "path": "/b/-"}),
        json!({"op": "test", "path": "/a", "value": 3}),
        json!({"op": "add", "path": "/a"}),
        json!({"op": "add", "path": "a", "value": 1}),
        json!({"op": "add", "path": 7, "value": 1}),
        json!({"op": "move", "path": "/b"}),
        json!({"op": "Add", "path": "/a", "value": 1}),
        json!({"path": "/a", "value": 1}),
        json!({"op": 1, "path": "/a"}),
        json!(["add", "/a"]),
        json!("add"),
    ] {
        let ours = state_patch::parse(std::slice::from_ref(&op)).map(|p| p.0);
        let theirs = json_patch::PatchOperation::deserialize(&op);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => assert_eq!(a, &vec![b.clone()], "{op}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{op}: ours {ours:?}, json-patch's {theirs:?}"),
        }
    }
}
