//! How an embedded widget is configured (pure: parsed from attributes or a JS options object,
//! tested natively). The browser side — custom element, shadow root, JS API, DOM events — is
//! `widget` (wasm only).
//!
//! Every option — its attribute, its `data-agui-*` form, its JS key, type, default and
//! description — is one row of [`OPTION_TABLE`] (`embed/table.rs`), which the element manifest,
//! the TypeScript declarations and the docs are generated from.
//!
//! Where data goes is the page author's choice, never a link's (spec digest §1's client is the
//! page's): the URL is read only with `url-options`, never for headers, mode, storage, the
//! allow-list or the MCP Apps proxy; an endpoint from the URL is sent no headers from the page; an endpoint must be
//! http(s) (or relative), and the transport refuses one outside `allowed-endpoints`.

use serde_json::Value;

use crate::i18n::{fill, Locale, Strings};
use crate::session::{Credentials, FetchPolicy};

mod elements;
mod quoted;
mod table;
pub use elements::{code_renderer_entries, fence_key, valid_element_name, MAX_CODE_RENDERERS};
use quoted::quoted;
pub use table::{EventSpec, OptionSpec, Reader, EVENTS, OPTIONS, OPTION_TABLE};

/// Where conversations are saved in `localStorage` unless a thread key says otherwise.
pub const DEFAULT_STORAGE_PREFIX: &str = "agui-leptos:v1";

/// How the widget sits in the host page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Fills the host element (give it a height).
    #[default]
    Inline,
    /// A floating launcher button that opens the chat in a panel.
    Popup,
    /// A panel docked to the inline-end edge of the viewport, collapsible to a tab.
    Sidebar,
    /// The whole page (the app's own `index.html`).
    Page,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Inline => "inline",
            Mode::Popup => "popup",
            Mode::Sidebar => "sidebar",
            Mode::Page => "page",
        }
    }

    fn parse(s: &str) -> Option<Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "inline" => Some(Mode::Inline),
            "popup" | "launcher" | "floating" => Some(Mode::Popup),
            "sidebar" => Some(Mode::Sidebar),
            "page" => Some(Mode::Page),
            _ => None,
        }
    }

    /// Whether the chat can be closed to a launcher (popup, sidebar).
    pub fn collapsible(self) -> bool {
        matches!(self, Mode::Popup | Mode::Sidebar)
    }
}

/// Light, dark or following the system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    /// The `data-theme` value, `None` for auto.
    pub fn attr(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }

    fn parse(s: &str) -> Option<Theme> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "auto" | "system" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// Where a widget keeps its conversations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Persist {
    /// The origin's `localStorage` (survives the browser).
    #[default]
    Local,
    /// The tab's `sessionStorage` (survives reloads, not the tab).
    Session,
    /// Nothing is stored: the conversations last as long as the page.
    None,
}

impl Persist {
    fn parse(s: &str) -> Option<Persist> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "local" | "true" => Some(Persist::Local),
            "session" => Some(Persist::Session),
            "none" | "memory" | "false" | "off" => Some(Persist::None),
            _ => None,
        }
    }
}

