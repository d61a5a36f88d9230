// agui-chat.js — the one script a host page includes:
//
//   <script type="module" src="https://your.cdn/agui/agui-chat.js"></script>
//   <agui-chat endpoint="https://your.agent/api" mode="popup"></agui-chat>
//
// It defines <agui-chat> and loads the chat (agui-widget.js + agui-widget_bg.wasm, the lean
// bundle, or agui-leptos.js + agui-leptos_bg.wasm when a widget is the demo; next to this
// script: any origin that serves them with CORS) only when a widget needs it. A popup, or a
// sidebar that starts collapsed, is drawn here as a launcher button (plain DOM, no framework);
// `preload` says when the chat loads: `intent` (default: pointer over or focus on the
// launcher, or a click), `idle` (after load, when the browser is idle), `eager` (at once),
// `none` (on a click). Inline and page widgets, `[data-agui-endpoint]` elements (with
// `agui-chat.js?scan`) and every API call load at once. A click before the chat is there opens a panel that says it is loading
// (and offers Retry if it failed); the chat then opens with the keyboard in the composer.
//
//   import { ready } from '…/agui-chat.js';
//   const AguiChat = await ready;            // awaiting `ready` loads the chat
//   window.AguiChat.mount(el, { … });        // works before the load too, and starts it
const base = import.meta.url;
const scanning = new URL(base).searchParams.has('scan');
const OBSERVED = ['endpoint', 'protocol', 'resume', 'transport', 'headers', 'mode', 'theme', 'inspector', 'thread-key', 'persist',
  'storage-budget', 'lang', 'open', 'title', 'speed', 'demo', 'settings', 'preload', 'url-options',
  'allowed-endpoints', 'credentials', 'redirects', 'suggestions', 'queue', 'accept',
  'max-file-bytes', 'max-message-bytes', 'max-files', 'attachments', 'capabilities', 'mcp-apps-proxy'];
const TEXT = {
  en: ['Open chat: ', 'Loading the chat…', 'The chat could not be loaded.', 'Retry', 'Chat'],
  de: ['Chat öffnen: ', 'Der Chat wird geladen…', 'Der Chat konnte nicht geladen werden.',
    'Erneut versuchen', 'Chat'],
};
// The launcher's own look: the chat's tokens (tests/css_tokens.rs keeps these defaults equal
// to style/tokens.css), overridable on the element like the chat's.
const CSS = `:host{display:block;--agui-color-accent:light-dark(#3d5bd9, #7d95f5);
--agui-color-accent-hover:light-dark(#3149b8, #98abf8);--agui-color-accent-contrast:light-dark(#ffffff, #10131f);
--agui-color-bg:light-dark(#f6f6f4, #141416);--agui-color-text:light-dark(#1c1c1e, #ececef);
--agui-color-border:light-dark(#e3e3de, #2e2e33);--agui-color-focus-outline:light-dark(#3d5bd9, #7d95f5);
--agui-color-shadow-strong:light-dark(rgba(16, 16, 20, 0.12), rgba(0, 0, 0, 0.5));
--agui-widget-offset:20px;--agui-launcher-size:56px;--agui-launcher-icon-size:24px;
--agui-launcher-icon-stroke:2.5px;--agui-radius:10px;--agui-radius-xl:20px;--agui-popup-width:420px;
--agui-popup-height:680px;--agui-z-widget:2147483000;--agui-focus-width:2px;--agui-focus-offset:2px}
:host([hidden]){display:none}
.l,.p{all:initial;color-scheme:light dark;position:fixed;z-index:var(--agui-z-widget);
font:15px/1.6 system-ui,sans-serif;box-sizing:border-box}
.l{inset-block-end:var(--agui-widget-offset);inset-inline-end:var(--agui-widget-offset);
width:var(--agui-launcher-size);height:var(--agui-launcher-size);display:inline-flex;
align-items:center;justify-content:center;border-radius:999px;cursor:pointer;
background:var(--agui-color-accent);color:var(--agui-color-accent-contrast);
box-shadow:0 8px 30px var(--agui-color-shadow-strong)}
.l:hover{background:var(--agui-color-accent-hover)}
.l:focus-visible,.p button:focus-visible{outline:var(--agui-focus-width) solid var(--agui-color-focus-outline);
outline-offset:var(--agui-focus-offset)}
.l i{width:var(--agui-launcher-icon-size);height:calc(var(--agui-launcher-icon-size) * 0.78);
border:var(--agui-launcher-icon-stroke) solid currentColor;border-radius:var(--agui-radius)}
.p{inset-block-end:calc(var(--agui-widget-offset) * 2 + var(--agui-launcher-size));
inset-inline-end:var(--agui-widget-offset);
width:min(var(--agui-popup-width),calc(100vw - 2 * var(--agui-widget-offset)));
height:min(var(--agui-popup-height),calc(100vh - 3 * var(--agui-widget-offset) - var(--agui-launcher-size)));
display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px;padding:24px;
border:1px solid var(--agui-color-border);border-radius:var(--agui-radius-xl);
background:var(--agui-color-bg);color:var(--agui-color-text);text-align:center}
.p button{all:revert;font:inherit;cursor:pointer}`;

