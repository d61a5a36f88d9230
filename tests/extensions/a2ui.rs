//! The A2UI surface model (`src/a2ui/`): messages, the basic catalogue, binding, templates,
//! functions, the bounded regex engine, actions and the budgets.

#![cfg(feature = "a2ui")]

use std::time::{Duration, Instant};

use agui_leptos::a2ui::component::{Children, IconName};
use agui_leptos::a2ui::eval::{format_currency, format_number, is_email, DateTime};
use agui_leptos::a2ui::regex::{Regex, RegexErrorKind};
use agui_leptos::a2ui::tree::{MAX_DEPTH, MAX_TREE_NODES};
use agui_leptos::a2ui::{
    data, A2uiError, ActionPayload, Component, Ctx, Dynamic, Intent, Lifecycle, Node, NodeKind,
    Scope, Surfaces, MAX_COMPONENTS,
};
use serde_json::{json, Value};

const TS: &str = "2026-06-02T08:57:23Z";

fn surfaces(ops: Value) -> Surfaces {
    let (s, problems) = Surfaces::from_content(&json!({ "a2ui_operations": ops }));
    assert!(problems.is_empty(), "{problems:?}");
    s
}

fn one(components: Value, data: Value) -> Surfaces {
    surfaces(json!([{ "version": "v1.0", "createSurface": {
        "surfaceId": "s", "catalogId": "basic", "components": components, "dataModel": data } }]))
}

fn root(s: &Surfaces) -> Node {
    s.get("s").expect("surface s").tree()
}

fn children(n: &Node) -> &[Node] {
    match &n.kind {
        NodeKind::Row { children, .. }
        | NodeKind::Column { children, .. }
        | NodeKind::List { children, .. } => children,
        other => panic!("not a container: {other:?}"),
    }
}

fn text(n: &Node) -> &str {
    match &n.kind {
        NodeKind::Text { text, .. } => text,
        other => panic!("not text: {other:?}"),
    }
}

fn eval(expr: Value, data: Value) -> Result<Value, A2uiError> {
    let scope = Scope::root();
    Ctx::new(&data, &scope).eval(&Dynamic::parse(&expr))
}

fn call(name: &str, args: Value) -> Value {
    eval(json!({ "call": name, "args": args }), json!({})).expect("evaluates")
}

// ---- messages ------------------------------------------------------------------------

#[test]
fn create_surface_with_inline_components_and_data_model() {
    let s = one(
        json!([{ "id": "root", "component": "Text", "text": { "path": "/name" } }]),
        json!({ "name": "John Doe" }),
    );
    let surface = s.get("s").expect("surface");
    assert_eq!(surface.catalog_id.as_deref(), Some("basic"));
    assert_eq!(text(&surface.tree()), "John Doe");
}

#[test]
fn the_protocol_example_stream_applies_in_order() {
    let mut s = Surfaces::new();
    for m in [
        json!({"version": "v1.0", "createSurface": {"surfaceId": "c", "catalogId": "x"}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "c", "components": [
            {"id": "root", "component": "Column", "children": ["a", "b"]},
            {"id": "a", "component": "Text", "text": "First"},
            {"id": "b", "component": "Text", "text": {"path": "/user/name"}}]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "c", "path": "/user/name", "value": "Jane"}}),
    ] {
        s.apply(&m).expect("applies");
    }
    let tree = s.get("c").expect("c").tree();
    let kids = children(&tree);
    assert_eq!((text(&kids[0]), text(&kids[1])), ("First", "Jane"));
    s.apply(&json!({"deleteSurface": {"surfaceId": "c"}}))
        .expect("deletes");
    assert!(s.get("c").is_none());
    assert_eq!(
        s.apply(&json!({"deleteSurface": {"surfaceId": "c"}})),
        Err(A2uiError::SurfaceNotFound {
            surface_id: "c".into()
        })
    );
}

#[test]
fn malformed_messages_are_errors() {
    let mut s = Surfaces::new();
    assert_eq!(
        s.apply(&json!([1])),
        Err(A2uiError::NotAnObject {
            what: "A2UI message"
        })
    );
    assert_eq!(
        s.apply(&json!({"surfaceUpdate": {}})),
        Err(A2uiError::UnknownMessage {
            key: "surfaceUpdate".into()
        })
    );
    assert_eq!(
        s.apply(&json!({"version": "v1.0"})),
        Err(A2uiError::MessageKeys { count: 0 })
    );
    assert_eq!(
        s.apply(&json!({"createSurface": {"surfaceId": "a"}, "deleteSurface": {"surfaceId": "a"}})),
        Err(A2uiError::MessageKeys { count: 2 })
    );
    assert_eq!(
        s.apply(&json!({"createSurface": {}})),
        Err(A2uiError::MissingField {
            message: "createSurface",
            field: "surfaceId"
        })
    );
    assert_eq!(
        s.apply(&json!({"createSurface": {"surfaceId": 7}})),
        Err(A2uiError::WrongType {
            field: "surfaceId",
            expected: "string"
        })
    );
    assert_eq!(
        s.apply(&json!({"updateComponents": {"surfaceId": "nope", "components": []}})),
        Err(A2uiError::SurfaceNotFound {
            surface_id: "nope".into()
        })
    );
    s.apply(&json!({"createSurface": {"surfaceId": "a"}}))
        .expect("creates");
    assert_eq!(
        s.apply(&json!({"createSurface": {"surfaceId": "a"}})),
        Err(A2uiError::SurfaceExists {
            surface_id: "a".into()
        })
    );
    assert_eq!(
        s.apply(&json!({"updateDataModel": {"surfaceId": "a", "path": "no-slash", "value": 1}})),
        Err(A2uiError::BadPointer {
            pointer: "no-slash".into()
        })
    );
    // Nothing above panicked, and the good surface is intact.
    assert!(s.get("a").is_some());
}

#[test]
fn a_bad_component_does_not_kill_the_surface() {
    let s = one(
        json!([
            {"id": "root", "component": "Column", "children": ["ok", "bad", "weird", "nope"]},
            {"id": "ok", "component": "Text", "text": "fine"},
            {"id": "bad", "component": "Image"},
            {"id": "weird", "component": "Carousel3D"},
            {"component": "Text", "text": "no id"},
            42
        ]),
        json!({}),
    );
    let tree = root(&s);
    let kids = children(&tree);
    assert_eq!(text(&kids[0]), "fine");
    assert!(matches!(&kids[1].kind, NodeKind::Invalid { type_name, .. } if type_name == "Image"));
    assert_eq!(
        kids[2].kind,
        NodeKind::Unsupported {
            type_name: "Carousel3D".into()
        }
    );
    assert_eq!(kids[3].kind, NodeKind::Missing);
}

#[test]
fn missing_root_is_a_missing_node() {
    let s = one(
        json!([{"id": "a", "component": "Text", "text": "x"}]),
        json!({}),
    );
    assert!(!s.get("s").expect("s").has_root());
    assert_eq!(root(&s).kind, NodeKind::Missing);
}

#[test]
fn reserved_surface_component_is_refused() {
    let s = one(json!([{"id": "root", "component": "Surface"}]), json!({}));
    assert!(matches!(root(&s).kind, NodeKind::Invalid { .. }));
}

#[test]
fn call_renderer_function_is_rejected_with_a_reply() {
    let mut s = Surfaces::new();
    let err = s.apply(&json!({"version": "v1.0", "callRendererFunction": {
        "functionCallId": "f1", "callFunction": {"call": "getScreenResolution", "catalogId": "x"}}}));
    assert_eq!(
        err,
        Err(A2uiError::FunctionCallRejected {
            function_call_id: "f1".into(),
            call: "getScreenResolution".into()
        })
    );
    let out = s.take_outbox();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["error"]["code"], "INVALID_FUNCTION_CALL");
    assert_eq!(out[0]["error"]["functionCallId"], "f1");
    assert!(s.take_outbox().is_empty());
    assert_eq!(
        s.apply(&json!({"agentFunctionResponse": {"functionCallId": "x", "value": 1}})),
        Ok(())
    );
}

// ---- VALIDATION_FAILED (renderer → agent) ------------------------------------------------

