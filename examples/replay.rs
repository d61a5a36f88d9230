//! Replay a recorded AG-UI response body through the protocol pipeline and print what the
//! client ends up holding: the final messages, the state, how the run ended, and every warning.
//! It is the tool for debugging a trace: bad input yields a message, never a panic.
//!
//! # Usage
//!
//! ```text
//! cargo run --release --example replay -- [OPTIONS] STREAM
//!
//!   STREAM                 the response body: an SSE file (raw bytes, `text/event-stream`), or a
//!                          JSONL trace (one event JSON object per line) when the name ends in
//!                          `.jsonl`; `-` reads standard input
//!   --input REQUEST.json   the RunAgentInput that was sent: its `messages` (upgraded from legacy
//!                          shapes and enforced like inbound messages) and its `state` (`{}` when
//!                          absent or null) seed the thread before the stream is applied
//!   --peer-version X.Y.Z   the agent's highest protocol version, when pinned (enables the
//!                          downgrades for older peers, e.g. `0.0.57`)
//!   --format sse|jsonl     override the format guessed from the file name (needed for JSONL on
//!                          standard input)
//!   --chunk BYTES          feed the body BYTES at a time instead of in one push (to reproduce a
//!                          problem that depends on how the network split the body; SSE only)
//!   -h, --help             this text
//! ```
//!
//! Examples:
//!
//! ```text
//! cargo run --release --example replay -- \
//!     --input examples/data/lisbon-request.json examples/data/lisbon.sse
//! curl -sN -X POST "$AGENT" -d @request.json | tee body.sse \
//!     | cargo run --release --example replay -- --input request.json -
//! ```
//!
//! A JSONL trace is replayed by rendering each non-blank line as one SSE frame
//! (`data: <line>\n\n`), so it takes exactly the path a live body takes; when it fails, a
//! warning names the line that failed the stream.
//!
//! A trace exported by the app's event inspector (first line `{"aguiTrace":1,…}`, then
//! `{"offsetMs":…,"run":{…}}` and `{"offsetMs":…,"event":{…}}` lines; format in
//! `src/trace.rs`) is replayed run by run: each `run` line starts a fresh pipeline on the
//! history and state that run was sent with (`--input` is then not needed and ignored), its
//! events are fed as SSE frames, and the report describes the last run. Its `.sse` export is a
//! plain SSE body.
//!
//! # Output
//!
//! One pretty-printed JSON object on standard output:
//!
//! ```text
//! {
//!   "messages": [ … ],   // the final AG-UI Message array, activity and reasoning messages
//!                        // included: what the reference client would hold
//!   "state":    …,       // the final state (any JSON value)
//!   "outcome":  { … },   // how the stream ended, see below
//!   "warnings": [ … ]    // strings: every Warning's Display, in order (seeding, then stream),
//!                        // then notes from this tool, prefixed `replay: `
//! }
//! ```
//!
//! `outcome` is one of:
//!
//! | outcome | when |
//! |---|---|
//! | `{"type":"success","pendingToolCallIds":[…]}` | the last run finished with success (or no outcome); the ids are the frontend tool calls it left unanswered (the producer's non-empty list, else derived) |
//! | `{"type":"interrupt","interrupts":[…]}` | the last run paused: standard interrupt outcome, or legacy `CUSTOM on_interrupt` followed by a `RUN_FINISHED` without outcome; AG-UI `Interrupt` JSON |
//! | `{"type":"cancelled"}` | the last run finished with `outcome: {"type":"cancelled"}` |
//! | `{"type":"error","message":…,"code":…}` | the agent sent `RUN_ERROR` (`code` is `null` when absent) |
//! | `{"type":"failed","error":"…"}` | the client refused the stream: a protocol violation (malformed or invalid event, invalid JSON, a lifecycle or streaming rule broken) |
//! | `{"type":"truncated"}` | the body ended inside a run (no `RUN_FINISHED` / `RUN_ERROR`): never a success |
//!
//! A protocol violation wins over the last run's status (an event after `RUN_FINISHED` fails
//! the stream even though that run had finished). A body in which no run started — empty, only
//! comments, or only events that were dropped as unknown — is reported as `truncated` (the body
//! ended before any run began), with a `replay:` warning saying so. When a run was left open,
//! a `replay:` warning names it.
//!
//! # Exit status
//!
//! `0` whatever the outcome (a failed or truncated run is a *result*). `2` for bad arguments,
//! `1` when a file cannot be read or `--input` is not a usable RunAgentInput; the reason goes to
//! standard error and nothing is printed on standard output.

