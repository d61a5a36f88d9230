// `vite dev` of a host app (examples/hosts/react: <StrictMode> is active in dev) with no
// configuration for the chat: it mounts once, and the module a typing person needs (`run`,
// with the pack) is fetched from where the package put it — no 4xx for any of the chat's files,
// no page error.
//
//   node vite_dev.js http://127.0.0.1:PORT/
const { chromium } = require('playwright-core');

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage();
  const errors = [];
  const seen = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => {
    if (/agui/.test(r.url())) seen.push(`${r.status()} ${new URL(r.url()).pathname}`);
    if (r.status() >= 400 && /agui|\.wasm|\.bin/.test(r.url())) errors.push(`${r.status()} ${r.url()}`);
  });
  let failed = false;
  try {
    await page.goto(process.argv[2]);
    await page.waitForSelector('[data-testid=composer-input]', { timeout: 30000 });
    await page.type('[data-testid=composer-input]', 'hello');
    await page.waitForFunction(() => performance.getEntriesByType('resource')
      .some((e) => /agui-widget\.run[^/]*\.wasm/.test(e.name)), null, { timeout: 20000 });
    const frames = await page.evaluate(() => document.querySelector('agui-chat').shadowRoot.querySelectorAll('.agui-frame').length);
    if (frames !== 1) throw new Error(`${frames} chats in the element under <StrictMode>`);
    if (errors.length) throw new Error(errors.join('; '));
    console.log('ok   [vite-dev] the chat mounts once and loads its modules: ' + seen.filter((s) => /wasm|bin/.test(s)).join(', '));
  } catch (e) {
    failed = true;
    console.log('FAIL [vite-dev] ' + e.message);
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