fn validation_errors(s: &mut Surfaces) -> Vec<(String, String, String)> {
    s.take_outbox()
        .iter()
        .map(|m| {
            assert_eq!(m["version"], "v1.0");
            let e = &m["error"];
            assert_eq!(e["code"], "VALIDATION_FAILED", "{m}");
            // Exactly the schema's four fields (additionalProperties: false).
            assert_eq!(e.as_object().map(|o| o.len()), Some(4), "{m}");
            assert!(e["message"].as_str().is_some_and(|t| !t.is_empty()));
            (
                e["surfaceId"].as_str().unwrap_or_default().to_owned(),
                e["path"].as_str().unwrap_or_default().to_owned(),
                e["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn invalid_components_and_failed_messages_are_reported_as_validation_failed() {
    let mut s = Surfaces::new();
    let problems = s
        .sync(&json!({"a2ui_operations": [
            {"version": "v1.0", "createSurface": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Column", "children": ["a", "b"]},
                {"id": "a", "component": "Text", "text": 5},
                {"id": "b", "component": "Text", "text": "ok"}
            ]}},
            {"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"component": "Text", "text": "no id"},
                {"id": "c", "component": "Slider", "value": 1}
            ]}},
            {"version": "v1.0", "updateComponents": {"surfaceId": "ghost", "components": []}},
            {"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "nope", "value": 1}},
            {"version": "v1.0", "createSurface": {"surfaceId": "s"}},
            // No surface id: the schema needs one, so it is not reported (only returned).
            {"version": "v1.0", "launchRockets": {}}
        ]}))
        .expect("usable content");
    assert_eq!(problems.len(), 4, "{problems:?}");
    let errors = validation_errors(&mut s);
    let at: Vec<(&str, &str)> = errors
        .iter()
        .map(|(s, p, _)| (s.as_str(), p.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            ("s", "/components/1/text"),
            ("s", "/components/0/id"),
            ("s", "/components/1/max"),
            ("ghost", "/surfaceId"),
            ("s", "/path"),
            ("s", "/surfaceId"),
        ]
    );
    assert!(errors[0].2.contains("text must be"), "{}", errors[0].2);
    // The surface still renders around the invalid component.
    let tree = s.get("s").expect("s").tree();
    assert_eq!(text(&children(&tree)[1]), "ok");
    // Taken once; a valid message owes nothing.
    assert!(s.take_outbox().is_empty());
    s.apply(&json!({"updateDataModel": {"surfaceId": "s", "path": "/x", "value": 1}}))
        .expect("valid");
    assert!(s.take_outbox().is_empty());
}

#[test]
fn what_the_tree_budgets_cut_is_reported_once_per_kind() {
    let s = one(
        json!([
            {"id": "root", "component": "Column", "children": ["loop", "loop2", "fine"]},
            {"id": "loop", "component": "Card", "child": "loop"},
            {"id": "loop2", "component": "Card", "child": "loop2"},
            {"id": "fine", "component": "Text", "text": "ok"}
        ]),
        json!({}),
    );
    let surface = s.get("s").expect("s");
    let reports = surface.budget_reports(&surface.tree());
    assert_eq!(reports.len(), 1, "{reports:?}");
    let e = &reports[0]["error"];
    assert_eq!(
        (&e["code"], &e["surfaceId"], &e["path"]),
        (
            &json!("VALIDATION_FAILED"),
            &json!("s"),
            &json!("/components")
        )
    );
    assert!(e["message"]
        .as_str()
        .is_some_and(|m| m.contains("\"loop\"") && m.contains("cycle")));

    let mut comps = vec![json!({"id": "root", "component": "Card", "child": "c0"})];
    for i in 0..MAX_DEPTH + 5 {
        comps.push(
            json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)}),
        );
    }
    let s = one(Value::Array(comps), json!({}));
    let surface = s.get("s").expect("s");
    let reports = surface.budget_reports(&surface.tree());
    assert_eq!(reports.len(), 1);
    assert!(reports[0]["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("nesting")));

    let fine = one(
        json!([{"id": "root", "component": "Text", "text": "x"}]),
        json!({}),
    );
    let surface = fine.get("s").expect("s");
    assert!(surface.budget_reports(&surface.tree()).is_empty());
}

#[test]
fn validation_reports_are_bounded_and_cut() {
    let long = "x".repeat(10_000);
    let list: Vec<Value> = (0..100)
        .map(|i| json!({"id": format!("c{i}"), "component": "Text"}))
        .collect();
    let mut s = Surfaces::new();
    s.apply(&json!({"createSurface": {"surfaceId": long, "components": list}}))
        .expect("created");
    let out = s.take_outbox();
    assert_eq!(out.len(), agui_leptos::a2ui::MAX_PROBLEMS);
    assert!(out
        .iter()
        .all(|m| m.to_string().len() < agui_leptos::session::a2ui_out::MAX_MESSAGE_BYTES));
}

/// The protocol's "Example Stream" (the contact form, `a2ui_protocol.md`): every component
/// keeps the catalogue's rules, so nothing is owed to the agent.
#[test]
fn the_protocol_contact_form_breaks_no_catalogue_rule() {
    let components = json!([
        {"id":"root","component":"Card","child":"form_container"},
        {"id":"form_container","component":"Column","children":["header_row","name_row","email_group","phone_group","pref_group","divider_1","newsletter_checkbox","submit_button"],"justify":"start","align":"stretch"},
        {"id":"header_row","component":"Row","children":["header_icon","header_text"],"align":"center"},
        {"id":"header_icon","component":"Icon","name":"mail"},
        {"id":"header_text","component":"Text","text":"# Contact Us"},
        {"id":"name_row","component":"Row","children":["first_name_group","last_name_group"],"justify":"spaceBetween"},
        {"id":"first_name_group","component":"Column","children":["first_name_label","first_name_field"],"weight":1},
        {"id":"first_name_label","component":"Text","text":"First Name","variant":"caption"},
        {"id":"first_name_field","component":"TextField","label":"First Name","value":{"path":"/contact/firstName"},"variant":"shortText"},
        {"id":"last_name_group","component":"Column","children":["last_name_label","last_name_field"],"weight":1},
        {"id":"last_name_label","component":"Text","text":"Last Name","variant":"caption"},
        {"id":"last_name_field","component":"TextField","label":"Last Name","value":{"path":"/contact/lastName"},"variant":"shortText"},
        {"id":"email_group","component":"Column","children":["email_label","email_field"]},
        {"id":"email_label","component":"Text","text":"Email Address","variant":"caption"},
        {"id":"email_field","component":"TextField","label":"Email","value":{"path":"/contact/email"},"variant":"shortText","checks":[{"call":"required","args":{"value":{"path":"/contact/email"}},"message":"Email is required."},{"call":"email","args":{"value":{"path":"/contact/email"}},"message":"Please enter a valid email address."}]},
        {"id":"phone_group","component":"Column","children":["phone_label","phone_field"]},
        {"id":"phone_label","component":"Text","text":"Phone Number","variant":"caption"},
        {"id":"phone_field","component":"TextField","label":"Phone","value":{"path":"/contact/phone"},"variant":"shortText","checks":[{"call":"regex","args":{"value":{"path":"/contact/phone"},"pattern":"^\\d{10}$"},"message":"Phone number must be 10 digits."}]},
        {"id":"pref_group","component":"Column","children":["pref_label","pref_picker"]},
        {"id":"pref_label","component":"Text","text":"Preferred Contact Method","variant":"caption"},
        {"id":"pref_picker","component":"ChoicePicker","variant":"mutuallyExclusive","options":[{"label":"Email","value":"email"},{"label":"Phone","value":"phone"},{"label":"SMS","value":"sms"}],"value":{"path":"/contact/preference"}},
        {"id":"divider_1","component":"Divider","axis":"horizontal"},
        {"id":"newsletter_checkbox","component":"CheckBox","label":"Subscribe to our newsletter","value":{"path":"/contact/subscribe"}},
        {"id":"submit_button_label","component":"Text","text":"Send Message"},
        {"id":"submit_button","component":"Button","child":"submit_button_label","variant":"primary","action":{"event":{"name":"submitContactForm","context":{"formId":"contact_form_1","isNewsletterSubscribed":{"path":"/contact/subscribe"}}}}}
    ]);
    let mut s = Surfaces::new();
    s.apply(
        &json!({"version": "v1.0", "createSurface": {"surfaceId": "contact_form_1",
        "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}}),
    )
    .expect("created");
    s.apply(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "contact_form_1",
        "components": components}}),
    )
    .expect("applied");
    assert_eq!(s.take_outbox(), Vec::<Value>::new());
    let surface = s.get("contact_form_1").expect("the form");
    assert_eq!(surface.components.len(), 25);
    assert!(surface
        .components
        .values()
        .all(|c| !matches!(c.component, Component::Invalid { .. })));
}

#[test]
fn the_session_sends_owed_messages_once_with_the_next_run_a_person_starts() {
    use agui_leptos::session::a2ui_out::{A2uiOutbox, KEY, MAX_PENDING};
    use agui_leptos::session::{AgentConfig, LocalAgentRef, Session, TestEnv};
    let report = |n: usize| {
        json!({"version": "v1.0", "error": {"code": "VALIDATION_FAILED",
        "surfaceId": "s", "path": format!("/components/{n}"), "message": "bad"}})
    };

    let mut out = A2uiOutbox::default();
    assert!(out.queue(report(0)));
    assert!(!out.queue(report(0)), "a distinct failure goes once");
    assert!(!out.queue(json!({"big": "y".repeat(5_000)})), "too big");
    for n in 1..40 {
        out.queue(report(n));
    }
    assert_eq!(out.pending().len(), MAX_PENDING);
    assert_eq!(
        out.take().and_then(|v| v.as_array().map(Vec::len)),
        Some(MAX_PENDING)
    );
    assert_eq!(out.take(), None);
    assert!(!out.queue(report(0)), "still remembered after it went");

    let config = AgentConfig {
        local_agent: Some(LocalAgentRef::new(agui_leptos::demo::DemoAgent)),
        ..AgentConfig::default()
    };
    let mut session = Session::new(config, std::rc::Rc::new(TestEnv::default()));
    // Queuing never starts a run.
    assert_eq!(session.queue_a2ui(vec![report(1), report(1), report(2)]), 2);
    assert!(!session.running());
    let req = session
        .send_action(json!({"a2uiAction": {"userAction": {"name": "go"}},
            KEY: [{"version": "v1.0", "callAgentFunction": {}}]}))
        .expect("a run");
    let sent = &req.body["forwardedProps"];
    assert_eq!(sent["a2uiAction"]["userAction"]["name"], "go");
    let msgs = sent[KEY].as_array().expect("the messages");
    assert_eq!(
        msgs.len(),
        3,
        "the waiting ones first, then the action's own"
    );
    assert_eq!(msgs[0]["error"]["path"], "/components/1");
    assert_eq!(msgs[2]["callAgentFunction"], json!({}));
    assert!(session.a2ui_pending().is_empty());
}

// ---- activity content ----------------------------------------------------------------

#[test]
fn activity_type_and_content_shape_are_checked() {
    let mut s = Surfaces::new();
    assert_eq!(
        s.sync_activity("PLAN", &json!({})),
        Err(A2uiError::NotA2ui {
            activity_type: "PLAN".into()
        })
    );
    assert_eq!(
        s.sync(&json!("text")),
        Err(A2uiError::NotAnObject {
            what: "activity content"
        })
    );
    assert_eq!(s.sync(&json!({})), Err(A2uiError::NoOperations));
    assert_eq!(
        s.sync(&json!({"a2ui_operations": {}})),
        Err(A2uiError::WrongType {
            field: "a2ui_operations",
            expected: "array"
        })
    );
}

#[test]
fn lifecycle_status_before_paint() {
    let mut s = Surfaces::new();
    s.sync_activity(
        "a2ui-surface",
        &json!({"status": "building", "progressTokens": 40}),
    )
    .expect("status");
    assert_eq!(
        s.lifecycle(),
        Some(&Lifecycle::Building {
            progress_tokens: Some(40)
        })
    );
    s.sync(&json!({"status": "failed", "error": "gave up"}))
        .expect("status");
    assert_eq!(
        s.lifecycle(),
        Some(&Lifecycle::Failed {
            error: "gave up".into()
        })
    );
    s.sync(&json!({"a2ui_operations": [{"createSurface": {"surfaceId": "x"}}]}))
        .expect("paints");
    assert_eq!(s.lifecycle(), None);
}

#[test]
fn legacy_operations_key_is_read() {
    let (s, problems) =
        Surfaces::from_content(&json!({"operations": [{"createSurface": {"surfaceId": "old"}}]}));
    assert!(problems.is_empty());
    assert!(s.get("old").is_some());
}

#[test]
fn cumulative_snapshots_keep_local_input_and_replacements_rebuild() {
    let create = json!({"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": "b"}});
    let comps = json!({"version": "v0.9", "updateComponents": {"surfaceId": "f", "components": [
        {"id": "root", "component": "TextField", "label": "Name", "value": {"path": "/name"}}]}});
    let mut s = Surfaces::new();
    s.sync(&json!({"a2ui_operations": [create, comps]}))
        .expect("first");
    s.set_value("f", "/name", json!("typed")).expect("types");
    // The list grew: only the new operation runs, what the person typed stays.
    let more = json!({"updateDataModel": {"surfaceId": "f", "path": "/other", "value": 1}});
    let problems = s
        .sync(&json!({"a2ui_operations": [create, comps, more]}))
        .expect("second");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.get("f").expect("f").data["name"], "typed");
    // A different list replaces the model (createSurface again is not "already exists").
    let problems = s
        .sync(&json!({"a2ui_operations": [create]}))
        .expect("third");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.get("f").expect("f").data.get("name"), None);
}

