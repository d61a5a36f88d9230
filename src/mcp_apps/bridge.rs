//! The host side of the View's JSON-RPC 2.0 channel, sans IO: messages in, [`Out`]s out
//! (MCP Apps 2026-01-26, "Communication Protocol", "MCP Apps Specific Messages",
//! "Lifecycle", "Sandbox proxy").

use serde_json::{json, Map, Value};

use super::activity::{AppActivity, PROTOCOL_VERSION};
use super::csp::{sandbox_resource_ready, CspPolicy, Origin};
use crate::markdown::SafeUrl;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;
/// The spec's "implementation-defined" error (a denied link, a busy host, a failed call).
const HOST_ERROR: i64 = -32000;
/// The id of the host's one request, `ui/resource-teardown`.
const TEARDOWN_ID: &str = "agui-teardown";
/// The longest string id echoed back.
const MAX_ID_LEN: usize = 256;
/// The longest tool name (MCP's 1–128 characters).
const MAX_TOOL_NAME: usize = 128;

/// Limits on what the frame controls. [`Budgets::default`] is generous for real Views.
#[derive(Debug, Clone, PartialEq)]
pub struct Budgets {
    /// Largest message (its JSON text, in bytes); a larger one stops the View.
    pub max_message_bytes: usize,
    /// Most messages in any one-second window; one more stops the View.
    pub max_messages_per_second: u32,
    /// How long the View (and in proxy mode the proxy) has to finish the handshake
    /// (`ui/notifications/initialized`) after the bridge was made.
    pub init_timeout_ms: f64,
    /// How long [`Bridge::teardown`] waits for the View's answer.
    pub teardown_timeout_ms: f64,
    /// Refused messages (malformed, invalid, unsupported, out of order) tolerated; one more
    /// stops the View.
    pub max_strikes: u32,
    /// `tools/call`s in flight at once; more are refused with an error (not a strike).
    pub max_pending_calls: usize,
    /// Largest frame width / height a `size-changed` can ask for, in CSS pixels.
    pub max_width: u32,
    pub max_height: u32,
    /// Longest `ui/message` text (bytes, after cleaning); a longer one is refused.
    pub max_ui_message_bytes: usize,
    /// Largest `ui/update-model-context` (its stored JSON text, bytes); a larger one is
    /// refused.
    pub max_model_context_bytes: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_message_bytes: 256 * 1024,
            max_messages_per_second: 60,
            init_timeout_ms: 10_000.0,
            teardown_timeout_ms: 3_000.0,
            max_strikes: 8,
            max_pending_calls: 4,
            max_width: 4096,
            max_height: 4000,
            max_ui_message_bytes: 4 * 1024,
            max_model_context_bytes: 16 * 1024,
        }
    }
}

/// `light` or `dark`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// One container dimension (`containerDimensions`): fixed by the host, up to a maximum set by
/// the View's `size-changed`, or unbounded (up to [`Budgets`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    Fixed(u32),
    Max(u32),
    Unbounded,
}

/// What the host tells the View about itself (`hostContext`; `displayMode` is always
/// `inline`, `platform` `web`).
#[derive(Debug, Clone, PartialEq)]
pub struct HostContext {
    pub theme: Theme,
    /// BCP 47, e.g. `en-US`.
    pub locale: String,
    /// IANA, e.g. `Europe/Berlin`.
    pub time_zone: Option<String>,
    pub width: Dim,
    pub height: Dim,
}

impl HostContext {
    fn to_json(&self) -> Value {
        let short = |s: &str| s.chars().take(64).collect::<String>();
        let mut dims = Map::new();
        for (d, fixed, max) in [
            (self.width, "width", "maxWidth"),
            (self.height, "height", "maxHeight"),
        ] {
            match d {
                Dim::Fixed(n) => dims.insert(fixed.into(), n.into()),
                Dim::Max(n) => dims.insert(max.into(), n.into()),
                Dim::Unbounded => None,
            };
        }
        let mut ctx = json!({
            "theme": match self.theme { Theme::Light => "light", Theme::Dark => "dark" },
            "locale": short(&self.locale),
            "displayMode": "inline",
            "availableDisplayModes": ["inline"],
            "platform": "web",
            "containerDimensions": dims,
        });
        if let (Some(tz), Some(obj)) = (&self.time_zone, ctx.as_object_mut()) {
            obj.insert("timeZone".into(), short(tz).into());
        }
        ctx
    }
}