use std::io::{Read, Write};
use std::process::ExitCode;

use agui_leptos::protocol::compat::{upgrade_messages, Version};
use agui_leptos::protocol::enforce::enforce_messages;
use agui_leptos::protocol::{
    Message, Pipeline, PipelineOptions, ProtocolError, RunStatus, Thread, Warning,
};
use agui_leptos::trace;
use serde::Serialize;
use serde_json::{json, Map, Value};

const USAGE: &str = "\
usage: replay [--input REQUEST.json] [--peer-version X.Y.Z] [--format sse|jsonl] [--chunk BYTES] STREAM

  STREAM                 SSE response body, or a JSONL trace when it ends in .jsonl; - = stdin
  --input REQUEST.json   RunAgentInput whose messages and state seed the thread
  --peer-version X.Y.Z   the agent's highest protocol version, when pinned
  --format sse|jsonl     override the format guessed from the file name
  --chunk BYTES          feed the body BYTES at a time (SSE only; default: one push)
  -h, --help             show this help

Prints one JSON object {messages, state, outcome, warnings}; exits 0 whatever the outcome.";

/// Why the replay could not run at all.
#[derive(Debug)]
enum Failure {
    /// `--help`: print the usage and succeed.
    Help,
    /// Bad command line (exit 2).
    Usage(String),
    /// A file that cannot be read or an unusable `--input` (exit 1).
    Input(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Sse,
    Jsonl,
}

#[derive(Debug)]
struct Args {
    input: Option<String>,
    peer_version: Option<Version>,
    format: Option<Format>,
    chunk: Option<usize>,
    stream: String,
}

fn main() -> ExitCode {
    let mut args = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(raw) => {
                return exit_with(Failure::Usage(format!(
                    "argument {raw:?} is not valid UTF-8"
                )))
            }
        }
    }
    let report = match parse_args(&args).and_then(|a| replay(&a)) {
        Ok(report) => report,
        Err(f) => return exit_with(f),
    };
    let text = match serde_json::to_string_pretty(&report) {
        Ok(t) => t,
        Err(e) => return exit_with(Failure::Input(format!("cannot render the report: {e}"))),
    };
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("replay: cannot write to standard output: {e}");
            ExitCode::FAILURE
        }
    }
}

