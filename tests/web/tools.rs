//! Browser tests for the tool cards, the venue renderer, the state panel and the trip panel:
//! mount the components with an [`AgentStore`] in context into a fresh element in headless
//! Chromium, drive a recorded AG-UI stream through the store, and assert by `data-testid`.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_tools`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::demo::ui::trip_panel::TripPanel;
use agui_leptos::internals::StatePanel;
use agui_leptos::internals::ToolCard;
use agui_leptos::plugins::Plugins;
use agui_leptos::view::tool::PREVIEW_CHARS;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- harness -----------------------------------------------------------------------------

/// Mounts tool cards for `tool_ids`, the state panel and the trip panel, with `store` and
/// `plugins` (the demo's when `None`) in context.
fn mount(
    store: AgentStore,
    plugins: Option<Plugins>,
    tool_ids: &[&str],
) -> (HtmlElement, impl Drop) {
    let ids = RwSignal::new(tool_ids.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    mount_dynamic(store, plugins, ids)
}

/// Like [`mount`], with the list of tool cards in a signal (as the chat renders them).
fn mount_dynamic(
    store: AgentStore,
    plugins: Option<Plugins>,
    ids: RwSignal<Vec<String>>,
) -> (HtmlElement, impl Drop) {
    let container = fresh_container();
    let plugins = plugins.unwrap_or_else(agui_leptos::demo::ui::plugins);
    let handle = leptos::mount::mount_to(container.clone(), move || {
        store.provide();
        plugins.clone().provide();
        view! {
            <div class="agui-root">
                <For
                    each=move || ids.get()
                    key=|id| id.clone()
                    children=|id| view! { <ToolCard tool_call_id=id/> }
                />
                <StatePanel/>
                <TripPanel/>
            </div>
        }
    });
    (container, handle)
}

struct Stream {
    store: AgentStore,
}

impl Stream {
    fn start(store: AgentStore) -> Self {
        store.begin_external();
        let s = Stream { store };
        s.send(json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "run-1"}));
        s
    }

    fn send(&self, event: Value) {
        self.store
            .push_bytes(format!("data: {event}\n\n").as_bytes());
    }

    async fn settle(&self) {
        self.store.flush();
        for _ in 0..3 {
            leptos::task::tick().await;
        }
    }

    async fn finish(self) {
        self.send(
            json!({"type": "RUN_FINISHED", "threadId": self.store.thread_id(), "runId": "run-1"}),
        );
        self.store.end_external(None);
        self.settle().await;
    }
}

fn card(root: &Element, id: &str) -> Element {
    q(
        root,
        &format!(r#"[data-testid="tool-card"][data-tool-call-id="{id}"]"#),
    )
    .unwrap_or_else(|| panic!("tool card {id} is rendered"))
}

fn node(root: &Element, pointer: &str) -> Element {
    q(
        root,
        &format!(r#"[data-testid="state-path"][data-path="{pointer}"]"#),
    )
    .unwrap_or_else(|| panic!("state node {pointer:?} is rendered"))
}

fn new_store() -> AgentStore {
    AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    })
}

