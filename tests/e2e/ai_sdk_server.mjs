// A scripted AI SDK chat server for the end-to-end tests, built on the npm `ai` package itself
// (pinned in package.json): every response is a UI message stream that `ai` produces
// (`createUIMessageStream` + `pipeUIMessageStreamToResponse`; the tool, approval, reasoning and
// slow scenarios run `streamText` over a scripted model, so the AI SDK's own tool loop, approval
// handling and `toUIMessageStream` make the chunks). Deterministic: the reply depends only on the
// request. Listens on 127.0.0.1 only and stops itself (see the flags).
//
//     node ai_sdk_server.mjs --port 0 [--idle 120] [--max-lifetime 900] [--slow-ms 100] [--watch-stdin]
//
// The first stdout line is `listening 127.0.0.1:PORT` (with `--port 0` the port the system chose).
// It exits after `--idle` seconds without a request, after `--max-lifetime` seconds in any case,
// when its parent process goes away, and (with `--watch-stdin`) when its stdin closes.
//
// Routes (all with `Access-Control-Allow-Origin: *`, so a page on another port may call them):
//   POST /api/chat               the AI SDK request `{id, messages, trigger}` (DefaultChatTransport's
//                                body); `messages` must pass the AI SDK's `validateUIMessages` (else
//                                400 with its message); the scenario comes from the last user
//                                message's text (the first rule that matches, in this order):
//     "book" / "approv"          approval: a `bookVenue` call that needs the person's approval
//                                (`tool-approval-request`); a request whose last assistant message has
//                                the tool part in state `approval-responded` (`approval: {id,
//                                approved, reason}`) continues it: the tool output, or the denial
//                                (`tool-output-denied`), then text
//     "data" / "progress"        a `data-weather` part written, then updated by the same id, and a
//                                `transient: true` `data-notice` part
//     "file"                     files: text, then a `file` part with a PNG as a `data:` URL and a
//                                `file` part of a PDF at an https URL
//     "weather" / "tool"         a `getWeather` call: tool-input-start, tool-input-delta ×3,
//                                tool-input-available, tool-output-available, then a second step
//     "think" / "reason"         reasoning, then text
//     "error" / "fail"           some text, then an `error` chunk (the route throws)
//     "slow" / "long"            40 text deltas `--slow-ms` apart (resume and stop tests)
//     anything else              text: markdown in several deltas
//   GET  /api/chat/:id/stream    resume: 204 when nothing is in flight for chat `id` (and nothing
//                                finished in the last 5 s); otherwise the stream's chunks from the
//                                beginning, then live until it ends (an in-memory buffer per chat)
//   POST /api/chat/:id/stop      stops chat `id`'s generation (it ends with an `abort` chunk): the
//                                documented stop endpoint; closing the POST only disconnects
//   GET  /debug/last-request?id= the last POST /api/chat body for chat `id`, as JSON (404 if none)
//   GET  /debug/resumes?id=      the resume GETs chat `id` received, oldest first: `[{status,
//                                replayed, done}]` (`replayed`: the chunks sent from the buffer at
//                                once; `done`: the stream had ended by then); `[]` if none
//   GET  /health                 `ok`

import http from 'node:http';
import { serveFromCommandLine } from './serve_cli.mjs';
import {
  UI_MESSAGE_STREAM_HEADERS,
  convertToModelMessages,
  createUIMessageStream,
  jsonSchema,
  pipeUIMessageStreamToResponse,
  streamText,
  tool,
  toUIMessageStream,
  validateUIMessages,
} from 'ai';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-expose-headers': 'x-vercel-ai-ui-message-stream, x-scenario',
  'access-control-max-age': '600',
};
/** How long a finished stream can still be resumed. */
const REPLAY_WINDOW_MS = 5000;