fn exit_with(failure: Failure) -> ExitCode {
    match failure {
        Failure::Help => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Failure::Usage(m) => {
            eprintln!("replay: {m}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Failure::Input(m) => {
            eprintln!("replay: {m}");
            ExitCode::from(1)
        }
    }
}

fn parse_args(args: &[String]) -> Result<Args, Failure> {
    let mut input = None;
    let mut peer_version = None;
    let mut format = None;
    let mut chunk = None;
    let mut positional = Vec::new();
    let mut it = args.iter();
    let mut options_done = false;
    while let Some(arg) = it.next() {
        if options_done || arg == "-" || !arg.starts_with('-') {
            positional.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        if arg == "-h" || arg == "--help" {
            return Err(Failure::Help);
        }
        // `--name value` or `--name=value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, Failure> {
            match inline.clone().or_else(|| it.next().cloned()) {
                Some(v) => Ok(v),
                None => Err(Failure::Usage(format!("{name} needs {what}"))),
            }
        };
        match name {
            "--input" => input = Some(value("a file name")?),
            "--peer-version" => {
                let v = value("a version such as 0.0.57")?;
                match Version::parse(&v) {
                    Some(parsed) => peer_version = Some(parsed),
                    None => {
                        return Err(Failure::Usage(format!(
                            "--peer-version {v:?} is not MAJOR.MINOR[.PATCH] (e.g. 0.0.57)"
                        )))
                    }
                }
            }
            "--format" => {
                let v = value("sse or jsonl")?;
                format = Some(match v.as_str() {
                    "sse" => Format::Sse,
                    "jsonl" => Format::Jsonl,
                    _ => {
                        return Err(Failure::Usage(format!(
                            "--format {v:?}: expected sse or jsonl"
                        )))
                    }
                });
            }
            "--chunk" => {
                let v = value("a byte count")?;
                match v.parse::<usize>() {
                    Ok(n) if n > 0 => chunk = Some(n),
                    _ => {
                        return Err(Failure::Usage(format!(
                            "--chunk {v:?}: expected a positive number of bytes"
                        )))
                    }
                }
            }
            _ => return Err(Failure::Usage(format!("unknown option {arg}"))),
        }
    }
    let stream = match positional.as_slice() {
        [one] => one.clone(),
        [] => return Err(Failure::Usage("no STREAM file given".into())),
        [_, extra, ..] => {
            return Err(Failure::Usage(format!(
                "one STREAM file expected; unexpected extra argument {extra:?}"
            )))
        }
    };
    if stream == "-" && input.as_deref() == Some("-") {
        return Err(Failure::Usage(
            "STREAM and --input cannot both be standard input".into(),
        ));
    }
    Ok(Args {
        input,
        peer_version,
        format,
        chunk,
        stream,
    })
}

fn read_source(path: &str) -> Result<Vec<u8>, Failure> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| Failure::Input(format!("cannot read {path}: {e}")))
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The history and state a `RunAgentInput` file seeds the thread with.
fn seed(
    path: &str,
    warnings: &mut Vec<Warning>,
    notes: &mut Vec<String>,
) -> Result<(Vec<Message>, Value), Failure> {
    let bytes = read_source(path)?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| Failure::Input(format!("--input {path}: not valid JSON: {e}")))?;
    let Value::Object(mut input) = value else {
        return Err(Failure::Input(format!(
            "--input {path}: expected a RunAgentInput object, found {}",
            kind_of(&value)
        )));
    };
    let mut messages = match input.remove("messages") {
        Some(m) => m,
        None => {
            notes.push(format!(
                "replay: --input {path} has no `messages`; the thread starts empty"
            ));
            Value::Array(Vec::new())
        }
    };
    if let Value::Array(ms) = &mut messages {
        upgrade_messages(ms);
    }
    enforce_messages(&mut messages, "input.messages", warnings)
        .map_err(|e| Failure::Input(format!("--input {path}: {e}")))?;
    let history: Vec<Message> = serde_json::from_value(messages)
        .map_err(|e| Failure::Input(format!("--input {path}: messages: {e}")))?;
    let state = match input.remove("state") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(s) => s,
    };
    Ok((history, state))
}

/// Render a JSONL trace as SSE frames, one per non-blank line, with their 1-based line numbers.
fn jsonl_frames(bytes: &[u8]) -> Vec<(usize, Vec<u8>)> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut frames = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let mut frame = Vec::with_capacity(line.len() + 8);
        frame.extend_from_slice(b"data: ");
        // A CR would end the SSE line; in valid JSON it can only be whitespace between tokens.
        frame.extend(line.iter().map(|&b| if b == b'\r' { b' ' } else { b }));
        frame.extend_from_slice(b"\n\n");
        frames.push((i + 1, frame));
    }
    frames
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| Value::String(format!("<unrenderable: {e}>")))
}

