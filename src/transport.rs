//! Browser transport: POST the `RunAgentInput`, read the SSE body with fetch streaming
//! (`ReadableStream` reader) and hand every chunk to the caller **as it arrives**; plus a
//! local agent (the offline demo is one) played back with its own timing through the very same callback.
//!
//! Errors are values ([`TransportError`], defined in the session layer): a non-2xx status keeps
//! its body text, a non-SSE content type is refused before reading, and Stop (an
//! `AbortController`) is distinguishable from a failure. Spec digest §1.2–1.4. The person sees
//! them worded by the catalog (`wording`); the `Display` text (English) is for logs and
//! the inspector.

use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;
use std::task::Poll;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, Request, Response};

use crate::embed::{endpoint_allowed, Target};
use crate::protocol::Wire;
use crate::session::{
    Credentials, FetchPolicy, HeaderRequest, HeaderSource, HEADER_SOURCE_TIMEOUT_MS,
};
use crate::view::failure::{error_body, EndpointRefusal, ERROR_BODY_BYTES};
use web_sys::{RequestCredentials, RequestRedirect, ResponseType};

pub use crate::view::failure::TransportError;

pub mod threads;

/// Stops a running transport (Stop button).
#[derive(Clone)]
pub enum AbortHandle {
    Fetch(AbortController),
    Local(Rc<Cell<bool>>),
}

impl AbortHandle {
    pub fn abort(&self) {
        match self {
            AbortHandle::Fetch(c) => c.abort(),
            AbortHandle::Local(flag) => flag.set(true),
        }
    }

    fn aborted(&self) -> bool {
        match self {
            AbortHandle::Fetch(c) => c.signal().aborted(),
            AbortHandle::Local(flag) => flag.get(),
        }
    }
}

fn js_error(e: JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

fn is_abort(e: &JsValue) -> bool {
    Reflect::get(e, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string())
        .is_some_and(|n| n == "AbortError")
}

/// A new abort handle for an HTTP run.
pub fn fetch_abort_handle() -> Result<AbortHandle, TransportError> {
    AbortController::new()
        .map(AbortHandle::Fetch)
        .map_err(|e| TransportError::Network(js_error(e)))
}

/// Whether a run may go to `endpoint`: resolved against the page's address by the browser's
/// URL parser, it must be http(s) and, with the page's `allowed-endpoints`, inside one of them
/// (`crate::embed::endpoint_allowed`). Checked before every run, wherever the endpoint came
/// from (attribute, URL, settings form, JS).
pub fn check_endpoint(endpoint: &str, allowed: Option<&[String]>) -> Result<(), TransportError> {
    let refused = |reason| TransportError::Refused {
        endpoint: endpoint.to_owned(),
        reason,
    };
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let resolve = |u: &str| web_sys::Url::new_with_base(u, &base).ok();
    let url = resolve(endpoint).ok_or_else(|| refused(EndpointRefusal::Scheme))?;
    if !matches!(url.protocol().as_str(), "http:" | "https:") {
        return Err(refused(EndpointRefusal::Scheme));
    }
    let Some(allowed) = allowed else {
        return Ok(());
    };
    let entries: Vec<(String, String)> = allowed
        .iter()
        .filter_map(|a| resolve(a))
        .map(|a| (a.origin(), a.pathname()))
        .collect();
    let targets: Vec<Target> = entries
        .iter()
        .map(|(origin, path)| Target { origin, path })
        .collect();
    let (origin, path) = (url.origin(), url.pathname());
    if endpoint_allowed(
        Target {
            origin: &origin,
            path: &path,
        },
        &targets,
    ) {
        Ok(())
    } else {
        Err(refused(EndpointRefusal::NotAllowed))
    }
}

/// What [`run_http`] sends.
pub struct HttpRequest<'a> {
    pub endpoint: &'a str,
    pub headers: &'a [(String, String)],
    pub fetch: FetchPolicy,
    pub accept: &'a str,
    /// The JSON body of a `POST`; `None`: a `GET`.
    pub body: Option<&'a str>,
}