/// A widget's configuration.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WidgetOptions {
    pub endpoint: Option<String>,
    /// The `protocol` attribute: the shape of the endpoint's requests.
    pub wire: crate::protocol::Wire,
    /// The `resume` attribute (AI SDK resumable streams).
    pub resume: bool,
    /// `transport="protobuf"`.
    pub protobuf: bool,
    pub headers: Vec<(String, String)>,
    pub mode: Mode,
    pub theme: Theme,
    pub inspector: bool,
    pub thread_key: Option<String>,
    pub persist: Persist,
    /// Bytes of conversations the widget may keep in storage (`None`: the default).
    pub storage_budget: Option<usize>,
    pub lang: Option<String>,
    /// Popup/sidebar start open; `None` = the mode's default ([`WidgetOptions::starts_open`]).
    pub open: Option<bool>,
    pub title: Option<String>,
    pub speed: Option<f64>,
    /// The `demo` attribute: the demo's plug-ins even with an endpoint (the app's page).
    pub demo: bool,
    /// The `settings` attribute: show the agent picker (endpoint, headers) outside page mode.
    pub settings: bool,
    /// The `commands` attribute (a JSON array; see [`crate::view::commands`]).
    pub commands: Vec<crate::view::commands::Command>,
    /// The `suggestions` attribute (a JSON array; see [`crate::view::suggestions`]).
    pub suggestions: Vec<crate::view::suggestions::Suggestion>,
    /// The `credentials` and `redirects` attributes.
    pub fetch: FetchPolicy,
    /// The `allowed-endpoints` attribute: origins or URL prefixes runs may go to (`None`: any).
    pub allowed_endpoints: Option<Vec<String>>,
    /// The `mcp-apps-proxy` attribute: the sandbox proxy's URL, as given (checked where it is
    /// used, against the page's origin: [`AgentConfig::mcp_apps_proxy`](crate::session::AgentConfig)).
    pub mcp_apps_proxy: Option<String>,
    /// The `threads-url` attribute: the site's thread store (REST), as given (checked like
    /// the endpoint when mounted and before every call).
    pub threads_url: Option<String>,
    /// `queue="off"`: no queue while a run is live ([`crate::session::queue`]).
    pub queue_off: bool,
    /// `math`: which delimiters make math.
    pub math: crate::markdown::MathSyntax,
    /// `accept`, `max-file-bytes`, `max-message-bytes`, `max-files` (`None`: none given, the
    /// defaults).
    pub attach_limits: Option<crate::view::attachments::Limits>,
    /// `attachments="off"`.
    pub attachments_off: bool,
    /// `voice`: dictation in the composer ([`crate::view::voice::Voice`]).
    pub voice: crate::view::voice::Voice,
    /// The `strings` attribute: the page's own UI texts, (key, text) as given (checked by
    /// [`crate::i18n::overrides::Overrides::check`] where they are applied).
    pub strings: Vec<(String, String)>,
    /// The `capabilities` attribute (spec digest §6).
    pub capabilities: Option<crate::protocol::capabilities::Capabilities>,
    /// Move the keyboard into the composer once mounted (the visitor opened a popup before
    /// the chat had loaded). Set by the loader, not an attribute.
    pub focus: bool,
}

/// What a page's URL may set, with `url-options`: never headers, the mode, where
/// conversations are saved, the allow-list, the MCP Apps proxy or the URL options themselves.
pub const URL_OPTIONS: &[&str] = &["endpoint", "theme", "lang", "speed", "inspector"];

/// The `<agui-chat>` attributes a change of which reconfigures a mounted widget.
pub fn observed_attributes() -> Vec<&'static str> {
    OPTIONS
        .iter()
        .filter(|(_, _, reader)| *reader == Reader::Chat)
        .map(|(attr, _, _)| *attr)
        .collect()
}

/// A boolean attribute: present and not `false`/`0`/`no`/`off`.
fn flag(value: &str) -> bool {
    !matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "false" | "0" | "no" | "off"
    )
}

/// How the JSON attributes (`headers`, `capabilities`, `suggestions`, `strings`,
/// `allowed-endpoints`) are read: [`json_text`] (serde_json's parser), or what the caller has —
/// the widget passes the browser's `JSON.parse`, so the lean widget's main module has no JSON
/// parser of its own. An error is the reader's message.
pub type ReadJson = fn(&str) -> Result<Value, String>;