/** A pause that an abort ends early. */
const sleep = (ms, signal) =>
  new Promise(resolve => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

// ---- a scripted language model (the AI SDK's LanguageModelV4 interface) ----------------------

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const finishPart = reason => ({ type: 'finish', usage: USAGE, finishReason: { unified: reason, raw: reason } });
const textParts = (id, deltas) => [
  { type: 'text-start', id },
  ...deltas.map(delta => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];

/**
 * A model whose `n`th call streams `script(n, prompt)`: an array of stream parts, where a number
 * is a pause in milliseconds. Honours the abort signal as a provider would.
 */
function scriptedModel(script) {
  let calls = 0;
  return {
    specificationVersion: 'v4',
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the scripted model only streams');
    },
    async doStream({ prompt, abortSignal }) {
      const parts = [{ type: 'stream-start', warnings: [] }, ...script(calls++, prompt)];
      return {
        stream: new ReadableStream({
          async start(controller) {
            for (const part of parts) {
              if (abortSignal?.aborted) break;
              if (typeof part === 'number') await sleep(part, abortSignal);
              else controller.enqueue(part);
            }
            controller.close();
          },
        }),
      };
    },
  };
}

const TOOLS = {
  getWeather: tool({
    description: 'The weather in a city',
    inputSchema: jsonSchema({
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string' } },
      required: ['city'],
    }),
    execute: async ({ city, unit }) => ({ city, unit: unit ?? 'C', temperature: 21, weather: 'sunny' }),
  }),
  bookVenue: tool({
    description: 'Book a venue (needs the person’s approval)',
    inputSchema: jsonSchema({
      type: 'object',
      properties: { venue: { type: 'string' }, guests: { type: 'number' } },
      required: ['venue'],
    }),
    execute: async ({ venue, guests }) => ({ booked: true, venue, guests, confirmation: 'TASCA-0042' }),
  }),
};

/** What the last tool message of the prompt says about `toolCallId` (the approval's effect). */
function toolOutcome(prompt, toolCallId) {
  for (const m of [...prompt].reverse()) {
    if (m.role !== 'tool') continue;
    for (const p of m.content) {
      if (p.type === 'tool-result' && p.toolCallId === toolCallId) return p.output;
    }
  }
  return undefined;
}

// ---- scenarios ----------------------------------------------------------------------------------

export const SCENARIOS = ['approval', 'data', 'sources', 'tool', 'reasoning', 'error', 'slow', 'text'];
const KEYWORDS = [
  ['approval', ['book', 'approv']],
  ['data', ['data', 'progress']],
  ['file', ['file']],
  ['sources', ['source', 'cite']],
  ['tool', ['weather', 'tool']],
  ['reasoning', ['think', 'reason']],
  ['error', ['error', 'fail']],
  ['slow', ['slow', 'long']],
];

const userText = m =>
  (m?.parts ?? [])
    .filter(p => p.type === 'text')
    .map(p => p.text)
    .join(' ');

/** The scenario of a request: the last user message's keywords. */
export function scenarioOf(messages) {
  const lastUser = [...messages].reverse().find(m => m.role === 'user');
  const text = userText(lastUser).toLowerCase();
  for (const [name, words] of KEYWORDS) if (words.some(w => text.includes(w))) return name;
  return 'text';
}

/** The tool parts of the last message when it is an assistant message answered by approvals. */
export function approvalAnswers(messages) {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return [];
  return (last.parts ?? []).filter(
    p => (p.type?.startsWith('tool-') || p.type === 'dynamic-tool') && p.state === 'approval-responded',
  );
}

/** A 1×1 PNG: the image the `file` scenario sends. */
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const MARKDOWN = [
  'Here is a **short** answer',
  ' with a list:\n\n',
  '- one\n',
  '- two\n\n',
  'and some `code`',
  ' at the end.',
];

/** Runs `streamText` over a scripted model and merges its UI message stream into `writer`. */
function mergeModel(writer, { messages, script, signal, options = {} }) {
  return (async () => {
    const result = streamText({
      model: scriptedModel(script),
      messages: await convertToModelMessages(messages, { tools: TOOLS }),
      tools: TOOLS,
      stopWhen: ({ steps }) => steps.length >= 5,
      abortSignal: signal,
      ...options,
    });
    writer.merge(toUIMessageStream({ stream: result.stream, tools: TOOLS }));
  })();
}

/** The chunk stream of one request. */
function chatStream({ body, scenario, signal, slowMs }) {
  const messages = body.messages ?? [];
  return createUIMessageStream({
    originalMessages: messages,
    // Deterministic ids, so captured fixtures are stable: the scenario and the history length.
    generateId: () => `${scenario}-${messages.length}`,
    onError: error => (error instanceof Error ? error.message : String(error)),
    execute: async ({ writer }) => {
      switch (scenario) {
        case 'text': {
          writer.write({ type: 'start' });
          writer.write({ type: 'start-step' });
          writer.write({ type: 'text-start', id: 'text-1' });
          for (const delta of MARKDOWN) writer.write({ type: 'text-delta', id: 'text-1', delta });
          writer.write({ type: 'text-end', id: 'text-1' });
          writer.write({ type: 'finish-step' });
          writer.write({ type: 'finish', finishReason: 'stop' });
          return;
        }
        case 'data': {
          writer.write({ type: 'start' });
          writer.write({
            type: 'data-weather',
            id: 'weather-1',
            data: { city: 'Lisbon', status: 'loading' },
          });
          writer.write({ type: 'data-notice', data: { message: 'Fetching the forecast…' }, transient: true });
          writer.write({ type: 'start-step' });
          writer.write({ type: 'text-start', id: 'text-1' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: 'The forecast ' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: 'is in.' });
          writer.write({ type: 'text-end', id: 'text-1' });
          writer.write({ type: 'finish-step' });
          writer.write({
            type: 'data-weather',
            id: 'weather-1',
            data: { city: 'Lisbon', status: 'done', temperature: 21, weather: 'sunny' },
          });
          writer.write({ type: 'finish', finishReason: 'stop' });
          return;
        }
        case 'file': {
          writer.write({ type: 'start' });
          writer.write({ type: 'start-step' });
          writer.write({ type: 'text-start', id: 'text-1' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: 'Here are the files.' });
          writer.write({ type: 'text-end', id: 'text-1' });
          writer.write({ type: 'file', url: `data:image/png;base64,${PNG_1PX}`, mediaType: 'image/png' });
          writer.write({ type: 'file', url: 'https://files.example/report.pdf', mediaType: 'application/pdf' });
          writer.write({ type: 'finish-step' });
          writer.write({ type: 'finish', finishReason: 'stop' });
          return;
        }
        case 'sources': {
          // Source parts after the text, as a web-search model sends them; `[n]` in the text.
          writer.write({ type: 'start' });
          writer.write({ type: 'start-step' });
          writer.write({ type: 'text-start', id: 'text-1' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: 'Lisbon has seven hills [1]' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: ' and yellow trams [2].' });
          writer.write({ type: 'text-end', id: 'text-1' });
          writer.write({
            type: 'source-url',
            sourceId: 'src-1',
            url: 'https://en.wikipedia.org/wiki/Lisbon',
            title: 'Lisbon – Wikipedia',
          });
          writer.write({ type: 'source-url', sourceId: 'src-2', url: 'https://www.carris.pt/en/', title: 'Carris trams' });
          writer.write({
            type: 'source-document',
            sourceId: 'doc-1',
            mediaType: 'application/pdf',
            title: 'City guide',
            filename: 'lisbon.pdf',
          });
          writer.write({ type: 'finish-step' });
          writer.write({ type: 'finish', finishReason: 'stop' });
          return;
        }
        case 'error': {
          writer.write({ type: 'start' });
          writer.write({ type: 'start-step' });
          writer.write({ type: 'text-start', id: 'text-1' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: 'Let me check' });
          writer.write({ type: 'text-delta', id: 'text-1', delta: ' that for you…' });
          // The route fails: createUIMessageStream turns the throw into an `error` chunk.
          throw new Error('The model provider is overloaded (scripted failure).');
        }
        case 'reasoning':
          return mergeModel(writer, {
            messages,
            signal,
            script: () => [
              { type: 'reasoning-start', id: 'reasoning-0' },
              { type: 'reasoning-delta', id: 'reasoning-0', delta: 'The person wants a number. ' },
              { type: 'reasoning-delta', id: 'reasoning-0', delta: 'Six times seven ' },
              { type: 'reasoning-delta', id: 'reasoning-0', delta: 'is 42.' },
              { type: 'reasoning-end', id: 'reasoning-0' },
              ...textParts('text-0', ['The answer ', 'is **42**.']),
              finishPart('stop'),
            ],
          });
        case 'tool':
          return mergeModel(writer, {
            messages,
            signal,
            script: n =>
              n === 0
                ? [
                    ...textParts('text-0', ['Let me look ', 'that up.']),
                    { type: 'tool-input-start', id: 'call-weather-1', toolName: 'getWeather' },
                    { type: 'tool-input-delta', id: 'call-weather-1', delta: '{"city":' },
                    { type: 'tool-input-delta', id: 'call-weather-1', delta: '"Lisbon",' },
                    { type: 'tool-input-delta', id: 'call-weather-1', delta: '"unit":"C"}' },
                    { type: 'tool-input-end', id: 'call-weather-1' },
                    {
                      type: 'tool-call',
                      toolCallId: 'call-weather-1',
                      toolName: 'getWeather',
                      input: '{"city":"Lisbon","unit":"C"}',
                    },
                    finishPart('tool-calls'),
                  ]
                : [...textParts('text-1', ['It is sunny ', 'and 21 °C in Lisbon.']), finishPart('stop')],
          });
        case 'approval': {
          const answered = approvalAnswers(messages);
          return mergeModel(writer, {
            messages,
            signal,
            options: {
              toolApproval: { bookVenue: 'user-approval' },
              // Only so the captured fixtures stay byte-stable: the approval ids `streamText`
              // mints come from this generator (the version is pinned).
              _internal: { generateId: () => `approval-request-${messages.length}` },
            },
            script: (n, prompt) => {
              if (answered.length > 0) {
                const outcome = toolOutcome(prompt, answered[0].toolCallId);
                const text =
                  outcome?.type === 'execution-denied'
                    ? ['Okay, I did not book it', outcome.reason ? ` (${outcome.reason}).` : '.']
                    : ['Booked: ', 'confirmation TASCA-0042.'];
                return [...textParts('text-0', text), finishPart('stop')];
              }
              return [
                ...textParts('text-0', ['I can book ', 'Tasca for you.']),
                { type: 'tool-input-start', id: 'call-book-1', toolName: 'bookVenue' },
                { type: 'tool-input-delta', id: 'call-book-1', delta: '{"venue":"Tasca",' },
                { type: 'tool-input-delta', id: 'call-book-1', delta: '"guests":8}' },
                { type: 'tool-input-end', id: 'call-book-1' },
                {
                  type: 'tool-call',
                  toolCallId: 'call-book-1',
                  toolName: 'bookVenue',
                  input: '{"venue":"Tasca","guests":8}',
                },
                finishPart('tool-calls'),
              ];
            },
          });
        }
        case 'slow':
          return mergeModel(writer, {
            messages,
            signal,
            script: () => [
              { type: 'text-start', id: 'text-0' },
              ...Array.from({ length: 40 }, (_, i) => [slowMs, { type: 'text-delta', id: 'text-0', delta: `word${i + 1} ` }]).flat(),
              { type: 'text-end', id: 'text-0' },
              finishPart('stop'),
            ],
          });
        default:
          throw new Error(`unknown scenario ${scenario}`);
      }
    },
  });
}

// ---- the server -----------------------------------------------------------------------------------

/** One chat's stream, buffered for resumption. */
class Flight {
  constructor() {
    this.chunks = [];
    this.done = false;
    this.doneAt = 0;
    this.listeners = new Set();
    this.abort = new AbortController();
  }
  push(chunk) {
    this.chunks.push(chunk);
    for (const l of this.listeners) l(chunk);
  }
  end() {
    this.done = true;
    this.doneAt = Date.now();
    for (const l of this.listeners) l(null);
    this.listeners.clear();
  }
  resumable() {
    return !this.done || Date.now() - this.doneAt < REPLAY_WINDOW_MS;
  }
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

/**
 * Starts the server. Returns `{server, port, close}` once it listens.
 * Options: `port` (0: any), `slowMs` (the slow scenario's pause), `onRequest` (called per request).
 */
export function startServer({ port = 0, slowMs = 100, onRequest = () => {} } = {}) {
  const lastRequests = new Map();
  const flights = new Map();
  const resumes = new Map();

  async function chat(req, res) {
    let body;
    try {
      body = await readJson(req);
    } catch (e) {
      return send(res, 400, { error: `invalid JSON: ${e.message}` });
    }
    const chatId = typeof body.id === 'string' ? body.id : 'default';
    lastRequests.set(chatId, body);
    try {
      // As an AI SDK route that keeps history does: the AI SDK's own schema of UI messages.
      await validateUIMessages({ messages: body.messages });
    } catch (e) {
      return send(res, 400, { error: `invalid UI messages: ${e.message}` });
    }
    const scenario = scenarioOf(body.messages);
    flights.get(chatId)?.abort.abort('superseded by a new request');
    const flight = new Flight();
    flights.set(chatId, flight);
    const stream = chatStream({ body, scenario, signal: flight.abort.signal, slowMs });
    await pipeUIMessageStreamToResponse({
      response: res,
      stream,
      headers: { ...CORS, 'x-scenario': scenario },
      // A copy of the SSE text, read to the end even when the client disconnects (then the
      // generation goes on, as in a resumable AI SDK setup).
      consumeSseStream: async ({ stream: copy }) => {
        try {
          for await (const chunk of copy) flight.push(chunk);
        } finally {
          flight.end();
        }
      },
    });
  }

  function resume(res, chatId) {
    const flight = flights.get(chatId);
    const seen = resumes.get(chatId) ?? [];
    resumes.set(chatId, seen);
    if (!flight || !flight.resumable()) {
      seen.push({ status: 204, replayed: 0, done: Boolean(flight?.done) });
      res.writeHead(204, CORS);
      return res.end();
    }
    seen.push({ status: 200, replayed: flight.chunks.length, done: flight.done });
    res.writeHead(200, { ...UI_MESSAGE_STREAM_HEADERS, ...CORS });
    for (const chunk of flight.chunks) res.write(chunk);
    if (flight.done) return res.end();
    const listener = chunk => (chunk === null ? res.end() : res.write(chunk));
    flight.listeners.add(listener);
    res.on('close', () => flight.listeners.delete(listener));
  }

  const server = http.createServer(async (req, res) => {
    onRequest();
    const url = new URL(req.url, 'http://127.0.0.1');
    const path = url.pathname;
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        return res.end();
      }
      if (req.method === 'POST' && path === '/api/chat') return await chat(req, res);
      let m = path.match(/^\/api\/chat\/([^/]+)\/stream$/);
      if (req.method === 'GET' && m) return resume(res, decodeURIComponent(m[1]));
      m = path.match(/^\/api\/chat\/([^/]+)\/stop$/);
      if (req.method === 'POST' && m) {
        const flight = flights.get(decodeURIComponent(m[1]));
        const live = flight && !flight.done;
        if (live) flight.abort.abort('stopped by the stop endpoint');
        return send(res, 200, { stopped: Boolean(live) });
      }
      if (req.method === 'GET' && path === '/debug/last-request') {
        const body = lastRequests.get(url.searchParams.get('id') ?? 'default');
        return body ? send(res, 200, body) : send(res, 404, { error: 'no request for this id' });
      }
      if (req.method === 'GET' && path === '/debug/resumes') {
        return send(res, 200, resumes.get(url.searchParams.get('id') ?? 'default') ?? []);
      }
      if (req.method === 'GET' && path === '/health') return send(res, 200, 'ok', 'text/plain');
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
          for (const f of flights.values()) f.abort.abort();
          server.closeAllConnections?.();
          server.close(() => done());
        });
      resolve({ server, port: server.address().port, close });
    });
  });
}

// ---- command line (tests/e2e/serve_cli.mjs) ----------------------------------------------------

serveFromCommandLine(import.meta.url, 'ai_sdk_server', { '--slow-ms': ['slowMs', 100] }, (opts, onRequest) => startServer({ port: opts.port, slowMs: opts.slowMs, onRequest }));
