//! Browser tests of an answer's tables and drawn code blocks (headless Chromium): a finished
//! table's toolbar (copy as Markdown or CSV, download CSV), absent while the table streams; a
//! wide table scrolls sideways with readable columns; a page's code renderer gets the block's
//! text and `complete`, and the Source toggle shows the code.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_blocks --features app`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::plugins::Plugins;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
// Records the <a download> a click reaches inside `root` (and stops the real download).
export function catch_downloads(root) {
  const seen = [];
  root.addEventListener('click', (e) => {
    const a = e.target;
    if (a instanceof HTMLAnchorElement && a.hasAttribute('download')) {
      seen.push({ href: a.href, download: a.download, hidden: a.hidden });
      e.preventDefault();
    }
  }, true);
  return seen;
}
export function seen_json(seen) { return JSON.stringify(seen); }
// The blob's bytes as UTF-8, a byte order mark kept.
export async function blob_text(url) {
  const bytes = await (await fetch(url)).arrayBuffer();
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}
export function active_testid(root) {
  const a = root.ownerDocument.activeElement;
  return a ? (a.getAttribute('data-testid') || a.tagName) : '';
}
"#)]
extern "C" {
    fn catch_downloads(root: &Element) -> JsValue;
    fn seen_json(seen: &JsValue) -> String;
    async fn blob_text(url: &str) -> JsValue;
    fn active_testid(root: &Element) -> String;
}

struct Mounted {
    container: HtmlElement,
    root: Element,
    store: AgentStore,
}

/// A chat with `plugins` on a fresh store, an external run open and the assistant message
/// `id` started.
async fn mount_streaming(id: &str, plugins: Plugins) -> (Mounted, impl Drop) {
    install_styles();
    let store = AgentStore::new(AgentConfig::default());
    let (container, root, handle) = mount_chat_with(store, plugins);
    store.begin_external();
    store.push_bytes(&sse(json!({
        "type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "run-blocks",
    })));
    store.push_bytes(&sse(json!({
        "type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant",
    })));
    settle(&store).await;
    (
        Mounted {
            container,
            root,
            store,
        },
        handle,
    )
}

fn push_text(store: &AgentStore, id: &str, delta: &str) {
    store.push_bytes(&sse(json!({
        "type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": delta,
    })));
}

fn finish(store: &AgentStore, id: &str) {
    store.push_bytes(&sse(json!({"type": "TEXT_MESSAGE_END", "messageId": id})));
    store.push_bytes(&sse(json!({
        "type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "run-blocks",
    })));
    store.end_external(None);
}

fn tables(root: &Element) -> Vec<Element> {
    q_all(
        root,
        r#"[data-testid="message-text"] [data-testid="md-table"]"#,
    )
}

const TABLE: &str = "| Venue | Seats | Note |\n|:--|--:|:-:|\n| Bar Azul | 14 | =1+1 |\n| Pátio, \"o\" | 16 | a\\|b |\n";

