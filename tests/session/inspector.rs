//! The event inspector's log (`src/event_log.rs`) and trace files (`src/trace.rs`): time travel
//! through checkpoints equals a plain fold at every event, an exported trace replays to the
//! same thread, the format round-trips, and the memory cap stops recording visibly.

use agui_leptos::demo::{respond, DemoRequest};
use agui_leptos::event_log::{EventLog, LogLimits, DIAGNOSTIC_TYPE};
use agui_leptos::protocol::input::{history_for_request, prepare_request};
use agui_leptos::protocol::{Message, Pipeline, PipelineOptions, Role, RunAgentInput, Thread};
use agui_leptos::trace::{self, Trace};
use serde_json::Value;

/// A live thread driven by the demo agent, recorded into `log` like the app does. Returns the
/// final thread and each run's starting thread.
fn record(log: &mut EventLog, prompts: &[&str]) -> (Thread, Vec<Thread>) {
    record_with(log, prompts, |_, _| {})
}

/// [`record`], with `edit(n, thread)` changing the thread before run `n` (as the client does:
/// retry, edit, regenerate, frontend tool results).
fn record_with(
    log: &mut EventLog,
    prompts: &[&str],
    edit: impl Fn(usize, &mut Thread),
) -> (Thread, Vec<Thread>) {
    let mut thread = Thread::new();
    let mut starts = Vec::new();
    let mut clock = 1_000.0;
    for (n, prompt) in prompts.iter().enumerate() {
        edit(n, &mut thread);
        thread.append(Message::user(format!("u{n}"), (*prompt).to_owned()));
        let input = RunAgentInput {
            thread_id: "t-inspect".into(),
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
        let (body, _) = prepare_request(&input, None).expect("request prepares");
        let chunks = respond(&DemoRequest::from_input(&body));
        starts.push(thread.clone());
        log.begin_run(&thread, clock);
        let mut pipeline = Pipeline::new(thread, PipelineOptions::default());
        for c in &chunks {
            clock += f64::from(c.delay_ms);
            log.push(&mut pipeline, &c.bytes, clock);
        }
        log.finish(&mut pipeline, clock);
        thread = pipeline.thread;
    }
    (thread, starts)
}

const PROMPTS: &[&str] = &[
    "plan our Lisbon offsite",
    "use a tool",
    "think",
    "markdown",
    "drop",
];

fn same_view(a: &Thread, b: &Thread) -> bool {
    a.messages == b.messages && a.state == b.state
}

#[test]
fn scrubbing_to_k_equals_folding_the_first_k_events_for_every_k() {
    // Small checkpoint spacing so the fold crosses many checkpoints and run boundaries.
    let mut log = EventLog::new(LogLimits {
        checkpoint_every: 16,
        max_checkpoints: 8,
        ..LogLimits::default()
    });
    // Between runs the client rewrites history: a retry drops the last answer (run 2), an
    // edit replaces the first exchange and the state (run 4).
    let (live, starts) = record_with(&mut log, PROMPTS, |n, t| match n {
        2 => {
            let last_user = t.messages.iter().rposition(|m| m.role == Role::User);
            t.truncate(last_user.map_or(0, |i| i + 1));
        }
        4 => {
            t.truncate(0);
            t.state = serde_json::json!({"edited": true});
        }
        _ => {}
    });
    assert!(
        log.runs()[1..].iter().all(|r| r.splice.is_some()),
        "later runs are splices"
    );
    assert_eq!(
        log.checkpoints().iter().filter(|c| c.required).count(),
        1,
        "one full snapshot: the starting point"
    );
    assert!(log.len() > 300, "a multi-run trace: {} events", log.len());
    assert_eq!(log.runs().len(), PROMPTS.len());
    assert!(
        log.checkpoints().iter().any(|c| !c.required),
        "optional checkpoints were taken"
    );
    assert!(
        log.checkpoints().iter().filter(|c| !c.required).count() <= 8,
        "thinned to the limit"
    );

    // The reference: a plain fold from each run's starting point, no checkpoints.
    let mut reference = Thread::new();
    let mut run = usize::MAX;
    for k in 0..=log.len() {
        if k > 0 {
            let i = k - 1;
            let r = log.run_of(i).expect("entry has a run");
            if r != run {
                run = r;
                reference = starts[r].clone();
            }
            if let Some(e) = log.event(i).expect("decodes") {
                reference.apply(&e);
            }
        }
        // Before the first event of a later run, the view is that run's starting point.
        let scrubbed = log.thread_at(k).expect("view");
        let expected = match log.run_of(k) {
            Some(r) if log.runs()[r].first_entry == k => &starts[r],
            _ => &reference,
        };
        assert!(
            same_view(&scrubbed, expected),
            "view after {k} events differs from the fold"
        );
    }
    let end = log.thread_at(log.len()).expect("view");
    assert!(same_view(&end, &live), "the last view is the live thread");
}

#[test]
fn every_event_keeps_its_raw_frame_and_the_raw_log_is_the_stream() {
    let mut log = EventLog::new(LogLimits::default());
    record(&mut log, &["use a tool"]);
    let first = String::from_utf8_lossy(log.raw(0)).into_owned();
    assert!(
        first.starts_with("data: ") && first.contains("RUN_STARTED"),
        "{first}"
    );
    assert!(first.ends_with("\n\n"));
    for i in 0..log.len() {
        let raw = String::from_utf8_lossy(log.raw(i)).into_owned();
        let kind = log.kind(i).expect("kind");
        assert!(
            raw.contains(kind) || raw.contains("CHUNK"),
            "entry {i} {kind}: {raw}"
        );
        assert!(log.at_ms(i).expect("time") >= 0.0);
    }
    // Replaying the raw bytes of the log gives the same thread.
    let replayed = trace::replay(
        &Trace::Sse(log.raw_bytes().to_vec()),
        &PipelineOptions::default(),
    );
    let live = log.thread_at(log.len()).expect("view");
    assert_eq!(replayed.thread.state, live.state);
    assert_eq!(
        replayed.thread.messages,
        live.messages[1..],
        "all but the user message"
    );
}

#[test]
fn an_exported_jsonl_trace_replays_to_the_live_thread() {
    let mut log = EventLog::new(LogLimits::default());
    let (live, _) = record(&mut log, PROMPTS);
    let text = trace::to_jsonl(&log);
    let parsed = trace::parse("t.jsonl", text.as_bytes()).expect("parses");
    let Trace::Runs(runs) = &parsed else {
        panic!("a JSONL trace has runs")
    };
    assert_eq!(runs.len(), PROMPTS.len());
    let events: usize = runs.iter().map(|r| r.events.len()).sum();
    let delivered = (0..log.len())
        .filter(|&i| log.kind(i) != Some(DIAGNOSTIC_TYPE))
        .count();
    assert_eq!(events, delivered);
    // Offsets are the arrival times, in order.
    let offsets: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.events.iter().map(|e| e.0))
        .collect();
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]));
    assert!(
        offsets.last().copied().unwrap_or(0.0) > 1_000.0,
        "real timing kept"
    );

    let replayed = trace::replay(&parsed, &PipelineOptions::default());
    assert_eq!(replayed.thread.messages, live.messages);
    assert_eq!(replayed.thread.state, live.state);
    // The truncated last run ("drop") is a truncated run in the replay too.
    assert_eq!(replayed.thread.status().name(), live.status().name());

    // Round trip: recording the replay and exporting again gives the same events.
    let again = {
        let mut log2 = EventLog::new(LogLimits::default());
        let mut thread = Thread::new();
        for run in runs {
            if let Some(input) = &run.input {
                thread = trace::continue_with(thread, input);
            }
            log2.begin_run(&thread, 0.0);
            let mut p = Pipeline::new(thread, PipelineOptions::default());
            for (at, e) in &run.events {
                log2.push(&mut p, &trace::sse_frame(e), *at);
            }
            log2.finish(&mut p, 0.0);
            thread = std::mem::take(&mut p.thread);
        }
        trace::parse("again.jsonl", trace::to_jsonl(&log2).as_bytes()).expect("parses")
    };
    let Trace::Runs(again) = again else {
        panic!("runs")
    };
    let strip = |rs: &[trace::TraceRun]| -> Vec<Vec<Value>> {
        rs.iter()
            .map(|r| r.events.iter().map(|e| e.1.clone()).collect())
            .collect()
    };
    assert_eq!(strip(runs), strip(&again));
}

