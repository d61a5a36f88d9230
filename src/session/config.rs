//! Where runs go and how the chat talks: [`AgentConfig`], the fetch policy.

use crate::i18n::{Locale, Strings};
use crate::protocol::front::Wire;
use crate::protocol::types::Tool;

use super::local::LocalAgentRef;

/// The local (demo) agent's playback speed when nothing says otherwise: its own timing (`0` is
/// instant, `4` four times faster).
pub const DEFAULT_DEMO_SPEED: f64 = 1.0;

/// Where runs go, and how the chat talks.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentConfig {
    /// An AG-UI endpoint URL (relative URLs work); `None` = the local agent.
    pub endpoint: Option<String>,
    /// The agent that answers in the page when there is no endpoint (the demo plug-in's);
    /// with neither, a run fails with [`RunFailure::NoAgent`](crate::view::failure::RunFailure::NoAgent).
    pub local_agent: Option<LocalAgentRef>,
    /// Extra request headers (auth).
    pub headers: Vec<(String, String)>,
    /// The only endpoints runs may go to (origins or URL prefixes; `None`: any). The
    /// transport checks every run against it, whoever set the endpoint.
    pub allowed_endpoints: Option<Vec<String>>,
    /// Local agent playback speed (1.0 = its own timing; larger is faster; 0 = instant).
    pub demo_speed: f64,
    /// Frontend tools advertised in `RunAgentInput.tools` (executed in the browser).
    pub tools: Vec<Tool>,
    /// Send resume answers also as `forwardedProps.command.resume` (older LangGraph/Mastra
    /// servers read only that).
    pub legacy_resume: bool,
    /// The UI language (the browser shell picks the browser's by default).
    pub locale: Locale,
    /// The UI strings in use when they are not simply the locale's compiled-in catalog: the
    /// catalog with the page's own texts over it, or — in the lean widget, where each catalog
    /// but English is a module of its own — the catalog once it is here. Set by the UI
    /// (`crate::ui::catalog`) for a language; read through [`AgentConfig::ui_strings`], which
    /// ignores it once `locale` has changed.
    pub strings: Option<(Locale, &'static Strings)>,
    /// The page set a direction (`dir`) on the element the chat is mounted in: the chat keeps
    /// it, and carries no `dir="rtl"` of its own in a right-to-left language. Set by the widget
    /// and `mount_with`, which look before they mount.
    pub page_dir: bool,
    /// How requests go out: credentials and redirects (the page's choice).
    pub fetch: FetchPolicy,
    /// A message sent while a run is live waits in a queue ([`queue`](super::queue)); off, Send waits.
    pub queue: bool,
    /// What the agent declares about itself, as the page passed it (spec digest §6; `None`:
    /// nothing declared — never assumed).
    pub capabilities: Option<crate::protocol::capabilities::Capabilities>,
    /// The protocol of the endpoint's requests ([`Wire`]); a response is read by its own
    /// header whatever this says, and once an AI SDK stream answers, the endpoint's next
    /// requests are in that shape.
    pub wire: Wire,
    /// The AI SDK's resumable streams: a run the page left in flight is asked for again
    /// after a reload (`GET {endpoint}/{chatId}/stream`, see [`Session::resume_stream`](super::Session::resume_stream)).
    pub resume: bool,
    /// Admit the protobuf binding in `Accept` (`transport="protobuf"`; spec digest §1.5); the
    /// response decides, SSE is always read.
    pub protobuf: bool,
    /// The page's `mcp-apps-proxy`: MCP Apps run in the site's sandbox proxy at this URL
    /// (`https://`, another origin than the page's; checked by `mcp_apps::proxy_origin` where
    /// a View is shown, a refused one shows a notice and no View). `None`: the opaque frame.
    /// Never from the page's URL.
    pub mcp_apps_proxy: Option<String>,
    /// Which delimiters make math in answers (`math`: `$$…$$`, `\[…\]`, `\(…\)` by default;
    /// single dollars only when the page opts in).
    pub math: crate::markdown::MathSyntax,
}

impl AgentConfig {
    /// The UI strings to show: [`AgentConfig::strings`] when they are the locale's, else the
    /// locale's catalog (English in the lean widget until that catalog's module is here).
    pub fn ui_strings(&self) -> &'static Strings {
        match self.strings {
            Some((locale, strings)) if locale == self.locale => strings,
            _ => self.locale.compiled().unwrap_or(&crate::i18n::EN),
        }
    }
}

/// Whether a request carries the browser's cookies and HTTP auth (fetch's `credentials`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Credentials {
    Omit,
    /// Only to the page's own origin (fetch's default, stated explicitly).
    #[default]
    SameOrigin,
    /// Also cross-origin (the agent must allow it with CORS).
    Include,
}

/// How the transport fetches. By default a redirect is refused, not followed: the page's
/// headers (auth) would go wherever the agent's server points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FetchPolicy {
    pub credentials: Credentials,
    /// Follow redirects (the page opted in with `redirects="follow"`).
    pub follow_redirects: bool,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            endpoint: None,
            local_agent: None,
            headers: Vec::new(),
            allowed_endpoints: None,
            demo_speed: DEFAULT_DEMO_SPEED,
            tools: Vec::new(),
            legacy_resume: false,
            locale: Locale::default(),
            strings: None,
            page_dir: false,
            fetch: FetchPolicy::default(),
            queue: true,
            capabilities: None,
            wire: Wire::AgUi,
            resume: false,
            protobuf: false,
            mcp_apps_proxy: None,
            math: crate::markdown::MathSyntax::default(),
        }
    }
}