#[test]
fn the_content_object_syncs_in_place_like_the_value() {
    // What the card calls: the activity message's object, borrowed where the session keeps it.
    let create = json!({"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": "b"}});
    let comps = json!({"version": "v0.9", "updateComponents": {"surfaceId": "f", "components": [
        {"id": "root", "component": "TextField", "label": "Name", "value": {"path": "/name"}}]}});
    let first = json!({"a2ui_operations": [create, comps]});
    let mut s = Surfaces::new();
    s.sync_object(first.as_object().expect("an object"))
        .expect("first");
    s.set_value("f", "/name", json!("typed")).expect("types");
    let more = json!({"updateDataModel": {"surfaceId": "f", "path": "/other", "value": 1}});
    let grown = json!({"a2ui_operations": [create, comps, more]});
    let problems = s
        .sync_object(grown.as_object().expect("an object"))
        .expect("second");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        s.get("f").expect("f").data["name"],
        "typed",
        "only the new one ran"
    );
    assert_eq!(s.get("f").expect("f").data["other"], 1);
    // The same list again applies nothing; through `sync` it is the same model.
    assert_eq!(s.sync(&grown), Ok(Vec::new()));
    assert_eq!(s.get("f").expect("f").data["name"], "typed");
    let (fresh, _) = Surfaces::from_content(&grown);
    assert_eq!(fresh.get("f").expect("f").data.get("name"), None);
    assert_eq!(
        s.sync_object(json!({}).as_object().expect("an object")),
        Err(A2uiError::NoOperations)
    );
}

