//! Browser tests of assistant Markdown (headless Chromium): hostile content stays inert,
//! GFM renders as DOM, and streaming re-renders only the open tail.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_markdown`.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::{AgentConfig, AgentStore};
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_support::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- helpers ----------------------------------------------------------------------------

struct Mounted {
    container: HtmlElement,
    root: Element,
    store: AgentStore,
}

/// A chat mounted on a fresh store, with an external run open and one assistant message
/// (`message_id`) started.
async fn mount_streaming(message_id: &str) -> (Mounted, impl Drop) {
    let container = fresh_container();
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let handle = web_support::mount_demo(container.clone(), store);
    store.begin_external();
    store.push_bytes(&sse(json!({
        "type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "run-md",
    })));
    store.push_bytes(&sse(json!({
        "type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant",
    })));
    settle(&store).await;
    let root: Element = container.clone().into();
    (
        Mounted {
            container,
            root,
            store,
        },
        handle,
    )
}

fn push_text(store: &AgentStore, message_id: &str, delta: &str) {
    store.push_bytes(&sse(json!({
        "type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": delta,
    })));
}

fn finish(store: &AgentStore, message_id: &str) {
    store.push_bytes(&sse(
        json!({"type": "TEXT_MESSAGE_END", "messageId": message_id}),
    ));
    store.push_bytes(&sse(json!({
        "type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "run-md",
    })));
    store.end_external(None);
}

fn answer(root: &Element) -> Element {
    q(
        root,
        r#"[data-testid="message"][data-role="assistant"] [data-testid="message-text"]"#,
    )
    .expect("assistant message text")
}

// ---- 4. hostile content -------------------------------------------------------------------

const HOSTILE: &str = "Hello <script>alert(1)</script> there.\n\n\
<img src=x onerror=alert(1)>\n\n\
A [bad link](javascript:alert(1)), an [encoded one](&#106;avascript:alert(1)) and \
a [good one](https://example.com/ok).\n\n\
<div onclick=\"alert(1)\">raw div</div>\n\n\
An image: ![i](https://example.com/i.png)\n\n\
<script>alert(2)</script>\n\n\
Inline <b onmouseover=alert(1)>bold</b> and <iframe src=\"https://example.com\"></iframe>.\n";

fn assert_inert(root: &Element) {
    assert!(q_all(root, "script").is_empty(), "no script element");
    assert!(q_all(root, "iframe").is_empty(), "no iframe element");
    assert!(q_all(root, "b").is_empty(), "no markup from raw HTML");
    assert!(
        q_all(root, "[onerror],[onclick],[onmouseover],[onload]").is_empty(),
        "no inline event handler attribute"
    );
    for a in q_all(root, "a[href]") {
        let href = a.get_attribute("href").unwrap_or_default();
        assert!(
            ["http:", "https:", "mailto:"]
                .iter()
                .any(|p| href.starts_with(p)),
            "unsafe href {href:?}"
        );
    }
}

