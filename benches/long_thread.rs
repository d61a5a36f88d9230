//! Browser benchmark of long threads (headless Chromium), not a test: it asserts only that the
//! work happened (every message mounted, the answer whole, the view at the bottom), never a
//! time. Not picked up by CI (`tests/web/*.rs`); run it with `scripts/bench-long-thread.sh`
//! (release build, prints a table).
//!
//! The full chat (`mount_with_store`, the app's stylesheet injected, in an 800 × 1000 px box
//! so the transcript scrolls as in the app), three workloads:
//!
//! - **snapshot**: an empty thread receives, in one run, a `MESSAGES_SNAPSHOT` of 1,000
//!   messages (alternating user / assistant; every answer Markdown with a list and a fenced
//!   code block) through `AgentStore::push_bytes`, then `flush()` + `tick()`. Measured: the
//!   synchronous apply (push + flush + the DOM writes it triggers), the time until the newest
//!   message is in the DOM, until all 1,000 are mounted and the view rests at the bottom
//!   (polled once per animation frame), the longest gap between two animation frames, and
//!   every `longtask` entry (≥ 50 ms) a `PerformanceObserver` saw;
//! - **answer**: right after, in the same run, a 2,000-delta answer streamed at the end (one
//!   SSE frame per push, flush + tick every 16 deltas, a task yield in between, as
//!   `benches/browser.rs` does): script time per 1,000 deltas (first / last 1,000), the
//!   longest batch, the long tasks — and the same answer into an empty thread for comparison;
//! - **open**: a store continuing a saved 1,000-message thread, then mounted: the synchronous
//!   mount, the time to the first animation frame after it (the composer and the newest
//!   message painted), until all messages are mounted, the longest task.
#![cfg(target_arch = "wasm32")]

use agui_leptos::app::mount_with_store;
use agui_leptos::protocol::types::Content;
use agui_leptos::protocol::{Message, Role, Thread};
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::GetUntracked;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

const MESSAGES: usize = 1_000;
const DELTAS: usize = 2_000;
const PER_FLUSH: usize = 16;
const SLICE: usize = 1_000;
const THREAD_ID: &str = "t-long";
const REPS: usize = 3;
/// Give up waiting for the DOM after this long (a broken build must not hang the bench).
const SETTLE_LIMIT_MS: f64 = 20_000.0;

mod bench_support;
use bench_support::*;

/// The saved conversation: alternating user / assistant messages; every answer has a
/// paragraph, a list and a fenced code block.
fn history(n: usize) -> Vec<Message> {
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(
                    format!("u-{i}"),
                    format!(
                        "Question {i}: could you compare **option A** and *option B* for day {}, \
                         keeping `budget <= 200` in mind?",
                        i / 2 + 1
                    ),
                )
            } else {
                let mut m = Message::new(format!("a-{i}"), Role::Assistant);
                m.content = Some(Content::Text(format!(
                    "For day {}, **option A** is the better fit: the venue is close to the \
                     river and lunch stays *well under* the budget.\n\n\
                     - Morning: workshop at the venue (`9:30`)\n\
                     - Afternoon: tram 28 and a guided walk\n\
                     - Evening: dinner near Cais do Sodré\n\n\
                     ```rust\n\
                     fn budget(people: u32, per_head: f64) -> f64 {{\n    \
                         let total = people as f64 * per_head;\n    \
                         if total > 200.0 * people as f64 {{ return -1.0; }}\n    \
                         total\n\
                     }}\n\
                     ```\n\n\
                     Option B works too, but it adds ~40 minutes of travel each way.",
                    i / 2 + 1
                )));
                m
            }
        })
        .collect()
}

const WORDS: &[&str] = &[
    "the", "team", "offsite", "in", "Lisbon", "could", "start", "on", "a", "Tuesday", "with",
    "walk", "through", "Alfama", "before", "lunch", "near", "river", "budget", "per", "person",
];

