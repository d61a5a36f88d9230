//! Browser tests of subagents in the transcript (headless Chromium): a subagent's messages
//! show in a group named after it, with its status; the group collapses once the subagent
//! finished and its button opens it again; nested subagents nest; messages inside are named
//! after their subagent; an unannounced subagent is "Subagent".
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_subagents`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::{AgentConfig, AgentStore};
use serde_json::{json, Value};
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

fn said(id: &str, text: &str, owner: Option<&str>) -> [Value; 3] {
    let mut events = [
        json!({"type": "TEXT_MESSAGE_START", "messageId": id}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": text}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": id}),
    ];
    if let Some(o) = owner {
        for e in &mut events {
            e["subagentRunId"] = json!(o);
        }
    }
    events
}

fn push(store: &AgentStore, events: impl IntoIterator<Item = Value>) {
    for e in events {
        store.push_bytes(&sse(e));
    }
}

fn group(root: &Element, id: &str) -> Element {
    q(
        root,
        &format!(r#"[data-testid="subagent-group"][data-subagent-id="{id}"]"#),
    )
    .unwrap_or_else(|| panic!("a group for {id}"))
}

/// A group's own part (not a nested group's).
fn part(group: &Element, testid: &str) -> Element {
    let header = format!(r#":scope > .agui-subagent__header [data-testid="{testid}"]"#);
    q(
        group,
        &format!(r#"{header}, :scope > [data-testid="{testid}"]"#),
    )
    .unwrap_or_else(|| panic!("{testid} in the group"))
}

fn toggle(group: &Element) -> Element {
    part(group, "subagent-toggle")
}

fn body(group: &Element) -> Element {
    part(group, "subagent-body")
}

fn expanded(group: &Element) -> bool {
    let t = toggle(group);
    let b = body(group);
    let said = t.get_attribute("aria-expanded").as_deref() == Some("true");
    assert_eq!(
        said,
        !b.has_attribute("hidden"),
        "aria-expanded tells the truth"
    );
    said
}

fn message(root: &Element, id: &str) -> Element {
    q(
        root,
        &format!(r#"[data-testid="message"][data-message-id="{id}"]"#),
    )
    .unwrap_or_else(|| panic!("message {id}"))
}

#[wasm_bindgen_test]
async fn subagents_group_their_messages_nest_and_collapse_once_done() {
    let store = AgentStore::new(AgentConfig::default());
    let (container, root, handle) = mount_chat(store);
    let thread_id = store.thread_id();

    store.begin_external();
    push(
        &store,
        [json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-1"})],
    );
    push(&store, said("m0", "Let me delegate.", None));
    push(
        &store,
        [
            json!({"type": "SUBAGENT_STARTED", "subagentRunId": "research", "name": "Research agent",
                   "description": "Finds sources", "parentMessageId": "m0"}),
        ],
    );
    push(&store, said("r1", "Looking for sources.", Some("research")));
    push(
        &store,
        [
            json!({"type": "SUBAGENT_STARTED", "subagentRunId": "writer", "name": "Writer",
                   "parentSubagentRunId": "research"}),
        ],
    );
    push(&store, said("w1", "Drafting the summary.", Some("writer")));
    push(&store, said("g1", "Nobody announced me.", Some("ghost")));
    settle(&store).await;

    // A group per subagent, named and with its status; the nested one inside its parent.
    let research = group(&root, "research");
    assert_eq!(research.get_attribute("role").as_deref(), Some("group"));
    assert_eq!(
        research.get_attribute("aria-label").as_deref(),
        Some("Research agent (subagent)")
    );
    assert_eq!(text_of(&part(&research, "subagent-name")), "Research agent");
    assert_eq!(text_of(&part(&research, "subagent-status")), "Working…");
    assert_eq!(
        research.get_attribute("data-status").as_deref(),
        Some("running")
    );
    assert!(expanded(&research), "open while it works");
    let writer = group(&root, "writer");
    assert!(
        body(&research).contains(Some(&writer)),
        "the writer nests in research"
    );
    assert_eq!(writer.get_attribute("data-depth").as_deref(), Some("2"));
    assert_eq!(
        writer.get_attribute("aria-label").as_deref(),
        Some("Writer (subagent)")
    );

    // Who is speaking: each message in a group is an article named after its subagent; the
    // main agent's is in no group.
    let w1 = message(&root, "w1");
    assert!(body(&writer).contains(Some(&w1)));
    assert_eq!(w1.get_attribute("role").as_deref(), Some("article"));
    assert_eq!(
        w1.get_attribute("aria-label").as_deref(),
        Some("Message from Writer")
    );
    let r1 = message(&root, "r1");
    assert_eq!(
        r1.get_attribute("aria-label").as_deref(),
        Some("Message from Research agent")
    );
    assert!(!body(&writer).contains(Some(&r1)));
    let m0 = message(&root, "m0");
    assert!(m0
        .closest(r#"[data-testid="subagent-group"]"#)
        .ok()
        .flatten()
        .is_none());
    assert_eq!(m0.get_attribute("aria-label"), None);

    // Never announced: "Subagent", no status, open.
    let ghost = group(&root, "ghost");
    assert_eq!(
        ghost.get_attribute("aria-label").as_deref(),
        Some("Subagent (subagent)")
    );
    assert_eq!(
        ghost.get_attribute("data-status").as_deref(),
        Some("unknown")
    );
    assert!(expanded(&ghost));
    assert_eq!(
        message(&root, "g1").get_attribute("aria-label").as_deref(),
        Some("Message from Subagent")
    );

    // They end: the writer finishes, research fails; the main agent speaks again after them.
    push(
        &store,
        [
            json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "writer"}),
            json!({"type": "SUBAGENT_ERROR", "subagentRunId": "research", "message": "quota exceeded"}),
        ],
    );
    push(&store, said("m1", "Here is what they found.", None));
    push(
        &store,
        [json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-1"})],
    );
    store.end_external(None);
    settle(&store).await;

    let research = group(&root, "research");
    let writer = group(&root, "writer");
    assert_eq!(text_of(&part(&writer, "subagent-status")), "Done");
    assert_eq!(text_of(&part(&research, "subagent-status")), "Failed");
    assert_eq!(
        research.get_attribute("data-status").as_deref(),
        Some("error")
    );
    assert_eq!(
        text_of(&part(&research, "subagent-error")),
        "quota exceeded"
    );
    assert!(!expanded(&research), "collapsed once it ended");
    assert!(!expanded(&writer));

    // Order: m0, the research group, the ghost's, m1.
    let m1 = message(&root, "m1");
    let follows = |a: &Element, b: &Element| {
        a.compare_document_position(b) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0
    };
    assert!(follows(&message(&root, "m0"), &research));
    assert!(follows(&research, &ghost));
    assert!(follows(&ghost, &m1));
    assert!(m1
        .closest(r#"[data-testid="subagent-group"]"#)
        .ok()
        .flatten()
        .is_none());

    // The header is a real button that controls the body: it opens and closes it again.
    let t = toggle(&research);
    assert_eq!(t.tag_name(), "BUTTON");
    assert_eq!(t.get_attribute("type").as_deref(), Some("button"));
    let controls = t.get_attribute("aria-controls").expect("aria-controls");
    assert_eq!(body(&research).id(), controls);
    assert_eq!(t.get_attribute("title").as_deref(), Some("Finds sources"));
    click(&t);
    settle(&store).await;
    assert!(expanded(&research), "opened by its button");
    assert!(!expanded(&writer), "the nested one keeps its own state");
    click(&toggle(&writer));
    settle(&store).await;
    assert!(expanded(&writer));
    click(&toggle(&research));
    settle(&store).await;
    assert!(!expanded(&research), "closed again");

    drop(handle);
    container.remove();
}
