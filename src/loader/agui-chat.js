// agui-chat.js — the one script a host page includes (dist/cdn/ of the npm package
// `agui-leptos`; the package's own entries, dist/index.js and dist/full.js, are this file with
// other bundles: scripts/npm-entries.py):
//
//   <script type="module" src="https://cdn.jsdelivr.net/npm/agui-leptos@VERSION/dist/cdn/agui-chat.js"></script>
//   <agui-chat endpoint="https://your.agent/api" mode="popup"></agui-chat>
//
// It defines <agui-chat> and loads the chat (agui-widget.js + agui-widget_bg.wasm, the lean
// bundle, or agui-leptos.js + agui-leptos_bg.wasm, the full one, when a widget is the demo or
// has the inspector; next to this script: any origin that serves them with CORS) only when a
// widget needs it. A popup, or a sidebar that starts collapsed, is drawn here as a launcher
// button (plain DOM, no framework); `preload` says when the chat loads: `intent` (default:
// pointer over or focus on the launcher, or a click), `idle` (after load, when the browser is
// idle), `eager` (at once), `none` (on a click). Inline and page widgets,
// `[data-agui-endpoint]` elements (with `agui-chat.js?scan`) and every API call load at once.
// A click before the chat is there opens a panel that says it is loading (and offers Retry if
// it failed); the chat then opens with the keyboard in the composer.
//
// Every option is also a property of the element (`el.tools = […]`: React 19 and Vue set a
// prop as a property only when the element has it), kept when set before the element is
// defined; a property wins over its attribute. The chat reads the element's properties as its
// options object, live: a tool's handler or `upload` is called as the property has it then,
// and a new value of the same content (JSON, functions alike) changes nothing. Two copies of
// this file on one page (a CDN tag and an npm bundle, even of two versions) never throw: the
// first defines the element, the second says so once and hands every call to it. Importing it
// where there is no DOM (server rendering) defines nothing.
//
//   import { ready, mount } from '…/agui-chat.js';
//   const AguiChat = await ready;            // awaiting `ready` loads the chat
//   mount(el, { … });                        // works before the load too, and starts it
export const version = '0.1.0';
const TAG = 'agui-chat';
const browser = typeof HTMLElement != 'undefined';
// @bundles — what this entry loads, as [glue module, wasm URL], with static specifiers so that
// a bundler sees (and emits) them; scripts/npm-entries.py writes the npm entries' own.
const LEAN = () => [import('./agui-widget.js'), new URL('./agui-widget_bg.wasm', import.meta.url)];
const FULL = () => [import('./agui-leptos.js'), new URL('./agui-leptos_bg.wasm', import.meta.url)];
const WORDS_MODULE = () => import('./agui-chat.words.js');
// @end
const scanning = new URL(import.meta.url).searchParams.has('scan');
// The options: the attributes, then the JS-only properties.
// @generated-begin from src/embed/table.rs (AGUI_BLESS=1 cargo test --test project manifest)
const ATTRS = 'endpoint protocol resume transport headers mode theme inspector thread-key persist storage-budget lang open title speed demo settings suggestions commands math strings credentials redirects url-options allowed-endpoints mcp-apps-proxy threads-url queue accept max-file-bytes max-message-bytes max-files attachments voice capabilities preload'.split(' ');
const JS_ONLY = 'tools renderers codeRenderers upload threads transcribe'.split(' ');
// @generated-end
// The launcher's words: its name ("Open chat: " + the title), the loading text, the failure
// text, Retry, and the default title. Other languages' are a module of their own
// (agui-chat.words.js), fetched when a launcher is drawn on a page in one of them.
const EN = ['Open chat: ', 'Loading the chat…', 'The chat could not be loaded.', 'Retry', 'Chat'];
let WORDS = {};
let asked = false;
// The launcher's own look: the chat's tokens (tests/project/css_tokens.rs keeps these defaults equal
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

// A boolean option is on unless it says false/0/no/off (as src/embed.rs reads it).
const on = (v) => v != null && v !== false && !/^(false|0|no|off)$/i.test(v);
// What a property compares by: its JSON, functions alike.
const key = (v) => JSON.stringify(v, (k, x) => (typeof x == 'function' ? 0 : x));

let loading = null;
// The chat's API once loaded.
let api = null;
// The live copy of the glue (`{default: init, kill, m}`). After the chat stopped on an internal
// error a fresh copy (the glue's `__aguiFresh`, scripts/glue-instance.py) makes a new wasm
// instance, and the stopped one is killed (its closures no longer call into its wasm).
let glue = null;
let fresh = false;