#[test]
fn restore_from_saved_activity_content() {
    let content = json!({"a2ui_operations": [
        {"version": "v0.9", "createSurface": {"surfaceId": "r", "catalogId": "b"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "r", "components": [
            {"id": "root", "component": "Card", "child": "t"},
            {"id": "t", "component": "Text", "text": {"path": "/title"}}]}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": "r", "path": "/", "value": {"title": "Saved"}}},
        {"deleteSurface": {"surfaceId": "ghost"}}
    ]});
    let (s, problems) = Surfaces::from_content(&content);
    assert_eq!(
        problems,
        vec![A2uiError::SurfaceNotFound {
            surface_id: "ghost".into()
        }]
    );
    let tree = s.get("r").expect("r").tree();
    let NodeKind::Card { child } = &tree.kind else {
        panic!("{tree:?}")
    };
    assert_eq!(text(child), "Saved");
}

#[test]
fn too_many_operations_is_refused() {
    let ops: Vec<Value> = (0..1_001)
        .map(|i| json!({"deleteSurface": {"surfaceId": i.to_string()}}))
        .collect();
    assert_eq!(
        Surfaces::new().sync(&json!({ "a2ui_operations": ops })),
        Err(A2uiError::TooManyOperations { limit: 1_000 })
    );
}

// ---- components ----------------------------------------------------------------------

#[test]
fn every_basic_catalogue_component_parses() {
    let s = one(
        json!([
            {"id": "root", "component": "Column", "justify": "start", "align": "stretch", "children":
                ["text", "image", "icon", "svg", "video", "audio", "row", "list", "card", "tabs", "modal",
                 "divider", "button", "field", "check", "choice", "slider", "date"]},
            {"id": "text", "component": "Text", "text": "# Hi", "variant": "caption"},
            {"id": "image", "component": "Image", "url": "https://img.example/a.png", "description": "A",
             "fit": "cover", "variant": "avatar"},
            {"id": "icon", "component": "Icon", "name": "mail"},
            {"id": "svg", "component": "Icon", "name": {"svgPath": "M0 0L1 1"}},
            {"id": "video", "component": "Video", "url": "https://v.example/a.mp4", "posterUrl": "javascript:x"},
            {"id": "audio", "component": "AudioPlayer", "url": "https://a.example/a.mp3", "description": "Ep 1"},
            {"id": "row", "component": "Row", "children": ["text"], "justify": "spaceBetween", "weight": 2},
            {"id": "list", "component": "List", "children": [], "direction": "horizontal"},
            {"id": "card", "component": "Card", "child": "text"},
            {"id": "tabs", "component": "Tabs", "tabs": [{"title": "One", "child": "text"}]},
            {"id": "modal", "component": "Modal", "trigger": "button", "content": "text"},
            {"id": "divider", "component": "Divider", "axis": "vertical"},
            {"id": "button", "component": "Button", "child": "text", "variant": "primary",
             "action": {"event": {"name": "go"}}},
            {"id": "field", "component": "TextField", "label": "Name", "value": {"path": "/n"},
             "placeholder": "Your name", "variant": "obscured"},
            {"id": "check", "component": "CheckBox", "label": "Agree", "value": true},
            {"id": "choice", "component": "ChoicePicker", "label": "Pick", "variant": "multipleSelection",
             "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}],
             "value": ["b"], "displayStyle": "chips", "filterable": true},
            {"id": "slider", "component": "Slider", "label": "Vol", "min": 1, "max": 10, "value": 4, "steps": 9},
            {"id": "date", "component": "DateTimeInput", "value": "2026-01-16", "enableDate": true,
             "min": "2026-01-01", "max": "2026-12-31", "label": "When"}
        ]),
        json!({"n": "Ann"}),
    );
    let surface = s.get("s").expect("s");
    let c = |id: &str| &surface.components[id].component;
    assert!(matches!(
        c("icon"),
        Component::Icon {
            name: IconName::Named(_)
        }
    ));
    assert!(matches!(
        c("svg"),
        Component::Icon {
            name: IconName::SvgPath(_)
        }
    ));
    assert!(
        matches!(c("row"), Component::Row { children: Children::Ids(ids), .. } if ids == &["text"])
    );
    assert_eq!(surface.components["row"].weight, Some(2.0));

    let tree = surface.tree();
    let k: Vec<&NodeKind> = children(&tree).iter().map(|n| &n.kind).collect();
    assert!(
        matches!(k[0], NodeKind::Text { text, variant: Some(v) } if text == "# Hi" && v == "caption")
    );
    assert!(
        matches!(k[1], NodeKind::Image { url: Some(u), description, fit: Some(f), variant: Some(v) }
        if u.as_str() == "https://img.example/a.png" && description == "A" && f == "cover" && v == "avatar")
    );
    assert!(matches!(k[2], NodeKind::Icon { name: Some(n), svg_path: None } if n == "mail"));
    assert!(matches!(k[3], NodeKind::Icon { name: None, svg_path: Some(p) } if p == "M0 0L1 1"));
    assert!(matches!(
        k[4],
        NodeKind::Video {
            url: Some(_),
            poster_url: None
        }
    ));
    assert!(
        matches!(k[5], NodeKind::AudioPlayer { url: Some(_), description } if description == "Ep 1")
    );
    assert!(
        matches!(k[6], NodeKind::Row { children, justify: Some(j), .. } if children.len() == 1 && j == "spaceBetween")
    );
    assert!(matches!(k[7], NodeKind::List { direction: Some(d), .. } if d == "horizontal"));
    assert!(matches!(k[8], NodeKind::Card { .. }));
    assert!(matches!(k[9], NodeKind::Tabs { tabs } if tabs.len() == 1 && tabs[0].0 == "One"));
    assert!(
        matches!(k[10], NodeKind::Modal { trigger, .. } if matches!(trigger.kind, NodeKind::Button { .. }))
    );
    assert!(matches!(k[11], NodeKind::Divider { axis: Some(a) } if a == "vertical"));
    assert!(
        matches!(k[12], NodeKind::Button { enabled: true, variant: Some(v), .. } if v == "primary")
    );
    assert!(
        matches!(k[13], NodeKind::TextField { label, value, placeholder, variant: Some(v), bind: Some(b), .. }
        if label == "Name" && value == "Ann" && placeholder == "Your name" && v == "obscured" && b == "/n")
    );
    assert!(matches!(
        k[14],
        NodeKind::CheckBox {
            value: true,
            bind: None,
            ..
        }
    ));
    assert!(
        matches!(k[15], NodeKind::ChoicePicker { options, selected, filterable: true, display_style: Some(d), .. }
        if options.len() == 2 && selected == &["b"] && d == "chips")
    );
    assert!(
        matches!(k[16], NodeKind::Slider { min, max, value, steps: Some(9), .. } if *min == 1.0 && *max == 10.0 && *value == 4.0)
    );
    assert!(
        matches!(k[17], NodeKind::DateTimeInput { enable_date: true, enable_time: false, value, min, .. }
        if value == "2026-01-16" && min == "2026-01-01")
    );
}

#[test]
fn required_properties_make_invalid_placeholders() {
    for (comp, field) in [
        (json!({"id": "root", "component": "Text"}), "text"),
        (
            json!({"id": "root", "component": "Button", "child": "x"}),
            "action",
        ),
        (
            json!({"id": "root", "component": "Slider", "value": 1}),
            "max",
        ),
        (json!({"id": "root", "component": "Row"}), "children"),
        (
            json!({"id": "root", "component": "ChoicePicker", "value": []}),
            "options",
        ),
    ] {
        let s = one(json!([comp]), json!({}));
        let NodeKind::Invalid { reason, .. } = root(&s).kind else {
            panic!("{field}: not invalid")
        };
        assert!(reason.contains(field), "{reason}");
    }
}

#[test]
fn catalogue_rules_types_and_enums_make_invalid_placeholders_with_the_reason() {
    // Each breaks one rule of the basic catalogue; the reason names the property.
    for (comp, field, expected) in [
        (
            json!({"id": "bad", "component": "Text", "text": 5}),
            "text",
            "a string",
        ),
        (
            json!({"id": "bad", "component": "Text", "text": "x", "variant": "huge"}),
            "variant",
            "one of caption",
        ),
        (
            json!({"id": "bad", "component": "Text", "text": {"path": 3}}),
            "text",
            "binding",
        ),
        (
            json!({"id": "bad", "component": "Image", "url": "https://x.example/a.png", "fit": "zoom"}),
            "fit",
            "one of contain",
        ),
        (
            json!({"id": "bad", "component": "Icon", "name": "rocket"}),
            "name",
            "icon name",
        ),
        (
            json!({"id": "bad", "component": "Row", "children": ["a", 1]}),
            "children",
            "component ids",
        ),
        (
            json!({"id": "bad", "component": "Card", "child": ["a"]}),
            "child",
            "a component id",
        ),
        (
            json!({"id": "bad", "component": "Tabs", "tabs": []}),
            "tabs",
            "non-empty",
        ),
        (
            json!({"id": "bad", "component": "Button", "child": "t", "action": {"event": {}}}),
            "action",
            "event",
        ),
        (
            json!({"id": "bad", "component": "Button", "child": "t", "action": {"event": {"name": "go"}},
                   "checks": [{"message": "no condition"}]}),
            "checks",
            "condition",
        ),
        (
            json!({"id": "bad", "component": "CheckBox", "label": "A", "value": "yes"}),
            "value",
            "a boolean",
        ),
        (
            json!({"id": "bad", "component": "ChoicePicker", "options": [{"label": "A", "value": 1}], "value": []}),
            "options",
            "options",
        ),
        (
            json!({"id": "bad", "component": "ChoicePicker", "options": [], "value": [1]}),
            "value",
            "list of strings",
        ),
        (
            json!({"id": "bad", "component": "Slider", "max": "10", "value": 1}),
            "max",
            "a number",
        ),
        (
            json!({"id": "bad", "component": "Slider", "max": 10, "value": 1, "steps": 0}),
            "steps",
            "at least 1",
        ),
        (
            json!({"id": "bad", "component": "TextField", "label": "N", "variant": "email"}),
            "variant",
            "one of longText",
        ),
        (
            json!({"id": "bad", "component": "DateTimeInput", "value": "", "enableDate": "yes"}),
            "enableDate",
            "a boolean",
        ),
        (
            json!({"id": "bad", "component": "Divider", "axis": "diagonal"}),
            "axis",
            "one of horizontal",
        ),
        (
            json!({"id": "bad", "component": "Text", "text": "x", "weight": "2"}),
            "weight",
            "a number",
        ),
    ] {
        let s = one(
            json!([
                {"id": "root", "component": "Column", "children": ["ok", "bad", "after"]},
                {"id": "ok", "component": "Text", "text": "before"},
                comp,
                {"id": "after", "component": "Text", "text": "after"}
            ]),
            json!({}),
        );
        let tree = root(&s);
        let k = children(&tree);
        let NodeKind::Invalid { reason, .. } = &k[1].kind else {
            panic!("{field}: not invalid: {:?}", k[1].kind)
        };
        assert!(reason.starts_with(field), "{field}: {reason}");
        assert!(reason.contains(expected), "{field}: {reason}");
        // The rest of the surface still renders.
        assert_eq!((text(&k[0]), text(&k[2])), ("before", "after"));
    }
}

#[test]
fn catalogue_rules_accept_every_dynamic_form_and_legacy_text_variants() {
    let s = one(
        json!([
            {"id": "root", "component": "Column", "children": ["a", "b", "c", "d", "e", "f", "g"]},
            {"id": "a", "component": "Text", "text": {"path": "/t"}, "variant": "h2"},
            {"id": "b", "component": "Text", "text": {"call": "formatString", "args": {"value": "${/t}"}}},
            {"id": "c", "component": "CheckBox", "label": "A", "value": {"path": "/on"}},
            {"id": "d", "component": "Slider", "max": 5, "value": {"path": "/n"}},
            {"id": "e", "component": "ChoicePicker", "options": [{"label": {"path": "/t"}, "value": "x"}],
             "value": {"path": "/sel"}},
            {"id": "f", "component": "Icon", "name": {"path": "/icon"}},
            // Properties outside the catalogue (extensions) are ignored, not refused.
            {"id": "g", "component": "Text", "text": "x", "metadata": {"extensions": {"com_x": 1}}}
        ]),
        json!({"t": "hi", "on": true, "n": 2, "sel": ["x"], "icon": "mail"}),
    );
    let tree = root(&s);
    for n in children(&tree) {
        assert!(
            !matches!(n.kind, NodeKind::Invalid { .. }),
            "{}: {:?}",
            n.id,
            n.kind
        );
    }
    assert_eq!(text(&children(&tree)[1]), "hi");
}

#[test]
fn images_and_media_keep_only_http_urls() {
    let s = one(
        json!([
            {"id": "root", "component": "Row", "children": ["a", "b", "c"]},
            {"id": "a", "component": "Image", "url": "javascript:alert(1)"},
            {"id": "b", "component": "Image", "url": {"path": "/u"}},
            {"id": "c", "component": "AudioPlayer", "url": "data:audio/mp3;base64,AAAA"}
        ]),
        json!({"u": "http://ok.example/x.png"}),
    );
    let tree = root(&s);
    let k: Vec<&NodeKind> = children(&tree).iter().map(|n| &n.kind).collect();
    assert!(matches!(k[0], NodeKind::Image { url: None, .. }));
    assert!(
        matches!(k[1], NodeKind::Image { url: Some(u), .. } if u.as_str() == "http://ok.example/x.png")
    );
    assert!(matches!(k[2], NodeKind::AudioPlayer { url: None, .. }));
}

// ---- tree budgets --------------------------------------------------------------------

#[test]
fn a_reference_cycle_becomes_a_cycle_node() {
    let s = one(
        json!([
            {"id": "root", "component": "Card", "child": "a"},
            {"id": "a", "component": "Column", "children": ["b"]},
            {"id": "b", "component": "Card", "child": "a"}
        ]),
        json!({}),
    );
    let tree = root(&s);
    let NodeKind::Card { child: a } = &tree.kind else {
        panic!()
    };
    let NodeKind::Card { child: again } = &children(a)[0].kind else {
        panic!()
    };
    assert_eq!((again.id.as_str(), &again.kind), ("a", &NodeKind::Cycle));
}

#[test]
fn self_reference_is_a_cycle() {
    let s = one(
        json!([{"id": "root", "component": "Card", "child": "root"}]),
        json!({}),
    );
    let NodeKind::Card { child } = root(&s).kind else {
        panic!()
    };
    assert_eq!(child.kind, NodeKind::Cycle);
}

#[test]
fn nesting_beyond_the_depth_budget_is_cut() {
    let mut comps = vec![json!({"id": "root", "component": "Card", "child": "c0"})];
    for i in 0..100 {
        comps.push(
            json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)}),
        );
    }
    let s = one(Value::Array(comps), json!({}));
    let mut node = root(&s);
    let mut depth = 0;
    while let NodeKind::Card { child } = node.kind {
        node = *child;
        depth += 1;
    }
    assert_eq!(node.kind, NodeKind::TooDeep);
    assert_eq!(depth, MAX_DEPTH);
}