// One constructed stylesheet for every launcher: a strict CSP (`style-src 'self'`) blocks a
// <style> element, not an adopted sheet. A browser without them gets the <style>.
let sheet;
const adopt = (root) => {
  if (sheet === undefined) {
    try { sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); } catch { sheet = null; }
  }
  if (sheet && 'adoptedStyleSheets' in root) root.adoptedStyleSheets = [sheet];
  else root.prepend(Object.assign(document.createElement('style'), { textContent: CSS }));
};

let loading = null;
// The chat's API once loaded (window.AguiChat is this stub until then).
let api = null;

// Which bundle: the lean widget (agui-widget.js: no demo, no inspector) when every widget on
// the page talks to its own agent; the app's (agui-leptos.js) when one is the demo (no
// endpoint, or the `demo` attribute), or where the lean one is not deployed.
const demoWanted = () => [...document.querySelectorAll(scanning ? 'agui-chat, [data-agui-endpoint]' : 'agui-chat')]
  .some((el) => el.hasAttribute('demo') || el.hasAttribute('data-agui-demo')
    || !((el.getAttribute('endpoint') || el.getAttribute('data-agui-endpoint')
      || (el.options && el.options.endpoint) || '').trim()));
// The wasm is fetched alongside its glue, not after it (one round trip less; the glue's init
// takes the response's promise).
// `instance` > 0: a fresh copy of the chat after the last one stopped on an internal error
// (its glue imported under another URL is a new module, with a new wasm instance).
let instance = 0;
const start = (name) => {
  const wasm = fetch(new URL(`${name}_bg.wasm`, base));
  wasm.catch(() => {});
  return import(`./${name}.js${instance ? '?i=' + instance : ''}`)
    .then((m) => m.default({ module_or_path: wasm }));
};
// The chat's "Reload the chat" (src/widget.rs) asks for that fresh copy here.
window.__aguiReload = () => {
  instance += 1;
  window.__aguiInstance = instance;
  loading = null;
  api = null;
  return load();
};

