//! The embeddable widget: `<agui-chat endpoint="…">`, any element with `data-agui-endpoint`,
//! and a small JS API (`window.AguiChat`). Options are parsed by [`crate::embed`].
//!
//! Each widget renders inside an open **shadow root** with its own copy of the stylesheets
//! (compiled into the wasm), so host CSS — `* { color: red !important }`, `button { … }`, a
//! global reset — cannot reach inside, and nothing of ours reaches the host (the frame resets
//! inherited properties with `all: initial`). Every widget has its own store, reactive owner
//! and storage prefix (`thread-key`), so several on one page stay independent; `persist`
//! picks `localStorage`, `sessionStorage` or nothing, within a budget (`storage-budget`).
//!
//! Events out, dispatched on the host element (`bubbles`, `composed`), `detail` as noted:
//! - `agui:run-started` `{threadId, runId}`
//! - `agui:run-finished` `{threadId, runId, status, error}` (`status`: success, error,
//!   cancelled, truncated, interrupted…)
//! - `agui:state-changed` `{threadId}` — at most once per animation frame; read the state with
//!   `element.state` (custom element) or `handle.state()`
//! - `agui:interrupt` `{threadId, interrupts}` when new interrupts open
//!
//! JS API (after `agui-chat.js` loaded; also `await import('…/agui-chat.js').ready`):
//! `AguiChat.mount(element, options) → {unmount(), state(), element}`,
//! `AguiChat.unmount(element)`, `AguiChat.scan(root?)` (mounts the `[data-agui-endpoint]`
//! elements under `root`: declarative mounting is opt-in, see [`start`]; such a widget keeps
//! no conversations without its own `data-agui-thread-key`). `options` take the attribute names in camelCase (attributes of the
//! element fill in what they leave out) plus the page's plug-ins ([`crate::plugins`]):
//! - `tools: [{name, description, parameters, handler}]` — browser-executed frontend tools
//!   whose `handler(args)` returns a value or a promise (a throw/rejection becomes the tool's
//!   error result);
//! - `renderers: {tool_name: 'element-name'}` — the widget creates that custom element in the
//!   tool's card (never HTML) and sets its `toolCall` property (`{id, name, status, args,
//!   result, error, durationMs}`) every time the call changes, arguments streaming included;
//! - `suggestions: ['prompt', {prompt, hint}]` — chips that send the prompt.
//!
//! A widget with an `endpoint` gets exactly those: no tool advertised but the page's, the
//! generic card for every other tool. Without an `endpoint` (or with the `demo` attribute) it
//! also gets the demo plug-ins the binary registered ([`start_with_demo`]).

use std::any::Any;
use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CustomEvent, CustomEventInit, HtmlElement, ShadowRootInit, ShadowRootMode};

use crate::embed::{observed_attributes, valid_element_name, Persist, WidgetOptions, OPTIONS};
use crate::i18n::Locale;
use crate::plugins::Plugins;
use crate::plugins::ToolCallView;
use crate::protocol::types::Tool;
use crate::store::{browser_locale, AgentConfig, AgentStore, BrowserStorage, Notice};
use crate::ui::tr_now;
use crate::ui::widget_shell::{ShellControls, WidgetShell};

mod api;
mod element;
mod events;
mod js_plugins;
mod options;

use api::install_api;
use element::{define, register_host, unregister_host};
use events::bridge_events;
use js_plugins::plugins_from_js;
use options::{json_of, options_from_js, options_of, own};

/// The custom element's name.
pub const ELEMENT: &str = "agui-chat";
/// The attribute prefix of declaratively mounted elements (`data-agui-endpoint`…).
const DATA_PREFIX: &str = "data-agui-";

/// A mounted widget.
struct Mounted {
    pub(super) id: u32,
    pub(super) host: HtmlElement,
    pub(super) store: AgentStore,
    pub(super) controls: ShellControls,
    /// The page's own plug-ins (from the JS options), kept for a remount.
    pub(super) page: PagePlugins,
    /// The Leptos unmount handle; dropping it unmounts the view and disposes its owner.
    pub(super) handle: Box<dyn Any>,
}

/// What a page registered for one widget through `AguiChat.mount`: its plug-ins and the JS
/// options they came from (merged again with the attributes on a remount).
#[derive(Clone, Default)]
struct PagePlugins {
    pub(super) plugins: Plugins,
    pub(super) options: Option<JsValue>,
}

thread_local! {
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
    /// The demo's plug-ins, when the binary ships them ([`start_with_demo`]).
    static DEMO: Cell<Option<fn() -> Plugins>> = const { Cell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

fn warn(text: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("agui-chat: {text}")));
}

fn error_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "the handler failed".to_owned())
}

/// [`start`], with the demo's plug-ins for widgets that have no endpoint (or the `demo`
/// attribute): what the app's binary does.
pub fn start_with_demo(demo: fn() -> Plugins) {
    DEMO.set(Some(demo));
    start();
}

/// Boots the widget side of the page: defines `<agui-chat>` and installs `window.AguiChat`.
/// `[data-agui-endpoint]` elements are mounted only by [`scan`] (`AguiChat.scan()`, or the
/// loader with `agui-chat.js?scan`): any element of a page's content can carry `data-*`.
/// Safe to call twice.
pub fn start() {
    define();
    install_api();
}

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
fn mount_from_attributes(el: HtmlElement, prefix: &str) {
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

fn next_id() -> u32 {
    let id = NEXT_ID.get();
    NEXT_ID.set(id + 1);
    id
}

fn is_mounted(el: &HtmlElement) -> bool {
    MOUNTED.with_borrow(|m| m.iter().any(|w| &w.host == el))
}

/// Mounts a widget into `host`'s shadow root (replacing a widget already there).
fn mount(
    id: u32,
    host: HtmlElement,
    options: WidgetOptions,
    problems: Vec<String>,
    page: PagePlugins,
) {
    detach(&host);
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
    if let Some(limits) = options.attach_limits.clone() {
        own = own.attachments(limits);
    }
    if options.attachments_off {
        own = own.no_attachments();
    }
    own = own.strings(options.strings.clone());
    let plugins = match DEMO.get().filter(|_| options.uses_demo()) {
        Some(demo) => demo().merge(own),
        None => own,
    }
    // Where data goes is the page's choice: the picker only where the page asks for it.
    .agent_picker(options.shows_settings());
    let handle = leptos::mount::mount_to(container, move || {
        let config = AgentConfig {
            endpoint: options.endpoint.clone(),
            wire: options.wire,
            resume: options.resume,
            protobuf: options.protobuf,
            headers: options.headers.clone(),
            allowed_endpoints: options.allowed_endpoints.clone(),
            mcp_apps_proxy: options.mcp_apps_proxy.clone(),
            fetch: options.fetch,
            queue: !options.queue_off,
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
fn show_when_worded(
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
fn unmount(host: &HtmlElement) -> bool {
    detach(host).is_some()
}

/// Takes the widget out of `host`: stops its run, disposes its view and store. Returns its
/// id and the page's plug-ins (for a remount).
fn detach(host: &HtmlElement) -> Option<(u32, PagePlugins)> {
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
fn reconfigure(el: &HtmlElement, attr: &str) {
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
fn state_of(el: &HtmlElement) -> JsValue {
    let Some(store) = MOUNTED.with_borrow(|m| m.iter().find(|w| &w.host == el).map(|w| w.store))
    else {
        return JsValue::UNDEFINED;
    };
    let text = store.with_thread(|t| serde_json::to_string(&t.state).unwrap_or_default());
    js_sys::JSON::parse(&text).unwrap_or(JsValue::UNDEFINED)
}