// Which bundle: the lean widget (no demo, no inspector) when every widget on the page talks to
// its own agent; the full one when one is the demo (no endpoint, or `demo`) or has the
// inspector — or where the lean one is not deployed.
const wantsFull = () => [...document.querySelectorAll(scanning ? TAG + ',[data-agui-endpoint]' : TAG)]
  .some((el) => {
    const v = (n) => el.props?.[n] ?? el.getAttribute(n) ?? el.getAttribute('data-agui-' + n);
    return on(v('demo')) || on(v('inspector')) || !String(v('endpoint') ?? '').trim();
  });
// The wasm is fetched alongside its glue, not after it (the glue's init takes the response's
// promise); the trap guard (src/widget.rs) knows the chat's wasm by its URL.
const boot = (bundle) => {
  const [mod, url] = bundle();
  window.__aguiWasm = url.href;
  const res = fetch(url);
  res.catch(() => {});
  return mod.then((m) => {
    if (fresh || glue?.m !== m) glue = { ...(fresh ? m.__aguiFresh() : { default: m.default, kill: m.__aguiKill }), m };
    fresh = false;
    return glue.default({ module_or_path: res });
  });
};

/** Load the chat once; a failed load can be tried again. */
const load = () => {
  loading ||= (!LEAN || (FULL && wantsFull()) ? boot(FULL) : boot(LEAN).catch((e) => (FULL ? boot(FULL) : Promise.reject(e))))
    .then(() => {
      api = window.AguiChat;
      window.AguiChat = stub;
      dispatchEvent(new CustomEvent('agui-chat:ready'));
      return api;
    });
  loading.catch(() => { loading = null; });
  return loading;
};

const lang = (el) => ((el.closest('[lang]') || document.documentElement).lang || 'en').slice(0, 2);
const words = (el) => WORDS[lang(el)] || EN;

class AguiChatElement extends (browser ? HTMLElement : Object) {
  static get observedAttributes() { return ATTRS; }

  constructor() {
    super();
    this.props = {};
    // Values a page set before the element was defined shadow the properties: take them.
    for (const p of PROPS) {
      if (Object.hasOwn(this, p)) { const v = this[p]; delete this[p]; this[p] = v; }
    }
  }

  /** A property set. A new value (by content) reconfigures a mounted chat, once per task: in
   *  place when only `theme` or `open` changed and the chat holds these properties. */
  prop(p, v) {
    const was = key(this.props[p]);
    if (v == null) delete this.props[p];
    else this.props[p] = v;
    if (was === key(v) || !this.mounted || !api) return;
    if (this.changed) return this.changed.add(p);
    this.changed = new Set([p]);
    queueMicrotask(() => {
      const c = [...this.changed];
      this.changed = null;
      if (!this.mounted || !api) return;
      if (this.live && c.every((n) => n == 'theme' || n == 'open')) c.forEach((n) => api._changed(this, n));
      else this.mount(api, false);
    });
  }

  /** Mounts the chat with the properties (live), or from the attributes (and the page's URL,
   *  with `url-options`) when there is none; `open`: the visitor already asked for it. */
  mount(a, open) {
    this.mounted = true;
    this.live = Object.keys(this.props).length > 0;
    a.mount(this, this.live ? this.props : null, open);
  }

  // A microtask later: a framework sets the properties of the element it just inserted
  // (React's layout effects) before the element decides how to start.
  connectedCallback() { queueMicrotask(() => this.connect()); }

  connect() {
    if (this.mounted || !this.isConnected) return;
    const v = (n) => String(this.props[n] ?? this.getAttribute(n) ?? '').trim().toLowerCase();
    const mode = v('mode');
    const open = this.props.open ?? this.getAttribute('open');
    const collapsed = /^(popup|launcher|floating)$/.test(mode) ? !on(open)
      : mode === 'sidebar' && open != null && !on(open);
    const preload = v('preload') || 'intent';
    if (api || !collapsed || preload === 'eager') return this.start(false);
    this.drawLauncher();
    if (preload === 'idle') {
      const later = () => (window.requestIdleCallback || setTimeout)(() => this.warm(), { timeout: 5000 });
      if (document.readyState === 'complete') later();
      else addEventListener('load', later, { once: true });
    }
  }

  disconnectedCallback() {
    // Moving an element disconnects and reconnects it: only a removal unmounts.
    queueMicrotask(() => {
      if (this.isConnected) return;
      if (api && this.mounted) api.unmount(this);
      this.mounted = false;
    });
  }

  attributeChangedCallback(name, before, after) {
    if (before !== after && api && this.mounted) api._changed(this, name);
  }

