//! Property tests for the whole pipeline: arbitrary bytes and arbitrary event sequences never
//! panic (a panic kills the wasm widget), results do not depend on how the network chunks the
//! body, the thread's id indexes stay right after every push, and cutting a valid stream
//! anywhere only ever yields a truncated run or a transport/JSON error.

use agui_leptos::protocol::chunks::ChunkExpander;
use agui_leptos::protocol::enforce::{enforce_event, Enforced};
use agui_leptos::protocol::{
    Change, Delivered, Pipeline, PipelineOptions, ProtocolError, RunStatus, Thread,
};

use crate::native_support::Rng;
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{json, Map, Value};

fn config() -> Config {
    Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    }
}

// ---- a tiny deterministic generator for event bodies -----------------------------------------

// SplitMix64 (`tests/native_support`): each generated event is built from one seed, so
// proptest only has to vary `(kind, seed)` pairs.

/// Placeholders replaced by raw lone-surrogate escapes in the JSON text.
const HI: &str = "<<HI>>";
const LO: &str = "<<LO>>";

const IDS: &[&str] = &["a", "b", "c"];
const CALL_IDS: &[&str] = &["t1", "t2", "a"];
const DELTAS: &[&str] = &[
    "",
    "x",
    "héllo ",
    "😀",
    "e\u{301}",
    "\n",
    "\"q\"",
    "\\",
    "👩\u{200d}",
    "\u{1F4BB}",
    HI,
    LO,
];
const ARG_DELTAS: &[&str] = &[
    "{", "\"q\":", "\"ven", "ice\"", "}", "", "[1,", "2]", HI, "nul",
];
const PATHS: &[&str] = &[
    "", "/a", "/a/b", "/a/0", "/a/-", "/b", "/~1x", "/a/b/c", "/n",
];

fn obj(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(
        pairs
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect::<Map<_, _>>(),
    )
}

fn small_value(r: &mut Rng) -> Value {
    r.pick(&[
        json!(1),
        json!("x"),
        json!({}),
        json!([]),
        json!(null),
        json!({"b": [1, {"c": true}]}),
        json!([0, 1]),
    ])
}

fn patch(r: &mut Rng) -> Value {
    let n = r.below(4);
    let ops = (0..n)
        .map(|_| {
            let op = r.pick(&["add", "remove", "replace", "move", "copy", "test", "merge"]);
            let mut o = vec![("op", json!(op)), ("path", json!(r.pick(PATHS)))];
            if matches!(op, "move" | "copy") || r.chance(10) {
                o.push(("from", json!(r.pick(PATHS))));
            }
            if matches!(op, "add" | "replace" | "test" | "merge") && !r.chance(5) {
                o.push(("value", small_value(r)));
            }
            if r.chance(10) {
                o.push(("x-extra", json!(1)));
            }
            obj(o)
        })
        .collect();
    Value::Array(ops)
}

fn message(r: &mut Rng) -> Value {
    let id = r.pick(&["a", "b", "c", "x", "t1"]);
    let role = r.pick(&[
        "user",
        "assistant",
        "assistant",
        "tool",
        "activity",
        "reasoning",
        "system",
        "narrator",
    ]);
    let mut m = vec![("id", json!(id)), ("role", json!(role))];
    match role {
        "assistant" => {
            if r.chance(60) {
                m.push(("content", json!(r.pick(DELTAS))));
            }
            if r.chance(60) {
                let calls: Vec<Value> = (0..1 + r.below(2))
                    .map(|_| {
                        json!({"id": r.pick(CALL_IDS), "type": "function",
                               "function": {"name": "f",
                                            "arguments": r.pick(&["{}", "{\"q\":1}", "{\"q"])}})
                    })
                    .collect();
                m.push(("toolCalls", json!(calls)));
            }
        }
        "tool" => {
            m.push(("content", json!(r.pick(DELTAS))));
            m.push(("toolCallId", json!(r.pick(CALL_IDS))));
        }
        "activity" => {
            m.push(("activityType", json!(r.pick(&["PLAN", "SEARCH"]))));
            m.push(("content", json!({"n": r.below(3)})));
        }
        _ => m.push(("content", json!(r.pick(DELTAS)))),
    }
    if r.chance(15) {
        m.push(("subagentRunId", json!(r.pick(&["s1", "s2"]))));
    }
    obj(m)
}