/// The answer, in `DELTAS` deltas of 6–10 ASCII characters.
fn deltas() -> Vec<String> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut text = String::new();
    let mut words = 0;
    while text.len() < DELTAS * 10 {
        text.push_str(WORDS[next(WORDS.len() as u64) as usize]);
        words += 1;
        if words > 40 + next(40) {
            words = 0;
            text.push_str(if next(4) == 0 { ".\n\n- " } else { ".\n\n" });
        } else {
            text.push(' ');
        }
    }
    let mut out = Vec::with_capacity(DELTAS);
    let mut at = 0;
    for _ in 0..DELTAS {
        let len = 6 + next(5) as usize;
        out.push(text[at..at + len].to_owned());
        at += len;
    }
    out
}

fn frame(event: serde_json::Value) -> Vec<u8> {
    format!("data: {event}\n\n").into_bytes()
}

fn message_count(root: &Element) -> usize {
    root.query_selector_all(r#"[data-testid="message"]"#)
        .map(|l| l.length() as usize)
        .unwrap_or(0)
}

fn has_message(root: &Element, id: &str) -> bool {
    root.query_selector(&format!(r#"[data-message-id="{id}"]"#))
        .ok()
        .flatten()
        .is_some()
}

fn transcript(root: &Element) -> HtmlElement {
    root.query_selector(r#"[data-testid="transcript"]"#)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into().ok())
        .expect("transcript")
}

fn distance_from_bottom(t: &HtmlElement) -> i32 {
    t.scroll_height() - t.scroll_top() - t.client_height()
}

fn longtasks() -> Vec<f64> {
    longtask_stop().iter().filter_map(|v| v.as_f64()).collect()
}

/// Poll once per animation frame until `n` messages are mounted and the view rests at the
/// bottom: (ms until the newest message was in the DOM, ms until all were, the longest gap
/// between two frames), from `t0`.
async fn until_mounted(root: &Element, n: usize, newest: &str, t0: f64) -> (f64, f64, f64) {
    let mut newest_at = has_message(root, newest).then(|| now() - t0);
    let mut last_frame = t0;
    let mut longest_gap: f64 = 0.0;
    loop {
        frame_tick().await;
        let t = now();
        longest_gap = longest_gap.max(t - last_frame);
        last_frame = t;
        if newest_at.is_none() && has_message(root, newest) {
            newest_at = Some(t - t0);
        }
        let t_el = transcript(root);
        if message_count(root) >= n && distance_from_bottom(&t_el) <= 2 {
            return (newest_at.unwrap_or(t - t0), t - t0, longest_gap);
        }
        assert!(
            t - t0 < SETTLE_LIMIT_MS,
            "the DOM settles: {} of {n} messages mounted, {} px from the bottom",
            message_count(root),
            distance_from_bottom(&t_el)
        );
    }
}

#[derive(Default, Clone)]
struct Stream {
    first_script: f64,
    last_script: f64,
    total_script: f64,
    longest_batch: f64,
    longtasks: Vec<f64>,
}

/// Stream the answer (the run is open) and measure it.
async fn stream_answer(store: AgentStore, root: &Element, deltas: &[String]) -> Stream {
    let frames: Vec<Vec<u8>> = deltas
        .iter()
        .map(|d| frame(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-new", "delta": d})))
        .collect();
    store.push_bytes(&frame(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "a-new", "role": "assistant"}),
    ));
    store.flush();
    leptos::task::tick().await;
    yield_task().await;

    longtask_start();
    let mut spans = Vec::new();
    for (b, batch) in frames.chunks(PER_FLUSH).enumerate() {
        let t0 = now();
        for f in batch {
            store.push_bytes(f);
        }
        store.flush();
        leptos::task::tick().await;
        spans.push((b * PER_FLUSH, now() - t0));
        yield_task().await;
    }
    sleep(100).await;
    let tasks = longtasks();
    let slice = |from: usize| {
        let inside: Vec<f64> = spans
            .iter()
            .filter(|(i, _)| *i >= from && *i < from + SLICE)
            .map(|s| s.1)
            .collect();
        inside.iter().sum::<f64>() * SLICE as f64 / (inside.len() * PER_FLUSH).max(1) as f64
    };
    let answer: String = deltas.concat();
    let stored = store
        .with_message("a-new", |m| {
            m.content.as_ref().map(|c| c.text().into_owned())
        })
        .flatten()
        .unwrap_or_default();
    assert_eq!(stored, answer, "every delta was folded");
    assert!(has_message(root, "a-new"), "the answer is rendered");
    Stream {
        first_script: slice(0),
        last_script: slice(DELTAS - SLICE),
        total_script: spans.iter().map(|s| s.1).sum(),
        longest_batch: spans.iter().map(|s| s.1).fold(0.0, f64::max),
        longtasks: tasks,
    }
}

#[derive(Default, Clone)]
struct Snapshot {
    apply: f64,
    newest: f64,
    all: f64,
    longest_gap: f64,
    longtasks: Vec<f64>,
    answer: Stream,
}

/// Snapshot then answer (`messages` = 0: the answer into an empty thread).
async fn run_snapshot(messages: &[Message], snapshot: &[u8], deltas: &[String]) -> Snapshot {
    let container = sized_container();
    let root: Element = container.clone().into();
    let config = AgentConfig {
        endpoint: Some("/agent".into()),
        ..Default::default()
    };
    let store = AgentStore::continuing(
        config,
        Thread::with_history(vec![], json!({})),
        THREAD_ID.into(),
    );
    let handle = mount_with_store(container.clone(), store);
    store.flush();
    leptos::task::tick().await;
    sleep(50).await;

    store.begin_external();
    store.push_bytes(&frame(
        json!({"type": "RUN_STARTED", "threadId": THREAD_ID, "runId": "r-long"}),
    ));
    store.flush();
    leptos::task::tick().await;
    frame_tick().await;
    yield_task().await;

    let mut out = Snapshot::default();
    if !messages.is_empty() {
        longtask_start();
        let t0 = now();
        store.push_bytes(snapshot);
        store.flush();
        leptos::task::tick().await;
        out.apply = now() - t0;
        let newest = messages.last().map(|m| m.id.clone()).unwrap_or_default();
        let (newest_at, all, gap) = until_mounted(&root, messages.len(), &newest, t0).await;
        out.newest = newest_at;
        out.all = all;
        out.longest_gap = gap;
        sleep(100).await;
        out.longtasks = longtasks();
        assert_eq!(
            message_count(&root),
            messages.len(),
            "every message is mounted"
        );
    }
    out.answer = stream_answer(store, &root, deltas).await;

    store.push_bytes(&frame(
        json!({"type": "TEXT_MESSAGE_END", "messageId": "a-new"}),
    ));
    store.push_bytes(&frame(
        json!({"type": "RUN_FINISHED", "threadId": THREAD_ID, "runId": "r-long"}),
    ));
    store.end_external(None);
    store.flush();
    leptos::task::tick().await;
    assert!(!store.running().get_untracked());
    drop(handle);
    container.remove();
    out
}

#[derive(Default, Clone)]
struct Open {
    mount: f64,
    first_frame: f64,
    all: f64,
    longest_gap: f64,
    longtasks: Vec<f64>,
}

/// Open a saved 1,000-message thread: a store continuing it, then the chat mounted.
async fn run_open(messages: &[Message]) -> Open {
    let container = sized_container();
    let root: Element = container.clone().into();
    let config = AgentConfig {
        endpoint: Some("/agent".into()),
        ..Default::default()
    };
    frame_tick().await;
    yield_task().await;
    longtask_start();
    let t0 = now();
    let store = AgentStore::continuing(
        config,
        Thread::with_history(messages.to_vec(), json!({})),
        THREAD_ID.into(),
    );
    let handle = mount_with_store(container.clone(), store);
    store.flush();
    leptos::task::tick().await;
    let mount = now() - t0;
    frame_tick().await;
    let first_frame = now() - t0;
    assert!(
        root.query_selector(r#"[data-testid="composer"]"#)
            .ok()
            .flatten()
            .is_some(),
        "the composer is there"
    );
    let newest = messages.last().map(|m| m.id.clone()).unwrap_or_default();
    assert!(has_message(&root, &newest), "the newest message is there");
    let (_, all, gap) = until_mounted(&root, messages.len(), &newest, t0).await;
    sleep(100).await;
    let tasks = longtasks();
    drop(handle);
    container.remove();
    Open {
        mount,
        first_frame,
        all,
        longest_gap: gap,
        longtasks: tasks,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn tasks(v: &[f64]) -> String {
    if v.is_empty() {
        "0".to_owned()
    } else {
        let mut v = v.to_vec();
        v.sort_by(|a, b| b.total_cmp(a));
        let shown: Vec<String> = v.iter().take(4).map(|d| format!("{d:.0}")).collect();
        format!(
            "{} (ms: {}{})",
            v.len(),
            shown.join(", "),
            if v.len() > 4 { ", …" } else { "" }
        )
    }
}

#[wasm_bindgen_test]
async fn bench_a_1000_message_thread() {
    let style = inject_styles();
    let messages = history(MESSAGES);
    let snapshot = frame(json!({"type": "MESSAGES_SNAPSHOT", "messages": messages}));
    let deltas = deltas();
    // Warm-up (wasm tier-up, allocator, style caches), not reported.
    let _ = run_snapshot(&messages, &snapshot, &deltas).await;

    let mut snaps = Vec::new();
    let mut empties = Vec::new();
    let mut opens = Vec::new();
    for _ in 0..REPS {
        snaps.push(run_snapshot(&messages, &snapshot, &deltas).await);
        empties.push(run_snapshot(&[], &snapshot, &deltas).await);
        opens.push(run_open(&messages).await);
    }
    style.remove();

    let m = |v: &[Snapshot], f: fn(&Snapshot) -> f64| median(v.iter().map(f).collect());
    let mo = |f: fn(&Open) -> f64| median(opens.iter().map(f).collect());
    let all_tasks = |v: Vec<&Vec<f64>>| v.into_iter().flatten().copied().collect::<Vec<f64>>();
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    console_log!(
        "\nlong-thread bench ({profile} build, headless Chromium, longtask observer: {}): \
         {MESSAGES} messages (Markdown answers with a list and a code block, {} KB of SSE), \
         {DELTAS}-delta answer, flush + tick every {PER_FLUSH} deltas; median of {REPS} runs, \
         long tasks (≥ 50 ms) of all runs",
        if longtask_supported() { "yes" } else { "n/a" },
        snapshot.len() / 1024
    );
    console_log!(
        "snapshot of {MESSAGES}: apply (sync) {:.1} ms | newest in DOM {:.1} ms | all mounted, at bottom {:.0} ms | longest frame gap {:.0} ms | long tasks {}",
        m(&snaps, |s| s.apply),
        m(&snaps, |s| s.newest),
        m(&snaps, |s| s.all),
        m(&snaps, |s| s.longest_gap),
        tasks(&all_tasks(snaps.iter().map(|s| &s.longtasks).collect()))
    );
    console_log!(
        "open saved {MESSAGES}: mount (sync) {:.1} ms | first frame {:.1} ms | all mounted, at bottom {:.0} ms | longest frame gap {:.0} ms | long tasks {}",
        mo(|o| o.mount),
        mo(|o| o.first_frame),
        mo(|o| o.all),
        mo(|o| o.longest_gap),
        tasks(&all_tasks(opens.iter().map(|o| &o.longtasks).collect()))
    );
    for (label, v) in [("after 1,000 messages", &snaps), ("empty thread", &empties)] {
        console_log!(
            "answer, {label:<20}: script per 1k deltas first / last {:.1} / {:.1} ms | total {:.0} ms | longest batch {:.1} ms | long tasks {}",
            m(v, |s| s.answer.first_script),
            m(v, |s| s.answer.last_script),
            m(v, |s| s.answer.total_script),
            v.iter().map(|s| s.answer.longest_batch).fold(0.0, f64::max),
            tasks(&all_tasks(v.iter().map(|s| &s.answer.longtasks).collect()))
        );
    }
}