#[wasm_bindgen_test]
async fn hostile_markdown_is_inert() {
    let (m, handle) = mount_streaming("m-hostile").await;
    // Streamed in pieces, so every intermediate tail is checked too.
    for piece in HOSTILE.as_bytes().chunks(23) {
        push_text(&m.store, "m-hostile", &String::from_utf8_lossy(piece));
        settle(&m.store).await;
        assert_inert(&m.root);
        assert!(q_all(&m.root, "img").is_empty(), "no image before a click");
    }
    finish(&m.store, "m-hostile");
    settle(&m.store).await;
    assert_inert(&m.root);
    assert!(q_all(&m.root, "img").is_empty(), "no image before a click");

    let text = text_of(&answer(&m.root));
    assert!(
        text.contains("<script>alert(1)</script>"),
        "raw HTML is visible text: {text}"
    );
    assert!(text.contains("<img src=x onerror=alert(1)>"), "{text}");
    assert!(
        text.contains("bad link"),
        "the unsafe link keeps its text: {text}"
    );
    let links = q_all(&m.root, r#"[data-testid="message-text"] a[href]"#);
    assert_eq!(links.len(), 1, "only the https link is a link");

    // The image waits for a click, then loads from its (safe) URL only.
    let load = q(&m.root, r#"[data-testid="load-image"]"#).expect("load-image button");
    assert!(text_of(&load).contains("example.com"), "{}", text_of(&load));
    load.dyn_into::<HtmlElement>().expect("button").click();
    settle(&m.store).await;
    let imgs = q_all(&m.root, "img");
    assert_eq!(imgs.len(), 1);
    assert_eq!(
        imgs[0].get_attribute("src").as_deref(),
        Some("https://example.com/i.png")
    );
    assert_inert(&m.root);

    drop(handle);
    m.container.remove();
}

// ---- 5. GFM rendering ----------------------------------------------------------------------

const RICH: &str = "## Shortlist\n\n\
| Venue | Seats | Price |\n\
|:---|---:|:---:|\n\
| Tasca | 14 | €€ |\n\
| Pátio | 16 | €€€ |\n\n\
- [x] Find venues\n\
- [ ] Book a table\n\n\
```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\n\
> A quote with ~~struck~~ and **bold** text.\n\n\
Read [the guide](https://example.com/guide \"Guide\") or mail [us](mailto:team@example.com).\n";

#[wasm_bindgen_test]
async fn gfm_renders_as_dom() {
    let (m, handle) = mount_streaming("m-rich").await;
    push_text(&m.store, "m-rich", RICH);
    finish(&m.store, "m-rich");
    settle(&m.store).await;
    let md = answer(&m.root);

    assert_eq!(
        q(&md, "h2").map(|h| text_of(&h)).as_deref(),
        Some("Shortlist")
    );

    // Table with header, rows and alignment.
    let table = q(&md, "table").expect("a table");
    let headers: Vec<String> = q_all(&table, "thead th").iter().map(text_of).collect();
    assert_eq!(headers, ["Venue", "Seats", "Price"]);
    assert_eq!(q_all(&table, "tbody tr").len(), 2);
    let seats = q(&table, "tbody tr td:nth-child(2)").expect("cell");
    assert_eq!(text_of(&seats), "14");
    assert!(seats.class_list().contains("agui-md__cell--right"));
    let price = q(&table, "tbody tr td:nth-child(3)").expect("cell");
    assert!(price.class_list().contains("agui-md__cell--center"));

    // Task list: two disabled checkboxes, the first checked.
    let boxes: Vec<HtmlInputElement> = q_all(&md, r#"input[type="checkbox"]"#)
        .into_iter()
        .map(|e| e.dyn_into().expect("input"))
        .collect();
    assert_eq!(boxes.len(), 2);
    assert!(boxes[0].checked());
    assert!(!boxes[1].checked());
    assert!(boxes.iter().all(|b| b.disabled()));

    // Code block: <pre><code>, language label, copy button.
    let code_block = q(&md, r#"[data-testid="code-block"]"#).expect("code block");
    let code = q(&code_block, "pre > code").expect("pre > code");
    assert!(text_of(&code).contains("println!(\"hi\");"));
    assert!(text_of(&code_block).contains("rust"));
    assert!(q(&code_block, r#"[data-testid="copy-code"]"#).is_some());
    // Both scroll sideways when they are wider than the answer: the keyboard can reach them.
    assert_eq!(
        q(&code_block, "pre").and_then(|p| p.get_attribute("tabindex")),
        Some("0".to_owned())
    );
    let table = q(&md, ".agui-md__table-wrap").expect("table wrap");
    assert_eq!(table.get_attribute("tabindex").as_deref(), Some("0"));
    assert_eq!(table.get_attribute("role").as_deref(), Some("region"));
    assert!(!table
        .get_attribute("aria-label")
        .unwrap_or_default()
        .is_empty());

    // Quote, strikethrough, strong.
    let quote = q(&md, "blockquote").expect("blockquote");
    assert_eq!(
        q(&quote, "del").map(|e| text_of(&e)).as_deref(),
        Some("struck")
    );
    assert_eq!(
        q(&quote, "strong").map(|e| text_of(&e)).as_deref(),
        Some("bold")
    );

    // Links open safely in a new tab.
    let link = q(&md, r#"a[href="https://example.com/guide"]"#).expect("link");
    let rel = link.get_attribute("rel").unwrap_or_default();
    assert!(rel.split_whitespace().any(|r| r == "noopener"), "{rel}");
    assert!(rel.split_whitespace().any(|r| r == "noreferrer"), "{rel}");
    assert_eq!(link.get_attribute("target").as_deref(), Some("_blank"));
    assert_eq!(link.get_attribute("title").as_deref(), Some("Guide"));
    assert!(q(&md, r#"a[href="mailto:team@example.com"]"#).is_some());

    drop(handle);
    m.container.remove();
}

// ---- 6. incremental rendering ---------------------------------------------------------------

#[wasm_bindgen_test]
async fn finished_blocks_are_not_re_rendered() {
    let (m, handle) = mount_streaming("m-long").await;
    let mut text =
        String::from("The first paragraph is finished early and must never be rebuilt.\n\n");
    for i in 0..12 {
        text.push_str(&format!(
            "Paragraph {i} streams in many small deltas, one after another, like tokens.\n\n"
        ));
    }
    text.push_str("- a list\n- at the end\n");

    let first_p = |root: &Element| q(&answer(root), "p").expect("a paragraph");
    let mut reference: Option<Element> = None;
    let mut streamed = String::new();
    let mut checks = 0;
    let chars: Vec<char> = text.chars().collect();
    for piece in chars.chunks(9) {
        let piece: String = piece.iter().collect();
        streamed.push_str(&piece);
        push_text(&m.store, "m-long", &piece);
        settle(&m.store).await;
        // Once the second block's first line is complete, the first paragraph is final.
        match &reference {
            None if streamed.contains(
                "Paragraph 0 streams in many small deltas, one after another, like tokens.\n",
            ) =>
            {
                let p = first_p(&m.root);
                assert!(text_of(&p).starts_with("The first paragraph"));
                reference = Some(p);
            }
            Some(p) => {
                let now = first_p(&m.root);
                assert!(
                    p.is_same_node(Some(&now)),
                    "the first paragraph was re-rendered after {} bytes",
                    streamed.len()
                );
                assert!(p.is_connected());
                checks += 1;
            }
            None => {}
        }
    }
    finish(&m.store, "m-long");
    settle(&m.store).await;
    let p = reference.expect("the first paragraph was captured");
    assert!(
        p.is_same_node(Some(&first_p(&m.root))),
        "still the same node at the end"
    );
    assert!(checks > 50, "checked across many deltas ({checks})");

    // And the whole text made it.
    let md = answer(&m.root);
    assert_eq!(
        q_all(&md, ":scope > p").len(),
        13,
        "13 top-level paragraphs"
    );
    assert_eq!(q_all(&md, "li").len(), 2);
    assert!(text_of(&md).contains("Paragraph 11 streams"));

    drop(handle);
    m.container.remove();
}

// ---- highlighted code ----------------------------------------------------------------------

fn color(el: &Element) -> String {
    computed(el, "color")
}

#[wasm_bindgen_test]
async fn code_streams_highlighted_line_by_line_and_finished_lines_stay_put() {
    install_styles();
    let (m, handle) = mount_streaming("m-code").await;
    let mut code = String::from("Here it is:\n\n```rust\n");
    for i in 0..14 {
        code.push_str(&format!(
            "fn step_{i}() -> String {{ \"hi\".to_owned() }} // {i}\n"
        ));
    }
    let chars: Vec<char> = code.chars().collect();
    let mut first_line: Option<Element> = None;
    let mut checks = 0;
    for piece in chars.chunks(7) {
        push_text(&m.store, "m-code", &piece.iter().collect::<String>());
        settle(&m.store).await;
        let lines = q_all(&answer(&m.root), ".agui-code__line");
        match &first_line {
            None if lines.len() >= 2 => first_line = lines.first().cloned(),
            Some(first) => {
                assert!(
                    first.is_same_node(lines.first().map(|l| l.as_ref())),
                    "a finished line was redrawn"
                );
                checks += 1;
            }
            None => {}
        }
    }
    assert!(checks > 20, "{checks}");
    let first = first_line.expect("lines rendered while streaming");
    let kw = q(&first, ".agui-tok-kw").expect("a keyword token");
    assert_eq!(text_of(&kw), "fn");
    assert_eq!(text_of(&q(&first, ".agui-tok-str").unwrap()), "\"hi\"");
    assert_eq!(text_of(&q(&first, ".agui-tok-com").unwrap()), "// 0");
    assert_eq!(text_of(&q(&first, ".agui-tok-fn").unwrap()), "step_0");
    assert!(
        q(&first, "script, img, a").is_none(),
        "tokens are text in spans"
    );

    push_text(&m.store, "m-code", "```\n");
    finish(&m.store, "m-code");
    settle(&m.store).await;
    let block = q(&answer(&m.root), r#"[data-testid="code-block"]"#).expect("the block");
    let code_el = q(&block, "pre > code").unwrap();
    assert_eq!(text_of(&code_el).lines().count(), 14);
    assert!(text_of(&code_el).starts_with("fn step_0() -> String { \"hi\".to_owned() } // 0\n"));
    // Themed by tokens: the keyword colour differs from the text's, and between the themes.
    let kw = q(&block, ".agui-tok-kw").unwrap();
    let app = testid(&m.root, "app-root").expect("app root");
    app.set_attribute("data-theme", "light").unwrap();
    let light = color(&kw);
    app.set_attribute("data-theme", "dark").unwrap();
    let dark = color(&kw);
    assert_ne!(light, dark, "light and dark keyword colours");
    assert_ne!(dark, color(&code_el), "a keyword is not the text colour");
    app.remove_attribute("data-theme").unwrap();

    // A long block: line numbers off by default, and a wrap toggle.
    let numbers = q(&block, r#"[data-testid="code-numbers"]"#).expect("line numbers toggle");
    assert_eq!(
        numbers.get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    assert!(!block.class_list().contains("agui-code--numbered"));
    click(&numbers);
    settle(&m.store).await;
    assert!(block.class_list().contains("agui-code--numbered"));
    assert_eq!(
        numbers.get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    let wrap = q(&block, r#"[data-testid="code-wrap"]"#).expect("wrap toggle");
    click(&wrap);
    settle(&m.store).await;
    let pre = q(&block, "pre").unwrap();
    let ws = computed(&pre, "white-space");
    assert_eq!(ws, "pre-wrap");
    assert!(
        q(&block, r#"[data-testid="copy-code"]"#).is_some(),
        "copy stays"
    );
    drop(handle);
    m.container.remove();
}

// ---- a part with a stand-in (src/ui/lazy.rs) -----------------------------------------------

/// A part with a stand-in shows the stand-in until the part is here, then the part (built
/// where it is shown: it reads that context); a part that cannot be loaded leaves the stand-in
/// (no notice: nothing is missing), and one whose place is gone before it loads is never built.
#[wasm_bindgen_test]
async fn a_stand_in_gives_way_to_its_part_and_stays_when_it_cannot_be_loaded() {
    use agui_leptos::internals::with_stand_in;
    use agui_leptos::split::LoadFailed;
    use agui_leptos::transport::sleep;
    use leptos::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    #[derive(Clone, Copy)]
    struct Where(&'static str);

    let built = Arc::new(AtomicU32::new(0));
    for (loads, unmount_early) in [(true, false), (false, false), (true, true)] {
        let container = fresh_container();
        let counted = built.clone();
        let handle = leptos::mount::mount_to(container.clone(), move || {
            provide_context(Where("here"));
            let counted = counted.clone();
            with_stand_in(
                move || async move {
                    sleep(30).await;
                    if !loads {
                        return Err(LoadFailed);
                    }
                    counted.fetch_add(1, Ordering::SeqCst);
                    let at = use_context::<Where>().map_or("nowhere", |w| w.0);
                    Ok(view! { <p data-testid="the-part">"rich, " {at}</p> }.into_any())
                },
                || view! { <p data-testid="the-stand-in">"plain"</p> },
            )
        });
        let root: Element = container.clone().into();
        leptos::task::tick().await;
        assert!(
            testid(&root, "the-stand-in").is_some(),
            "the stand-in at once"
        );
        assert!(testid(&root, "the-part").is_none());
        if unmount_early {
            drop(handle);
            sleep(120).await;
            assert_eq!(
                built.load(Ordering::SeqCst),
                1,
                "not built once its place is gone"
            );
            container.remove();
            continue;
        }
        sleep(120).await;
        leptos::task::tick().await;
        let part = testid(&root, "the-part");
        assert_eq!(part.is_some(), loads, "the part once loaded");
        assert_eq!(
            testid(&root, "the-stand-in").is_some(),
            !loads,
            "the stand-in until then"
        );
        if let Some(part) = part {
            assert_eq!(
                text_of(&part),
                "rich, here",
                "built in the context it shows in"
            );
        }
        assert!(testid(&root, "lazy-failed").is_none(), "no notice");
        drop(handle);
        container.remove();
    }

    // A part whose chunk is here already (it resolves on its first poll) is shown at once, and
    // its stand-in is never built.
    let stand_ins = Arc::new(AtomicU32::new(0));
    let counted = stand_ins.clone();
    let container = fresh_container();
    let handle = leptos::mount::mount_to(container.clone(), move || {
        let counted = counted.clone();
        with_stand_in(
            || async { Ok(view! { <p data-testid="the-part">"rich"</p> }.into_any()) },
            move || {
                counted.fetch_add(1, Ordering::SeqCst);
                view! { <p data-testid="the-stand-in">"plain"</p> }
            },
        )
    });
    let root: Element = container.clone().into();
    assert!(testid(&root, "the-part").is_some(), "shown at once");
    assert_eq!(stand_ins.load(Ordering::SeqCst), 0, "no stand-in built");
    drop(handle);
    container.remove();
}

// ---- 6. math ---------------------------------------------------------------------------------

const MATH: &str = "The area is \\(\\pi r^2\\) and\n\n\
$$\\int_0^1 x\\,dx = \\frac{1}{2}$$\n\n\
Prices stay text: $5 and $10.\n\n\
Broken: $$\\nosuchcommand{a}$$\n\n\
Hostile: $$\\text{<img src=x onerror=alert(1)>}$$\n";

#[wasm_bindgen_test]
async fn math_streams_as_mathml_built_from_the_allow_list() {
    let (m, handle) = mount_streaming("m-math").await;
    // While the display formula streams its source shows, muted, and no math element yet.
    push_text(&m.store, "m-math", &MATH[..MATH.find("dx").expect("dx")]);
    settle(&m.store).await;
    let pending = q(&m.root, r#"[data-testid="math-pending"]"#)
        .unwrap_or_else(|| panic!("pending source: {}", answer(&m.root).inner_html()));
    assert!(
        text_of(&pending).starts_with("$$\\int_0^1"),
        "{}",
        text_of(&pending)
    );
    assert_eq!(
        q_all(&m.root, r#"[data-testid="math"] math[display="block"]"#).len(),
        0
    );
    push_text(&m.store, "m-math", &MATH[MATH.find("dx").expect("dx")..]);
    finish(&m.store, "m-math");
    settle(&m.store).await;
    assert!(
        q(&m.root, r#"[data-testid="math-pending"]"#).is_none(),
        "closed: no source left"
    );

    let answer = answer(&m.root);
    let maths = q_all(&answer, "math");
    assert_eq!(
        maths.len(),
        3,
        "inline, display and the hostile text formula"
    );
    for math in &maths {
        assert_eq!(
            math.namespace_uri().as_deref(),
            Some("http://www.w3.org/1998/Math/MathML"),
            "a MathML element, not an HTML one"
        );
    }
    assert_eq!(maths[0].get_attribute("display"), None);
    // Formulas read left to right whatever the paragraph's direction, which is its own.
    assert!(maths
        .iter()
        .all(|m| m.get_attribute("dir").as_deref() == Some("ltr")));
    assert!(q_all(&answer, "p")
        .iter()
        .all(|p| p.get_attribute("dir").as_deref() == Some("auto")));
    assert_eq!(maths[1].get_attribute("display").as_deref(), Some("block"));
    assert_eq!(q_all(&maths[1], "mfrac").len(), 1);
    assert_eq!(q_all(&maths[1], "msubsup, munderover").len(), 1);
    // The TeX is kept in an annotation (what copy and assistive tools can read).
    let annotation = q(&maths[1], "annotation").expect("annotation");
    assert_eq!(
        annotation.get_attribute("encoding").as_deref(),
        Some("application/x-tex")
    );
    assert!(
        text_of(&annotation).contains("\\int_0^1 x\\,dx"),
        "every backslash kept"
    );
    // Prices are text.
    assert!(
        text_of(&answer).contains("Prices stay text: $5 and $10."),
        "{}",
        text_of(&answer)
    );
    // Invalid TeX: its source and the marker's words, never an error box.
    let invalid = q(&answer, r#"[data-testid="math-invalid"]"#)
        .unwrap_or_else(|| panic!("invalid formula: {}", answer.inner_html()));
    assert!(
        text_of(&invalid).contains("\\nosuchcommand{a}"),
        "{}",
        text_of(&invalid)
    );
    assert!(invalid
        .get_attribute("title")
        .is_some_and(|t| !t.is_empty()));
    // Markup-looking TeX text is text, and every element is of the allow-list.
    assert_inert(&m.root);
    assert!(text_of(&maths[2]).contains("<img src=x onerror=alert(1)>"));
    const ALLOWED: &[&str] = &[
        "math",
        "semantics",
        "annotation",
        "mrow",
        "mi",
        "mn",
        "mo",
        "mtext",
        "mspace",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mfrac",
        "msqrt",
        "mroot",
        "mtable",
        "mtr",
        "mtd",
    ];
    for math in &maths {
        for el in q_all(math, "*") {
            assert!(
                ALLOWED.contains(&el.local_name().as_str()),
                "{}",
                el.local_name()
            );
            assert!(el.get_attribute("href").is_none() && el.get_attribute("style").is_none());
        }
    }
    drop(handle);
    m.container.remove();
}

// ---- sources and footnotes ------------------------------------------------------------------

/// The element focused inside `shadow` (the document's active element is the host).
fn focused_in(shadow: &web_sys::ShadowRoot) -> Option<Element> {
    shadow.active_element()
}

#[wasm_bindgen_test]
async fn sources_list_under_the_answer_and_markers_focus_their_entry_in_a_shadow_root() {
    // The chat inside a shadow root, as the widget mounts it.
    let host = fresh_container();
    let shadow = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .expect("shadow root");
    let inner: HtmlElement = document()
        .create_element("div")
        .expect("div")
        .dyn_into()
        .expect("HtmlElement");
    shadow.append_child(&inner).expect("append");
    let store = AgentStore::new(AgentConfig {
        demo_speed: 0.0,
        ..AgentConfig::default()
    });
    let _handle = mount_demo(inner.clone(), store);
    let root: Element = inner.into();
    let run = |events: Vec<serde_json::Value>| play_external(&store, events);
    run(vec![
        json!({"type": "RUN_STARTED", "threadId": store.thread_id(), "runId": "r1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1",
               "delta": "Rust is fast [1] and safe [2]. No such source [3]. Code: `[1]`."}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "src1", "activityType": "sources",
        "content": {"sources": [
            {"url": "https://www.rust-lang.org/learn", "title": "Learn Rust", "snippet": "The book."},
            {"url": "javascript:alert(1)", "title": "Evil"},
        ]}}),
        json!({"type": "RUN_FINISHED", "threadId": store.thread_id(), "runId": "r1"}),
    ]);
    wait_until(&store, "the sources list", || {
        testid(&root, "sources").is_some()
    })
    .await;

    let entries = q_all(&root, r#"[data-testid="source"]"#);
    assert_eq!(entries.len(), 2);
    let link = q(&entries[0], r#"a[data-testid="source-link"]"#).expect("a link");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://www.rust-lang.org/learn")
    );
    assert_eq!(
        link.get_attribute("rel").as_deref(),
        Some("noopener noreferrer")
    );
    assert_eq!(link.get_attribute("target").as_deref(), Some("_blank"));
    assert_eq!(
        link.get_attribute("referrerpolicy").as_deref(),
        Some("no-referrer")
    );
    assert_eq!(text_of(&link), "Learn Rust");
    assert_eq!(
        testid(&entries[0], "source-host")
            .map(|e| text_of(&e))
            .as_deref(),
        Some("rust-lang.org")
    );
    // The refused URL is text: no link anywhere in its entry.
    assert!(q(&entries[1], "a").is_none());
    assert_eq!(
        testid(&entries[1], "source-name")
            .map(|e| text_of(&e))
            .as_deref(),
        Some("Evil")
    );
    // The activity shows in the list, not as a card of its own.
    assert!(q(&root, r#"[data-message-id="src1"]"#).is_none());

    // [1] and [2] are links; [3] (no such source) and the code stay as written.
    let text = answer(&root);
    let cites = q_all(&text, r#"[data-testid="citation"]"#);
    assert_eq!(cites.len(), 2);
    assert_eq!(text_of(&cites[0]), "1");
    assert_eq!(
        cites[0].get_attribute("aria-label").as_deref(),
        Some("Source 1")
    );
    assert!(text_of(&text).contains("No such source [3]."));
    assert_eq!(
        q(&text, "code").map(|c| text_of(&c)).as_deref(),
        Some("[1]")
    );

    // A click focuses the entry inside the shadow root (no navigation across the boundary).
    click(&cites[1]);
    let focused = focused_in(&shadow).expect("something focused in the shadow root");
    assert_eq!(focused, entries[1]);
    click(&cites[0]);
    assert_eq!(focused_in(&shadow), Some(entries[0].clone()));
    host.remove();
}

#[wasm_bindgen_test]
async fn footnotes_resolve_once_their_definition_streams_in() {
    let (m, _handle) = mount_streaming("fn1").await;
    push_text(
        &m.store,
        "fn1",
        "A claim[^a] and a dangling one[^zz].\n\nMore text.\n\n",
    );
    settle(&m.store).await;
    let text = answer(&m.root);
    assert!(
        q(&text, r#"[data-testid="footnote-ref"]"#).is_none(),
        "no definition yet"
    );
    assert!(text_of(&text).contains("claim[^a]"));
    assert!(testid(&text, "footnotes").is_none());

    push_text(&m.store, "fn1", "[^a]: The note, **bold**.\n");
    settle(&m.store).await;
    let text = answer(&m.root);
    let refs = q_all(&text, r#"[data-testid="footnote-ref"]"#);
    assert_eq!(refs.len(), 1, "only the defined label links");
    assert_eq!(text_of(&refs[0]), "1");
    assert!(text_of(&text).contains("dangling one[^zz]"));
    let notes = q_all(&text, r#"[data-testid="footnote"]"#);
    assert_eq!(notes.len(), 1);
    assert_eq!(text_of(&notes[0]), "The note, bold.");
    assert!(q(&notes[0], "strong").is_some());
    // The definition shows in the notes only, not where it stood.
    assert_eq!(text_of(&text).matches("The note").count(), 1);

    finish(&m.store, "fn1");
    settle(&m.store).await;
    let text = answer(&m.root);
    let refs = q_all(&text, r#"[data-testid="footnote-ref"]"#);
    click(&refs[0]);
    let focused = document().active_element().expect("focused");
    assert_eq!(
        focused.get_attribute("data-testid").as_deref(),
        Some("footnote")
    );
    m.container.remove();
}