/// serde_json's reading of a JSON text, its message on error (the default [`ReadJson`]).
pub fn json_text(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The `strings` attribute: a JSON object of texts by key, into `out`; a text that is not a
/// string, or a value that is not an object, is a problem. (Which keys exist and what their
/// texts may be is checked where they are applied: the lean widget's main module holds no
/// key names.)
fn strings_using(
    text: &str,
    json: ReadJson,
    out: &mut Vec<(String, String)>,
    problems: &mut Vec<String>,
) {
    let Ok(Value::Object(map)) = json(text) else {
        problems.push("strings: not a JSON object of texts by key".to_owned());
        return;
    };
    for (key, value) in map {
        match value {
            Value::String(text) => out.push((key, text)),
            _ => problems.push(format!(
                "strings: the value of {} is not a text; ignored",
                quoted(&key.chars().take(80).collect::<String>())
            )),
        }
    }
}

impl WidgetOptions {
    /// Parses options from a lookup by attribute name (`endpoint`, `thread-key`…; see
    /// [`OPTIONS`]). Problems (a bad `headers` JSON, an unknown mode) do not stop the widget:
    /// the option falls back to its default and the problem is returned, to be shown.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (WidgetOptions, Vec<String>) {
        Self::parse_using(get, json_text)
    }

    /// [`WidgetOptions::parse`], its JSON attributes read by `json`.
    pub fn parse_using(
        get: impl Fn(&str) -> Option<String>,
        json: ReadJson,
    ) -> (WidgetOptions, Vec<String>) {
        // One copy of the parser, whatever reads the options (attributes, a JS object, the
        // URL): the lean widget has two callers.
        Self::parse_dyn(&get, json)
    }

    fn parse_dyn(
        get: &dyn Fn(&str) -> Option<String>,
        json: ReadJson,
    ) -> (WidgetOptions, Vec<String>) {
        let mut o = WidgetOptions::default();
        let mut problems = Vec::new();
        let text = |name: &str| {
            get(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        o.endpoint = text("endpoint");
        if let Some(p) = text("protocol") {
            match crate::protocol::Wire::parse(&p) {
                Some(w) if !w.available() => problems.push(format!(
                    "protocol: {p} is not in this bundle (built with scripts/build-widget.sh no-ai-sdk); AG-UI is used"
                )),
                Some(w) => o.wire = w,
                None => problems.push(format!("protocol: unknown value {} (ag-ui, ai-sdk)", quoted(&p))),
            }
        }
        if let Some(h) = text("headers") {
            match parse_headers_using(&h, json) {
                Ok(h) => o.headers = h,
                Err(e) => problems.push(format!("headers: {}", e.message(&crate::i18n::EN))),
            }
        }
        if let Some(m) = get("mode") {
            match Mode::parse(&m) {
                Some(m) => o.mode = m,
                None => problems.push(format!(
                    "mode: unknown value {} (inline, popup, sidebar, page)",
                    quoted(&m)
                )),
            }
        }
        if let Some(t) = get("theme") {
            match Theme::parse(&t) {
                Some(t) => o.theme = t,
                None => problems.push(format!(
                    "theme: unknown value {} (auto, light, dark)",
                    quoted(&t)
                )),
            }
        }
        o.inspector = get("inspector").is_some_and(|v| flag(&v));
        o.resume = get("resume").is_some_and(|v| flag(&v));
        if let Some(t) = text("transport") {
            match t.to_ascii_lowercase().as_str() {
                "sse" => {}
                "protobuf" | "proto" if cfg!(feature = "protobuf") => o.protobuf = true,
                "protobuf" | "proto" => problems.push(
                    "transport: protobuf is not in this bundle (built with scripts/build-widget.sh no-protobuf); SSE is used".into(),
                ),
                _ => problems.push(format!("transport: unknown value {} (sse, protobuf)", quoted(&t))),
            }
        }
        o.open = get("open").map(|v| flag(&v));
        o.thread_key = text("thread-key");
        if let Some(p) = get("persist") {
            match Persist::parse(&p) {
                Some(p) => o.persist = p,
                None => problems.push(format!(
                    "persist: unknown value {} (local, session, none)",
                    quoted(&p)
                )),
            }
        }
        if let Some(b) = text("storage-budget") {
            match b.replace(['_', ','], "").parse::<usize>() {
                Ok(n) if n > 0 => o.storage_budget = Some(n),
                _ => problems.push(format!(
                    "storage-budget: not a positive number of bytes: {}",
                    quoted(&b)
                )),
            }
        }
        o.lang = text("lang");
        if let Some(l) = o.lang.as_deref().filter(|l| Locale::from_tag(l).is_none()) {
            problems.push(format!(
                "lang: {} is not one of the chat's languages ({}); the browser's language is used",
                quoted(l),
                Locale::ALL
                    .iter()
                    .map(|l| l.tag())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        o.title = text("title");
        o.demo = get("demo").is_some_and(|v| flag(&v));
        o.settings = get("settings").is_some_and(|v| flag(&v));
        o.allowed_endpoints = get("allowed-endpoints").map(|v| endpoint_list_using(&v, json));
        o.mcp_apps_proxy = text("mcp-apps-proxy");
        o.threads_url = text("threads-url");
        o.queue_off = get("queue").is_some_and(|v| !flag(&v));
        if let Some(m) = get("math") {
            match crate::markdown::MathSyntax::parse(&m) {
                Some(m) => o.math = m,
                None => problems.push(format!(
                    "math: unknown value {} (on, dollars, off)",
                    quoted(&m)
                )),
            }
        }
        o.attachments_off = get("attachments").is_some_and(|v| !flag(&v));
        if let Some(v) = get("voice") {
            match crate::view::voice::Voice::parse(&v) {
                Some(v) => o.voice = v,
                None => problems.push(format!(
                    "voice: unknown value {} (off, transcribe, browser)",
                    quoted(&v)
                )),
            }
        }
        if let Some(c) = text("capabilities") {
            let parsed = json(&c)
                .map_err(|_| "capabilities: not JSON".to_owned())
                .and_then(|v| {
                    crate::protocol::capabilities::Capabilities::parse(&v)
                        .map_err(|e| format!("{e} (the declaration is ignored)"))
                });
            match parsed {
                Ok(c) => o.capabilities = Some(c),
                Err(e) => problems.push(e),
            }
        }
        let limits = ["accept", "max-file-bytes", "max-message-bytes", "max-files"].map(&text);
        if limits.iter().any(Option::is_some) {
            use crate::view::attachments::{parse_bytes, parse_count, Limits};
            let [accept, file, message, files] = &limits;
            let bad = |name: &str, v: &Option<String>, ok: bool| {
                v.as_ref()
                    .filter(|_| !ok)
                    .map(|v| format!("{name}: not usable: {}", quoted(v)))
            };
            problems.extend(
                [
                    bad(
                        "accept",
                        accept,
                        accept.as_deref().and_then(Limits::parse_accept).is_some(),
                    ),
                    bad(
                        "max-file-bytes",
                        file,
                        file.as_deref().and_then(parse_bytes).is_some(),
                    ),
                    bad(
                        "max-message-bytes",
                        message,
                        message.as_deref().and_then(parse_bytes).is_some(),
                    ),
                    bad(
                        "max-files",
                        files,
                        files.as_deref().and_then(parse_count).is_some(),
                    ),
                ]
                .into_iter()
                .flatten(),
            );
            o.attach_limits = Some(Limits::from_attributes(
                accept.as_deref(),
                file.as_deref(),
                message.as_deref(),
                files.as_deref(),
            ));
        }
        if let Some(list) = text("commands") {
            let (commands, skipped) = json(&list)
                .map(|v| crate::view::commands::from_value(&v))
                .unwrap_or((Vec::new(), 1));
            o.commands = commands;
            if skipped > 0 {
                problems.push(format!(
                    "commands: {skipped} entries skipped (each needs a name without spaces and a prompt; at most 100)"
                ));
            }
        }
        if let Some(list) = text("suggestions") {
            let parsed = json(&list);
            let entries = parsed.as_ref().ok().and_then(Value::as_array).map(Vec::len);
            if let (Ok(v), Some(_)) = (&parsed, entries) {
                o.suggestions = crate::view::suggestions::from_value(v);
            }
            let kept = o.suggestions.len();
            if entries.is_none_or(|n| kept < n.min(crate::view::suggestions::MAX_SUGGESTIONS)) {
                problems.push(
                    "suggestions: not a JSON array of strings or {title, description}".to_owned(),
                );
            }
        }
        if let Some(t) = text("strings") {
            strings_using(&t, json, &mut o.strings, &mut problems);
        }
        if let Some(c) = get("credentials") {
            match c.trim().to_ascii_lowercase().as_str() {
                "" | "same-origin" => o.fetch.credentials = Credentials::SameOrigin,
                "include" => o.fetch.credentials = Credentials::Include,
                "omit" => o.fetch.credentials = Credentials::Omit,
                _ => problems.push(format!(
                    "credentials: unknown value {} (same-origin, include, omit)",
                    quoted(&c)
                )),
            }
        }
        if let Some(r) = get("redirects") {
            match r.trim().to_ascii_lowercase().as_str() {
                "" | "error" => o.fetch.follow_redirects = false,
                "follow" => o.fetch.follow_redirects = true,
                _ => problems.push(format!(
                    "redirects: unknown value {} (error, follow)",
                    quoted(&r)
                )),
            }
        }
        if let Some(s) = text("speed") {
            match decimal(&s) {
                Some(v) => o.speed = Some(v),
                None => problems.push(format!("speed: not a non-negative number: {}", quoted(&s))),
            }
        }
        (o, problems)
    }

    /// Parses options from the element (`attr`) and, where the element's `url-options`
    /// allows it, from the page's URL parameters (`param`). An endpoint from the URL must be
    /// http(s) or relative (else the attribute's stays) and gets no headers from the page.
    pub fn parse_with_url(
        attr: impl Fn(&str) -> Option<String>,
        param: impl Fn(&str) -> Option<String>,
    ) -> (WidgetOptions, Vec<String>) {
        Self::parse_with_url_using(attr, param, json_text)
    }

    /// [`WidgetOptions::parse_with_url`], its JSON attributes read by `json`.
    pub fn parse_with_url_using(
        attr: impl Fn(&str) -> Option<String>,
        param: impl Fn(&str) -> Option<String>,
        json: ReadJson,
    ) -> (WidgetOptions, Vec<String>) {
        let mut problems = Vec::new();
        let from_url: Vec<&str> = match attr("url-options") {
            None => Vec::new(),
            Some(v) if v.trim().is_empty() || v.trim().eq_ignore_ascii_case("true") => {
                URL_OPTIONS.to_vec()
            }
            Some(v) if !flag(&v) => Vec::new(),
            Some(v) => v
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|n| !n.is_empty())
                .filter_map(|n| {
                    let known = URL_OPTIONS.iter().find(|u| u.eq_ignore_ascii_case(n));
                    if known.is_none() {
                        problems.push(format!(
                            "url-options: {} cannot come from the URL ({})",
                            quoted(n),
                            URL_OPTIONS.join(", ")
                        ));
                    }
                    known.copied()
                })
                .collect(),
        };
        let url_endpoint = from_url
            .contains(&"endpoint")
            .then(|| param("endpoint"))
            .flatten()
            .map(|e| e.trim().to_owned())
            .filter(|e| !e.is_empty());
        let url_endpoint = match url_endpoint {
            Some(e) if !has_http_scheme(&e) => {
                problems.push(format!(
                    "endpoint: {} from the URL is not an http(s) URL; ignored",
                    quoted(&e.chars().take(80).collect::<String>())
                ));
                None
            }
            e => e,
        };
        let (mut o, more) = WidgetOptions::parse_using(
            |name| match name {
                "endpoint" if url_endpoint.is_some() => url_endpoint.clone(),
                "endpoint" => attr(name),
                _ if from_url.contains(&name) => param(name).or_else(|| attr(name)),
                _ => attr(name),
            },
            json,
        );
        problems.extend(more);
        if url_endpoint.is_some() && !o.headers.is_empty() {
            o.headers.clear();
            problems
                .push("headers: not sent to an endpoint that came from the page's URL".to_owned());
        }
        (o, problems)
    }

    /// Whether the chat shows at start: a popup starts closed, a sidebar open, unless `open`
    /// says otherwise; inline and page always show.
    pub fn starts_open(&self) -> bool {
        match self.mode {
            Mode::Popup => self.open.unwrap_or(false),
            Mode::Sidebar => self.open.unwrap_or(true),
            Mode::Inline | Mode::Page => true,
        }
    }

    /// Whether this widget is (or carries) the built-in demo: asked for with `demo`, or no
    /// endpoint at all. A widget pointed at an agent gets only what its page registered.
    pub fn uses_demo(&self) -> bool {
        self.demo || self.endpoint.is_none()
    }

    /// Whether the agent picker (endpoint and headers) shows: in `page` mode or with the
    /// `settings` attribute — never because a visitor asked. A widget's endpoint comes from
    /// its page.
    pub fn shows_settings(&self) -> bool {
        self.mode == Mode::Page || self.settings
    }

    /// A widget mounted from `data-agui-*` attributes (any element a page's content may
    /// carry): it keeps nothing unless it has its own `thread-key`, so it can never read
    /// conversations another widget saved.
    pub fn declarative(mut self) -> Self {
        if self.thread_key.is_none() {
            self.persist = Persist::None;
        }
        self
    }

    /// Where this widget saves its conversations: the default prefix plus the thread key
    /// (widgets with different keys on one page keep separate thread lists).
    pub fn storage_prefix(&self) -> String {
        match &self.thread_key {
            None => DEFAULT_STORAGE_PREFIX.to_owned(),
            Some(key) => format!("{DEFAULT_STORAGE_PREFIX}:w:{key}"),
        }
    }
}

/// Whether `url` is an http(s) URL or a relative one (no scheme), as the browser's URL parser
/// reads it: tabs and newlines inside are dropped and leading controls and spaces ignored, so
/// `"java\tscript:"` is the `javascript:` it would be.
pub fn has_http_scheme(url: &str) -> bool {
    let cleaned: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take(64)
        .collect();
    let scheme_end = cleaned.find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)));
    match scheme_end {
        Some(end) if end > 0 && cleaned[end..].starts_with(':') => {
            let scheme = cleaned[..end].to_ascii_lowercase();
            !scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                || scheme == "http"
                || scheme == "https"
        }
        _ => true,
    }
}

/// The entries of an `allowed-endpoints` value: whitespace- or comma-separated, or a JSON
/// array of strings (a JS option). At most 64 entries of 2,000 characters are kept.
pub fn endpoint_list(text: &str) -> Vec<String> {
    endpoint_list_using(text, json_text)
}

/// [`endpoint_list`], a JSON array read by `json`.
pub fn endpoint_list_using(text: &str, json: ReadJson) -> Vec<String> {
    let items: Vec<String> = match json(text) {
        Ok(Value::Array(v)) => v
            .into_iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect(),
        _ => text
            .split(|c: char| c.is_whitespace() || c == ',')
            .map(str::to_owned)
            .collect(),
    };
    items
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty() && s.len() <= 2000)
        .take(64)
        .collect()
}