/** Load the chat once; a failed load can be tried again. */
export function load() {
  if (!loading) {
    loading = (demoWanted() ? start('agui-leptos') : start('agui-widget').catch(() => start('agui-leptos')))
      .then(() => {
        api = window.AguiChat;
        window.dispatchEvent(new CustomEvent('agui-chat:ready'));
        return api;
      });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** `await ready` loads the chat and gives its API (a thenable, so importing it loads nothing). */
export const ready = { then: (ok, fail) => load().then(ok, fail) };

const lang = (el) => ((el.closest('[lang]') || document.documentElement).lang || 'en').slice(0, 2);
const words = (el) => TEXT[lang(el)] || TEXT.en;

class AguiChatElement extends HTMLElement {
  static get observedAttributes() { return OBSERVED; }

  connectedCallback() {
    if (this.mounted) return;
    const mode = (this.getAttribute('mode') || '').trim().toLowerCase();
    const open = this.getAttribute('open');
    // A boolean attribute is on unless it says false/0/no/off (as src/embed.rs reads it).
    const off = open !== null && ['false', '0', 'no', 'off'].includes(open.trim().toLowerCase());
    const collapsed = mode === 'popup' || mode === 'launcher' || mode === 'floating'
      ? open === null || off
      : mode === 'sidebar' && off;
    const preload = (this.getAttribute('preload') || 'intent').trim().toLowerCase();
    if (api || !collapsed || preload === 'eager') return this.start(false);
    this.drawLauncher();
    if (preload === 'idle') {
      const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
      const later = () => idle(() => this.preload(), { timeout: 5000 });
      if (document.readyState === 'complete') later();
      else window.addEventListener('load', later, { once: true });
    }
  }

  disconnectedCallback() {
    // Moving an element disconnects and reconnects it: only a removal unmounts.
    queueMicrotask(() => {
      if (this.isConnected) return;
      if (api && this.mounted) api._disconnect(this);
      this.mounted = false;
    });
  }

  attributeChangedCallback(name, before, after) {
    if (before !== after && api && this.mounted) api._changed(this, name);
  }

  get state() { return api && this.mounted ? api._state(this) : undefined; }

  /** Mount the chat (loading it first); `open`: the visitor already asked for it. */
  start(open) {
    return load().then((a) => {
      if (!this.isConnected) return;
      this.mounted = true;
      if (this.options) a.mount(this, open ? { ...this.options, open: true, focus: true } : this.options);
      else a._connect(this, open);
    }, (e) => { this.failed(e); });
  }

  drawLauncher() {
    const root = this.shadowRoot || this.attachShadow({ mode: 'open' });
    const [openText] = words(this);
    const title = (this.getAttribute('title') || '').trim() || words(this)[4];
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'l';
    b.dataset.testid = 'widget-launcher';
    b.setAttribute('aria-expanded', 'false');
    b.setAttribute('aria-label', openText + title);
    b.append(document.createElement('i'));
    const intent = () => this.preload();
    b.addEventListener('pointerenter', intent, { once: true });
    b.addEventListener('focus', intent, { once: true });
    // A press in progress keeps this button (swapping it would swallow the click).
    const press = (on) => () => { this.pressing = on; };
    b.addEventListener('pointerdown', press(true));
    b.addEventListener('keydown', press(true));
    b.addEventListener('pointerleave', press(false));
    b.addEventListener('blur', press(false));
    b.addEventListener('click', () => this.opening(b));
    root.replaceChildren(b);
    adopt(root);
    this.launcher = b;
  }

  /** Load the chat before it is asked for, and mount it closed once loaded, so the click
   *  only opens it — unless a press is under way or the loading panel is already open (its
   *  click mounts it open). The keyboard stays on the launcher. */
  preload() {
    load().then(() => {
      if (this.mounted || this.panel || this.pressing || !this.isConnected) return;
      const focused = this.shadowRoot.activeElement === this.launcher;
      this.start(false).then(() => {
        if (focused) this.shadowRoot.querySelector('[data-testid=widget-launcher]')?.focus();
      });
    }, () => {});
  }

  /** A click before the chat is here: a panel that says so, with the focus in it. */
  opening(b) {
    if (!this.panel) {
      const p = document.createElement('div');
      p.className = 'p';
      p.dataset.testid = 'widget-loading';
      p.setAttribute('role', 'dialog');
      p.setAttribute('aria-label', b.getAttribute('aria-label'));
      p.tabIndex = -1;
      p.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') { p.remove(); this.panel = null; b.setAttribute('aria-expanded', 'false'); b.focus(); }
      });
      this.shadowRoot.append(p);
      this.panel = p;
    }
    const p = this.panel;
    p.setAttribute('aria-busy', 'true');
    const t = document.createElement('p');
    t.setAttribute('role', 'status');
    t.textContent = words(this)[1];
    p.replaceChildren(t);
    b.setAttribute('aria-expanded', 'true');
    p.focus();
    this.start(true);
  }

  /** The load failed: never a dead button — say so and offer Retry. */
  failed(e) {
    if (!this.panel) return;
    const [, , text, retry] = words(this);
    const t = document.createElement('p');
    t.setAttribute('role', 'alert');
    t.textContent = text;
    const r = document.createElement('button');
    r.type = 'button';
    r.dataset.testid = 'widget-retry';
    r.textContent = retry;
    r.addEventListener('click', () => this.opening(this.launcher));
    this.panel.removeAttribute('aria-busy');
    this.panel.replaceChildren(t, r);
    r.focus();
    console.warn('agui-chat: could not load the chat', e);
  }
}

// The API before the chat is loaded: every call loads it. A widget mounted from JS with its
// options before that keeps them (a collapsed popup stays a launcher until it is needed).
const stub = {
  mount(el, options) {
    if (el instanceof AguiChatElement && !api) {
      el.options = options || {};
      if (el.launcher && !el.mounted) return handle(el);
      el.start(false);
      return handle(el);
    }
    load().then((a) => a.mount(el, options));
    return handle(el);
  },
  unmount(el) { el.options = null; return load().then((a) => a.unmount(el)); },
  scan(root) { return load().then((a) => a.scan(root)); },
  load,
};
const handle = (el) => ({
  element: el,
  unmount: () => stub.unmount(el),
  state: () => (el instanceof AguiChatElement ? el.state : api ? api._state(el) : undefined),
});

if (!window.AguiChat) window.AguiChat = stub;
if (!customElements.get('agui-chat')) customElements.define('agui-chat', AguiChatElement);
// `[data-agui-endpoint]` elements mount only where the page asked for it on this script's URL
// (`agui-chat.js?scan`) — or by calling `AguiChat.scan()` — since any element of a page's
// content can carry data-* attributes; then they start at once.
const scan = () => {
  if (scanning && document.querySelector('[data-agui-endpoint]')) stub.scan().catch(() => {});
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
else scan();