fn content(r: &mut Rng) -> Value {
    if r.chance(60) {
        return json!(r.pick(DELTAS));
    }
    let parts: Vec<Value> = (0..r.below(4))
        .map(|_| {
            r.pick(&[
                json!({"type": "text", "text": "t"}),
                json!({"type": "image", "source": {"type": "url", "value": "https://x/y.png"}}),
                json!({"type": "binary", "mimeType": "audio/wav", "data": "AA=="}),
                json!({"type": "document", "source": {"type": "fax", "value": "1"}}),
                json!({"type": "hologram"}),
            ])
        })
        .collect();
    Value::Array(parts)
}

/// Kinds 0..=30 are the 31 event types, 31..=35 the retired `THINKING_*`, 36 an unknown type,
/// 37 a frame that is not valid JSON.
const KINDS: usize = 38;

/// The raw `data` text of one generated event.
fn event_text(kind: usize, seed: u64) -> String {
    event_text_with(kind, seed, true)
}

/// `chaos` adds wrong-typed fields, unknown properties and odd timestamps now and then.
fn event_text_with(kind: usize, seed: u64, chaos: bool) -> String {
    let mut r = Rng(seed);
    let id = r.pick(IDS);
    let call = r.pick(CALL_IDS);
    let sub = r.pick(&["s1", "s2"]);
    let run = if r.chance(90) { "r1" } else { "r2" };
    let mut attributable = true;
    let mut f: Vec<(&str, Value)> = Vec::new();
    let t = match kind {
        0 => {
            attributable = false;
            f.push(("threadId", json!("t")));
            f.push(("runId", json!(run)));
            if r.chance(30) {
                f.push((
                    "protocolVersion",
                    json!(r.pick(&["1.0", "1.1", "2.0", "x", "1.0.0"])),
                ));
            }
            if r.chance(20) {
                let msgs: Vec<Value> = (0..r.below(3)).map(|_| message(&mut r)).collect();
                f.push((
                    "input",
                    json!({"threadId": "t", "runId": run, "messages": msgs}),
                ));
            }
            "RUN_STARTED"
        }
        1 => {
            attributable = false;
            f.push(("threadId", json!("t")));
            f.push(("runId", json!(run)));
            if r.chance(40) {
                let interrupts = json!([{"id": "i1", "reason": "confirmation"}]);
                f.push((
                    "outcome",
                    r.pick(&[
                        json!({"type": "success"}),
                        json!({"type": "success", "pendingToolCallIds": ["t1"]}),
                        json!({"type": "interrupt", "interrupts": interrupts}),
                        json!({"type": "cancelled"}),
                        json!({"type": "paused"}),
                        json!([]),
                        json!(null),
                    ]),
                ));
            }
            if r.chance(20) {
                f.push(("usage", json!([{"provider": "p", "inputTokens": 3}])));
            }
            if r.chance(20) {
                f.push(("result", small_value(&mut r)));
            }
            "RUN_FINISHED"
        }
        2 => {
            attributable = false;
            f.push(("message", json!("boom")));
            if r.chance(50) {
                f.push(("code", json!("E")));
            }
            "RUN_ERROR"
        }
        3 | 4 => {
            f.push(("stepName", json!(r.pick(&["s", "t"]))));
            if kind == 3 {
                "STEP_STARTED"
            } else {
                "STEP_FINISHED"
            }
        }
        5 => {
            f.push(("messageId", json!(id)));
            if r.chance(40) {
                f.push((
                    "role",
                    json!(r.pick(&["assistant", "user", "system", "developer", "narrator"])),
                ));
            }
            if r.chance(20) {
                f.push(("name", json!("n")));
            }
            "TEXT_MESSAGE_START"
        }
        6 | 17 => {
            f.push(("messageId", json!(id)));
            f.push(("delta", json!(r.pick(DELTAS))));
            if kind == 6 {
                "TEXT_MESSAGE_CONTENT"
            } else {
                "REASONING_MESSAGE_CONTENT"
            }
        }
        7 | 14 | 15 | 18 => {
            f.push(("messageId", json!(id)));
            match kind {
                7 => "TEXT_MESSAGE_END",
                14 => "REASONING_START",
                15 => "REASONING_END",
                _ => "REASONING_MESSAGE_END",
            }
        }
        8 => {
            if r.chance(60) {
                f.push(("messageId", json!(id)));
            }
            if r.chance(20) {
                f.push(("role", json!(r.pick(&["assistant", "user"]))));
            }
            if r.chance(80) {
                f.push(("delta", json!(r.pick(DELTAS))));
            }
            if r.chance(10) {
                f.push(("name", json!(r.pick(&["n", "m"]))));
            }
            "TEXT_MESSAGE_CHUNK"
        }
        9 => {
            f.push(("toolCallId", json!(call)));
            f.push(("toolCallName", json!(r.pick(&["f", "g"]))));
            if r.chance(50) {
                f.push(("parentMessageId", json!(r.pick(&["a", "b", "p", "t2"]))));
            }
            "TOOL_CALL_START"
        }
        10 => {
            f.push(("toolCallId", json!(call)));
            f.push(("delta", json!(r.pick(ARG_DELTAS))));
            "TOOL_CALL_ARGS"
        }
        11 => {
            f.push(("toolCallId", json!(call)));
            "TOOL_CALL_END"
        }
        12 => {
            if r.chance(60) {
                f.push(("toolCallId", json!(call)));
            }
            if r.chance(60) {
                f.push(("toolCallName", json!(r.pick(&["f", "g"]))));
            }
            if r.chance(30) {
                f.push(("parentMessageId", json!(r.pick(&["a", "p"]))));
            }
            if r.chance(80) {
                f.push(("delta", json!(r.pick(ARG_DELTAS))));
            }
            "TOOL_CALL_CHUNK"
        }
        13 => {
            f.push(("messageId", json!(r.pick(&["a", "res", "t1"]))));
            f.push(("toolCallId", json!(call)));
            f.push(("content", content(&mut r)));
            if r.chance(20) {
                f.push(("role", json!("tool")));
            }
            "TOOL_CALL_RESULT"
        }
        16 => {
            f.push(("messageId", json!(id)));
            f.push((
                "role",
                json!(if r.chance(95) {
                    "reasoning"
                } else {
                    "assistant"
                }),
            ));
            "REASONING_MESSAGE_START"
        }
        19 => {
            if r.chance(60) {
                f.push(("messageId", json!(id)));
            }
            if r.chance(80) {
                f.push(("delta", json!(r.pick(DELTAS))));
            }
            "REASONING_MESSAGE_CHUNK"
        }
        20 => {
            f.push((
                "subtype",
                json!(r.pick(&["message", "tool-call", "tool-call", "other"])),
            ));
            f.push(("entityId", json!(r.pick(&["a", "b", "t1", "t2", "zz"]))));
            f.push(("encryptedValue", json!("ENC")));
            "REASONING_ENCRYPTED_VALUE"
        }
        21 => {
            f.push((
                "snapshot",
                r.pick(&[
                    json!({}),
                    json!(null),
                    json!(0),
                    json!({"a": {"b": [1]}}),
                    json!({"a": [1, 2], "b": "s"}),
                    json!([1, 2]),
                    json!("s"),
                ]),
            ));
            "STATE_SNAPSHOT"
        }
        22 => {
            f.push(("delta", patch(&mut r)));
            "STATE_DELTA"
        }
        23 => {
            attributable = false;
            let msgs: Vec<Value> = (0..r.below(5)).map(|_| message(&mut r)).collect();
            f.push(("messages", json!(msgs)));
            if r.chance(20) {
                let types = r.pick(&[json!(null), json!(["PLAN"]), json!("bad")]);
                f.push((
                    "metadata",
                    json!({"@ag-ui/client": {"authoritativeActivityTypes": types}}),
                ));
            }
            "MESSAGES_SNAPSHOT"
        }
        24 => {
            f.push(("messageId", json!(r.pick(&["a", "act", "t1"]))));
            f.push(("activityType", json!(r.pick(&["PLAN", "SEARCH"]))));
            f.push(("content", json!({"a": {"b": [1]}, "n": 1})));
            if r.chance(40) {
                f.push(("replace", json!(r.chance(50))));
            }
            "ACTIVITY_SNAPSHOT"
        }
        25 => {
            f.push(("messageId", json!(r.pick(&["a", "act", "zz"]))));
            f.push(("activityType", json!("PLAN")));
            f.push(("patch", patch(&mut r)));
            "ACTIVITY_DELTA"
        }
        26 => {
            f.push(("event", small_value(&mut r)));
            if r.chance(50) {
                f.push(("source", json!("lg")));
            }
            "RAW"
        }
        27 => {
            f.push((
                "name",
                json!(r.pick(&["on_interrupt", "on_interrupt", "PredictState", "x"])),
            ));
            f.push((
                "value",
                r.pick(&[
                    json!(null),
                    json!("Approve?"),
                    json!("{\"id\":\"i\",\"message\":\"m\"}"),
                    json!({"type": "mastra_suspend", "toolCallId": "t1",
                           "resumeSchema": "{\"type\":\"object\"}"}),
                    json!("{\"resumeSchema\":\"not json\"}"),
                ]),
            ));
            "CUSTOM"
        }
        28..=30 => {
            attributable = false;
            f.push(("subagentRunId", json!(sub)));
            match kind {
                28 => {
                    f.push(("name", json!("helper")));
                    if r.chance(20) {
                        f.push(("parentSubagentRunId", json!(r.pick(&["s1", "s2"]))));
                    }
                    "SUBAGENT_STARTED"
                }
                29 => {
                    if r.chance(40) {
                        f.push((
                            "outcome",
                            r.pick(&[
                                json!({"type": "success"}),
                                json!({"type": "suspended", "interruptIds": ["i1"]}),
                                json!({"type": "other"}),
                            ]),
                        ));
                    }
                    "SUBAGENT_FINISHED"
                }
                _ => {
                    f.push(("message", json!("sub failed")));
                    "SUBAGENT_ERROR"
                }
            }
        }
        31 => {
            if r.chance(50) {
                f.push(("title", json!("T")));
            }
            "THINKING_START"
        }
        32 => "THINKING_TEXT_MESSAGE_START",
        33 => {
            f.push(("delta", json!(r.pick(DELTAS))));
            "THINKING_TEXT_MESSAGE_CONTENT"
        }
        34 => "THINKING_TEXT_MESSAGE_END",
        35 => "THINKING_END",
        36 => r.pick(&["META", "FUTURE_EVENT"]),
        _ => {
            return r
                .pick(&[
                    "{\"type\": broken",
                    "[1,",
                    "",
                    "{\"type\":\"RAW\",\"event\":}",
                ])
                .into()
        }
    };
    let mut v = vec![("type", json!(t))];
    v.extend(f);
    if attributable && r.chance(15) {
        v.push(("subagentRunId", json!(sub)));
    }
    if r.chance(20) {
        v.push((
            "metadata",
            json!({"k": r.pick(&[json!(1), json!(null), json!({"d": 2})])}),
        ));
    }
    if chaos && r.chance(5) {
        v.push(("futureProp", json!(1)));
    }
    if chaos && r.chance(3) {
        v.push((
            "timestamp",
            r.pick(&[json!(1), json!(1.0), json!(1.5), json!(-3)]),
        ));
    }
    let mut value = obj(v);
    // Sometimes a known field carries the wrong type.
    if chaos && r.chance(4) {
        if let Value::Object(o) = &mut value {
            let keys: Vec<String> = o.keys().filter(|k| *k != "type").cloned().collect();
            if !keys.is_empty() {
                let k = r.pick(&keys);
                o.insert(k, json!(42));
            }
        }
    }
    serde_json::to_string(&value)
        .expect("json")
        .replace(HI, "\\ud83d")
        .replace(LO, "\\ude00")
}

