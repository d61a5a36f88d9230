// End-to-end: the built app in real Chromium (Playwright, Debian's chromium) against a real
// AG-UI server written with the official Python SDK (server.py). The same checks run on three
// pages: the app itself, the example host page (examples/embed: one script, one
// `<agui-chat mode="popup">`) and a host page with hostile CSS (hostile.html); then the example
// Leptos app, the lazy start, an inline page (inline.html), the compact layout and an axe-core
// audit of every state the suite visits for it (0 violations above minor). The chat lives
// in a shadow root: Playwright's selectors pierce open shadow roots. Each check is
// independent; a failing check saves a screenshot under target/e2e/ and makes the process exit
// non-zero. The `ai-sdk` target (ai-sdk.html) runs the chat against the AI SDK chat route
// (ai_sdk_server.mjs, the npm `ai` package) given as the second argument; the `proto` target
// (proto.html) runs the lean widget against the AG-UI server on `@ag-ui/encoder`
// (proto_server.mjs), given as the third, once over protobuf and once over SSE. The `mcp-proxy`
// target runs an MCP App in the lean widget through the reference sandbox proxy
// (examples/mcp-sandbox) that server.py serves over https on a second port, with this run's
// throwaway certificate (that target's contexts accept it); the `generative-ui` target an A2UI
// surface and an MCP App in its own frame, each a module of the lean widget.
//
//   node e2e.js http://127.0.0.1:8111 [http://127.0.0.1:AI_SDK_PORT] [http://127.0.0.1:PROTO_PORT]
const { chromium } = require('playwright-core');
const fs = require('fs');
const { execFileSync } = require('child_process');
const path = require('path');

const base = process.argv[2] || 'http://127.0.0.1:8111';
const aiSdk = process.argv[3] || '';
const protoUrl = process.argv[4] || '';
const shots = path.join(__dirname, '..', '..', 'target', 'e2e');
fs.mkdirSync(shots, { recursive: true });

const texts = (p) => p.$$eval('[data-testid=message-text]', (els) => els.map((e) => e.textContent));
const status = (p) => p.getAttribute('[data-testid=run-status]', 'data-status');
const waitStatus = (p, s) => p.waitForSelector(`[data-testid=run-status][data-status=${s}]`, { timeout: 15000 });
function assert(cond, msg) { if (!cond) throw new Error(msg); }

// Waits until an element matching `sel` has text containing `needle`.
async function waitText(p, sel, needle, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    const t = await p.$$eval(sel, (els) => els.map((e) => e.textContent));
    if (t.some((x) => x.includes(needle))) return;
    if (Date.now() > end) throw new Error(`no ${sel} containing ${needle}: ${t.join(' | ').slice(0, 300)}`);
    await p.waitForTimeout(50);
  }
}
const assistantText = '[data-role=assistant] [data-testid=message-text]';
// The data-testid of the focused element, through shadow roots.
const focusedTestid = (p) => p.evaluate(() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a ? a.getAttribute('data-testid') : null;
});
// The sources list under an answer: entries, safe links, no source cards; a marker focuses its
// entry (inside the shadow root).
async function checkSources(p, expected) {
  await p.waitForSelector('[data-testid=sources]', { timeout: 10000 });
  const entries = await p.$$eval('[data-testid=source]', (els) => els.map((e) => e.textContent));
  assert(entries.length === expected.length, 'the entries: ' + JSON.stringify(entries));
  expected.forEach((needle, i) => assert(entries[i].includes(needle), `entry ${i + 1}: ${entries[i]}`));
  const links = await p.$$eval('[data-testid=source-link]', (els) =>
    els.map((e) => [e.getAttribute('href'), e.getAttribute('rel'), e.getAttribute('target'), e.getAttribute('referrerpolicy')]));
  assert(links.length >= 1 && links.every(([href, rel, target, policy]) => /^https:/.test(href)
    && rel === 'noopener noreferrer' && target === '_blank' && policy === 'no-referrer'), 'the links: ' + JSON.stringify(links));
  assert(!(await p.$('[data-testid=activity]')), 'the sources also show as activity cards');
  const cites = await p.$$('[data-testid=citation]');
  assert(cites.length === 2, 'two citation markers: ' + cites.length);
  await cites[1].click();
  assert((await focusedTestid(p)) === 'source', 'the marker focused its entry: ' + (await focusedTestid(p)));
}