/// A JSON-RPC request id from the View (a number, or a string of at most 256 bytes), echoed
/// back exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcId(Value);

impl RpcId {
    fn parse(v: &Value) -> Option<RpcId> {
        match v {
            Value::Number(_) => Some(RpcId(v.clone())),
            Value::String(s) if s.len() <= MAX_ID_LEN => Some(RpcId(v.clone())),
            _ => None,
        }
    }

    /// The id as the View sent it.
    pub fn value(&self) -> &Value {
        &self.0
    }
}

/// Something the bridge wants done. Every value is typed; nothing the frame sent becomes
/// host HTML.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    /// Post this JSON-RPC message to the frame, with target origin
    /// [`Bridge::target_origin`].
    Post(Value),
    /// Run the View's `tools/call` (e.g. as a run with [`AppActivity::call_request`]), then
    /// answer with [`Bridge::tool_result`] and this id.
    CallTool {
        id: RpcId,
        name: String,
        arguments: Value,
    },
    /// `ui/open-link`: offer this link (already checked by [`SafeUrl::parse_link`]) for the
    /// person to open in a new tab, `noopener`, or dismiss; then answer with
    /// [`Bridge::link_decided`]. At most one waits at a time.
    OpenLink(SafeUrl),
    /// `ui/message`: the View suggests the person send `text` (plain text, cleaned, at most
    /// [`Budgets::max_ui_message_bytes`]). Show it for the person to send with one click or
    /// dismiss — never send it unasked — then answer with [`Bridge::message_decided`]. At
    /// most one waits at a time.
    Message(String),
    /// `ui/update-model-context`: what the View wants the model to know from now on, as the
    /// JSON text of `{content?, structuredContent?}` (text blocks only, at most
    /// [`Budgets::max_model_context_bytes`]), replacing what it said before; `None` clears
    /// it. Forward it in the following runs' `context` (spec digest §3, `Context.value`).
    ModelContext(Option<String>),
    /// Size the frame (CSS pixels, clamped); `None` keeps that dimension.
    Resize {
        height: Option<u32>,
        width: Option<u32>,
    },
    /// The handshake finished: the View is running.
    Ready,
    /// Something the person may want to know; the View keeps running.
    Notice(Notice),
    /// Remove the frame; the bridge ignores everything from now on.
    Stop(StopReason),
}

/// See [`Out::Notice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// `ui/open-link` with a URL that is not http, https or mailto (answered with an error).
    LinkRefused,
    /// A malformed, invalid, unsupported or out-of-order message (a strike).
    ProtocolError,
}

/// Why the View was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// No finished handshake within [`Budgets::init_timeout_ms`].
    InitTimeout,
    /// More than [`Budgets::max_messages_per_second`].
    Flood,
    /// A message over [`Budgets::max_message_bytes`].
    Oversize,
    /// More than [`Budgets::max_strikes`] refused messages.
    Misbehaving,
    /// A message from the frame's window with another origin than expected (the proxy or
    /// the View navigated away).
    WrongOrigin,
    /// The teardown the host asked for is done (answered, or timed out).
    TornDown,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Waiting for `ui/initialize`.
    Loading,
    /// Answered `ui/initialize`; waiting for `ui/notifications/initialized`.
    Initializing,
    Running,
    TearingDown {
        since: f64,
    },
    Stopped,
}

#[derive(Debug)]
enum Mode {
    /// An opaque-origin `srcdoc` frame: messages come with origin `"null"`.
    Direct,
    /// A sandbox proxy on `origin`; `html` is held until it says it is ready.
    Proxy {
        origin: Origin,
        html: Option<String>,
    },
}

/// The host end of one View's channel. Feed it every message from the frame's own window
/// ([`Bridge::receive`]), the clock ([`Bridge::tick`]) and the answers to its
/// [`Out::CallTool`]s ([`Bridge::tool_result`]); carry out what it returns, in order.
#[derive(Debug)]
pub struct Bridge {
    mode: Mode,
    policy: CspPolicy,
    host: HostContext,
    budgets: Budgets,
    tools: bool,
    tool_input: Option<Value>,
    tool_result: Option<Value>,
    input_sent: bool,
    result_sent: bool,
    phase: Phase,
    created: f64,
    now: f64,
    window_start: f64,
    window_count: u32,
    strikes: u32,
    pending: Vec<RpcId>,
    /// The `ui/message` waiting for the person's decision.
    message: Option<RpcId>,
    /// The `ui/open-link` waiting for the person's click.
    link: Option<RpcId>,
}

