//! The View's Content Security Policy, the `srcdoc` that carries it, and the sandbox proxy's
//! origin and handshake (MCP Apps 2026-01-26, "Host Behavior", "Sandbox proxy",
//! "Content Security Policy Enforcement").

use serde_json::{json, Value};

use super::activity::{DeclaredCsp, McpAppsError, MAX_DOMAINS};

/// The CSP of one View: the declared domains that passed validation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CspPolicy {
    connect: Vec<String>,
    resource: Vec<String>,
    rejected: usize,
}

impl CspPolicy {
    /// Keeps each declared domain that is a plain origin — `https://host[:port]` (also
    /// `wss://` for `connectDomains`, the spec's WebSocket example), host labels of
    /// `[a-z0-9-]`, optionally one leading `*.` label over at least two more labels (the
    /// spec's `https://*.example.com`), an optional trailing `/` — lowercased and
    /// deduplicated. Everything else (keywords, schemes like `data:` or `http:`, paths,
    /// quotes, `;`, spaces, bare `*`) is dropped and counted in [`CspPolicy::rejected`].
    pub fn new(declared: &DeclaredCsp) -> Self {
        let mut policy = CspPolicy::default();
        for (list, is_connect) in [
            (&declared.connect_domains, true),
            (&declared.resource_domains, false),
        ] {
            for raw in list.iter().take(MAX_DOMAINS) {
                let target = if is_connect {
                    &mut policy.connect
                } else {
                    &mut policy.resource
                };
                match csp_source(raw, is_connect) {
                    Some(s) if !target.contains(&s) => target.push(s),
                    Some(_) => {}
                    None => policy.rejected += 1,
                }
            }
        }
        policy
    }

    /// The accepted `connect-src` origins.
    pub fn connect_domains(&self) -> &[String] {
        &self.connect
    }

    /// The accepted resource origins (scripts, styles, images, fonts, media).
    pub fn resource_domains(&self) -> &[String] {
        &self.resource
    }

    /// How many declared domains were dropped (worth a notice: the View may not work).
    pub fn rejected(&self) -> usize {
        self.rejected
    }

    /// The policy text (see the module docs for its shape). It contains no `"`, `<`, `>`,
    /// `&` or `;` other than the directive separators.
    pub fn header(&self) -> String {
        let r = self.resource.join(" ");
        let with_r = |base: &str| {
            if r.is_empty() {
                base.to_string()
            } else {
                format!("{base} {r}")
            }
        };
        let connect = if self.connect.is_empty() {
            "'none'".to_string()
        } else {
            self.connect.join(" ")
        };
        [
            "default-src 'none'".to_string(),
            with_r("script-src 'self' 'unsafe-inline'"),
            with_r("style-src 'self' 'unsafe-inline'"),
            with_r("img-src 'self' data:"),
            with_r("font-src 'self'"),
            with_r("media-src 'self' data:"),
            format!("connect-src {connect}"),
            "frame-src 'none'".to_string(),
            "object-src 'none'".to_string(),
            "base-uri 'self'".to_string(),
        ]
        .join("; ")
    }

    /// `{connectDomains, resourceDomains}` as the spec's `csp` objects spell them.
    pub fn to_json(&self) -> Value {
        json!({ "connectDomains": self.connect, "resourceDomains": self.resource })
    }
}