#[test]
fn too_many_components_keeps_the_first_and_reports() {
    let comps: Vec<Value> = (0..MAX_COMPONENTS + 5)
        .map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": "x"}))
        .collect();
    let mut s = Surfaces::new();
    let err = s.apply(&json!({"createSurface": {"surfaceId": "big", "components": comps}}));
    assert_eq!(
        err,
        Err(A2uiError::TooManyComponents {
            surface_id: "big".into(),
            limit: MAX_COMPONENTS
        })
    );
    let big = s.get("big").expect("surface kept");
    assert_eq!(big.components.len(), MAX_COMPONENTS);
    // Replacing an existing id still works at the limit.
    s.apply(
        &json!({"updateComponents": {"surfaceId": "big", "components": [
        {"id": "t0", "component": "Divider"}]}}),
    )
    .expect("replace at limit");
    assert!(matches!(
        s.get("big").expect("big").components["t0"].component,
        Component::Divider { .. }
    ));
}

#[test]
fn template_explosion_is_truncated() {
    let items: Vec<Value> = (0..100)
        .map(|_| json!({"xs": (0..100).collect::<Vec<_>>()}))
        .collect();
    let s = one(
        json!([
            {"id": "root", "component": "List", "children": {"path": "/items", "componentId": "row"}},
            {"id": "row", "component": "Row", "children": {"path": "xs", "componentId": "cell"}},
            {"id": "cell", "component": "Text", "text": {"path": "."}}
        ]),
        json!({ "items": items }),
    );
    fn count(n: &Node, truncated: &mut usize) -> usize {
        if n.kind == NodeKind::Truncated {
            *truncated += 1;
        }
        1 + match &n.kind {
            NodeKind::Row { children, .. } | NodeKind::List { children, .. } => {
                children.iter().map(|c| count(c, truncated)).sum()
            }
            _ => 0,
        }
    }
    let mut truncated = 0;
    let total = count(&root(&s), &mut truncated);
    assert!(truncated > 0);
    assert!(total <= MAX_TREE_NODES + 200, "{total}");
}

// ---- binding and templates -----------------------------------------------------------

#[test]
fn template_list_uses_item_relative_paths() {
    let s = one(
        json!([
            {"id": "root", "component": "List", "children": {"path": "/employees", "componentId": "card"}},
            {"id": "card", "component": "Column", "children": ["name", "company", "pos"]},
            {"id": "name", "component": "Text", "text": {"path": "name"}},
            {"id": "company", "component": "Text", "text": {"path": "/company"}},
            {"id": "pos", "component": "Text", "text": {"call": "formatString", "args": {"value": "#${@index(offset: 1)}"}}}
        ]),
        json!({"company": "Acme", "employees": [{"name": "Alice"}, {"name": "Bob"}]}),
    );
    let tree = root(&s);
    let rows = children(&tree);
    assert_eq!(rows.len(), 2);
    let bob = children(&rows[1]);
    assert_eq!(
        (text(&bob[0]), text(&bob[1]), text(&bob[2])),
        ("Bob", "Acme", "#2")
    );
    assert_eq!(rows[1].scope.base.as_deref(), Some("/employees/1"));
}

#[test]
fn index_outside_a_template_is_an_error() {
    assert_eq!(
        eval(json!({"call": "@index"}), json!({})),
        Err(A2uiError::IndexOutsideTemplate)
    );
}

#[test]
fn two_way_binding_updates_the_model_and_dependents() {
    let mut s = one(
        json!([
            {"id": "root", "component": "Column", "children": ["field", "echo", "box", "pick", "slide", "when"]},
            {"id": "field", "component": "TextField", "label": "Name", "value": {"path": "/user/name"}},
            {"id": "echo", "component": "Text", "text": {"path": "/user/name"}},
            {"id": "box", "component": "CheckBox", "label": "Ok", "value": {"path": "/ok"}},
            {"id": "pick", "component": "ChoicePicker", "options": [{"label": "A", "value": "a"}], "value": {"path": "/pick"}},
            {"id": "slide", "component": "Slider", "max": 10, "value": {"path": "/level"}},
            {"id": "when", "component": "DateTimeInput", "value": {"path": "/when"}}
        ]),
        json!({}),
    );
    let tree = root(&s);
    let binds: Vec<Option<String>> = children(&tree)
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::TextField { bind, .. }
            | NodeKind::CheckBox { bind, .. }
            | NodeKind::ChoicePicker { bind, .. }
            | NodeKind::Slider { bind, .. }
            | NodeKind::DateTimeInput { bind, .. } => Some(bind.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        binds,
        ["/user/name", "/ok", "/pick", "/level", "/when"].map(|p| Some(p.to_string()))
    );
    for (path, v) in [
        ("/user/name", json!("Jane")),
        ("/ok", json!(true)),
        ("/pick", json!(["a"])),
        ("/level", json!(7)),
        ("/when", json!("2026-02-02T10:00")),
    ] {
        s.set_value("s", path, v).expect("set");
    }
    let tree = root(&s);
    let k: Vec<&NodeKind> = children(&tree).iter().map(|n| &n.kind).collect();
    assert!(matches!(k[0], NodeKind::TextField { value, .. } if value == "Jane"));
    assert!(matches!(k[1], NodeKind::Text { text, .. } if text == "Jane"));
    assert!(matches!(k[2], NodeKind::CheckBox { value: true, .. }));
    assert!(matches!(k[3], NodeKind::ChoicePicker { selected, .. } if selected == &["a"]));
    assert!(matches!(k[4], NodeKind::Slider { value, .. } if *value == 7.0));
    assert!(matches!(k[5], NodeKind::DateTimeInput { value, .. } if value == "2026-02-02T10:00"));
    assert_eq!(
        s.set_value("missing", "/x", json!(1)),
        Err(A2uiError::SurfaceNotFound {
            surface_id: "missing".into()
        })
    );
}

#[test]
fn update_data_model_upserts_deletes_and_replaces() {
    let mut s = one(
        json!([]),
        json!({"user": {"a": 1, "tmp": 2}, "list": [1, 2]}),
    );
    let up = |s: &mut Surfaces, v: Value| s.apply(&json!({ "updateDataModel": v }));
    up(
        &mut s,
        json!({"surfaceId": "s", "path": "/user/b/c", "value": "deep"}),
    )
    .expect("create");
    up(
        &mut s,
        json!({"surfaceId": "s", "path": "/user/tmp", "value": null}),
    )
    .expect("delete");
    up(
        &mut s,
        json!({"surfaceId": "s", "path": "/list/-", "value": 3}),
    )
    .expect("append");
    up(
        &mut s,
        json!({"surfaceId": "s", "path": "/list/0", "value": 9}),
    )
    .expect("replace");
    assert_eq!(
        up(
            &mut s,
            json!({"surfaceId": "s", "path": "/list/7", "value": 9})
        ),
        Err(A2uiError::BadPointer {
            pointer: "/list/7".into()
        })
    );
    assert_eq!(
        s.get("s").expect("s").data,
        json!({"user": {"a": 1, "b": {"c": "deep"}}, "list": [9, 2, 3]})
    );
    up(&mut s, json!({"surfaceId": "s", "value": {"fresh": true}})).expect("root");
    assert_eq!(s.get("s").expect("s").data, json!({"fresh": true}));
    up(
        &mut s,
        json!({"surfaceId": "s", "path": "/a~1b", "value": 1}),
    )
    .expect("escaped");
    assert_eq!(
        data::get(&s.get("s").expect("s").data, "/a~1b"),
        Some(&json!(1))
    );
}

#[test]
fn pointer_depth_is_bounded() {
    let deep = "/a".repeat(data::MAX_POINTER_SEGMENTS + 1);
    let mut v = json!({});
    assert!(matches!(
        data::set(&mut v, &deep, json!(1)),
        Err(A2uiError::BadPointer { .. })
    ));
    let ok = "/a".repeat(data::MAX_POINTER_SEGMENTS);
    data::set(&mut v, &ok, json!(1)).expect("at the limit");
    assert_eq!(data::get(&v, &ok), Some(&json!(1)));
}

// ---- functions -----------------------------------------------------------------------

