//! Who is speaking (`src/view/subagents.rs`): the transcript's rows grouped by subagent —
//! nesting, order, unannounced subagents, the depth budget — and what a group's header says.

use agui_leptos::i18n::{Locale, EN};
use agui_leptos::protocol::reducer::{SubagentStatus, MAX_SUBAGENT_DEPTH};
use agui_leptos::protocol::types::Role;
use agui_leptos::protocol::{Pipeline, PipelineOptions, Thread};
use agui_leptos::view::rows::{row_keys, Row};
use agui_leptos::view::subagents::{group_rows, Group, Header, Item, Lineage, MAX_NAME_CHARS};
use serde_json::{json, Value};

fn row(key: &str, role: Role, subagent: Option<&str>) -> Row {
    Row {
        key: key.to_owned(),
        id: key.to_owned(),
        role,
        subagent: subagent.map(str::to_owned),
    }
}

fn said(key: &str, subagent: &str) -> Row {
    row(key, Role::Assistant, Some(subagent))
}

/// The grouping as text: `key` for a row, `[subagent@depth: …]` for a group.
fn shape(items: &[Item]) -> String {
    items
        .iter()
        .map(|i| match i {
            Item::Row(r) => r.key.clone(),
            Item::Group(Group {
                subagent,
                depth,
                items,
                ..
            }) => format!("[{subagent}@{depth}: {}]", shape(items)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn rows_without_subagents_stay_flat_and_in_order() {
    let rows = vec![
        row("u1", Role::User, None),
        row("a1", Role::Assistant, None),
        row("u2", Role::User, None),
    ];
    let items = group_rows(&rows, &Lineage::default());
    assert_eq!(shape(&items), "u1 a1 u2");
}

#[test]
fn nested_subagents_nest_and_order_is_kept() {
    let lineage = Lineage::from_pairs([("research", None), ("writer", Some("research"))]);
    let rows = vec![
        row("u1", Role::User, None),
        said("r1", "research"),
        row("t1", Role::Reasoning, Some("writer")),
        said("w1", "writer"),
        row("tool1", Role::Tool, Some("writer")),
        said("r2", "research"),
        row("a1", Role::Assistant, None),
    ];
    let items = group_rows(&rows, &lineage);
    assert_eq!(
        shape(&items),
        "u1 [research@1: r1 [writer@2: t1 w1 tool1] r2] a1"
    );
    // Keys: a group is keyed by its first row, apart from that row by the missing role.
    let Some(Item::Group(g)) = items.get(1) else {
        panic!("a group second: {items:?}");
    };
    assert_eq!(g.key, "r1");
    assert_ne!(items[1].list_key(), g.items[0].list_key());
    assert_eq!(Item::children_of(&items, "r1"), g.items);
    assert!(Item::children_of(&items, "nope").is_empty());
}

#[test]
fn a_subagent_interrupted_by_another_speaker_opens_a_second_group() {
    let lineage = Lineage::from_pairs([("a", None), ("b", None)]);
    let rows = vec![said("x1", "a"), said("y1", "b"), said("x2", "a")];
    let items = group_rows(&rows, &lineage);
    assert_eq!(shape(&items), "[a@1: x1] [b@1: y1] [a@1: x2]");
    let keys: Vec<_> = items.iter().map(Item::list_key).collect();
    assert_eq!(keys.len(), 3);
    assert!(keys[0] != keys[2], "two groups of one subagent, two keys");
    // A nested subagent between its parent's rows stays inside the parent's one group; a
    // nested row directly after the main agent opens its parent's group too.
    let lineage = Lineage::from_pairs([("a", None), ("c", Some("a"))]);
    let rows = vec![
        row("m", Role::Assistant, None),
        said("c1", "c"),
        said("a1", "a"),
    ];
    assert_eq!(shape(&group_rows(&rows, &lineage)), "m [a@1: [c@2: c1] a1]");
}

#[test]
fn an_unannounced_subagent_is_a_group_of_its_own_named_subagent() {
    let rows = vec![row("u", Role::User, None), said("g1", "ghost")];
    let items = group_rows(&rows, &Lineage::default());
    assert_eq!(shape(&items), "u [ghost@1: g1]");
    let thread = Thread::new();
    let header = Header::of(&thread.subagents, "ghost");
    assert_eq!(header.name, None);
    assert_eq!(header.status, None);
    assert_eq!(header.display_name(&EN), "Subagent");
    assert_eq!(header.group_label(&EN), "Subagent (subagent)");
    assert_eq!(header.status_label(&EN), None);
    assert!(!header.collapsed(), "nothing says it finished");
    assert_eq!(
        header.group_label(Locale::De.strings()),
        "Subagent (Subagent)"
    );
}

#[test]
fn the_lineage_walk_is_bounded_whatever_the_map_holds() {
    // A cycle (the reducer never builds one; the view does not rely on it).
    let cycle = Lineage::from_pairs([("a", Some("b")), ("b", Some("a"))]);
    assert_eq!(cycle.path("a"), ["b", "a"]);
    // A chain longer than the budget shows its innermost levels.
    let ids: Vec<String> = (0..MAX_SUBAGENT_DEPTH + 3)
        .map(|i| format!("s{i}"))
        .collect();
    let chain = Lineage::from_pairs(
        ids.iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i.checked_sub(1).map(|p| ids[p].as_str()))),
    );
    let last = ids.last().expect("ids");
    let path = chain.path(last);
    assert_eq!(path.len(), MAX_SUBAGENT_DEPTH);
    assert_eq!(path.last(), Some(&last.as_str()));
    let rows = vec![said("deep", last)];
    let items = group_rows(&rows, &chain);
    let mut depth = 0;
    let mut level = items.as_slice();
    while let Some(Item::Group(g)) = level.first() {
        depth += 1;
        assert_eq!(g.depth, depth);
        level = &g.items;
    }
    assert_eq!(depth, MAX_SUBAGENT_DEPTH);
}

fn sse(events: &[Value]) -> Vec<u8> {
    events
        .iter()
        .flat_map(|e| format!("data: {e}\n\n").into_bytes())
        .collect()
}

#[test]
fn a_streamed_run_groups_under_names_with_statuses() {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(&sse(&[
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m0"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m0"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "Research agent",
               "description": "Finds sources", "parentMessageId": "m0"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s2", "name": "Writer",
               "parentSubagentRunId": "s1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search",
               "subagentRunId": "s1"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c1", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "w1", "subagentRunId": "s2"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "w1", "delta": "draft", "subagentRunId": "s2"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "w1", "subagentRunId": "s2"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s2"}),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s1", "message": "quota"}),
    ]));
    assert_eq!(p.error(), None);
    let thread = &p.thread;
    let items = group_rows(&row_keys(&thread.messages), &Lineage::of(&thread.subagents));
    // The tool call's holder message is the subagent's; the writer nests in it.
    let holder = thread
        .tool_call("c1")
        .map(|(i, _)| thread.messages[i].id.clone());
    let holder = holder.expect("the call is held");
    assert_eq!(shape(&items), format!("m0 [s1@1: {holder} [s2@2: w1]]"));

    let research = Header::of(&thread.subagents, "s1");
    assert_eq!(research.group_label(&EN), "Research agent (subagent)");
    assert_eq!(research.message_label(&EN), "Message from Research agent");
    assert_eq!(research.status, Some(SubagentStatus::Error));
    assert_eq!(research.status_label(&EN), Some("Failed"));
    assert_eq!(research.error.as_deref(), Some("quota"));
    assert_eq!(research.description.as_deref(), Some("Finds sources"));
    assert!(research.collapsed());
    let writer = Header::of(&thread.subagents, "s2");
    assert_eq!(writer.status_label(&EN), Some("Done"));
    assert!(writer.collapsed());
}

