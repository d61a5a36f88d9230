// Time-to-interactive benchmark (not a test): the release build served gzip-compressed by
// server.py --gzip, in headless Chromium, each run in a fresh browser context (empty cache),
// on an unthrottled loopback and on Chrome DevTools' "Fast 4G" profile applied through the
// DevTools protocol (Network.emulateNetworkConditions). Prints medians (and min–max) of
// TTI_RUNS runs per row and writes target/bench/tti.json.
//
//   node bench_tti.js http://127.0.0.1:8112        (scripts/bench-tti.sh starts the server)
//
// What is timed, in the page's own clock (performance.now(), 0 = navigation start):
//   popup        the launcher drawn by the loader; the visitor's click on it → the composer
//                focused and enabled (the chat can take a keystroke). "cold": the click comes
//                as soon as the launcher is there (the pointer arrives with it); "hovered": the
//                pointer rests on the launcher 300 ms first (preload="intent" starts there);
//                "idle": preload="idle", the click once the chat has loaded by itself.
//   inline       navigation start → the composer enabled (the lean bundle starts at once);
//                once more with <link rel=modulepreload/preload> for the bundle in the head.
//   page         the app's own page (full bundle, demo) → the composer enabled.
//   message      the popup opened (hovered first), then a message: its first keystroke starts
//                fetching the lean widget's `run` module; Enter → the message shows in the
//                transcript (it needs `run`). "at once": Enter right after the first
//                keystroke (the worst case); "after 1.5 s of typing": as a person types.
// The composer is found by polling every 4 ms from an init script; each run then types into
// it and checks the text arrived, so a broken page fails the benchmark instead of timing it.
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const base = process.argv[2] || 'http://127.0.0.1:8112';
const runs = Number(process.env.TTI_RUNS || 7);
const cpu = Number(process.env.TTI_CPU || 1);
// devtools-frontend, front_end/core/sdk/NetworkManager.ts, Fast4GConditions: 9 Mbps down,
// 1.5 Mbps up (both × 0.9), 60 ms RTT × 2.75.
const FAST_4G = {
  offline: false,
  downloadThroughput: (9 * 1000 * 1000) / 8 * 0.9,
  uploadThroughput: (1.5 * 1000 * 1000) / 8 * 0.9,
  latency: 60 * 2.75,
};

// Runs in every document before its scripts: marks when the launcher, the click, the enabled
// composer and its focus happen.
function probe() {
  const marks = {};
  window.__tti = marks;
  document.addEventListener('click', () => { marks.click ??= performance.now(); }, true);
  // The loader's signal that the chat is loaded (src/loader/agui-chat.js).
  addEventListener('agui-chat:ready', () => { marks.ready ??= performance.now(); });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') marks.send ??= performance.now();
  }, true);
  const timer = setInterval(() => {
    const root = document.querySelector('agui-chat')?.shadowRoot;
    if (!root) return;
    if (marks.launcher === undefined && root.querySelector('[data-testid=widget-launcher]')) {
      marks.launcher = performance.now();
    }
    if (marks.send !== undefined && marks.shown === undefined && root.querySelector('[data-role=user]')) {
      marks.shown = performance.now();
    }
    const c = root.querySelector('[data-testid=composer-input]');
    if (!c || c.disabled) return;
    marks.composer ??= performance.now();
    if (root.activeElement === c) marks.focused ??= performance.now();
    if (marks.focused !== undefined && (marks.send === undefined || marks.shown !== undefined)
      && !window.__ttiMessage) {
      clearInterval(timer);
    }
  }, 4);
  setTimeout(() => clearInterval(timer), 60000);
}

const marks = (p) => p.evaluate(() => window.__tti);
async function until(p, key, timeout = 60000) {
  await p.waitForFunction((k) => window.__tti && window.__tti[k] !== undefined, key, { timeout, polling: 10 });
  return marks(p);
}

async function typesInto(p) {
  await p.focus('[data-testid=composer-input]');
  await p.keyboard.type('hi');
  const v = await p.inputValue('[data-testid=composer-input]');
  if (v !== 'hi') throw new Error('the composer did not take the keystrokes: ' + JSON.stringify(v));
}