impl Bridge {
    /// A bridge for a `srcdoc` frame made at `now_ms` (the caller builds the frame with
    /// [`super::srcdoc`] and the same `policy`). The View may call tools.
    pub fn new(now_ms: f64, activity: &AppActivity, policy: CspPolicy, host: HostContext) -> Self {
        let now = if now_ms.is_finite() { now_ms } else { 0.0 };
        Bridge {
            mode: Mode::Direct,
            policy,
            host,
            budgets: Budgets::default(),
            tools: true,
            tool_input: activity.tool_input.clone().map(Value::Object),
            tool_result: activity.tool_result.clone(),
            input_sent: false,
            result_sent: false,
            phase: Phase::Loading,
            created: now,
            now,
            window_start: now,
            window_count: 0,
            strikes: 0,
            pending: Vec::new(),
            message: None,
            link: None,
        }
    }

    /// A bridge for a sandbox proxy at `proxy` (from [`super::proxy_origin`]); `html` is the
    /// resource's, sent once the proxy is ready.
    pub fn proxied(
        now_ms: f64,
        activity: &AppActivity,
        policy: CspPolicy,
        host: HostContext,
        proxy: Origin,
        html: String,
    ) -> Self {
        let mut bridge = Self::new(now_ms, activity, policy, host);
        bridge.mode = Mode::Proxy {
            origin: proxy,
            html: Some(html),
        };
        bridge
    }

    /// Other budgets than [`Budgets::default`].
    pub fn with_budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// Refuse the View's `tools/call`s (and do not offer `serverTools`).
    pub fn without_tools(mut self) -> Self {
        self.tools = false;
        self
    }

    /// The target origin for posting [`Out::Post`] messages: `"*"` for the opaque frame
    /// (an opaque origin has no name), the proxy's origin in proxy mode.
    pub fn target_origin(&self) -> &str {
        match &self.mode {
            Mode::Direct => "*",
            Mode::Proxy { origin, .. } => origin.as_str(),
        }
    }

    /// Whether the bridge stopped (it then ignores everything).
    pub fn is_stopped(&self) -> bool {
        self.phase == Phase::Stopped
    }

    /// One `message` event. **The caller must first check `event.source` is the frame's
    /// own `contentWindow`** and drop everything else; `origin` is `event.origin`, `data`
    /// is `JSON.stringify(event.data)` (pass `""` when that fails: a parse error).
    pub fn receive(&mut self, now_ms: f64, origin: &str, data: &str) -> Vec<Out> {
        if self.is_stopped() {
            return Vec::new();
        }
        let now = self.clock(now_ms);
        let expected = match &self.mode {
            Mode::Direct => "null",
            Mode::Proxy { origin, .. } => origin.as_str(),
        };
        if origin != expected {
            return self.stop(StopReason::WrongOrigin);
        }
        if now - self.window_start >= 1000.0 {
            self.window_start = now;
            self.window_count = 0;
        }
        self.window_count = self.window_count.saturating_add(1);
        if self.window_count > self.budgets.max_messages_per_second {
            return self.stop(StopReason::Flood);
        }
        if data.len() > self.budgets.max_message_bytes {
            return self.stop(StopReason::Oversize);
        }
        let mut out = Vec::new();
        match serde_json::from_str::<Value>(data) {
            Ok(msg) => self.dispatch(&msg, &mut out),
            Err(_) => self.refuse(&mut out, Some(&Value::Null), PARSE_ERROR, "Parse error"),
        }
        out
    }

    /// The clock: stops a View that has not finished its handshake in time, and ends a
    /// teardown the View did not answer.
    pub fn tick(&mut self, now_ms: f64) -> Vec<Out> {
        let now = self.clock(now_ms);
        match self.phase {
            Phase::Loading | Phase::Initializing
                if now - self.created > self.budgets.init_timeout_ms =>
            {
                self.stop(StopReason::InitTimeout)
            }
            Phase::TearingDown { since } if now - since > self.budgets.teardown_timeout_ms => {
                self.stop(StopReason::TornDown)
            }
            _ => Vec::new(),
        }
    }

