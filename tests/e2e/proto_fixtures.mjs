// Fixtures of the protobuf binding for tests/protocol/proto.rs, made with the reference encoder.
//
//   cd tests/e2e && npm ci && node proto_fixtures.mjs
//
// For each stream NAME it writes, under tests/fixtures/proto/:
//   NAME.bin          the response body: every event as `@ag-ui/encoder` 1.0.0 `encodeProtobuf`
//                     frames it (4-byte big-endian length + `@ag-ui/proto` 1.0.0 `encode`)
//   NAME.jsonl        the same events as the SSE binding sends them (`encodeSSE`'s JSON), one a line
//   NAME.decoded.jsonl  what the reference decoder (`@ag-ui/proto` `decode`) makes of each frame
// and edge.json: hand-made frames (field by field, with the generated message codecs' wire writer)
// with the reference decoder's verdict on each: an event, an unknown event, or an error.
// The outputs are committed; the Rust tests never need Node.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EventEncoder } from "@ag-ui/encoder";
import * as proto from "@ag-ui/proto";
import { BinaryWriter } from "@bufbuild/protobuf/wire";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "proto");
mkdirSync(out, { recursive: true });

// Stay quiet about the deliberately odd values below; a real warning would still show in the
// verdicts (and the Rust tests compare against them).
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "1";

const encoder = new EventEncoder({ accept: proto.AGUI_MEDIA_TYPE });
if (encoder.getContentType() !== "application/vnd.ag-ui.event+proto") {
  throw new Error("the encoder did not negotiate protobuf");
}

const T0 = 1767225600123; // 2026-01-01T00:00:00.123Z
const THREAD = "thread-ü-1";

// ---- streams ----------------------------------------------------------------------------------

const userParts = [
  { type: "text", text: "What is in this picture? 🖼️", id: "p1", metadata: { lang: "en" } },
  { type: "image", source: { type: "url", value: "https://example.com/cat.png", mimeType: "image/png" } },
  { type: "audio", source: { type: "data", value: "UklGRg==", mimeType: "audio/wav" }, id: "p3" },
  { type: "video", source: { type: "file", value: "file-123", provider: "openai", mimeType: "video/mp4" } },
  { type: "document", source: { type: "url", value: "https://example.com/d.pdf" }, metadata: { pages: 3 } },
];

const input = {
  threadId: THREAD,
  runId: "run-1",
  state: { count: 1, items: [] },
  messages: [
    { id: "sys-1", role: "system", content: "Be brief." },
    { id: "dev-1", role: "developer", content: "Use metric units.", name: "ops" },
    { id: "u-1", role: "user", content: userParts, name: "Ana" },
  ],
  tools: [
    {
      name: "get_weather",
      description: "Weather for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      metadata: { ui: "card" },
    },
  ],
  context: [{ description: "time zone", value: "Europe/Berlin" }],
  forwardedProps: { mode: "fast", nested: { a: [1, 2, { b: null }] } },
  resume: [{ interruptId: "int-0", status: "resolved", payload: { approved: true }, metadata: { via: "card" } }],
};

const interrupts = [
  {
    id: "int-1",
    reason: "tool_call",
    message: "Approve sending the e-mail?",
    toolCallId: "call-2",
    responseSchema: { type: "object", properties: { approved: { type: "boolean" } } },
    expiresAt: "2026-01-02T00:00:00Z",
    metadata: { priority: 2 },
  },
  { id: "int-2", reason: "input_required" },
];

const usage = [
  {
    provider: "openai",
    model: "gpt-x",
    inputTokens: 1200,
    outputTokens: 345,
    totalTokens: 1545,
    reasoningTokens: 100,
    cachedInputTokens: 1000,
    cacheWriteInputTokens: 0,
  },
  { provider: "anthropic", inputTokens: 9007199254740991 },
];

/** Every JSON shape a Value can take, with numbers JSON cannot tell from doubles. */
const nested = {
  s: "ünïcødé ✓ \u0000 \n \"quoted\" 𝄞",
  n: [0, -1, 1.5, -2.25e-7, 1e21, 123456789012, 9007199254740991, 2 ** 60, -(2 ** 63), 1e300],
  b: [true, false],
  z: null,
  o: { "": "empty key", "1": "integer-like key", deep: [[[{ x: [[]] }]]] },
  e: {},
  l: [],
};

