//! Mounting a widget into its element's shadow root, and what follows: a remount when an
//! attribute changes, the unmount, the state.

use std::cell::Cell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, ShadowRootInit, ShadowRootMode};

use crate::embed::{Persist, WidgetOptions};
use crate::i18n::Locale;
use crate::store::{browser_locale, AgentConfig, AgentStore, BrowserStorage, Notice};
use crate::ui::tr_now;
use crate::ui::widget_shell::{ShellControls, WidgetShell};

use super::events::bridge_events;
use super::guard::{register_host, unregister_host};
use super::js::{error_text, js_value, own, warn};
use super::js_plugins::{call_js_headers, has_thread_hooks, header_source_from_js, JsThreadStore};
use super::mounted::{is_mounted, next_id, Mounted, PagePlugins, DATA_PREFIX, DEMO, MOUNTED};
use super::options::{options_from_js, options_of};
use crate::session::remote::ThreadStoreRef;
use crate::session::{HeaderRequest, HeaderSource};
use crate::split::{split, Handoff};
use crate::transport::threads::RestThreadStore;

/// Mounts every not yet mounted `[data-agui-endpoint]` element under `root` (a document or
/// an element).
pub fn scan(root: &JsValue) {
    const SELECTOR: &str = "[data-agui-endpoint]";
    let list = if let Some(el) = root.dyn_ref::<web_sys::Element>() {
        el.query_selector_all(SELECTOR)
    } else if let Some(doc) = root.dyn_ref::<web_sys::Document>() {
        doc.query_selector_all(SELECTOR)
    } else {
        return;
    };
    let Ok(list) = list else {
        return;
    };
    for i in 0..list.length() {
        let Some(el) = list.get(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) else {
            continue;
        };
        mount_from_attributes(el, DATA_PREFIX);
    }
}

/// Mounts a widget configured by `el`'s attributes, unless one is there already.
pub(super) fn mount_from_attributes(el: HtmlElement, prefix: &str) {
    if !is_mounted(&el) {
        let (options, problems) = options_of(&el, prefix);
        let options = if prefix.is_empty() {
            options
        } else {
            options.declarative()
        };
        mount(next_id(), el, options, problems, PagePlugins::default());
    }
}