// Waits until a Playwright locator's text contains `needle`.
async function waitTextIn(loc, needle, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    const t = (await loc.textContent({ timeout }).catch(() => '')) || '';
    if (t.includes(needle)) return;
    if (Date.now() > end) throw new Error(`no text containing ${needle}: ${t.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Opens a popup widget (no-op on pages without a launcher).
async function open(p) {
  await p.waitForSelector('[data-testid=widget], [data-testid=app-root], [data-testid=widget-launcher]', { state: 'attached' });
  const closed = '[data-testid=widget-launcher][aria-expanded=false]';
  if (await p.$(closed)) await p.click(closed);
  await p.waitForSelector('[data-testid=composer-input]');
}

async function send(p, text) {
  await p.fill('[data-testid=composer-input]', text);
  await p.click('[data-testid=composer-send]');
}

// The request the last run sent.
async function lastRequest(p) {
  const reqs = await (await p.request.get(base + '/requests')).json();
  return reqs[reqs.length - 1];
}

// Streamed text, a tool card whose args stream, a state delta; `venues(p)` checks how the
// venue search's card looks on this page.
const streaming = (venues) => async (p) => {
  await send(p, 'plan our offsite');
  await waitText(p, assistantText, 'Real');
  assert((await status(p)) === 'running', 'text must render while the run is still running');
  await p.waitForSelector('[data-testid=tool-card][data-tool-name=search_venues]', { timeout: 10000 });
  await waitStatus(p, 'success');
  await venues(p);
  const changed = await p.getAttribute('[data-testid=state-path][data-path="/venues/0"]', 'data-changed');
  assert(changed === 'true', 'the state delta marks /venues/0 changed, got ' + changed);
};

// The app's page carries the demo plug-ins: its venue card and confirm_payment.
const demoCards = {
  'text, tool card with live args, venue card, state panel': streaming(async (p) => {
    const venues = await p.$$eval('[data-testid=venue-card]', (els) => els.map((e) => e.textContent));
    assert(venues.length === 1 && venues[0].includes('Tasca Real'), 'one venue card: ' + venues);
  }),
  async 'confirm_payment round trip'(p) {
    await send(p, 'please pay the deposit');
    await p.waitForSelector('[data-testid=tool-card][data-status=awaiting-input]', { timeout: 10000 });
    await p.click('[data-testid=frontend-tool-approve]');
    await waitText(p, '[data-testid=message-text]', 'Got your answer: {"approved":true');
    const reqs = await (await p.request.get(base + '/requests')).json();
    const last = reqs[reqs.length - 1];
    const tail = last.messages[last.messages.length - 1];
    assert(tail.role === 'tool' && tail.toolCallId && tail.toolCallId.startsWith('pay-'), 'the tool answer is sent back');
  },
};

// The example host page pointed at the server registers its own venue element and a
// frontend tool through AguiChat.mount: it gets those, and only those.
const pageCards = {
  "text, tool card with live args, the page's venue element, state panel": streaming(async (p) => {
    const own = await p.$$eval('[data-tool-name=search_venues] acme-venue-list', (els) => els.map((e) => e.textContent));
    assert(own.length === 1 && own[0].includes('Tasca Real'), "the page's element: " + own);
    assert(!(await p.$('[data-testid=venue-card]')), "not the demo's venue card");
  }),
  async "the page's frontend tool answers, and it is the only tool advertised"(p) {
    await send(p, 'where am I?');
    await waitText(p, '[data-testid=message-text]', 'Got your answer: {"city":"Lisbon"}');
    const reqs = await (await p.request.get(base + '/requests')).json();
    const first = reqs[reqs.length - 2];
    assert(JSON.stringify(first.tools.map((t) => t.name)) === '["get_visitor_city"]', 'tools: ' + JSON.stringify(first.tools));
  },
};

// A page that registers nothing: generic cards, no tool advertised, nothing to answer.
const bareCards = {
  'text, tool card with live args, the generic card, state panel': streaming(async (p) => {
    assert(!(await p.$('[data-testid=venue-card]')), "not the demo's venue card");
    const result = await p.textContent('[data-tool-name=search_venues] [data-testid=tool-result]');
    assert(result.includes('Tasca Real'), 'the generic result: ' + result);
    assert(JSON.stringify((await lastRequest(p)).tools) === '[]', 'no tool advertised');
  }),
  async 'a tool nobody registered is not the visitor\'s to answer'(p) {
    await send(p, 'please pay the deposit');
    await waitStatus(p, 'success');
    const card = await p.waitForSelector('[data-testid=tool-card][data-tool-name=confirm_payment]', { timeout: 10000 });
    assert((await card.getAttribute('data-status')) !== 'awaiting-input', 'not awaiting the visitor');
    assert(!(await p.$('[data-testid=frontend-tool-approve]')), 'no payment buttons');
  },
};

const checks = {
  async 'interrupt answered after a reload, resume covers it'(p) {
    await send(p, 'ask me something');
    await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    assert(await p.$eval('[data-testid=composer-input]', (e) => e.disabled), 'composer locked while an interrupt is open');
    await p.reload();
    await open(p);
    const card = await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    const id = await card.getAttribute('data-interrupt-id');
    await p.fill('[data-testid=interrupt] input[type=number]', '7');
    await p.click('[data-testid=interrupt-submit]');
    await waitText(p, '[data-testid=message-text]', '"travellers": 7');
    const reqs = await (await p.request.get(base + '/requests')).json();
    const resume = reqs[reqs.length - 1].resume;
    assert(resume && resume.length === 1 && resume[0].interruptId === id && resume[0].status === 'resolved', 'resume: ' + JSON.stringify(resume));
  },
  async 'RUN_ERROR shows the banner with retry'(p) {
    await send(p, 'trigger an error');
    await waitStatus(p, 'error');
    const banner = await p.textContent('[data-testid=error-banner]');
    assert(banner.includes('venue service unavailable'), 'banner: ' + banner);
    assert(await p.$('[data-testid=retry]'), 'retry button');
    assert((await texts(p)).some((t) => t.includes('Looking that up')), 'streamed text kept');
  },
  async 'a dropped connection is never a success'(p) {
    await send(p, 'drop the line');
    await waitStatus(p, 'truncated');
    assert((await texts(p)).some((t) => t.includes('cut off')), 'streamed text kept');
    assert(await p.$('[data-testid=error-banner]'), 'banner shown');
  },
  async 'stop keeps what arrived'(p) {
    await send(p, 'plan our offsite');
    await waitText(p, assistantText, 'Real');
    await p.click('[data-testid=composer-stop]');
    await waitStatus(p, 'cancelled');
    const before = (await texts(p)).join('|');
    await p.waitForTimeout(1500);
    assert((await texts(p)).join('|') === before, 'nothing arrives after Stop');
    assert(before.includes('Real'), 'content kept');
  },
};

// Checks only the embedded widget needs.
const widgetChecks = {
  async 'DOM events reach the host page'(p) {
    await p.evaluate(() => {
      window.seen = [];
      for (const t of ['agui:run-started', 'agui:state-changed', 'agui:run-finished']) {
        document.addEventListener(t, (e) => window.seen.push({ type: e.type, detail: e.detail }));
      }
    });
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await p.waitForFunction(() => window.seen.some((e) => e.type === 'agui:run-finished'), null, { timeout: 5000 });
    const seen = await p.evaluate(() => window.seen);
    const types = seen.map((e) => e.type);
    assert(types[0] === 'agui:run-started' && types.includes('agui:state-changed'), 'events: ' + types);
    const done = seen.find((e) => e.type === 'agui:run-finished').detail;
    assert(done.status === 'success' && done.runId, 'run-finished detail: ' + JSON.stringify(done));
    const state = await p.evaluate(() => document.querySelector('agui-chat').state);
    assert(state && state.venues && state.venues.length === 1, 'element.state: ' + JSON.stringify(state));
  },
};

// The lean widget's parts fetched on first use (src/ui/lazy.rs, scripts/build-widget.sh): the
// tool cards come with the first run, the interrupt cards (a wasm module of their own) with the
// first interrupt; a failed fetch says so and offers Retry, which fetches it again.
const chunk = (name) => (u) => new URL(u).pathname.endsWith(`/agui-widget.${name}.wasm`);
// How many rules of the widget's adopted stylesheet style what only the modules render.
const moduleRules = (p) => p.evaluate(() => [...document.querySelector('agui-chat').shadowRoot.adoptedStyleSheets]
  .flatMap((s) => [...s.cssRules]).filter((r) => /\.agui-(markdown|tool-card|interrupt|state-tree)\b/.test(r.cssText)).length);
const splitChecks = {
  async 'the interrupt cards are fetched with the first interrupt; a failed fetch offers Retry'(p, seen) {
    assert(!seen.some(chunk('run')), 'the tool cards were fetched before any run');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    assert(seen.some(chunk('run')), 'the first run fetched the tool cards');
    assert(!seen.some(chunk('hitl')), 'the interrupt cards were fetched before any interrupt');
    assert(!seen.some(chunk('settings')), 'a widget without `settings` fetched the settings form');
    for (const part of ['a2ui', 'mcp_apps', 'proto']) {
      assert(!seen.some(chunk(part)), `a chat that never needed it fetched the ${part} module`);
    }
    let fail = true;
    await p.route('**/agui-widget.hitl.wasm', (r) => (fail ? r.abort() : r.continue()));
    await send(p, 'ask me something');
    await p.waitForSelector('[data-testid=lazy-failed]', { timeout: 10000 });
    await audit(p, 'embed-part-failed');
    assert(await p.$eval('[data-testid=composer-input]', (e) => e.disabled), 'the open interrupt still locks the composer');
    fail = false;
    await p.click('[data-testid=lazy-retry]');
    await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    assert(seen.filter(chunk('hitl')).length >= 2, 'Retry fetched the chunk again');
    assert(!(await p.$('[data-testid=lazy-failed]')), 'the notice is gone');
    await p.fill('[data-testid=interrupt] input[type=number]', '3');
    await p.click('[data-testid=interrupt-submit]');
    await waitText(p, '[data-testid=message-text]', '"travellers": 3');
  },
  async 'the run module comes when the person starts typing; a message sent before it is here goes out once it is'(p, seen) {
    await p.waitForTimeout(300);
    assert(!seen.some(chunk('run')), 'the run module was fetched before anyone typed');
    let release;
    const held = new Promise((r) => { release = r; });
    await p.route('**/agui-widget.run.wasm', async (r) => { await held; await r.continue(); });
    await p.fill('[data-testid=composer-input]', 'hel');
    for (let i = 0; i < 40 && !seen.some(chunk('run')); i++) await p.waitForTimeout(50);
    assert(seen.some(chunk('run')), 'typing asked for the run module');
    await p.fill('[data-testid=composer-input]', 'hello');
    await p.click('[data-testid=composer-send]');
    await waitText(p, '[data-testid=message-sending]', 'hello');
    assert((await p.$$('[data-role=user]')).length === 0, 'nothing is sent before the run module is here');
    // The stylesheet's rules for what the modules render come with them (src/ui/styles.rs);
    // what the main module renders is styled already (the pending bubble is dimmed).
    assert((await moduleRules(p)) === 0, 'the rules of the modules came before them');
    assert(Number(await p.$eval('[data-testid=message-sending]', (e) => getComputedStyle(e).opacity)) < 1,
      'the pending bubble is styled');
    release();
    await waitText(p, '[data-role=user] [data-testid=message-text]', 'hello');
    assert(!(await p.$('[data-testid=message-sending]')), 'the pending bubble gave way to the message');
    await p.waitForSelector(assistantText + ' strong', { timeout: 10000 });
    assert((await p.textContent(assistantText + ' strong')) === 'Real server', 'the answer, as Markdown');
    // The code the modules share came in one file, once (scripts/link-split.py).
    const packs = seen.filter((u) => new URL(u).pathname.endsWith('/agui-widget.chunks.bin')).length;
    assert(packs === 1 && !seen.some((u) => /agui-widget\.chunk_\d+\.wasm/.test(u)),
      `the shared chunks in one request (${packs}): ` + seen.filter((u) => /chunk/.test(u)).join(', '));
    const rules = await moduleRules(p);
    assert(rules > 10, `the rules of the modules came with the first of them (${rules})`);
    const wrap = await p.$eval(assistantText, (e) => getComputedStyle(e.closest('.agui-markdown') || e).overflowWrap);
    assert(wrap === 'break-word', 'the answer\'s Markdown is styled: overflow-wrap ' + wrap);
    assert((await lastRequest(p)).messages.some((m) => m.role === 'user' && m.content === 'hello'), 'the message reached the agent');
  },
  async 'a run module that cannot be loaded: the chat says so, and Retry sends the message'(p, seen) {
    let fail = true;
    await p.route('**/agui-widget.run.wasm', (r) => (fail ? r.abort() : r.continue()));
    await send(p, 'hello again');
    await p.waitForSelector('[data-testid=part-failed]', { timeout: 10000 });
    await audit(p, 'embed-run-failed');
    assert((await p.$$('[data-role=user]')).length === 0 && !(await p.$('[data-testid=message-sending]')),
      'nothing was sent, and nothing shows as sending');
    fail = false;
    await p.click('[data-testid=part-failed] [data-testid=retry]');
    await waitText(p, '[data-role=user] [data-testid=message-text]', 'hello again');
    await waitStatus(p, 'success');
    assert(seen.filter(chunk('run')).length >= 2, 'Retry fetched the module again');
    assert(!(await p.$('[data-testid=part-failed]')), 'the notice is gone');
    assert((await lastRequest(p)).messages.some((m) => m.role === 'user' && m.content === 'hello again'), 'the message reached the agent');
  },
  async 'the attachments module comes with the first file; the image goes to the agent and shows'(p, seen) {
    assert(!seen.some(chunk('attach')), 'the attachments module was fetched before any file');
    await attachChecks['an attached image goes to the agent as an image content part'](p);
    assert(seen.some(chunk('attach')), 'the first file fetched the attachments module');
  },
  async 'an image the agent\'s tool returns shows from its bytes, with the attachments module'(p, seen) {
    assert(!seen.some(chunk('attach')), 'the attachments module was fetched before any media');
    await send(p, 'draw the chart');
    await waitStatus(p, 'success');
    const card = '[data-testid=tool-card][data-tool-name=make_chart]';
    const image = `${card} [data-testid=agent-media][data-kind=image] img`;
    await p.waitForSelector(image, { timeout: 10000 });
    const src = await p.getAttribute(image, 'src');
    assert(src.startsWith('blob:'), 'a blob: URL of its bytes: ' + src);
    assert((await p.getAttribute(image, 'alt')) === 'Bookings by month, as a chart', 'its description is its alt');
    const file = `${card} [data-testid=agent-media][data-kind=file]`;
    assert((await p.getAttribute(file, 'href')) === 'https://files.example/bookings.csv', 'the CSV link');
    assert((await p.textContent(file)).includes('bookings.csv'), 'its name');
    assert((await p.textContent(`${card} [data-testid=tool-result]`)).includes('Bookings by month'), 'the text part');
    assert(seen.some(chunk('attach')), 'the media fetched the attachments module');
    await audit(p, 'embed-agent-media');
  },
  async 'a module served under another type than application/wasm still loads'(p) {
    await p.route('**/agui-widget.hitl.wasm', async (r) => {
      const res = await r.fetch();
      await r.fulfill({ response: res, headers: { ...res.headers(), 'content-type': 'application/octet-stream' } });
    });
    await send(p, 'ask me something');
    await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    assert(!(await p.$('[data-testid=lazy-failed]')), 'the module did not load');
  },
};

// Checks of the hostile page: its CSS does not reach the widget, ours does not reach it.
const hostileChecks = {
  async 'host CSS does not reach the widget, and ours does not reach the host'(p) {
    const inside = await p.$eval('[data-testid=composer-send]', (e) => {
      const c = getComputedStyle(e);
      return { bg: c.backgroundColor, color: c.color, pad: c.paddingTop, vis: c.visibility, font: c.fontFamily };
    });
    assert(inside.bg !== 'rgb(0, 255, 0)' && inside.pad !== '30px', 'button rules leaked in: ' + JSON.stringify(inside));
    assert(inside.color !== 'rgb(255, 0, 0)' && !inside.font.includes('Comic'), 'inherited rules leaked in: ' + JSON.stringify(inside));
    assert(inside.vis === 'visible', 'attribute rules leaked in');
    const box = await (await p.$('[data-testid=composer-input]')).boundingBox();
    assert(box && box.width > 200 && box.height > 20, 'composer laid out: ' + JSON.stringify(box));
    const host = await p.$eval('#host-button', (e) => getComputedStyle(e).borderRadius);
    assert(host === '0px', 'widget CSS styled a host element: border-radius ' + host);
  },
};

// The example Leptos app (examples/leptos-app): the crate used as a library, with its own
// tool card, side panel and local agent. No widget frame.
const exampleChecks = {
  async 'its own tool card fills in while the arguments stream, its side panel follows the state'(p) {
    await p.click('[data-testid=suggestion]');
    // The city streams in two pieces: the card shows the first before the call ends.
    const early = await p.waitForFunction(() => {
      const q = (id) => [...document.querySelectorAll('*')]
        .map((e) => e.shadowRoot || e).map((r) => r.querySelector(`[data-testid=${id}]`)).find(Boolean);
      const city = q('weather-city');
      return city && city.textContent === 'Li' && q('weather-temp').textContent;
    }, null, { timeout: 10000, polling: 20 });
    const temp = await early.jsonValue();
    assert(temp.includes('looking'), 'no result while the arguments stream: ' + temp);
    await waitText(p, '[data-testid=weather-temp]', '21 °C');
    assert((await p.textContent('[data-testid=weather-city]')) === 'Lisbon', 'the whole city');
    await waitText(p, '[data-testid=forecast-panel]', 'Lisbon: 21 °C');
    await waitText(p, assistantText, 'sunny in Lisbon');
  },
  async 'a bar of the page beside the chat sends with use_agent and follows use_agent_state'(p) {
    await p.click('[data-testid=ask-porto]');
    // The bar is outside the chat, under the same provider: one conversation.
    await waitText(p, '[data-testid=message-text]', "What's the weather in Porto?");
    await waitText(p, '[data-testid=quick-forecast]', 'Porto: 21 °C');
    await waitText(p, '[data-testid=forecast-panel]', 'Porto: 21 °C');
    assert(await p.$eval('[data-testid=ask-porto]', (b) => b.disabled), 'the button waits while the run is under way');
    await waitText(p, assistantText, 'sunny in Porto');
    await p.waitForFunction(() => !document.querySelector('[data-testid=ask-porto]').disabled, null, { timeout: 5000 });
  },
};

// The example host page before anything is opened: the loader draws the launcher, the chat
// itself loads only when the visitor moves to it (preload="intent").
const heavy = (url) => /agui-(leptos|widget)(_bg\.wasm|\.js)$/.test(new URL(url).pathname);
const lazyChecks = {
  async 'nothing heavy loads before the launcher is wanted; a hover loads it and the chat works'(p, seen) {
    await p.waitForSelector('[data-testid=widget-launcher]');
    await p.waitForTimeout(1500);
    assert(!seen.some(heavy), 'fetched before any intent: ' + seen.filter(heavy).join(', '));
    await p.hover('[data-testid=widget-launcher]');
    // Loaded before the click, it is mounted closed: the click only opens it.
    await p.waitForSelector('[data-testid=widget-panel][hidden]', { state: 'attached', timeout: 15000 });
    assert(seen.some(heavy), 'the hover loaded the chat');
    // A page whose widget has an endpoint gets the lean bundle, within its budget.
    const lean = seen.find((u) => u.endsWith('/agui-widget_bg.wasm'));
    assert(lean && !seen.some((u) => u.endsWith('/agui-leptos_bg.wasm')), 'the lean bundle, not the app\'s: ' + seen.filter(heavy));
    const budget = Number(process.env.LEAN_BUDGET_GZIP);
    assert(budget > 0, 'LEAN_BUDGET_GZIP is set (scripts/test.sh)');
    let bytes = 0;
    for (const u of new Set(seen.filter(heavy))) {
      // gzip -9, as scripts/test.sh measures the budgets (node's zlib differs by ~1%).
      bytes += execFileSync('gzip', ['-9', '-c'], { input: await (await p.request.get(u)).body(), maxBuffer: 1 << 26 }).length;
    }
    assert(bytes <= budget, `the lean bundle is ${bytes} B gzip, over its budget ${budget}: ${[...new Set(seen.filter(heavy))]}`);
    await p.click('[data-testid=widget-launcher]');
    await p.waitForSelector('[data-testid=composer-input]');
    await send(p, 'plan our offsite');
    await waitText(p, '[data-tool-name=search_venues] acme-venue-list', 'Tasca Real');
  },
  async 'a keyboard visitor: focus loads it, the focus stays on the launcher, Enter opens it in the composer'(p, seen) {
    await p.waitForSelector('[data-testid=widget-launcher]');
    const active = () => p.evaluate(() => document.querySelector('agui-chat').shadowRoot.activeElement?.dataset.testid);
    await p.focus('[data-testid=widget-launcher]');
    await p.waitForSelector('[data-testid=widget-panel][hidden]', { state: 'attached', timeout: 15000 });
    assert(seen.some(heavy), 'the focus loaded the chat');
    assert((await active()) === 'widget-launcher', 'the keyboard is still on the launcher: ' + (await active()));
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => document.querySelector('agui-chat').shadowRoot.activeElement?.dataset.testid === 'composer-input', null, { timeout: 5000 });
  },
  async 'a click before the chat is here shows it loading, a failed load offers Retry, and Retry opens it'(p) {
    let fail = true;
    await p.route('**/*_bg.wasm', (r) => (fail ? r.abort() : r.continue()));
    await p.click('[data-testid=widget-launcher]');
    await p.waitForSelector('[data-testid=widget-retry]', { timeout: 15000 });
    const focused = await p.evaluate(() => document.querySelector('agui-chat').shadowRoot.activeElement?.dataset.testid);
    assert(focused === 'widget-retry', 'the keyboard is on Retry: ' + focused);
    assert((await p.textContent('[data-testid=widget-loading] [role=alert]')).length > 0, 'the failure is said');
    fail = false;
    await p.click('[data-testid=widget-retry]');
    await p.waitForFunction(() => document.querySelector('agui-chat').shadowRoot.activeElement?.dataset.testid === 'composer-input', null, { timeout: 15000 });
    assert(await p.$('[data-testid=widget-panel]:not([hidden])'), 'the panel is open');
  },
};

// The compact layout (containers under 560px): a 420px popup, a 390 x 844 phone in page mode.
const box = (p, sel) => p.$(sel).then((e) => (e ? e.boundingBox() : null));
const visible = (p, sel) => p.$(sel).then((e) => (e ? e.isVisible() : false));
const compactChecks = (panel) => ({
  async 'one header row, the transcript takes most of the panel, the composer stays in view'(p) {
    const header = await box(p, '.agui-header');
    assert(header && header.height < 64, 'one header row: ' + JSON.stringify(header));
    for (const id of ['thread-list', 'chat-side', 'state-toggle']) {
      assert(!(await visible(p, `[data-testid=${id}]`)), id + ' is not shown');
    }
    const outer = await box(p, panel);
    const transcript = await box(p, '[data-testid=transcript]');
    assert(transcript.height >= 0.6 * outer.height,
      `the transcript gets ${Math.round(100 * transcript.height / outer.height)}% of the panel`);
    const input = await box(p, '[data-testid=composer-input]');
    const view = p.viewportSize();
    assert(input && input.y + input.height <= view.height && input.y >= 0, 'the composer is in view: ' + JSON.stringify(input));
    await p.screenshot({ path: path.join(shots, `compact-${view.width}.png`) });
  },
  async 'the menu holds the conversations; the state toggle comes with state and shows the panel'(p) {
    await p.click('[data-testid=chat-menu]');
    assert(await visible(p, '[data-testid=header-actions]'), 'the menu opens');
    await p.click('[data-testid=threads-toggle]');
    assert(await visible(p, '[data-testid=thread-list]'), 'the conversations drawer');
    assert(!(await visible(p, '[data-testid=header-actions]')), 'the menu closed');
    await p.keyboard.press('Escape');
    assert(!(await visible(p, '[data-testid=thread-list]')), 'Escape closes the drawer');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await p.click('[data-testid=state-toggle]');
    assert(await visible(p, '[data-testid=state-panel]'), 'the state panel in its drawer');
    await p.click('[data-testid=side-close]');
    assert(!(await visible(p, '[data-testid=chat-side]')), 'closed again');
    const transcript = await box(p, '[data-testid=transcript]');
    assert(transcript.height >= 0.6 * (await box(p, panel)).height, 'still most of the panel after a run');
  },
});

// An outside audit: axe-core in every state below, 0 serious or critical violations (the
// full report of each state is written to target/e2e/axe-*.json).
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
async function audit(p, label) {
  // Let transitions (fades, the typing dots) settle: contrast is measured on what stays.
  await p.waitForTimeout(400);
  if (!(await p.evaluate(() => !!window.axe))) await p.addScriptTag({ content: axeSource });
  const r = await p.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  fs.writeFileSync(path.join(shots, `axe-${label}.json`), JSON.stringify(r.violations, null, 1));
  const bad = r.violations.filter((v) => v.impact !== 'minor');
  const say = (v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ` + v.nodes.slice(0, 3)
    .map((n) => JSON.stringify(n.target) + ' ' + (n.failureSummary || '').split('\n').slice(1, 2).join(''))
    .join('; ');
  assert(bad.length === 0, `axe, ${label}: ` + bad.map(say).join(' | '));
}
const auditChecks = (theme) => ({
  async 'the empty chat'(p) { await audit(p, `${theme}-empty`); },
  async 'after the planner run'(p) {
    await send(p, 'Plan a Lisbon offsite for 8 people, under $12,000');
    await waitStatus(p, 'success');
    await audit(p, `${theme}-planner`);
  },
  async 'after the markdown showcase (tables, code, a held-back image)'(p) {
    await send(p, 'Show me markdown');
    await waitStatus(p, 'success');
    await p.waitForSelector('.agui-md__image-load');
    await audit(p, `${theme}-markdown`);
  },
});
const auditAgent = (theme) => ({
  async 'with an interrupt form open'(p) {
    await send(p, 'ask me something');
    await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    await audit(p, `${theme}-interrupt`);
  },
  async 'after a run against the agent'(p) {
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await audit(p, `${theme}-agent`);
  },
  async 'an answer with math, a price, a table and a chart fence'(p) {
    await send(p, 'formula please');
    await waitStatus(p, 'success');
    await p.waitForSelector(assistantText + ' math[display=block]', { state: 'attached', timeout: 15000 });
    const found = await p.$$eval(assistantText + ' math', (ms) => ms.map((m) => [m.namespaceURI, m.getAttribute('display')]));
    assert(found.length >= 2 && found.every(([ns]) => ns === 'http://www.w3.org/1998/Math/MathML'), 'MathML: ' + JSON.stringify(found));
    await waitText(p, assistantText, 'It costs $5 and $10.');
    await p.waitForSelector('[data-testid=table-copy-csv]', { state: 'attached' });
    await audit(p, `${theme}-math-table`);
  },
  async 'a subagent\'s messages in its group, collapsed once done, opened by its button'(p) {
    await send(p, 'delegate the search');
    await waitStatus(p, 'success');
    const group = '[data-testid=subagent-group]';
    const toggle = group + ' [data-testid=subagent-toggle]';
    await p.waitForSelector(group, { state: 'attached' });
    const label = await p.getAttribute(group, 'aria-label');
    assert(label === 'Research agent (subagent)', 'group label: ' + label);
    assert((await p.getAttribute(toggle, 'aria-expanded')) === 'false', 'collapsed once done');
    await p.click(toggle);
    assert((await p.getAttribute(toggle, 'aria-expanded')) === 'true', 'opened by its button');
    await waitText(p, group + ' ' + assistantText, 'Three venues in Alfama');
    await audit(p, `${theme}-subagent`);
  },
});
const auditPopup = {
  async 'the host page, closed'(p) {
    await p.waitForSelector('[data-testid=widget-launcher]');
    await audit(p, 'popup-closed');
  },
  async 'the open popup, after a run'(p) {
    await open(p);
    await audit(p, 'popup-open');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await audit(p, 'popup-run');
  },
};

// A page with the chat inline (tests/e2e/inline.html): it starts at once, on the lean bundle.
const inlineChecks = {
  async 'starts without a click on the lean bundle, works, and passes the audit'(p, seen) {
    await p.waitForSelector('[data-testid=composer-input]', { timeout: 15000 });
    assert(!(await p.$('[data-testid=widget-launcher]')), 'inline has no launcher');
    assert(seen.some((u) => u.endsWith('/agui-widget_bg.wasm')), 'the lean bundle: ' + seen.filter(heavy));
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await audit(p, 'inline-run');
  },
};

// A site with signed-in visitors (site.html): its `headers` function hands out a token the
// agent lets expire, its commands, and drafts kept over a reload (issue 31).
const tokenStats = async (p) => (await p.request.get(base + '/token-stats')).json();
const composerBox = '[data-testid=composer-input]';
async function answered(p, count) {
  const deadline = Date.now() + 15000;
  while ((await texts(p)).length < count) {
    assert(Date.now() < deadline, 'no answer: ' + JSON.stringify(await texts(p)));
    await p.waitForTimeout(100);
  }
  await waitStatus(p, 'success');
}
const siteChecks = {
  async 'a token that expires mid-conversation is refreshed and the conversation goes on'(p) {
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    const before = await tokenStats(p);
    const shown = (await texts(p)).length;
    await p.request.post(base + '/expire-token');
    await send(p, 'where am i');
    await answered(p, shown + 2);
    const after = await tokenStats(p);
    assert(after.refused === before.refused + 1, 'one refusal: ' + JSON.stringify([before, after]));
    assert(after.issued === before.issued + 1, 'one new token: ' + JSON.stringify([before, after]));
    const asks = await p.evaluate(() => window.tokenAsks);
    assert(JSON.stringify(asks) === '[false,false,true]', 'asked, asked, refreshed: ' + JSON.stringify(asks));
    assert(!(await p.$('[data-testid=error-banner]')), 'no error shown');
  },
  async 'a draft survives a reload and goes when sent'(p) {
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await p.fill(composerBox, 'half a thought about Lisbon');
    await p.waitForTimeout(800);
    await p.reload();
    await p.waitForSelector(composerBox, { timeout: 15000 });
    const deadline = Date.now() + 10000;
    while ((await p.inputValue(composerBox)) !== 'half a thought about Lisbon') {
      assert(Date.now() < deadline, 'the draft is gone: ' + JSON.stringify(await p.inputValue(composerBox)));
      await p.waitForTimeout(100);
    }
    await p.click('[data-testid=composer-send]');
    await waitStatus(p, 'success');
    await p.reload();
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await p.waitForTimeout(500);
    assert((await p.inputValue(composerBox)) === '', 'sent: no draft after a reload');
  },
  async 'what is typed while the saved conversation is read stays in the box'(p) {
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    const shown = (await texts(p)).length;
    // The module that reads what is saved arrives late: the person types before it does.
    await p.route('**/agui-widget.run.wasm*', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await p.reload();
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await p.fill(composerBox, 'and the budget?');
    await answered(p, shown);
    await p.waitForTimeout(300);
    assert((await p.inputValue(composerBox)) === 'and the budget?', 'typed text gone: ' + JSON.stringify(await p.inputValue(composerBox)));
    assert(await p.isEnabled('[data-testid=composer-send]'), 'Send is enabled');
    await p.unroute('**/agui-widget.run.wasm*');
  },
  async 'an unmounted chat is freed by the run module, and mounted again it works'(p, seen) {
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    // The session's drop glue is in `run` (src/store.rs, Held): the chat goes without a fetch
    // (the module is here) and without an error (the page's errors fail the check).
    const before = seen.length;
    await p.evaluate(() => {
      window.__chat = document.querySelector('agui-chat');
      window.__chat.remove();
    });
    await p.waitForTimeout(500);
    const fetched = seen.slice(before).filter((u) => u.endsWith('.wasm') || u.endsWith('.bin'));
    assert(fetched.length === 0, 'fetched when it went: ' + fetched.join(', '));
    // The same element again (its page-given properties with it): a new chat, its
    // conversation restored.
    await p.evaluate(() => document.querySelector('main').append(window.__chat));
    await p.waitForSelector(composerBox, { timeout: 15000 });
    const shown = (await texts(p)).length;
    await send(p, 'where am i');
    await answered(p, shown + 2);
  },
  async 'a command picked by the keyboard; the audit with the list open'(p) {
    await p.waitForSelector(composerBox, { timeout: 15000 });
    await p.fill(composerBox, '/');
    await p.waitForSelector('[data-testid=commands]');
    assert(await p.$('[data-testid=voice]'), 'the voice button is shown');
    await audit(p, 'site-commands');
    await p.press(composerBox, 'ArrowDown');
    await p.press(composerBox, 'ArrowUp');
    await p.press(composerBox, 'Enter');
    assert((await p.inputValue(composerBox)) === 'plan our offsite', 'the command filled the box');
    assert(!(await p.$('[data-testid=commands]')), 'the list closed');
    await p.fill(composerBox, '/whe');
    await p.press(composerBox, 'Enter');
    await waitText(p, '[data-testid=message-text]', 'where am i');
    await waitStatus(p, 'success');
    const req = await lastRequest(p);
    assert(req.messages[req.messages.length - 1].content === 'where am i', 'the send command went: ' + JSON.stringify(req.messages.slice(-1)));
  },
};

// Two devices on one site-kept thread store (server.py's /threads/, the reference store of
// examples/threads-server on another origin): each device a browser context of its own.
const deviceChecks = {
  async 'a conversation started on one device goes on on another, with its state and its open question'(p) {
    await p.waitForSelector(composerBox, { timeout: 15000 });
    const url = await p.getAttribute('#chat', 'threads-url');
    assert(url && url.startsWith('http://127.0.0.1:'), 'no thread store: ' + url);
    const auth = { headers: { Authorization: 'Bearer e2e-threads' } };
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await send(p, 'ask me something');
    await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    // Saved to the site's store once the run has ended (debounced), with the open question.
    const deadline = Date.now() + 15000;
    let record = null;
    for (;;) {
      const list = await (await p.request.get(url, auth)).json();
      if (list.length === 1) {
        record = await (await p.request.get(url + '/' + encodeURIComponent(list[0].id), auth)).json();
        if (JSON.stringify(record).includes('How many people are coming?')) break;
      }
      assert(Date.now() < deadline, 'not saved to the store: ' + JSON.stringify(list));
      await p.waitForTimeout(200);
    }
    assert(record.messages.some((m) => m.role === 'user' && m.content === 'ask me something'), 'the messages at the top level');

    // The phone: nothing of its own; it opens the conversation from the store.
    const phone = await p.context().browser().newContext({ viewport: { width: 390, height: 844 } });
    try {
      const q = await phone.newPage();
      await q.goto(base + '/threads/');
      await waitText(q, '[data-testid=message-text]', 'plan our offsite', 15000);
      await q.waitForSelector('[data-testid=interrupt]', { timeout: 15000 });
      const state = await q.evaluate(() => document.getElementById('chat').state);
      assert(state && state.destination === 'Lisbon', 'the state came along: ' + JSON.stringify(state));
      const id = await q.getAttribute('[data-testid=interrupt]', 'data-interrupt-id');
      await q.fill('[data-testid=interrupt] input[type=number]', '7');
      await q.click('[data-testid=interrupt-submit]');
      await waitText(q, '[data-testid=message-text]', '"travellers": 7');
      const req = await lastRequest(q);
      assert(req.threadId === record.id, 'the same conversation: ' + req.threadId);
      assert(req.resume && req.resume[0].interruptId === id, 'resume: ' + JSON.stringify(req.resume));
      await waitStatus(q, 'success');
      // The phone's save reaches the store (debounced).
      const until = Date.now() + 15000;
      for (;;) {
        const text = await (await p.request.get(url + '/' + encodeURIComponent(record.id), auth)).text();
        if (text.includes('\\"travellers\\": 7')) break;
        assert(Date.now() < until, 'the phone did not save its answer');
        await p.waitForTimeout(200);
      }
    } finally {
      await phone.close();
    }
    // Back on the laptop: the phone's answer is there after a reload.
    await p.reload();
    await waitText(p, '[data-testid=message-text]', '"travellers": 7', 15000);
    assert(!(await p.$('[data-testid=interrupt]')), 'the question was answered on the phone');
  },
};

// Crafted links to a page-mode chat that has its own agent and an auth header (server.py's
// /linked/). What reached the other server: GET /elsewhere.
const elsewhere = async (p) => (await p.request.get(base + '/elsewhere')).json();
const linkChecks = {
  async 'without url-options a link configures nothing'(p) {
    const before = (await elsewhere(p)).length;
    await p.goto(base + '/linked/?endpoint=/elsewhere&theme=dark&mode=popup');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    assert((await elsewhere(p)).length === before, 'the link re-pointed the chat');
    assert((await p.getAttribute('[data-testid=widget]', 'data-theme')) !== 'dark', 'the link set the theme');
  },
  async 'with url-options the link\'s endpoint is used, without the page\'s headers'(p) {
    const before = (await elsewhere(p)).length;
    await p.goto(base + '/linked/?optin=1&endpoint=/elsewhere');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    const hits = await elsewhere(p);
    assert(hits.length === before + 1, 'one run went to the link\'s endpoint: ' + hits.length);
    assert(!('x-api-key' in hits[hits.length - 1]), 'the page\'s header went along: ' + JSON.stringify(hits[hits.length - 1]));
  },
  async 'allowed-endpoints refuses the link\'s endpoint; a data: URL is never used'(p) {
    const before = (await elsewhere(p)).length;
    await p.goto(base + '/linked/?optin=1&allow=/agent&endpoint=/elsewhere');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'error');
    const banner = await p.textContent('[data-testid=error-banner]');
    assert(banner.includes('does not allow'), 'banner: ' + banner);
    assert((await elsewhere(p)).length === before, 'a refused endpoint was sent to');
    const fake = 'data:text/event-stream,' + encodeURIComponent('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n');
    const runs = async () => (await (await p.request.get(base + '/requests')).json()).length;
    const earlier = await runs();
    await p.goto(base + '/linked/?optin=1&endpoint=' + encodeURIComponent(fake));
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    assert((await runs()) === earlier + 1, 'the run went to the page\'s own agent');
  },
  async 'a redirect is not followed, and an error body is read only in part'(p) {
    const before = (await elsewhere(p)).length;
    await p.goto(base + '/linked/?optin=1&endpoint=/moved');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'error');
    const banner = await p.textContent('[data-testid=error-banner]');
    assert(banner.includes('redirect'), 'banner: ' + banner);
    assert((await elsewhere(p)).length === before, 'the redirect was followed');
    await p.evaluate(() => localStorage.clear()); // a fresh conversation, not the one above
    await p.goto(base + '/linked/?optin=1&endpoint=/huge-error');
    const t0 = Date.now();
    await send(p, 'plan our offsite');
    await waitStatus(p, 'error');
    const text = await p.textContent('[data-testid=error-text]');
    assert(text.includes('500') && text.length < 2300, 'error text: ' + text.length + ' chars');
    assert(Date.now() - t0 < 5000, 'reading the error took ' + (Date.now() - t0) + ' ms');
  },
};