#[test]
fn header_words_for_every_status_and_long_names_are_cut() {
    let mk = |status| Header {
        name: Some("Planner".to_owned()),
        status: Some(status),
        ..Header::default()
    };
    let cases = [
        (SubagentStatus::Running, "Working…", false),
        (SubagentStatus::Finished, "Done", true),
        (SubagentStatus::Suspended, "Paused", false),
        (SubagentStatus::Error, "Failed", true),
    ];
    for (status, words, collapsed) in cases {
        let h = mk(status);
        assert_eq!(h.status_label(&EN), Some(words), "{status:?}");
        assert_eq!(h.collapsed(), collapsed, "{status:?}");
    }
    // A long name from the agent is cut; an empty one reads as unnamed.
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    let long = "ü".repeat(MAX_NAME_CHARS * 3);
    p.push_bytes(&sse(&[
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": long}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s2", "name": "  "}),
    ]));
    assert_eq!(p.error(), None);
    let name = Header::of(&p.thread.subagents, "s1").name.expect("named");
    assert_eq!(name.chars().count(), MAX_NAME_CHARS + 1);
    assert!(name.ends_with('…'));
    let blank = Header::of(&p.thread.subagents, "s2");
    assert_eq!(blank.display_name(&EN), "Subagent");
    assert_eq!(blank.status, Some(SubagentStatus::Running));
}
