//! MCP Apps (`src/mcp_apps/`): the activity content, the CSP and `srcdoc`, the sandbox proxy
//! checks and the JSON-RPC bridge, natively.

#![cfg(feature = "mcp-apps")]

use agui_leptos::mcp_apps::{
    proxied_result, proxy_origin, sandbox_resource_ready, srcdoc, AppActivity, AppResource, Bridge,
    Budgets, CspPolicy, DeclaredCsp, Dim, HostContext, McpAppsError, Notice, Out, RpcId,
    StopReason, Theme, ALLOW, MAX_HTML_BYTES, SANDBOX,
};
use serde_json::{json, Value};

// ---- activity content ----

fn middleware_content() -> Value {
    json!({
        "result": { "content": [{ "type": "text", "text": "72°F" }], "structuredContent": { "t": 72 } },
        "resourceUri": "ui://weather/dashboard",
        "serverHash": "abc123",
        "serverId": "weather",
        "toolInput": { "city": "Berlin" },
    })
}

#[test]
fn parses_the_middleware_shape() {
    let a = AppActivity::parse(&middleware_content()).expect("valid");
    assert_eq!(a.resource_uri, "ui://weather/dashboard");
    assert_eq!(a.server_id.as_deref(), Some("weather"));
    assert_eq!(a.server_hash.as_deref(), Some("abc123"));
    assert_eq!(
        a.tool_input.as_ref().and_then(|m| m.get("city")),
        Some(&json!("Berlin"))
    );
    assert_eq!(
        a.tool_result.as_ref().map(|r| &r["structuredContent"]["t"]),
        Some(&json!(72))
    );
    assert!(a.resource.is_none(), "the middleware sends no HTML");
}

#[test]
fn parses_an_inline_resource_text_and_blob() {
    let text = json!({ "resource": { "uri": "ui://a/b", "mimeType": "text/html;profile=mcp-app",
        "text": "<p>hi</p>" } });
    let a = AppActivity::parse(&text).expect("valid");
    assert_eq!(a.resource_uri, "ui://a/b");
    assert_eq!(a.resource.expect("inline").html, "<p>hi</p>");

    // "<p>hé</p>" in base64 (UTF-8), unpadded and padded forms.
    for blob in ["PHA+aMOpPC9wPg==", "PHA+aMOpPC9wPg"] {
        let c = json!({ "resource": { "uri": "ui://a/b", "blob": blob } });
        let r = AppActivity::parse(&c)
            .expect("valid")
            .resource
            .expect("inline");
        assert_eq!(r.html, "<p>hé</p>", "{blob}");
    }
}

#[test]
fn refuses_uris_that_are_not_ui() {
    for uri in [
        "https://example.com/app",
        "ui://",
        "uix://a",
        "ui:/a",
        "ui://a b",
        "",
    ] {
        let c = json!({ "resourceUri": uri });
        assert_eq!(
            AppActivity::parse(&c),
            Err(McpAppsError::NotUiUri),
            "{uri:?}"
        );
    }
    assert!(AppActivity::parse(&json!({ "resourceUri": "UI://Upper/Case" })).is_ok());
    assert_eq!(
        AppActivity::parse(&json!({ "resourceUri": 5 })),
        Err(McpAppsError::BadField("uri"))
    );
    assert_eq!(
        AppActivity::parse(&json!({ "toolInput": {} })),
        Err(McpAppsError::Missing("resourceUri"))
    );
    assert_eq!(
        AppActivity::parse(&json!([1])),
        Err(McpAppsError::NotAnObject)
    );
}

#[test]
fn refuses_html_over_budget() {
    let big = "x".repeat(MAX_HTML_BYTES + 1);
    let c = json!({ "resource": { "uri": "ui://a", "text": big } });
    assert!(matches!(
        AppActivity::parse(&c),
        Err(McpAppsError::TooBig { field: "text", .. })
    ));
    let just = "x".repeat(MAX_HTML_BYTES);
    assert!(AppActivity::parse(&json!({ "resource": { "uri": "ui://a", "text": just } })).is_ok());
    // A blob that decodes to more than the budget is refused before decoding.
    let blob = "A".repeat((MAX_HTML_BYTES / 3 + 2) * 4);
    let c = json!({ "resource": { "uri": "ui://a", "blob": blob } });
    assert!(matches!(
        AppActivity::parse(&c),
        Err(McpAppsError::TooBig { field: "blob", .. })
    ));
}

#[test]
fn refuses_bad_base64_and_non_utf8() {
    // Bad alphabet, whitespace, a lone sixth, too much padding, padding inside, a
    // non-canonical tail (`QR==` has leftover bits), padding that does not complete a quantum.
    for blob in ["!!!!", "PHA+ aGk=", "A", "QQ===", "QQ=A", "QR==", "QQ="] {
        let c = json!({ "resource": { "uri": "ui://a", "blob": blob } });
        assert_eq!(
            AppActivity::parse(&c),
            Err(McpAppsError::BadBase64),
            "{blob:?}"
        );
    }
    let c = json!({ "resource": { "uri": "ui://a", "blob": "/w==" } }); // 0xff
    assert_eq!(AppActivity::parse(&c), Err(McpAppsError::NotUtf8));
    let c = json!({ "resource": { "uri": "ui://a" } });
    assert_eq!(AppActivity::parse(&c), Err(McpAppsError::NoHtml));
    let c = json!({ "resource": { "uri": "ui://a", "blob": 3 } });
    assert_eq!(AppActivity::parse(&c), Err(McpAppsError::BadField("blob")));
}

#[test]
fn refuses_wrong_types_in_the_content() {
    let mut c = middleware_content();
    c["toolInput"] = json!("city=Berlin");
    assert_eq!(
        AppActivity::parse(&c),
        Err(McpAppsError::BadField("toolInput"))
    );
    let mut c = middleware_content();
    c["result"] = json!([1]);
    assert_eq!(
        AppActivity::parse(&c),
        Err(McpAppsError::BadField("result"))
    );
    let mut c = middleware_content();
    c["serverId"] = json!("x".repeat(300));
    assert!(matches!(
        AppActivity::parse(&c),
        Err(McpAppsError::TooBig { .. })
    ));
}

#[test]
fn reads_a_resources_read_result_with_its_csp() {
    let result = json!({ "contents": [
        { "uri": "ui://other", "text": "<p>no</p>" },
        { "uri": "ui://weather/dashboard", "mimeType": "text/html;profile=mcp-app",
          "text": "<p>yes</p>",
          "_meta": { "ui": { "csp": {
              "connectDomains": ["https://api.example.com", 7],
              "resourceDomains": ["https://cdn.example.com"] } } } },
    ] });
    let r = AppResource::from_read_result(&result, "ui://weather/dashboard").expect("found");
    assert_eq!(r.html, "<p>yes</p>");
    assert_eq!(r.csp.connect_domains, ["https://api.example.com"]);
    assert_eq!(r.csp.resource_domains, ["https://cdn.example.com"]);
    assert_eq!(
        AppResource::from_read_result(&result, "ui://missing"),
        Err(McpAppsError::NoHtml)
    );
    let json_resource =
        json!({ "contents": [{ "uri": "ui://a", "mimeType": "application/json", "text": "{}" }] });
    assert!(matches!(
        AppResource::from_read_result(&json_resource, "ui://a"),
        Err(McpAppsError::NotHtml(_))
    ));
}