fn replay(args: &Args) -> Result<Value, Failure> {
    let mut warnings: Vec<Warning> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let (history, state) = match &args.input {
        Some(path) => seed(path, &mut warnings, &mut notes)?,
        None => (Vec::new(), Value::Object(Map::new())),
    };
    let body = read_source(&args.stream)?;
    let format = args.format.unwrap_or(if args.stream.ends_with(".jsonl") {
        Format::Jsonl
    } else {
        Format::Sse
    });

    let options = PipelineOptions {
        peer_version: args.peer_version,
        ..Default::default()
    };
    if format == Format::Jsonl && is_inspector_trace(&body) {
        let parsed = trace::parse(&args.stream, &body)
            .map_err(|e| Failure::Input(format!("{}: {e}", args.stream)))?;
        if args.input.is_some() {
            notes.push("replay: --input ignored: the trace carries each run's input".into());
        }
        let pipeline = trace::replay(&parsed, &options);
        return Ok(report_of(&pipeline, body.len(), warnings, notes));
    }
    let mut pipeline = Pipeline::new(Thread::with_history(history, state), options);
    match format {
        Format::Sse => match args.chunk {
            Some(n) => {
                for piece in body.chunks(n) {
                    pipeline.push_bytes(piece);
                }
            }
            None => {
                pipeline.push_bytes(&body);
            }
        },
        Format::Jsonl => {
            if args.chunk.is_some() {
                notes.push("replay: --chunk ignored for a JSONL trace (one line per push)".into());
            }
            for (line, frame) in jsonl_frames(&body) {
                pipeline.push_bytes(&frame);
                if pipeline.error().is_some() {
                    notes.push(format!(
                        "replay: the stream failed at JSONL line {line} (outcome.error says why; \
                         a byte offset there counts the trace rendered as SSE)"
                    ));
                    break;
                }
            }
        }
    }
    pipeline.finish();
    Ok(report_of(&pipeline, body.len(), warnings, notes))
}

/// Whether a JSONL body is a trace exported by the app's inspector (its header line).
fn is_inspector_trace(body: &[u8]) -> bool {
    let text = String::from_utf8_lossy(body);
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    first
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| v.get("aguiTrace").is_some())
}

/// The printed report.
fn report_of(
    pipeline: &Pipeline,
    body_len: usize,
    warnings: Vec<Warning>,
    mut notes: Vec<String>,
) -> Value {
    let outcome = outcome(pipeline, body_len, &mut notes);
    let mut all: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    all.extend(pipeline.thread.warnings.iter().map(ToString::to_string));
    all.extend(notes);
    json!({
        "messages": to_json(&pipeline.thread.messages),
        "state": pipeline.thread.state,
        "outcome": outcome,
        "warnings": all,
    })
}

/// How the stream ended: a protocol error first, else the last run's status.
fn outcome(pipeline: &Pipeline, body_len: usize, notes: &mut Vec<String>) -> Value {
    match pipeline.error() {
        Some(e @ ProtocolError::Truncated { .. }) => {
            notes.push(format!("replay: {e}"));
            return json!({"type": "truncated"});
        }
        Some(e) => return json!({"type": "failed", "error": e.to_string()}),
        None => {}
    }
    let Some(run) = pipeline.thread.run() else {
        notes.push(if body_len == 0 {
            "replay: the body is empty: no run started (reported as truncated)".to_owned()
        } else {
            format!(
                "replay: no run started: the {body_len}-byte body held no event that was \
                 delivered (reported as truncated)"
            )
        });
        return json!({"type": "truncated"});
    };
    match &run.status {
        RunStatus::Success { pending } => {
            json!({"type": "success", "pendingToolCallIds": pending})
        }
        RunStatus::Interrupted => {
            json!({"type": "interrupt", "interrupts": to_json(&run.interrupts)})
        }
        RunStatus::Cancelled => json!({"type": "cancelled"}),
        RunStatus::Error { message, code } => {
            json!({"type": "error", "message": message, "code": code})
        }
        RunStatus::Failed { error } => json!({"type": "failed", "error": error}),
        RunStatus::Truncated => json!({"type": "truncated"}),
        RunStatus::Running | RunStatus::Idle => {
            notes.push(format!(
                "replay: the last run is still '{}' after the end of the body (reported as truncated)",
                run.status.name()
            ));
            json!({"type": "truncated"})
        }
    }
}