fn body_of(texts: &[String]) -> Vec<u8> {
    let mut body = Vec::new();
    for t in texts {
        body.extend_from_slice(b"data: ");
        body.extend_from_slice(t.as_bytes());
        body.extend_from_slice(b"\n\n");
    }
    body
}

/// Kinds weighted towards the streaming families, so runs get deep before they break.
fn kind() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => prop::sample::select(vec![5usize, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 13]),
        1 => prop::sample::select(vec![16usize, 17, 18, 19, 14, 15, 20, 31, 32, 33, 34, 35]),
        1 => prop::sample::select(vec![21usize, 22, 22, 23, 24, 25, 26, 27, 3, 4]),
        1 => 0..KINDS,
    ]
}

/// Independent random events: mostly broken streams, every kind in every position.
fn chaotic_events() -> impl Strategy<Value = Vec<String>> {
    (
        any::<bool>(),
        prop::collection::vec((kind(), any::<u64>()), 0..40),
    )
        .prop_map(|(start, evs)| {
            let mut texts = Vec::new();
            if start {
                texts.push(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#.to_owned());
            }
            texts.extend(evs.into_iter().map(|(k, s)| event_text(k, s)));
            texts
        })
}

/// The JSON text of `v`, an absent owner (`"subagentRunId": null`) removed.
fn text_of(mut v: Value) -> String {
    if let Value::Object(o) = &mut v {
        if o.get("subagentRunId") == Some(&Value::Null) {
            o.remove("subagentRunId");
        }
    }
    serde_json::to_string(&v)
        .expect("json")
        .replace(HI, "\\ud83d")
        .replace(LO, "\\ude00")
}

/// Streams that mostly follow the rules (so runs get long: several runs, interleaved items,
/// snapshots mid-stream, chunk bursts), with an occasional arbitrary event thrown in.
fn structured(actions: Vec<(u8, u64)>) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Option<String> = None;
    let mut runs = 0;
    let (mut texts, mut tools, mut thoughts, mut spans, mut steps) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let ids = ["a", "b", "c", "d"];
    for (action, seed) in actions {
        let mut r = Rng(seed);
        let sub = if r.chance(10) {
            Some(r.pick(&["s1", "s2"]))
        } else {
            None
        };
        let Some(run_id) = run.clone() else {
            runs += 1;
            let id = format!("r{runs}");
            out.push(text_of(
                json!({"type": "RUN_STARTED", "threadId": "t", "runId": id}),
            ));
            run = Some(id);
            continue;
        };
        let mut ev = match action % 16 {
            0 => {
                let id = r.pick(&ids);
                if texts.iter().any(|(t, _)| *t == id) {
                    continue;
                }
                texts.push((id, sub));
                json!({"type": "TEXT_MESSAGE_START", "messageId": id, "subagentRunId": sub,
                       "role": r.pick(&["assistant", "assistant", "user"])})
            }
            1 | 2 if !texts.is_empty() => {
                let (id, owner) = r.pick(&texts);
                if action % 16 == 2 && r.chance(50) {
                    texts.retain(|(t, _)| *t != id);
                    json!({"type": "TEXT_MESSAGE_END", "messageId": id, "subagentRunId": owner})
                } else {
                    json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id,
                           "delta": r.pick(DELTAS), "subagentRunId": owner})
                }
            }
            3 => {
                let id = r.pick(CALL_IDS);
                if tools.contains(&id) {
                    continue;
                }
                tools.push(id);
                let mut start = json!({"type": "TOOL_CALL_START", "toolCallId": id,
                                       "toolCallName": r.pick(&["f", "g"])});
                if r.chance(60) {
                    start["parentMessageId"] = json!(r.pick(&["a", "b", "p", "t2"]));
                }
                start
            }
            4 | 5 if !tools.is_empty() => {
                let id = r.pick(&tools);
                if action % 16 == 5 && r.chance(50) {
                    tools.retain(|t| *t != id);
                    json!({"type": "TOOL_CALL_END", "toolCallId": id})
                } else {
                    json!({"type": "TOOL_CALL_ARGS", "toolCallId": id,
                           "delta": r.pick(ARG_DELTAS)})
                }
            }
            6 => json!({"type": "TOOL_CALL_RESULT", "messageId": r.pick(&["res", "a", "t1"]),
                        "toolCallId": r.pick(CALL_IDS), "content": content(&mut r)}),
            7 => {
                let id = r.pick(&ids);
                match r.below(4) {
                    0 if !thoughts.contains(&id) => {
                        thoughts.push(id);
                        json!({"type": "REASONING_MESSAGE_START", "messageId": id,
                               "role": "reasoning"})
                    }
                    1 if !spans.contains(&id) => {
                        spans.push(id);
                        json!({"type": "REASONING_START", "messageId": id})
                    }
                    2 if thoughts.contains(&id) => {
                        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": id,
                               "delta": r.pick(DELTAS)})
                    }
                    _ if thoughts.contains(&id) => {
                        thoughts.retain(|t| *t != id);
                        json!({"type": "REASONING_MESSAGE_END", "messageId": id})
                    }
                    _ if spans.contains(&id) => {
                        spans.retain(|t| *t != id);
                        json!({"type": "REASONING_END", "messageId": id})
                    }
                    _ => continue,
                }
            }
            8..=10 => {
                let kinds: &[usize] = match action % 16 {
                    8 => &[21, 22, 22],
                    9 => &[23],
                    _ => &[20, 24, 25, 26, 27],
                };
                out.push(event_text_with(r.pick(kinds), seed, false));
                continue;
            }
            11 => {
                // A chunk burst: an opener, continuations, sometimes a switch of kind or id.
                let n = 1 + r.below(4);
                let mut tool = r.chance(30);
                for k in 0..n {
                    let switch = k > 0 && r.chance(15);
                    if switch {
                        tool = !tool; // switch kind: closes the open item, opens another
                    }
                    let opener = k == 0 || switch || r.chance(20);
                    let mut c = if tool {
                        json!({"type": "TOOL_CALL_CHUNK", "delta": r.pick(ARG_DELTAS)})
                    } else {
                        json!({"type": "TEXT_MESSAGE_CHUNK", "delta": r.pick(DELTAS)})
                    };
                    if opener {
                        if tool {
                            c["toolCallId"] = json!(r.pick(&["k1", "k2"]));
                            c["toolCallName"] = json!("f");
                        } else {
                            c["messageId"] = json!(r.pick(&["m1", "m2"]));
                        }
                    }
                    out.push(text_of(c));
                }
                continue;
            }
            12 => {
                let name = r.pick(&["s", "t"]);
                if steps.contains(&name) {
                    steps.retain(|s| *s != name);
                    json!({"type": "STEP_FINISHED", "stepName": name})
                } else {
                    steps.push(name);
                    json!({"type": "STEP_STARTED", "stepName": name})
                }
            }
            13 | 14 => {
                // End the run: close what is open first (mostly), then a terminal event.
                if r.chance(3) {
                    texts.clear();
                    tools.clear();
                    thoughts.clear();
                    spans.clear();
                    steps.clear();
                } else {
                    for (id, owner) in texts.drain(..) {
                        out.push(text_of(json!({"type": "TEXT_MESSAGE_END", "messageId": id,
                                                "subagentRunId": owner})));
                    }
                    for id in tools.drain(..) {
                        out.push(text_of(json!({"type": "TOOL_CALL_END", "toolCallId": id})));
                    }
                    for id in thoughts.drain(..) {
                        out.push(text_of(json!({"type": "REASONING_MESSAGE_END",
                                                "messageId": id})));
                    }
                    for id in spans.drain(..) {
                        out.push(text_of(json!({"type": "REASONING_END", "messageId": id})));
                    }
                    for name in steps.drain(..) {
                        out.push(text_of(json!({"type": "STEP_FINISHED", "stepName": name})));
                    }
                }
                run = None;
                if r.chance(15) {
                    json!({"type": "RUN_ERROR", "message": "boom"})
                } else {
                    let mut f = serde_json::from_str::<Value>(&event_text_with(1, seed, false))
                        .unwrap_or(json!({"type": "RUN_FINISHED"}));
                    f["threadId"] = json!("t");
                    f["runId"] = json!(run_id);
                    if f.get("outcome").is_some_and(Value::is_array) {
                        f["outcome"] = json!({"type": "success"});
                    }
                    f
                }
            }
            15 if r.chance(25) => {
                out.push(event_text(r.below(KINDS), seed));
                continue;
            }
            _ => continue,
        };
        if let Value::Object(o) = &mut ev {
            if o.get("subagentRunId") == Some(&Value::Null) {
                o.remove("subagentRunId");
            }
            if r.chance(10) {
                o.insert("metadata".into(), json!({"k": r.below(3)}));
            }
        }
        out.push(text_of(ev));
    }
    out
}