#[test]
fn builds_proxied_requests_and_reads_their_results() {
    let a = AppActivity::parse(&middleware_content()).expect("valid");
    assert_eq!(
        a.read_request(),
        json!({ "__proxiedMCPRequest": { "serverId": "weather", "serverHash": "abc123",
            "method": "resources/read", "params": { "uri": "ui://weather/dashboard" } } })
    );
    assert_eq!(
        a.call_request("refresh", &json!({ "city": "Paris" }))["__proxiedMCPRequest"]["params"],
        json!({ "name": "refresh", "arguments": { "city": "Paris" } })
    );
    let ok = json!({ "content": [] });
    assert_eq!(proxied_result(Some(&ok)), Ok(ok.clone()));
    assert_eq!(
        proxied_result(Some(&json!({ "error": "Unknown server: x" }))),
        Err("Unknown server: x".to_string())
    );
    assert!(proxied_result(None).is_err());
    assert!(proxied_result(Some(&json!("text"))).is_err());
}

// ---- CSP and srcdoc ----

const DEFAULT_CSP: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; \
    media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; \
    base-uri 'self'";

fn policy(connect: &[&str], resource: &[&str]) -> CspPolicy {
    CspPolicy::new(&DeclaredCsp {
        connect_domains: connect.iter().map(|s| s.to_string()).collect(),
        resource_domains: resource.iter().map(|s| s.to_string()).collect(),
    })
}

#[test]
fn the_default_policy_is_the_specs_restrictive_one() {
    assert_eq!(CspPolicy::default().header(), DEFAULT_CSP);
    assert_eq!(SANDBOX, "allow-scripts");
    assert_eq!(ALLOW, "");
}

#[test]
fn declared_domains_extend_only_their_directives() {
    let p = policy(
        &[
            "https://api.example.com",
            "wss://rt.example.com:8443",
            "HTTPS://API.Example.com/",
        ],
        &["https://*.cdn.example.net", "https://fonts.example.org:443"],
    );
    assert_eq!(p.rejected(), 0);
    assert_eq!(
        p.connect_domains(),
        ["https://api.example.com", "wss://rt.example.com:8443"]
    );
    let h = p.header();
    assert!(
        h.contains("connect-src https://api.example.com wss://rt.example.com:8443;"),
        "{h}"
    );
    let r = "https://*.cdn.example.net https://fonts.example.org";
    for d in [
        "script-src 'self' 'unsafe-inline' ",
        "img-src 'self' data: ",
        "font-src 'self' ",
    ] {
        assert!(h.contains(&format!("{d}{r};")), "{d} in {h}");
    }
    assert!(
        h.ends_with("frame-src 'none'; object-src 'none'; base-uri 'self'"),
        "{h}"
    );
}

#[test]
fn domain_injection_attempts_are_dropped() {
    let evil = [
        "https://a.example; script-src *",
        "https://a.example 'unsafe-eval'",
        "'unsafe-eval'",
        "*",
        "https://*",
        "https://*.com",
        "https://*.*.example.com",
        "http://a.example",
        "data:",
        "blob:",
        "javascript:alert(1)",
        "https://a.example/path",
        "https://a.example?x",
        "https://a.example\"><script>",
        "https://user@a.example",
        "https://a.example:99999",
        "https://a.example:0",
        "https://a.example:*",
        "https://a..example",
        "https://-a.example",
        "https://a.example\n",
        "https://exämple.com",
        "wss://x.example", // wss only for connect-src
        "",
    ];
    for e in evil.iter().chain(&["https://a.example,https://b.example"]) {
        let wss = e.starts_with("wss");
        let p = policy(
            if wss {
                &[][..]
            } else {
                std::slice::from_ref(e)
            },
            &[e],
        );
        assert_eq!(p.rejected(), if wss { 1 } else { 2 }, "{e:?}");
        assert_eq!(p.header(), DEFAULT_CSP, "{e:?} got through");
    }
    // wss is a connect-src scheme only.
    assert_eq!(policy(&["wss://x.example"], &[]).rejected(), 0);
}