#[wasm_bindgen_test]
async fn a_finished_table_has_a_toolbar_and_a_streaming_one_has_none() {
    let (m, handle) = mount_streaming("m-table", Plugins::new()).await;
    // The table is the open tail of a streaming answer: no toolbar yet.
    push_text(&m.store, "m-table", TABLE);
    settle(&m.store).await;
    let t = tables(&m.root);
    assert_eq!(t.len(), 1, "the table renders while it streams");
    assert!(
        testid(&t[0], "table-tools").is_none(),
        "no toolbar while the table may still grow"
    );
    // A paragraph after a blank line finishes the table's segment: its toolbar shows while the
    // answer still streams.
    push_text(&m.store, "m-table", "\nThat is all.\n\nMore");
    settle(&m.store).await;
    let t = tables(&m.root);
    assert_eq!(t.len(), 1);
    let tools = testid(&t[0], "table-tools").expect("a finished segment's table has its tools");
    assert!(
        m.store.running().get_untracked(),
        "the answer still streams"
    );

    // Labelled buttons, in the tab order.
    assert_eq!(tools.get_attribute("role").as_deref(), Some("group"));
    assert!(!tools
        .get_attribute("aria-label")
        .unwrap_or_default()
        .is_empty());
    for (id, label, shown) in [
        (
            "table-copy-markdown",
            "Copy table as Markdown",
            "Copy Markdown",
        ),
        ("table-copy-csv", "Copy table as CSV", "Copy CSV"),
        ("table-download-csv", "Download table as CSV", "Download"),
    ] {
        let b = testid(&tools, id).unwrap_or_else(|| panic!("{id}"));
        assert_eq!(b.tag_name(), "BUTTON");
        assert_eq!(b.get_attribute("type").as_deref(), Some("button"));
        // The visible text is the accessible name (axe: label in name); the longer one is
        // the button's description, on hover.
        assert_eq!(b.get_attribute("aria-label"), None);
        assert_eq!(b.get_attribute("title").as_deref(), Some(label));
        assert_eq!(text_of(&b).trim(), shown);
        assert!(b.get_attribute("tabindex").is_none() && b.get_attribute("disabled").is_none());
        b.dyn_ref::<HtmlElement>()
            .expect("button")
            .focus()
            .expect("focus");
        assert_eq!(active_testid(&m.root), id, "{id} takes the keyboard focus");
    }

    // Download: an <a download> with a blob: URL of the CSV, clicked inside the chat, removed.
    let seen = catch_downloads(&m.root);
    click_testid(&tools, "table-download-csv");
    let seen: serde_json::Value = serde_json::from_str(&seen_json(&seen)).expect("json");
    let seen = seen.as_array().expect("array");
    assert_eq!(seen.len(), 1, "one download: {seen:?}");
    let href = seen[0]["href"].as_str().expect("href");
    assert!(href.starts_with("blob:"), "{href}");
    assert_eq!(seen[0]["download"], "table.csv");
    assert_eq!(seen[0]["hidden"], true);
    assert!(q(&tools, "a").is_none(), "the anchor is gone");
    let csv = blob_text(href).await.as_string().expect("the blob's text");
    assert_eq!(
        csv,
        "\u{feff}Venue,Seats,Note\r\nBar Azul,14,'=1+1\r\n\"Pátio, \"\"o\"\"\",16,a|b\r\n"
    );

    drop(handle);
    m.container.remove();
}

#[wasm_bindgen_test]
async fn the_last_table_of_an_answer_gets_its_toolbar_when_the_answer_ends() {
    let (m, handle) = mount_streaming("m-tail", Plugins::new()).await;
    push_text(&m.store, "m-tail", "Here:\n\n");
    push_text(&m.store, "m-tail", TABLE);
    settle(&m.store).await;
    assert!(testid(&m.root, "table-tools").is_none());
    finish(&m.store, "m-tail");
    wait_until(
        &m.store,
        "the toolbar of the finished answer's table",
        || testid(&m.root, "table-tools").is_some(),
    )
    .await;
    assert_eq!(tables(&m.root).len(), 1);
    drop(handle);
    m.container.remove();
}