fn events() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        1 => chaotic_events(),
        3 => prop::collection::vec((any::<u8>(), any::<u64>()), 0..120).prop_map(structured),
    ]
}

// ---- invariants ------------------------------------------------------------------------------

/// Every index the thread hands out points at a message with that id: `position` at the first
/// message with the id, `tool_call` at the first assistant message holding the call.
fn check_indexes(thread: &Thread) -> Result<(), TestCaseError> {
    for (i, m) in thread.messages.iter().enumerate() {
        let first = thread.messages.iter().position(|x| x.id == m.id);
        prop_assert_eq!(
            thread.position(&m.id),
            first,
            "position({:?}) for message {}",
            &m.id,
            i
        );
        for c in m.tool_calls.iter().flatten() {
            let holder = thread.messages.iter().position(|x| {
                x.role == agui_leptos::protocol::Role::Assistant
                    && x.tool_calls.iter().flatten().any(|y| y.id == c.id)
            });
            prop_assert_eq!(
                thread.tool_call(&c.id).map(|(i, _)| i),
                holder,
                "tool_call({:?})",
                &c.id
            );
        }
    }
    Ok(())
}

struct Outcome {
    messages: Value,
    state: Value,
    error: Option<String>,
    types: Vec<&'static str>,
    changes: Vec<Change>,
    warnings: Vec<String>,
}

