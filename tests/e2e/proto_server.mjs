// A scripted AG-UI server for the protobuf binding's end-to-end test (the `proto` target),
// built on the reference encoder: every event goes out through `@ag-ui/encoder` 1.0.0's
// `EventEncoder`, chosen by the request's Accept header as the AG-UI docs describe (protobuf,
// `application/vnd.ag-ui.event+proto` frames, when the client admits it; SSE otherwise). The
// events are the same both ways, so the widget must show the same transcript and state.
// Deterministic. Listens on 127.0.0.1 only and stops itself (the flags are ai_sdk_server.mjs's).
//
//     node proto_server.mjs --port 0 [--idle 120] [--max-lifetime 900] [--watch-stdin]
//
// The first stdout line is `listening 127.0.0.1:PORT`.
//
// Routes (all with `Access-Control-Allow-Origin: *`):
//   POST /agent                  a RunAgentInput (JSON); answers the scripted run below
//   GET  /debug/last?threadId=   the last POST /agent of that thread: `{accept, contentType,
//                                runId, events}` (`events`: how many were sent), 404 if none
//   GET  /health                 `ok`

import http from 'node:http';
import { serveFromCommandLine } from './serve_cli.mjs';
import { EventEncoder } from '@ag-ui/encoder';
import { EventType } from '@ag-ui/core';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept',
  'access-control-max-age': '600',
};

/** The text of the answer, in the deltas it streams in (markdown and non-ASCII). */
export const TEXT_DELTAS = [
  'Grüße! Here is the **plan** for Zürich',
  ' — 3 steps:\n\n',
  '- book the *Café Fünf* 🍰\n',
  '- check the weather\n\n',
  'Total: `42 €`.',
];
/** The tool call's arguments, streamed in pieces. */
export const TOOL_ARGS = ['{"city":"Zü', 'rich","days":', '2}'];
export const TOOL_RESULT = JSON.stringify({ city: 'Zürich', forecast: 'sunny', high: 23 });

/** The scripted run for `input` (a RunAgentInput): AG-UI events, in order. */
export function scriptedRun(input) {
  const threadId = input.threadId;
  const runId = input.runId;
  const msg = `msg-${runId}`;
  const tc = `call-${runId}`;
  const ev = (type, fields = {}) => ({ type, ...fields });
  return [
    ev(EventType.RUN_STARTED, { threadId, runId }),
    ev(EventType.STATE_SNAPSHOT, { snapshot: { city: 'Zürich', steps: 3, done: false, tags: ['café'] } }),
    ev(EventType.TEXT_MESSAGE_START, { messageId: msg, role: 'assistant' }),
    ...TEXT_DELTAS.map(delta => ev(EventType.TEXT_MESSAGE_CONTENT, { messageId: msg, delta })),
    ev(EventType.TEXT_MESSAGE_END, { messageId: msg }),
    ev(EventType.TOOL_CALL_START, { toolCallId: tc, toolCallName: 'get_forecast', parentMessageId: msg }),
    ...TOOL_ARGS.map(delta => ev(EventType.TOOL_CALL_ARGS, { toolCallId: tc, delta })),
    ev(EventType.TOOL_CALL_END, { toolCallId: tc }),
    ev(EventType.TOOL_CALL_RESULT, { messageId: `res-${runId}`, toolCallId: tc, content: TOOL_RESULT, role: 'tool' }),
    ev(EventType.STATE_DELTA, {
      delta: [
        { op: 'replace', path: '/done', value: true },
        { op: 'add', path: '/forecast', value: 'sunny' },
      ],
    }),
    ev(EventType.RUN_FINISHED, { threadId, runId }),
  ];
}

async function readJson(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
}

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { ...CORS, 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const pause = ms => new Promise(r => setTimeout(r, ms));

/** Starts the server; resolves to `{server, port, close}` once it listens. */
export function startServer({ port = 0, pauseMs = 30, onRequest = () => {} } = {}) {
  const last = new Map();

  async function agent(req, res) {
    let input;
    try {
      input = await readJson(req);
    } catch (e) {
      return send(res, 400, { error: `invalid JSON: ${e.message}` });
    }
    if (typeof input.threadId !== 'string' || typeof input.runId !== 'string') {
      return send(res, 422, { error: 'threadId and runId are required' });
    }
    const accept = req.headers.accept ?? '';
    const encoder = new EventEncoder({ accept });
    const contentType = encoder.getContentType();
    const events = scriptedRun(input);
    last.set(input.threadId, { accept, contentType, runId: input.runId, events: events.length });
    res.writeHead(200, { ...CORS, 'content-type': contentType, 'cache-control': 'no-cache' });
    for (const event of events) {
      // encodeBinary: the length-prefixed protobuf frame, or the SSE text as bytes.
      res.write(encoder.encodeBinary(event));
      await pause(pauseMs);
    }
    res.end();
  }

  const server = http.createServer(async (req, res) => {
    onRequest();
    const url = new URL(req.url, 'http://127.0.0.1');
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/agent') return await agent(req, res);
      if (req.method === 'GET' && url.pathname === '/debug/last') {
        const seen = last.get(url.searchParams.get('threadId') ?? '');
        return seen ? send(res, 200, seen) : send(res, 404, { error: 'no request for this thread' });
      }
      if (req.method === 'GET' && url.pathname === '/health') return send(res, 200, 'ok', 'text/plain');
      return send(res, 404, { error: 'not found' });
    } catch (e) {
      if (!res.headersSent) send(res, 500, { error: String(e?.message ?? e) });
      else res.destroy();
    }
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const close = () =>
        new Promise(done => {
          server.closeAllConnections?.();
          server.close(() => done());
        });
      resolve({ server, port: server.address().port, close });
    });
  });
}

// ---- command line (tests/e2e/serve_cli.mjs) ----------------------------------------------------

serveFromCommandLine(import.meta.url, 'proto_server', {}, (opts, onRequest) => startServer({ port: opts.port, onRequest }));