#[test]
fn trace_files_that_are_not_traces_are_errors_not_panics() {
    assert!(matches!(
        trace::parse("x.jsonl", b"{\"event\": 1}\nnot json\n"),
        Err(trace::TraceError::Json { line: 2, .. })
    ));
    assert!(matches!(
        trace::parse("x.jsonl", b"[1,2]\n"),
        Err(trace::TraceError::NotAnObject { line: 1 })
    ));
    assert_eq!(trace::parse("x.sse", b""), Err(trace::TraceError::Empty));
    // The older one-event-per-line trace still reads.
    let old = b"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n";
    let Ok(Trace::Runs(runs)) = trace::parse("old.jsonl", old) else {
        panic!("reads")
    };
    assert_eq!(runs[0].events.len(), 1);
}

#[test]
fn beyond_the_cap_recording_stops_with_a_notice_and_memory_stays_bounded() {
    let limits = LogLimits {
        max_bytes: 256 * 1024,
        ..LogLimits::default()
    };
    let mut log = EventLog::new(limits);
    let (live, _) = record(&mut log, &["long", "long", "long", "long"]);
    let notice = log.stopped().expect("recording stopped");
    assert!(notice.contains("recording stopped"), "{notice}");
    assert!(
        log.heap_bytes() <= limits.max_bytes,
        "{} bytes",
        log.heap_bytes()
    );
    let n = log.len();
    assert!(n > 100, "recorded until full: {n}");
    // What was recorded stays exact: the view at the last recorded event is a prefix of the
    // live conversation.
    let view = log.thread_at(n).expect("view");
    assert!(view.messages.len() <= live.messages.len());
    assert_eq!(view.messages.first(), live.messages.first());
}