/// Mounts a widget into `host`'s shadow root (replacing a widget already there).
pub(super) fn mount(
    id: u32,
    host: HtmlElement,
    options: WidgetOptions,
    mut problems: Vec<String>,
    page: PagePlugins,
) {
    detach(&host);
    // The site's thread store: the page's `threads` hooks, else `threads-url`.
    let thread_store = thread_store_of(id, &options, &page, &mut problems);
    for p in &problems {
        warn(p);
    }
    let shadow = match host.shadow_root() {
        Some(s) => Ok(s),
        None => host.attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open)),
    };
    let Some(doc) = host.owner_document() else {
        return;
    };
    let shadow = match shadow {
        Ok(s) => s,
        Err(e) => {
            warn(&format!(
                "cannot attach a shadow root to <{}>: {}",
                host.tag_name().to_ascii_lowercase(),
                error_text(&e)
            ));
            return;
        }
    };
    shadow.set_text_content(None);
    let Ok(container) = doc.create_element("div") else {
        return;
    };
    crate::ui::styles::adopt(&shadow, &doc);
    let _ = shadow.append_child(&container);
    let Ok(container) = container.dyn_into::<HtmlElement>() else {
        return;
    };
    container.set_class_name("agui-frame");

    let crash_options = page.options.clone().unwrap_or(JsValue::NULL);
    let options_for_crash = crash_options.clone();
    // Hidden until the chat's strings are in place ([`show_when_worded`]).
    let frame = container.clone();
    let _ = frame.style().set_property("visibility", "hidden");
    let slot: std::rc::Rc<Cell<Option<(AgentStore, ShellControls)>>> = Default::default();
    let made = slot.clone();
    let event_host = host.clone();
    // The page's registrations win over the demo's on a name clash.
    // The `suggestions` option (JS, else the attribute).
    let mut own = page.plugins.clone();
    for s in &options.suggestions {
        own = own.suggestion(s.prompt.clone(), s.hint.as_deref());
    }
    for c in &options.commands {
        own = own.command(c.clone());
    }
    if let Some(limits) = options.attach_limits.clone() {
        own = own.attachments(limits);
    }
    if options.attachments_off {
        own = own.no_attachments();
    }
    own = own.voice(options.voice);
    own = own.strings(options.strings.clone());
    let plugins = match DEMO.get().filter(|_| options.uses_demo()) {
        Some(demo) => demo().merge(own),
        None => own,
    }
    // Where data goes is the page's choice: the picker only where the page asks for it.
    .agent_picker(options.shows_settings());
    // `headers` as a function (JS), for the page's own endpoint.
    let header_source = page
        .options
        .as_ref()
        .and_then(|js| header_source_from_js(id, js, options.endpoint.as_deref()));
    let handle = leptos::mount::mount_to(container, move || {
        let config = AgentConfig {
            endpoint: options.endpoint.clone(),
            wire: options.wire,
            resume: options.resume,
            protobuf: options.protobuf,
            headers: options.headers.clone(),
            header_source: header_source.clone(),
            allowed_endpoints: options.allowed_endpoints.clone(),
            mcp_apps_proxy: options.mcp_apps_proxy.clone(),
            fetch: options.fetch,
            queue: !options.queue_off,
            math: options.math,
            capabilities: options.capabilities.clone(),
            demo_speed: options.speed.unwrap_or(crate::session::DEFAULT_DEMO_SPEED),
            locale: options
                .lang
                .as_deref()
                .and_then(Locale::from_tag)
                .unwrap_or_else(browser_locale),
            page_dir: crate::ui::page_sets_dir(&event_host),
            ..AgentConfig::default()
        };
        let store = match options.persist {
            Persist::None => AgentStore::new(config),
            area => AgentStore::restore_in(
                config,
                BrowserStorage::of(area),
                &options.storage_prefix(),
                options.storage_budget,
            ),
        };
        // Built in the lean widget's `threads` module (where everything it calls is).
        if let Some(source) = thread_store.clone() {
            let source = Handoff::new(source);
            store.in_module(move || attach_thread_store(store, source.clone()));
        }
        store.provide();
        store.inspector_open.set(options.inspector);
        plugins.clone().provide();
        for p in &problems {
            store.notice(Notice::WidgetOption(p.clone()));
        }
        let controls = ShellControls {
            theme: RwSignal::new(options.theme),
            open: RwSignal::new(options.starts_open()),
        };
        made.set(Some((store, controls)));
        bridge_events(store, event_host.clone());
        show_when_worded(
            store,
            frame.clone(),
            options.focus,
            event_host.clone(),
            options_for_crash.clone(),
        );
        view! {
            <WidgetShell
                mode=options.mode
                controls
                title=options
                    .title
                    .clone()
                    .or_else(|| options.capabilities.as_ref().and_then(|c| c.name.clone()))
                    .unwrap_or_default()
                focus_on_start=options.focus
            />
        }
    });
    let Some((store, controls)) = slot.take() else {
        return;
    };
    let t = tr_now(store);
    register_host(&host, &crash_options, t.crashed_text, t.crashed_reload);
    MOUNTED.with_borrow_mut(|m| {
        m.push(Mounted {
            id,
            host,
            store,
            controls,
            page,
            handle: Box::new(handle),
        })
    });
}

