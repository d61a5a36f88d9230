// The sandbox proxy's relay (MCP Apps 2026-01-26, "Sandbox proxy"). Plain script, no
// dependencies. What it does:
//
//  1. Tells its parent (the chat, on HOST_ORIGIN only) `ui/notifications/sandbox-proxy-ready`.
//  2. Takes exactly one `ui/notifications/sandbox-resource-ready` from that parent: the View's
//     HTML (which the chat sends with its Content-Security-Policy <meta> first — anything else
//     is refused) goes into an inner iframe's srcdoc, with a sandbox of at most
//     `allow-scripts allow-same-origin allow-forms` and no `allow` (no camera, microphone,
//     geolocation or clipboard).
//  3. Relays every other message: from the parent (source === window.parent and origin ===
//     HOST_ORIGIN) to the inner frame, and from the inner frame (source === its window) to the
//     parent, posted to HOST_ORIGIN only. `ui/notifications/sandbox-*` messages are never
//     relayed; the proxy sends nothing of its own beyond step 1.
//
// Everything else (another window, another origin, a second resource) is dropped.
(function () {
  'use strict';
  var meta = document.querySelector('meta[name="mcp-host-origin"]');
  var HOST_ORIGIN = meta ? meta.getAttribute('content') : '';
  // An origin only ("https://host[:port]"), never "*".
  if (!/^https?:\/\/[^\/?#@\s]+$/.test(HOST_ORIGIN || '') || window.parent === window) {
    console.error('mcp-sandbox: set <meta name="mcp-host-origin"> to the chat page\'s origin');
    return;
  }
  var ALLOWED_SANDBOX = ['allow-scripts', 'allow-same-origin', 'allow-forms'];
  var DEFAULT_SANDBOX = 'allow-scripts allow-same-origin';
  var CSP_FIRST = '<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="';
  var RESERVED = 'ui/notifications/sandbox-';
  var inner = null;
  var innerTarget = '*';

  function isReserved(data) {
    return !!data && typeof data.method === 'string' && data.method.indexOf(RESERVED) === 0;
  }

  // The inner frame's sandbox: the host's override when every token is allowed, else ours.
  function sandboxOf(asked) {
    if (typeof asked !== 'string') return DEFAULT_SANDBOX;
    var tokens = asked.split(/\s+/).filter(Boolean);
    var ok = tokens.length > 0 && tokens.every(function (t) {
      return ALLOWED_SANDBOX.indexOf(t) >= 0;
    });
    return ok ? tokens.join(' ') : DEFAULT_SANDBOX;
  }

  function load(params) {
    if (inner || !params || typeof params.html !== 'string') return;
    if (params.html.indexOf(CSP_FIRST) !== 0) {
      console.error('mcp-sandbox: refused a resource without its policy first');
      return;
    }
    var sandbox = sandboxOf(params.sandbox);
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', sandbox);
    inner.setAttribute('referrerpolicy', 'no-referrer');
    inner.setAttribute('title', 'MCP App');
    // Same origin as this page with allow-same-origin (the View's origin is the sandbox's),
    // else opaque, which only "*" can reach. `window.origin` is this document's origin
    // (`location.origin` would be "null" should this page itself be a srcdoc).
    innerTarget = sandbox.split(' ').indexOf('allow-same-origin') >= 0 ? window.origin : '*';
    // srcdoc is set as a property: the HTML is never parsed into this document.
    inner.srcdoc = params.html;
    document.body.appendChild(inner);
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source === window.parent && event.origin === HOST_ORIGIN) {
      if (isReserved(data)) {
        if (data.method === 'ui/notifications/sandbox-resource-ready') load(data.params);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, innerTarget);
      return;
    }
    if (inner && event.source === inner.contentWindow) {
      if (!isReserved(data)) window.parent.postMessage(data, HOST_ORIGIN);
    }
    // Anything else: dropped.
  });

  window.parent.postMessage(
    { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
    HOST_ORIGIN
  );
})();