#[test]
fn state_leaves_are_pointers_with_values_and_changes_cover_subtrees() {
    use agui_leptos::event_log::{is_changed, state_leaves};
    let state = serde_json::json!({"a": {"b": 1, "c/d": [true, {}]}, "e": "x"});
    let (leaves, cut) = state_leaves(&state, 10);
    assert!(!cut);
    let paths: Vec<&str> = leaves.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(paths, ["/a/b", "/a/c~1d/0", "/a/c~1d/1", "/e"]);
    assert_eq!(leaves[3].1, "\"x\"");
    let (few, cut) = state_leaves(&state, 2);
    assert!(cut && few.len() == 2);
    assert!(is_changed("/a/b", &["/a".into()]));
    assert!(!is_changed("/ab", &["/a".into()]));
    assert!(is_changed("/e", &["".into()]));
}

/// The sample traces in `examples/data/` are what this code exports for two demo runs
/// (regenerate with `UPDATE_SAMPLES=1 cargo test --test session inspector::`).
#[test]
fn the_sample_traces_are_what_the_inspector_exports() {
    let mut log = EventLog::new(LogLimits::default());
    let (live, _) = record(&mut log, &["use a tool", "think"]);
    let jsonl = trace::to_jsonl(&log);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    let (jsonl_path, sse_path) = (dir.join("demo-trace.jsonl"), dir.join("demo-trace.sse"));
    if std::env::var_os("UPDATE_SAMPLES").is_some() {
        std::fs::write(&jsonl_path, &jsonl).expect("write sample");
        std::fs::write(&sse_path, log.raw_bytes()).expect("write sample");
    }
    let sample = std::fs::read_to_string(&jsonl_path).expect("sample exists");
    assert_eq!(
        sample, jsonl,
        "examples/data/demo-trace.jsonl is out of date"
    );
    let raw = std::fs::read(&sse_path).expect("sample exists");
    assert_eq!(
        raw,
        log.raw_bytes(),
        "examples/data/demo-trace.sse is out of date"
    );
    let replayed = trace::replay(
        &trace::parse("demo-trace.jsonl", sample.as_bytes()).expect("parses"),
        &PipelineOptions::default(),
    );
    assert_eq!(replayed.thread.messages, live.messages);
}