#[test]
fn at_most_sixteen_domains_per_list() {
    let many: Vec<String> = (0..40).map(|i| format!("https://d{i}.example")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_eq!(policy(&refs, &[]).connect_domains().len(), 16);
}

/// Where the first tag after our doctype starts, and what it is.
fn first_tag(doc: &str) -> &str {
    let rest = doc
        .strip_prefix("<!DOCTYPE html>")
        .expect("our doctype first");
    rest.split_inclusive('>').next().unwrap_or_default()
}

#[test]
fn the_policy_comes_first_in_every_document_shape() {
    let p = policy(&["https://api.example.com"], &[]);
    let expected_meta = format!(
        r#"<meta http-equiv="Content-Security-Policy" content="{}">"#,
        p.header()
    );
    let shapes = [
        "<!DOCTYPE html><html lang=en><head><title>t</title></head><body>x</body></html>",
        "<p>just a fragment</p>",
        "",
        "<HTML><HEAD><TITLE>T</TITLE></HEAD><BODY>X</BODY></HTML>",
        "<!-- a comment --><!doctype html><html><head></head></html>",
        "<head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src *\"></head>",
        "<meta http-equiv='content-security-policy' content='script-src *'><script>1</script>",
        "\u{feff}<html><body>bom</body></html>",
        "<script>document.write('<meta>')</script>",
        "</head></html><meta http-equiv=Content-Security-Policy content=\"default-src *\">",
    ];
    for html in shapes {
        let doc = srcdoc(html, &p);
        assert_eq!(first_tag(&doc), expected_meta, "{html:?}");
        let body = html.strip_prefix('\u{feff}').unwrap_or(html);
        assert_eq!(
            doc,
            format!("<!DOCTYPE html>{expected_meta}{body}"),
            "{html:?}"
        );
    }
}

// ---- the sandbox proxy ----

#[test]
fn the_proxy_must_be_https_on_another_origin() {
    let ok = |url: &str, page: &str| proxy_origin(url, page).map(|o| o.as_str().to_string());
    assert_eq!(
        ok("https://sandbox.example/", "https://app.example"),
        Ok("https://sandbox.example".into())
    );
    assert_eq!(
        ok(
            "HTTPS://Sandbox.Example:443/proxy.html?v=1",
            "https://app.example"
        ),
        Ok("https://sandbox.example".into())
    );
    assert_eq!(
        ok("https://app.example:8443/", "https://app.example"),
        Ok("https://app.example:8443".into())
    );
    for (url, page) in [
        ("https://app.example/sandbox.html", "https://app.example"),
        ("https://APP.example:0443/", "https://app.example:443"),
    ] {
        assert_eq!(
            proxy_origin(url, page),
            Err(McpAppsError::ProxySameOrigin),
            "{url}"
        );
    }
    for url in [
        "http://sandbox.example/",
        "https://user:pw@sandbox.example/",
        "https://app.example\\@sandbox.example/",
        "https:// sandbox.example/",
        "javascript:alert(1)",
        "//sandbox.example/",
        "https://",
        "https://[::1]/",
        "https://sandbox.example:99999/",
    ] {
        assert_eq!(
            proxy_origin(url, "https://app.example"),
            Err(McpAppsError::BadProxyUrl),
            "{url}"
        );
    }
}

#[test]
fn the_resource_ready_message_carries_the_protected_html_and_the_csp() {
    let p = policy(&["https://api.example.com"], &[]);
    let msg = sandbox_resource_ready("<p>x</p>", &p);
    assert_eq!(msg["method"], "ui/notifications/sandbox-resource-ready");
    assert_eq!(msg["params"]["html"], srcdoc("<p>x</p>", &p));
    assert_eq!(
        msg["params"]["csp"]["connectDomains"],
        json!(["https://api.example.com"])
    );
    assert!(msg.get("id").is_none(), "a notification");
    assert!(msg["params"].get("sandbox").is_none());
}

// ---- the bridge ----

fn host() -> HostContext {
    HostContext {
        theme: Theme::Dark,
        locale: "de-DE".into(),
        time_zone: Some("Europe/Berlin".into()),
        width: Dim::Fixed(600),
        height: Dim::Max(800),
    }
}

fn activity() -> AppActivity {
    AppActivity::parse(&middleware_content()).expect("valid")
}

fn bridge() -> Bridge {
    Bridge::new(0.0, &activity(), CspPolicy::default(), host())
}

fn send(b: &mut Bridge, now: f64, msg: Value) -> Vec<Out> {
    b.receive(now, "null", &msg.to_string())
}

fn posts(outs: &[Out]) -> Vec<&Value> {
    outs.iter()
        .filter_map(|o| match o {
            Out::Post(v) => Some(v),
            _ => None,
        })
        .collect()
}

fn only_post(outs: &[Out]) -> &Value {
    let p = posts(outs);
    assert_eq!(p.len(), 1, "{outs:?}");
    p[0]
}

fn init(b: &mut Bridge) -> Vec<Out> {
    let r = send(
        b,
        1.0,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "ui/initialize",
        "params": { "protocolVersion": "2026-01-26", "appInfo": { "name": "v", "version": "1" },
            "appCapabilities": {} } }),
    );
    assert_eq!(r.len(), 1, "only the answer before `initialized`: {r:?}");
    send(
        b,
        2.0,
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }),
    )
}

#[test]
fn the_handshake_answers_with_the_host_context_then_sends_the_tool_data() {
    let mut b = bridge();
    let r = send(
        &mut b,
        1.0,
        json!({ "jsonrpc": "2.0", "id": "init-1", "method": "ui/initialize",
        "params": { "protocolVersion": "2026-01-26" } }),
    );
    let answer = only_post(&r);
    assert_eq!(answer["id"], "init-1");
    let result = &answer["result"];
    assert_eq!(result["protocolVersion"], "2026-01-26");
    assert_eq!(result["hostInfo"]["name"], "agui-leptos");
    assert!(result["hostCapabilities"]["openLinks"].is_object());
    assert!(result["hostCapabilities"]["serverTools"].is_object());
    // Exactly what the bridge carries out (the SDK's `McpUiHostCapabilities` names).
    let mut caps: Vec<&str> = result["hostCapabilities"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    caps.sort_unstable();
    assert_eq!(
        caps,
        [
            "logging",
            "message",
            "openLinks",
            "sandbox",
            "serverTools",
            "updateModelContext"
        ]
    );
    assert_eq!(result["hostCapabilities"]["message"], json!({ "text": {} }));
    assert_eq!(
        result["hostCapabilities"]["updateModelContext"],
        json!({ "text": {}, "structuredContent": {} })
    );
    assert_eq!(ctx_modes(result), json!(["inline"]));
    let ctx = &result["hostContext"];
    assert_eq!(ctx["theme"], "dark");
    assert_eq!(ctx["locale"], "de-DE");
    assert_eq!(ctx["timeZone"], "Europe/Berlin");
    assert_eq!(ctx["displayMode"], "inline");
    assert_eq!(
        ctx["containerDimensions"],
        json!({ "width": 600, "maxHeight": 800 })
    );

    let r = send(
        &mut b,
        2.0,
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }),
    );
    assert_eq!(r[0], Out::Ready);
    let p = posts(&r);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0]["method"], "ui/notifications/tool-input");
    assert_eq!(p[0]["params"], json!({ "arguments": { "city": "Berlin" } }));
    assert_eq!(p[1]["method"], "ui/notifications/tool-result");
    assert_eq!(p[1]["params"]["structuredContent"]["t"], 72);
    // A second `initialized` sends nothing again.
    assert!(send(
        &mut b,
        3.0,
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" })
    )
    .is_empty());
}

#[test]
fn nothing_but_initialize_and_ping_before_the_handshake() {
    let mut b = bridge();
    let r = send(
        &mut b,
        1.0,
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }),
    );
    assert_eq!(
        r,
        vec![Out::Notice(Notice::ProtocolError)],
        "initialized before initialize"
    );
    let r = send(
        &mut b,
        1.0,
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "x" } }),
    );
    assert_eq!(only_post(&r)["error"]["code"], -32600);
    assert!(!r.iter().any(|o| matches!(o, Out::CallTool { .. })));
    let r = send(
        &mut b,
        1.0,
        json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" }),
    );
    assert_eq!(only_post(&r)["result"], json!({}));
}

#[test]
fn later_activity_and_host_changes_reach_a_running_view() {
    let mut b = bridge();
    init(&mut b);
    let mut c = middleware_content();
    c["result"] = json!({ "content": [], "structuredContent": { "t": 80 } });
    c["toolInput"] = json!({ "city": "Paris" });
    let r = b.update(&AppActivity::parse(&c).expect("valid"));
    let p = only_post(&r);
    assert_eq!(
        p["method"], "ui/notifications/tool-result",
        "tool-input goes only once"
    );
    assert_eq!(p["params"]["structuredContent"]["t"], 80);
    assert!(
        b.update(&AppActivity::parse(&c).expect("valid")).is_empty(),
        "unchanged"
    );

    let mut light = host();
    light.theme = Theme::Light;
    let r = b.set_host_context(light.clone());
    let p = only_post(&r);
    assert_eq!(p["method"], "ui/notifications/host-context-changed");
    assert_eq!(p["params"]["theme"], "light");
    assert!(b.set_host_context(light).is_empty());
}

