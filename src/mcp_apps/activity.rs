//! An MCP App as data: the `mcp-apps` activity's content ([`AppActivity`]), its UI resource
//! ([`AppResource`], [`DeclaredCsp`]), the requests proxied for it, the frame's attributes and
//! the budgets. The policy (`csp.rs`) and the bridge (`bridge.rs`) build on it; it names
//! neither.

use serde_json::{json, Map, Value};

/// The AG-UI `activityType` of an MCP App.
pub const ACTIVITY_TYPE: &str = "mcp-apps";
/// The MCP Apps protocol version this host speaks.
pub const PROTOCOL_VERSION: &str = "2026-01-26";
/// The MIME type of an MCP App resource.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The `sandbox` attribute of the View's iframe in direct mode.
pub const SANDBOX: &str = "allow-scripts";
/// The `allow` attribute (Permissions Policy) of the View's iframe: none.
pub const ALLOW: &str = "";
/// The `sandbox` attribute of the sandbox proxy's iframe (the spec requires both; the proxy
/// is on its own origin, which is what keeps it from the host).
pub const PROXY_SANDBOX: &str = "allow-scripts allow-same-origin";
/// The most HTML a resource may carry (decoded).
pub const MAX_HTML_BYTES: usize = 2 * 1024 * 1024;
/// The most domains kept per CSP list (`connectDomains`, `resourceDomains`).
pub const MAX_DOMAINS: usize = 16;
/// The longest CSP domain entry accepted.
pub const MAX_DOMAIN_LEN: usize = 256;
/// The longest `ui://` URI accepted.
pub const MAX_URI_LEN: usize = 2048;
/// The longest server id / hash accepted.
pub const MAX_ID_LEN: usize = 256;