/// An endpoint as the browser's URL parser resolved it: its origin (`https://agent.example`)
/// and path (`/api/agui`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target<'a> {
    pub origin: &'a str,
    pub path: &'a str,
}

/// Whether `target` is one of `allowed` (resolved the same way): the same origin, and a path
/// equal to the entry's or below it (`/api` allows `/api` and `/api/run`, not `/apix`).
pub fn endpoint_allowed(target: Target, allowed: &[Target]) -> bool {
    allowed.iter().any(|a| {
        let base = a.path.trim_end_matches('/');
        a.origin == target.origin
            && (base.is_empty()
                || target.path == base
                || target
                    .path
                    .strip_prefix(base)
                    .is_some_and(|rest| rest.starts_with('/')))
    })
}

/// Why the headers field was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// Not JSON at all (the parser's message).
    InvalidJson(String),
    /// JSON, but not an object.
    NotAnObject,
    /// A name that is not an HTTP token.
    BadName(String),
    /// A value that is an object, an array or null.
    ValueNotString(String),
    /// A value with CR or LF (header injection).
    LineBreak(String),
    /// A value the Fetch API refuses: another control character, or a character beyond
    /// ISO-8859-1 (headers are byte strings).
    BadValue(String),
}

impl HeaderError {
    /// The message in the UI language.
    pub fn message(&self, t: &Strings) -> String {
        match self {
            HeaderError::InvalidJson(e) => fill(t.headers_invalid_json, &[e]),
            HeaderError::NotAnObject => t.headers_not_object.to_owned(),
            HeaderError::BadName(n) => fill(t.headers_bad_name, &[n]),
            HeaderError::ValueNotString(n) => fill(t.headers_value_not_string, &[n]),
            HeaderError::LineBreak(n) => fill(t.headers_value_line_break, &[n]),
            HeaderError::BadValue(n) => fill(t.headers_value_invalid, &[n]),
        }
    }
}

