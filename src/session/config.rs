//! Where runs go and how the chat talks: [`AgentConfig`], the fetch policy.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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
    /// Where the conversations are kept besides the browser: a site's store (`threads-url`,
    /// the page's `threads` hooks, [`Plugins::thread_store`](crate::plugins::Plugins)); the
    /// browser's storage is then its cache ([`super::sync`]).
    pub thread_store: Option<super::remote::ThreadStoreRef>,
    /// Extra request headers (auth).
    pub headers: Vec<(String, String)>,
    /// Headers the page computes before every request (a token that expires): asked again
    /// with `refresh` after a `401`/`403`, and the request retried once ([`HeaderSource`]).
    /// Its headers go over [`AgentConfig::headers`] of the same name.
    pub header_source: Option<HeaderSource>,
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
    /// The page's [`HeaderSource`] when it serves `endpoint`.
    pub fn header_source_for(&self, endpoint: &str) -> Option<HeaderSource> {
        self.header_source.clone().filter(|h| h.serves(endpoint))
    }

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
            thread_store: None,
            headers: Vec::new(),
            header_source: None,
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

/// What a [`HeaderSource`] is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct HeaderRequest {
    /// The last request was refused (`401`/`403`) with the headers given before: a new token
    /// is wanted, not a cached one.
    pub refresh: bool,
}

/// The headers a [`HeaderSource`] settles to, or why it could not.
pub type HeaderFuture = Pin<Box<dyn Future<Output = Result<Vec<(String, String)>, String>>>>;

/// How long a [`HeaderSource`] may take before its request fails (milliseconds).
pub const HEADER_SOURCE_TIMEOUT_MS: u32 = 10_000;

/// Headers computed by the page before every request it sends to its agent (and, later, its
/// thread store): an auth token that expires. Called with [`HeaderRequest::refresh`] after a
/// `401` or `403`, and the request is sent once more; one that does not settle within
/// [`HEADER_SOURCE_TIMEOUT_MS`] fails the request with its own message.
///
/// Only for the endpoint it was given for ([`HeaderSource::only_for`]): a visitor who points
/// the agent picker elsewhere gets none of it.
///
/// ```
/// use agui_leptos::session::{HeaderSource, HeaderRequest};
/// let source = HeaderSource::new(|ask: HeaderRequest| async move {
///     let token = if ask.refresh { "fresh" } else { "cached" };
///     Ok(vec![("Authorization".to_owned(), format!("Bearer {token}"))])
/// });
/// # let _ = source;
/// ```
#[derive(Clone)]
pub struct HeaderSource {
    /// One pointer: a request to run carries it (and stays small).
    inner: Arc<SourceInner>,
}

type GetHeaders = Arc<dyn Fn(HeaderRequest) -> HeaderFuture + Send + Sync>;

struct SourceInner {
    get: GetHeaders,
    endpoint: Option<String>,
}

impl HeaderSource {
    /// A source from an async closure.
    pub fn new<F, Fut>(get: F) -> Self
    where
        F: Fn(HeaderRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<(String, String)>, String>> + 'static,
    {
        let get: GetHeaders = Arc::new(move |ask| Box::pin(get(ask)) as HeaderFuture);
        HeaderSource {
            inner: Arc::new(SourceInner {
                get,
                endpoint: None,
            }),
        }
    }

    /// Asked only for requests to `endpoint` (as configured, compared as written).
    pub fn only_for(self, endpoint: impl Into<String>) -> Self {
        HeaderSource {
            inner: Arc::new(SourceInner {
                get: self.inner.get.clone(),
                endpoint: Some(endpoint.into()),
            }),
        }
    }

    /// Whether a request to `endpoint` gets this source's headers.
    pub fn serves(&self, endpoint: &str) -> bool {
        self.inner.endpoint.as_deref().is_none_or(|e| e == endpoint)
    }

    /// The headers, as the page computes them now.
    pub fn headers(&self, ask: HeaderRequest) -> HeaderFuture {
        (self.inner.get)(ask)
    }
}

impl PartialEq for HeaderSource {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner.get, &other.inner.get)
            && self.inner.endpoint == other.inner.endpoint
    }
}

impl fmt::Debug for HeaderSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeaderSource")
            .field("endpoint", &self.inner.endpoint)
            .finish_non_exhaustive()
    }
}

/// `fixed` with `computed` over it: a computed header replaces every fixed one of the same
/// name (names compared without case, as HTTP does).
pub fn merge_headers(
    fixed: &[(String, String)],
    computed: Vec<(String, String)>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fixed
        .iter()
        .filter(|(name, _)| !computed.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
        .cloned()
        .collect();
    out.extend(computed);
    out
}
