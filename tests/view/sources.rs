//! An answer's sources and its markers (`src/view/sources.rs`): AI SDK source parts through the
//! real decoder, the AG-UI `sources` activity and `metadata.sources`, which answer they belong
//! to, the allow-list, duplicates, budgets and the marker parser.

use agui_leptos::markdown::SafeUrl;
use agui_leptos::protocol::ai_sdk::AiSdkStream;
use agui_leptos::protocol::types::{Content, Message, Object, Role};
use agui_leptos::protocol::{PipelineOptions, Thread};
use agui_leptos::view::rows::row_keys;
use agui_leptos::view::sources::{
    cut, has_sources, pieces, plan, AnswerSources, Piece, Source, Target, MAX_NOTE_LABEL,
    MAX_SOURCES, MAX_TITLE_CHARS,
};
use serde_json::{json, Value};

fn activity(id: &str, ty: &str, content: Value) -> Message {
    let mut m = Message::new(id, Role::Activity);
    m.activity_type = Some(ty.to_owned());
    m.content = Some(Content::Object(
        content.as_object().cloned().unwrap_or_default(),
    ));
    m
}

fn answer(id: &str, text: &str) -> Message {
    let mut m = Message::new(id, Role::Assistant);
    m.content = Some(Content::Text(text.to_owned()));
    m
}

fn sources_activity(id: &str, list: Value) -> Message {
    activity(id, "sources", json!({ "sources": list }))
}

/// The list as (number, label, badge, link).
fn listed(s: &AnswerSources) -> Vec<(usize, String, Option<String>, Option<String>)> {
    s.entries
        .iter()
        .map(|e| {
            let link = match &e.target {
                Target::Link { url, .. } => Some(url.as_str().to_owned()),
                _ => None,
            };
            (e.number, e.label(), e.badge().map(str::to_owned), link)
        })
        .collect()
}

/// The sources of every answer of `messages`, as the UI finds them: the plan, then each
/// answer's rows collected.
fn answers(messages: &[Message]) -> Vec<(String, AnswerSources)> {
    let rows = row_keys(messages);
    let by_key = |k: &str| {
        rows.iter()
            .position(|r| r.key == k)
            .and_then(|i| messages.get(i))
    };
    let p = plan(&rows, |r| by_key(&r.key).is_some_and(has_sources));
    let mut out = Vec::new();
    for r in &rows {
        if let Some(a) = p.answer_of(&r.key).filter(|a| a.anchor == r.key) {
            let sources = AnswerSources::collect(a.sources.iter().filter_map(|k| by_key(k)));
            out.push((r.key.clone(), sources));
        }
    }
    out
}

const AI_SDK: &str = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"start-step\"}\n\n\
data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Rust is fast [1] and safe [2].\"}\n\n\
data: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n\
data: {\"type\":\"source-url\",\"sourceId\":\"s1\",\"url\":\"https://www.rust-lang.org/learn\",\"title\":\"Learn Rust\"}\n\n\
data: {\"type\":\"source-url\",\"sourceId\":\"s2\",\"url\":\"javascript:alert(1)\",\"title\":\"Evil\"}\n\n\
data: {\"type\":\"source-document\",\"sourceId\":\"d1\",\"mediaType\":\"application/pdf\",\"title\":\"Spec\",\"filename\":\"spec.pdf\"}\n\n\
data: {\"type\":\"source-url\",\"sourceId\":\"s3\",\"url\":\"https://www.rust-lang.org/learn\"}\n\n\
data: {\"type\":\"finish-step\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";

