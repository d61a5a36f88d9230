//! Browser benchmark (headless Chromium), not a test: it asserts only that the answer arrived
//! whole, never a time. Not picked up by CI (`tests/web/*.rs`); run it with
//! `scripts/bench-browser.sh` (release build, prints a table).
//!
//! The full chat (`mount_with_store`, the app's real stylesheet injected) on a store holding
//! N earlier messages (N = 0 and 200). One run then streams 20,000 `TEXT_MESSAGE_CONTENT`
//! deltas of 6–10 characters (words, spaces, paragraph breaks, `**bold**`, lists) into one
//! assistant message through `AgentStore::push_bytes`, one SSE frame per push as the network
//! delivers them. Every 16 deltas: `flush()` + `tick().await` (the DOM settles), then a yield
//! to the event loop (a `MessageChannel` task, so the browser can run animation frames, style,
//! layout and paint between batches, as it does between network chunks).
//!
//! Measured with `performance.now()`:
//! - per 1,000 deltas, for the first 1,000 and the last 1,000 of the answer: *script* (the sum
//!   of the synchronous batch slices: pushes + flush + the DOM writes) and *wall* (from the
//!   slice's first push to its last batch settling, including the browser's own frames —
//!   style, layout, paint, the transcript's follow-scroll — in between);
//! - totals for the 20,000 deltas;
//! - the longest synchronous batch (16 pushes + flush + tick) = the longest main-thread task
//!   this client causes while streaming; and, where the browser supports it, every
//!   `longtask` entry (≥ 50 ms) a `PerformanceObserver` saw during the run.
#![cfg(target_arch = "wasm32")]

use agui_leptos::app::mount_with_store;
use agui_leptos::protocol::types::Content;
use agui_leptos::protocol::{Message, Role, Thread};
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use leptos::prelude::GetUntracked;
use serde_json::json;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

const DELTAS: usize = 20_000;
const PER_FLUSH: usize = 16;
const SLICE: usize = 1_000;
const THREAD_ID: &str = "t-bench";
const REPS: usize = 5;

mod bench_support;
use bench_support::*;
#[path = "bench_support/workloads.rs"]
mod workloads;

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r#"
let held = null;
export function floor_hold(bytes) { held = bytes.slice(); }
// The floor: the same bytes decoded, split on blank lines, each frame's data JSON.parse'd.
export function floor_run(times) {
  const t0 = performance.now();
  let n = 0;
  for (let i = 0; i < times; i++) {
    n = 0;
    const text = new TextDecoder().decode(held);
    for (const block of text.split('\n\n')) {
      for (const line of block.split('\n')) {
        if (line.startsWith('data: ')) { JSON.parse(line.slice(6)); n += 1; }
      }
    }
  }
  return [(performance.now() - t0) / times, n];
}
"#)]
extern "C" {
    fn floor_hold(bytes: &[u8]);
    fn floor_run(times: u32) -> Vec<f64>;
}

/// A small deterministic generator (xorshift), so every run streams the same answer.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: &[&str] = &[
    "the", "team", "offsite", "in", "Lisbon", "could", "start", "on", "a", "Tuesday", "with", "a",
    "walk", "through", "Alfama", "before", "lunch", "near", "the", "river", "budget", "per",
    "person", "stays", "under", "two", "hundred", "euros", "and", "the", "venue", "has", "room",
    "for", "everyone", "while", "trams", "run", "every", "few", "minutes",
];

/// The earlier transcript: alternating user / assistant messages, a paragraph of Markdown each.
fn history(n: usize) -> Vec<Message> {
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(
                    format!("u-{i}"),
                    format!(
                        "Question {i}: could you compare **option A** and *option B* for day {}, \
                         keeping `budget <= 200` in mind? See [the brief](https://example.com/{i}).",
                        i / 2 + 1
                    ),
                )
            } else {
                let mut m = Message::new(format!("a-{i}"), Role::Assistant);
                m.content = Some(Content::Text(format!(
                    "For day {}, **option A** is the better fit: the venue is close to the \
                     river, lunch for the whole team stays *well under* the budget, and the \
                     afternoon leaves time for a walk through Alfama.\n\n\
                     - Morning: workshop at the venue (`9:30`)\n\
                     - Afternoon: tram 28 and a guided walk\n\
                     - Evening: dinner near Cais do Sodré\n\n\
                     Option B works too, but it adds ~40 minutes of travel each way.",
                    i / 2 + 1
                )));
                m
            }
        })
        .collect()
}