#[test]
fn required_length_numeric_email() {
    assert_eq!(call("required", json!({"value": ""})), json!(false));
    assert_eq!(call("required", json!({"value": []})), json!(false));
    assert_eq!(call("required", json!({"value": 0})), json!(true));
    assert_eq!(call("required", json!({})), json!(false));
    assert_eq!(
        call("length", json!({"value": "héllo", "min": 5, "max": 5})),
        json!(true)
    );
    assert_eq!(
        call("length", json!({"value": "hi", "min": 3})),
        json!(false)
    );
    assert_eq!(
        call("numeric", json!({"value": "12", "min": 1, "max": 12})),
        json!(true)
    );
    assert_eq!(
        call("numeric", json!({"value": 13, "max": 12})),
        json!(false)
    );
    assert_eq!(
        call("numeric", json!({"value": "abc", "min": 0})),
        json!(false)
    );
    assert_eq!(
        call("email", json!({"value": "jane.doe@example.com"})),
        json!(true)
    );
    for bad in [
        "jane",
        "a@b",
        "a@@b.com",
        "a b@c.com",
        ".a@b.com",
        "a@b..com",
        "a@-b.com",
    ] {
        assert!(!is_email(bad), "{bad}");
    }
}

#[test]
fn logic_functions() {
    let v = json!({"t": true, "f": false});
    let e = |x: Value| eval(x, v.clone()).expect("eval");
    assert_eq!(
        e(json!({"call": "and", "args": {"values": [{"path": "/t"}, true]}})),
        json!(true)
    );
    assert_eq!(
        e(json!({"call": "and", "args": {"values": [{"path": "/t"}, {"path": "/f"}]}})),
        json!(false)
    );
    assert_eq!(
        e(
            json!({"call": "or", "args": {"values": [{"path": "/f"}, {"call": "not", "args": {"value": {"path": "/f"}}}]}})
        ),
        json!(true)
    );
    assert_eq!(
        e(json!({"call": "not", "args": {"value": true}})),
        json!(false)
    );
}

#[test]
fn format_string_interpolates_paths_and_calls() {
    let data = json!({"user": {"firstName": "Ann"}, "appName": "Acme", "n": 3, "obj": {"a": 1}, "when": "2026-01-16"});
    let f = |s: &str| {
        eval(
            json!({"call": "formatString", "args": {"value": s}}),
            data.clone(),
        )
    };
    assert_eq!(
        f("Hello, ${/user/firstName}! Welcome back to ${/appName}."),
        Ok(json!("Hello, Ann! Welcome back to Acme."))
    );
    assert_eq!(
        f("${/n} items, ${/missing}|${/obj}"),
        Ok(json!("3 items, |{\"a\":1}"))
    );
    assert_eq!(f(r"cost \${/n}"), Ok(json!("cost ${/n}")));
    assert_eq!(
        f("${formatDate(value:${/when}, format:'yyyy/MM/dd')}"),
        Ok(json!("2026/01/16"))
    );
    assert_eq!(
        f("${formatNumber(value: 1234.5, decimals: 2)}"),
        Ok(json!("1,234.50"))
    );
    assert_eq!(f("open ${/n"), Err(A2uiError::BadExpression));
    assert_eq!(
        f("${nosuch(a: 1)}"),
        Err(A2uiError::UnknownFunction {
            name: "nosuch".into()
        })
    );
}

#[test]
fn nested_calls_beyond_the_budget_are_refused() {
    let mut expr = json!(true);
    for _ in 0..40 {
        expr = json!({"call": "not", "args": {"value": expr}});
    }
    assert_eq!(eval(expr, json!({})), Err(A2uiError::EvalTooDeep));
    let s = format!("{}x{}", "${formatString(value:".repeat(30), ")}".repeat(30));
    assert!(eval(
        json!({"call": "formatString", "args": {"value": s}}),
        json!({})
    )
    .is_err());
}

#[test]
fn number_and_currency_formatting() {
    assert_eq!(format_number(1234567.891, None, true), "1,234,567.891");
    assert_eq!(format_number(1234.5, Some(0.0), false), "1235");
    assert_eq!(format_number(-0.0001, Some(2.0), true), "0.00");
    assert_eq!(format_number(-12.5, None, true), "-12.5");
    assert_eq!(format_currency(1234.5, "USD", None, true), "$1,234.50");
    assert_eq!(format_currency(-3.0, "EUR", None, true), "-€3.00");
    assert_eq!(format_currency(1200.0, "JPY", None, true), "¥1,200");
    assert_eq!(format_currency(10.0, "CHF", None, true), "CHF\u{a0}10.00");
    assert_eq!(
        call(
            "formatCurrency",
            json!({"value": 9.5, "currency": "gbp", "grouping": false})
        ),
        json!("£9.50")
    );
    assert_eq!(call("formatNumber", json!({"value": "42"})), json!("42"));
}

#[test]
fn date_formatting() {
    let d = DateTime::from_value(&json!("2026-01-16T14:30:05Z")).expect("date");
    assert_eq!(d.format("MMM dd, yyyy"), "Jan 16, 2026");
    assert_eq!(d.format("HH:mm"), "14:30");
    assert_eq!(d.format("h:mm a"), "2:30 PM");
    assert_eq!(d.format("EEEE, d MMMM"), "Friday, 16 January");
    assert_eq!(
        d.format("E MMM d, YYYY h:mm a 'at' ss"),
        "Fri Jan 16, 2026 2:30 PM at 05"
    );
    let epoch = DateTime::from_value(&json!(0)).expect("epoch");
    assert_eq!(epoch.format("yyyy-MM-dd HH:mm EEE"), "1970-01-01 00:00 Thu");
    assert_eq!(DateTime::from_value(&json!("2026-02-30")), None);
    assert_eq!(DateTime::from_value(&json!("soon")), None);
    assert!(DateTime::from_value(&json!("2026-06-02T08:57:23.120+02:00")).is_some());
    assert_eq!(
        eval(
            json!({"call": "formatDate", "args": {"value": "x", "format": "y"}}),
            json!({})
        ),
        Err(A2uiError::BadArgument {
            function: "formatDate".into(),
            arg: "value"
        })
    );
}

#[test]
fn pluralize_picks_the_category() {
    let p = |n: f64| {
        call(
            "pluralize",
            json!({"value": n, "zero": "none", "one": "one item", "other": "many items"}),
        )
    };
    assert_eq!(
        (p(0.0), p(1.0), p(5.0)),
        (json!("none"), json!("one item"), json!("many items"))
    );
    assert_eq!(
        call("pluralize", json!({"value": 0, "other": "items"})),
        json!("items")
    );
}

#[test]
fn open_url_checks_the_scheme() {
    assert_eq!(
        call("openUrl", json!({"url": "https://a.example/"})),
        json!({"openUrl": "https://a.example/"})
    );
    assert!(matches!(
        eval(
            json!({"call": "openUrl", "args": {"url": "javascript:alert(1)"}}),
            json!({})
        ),
        Err(A2uiError::UnsafeUrl { .. })
    ));
}

#[test]
fn unknown_function_is_an_error() {
    assert_eq!(
        eval(json!({"call": "verifyProvider"}), json!({})),
        Err(A2uiError::UnknownFunction {
            name: "verifyProvider".into()
        })
    );
}

// ---- regex ---------------------------------------------------------------------------

fn m(p: &str, s: &str) -> bool {
    Regex::new(p)
        .expect("compiles")
        .is_match(s)
        .expect("within budget")
}

#[test]
fn regex_matches_the_supported_subset() {
    assert!(m(r"^\d{10}$", "1234567890"));
    assert!(!m(r"^\d{10}$", "123456789"));
    assert!(!m(r"^\d{10}$", "12345678901"));
    assert!(m("b", "abc"));
    assert!(!m("^b", "abc"));
    assert!(m("^a.c$", "abc"));
    assert!(!m("^a.c$", "a\nc"));
    assert!(m("^[a-z]+@[^@]+$", "me@host"));
    assert!(!m("^[^0-9]*$", "ab3"));
    assert!(m(r"^\w+\s\W$", "hi !"));
    assert!(m("^(cat|dog)s?$", "dogs"));
    assert!(!m("^(cat|dog)s?$", "cow"));
    assert!(m("^(?:ab){2,3}$", "ababab"));
    assert!(!m("^(?:ab){2,3}$", "abababab"));
    assert!(m("^a{2,}$", "aaaa"));
    assert!(m(r"\bcat\b", "a cat!"));
    assert!(!m(r"\bcat\b", "concat"));
    assert!(m(r"^[\d.-]+$", "1.5-2"));
    assert!(m(r"^\u00e9$", "é"));
    assert!(m("^a+?b*?$", "aab"));
    assert!(m("^$", ""));
    assert!(m("a|", "zzz"));
    assert!(m(r"^[\D]+$", "abc"));
    assert!(!m(r"^[\D]+$", "a1"));
}