    /// The answer to the [`Out::CallTool`] with this `id`: the `CallToolResult` object, or
    /// the host's error text (shown to the View, so say nothing private). `None` when no
    /// such call is pending (answered already, or the bridge stopped).
    pub fn tool_result(&mut self, id: &RpcId, result: Result<Value, String>) -> Option<Out> {
        let at = self.pending.iter().position(|p| p == id)?;
        self.pending.swap_remove(at);
        Some(match result {
            Ok(v @ Value::Object(_)) => reply(id.value(), v),
            Ok(_) => error(id.value(), INTERNAL_ERROR, "Invalid tool result"),
            Err(msg) => error(
                id.value(),
                HOST_ERROR,
                &msg.chars().take(256).collect::<String>(),
            ),
        })
    }

    /// The person decided on the [`Out::Message`]: sent it (`true`: answered `{}`) or
    /// dismissed it (an error, "denied by user"). `None` when none waits (or the bridge
    /// stopped).
    pub fn message_decided(&mut self, sent: bool) -> Option<Out> {
        let id = self.message.take()?;
        Some(if sent {
            reply(id.value(), json!({}))
        } else {
            error(id.value(), HOST_ERROR, "Message sending denied by user")
        })
    }

    /// The [`Out::Message`] the person chose to send could not be sent (an interrupt is
    /// open, or the queue is off or full): an error, so the View knows nothing went. `None`
    /// when none waits (or the bridge stopped).
    pub fn message_refused(&mut self) -> Option<Out> {
        let id = self.message.take()?;
        Some(error(
            id.value(),
            HOST_ERROR,
            "Message sending denied: the chat cannot send it now",
        ))
    }

    /// The person decided on the [`Out::OpenLink`]: opened it (`true`: answered `{}`) or
    /// dismissed it (an error, "denied by user"). `None` when none waits (or the bridge
    /// stopped).
    pub fn link_decided(&mut self, opened: bool) -> Option<Out> {
        let id = self.link.take()?;
        Some(if opened {
            reply(id.value(), json!({}))
        } else {
            error(id.value(), HOST_ERROR, "Link opening denied by user")
        })
    }

    /// The activity changed (a replacing snapshot): send what is new. `tool-input` goes at
    /// most once (the spec's rule), `tool-result` whenever it changed.
    pub fn update(&mut self, activity: &AppActivity) -> Vec<Out> {
        if self.tool_input.is_none() {
            self.tool_input = activity.tool_input.clone().map(Value::Object);
        }
        if activity.tool_result.is_some() && activity.tool_result != self.tool_result {
            self.tool_result = activity.tool_result.clone();
            self.result_sent = false;
        }
        let mut out = Vec::new();
        if self.phase == Phase::Running {
            self.send_tool_data(&mut out);
        }
        out
    }

    /// The host's theme, locale or size changed: tell a running View
    /// (`ui/notifications/host-context-changed`).
    pub fn set_host_context(&mut self, host: HostContext) -> Vec<Out> {
        if host == self.host {
            return Vec::new();
        }
        self.host = host;
        if self.phase != Phase::Running {
            return Vec::new();
        }
        vec![notification(
            "ui/notifications/host-context-changed",
            self.host.to_json(),
        )]
    }

    /// Ask the View to wind down (`ui/resource-teardown`); [`Out::Stop`] with
    /// [`StopReason::TornDown`] follows when it answers or after
    /// [`Budgets::teardown_timeout_ms`] (immediately when it never initialized).
    pub fn teardown(&mut self, now_ms: f64, reason: &str) -> Vec<Out> {
        let now = self.clock(now_ms);
        match self.phase {
            Phase::Running => {
                self.phase = Phase::TearingDown { since: now };
                vec![Out::Post(json!({
                    "jsonrpc": "2.0",
                    "id": TEARDOWN_ID,
                    "method": "ui/resource-teardown",
                    "params": { "reason": reason.chars().take(256).collect::<String>() },
                }))]
            }
            Phase::TearingDown { .. } => Vec::new(),
            _ => self.stop(StopReason::TornDown),
        }
    }

    fn clock(&mut self, now_ms: f64) -> f64 {
        // Monotonic: a clock that jumps back or is not a number keeps the last time.
        if now_ms.is_finite() && now_ms > self.now {
            self.now = now_ms;
        }
        self.now
    }

