//! Trace files: a thread's event log written out, read back and replayed (issue 6). Pure.
//!
//! Two formats:
//!
//! - **`.sse`** — the raw response bytes exactly as received, every run of the thread
//!   concatenated ([`EventLog::raw_bytes`]). Feed it to `examples/replay.rs` (with `--input`
//!   for the history a single run was sent with) or any SSE tool.
//! - **`.jsonl`** — the complete trace, one JSON object per line:
//!
//!   ```text
//!   {"aguiTrace":1,"events":N,"runs":R}                          header (first line)
//!   {"offsetMs":0.0,"run":{"messages":[…],"state":{…}}}          a run starts: the thread as sent
//!   {"offsetMs":12.5,"event":{"type":"RUN_STARTED",…}}           one line per delivered event
//!   {"offsetMs":13.0,"event":{…},"warnings":["…"],"error":"…"}   with what it caused, if anything
//!   {"offsetMs":14.0,"warnings":["…"]}                           a frame that delivered no event
//!   ```
//!
//!   `offsetMs` is the arrival time in milliseconds since the thread's first run began. On
//!   reading, `run` lines reset the thread to the history and state that run was sent with
//!   (the person's messages are not events), `event` lines are replayed in order, lines with
//!   neither are informational, and a bare event object (`{"type":…}`, the older one-event-per-
//!   line trace) is an event at offset 0.
//!
//! Replaying (here, in `examples/replay.rs` and in the app) sends every event through the whole
//! pipeline as an SSE frame, so a trace takes exactly the path a live body takes.

use serde_json::{json, Map, Value};

use crate::event_log::EventLog;
use crate::protocol::{Message, Pipeline, PipelineOptions, Thread};

/// The `aguiTrace` version written in the header.
pub const TRACE_VERSION: u64 = 1;

/// The history and state a run was sent with.
#[derive(Debug, Clone, PartialEq)]
pub struct RunInput {
    pub messages: Vec<Message>,
    pub state: Value,
}

/// One run of a trace.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TraceRun {
    /// `None`: continue from the thread as the previous run left it.
    pub input: Option<RunInput>,
    /// (arrival offset in ms, event JSON).
    pub events: Vec<(f64, Value)>,
}

/// A trace read from a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Trace {
    /// Raw SSE bytes (no timing, no inputs).
    Sse(Vec<u8>),
    Runs(Vec<TraceRun>),
}

/// Why a trace file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TraceError {
    #[error("line {line}: not valid JSON: {message}")]
    Json { line: usize, message: String },
    #[error("line {line}: expected a JSON object")]
    NotAnObject { line: usize },
    #[error("line {line}: the run's messages cannot be read: {message}")]
    Messages { line: usize, message: String },
    #[error("the file holds no events")]
    Empty,
}

/// The log as a JSONL trace (format above).
pub fn to_jsonl(log: &EventLog) -> String {
    let mut out = String::new();
    let header = json!({"aguiTrace": TRACE_VERSION, "events": log.len(), "runs": log.runs().len()});
    out.push_str(&header.to_string());
    out.push('\n');
    let mut next_run = 0;
    for i in 0..log.len() {
        let run = log.run_of(i).unwrap_or(0);
        while next_run <= run {
            write_run(log, next_run, &mut out);
            next_run += 1;
        }
        let mut line = Map::new();
        line.insert("offsetMs".into(), json!(log.at_ms(i).unwrap_or(0.0)));
        let event = log.event_json(i);
        if !event.is_empty() {
            // The stored JSON is what serde wrote: valid by construction.
            let value = serde_json::from_slice(event).unwrap_or(Value::Null);
            line.insert("event".into(), value);
        }
        if let Some(d) = log.diagnostics(i) {
            if !d.warnings.is_empty() {
                line.insert("warnings".into(), json!(d.warnings));
            }
            if let Some(e) = &d.error {
                line.insert("error".into(), json!(e));
            }
        }
        out.push_str(&Value::Object(line).to_string());
        out.push('\n');
    }
    for run in next_run..log.runs().len() {
        write_run(log, run, &mut out);
    }
    out
}