/// An HTTP header name (RFC 9110 `token`).
fn valid_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// A header the Fetch API can send: a token name and a value of visible bytes, spaces and
/// tabs (ISO-8859-1, no control characters).
pub fn valid_header(name: &str, value: &str) -> bool {
    valid_header_name(name) && valid_header_value(value)
}

fn valid_header_value(value: &str) -> bool {
    !value
        .chars()
        .any(|c| (c.is_control() && c != '\t') || u32::from(c) > 0xFF)
}

/// Parses headers (the `headers` attribute, the settings form): blank, or a JSON object of
/// string (or number/boolean) values. Names must be HTTP tokens; values without line breaks.
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, HeaderError> {
    parse_headers_using(text, json_text)
}

/// [`parse_headers`], the JSON read by `json`.
pub fn parse_headers_using(
    text: &str,
    json: ReadJson,
) -> Result<Vec<(String, String)>, HeaderError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value = json(text).map_err(HeaderError::InvalidJson)?;
    let Value::Object(map) = value else {
        return Err(HeaderError::NotAnObject);
    };
    map.into_iter()
        .map(|(name, value)| {
            if !valid_header_name(&name) {
                return Err(HeaderError::BadName(name));
            }
            let value = match value {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(HeaderError::ValueNotString(name)),
            };
            if value.contains(['\r', '\n']) {
                return Err(HeaderError::LineBreak(name));
            }
            // RFC 9110 field-value as the Fetch API takes it: visible bytes, space and tab.
            // Anything else makes `Headers.set` throw, and must be refused here instead.
            if !valid_header_value(&value) {
                return Err(HeaderError::BadValue(name));
            }
            Ok((name, value))
        })
        .collect()
}

/// A non-negative decimal number as an attribute writes it (`4`, `0.5`, `.25`, `12.`): digits
/// with at most one point, nothing else. (Not `str::parse::<f64>`, whose exponents and
/// infinities an attribute has no use for, and whose tables the lean widget would carry.)
pub fn decimal(s: &str) -> Option<f64> {
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) {
        return None;
    }
    // Digits past the 17th of the fraction are below a double's precision.
    let fraction = &fraction[..fraction.len().min(17)];
    let mut value = 0.0;
    for b in whole.bytes().chain(fraction.bytes()) {
        value = value * 10.0 + f64::from(b - b'0');
    }
    // Within 1 ulp of the nearest double for the short numbers an attribute holds.
    let value = value / 10f64.powi(fraction.len() as i32);
    value.is_finite().then_some(value)
}