#[test]
fn pathological_patterns_finish_fast() {
    let long = "a".repeat(10_000);
    let start = Instant::now();
    assert!(!m("(a*)*b", &long));
    assert!(!m("^(a|a)*$", &format!("{long}!")));
    assert!(!m("(a+)+(b+)+c", &long));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn bad_or_unsupported_patterns_are_errors() {
    for (p, kind) in [
        ("(a", RegexErrorKind::Unbalanced),
        ("a)", RegexErrorKind::Unbalanced),
        ("*a", RegexErrorKind::NothingToRepeat),
        ("a**", RegexErrorKind::NothingToRepeat),
        ("[a-", RegexErrorKind::BadClass),
        ("[z-a]", RegexErrorKind::BadClass),
        (r"(a)\1", RegexErrorKind::Unsupported),
        ("(?=a)", RegexErrorKind::Unsupported),
        ("a{3,1}", RegexErrorKind::BadRepeat),
        ("a{5000}", RegexErrorKind::BadRepeat),
        ("a{2", RegexErrorKind::BadRepeat),
        (r"\", RegexErrorKind::BadEscape),
        ("^*", RegexErrorKind::NothingToRepeat),
    ] {
        assert_eq!(
            Regex::new(p).map(|_| ()).map_err(|e| e.kind),
            Err(kind),
            "{p}"
        );
    }
    assert_eq!(
        Regex::new(&"a".repeat(600)).map(|_| ()).map_err(|e| e.kind),
        Err(RegexErrorKind::TooLong)
    );
    assert_eq!(
        Regex::new("((a{100}){100}){100}")
            .map(|_| ())
            .map_err(|e| e.kind),
        Err(RegexErrorKind::TooComplex)
    );
    assert_eq!(
        Regex::new(&format!("{}a{}", "(".repeat(40), ")".repeat(40)))
            .map(|_| ())
            .map_err(|e| e.kind),
        Err(RegexErrorKind::TooDeep)
    );
    assert!(matches!(
        eval(
            json!({"call": "regex", "args": {"value": "x", "pattern": "("}}),
            json!({})
        ),
        Err(A2uiError::BadRegex {
            kind: RegexErrorKind::Unbalanced,
            ..
        })
    ));
}

#[test]
fn the_step_budget_stops_huge_work() {
    let re = Regex::new(&format!("{}z", "(a|b|c|d)?".repeat(45))).expect("compiles");
    assert_eq!(
        re.is_match(&"e".repeat(200_000)),
        Err(RegexErrorKind::StepBudget)
    );
}

// ---- checks and actions --------------------------------------------------------------

#[test]
fn checks_produce_messages_and_disable_buttons() {
    let mut s = one(
        json!([
            {"id": "root", "component": "Column", "children": ["email", "phone", "qty", "submit"]},
            {"id": "email", "component": "TextField", "label": "Email", "value": {"path": "/email"},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/email"}}}, "message": "Email is required."},
                        {"condition": {"call": "email", "args": {"value": {"path": "/email"}}}, "message": "Bad email."}]},
            {"id": "phone", "component": "TextField", "label": "Phone", "value": {"path": "/phone"},
             "checks": [{"call": "regex", "args": {"value": {"path": "/phone"}, "pattern": "^\\d{10}$"}, "message": "10 digits."}]},
            {"id": "qty", "component": "TextField", "label": "Qty", "value": {"path": "/qty"},
             "checks": [{"condition": {"call": "required"}, "message": "Qty needed."}]},
            {"id": "submit", "component": "Button", "child": "email", "action": {"event": {"name": "send"}},
             "checks": [{"condition": {"call": "and", "args": {"values": [
                {"call": "required", "args": {"value": {"path": "/email"}}},
                {"call": "required", "args": {"value": {"path": "/phone"}}}]}}, "message": "Fill both."}]}
        ]),
        json!({"phone": "123"}),
    );
    let errors = |s: &Surfaces| -> Vec<Vec<String>> {
        children(&root(s))
            .iter()
            .map(|n| match &n.kind {
                NodeKind::TextField { errors, .. } | NodeKind::Button { errors, .. } => {
                    errors.clone()
                }
                _ => Vec::new(),
            })
            .collect()
    };
    assert_eq!(
        errors(&s),
        vec![
            vec!["Email is required.".to_string(), "Bad email.".to_string()],
            vec!["10 digits.".to_string()],
            vec!["Qty needed.".to_string()],
            vec!["Fill both.".to_string()],
        ]
    );
    assert!(matches!(
        s.get("s").expect("s").action("submit", TS),
        Err(A2uiError::ChecksFailed { messages, .. }) if messages == ["Fill both."]
    ));
    for (p, v) in [
        ("/email", "a@b.co"),
        ("/phone", "0123456789"),
        ("/qty", "2"),
    ] {
        s.set_value("s", p, json!(v)).expect("set");
    }
    assert!(errors(&s).iter().all(Vec::is_empty));
    let tree = root(&s);
    let NodeKind::Button { enabled, .. } = &children(&tree)[3].kind else {
        panic!()
    };
    assert!(enabled);
}

#[test]
fn action_payload_follows_the_binding() {
    let mut s = one(
        json!([
            {"id": "root", "component": "Button", "child": "label", "action": {"event": {
                "name": "submitContactForm",
                "context": {"formId": "contact_form_1", "subscribed": {"path": "/contact/subscribe"},
                            "greeting": {"call": "formatString", "args": {"value": "Hi ${/contact/name}"}},
                            "broken": {"call": "nosuch"}}}}},
            {"id": "label", "component": "Text", "text": "Send"}
        ]),
        json!({"contact": {"subscribe": false, "name": "Ann"}}),
    );
    s.set_value("s", "/contact/subscribe", json!(true))
        .expect("toggle");
    let Ok(ActionPayload::Agent(a)) = s.get("s").expect("s").action("root", TS) else {
        panic!("no agent action")
    };
    let expected = json!({
        "name": "submitContactForm",
        "surfaceId": "s",
        "sourceComponentId": "root",
        "timestamp": TS,
        "context": {"formId": "contact_form_1", "subscribed": true, "greeting": "Hi Ann", "broken": null}
    });
    assert_eq!(a.user_action, expected);
    assert_eq!(
        a.forwarded_props,
        json!({"a2uiAction": {"userAction": expected}})
    );
    assert_eq!(a.envelope, json!({"version": "v1.0", "action": expected}));
    assert_eq!(
        s.get("s").expect("s").action("label", TS),
        Err(A2uiError::NotActionable { id: "label".into() })
    );
    assert_eq!(
        s.get("s").expect("s").action("nope", TS),
        Err(A2uiError::ComponentNotFound { id: "nope".into() })
    );
}

#[test]
fn send_data_model_rides_along() {
    let s = surfaces(
        json!([{"createSurface": {"surfaceId": "d", "sendDataModel": true,
        "components": [{"id": "root", "component": "Button", "child": "root", "action": {"event": {"name": "go"}}}],
        "dataModel": {"k": 1}}}]),
    );
    let Ok(ActionPayload::Agent(a)) = s.get("d").expect("d").action("root", TS) else {
        panic!()
    };
    assert_eq!(
        a.forwarded_props["a2uiRendererDataModel"],
        json!({"version": "v1.0", "surfaces": {"d": {"k": 1}}})
    );
}

#[test]
fn template_button_resolves_context_in_its_item() {
    let s = one(
        json!([
            {"id": "root", "component": "List", "children": {"path": "/items", "componentId": "buy"}},
            {"id": "buy", "component": "Button", "child": "buy", "action": {"event": {"name": "buy",
                "context": {"sku": {"path": "sku"}}}}}
        ]),
        json!({"items": [{"sku": "A1"}, {"sku": "B2"}]}),
    );
    let tree = root(&s);
    let second = &children(&tree)[1];
    let surface = s.get("s").expect("s");
    let Ok(ActionPayload::Agent(a)) = surface.action_at(&second.id, &second.scope, TS) else {
        panic!()
    };
    assert_eq!(a.user_action["context"], json!({"sku": "B2"}));
}

#[test]
fn local_open_url_action_is_an_intent() {
    let s = one(
        json!([
            {"id": "root", "component": "Row", "children": ["ok", "bad"]},
            {"id": "ok", "component": "Button", "child": "ok", "action": {"functionCall": {"call": "openUrl", "args": {"url": "${/u}"}}}},
            {"id": "bad", "component": "Button", "child": "bad", "action": {"functionCall": {"call": "openUrl", "args": {"url": {"path": "/evil"}}}}}
        ]),
        json!({"u": "https://docs.example/", "evil": "javascript:alert(1)"}),
    );
    let surface = s.get("s").expect("s");
    // `${/u}` outside formatString is a literal string, not a binding: refused as a URL.
    assert!(matches!(
        surface.action("ok", TS),
        Err(A2uiError::UnsafeUrl { .. })
    ));
    assert!(matches!(
        surface.action("bad", TS),
        Err(A2uiError::UnsafeUrl { .. })
    ));
    let s2 = one(
        json!([{"id": "root", "component": "Button", "child": "root",
                "action": {"functionCall": {"call": "openUrl", "args": {"url": {"path": "/u"}}}}}]),
        json!({"u": "https://docs.example/"}),
    );
    let Ok(ActionPayload::Local(Intent::OpenUrl(url))) = s2.get("s").expect("s").action("root", TS)
    else {
        panic!()
    };
    assert_eq!(url.as_str(), "https://docs.example/");
}

// ---- callAgentFunction (renderer → agent) and agentFunctionResponse ---------------------

fn agent_button(call: Value, send_data_model: bool) -> Surfaces {
    surfaces(json!([{ "version": "v1.0", "createSurface": {
        "surfaceId": "s", "catalogId": "basic", "sendDataModel": send_data_model,
        "components": [{"id": "root", "component": "Button", "child": "root",
                        "action": {"functionCall": call}}],
        "dataModel": {"provider": "PRV-102"} } }]))
}

#[test]
fn a_function_the_renderer_lacks_becomes_a_call_agent_function() {
    let s = agent_button(
        json!({"call": "verifyProvider", "args": {"providerId": {"path": "/provider"}, "strict": true}}),
        false,
    );
    let Ok(ActionPayload::CallAgent(c)) = s.get("s").expect("s").action("root", TS) else {
        panic!("not a callAgentFunction")
    };
    assert_eq!(c.call, "verifyProvider");
    assert_eq!(c.function_call_id, format!("root@{TS}"));
    assert_eq!(
        c.envelope,
        json!({"version": "v1.0", "callAgentFunction": {
            "surfaceId": "s", "functionCallId": c.function_call_id,
            "callFunction": {"call": "verifyProvider", "catalogId": "basic",
                             "args": {"providerId": "PRV-102", "strict": true}}}})
    );
    assert_eq!(c.forwarded_props, json!({ "a2uiMessages": [c.envelope] }));

    // The call's own catalogId wins; sendDataModel sends the model along.
    let s = agent_button(
        json!({"call": "checkStock", "catalogId": "shop.example:c", "args": {}}),
        true,
    );
    let Ok(ActionPayload::CallAgent(c)) = s.get("s").expect("s").action("root", TS) else {
        panic!("not a callAgentFunction")
    };
    assert_eq!(
        c.envelope["callAgentFunction"]["callFunction"]["catalogId"],
        "shop.example:c"
    );
    assert_eq!(
        c.forwarded_props["a2uiRendererDataModel"]["surfaces"]["s"]["provider"],
        "PRV-102"
    );
}

#[test]
fn only_catalogue_entity_names_go_to_the_agent_and_local_functions_stay_local() {
    use agui_leptos::a2ui::eval::is_agent_function;
    for ok in ["verifyProvider", "_internal", "check_stock_2", "prüfen"] {
        assert!(is_agent_function(ok), "{ok}");
    }
    let too_long = "f".repeat(65);
    for no in [
        "",
        "1stItem",
        "submit-form",
        "user#name",
        "a b",
        "@index",
        "@other",
        "../x",
        "openUrl",
        "formatString",
        "required",
        too_long.as_str(),
    ] {
        assert!(!is_agent_function(no), "{no}");
    }
    // A name that is neither local nor an entity name is an error, nothing is sent.
    let s = agent_button(json!({"call": "rm -rf", "args": {}}), false);
    assert!(matches!(
        s.get("s").expect("s").action("root", TS),
        Err(A2uiError::UnknownFunction { .. })
    ));
    // Oversized resolved arguments are refused.
    let s = surfaces(json!([{ "createSurface": { "surfaceId": "s",
        "components": [{"id": "root", "component": "Button", "child": "root",
            "action": {"functionCall": {"call": "upload", "args": {"blob": {"path": "/big"}}}}}],
        "dataModel": {"big": "z".repeat(5_000)} } }]));
    assert!(matches!(
        s.get("s").expect("s").action("root", TS),
        Err(A2uiError::BadArgument { .. })
    ));
    // Without any catalogId the call goes without one (the protocol's example has none).
    let s = surfaces(json!([{ "createSurface": { "surfaceId": "s",
        "components": [{"id": "root", "component": "Button", "child": "root",
            "action": {"functionCall": {"call": "ping"}}}] } }]));
    let Ok(ActionPayload::CallAgent(c)) = s.get("s").expect("s").action("root", TS) else {
        panic!("not a callAgentFunction")
    };
    assert_eq!(
        c.envelope["callAgentFunction"]["callFunction"],
        json!({"call": "ping", "args": {}})
    );
}

#[test]
fn agent_function_responses_are_read_and_malformed_ones_refused() {
    let mut s = Surfaces::new();
    let problems = s
        .sync(&json!({"a2ui_operations": [
            {"version": "v1.0", "agentFunctionResponse": {"functionCallId": "a", "value": {"valid": true}}},
            {"version": "v1.0", "agentFunctionResponse": {"functionCallId": "b",
                "error": {"code": "PROVIDER_NOT_FOUND", "message": "Provider ID PRV-102 was not found."}}},
            {"version": "v1.0", "agentFunctionResponse": {"functionCallId": "c"}},
            {"version": "v1.0", "agentFunctionResponse": {"functionCallId": "d", "value": 1,
                "error": {"code": "X", "message": "both"}}},
            {"version": "v1.0", "agentFunctionResponse": {"functionCallId": "e", "error": "no"}},
            {"version": "v1.0", "agentFunctionResponse": {"functionCallId": "f", "error": {"code": "X"}}},
            {"version": "v1.0", "agentFunctionResponse": {"value": 1}}
        ]}))
        .expect("usable");
    assert_eq!(problems.len(), 5, "{problems:?}");
    let r = s.take_responses();
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].function_call_id.as_str(), &r[0].result),
        ("a", &Ok(json!({"valid": true})))
    );
    assert_eq!(
        r[1].result,
        Err((
            "PROVIDER_NOT_FOUND".to_owned(),
            "Provider ID PRV-102 was not found.".to_owned()
        ))
    );
    assert!(s.take_responses().is_empty());
    // Without a surface id there is nothing to report a malformed response on.
    assert!(s.take_outbox().is_empty());
}