#[test]
fn ai_sdk_source_parts_become_the_answers_list() {
    let mut s = AiSdkStream::new(Thread::new(), PipelineOptions::default(), "th", "run");
    s.push_bytes(AI_SDK.as_bytes());
    s.finish();
    assert_eq!(s.error(), None);
    let mut history = vec![Message::user("u1", "Tell me about Rust")];
    history.extend(s.pipeline.thread.messages.iter().cloned());
    // The parts are activities after the text; they belong to its answer.
    let found = answers(&history);
    assert_eq!(found.len(), 1);
    let (anchor, sources) = &found[0];
    assert_eq!(anchor, "msg1:t1");
    assert_eq!(
        listed(sources),
        vec![
            (
                1,
                "Learn Rust".into(),
                Some("rust-lang.org".into()),
                Some("https://www.rust-lang.org/learn".into())
            ),
            // Refused by the allow-list: text, no link, no host.
            (2, "Evil".into(), None, None),
            (3, "Spec".into(), Some("application/pdf".into()), None),
        ]
    );
    assert!(matches!(
        &sources.entries[2].target,
        Target::Document { filename: Some(f), .. } if f == "spec.pdf"
    ));
    // The fourth part repeats the first URL: not listed again, `[4]` points at entry 1.
    assert_eq!(sources.cite(4).map(|e| e.number), Some(1));
    assert_eq!(sources.cite(2).map(|e| e.number), Some(2));
    assert_eq!(sources.cite(5), None);
    assert_eq!(sources.cite(0), None);
}

#[test]
fn the_sources_activity_and_metadata_attach_to_their_answer() {
    let mut with_md = answer("a2", "Second answer [1].");
    with_md.metadata = Some(Object::from_iter([(
        "sources".to_owned(),
        json!([{ "url": "https://md.example/x", "title": "From metadata" }]),
    )]));
    let messages = vec![
        Message::user("u1", "q1"),
        // Before the text, in the same answer.
        sources_activity(
            "s1",
            json!([
                { "id": "a", "url": "https://one.example/a", "title": "One", "snippet": "  a   snippet " },
                { "url": "http://two.example:8080/b" },
                { "title": "no url" },
                "not an object",
            ]),
        ),
        answer("a1", "First [1], second [2]."),
        Message::new("tool", Role::Tool),
        answer("a1b", "More text."),
        Message::user("u2", "q2"),
        with_md,
        Message::user("u3", "q3"),
        answer("a3", "No sources here [1]."),
    ];
    let found = answers(&messages);
    assert_eq!(
        found.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        vec!["a1b", "a2"],
        "the list shows under each answer's last assistant message; none without sources"
    );
    let first = &found[0].1;
    assert_eq!(
        listed(first),
        vec![
            (
                1,
                "One".into(),
                Some("one.example".into()),
                Some("https://one.example/a".into())
            ),
            (
                2,
                "http://two.example:8080/b".into(),
                Some("two.example:8080".into()),
                Some("http://two.example:8080/b".into())
            ),
        ]
    );
    assert_eq!(first.entries[0].snippet.as_deref(), Some("a snippet"));
    // Unreadable entries keep their numbers but point nowhere.
    assert_eq!(first.cite(3), None);
    assert_eq!(first.cite(4), None);
    assert_eq!(listed(&found[1].1)[0].1, "From metadata");

    // The plan: both assistant rows of the first answer resolve markers against it; the
    // activity is listed (no card); the answer without sources has no plan.
    let rows = row_keys(&messages);
    let p = plan(&rows, |r| {
        messages
            .iter()
            .find(|m| m.id == r.key)
            .is_some_and(has_sources)
    });
    assert_eq!(p.answer_of("a1").map(|a| a.anchor.as_str()), Some("a1b"));
    assert_eq!(
        p.answer_of("a1b").map(|a| a.sources.clone()),
        Some(vec!["s1".to_owned()])
    );
    assert!(p.is_listed("s1"));
    assert!(
        !p.is_listed("a2"),
        "metadata on an answer is no card to hide"
    );
    assert_eq!(p.answer_of("a3"), None);
}

#[test]
fn an_answer_without_text_keeps_its_source_cards_and_subagents_keep_their_own() {
    let messages = vec![
        Message::user("u1", "q"),
        sources_activity("s1", json!([{ "url": "https://a.example" }])),
    ];
    let rows = row_keys(&messages);
    let p = plan(&rows, |r| r.key == "s1");
    assert!(!p.is_listed("s1"));
    assert_eq!(answers(&messages).len(), 0);

    let mut sub_text = answer("sub", "Sub [1]");
    sub_text.subagent_run_id = Some("r".into());
    let mut sub_src = sources_activity("subsrc", json!([{ "url": "https://sub.example" }]));
    sub_src.subagent_run_id = Some("r".into());
    let messages = vec![
        Message::user("u1", "q"),
        sub_text,
        sub_src,
        answer("main", "Main"),
    ];
    let found = answers(&messages);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].0, "sub",
        "the subagent's sources stay with its answer"
    );
}