/// POST `body` (`None`: GET) to `endpoint`, tell `on_open` the response's wire (from its headers), and feed
/// the response body to `on_chunk` as it streams in.
///
/// `on_open` is awaited before the first byte is read: the decoder a response needs may have
/// to be fetched first (the lean widget's protobuf module). When it fails, the body is not
/// read and its error is the run's.
///
/// The request is built with gloo-net (method, headers, abort signal, body) and its response
/// read through gloo-net's `Response` (status, content type); the body is read with web-sys's
/// `ReadableStream` reader, chunk by chunk. The fetch call itself is made here, not with
/// gloo-net's `send`: that maps a rejected fetch through `unreachable!` when the rejection is
/// not a JS `Error` — and a page's own fetch wrapper may reject with anything — and a panic
/// would kill every widget on the page. For the same reason every header is checked before
/// gloo-net's `Headers::set` (which throws on a value the Fetch API refuses). (gloo-net
/// rebuilds the URL with its query parameters: an endpoint with a query string gets a
/// trailing `&`, which servers ignore.)
pub async fn run_http<Opened>(
    request: HttpRequest<'_>,
    abort: &AbortHandle,
    on_open: impl FnOnce(Wire) -> Opened,
    mut on_chunk: impl FnMut(&[u8]),
) -> Result<(), TransportError>
where
    Opened: std::future::Future<Output = Result<(), TransportError>>,
{
    let HttpRequest {
        endpoint,
        headers,
        fetch,
        accept,
        body,
    } = request;
    let net = |e: JsValue| {
        if is_abort(&e) {
            TransportError::Aborted
        } else {
            TransportError::Network(js_error(e))
        }
    };
    // A redirect is seen (`manual`), not followed, unless the page opted in; credentials are
    // stated, never left to a default.
    let mut request = match body {
        Some(_) => {
            gloo_net::http::Request::post(endpoint).header("Content-Type", "application/json")
        }
        None => gloo_net::http::Request::get(endpoint),
    }
    .header("Accept", accept)
    .redirect(if fetch.follow_redirects {
        RequestRedirect::Follow
    } else {
        RequestRedirect::Manual
    })
    .credentials(match fetch.credentials {
        Credentials::Omit => RequestCredentials::Omit,
        Credentials::SameOrigin => RequestCredentials::SameOrigin,
        Credentials::Include => RequestCredentials::Include,
    });
    for (name, value) in headers {
        if !crate::embed::valid_header(name, value) {
            return Err(TransportError::Network(format!(
                "header {name:?} cannot be sent"
            )));
        }
        request = request.header(name, value);
    }
    if let AbortHandle::Fetch(c) = abort {
        request = request.abort_signal(Some(&c.signal()));
    }
    let request: Request = match body {
        Some(body) => request
            .body(body)
            .map_err(|e| TransportError::Network(e.to_string()))?
            .into(),
        None => request
            .build()
            .map_err(|e| TransportError::Network(e.to_string()))?
            .into(),
    };
    let window = web_sys::window().ok_or_else(|| TransportError::Network("no window".into()))?;
    let raw: Response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(net)?
        .dyn_into()
        .map_err(|v: JsValue| net(v))?;
    // The same JS object (not `Response.clone()`, which would tee the body).
    let response = gloo_net::http::Response::from(Clone::clone(&raw));
    if response.type_() == ResponseType::Opaqueredirect {
        return Err(TransportError::Redirected);
    }
    let status = response.status();
    if !response.ok() {
        // At most ERROR_BODY_BYTES of it are read: a server may answer an error with anything.
        let mut bytes = Vec::new();
        if let Some(stream) = response.body() {
            if let Ok(reader) = stream
                .get_reader()
                .dyn_into::<ReadableStreamDefaultReader>()
            {
                while bytes.len() < ERROR_BODY_BYTES {
                    let Ok(chunk) = JsFuture::from(reader.read()).await else {
                        break;
                    };
                    match Reflect::get(&chunk, &JsValue::from_str("value")) {
                        Ok(v) if v.is_instance_of::<Uint8Array>() => {
                            bytes.extend(Uint8Array::from(v).to_vec());
                        }
                        _ => break,
                    }
                }
                let _ = reader.cancel();
            }
        }
        return Err(TransportError::Status {
            status,
            body: error_body(&bytes),
        });
    }
    // No content: nothing to stream (a resumed AI SDK chat with nothing in flight).
    if status == 204 {
        return Ok(());
    }
    let content_type = response.headers().get("content-type").unwrap_or_default();
    let headers = response.headers();
    let wire = Wire::of_response(
        Some(&content_type),
        headers.get(crate::protocol::wire::AI_SDK_HEADER).as_deref(),
    );
    if wire != Wire::Proto
        && !content_type
            .to_ascii_lowercase()
            .starts_with("text/event-stream")
    {
        return Err(TransportError::NotSse(content_type));
    }
    let stream = response.body().ok_or(TransportError::NoBody)?;
    if let Err(e) = on_open(wire).await {
        let _ = stream.cancel();
        return Err(e);
    }
    let reader: ReadableStreamDefaultReader = stream
        .get_reader()
        .dyn_into()
        .map_err(|o: js_sys::Object| net(o.into()))?;
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(net)?;
        let done = Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            return Ok(());
        }
        if let Ok(value) = Reflect::get(&chunk, &JsValue::from_str("value")) {
            if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
                on_chunk(&bytes.to_vec());
            }
        }
        if abort.aborted() {
            return Err(TransportError::Aborted);
        }
    }
}

