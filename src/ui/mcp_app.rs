//! An MCP App (`ACTIVITY_SNAPSHOT` with `activityType: "mcp-apps"`, issue 14): its `ui://`
//! HTML runs in an opaque-origin frame — `<iframe sandbox="allow-scripts" srcdoc=…>`, no
//! `allow`, the spec's restrictive CSP first in the document ([`crate::mcp_apps`]) — so it can
//! never reach the host page or the widget. Its JSON-RPC goes through the sans-IO
//! [`Bridge`]: only messages whose `source` is this frame's own window reach it; what comes
//! back is typed (a reply to post, a size, a checked link), never HTML. A frame that
//! misbehaves (no handshake, a flood, oversized or unsupported messages) is removed with a
//! notice.
//!
//! The resource and the View's `tools/call`s go through the agent's MCP middleware the way
//! `@ag-ui/mcp-apps-middleware` expects: a run whose `forwardedProps` carry
//! `__proxiedMCPRequest` (`resources/read` when the activity has no inline HTML, `tools/call`
//! for the View), answered in that run's `RUN_FINISHED.result`. Nothing is fetched for a
//! replayed trace.
//!
//! With the page's `mcp-apps-proxy` ([`crate::session::AgentConfig::mcp_apps_proxy`]) the
//! frame is the site's sandbox proxy instead: `<iframe src=PROXY sandbox="allow-scripts
//! allow-same-origin">` ([`PROXY_SANDBOX`]) on another origin than the page's
//! ([`proxy_origin`]), which says `ui/notifications/sandbox-proxy-ready`, gets the HTML in
//! `ui/notifications/sandbox-resource-ready` and relays the View's messages
//! ([`Bridge::proxied`]). Only messages whose `source` is that frame's window reach the
//! bridge, which stops the View on any other origin than the proxy's; posts go to the proxy's
//! origin only. A refused proxy URL (not https, the page's own origin) shows a notice and no
//! View: never the opaque frame instead, which the page author did not choose.
//!
//! The lean widget keeps the card, the policy, the bridge and the proxied requests in its
//! `mcp_apps` module, fetched with the first MCP App ([`mcp_app_card`]).

use leptos::html::Iframe;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::i18n::fill;
use crate::mcp_apps::{
    proxied_result, proxy_origin, srcdoc, AppActivity, AppResource, Bridge, CspPolicy, Dim,
    HostContext, Origin, Out, RpcId, StopReason, Theme, PROXY_SANDBOX, SANDBOX,
};
use crate::protocol::types::{Content, Context};
use crate::store::{AgentStore, Row};
use crate::ui::lazy::split;
use crate::ui::{tr, tr_now};

fn now() -> f64 {
    js_sys::Date::now()
}

fn post(win: &web_sys::Window, v: &Value, target: &str) {
    if let Ok(msg) = js_sys::JSON::parse(&v.to_string()) {
        let _ = win.post_message(&msg, target);
    }
}

/// The frame's state, as the card shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Loading,
    Running,
    Stopped(StopReason),
}

split!(mcp_apps:
    /// The card of an `mcp-apps` activity message (the lean widget fetches it with the first
    /// one).
    pub fn mcp_app_card(row: Row) -> AnyView {
        view! { <McpAppCard row /> }.into_any()
    }
);