#[test]
fn allow_list_refuses_what_markdown_links_refuse() {
    for bad in [
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "data:text/html,<b>",
        "vbscript:x",
        "file:///etc/passwd",
        "//evil.example",
        "/relative",
        "https://ev il.example",
        "https://evil.example/\u{202e}x",
        "mailto:a@b.example",
        "https://",
    ] {
        let s = AnswerSources::collect([&sources_activity("s", json!([{ "url": bad }]))]);
        assert!(
            matches!(
                s.entries.first().map(|e| &e.target),
                Some(Target::Refused(_))
            ),
            "{bad:?} must not be a link: {s:?}"
        );
        assert!(SafeUrl::parse_link(bad)
            .and_then(|u| u.host().map(str::to_owned))
            .is_none_or(|h| h.is_empty()));
    }
    let s = AnswerSources::collect([&sources_activity(
        "s",
        json!([{ "url": "HTTPS://User@WWW.Example.COM/p?q#f" }]),
    )]);
    assert_eq!(s.entries[0].badge(), Some("example.com"));
}

#[test]
fn budgets_bound_the_list_and_the_titles() {
    let many: Vec<Value> = (0..MAX_SOURCES + 50)
        .map(|i| json!({ "url": format!("https://e.example/{i}"), "title": "t ".repeat(500) }))
        .collect();
    let s = AnswerSources::collect([&sources_activity("s", Value::Array(many))]);
    assert_eq!(s.entries.len(), MAX_SOURCES);
    assert_eq!(s.cite(MAX_SOURCES).map(|e| e.number), Some(MAX_SOURCES));
    assert_eq!(s.cite(MAX_SOURCES + 1), None);
    let title = s.entries[0].title.clone().unwrap_or_default();
    assert_eq!(title.chars().count(), MAX_TITLE_CHARS + 1);
    assert!(title.ends_with('…'));
    assert_eq!(cut("a \n\t b", 10), "a b");
    assert_eq!(cut("abc", 2), "ab…");
    // A title of whitespace is no title: the URL shows.
    let s = AnswerSources::collect([&sources_activity(
        "s",
        json!([{ "url": "https://e.example/", "title": " \n " }]),
    )]);
    assert_eq!(
        s.entries.first().map(Source::label).as_deref(),
        Some("https://e.example/")
    );
}

#[test]
fn markers_are_numbers_and_footnote_labels_in_brackets() {
    assert_eq!(pieces("no markers"), vec![Piece::Text("no markers")]);
    assert_eq!(
        pieces("a [1][2] b [^note-1]."),
        vec![
            Piece::Text("a "),
            Piece::Cite { n: 1, raw: "[1]" },
            Piece::Cite { n: 2, raw: "[2]" },
            Piece::Text(" b "),
            Piece::Note {
                label: "note-1",
                raw: "[^note-1]"
            },
            Piece::Text("."),
        ]
    );
    // Not markers: zero, leading zeros, four digits, words, spaces, an empty label, a label
    // over the budget, an unclosed bracket.
    let long = format!("[^{}]", "x".repeat(MAX_NOTE_LABEL + 1));
    for text in [
        "[0]",
        "[01]",
        "[1000]",
        "[a]",
        "[ 1]",
        "[^]",
        "[^a b]",
        long.as_str(),
        "[1",
        "[[",
        "][",
    ] {
        assert_eq!(pieces(text), vec![Piece::Text(text)], "{text:?}");
    }
    assert_eq!(
        pieces("[[3]]"),
        vec![
            Piece::Text("["),
            Piece::Cite { n: 3, raw: "[3]" },
            Piece::Text("]")
        ]
    );
    assert_eq!(
        pieces("é[7]"),
        vec![Piece::Text("é"), Piece::Cite { n: 7, raw: "[7]" }]
    );
    assert_eq!(pieces(""), Vec::<Piece>::new());
}