  get state() { return api && this.mounted ? api._state(this) : undefined; }

  /** Mount the chat (loading it first); `open`: the visitor already asked for it. */
  start(open) {
    return load().then((a) => { if (this.isConnected) this.mount(a, open); }, (e) => { this.failed(e); });
  }

  /** The launcher's name, in the page's language once its words are here. */
  label() {
    const [open, , , , chat] = words(this);
    this.launcher?.setAttribute('aria-label', open + (String(this.props.title ?? this.getAttribute('title') ?? '').trim() || chat));
  }

  drawLauncher() {
    const root = this.shadowRoot || this.attachShadow({ mode: 'open' });
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'l';
    b.dataset.testid = 'widget-launcher';
    b.setAttribute('aria-expanded', 'false');
    b.append(document.createElement('i'));
    const intent = () => this.warm();
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
    this.label();
    if (lang(this) != 'en' && !asked) {
      asked = true;
      WORDS_MODULE().then((m) => {
        WORDS = m.default;
        for (const el of document.querySelectorAll(TAG)) el.label?.();
      }, () => { asked = false; });
    }
  }

  /** Load the chat before it is asked for, and mount it closed once loaded, so the click
   *  only opens it — unless a press is under way or the loading panel is already open (its
   *  click mounts it open). The keyboard stays on the launcher. */
  warm() {
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

// Every option a property: camelCase (those HTMLElement has — `title`, `lang` — stay its own,
// reflecting their attribute), then the JS-only ones.
const PROPS = ATTRS.map((a) => a.replace(/-./g, (m) => m[1].toUpperCase()))
  .filter((p) => !browser || !(p in HTMLElement.prototype)).concat(JS_ONLY);
for (const p of PROPS) {
  Object.defineProperty(AguiChatElement.prototype, p, {
    get() { return this.props[p]; },
    set(v) { this.prop(p, v); },
  });
}

// The API, before and after the chat is loaded: every call loads it. An <agui-chat> mounted
// from JS takes the options as its properties (a collapsed popup stays a launcher until it is
// needed).
const handle = (el) => ({
  element: el,
  unmount: () => stub.unmount(el),
  state: () => (api ? api._state(el) : undefined),
});
const stub = {
  mount(el, options) {
    if (el instanceof AguiChatElement) {
      el.props = { ...options };
      if (el.mounted || !el.launcher) el.start(false);
    } else load().then((a) => a.mount(el, options));
    return handle(el);
  },
  unmount(el) {
    if (el instanceof AguiChatElement) { el.props = {}; el.mounted = false; }
    return load().then((a) => a.unmount(el));
  },
  scan: (root) => load().then((a) => a.scan(root)),
  // Sign-out: every chat of the page forgets what it keeps in this browser (loaded or not).
  forget() {
    const n = api ? api.forget() : 0;
    try {
      for (const s of [localStorage, sessionStorage]) for (const k of Object.keys(s)) k.startsWith('agui-leptos:') && s.removeItem(k);
    } catch {}
    return n;
  },
  uploadLocal: () => load().then((a) => a.uploadLocal()),
  load,
  version,
};
AguiChatElement.api = stub;
AguiChatElement.version = version;

// The copy that defined the element serves every call (one wasm instance per page).
const owner = () => (browser && customElements.get(TAG)?.api) || stub;
export const mount = (el, options) => owner().mount(el, options);
export const unmount = (el) => owner().unmount(el);
export const scan = (root) => owner().scan(root);
export const forget = () => owner().forget();
export const uploadLocal = () => owner().uploadLocal();
/** `await ready` loads the chat and gives its API (a thenable, so importing it loads nothing). */
export const ready = { then: (ok, fail) => owner().load().then(ok, fail) };

if (browser && customElements.get(TAG)) {
  console.info(`agui-leptos ${version}: <${TAG}> is already defined (by agui-leptos ${customElements.get(TAG).version}); this copy hands its calls to it`);
} else if (browser) {
  // The chat's "Reload the chat" (src/widget.rs) asks for a fresh copy here.
  window.__aguiReload = () => {
    glue?.kill();
    fresh = true;
    loading = api = null;
    return load();
  };
  window.AguiChat ||= stub;
  customElements.define(TAG, AguiChatElement);
  // `[data-agui-endpoint]` elements mount only where the page asked for it on this script's
  // URL (`agui-chat.js?scan`) — or by calling `scan()` — since any element of a page's
  // content can carry data-* attributes; then they start at once.
  const scanNow = () => {
    if (scanning && document.querySelector('[data-agui-endpoint]')) stub.scan().catch(() => {});
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scanNow);
  else scanNow();
}