const run = [
  { type: "RUN_STARTED", threadId: THREAD, runId: "run-1", parentRunId: "run-0", protocolVersion: "1.0", input, timestamp: T0, metadata: { traceId: "tr-1", sampled: true } },
  { type: "STEP_STARTED", stepName: "plan", timestamp: T0 + 1 },
  { type: "TEXT_MESSAGE_START", messageId: "a-1", role: "assistant", name: "helper" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "a-1", delta: "Grüße! 👋 " },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "a-1", delta: "" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "a-1", delta: "Ein Kätzchen." },
  { type: "TOOL_CALL_START", toolCallId: "call-1", toolCallName: "get_weather", parentMessageId: "a-1" },
  { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: "{\"city\":" },
  { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: "\"Zürich\"}" },
  { type: "TOOL_CALL_END", toolCallId: "call-1" },
  { type: "TEXT_MESSAGE_END", messageId: "a-1" },
  { type: "TOOL_CALL_RESULT", messageId: "t-1", toolCallId: "call-1", content: "{\"temp\":21.5}", role: "tool" },
  { type: "REASONING_START", messageId: "r-1" },
  { type: "REASONING_MESSAGE_START", messageId: "r-1", role: "reasoning" },
  { type: "REASONING_MESSAGE_CONTENT", messageId: "r-1", delta: "The user wants…" },
  { type: "REASONING_MESSAGE_END", messageId: "r-1" },
  { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "r-1", encryptedValue: "ZW5jcnlwdGVk" },
  { type: "REASONING_END", messageId: "r-1" },
  { type: "REASONING_MESSAGE_CHUNK", messageId: "r-2", delta: "Chunked thought." },
  { type: "REASONING_MESSAGE_CHUNK", delta: " More." },
  { type: "TEXT_MESSAGE_CHUNK", messageId: "a-2", role: "assistant", delta: "Chunked ", name: "helper" },
  { type: "TEXT_MESSAGE_CHUNK", delta: "text." },
  { type: "TOOL_CALL_CHUNK", toolCallId: "call-2", toolCallName: "send_email", parentMessageId: "a-2", delta: "{\"to\":" },
  { type: "TOOL_CALL_CHUNK", delta: "\"ana@example.com\"}" },
  { type: "TOOL_CALL_RESULT", messageId: "t-2", toolCallId: "call-1", content: [
    { type: "text", text: "Forecast attached" },
    { type: "document", source: { type: "data", value: "JVBERi0=", mimeType: "application/pdf" }, id: "doc-1" },
  ] },
  { type: "STATE_SNAPSHOT", snapshot: { count: 1, items: [], user: { name: "Ana", tags: ["a"] }, nested } },
  { type: "STATE_DELTA", delta: [
    { op: "add", path: "/items/-", value: { id: 1, label: "first" } },
    { op: "replace", path: "/count", value: 2 },
    { op: "test", path: "/count", value: 2 },
    { op: "copy", from: "/user/name", path: "/owner" },
    { op: "move", from: "/owner", path: "/creator" },
    { op: "remove", path: "/user/tags/0" },
    { op: "add", path: "/flag", value: null },
    { op: "add", path: "/~1slash~0tilde", value: "escaped" },
  ] },
  { type: "ACTIVITY_SNAPSHOT", messageId: "act-1", activityType: "plan", content: { steps: [{ title: "Look", done: true }, { title: "Answer", done: false }] }, replace: false },
  { type: "ACTIVITY_SNAPSHOT", messageId: "act-1", activityType: "plan", content: { steps: [{ title: "Look", done: true }, { title: "Answer", done: false }], note: "replaced" } },
  { type: "ACTIVITY_DELTA", messageId: "act-1", activityType: "plan", patch: [
    { op: "replace", path: "/steps/1/done", value: true },
    { op: "add", path: "/steps/-", value: { title: "Done", done: true } },
    { op: "remove", path: "/note" },
  ] },
  { type: "RAW", event: { provider: "openai", chunk: { choices: [{ delta: { content: "hi" } }] }, nested }, source: "openai", rawEvent: ["raw", 1] },
  { type: "RAW", event: null },
  { type: "CUSTOM", name: "ui:confetti", value: { count: 3, colors: ["red", "gold"], nested } },
  { type: "CUSTOM", name: "plain", value: "a string" },
  { type: "CUSTOM", name: "nothing", value: null },
  { type: "SUBAGENT_STARTED", subagentRunId: "sub-1", name: "researcher", description: "Finds facts", parentToolCallId: "call-1", parentMessageId: "a-1" },
  { type: "STEP_STARTED", stepName: "search", subagentRunId: "sub-1" },
  { type: "TEXT_MESSAGE_START", messageId: "s-1", role: "assistant", subagentRunId: "sub-1" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "s-1", delta: "Found 3 facts.", subagentRunId: "sub-1" },
  { type: "TEXT_MESSAGE_END", messageId: "s-1", subagentRunId: "sub-1" },
  { type: "STEP_FINISHED", stepName: "search", subagentRunId: "sub-1" },
  { type: "SUBAGENT_FINISHED", subagentRunId: "sub-1", result: { facts: 3 }, outcome: { type: "success" } },
  { type: "SUBAGENT_STARTED", subagentRunId: "sub-2", name: "helper", parentSubagentRunId: "sub-1" },
  { type: "SUBAGENT_FINISHED", subagentRunId: "sub-2", outcome: { type: "suspended", interruptIds: ["int-1"] } },
  { type: "SUBAGENT_STARTED", subagentRunId: "sub-3", name: "flaky" },
  { type: "SUBAGENT_ERROR", subagentRunId: "sub-3", message: "timed out", code: "timeout" },
  { type: "STEP_FINISHED", stepName: "plan", timestamp: T0 + 2, metadata: { elapsedMs: 1.25 } },
  { type: "RUN_FINISHED", threadId: THREAD, runId: "run-1", result: { answer: 42, list: [1, "two", null] }, outcome: { type: "interrupt", interrupts }, usage, timestamp: T0 + 3 },
];