/// Why an activity, a resource or a proxy URL was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum McpAppsError {
    #[error("the MCP App content is not an object")]
    NotAnObject,
    #[error("the MCP App content lacks `{0}`")]
    Missing(&'static str),
    #[error("the MCP App field `{0}` has the wrong type")]
    BadField(&'static str),
    #[error("the resource URI is not a ui:// URI")]
    NotUiUri,
    #[error("the MCP App field `{field}` is over its {limit}-byte budget")]
    TooBig { field: &'static str, limit: usize },
    #[error("the resource blob is not valid base64")]
    BadBase64,
    #[error("the resource is not UTF-8 text")]
    NotUtf8,
    #[error("the resource is not HTML (mimeType {0:?})")]
    NotHtml(String),
    #[error("the resource has neither text nor blob")]
    NoHtml,
    #[error("the proxy URL is not an https URL with a plain host")]
    BadProxyUrl,
    #[error("the proxy is on the page's own origin")]
    ProxySameOrigin,
}

/// The CSP domains a resource declared in `_meta.ui.csp`, as declared (bounded, strings
/// only); [`CspPolicy::new`](super::CspPolicy::new) decides which of them are valid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredCsp {
    pub connect_domains: Vec<String>,
    pub resource_domains: Vec<String>,
}

impl DeclaredCsp {
    /// Reads `{connectDomains?, resourceDomains?}`; anything else is ignored.
    pub fn from_meta(csp: Option<&Value>) -> Self {
        let list = |key| {
            csp.and_then(|c| c.get(key))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .filter(|s| s.len() <= MAX_DOMAIN_LEN)
                        .take(MAX_DOMAINS)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        DeclaredCsp {
            connect_domains: list("connectDomains"),
            resource_domains: list("resourceDomains"),
        }
    }
}

/// A UI resource's content: the HTML and the CSP domains it declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppResource {
    /// The `ui://` URI.
    pub uri: String,
    /// The HTML, decoded, at most [`MAX_HTML_BYTES`].
    pub html: String,
    /// `_meta.ui.csp`, unvalidated.
    pub csp: DeclaredCsp,
}

impl AppResource {
    /// One resource content `{uri, mimeType?, text? | blob?, _meta?: {ui?: {csp?}}}`.
    pub fn parse(item: &Value) -> Result<Self, McpAppsError> {
        let obj = item.as_object().ok_or(McpAppsError::NotAnObject)?;
        let uri = ui_uri(obj.get("uri"))?;
        if let Some(mime) = obj.get("mimeType") {
            let mime = mime.as_str().ok_or(McpAppsError::BadField("mimeType"))?;
            // `text/html;profile=mcp-app`, and the older `text/html+mcp` and plain `text/html`.
            if !mime
                .get(..9)
                .is_some_and(|p| p.eq_ignore_ascii_case("text/html"))
            {
                return Err(McpAppsError::NotHtml(mime.chars().take(64).collect()));
            }
        }
        let html = match (obj.get("text"), obj.get("blob")) {
            (Some(Value::String(text)), _) => {
                if text.len() > MAX_HTML_BYTES {
                    return Err(too_big("text", MAX_HTML_BYTES));
                }
                text.clone()
            }
            (Some(_), _) => return Err(McpAppsError::BadField("text")),
            (None, Some(Value::String(blob))) => decode_blob(blob)?,
            (None, Some(_)) => return Err(McpAppsError::BadField("blob")),
            (None, None) => return Err(McpAppsError::NoHtml),
        };
        let csp = obj
            .get("_meta")
            .and_then(|m| m.get("ui"))
            .and_then(|u| u.get("csp"));
        Ok(AppResource {
            uri,
            html,
            csp: DeclaredCsp::from_meta(csp),
        })
    }

    /// A `resources/read` result `{contents: [...]}`: the content whose `uri` is `uri`.
    pub fn from_read_result(result: &Value, uri: &str) -> Result<Self, McpAppsError> {
        let contents = result
            .get("contents")
            .ok_or(McpAppsError::Missing("contents"))?
            .as_array()
            .ok_or(McpAppsError::BadField("contents"))?;
        let item = contents
            .iter()
            .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
            .ok_or(McpAppsError::NoHtml)?;
        Self::parse(item)
    }
}

/// The `content` of an `mcp-apps` activity.
#[derive(Debug, Clone, PartialEq)]
pub struct AppActivity {
    /// The `ui://` resource URI.
    pub resource_uri: String,
    /// The inline resource, when the content carried one (older shape); otherwise fetch it
    /// with [`AppActivity::read_request`].
    pub resource: Option<AppResource>,
    /// `serverId`, for proxied requests.
    pub server_id: Option<String>,
    /// `serverHash`, for proxied requests.
    pub server_hash: Option<String>,
    /// `toolInput`: the tool call's arguments, for `ui/notifications/tool-input`.
    pub tool_input: Option<Map<String, Value>>,
    /// `result`: the `CallToolResult`, for `ui/notifications/tool-result`.
    pub tool_result: Option<Value>,
}

impl AppActivity {
    /// Reads an activity's `content` (either shape; see the module docs).
    pub fn parse(content: &Value) -> Result<Self, McpAppsError> {
        let obj = content.as_object().ok_or(McpAppsError::NotAnObject)?;
        let resource = match obj.get("resource") {
            Some(r) => Some(AppResource::parse(r)?),
            None => None,
        };
        let resource_uri = match (&resource, obj.get("resourceUri")) {
            (_, Some(v)) => ui_uri(Some(v))?,
            (Some(r), None) => r.uri.clone(),
            (None, None) => return Err(McpAppsError::Missing("resourceUri")),
        };
        let id = |key| match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.len() <= MAX_ID_LEN => Ok(Some(s.clone())),
            Some(Value::String(_)) => Err(too_big(key, MAX_ID_LEN)),
            Some(_) => Err(McpAppsError::BadField(key)),
        };
        let tool_input = match obj.get("toolInput") {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m.clone()),
            Some(_) => return Err(McpAppsError::BadField("toolInput")),
        };
        let tool_result = match obj.get("result") {
            None | Some(Value::Null) => None,
            Some(v @ Value::Object(_)) => Some(v.clone()),
            Some(_) => return Err(McpAppsError::BadField("result")),
        };
        Ok(AppActivity {
            resource_uri,
            resource,
            server_id: id("serverId")?,
            server_hash: id("serverHash")?,
            tool_input,
            tool_result,
        })
    }

    /// The `forwardedProps` of a run that asks the middleware for `method(params)` on this
    /// activity's MCP server.
    pub fn proxied_request(&self, method: &str, params: Value) -> Value {
        let mut req = Map::new();
        if let Some(id) = &self.server_id {
            req.insert("serverId".into(), id.clone().into());
        }
        if let Some(hash) = &self.server_hash {
            req.insert("serverHash".into(), hash.clone().into());
        }
        req.insert("method".into(), method.into());
        req.insert("params".into(), params);
        json!({ "__proxiedMCPRequest": req })
    }

    /// The `forwardedProps` that fetch the resource (`resources/read`); read the run's
    /// result with [`proxied_result`] then [`AppResource::from_read_result`].
    pub fn read_request(&self) -> Value {
        self.proxied_request("resources/read", json!({ "uri": self.resource_uri }))
    }

    /// The `forwardedProps` that run a View's [`Out::CallTool`](super::Out::CallTool); answer
    /// the View with [`Bridge::tool_result`](super::Bridge::tool_result) and the run's
    /// [`proxied_result`].
    pub fn call_request(&self, name: &str, arguments: &Value) -> Value {
        self.proxied_request(
            "tools/call",
            json!({ "name": name, "arguments": arguments }),
        )
    }
}