// The example host page's popup: `before(p)` is what the visitor does before the click.
const popup = (name, before, url = '/embed/') => ({
  name,
  url,
  async run(p) {
    await until(p, 'launcher');
    await before(p);
    await p.click('[data-testid=widget-launcher]');
    const m = await until(p, 'focused');
    return { value: m.focused - m.click, launcher: m.launcher };
  },
});

// A chat that starts at once: navigation start → the composer enabled.
const loaded = (name, url) => ({
  name,
  url,
  async run(p) {
    const m = await until(p, 'composer');
    return { value: m.composer };
  },
});

// The popup opened, then a message typed for `typing` ms and sent: Enter → it shows.
const message = (name, typing) => ({
  name,
  url: '/embed/',
  async run(p) {
    await p.evaluate(() => { window.__ttiMessage = true; });
    await until(p, 'launcher');
    await p.hover('[data-testid=widget-launcher]');
    await p.waitForTimeout(300);
    await p.click('[data-testid=widget-launcher]');
    await until(p, 'focused');
    await p.keyboard.type('h');
    if (typing) await p.waitForTimeout(typing);
    await p.keyboard.type('ello');
    await p.keyboard.press('Enter');
    const m = await until(p, 'shown');
    return { value: m.shown - m.send };
  },
});

const scenarios = [
  popup('popup, cold click: click → composer focused', async () => {}),
  popup('popup, hovered 300 ms: click → composer focused', async (p) => {
    await p.hover('[data-testid=widget-launcher]');
    await p.waitForTimeout(300);
  }),
  popup('popup, preload="idle", loaded: click → composer focused', async (p) => {
    await until(p, 'ready');
  }, '/embed/?preload=idle'),
  loaded('inline (lean bundle): navigation → composer enabled', '/inline/'),
  loaded('inline, the page preloads the bundle: navigation → composer enabled', '/inline/?hints=1'),
  loaded('page (the app, full bundle): navigation → composer enabled', '/'),
  message('popup, a message sent at once (its first keystroke fetches `run`): Enter → the message shows', 0),
  message('popup, a message typed for 1.5 s: Enter → the message shows', 1500),
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const ms = (x) => (x === undefined ? '—' : Math.round(x).toLocaleString('en') + ' ms');

async function once(browser, scenario, network) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (network) await cdp.send('Network.emulateNetworkConditions', network);
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(probe);
  try {
    await page.goto(base + scenario.url, { waitUntil: 'commit' });
    const r = await scenario.run(page);
    await typesInto(page);
    if (errors.length) throw new Error('page errors: ' + errors.join('; '));
    return { ...r, bytes };
  } finally {
    await ctx.close();
  }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const networks = [['unthrottled', null], ['Fast 4G', FAST_4G]];
  const rows = [];
  for (const scenario of scenarios) {
    // One unmeasured run warms the server's gzip cache and the browser process.
    await once(browser, scenario, null);
    for (const [net, conditions] of networks) {
      const got = [];
      for (let i = 0; i < runs; i++) got.push(await once(browser, scenario, conditions));
      const values = got.map((g) => g.value);
      const row = {
        scenario: scenario.name,
        network: net,
        median: median(values),
        min: Math.min(...values),
        max: Math.max(...values),
        launcher: got[0].launcher === undefined ? undefined : median(got.map((g) => g.launcher)),
        kilobytes: Math.round(median(got.map((g) => g.bytes)) / 1000),
        runs: values.map(Math.round),
      };
      rows.push(row);
      console.log(`${row.scenario} [${net}]: median ${ms(row.median)} (${ms(row.min)}–${ms(row.max)})`
        + (row.launcher === undefined ? '' : `, launcher drawn at ${ms(row.launcher)}`)
        + `, ${row.kilobytes} kB over the wire`);
    }
  }
  await browser.close();
  const out = path.join(__dirname, '..', '..', 'target', 'bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'tti.json'), JSON.stringify({ runs, cpu, rows }, null, 1));
  console.log('\n| what | unthrottled | Fast 4G |\n|---|---|---|');
  for (const s of scenarios) {
    const cell = (net) => {
      const r = rows.find((x) => x.scenario === s.name && x.network === net);
      return `${ms(r.median)} (${ms(r.min)}–${ms(r.max)})`;
    };
    console.log(`| ${s.name} | ${cell('unthrottled')} | ${cell('Fast 4G')} |`);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
