//! MCP Apps carried in AG-UI `mcp-apps` activities: the pure part (no browser code; the
//! iframe component feeds [`Bridge`] the frame's messages and carries out its [`Out`]s).
//!
//! # What this implements
//!
//! * **MCP Apps, SEP-1865, stable 2026-01-26** (`modelcontextprotocol/ext-apps`,
//!   `specification/2026-01-26/apps.mdx`). A tool's UI is a `ui://` resource of MIME type
//!   `text/html;profile=mcp-app` whose HTML (`text`, or base64 `blob`) runs in a sandboxed
//!   iframe and talks JSON-RPC 2.0 over `postMessage`: the View sends `ui/initialize`
//!   (answered with `protocolVersion`, `hostInfo`, `hostCapabilities`, `hostContext`), then
//!   `ui/notifications/initialized`; only then may the host send `ui/notifications/tool-input`
//!   (`{arguments}`) and `ui/notifications/tool-result` (a `CallToolResult`). The View may
//!   send `tools/call`, `ui/open-link`, `ui/message` (a text the person sends or dismisses:
//!   [`Out::Message`]), `ui/update-model-context` (context for the following runs:
//!   [`Out::ModelContext`]), `ui/request-display-mode` (always `inline`), `ping`,
//!   `notifications/message` and `ui/notifications/size-changed`; anything else is
//!   `-32601`. The host ends with `ui/resource-teardown`. Web hosts may go through a *sandbox proxy* on another origin:
//!   it sends `ui/notifications/sandbox-proxy-ready`, the host answers with
//!   `ui/notifications/sandbox-resource-ready` (`{html, csp?, sandbox?, permissions?}`),
//!   and everything else is relayed both ways.
//! * **The AG-UI binding** — `@ag-ui/mcp-apps-middleware` (`ag-ui-protocol/ag-ui`,
//!   `middlewares/mcp-apps-middleware/src/index.ts`, `README.md`): after running a UI tool
//!   the middleware emits an `ACTIVITY_SNAPSHOT` (spec digest §4.8) with `activityType:
//!   "mcp-apps"` ([`ACTIVITY_TYPE`]) and `content: {result, resourceUri, serverHash,
//!   serverId?, toolInput}` — *no HTML*. The client fetches the resource, and runs the
//!   View's `tools/call`s, through a new run whose `forwardedProps` carry
//!   `{"__proxiedMCPRequest": {serverId?, serverHash?, method, params}}`; the middleware
//!   answers that run without calling the agent, with the MCP result as `RUN_FINISHED.result`
//!   (or `{error}`); it allows only `tools/call`, `resources/read`, `notifications/message`,
//!   `ping`, and checks the tool's `app` visibility itself. [`AppActivity::read_request`],
//!   [`AppActivity::call_request`] and [`proxied_result`] build and read those. Older
//!   renderers (CopilotKit's) carried the resource inline as `content.resource: {uri,
//!   mimeType, text | blob}`; [`AppActivity::parse`] reads both shapes.
//!
//! # The frame (direct mode)
//!
//! The HTML goes into an opaque-origin frame, set through the DOM (never spliced into host
//! HTML):
//!
//! ```text
//! <iframe sandbox="allow-scripts" srcdoc="…srcdoc(html, &policy)…">   (no `allow` attribute)
//! ```
//!
//! [`SANDBOX`] is `allow-scripts` and nothing else: no `allow-same-origin` (the frame gets an
//! opaque origin, so no cookies, storage or host DOM), no forms, popups, modals, top
//! navigation or downloads. [`ALLOW`] is empty: no camera, microphone, geolocation or
//! clipboard, whatever `_meta.ui.permissions` asks for. [`srcdoc`] puts this policy first in
//! the document (`R` = the declared `resourceDomains`, `C` = the declared `connectDomains`,
//! both only after [`CspPolicy::new`] validated them; `connect-src 'none'` when `C` is empty):
//!
//! ```text
//! default-src 'none'; script-src 'self' 'unsafe-inline' R; style-src 'self' 'unsafe-inline' R;
//! img-src 'self' data: R; font-src 'self' R; media-src 'self' data: R; connect-src C;
//! frame-src 'none'; object-src 'none'; base-uri 'self'
//! ```
//!
//! That is the spec's restrictive default (`default-src 'none'; script-src 'self'
//! 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'
//! data:; connect-src 'none'`) plus its construction rules for declared domains, with
//! `frameDomains` and `baseUriDomains` not honoured (the spec lets a host restrict further).
//! A `srcdoc` document also inherits the host page's own CSP.
//!
//! The component must check `event.source` is the frame's own `contentWindow` before
//! handing a message to [`Bridge::receive`] (with `event.origin`, which is `"null"` for the
//! opaque frame), and post replies with target origin [`Bridge::target_origin`] (`"*"` for
//! the opaque frame: an opaque origin cannot be named).
//!
//! Known limits of any sandboxed frame: the View can navigate *itself* (a link, `<meta
//! http-equiv=refresh>`, `location=`) to any URL, which CSP cannot stop and which can carry
//! data out in the URL (and later `"*"` posts then reach whatever document the frame holds,
//! still sandboxed and opaque); it can burn CPU. The bridge stops it on protocol misbehaviour only.
//!
//! # Budgets (the agent or the frame controls all of these)
//!
//! [`MAX_HTML_BYTES`] of HTML, [`MAX_DOMAINS`] per CSP list of at most [`MAX_DOMAIN_LEN`]
//! bytes each, [`MAX_URI_LEN`] for the `ui://` URI and [`MAX_ID_LEN`] for server ids; the
//! [`Budgets`] of a [`Bridge`] (message size and rate, init timeout, strikes, calls in flight,
//! frame size).

mod activity;
mod bridge;
mod csp;

pub use activity::{
    proxied_result, AppActivity, AppResource, DeclaredCsp, McpAppsError, ACTIVITY_TYPE, ALLOW,
    MAX_DOMAINS, MAX_DOMAIN_LEN, MAX_HTML_BYTES, MAX_ID_LEN, MAX_URI_LEN, MIME_TYPE,
    PROTOCOL_VERSION, PROXY_SANDBOX, SANDBOX,
};
pub use bridge::{Bridge, Budgets, Dim, HostContext, Notice, Out, RpcId, StopReason, Theme};
pub use csp::{proxy_origin, sandbox_resource_ready, srcdoc, CspPolicy, Origin};