#[wasm_bindgen_test]
async fn a_wide_table_scrolls_sideways_with_readable_columns_on_a_phone() {
    let (m, handle) = mount_streaming("m-wide", Plugins::new()).await;
    m.container
        .set_attribute("style", "width: 390px; height: 700px")
        .expect("style");
    let header = "| a | b | c | d | e | f | g | h |\n|---|---|---|---|---|---|---|---|\n";
    let row = "| one two three four | 1 | 2 | 3 | 4 | 5 | 6 | the last column |\n";
    let code = format!("```\n{}\n```\n", "wide ".repeat(60));
    push_text(&m.store, "m-wide", &format!("{header}{row}{row}\n{code}"));
    finish(&m.store, "m-wide");
    settle(&m.store).await;
    let wrap = q(&m.root, ".agui-md__table-wrap").expect("wrap");
    assert_eq!(computed(&wrap, "overflow-x"), "auto");
    assert!(
        wrap.scroll_width() > wrap.client_width(),
        "the table is wider than its card: {} > {}",
        wrap.scroll_width(),
        wrap.client_width()
    );
    let card = q(&m.root, r#"[data-testid="md-table"]"#).expect("card");
    assert!(
        card.get_bounding_client_rect().width() <= 390.0,
        "the card stays within the phone"
    );
    // No column collapses: each is at least ~9 characters wide.
    let font = computed(&wrap, "font-size");
    let px: f64 = font.trim_end_matches("px").parse().expect("px");
    for cell in q_all(&wrap, "td, th") {
        let w = cell.get_bounding_client_rect().width();
        assert!(w >= 4.0 * px, "a column of {w}px at {px}px text");
    }
    // The scroll hint: shadows drawn by the wrap's own background, nothing that runs.
    let bg = computed(&wrap, "background-attachment");
    assert!(bg.contains("local") && bg.contains("scroll"), "{bg}");
    // A wide code block the same.
    let pre = q(&m.root, ".agui-code__pre").expect("the code block");
    assert_eq!(computed(&pre, "overflow-x"), "auto");
    assert!(pre.scroll_width() > pre.client_width());
    let bg = computed(&pre, "background-attachment");
    assert!(bg.contains("local") && bg.contains("scroll"), "{bg}");
    drop(handle);
    m.container.remove();
}

/// What a Rust code renderer draws: the block's line count and whether it is complete.
fn chart_plugins() -> Plugins {
    Plugins::new().code_renderer("Chart", |block| {
        let code = block.code;
        let complete = block.complete;
        view! {
            <output data-testid="drawn-lines">{move || code.with(|c| c.lines().count())}</output>
            <span data-testid="drawn-complete">{move || complete.get().to_string()}</span>
            <span data-testid="drawn-lang">{block.lang.to_string()}</span>
        }
        .into_any()
    })
}

fn drawn(root: &Element, id: &str) -> String {
    testid(root, id).map(|e| text_of(&e)).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_page_draws_its_fence_language_and_the_source_is_one_click_away() {
    let (m, handle) = mount_streaming("m-chart", chart_plugins()).await;
    push_text(&m.store, "m-chart", "```CHART\na 1\n");
    settle(&m.store).await;
    let block = testid(&m.root, "code-block").expect("the code block's card");
    assert!(
        testid(&block, "code-drawn").is_some(),
        "drawn while it streams"
    );
    assert_eq!(drawn(&block, "drawn-lines"), "1");
    assert_eq!(drawn(&block, "drawn-complete"), "false");
    assert_eq!(drawn(&block, "drawn-lang"), "chart");
    push_text(&m.store, "m-chart", "b 2\nc 3\n");
    settle(&m.store).await;
    assert_eq!(
        drawn(&m.root, "drawn-lines"),
        "3",
        "the text grows as it streams"
    );
    assert_eq!(drawn(&m.root, "drawn-complete"), "false");
    push_text(&m.store, "m-chart", "```\n\n```rust\nfn main() {}\n```\n");
    finish(&m.store, "m-chart");
    wait_until(&m.store, "the finished drawing", || {
        drawn(&m.root, "drawn-complete") == "true"
    })
    .await;
    assert_eq!(drawn(&m.root, "drawn-lines"), "3");
    let blocks = q_all(&m.root, r#"[data-testid="code-block"]"#);
    assert_eq!(blocks.len(), 2);
    assert!(
        testid(&blocks[1], "code-drawn").is_none() && testid(&blocks[1], "code-source").is_none(),
        "another language is highlighted code"
    );

    // The drawing shows, the source is hidden; the bar keeps the language and Copy.
    let block = blocks[0].clone();
    let drawing = testid(&block, "code-drawn").expect("drawn");
    let pre = q(&block, "pre").expect("pre");
    assert!(!drawing.has_attribute("hidden") && pre.has_attribute("hidden"));
    assert!(testid(&block, "copy-code").is_some());
    assert!(text_of(&block).contains("CHART"));
    let toggle = testid(&block, "code-source").expect("the source toggle");
    assert_eq!(toggle.tag_name(), "BUTTON");
    assert_eq!(text_of(&toggle).trim(), "Source");
    click(&toggle);
    settle(&m.store).await;
    assert!(drawing.has_attribute("hidden") && !pre.has_attribute("hidden"));
    assert_eq!(text_of(&pre), "a 1\nb 2\nc 3\n");
    assert_eq!(text_of(&toggle).trim(), "Diagram");
    click(&toggle);
    settle(&m.store).await;
    assert!(!drawing.has_attribute("hidden") && pre.has_attribute("hidden"));
    drop(handle);
    m.container.remove();
}

#[wasm_bindgen_test]
async fn an_open_fence_is_complete_once_its_answer_ends() {
    let (m, handle) = mount_streaming("m-open", chart_plugins()).await;
    push_text(&m.store, "m-open", "Look:\n\n```chart\nx 1\ny 2");
    settle(&m.store).await;
    assert_eq!(drawn(&m.root, "drawn-complete"), "false");
    finish(&m.store, "m-open");
    wait_until(&m.store, "complete at the end of the answer", || {
        drawn(&m.root, "drawn-complete") == "true"
    })
    .await;
    assert_eq!(drawn(&m.root, "drawn-lines"), "2");
    drop(handle);
    m.container.remove();
}
