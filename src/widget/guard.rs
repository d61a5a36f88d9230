//! The trap guard: the plain-JS last line of defence that keeps the page's widgets when the
//! wasm instance stops.

use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

// The last line of defence (issue 12, item 16): one wasm instance serves every widget of the
// page, and a trap (a panic under panic=abort, a stack overflow, memory exhausted) leaves it
// unusable. This script is plain JS, outside the instance: it keeps the page's widgets, and on
// a wasm error that reaches the page it replaces each with a notice and "Reload the chat",
// which loads a fresh instance (through the loader's `__aguiReload`; a full page reload where
// there is no loader) and mounts every widget again with the options it had. The page itself
// keeps working. Text nodes only.
#[wasm_bindgen(inline_js = r#"
const hosts = new Map();
let dead = false;
let sheet;
const CSS = `.f{all:initial;display:flex;flex-direction:column;align-items:center;justify-content:center;
gap:12px;box-sizing:border-box;min-height:160px;height:100%;padding:24px;text-align:center;
font:15px/1.6 system-ui,sans-serif;color:light-dark(#1c1c1e,#ececef);background:light-dark(#f6f6f4,#141416);
border:1px solid light-dark(#e3e3de,#2e2e33);border-radius:10px;color-scheme:light dark}
.f button{all:revert;font:inherit;cursor:pointer}`;
export function register_host(host, options, text, action) {
  hosts.set(host, { options, text, action });
}
export function unregister_host(host) { hosts.delete(host); }
export function is_dead() { return dead; }
// A trap's stack names the chat's wasm by URL: its folder, which the loader says (`__aguiWasm`;
// the app's own page, booted without it, has wasm-bindgen's `_bg.wasm`), so another wasm on
// the page (the host's own, from elsewhere) is not taken for ours. A stopped instance cannot
// trap again once the page has a fresh one: the loader kills its closures.
const ours = () => (window.__aguiWasm ? new URL('.', window.__aguiWasm).href : '_bg.wasm');
const isTrap = (e) => (e instanceof WebAssembly.RuntimeError || e instanceof RangeError)
  && String(e.stack).includes(ours());
function fatal(error) {
  if (dead || !isTrap(error)) return;
  dead = true;
  console.error('agui-chat: the chat stopped after an internal error; each widget offers a reload', error);
  if (sheet === undefined) {
    try { sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); } catch { sheet = null; }
  }
  for (const [host, { text, action }] of hosts) {
    const root = host.shadowRoot;
    if (!root) continue;
    const box = document.createElement('div');
    box.className = 'f';
    box.setAttribute('role', 'alert');
    box.dataset.testid = 'widget-crashed';
    const p = document.createElement('p');
    p.textContent = text;
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'widget-reload';
    b.textContent = action;
    b.addEventListener('click', reload);
    box.append(p, b);
    if (sheet && 'adoptedStyleSheets' in root) root.adoptedStyleSheets = [sheet];
    else box.prepend(Object.assign(document.createElement('style'), { textContent: CSS }));
    root.replaceChildren(box);
  }
}
function reload() {
  const again = window.__aguiReload;
  if (typeof again !== 'function') { location.reload(); return; }
  const widgets = [...hosts];
  hosts.clear();
  again().then((api) => {
    dead = false;
    for (const [host, { options }] of widgets) {
      if (!host.isConnected) continue;
      host.shadowRoot && host.shadowRoot.replaceChildren();
      if (options) api.mount(host, options);
      else if (host.localName === 'agui-chat' && typeof host.start === 'function') {
        host.mounted = false;
        host.start(false);
      } else api.scan(host.parentNode || document);
    }
  }, () => location.reload());
}
addEventListener('error', (e) => fatal(e.error));
addEventListener('unhandledrejection', (e) => fatal(e.reason));
"#)]
extern "C" {
    pub(super) fn register_host(host: &HtmlElement, options: &JsValue, text: &str, action: &str);
    pub(super) fn unregister_host(host: &HtmlElement);
}
