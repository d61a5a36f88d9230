//! A benchmark of the event inspector's log (`src/event_log.rs`) — not a test: it prints
//! figures. Run it with
//!
//! ```text
//! cargo bench --profile release --bench bench_inspector
//! ```
//!
//! - **a)** memory: 100,000 events recorded in one run (text deltas of about 8 characters,
//!   a `STATE_DELTA` every 50 events, a tool call every 500), one SSE frame per push; the log's
//!   heap bytes as [`EventLog::heap_bytes`] counts them (buffers by capacity, entries,
//!   checkpoints by the estimated heap of their threads, diagnostics, metrics), and the cost
//!   of recording against the bare pipeline.
//! - **b)** the same with the demo agent: its scripts cycled run after run until 100,000
//!   events or until the log is full (each run's starting point is a full checkpoint).
//! - **c)** scrub latency: on a 10,000-event trace (the first 10,000 events of a) and on the
//!   demo thread of b), time [`EventLog::thread_at`] at 500 pseudo-random positions — what the
//!   inspector does when the scrubber moves (nearest checkpoint, clone, splices, fold forward).

use std::time::Instant;

use agui_leptos::demo::{respond, DemoRequest, TRIGGERS};
use agui_leptos::event_log::{EventLog, LogLimits};
use agui_leptos::protocol::input::{history_for_request, prepare_request};
use agui_leptos::protocol::{Message, Pipeline, PipelineOptions, RunAgentInput, Thread};
use serde_json::{json, Value};

fn frame(v: Value) -> Vec<u8> {
    format!("data: {v}\n\n").into_bytes()
}

/// `n` events of one run as SSE frames.
fn synthetic(n: usize) -> Vec<Vec<u8>> {
    let mut out = vec![
        frame(json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})),
        frame(json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 0, "items": []}})),
    ];
    let mut msg = 0;
    let mut open = false;
    let words = [
        "lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "consec ", "tetur ",
    ];
    while out.len() < n - 1 {
        let i = out.len();
        if i % 500 == 0 {
            if open {
                out.push(frame(
                    json!({"type": "TEXT_MESSAGE_END", "messageId": format!("m{msg}")}),
                ));
                open = false;
            }
            let id = format!("tc{i}");
            out.push(frame(
                json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": "search"}),
            ));
            out.push(frame(
                json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": "{\"q\":\"lisbon\"}"}),
            ));
            out.push(frame(json!({"type": "TOOL_CALL_END", "toolCallId": id})));
            out.push(frame(json!({"type": "TOOL_CALL_RESULT", "messageId": format!("r{i}"), "toolCallId": id, "content": "3 venues"})));
        } else if i % 50 == 0 {
            out.push(frame(json!({"type": "STATE_DELTA", "delta": [
                {"op": "replace", "path": "/count", "value": i},
                {"op": "add", "path": "/items/-", "value": i}
            ]})));
        } else {
            if !open {
                msg += 1;
                out.push(frame(json!({"type": "TEXT_MESSAGE_START", "messageId": format!("m{msg}"), "role": "assistant"})));
                open = true;
            }
            out.push(frame(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": format!("m{msg}"), "delta": words[i % words.len()]})));
        }
    }
    if open {
        out.push(frame(
            json!({"type": "TEXT_MESSAGE_END", "messageId": format!("m{msg}")}),
        ));
    }
    out.push(frame(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ));
    out
}

fn record(frames: &[Vec<u8>]) -> (EventLog, f64) {
    let mut log = EventLog::new(LogLimits::default());
    let t0 = Instant::now();
    let thread = Thread::new();
    log.begin_run(&thread, 0.0);
    let mut p = Pipeline::new(thread, PipelineOptions::default());
    for (i, f) in frames.iter().enumerate() {
        log.push(&mut p, f, i as f64);
    }
    log.finish(&mut p, frames.len() as f64);
    (log, t0.elapsed().as_secs_f64() * 1e3)
}

fn bare(frames: &[Vec<u8>]) -> f64 {
    let t0 = Instant::now();
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    for f in frames {
        p.push_bytes(f);
    }
    p.finish();
    std::hint::black_box(&p);
    t0.elapsed().as_secs_f64() * 1e3
}

fn mb(b: usize) -> String {
    format!("{:.1} MB", b as f64 / 1e6)
}

fn describe(name: &str, log: &EventLog) {
    let raw = log.raw_bytes().len();
    println!(
        "{name}: {} events, {} runs, log heap {} ({:.0} B/event; raw SSE {}), {} checkpoints, {}",
        log.len(),
        log.runs().len(),
        mb(log.heap_bytes()),
        log.heap_bytes() as f64 / log.len().max(1) as f64,
        mb(raw),
        log.checkpoints().len(),
        log.stopped()
            .map_or("recording complete".to_owned(), |s| format!("STOPPED: {s}")),
    );
}

fn demo_runs(target: usize) -> EventLog {
    let mut log = EventLog::new(LogLimits::default());
    let mut thread = Thread::new();
    let mut clock = 0.0;
    let prompts: Vec<&str> = TRIGGERS
        .iter()
        .map(|t| t.0)
        .filter(|p| !["ask me", "approve", "pay", "legacy interrupt"].contains(p))
        .collect();
    let mut n = 0;
    while log.len() < target && log.stopped().is_none() {
        let prompt = prompts[n % prompts.len()];
        thread.append(Message::user(format!("u{n}"), prompt.to_owned()));
        let input = RunAgentInput {
            thread_id: "bench".into(),
            run_id: format!("run-{n}"),
            protocol_version: None,
            parent_run_id: None,
            state: Some(thread.state.clone()),
            messages: history_for_request(&thread.messages),
            tools: None,
            context: None,
            forwarded_props: None,
            resume: None,
        };
        let Ok((body, _)) = prepare_request(&input, None) else {
            break;
        };
        log.begin_run(&thread, clock);
        let mut p = Pipeline::new(thread, PipelineOptions::default());
        for c in respond(&DemoRequest::from_input(&body)) {
            clock += f64::from(c.delay_ms);
            log.push(&mut p, &c.bytes, clock);
        }
        log.finish(&mut p, clock);
        thread = p.thread;
        n += 1;
    }
    log
}

fn main() {
    println!("a) memory, 100,000 events in one run");
    let frames = synthetic(100_000);
    let (log, ms) = record(&frames);
    let bare_ms = bare(&frames);
    describe("   synthetic", &log);
    println!(
        "   recording {ms:.0} ms ({:.0}k events/s) vs the bare pipeline {bare_ms:.0} ms",
        log.len() as f64 / ms
    );

    println!("b) memory, demo agent runs until 100,000 events or full");
    let t0 = Instant::now();
    let demo = demo_runs(100_000);
    describe("   demo", &demo);
    println!("   ({:.1} s)", t0.elapsed().as_secs_f64());

    println!("c) scrub latency (500 random positions)");
    let (log10k, _) = record(&frames[..10_000]);
    scrub("   10,000-event trace", &log10k, 500);
    scrub("   the 100,000-event demo thread of b)", &demo, 500);
}

/// Time `thread_at` at `n` pseudo-random positions of `log`.
fn scrub(name: &str, log: &EventLog, n: usize) {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut times = Vec::new();
    for _ in 0..n {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let k = (seed >> 33) as usize % (log.len() + 1);
        let t0 = Instant::now();
        let t = log.thread_at(k).expect("view");
        std::hint::black_box(&t);
        times.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    println!(
        "{name}: {} events, {} checkpoints: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        log.len(),
        log.checkpoints().len(),
        pct(0.5),
        pct(0.95),
        pct(1.0)
    );
}