// Under `Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval';
// style-src 'self'` (server.py's /strict/ and /strict-app/): styled, working, no violation.
const violations = (p) => {
  const seen = [];
  p.on('console', (m) => { if (/Content.Security.Policy|Refused to/i.test(m.text())) seen.push(m.text()); });
  return seen;
};
const strictChecks = {
  async 'a popup under a strict CSP is styled, runs, and breaks no rule'(p) {
    const seen = violations(p);
    await p.goto(base + '/strict/');
    const launcher = '[data-testid=widget-launcher]';
    await p.waitForSelector(launcher);
    const position = await p.$eval(launcher, (b) => getComputedStyle(b).position);
    assert(position === 'fixed', 'the launcher is unstyled: position ' + position);
    await open(p);
    const accent = await p.$eval('.agui-root', (r) => getComputedStyle(r).getPropertyValue('--agui-color-accent').trim());
    assert(accent !== '', 'the chat is unstyled (no tokens)');
    const radius = await p.$eval('[data-testid=composer-send]', (b) => getComputedStyle(b).borderRadius);
    assert(radius !== '0px', 'the send button is unstyled');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    assert(seen.length === 0, 'CSP violations: ' + seen.join(' | '));
  },
  async 'the app page boots under a strict CSP'(p) {
    const seen = violations(p);
    await p.goto(base + '/strict-app/?endpoint=/agent');
    await p.waitForSelector('[data-testid=composer-input]');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    assert(seen.length === 0, 'CSP violations: ' + seen.join(' | '));
  },
};

