//! The `replay` example as a command-line tool: each test runs it through
//! `cargo run --quiet --example replay` (a no-op rebuild after the first) on the traces in
//! `examples/data/` or on a stream written for the test, and checks the JSON it prints and its
//! exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data")
        .join(name)
        .display()
        .to_string()
}

/// A scratch file for one test.
fn scratch(name: &str, contents: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("replay-cli-{name}"));
    std::fs::write(&path, contents).expect("write scratch file");
    path.display().to_string()
}

/// Run the example with `args`, feeding `stdin`.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--quiet", "--example", "replay"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    let mut child = cmd
        .arg("--")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cargo run");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for replay")
}

/// Run, require exit 0, and parse the report.
fn report(args: &[&str], stdin: &str) -> Value {
    let out = run(args, stdin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "replay {args:?} exited with {}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}):\n{stdout}"));
    for key in ["messages", "state", "outcome", "warnings"] {
        assert!(value.get(key).is_some(), "report lacks {key}: {value:#}");
    }
    value
}

fn messages(report: &Value) -> &Vec<Value> {
    report["messages"].as_array().expect("messages array")
}

#[test]
fn lisbon_run_succeeds_with_state_and_tool_messages() {
    let r = report(
        &["--input", &data("lisbon-request.json"), &data("lisbon.sse")],
        "",
    );
    assert_eq!(r["outcome"]["type"], "success", "{:#}", r["outcome"]);
    assert_eq!(r["outcome"]["pendingToolCallIds"], serde_json::json!([]));
    assert_eq!(r["warnings"], serde_json::json!([]), "a clean run is quiet");

    // The deltas added two venues to the snapshot's empty list and updated the budget.
    let venues = r["state"]["venues"].as_array().expect("state.venues");
    let names: Vec<&str> = venues.iter().filter_map(|v| v["name"].as_str()).collect();
    assert_eq!(names, ["O Velho Eurico", "Cervejaria Ramiro"]);
    assert_eq!(r["state"]["steps"].as_array().map(Vec::len), Some(2));
    assert_eq!(r["state"]["budget"]["remaining"], 900);

    let ms = messages(&r);
    // Seeded from --input, first.
    assert_eq!(ms[0]["id"], "msg-user-1");
    assert_eq!(ms[0]["role"], "user");
    // The assistant message holding the call, and its tool result right after it.
    let i = ms
        .iter()
        .position(|m| m["role"] == "assistant" && m.get("toolCalls").is_some())
        .expect("an assistant message with toolCalls");
    let call = &ms[i]["toolCalls"][0];
    assert_eq!(call["function"]["name"], "search_venues");
    let args: Value = serde_json::from_str(call["function"]["arguments"].as_str().expect("args"))
        .expect("streamed arguments assemble into JSON");
    assert_eq!(
        args,
        serde_json::json!({"city": "Lisbon", "kind": "restaurant", "capacity": 12})
    );
    let tool = &ms[i + 1];
    assert_eq!(tool["role"], "tool");
    assert_eq!(tool["toolCallId"], call["id"]);
    let venues: Value = serde_json::from_str(tool["content"].as_str().expect("tool content"))
        .expect("tool result is a JSON string");
    assert_eq!(venues.as_array().map(Vec::len), Some(3));

    // Activity and reasoning messages are part of what the client holds.
    let activity = ms
        .iter()
        .find(|m| m["role"] == "activity")
        .expect("activity message");
    assert_eq!(activity["activityType"], "PLAN");
    assert_eq!(activity["content"]["percent"], 100);
    assert!(ms.iter().any(|m| m["role"] == "reasoning"));
    let last = ms.last().expect("final answer");
    assert_eq!(last["role"], "assistant");
    assert!(last["content"]
        .as_str()
        .is_some_and(|c| c.starts_with("## Two dinners")));
}

#[test]
fn lisbon_without_input_starts_with_the_stream() {
    let r = report(&[&data("lisbon.sse")], "");
    assert_eq!(r["outcome"]["type"], "success");
    assert_ne!(messages(&r)[0]["role"], "user");
}

#[test]
fn legacy_on_interrupt_is_an_interrupt() {
    let r = report(&[&data("interrupt.sse")], "");
    assert_eq!(r["outcome"]["type"], "interrupt", "{:#}", r["outcome"]);
    let interrupts = r["outcome"]["interrupts"].as_array().expect("interrupts");
    assert_eq!(interrupts.len(), 1);
    assert_eq!(
        interrupts[0]["message"],
        "Book O Velho Eurico for 12 people on Friday at 20:00?"
    );
    assert_eq!(interrupts[0]["metadata"]["value"]["booking"]["party"], 12);
}