/// Shows `frame` once the chat's strings are in place: in the lean widget a language but
/// English is a module of its own (a few KB, fetched at once), and nothing shows in English
/// first (the texts are worded before the next paint). Then the keyboard goes to the composer
/// when the visitor opened the chat before it had loaded (`focus`: a hidden composer cannot
/// take it). The crash notice follows the language.
pub(super) fn show_when_worded(
    store: AgentStore,
    frame: HtmlElement,
    focus: bool,
    host: HtmlElement,
    options: JsValue,
) {
    Effect::new(move |shown: Option<bool>| {
        let worded = store
            .config
            .with(|c| c.strings.filter(|(l, _)| *l == c.locale));
        let Some((_, t)) = worded else {
            return shown.unwrap_or(false);
        };
        register_host(&host, &options, t.crashed_text, t.crashed_reload);
        if shown != Some(true) {
            let _ = frame.style().remove_property("visibility");
            let composer = frame.query_selector(r#"[data-testid="composer-input"]"#);
            if let Some(el) = composer.ok().flatten().filter(|_| focus) {
                let _ = el.unchecked_into::<HtmlElement>().focus();
            }
        }
        true
    });
}

/// Unmounts the widget in `host`, if any, and forgets its JS tool handlers.
pub(super) fn unmount(host: &HtmlElement) -> bool {
    detach(host).is_some()
}

/// Takes the widget out of `host`: stops its run, disposes its view and store. Returns its
/// id and the page's plug-ins (for a remount).
pub(super) fn detach(host: &HtmlElement) -> Option<(u32, PagePlugins)> {
    let w = MOUNTED.with_borrow_mut(|m| {
        let i = m.iter().position(|w| &w.host == host)?;
        Some(m.remove(i))
    })?;
    if w.store.running.try_get_untracked() == Some(true) {
        w.store.stop();
    }
    drop(w.handle);
    unregister_host(&w.host);
    if let Some(shadow) = w.host.shadow_root() {
        shadow.set_text_content(None);
    }
    Some((w.id, w.page))
}

/// An observed attribute changed on a mounted `<agui-chat>`: the theme and open state change
/// in place; anything else remounts with the new options (conversations are saved, so
/// nothing is lost but a run in flight, which is stopped).
pub(super) fn reconfigure(el: &HtmlElement, attr: &str) {
    let Some((id, controls, page)) = MOUNTED.with_borrow(|m| {
        m.iter()
            .find(|w| &w.host == el)
            .map(|w| (w.id, w.controls, w.page.clone()))
    }) else {
        return;
    };
    // A widget mounted from JS keeps its options: the attributes fill in the rest.
    let (options, problems) = match &page.options {
        Some(js) => options_from_js(el, js),
        None => options_of(el, ""),
    };
    match attr {
        "theme" => controls.theme.set(options.theme),
        "open" => controls.open.set(options.starts_open()),
        _ => mount(id, el.clone(), options, problems, page),
    }
}

/// The current state of the widget in `el` as a JS value (`undefined` when none).
pub(super) fn state_of(el: &HtmlElement) -> JsValue {
    let Some(store) = MOUNTED.with_borrow(|m| m.iter().find(|w| &w.host == el).map(|w| w.store))
    else {
        return JsValue::UNDEFINED;
    };
    store.with_thread(|t| js_value(&t.state))
}

/// Where a widget's thread store is (built in the `threads` module: [`attach_thread_store`]).
#[derive(Clone)]
enum StoreSource {
    /// The page's `threads` hooks (the widget's id).
    Hooks(u32),
    /// `threads-url`, with the page's headers (and header function: the widget's id),
    /// fetch policy and allow-list.
    Url {
        url: String,
        headers: Vec<(String, String)>,
        source: Option<u32>,
        fetch: crate::session::FetchPolicy,
        allowed: Option<Vec<String>>,
    },
}

/// The site's thread store of a widget: the page's `threads` hooks, else its `threads-url`
/// (checked when it is built: refused, with a warning, when it is not an http(s) URL the
/// page's `allowed-endpoints` allow).
fn thread_store_of(
    id: u32,
    options: &WidgetOptions,
    page: &PagePlugins,
    problems: &mut Vec<String>,
) -> Option<StoreSource> {
    let js = page.options.as_ref();
    match js.map(has_thread_hooks) {
        Some(Ok(true)) => return Some(StoreSource::Hooks(id)),
        Some(Err(problem)) => problems.push(problem),
        _ => {}
    }
    let url = options.threads_url.as_deref()?;
    // The page's `headers` function serves its own store too.
    let source = js
        .filter(|js| own(js, "headers").is_some_and(|h| h.is_function()))
        .map(|_| id);
    Some(StoreSource::Url {
        url: url.to_owned(),
        headers: options.headers.clone(),
        source,
        fetch: options.fetch,
        allowed: options.allowed_endpoints.clone(),
    })
}

split!(threads:
    /// The widget's thread store, built, handed to its chat.
    fn attach_thread_store(store: AgentStore, source: Handoff<StoreSource>) -> () {
        let made = source.take().and_then(|source| match source {
            StoreSource::Hooks(id) => Some(ThreadStoreRef::new(JsThreadStore(id))),
            StoreSource::Url { url, headers, source, fetch, allowed } => {
                // Refused (not http(s), or not allowed): a warning, and no store.
                if let Err(e) = crate::transport::check_endpoint(&url, allowed.as_deref()) {
                    store.notice(Notice::WidgetOption(format!("threads-url: {e}")));
                    return None;
                }
                let source = source.map(|id| {
                    HeaderSource::new(move |ask: HeaderRequest| call_js_headers(id, ask.refresh))
                });
                let rest = RestThreadStore::new(&url, headers, source, fetch, allowed);
                Some(ThreadStoreRef::new(rest))
            }
        });
        if let Some(made) = made {
            store.update_config(|c| c.thread_store = Some(made));
            store.sync_soon();
        }
    }
);