/// One CSP source expression from a declared domain, or `None` when it is not a plain
/// origin (see [`CspPolicy::new`]).
fn csp_source(raw: &str, allow_wss: bool) -> Option<String> {
    let lower = raw.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://")?;
    if !(scheme == "https" || (allow_wss && scheme == "wss")) {
        return None;
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (host, wildcard) = match rest.strip_prefix("*.") {
        Some(h) => (h, true),
        None => (rest, false),
    };
    let host = host_port(host, 443)?;
    let labels = host
        .split(':')
        .next()
        .unwrap_or_default()
        .split('.')
        .count();
    if wildcard && labels < 2 {
        return None;
    }
    Some(format!(
        "{scheme}://{}{host}",
        if wildcard { "*." } else { "" }
    ))
}

/// `host[:port]` with a DNS host (labels of 1–63 `[a-z0-9-]`, no leading or trailing `-`,
/// at most 253 bytes; the input is already lowercase) and a port in 1–65535, re-serialised
/// (`:0443` → `:443`) so two spellings of one origin compare equal; `default_port` is dropped.
fn host_port(s: &str, default_port: u16) -> Option<String> {
    let (host, port) = match s.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    let label_ok = |l: &str| {
        (1..=63).contains(&l.len())
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if host.is_empty() || host.len() > 253 || !host.split('.').all(label_ok) {
        return None;
    }
    match port {
        None => Some(host.to_string()),
        Some(p) => {
            let n: u16 = (!p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
                .filter(|n| *n != 0)?;
            Some(if n == default_port {
                host.to_string()
            } else {
                format!("{host}:{n}")
            })
        }
    }
}

/// The `<meta>` [`srcdoc`] puts first.
fn meta(policy: &CspPolicy) -> String {
    // The policy is built from validated origins only; escaping is belt and braces.
    let content = policy
        .header()
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(r#"<meta http-equiv="Content-Security-Policy" content="{content}">"#)
}

/// The document for `<iframe sandbox="allow-scripts" srcdoc=…>`: `<!DOCTYPE html>`, then the
/// CSP `<meta>`, then the resource unchanged (a leading byte-order mark dropped).
///
/// Nothing of the resource can come before the policy, whatever its shape: the parser sees
/// our doctype (no quirks mode), then our `<meta>`, which opens an implied `<html>` and
/// `<head>` and is enforced from there on. The resource's own doctype after it is a parse
/// error the parser ignores; its `<html>` start tag only adds attributes to the root; its
/// `<head>` is ignored and its contents stay in our head; comments, uppercase tags and a
/// document without `<html>`/`<head>` change nothing of that. A `<meta http-equiv=
/// "Content-Security-Policy">` of its own is a second policy, enforced alongside ours: a
/// resource can only restrict itself further, never loosen ours, and removing our element
/// from the DOM later does not remove the policy.
///
/// Set the result as the `srcdoc` property/attribute through the DOM (no HTML escaping is
/// needed or wanted there); never splice it into the host's HTML.
pub fn srcdoc(html: &str, policy: &CspPolicy) -> String {
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    let meta = meta(policy);
    let mut out = String::with_capacity(html.len() + meta.len() + 16);
    out.push_str("<!DOCTYPE html>");
    out.push_str(&meta);
    out.push_str(html);
    out
}

/// A web origin `https://host[:port]` (lowercase, default port omitted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin(String);

impl Origin {
    /// The serialised origin, as `MessageEvent.origin` and `postMessage`'s target origin
    /// spell it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Checks the page's `mcp-apps-proxy` URL: `https://` (scheme case-insensitive), a DNS host,
/// an optional port, no userinfo, no whitespace, control characters or backslashes, and an
/// origin other than `page_origin` (the host page's `location.origin`; the spec requires the
/// host and the sandbox to have different origins). Returns the proxy's origin, the only one
/// its messages may come from.
pub fn proxy_origin(url: &str, page_origin: &str) -> Result<Origin, McpAppsError> {
    let bad = McpAppsError::BadProxyUrl;
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return Err(bad);
    }
    let origin = parse_origin(url).ok_or(bad.clone())?;
    if !origin.starts_with("https://") {
        return Err(bad);
    }
    if parse_origin(page_origin).as_deref() == Some(origin.as_str()) {
        return Err(McpAppsError::ProxySameOrigin);
    }
    Ok(Origin(origin))
}

/// `scheme://host[:port]` of an http(s) URL, lowercased, default port dropped; `None` for
/// anything else (userinfo included).
fn parse_origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "https" => 443,
        "http" => 80,
        _ => return None,
    };
    let authority = rest
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if authority.contains('@') {
        return None;
    }
    let host = host_port(&authority, default_port)?;
    Some(format!("{scheme}://{host}"))
}

/// The host's `ui/notifications/sandbox-resource-ready` to the proxy, sent once it said
/// `ui/notifications/sandbox-proxy-ready`: `{html, csp}`. The HTML is [`srcdoc`]'s, so our
/// policy also holds should the proxy enforce less than the `csp` it is given; no `sandbox`
/// override (a proxy relays only its own origin's frame, so an opaque inner frame would be
/// cut off) and no `permissions`.
pub fn sandbox_resource_ready(html: &str, policy: &CspPolicy) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "ui/notifications/sandbox-resource-ready",
        "params": { "html": srcdoc(html, policy), "csp": policy.to_json() },
    })
}