/// The card of an `mcp-apps` activity message.
#[component]
pub fn McpAppCard(
    /// The row of the activity message.
    row: Row,
) -> impl IntoView {
    let store = AgentStore::expect();
    let content = store
        .with_message(&row.key, |m| match &m.content {
            Some(Content::Object(o)) => Value::Object(o.clone()),
            _ => Value::Null,
        })
        .unwrap_or(Value::Null);
    let t = tr(store);
    let activity = match AppActivity::parse(&content) {
        Ok(a) => a,
        Err(e) => return notice_card(fill(t.mcp_app_unusable, &[&e.to_string()])),
    };
    // The page's sandbox proxy, checked before anything is fetched for it.
    let proxy = match store.config.with_untracked(|c| c.mcp_apps_proxy.clone()) {
        None => None,
        Some(url) => {
            let page = web_sys::window()
                .and_then(|w| w.location().origin().ok())
                .unwrap_or_default();
            match proxy_origin(&url, &page) {
                Ok(origin) => Some((url, origin)),
                Err(e) => return notice_card(fill(t.mcp_app_proxy_refused, &[&e.to_string()])),
            }
        }
    };
    let resource = RwSignal::new(activity.resource.clone());
    let failed = RwSignal::new(None::<String>);
    let replay = store.try_with_session(|s| s.is_replay()).unwrap_or(true);
    if resource.with_untracked(Option::is_none) {
        if replay {
            failed.set(Some(t.mcp_app_not_inline.to_owned()));
        }
        // Fetch the View through the middleware: one proxied run, once the agent is free.
        let request = activity.read_request();
        let uri = activity.resource_uri.clone();
        let asked = StoredValue::new(None::<String>);
        Effect::new(move || {
            if resource.with(Option::is_some) || failed.with(Option::is_some) {
                return;
            }
            match asked.get_value() {
                None if !store.running.get() => {
                    asked.set_value(store.send_action(request.clone()));
                }
                None => {}
                Some(run) => {
                    if let Some(result) = store.run_result(&run) {
                        match proxied_result(result.as_ref()).and_then(|v| {
                            AppResource::from_read_result(&v, &uri).map_err(|e| e.to_string())
                        }) {
                            Ok(r) => resource.set(Some(r)),
                            Err(e) => failed.set(Some(fill(tr_now(store).mcp_app_unusable, &[&e]))),
                        }
                    }
                }
            }
        });
    }
    let activity = StoredValue::new(activity);
    view! {
        {move || match (resource.get(), failed.get()) {
            (Some(r), _) => app_frame(store, activity, r, proxy.clone(), row.key.clone()),
            (None, Some(e)) => notice_card(e),
            (None, None) => notice_card(tr(store).mcp_app_loading.to_owned()),
        }}
    }
    .into_any()
}