const snapshotMessages = [
  { id: "sys-1", role: "system", content: "Be brief." },
  { id: "dev-1", role: "developer", content: "Use metric units." },
  { id: "u-1", role: "user", content: "Plain text question", name: "Ana", metadata: { source: "web" } },
  { id: "u-2", role: "user", content: userParts },
  {
    id: "a-1",
    role: "assistant",
    content: "Let me check.",
    name: "helper",
    toolCalls: [
      { id: "call-1", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Zürich\"}" }, metadata: { latencyMs: 12 } },
      { id: "call-2", type: "function", function: { name: "send_email", arguments: "" }, encryptedValue: "c2lnbmVk" },
    ],
    metadata: { model: "gpt-x" },
    encryptedValue: "ZW5j",
  },
  { id: "t-1", role: "tool", content: "{\"temp\":21.5}", toolCallId: "call-1" },
  { id: "t-2", role: "tool", content: "failed", toolCallId: "call-2", error: "SMTP down" },
  { id: "a-2", role: "assistant" },
  { id: "r-1", role: "reasoning", content: "Thinking…", encryptedValue: "b3BhcXVl" },
  { id: "act-1", role: "activity", activityType: "plan", content: { steps: [{ title: "Look", done: true }] } },
  { id: "s-1", role: "assistant", content: "From a subagent.", subagentRunId: "sub-1" },
];

const snapshots = [
  { type: "RUN_STARTED", threadId: THREAD, runId: "run-2" },
  { type: "MESSAGES_SNAPSHOT", messages: snapshotMessages, timestamp: T0 + 10 },
  { type: "STATE_SNAPSHOT", snapshot: null },
  { type: "STATE_SNAPSHOT", snapshot: [1, 2, 3] },
  { type: "STATE_SNAPSHOT", snapshot: { restored: true } },
  { type: "RUN_FINISHED", threadId: THREAD, runId: "run-2", outcome: { type: "success" } },
  { type: "RUN_STARTED", threadId: THREAD, runId: "run-3", parentRunId: "run-2" },
  { type: "RUN_FINISHED", threadId: THREAD, runId: "run-3", outcome: { type: "cancelled" }, result: "stopped" },
  { type: "RUN_STARTED", threadId: THREAD, runId: "run-4" },
  { type: "RUN_FINISHED", threadId: THREAD, runId: "run-4" },
];

