//! The byte streams the pipeline benchmark feeds (pure: also built natively by
//! `benches/pipeline_floor.rs`). Each is a whole AG-UI SSE response.

use serde_json::{json, Value};

fn frame(out: &mut Vec<u8>, event: &Value) {
    out.extend_from_slice(b"data: ");
    out.extend_from_slice(event.to_string().as_bytes());
    out.extend_from_slice(b"\n\n");
}

fn start_run(out: &mut Vec<u8>) {
    frame(
        out,
        &json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
    );
}

fn finish_run(out: &mut Vec<u8>) {
    frame(
        out,
        &json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    );
}

fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

const WORDS: &[&str] = &[
    "the",
    "team",
    "offsite",
    "in",
    "Lisbon",
    "could",
    "start",
    "on",
    "a",
    "Tuesday",
    "with",
    "walk",
    "through",
    "Alfama",
    "before",
    "lunch",
    "near",
    "river",
    "budget",
    "per",
    "person",
    "stays",
    "under",
    "two",
    "hundred",
    "euros",
    "and",
    "venue",
    "has",
    "room",
    "**for**",
    "everyone",
    "while",
    "trams",
    "run",
    "every",
    "few",
    "minutes.\n\n",
    "- ",
];

/// 20,000 `TEXT_MESSAGE_CONTENT` deltas of 6–10 characters into one answer.
pub fn text_deltas(n: usize) -> Vec<u8> {
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    let mut out = Vec::new();
    start_run(&mut out);
    frame(
        &mut out,
        &json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
    );
    let mut text = String::new();
    for _ in 0..n {
        while text.len() < 10 {
            text.push_str(WORDS[(rng(&mut seed) % WORDS.len() as u64) as usize]);
            text.push(' ');
        }
        let len = 6 + (rng(&mut seed) % 5) as usize;
        let delta: String = text.drain(..len).collect();
        frame(
            &mut out,
            &json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": delta}),
        );
    }
    frame(
        &mut out,
        &json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
    );
    finish_run(&mut out);
    out
}

/// A real run as the demo agent sends it (text, tool calls with streamed arguments, results,
/// state snapshots and deltas, several runs): `examples/data/demo-trace.sse`.
pub fn real_run() -> Vec<u8> {
    include_bytes!("../../examples/data/demo-trace.sse").to_vec()
}

/// A LangGraph-style run (~160 KB): every streamed token comes with a `RAW` event carrying the
/// LangChain callback it came from (chunk, run ids, tags, metadata), as `ag-ui-langgraph`
/// forwards them, and the events carry `rawEvent` too.
pub fn langgraph_run() -> Vec<u8> {
    let mut seed = 0x1234_5678_9ABC_DEF1;
    let mut out = Vec::new();
    start_run(&mut out);
    frame(
        &mut out,
        &json!({"type": "STATE_SNAPSHOT", "snapshot": {"messages": [], "plan": {"days": []}}}),
    );
    frame(
        &mut out,
        &json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
    );
    for i in 0..85 {
        let word = WORDS[(rng(&mut seed) % WORDS.len() as u64) as usize];
        let chunk = json!({
            "content": word,
            "additional_kwargs": {},
            "response_metadata": {"model_name": "gpt-4o-2024-08-06", "system_fingerprint": "fp_5f20662549"},
            "type": "AIMessageChunk",
            "name": null,
            "id": "run-7f3c2a1e-9d4b-4c8e-b2a6-0e5f1d3c7b9a",
            "example": false,
            "tool_calls": [],
            "invalid_tool_calls": [],
            "usage_metadata": null,
            "tool_call_chunks": [],
        });
        let raw = json!({
            "event": "on_chat_model_stream",
            "data": {"chunk": chunk},
            "run_id": "7f3c2a1e-9d4b-4c8e-b2a6-0e5f1d3c7b9a",
            "name": "ChatOpenAI",
            "tags": ["seq:step:1"],
            "metadata": {
                "thread_id": "t", "langgraph_step": 3, "langgraph_node": "planner",
                "langgraph_triggers": ["branch:to:planner"], "langgraph_path": ["__pregel_pull", "planner"],
                "langgraph_checkpoint_ns": format!("planner:{:x}", rng(&mut seed)),
                "checkpoint_ns": "planner", "ls_provider": "openai", "ls_model_name": "gpt-4o",
                "ls_model_type": "chat", "ls_temperature": 0.2,
            },
            "parent_ids": ["3b1f0c2d-8e7a-4f6b-9c5d-1a2e3f4b5c6d", "9a8b7c6d-5e4f-3a2b-1c0d-e9f8a7b6c5d4"],
        });
        frame(
            &mut out,
            &json!({"type": "RAW", "event": raw, "source": "langgraph"}),
        );
        frame(
            &mut out,
            &json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": format!("{word} "), "rawEvent": raw}),
        );
        if i % 40 == 39 {
            frame(
                &mut out,
                &json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/plan/days/-", "value": {"day": i / 40, "title": word}}]}),
            );
        }
    }
    frame(
        &mut out,
        &json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
    );
    finish_run(&mut out);
    out
}

/// A tool call whose arguments stream in 5,000 `TOOL_CALL_ARGS` deltas (a long JSON plan).
pub fn tool_args(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    start_run(&mut out);
    frame(
        &mut out,
        &json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "make_plan"}),
    );
    let mut args = String::from("{\"days\":[");
    let mut i = 0;
    while args.len() < n * 8 {
        if i > 0 {
            args.push(',');
        }
        args.push_str(&format!(
            "{{\"day\":{i},\"title\":\"Walk {i} through Alfama\",\"budget\":{}}}",
            100 + i
        ));
        i += 1;
    }
    args.push_str("]}");
    let step = args.len().div_ceil(n);
    let bytes = args.as_bytes();
    for piece in bytes.chunks(step) {
        let delta = String::from_utf8_lossy(piece).into_owned();
        frame(
            &mut out,
            &json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": delta}),
        );
    }
    frame(
        &mut out,
        &json!({"type": "TOOL_CALL_END", "toolCallId": "c"}),
    );
    finish_run(&mut out);
    out
}

/// The four workloads, by name.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("20,000 text deltas", text_deltas(20_000)),
        ("real run (demo trace)", real_run()),
        ("LangGraph run, RAW events", langgraph_run()),
        ("5,000 tool-argument deltas", tool_args(5_000)),
    ]
}