/// Feed `body` in pieces of the given sizes (cycled; empty = all at once), checking the
/// indexes after every push.
fn run_pipeline(body: &[u8], sizes: &[usize]) -> Result<(Pipeline, Outcome), TestCaseError> {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    let mut delivered: Vec<Delivered> = Vec::new();
    if sizes.is_empty() {
        delivered.extend(p.push_bytes(body));
        check_indexes(&p.thread)?;
    } else {
        let mut rest = body;
        let mut i = 0;
        while !rest.is_empty() {
            let n = sizes[i % sizes.len()].clamp(1, rest.len());
            let (chunk, tail) = rest.split_at(n);
            delivered.extend(p.push_bytes(chunk));
            check_indexes(&p.thread)?;
            rest = tail;
            i += 1;
        }
    }
    let clean_before_finish = p.error().is_none();
    let open_before_finish = p.run_active();
    delivered.extend(p.finish());
    check_indexes(&p.thread)?;
    // With every frame terminated, `finish` has nothing left to decode: a clean stream that
    // stopped inside a run is truncated, and one that did not is untouched.
    if clean_before_finish && body.ends_with(b"\n\n") {
        if open_before_finish {
            prop_assert!(
                matches!(p.error(), Some(ProtocolError::Truncated { .. })),
                "a stream ending inside a run must be truncated, got {:?}",
                p.error()
            );
        } else {
            prop_assert!(p.error().is_none(), "{:?}", p.error());
        }
    }
    // In any case, a stream never ends looking successful while it failed or stopped midway.
    let status = p.thread.status();
    match p.error() {
        None => prop_assert!(!p.run_active() && status != RunStatus::Running),
        Some(ProtocolError::Truncated { .. }) => prop_assert_eq!(&status, &RunStatus::Truncated),
        Some(_) => {
            let looks_fine = matches!(status, RunStatus::Success { .. } | RunStatus::Running);
            prop_assert!(!looks_fine, "{:?} after {:?}", status, p.error());
        }
    }
    let outcome = Outcome {
        messages: serde_json::to_value(&p.thread.messages).expect("messages"),
        state: p.thread.state.clone(),
        error: p.error().map(|e| e.to_string()),
        types: delivered.iter().map(|d| d.event.type_name()).collect(),
        changes: delivered.iter().map(|d| d.change.clone()).collect(),
        warnings: p.thread.warnings.iter().map(|w| w.to_string()).collect(),
    };
    Ok((p, outcome))
}