#[test]
fn truncated_body_is_truncated_and_keeps_the_message() {
    let r = report(&[&data("truncated.sse")], "");
    assert_eq!(r["outcome"], serde_json::json!({"type": "truncated"}));
    let ms = messages(&r);
    assert_eq!(ms.len(), 1);
    assert_eq!(
        ms[0]["content"],
        "Checking availability at O Velho Eurico for Friday… they have a table for 12 at"
    );
    let warnings = r["warnings"].to_string();
    assert!(warnings.contains("run-9e2d57f4"), "{warnings}");
}

const MALFORMED: &str = "\
data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}

data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}

data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"kept\"}

data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":42}

data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}

data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}

";

#[test]
fn malformed_event_fails_naming_the_field() {
    // From standard input.
    let r = report(&["-"], MALFORMED);
    assert_eq!(r["outcome"]["type"], "failed", "{:#}", r["outcome"]);
    let error = r["outcome"]["error"].as_str().expect("error text");
    assert!(error.contains("delta"), "{error}");
    assert!(error.contains("TEXT_MESSAGE_CONTENT"), "{error}");
    // What arrived before the violation stays.
    assert_eq!(messages(&r)[0]["content"], "kept");
}

#[test]
fn jsonl_trace_is_replayed_line_by_line() {
    let jsonl = MALFORMED
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|l| !l.contains("42"))
        .collect::<Vec<_>>()
        .join("\n");
    let path = scratch("ok.jsonl", &jsonl);
    let r = report(&[&path], "");
    assert_eq!(r["outcome"]["type"], "success", "{:#}", r);
    assert_eq!(messages(&r)[0]["content"], "kept");

    // A failure names its line.
    let path = scratch("bad.jsonl", &format!("{jsonl}\n{{\"type\":\"RUN_STARTED\""));
    let r = report(&[&path], "");
    assert_eq!(r["outcome"]["type"], "failed", "{:#}", r);
    let warnings = r["warnings"].to_string();
    assert!(warnings.contains("JSONL line 6"), "{warnings}");
}

#[test]
fn an_inspector_trace_replays_run_by_run_with_each_runs_input() {
    // examples/data/demo-trace.jsonl: two demo runs exported by the event inspector.
    let r = report(&[&data("demo-trace.jsonl")], "");
    assert_eq!(r["outcome"]["type"], "success", "{:#}", r);
    let ms = messages(&r);
    let users: Vec<&Value> = ms.iter().filter(|m| m["role"] == "user").collect();
    assert_eq!(users.len(), 2, "both runs' inputs are replayed");
    assert_eq!(users[1]["content"], "think");
    assert!(
        ms.iter().any(|m| m["role"] == "tool"),
        "the first run's tool result"
    );
    assert!(ms.last().is_some_and(|m| m["role"] == "assistant"));

    // Its raw export is a plain SSE body (the assistant's side of both runs).
    let raw = report(&[&data("demo-trace.sse")], "");
    assert_eq!(raw["outcome"]["type"], "success", "{:#}", raw);
    assert_eq!(messages(&raw).len(), ms.len() - 2);
}

#[test]
fn run_error_and_empty_body() {
    let r = report(
        &["-"],
        "data: {\"type\":\"RUN_ERROR\",\"message\":\"model overloaded\"}\n\n",
    );
    assert_eq!(
        r["outcome"],
        serde_json::json!({"type": "error", "message": "model overloaded", "code": null})
    );
    let r = report(&["-"], "");
    assert_eq!(r["outcome"]["type"], "truncated");
    assert!(r["warnings"].to_string().contains("empty"));
}

#[test]
fn missing_file_is_a_usage_error() {
    let out = run(&["no/such/trace.sse"], "");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no/such/trace.sse"), "{stderr}");
}

#[test]
fn bad_arguments_and_bad_input_are_usage_errors() {
    let out = run(&["--peer-version", "latest", &data("lisbon.sse")], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--peer-version"));

    let bad = scratch(
        "bad-input.json",
        "{\"messages\": [{\"id\": 7, \"role\": \"user\"}]}",
    );
    let out = run(&["--input", &bad, &data("lisbon.sse")], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/0/id"), "{stderr}");
}