// One wasm instance serves every widget: a trap in it (here a real one: the instance is asked
// to free memory it never had) leaves each widget a notice and "Reload the chat", the page
// keeps working, and the reload brings a fresh instance with the page's options back. The
// instance is the one `captureWasm` (below) saw made: the same in a bundler's output.
async function trapAndReload(p) {
  // An open interrupt: its cards (a chunk of the lean widget) are loaded by this instance.
  await send(p, 'ask me something');
  await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
  await p.evaluate(() => setTimeout(() => window.__testWasm.__wbindgen_realloc(0xfffffff0, 64, 128, 8), 0));
  await p.waitForSelector('[data-testid=widget-crashed]', { timeout: 5000 });
  const text = await p.textContent('[data-testid=widget-crashed]');
  assert(text.includes('internal error'), 'notice: ' + text);
  const alive = await p.evaluate(() => { document.body.dataset.alive = 'yes'; return document.body.dataset.alive; });
  assert(alive === 'yes', 'the page stopped working');
  await p.click('[data-testid=widget-reload]');
  await open(p);
  // The fresh instance loads the chunk for itself (not bound to the dead one).
  await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
  await p.fill('[data-testid=interrupt] input[type=number]', '7');
  await p.click('[data-testid=interrupt-submit]');
  await waitText(p, '[data-testid=message-text]', '"travellers": 7');
  await send(p, 'where am i');
  await waitText(p, assistantText, 'Got your answer', 15000);
  assert(!(await p.$('[data-testid=widget-crashed]')), 'still crashed');
}
const crashChecks = { 'a trap in the chat leaves the page working and the chat reloadable': trapAndReload };