#[test]
fn ids_are_echoed_exactly() {
    let mut b = bridge();
    for id in [
        json!(7),
        json!("a-string"),
        json!(1.5),
        json!(18446744073709551615u64),
        json!(-3),
    ] {
        let r = send(
            &mut b,
            1.0,
            json!({ "jsonrpc": "2.0", "id": id, "method": "ping" }),
        );
        assert_eq!(only_post(&r)["id"], id);
    }
    for bad in [
        json!(null),
        json!({ "x": 1 }),
        json!([1]),
        json!(true),
        json!("x".repeat(300)),
    ] {
        let r = send(
            &mut b,
            1.0,
            json!({ "jsonrpc": "2.0", "id": bad, "method": "ping" }),
        );
        let p = only_post(&r);
        assert_eq!(p["id"], Value::Null, "{bad}");
        assert_eq!(p["error"]["code"], -32600);
    }
}

#[test]
fn size_changes_are_clamped() {
    let mut b = bridge();
    let size = |b: &mut Bridge, params: Value| {
        send(
            b,
            1.0,
            json!({ "jsonrpc": "2.0", "method": "ui/notifications/size-changed",
            "params": params }),
        )
    };
    // Height up to the container's maxHeight; width fixed by the host, so ignored.
    assert_eq!(
        size(&mut b, json!({ "width": 9000, "height": 5000 })),
        vec![Out::Resize {
            height: Some(800),
            width: None
        }]
    );
    assert_eq!(
        size(&mut b, json!({ "height": 320.6 })),
        vec![Out::Resize {
            height: Some(321),
            width: None
        }]
    );
    assert!(size(&mut b, json!({ "height": -5 })).is_empty());
    assert!(size(&mut b, json!({ "height": "300" })).is_empty());
    assert!(size(&mut b, json!(null)).is_empty());

    let mut free = host();
    free.width = Dim::Unbounded;
    free.height = Dim::Unbounded;
    let mut b = Bridge::new(0.0, &activity(), CspPolicy::default(), free);
    assert_eq!(
        size(&mut b, json!({ "width": 1e300, "height": 1e9 })),
        vec![Out::Resize {
            height: Some(4000),
            width: Some(4096)
        }]
    );
}

fn call(b: &mut Bridge, id: Value, params: Value) -> Vec<Out> {
    send(
        b,
        3.0,
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }),
    )
}

#[test]
fn tools_call_goes_to_the_host_and_the_answer_keeps_the_id() {
    let mut b = bridge();
    init(&mut b);
    let r = call(
        &mut b,
        json!("call-9"),
        json!({ "name": "get_weather", "arguments": { "city": "Rome" } }),
    );
    let [Out::CallTool {
        id,
        name,
        arguments,
    }] = r.as_slice()
    else {
        panic!("one CallTool: {r:?}");
    };
    assert_eq!(id.value(), &json!("call-9"));
    assert_eq!(name, "get_weather");
    assert_eq!(arguments, &json!({ "city": "Rome" }));

    let id = id.clone();
    let answer = b.tool_result(
        &id,
        Ok(json!({ "content": [{ "type": "text", "text": "sunny" }] })),
    );
    let Some(Out::Post(v)) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(v["id"], "call-9");
    assert_eq!(v["result"]["content"][0]["text"], "sunny");
    assert_eq!(b.tool_result(&id, Ok(json!({}))), None, "answered once");

    let r = call(&mut b, json!(10), json!({ "name": "get_weather" }));
    let [Out::CallTool { id, arguments, .. }] = r.as_slice() else {
        panic!("{r:?}")
    };
    assert_eq!(arguments, &json!({}), "no arguments = {{}}");
    let id = id.clone();
    let Some(Out::Post(v)) = b.tool_result(&id, Err("tool failed".into())) else {
        panic!()
    };
    assert_eq!(v["id"], 10);
    assert_eq!(
        v["error"],
        json!({ "code": -32000, "message": "tool failed" })
    );
}

#[test]
fn tools_call_params_and_budgets_are_checked() {
    let mut b = bridge();
    init(&mut b);
    for params in [
        json!({ "name": "bad name" }),
        json!({ "name": "" }),
        json!({ "name": "x".repeat(129) }),
        json!({ "name": "<img src=x>" }),
        json!({ "name": "ok", "arguments": [1, 2] }),
        json!({}),
        json!("get_weather"),
    ] {
        let r = call(&mut b, json!(1), params.clone());
        assert_eq!(only_post(&r)["error"]["code"], -32602, "{params}");
    }
    let mut b = bridge();
    init(&mut b);
    for i in 0..4 {
        assert!(matches!(
            call(&mut b, json!(i), json!({ "name": "t" }))[..],
            [Out::CallTool { .. }]
        ));
    }
    let r = call(&mut b, json!(3), json!({ "name": "t" }));
    assert_eq!(
        only_post(&r)["error"]["code"],
        -32600,
        "a duplicate id in flight"
    );
    let r = call(&mut b, json!(4), json!({ "name": "t" }));
    assert_eq!(
        only_post(&r)["error"]["code"],
        -32000,
        "a fifth call in flight"
    );
    assert_eq!(r.len(), 1, "busy is not a strike");

    let mut b = bridge().without_tools();
    init(&mut b);
    let r = call(&mut b, json!(1), json!({ "name": "t" }));
    assert_eq!(only_post(&r)["error"]["code"], -32601);
}

#[test]
fn unsupported_methods_get_method_not_found() {
    let mut b = bridge();
    init(&mut b);
    for method in [
        "resources/read",
        "sampling/createMessage",
        "ui/download-file",
        "eval",
    ] {
        let r = send(
            &mut b,
            3.0,
            json!({ "jsonrpc": "2.0", "id": "m", "method": method }),
        );
        let p = only_post(&r);
        assert_eq!(p["id"], "m");
        assert_eq!(p["error"]["code"], -32601, "{method}");
        assert!(r.contains(&Out::Notice(Notice::ProtocolError)));
    }
    let r = send(
        &mut b,
        3.0,
        json!({ "jsonrpc": "2.0", "id": 5, "method": "ui/request-display-mode",
        "params": { "mode": "fullscreen" } }),
    );
    assert_eq!(only_post(&r)["result"], json!({ "mode": "inline" }));
    // Unknown notifications are ignored silently (later spec versions add some).
    assert!(send(
        &mut b,
        3.0,
        json!({ "jsonrpc": "2.0", "method": "notifications/message",
        "params": { "level": "info", "data": "<b>hi</b>" } })
    )
    .is_empty());
}

