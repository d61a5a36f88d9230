// `agui-leptos/react`: <AguiChat>, a thin wrapper of <agui-chat> for React 18 and 19. The
// options are set as the element's properties (React 18 would write objects as attributes);
// the element compares them by content, so a new object with the same content does not remount
// the chat, and it calls a tool's handler through the current prop. The handlers of the
// `agui:*` events are read through a ref (always the latest). Importing it where there is no
// DOM (server rendering) touches neither `window` nor `HTMLElement`.
import { createElement, forwardRef, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import './index.js';

// @generated-begin from src/embed/table.rs (AGUI_BLESS=1 cargo test --test project manifest)
const OPTIONS = [
  'endpoint', 'protocol', 'resume', 'transport', 'headers', 'mode',
  'theme', 'inspector', 'threadKey', 'persist', 'storageBudget', 'lang',
  'open', 'title', 'speed', 'demo', 'settings', 'suggestions',
  'commands', 'math', 'strings', 'credentials', 'redirects', 'urlOptions',
  'allowedEndpoints', 'mcpAppsProxy', 'threadsUrl', 'queue', 'accept', 'maxFileBytes',
  'maxMessageBytes', 'maxFiles', 'attachments', 'voice', 'capabilities', 'preload',
  'tools', 'renderers', 'codeRenderers', 'upload', 'threads', 'transcribe',
];
const EVENTS = {
  onRunStarted: 'agui:run-started',
  onStateChanged: 'agui:state-changed',
  onInterrupt: 'agui:interrupt',
  onRunFinished: 'agui:run-finished',
  onFeedback: 'agui:feedback',
};
// @generated-end

// Layout effects do not run on a server (and React 18 warns there).
const useLayout = typeof window == 'undefined' ? useEffect : useLayoutEffect;

export const AguiChat = forwardRef(function AguiChat(props, ref) {
  const options = {};
  const handlers = {};
  const own = {};
  for (const k of Object.keys(props)) {
    if (OPTIONS.includes(k)) options[k] = props[k];
    else if (k in EVENTS) handlers[k] = props[k];
    else own[k] = props[k];
  }
  const node = useRef(null);
  const latest = useRef(handlers);
  latest.current = handlers;
  const set = useRef({});
  // Before the browser paints, and before the element decides how to start (it reads its
  // properties a microtask after it is connected).
  useLayout(() => {
    const el = node.current;
    if (!el) return;
    for (const k of OPTIONS) {
      if (options[k] === set.current[k]) continue;
      // `title` and `lang` are HTMLElement's own (they reflect their attribute).
      if (options[k] === undefined && (k === 'title' || k === 'lang')) el.removeAttribute(k);
      else el[k] = options[k];
    }
    set.current = options;
  });
  useEffect(() => {
    const el = node.current;
    if (!el) return undefined;
    const off = Object.entries(EVENTS).map(([prop, name]) => {
      const f = (e) => latest.current[prop]?.(e);
      el.addEventListener(name, f);
      return () => el.removeEventListener(name, f);
    });
    return () => off.forEach((f) => f());
  }, []);
  own.ref = useCallback((el) => {
    if (el !== node.current) set.current = {};
    node.current = el;
    if (typeof ref == 'function') ref(el);
    else if (ref) ref.current = el;
  }, [ref]);
  return createElement('agui-chat', own);
});

export default AguiChat;