const failure = [
  { type: "RUN_STARTED", threadId: THREAD, runId: "run-5", timestamp: -1 },
  { type: "TEXT_MESSAGE_START", messageId: "a-9", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "a-9", delta: "Partial" },
  { type: "RUN_ERROR", message: "model overloaded", code: "overloaded", usage: [{ model: "m", outputTokens: 7 }] },
  { type: "RUN_STARTED", threadId: THREAD, runId: "run-6" },
  { type: "RUN_ERROR", message: "" },
];

const streams = { run, snapshots, failure };

// ---- write them -------------------------------------------------------------------------------

for (const [name, events] of Object.entries(streams)) {
  const frames = events.map((e) => encoder.encodeProtobuf(e));
  const body = Buffer.concat(frames.map((f) => Buffer.from(f)));
  const json = events.map((e) => encoder.encodeSSE(e).replace(/^data: /, "").replace(/\n\n$/, ""));
  const decoded = frames.map((f) => JSON.stringify(proto.decode(f.subarray(4))));
  writeFileSync(join(out, `${name}.bin`), body);
  writeFileSync(join(out, `${name}.jsonl`), json.join("\n") + "\n");
  writeFileSync(join(out, `${name}.decoded.jsonl`), decoded.join("\n") + "\n");
  console.log(`${name}: ${events.length} events, ${body.length} bytes`);
}

// ---- edge cases, field by field -----------------------------------------------------------------

const w = () => new BinaryWriter();
const len = (writer, field, bytes) => writer.uint32((field << 3) | 2).bytes(bytes);
const str = (writer, field, s) => writer.uint32((field << 3) | 2).string(s);
const base = (type, extra = (x) => x) => extra(type === 0 ? w() : w().uint32(8).int32(type)).finish();
const arm = (field, body) => len(w(), field, body).finish();
const cat = (...parts) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const textStart = (id) => str(len(w(), 1, base(0)), 2, id).finish();
const value = (build) => build(w()).finish();
const listValue = (depth) => {
  // A Value holding `depth` nested lists: [[[…]]].
  let v = w().finish(); // innermost: a Value with no kind
  for (let i = 0; i < depth; i++) v = value((x) => len(x, 6, len(w(), 1, v).finish()));
  return v;
};
const rawWith = (eventValue) => arm(10, len(len(w(), 1, base(9)), 2, eventValue).finish());

