//! RFC 6902 in `src/protocol/state_patch.rs`, as data: every case applies to a document and
//! either gives the expected one or fails with the expected `PatchError { op, path, kind }` —
//! and then the document is exactly as before (key order included). Then the same failure
//! through the reducer: a `STATE_DELTA` warning whose kind carries the error (the state panel
//! matches that, never the text).

use agui_leptos::protocol::state_patch::{self, PatchError, PatchErrorKind};
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
        let result = state_patch::apply(&mut out, &patch);
        match expect {
            Expect::Doc(want) => {
                assert_eq!(result, Ok(()), "{name}");
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