#[test]
fn malformed_messages_get_parse_and_invalid_request_errors() {
    let mut b = bridge();
    for (data, code) in [
        ("{", -32700),
        ("", -32700),
        ("undefined", -32700),
        ("[]", -32600),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600),
        ("42", -32600),
        (r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600),
        (r#"{"id":1,"method":"ping"}"#, -32600),
        (r#"{"jsonrpc":"2.0","id":1,"method":5}"#, -32600),
    ] {
        let r = b.receive(1.0, "null", data);
        let p = only_post(&r);
        assert_eq!(p["error"]["code"], code, "{data:?}");
        if code == -32700 {
            assert_eq!(p["id"], Value::Null);
        }
    }
    // Deep nesting is a parse error, not a stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut b = bridge().with_budgets(Budgets {
        max_message_bytes: 1 << 20,
        ..Budgets::default()
    });
    assert_eq!(
        only_post(&b.receive(1.0, "null", &deep))["error"]["code"],
        -32700
    );
}

#[test]
fn a_flood_stops_the_view() {
    let mut b = bridge();
    let ping = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" });
    // 60 a second for three seconds is fine.
    for i in 0..180 {
        let r = send(&mut b, f64::from(i) * (1000.0 / 60.0) + 0.5, ping.clone());
        assert_eq!(r.len(), 1, "message {i}");
    }
    let mut b = bridge();
    for _ in 0..60 {
        send(&mut b, 5.0, ping.clone());
    }
    assert_eq!(
        send(&mut b, 6.0, ping.clone()),
        vec![Out::Stop(StopReason::Flood)]
    );
    assert!(send(&mut b, 5000.0, ping).is_empty(), "stopped for good");
    assert!(b.is_stopped());
}

#[test]
fn no_handshake_in_time_stops_the_view() {
    let mut b = bridge();
    assert!(b.tick(9_999.0).is_empty());
    assert_eq!(b.tick(10_001.0), vec![Out::Stop(StopReason::InitTimeout)]);
    assert!(b.tick(20_000.0).is_empty());

    // Answered `ui/initialize` but never said `initialized`: also stopped.
    let mut b = bridge();
    send(
        &mut b,
        1.0,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "ui/initialize" }),
    );
    assert_eq!(b.tick(10_001.0), vec![Out::Stop(StopReason::InitTimeout)]);

    let mut b = bridge();
    init(&mut b);
    assert!(b.tick(1e9).is_empty(), "a running View has no deadline");
    // A clock that is not a number changes nothing.
    assert!(b.tick(f64::NAN).is_empty());
    assert!(b.receive(f64::INFINITY, "null", "{").len() == 2);
}

#[test]
fn an_oversized_message_stops_the_view() {
    let mut b = bridge().with_budgets(Budgets {
        max_message_bytes: 1000,
        ..Budgets::default()
    });
    let big = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping", "params": { "pad": "x".repeat(1000) } });
    assert_eq!(
        send(&mut b, 1.0, big),
        vec![Out::Stop(StopReason::Oversize)]
    );
    assert!(send(
        &mut b,
        2.0,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" })
    )
    .is_empty());
}

#[test]
fn too_many_refused_messages_stop_the_view() {
    let mut b = bridge();
    init(&mut b);
    let bad = json!({ "jsonrpc": "2.0", "id": 1, "method": "nope" });
    for i in 0..8 {
        let r = send(&mut b, 3.0 + f64::from(i), bad.clone());
        assert!(!r.iter().any(|o| matches!(o, Out::Stop(_))), "strike {i}");
    }
    let r = send(&mut b, 20.0, bad);
    assert_eq!(r.last(), Some(&Out::Stop(StopReason::Misbehaving)));
}

#[test]
fn links_go_through_safe_url() {
    let mut b = bridge();
    init(&mut b);
    let link = |b: &mut Bridge, url: &str| {
        send(
            b,
            3.0,
            json!({ "jsonrpc": "2.0", "id": "l", "method": "ui/open-link",
            "params": { "url": url } }),
        )
    };
    let r = link(&mut b, "https://example.com/docs");
    let [Out::OpenLink(url)] = r.as_slice() else {
        panic!("only the link, no answer before the click: {r:?}")
    };
    assert_eq!(url.as_str(), "https://example.com/docs");
    assert_eq!(
        b.link_decided(true),
        Some(Out::Post(
            json!({ "jsonrpc": "2.0", "id": "l", "result": {} })
        ))
    );
    for bad in [
        "javascript:alert(1)",
        "data:text/html,x",
        "https://exa mple.com",
        "file:///etc/passwd",
    ] {
        let r = link(&mut b, bad);
        assert!(!r.iter().any(|o| matches!(o, Out::OpenLink(_))), "{bad}");
        assert_eq!(only_post(&r)["error"]["code"], -32000);
        assert!(r.contains(&Out::Notice(Notice::LinkRefused)));
    }
}

#[test]
fn messages_from_another_origin_stop_the_direct_view() {
    let mut b = bridge();
    let r = b.receive(
        1.0,
        "https://evil.example",
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    );
    assert_eq!(r, vec![Out::Stop(StopReason::WrongOrigin)]);
    assert_eq!(b.target_origin(), "*");
}

#[test]
fn the_proxy_handshake_then_the_view() {
    let proxy = proxy_origin("https://sandbox.example/", "https://app.example").expect("ok");
    let p = policy(&["https://api.example.com"], &[]);
    let mut b = Bridge::proxied(
        0.0,
        &activity(),
        p.clone(),
        host(),
        proxy,
        "<p>app</p>".into(),
    );
    assert_eq!(b.target_origin(), "https://sandbox.example");
    let from_proxy =
        |b: &mut Bridge, msg: Value| b.receive(1.0, "https://sandbox.example", &msg.to_string());

    // Before the proxy is ready, a View message is refused without an answer.
    let r = from_proxy(
        &mut b,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "ui/initialize" }),
    );
    assert_eq!(r, vec![Out::Notice(Notice::ProtocolError)]);
    let r = from_proxy(
        &mut b,
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {} }),
    );
    assert_eq!(only_post(&r), &sandbox_resource_ready("<p>app</p>", &p));
    // Said twice: refused, nothing sent again.
    let r = from_proxy(
        &mut b,
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready" }),
    );
    assert_eq!(r, vec![Out::Notice(Notice::ProtocolError)]);
    let r = from_proxy(
        &mut b,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "ui/initialize" }),
    );
    assert_eq!(only_post(&r)["result"]["protocolVersion"], "2026-01-26");
    assert_eq!(
        only_post(&r)["result"]["hostCapabilities"]["sandbox"]["csp"]["connectDomains"],
        json!(["https://api.example.com"])
    );
    // The opaque origin is not the proxy's.
    let r = b.receive(
        2.0,
        "null",
        r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#,
    );
    assert_eq!(r, vec![Out::Stop(StopReason::WrongOrigin)]);
}