/// The most headers a page's [`HeaderSource`] may give one request.
const MAX_SOURCE_HEADERS: usize = 64;

/// The page's computed headers for one request ([`HeaderSource`]): what it settles to within
/// [`HEADER_SOURCE_TIMEOUT_MS`], each header one the Fetch API takes; else why not.
pub async fn source_headers(
    source: &HeaderSource,
    refresh: bool,
) -> Result<Vec<(String, String)>, TransportError> {
    let mut headers = source.headers(HeaderRequest { refresh });
    let mut timeout = Box::pin(sleep(HEADER_SOURCE_TIMEOUT_MS));
    let settled = std::future::poll_fn(|cx| {
        if let Poll::Ready(r) = headers.as_mut().poll(cx) {
            return Poll::Ready(Some(r));
        }
        timeout.as_mut().poll(cx).map(|()| None)
    })
    .await;
    let headers = match settled {
        Some(Ok(headers)) => headers,
        Some(Err(reason)) => return Err(TransportError::Headers(reason)),
        None => {
            return Err(TransportError::Headers(format!(
                "no answer within {} s",
                HEADER_SOURCE_TIMEOUT_MS / 1000
            )))
        }
    };
    if headers.len() > MAX_SOURCE_HEADERS {
        return Err(TransportError::Headers(format!(
            "more than {MAX_SOURCE_HEADERS} headers"
        )));
    }
    match headers
        .iter()
        .find(|(name, value)| !crate::embed::valid_header(name, value))
    {
        Some((name, _)) => Err(TransportError::Headers(format!(
            "header {name:?} cannot be sent"
        ))),
        None => Ok(headers),
    }
}

/// Resolve after `ms` milliseconds (a `setTimeout` promise).
pub async fn sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// Play a local agent's reply: the same bytes a server would send, with its timing.
pub async fn run_local(
    chunks: Vec<crate::session::TimedChunk>,
    abort: &AbortHandle,
    speed: f64,
    mut on_chunk: impl FnMut(&[u8]),
) -> Result<(), TransportError> {
    for chunk in chunks {
        if chunk.delay_ms > 0 && speed > 0.0 {
            sleep((chunk.delay_ms as f64 / speed) as u32).await;
        }
        if abort.aborted() {
            return Err(TransportError::Aborted);
        }
        on_chunk(&chunk.bytes);
    }
    Ok(())
}