/// A proxied run's `RUN_FINISHED.result`: the MCP result, or the middleware's `{error}`.
/// The error text is the server's; show it as text, never as HTML.
pub fn proxied_result(result: Option<&Value>) -> Result<Value, String> {
    match result {
        Some(Value::Object(m)) if m.len() == 1 && m.contains_key("error") => Err(m
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("MCP request failed")
            .chars()
            .take(256)
            .collect()),
        Some(v @ Value::Object(_)) => Ok(v.clone()),
        _ => Err("MCP request returned no result".into()),
    }
}

fn too_big(field: &'static str, limit: usize) -> McpAppsError {
    McpAppsError::TooBig { field, limit }
}

fn ui_uri(v: Option<&Value>) -> Result<String, McpAppsError> {
    let s = v
        .ok_or(McpAppsError::Missing("uri"))?
        .as_str()
        .ok_or(McpAppsError::BadField("uri"))?;
    if s.len() > MAX_URI_LEN {
        return Err(too_big("uri", MAX_URI_LEN));
    }
    let rest = match s.get(..5) {
        Some(scheme) if scheme.eq_ignore_ascii_case("ui://") => s.get(5..).unwrap_or_default(),
        _ => return Err(McpAppsError::NotUiUri),
    };
    if rest.is_empty() || s.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(McpAppsError::NotUiUri);
    }
    Ok(s.to_string())
}

/// Strict base64 ([`crate::base64::decode`]: padding optional, no whitespace); the decoded
/// bytes must be UTF-8 and at most [`MAX_HTML_BYTES`] (a longer blob is refused unread).
fn decode_blob(blob: &str) -> Result<String, McpAppsError> {
    if blob.len() / 4 * 3 > MAX_HTML_BYTES {
        return Err(too_big("blob", MAX_HTML_BYTES));
    }
    let bytes = crate::base64::decode(blob).ok_or(McpAppsError::BadBase64)?;
    if bytes.len() > MAX_HTML_BYTES {
        return Err(too_big("blob", MAX_HTML_BYTES));
    }
    String::from_utf8(bytes).map_err(|_| McpAppsError::NotUtf8)
}
