// End-to-end: the built app in real Chromium (Playwright, Debian's chromium) against a real
// AG-UI server written with the official Python SDK (server.py). Each check is independent;
// a failing check saves a screenshot under target/e2e/ and makes the process exit non-zero.
//
//   node e2e.js http://127.0.0.1:8111
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const base = process.argv[2] || 'http://127.0.0.1:8111';
const shots = path.join(__dirname, '..', '..', 'target', 'e2e');
fs.mkdirSync(shots, { recursive: true });

const texts = (p) => p.$$eval('[data-testid=message-text]', (els) => els.map((e) => e.textContent));
const status = (p) => p.getAttribute('[data-testid=run-status]', 'data-status');
const waitStatus = (p, s) => p.waitForSelector(`[data-testid=run-status][data-status=${s}]`, { timeout: 15000 });
function assert(cond, msg) { if (!cond) throw new Error(msg); }

async function send(p, text) {
  await p.fill('[data-testid=composer-input]', text);
  await p.click('[data-testid=composer-send]');
}

const checks = {
  async 'text, tool card with live args, venue card, state panel'(p) {
    await send(p, 'plan our offsite');
    await p.waitForFunction(() => [...document.querySelectorAll('[data-role=assistant] [data-testid=message-text]')]
      .some((e) => e.textContent.includes('Real')), null, { timeout: 10000 });
    assert((await status(p)) === 'running', 'text must render while the run is still running');
    await p.waitForSelector('[data-testid=tool-card][data-tool-name=search_venues]', { timeout: 10000 });
    await waitStatus(p, 'success');
    const venues = await p.$$eval('[data-testid=venue-card]', (els) => els.map((e) => e.textContent));
    assert(venues.length === 1 && venues[0].includes('Tasca Real'), 'one venue card: ' + venues);
    const changed = await p.getAttribute('[data-testid=state-path][data-path="/venues/0"]', 'data-changed');
    assert(changed === 'true', 'the state delta marks /venues/0 changed, got ' + changed);
  },
  async 'confirm_payment round trip'(p) {
    await send(p, 'please pay the deposit');
    await p.waitForSelector('[data-testid=tool-card][data-status=awaiting-input]', { timeout: 10000 });
    await p.click('[data-testid=frontend-tool-approve]');
    await p.waitForFunction(() => [...document.querySelectorAll('[data-testid=message-text]')]
      .some((e) => e.textContent.includes('Got your answer: {"approved":true')), null, { timeout: 10000 });
    const reqs = await (await p.request.get(base + '/requests')).json();
    const last = reqs[reqs.length - 1];
    const tail = last.messages[last.messages.length - 1];
    assert(tail.role === 'tool' && tail.toolCallId && tail.toolCallId.startsWith('pay-'), 'the tool answer is sent back');
  },
  async 'interrupt answered after a reload, resume covers it'(p) {
    await send(p, 'ask me something');
    await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    assert(await p.$eval('[data-testid=composer-input]', (e) => e.disabled), 'composer locked while an interrupt is open');
    await p.reload();
    const card = await p.waitForSelector('[data-testid=interrupt]', { timeout: 10000 });
    const id = await card.getAttribute('data-interrupt-id');
    await p.fill('[data-testid=interrupt] input[type=number]', '7');
    await p.click('[data-testid=interrupt-submit]');
    await p.waitForFunction(() => [...document.querySelectorAll('[data-testid=message-text]')]
      .some((e) => e.textContent.includes('"travellers": 7')), null, { timeout: 10000 });
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
    await p.waitForFunction(() => [...document.querySelectorAll('[data-role=assistant] [data-testid=message-text]')]
      .some((e) => e.textContent.includes('Real')), null, { timeout: 10000 });
    await p.click('[data-testid=composer-stop]');
    await waitStatus(p, 'cancelled');
    const before = (await texts(p)).join('|');
    await p.waitForTimeout(1500);
    assert((await texts(p)).join('|') === before, 'nothing arrives after Stop');
    assert(before.includes('Real'), 'content kept');
  },
};

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  let failed = 0;
  for (const [name, check] of Object.entries(checks)) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(base + '/?endpoint=/agent');
      await page.waitForSelector('[data-testid=composer-input]');
      await check(page);
      assert(errors.length === 0, 'page errors: ' + errors.join('; '));
      console.log('ok   ' + name);
    } catch (e) {
      failed++;
      const file = path.join(shots, name.replace(/[^a-z0-9]+/gi, '-') + '.png');
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.log('FAIL ' + name + ': ' + e.message + ' (screenshot ' + file + ')');
    }
    await ctx.close();
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