#[test]
fn teardown_waits_for_the_answer_or_the_timeout() {
    let mut b = bridge();
    init(&mut b);
    let r = b.teardown(5.0, "closed");
    let req = only_post(&r);
    assert_eq!(req["method"], "ui/resource-teardown");
    assert_eq!(req["params"]["reason"], "closed");
    let id = req["id"].clone();
    // A response to another id is not the answer.
    let r = send(
        &mut b,
        6.0,
        json!({ "jsonrpc": "2.0", "id": "other", "result": {} }),
    );
    assert_eq!(r, vec![Out::Notice(Notice::ProtocolError)]);
    let r = send(
        &mut b,
        7.0,
        json!({ "jsonrpc": "2.0", "id": id, "result": {} }),
    );
    assert_eq!(r, vec![Out::Stop(StopReason::TornDown)]);

    let mut b = bridge();
    init(&mut b);
    b.teardown(5.0, "closed");
    assert!(b.tick(3_000.0).is_empty());
    assert_eq!(b.tick(3_006.0), vec![Out::Stop(StopReason::TornDown)]);

    let mut b = bridge();
    assert_eq!(
        b.teardown(5.0, "never started"),
        vec![Out::Stop(StopReason::TornDown)]
    );
}

#[test]
fn pending_calls_are_dropped_when_stopped() {
    let mut b = bridge();
    init(&mut b);
    let r = call(&mut b, json!(1), json!({ "name": "t" }));
    let [Out::CallTool { id, .. }] = r.as_slice() else {
        panic!("{r:?}")
    };
    let id: RpcId = id.clone();
    b.teardown(5.0, "x");
    b.tick(1e6);
    assert!(b.is_stopped());
    assert_eq!(b.tool_result(&id, Ok(json!({}))), None);
}

#[test]
fn no_input_panics() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&(".{0,200}", ".{0,80}"), |(data, url)| {
            let mut b = bridge();
            init(&mut b);
            let _ = b.receive(10.0, "null", &data);
            let _ = proxy_origin(&url, "https://app.example");
            let p = policy(&[url.as_str()], &[url.as_str()]);
            prop_assert!(!p.header().contains('"'));
            let _ = srcdoc(&data, &p);
            if let Ok(v) = serde_json::from_str::<Value>(&data) {
                let _ = AppActivity::parse(&v);
                let _ = AppResource::parse(&v);
            }
            Ok(())
        })
        .expect("no panics");
}

// ---- the demo agent's app (issue 14 item 3) -----------------------------------------------

/// The events of the demo's reply to `input`.
fn demo_events(input: &serde_json::Value) -> Vec<serde_json::Value> {
    use agui_leptos::demo::{body, respond, DemoRequest};
    String::from_utf8(body(&respond(&DemoRequest::from_input(input))))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn demo_input(forwarded: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "threadId": "t", "runId": "r", "state": {},
        "messages": [{"id": "u1", "role": "user", "content": "show the map"}],
        "tools": [], "context": [], "forwardedProps": forwarded,
    })
}

