//! An MCP App (`ACTIVITY_SNAPSHOT` with `activityType: "mcp-apps"`, issue 14): its `ui://`
//! HTML runs in an opaque-origin frame — `<iframe sandbox="allow-scripts" srcdoc=…>`, no
//! `allow`, the spec's restrictive CSP first in the document ([`crate::mcp_apps`]) — so it can
//! never reach the host page or the widget. Its JSON-RPC goes through the sans-IO
//! [`Bridge`]: only messages whose `source` is this frame's own window reach it; what comes
//! back is typed (a reply to post, a size, a checked link), never HTML. A frame that
//! misbehaves (no handshake, a flood, oversized or unsupported messages) is removed with a
//! notice.
//!
//! Not here (yet): the middleware's proxied `resources/read` (an activity without inline HTML
//! says so) and the View's `tools/call` through the agent (answered with an error: the chat
//! offers no such path), and the `mcp-apps-proxy` mode (the pure handshake exists:
//! [`crate::mcp_apps::proxy_origin`]).

use leptos::html::Iframe;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::i18n::fill;
use crate::mcp_apps::{
    srcdoc, AppActivity, Bridge, CspPolicy, Dim, HostContext, Out, StopReason, Theme, SANDBOX,
};
use crate::protocol::types::Content;
use crate::store::{AgentStore, Row};
use crate::ui::tr;

fn now() -> f64 {
    js_sys::Date::now()
}

/// The frame's state, as the card shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Loading,
    Running,
    Stopped(StopReason),
}

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
    let Some(resource) = activity.resource.clone() else {
        return notice_card(t.mcp_app_not_inline.to_owned());
    };
    let policy = CspPolicy::new(&resource.csp);
    let doc = srcdoc(&resource.html, &policy);
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
    let bridge = StoredValue::new(Bridge::new(now(), &activity, policy, host).without_tools());
    let frame: NodeRef<Iframe> = NodeRef::new();
    let status = RwSignal::new(Status::Loading);
    let height = RwSignal::new(None::<u32>);
    let link = RwSignal::new(None::<String>);

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
                Out::Post(v) => {
                    if let Ok(msg) = js_sys::JSON::parse(&v.to_string()) {
                        let _ = win.post_message(&msg, &target);
                    }
                }
                Out::CallTool { id, .. } => {
                    let reply = bridge
                        .try_update_value(|b| {
                            b.tool_result(&id, Err("this chat offers the app no tools".into()))
                        })
                        .flatten();
                    if let Some(Out::Post(v)) = reply {
                        if let Ok(msg) = js_sys::JSON::parse(&v.to_string()) {
                            let _ = win.post_message(&msg, &target);
                        }
                    }
                }
                // A link the app wants opened: shown for a click (a popup from here would be
                // blocked, and the person decides).
                Out::OpenLink(url) => link.set(Some(url.as_str().to_owned())),
                Out::Resize { height: h, .. } => {
                    if h.is_some() {
                        height.set(h);
                    }
                }
                Out::Ready => status.set(Status::Running),
                Out::Notice(_) => {}
                Out::Stop(reason) => status.set(Status::Stopped(reason)),
            }
        }
    };

    // Messages: only from this frame's own window.
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

    let stopped = move || matches!(status.get(), Status::Stopped(_));
    let title = activity.resource_uri.clone();
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
                    sandbox=SANDBOX
                    srcdoc=doc.clone()
                    referrerpolicy="no-referrer"
                    node_ref=frame
                    style:height=move || height.get().map(|h| format!("{h}px"))
                ></iframe>
            </Show>
            {move || {
                link.get().and_then(|href| crate::markdown::SafeUrl::parse_link(&href)).map(|href| {
                    view! {
                        <a class="agui-md__link" data-testid="mcp-app-link" href=href.as_str().to_owned()
                            target="_blank" rel="noopener noreferrer" referrerpolicy="no-referrer">
                            {fill(tr(store).mcp_app_link, &[&href.host().unwrap_or_default()])}
                        </a>
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