// A `[data-agui-endpoint]` element in a page's content (declarative.html): a chat only where the
// page opted in, and then one that keeps nothing without its own thread key.
const agentKeys = (p) => p.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('agui-leptos')));
const declarativeChecks = {
  async 'a data-agui-endpoint element is not a chat unless the page opts in'(p, seen) {
    await p.goto(base + '/declarative/');
    await p.waitForTimeout(1500);
    assert(!(await p.$('[data-testid=composer-input]')), 'the element became a chat');
    assert(!seen.some((u) => u.endsWith('.wasm')), 'the chat was loaded: ' + seen.filter((u) => u.endsWith('.wasm')));
  },
  async 'with agui-chat.js?scan it mounts, and keeps no conversation without a thread key'(p) {
    await p.goto(base + '/declarative/?scan=1');
    await p.waitForSelector('[data-testid=composer-input]');
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    const keys = await agentKeys(p);
    assert(keys.length === 0, 'it saved into the shared storage: ' + keys.join(', '));
  },
};

// Issue 13, item 1: an attachment reaches the official Python SDK as an image part.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');
const attachChecks = {
  async 'an attached image goes to the agent as an image content part'(p) {
    await p.setInputFiles('[data-testid=attach-input]', { name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await p.waitForSelector('[data-testid=attachment][data-ready=true]');
    await send(p, 'what is in this picture?');
    await waitText(p, '[data-testid=message-text]', 'Received image data image/png.');
    const req = await lastRequest(p);
    const user = req.messages.filter((m) => m.role === 'user').pop();
    assert(Array.isArray(user.content) && user.content.length === 2, 'content: ' + JSON.stringify(user.content));
    assert(user.content[0].type === 'text' && user.content[0].text === 'what is in this picture?', 'text part');
    const img = user.content[1];
    assert(img.type === 'image' && img.source.type === 'data' && img.source.mimeType === 'image/png', 'image part: ' + JSON.stringify(img).slice(0, 200));
    assert(img.source.value === PNG.toString('base64'), 'the bytes, base64');
    assert(img.metadata && img.metadata.filename === 'dot.png', 'the file name');
    assert(await p.$('[data-testid=message][data-role=user] [data-testid=sent-attachment] img'), 'the sent image shows');
  },
};

// The chat on an AI SDK route (ai-sdk.html: `protocol="ai-sdk" resume`, the endpoint on
// another origin; ai_sdk_server.mjs picks the scenario by keyword): the same transcript, tool
// cards, approvals and data parts as for AG-UI.
const aiSdkGet = async (p, route) => {
  const r = await p.request.get(aiSdk + route);
  assert(r.ok(), `GET ${route}: ${r.status()}`);
  return r.json();
};
const aiSdkBody = (p, id) => aiSdkGet(p, '/debug/last-request?id=' + encodeURIComponent(id));
// The thread id of the next run (the `agui:run-started` event), once it has started.
async function nextThreadId(p) {
  await p.evaluate(() => {
    window.aguiThreads = [];
    document.addEventListener('agui:run-started', (e) => window.aguiThreads.push(e.detail.threadId));
  });
  return async () => {
    await p.waitForFunction(() => window.aguiThreads.length > 0, null, { timeout: 10000 });
    return p.evaluate(() => window.aguiThreads[0]);
  };
}
const toolCard = (name) => `[data-testid=tool-card][data-tool-name=${name}]`;
const SLOW_TEXT = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');
const aiSdkChecks = {
  async 'text: the markdown answer renders, the run succeeds, the request is useChat\'s'(p, seen) {
    const threadId = await nextThreadId(p);
    await send(p, 'hello there');
    await waitStatus(p, 'success');
    // (The lean widget shows the text as it is until its Markdown module is here.)
    await p.waitForSelector(assistantText + ' strong', { timeout: 10000 });
    const id = await threadId();
    const answer = await p.$(assistantText);
    assert((await answer.$eval('strong', (e) => e.textContent)) === 'short', 'bold');
    const items = await answer.$$eval('li', (els) => els.map((e) => e.textContent.trim()));
    assert(JSON.stringify(items) === '["one","two"]', 'the list: ' + JSON.stringify(items));
    assert((await answer.$eval('code', (e) => e.textContent)) === 'code', 'inline code');
    assert(!(await answer.textContent()).includes('**'), 'no raw markdown');
    const body = await aiSdkBody(p, id);
    assert(body.id === id && body.trigger === 'submit-message', 'id and trigger: ' + JSON.stringify(body).slice(0, 300));
    assert(body.messages.length === 1 && body.messages[0].role === 'user', 'one user message: ' + JSON.stringify(body.messages));
    assert(body.messages[0].parts[0].type === 'text' && body.messages[0].parts[0].text === 'hello there',
      'the typed text: ' + JSON.stringify(body.messages[0].parts));
    assert(seen.some((u) => u === aiSdk + '/api/chat'), 'the request went to the AI SDK route');
  },
  async 'tool: a card with the tool name, its arguments and its result'(p) {
    await send(p, 'what is the weather in Lisbon?');
    await waitStatus(p, 'success');
    const card = toolCard('getWeather');
    // (The lean widget shows tool cards and reasoning once their module, `run`, is here.)
    await p.waitForSelector(card, { timeout: 10000 });
    assert((await p.$$(card)).length === 1, 'one getWeather card');
    assert((await p.getAttribute(card, 'data-status')) === 'success', 'the call succeeded');
    assert((await p.textContent(`${card} [data-testid=tool-name]`)).trim() === 'getWeather', 'the tool name');
    const args = await p.textContent(`${card} [data-testid=tool-args]`);
    assert(args.includes('Lisbon') && args.includes('unit'), 'the arguments: ' + args);
    const result = await p.textContent(`${card} [data-testid=tool-result]`);
    assert(result.includes('21') && result.includes('sunny'), 'the result: ' + result);
    assert(await p.isVisible(`${card} [data-testid=tool-args]`) && await p.isVisible(`${card} [data-testid=tool-result]`),
      'arguments and result shown');
    await waitText(p, assistantText, 'It is sunny and 21 °C in Lisbon.');
    await waitText(p, assistantText, 'Let me look that up.');
  },
  async 'reasoning: a reasoning block, then the answer'(p) {
    await send(p, 'think about six times seven');
    await waitStatus(p, 'success');
    await p.waitForSelector('[data-testid=reasoning]', { timeout: 10000 });
    const blocks = await p.$$('[data-testid=reasoning]');
    assert(blocks.length === 1, 'one reasoning block: ' + blocks.length);
    assert((await blocks[0].getAttribute('data-state')) === 'done', 'the reasoning is done');
    const thought = await p.textContent('[data-testid=reasoning-text]');
    assert(thought.includes('Six times seven is 42.'), 'the reasoning text: ' + thought);
    await waitText(p, assistantText, 'The answer is 42.');
    await p.waitForSelector(assistantText + ' strong', { timeout: 10000 });
    assert((await p.$eval(assistantText + ' strong', (e) => e.textContent)) === '42', 'its markdown');
  },
  async 'data: a data part updated in place, a transient one not kept'(p) {
    await send(p, 'show me the data');
    await waitStatus(p, 'success');
    await waitText(p, assistantText, 'The forecast is in.');
    // (The lean widget fetches the activity cards' module with the first one.)
    await p.waitForSelector('[data-testid=activity]', { timeout: 10000 });
    const cards = await p.$$eval('[data-testid=activity]', (els) => els.map((e) => [e.dataset.activityType, e.textContent]));
    assert(cards.length === 1 && cards[0][0] === 'data-weather', 'one data-weather card: ' + JSON.stringify(cards));
    assert(cards[0][1].includes('done') && cards[0][1].includes('21') && cards[0][1].includes('sunny'), 'the last value: ' + cards[0][1]);
    assert(!cards[0][1].includes('loading'), 'not the first value: ' + cards[0][1]);
    const all = await p.textContent('[data-testid=transcript]');
    assert(!all.includes('Fetching the forecast'), 'the transient part is not in the transcript');
  },
  async 'file: an image file part shows as an image of its bytes, a PDF as a link'(p) {
    await send(p, 'send me the file');
    await waitStatus(p, 'success');
    await waitText(p, assistantText, 'Here are the files.');
    // (The lean widget fetches the media's module, `attach`, with the first one.)
    const image = '[data-testid=agent-media][data-kind=image] img';
    await p.waitForSelector(image, { timeout: 10000 });
    const src = await p.getAttribute(image, 'src');
    assert(src.startsWith('blob:'), 'a blob: URL of its bytes: ' + src);
    assert(await p.getAttribute(image, 'alt'), 'alternative text');
    const file = '[data-testid=agent-media][data-kind=file]';
    assert((await p.getAttribute(file, 'href')) === 'https://files.example/report.pdf', 'the PDF link');
    assert((await p.getAttribute(file, 'rel')) === 'noopener noreferrer', 'a link that leaks nothing');
    assert((await p.textContent(file)).includes('application/pdf'), 'its type');
  },
  async 'approval: the approval card, approve, the answer goes back, the output shows'(p) {
    const threadId = await nextThreadId(p);
    await send(p, 'please book Tasca for us');
    await p.waitForSelector('[data-testid=interrupt] [data-testid=interrupt-approve]', { timeout: 10000 });
    const id = await threadId();
    assert((await p.textContent('[data-testid=interrupt-tool-name]')).includes('bookVenue'), 'the call it asks about');
    assert((await p.textContent('[data-testid=interrupt-tool-args]')).includes('Tasca'), 'its arguments');
    await p.click('[data-testid=interrupt-approve]');
    await waitText(p, assistantText, 'Booked: confirmation TASCA-0042.');
    await waitStatus(p, 'success');
    const body = await aiSdkBody(p, id);
    const last = body.messages[body.messages.length - 1];
    const part = last.role === 'assistant' && last.parts.find((x) => x.type === 'tool-bookVenue');
    assert(part && part.state === 'approval-responded' && part.approval && part.approval.approved === true && part.approval.id,
      'the approval answer: ' + JSON.stringify(last).slice(0, 600));
    assert(body.id === id && body.trigger === 'submit-message', 'id and trigger: ' + body.id + ' ' + body.trigger);
    assert((await p.getAttribute(toolCard('bookVenue'), 'data-status')) === 'success', 'the call succeeded');
    const result = await p.textContent(`${toolCard('bookVenue')} [data-testid=tool-result]`);
    assert(result.includes('TASCA-0042'), 'the tool output: ' + result);
  },
  async 'sources: source parts are listed under the answer and go back to the route'(p) {
    const threadId = await nextThreadId(p);
    await send(p, 'cite your sources please');
    await waitStatus(p, 'success');
    await checkSources(p, ['Lisbon – Wikipedia', 'Carris trams', 'City guide']);
    const id = await threadId();
    await send(p, 'hello again');
    await p.waitForFunction(() => document.querySelector('agui-chat').shadowRoot
      .querySelectorAll('[data-role=assistant]').length >= 2, null, { timeout: 10000 });
    await waitStatus(p, 'success');
    const body = await aiSdkBody(p, id);
    const answer = body.messages.find((m) => m.role === 'assistant');
    const types = (answer ? answer.parts : []).map((x) => x.type);
    assert(types.filter((t) => t === 'source-url').length === 2 && types.includes('source-document'),
      'the source parts went back: ' + JSON.stringify(types));
  },
  async 'error: the error chunk shows the banner, the streamed text stays'(p) {
    await send(p, 'this will fail');
    await waitStatus(p, 'error');
    const banner = await p.textContent('[data-testid=error-banner]');
    assert(banner.includes('overloaded'), 'banner: ' + banner);
    assert(await p.$('[data-testid=retry]'), 'retry button');
    assert((await texts(p)).some((t) => t.includes('Let me check that for you')), 'streamed text kept');
  },
  async 'resume: a reload mid-stream asks for the stream again and rebuilds the whole answer once'(p, seen) {
    const threadId = await nextThreadId(p);
    await send(p, 'a slow answer please');
    await waitText(p, assistantText, 'word5');
    const id = await threadId();
    assert((await status(p)) === 'running', 'reloaded while the answer streams');
    await p.reload();
    await open(p);
    await waitStatus(p, 'success').catch(async () => {
      throw new Error(`after the reload the run is ${await status(p)}, not success: ${(await texts(p)).join(' | ').slice(0, 200)}`);
    });
    const stream = `${aiSdk}/api/chat/${encodeURIComponent(id)}/stream`;
    assert(seen.includes(stream), 'the page asked for ' + stream);
    const resumes = await aiSdkGet(p, '/debug/resumes?id=' + encodeURIComponent(id));
    assert(resumes.length === 1 && resumes[0].status === 200 && resumes[0].replayed > 0,
      'one resume GET, answered with the stream: ' + JSON.stringify(resumes));
    const answers = await p.$$eval(assistantText, (els) => els.map((e) => e.textContent.trim()));
    assert(answers.length === 1 && answers[0] === SLOW_TEXT, 'the whole answer, once: ' + JSON.stringify(answers));
    const users = await p.$$('[data-testid=message][data-role=user]');
    assert(users.length === 1, 'one user message: ' + users.length);
  },
};

// The protobuf binding (proto.html, a widget with an endpoint: the lean widget, whose protobuf
// decoder is a module of its own; `?transport=protobuf` from server.py): proto_server.mjs sends
// the same events through `@ag-ui/encoder` both ways, protobuf frames when the Accept admits
// them and SSE otherwise. Each mode in its own browser context; the last check compares what
// each showed.
const PROTO_MEDIA = 'application/vnd.ag-ui.event+proto';
const protoViews = {};
async function protoRun(p, seen, mode) {
  await p.evaluate(() => {
    window.aguiRuns = [];
    document.addEventListener('agui:run-started', (e) => window.aguiRuns.push(e.detail));
  });
  await send(p, 'plan a day in Zürich');
  await waitStatus(p, 'success');
  await p.waitForFunction(() => window.aguiRuns.length > 0, null, { timeout: 10000 });
  const run = await p.evaluate(() => window.aguiRuns[0]);
  const r = await p.request.get(`${protoUrl}/debug/last?threadId=${encodeURIComponent(run.threadId)}`);
  assert(r.ok(), 'the server saw this thread: ' + r.status());
  const last = await r.json();
  assert(last.runId === run.runId, `the run the server answered is the widget's: ${last.runId} vs ${run.runId}`);
  assert(seen.includes(protoUrl + '/agent'), 'the request went to the protobuf server');
  assert(seen.some((u) => u.endsWith('/agui-widget_bg.wasm')) && !seen.some((u) => u.endsWith('/agui-leptos_bg.wasm')),
    'the lean widget, not the app bundle: ' + seen.filter(heavy));
  if (mode === 'protobuf') {
    assert(last.accept.split(',').map((x) => x.trim()).includes(PROTO_MEDIA), 'the request admits protobuf: ' + last.accept);
    assert(last.contentType === PROTO_MEDIA, 'the answer was protobuf: ' + last.contentType);
    assert(seen.some(chunk('proto')), 'the protobuf module was fetched');
  } else {
    assert(!last.accept.includes(PROTO_MEDIA), 'the SSE request does not ask for protobuf: ' + last.accept);
    assert(last.contentType === 'text/event-stream', 'the answer was SSE: ' + last.contentType);
    assert(!seen.some(chunk('proto')), 'a widget without transport="protobuf" fetched the protobuf module');
  }
  // What the person sees: the answer (with its markdown), the tool card, the state panel.
  const answer = await p.$(assistantText);
  const texts = await p.$$eval(assistantText, (els) => els.map((e) => e.textContent.trim()));
  const markup = {
    strong: await answer.$$eval('strong', (els) => els.map((e) => e.textContent)),
    em: await answer.$$eval('em', (els) => els.map((e) => e.textContent)),
    code: await answer.$$eval('code', (els) => els.map((e) => e.textContent)),
    items: await answer.$$eval('li', (els) => els.map((e) => e.textContent.trim())),
  };
  assert(texts.some((t) => t.startsWith('Grüße! Here is the plan for Zürich — 3 steps:')), 'the text: ' + JSON.stringify(texts));
  assert(JSON.stringify(markup) === JSON.stringify({ strong: ['plan'], em: ['Café Fünf'], code: ['42 €'],
    items: ['book the Café Fünf 🍰', 'check the weather'] }), 'the markdown: ' + JSON.stringify(markup));
  const card = toolCard('get_forecast');
  assert((await p.$$(card)).length === 1, 'one get_forecast card');
  const tool = {
    status: await p.getAttribute(card, 'data-status'),
    name: (await p.textContent(`${card} [data-testid=tool-name]`)).trim(),
    args: (await p.textContent(`${card} [data-testid=tool-args]`)).trim(),
    result: (await p.textContent(`${card} [data-testid=tool-result]`)).trim(),
  };
  assert(tool.status === 'success' && tool.name === 'get_forecast', 'the card: ' + JSON.stringify(tool));
  assert(tool.args.includes('Zürich') && tool.args.includes('days'), 'the arguments: ' + tool.args);
  assert(tool.result.includes('sunny') && tool.result.includes('23'), 'the result: ' + tool.result);
  assert(await p.isVisible(`${card} [data-testid=tool-args]`) && await p.isVisible(`${card} [data-testid=tool-result]`),
    'arguments and result shown');
  if (!(await visible(p, '[data-testid=state-panel]')) && await visible(p, '[data-testid=state-toggle]')) {
    await p.click('[data-testid=state-toggle]');
  }
  assert(await visible(p, '[data-testid=state-panel]'), 'the state panel shows');
  const state = await p.$$eval('[data-testid=state-path]', (els) => els.map((e) => [e.dataset.path,
    (e.querySelector(':scope > div') || e).textContent.replace(/\s+/g, ' ').trim()]));
  const at = (path) => (state.find(([q]) => q === path) || [])[1] || '';
  assert(at('/city').includes('Zürich') && at('/steps').includes('3'), 'the snapshot: ' + JSON.stringify(state));
  assert(at('/done').includes('true') && at('/forecast').includes('sunny'), 'the delta applied: ' + JSON.stringify(state));
  protoViews[mode] = { texts, markup, tool, state };
}
const protoChecks = {
  async 'protobuf: the request admits protobuf, the answer is protobuf frames, the run succeeds'(p, seen) {
    await protoRun(p, seen, 'protobuf');
  },
  async 'sse: the same page without transport asks for and gets SSE, the run succeeds'(p, seen) {
    await p.goto(base + '/proto/');
    await open(p);
    await protoRun(p, seen, 'sse');
  },
  async 'a protobuf module that cannot be loaded fails the run, and Retry runs it again'(p, seen) {
    let fail = true;
    await p.route('**/agui-widget.proto.wasm', (r) => (fail ? r.abort() : r.continue()));
    await send(p, 'plan a day in Zürich');
    await p.waitForSelector('[data-testid=part-failed]', { timeout: 15000 });
    await waitStatus(p, 'error');
    assert(!(await p.$(assistantText)), 'something of the answer was shown');
    fail = false;
    await p.click('[data-testid=part-failed] [data-testid=retry]');
    await waitStatus(p, 'success');
    await waitText(p, assistantText, 'Grüße! Here is the plan for Zürich');
    assert(seen.filter(chunk('proto')).length >= 2, 'Retry fetched the module again');
    assert(!(await p.$('[data-testid=part-failed]')), 'the notice is gone');
    assert((await p.$$('[data-testid=message][data-role=user]')).length === 1, 'the message was sent once');
  },
  async 'both ways: the same transcript, tool card and state'() {
    const { protobuf, sse } = protoViews;
    assert(protobuf && sse, 'both runs were seen: ' + Object.keys(protoViews));
    for (const k of ['texts', 'markup', 'tool', 'state']) {
      assert(JSON.stringify(protobuf[k]) === JSON.stringify(sse[k]),
        `${k} differs:\n  protobuf ${JSON.stringify(protobuf[k])}\n  sse      ${JSON.stringify(sse[k])}`);
    }
  },
};

// MCP Apps through the site's sandbox proxy (server.py's /mcp-proxy/: a host page, so the lean
// widget, on server.py's agent, `mcp-apps-proxy` naming the reference proxy
// examples/mcp-sandbox/ served over https on another port of 127.0.0.1 with a throwaway
// certificate, `frame-ancestors` the chat's origin): the chat frames the proxy, the proxy
// frames the View, messages go through both; the View's resource and its tool calls are
// proxied requests to the agent (server.py answers them as an MCP middleware does).
const MCP_PROXY_SANDBOX = 'allow-scripts allow-same-origin';
const mcpProxyOf = (p) => p.$eval('agui-chat', (e) => e.getAttribute('mcp-apps-proxy'));
const mcpProxyChecks = {
  async 'the View runs in the proxy on its own origin, shakes hands and gets its tools/call answered'(p, seen) {
    const proxy = await mcpProxyOf(p);
    assert(seen.some((u) => u.endsWith('/agui-widget_bg.wasm')) && !seen.some((u) => u.endsWith('/agui-leptos_bg.wasm')),
      'the lean widget, not the app bundle: ' + seen.filter(heavy));
    const origin = new URL(proxy).origin;
    assert(/^https:\/\/127\.0\.0\.1:\d+\/$/.test(proxy) && origin !== new URL(base).origin, 'another origin, https: ' + proxy);
    await send(p, 'show the map');
    await p.waitForSelector('[data-testid=mcp-app][data-status=running]', { timeout: 15000 });
    const frame = await p.$('[data-testid=mcp-app-frame]');
    assert((await frame.getAttribute('src')) === proxy, 'the frame is the proxy: ' + await frame.getAttribute('src'));
    assert((await frame.getAttribute('sandbox')) === MCP_PROXY_SANDBOX, 'its sandbox: ' + await frame.getAttribute('sandbox'));
    assert((await frame.getAttribute('srcdoc')) === null, 'no srcdoc on the proxy frame');
    const outer = await frame.contentFrame();
    assert(outer.url() === proxy && (await outer.evaluate(() => window.origin)) === origin, 'the proxy document: ' + outer.url());
    // The View: the proxy's one inner frame, a srcdoc on the proxy's origin, its policy first.
    const innerEl = await outer.waitForSelector('iframe', { state: 'attached', timeout: 10000 });
    assert((await innerEl.getAttribute('sandbox')) === MCP_PROXY_SANDBOX, 'the inner sandbox: ' + await innerEl.getAttribute('sandbox'));
    assert((await outer.$$('iframe')).length === 1, 'one inner frame');
    const inner = await innerEl.contentFrame();
    assert((await inner.evaluate(() => window.origin)) === origin, 'the View runs on the proxy\'s origin');
    const policy = await inner.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content || '');
    assert(policy.includes("default-src 'none'") && policy.includes("connect-src 'none'"), 'the View\'s policy: ' + policy);
    // Its tool input arrived (the handshake finished through the proxy): the venues are drawn.
    const view = p.frameLocator('[data-testid=mcp-app-frame]').frameLocator('iframe');
    await view.locator('#list li').nth(2).waitFor({ timeout: 10000 });
    const names = await view.locator('#list li span:first-child').allTextContents();
    assert(names.length === 3 && names.every((n) => n.trim()), 'three venues: ' + JSON.stringify(names));
    assert((await view.locator('#pins circle').count()) === 3, 'three pins');
    // The View sized itself: the chat set the frame's height.
    const sized = Date.now() + 5000;
    while (!/^\d+px$/.test(await p.$eval('[data-testid=mcp-app-frame]', (f) => f.style.height))) {
      assert(Date.now() < sized, 'the frame was never sized');
      await p.waitForTimeout(50);
    }
    // A click asks `tools/call venue_details`: a run through the (demo) agent, its answer back
    // through the proxy into the View.
    await view.locator('#list li').first().click();
    await waitTextIn(view.locator('#detail'), names[0] + ' (', 10000);
    const detail = await view.locator('#detail').textContent();
    assert(detail.includes('up to') && detail.includes('rated'), 'the venue\'s details: ' + detail);
    assert((await p.getAttribute('[data-testid=mcp-app]', 'data-status')) === 'running', 'still running');
    assert(seen.some(chunk('mcp_apps')), 'the MCP Apps module was fetched');
    const proxied = (await (await p.request.get(base + '/requests')).json())
      .map((r) => (r.forwardedProps || {}).__proxiedMCPRequest).filter(Boolean).map((q) => q.method);
    assert(proxied.includes('resources/read') && proxied.includes('tools/call'), 'the proxied requests: ' + proxied);
  },
  async 'the proxy as shipped (not set up for this host) never starts the View'(p) {
    await p.goto(base + '/mcp-proxy/?proxy=unedited');
    await open(p);
    const proxy = await mcpProxyOf(p);
    assert(proxy.endsWith('/unedited/'), 'the unedited proxy: ' + proxy);
    await send(p, 'show the map');
    const frame = await p.waitForSelector('[data-testid=mcp-app-frame]', { state: 'attached', timeout: 15000 });
    assert((await frame.getAttribute('src')) === proxy, 'the frame is that proxy');
    const outer = await frame.contentFrame();
    await outer.waitForLoadState('load');
    const said = await outer.evaluate(() => document.querySelector('meta[name=mcp-host-origin]')?.content);
    assert(outer.url() === proxy && said === 'https://www.example.com', `the proxy loaded as shipped: ${outer.url()} ${said}`);
    // It talks to https://www.example.com only: no ready, no View; the chat gives up in 10 s.
    await p.waitForSelector('[data-testid=mcp-app][data-status=stopped] [data-testid=mcp-app-stopped]', { timeout: 20000 });
    assert(!(await p.$('[data-testid=mcp-app-frame]')), 'the frame is removed');
    assert(!(await outer.$('iframe').catch(() => null)), 'no View was ever framed');
  },
  async 'a proxy URL that is not https shows a notice and no frame'(p) {
    await p.goto(base + '/mcp-proxy/?proxy=http');
    await open(p);
    assert((await mcpProxyOf(p)).startsWith('http://127.0.0.1:'), 'a plain-http proxy URL');
    await send(p, 'show the map');
    await p.waitForSelector('[data-testid=mcp-app][data-status=unusable]', { timeout: 15000 });
    assert(!(await p.$('[data-testid=mcp-app-frame]')), 'no frame at all');
  },
};

// The host apps (examples/hosts: scripts/hosts.sh builds each with its own tooling against the
// packed tarball). The page's own code: `host-venue-card` for `search_venues` (it records each
// distinct `args` it is given), the frontend tool `get_visitor_city`, and the run's end written
// into `[data-testid=host-finished]` (outside the chat).
// Captures the chat's main wasm instance (the one exporting `__wbindgen_realloc`) as it is made,
// so that a check can cause a real trap in a bundler's output.
const captureWasm = () => {
  for (const k of ['instantiate', 'instantiateStreaming']) {
    const f = WebAssembly[k];
    WebAssembly[k] = async function (...args) {
      const r = await f.apply(this, args);
      const e = (r.instance || r).exports;
      if (e && e.__wbindgen_realloc) window.__testWasm = e;
      return r;
    };
  }
};
const hostChecks = ({ remount } = {}) => ({
  async 'a streamed answer, a renderer element fed streaming arguments, the run\'s end'(p, seen) {
    const frame = remount && await p.evaluateHandle(() => document.querySelector('agui-chat').shadowRoot.querySelector('.agui-frame'));
    await send(p, 'plan our offsite');
    await waitText(p, assistantText, 'Real');
    await waitStatus(p, 'success');
    await p.waitForSelector('host-venue-card[data-status=success]', { timeout: 10000 });
    const updates = await p.$eval('host-venue-card', (el) => el.seen);
    // The arguments arrived in three pieces: the element saw them grow, not only the end.
    assert(updates.length >= 2 && updates.some((a) => a.includes('Lisbon') && !a.includes('restaurant')),
      'the element was not fed the streaming arguments: ' + updates.join(' | '));
    await waitTextIn(p.locator('[data-testid=host-finished]'), 'success');
    const req = await lastRequest(p);
    assert(req.tools.map((t) => t.name).join() === 'get_visitor_city', 'the page\'s tool is offered: ' + JSON.stringify(req.tools));
    // Nothing but the page's own origin (its assets, the agent) and the CDN's (127.0.0.1 too):
    // no fonts, no telemetry, no update checks.
    const elsewhere = seen.filter((u) => /^https?:/.test(u) && new URL(u).hostname !== '127.0.0.1');
    assert(elsewhere.length === 0, 'requests to third parties: ' + elsewhere.join(', '));
    if (remount) {
      // The app re-rendered (a new `tools` array and `headers` object): the chat was not remounted.
      const same = await p.evaluate((f) => f === document.querySelector('agui-chat').shadowRoot.querySelector('.agui-frame'), frame);
      assert(same, 'a re-render with props of the same content remounted the chat');
    }
  },
  async 'a JS frontend tool answers the agent'(p) {
    if (remount) {
      await send(p, 'plan our offsite');
      await waitStatus(p, 'success');
    }
    await send(p, 'where am i');
    await waitText(p, assistantText, 'Got your answer', 15000);
    await waitText(p, assistantText, 'Lisbon');
    if (remount) {
      // The handler called is the latest prop's (rendered after the first run finished).
      await waitText(p, assistantText, '"renders":');
      const t = (await texts(p)).join(' ');
      assert(/"renders":[1-9]/.test(t), 'the first render\'s handler was called: ' + t.slice(-200));
    }
  },
  'a trap in the bundled chat leaves the page working, and the chat reloads': trapAndReload,
});

// The plain page loads the CDN folder: what only a page without a bundler meets.
const plainChecks = {
  ...hostChecks(),
  async 'a chart fence is drawn by the page\'s element, math by the math module'(p) {
    await send(p, 'formula please');
    await waitStatus(p, 'success');
    const chart = '[data-testid=code-element] demo-chart';
    await p.waitForSelector(chart + '[data-complete=true]', { state: 'attached', timeout: 15000 });
    assert((await p.getAttribute(chart, 'data-bars')) === '3', 'three bars');
    await p.waitForSelector(assistantText + ' math[display=block]', { state: 'attached', timeout: 15000 });
  },
  async 'properties set before the element is defined are kept'(p) {
    await p.evaluate(() => {
      // An element of a document without a browsing context is not upgraded until it joins
      // this one: its properties are own properties until then.
      const el = document.implementation.createHTMLDocument('').createElement('agui-chat');
      el.setAttribute('endpoint', '/agent');
      el.setAttribute('mode', 'inline');
      el.style.cssText = 'display: block; height: 500px';
      el.tools = [{
        name: 'get_visitor_city', description: "The visitor's city",
        parameters: { type: 'object', properties: {} }, handler: async () => ({ city: 'Porto' }),
      }];
      if (Object.getOwnPropertyNames(el).indexOf('tools') < 0) throw new Error('the element was upgraded already');
      document.querySelector('agui-chat').remove();
      document.body.append(document.adoptNode(el));
    });
    await p.waitForSelector('[data-testid=composer-input]');
    await send(p, 'where am i');
    await waitText(p, assistantText, 'Porto', 15000);
  },
  async 'a second copy of the package, of another version, hands its calls to the first'(p) {
    const logs = [];
    p.on('console', (m) => logs.push(m.text()));
    const other = await p.evaluate(async () => {
      const src = document.querySelector('script[src*="agui-chat.js"]').src;
      const text = await (await fetch(src)).text();
      const ours = /export const version="([^"]+)"/.exec(text)[1];
      // The same loader as another version of the package would be (its version everywhere).
      const copy = text.split(ours).join('0.0.9');
      const m = await import(URL.createObjectURL(new Blob([copy], { type: 'text/javascript' })));
      const el = document.createElement('agui-chat');
      el.setAttribute('endpoint', '/agent');
      el.setAttribute('mode', 'inline');
      el.style.cssText = 'display: block; height: 500px';
      document.querySelector('agui-chat').replaceWith(el);
      m.mount(el, { tools: [{
        name: 'get_visitor_city', description: "The visitor's city",
        parameters: { type: 'object', properties: {} }, handler: async () => ({ city: 'Braga' }),
      }] });
      return { ours, theirs: m.version, defined: customElements.get('agui-chat').version };
    });
    assert(other.theirs === '0.0.9' && other.defined === other.ours, 'versions: ' + JSON.stringify(other));
    const said = logs.filter((l) => l.includes('is already defined'));
    assert(said.length === 1 && said[0].includes(`agui-leptos 0.0.9: <agui-chat> is already defined (by agui-leptos ${other.ours})`),
      'the second copy says so once: ' + said.join(' | '));
    await p.waitForSelector('[data-testid=composer-input]');
    await send(p, 'where am i');
    await waitText(p, assistantText, 'Braga', 15000);
  },
};
// The package's npm entry imported from the CDN as an ES module, its files from a mirror.
const assetChecks = {
  async 'setAssetPath(): the chat\'s files come from the folder given'(p, seen) {
    await p.waitForSelector('[data-testid=composer-input]', { timeout: 15000 });
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    const files = seen.filter((u) => /\.wasm|\.bin|agui-widget\.js/.test(u));
    assert(files.length >= 3 && files.every((u) => u.includes('/mirror/dist/cdn/')),
      'not from the folder given: ' + files.join(', '));
  },
};