/// A realistic, conformant two-run stream touching most families.
fn realistic_stream() -> Vec<u8> {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "protocolVersion": "1.0"}),
        json!({"type": "STEP_STARTED", "stepName": "plan"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"todos": []}}),
        json!({"type": "REASONING_START", "messageId": "rs1"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "th1", "role": "reasoning"}),
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "th1", "delta": "Thinking…"}),
        json!({"type": "REASONING_MESSAGE_END", "messageId": "th1"}),
        json!({"type": "REASONING_END", "messageId": "rs1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Olá, "}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "café ☕ 😀"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "weather",
               "parentMessageId": "m1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "{\"city\":"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "tc1", "delta": "\"Lisbon\"}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "tc1"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "res1", "toolCallId": "tc1",
               "content": "sunny"}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/todos/-",
                                                 "value": "pack"}]}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act1", "activityType": "PLAN",
               "content": {"steps": ["a"]}}),
        json!({"type": "ACTIVITY_DELTA", "messageId": "act1", "activityType": "PLAN",
               "patch": [{"op": "add", "path": "/steps/-", "value": "b"}]}),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m2", "delta": "It is "}),
        json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "sunny."}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "tc2", "toolCallName": "notify",
               "delta": "{}"}),
        json!({"type": "STEP_FINISHED", "stepName": "plan"}),
        json!({"type": "CUSTOM", "name": "PredictState", "value": [{"state_key": "x"}]}),
        json!({"type": "RAW", "event": {"provider": "x"}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1",
               "usage": [{"provider": "p", "inputTokens": 10, "outputTokens": 2}]}),
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "res2", "toolCallId": "tc2",
               "content": [{"type": "text", "text": "sent"}]}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "m1", "role": "assistant", "content": "Olá, café ☕ 😀"}
        ]}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r2"}),
    ];
    let texts: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).expect("json"))
        .collect();
    body_of(&texts)
}

