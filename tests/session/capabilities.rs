//! `AgentCapabilities` as the page passes them (spec digest §6): checked, and what the UI
//! makes of them — attachments narrowed to `multimodal.input`, frontend tools offered unless
//! `tools.clientProvided` is `false`, `identity.name` as the title. Omitted = unknown.

use agui_leptos::embed::WidgetOptions;
use agui_leptos::protocol::capabilities::{Capabilities, CapabilitiesError, MediaInput};
use agui_leptos::view::attachments::Limits;
use serde_json::json;

#[test]
fn a_declaration_is_checked_against_the_known_types_and_unknown_members_are_ignored() {
    let c = Capabilities::parse(&json!({
        "identity": {"name": "  Trip planner ", "type": "langgraph", "metadata": {"x": 1}},
        "multimodal": {"input": {"image": true, "audio": false}, "output": {"image": false}},
        "tools": {"clientProvided": false, "items": []},
        "execution": {"maxIterations": 10},
        "custom": {"anything": [1, 2]},
        "future": {"whatever": "ok"},
    }))
    .unwrap();
    assert_eq!(c.name.as_deref(), Some("Trip planner"));
    assert_eq!(
        c.input,
        MediaInput {
            image: Some(true),
            audio: Some(false),
            ..MediaInput::default()
        }
    );
    assert_eq!(c.client_tools, Some(false));
    assert_eq!(
        Capabilities::parse(&json!({})).unwrap(),
        Capabilities::default()
    );

    for (bad, path) in [
        (
            json!({"tools": {"clientProvided": "no"}}),
            "tools.clientProvided",
        ),
        (json!({"identity": {"name": 3}}), "identity.name"),
        (
            json!({"multimodal": {"input": {"pdf": 1}}}),
            "multimodal.input.pdf",
        ),
        (json!({"multimodal": {"input": []}}), "multimodal.input"),
        (
            json!({"execution": {"maxIterations": -1}}),
            "execution.maxIterations",
        ),
        (json!({"state": true}), "state"),
    ] {
        assert!(
            matches!(Capabilities::parse(&bad), Err(CapabilitiesError::WrongType { path: p, .. }) if p == path),
            "{bad}"
        );
    }
    assert_eq!(
        Capabilities::parse(&json!([1])),
        Err(CapabilitiesError::NotAnObject)
    );
}

#[test]
fn attachments_follow_multimodal_input_and_undeclared_kinds_stay() {
    let limits = Limits::default();
    let undeclared = MediaInput::default();
    assert_eq!(
        limits.for_agent(&undeclared),
        Some(limits.clone()),
        "nothing declared"
    );
    let no_audio_video = MediaInput {
        audio: Some(false),
        video: Some(false),
        ..MediaInput::default()
    };
    let narrowed = limits.for_agent(&no_audio_video).unwrap();
    assert_eq!(
        narrowed.accept,
        [
            "image/*",
            "application/pdf",
            "text/plain",
            "text/markdown",
            "text/csv",
            "application/json"
        ]
    );
    assert!(!narrowed.accepts("a.mp3", "audio/mpeg"));
    assert_eq!(narrowed.max_files, limits.max_files);
    let nothing = MediaInput {
        image: Some(false),
        audio: Some(false),
        video: Some(false),
        pdf: Some(false),
        file: Some(false),
    };
    assert_eq!(limits.for_agent(&nothing), None, "no attach button");
    let images_only = Limits {
        accept: vec!["*/*".into()],
        ..Limits::default()
    }
    .for_agent(&MediaInput {
        file: Some(false),
        pdf: Some(false),
        ..MediaInput::default()
    })
    .unwrap();
    assert_eq!(images_only.accept, ["image/*", "audio/*", "video/*"]);
}

#[test]
fn the_capabilities_attribute_is_parsed_or_reported() {
    let parse =
        |v: &str| WidgetOptions::parse(|name| (name == "capabilities").then(|| v.to_owned()));
    let (o, problems) = parse(r#"{"tools": {"clientProvided": false}}"#);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.capabilities.unwrap().client_tools, Some(false));
    let (o, problems) = parse(r#"{"tools": {"clientProvided": "nope"}}"#);
    assert!(o.capabilities.is_none(), "unusable: as if none");
    assert!(problems[0].contains("tools.clientProvided"), "{problems:?}");
    let (o, problems) = parse("{oops");
    assert!(o.capabilities.is_none());
    assert_eq!(problems.len(), 1);
}

#[test]
fn an_agent_that_takes_no_client_tools_is_not_offered_them() {
    use agui_leptos::demo::DemoAgent;
    use agui_leptos::protocol::types::Tool;
    use agui_leptos::session::{AgentConfig, LocalAgentRef, Session, TestEnv};
    let tool = Tool {
        name: "confirm_payment".into(),
        description: "pay".into(),
        parameters: None,
        metadata: None,
    };
    let config = |caps: Option<Capabilities>| AgentConfig {
        local_agent: Some(LocalAgentRef::new(DemoAgent)),
        tools: vec![tool.clone()],
        capabilities: caps,
        ..AgentConfig::default()
    };
    let tools_sent = |caps| {
        let mut s = Session::new(config(caps), std::rc::Rc::new(TestEnv::default()));
        let req = s.send("hi").unwrap();
        req.body["tools"].as_array().unwrap().len()
    };
    assert_eq!(tools_sent(None), 1, "undeclared: offered");
    let takes = Capabilities::parse(&json!({"tools": {"clientProvided": true}})).unwrap();
    assert_eq!(tools_sent(Some(takes)), 1);
    let refuses = Capabilities::parse(&json!({"tools": {"clientProvided": false}})).unwrap();
    assert_eq!(tools_sent(Some(refuses)), 0);
}