fn write_run(log: &EventLog, run: usize, out: &mut String) {
    let Some(thread) = log.run_input(run) else {
        return;
    };
    let started = log.runs().get(run).map_or(0.0, |r| r.metrics.started_ms);
    let line = json!({
        "offsetMs": started,
        "run": {"messages": thread.messages, "state": thread.state},
    });
    out.push_str(&line.to_string());
    out.push('\n');
}

/// Read a trace: JSONL when `name` ends in `.jsonl`/`.json` or the first non-blank byte is
/// `{`, raw SSE otherwise.
pub fn parse(name: &str, bytes: &[u8]) -> Result<Trace, TraceError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let jsonl = name.ends_with(".jsonl")
        || name.ends_with(".json")
        || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if !jsonl {
        if bytes.is_empty() {
            return Err(TraceError::Empty);
        }
        return Ok(Trace::Sse(bytes.to_vec()));
    }
    let text = String::from_utf8_lossy(bytes);
    let mut runs: Vec<TraceRun> = Vec::new();
    let mut events = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| TraceError::Json {
            line: line_no,
            message: e.to_string(),
        })?;
        let Value::Object(mut obj) = value else {
            return Err(TraceError::NotAnObject { line: line_no });
        };
        let offset = obj.get("offsetMs").and_then(Value::as_f64).unwrap_or(0.0);
        if let Some(run) = obj.remove("run") {
            let messages = run
                .get("messages")
                .cloned()
                .unwrap_or_else(|| Value::Array(Vec::new()));
            let messages: Vec<Message> =
                serde_json::from_value(messages).map_err(|e| TraceError::Messages {
                    line: line_no,
                    message: e.to_string(),
                })?;
            let state = match run.get("state") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(s) => s.clone(),
            };
            runs.push(TraceRun {
                input: Some(RunInput { messages, state }),
                events: Vec::new(),
            });
            continue;
        }
        let event = match obj.remove("event") {
            Some(e) => e,
            None if obj.contains_key("type") => Value::Object(obj),
            None => continue,
        };
        if runs.is_empty() {
            runs.push(TraceRun::default());
        }
        if let Some(run) = runs.last_mut() {
            run.events.push((offset, event));
            events += 1;
        }
    }
    if events == 0 && runs.is_empty() {
        return Err(TraceError::Empty);
    }
    Ok(Trace::Runs(runs))
}

/// One event as the SSE frame a server would send.
pub fn sse_frame(event: &Value) -> Vec<u8> {
    format!("data: {event}\n\n").into_bytes()
}

/// The thread a run starts from: its sent history and state, with what the thread knew about
/// earlier runs (status, warnings, subagents) carried over.
pub fn continue_with(previous: Thread, input: &RunInput) -> Thread {
    let mut thread = Thread::with_history(input.messages.clone(), input.state.clone());
    thread.runs = previous.runs;
    thread.warnings = previous.warnings;
    thread.subagents = previous.subagents;
    thread
}

/// Replay a whole trace through fresh pipelines (one per run); returns the last one (its
/// thread is the final thread).
pub fn replay(trace: &Trace, options: &PipelineOptions) -> Pipeline {
    match trace {
        Trace::Sse(bytes) => {
            let mut p = Pipeline::new(Thread::new(), options.clone());
            p.push_bytes(bytes);
            p.finish();
            p
        }
        Trace::Runs(runs) => {
            let mut thread = Thread::new();
            let mut last = None;
            for run in runs {
                if let Some(input) = &run.input {
                    thread = continue_with(thread, input);
                }
                let mut p = Pipeline::new(thread, options.clone());
                for (_, event) in &run.events {
                    p.push_bytes(&sse_frame(event));
                }
                p.finish();
                thread = std::mem::take(&mut p.thread);
                last = Some(p);
            }
            let mut p = last.unwrap_or_else(|| Pipeline::new(Thread::new(), options.clone()));
            p.thread = thread;
            p
        }
    }
}
