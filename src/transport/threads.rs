//! `threads-url`: a site's thread store over REST (`docs/dev/thread-store.md`), as a
//! [`ThreadStore`]. Each call carries the page's headers (its `headers` function asked before
//! every call, and again after a `401`/`403`, which is retried once) and the widget's
//! `credentials`; the URL is the page author's, checked like the agent's endpoint (http(s),
//! the page's `allowed-endpoints`) before every call, and a next page must stay on it. A
//! redirect is refused; an answer is read up to [`MAX_ANSWER_BYTES`]; a call that does not
//! finish within [`CALL_TIMEOUT_MS`] fails (and is tried again later by the session).

use js_sys::{Reflect, Uint8Array};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestCredentials, RequestRedirect};

use super::{check_endpoint, js_error, sleep, source_headers};
use crate::session::remote::{
    next_link, valid_id, Expect, ListPage, Loaded, StoreFailure, StoreFuture, ThreadStore,
};
use crate::session::{merge_headers, Credentials, FetchPolicy, HeaderSource};

/// The most of an answer read: a record is at most 5 MiB at the reference server.
pub const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;
/// How long one call may take (ms).
pub const CALL_TIMEOUT_MS: u32 = 30_000;

/// A thread store at a URL.
pub struct RestThreadStore {
    url: String,
    headers: Vec<(String, String)>,
    source: Option<HeaderSource>,
    fetch: FetchPolicy,
    allowed: Option<Vec<String>>,
}

impl RestThreadStore {
    /// The store at `url` (the page's `threads-url`), with the page's headers, header
    /// function, fetch policy and allow-list.
    pub fn new(
        url: &str,
        headers: Vec<(String, String)>,
        source: Option<HeaderSource>,
        fetch: FetchPolicy,
        allowed: Option<Vec<String>>,
    ) -> Self {
        RestThreadStore {
            url: url.trim_end_matches('/').to_owned(),
            headers,
            source,
            fetch,
            allowed,
        }
    }

    fn shared(&self) -> Shared {
        Shared {
            headers: self.headers.clone(),
            source: self.source.clone(),
            fetch: self.fetch,
            allowed: self.allowed.clone(),
            base: self.url.clone(),
        }
    }

    fn record_url(&self, id: &str) -> Result<String, StoreFailure> {
        if !valid_id(id) {
            return Err(failed(format!("{id:?} is not a thread store id")));
        }
        let id = String::from(js_sys::encode_uri_component(id));
        Ok(format!("{}/{id}", self.url))
    }
}

/// What every call needs, owned (the futures outlive the borrow).
struct Shared {
    headers: Vec<(String, String)>,
    source: Option<HeaderSource>,
    fetch: FetchPolicy,
    allowed: Option<Vec<String>>,
    base: String,
}

/// An answer: its status, the headers the contract reads, its body.
struct Reply {
    status: u16,
    etag: Option<String>,
    link: Option<String>,
    body: Vec<u8>,
    /// The URL that was asked (a `Link` is relative to it).
    url: String,
}

fn failed(e: impl std::fmt::Display) -> StoreFailure {
    StoreFailure::Failed(e.to_string())
}

impl Shared {
    /// One call: the page's headers (asked again and retried once after a `401`/`403`).
    async fn call(
        &self,
        method: &str,
        url: &str,
        condition: Option<(&str, String)>,
        body: Option<String>,
    ) -> Result<Reply, StoreFailure> {
        check_endpoint(url, self.allowed.as_deref()).map_err(failed)?;
        let mut refresh = false;
        loop {
            let mut headers = match &self.source {
                Some(source) => merge_headers(
                    &self.headers,
                    source_headers(source, refresh).await.map_err(failed)?,
                ),
                None => self.headers.clone(),
            };
            // The contract's own header, never the page's.
            if let Some((name, value)) = &condition {
                headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                headers.push(((*name).to_owned(), value.clone()));
            }
            let reply = self.send(method, url, &headers, body.as_deref()).await?;
            if matches!(reply.status, 401 | 403) && self.source.is_some() && !refresh {
                refresh = true;
                continue;
            }
            return match reply.status {
                200..=299 => Ok(reply),
                404 => Err(StoreFailure::NotFound),
                412 => Err(StoreFailure::Conflict),
                status => Err(failed(format!("HTTP {status}"))),
            };
        }
    }