const edges = {
  // Absent fields: proto3 strings come back "", lists [].
  "empty-text-start": arm(1, len(w(), 1, base(0)).finish()),
  "empty-run-finished": arm(13, len(w(), 1, base(12)).finish()),
  "empty-messages-snapshot": arm(9, len(w(), 1, base(8)).finish()),
  "empty-tool-call-result": arm(22, len(w(), 1, base(21)).finish()),
  "empty-state-snapshot": arm(7, len(w(), 1, base(6)).finish()),
  // An event this build does not know (a future envelope field): dropped with a warning.
  "unknown-arm": arm(40, str(len(w(), 1, base(0)), 2, "x").finish()),
  "unknown-arm-not-a-message": arm(40, Uint8Array.of(0xff)),
  // Unknown fields beside a known arm, and inside messages, are skipped.
  "unknown-fields": cat(
    arm(1, cat(textStart("m-1"), w().uint32((99 << 3) | 0).uint64(7).finish(), str(w(), 100, "future").finish())),
    w().uint32((50 << 3) | 5).fixed32(1).finish(),
    str(w(), 51, "envelope extra").finish(),
  ),
  "unknown-group": arm(1, cat(textStart("m-1"), Uint8Array.of((7 << 3) | 3, (8 << 3) | 0, 1, (7 << 3) | 4))),
  // Repeated occurrences merge: the later scalar wins, base_event merges.
  "merged-arm": cat(arm(1, textStart("first")), arm(1, str(w(), 2, "second").finish())),
  "merged-base": arm(
    1,
    cat(len(w(), 1, base(0, (x) => x.uint32(16).int64(5))).finish(), len(w(), 1, base(0, (x) => len(x, 4, len(w(), 1, str(w(), 1, "k").finish()).finish()))).finish(), str(w(), 2, "m").finish()),
  ),
  "merged-value-list": rawWith(cat(value((x) => len(x, 6, len(w(), 1, value((y) => y.uint32(32).bool(true))).finish())), value((x) => len(x, 6, len(w(), 1, value((y) => str(y, 3, "b"))).finish())))),
  "value-kind-last-wins": rawWith(cat(value((x) => str(x, 3, "s")), value((x) => x.uint32(17).double(2.5)))),
  "value-no-kind-in-list": rawWith(value((x) => len(x, 6, len(w(), 1, w().finish()).finish()))),
  "value-nan": rawWith(value((x) => x.uint32(17).double(NaN))),
  "value-null-enum-7": rawWith(value((x) => x.uint32(8).int32(7))),
  "unknown-patch-op": arm(8, len(len(w(), 1, base(7)), 2, str(w().uint32(8).int32(9), 2, "/a").finish()).finish()),
  "unknown-content-part": arm(9, len(len(w(), 1, base(8)), 2, len(str(str(w(), 1, "u"), 2, "user"), 8, len(w(), 9, w().finish()).finish()).finish()).finish()),
  "run-finished-no-outcome-with-ids": arm(13, str(str(len(w(), 1, base(12)), 2, "t"), 8, "call-1").finish()),
  "run-finished-unknown-outcome": arm(13, str(str(len(w(), 1, base(12)), 2, "t"), 5, "paused").finish()),
  "invalid-utf8": arm(1, cat(len(w(), 1, base(0)).finish(), len(w(), 2, Uint8Array.of(0x61, 0xff, 0x62)).finish())),
  "depth-8": rawWith(listValue(8)),
  // Refused.
  "empty-frame": new Uint8Array(0),
  "two-arms": cat(arm(1, textStart("a")), arm(3, str(len(w(), 1, base(2)), 2, "a").finish())),
  "no-base-event": arm(1, str(w(), 2, "m").finish()),
  "type-mismatch": arm(1, cat(len(w(), 1, base(5)).finish(), str(w(), 2, "m").finish())),
  "field-zero": Uint8Array.of(0x00, 0x00),
  "truncated-varint": Uint8Array.of(0x0a, 0x80),
  "length-past-end": Uint8Array.of(0x0a, 0x05, 0x01),
  "arm-as-varint": Uint8Array.of(0x08, 0x01),
  "unbalanced-group": Uint8Array.of((40 << 3) | 3),
  "content-part-two-arms": arm(9, len(len(w(), 1, base(8)), 2, len(str(str(w(), 1, "u"), 2, "user"), 8, cat(len(w(), 1, str(w(), 1, "t").finish()).finish(), len(w(), 5, w().finish()).finish())).finish()).finish()),
  "message-parts-for-assistant": arm(9, len(len(w(), 1, base(8)), 2, len(str(str(w(), 1, "a"), 2, "assistant"), 8, len(w(), 1, str(w(), 1, "t").finish()).finish()).finish()).finish()),
  "tool-result-both-contents": arm(22, cat(len(w(), 1, base(21)).finish(), str(w(), 5, "s").finish(), len(w(), 7, len(w(), 1, str(w(), 1, "t").finish()).finish()).finish())),
  // Where this decoder is stricter than the reference (which skips a known field of the wrong
  // wire type): the verdict recorded is the reference's; tests/protocol/proto.rs says which differ.
  "wrong-wire-type-inner": arm(1, cat(len(w(), 1, base(0)).finish(), w().uint32((2 << 3) | 0).uint64(1).finish())),
};

const verdicts = Object.entries(edges).map(([name, bytes]) => {
  const hex = Buffer.from(bytes).toString("hex");
  try {
    return { name, hex, verdict: "event", decoded: proto.decode(bytes) };
  } catch (e) {
    if (e instanceof proto.AGUIUnknownEventTypeError) return { name, hex, verdict: "unknown" };
    return { name, hex, verdict: "error", error: String(e.message) };
  }
});
writeFileSync(join(out, "edge.json"), JSON.stringify(verdicts, null, 1) + "\n");
console.log(`edge: ${verdicts.length} frames`);