/// The answer, cut into `DELTAS` deltas of 6–10 characters (ASCII, so any cut is a char
/// boundary; a cut may split a word or a `**`, as model tokens do).
fn deltas() -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut text = String::new();
    let mut words_in_paragraph = 0;
    while text.len() < DELTAS * 10 {
        let word = WORDS[rng.below(WORDS.len() as u64) as usize];
        match rng.below(40) {
            0 => text.push_str(&format!("**{word}**")),
            1 => text.push_str(&format!("`{word}`")),
            _ => text.push_str(word),
        }
        words_in_paragraph += 1;
        if words_in_paragraph > 40 + rng.below(40) {
            words_in_paragraph = 0;
            if rng.below(4) == 0 {
                text.push_str(".\n\n- ");
            } else {
                text.push_str(".\n\n");
            }
        } else {
            text.push(' ');
        }
    }
    let mut out = Vec::with_capacity(DELTAS);
    let mut at = 0;
    for _ in 0..DELTAS {
        let len = 6 + rng.below(5) as usize;
        out.push(text[at..at + len].to_owned());
        at += len;
    }
    out
}

/// The text of a message's rendered Markdown.
fn message_text(root: &Element, id: &str) -> String {
    root.query_selector(&format!(
        r#"[data-message-id="{id}"] [data-testid="message-text"]"#
    ))
    .expect("selector")
    .and_then(|e| e.text_content())
    .unwrap_or_default()
}

fn frame(event: serde_json::Value) -> Vec<u8> {
    format!("data: {event}\n\n").into_bytes()
}

struct Figures {
    earlier: usize,
    with_ui: bool,
    mount_ms: f64,
    first_script: f64,
    first_wall: f64,
    last_script: f64,
    last_wall: f64,
    total_script: f64,
    total_wall: f64,
    longest_batch: f64,
    /// 99th percentile of the batch slices (a preempted batch on a busy machine moves the
    /// maximum, hardly this).
    p99_batch: f64,
    longtasks: Option<Vec<f64>>,
}