fn snippet_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        any::<u8>().prop_map(|b| vec![b]),
        prop::sample::select(vec![
            "data: ",
            "data:",
            "\n",
            "\r\n",
            "\r",
            ": keep-alive\n",
            "event: x\n",
            "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}",
            "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"delta\":\"",
            "\\ud83d",
            "\"}",
            "\u{FEFF}",
            "é",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_in_arbitrary_chunks_never_panic(
        pieces in prop::collection::vec(snippet_bytes(), 0..600),
        sizes in prop::collection::vec(1usize..64, 0..8),
    ) {
        let mut body: Vec<u8> = pieces.concat();
        body.truncate(4000);
        run_pipeline(&body, &sizes)?;
    }

    #[test]
    fn random_event_sequences_never_panic_and_do_not_depend_on_chunking(
        texts in events(),
        sizes in prop::collection::vec(1usize..48, 1..8),
    ) {
        let body = body_of(&texts);
        let (_, whole) = run_pipeline(&body, &[])?;
        let (_, chunked) = run_pipeline(&body, &sizes)?;
        prop_assert_eq!(&whole.messages, &chunked.messages);
        prop_assert_eq!(&whole.state, &chunked.state);
        prop_assert_eq!(&whole.error, &chunked.error);
        prop_assert_eq!(&whole.types, &chunked.types);
        prop_assert_eq!(&whole.changes, &chunked.changes);
        prop_assert_eq!(&whole.warnings, &chunked.warnings);
    }

    #[test]
    fn the_reducer_alone_keeps_its_indexes_for_any_event_order(texts in events()) {
        // No verifier: every enforced event reaches `Thread::apply`, in any order.
        let mut thread = Thread::new();
        let mut chunks = ChunkExpander::new();
        for text in &texts {
            let Ok(value) = serde_json::from_str::<Value>(text) else { continue };
            let mut warnings = Vec::new();
            let Ok(Enforced::Event(event)) = enforce_event(value, &mut warnings) else { continue };
            let Ok(expanded) = chunks.push(*event) else { continue };
            for e in &expanded {
                thread.apply(e);
                check_indexes(&thread)?;
            }
        }
    }

    #[test]
    fn any_cut_of_a_valid_stream_is_at_worst_truncated_or_a_framing_error(
        cut in any::<prop::sample::Index>(),
        sizes in prop::collection::vec(1usize..64, 0..6),
    ) {
        let body = realistic_stream();
        let cut = cut.index(body.len() + 1);
        let (p, _) = run_pipeline(&body[..cut], &sizes)?;
        match p.error() {
            None => {}
            Some(ProtocolError::Truncated { .. })
            | Some(ProtocolError::Sse(_))
            | Some(ProtocolError::InvalidJson { .. }) => {}
            Some(other) => prop_assert!(false, "cut at {}: {:?}", cut, other),
        }
        if cut == body.len() {
            prop_assert!(p.error().is_none(), "{:?}", p.error());
            prop_assert_eq!(p.thread.state.clone(), json!({"todos": ["pack"]}));
        }
    }
}

#[test]
fn the_realistic_stream_is_accepted_whole() {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    p.push_bytes(&realistic_stream());
    p.finish();
    assert_eq!(p.error(), None);
    assert!(p.thread.warnings.is_empty(), "{:?}", p.thread.warnings);
    assert_eq!(p.thread.state, json!({"todos": ["pack"]}));
    let ids: Vec<&str> = p.thread.messages.iter().map(|m| m.id.as_str()).collect();
    // The snapshot keeps reasoning and activity (client-only roles it does not carry) where
    // they were, and drops what it omits.
    assert_eq!(ids, ["th1", "m1", "act1"]);
}

#[test]
fn the_generator_covers_every_kind_and_mostly_parses() {
    // The property tests are only as good as the generator: each kind must produce frames, and
    // all but the deliberately broken kind must be JSON.
    for kind in 0..KINDS {
        for seed in 0..50 {
            let text = event_text(kind, seed);
            let parsed = serde_json::from_str::<Value>(
                &text.replace("\\ud83d", "x").replace("\\ude00", "y"),
            );
            if kind < KINDS - 1 {
                assert!(parsed.is_ok(), "kind {kind} seed {seed}: {text}");
            }
        }
    }
}
