//! The page's commands (`src/view/commands.rs`): the option read within budgets, the `/`
//! query, matching and the active option.

use agui_leptos::view::commands::{
    from_value, matching, move_active, query, Command, MAX_COMMANDS, MAX_NAME_CHARS,
};
use serde_json::json;

fn names(commands: &[Command], idx: &[usize]) -> Vec<String> {
    idx.iter().map(|&i| commands[i].name.clone()).collect()
}

#[test]
fn the_option_is_read_leniently_within_budgets() {
    let (list, skipped) = from_value(&json!([
        {"name": "summarize", "description": "Summarize the page", "prompt": "Summarize this"},
        {"name": "/translate", "prompt": "Translate to French:", "send": false},
        {"name": "go now", "prompt": "x"},
        {"name": "empty", "prompt": "  "},
        {"name": "Summarize", "prompt": "again"},
        {"name": "ship", "prompt": "Ship it", "send": true},
        "not an object",
        {"name": "n".repeat(500), "prompt": "long"}
    ]));
    assert_eq!(
        list.iter().map(|c| c.name.as_str()).collect::<Vec<_>>()[..3],
        ["summarize", "translate", "ship"]
    );
    assert!(list[2].send && !list[1].send);
    assert_eq!(list[3].name.chars().count(), MAX_NAME_CHARS);
    assert_eq!(
        skipped, 4,
        "a name with a space, an empty prompt, a repeat, a string"
    );
    let many: Vec<_> = (0..300)
        .map(|i| json!({"name": format!("c{i}"), "prompt": "p"}))
        .collect();
    let (list, skipped) = from_value(&json!(many));
    assert_eq!((list.len(), skipped), (MAX_COMMANDS, 200));
    assert_eq!(from_value(&json!({"name": "x"})), (vec![], 1));
}

#[test]
fn a_slash_at_the_start_opens_the_list_and_typing_filters_it() {
    assert_eq!(query("/"), Some(""));
    assert_eq!(query("/sum"), Some("sum"));
    assert_eq!(query("/sum it"), None, "a space: the command was typed out");
    assert_eq!(query(" /sum"), None);
    assert_eq!(query("a/b"), None);
    assert_eq!(query("/x\n"), None);
    let (list, _) = from_value(&json!([
        {"name": "translate", "description": "Into another language", "prompt": "t"},
        {"name": "summarize", "description": "A short version", "prompt": "s"},
        {"name": "resume", "description": "Summarize a CV", "prompt": "r"}
    ]));
    assert_eq!(
        names(&list, &matching(&list, "")),
        ["translate", "summarize", "resume"]
    );
    assert_eq!(
        names(&list, &matching(&list, "SUM")),
        ["summarize", "resume"]
    );
    assert_eq!(names(&list, &matching(&list, "ans")), ["translate"]);
    assert_eq!(names(&list, &matching(&list, "lang")), ["translate"]);
    assert!(matching(&list, "zzz").is_empty());
    assert_eq!(move_active(3, 2, true), 0);
    assert_eq!(move_active(3, 0, false), 2);
    assert_eq!(move_active(0, 0, true), 0);
}