/// One run on a thread of `earlier` messages; `with_ui: false` = the store alone, not mounted
/// (what the protocol and the store cost without any DOM).
async fn run(earlier: usize, deltas: &[String], with_ui: bool) -> Figures {
    let container = fresh_container();
    let config = AgentConfig {
        endpoint: Some("/agent".into()),
        ..Default::default()
    };
    let thread = Thread::with_history(history(earlier), json!({}));
    let store = AgentStore::continuing(config, thread, THREAD_ID.into());

    let t = now();
    let handle = with_ui.then(|| mount_with_store(container.clone(), store));
    store.flush();
    leptos::task::tick().await;
    let mount_ms = now() - t;
    let root: Element = container.clone().into();
    let count = || {
        root.query_selector_all(r#"[data-testid="message"]"#)
            .expect("selector")
            .length() as usize
    };
    // A long transcript mounts its last rows first and the earlier ones in batches after
    // (`view::slices`): the run streams into the whole transcript.
    let mut rows = count();
    for _ in 0..500 {
        if !with_ui || rows >= earlier {
            break;
        }
        yield_task().await;
        rows = count();
    }
    assert_eq!(
        rows,
        if with_ui { earlier } else { 0 },
        "the earlier transcript is rendered"
    );
    sleep(50).await;

    // The frames as the network would deliver them (built before timing).
    let run_id = format!("r-bench-{earlier}");
    let start = [
        frame(json!({"type": "RUN_STARTED", "threadId": THREAD_ID, "runId": run_id})),
        frame(json!({"type": "TEXT_MESSAGE_START", "messageId": "a-new", "role": "assistant"})),
    ];
    let frames: Vec<Vec<u8>> = deltas
        .iter()
        .map(|d| frame(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-new", "delta": d})))
        .collect();
    let end = [
        frame(json!({"type": "TEXT_MESSAGE_END", "messageId": "a-new"})),
        frame(json!({"type": "RUN_FINISHED", "threadId": THREAD_ID, "runId": run_id})),
    ];

    store.begin_external();
    for f in &start {
        store.push_bytes(f);
    }
    store.flush();
    leptos::task::tick().await;
    yield_task().await;

    let observing = longtask_start();
    let mut batch_ms = Vec::with_capacity(DELTAS / PER_FLUSH + 1);
    // (first delta index, batch start, batch end) per batch.
    let mut spans = Vec::with_capacity(DELTAS / PER_FLUSH + 1);
    let run_start = now();
    for (b, batch) in frames.chunks(PER_FLUSH).enumerate() {
        let t0 = now();
        for f in batch {
            store.push_bytes(f);
        }
        store.flush();
        leptos::task::tick().await;
        let t1 = now();
        batch_ms.push(t1 - t0);
        spans.push((b * PER_FLUSH, t0, t1));
        yield_task().await;
    }
    let run_end = spans.last().map_or(run_start, |s| s.2);
    // Long-task entries are reported after the task: give the observer a moment.
    sleep(100).await;
    let longtasks = observing.then(|| {
        longtask_stop()
            .iter()
            .filter_map(|v| v.as_f64())
            .collect::<Vec<_>>()
    });

    for f in &end {
        store.push_bytes(f);
    }
    store.end_external(None);
    store.flush();
    leptos::task::tick().await;
    sleep(20).await;

    // The answer arrived whole (the benchmark measured the real thing).
    assert_eq!(store.run_view().get_untracked().status.name(), "success");
    assert!(!store.running().get_untracked());
    let answer: String = deltas.concat();
    let stored = store
        .with_message("a-new", |m| {
            m.content.as_ref().map(|c| c.text().into_owned())
        })
        .flatten()
        .unwrap_or_default();
    assert_eq!(stored, answer, "every delta was folded");
    if with_ui {
        let status = root
            .query_selector(r#"[data-testid="run-status"]"#)
            .expect("selector")
            .and_then(|e| e.get_attribute("data-status"))
            .unwrap_or_default();
        assert_eq!(status, "success");
        let rendered = message_text(&root, "a-new");
        // The streamed DOM says what rendering the finished answer at once says.
        let mut done = Message::new("a-new", Role::Assistant);
        done.content = Some(Content::Text(answer.clone()));
        let reference = fresh_container();
        let reference_store = AgentStore::continuing(
            AgentConfig::default(),
            Thread::with_history(vec![done], json!({})),
            THREAD_ID.into(),
        );
        let reference_handle = mount_with_store(reference.clone(), reference_store);
        reference_store.flush();
        leptos::task::tick().await;
        let expected = message_text(&reference.clone().into(), "a-new");
        drop(reference_handle);
        reference.remove();
        assert!(
            expected.len() > answer.len() * 9 / 10,
            "the reference render holds the answer"
        );
        assert!(
            rendered == expected,
            "the streamed answer renders as the finished one does ({} vs {} chars)",
            rendered.len(),
            expected.len()
        );
    }

    // Per-1,000 slices: script = sum of batch slices; wall = first push to last settle.
    let slice = |from: usize| {
        let inside: Vec<&(usize, f64, f64)> = spans
            .iter()
            .filter(|(i, _, _)| *i >= from && *i < from + SLICE)
            .collect();
        let script: f64 = inside.iter().map(|(_, a, b)| b - a).sum();
        let wall = match (inside.first(), inside.last()) {
            (Some(f), Some(l)) => l.2 - f.1,
            _ => 0.0,
        };
        // Batches straddling the slice edge hold deltas of both: scale to exactly SLICE.
        let deltas_in = inside.len() * PER_FLUSH;
        let k = SLICE as f64 / deltas_in.max(1) as f64;
        (script * k, wall * k)
    };
    let (first_script, first_wall) = slice(0);
    let (last_script, last_wall) = slice(DELTAS - SLICE);

    drop(handle);
    container.remove();
    Figures {
        earlier,
        with_ui,
        mount_ms,
        first_script,
        first_wall,
        last_script,
        last_wall,
        total_script: batch_ms.iter().sum(),
        total_wall: run_end - run_start,
        longest_batch: batch_ms.iter().cloned().fold(0.0, f64::max),
        p99_batch: percentile(&batch_ms, 0.99),
        longtasks,
    }
}

fn percentile(v: &[f64], p: f64) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v.get(i).copied().unwrap_or(0.0)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Median of each timing over runs; the worst longest task; every long task.
fn combine(runs: Vec<Figures>) -> Figures {
    let m = |f: fn(&Figures) -> f64| median(runs.iter().map(f).collect());
    Figures {
        earlier: runs.first().map_or(0, |f| f.earlier),
        with_ui: runs.first().is_some_and(|f| f.with_ui),
        mount_ms: m(|f| f.mount_ms),
        first_script: m(|f| f.first_script),
        first_wall: m(|f| f.first_wall),
        last_script: m(|f| f.last_script),
        last_wall: m(|f| f.last_wall),
        total_script: m(|f| f.total_script),
        total_wall: m(|f| f.total_wall),
        longest_batch: runs.iter().map(|f| f.longest_batch).fold(0.0, f64::max),
        p99_batch: m(|f| f.p99_batch),
        longtasks: runs
            .iter()
            .map(|f| f.longtasks.clone())
            .collect::<Option<Vec<_>>>()
            .map(|v| v.concat()),
    }
}

#[wasm_bindgen_test]
async fn bench_streaming_20k_deltas_into_the_chat() {
    let style = inject_styles();
    let deltas = deltas();
    let chars: usize = deltas.iter().map(String::len).sum();
    // A warm-up run (wasm tier-up, allocator, style caches), not reported.
    let _ = run(0, &deltas, true).await;

    // REPS interleaved runs per configuration; each figure is the median of its runs, the
    // longest task the worst seen, the long tasks all of them.
    let configs = [(0, true), (200, true), (0, false), (200, false)];
    let mut runs: Vec<Vec<Figures>> = configs.iter().map(|_| Vec::new()).collect();
    for _ in 0..REPS {
        for (i, (earlier, with_ui)) in configs.into_iter().enumerate() {
            runs[i].push(run(earlier, &deltas, with_ui).await);
        }
    }
    let figures: Vec<Figures> = runs.into_iter().map(combine).collect();
    style.remove();

    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let label = |f: &Figures| {
        format!(
            "{}, {} earlier",
            if f.with_ui { "chat" } else { "store only" },
            f.earlier
        )
    };
    console_log!(
        "\nbrowser bench ({profile} build, headless Chromium, longtask observer: {}): \
         {DELTAS} TEXT_MESSAGE_CONTENT deltas ({chars} chars) into one assistant message, \
         one SSE frame per push_bytes, flush + tick every {PER_FLUSH}; median of {REPS} runs \
         (batch p99: median of runs; longest: worst of all runs; long tasks: all runs). \
         script = the synchronous batches; wall = including the browser's frames in between",
        if longtask_supported() { "yes" } else { "n/a" }
    );
    console_log!(
        "{:<24} {:>9} {:>22} {:>22} {:>24} {:>19} {:>16}",
        "run",
        "mount",
        "first 1k: script/wall",
        "last 1k: script/wall",
        "total 20k: script/wall",
        "batch p99 / longest",
        "longtasks>=50ms"
    );
    for f in &figures {
        let longtasks = match &f.longtasks {
            None => "n/a".to_owned(),
            Some(v) if v.is_empty() => "0".to_owned(),
            Some(v) => format!(
                "{} (max {:.0} ms)",
                v.len(),
                v.iter().cloned().fold(0.0, f64::max)
            ),
        };
        let mount = if f.with_ui {
            format!("{:.1} ms", f.mount_ms)
        } else {
            "-".to_owned()
        };
        console_log!(
            "{:<24} {:>9} {:>10.1} / {:>5.1} ms {:>10.1} / {:>5.1} ms {:>11.0} / {:>5.0} ms {:>7.2} / {:>6.2} ms {:>16}",
            label(f),
            mount,
            f.first_script,
            f.first_wall,
            f.last_script,
            f.last_wall,
            f.total_script,
            f.total_wall,
            f.p99_batch,
            f.longest_batch,
            longtasks
        );
    }
    console_log!("script per delta (µs): first 1k / last 1k / mean");
    for f in &figures {
        console_log!(
            "  {:<24} {:>5.1} / {:>5.1} / {:>5.1}",
            label(f),
            f.first_script,
            f.last_script,
            f.total_script * 1000.0 / DELTAS as f64
        );
    }
}

/// The pipeline (SSE → JSON → compat → enforcement → chunks → verification → reducer) against
/// a bare "split on blank lines + `JSON.parse`" of the same bytes in the same page (issue 15
/// item 3): four workloads, medians of interleaved runs, the ratio printed.
#[wasm_bindgen_test]
async fn bench_pipeline_against_the_json_parse_floor() {
    use agui_leptos::protocol::{Pipeline, PipelineOptions, Thread};
    const FLOOR_REPS: usize = 15;
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    console_log!(
        "\npipeline vs floor ({profile} build, headless Chromium; median of {FLOOR_REPS}; \
         floor = TextDecoder + split on blank lines + JSON.parse of each data line, timed in \
         JS; pipeline = Pipeline::push_bytes of all the bytes + finish, timed in Rust)"
    );
    console_log!(
        "{:<30} {:>9} {:>7} {:>10} {:>12} {:>7}",
        "workload",
        "bytes",
        "events",
        "floor ms",
        "pipeline ms",
        "ratio"
    );
    for (name, bytes) in workloads::all() {
        floor_hold(&bytes);
        let (mut floor, mut pipe) = (Vec::new(), Vec::new());
        let mut frames = 0.0;
        let mut events = 0;
        // Small workloads repeat inside one timing (the clock's resolution is coarse).
        let times = (1_000_000 / bytes.len()).max(1);
        // One warm-up of each, then interleaved runs.
        for rep in 0..=FLOOR_REPS {
            let f = floor_run(times as u32);
            frames = f[1];
            let t0 = now();
            for _ in 0..times {
                let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
                events = p.push_bytes(&bytes).len() + p.finish().len();
                assert!(p.error().is_none(), "{name}: {:?}", p.error());
            }
            let t = (now() - t0) / times as f64;
            if rep > 0 {
                floor.push(f[0]);
                pipe.push(t);
            }
            yield_task().await;
        }
        assert!(frames > 0.0 && events > 0, "{name}");
        let (f, p) = (median(floor), median(pipe));
        console_log!(
            "{:<30} {:>9} {:>7} {:>10.2} {:>12.2} {:>6.1}×",
            name,
            bytes.len(),
            events,
            f,
            p,
            p / f
        );
    }
}
