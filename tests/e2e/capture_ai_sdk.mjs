// Captures what the AI SDK server (ai_sdk_server.mjs, the npm `ai` package's own producer)
// sends, byte for byte, into tests/fixtures/ai_sdk/ for the native decoder tests
// (tests/protocol/ai_sdk_captured.rs), and checks the server's routes on the way.
//
//     node tests/e2e/capture_ai_sdk.mjs [--out DIR]
//
// Per scenario: `<name>.sse` (the raw response body) and `<name>.ui.json` (the message the AI
// SDK's own client builds from those bytes: `readUIMessageStream`, or the `Chat`'s state). The
// approval round trips are driven by the AI SDK's own client (`AbstractChat` +
// `DefaultChatTransport`, as `useChat` does): `approval.sse` asks, the person answers with
// `addToolApprovalResponse`, and the client sends the answer by itself
// (`lastAssistantMessageIsCompleteWithApprovalResponses`); `approval-approved.*` /
// `approval-denied.*` hold the continuation and `*.request.json` the body that client sent.
// `manifest.json` has each response's `x-vercel-ai-ui-message-stream` header and content type.
// The server runs in-process and is closed at the end.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
} from 'ai';
import { startServer } from './ai_sdk_server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1] : join(here, '..', 'fixtures', 'ai_sdk');
mkdirSync(out, { recursive: true });
const aiVersion = JSON.parse(readFileSync(join(here, 'node_modules', 'ai', 'package.json'), 'utf8')).version;

const PROMPTS = {
  text: 'Hello there',
  reasoning: 'Think: what is six times seven?',
  tool: 'What is the weather in Lisbon?',
  data: 'Show me the weather data for Lisbon',
  error: 'Make it fail',
  slow: 'Tell me a slow, long story',
};

const { port, close } = await startServer({ port: 0, slowMs: 15 });
const base = `http://127.0.0.1:${port}`;
const manifest = { ai: aiVersion, scenarios: {} };

const userMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const body = (chatId, text) => ({
  id: chatId,
  messages: [userMessage('user-1', text)],
  trigger: 'submit-message',
});
const post = (path, json) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });

/** The chunks of a UI message stream body (the SSE `data` lines, `[DONE]` left out). */
function chunks(bytes) {
  return new TextDecoder()
    .decode(bytes)
    .split('\n\n')
    .map(frame => frame.replace(/^data: /, ''))
    .filter(data => data && data !== '[DONE]')
    .map(data => JSON.parse(data));
}

/** The message the AI SDK's client reader builds from a body (optionally continuing `message`). */
async function uiMessage(bytes, message) {
  const list = chunks(bytes);
  const stream = new ReadableStream({
    start(c) {
      for (const chunk of list) c.enqueue(chunk);
      c.close();
    },
  });
  let last;
  for await (const m of readUIMessageStream({ message, stream, onError: () => {} })) last = m;
  return last;
}

function record(name, res, bytes, ui) {
  writeFileSync(join(out, `${name}.sse`), bytes);
  writeFileSync(join(out, `${name}.ui.json`), JSON.stringify(ui, null, 2) + '\n');
  manifest.scenarios[name] = {
    header: res.headers.get('x-vercel-ai-ui-message-stream'),
    contentType: res.headers.get('content-type'),
    scenario: res.headers.get('x-scenario'),
  };
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  console.log(`[capture] ${name}.sse ${bytes.length} B`);
}