#[test]
fn a_response_closes_only_a_call_that_was_sent_and_only_once() {
    use agui_leptos::session::a2ui_out::{A2uiOutbox, MAX_CALLS};
    let mut out = A2uiOutbox::default();
    assert!(!out.answer("never-sent"));
    out.expect_call("c1".into());
    assert!(out.answer("c1"));
    assert!(!out.answer("c1"), "answered once");
    for i in 0..=MAX_CALLS {
        out.expect_call(format!("k{i}"));
    }
    assert!(!out.answer("k0"), "the oldest is forgotten");
    assert!(out.answer(&format!("k{MAX_CALLS}")));
}

// ---- robustness ----------------------------------------------------------------------

#[test]
fn arbitrary_json_never_panics() {
    let samples = [
        json!(null),
        json!({"createSurface": null}),
        json!({"createSurface": {"surfaceId": "z", "components": "no", "dataModel": 3}}),
        json!({"updateComponents": {"surfaceId": "z", "components": [{"id": 1}, {"id": "root", "component": 5}]}}),
        json!({"updateDataModel": {"surfaceId": "z", "path": 3}}),
        json!({"updateDataModel": {"surfaceId": "z", "path": "/~2/-/x", "value": {}}}),
        json!({"deleteSurface": []}),
        json!({"callRendererFunction": {"functionCallId": 1}}),
    ];
    let mut s = Surfaces::new();
    s.apply(&json!({"createSurface": {"surfaceId": "z"}}))
        .expect("z");
    for v in &samples {
        let _ = s.apply(v);
        let _ = s.sync(v);
        let _ = s.sync(&json!({ "a2ui_operations": [v] }));
    }
    if let Some(z) = s.get("z") {
        let _ = z.tree();
    }
}

// ---- the demo agent's surface (issue 14 item 3) ------------------------------------------

#[test]
fn the_demo_reservation_form_is_a_surface_whose_action_the_demo_answers() {
    use agui_leptos::demo::DemoAgent;
    use agui_leptos::protocol::types::{Content, Role};
    use agui_leptos::session::{AgentConfig, LocalAgentRef, Route, Session, TestEnv};
    let mut s = Session::new(
        AgentConfig {
            local_agent: Some(LocalAgentRef::new(DemoAgent)),
            ..AgentConfig::default()
        },
        std::rc::Rc::new(TestEnv::default()),
    );
    let play = |s: &mut Session, req: agui_leptos::session::RunRequest| {
        let Route::Local { agent, .. } = &req.route else {
            panic!()
        };
        for chunk in agent.respond(&req.body) {
            s.push(req.generation, &chunk.bytes);
        }
        s.end_run(req.generation, Ok(()));
    };
    let req = s.send("reserve a table for dinner").unwrap();
    play(&mut s, req);
    let activity = s
        .thread()
        .messages
        .iter()
        .find(|m| m.role == Role::Activity)
        .expect("an activity")
        .clone();
    assert_eq!(
        activity.activity_type.as_deref(),
        Some(agui_leptos::a2ui::ACTIVITY_TYPE)
    );
    let Some(Content::Object(content)) = &activity.content else {
        panic!()
    };
    let (mut surfaces, problems) = Surfaces::from_content(&Value::Object(content.clone()));
    assert!(problems.is_empty(), "{problems:?}");
    let owed = surfaces.take_outbox();
    assert!(
        owed.is_empty(),
        "the demo keeps the catalogue's rules: {owed:?}"
    );
    assert!(surfaces.get("reservation").unwrap().has_root());
    assert!(
        matches!(
            surfaces.get("reservation").unwrap().action("send", TS),
            Err(A2uiError::ChecksFailed { .. })
        ),
        "no name yet"
    );
    surfaces
        .set_value("reservation", "/name", json!("Ada"))
        .unwrap();
    let Ok(ActionPayload::Agent(a)) = surfaces.get("reservation").unwrap().action("send", TS)
    else {
        panic!("an agent action")
    };
    let req = s.send_action(a.forwarded_props).expect("a run");
    assert_eq!(
        req.body["forwardedProps"]["a2uiAction"]["userAction"]["context"]["name"],
        "Ada"
    );
    play(&mut s, req);
    let last = s.thread().messages.last().unwrap().text().into_owned();
    assert!(last.contains("under the name **Ada**"), "{last}");
}