#[test]
fn the_demo_map_is_fetched_and_called_through_proxied_runs_like_the_middleware() {
    let events = demo_events(&demo_input(serde_json::Value::Null));
    let activity = events
        .iter()
        .find(|e| e["type"] == "ACTIVITY_SNAPSHOT")
        .expect("an activity");
    assert_eq!(
        activity["activityType"],
        agui_leptos::mcp_apps::ACTIVITY_TYPE
    );
    let app = AppActivity::parse(&activity["content"]).expect("a usable app");
    assert!(app.resource.is_none(), "the middleware's shape: no HTML");
    assert_eq!(
        app.tool_input.as_ref().unwrap()["venues"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );

    // resources/read through a proxied run: the result is the View.
    let finished = |events: &[serde_json::Value]| {
        events
            .iter()
            .find(|e| e["type"] == "RUN_FINISHED")
            .cloned()
            .expect("finished")
    };
    let read = demo_events(&demo_input(app.read_request()));
    assert!(
        read.iter().all(|e| e["type"] != "TEXT_MESSAGE_START"),
        "no agent answer"
    );
    let result = proxied_result(finished(&read).get("result")).expect("a result");
    let resource = AppResource::from_read_result(&result, &app.resource_uri).expect("the View");
    assert!(resource.html.contains("ui/initialize") && !resource.html.contains("fetch("));

    // tools/call venue_details, and an unknown tool.
    let call = demo_events(&demo_input(app.call_request(
        "venue_details",
        &serde_json::json!({"name": "Tasca do Miradouro"}),
    )));
    let result = proxied_result(finished(&call).get("result")).expect("a tool result");
    assert!(result["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("river view"));
    let bad = demo_events(&demo_input(
        app.call_request("rm_rf", &serde_json::json!({})),
    ));
    assert!(proxied_result(finished(&bad).get("result")).is_err());
}

fn ctx_modes(result: &Value) -> Value {
    result["hostContext"]["availableDisplayModes"].clone()
}

fn request(b: &mut Bridge, id: Value, method: &str, params: Value) -> Vec<Out> {
    send(
        b,
        3.0,
        json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }),
    )
}

fn user_text(text: &str) -> Value {
    json!({ "role": "user", "content": [{ "type": "text", "text": text }] })
}

#[test]
fn ui_message_waits_for_the_person_and_is_answered_by_their_decision() {
    let mut b = bridge();
    init(&mut b);
    let r = request(&mut b, json!(7), "ui/message", user_text("Book the  table"));
    assert_eq!(
        r,
        vec![Out::Message("Book the  table".into())],
        "no answer yet"
    );
    // Another one while it waits: refused, the first stays as the person sees it.
    let r = request(&mut b, json!(8), "ui/message", user_text("Transfer money"));
    let p = only_post(&r);
    assert_eq!(
        (p["id"].clone(), p["error"]["code"].clone()),
        (json!(8), json!(-32000))
    );
    assert!(
        !r.iter()
            .any(|o| matches!(o, Out::Message(_) | Out::Notice(_))),
        "{r:?}"
    );
    // Sent: `{}` with the first id.
    let Some(Out::Post(answer)) = b.message_decided(true) else {
        panic!("an answer")
    };
    assert_eq!(answer, json!({ "jsonrpc": "2.0", "id": 7, "result": {} }));
    assert_eq!(b.message_decided(true), None, "answered once");
    // Dismissed: denied.
    let r = request(
        &mut b,
        json!("m2"),
        "ui/message",
        json!({ "role": "user", "content": { "type": "text", "text": "one block" } }),
    );
    assert_eq!(
        r,
        vec![Out::Message("one block".into())],
        "the stable spec's single block"
    );
    let Some(Out::Post(answer)) = b.message_decided(false) else {
        panic!("an answer")
    };
    assert_eq!(answer["id"], "m2");
    assert_eq!(answer["error"]["code"], -32000);
    assert_eq!(answer["error"]["message"], "Message sending denied by user");
}

#[test]
fn ui_message_is_plain_bounded_user_text() {
    let mut b = bridge();
    init(&mut b);
    // Blocks join; controls and bidi overrides go, newlines and tabs stay.
    let r = request(
        &mut b,
        json!(1),
        "ui/message",
        json!({ "role": "user", "content": [
        { "type": "text", "text": "  a\u{0}b\u{202e}c\u{2066}" },
        { "type": "text", "text": "x\ty\u{7}" }] }),
    );
    assert_eq!(r, vec![Out::Message("abc\n\nx\ty".into())]);
    b.message_decided(false);
    for params in [
        json!({ "role": "assistant", "content": [{ "type": "text", "text": "hi" }] }),
        json!({ "content": [{ "type": "text", "text": "hi" }] }),
        json!({ "role": "user", "content": [{ "type": "image", "data": "AAAA", "mimeType": "image/png" }] }),
        json!({ "role": "user", "content": [{ "type": "text", "text": "ok" }, { "type": "resource_link", "uri": "https://x" }] }),
        json!({ "role": "user", "content": [{ "type": "text", "text": " \u{202e} " }] }),
        json!({ "role": "user", "content": "hi" }),
        json!({ "role": "user", "content": [] }),
        json!({ "role": "user" }),
        json!("hi"),
    ] {
        let r = request(&mut b, json!(2), "ui/message", params.clone());
        assert_eq!(only_post(&r)["error"]["code"], -32602, "{params}");
        assert!(!r.iter().any(|o| matches!(o, Out::Message(_))), "{params}");
    }
    let mut b = bridge().with_budgets(Budgets {
        max_strikes: 100,
        ..Budgets::default()
    });
    init(&mut b);
    let max = Budgets::default().max_ui_message_bytes;
    let r = request(
        &mut b,
        json!(3),
        "ui/message",
        user_text(&"é".repeat(max / 2 + 1)),
    );
    let p = only_post(&r);
    assert_eq!(
        (p["error"]["code"].clone(), p["error"]["message"].clone()),
        (json!(-32000), json!("Message too long"))
    );
    let r = request(&mut b, json!(4), "ui/message", user_text(&"a".repeat(max)));
    assert!(
        matches!(&r[..], [Out::Message(t)] if t.len() == max),
        "exactly at the budget"
    );
    // Before the handshake: refused like every other request.
    let mut b = bridge();
    let r = request(&mut b, json!(1), "ui/message", user_text("early"));
    assert_eq!(only_post(&r)["error"]["code"], -32600);
}

#[test]
fn open_link_is_answered_when_the_person_clicks_or_dismisses_it() {
    let mut b = bridge();
    init(&mut b);
    let url = |u: &str| json!({ "url": u });
    let r = request(
        &mut b,
        json!(4),
        "ui/open-link",
        url("https://maps.example/a"),
    );
    assert!(
        matches!(r.as_slice(), [Out::OpenLink(u)] if u.as_str() == "https://maps.example/a"),
        "{r:?}"
    );
    assert!(posts(&r).is_empty(), "no answer before the person acts");
    // Another while it waits: refused, the first stays as the person sees it.
    let r = request(
        &mut b,
        json!(5),
        "ui/open-link",
        url("https://evil.example/"),
    );
    let p = only_post(&r);
    assert_eq!(
        (p["id"].clone(), p["error"]["code"].clone()),
        (json!(5), json!(-32000))
    );
    assert!(!r
        .iter()
        .any(|o| matches!(o, Out::OpenLink(_) | Out::Notice(_))));
    // Clicked: `{}` with the first id, once.
    assert_eq!(
        b.link_decided(true),
        Some(Out::Post(
            json!({ "jsonrpc": "2.0", "id": 4, "result": {} })
        ))
    );
    assert_eq!(b.link_decided(true), None, "answered once");
    assert_eq!(b.link_decided(false), None);
    // Dismissed: denied by the user.
    let r = request(
        &mut b,
        json!("l2"),
        "ui/open-link",
        url("mailto:a@example.com"),
    );
    assert!(matches!(r.as_slice(), [Out::OpenLink(_)]), "{r:?}");
    let Some(Out::Post(answer)) = b.link_decided(false) else {
        panic!("an answer")
    };
    assert_eq!(answer["id"], "l2");
    assert_eq!(answer["error"]["code"], -32000);
    assert_eq!(answer["error"]["message"], "Link opening denied by user");
    // A waiting link is dropped when the View stops.
    request(
        &mut b,
        json!(6),
        "ui/open-link",
        url("https://maps.example/b"),
    );
    b.teardown(4.0, "gone");
    b.tick(10_000.0);
    assert!(b.is_stopped());
    assert_eq!(b.link_decided(true), None);
}

#[test]
fn a_message_that_cannot_be_sent_is_answered_with_an_error() {
    let mut b = bridge();
    init(&mut b);
    request(&mut b, json!(9), "ui/message", user_text("Book it"));
    let Some(Out::Post(answer)) = b.message_refused() else {
        panic!("an answer")
    };
    assert_eq!(answer["id"], 9);
    assert_eq!(answer["error"]["code"], -32000);
    assert!(answer.get("result").is_none(), "{answer}");
    assert_eq!(b.message_refused(), None, "answered once");
    assert_eq!(b.message_decided(true), None);
}

/// Where a View's message goes when the person clicks Send: sent when the agent is free,
/// queued (as the composer queues) while a run is live, refused — nothing added — while an
/// interrupt is open or when the queue is off or full.
#[test]
fn an_offered_message_is_sent_queued_or_refused() {
    use agui_leptos::session::{
        queue::MAX_QUEUED, AgentConfig, LocalAgentRef, Offered, Session, TestEnv,
    };
    let session = |queue: bool| {
        Session::new(
            AgentConfig {
                local_agent: Some(LocalAgentRef::new(Silent)),
                queue,
                ..AgentConfig::default()
            },
            std::rc::Rc::new(TestEnv::default()),
        )
    };
    let users = |s: &Session| {
        s.thread()
            .messages
            .iter()
            .filter(|m| m.role.as_str() == "user")
            .count()
    };
    let mut s = session(true);
    assert!(matches!(s.offer("  "), Offered::Refused));
    let Offered::Sent(Some(req)) = s.offer("one") else {
        panic!("sent")
    };
    assert_eq!(users(&s), 1);
    // While it runs: queued, like the composer's.
    assert!(matches!(s.offer("two"), Offered::Queued));
    assert_eq!(s.queued().len(), 1);
    for i in 1..MAX_QUEUED {
        assert!(matches!(s.offer(&format!("q{i}")), Offered::Queued));
    }
    assert!(
        matches!(s.offer("one too many"), Offered::Refused),
        "the queue is full"
    );
    assert_eq!(s.queued().len(), MAX_QUEUED);
    s.end_run(req.generation, Ok(()));
    // The queue off: refused while a run is live.
    let mut s = session(false);
    let Offered::Sent(Some(req)) = s.offer("one") else {
        panic!("sent")
    };
    assert!(matches!(s.offer("two"), Offered::Refused));
    assert!(s.queued().is_empty());
    s.end_run(req.generation, Ok(()));
    // An interrupt open: refused, nothing added (it must be answered first).
    let mut s = session(true);
    let g = s.begin_external();
    let t = s.thread_id().to_owned();
    let events = [
        json!({"type": "RUN_STARTED", "threadId": t, "runId": "r-i"}),
        json!({"type": "RUN_FINISHED", "threadId": t, "runId": "r-i", "outcome": {"type": "interrupt",
            "interrupts": [{"id": "i-1", "reason": "input_required", "message": "How many?"}]}}),
    ];
    let body: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    s.push(g, body.as_bytes());
    s.end_run(g, Ok(()));
    assert_eq!(
        s.thread().open_interrupts().len(),
        1,
        "the interrupt is open"
    );
    assert!(!s.running());
    assert!(matches!(s.offer("Book it"), Offered::Refused));
    assert_eq!(users(&s), 0, "nothing added");
    assert!(s.queued().is_empty(), "nothing queued");
}

#[test]
fn a_waiting_message_is_dropped_when_the_view_stops() {
    let mut b = bridge();
    init(&mut b);
    request(&mut b, json!(1), "ui/message", user_text("hello"));
    b.teardown(4.0, "gone");
    b.tick(10_000.0);
    assert!(b.is_stopped());
    assert_eq!(b.message_decided(true), None);
}

#[test]
fn update_model_context_replaces_and_clears_bounded_text_and_structured_content() {
    let mut b = bridge();
    init(&mut b);
    let r = request(
        &mut b,
        json!(1),
        "ui/update-model-context",
        json!({
            "content": [{ "type": "text", "text": "Selected: Alfama" }],
            "structuredContent": { "venue": "alfama-1", "guests": 2 },
        }),
    );
    let [Out::ModelContext(Some(text)), Out::Post(answer)] = &r[..] else {
        panic!("{r:?}")
    };
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap(),
        json!({ "content": [{ "type": "text", "text": "Selected: Alfama" }],
                "structuredContent": { "venue": "alfama-1", "guests": 2 } })
    );
    assert_eq!(answer, &json!({ "jsonrpc": "2.0", "id": 1, "result": {} }));
    // Only structured content: only that is kept (no stale text).
    let r = request(
        &mut b,
        json!(2),
        "ui/update-model-context",
        json!({ "structuredContent": { "n": 1 } }),
    );
    assert_eq!(
        r[0],
        Out::ModelContext(Some(r#"{"structuredContent":{"n":1}}"#.into()))
    );
    // Nothing: cleared.
    for params in [json!({}), json!({ "content": [] }), Value::Null] {
        let r = request(&mut b, json!(3), "ui/update-model-context", params.clone());
        assert_eq!(r[0], Out::ModelContext(None), "{params}");
        assert_eq!(posts(&r)[0]["result"], json!({}));
    }
    // Other blocks and shapes are refused (a strike), nothing changes.
    for params in [
        json!({ "content": [{ "type": "image", "data": "AAAA", "mimeType": "image/png" }] }),
        json!({ "content": "text" }),
        json!({ "structuredContent": [1, 2] }),
        json!([1]),
    ] {
        let r = request(&mut b, json!(4), "ui/update-model-context", params.clone());
        assert_eq!(only_post(&r)["error"]["code"], -32602, "{params}");
        assert!(
            !r.iter().any(|o| matches!(o, Out::ModelContext(_))),
            "{params}"
        );
    }
    // Over the budget: refused with the host's error, not stored.
    let max = Budgets::default().max_model_context_bytes;
    let r = request(
        &mut b,
        json!(5),
        "ui/update-model-context",
        json!({ "structuredContent": { "blob": "x".repeat(max) } }),
    );
    assert_eq!(only_post(&r)["error"]["message"], "Context too large");
    assert!(!r.iter().any(|o| matches!(o, Out::ModelContext(_))));
}

#[test]
fn request_display_mode_answers_inline_and_checks_the_mode() {
    let mut b = bridge();
    init(&mut b);
    for mode in ["inline", "fullscreen", "pip"] {
        let r = request(
            &mut b,
            json!(1),
            "ui/request-display-mode",
            json!({ "mode": mode }),
        );
        assert_eq!(
            only_post(&r)["result"],
            json!({ "mode": "inline" }),
            "{mode}"
        );
    }
    for params in [
        json!({ "mode": "maximized" }),
        json!({}),
        json!({ "mode": 1 }),
    ] {
        let r = request(&mut b, json!(2), "ui/request-display-mode", params.clone());
        assert_eq!(only_post(&r)["error"]["code"], -32602, "{params}");
    }
}

// ---- the model context in the session ----

struct Silent;

impl agui_leptos::session::LocalAgent for Silent {
    fn respond(&self, _: &Value) -> Vec<agui_leptos::session::TimedChunk> {
        Vec::new()
    }
}

#[test]
fn a_views_model_context_goes_in_the_following_runs_of_its_thread() {
    use agui_leptos::protocol::types::Context;
    use agui_leptos::session::{AgentConfig, LocalAgentRef, Session, TestEnv, MAX_APP_CONTEXTS};
    let mut s = Session::new(
        AgentConfig {
            local_agent: Some(LocalAgentRef::new(Silent)),
            ..AgentConfig::default()
        },
        std::rc::Rc::new(TestEnv::default()),
    );
    let run = |s: &mut Session, text: &str| {
        let req = s.send(text).expect("a run");
        s.end_run(req.generation, Ok(()));
        req.body["context"].clone()
    };
    assert_eq!(run(&mut s, "one"), json!([]));
    let ctx = |v: &str| Context {
        description: "MCP App ui://maps/lisbon".into(),
        value: v.into(),
    };
    s.set_app_context("app-1", Some(ctx("first")));
    s.set_app_context("app-1", Some(ctx("second")));
    s.set_app_context("app-2", Some(ctx("other")));
    assert_eq!(
        run(&mut s, "two"),
        json!([{ "description": "MCP App ui://maps/lisbon", "value": "second" },
               { "description": "MCP App ui://maps/lisbon", "value": "other" }]),
        "the last update of each View, not one per update"
    );
    assert_eq!(
        run(&mut s, "three").as_array().map(Vec::len),
        Some(2),
        "kept"
    );
    s.set_app_context("app-2", None);
    assert_eq!(run(&mut s, "four").as_array().map(Vec::len), Some(1));
    for i in 0..MAX_APP_CONTEXTS + 3 {
        s.set_app_context(&format!("v{i}"), Some(ctx(&i.to_string())));
    }
    let sent = run(&mut s, "five");
    assert_eq!(sent.as_array().map(Vec::len), Some(MAX_APP_CONTEXTS));
    assert_eq!(sent[0]["value"], "3", "the oldest went");
    // Another thread starts without them.
    assert!(s.new_thread().unwrap());
    assert_eq!(run(&mut s, "fresh"), json!([]));
}