/// The View of `resource` running in its frame: an opaque `srcdoc` frame, or the page's
/// sandbox proxy (`proxy`: its URL, as the page gave it, and its checked origin).
fn app_frame(
    store: AgentStore,
    activity: StoredValue<AppActivity>,
    resource: AppResource,
    proxy: Option<(String, Origin)>,
    key: String,
) -> AnyView {
    let policy = CspPolicy::new(&resource.csp);
    // Direct: the document in `srcdoc`. Proxy: the proxy's URL in `src`, the HTML goes in
    // the handshake.
    let (doc, src, sandbox) = match &proxy {
        None => (Some(srcdoc(&resource.html, &policy)), None, SANDBOX),
        Some((url, _)) => (None, Some(url.clone()), PROXY_SANDBOX),
    };
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    let host = HostContext {
        theme: if dark { Theme::Dark } else { Theme::Light },
        locale: store.config.with_untracked(|c| c.locale.tag().to_owned()),
        time_zone: None,
        width: Dim::Unbounded,
        height: Dim::Max(800),
    };
    let bridge = StoredValue::new(activity.with_value(|a| match proxy {
        None => Bridge::new(now(), a, policy, host),
        Some((_, origin)) => Bridge::proxied(now(), a, policy, host, origin, resource.html),
    }));
    // The View's tool calls on their way through the agent: (run id, the View's request id).
    let calls = RwSignal::new(Vec::<(String, RpcId)>::new());
    let frame: NodeRef<Iframe> = NodeRef::new();
    let status = RwSignal::new(Status::Loading);
    let height = RwSignal::new(None::<u32>);
    // The `ui/open-link` waiting for the person, numbered (see `link_decided`).
    let link = RwSignal::new(None::<(u32, String)>);
    let links = StoredValue::new(0u32);
    // A `ui/message` waiting for the person (never sent unasked).
    let suggested = RwSignal::new(None::<String>);
    // Whose model context it is, and how the agent sees it named.
    let context_of =
        StoredValue::new(activity.with_value(|a| (key, format!("MCP App {}", a.resource_uri))));

    // Carry out what the bridge asks for.
    let run = move |outs: Vec<Out>| {
        let Some(el) = frame.get_untracked() else {
            return;
        };
        let Some(win) = el.content_window() else {
            return;
        };
        let target = bridge.with_value(|b| b.target_origin().to_owned());
        for out in outs {
            match out {
                Out::Post(v) => post(&win, &v, &target),
                Out::CallTool {
                    id,
                    name,
                    arguments,
                } => {
                    let request = activity.with_value(|a| a.call_request(&name, &arguments));
                    match store.send_action(request) {
                        Some(run) => calls.update(|c| c.push((run, id))),
                        None => {
                            let reply = bridge
                                .try_update_value(|b| {
                                    b.tool_result(&id, Err("the agent is busy".into()))
                                })
                                .flatten();
                            if let Some(Out::Post(v)) = reply {
                                post(&win, &v, &target);
                            }
                        }
                    }
                }
                // A link the app wants opened: shown for a click (a popup from here would be
                // blocked, and the person decides).
                Out::OpenLink(url) => {
                    links.update_value(|n| *n = n.wrapping_add(1));
                    link.set(Some((links.get_value(), url.as_str().to_owned())));
                }
                Out::Resize { height: h, .. } => {
                    if h.is_some() {
                        height.set(h);
                    }
                }
                Out::Message(text) => suggested.set(Some(text)),
                Out::ModelContext(value) => context_of.with_value(|(key, description)| {
                    store.set_app_context(
                        key,
                        value.map(|value| Context {
                            description: description.clone(),
                            value,
                        }),
                    )
                }),
                Out::Ready => status.set(Status::Running),
                Out::Notice(_) => {}
                Out::Stop(reason) => {
                    // A stopped View asks nothing of the person and tells the model nothing
                    // more.
                    suggested.set(None);
                    context_of.with_value(|(key, _)| store.set_app_context(key, None));
                    status.set(Status::Stopped(reason));
                }
            }
        }
    };

    // A tool call's run ended: its result goes back to the View.
    Effect::new(move || {
        let done: Vec<(RpcId, Option<Value>)> = calls.with(|c| {
            c.iter()
                .filter_map(|(run, id)| store.run_result(run).map(|r| (id.clone(), r)))
                .collect()
        });
        if done.is_empty() {
            return;
        }
        calls.update(|c| c.retain(|(_, id)| !done.iter().any(|(d, _)| d == id)));
        for (id, result) in done {
            let reply = bridge
                .try_update_value(|b| b.tool_result(&id, proxied_result(result.as_ref())))
                .flatten();
            run(reply.into_iter().collect());
        }
    });

    // Messages: only from this frame's own window (the bridge then checks the origin: `null`
    // for the opaque frame, the proxy's otherwise).
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(win) = frame.get_untracked().and_then(|f| f.content_window()) else {
                return;
            };
            let from_frame = ev
                .source()
                .is_some_and(|s| js_sys::Object::is(&s, win.as_ref()));
            if !from_frame {
                return;
            }
            let data = js_sys::JSON::stringify(&ev.data())
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default();
            let outs = bridge
                .try_update_value(|b| b.receive(now(), &ev.origin(), &data))
                .unwrap_or_default();
            run(outs);
        });
    let on_tick = Closure::<dyn Fn()>::new(move || {
        let outs = bridge
            .try_update_value(|b| b.tick(now()))
            .unwrap_or_default();
        run(outs);
    });
    let window = web_sys::window();
    let interval = window.as_ref().and_then(|w| {
        let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        w.set_interval_with_callback_and_timeout_and_arguments_0(
            on_tick.as_ref().unchecked_ref(),
            1000,
        )
        .ok()
    });
    let listeners = StoredValue::new_local(Some((on_message, on_tick)));
    on_cleanup(move || {
        let taken = listeners.try_update_value(Option::take).flatten();
        if let (Some(w), Some((message, _tick))) = (web_sys::window(), taken) {
            let _ =
                w.remove_event_listener_with_callback("message", message.as_ref().unchecked_ref());
            if let Some(id) = interval {
                w.clear_interval_with_handle(id);
            }
        }
    });

    // The person's one click on the View's `ui/message`: sent as their message (the text
    // they read, a text node; queued while a run is live), or dismissed; the View learns
    // which, or that it could not be sent (an interrupt is open, the queue is off or full).
    let decide = move |sent: bool| {
        let Some(text) = suggested.get_untracked() else {
            return;
        };
        suggested.set(None);
        let taken = sent && store.offer(text);
        let reply = bridge
            .try_update_value(|b| match (sent, taken) {
                (true, true) => b.message_decided(true),
                (true, false) => b.message_refused(),
                (false, _) => b.message_decided(false),
            })
            .flatten();
        run(reply.into_iter().collect());
    };
    // The person's click on the View's `ui/open-link` (the browser opens it) or its
    // dismissal; the View learns which. The opened link goes once its click is done: removed
    // during the click, it would not be followed.
    // (The View may ask for its next link before then: that one stays.)
    let link_decided = move |opened: bool| {
        let Some(shown) = link.with_untracked(|l| l.as_ref().map(|(n, _)| *n)) else {
            return;
        };
        if opened {
            let clear = move || {
                if link.with_untracked(|l| l.as_ref().map(|(n, _)| *n)) == Some(shown) {
                    link.set(None);
                }
            };
            set_timeout(clear, std::time::Duration::ZERO);
        } else {
            link.set(None);
        }
        let reply = bridge
            .try_update_value(|b| b.link_decided(opened))
            .flatten();
        run(reply.into_iter().collect());
    };

    let stopped = move || matches!(status.get(), Status::Stopped(_));
    let title = activity.with_value(|a| a.resource_uri.clone());
    view! {
        <section class="agui-mcp-app" data-testid="mcp-app" data-status=move || match status.get() {
            Status::Loading => "loading",
            Status::Running => "running",
            Status::Stopped(_) => "stopped",
        }>
            <p class="agui-mcp-app__title">{title.clone()}</p>
            <Show
                when=move || !stopped()
                fallback=move || view! { <p class="agui-mcp-app__notice" role="status" data-testid="mcp-app-stopped">{move || tr(store).mcp_app_stopped}</p> }
            >
                <iframe
                    class="agui-mcp-app__frame"
                    data-testid="mcp-app-frame"
                    title=title.clone()
                    sandbox=sandbox
                    srcdoc=doc.clone()
                    src=src.clone()
                    referrerpolicy="no-referrer"
                    node_ref=frame
                    style:height=move || height.get().map(|h| format!("{h}px"))
                ></iframe>
            </Show>
            {move || {
                suggested.get().map(|text| {
                    let t = tr(store);
                    view! {
                        <div class="agui-mcp-app__message" role="group" aria-label=t.mcp_app_message data-testid="mcp-app-message">
                            <p class="agui-mcp-app__notice">{t.mcp_app_message}</p>
                            <blockquote class="agui-mcp-app__message-text" data-testid="mcp-app-message-text">{text}</blockquote>
                            <div class="agui-mcp-app__actions">
                                <button type="button" class="agui-button" data-testid="mcp-app-message-send"
                                    on:click=move |_| decide(true)>{t.mcp_app_message_send}</button>
                                <button type="button" class="agui-button agui-button--ghost" data-testid="mcp-app-message-dismiss"
                                    on:click=move |_| decide(false)>{t.mcp_app_message_dismiss}</button>
                            </div>
                        </div>
                    }
                })
            }}
            {move || {
                link.get().and_then(|(_, href)| crate::markdown::SafeUrl::parse_link(&href)).map(|href| {
                    let t = tr(store);
                    view! {
                        <div class="agui-mcp-app__actions" data-testid="mcp-app-link-offer">
                            <a class="agui-md__link" data-testid="mcp-app-link" href=href.as_str().to_owned()
                                target="_blank" rel="noopener noreferrer" referrerpolicy="no-referrer"
                                on:click=move |_| link_decided(true)>
                                {fill(t.mcp_app_link, &[&href.host().unwrap_or_default()])}
                            </a>
                            <button type="button" class="agui-button agui-button--ghost" data-testid="mcp-app-link-dismiss"
                                on:click=move |_| link_decided(false)>{t.mcp_app_message_dismiss}</button>
                        </div>
                    }
                })
            }}
        </section>
    }
    .into_any()
}

fn notice_card(text: String) -> AnyView {
    view! {
        <section class="agui-mcp-app" data-testid="mcp-app" data-status="unusable">
            <p class="agui-mcp-app__notice" role="status">{text}</p>
        </section>
    }
    .into_any()
}