// ---- tool card ---------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn tool_card_previews_streaming_args_then_runs_and_succeeds() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["t1"]);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "t1", "toolCallName": "get_weather"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "t1", "delta": "{\"city\":\"Lis"}));
    s.settle().await;

    let c = card(&root, "t1");
    assert_eq!(
        c.get_attribute("data-tool-name").as_deref(),
        Some("get_weather")
    );
    assert_eq!(
        c.get_attribute("data-status").as_deref(),
        Some("streaming-args")
    );
    let args = q(&c, r#"[data-testid="tool-args"]"#).expect("args preview");
    assert!(
        text_of(&args).contains("city"),
        "args: {:?}",
        text_of(&args)
    );
    assert!(text_of(&args).contains("Lis"), "args: {:?}", text_of(&args));
    assert!(
        q(&c, ".agui-tool-spinner").is_some(),
        "spinner while streaming"
    );
    assert!(q(&c, r#"[data-testid="tool-result"]"#).is_none());

    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "t1", "delta": "bon\",\"days\":3}"}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "t1"}));
    s.settle().await;
    assert_eq!(c.get_attribute("data-status").as_deref(), Some("running"));
    let args = q(&c, r#"[data-testid="tool-args"]"#).expect("args preview");
    assert!(
        text_of(&args).contains("Lisbon"),
        "args: {:?}",
        text_of(&args)
    );
    assert!(text_of(&args).contains('3'), "args: {:?}", text_of(&args));

    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm1", "toolCallId": "t1", "role": "tool",
        "content": "{\"temp\":21,\"sky\":\"clear\"}",
    }));
    s.settle().await;
    assert_eq!(c.get_attribute("data-status").as_deref(), Some("success"));
    let result = q(&c, r#"[data-testid="tool-result"]"#).expect("result shown");
    // Pretty-printed JSON: one field per line.
    assert!(
        text_of(&result).contains("\"sky\": \"clear\""),
        "result: {:?}",
        text_of(&result)
    );
    let duration = q(&c, r#"[data-testid="tool-duration"]"#).expect("duration slot");
    assert!(text_of(&duration).ends_with(" ms") || text_of(&duration).ends_with(" s"));
    assert!(
        q(&c, ".agui-tool-spinner").is_none(),
        "no spinner once done"
    );

    s.finish().await;
    assert_eq!(c.get_attribute("data-status").as_deref(), Some("success"));

    // The header collapses and expands the body.
    let body = q(&c, ".agui-tool-card__body").expect("body");
    let toggle = q(&c, ".agui-tool-card__toggle").expect("toggle");
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    toggle.dyn_ref::<HtmlElement>().expect("html").click();
    leptos::task::tick().await;
    assert!(body.has_attribute("hidden"));
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    toggle.dyn_ref::<HtmlElement>().expect("html").click();
    leptos::task::tick().await;
    assert!(!body.has_attribute("hidden"));
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn tool_card_shows_error_results_in_error_style() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["e1"]);
    let s = Stream::start(store);
    // Tool errors arrive on tool messages (`error`), e.g. in a MESSAGES_SNAPSHOT.
    s.send(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "a1", "role": "assistant", "toolCalls": [
            {"id": "e1", "type": "function", "function": {"name": "book_table", "arguments": "{\"size\":12}"}},
        ]},
        {"id": "tm-e", "role": "tool", "toolCallId": "e1", "content": "", "error": "Restaurant is fully booked"},
    ]}));
    s.settle().await;
    let c = card(&root, "e1");
    assert_eq!(c.get_attribute("data-status").as_deref(), Some("error"));
    let err = q(&c, r#"[data-testid="tool-error"]"#).expect("error text");
    assert!(text_of(&err).contains("fully booked"));
    let result = q(&c, r#"[data-testid="tool-result"]"#).expect("result section");
    assert!(result
        .class_name()
        .contains("agui-tool-card__result--error"));
    drop(handle);
    root.remove();
}

// Regression guard: a 2 MB result must be collapsed to a bounded preview, not put in the DOM.
#[wasm_bindgen_test]
async fn huge_result_renders_collapsed_with_size_and_show_all() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["big"]);
    let line = format!("{}\n", "x".repeat(50));
    let big = line.repeat(41_000);
    assert!(big.len() > 2_000_000);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "big", "toolCallName": "dump_logs"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "big", "delta": "{\"all\":true}"}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "big"}));
    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm-big", "toolCallId": "big", "role": "tool",
        "content": big,
    }));
    s.settle().await;

    let c = card(&root, "big");
    assert_eq!(c.get_attribute("data-status").as_deref(), Some("success"));
    let size = q(&c, r#"[data-testid="tool-result-size"]"#).expect("size shown");
    assert_eq!(text_of(&size), "2.0 MB, 41,000 lines");
    let button = q(&c, r#"[data-testid="tool-result-show-all"]"#).expect("Show all");
    assert_eq!(text_of(&button), "Show all");
    let shown = text_of(&c).len();
    assert!(
        shown < PREVIEW_CHARS + 1_000,
        "card holds {shown} characters of text"
    );

    button
        .dyn_ref::<HtmlElement>()
        .expect("button is an HtmlElement")
        .click();
    leptos::task::tick().await;
    assert!(text_of(&c).len() > big.len(), "Show all shows everything");
    assert_eq!(text_of(&button), "Show less");
    button
        .dyn_ref::<HtmlElement>()
        .expect("button is an HtmlElement")
        .click();
    leptos::task::tick().await;
    assert!(text_of(&c).len() < PREVIEW_CHARS + 1_000);

    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn markup_in_results_and_args_stays_text() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["x1", "x2"]);
    let evil = "<img src=x onerror=alert(1)><script>alert(2)</script><b>bold</b>";
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "x1", "toolCallName": "<img src=y onerror=alert(3)>"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "x1", "delta": json!({"q": evil}).to_string()}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "x1"}));
    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm-x1", "toolCallId": "x1", "role": "tool",
        "content": evil,
    }));
    // Parts: text with markup plus a media part (a chip, never an <img>).
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "x2", "toolCallName": "render"}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "x2"}));
    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm-x2", "toolCallId": "x2", "role": "tool",
        "content": [
            {"type": "text", "text": evil},
            {"type": "image", "source": {"type": "url", "value": "https://example.com/x.png", "mimeType": "image/png"}},
        ],
    }));
    s.settle().await;

    for id in ["x1", "x2"] {
        let c = card(&root, id);
        assert_eq!(c.get_attribute("data-status").as_deref(), Some("success"));
        assert!(q(&c, "img").is_none(), "{id}: no <img> element");
        assert!(q(&c, "script").is_none(), "{id}: no <script> element");
        assert!(q(&c, "b").is_none(), "{id}: no <b> element");
        assert!(
            text_of(&c).contains("<img src=x onerror=alert(1)>"),
            "{id}: shown as text"
        );
    }
    // The URL image waits for a click (a placeholder naming its host).
    let image = q(
        &card(&root, "x2"),
        r#"[data-testid="agent-media"][data-kind="image"]"#,
    )
    .expect("the image part");
    assert!(text_of(&image).contains("example.com"));
    assert!(q(&image, r#"[data-testid="load-image"]"#).is_some());
    drop(handle);
    root.remove();
}

// ---- media from the agent (view::media, ui::attach) ----------------------------------------

/// A 1×1 PNG.
const PNG_B64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// Whether `url` can still be fetched (a revoked `blob:` URL cannot).
async fn fetchable(url: &str) -> bool {
    let window = web_sys::window().expect("window");
    wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .is_ok()
}

#[wasm_bindgen_test]
async fn media_in_a_tool_result_shows_inline_and_its_blob_urls_go_with_the_card() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["m1"]);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "m1", "toolCallName": "make_chart"}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "m1"}));
    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm-m1", "toolCallId": "m1", "role": "tool",
        "content": [
            {"type": "text", "text": "Here it is"},
            {"type": "image", "source": {"type": "data", "value": PNG_B64, "mimeType": "image/png"}},
            {"type": "image", "source": {"type": "data", "value": PNG_B64, "mimeType": "image/png"},
             "metadata": {"description": "Sales by month"}},
            {"type": "image", "source": {"type": "url", "value": "https://img.example/cat.png"}},
            {"type": "image", "source": {"type": "data", "value": "PHN2Zz4=", "mimeType": "image/svg+xml"},
             "metadata": {"filename": "logo.svg"}},
            {"type": "audio", "source": {"type": "data", "value": "AAAA", "mimeType": "audio/mpeg"}},
            {"type": "audio", "source": {"type": "url", "value": "https://cdn.example/a.mp3", "mimeType": "audio/mpeg"}},
            {"type": "video", "source": {"type": "url", "value": "https://cdn.example/v.webm", "mimeType": "video/webm"}},
            {"type": "document", "source": {"type": "data", "value": "JVBERg==", "mimeType": "application/pdf"},
             "metadata": {"filename": "report.pdf"}},
            {"type": "document", "source": {"type": "url", "value": "https://files.example/r.csv", "mimeType": "text/csv"},
             "metadata": {"filename": "r.csv"}},
            {"type": "document", "source": {"type": "url", "value": "javascript:alert(1)"}},
            {"type": "document", "source": {"type": "file", "value": "file-abc", "provider": "openai"}},
        ],
    }));
    s.settle().await;
    let c = card(&root, "m1");
    let media = q_all(&c, r#"[data-testid="agent-media"]"#);
    let kinds: Vec<String> = media
        .iter()
        .map(|m| m.get_attribute("data-kind").unwrap_or_default())
        .collect();
    assert_eq!(
        kinds,
        [
            "image", "image", "image", "file", "audio", "audio", "video", "file", "file", "file",
            "file"
        ]
    );

    // Bytes it carries: an <img> of a blob: URL, with alternative text.
    let img = q(&media[0], "img").expect("a data image is an <img>");
    let src = img.get_attribute("src").unwrap_or_default();
    assert!(src.starts_with("blob:"), "{src}");
    assert_eq!(
        img.get_attribute("alt").as_deref(),
        Some("Image from the agent")
    );
    let described = q(&media[1], "img").expect("img");
    assert_eq!(
        described.get_attribute("alt").as_deref(),
        Some("Sales by month")
    );
    assert!(
        fetchable(&src).await,
        "the blob URL holds the image while shown"
    );

    // A URL image: nothing fetched until the person clicks.
    assert!(q(&media[2], "img").is_none());
    let load = q(&media[2], r#"[data-testid="load-image"]"#).expect("click to load");
    assert!(text_of(&load).contains("img.example"));
    click(&load);
    leptos::task::tick().await;
    let loaded = q(&media[2], "img").expect("loaded on click");
    assert_eq!(
        loaded.get_attribute("src").as_deref(),
        Some("https://img.example/cat.png")
    );
    assert_eq!(
        loaded.get_attribute("referrerpolicy").as_deref(),
        Some("no-referrer")
    );

    // SVG from agent data is never an image: a file to download, as an octet stream.
    assert!(q(&media[3], "img").is_none());
    assert!(text_of(&media[3]).contains("logo.svg"));

    // Players: native controls, never autoplay; a URL is not fetched before play.
    for (m, tag, preload) in [
        (&media[4], "audio", "metadata"),
        (&media[5], "audio", "none"),
        (&media[6], "video", "none"),
    ] {
        let el = q(m, tag).unwrap_or_else(|| panic!("a <{tag}>"));
        assert!(el.has_attribute("controls"), "{tag} has controls");
        assert!(!el.has_attribute("autoplay"), "{tag} never autoplays");
        assert_eq!(el.get_attribute("preload").as_deref(), Some(preload));
    }
    assert!(q(&media[4], "audio")
        .and_then(|a| a.get_attribute("src"))
        .unwrap_or_default()
        .starts_with("blob:"));

    // A file it carries: a download link (blob:) with its name, type and size.
    let file = &media[7];
    assert_eq!(file.tag_name().to_ascii_lowercase(), "a");
    assert_eq!(
        file.get_attribute("download").as_deref(),
        Some("report.pdf")
    );
    let href = file.get_attribute("href").unwrap_or_default();
    assert!(href.starts_with("blob:"), "{href}");
    let text = text_of(file);
    assert!(
        text.contains("report.pdf") && text.contains("application/pdf") && text.contains("4 B"),
        "{text}"
    );
    let label = file.get_attribute("aria-label").unwrap_or_default();
    assert!(
        label.starts_with("Download report.pdf, ") && label.contains("application/pdf"),
        "{label}"
    );
    // A file at a URL: an http(s) link that leaks nothing.
    let link = &media[8];
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://files.example/r.csv")
    );
    assert_eq!(
        link.get_attribute("rel").as_deref(),
        Some("noopener noreferrer")
    );
    assert!(link.get_attribute("download").is_none());
    // Another scheme, a provider's handle: a chip with nothing to open.
    for (m, why) in [(&media[9], "unavailable"), (&media[10], "provider-file")] {
        assert_eq!(m.tag_name().to_ascii_lowercase(), "span");
        assert_eq!(m.get_attribute("data-missing").as_deref(), Some(why));
        assert!(q(m, "a").is_none());
    }
    assert!(q(&c, r#"[href^="javascript"]"#).is_none());

    // The text part stays text, in its place.
    assert!(text_of(&c).contains("Here it is"));

    // The card goes: its blob: URLs are revoked.
    s.finish().await;
    drop(handle);
    root.remove();
    assert!(!fetchable(&src).await, "revoked when the view went");
    assert!(!fetchable(&href).await, "revoked when the view went");
}

#[wasm_bindgen_test]
async fn an_ai_sdk_file_and_a_tool_message_without_a_card_show_their_media() {
    let store = new_store();
    let (container, root, handle) = mount_chat(store);
    settle(&store).await;
    play_external(
        &store,
        [
            json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r1"}),
            // A tool message whose call is not in the thread: a row of its own, media included.
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [
                {"id": "u1", "role": "user", "content": "draw"},
                {"id": "tm9", "role": "tool", "toolCallId": "nowhere", "content": [
                    {"type": "text", "text": "drawn"},
                    {"type": "image", "source": {"type": "data", "value": PNG_B64, "mimeType": "image/png"}},
                ]},
            ]}),
            // What the AI SDK decoder makes of `file` chunks.
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "msg1:file:1", "activityType": "file",
               "content": {"url": format!("data:image/png;base64,{PNG_B64}"), "mediaType": "image/png", "filename": "dot.png"}}),
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "msg1:file:2", "activityType": "file",
               "content": {"url": "https://cdn.example/r.pdf", "mediaType": "application/pdf"}}),
            json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r1"}),
        ],
    );
    settle(&store).await;
    let tool = q(&root, r#"[data-testid="message"][data-role="tool"]"#).expect("the tool row");
    assert!(text_of(&tool).contains("drawn"));
    let img = q(
        &tool,
        r#"[data-testid="agent-media"][data-kind="image"] img"#,
    )
    .expect("its image");
    assert!(img
        .get_attribute("src")
        .unwrap_or_default()
        .starts_with("blob:"));
    let files = q_all(
        &root,
        r#"[data-testid="message"][data-role="activity"] [data-testid="agent-media"]"#,
    );
    assert_eq!(files.len(), 2, "{}", root.inner_html());
    let dot = q(&files[0], "img").expect("the AI SDK image");
    assert_eq!(dot.get_attribute("alt").as_deref(), Some("dot.png"));
    assert!(dot
        .get_attribute("src")
        .unwrap_or_default()
        .starts_with("blob:"));
    assert_eq!(files[1].get_attribute("data-kind").as_deref(), Some("file"));
    assert_eq!(
        files[1].get_attribute("href").as_deref(),
        Some("https://cdn.example/r.pdf")
    );
    assert!(
        q(&root, r#"[data-testid="activity"]"#).is_none(),
        "not a generic card"
    );
    drop(handle);
    container.remove();
}

#[wasm_bindgen_test]
async fn a_registered_renderer_gets_the_live_call_and_others_get_the_generic_card() {
    let store = new_store();
    let plugins = Plugins::new().tool_renderer("getWeather", |call| {
        let id = call.id.clone();
        view! {
            <p data-testid="custom-body">
                {move || {
                    let city = call
                        .args()
                        .and_then(|a| a.get("city").and_then(|c| c.as_str()).map(str::to_owned));
                    format!("weather card for {id}: {}", city.unwrap_or_default())
                }}
            </p>
        }
        .into_any()
    });
    assert!(plugins.renderer("functions.get_weather").is_some());
    assert!(
        plugins.renderer("search_venues").is_none(),
        "registries start empty"
    );
    let (root, handle) = mount(store, Some(plugins), &["w1", "o1", "v1"]);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "w1", "toolCallName": "get_weather"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "w1", "delta": "{\"city\": \"Lis"}));
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "o1", "toolCallName": "other_tool"}));
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "v1", "toolCallName": "search_venues"}));
    s.settle().await;
    let custom = q(&card(&root, "w1"), r#"[data-testid="custom-body"]"#).expect("custom body");
    assert_eq!(
        text_of(&custom),
        "weather card for w1: Lis",
        "partial args, live"
    );
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "w1", "delta": "bon\"}"}));
    s.settle().await;
    assert_eq!(text_of(&custom), "weather card for w1: Lisbon");
    assert!(q(&card(&root, "o1"), r#"[data-testid="custom-body"]"#).is_none());
    assert!(q(&card(&root, "o1"), r#"[data-testid="tool-args"]"#).is_some());
    // Without the demo plug-in, a venue search is a generic card like any other.
    assert!(q(&card(&root, "v1"), r#"[data-testid="venue-results"]"#).is_none());
    assert!(q(&card(&root, "v1"), r#"[data-testid="tool-args"]"#).is_some());
    drop(handle);
    root.remove();
}

// Regression guard: streaming one card's arguments must not rebuild other cards or the
// fields that already arrived.
#[wasm_bindgen_test]
async fn streaming_args_touch_only_their_own_card_and_field() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["f1", "f2"]);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "f1", "toolCallName": "plan"}));
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "f2", "toolCallName": "plan"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "f2", "delta": "{\"x\":1,"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "f1", "delta": "{\"city\":\"Lisbon\",\"note\":\"a"}));
    s.settle().await;
    let city = q(&card(&root, "f1"), r#"[data-key="city"]"#).expect("city row");
    let other = q(&card(&root, "f2"), r#"[data-key="x"]"#).expect("x row");
    for piece in ["b", "c", "d\",\"n\":2}"] {
        s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "f1", "delta": piece}));
        s.settle().await;
    }
    let f1 = card(&root, "f1");
    assert!(text_of(&f1).contains("abcd"), "{:?}", text_of(&f1));
    let city_after = q(&f1, r#"[data-key="city"]"#).expect("city row");
    assert!(
        city.is_same_node(Some(&city_after)),
        "an arrived field keeps its row"
    );
    let other_after = q(&card(&root, "f2"), r#"[data-key="x"]"#).expect("x row");
    assert!(
        other.is_same_node(Some(&other_after)),
        "the other card is untouched"
    );
    drop(handle);
    root.remove();
}

// ---- venue cards -------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn venue_search_previews_query_then_renders_one_card_per_venue() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["v1"]);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "v1", "toolCallName": "search_venues"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "v1", "delta": "{\"city\":\"Lisbon\",\"kind\":\"restaurant\",\"ar"}));
    s.settle().await;
    let c = card(&root, "v1");
    let query = q(&c, r#"[data-testid="venue-query"]"#).expect("query preview");
    assert!(
        text_of(&query).contains("Lisbon"),
        "query: {:?}",
        text_of(&query)
    );
    assert!(
        text_of(&query).starts_with("Searching restaurants"),
        "query: {:?}",
        text_of(&query)
    );

    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "v1", "delta": "ea\":\"Alfama\",\"capacity\":12}"}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "v1"}));
    s.settle().await;
    let query = q(&c, r#"[data-testid="venue-query"]"#).expect("query preview");
    assert_eq!(
        text_of(&query),
        "Searching restaurants in Alfama, Lisbon for 12…"
    );
    assert!(q_all(&c, r#"[data-testid="venue-card"]"#).is_empty());

    let result = json!({"venues": [
        {"name": "Tasca do Miradouro", "kind": "restaurant", "area": "Alfama", "rating": 4.7, "price": "€€", "capacity": 14},
        {"name": "Pátio da Graça", "kind": "restaurant", "area": "Graça", "rating": 4.6, "price": "€€€"},
        {"name": "Casa das Sardinhas"},
    ]});
    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm-v1", "toolCallId": "v1", "role": "tool",
        "content": result.to_string(),
    }));
    s.settle().await;
    let cards = q_all(&c, r#"[data-testid="venue-card"]"#);
    assert_eq!(cards.len(), 3);
    let names: Vec<String> = q_all(&c, r#"[data-testid="venue-name"]"#)
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(
        names,
        ["Tasca do Miradouro", "Pátio da Graça", "Casa das Sardinhas"]
    );
    let first = text_of(&cards[0]);
    assert!(first.contains("restaurant · Alfama"), "{first:?}");
    assert!(first.contains("★ 4.7"), "{first:?}");
    assert!(first.contains("up to 14"), "{first:?}");
    assert!(
        !text_of(&cards[1]).contains("up to"),
        "no capacity, no capacity line"
    );
    let query = q(&c, r#"[data-testid="venue-query"]"#).expect("query line");
    assert_eq!(
        text_of(&query),
        "Found 3 restaurants in Alfama, Lisbon for 12"
    );
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn venue_search_with_a_non_json_result_falls_back_to_the_generic_view() {
    let store = new_store();
    let (root, handle) = mount(store, None, &["v2"]);
    let s = Stream::start(store);
    s.send(json!({"type": "TOOL_CALL_START", "toolCallId": "v2", "toolCallName": "find_venues"}));
    s.send(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "v2", "delta": "{\"city\":\"Porto\"}"}));
    s.send(json!({"type": "TOOL_CALL_END", "toolCallId": "v2"}));
    s.send(json!({
        "type": "TOOL_CALL_RESULT", "messageId": "tm-v2", "toolCallId": "v2", "role": "tool",
        "content": "The venue service is down, try later.",
    }));
    s.settle().await;
    let c = card(&root, "v2");
    assert!(q_all(&c, r#"[data-testid="venue-card"]"#).is_empty());
    let result = q(&c, r#"[data-testid="tool-result"]"#).expect("generic result");
    assert!(text_of(&result).contains("service is down"));
    drop(handle);
    root.remove();
}

// ---- state panel -------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn state_panel_updates_one_node_on_a_delta_and_keeps_the_others() {
    let store = new_store();
    let (root, handle) = mount(store, None, &[]);
    let panel = q(&root, r#"[data-testid="state-panel"]"#).expect("state panel");
    assert!(text_of(&panel).contains("No shared state yet"));

    let s = Stream::start(store);
    s.send(json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": 1, "b": {"c": 2}}}));
    s.settle().await;
    for p in ["", "/a", "/b", "/b/c"] {
        node(&root, p);
    }
    assert!(text_of(&node(&root, "/b/c")).contains('2'));
    let a_before = node(&root, "/a");
    let c_before = node(&root, "/b/c");

    s.send(
        json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/b/c", "value": 3}]}),
    );
    s.settle().await;
    let c_after = node(&root, "/b/c");
    assert!(text_of(&c_after).contains('3'), "{:?}", text_of(&c_after));
    assert_eq!(
        c_after.get_attribute("data-changed").as_deref(),
        Some("true")
    );
    assert!(
        c_before.is_same_node(Some(&c_after)),
        "/b/c updated in place"
    );
    let a_after = node(&root, "/a");
    assert_eq!(
        a_after.get_attribute("data-changed").as_deref(),
        Some("false")
    );
    assert_eq!(
        node(&root, "/b").get_attribute("data-changed").as_deref(),
        Some("false")
    );
    assert!(
        a_before.is_same_node(Some(&a_after)),
        "/a kept its DOM node"
    );

    // A patch that cannot apply leaves the state (and the tree) as it was, with a notice.
    assert!(q(&root, r#"[data-testid="state-warning"]"#).is_none());
    s.send(json!({"type": "STATE_DELTA", "delta": [
        {"op": "replace", "path": "/a", "value": 100},
        {"op": "replace", "path": "/missing/x", "value": 1},
    ]}));
    s.settle().await;
    assert_eq!(store.with_state("/a", |v| v.cloned()), Some(json!(1)));
    assert!(text_of(&node(&root, "/a")).contains('1'));
    assert!(!text_of(&node(&root, "/a")).contains("100"));
    let notice = q(&root, r#"[data-testid="state-warning"]"#).expect("inline notice");
    assert!(
        text_of(&notice).contains("could not be applied"),
        "{:?}",
        text_of(&notice)
    );
    assert!(a_before.is_same_node(Some(&node(&root, "/a"))));

    s.finish().await;
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn state_panel_escapes_keys_collapses_and_rebuilds_on_snapshot() {
    let store = new_store();
    let (root, handle) = mount(store, None, &[]);
    let s = Stream::start(store);
    s.send(json!({"type": "STATE_SNAPSHOT", "snapshot": {
        "a/b": {"~x": true},
        "list": [10, 20],
        "long": "y".repeat(500),
    }}));
    s.settle().await;
    node(&root, "/a~1b");
    node(&root, "/a~1b/~0x");
    assert_eq!(
        node(&root, "/list").get_attribute("data-kind").as_deref(),
        Some("array")
    );
    assert!(text_of(&node(&root, "/list")).contains("[2 items]"));
    let long = node(&root, "/long");
    assert!(text_of(&long).len() < 300, "long strings are cut");

    // Collapse /list: its children leave the DOM.
    let toggle = q(&node(&root, "/list"), ".agui-state-node__toggle").expect("toggle");
    toggle.dyn_ref::<HtmlElement>().expect("html").click();
    leptos::task::tick().await;
    assert!(q(&root, r#"[data-path="/list/0"]"#).is_none());
    toggle.dyn_ref::<HtmlElement>().expect("html").click();
    leptos::task::tick().await;
    assert!(q(&root, r#"[data-path="/list/0"]"#).is_some());

    // An insert at the front shifts the later elements: they re-read.
    s.send(json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/list/0", "value": 5}]}));
    s.settle().await;
    let values: Vec<String> = ["/list/0", "/list/1", "/list/2"]
        .iter()
        .map(|p| text_of(&q(&node(&root, p), ".agui-state-node__value").expect("value")))
        .collect();
    assert_eq!(values, ["5", "10", "20"]);

    s.send(json!({"type": "STATE_SNAPSHOT", "snapshot": {"z": null}}));
    s.settle().await;
    assert!(q(&root, r#"[data-path="/list"]"#).is_none());
    node(&root, "/z");

    s.send(json!({"type": "STATE_SNAPSHOT", "snapshot": {}}));
    s.settle().await;
    assert!(q(&root, r#"[data-testid="state-empty"]"#).is_some());
    drop(handle);
    root.remove();
}

// ---- trip panel --------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn trip_panel_lists_venues_as_deltas_add_them() {
    let store = new_store();
    let (root, handle) = mount(store, None, &[]);
    assert!(
        q(&root, r#"[data-testid="trip-panel"]"#).is_none(),
        "hidden without state"
    );

    let s = Stream::start(store);
    s.send(json!({"type": "STATE_SNAPSHOT", "snapshot": {
        "destination": "Lisbon",
        "travellers": 12,
        "budget": {"amount": 6000, "currency": "EUR"},
        "dates": "May 14–16, 2026",
        "venues": [],
        "steps": [
            {"title": "Find venues", "status": "in_progress"},
            {"title": "Shortlist", "status": "pending"},
        ],
    }}));
    s.settle().await;
    let panel = q(&root, r#"[data-testid="trip-panel"]"#).expect("trip panel");
    assert_eq!(
        text_of(&q(&panel, r#"[data-testid="trip-destination"]"#).expect("title")),
        "Lisbon"
    );
    assert!(text_of(&panel).contains("12 travellers"));
    assert!(text_of(&panel).contains("€6,000"), "{:?}", text_of(&panel));
    assert!(text_of(&panel).contains("May 14–16, 2026"));
    assert!(q_all(&panel, r#"[data-testid="trip-venue"]"#).is_empty());
    let steps = q_all(&panel, r#"[data-testid="trip-step"]"#);
    assert_eq!(steps.len(), 2);
    assert_eq!(
        steps[0].get_attribute("data-status").as_deref(),
        Some("active")
    );

    let venues = [
        ("Tasca do Miradouro", "Alfama"),
        ("Pátio da Graça", "Graça"),
        ("Casa das Sardinhas", "Alfama"),
    ];
    let mut first: Option<Element> = None;
    for (i, (name, area)) in venues.iter().enumerate() {
        let mut ops = vec![
            json!({"op": "add", "path": "/venues/-", "value": {"name": name, "area": area, "price": "€€"}}),
        ];
        if i == 0 {
            ops.push(json!({"op": "replace", "path": "/steps/0/status", "value": "done"}));
        }
        s.send(json!({"type": "STATE_DELTA", "delta": ops}));
        s.settle().await;
        let rows = q_all(&panel, r#"[data-testid="trip-venue"]"#);
        assert_eq!(rows.len(), i + 1);
        assert!(text_of(&rows[i]).contains(name));
        assert!(text_of(&rows[i]).contains(area));
        match &first {
            None => first = Some(rows[0].clone()),
            Some(f) => assert!(
                f.is_same_node(Some(&rows[0])),
                "earlier rows keep their DOM"
            ),
        }
        // The state panel marks the appended element as changed.
        let appended = node(&root, &format!("/venues/{i}"));
        assert_eq!(
            appended.get_attribute("data-changed").as_deref(),
            Some("true")
        );
    }
    let steps = q_all(&panel, r#"[data-testid="trip-step"]"#);
    assert_eq!(
        steps[0].get_attribute("data-status").as_deref(),
        Some("done")
    );
    assert!(text_of(&panel).contains("1 of 2 done"));

    s.send(json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/venues/0"}]}));
    s.settle().await;
    let names: Vec<String> = q_all(&panel, r#"[data-testid="trip-venue"]"#)
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names[0].contains("Pátio da Graça"), "{names:?}");
    assert!(names[1].contains("Casa das Sardinhas"), "{names:?}");

    s.send(json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/destination"}]}));
    s.settle().await;
    assert!(
        q(&root, r#"[data-testid="trip-panel"]"#).is_none(),
        "hidden without destination"
    );
    s.finish().await;
    drop(handle);
    root.remove();
}

// ---- the demo planner, end to end -----------------------------------------------------------

#[wasm_bindgen_test]
async fn demo_planner_fills_venue_cards_state_and_trip_panel() {
    let store = new_store();
    let ids = RwSignal::new(Vec::<String>::new());
    let (root, handle) = mount_dynamic(store, None, ids);
    let thread_id = store.thread_id();
    let state = Value::Null;
    let input = json!({});
    let chunks = agui_leptos::demo::respond(&agui_leptos::demo::DemoRequest {
        thread_id: &thread_id,
        run_id: "run-demo",
        last_user_text: "Plan our team offsite in Lisbon. 12 people, 6000 EUR.",
        state: &state,
        input: &input,
    });
    store.begin_external();
    let mut saw_query = false;
    for chunk in &chunks {
        store.push_bytes(&chunk.bytes);
        store.flush();
        let calls: Vec<String> = store.with_thread(|t| {
            t.messages
                .iter()
                .flat_map(|m| m.tool_calls.iter().flatten())
                .map(|c| c.id.clone())
                .collect()
        });
        if calls != ids.get_untracked() {
            ids.set(calls);
        }
        leptos::task::tick().await;
        if let Some(q) = q(&root, r#"[data-testid="venue-query"]"#) {
            saw_query |= text_of(&q).starts_with("Searching") && text_of(&q).contains("Lisbon");
        }
    }
    store.end_external(None);
    store.flush();
    leptos::task::tick().await;
    leptos::task::tick().await;

    assert!(saw_query, "the query was previewed while the search ran");
    let venue_card = q(&root, r#"[data-tool-name="search_venues"]"#).expect("venue tool card");
    assert_eq!(
        venue_card.get_attribute("data-status").as_deref(),
        Some("success")
    );
    assert_eq!(q_all(&venue_card, r#"[data-testid="venue-card"]"#).len(), 4);
    let panel = q(&root, r#"[data-testid="trip-panel"]"#).expect("trip panel");
    assert_eq!(q_all(&panel, r#"[data-testid="trip-venue"]"#).len(), 3);
    assert!(text_of(&panel).contains("Lisbon"));
    node(&root, "/venues/2/name");
    drop(handle);
    root.remove();
}

// ---- A2UI surfaces (issue 14) -----------------------------------------------------------------

#[cfg(feature = "a2ui")]
fn a2ui_snapshot(store: &AgentStore) -> Vec<Value> {
    let ops = json!([{ "version": "v1.0", "createSurface": {
        "surfaceId": "booking", "catalogId": "basic",
        "components": [
            {"id": "root", "component": "Column", "children": ["title", "name", "pic", "weird", "book"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": {"call": "formatString", "args": {"value": "Table for ${/name}"}}},
            {"id": "name", "component": "TextField", "label": "Your name", "value": {"path": "/name"},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "A name, please."}]},
            {"id": "pic", "component": "Image", "url": "https://img.example/venue.png", "description": "The venue"},
            {"id": "weird", "component": "Hologram"},
            {"id": "book", "component": "Button", "child": "book-label", "variant": "primary",
             "action": {"event": {"name": "book", "context": {"who": {"path": "/name"}}}},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "A name, please."}]},
            {"id": "book-label", "component": "Text", "text": "Book <b>now</b>"}
        ],
        "dataModel": {"name": ""}
    }}]);
    vec![
        json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r-a2ui"}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "surface-1", "activityType": "a2ui-surface",
               "content": {"a2ui_operations": ops}, "replace": true}),
        json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r-a2ui"}),
    ]
}

#[cfg(feature = "a2ui")]
#[wasm_bindgen_test]
async fn an_a2ui_surface_renders_binds_and_sends_its_action_to_the_agent() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    play_external(&store, a2ui_snapshot(&store));
    settle(&store).await;
    let surface = testid(&root, "a2ui-surface").unwrap_or_else(|| {
        panic!(
            "the surface: a2ui={} activity={} {}",
            testid(&root, "a2ui").is_some(),
            testid(&root, "activity").is_some(),
            text_of(&root)
        )
    });
    assert_eq!(
        surface.get_attribute("data-surface-id").as_deref(),
        Some("booking")
    );
    assert!(testid(&root, "activity").is_none(), "not the generic card");
    assert_eq!(
        text_of(&q(&surface, "h3").expect("a heading")),
        "Table for "
    );
    let button = testid(&surface, "a2ui-button").expect("the button");
    assert!(
        text_of(&button).contains("Book <b>now</b>"),
        "agent text is text"
    );
    assert!(q(&surface, "b, script").is_none());
    assert!(
        button.has_attribute("disabled"),
        "the check fails: disabled"
    );
    assert!(text_of(&surface).contains("A name, please."));
    assert!(q(&surface, "img").is_none(), "the image waits for a click");
    assert!(q(&surface, r#"[data-testid="load-image"]"#).is_some());
    let unsupported = testid(&surface, "a2ui-unsupported").expect("a placeholder");
    assert!(text_of(&unsupported).contains("Hologram"));

    // Typing binds the data model; the input under the cursor is never replaced.
    let input: web_sys::HtmlInputElement =
        testid(&surface, "a2ui-input").unwrap().dyn_into().unwrap();
    input.set_value("Ada");
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle(&store).await;
    let same: web_sys::HtmlInputElement =
        testid(&surface, "a2ui-input").unwrap().dyn_into().unwrap();
    assert!(input.is_same_node(Some(&same)), "the input was kept");
    assert_eq!(
        text_of(&q(&surface, "h3").unwrap()),
        "Table for Ada",
        "bound text follows"
    );
    let button = testid(&surface, "a2ui-button").unwrap();
    assert!(!button.has_attribute("disabled"), "the check passes");
    assert!(!text_of(&surface).contains("A name, please."));

    // The action goes back to the agent as the next run's forwardedProps.
    click(&button);
    settle(&store).await;
    let body = store.last_request().expect("a run");
    let action = &body["forwardedProps"]["a2uiAction"]["userAction"];
    assert_eq!(action["name"], "book");
    assert_eq!(action["surfaceId"], "booking");
    assert_eq!(action["sourceComponentId"], "book");
    assert_eq!(action["context"], json!({"who": "Ada"}));
    assert!(action["timestamp"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    wait_idle(&store).await;
    drop(handle);
    container.remove();
}

#[cfg(feature = "a2ui")]
#[wasm_bindgen_test]
async fn a2ui_invalid_components_show_why_and_reports_and_agent_calls_go_with_the_click() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    let ops = json!([{ "version": "v1.0", "createSurface": {
        "surfaceId": "check", "catalogId": "basic",
        "components": [
            {"id": "root", "component": "Column", "children": ["ok", "bad", "verify"]},
            {"id": "ok", "component": "Text", "text": "Still here"},
            {"id": "bad", "component": "Text", "text": 5},
            {"id": "verify", "component": "Button", "child": "verify-label",
             "action": {"functionCall": {"call": "verifyProvider", "args": {"id": {"path": "/id"}}}}},
            {"id": "verify-label", "component": "Text", "text": "Verify"}
        ],
        "dataModel": {"id": "PRV-102"}
    }}]);
    play_external(
        &store,
        vec![
            json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r-1"}),
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "surface-1", "activityType": "a2ui-surface",
                   "content": {"a2ui_operations": ops}, "replace": true}),
            json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r-1"}),
        ],
    );
    settle(&store).await;
    let surface = testid(&root, "a2ui-surface").expect("the surface");
    let invalid = testid(&surface, "a2ui-unsupported").expect("a placeholder");
    assert!(
        text_of(&invalid).contains("Invalid component Text: text must be a string"),
        "{}",
        text_of(&invalid)
    );
    assert!(text_of(&surface).contains("Still here"), "the rest renders");
    assert!(store.last_request().is_none(), "a failure starts no run");

    click(&testid(&surface, "a2ui-button").expect("the button"));
    settle(&store).await;
    let body = store.last_request().expect("the click's run");
    let msgs = body["forwardedProps"]["a2uiMessages"]
        .as_array()
        .expect("a2uiMessages")
        .clone();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert_eq!(msgs[0]["error"]["code"], "VALIDATION_FAILED");
    assert_eq!(msgs[0]["error"]["path"], "/components/2/text");
    let call = &msgs[1]["callAgentFunction"];
    assert_eq!(call["surfaceId"], "check");
    assert_eq!(
        call["callFunction"],
        json!({"call": "verifyProvider", "catalogId": "basic", "args": {"id": "PRV-102"}})
    );
    let id = call["functionCallId"].as_str().expect("an id").to_owned();
    assert!(body["forwardedProps"].get("a2uiAction").is_none());
    wait_idle(&store).await;

    // The agent answers in a later activity: an answer to another id means nothing, the
    // answer to this call's error is shown (as text).
    let answer = |n: &str, fid: &str| {
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": n, "activityType": "a2ui-surface", "replace": true,
               "content": {"a2ui_operations": [{"version": "v1.0", "agentFunctionResponse": {
                   "functionCallId": fid, "error": {"code": "PROVIDER_NOT_FOUND", "message": "<i>No</i> such provider."}}}]}})
    };
    play_external(
        &store,
        vec![
            json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r-3"}),
            answer("answer-1", "someone-else"),
            json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r-3"}),
        ],
    );
    settle(&store).await;
    assert!(testid(&root, "a2ui-call-error").is_none(), "not our call");
    play_external(
        &store,
        vec![
            json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r-4"}),
            answer("answer-2", &id),
            json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r-4"}),
        ],
    );
    settle(&store).await;
    let shown = testid(&root, "a2ui-call-error").expect("the failure is shown");
    assert!(text_of(&shown).contains("PROVIDER_NOT_FOUND"));
    assert!(text_of(&shown).contains("<i>No</i> such provider."));
    assert!(q(&shown, "i").is_none(), "agent text is text");
    drop(handle);
    container.remove();
}

// ---- MCP Apps (issue 14) ------------------------------------------------------------------------

/// A View that does the handshake, then reports through its size whether it could read the
/// host page (123 px: it could not), and asks for a `javascript:` link (refused) and an https one.
#[cfg(feature = "mcp-apps")]
const MCP_VIEW: &str = r#"<html><head><title>Map</title></head><body><p>A small map</p><script>
let leaked = false;
try { leaked = !!parent.document.title || true; } catch (e) { leaked = false; }
try { leaked = leaked || !!localStorage.length || true; } catch (e) {}
const post = (m) => window.parent.postMessage(Object.assign({jsonrpc: '2.0'}, m), '*');
window.addEventListener('message', (e) => {
  const m = e.data || {};
  if (m.id === 1 && m.result) {
    post({method: 'ui/notifications/initialized'});
    post({method: 'ui/notifications/size-changed', params: {height: leaked ? 321 : 123}});
    post({id: 2, method: 'ui/open-link', params: {url: 'javascript:alert(1)'}});
    post({id: 3, method: 'ui/open-link', params: {url: 'https://maps.example/lisbon'}});
  }
});
post({id: 1, method: 'ui/initialize', params: {protocolVersion: '2026-01-26', appInfo: {name: 'map', version: '1'}, appCapabilities: {}}});
</script></body></html>"#;

#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn an_mcp_app_runs_in_an_opaque_sandbox_with_the_csp_first_and_a_checked_bridge() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    play_external(
        &store,
        [
            json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r-mcp"}),
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "app-1", "activityType": "mcp-apps",
               "content": {"resource": {"uri": "ui://maps/lisbon", "mimeType": "text/html;profile=mcp-app", "text": MCP_VIEW},
                           "toolInput": {"city": "Lisbon"}}}),
            json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r-mcp"}),
        ],
    );
    settle(&store).await;
    let frame = testid(&root, "mcp-app-frame").expect("the frame");
    assert_eq!(
        frame.get_attribute("sandbox").as_deref(),
        Some("allow-scripts"),
        "no allow-same-origin"
    );
    assert!(frame.get_attribute("allow").is_none(), "no permissions");
    let doc = frame.get_attribute("srcdoc").unwrap_or_default();
    assert!(
        doc.starts_with("<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'"),
        "the CSP comes first: {}",
        &doc[..doc.len().min(120)]
    );
    assert!(doc.contains("connect-src 'none'"));
    // The handshake runs; the View could not read the host (it sized itself 123 px).
    wait_until(&store, "the app to run and size itself", || {
        testid(&root, "mcp-app")
            .and_then(|a| a.get_attribute("data-status"))
            .as_deref()
            == Some("running")
            && testid(&root, "mcp-app-frame")
                .map(|f| {
                    f.unchecked_into::<HtmlElement>()
                        .style()
                        .get_property_value("height")
                        .unwrap_or_default()
                })
                .as_deref()
                == Some("123px")
    })
    .await;
    // Only the https link is offered, as a link to click.
    wait_until(&store, "the link", || {
        testid(&root, "mcp-app-link").is_some()
    })
    .await;
    let link = testid(&root, "mcp-app-link").unwrap();
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://maps.example/lisbon")
    );
    assert_eq!(
        link.get_attribute("rel").as_deref(),
        Some("noopener noreferrer")
    );
    // A message from another window (the page itself) never reaches the bridge.
    let win = web_sys::window().unwrap();
    win.post_message(
        &js_sys::JSON::parse(
            r#"{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"height":999}}"#,
        )
        .unwrap(),
        "*",
    )
    .unwrap();
    agui_leptos::transport::sleep(50).await;
    settle(&store).await;
    let h = testid(&root, "mcp-app-frame")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .style()
        .get_property_value("height")
        .unwrap();
    assert_eq!(h, "123px", "the page's own message was ignored");
    drop(handle);
    container.remove();
}

#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn a_flooding_mcp_app_is_stopped_and_its_frame_removed() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    let flood = r#"<script>for (let i = 0; i < 500; i++) window.parent.postMessage({jsonrpc: '2.0', id: i, method: 'nope'}, '*');</script>"#;
    show_app(&store, "app-2", "ui://bad/flood", flood, None);
    wait_until(&store, "the flooding app to be stopped", || {
        testid(&root, "mcp-app-stopped").is_some()
    })
    .await;
    assert!(
        testid(&root, "mcp-app-frame").is_none(),
        "its frame is gone"
    );
    drop(handle);
    container.remove();
}

/// One finished run that shows an MCP App: its `html` as the `uri` resource of the `mcp-apps`
/// activity `id`; the run ends with `outcome` when given.
#[cfg(feature = "mcp-apps")]
fn show_app(store: &AgentStore, id: &str, uri: &str, html: &str, outcome: Option<Value>) {
    let (thread, run) = (store.thread_id(), format!("r-{id}"));
    let mut finished = json!({"type": "RUN_FINISHED", "threadId": thread, "runId": run});
    if let Some(outcome) = outcome {
        finished["outcome"] = outcome;
    }
    play_external(
        store,
        [
            json!({"type": "RUN_STARTED", "threadId": thread, "runId": run}),
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "mcp-apps",
               "content": {"resource": {"uri": uri, "text": html}}}),
            finished,
        ],
    );
}

/// A chat whose agent records every request it gets (and answers each with an empty run).
#[cfg(feature = "mcp-apps")]
fn recorded_chat() -> (std::sync::Arc<Recorder>, AgentStore) {
    let agent = std::sync::Arc::new(Recorder(std::sync::Mutex::new(Vec::new())));
    let store = AgentStore::new(AgentConfig {
        local_agent: Some(agui_leptos::session::LocalAgentRef(agent.clone())),
        ..AgentConfig::default()
    });
    (agent, store)
}

/// The page's `mcp-apps-proxy`: the frame is the proxy (its URL in `src`, the spec's proxy
/// sandbox, no `srcdoc`), and a message from another window — even one that says it is the
/// proxy — reaches nothing (it would stop the View: wrong origin).
#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn with_a_sandbox_proxy_the_frame_is_the_proxy_and_only_its_window_is_heard() {
    let proxy = "https://sandbox.example/mcp/index.html";
    let store = AgentStore::new(AgentConfig {
        mcp_apps_proxy: Some(proxy.into()),
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    show_app(&store, "app-p", "ui://maps/lisbon", MCP_VIEW, None);
    settle(&store).await;
    let frame = testid(&root, "mcp-app-frame").expect("the proxy's frame");
    assert_eq!(frame.get_attribute("src").as_deref(), Some(proxy));
    assert_eq!(
        frame.get_attribute("sandbox").as_deref(),
        Some("allow-scripts allow-same-origin")
    );
    assert!(
        frame.get_attribute("srcdoc").is_none(),
        "the HTML goes in the handshake"
    );
    assert!(frame.get_attribute("allow").is_none(), "no permissions");
    let win = web_sys::window().unwrap();
    for msg in [
        r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}"#,
    ] {
        win.post_message(&js_sys::JSON::parse(msg).unwrap(), "*")
            .unwrap();
    }
    agui_leptos::transport::sleep(50).await;
    settle(&store).await;
    assert_eq!(
        testid(&root, "mcp-app")
            .and_then(|a| a.get_attribute("data-status"))
            .as_deref(),
        Some("loading"),
        "the page's own messages were ignored (not stopped, not running)"
    );
    assert!(testid(&root, "mcp-app-frame").is_some());
    drop(handle);
    container.remove();
}

/// A proxy URL that is not https (or on the page's own origin) shows a notice and no frame
/// at all: not the opaque frame the page did not ask for.
#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn a_refused_sandbox_proxy_shows_a_notice_and_no_frame() {
    let page = web_sys::window().unwrap().location().origin().unwrap();
    for proxy in [
        "http://sandbox.example/",
        "javascript:alert(1)",
        page.as_str(),
    ] {
        let store = AgentStore::new(AgentConfig {
            mcp_apps_proxy: Some(proxy.into()),
            ..AgentConfig::default()
        });
        let (container, root, handle) = mount_chat(store);
        show_app(&store, "app-r", "ui://maps/lisbon", MCP_VIEW, None);
        settle(&store).await;
        let card = testid(&root, "mcp-app").expect("the card");
        assert_eq!(
            card.get_attribute("data-status").as_deref(),
            Some("unusable"),
            "{proxy}"
        );
        assert!(
            card.text_content()
                .unwrap_or_default()
                .contains("sandbox proxy is refused"),
            "{proxy}: {:?}",
            card.text_content()
        );
        assert!(
            root.query_selector("iframe").unwrap().is_none(),
            "{proxy}: no frame"
        );
        drop(handle);
        container.remove();
    }
}

/// A View that tells the model what it shows, then suggests a message with markup in it,
/// and sizes itself by the answer (88 px: sent; 44 px: dismissed).
#[cfg(feature = "mcp-apps")]
const MESSAGE_VIEW: &str = r#"<script>
const post = (m) => window.parent.postMessage(Object.assign({jsonrpc: '2.0'}, m), '*');
window.addEventListener('message', (e) => {
  const m = e.data || {};
  if (m.id === 1 && m.result) {
    post({method: 'ui/notifications/initialized'});
    post({id: 2, method: 'ui/update-model-context', params: {structuredContent: {venue: 'alfama-1'}}});
  }
  if (m.id === 2 && m.result) {
    post({id: 3, method: 'ui/message', params: {role: 'user', content: [{type: 'text', text: 'Book <b>Alfama</b> for two'}]}});
  }
  if (m.id === 3) post({method: 'ui/notifications/size-changed', params: {height: m.result ? 88 : 44}});
});
post({id: 1, method: 'ui/initialize', params: {protocolVersion: '2026-01-26', appInfo: {name: 'm', version: '1'}, appCapabilities: {}}});
</script>"#;

/// Records every run's input; answers with an empty run.
#[cfg(feature = "mcp-apps")]
struct Recorder(std::sync::Mutex<Vec<Value>>);

#[cfg(feature = "mcp-apps")]
impl agui_leptos::session::LocalAgent for Recorder {
    fn respond(&self, input: &Value) -> Vec<agui_leptos::session::TimedChunk> {
        self.0.lock().unwrap().push(input.clone());
        let (t, r) = (input["threadId"].clone(), input["runId"].clone());
        [
            json!({"type": "RUN_STARTED", "threadId": t, "runId": r}),
            json!({"type": "RUN_FINISHED", "threadId": t, "runId": r}),
        ]
        .into_iter()
        .map(|e| agui_leptos::session::TimedChunk {
            delay_ms: 0,
            bytes: sse(e),
        })
        .collect()
    }
}

#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn an_apps_message_waits_for_a_click_and_its_model_context_goes_with_the_next_run() {
    let (agent, store) = recorded_chat();
    let (container, root, handle) = mount_chat(store);
    show_app(&store, "app-m", "ui://venues/pick", MESSAGE_VIEW, None);
    wait_until(&store, "the app's suggested message", || {
        testid(&root, "mcp-app-message").is_some()
    })
    .await;
    let text = testid(&root, "mcp-app-message-text").unwrap();
    assert_eq!(
        text.text_content().as_deref(),
        Some("Book <b>Alfama</b> for two")
    );
    assert!(
        text.query_selector("b").unwrap().is_none(),
        "text, not markup"
    );
    agui_leptos::transport::sleep(100).await;
    settle(&store).await;
    assert!(
        agent.0.lock().unwrap().is_empty(),
        "nothing is sent before the click"
    );
    testid(&root, "mcp-app-message-send")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    wait_until(&store, "the View to hear it was sent", || {
        testid(&root, "mcp-app-frame")
            .map(|f| {
                f.unchecked_into::<HtmlElement>()
                    .style()
                    .get_property_value("height")
                    .unwrap_or_default()
            })
            .as_deref()
            == Some("88px")
    })
    .await;
    wait_idle(&store).await;
    assert!(
        testid(&root, "mcp-app-message").is_none(),
        "the suggestion is gone"
    );
    let asked = agent.0.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let last = asked[0]["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["role"], "user");
    assert!(
        last.to_string().contains("Book <b>Alfama</b> for two"),
        "{last}"
    );
    assert_eq!(
        asked[0]["context"],
        json!([{"description": "MCP App ui://venues/pick",
                "value": r#"{"structuredContent":{"venue":"alfama-1"}}"#}])
    );
    drop(handle);
    container.remove();
}

/// The frame's height as the chat set it (`""` before the View sized itself).
#[cfg(feature = "mcp-apps")]
fn mcp_frame_height(root: &Element) -> String {
    testid(root, "mcp-app-frame")
        .map(|f| {
            f.unchecked_into::<HtmlElement>()
                .style()
                .get_property_value("height")
                .unwrap_or_default()
        })
        .unwrap_or_default()
}

/// Send while an interrupt is open: nothing can be sent, so nothing is and the View hears
/// an error (it sizes itself 44 px), not `{}`.
#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn an_apps_message_that_cannot_be_sent_is_answered_with_an_error() {
    let (agent, store) = recorded_chat();
    let (container, root, handle) = mount_chat(store);
    show_app(
        &store,
        "app-i",
        "ui://venues/pick",
        MESSAGE_VIEW,
        Some(json!({"type": "interrupt", "interrupts": [
            {"id": "int-1", "reason": "input_required", "message": "How many people?"}]})),
    );
    wait_until(&store, "the open interrupt and the app's message", || {
        testid(&root, "interrupt").is_some() && testid(&root, "mcp-app-message").is_some()
    })
    .await;
    testid(&root, "mcp-app-message-send")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    wait_until(&store, "the View to hear it was not sent", || {
        mcp_frame_height(&root) == "44px"
    })
    .await;
    settle(&store).await;
    assert!(
        testid(&root, "mcp-app-message").is_none(),
        "the suggestion is gone"
    );
    assert!(agent.0.lock().unwrap().is_empty(), "nothing was sent");
    assert!(
        q_all(&root, "[data-testid=message][data-role=user]").is_empty(),
        "no user message in the transcript"
    );
    assert!(
        testid(&root, "interrupt").is_some(),
        "the interrupt still waits"
    );
    drop(handle);
    container.remove();
}

/// A View that asks for a link, sizes itself by the answer (66 px: opened), asks for another
/// and sizes itself by that answer (33 px: dismissed).
#[cfg(feature = "mcp-apps")]
const LINK_VIEW: &str = r#"<script>
const post = (m) => window.parent.postMessage(Object.assign({jsonrpc: '2.0'}, m), '*');
const size = (h) => post({method: 'ui/notifications/size-changed', params: {height: h}});
window.addEventListener('message', (e) => {
  const m = e.data || {};
  if (m.id === 1 && m.result) {
    post({method: 'ui/notifications/initialized'});
    post({id: 2, method: 'ui/open-link', params: {url: 'https://maps.example/first'}});
  }
  if (m.id === 2) {
    size(m.result ? 66 : 11);
    post({id: 3, method: 'ui/open-link', params: {url: 'https://maps.example/second'}});
  }
  if (m.id === 3) size(m.error ? 33 : 22);
});
post({id: 1, method: 'ui/initialize', params: {protocolVersion: '2026-01-26', appInfo: {name: 'l', version: '1'}, appCapabilities: {}}});
</script>"#;

/// `ui/open-link` is answered when the person clicks the link (`{}`), or dismisses it (an
/// error), never before.
#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn an_apps_link_is_answered_when_clicked_or_dismissed() {
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat(store);
    // The test page does not follow the link (the chat's own handler still runs).
    let stay =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
            e.prevent_default()
        });
    root.add_event_listener_with_callback("click", stay.as_ref().unchecked_ref())
        .unwrap();
    show_app(&store, "app-l", "ui://maps/links", LINK_VIEW, None);
    wait_until(&store, "the link", || {
        testid(&root, "mcp-app-link").is_some()
    })
    .await;
    agui_leptos::transport::sleep(100).await;
    settle(&store).await;
    assert_eq!(mcp_frame_height(&root), "", "no answer before the click");
    let link = testid(&root, "mcp-app-link").unwrap();
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://maps.example/first")
    );
    link.unchecked_into::<HtmlElement>().click();
    wait_until(&store, "the View to hear the link was opened", || {
        mcp_frame_height(&root) == "66px"
    })
    .await;
    wait_until(&store, "the second link", || {
        testid(&root, "mcp-app-link")
            .and_then(|l| l.get_attribute("href"))
            .as_deref()
            == Some("https://maps.example/second")
    })
    .await;
    testid(&root, "mcp-app-link-dismiss")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    wait_until(&store, "the View to hear the link was dismissed", || {
        mcp_frame_height(&root) == "33px"
    })
    .await;
    assert!(testid(&root, "mcp-app-link").is_none(), "the link is gone");
    root.remove_event_listener_with_callback("click", stay.as_ref().unchecked_ref())
        .unwrap();
    drop(handle);
    container.remove();
}

/// The View inside the reference proxy: it shakes hands through the proxy, tries the proxy's
/// reserved messages itself (never relayed), then sizes itself.
#[cfg(feature = "mcp-apps")]
const PROXIED_VIEW: &str = r#"<script>
const post = (m) => window.parent.postMessage(Object.assign({jsonrpc: '2.0'}, m), '*');
window.addEventListener('message', (e) => {
  const m = e.data || {};
  if (m.id === 1 && m.result) {
    post({method: 'ui/notifications/sandbox-proxy-ready', params: {}});
    post({method: 'ui/notifications/sandbox-resource-ready', params: {html: 'x'}});
    post({method: 'ui/notifications/size-changed', params: {height: 42}});
  }
});
post({id: 1, method: 'ui/initialize', params: {protocolVersion: '2026-01-26', appInfo: {name: 'p', version: '1'}, appCapabilities: {}}});
</script>"#;

/// `examples/mcp-sandbox/sandbox.js`, the proxy a site hosts, driven by this page as its
/// host (same origin here: the proxy's own checks are what is tested, not the chat's
/// origin rule): it says it is ready, refuses HTML without the chat's policy first, frames
/// one View with the proxy sandbox and relays both ways, except `sandbox-*` messages.
#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn the_reference_sandbox_proxy_relays_only_between_its_host_and_its_view() {
    use std::{cell::RefCell, rc::Rc};
    use wasm_bindgen::closure::Closure;
    let win = web_sys::window().unwrap();
    let doc = win.document().unwrap();
    let origin = win.location().origin().unwrap();
    let frame: web_sys::HtmlIFrameElement = doc.create_element("iframe").unwrap().unchecked_into();
    // What reached this page from the proxy's window: (origin, message).
    let heard: Rc<RefCell<Vec<(String, Value)>>> = Rc::default();
    let on_message = {
        let (heard, frame) = (heard.clone(), frame.clone());
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let from_proxy = match (ev.source(), frame.content_window()) {
                (Some(s), Some(w)) => js_sys::Object::is(&s, w.as_ref()),
                _ => false,
            };
            if from_proxy {
                let text = js_sys::JSON::stringify(&ev.data())
                    .unwrap()
                    .as_string()
                    .unwrap();
                heard
                    .borrow_mut()
                    .push((ev.origin(), serde_json::from_str(&text).unwrap()));
            }
        })
    };
    win.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref())
        .unwrap();
    frame.set_srcdoc(&format!(
        r#"<!DOCTYPE html><meta name="mcp-host-origin" content="{origin}"><body><script>{}</script></body>"#,
        include_str!("../../examples/mcp-sandbox/sandbox.js")
    ));
    doc.body().unwrap().append_child(&frame).unwrap();
    let methods = |heard: &Rc<RefCell<Vec<(String, Value)>>>| -> Vec<String> {
        heard
            .borrow()
            .iter()
            .map(|(_, m)| m["method"].as_str().unwrap_or("(answer)").to_owned())
            .collect()
    };
    let wait_for = |what: &'static str, method: &'static str| {
        let heard = heard.clone();
        async move {
            for _ in 0..300 {
                if methods(&heard).iter().any(|m| m == method) {
                    return;
                }
                agui_leptos::transport::sleep(10).await;
            }
            panic!("{what}: {:?}", methods(&heard));
        }
    };
    wait_for(
        "the proxy to say it is ready",
        "ui/notifications/sandbox-proxy-ready",
    )
    .await;
    assert!(heard.borrow().iter().all(|(o, _)| *o == origin));
    let proxy = frame.content_window().unwrap();
    let inner_frames = || {
        frame
            .content_document()
            .unwrap()
            .query_selector_all("iframe")
            .unwrap()
            .length()
    };
    let to_proxy = |m: Value| {
        proxy
            .post_message(&js_sys::JSON::parse(&m.to_string()).unwrap(), &origin)
            .unwrap();
    };
    // HTML that does not start with the chat's policy: refused.
    to_proxy(
        json!({"jsonrpc": "2.0", "method": "ui/notifications/sandbox-resource-ready",
        "params": {"html": "<script>parent.postMessage({jsonrpc:'2.0',method:'leak'},'*')</script>"}}),
    );
    agui_leptos::transport::sleep(200).await;
    assert_eq!(inner_frames(), 0, "no policy first, no frame");
    // The chat's message: framed, with the proxy sandbox and no permissions.
    let html =
        agui_leptos::mcp_apps::srcdoc(PROXIED_VIEW, &agui_leptos::mcp_apps::CspPolicy::default());
    let ready = json!({"jsonrpc": "2.0", "method": "ui/notifications/sandbox-resource-ready",
        "params": {"html": html, "csp": {"connectDomains": [], "resourceDomains": []}}});
    to_proxy(ready.clone());
    wait_for("the View's initialize, relayed", "ui/initialize").await;
    let inner = frame
        .content_document()
        .unwrap()
        .query_selector("iframe")
        .unwrap()
        .unwrap();
    assert_eq!(
        inner.get_attribute("sandbox").as_deref(),
        Some("allow-scripts allow-same-origin")
    );
    assert!(inner.get_attribute("allow").is_none());
    // A second resource: ignored.
    to_proxy(ready);
    to_proxy(json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2026-01-26"}}));
    wait_for("the View's size, relayed", "ui/notifications/size-changed").await;
    agui_leptos::transport::sleep(100).await;
    assert_eq!(inner_frames(), 1, "one View");
    assert_eq!(
        methods(&heard),
        [
            "ui/notifications/sandbox-proxy-ready",
            "ui/initialize",
            "ui/notifications/size-changed"
        ],
        "the View's sandbox-* messages and the refused HTML's never reached the host"
    );
    win.remove_event_listener_with_callback("message", on_message.as_ref().unchecked_ref())
        .unwrap();
    frame.remove();
}

/// A View that calls `lookup` as soon as it runs and sizes itself by the answer (77 px:
/// the tool's text came back; 55 px: an error).
#[cfg(feature = "mcp-apps")]
const CALLING_VIEW: &str = r#"<script>
const post = (m) => window.parent.postMessage(Object.assign({jsonrpc: '2.0'}, m), '*');
window.addEventListener('message', (e) => {
  const m = e.data || {};
  if (m.id === 1 && m.result) {
    post({method: 'ui/notifications/initialized'});
    post({id: 2, method: 'tools/call', params: {name: 'lookup', arguments: {q: 'Alfama'}}});
  }
  if (m.id === 2) {
    const ok = m.result && m.result.content && m.result.content[0].text === 'Alfama: 3 venues';
    post({method: 'ui/notifications/size-changed', params: {height: ok ? 77 : 55}});
  }
});
post({id: 1, method: 'ui/initialize', params: {protocolVersion: '2026-01-26', appInfo: {name: 'c', version: '1'}, appCapabilities: {}}});
</script>"#;

/// An agent behind `@ag-ui/mcp-apps-middleware`, in the page: an `mcp-apps` activity
/// without HTML, then proxied `resources/read` and `tools/call` runs answered in
/// `RUN_FINISHED.result`. Records what it was asked.
#[cfg(feature = "mcp-apps")]
struct Middleware(std::sync::Mutex<Vec<Value>>);

#[cfg(feature = "mcp-apps")]
impl agui_leptos::session::LocalAgent for Middleware {
    fn respond(&self, input: &Value) -> Vec<agui_leptos::session::TimedChunk> {
        let (t, r) = (input["threadId"].clone(), input["runId"].clone());
        let proxied = input["forwardedProps"]["__proxiedMCPRequest"].clone();
        self.0.lock().unwrap().push(proxied.clone());
        let finish = |result: Value| json!({"type": "RUN_FINISHED", "threadId": t, "runId": r, "result": result});
        let mut events = vec![json!({"type": "RUN_STARTED", "threadId": t, "runId": r})];
        match proxied["method"].as_str() {
            Some("resources/read") => events.push(finish(json!({"contents": [
                {"uri": "ui://geo/lookup", "mimeType": "text/html;profile=mcp-app", "text": CALLING_VIEW}]}))),
            Some("tools/call") => events.push(finish(json!({"content": [
                {"type": "text", "text": format!("{}: 3 venues", proxied["params"]["arguments"]["q"].as_str().unwrap_or(""))}]}))),
            _ => {
                events.push(json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "app-3", "activityType": "mcp-apps",
                    "content": {"resourceUri": "ui://geo/lookup", "serverId": "geo", "toolInput": {}}}));
                events.push(json!({"type": "RUN_FINISHED", "threadId": t, "runId": r}));
            }
        }
        events
            .into_iter()
            .map(|e| agui_leptos::session::TimedChunk {
                delay_ms: 0,
                bytes: sse(e),
            })
            .collect()
    }
}

#[cfg(feature = "mcp-apps")]
#[wasm_bindgen_test]
async fn an_mcp_app_without_inline_html_is_fetched_and_its_tool_calls_answered_through_proxied_runs(
) {
    let agent = std::sync::Arc::new(Middleware(std::sync::Mutex::new(Vec::new())));
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        local_agent: Some(agui_leptos::session::LocalAgentRef(agent.clone())),
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat_with(store, Plugins::new());
    settle(&store).await;
    store.send("find venues".into());
    wait_until(
        &store,
        "the View to call its tool and size itself by the answer",
        || {
            testid(&root, "mcp-app-frame")
                .map(|f| {
                    f.unchecked_into::<HtmlElement>()
                        .style()
                        .get_property_value("height")
                        .unwrap_or_default()
                })
                .as_deref()
                == Some("77px")
        },
    )
    .await;
    let asked = agent.0.lock().unwrap().clone();
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert_eq!(
        asked[1],
        json!({"serverId": "geo", "method": "resources/read", "params": {"uri": "ui://geo/lookup"}})
    );
    assert_eq!(asked[2]["method"], "tools/call");
    assert_eq!(
        asked[2]["params"],
        json!({"name": "lookup", "arguments": {"q": "Alfama"}})
    );
    drop(handle);
    container.remove();
}