    async fn send(
        &self,
        method: &str,
        url: &str,
        headers: &[(String, String)],
        body: Option<&str>,
    ) -> Result<Reply, StoreFailure> {
        let mut request = match method {
            "PUT" => gloo_net::http::Request::put(url).header("Content-Type", "application/json"),
            "DELETE" => gloo_net::http::Request::delete(url),
            _ => gloo_net::http::Request::get(url),
        }
        .header("Accept", "application/json")
        .redirect(if self.fetch.follow_redirects {
            RequestRedirect::Follow
        } else {
            RequestRedirect::Manual
        })
        .credentials(match self.fetch.credentials {
            Credentials::Omit => RequestCredentials::Omit,
            Credentials::SameOrigin => RequestCredentials::SameOrigin,
            Credentials::Include => RequestCredentials::Include,
        });
        for (name, value) in headers {
            if !crate::embed::valid_header(name, value) {
                return Err(failed(format!("header {name:?} cannot be sent")));
            }
            request = request.header(name, value);
        }
        let abort = AbortController::new().map_err(|e| failed(js_error(e)))?;
        request = request.abort_signal(Some(&abort.signal()));
        let request: web_sys::Request = match body {
            Some(body) => request.body(body).map_err(failed)?.into(),
            None => request.build().map_err(failed)?.into(),
        };
        let window = web_sys::window().ok_or_else(|| failed("no window"))?;
        let fetched = JsFuture::from(window.fetch_with_request(&request));
        // No answer in time: the call is aborted (and fails).
        let timer = abort.clone();
        wasm_bindgen_futures::spawn_local(async move {
            sleep(CALL_TIMEOUT_MS).await;
            timer.abort();
        });
        let raw: web_sys::Response = fetched
            .await
            .map_err(|e| failed(js_error(e)))?
            .dyn_into()
            .map_err(|v: JsValue| failed(js_error(v)))?;
        if raw.type_() == web_sys::ResponseType::Opaqueredirect {
            return Err(failed("the thread store answered with a redirect"));
        }
        let header = |name: &str| raw.headers().get(name).ok().flatten();
        let (etag, link) = (header("etag"), header("link"));
        let status = raw.status();
        let body = read_bounded(&raw).await?;
        Ok(Reply {
            status,
            etag,
            link,
            body,
            url: url.to_owned(),
        })
    }

    /// The next page's URL: the `Link` resolved against the request's URL; only on the
    /// store's own URL (the same origin and path), never elsewhere with the page's headers.
    fn next_page(&self, reply: &Reply) -> Option<String> {
        let next = next_link(reply.link.as_deref()?)?;
        let page = web_sys::window()?.location().href().ok()?;
        let asked = web_sys::Url::new_with_base(&reply.url, &page).ok()?;
        let url = web_sys::Url::new_with_base(&next, &asked.href()).ok()?;
        let base = web_sys::Url::new_with_base(&self.base, &page).ok()?;
        (url.origin() == base.origin() && url.pathname() == base.pathname()).then(|| url.href())
    }
}

/// The body, up to [`MAX_ANSWER_BYTES`] (more is a failure, not a stall).
async fn read_bounded(raw: &web_sys::Response) -> Result<Vec<u8>, StoreFailure> {
    let mut bytes = Vec::new();
    let Some(stream) = raw.body() else {
        return Ok(bytes);
    };
    let reader: ReadableStreamDefaultReader = stream
        .get_reader()
        .dyn_into()
        .map_err(|o: js_sys::Object| failed(js_error(o.into())))?;
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| failed(js_error(e)))?;
        let done = Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            return Ok(bytes);
        }
        let value = Reflect::get(&chunk, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        if let Some(v) = value.dyn_ref::<Uint8Array>() {
            if bytes.len() + v.length() as usize > MAX_ANSWER_BYTES {
                let _ = reader.cancel();
                return Err(failed(format!(
                    "the thread store's answer is over {MAX_ANSWER_BYTES} bytes"
                )));
            }
            bytes.extend(v.to_vec());
        }
    }
}

fn json(body: &[u8]) -> Result<Value, StoreFailure> {
    serde_json::from_slice(body).map_err(|e| failed(format!("not JSON: {e}")))
}

impl ThreadStore for RestThreadStore {
    fn list(&self, cursor: Option<&str>) -> StoreFuture<ListPage> {
        let shared = self.shared();
        let url = cursor.map_or_else(|| self.url.clone(), str::to_owned);
        Box::pin(async move {
            let reply = shared.call("GET", &url, None, None).await?;
            let Value::Array(entries) = json(&reply.body)? else {
                return Err(failed("the list is not a JSON array"));
            };
            let next = shared.next_page(&reply);
            Ok(ListPage { entries, next })
        })
    }

    fn load(&self, id: &str) -> StoreFuture<Loaded> {
        let shared = self.shared();
        let url = self.record_url(id);
        Box::pin(async move {
            let reply = shared.call("GET", &url?, None, None).await?;
            Ok(Loaded {
                record: json(&reply.body)?,
                etag: reply.etag,
            })
        })
    }

    fn save(&self, id: &str, record: &Value, expect: &Expect) -> StoreFuture<Option<String>> {
        let shared = self.shared();
        let url = self.record_url(id);
        let body = record.to_string();
        let condition = match expect {
            Expect::New => ("If-None-Match", "*".to_owned()),
            Expect::Version(v) => ("If-Match", v.clone()),
            Expect::Any => ("If-Match", "*".to_owned()),
        };
        Box::pin(async move {
            let reply = shared
                .call("PUT", &url?, Some(condition), Some(body))
                .await?;
            // The header, else the body's `etag` (a server that does not expose the header).
            let from_body = || Some(json(&reply.body).ok()?.get("etag")?.as_str()?.to_owned());
            Ok(reply.etag.clone().or_else(from_body))
        })
    }

    fn remove(&self, id: &str) -> StoreFuture<()> {
        let shared = self.shared();
        let url = self.record_url(id);
        Box::pin(async move {
            shared.call("DELETE", &url?, None, None).await?;
            Ok(())
        })
    }
}