// The package's full entry imported from the CDN: the demo, the inspector, one bundle.
const fullChecks = {
  async 'agui-leptos/full: an element without an endpoint is the demo, with the inspector'(p, seen) {
    await p.waitForSelector('[data-testid=composer-input]', { timeout: 15000 });
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    await p.waitForSelector('[data-testid=venue-card]', { timeout: 10000 });
    await p.waitForSelector('[data-testid=inspector]', { timeout: 5000 });
    const wasm = seen.filter((u) => u.endsWith('.wasm'));
    assert(wasm.length === 1 && wasm[0].endsWith('/dist/cdn/agui-leptos_bg.wasm'), 'the full bundle alone: ' + wasm.join(', '));
  },
};

// A2UI surfaces and MCP Apps on a host page (inline.html: the lean widget on server.py's agent):
// each renders as itself, not as a generic activity card, from a module fetched with the first
// one; a surface's button and an App's requests go back to the agent.
const activityParts = ['a2ui', 'mcp_apps'];
const generativeChecks = {
  async 'an A2UI surface renders from its module, fetched with the first one; its button reaches the agent'(p, seen) {
    await send(p, 'plan our offsite');
    await waitStatus(p, 'success');
    for (const part of activityParts) assert(!seen.some(chunk(part)), `the ${part} module came before any such activity`);
    await send(p, 'reserve a table');
    await p.waitForSelector('[data-testid=a2ui-surface][data-surface-id=reservation]', { timeout: 10000 });
    assert(seen.filter(chunk('a2ui')).length === 1, 'the A2UI module came with the surface, once');
    assert(!seen.some(chunk('mcp_apps')), 'a surface fetched the MCP Apps module');
    assert(!(await p.$('[data-testid=activity]')), 'the surface also shows as a generic activity card');
    await waitText(p, '.agui-a2ui__text', 'Dinner at Tasca do Miradouro');
    await p.fill('[data-testid=a2ui-input]', 'Ada');
    await p.click('[data-testid=a2ui-button]');
    await waitText(p, assistantText, 'Reserved: a table for 8 on 2026-06-04 under the name Ada.');
    const action = ((await lastRequest(p)).forwardedProps || {}).a2uiAction;
    assert(action && action.userAction && action.userAction.name === 'reserve', 'the action: ' + JSON.stringify(action));
  },
  async 'sources: an AG-UI sources activity is listed under the answer, markers and a footnote link to it'(p) {
    await send(p, 'cite your sources please');
    await waitStatus(p, 'success');
    await checkSources(p, ['Lisbon – Wikipedia', 'Carris trams', 'Not a link']);
    assert(!(await p.$$eval('[data-testid=source-link]', (els) => els.some((e) => /javascript/i.test(e.getAttribute('href'))))),
      'a javascript: source became a link');
    await p.waitForSelector('[data-testid=footnote-ref]', { timeout: 5000 });
    await waitText(p, '[data-testid=footnote]', 'Tram 28 is the famous one.');
    await p.click('[data-testid=footnote-ref]');
    assert((await focusedTestid(p)) === 'footnote', 'the reference focused its note');
    await audit(p, 'inline-sources');
  },
  async 'an MCP App renders in its opaque frame from its module, fetched with the first one'(p, seen) {
    await send(p, 'show the map');
    await p.waitForSelector('[data-testid=mcp-app][data-status=running]', { timeout: 15000 });
    assert(seen.filter(chunk('mcp_apps')).length === 1, 'the MCP Apps module came with the App, once');
    assert(!seen.some(chunk('a2ui')), 'an App fetched the A2UI module');
    assert(!(await p.$('[data-testid=activity]')), 'the App also shows as a generic activity card');
    const frame = await p.$('[data-testid=mcp-app-frame]');
    assert((await frame.getAttribute('sandbox')) === 'allow-scripts', 'the opaque frame: ' + await frame.getAttribute('sandbox'));
    const view = p.frameLocator('[data-testid=mcp-app-frame]');
    await view.locator('#list li').nth(2).waitFor({ timeout: 10000 });
    await view.locator('#list li').first().click();
    await waitTextIn(view.locator('#detail'), 'Tasca do Miradouro (Alfama', 10000);
  },
};