    fn stop(&mut self, reason: StopReason) -> Vec<Out> {
        if self.is_stopped() {
            return Vec::new();
        }
        self.phase = Phase::Stopped;
        self.pending.clear();
        self.message = None;
        self.link = None;
        if let Mode::Proxy { html, .. } = &mut self.mode {
            *html = None;
        }
        vec![Out::Stop(reason)]
    }

    /// A strike: an error reply (when `id` is given; notifications get none), a notice, and
    /// a stop once the strikes run out.
    fn refuse(&mut self, out: &mut Vec<Out>, id: Option<&Value>, code: i64, message: &str) {
        if let Some(id) = id {
            out.push(error(id, code, message));
        }
        out.push(Out::Notice(Notice::ProtocolError));
        self.strikes = self.strikes.saturating_add(1);
        if self.strikes > self.budgets.max_strikes {
            out.extend(self.stop(StopReason::Misbehaving));
        }
    }

    fn dispatch(&mut self, msg: &Value, out: &mut Vec<Out>) {
        let null = Value::Null;
        let Some(obj) = msg.as_object() else {
            // Not an object (batches included: MCP has none).
            return self.refuse(out, Some(&null), INVALID_REQUEST, "Invalid request");
        };
        let id = match obj.get("id") {
            None => None,
            Some(v) => match RpcId::parse(v) {
                Some(id) => Some(id),
                None => return self.refuse(out, Some(&null), INVALID_REQUEST, "Invalid id"),
            },
        };
        let id_value = id.as_ref().map_or(Value::Null, |i| i.value().clone());
        if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return self.refuse(out, Some(&id_value), INVALID_REQUEST, "Invalid request");
        }
        let params = obj.get("params").unwrap_or(&null);
        match (obj.get("method"), id) {
            (Some(Value::String(method)), id) if self.proxy_waiting() => {
                if method == "ui/notifications/sandbox-proxy-ready" && id.is_none() {
                    self.proxy_ready(out);
                } else {
                    self.refuse(out, None, INVALID_REQUEST, "");
                }
            }
            (Some(Value::String(m)), _) if m.starts_with("ui/notifications/sandbox-") => {
                // Proxy-only messages: never from a View, never twice from a proxy.
                self.refuse(out, None, INVALID_REQUEST, "");
            }
            (Some(Value::String(method)), Some(id)) => self.request(id, method, params, out),
            (Some(Value::String(method)), None) => self.notification(method, params, out),
            (None, Some(id)) if obj.contains_key("result") || obj.contains_key("error") => {
                if matches!(self.phase, Phase::TearingDown { .. }) && id.value() == TEARDOWN_ID {
                    out.extend(self.stop(StopReason::TornDown));
                } else {
                    // An answer to nothing the host asked.
                    self.refuse(out, None, INVALID_REQUEST, "");
                }
            }
            _ => self.refuse(out, Some(&id_value), INVALID_REQUEST, "Invalid request"),
        }
    }

    fn proxy_waiting(&self) -> bool {
        matches!(&self.mode, Mode::Proxy { html: Some(_), .. })
    }

    fn proxy_ready(&mut self, out: &mut Vec<Out>) {
        if let Mode::Proxy { html, .. } = &mut self.mode {
            if let Some(html) = html.take() {
                out.push(Out::Post(sandbox_resource_ready(&html, &self.policy)));
            }
        }
    }

    fn request(&mut self, id: RpcId, method: &str, params: &Value, out: &mut Vec<Out>) {
        let id_value = id.value();
        if self.phase == Phase::Loading && !matches!(method, "ui/initialize" | "ping") {
            return self.refuse(out, Some(id_value), INVALID_REQUEST, "Not initialized");
        }
        match method {
            "ui/initialize" => {
                if self.phase == Phase::Loading {
                    self.phase = Phase::Initializing;
                }
                out.push(reply(id_value, self.initialize_result()));
            }
            "ping" => out.push(reply(id_value, json!({}))),
            // Only `inline` is offered (`availableDisplayModes`): the answer is the mode the
            // View is in, whatever it asked for (the spec's rule).
            "ui/request-display-mode" => match params.get("mode").and_then(Value::as_str) {
                Some("inline" | "fullscreen" | "pip") => {
                    out.push(reply(id_value, json!({ "mode": "inline" })))
                }
                _ => self.refuse(out, Some(id_value), INVALID_PARAMS, "Invalid params"),
            },
            "ui/message" => self.message(id, params, out),
            "ui/update-model-context" => self.model_context(id_value, params, out),
            "ui/open-link" => {
                match params
                    .get("url")
                    .and_then(Value::as_str)
                    .and_then(SafeUrl::parse_link)
                {
                    // Answered when the person clicks it or dismisses it; the one shown
                    // stays as they see it (no swapping it under a click).
                    Some(_) if self.link.is_some() => {
                        out.push(error(id_value, HOST_ERROR, "A link is already waiting"))
                    }
                    Some(url) => {
                        self.link = Some(id);
                        out.push(Out::OpenLink(url));
                    }
                    None => {
                        out.push(error(id_value, HOST_ERROR, "Invalid URL"));
                        out.push(Out::Notice(Notice::LinkRefused));
                    }
                }
            }
            "tools/call" if self.tools => self.call_tool(id, params, out),
            _ => self.refuse(out, Some(id_value), METHOD_NOT_FOUND, "Method not found"),
        }
    }

    fn call_tool(&mut self, id: RpcId, params: &Value, out: &mut Vec<Out>) {
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| is_tool_name(n));
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => Some(json!({})),
            Some(a @ Value::Object(_)) => Some(a.clone()),
            Some(_) => None,
        };
        let (Some(name), Some(arguments)) = (name, arguments) else {
            return self.refuse(out, Some(id.value()), INVALID_PARAMS, "Invalid params");
        };
        if self.pending.contains(&id) {
            return self.refuse(out, Some(id.value()), INVALID_REQUEST, "Duplicate id");
        }
        if self.pending.len() >= self.budgets.max_pending_calls {
            out.push(error(
                id.value(),
                HOST_ERROR,
                "Too many tool calls in flight",
            ));
            return;
        }
        self.pending.push(id.clone());
        out.push(Out::CallTool {
            id,
            name: name.to_string(),
            arguments,
        });
    }

    fn message(&mut self, id: RpcId, params: &Value, out: &mut Vec<Out>) {
        let role_ok = params.get("role").and_then(Value::as_str) == Some("user");
        let text = match params.get("content") {
            // The stable spec's example has one block, the SDK's schema a list.
            Some(block @ Value::Object(_)) => text_blocks(std::slice::from_ref(block)),
            Some(Value::Array(blocks)) => text_blocks(blocks),
            _ => None,
        }
        .map(|texts| clean_text(&texts.join("\n\n")))
        .filter(|t| !t.is_empty());
        let (true, Some(text)) = (role_ok, text) else {
            return self.refuse(
                out,
                Some(id.value()),
                INVALID_PARAMS,
                "Invalid message format",
            );
        };
        if text.len() > self.budgets.max_ui_message_bytes {
            return out.push(error(id.value(), HOST_ERROR, "Message too long"));
        }
        if self.message.is_some() {
            // The waiting one stays as the person sees it (no swapping it under a click).
            return out.push(error(
                id.value(),
                HOST_ERROR,
                "A message is already waiting",
            ));
        }
        self.message = Some(id);
        out.push(Out::Message(text));
    }

    fn model_context(&mut self, id: &Value, params: &Value, out: &mut Vec<Out>) {
        let mut ctx = Map::new();
        let content = match params.get("content") {
            None | Some(Value::Null) => Some(None),
            Some(Value::Array(blocks)) => text_blocks(blocks).map(|texts| {
                let blocks: Vec<Value> = texts
                    .iter()
                    .map(|t| json!({ "type": "text", "text": t }))
                    .collect();
                (!blocks.is_empty()).then_some(blocks)
            }),
            Some(_) => None,
        };
        let structured = match params.get("structuredContent") {
            None | Some(Value::Null) => Some(None),
            Some(v @ Value::Object(_)) => Some(Some(v.clone())),
            Some(_) => None,
        };
        let (Some(content), Some(structured), true) =
            (content, structured, params.is_object() || params.is_null())
        else {
            return self.refuse(out, Some(id), INVALID_PARAMS, "Invalid content format");
        };
        if let Some(c) = content {
            ctx.insert("content".into(), Value::Array(c));
        }
        if let Some(s) = structured {
            ctx.insert("structuredContent".into(), s);
        }
        let text = (!ctx.is_empty()).then(|| Value::Object(ctx).to_string());
        if text
            .as_ref()
            .is_some_and(|t| t.len() > self.budgets.max_model_context_bytes)
        {
            return out.push(error(id, HOST_ERROR, "Context too large"));
        }
        out.push(Out::ModelContext(text));
        out.push(reply(id, json!({})));
    }

    fn notification(&mut self, method: &str, params: &Value, out: &mut Vec<Out>) {
        match method {
            "ui/notifications/initialized" => match self.phase {
                Phase::Initializing => {
                    self.phase = Phase::Running;
                    out.push(Out::Ready);
                    self.send_tool_data(out);
                }
                Phase::Loading => self.refuse(out, None, INVALID_REQUEST, ""),
                _ => {}
            },
            "ui/notifications/size-changed" => {
                let height = clamp(
                    params.get("height"),
                    self.host.height,
                    self.budgets.max_height,
                );
                let width = clamp(params.get("width"), self.host.width, self.budgets.max_width);
                if height.is_some() || width.is_some() {
                    out.push(Out::Resize { height, width });
                }
            }
            // Logs, cancellations and notifications of later spec versions: nothing to do.
            _ => {}
        }
    }

    fn send_tool_data(&mut self, out: &mut Vec<Out>) {
        if let (false, Some(args)) = (self.input_sent, &self.tool_input) {
            self.input_sent = true;
            out.push(notification(
                "ui/notifications/tool-input",
                json!({ "arguments": args }),
            ));
        }
        // The spec wants the input before the result.
        if let (true, false, Some(result)) = (self.input_sent, self.result_sent, &self.tool_result)
        {
            self.result_sent = true;
            out.push(notification("ui/notifications/tool-result", result.clone()));
        }
    }

    fn initialize_result(&self) -> Value {
        let mut caps = json!({
            "openLinks": {},
            "logging": {},
            "message": { "text": {} },
            "updateModelContext": { "text": {}, "structuredContent": {} },
            "sandbox": { "csp": self.policy.to_json() },
        });
        if let (true, Some(obj)) = (self.tools, caps.as_object_mut()) {
            obj.insert("serverTools".into(), json!({}));
        }
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "hostInfo": { "name": "agui-leptos", "version": env!("CARGO_PKG_VERSION") },
            "hostCapabilities": caps,
            "hostContext": self.host.to_json(),
        })
    }
}