try {
  // ---- one request each -------------------------------------------------------------------------
  for (const [name, text] of Object.entries(PROMPTS)) {
    const res = await post('/api/chat', body(`capture-${name}`, text));
    assert.equal(res.status, 200, name);
    assert.equal(res.headers.get('x-scenario'), name);
    const bytes = new Uint8Array(await res.arrayBuffer());
    record(name, res, bytes, await uiMessage(bytes));
    const last = await (await fetch(`${base}/debug/last-request?id=capture-${name}`)).json();
    assert.deepEqual(last, body(`capture-${name}`, text), 'the debug route returns the body');
  }

  // ---- approval round trips, driven by the AI SDK's own client --------------------------------------
  class State {
    constructor() {
      this.status = 'ready';
      this.error = undefined;
      this.messages = [];
    }
    pushMessage = m => (this.messages = this.messages.concat(m));
    popMessage = () => (this.messages = this.messages.slice(0, -1));
    replaceMessage = (i, m) => (this.messages = this.messages.map((old, j) => (j === i ? this.snapshot(m) : old)));
    snapshot = thing => structuredClone(thing);
  }
  class Chat extends AbstractChat {
    constructor(init) {
      super({ ...init, state: new State() });
    }
  }
  const settle = async chat => {
    for (let i = 0; i < 400 && (chat.status === 'submitted' || chat.status === 'streaming'); i++) {
      await new Promise(r => setTimeout(r, 10));
    }
    await new Promise(r => setTimeout(r, 50));
    assert.equal(chat.status, 'ready', String(chat.error));
  };

  for (const [name, approved, reason] of [
    ['approval-approved', true, undefined],
    ['approval-denied', false, 'Too expensive'],
  ]) {
    const chatId = `capture-${name}`;
    const responses = [];
    let n = 0;
    const chat = new Chat({
      id: chatId,
      generateId: () => `client-${++n}`,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      transport: new DefaultChatTransport({
        api: `${base}/api/chat`,
        // Keeps each response's bytes, then hands the client the same bytes.
        fetch: async (url, init) => {
          const res = await fetch(url, init);
          const bytes = new Uint8Array(await res.arrayBuffer());
          responses.push({ res, bytes });
          return new Response(bytes, { status: res.status, headers: res.headers });
        },
      }),
    });
    await chat.sendMessage({ text: 'Please book Tasca for eight' });
    await settle(chat);
    const asked = chat.messages.at(-1);
    const part = asked.parts.find(p => p.type === 'tool-bookVenue');
    assert.equal(part?.state, 'approval-requested', JSON.stringify(asked));
    if (approved) {
      record('approval', responses[0].res, responses[0].bytes, asked);
      assert.deepEqual(await uiMessage(responses[0].bytes), asked, 'the reader and the Chat agree');
    }
    await chat.addToolApprovalResponse({ id: part.approval.id, approved, reason });
    await settle(chat);
    assert.equal(responses.length, 2, 'the client sent the answer by itself');
    const sent = await (await fetch(`${base}/debug/last-request?id=${chatId}`)).json();
    writeFileSync(join(out, `${name}.request.json`), JSON.stringify(sent, null, 2) + '\n');
    record(name, responses[1].res, responses[1].bytes, chat.messages.at(-1));
    const answered = chat.messages.at(-1).parts.find(p => p.type === 'tool-bookVenue');
    assert.equal(answered.state, approved ? 'output-available' : 'output-denied');
  }

  // ---- resume, stop -------------------------------------------------------------------------------
  const nothing = await fetch(`${base}/api/chat/capture-nothing/stream`);
  assert.equal(nothing.status, 204, 'nothing in flight: 204');

  const slow = readFileSync(join(out, 'slow.sse'));
  // The POST's client goes away mid-stream; the generation goes on and a resume replays it all.
  const gone = new AbortController();
  const first = await fetch(`${base}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body('capture-resume', PROMPTS.slow)),
    signal: gone.signal,
  });
  const reader = first.body.getReader();
  await reader.read();
  gone.abort();
  await new Promise(r => setTimeout(r, 100));
  const resumed = await fetch(`${base}/api/chat/capture-resume/stream`);
  assert.equal(resumed.status, 200);
  assert.equal(resumed.headers.get('x-vercel-ai-ui-message-stream'), 'v1');
  assert.deepEqual(Buffer.from(await resumed.arrayBuffer()), slow, 'a resume replays from the start and goes on live');
  // Just finished: still replayed (within the window).
  const again = await fetch(`${base}/api/chat/capture-resume/stream`);
  assert.deepEqual(Buffer.from(await again.arrayBuffer()), slow);

  // The stop endpoint ends the generation with an `abort` chunk.
  const stopping = await post('/api/chat', body('capture-stop', PROMPTS.slow));
  const stopReader = stopping.body.getReader();
  await stopReader.read();
  const stopped = await (await post('/api/chat/capture-stop/stop', {})).json();
  assert.deepEqual(stopped, { stopped: true });
  const decoder = new TextDecoder();
  let rest = '';
  for (;;) {
    const { done, value } = await stopReader.read();
    if (done) break;
    rest += decoder.decode(value, { stream: true });
  }
  assert.match(rest, /"type":"abort","reason":"stopped by the stop endpoint"/);
  assert.ok(rest.endsWith('data: [DONE]\n\n'));
  console.log('[capture] resume replays, 204 when idle, stop aborts: ok');

  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
} finally {
  await close();
}