const targets = [
  { name: 'app', url: '/?endpoint=/agent', checks: { ...demoCards, ...checks, ...attachChecks } },
  { name: 'embed', url: '/embed/', checks: { ...pageCards, ...checks, ...widgetChecks, ...splitChecks } },
  { name: 'hostile', url: '/hostile/', checks: { ...hostileChecks, ...bareCards, ...checks } },
  { name: 'leptos-app', url: '/leptos-app/', checks: exampleChecks },
  { name: 'lazy', url: '/embed/', checks: lazyChecks, noOpen: true },
  { name: 'compact-popup', url: '/embed/', checks: compactChecks('[data-testid=widget-panel]') },
  { name: 'phone', url: '/?endpoint=/agent', checks: compactChecks('[data-testid=widget-panel]'), viewport: { width: 390, height: 844 } },
  { name: 'axe-light', url: '/', checks: auditChecks('light') },
  { name: 'axe-dark', url: '/', checks: auditChecks('dark'), colorScheme: 'dark' },
  { name: 'axe-agent', url: '/?endpoint=/agent', checks: auditAgent('light') },
  { name: 'axe-agent-dark', url: '/?endpoint=/agent&theme=dark', checks: auditAgent('dark') },
  { name: 'axe-popup', url: '/embed/', checks: auditPopup, noOpen: true },
  { name: 'inline', url: '/inline/', checks: inlineChecks, noOpen: true },
  { name: 'site', url: '/site/', checks: siteChecks, noOpen: true },
  { name: 'links', url: '/linked/', checks: linkChecks, noOpen: true },
  { name: 'devices', url: '/threads/', checks: deviceChecks, noOpen: true },
  { name: 'declarative', url: '/declarative/', checks: declarativeChecks, noOpen: true },
  { name: 'strict-csp', url: '/strict/', checks: strictChecks, noOpen: true },
  // The sandbox proxy's certificate is this run's own: only this target's contexts accept it.
  { name: 'mcp-proxy', url: '/mcp-proxy/', checks: mcpProxyChecks, ignoreHTTPSErrors: true,
    noConsoleErrors: true },
  { name: 'crash', url: '/embed/', checks: crashChecks, trapExpected: true, init: captureWasm },
  { name: 'axe-phone', url: '/', checks: auditChecks('phone'), viewport: { width: 390, height: 844 } },
  { name: 'ai-sdk', url: '/ai-sdk/', checks: aiSdkChecks, needs: aiSdk },
  { name: 'proto', url: '/proto/?transport=protobuf', checks: protoChecks, needs: protoUrl },
  // Only when named (scripts/hosts.sh builds them first).
  { name: 'host-react', url: '/hosts/react/', checks: hostChecks({ remount: true }), named: true, init: captureWasm, trapExpected: true },
  { name: 'host-vue', url: '/hosts/vue/', checks: hostChecks(), named: true, init: captureWasm, trapExpected: true },
  { name: 'host-plain', url: '/hosts/plain/', checks: plainChecks, named: true, init: captureWasm, trapExpected: true },
  { name: 'host-assets', url: '/hosts/plain/assets.html', checks: assetChecks, named: true, noOpen: true },
  { name: 'host-full', url: '/hosts/plain/full.html', checks: fullChecks, named: true, noOpen: true },
  { name: 'generative-ui', url: '/inline/', checks: generativeChecks },
];

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const only = process.env.E2E_TARGETS ? process.env.E2E_TARGETS.split(',') : null;
  let failed = 0;
  for (const target of targets.filter((t) => (only ? only.includes(t.name) : !t.named))) {
    if ('needs' in target && !target.needs) {
      failed++;
      console.log(`FAIL [${target.name}]: no ${target.name === 'proto' ? 'protobuf' : 'AI SDK'} server given (node e2e.js BASE AI_SDK_URL PROTO_URL)`);
      continue;
    }
    for (const [name, check] of Object.entries(target.checks)) {
      const ctx = await browser.newContext({
        viewport: target.viewport || { width: 1280, height: 900 },
        colorScheme: target.colorScheme || 'light',
        ignoreHTTPSErrors: !!target.ignoreHTTPSErrors,
      });
      if (target.init) await ctx.addInitScript(target.init);
      const page = await ctx.newPage();
      const errors = [];
      const seen = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // Console errors of the page and its frames (policy violations among them).
      const consoleErrors = [];
      page.on('console', (m) => {
        // (The server has no favicon: not the page's error.)
        if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${m.text()} (${m.location().url})`);
      });
      page.on('request', (r) => seen.push(r.url()));
      const label = `[${target.name}] ${name}`;
      try {
        await page.goto(base + target.url);
        if (!target.noOpen) await open(page);
        await check(page, seen);
        // The crash target causes one trap on purpose: only that may reach the page.
        const unexpected = errors.filter((e) => !(target.trapExpected && /RuntimeError/.test(e)));
        assert(unexpected.length === 0, 'page errors: ' + unexpected.join('; '));
        // (Those of the page's frames too: the proxy's and the View's.)
        assert(!target.noConsoleErrors || consoleErrors.length === 0, 'console errors: ' + consoleErrors.join('; '));
        console.log('ok   ' + label);
      } catch (e) {
        failed++;
        const file = path.join(shots, label.replace(/[^a-z0-9]+/gi, '-') + '.png');
        await page.screenshot({ path: file, fullPage: true }).catch(() => {});
        console.log('FAIL ' + label + ': ' + e.message + ' (screenshot ' + file + ')');
      }
      await ctx.close();
    }
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