/// A requested size in CSS pixels: a finite, non-negative number, rounded, at most the
/// container's maximum and the budget; `None` when the host fixed that dimension or the
/// value is not a usable number.
fn clamp(v: Option<&Value>, dim: Dim, budget: u32) -> Option<u32> {
    let n = v?.as_f64().filter(|n| n.is_finite() && *n >= 0.0)?;
    let max = match dim {
        Dim::Fixed(_) => return None,
        Dim::Max(m) => m.min(budget),
        Dim::Unbounded => budget,
    };
    // In range of u32 after the min, so the cast is exact.
    Some(n.round().min(f64::from(max)) as u32)
}

/// The texts of content blocks that are all `{type: "text", text}`; `None` when any is
/// another kind (only text is offered: `hostCapabilities.message.text`).
fn text_blocks(blocks: &[Value]) -> Option<Vec<&str>> {
    blocks
        .iter()
        .map(
            |b| match (b.get("type").and_then(Value::as_str), b.get("text")) {
                (Some("text"), Some(Value::String(t))) => Some(t.as_str()),
                _ => None,
            },
        )
        .collect()
}

/// Plain text for the person to read: no control characters but newlines and tabs, no
/// bidirectional overrides or isolates (which could make it read otherwise than it sends),
/// trimmed.
fn clean_text(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .filter(|c| !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'))
        .collect::<String>()
        .trim()
        .to_string()
}

/// MCP tool names: 1–128 of `A-Z a-z 0-9 _ - . /`.
fn is_tool_name(n: &str) -> bool {
    (1..=MAX_TOOL_NAME).contains(&n.len())
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/'))
}

fn reply(id: &Value, result: Value) -> Out {
    Out::Post(json!({ "jsonrpc": "2.0", "id": id, "result": result }))
}

fn error(id: &Value, code: i64, message: &str) -> Out {
    Out::Post(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    }))
}

fn notification(method: &str, params: Value) -> Out {
    Out::Post(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
}
