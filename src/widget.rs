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

/// The custom element's name.
pub const ELEMENT: &str = "agui-chat";
/// The attribute prefix of declaratively mounted elements (`data-agui-endpoint`…).
const DATA_PREFIX: &str = "data-agui-";

#[wasm_bindgen(inline_js = r#"
export function define_element(name, observed, connect, disconnect, changed, state) {
  if (customElements.get(name)) return false;
  customElements.define(name, class extends HTMLElement {
    static get observedAttributes() { return observed; }
    connectedCallback() { connect(this); }
    disconnectedCallback() { disconnect(this); }
    attributeChangedCallback(attr, before, after) { if (before !== after) changed(this, attr); }
    get state() { return state(this); }
  });
  return true;
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn define_element(
        name: &str,
        observed: js_sys::Array,
        connect: &js_sys::Function,
        disconnect: &js_sys::Function,
        changed: &js_sys::Function,
        state: &js_sys::Function,
    ) -> Result<bool, JsValue>;
}

// The last line of defence (issue 12, item 16): one wasm instance serves every widget of the
// page, and a trap (a panic under panic=abort, a stack overflow, memory exhausted) leaves it
// unusable. This script is plain JS, outside the instance: it keeps the page's widgets, and on
// a wasm error that reaches the page it replaces each with a notice and "Reload the chat",
// which loads a fresh instance (through the loader's `__aguiReload`; a full page reload where
// there is no loader) and mounts every widget again with the options it had. The page itself
// keeps working. Text nodes only.
#[wasm_bindgen(inline_js = r#"
const hosts = new Map();
let dead = false;
let sheet;
const CSS = `.f{all:initial;display:flex;flex-direction:column;align-items:center;justify-content:center;
gap:12px;box-sizing:border-box;min-height:160px;height:100%;padding:24px;text-align:center;
font:15px/1.6 system-ui,sans-serif;color:light-dark(#1c1c1e,#ececef);background:light-dark(#f6f6f4,#141416);
border:1px solid light-dark(#e3e3de,#2e2e33);border-radius:10px;color-scheme:light dark}
.f button{all:revert;font:inherit;cursor:pointer}`;
export function register_host(host, options, text, action) {
  hosts.set(host, { options, text, action });
}
export function unregister_host(host) { hosts.delete(host); }
export function is_dead() { return dead; }
// A trap's stack names the chat's wasm by URL: its folder, which the loader says (`__aguiWasm`;
// the app's own page, booted without it, has wasm-bindgen's `_bg.wasm`), so another wasm on
// the page (the host's own, from elsewhere) is not taken for ours. A stopped instance cannot
// trap again once the page has a fresh one: the loader kills its closures.
const ours = () => (window.__aguiWasm ? new URL('.', window.__aguiWasm).href : '_bg.wasm');
const isTrap = (e) => (e instanceof WebAssembly.RuntimeError || e instanceof RangeError)
  && String(e.stack).includes(ours());
function fatal(error) {
  if (dead || !isTrap(error)) return;
  dead = true;
  console.error('agui-chat: the chat stopped after an internal error; each widget offers a reload', error);
  if (sheet === undefined) {
    try { sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); } catch { sheet = null; }
  }
  for (const [host, { text, action }] of hosts) {
    const root = host.shadowRoot;
    if (!root) continue;
    const box = document.createElement('div');
    box.className = 'f';
    box.setAttribute('role', 'alert');
    box.dataset.testid = 'widget-crashed';
    const p = document.createElement('p');
    p.textContent = text;
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'widget-reload';
    b.textContent = action;
    b.addEventListener('click', reload);
    box.append(p, b);
    if (sheet && 'adoptedStyleSheets' in root) root.adoptedStyleSheets = [sheet];
    else box.prepend(Object.assign(document.createElement('style'), { textContent: CSS }));
    root.replaceChildren(box);
  }
}
function reload() {
  const again = window.__aguiReload;
  if (typeof again !== 'function') { location.reload(); return; }
  const widgets = [...hosts];
  hosts.clear();
  again().then((api) => {
    dead = false;
    for (const [host, { options }] of widgets) {
      if (!host.isConnected) continue;
      host.shadowRoot && host.shadowRoot.replaceChildren();
      if (options) api.mount(host, options);
      else if (host.localName === 'agui-chat' && typeof host.start === 'function') {
        host.mounted = false;
        host.start(false);
      } else api.scan(host.parentNode || document);
    }
  }, () => location.reload());
}
addEventListener('error', (e) => fatal(e.error));
addEventListener('unhandledrejection', (e) => fatal(e.reason));
"#)]
extern "C" {
    fn register_host(host: &HtmlElement, options: &JsValue, text: &str, action: &str);
    fn unregister_host(host: &HtmlElement);
}

/// A mounted widget.
struct Mounted {
    id: u32,
    host: HtmlElement,
    store: AgentStore,
    controls: ShellControls,
    /// The page's own plug-ins (from the JS options), kept for a remount.
    page: PagePlugins,
    /// The Leptos unmount handle; dropping it unmounts the view and disposes its owner.
    handle: Box<dyn Any>,
}

/// What a page registered for one widget through `AguiChat.mount`: its plug-ins and the JS
/// options they came from (merged again with the attributes on a remount).
#[derive(Clone, Default)]
struct PagePlugins {
    plugins: Plugins,
    options: Option<JsValue>,
}

thread_local! {
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
    /// The demo's plug-ins, when the binary ships them ([`start_with_demo`]).
    static DEMO: Cell<Option<fn() -> Plugins>> = const { Cell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// The function the widget `id`'s JS options hold now under `path` (`["upload"]`, or
/// `["tools", name]`: the `handler` of the tool of that name). Looked up at call time, from
/// the options object the page mounted with (the element's properties, live): a page that
/// gives a new handler needs no remount, and the registry's handlers (which must be `Send`)
/// only hold plain data.
fn js_function(id: u32, key: &str, tool: Option<&str>) -> Result<js_sys::Function, String> {
    let options = MOUNTED
        .with_borrow(|m| {
            m.iter()
                .find(|w| w.id == id)
                .and_then(|w| w.page.options.clone())
        })
        .ok_or_else(|| "the widget is gone".to_owned())?;
    let value = own(&options, key).unwrap_or(JsValue::UNDEFINED);
    let value = match tool {
        None => value,
        Some(name) => value
            .dyn_ref::<js_sys::Array>()
            .and_then(|list| {
                list.iter()
                    .find(|t| own(t, "name").and_then(|n| n.as_string()).as_deref() == Some(name))
            })
            .and_then(|t| own(&t, "handler"))
            .unwrap_or(JsValue::UNDEFINED),
    };
    value.dyn_into::<js_sys::Function>().map_err(|_| {
        format!(
            "{} is no longer a function of the page",
            tool.unwrap_or(key)
        )
    })
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

fn define() {
    let connect = Closure::<dyn Fn(HtmlElement)>::new(|el: HtmlElement| {
        mount_from_attributes(el, "");
    });
    let disconnect = Closure::<dyn Fn(HtmlElement)>::new(|el: HtmlElement| {
        // Moving an element in the DOM disconnects and reconnects it: unmount only if it is
        // still detached once the current task is done.
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL))
                .await;
            if !el.is_connected() {
                unmount(&el);
            }
        });
    });
    let changed = Closure::<dyn Fn(HtmlElement, String)>::new(|el: HtmlElement, attr: String| {
        reconfigure(&el, &attr);
    });
    let state = Closure::<dyn Fn(HtmlElement) -> JsValue>::new(|el: HtmlElement| state_of(&el));
    let observed: js_sys::Array = observed_attributes()
        .into_iter()
        .map(JsValue::from_str)
        .collect();
    if let Err(e) = define_element(
        ELEMENT,
        observed,
        connect.as_ref().unchecked_ref(),
        disconnect.as_ref().unchecked_ref(),
        changed.as_ref().unchecked_ref(),
        state.as_ref().unchecked_ref(),
    ) {
        warn(&format!("could not define <{ELEMENT}>: {}", error_text(&e)));
    }
    // The element class lives as long as the page.
    connect.forget();
    disconnect.forget();
    changed.forget();
    state.forget();
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

/// Options from an element's attributes (`prefix` = "" for `<agui-chat>`, `data-agui-` for
/// declarative mounting). The app's own page (`mode="page"`) also takes them from the URL
/// (`?endpoint=/api/agent&speed=4&theme=dark&inspector`), which win.
fn options_of(el: &HtmlElement, prefix: &str) -> (WidgetOptions, Vec<String>) {
    let attr = |name: &str| el.get_attribute(&format!("{prefix}{name}"));
    // The page's URL is read only when the element lets it (`url-options`).
    let params = attr("url-options").and_then(|_| {
        let href = web_sys::window()?.location().href().ok()?;
        Some(web_sys::Url::new(&href).ok()?.search_params())
    });
    WidgetOptions::parse_with_url_using(
        attr,
        |name| params.as_ref().and_then(|p| p.get(name)),
        read_json,
    )
}

/// How deep a JSON value from the page may nest (serde_json's own limit is 128).
const JSON_DEPTH: u32 = 128;

/// The browser's `JSON.parse` as the widget's [`crate::embed::ReadJson`]: the lean widget's
/// main module has no JSON parser of its own (serde_json's is in the `run` module). As a
/// serde_json value, with JS's readings: a number is an `f64` (an integer up to 2^53 is an
/// integer), an object's integer-like keys come first.
fn read_json(text: &str) -> Result<Value, String> {
    let v = js_sys::JSON::parse(text).map_err(|e| error_text(&e))?;
    value_of(&v, JSON_DEPTH).ok_or_else(|| format!("nested deeper than {JSON_DEPTH} levels"))
}

/// A JS value as JSON: what `JSON.stringify` makes of it (`toJSON`, functions left out…),
/// read back; `None` for what it cannot write (`undefined`, a function, a cycle).
fn json_of(v: &JsValue) -> Option<Value> {
    let text = js_sys::JSON::stringify(v).ok()?.as_string()?;
    read_json(&text).ok()
}

/// `v`, a value `JSON.parse` made (null, a boolean, number, string, array or plain object),
/// as a serde_json value; `None` when it nests deeper than `depth`. An object is read by its
/// own entries, so a `__proto__` key is a key like any other.
fn value_of(v: &JsValue, depth: u32) -> Option<Value> {
    if let Some(b) = v.as_bool() {
        return Some(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        return Some(if n.fract() == 0.0 && n.abs() <= EXACT {
            Value::from(n as i64)
        } else {
            serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
        });
    }
    if let Some(s) = v.as_string() {
        return Some(Value::String(s));
    }
    if v.is_null() || v.is_undefined() {
        return Some(Value::Null);
    }
    let depth = depth.checked_sub(1)?;
    if js_sys::Array::is_array(v) {
        let items = js_sys::Array::from(v);
        let items = items.iter().map(|x| value_of(&x, depth));
        return items.collect::<Option<Vec<_>>>().map(Value::Array);
    }
    let Some(obj) = v.dyn_ref::<js_sys::Object>() else {
        return Some(Value::Null);
    };
    let mut map = serde_json::Map::new();
    for entry in js_sys::Object::entries(obj).iter() {
        let entry = js_sys::Array::from(&entry);
        let key = entry.get(0).as_string().unwrap_or_default();
        map.insert(key, value_of(&entry.get(1), depth)?);
    }
    Some(Value::Object(map))
}

/// `obj[key]` when `obj` has it as its own property: options never come from the prototype
/// chain (a polluted `Object.prototype.endpoint` must not redirect `mount()`).
fn own(obj: &JsValue, key: &str) -> Option<JsValue> {
    let o = obj.dyn_ref::<js_sys::Object>()?;
    if !js_sys::Object::has_own(o, &JsValue::from_str(key)) {
        return None;
    }
    js_sys::Reflect::get(obj, &key.into()).ok()
}

/// Options from a JS object (`{endpoint, headers, mode, threadKey, …}`); what it leaves out
/// comes from `el`'s attributes.
fn options_from_js(el: &HtmlElement, obj: &JsValue) -> (WidgetOptions, Vec<String>) {
    WidgetOptions::parse_using(
        |attr| {
            let key = OPTIONS
                .iter()
                .find(|(a, _, _)| *a == attr)
                .map(|(_, k, _)| *k)?;
            let v = own(obj, key).unwrap_or(JsValue::UNDEFINED);
            if v.is_undefined() || v.is_null() {
                el.get_attribute(attr)
            } else if let Some(b) = v.as_bool() {
                // As an attribute reads them: `false` is `"false"` (a `queue: false` is off).
                Some(if b { "true" } else { "false" }.to_owned())
            } else if let Some(s) = v.as_string() {
                Some(s)
            } else {
                // Numbers too, as JS writes them (`4`, `0.5`).
                js_sys::JSON::stringify(&v).ok().and_then(|s| s.as_string())
            }
        },
        read_json,
    )
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

fn dispatch(host: &HtmlElement, name: &str, detail: &Value) {
    let init = CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    let detail = js_sys::JSON::parse(&detail.to_string()).unwrap_or(JsValue::NULL);
    init.set_detail(&detail);
    if let Ok(ev) = CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = host.dispatch_event(&ev);
    }
}

/// What the host has been told so far.
#[derive(Clone, PartialEq, Default)]
struct Seen {
    running: bool,
    state: u64,
    interrupts: Vec<String>,
}

/// Turns store changes into DOM events on the host element, in a fixed order within one
/// update: run started, state changed, interrupt, run finished.
fn bridge_events(store: AgentStore, host: HtmlElement) {
    let feedback_host = host.clone();
    Effect::new(move |_| {
        if let Some(f) = store.feedback.get() {
            dispatch(&feedback_host, "agui:feedback", &f.to_json());
        }
    });
    Effect::new(move |before: Option<Seen>| {
        let now = Seen {
            running: store.running.get(),
            state: store.state_changes.get(),
            interrupts: store
                .run
                .with(|r| r.interrupts.iter().map(|i| i.id.clone()).collect()),
        };
        let Some(before) = before else {
            return now;
        };
        let thread = store.thread_id();
        if now.running && !before.running {
            dispatch(
                &host,
                "agui:run-started",
                &json!({"threadId": thread, "runId": store.last_run_id()}),
            );
        }
        if now.state != before.state {
            dispatch(&host, "agui:state-changed", &json!({"threadId": thread}));
        }
        if now
            .interrupts
            .iter()
            .any(|id| !before.interrupts.contains(id))
        {
            // Interrupts come with a run: the lean widget's `run` module is here.
            let (host, thread) = (host.clone(), thread.clone());
            crate::ui::lazy::in_module(store, move || {
                interrupted(host.clone(), store, thread.clone())
            });
        }
        if before.running && !now.running {
            // A run ended: the lean widget's `run` module is here, so this is at once.
            let (host, thread) = (host.clone(), thread.clone());
            crate::ui::lazy::in_module(store, move || {
                run_finished(host.clone(), store, thread.clone())
            });
        }
        now
    });
}

crate::ui::lazy::split!(run:
    /// `agui:interrupt`, with the run's open interrupts.
    fn interrupted(host: HtmlElement, store: AgentStore, thread: String) -> () {
        let interrupts = store
            .run
            .with_untracked(|r| serde_json::to_value(&r.interrupts).unwrap_or(Value::Null));
        dispatch(
            &host,
            "agui:interrupt",
            &json!({"threadId": thread, "interrupts": interrupts}),
        );
    }
);

crate::ui::lazy::split!(run:
    /// `agui:run-finished`, its error worded like the banner, in the widget's language.
    fn run_finished(host: HtmlElement, store: AgentStore, thread: String) -> () {
        let (status, error) = store
            .run
            .with_untracked(|r| (r.status.name(), r.error.clone()));
        let error =
            error.map(|e| crate::view::wording::run_failure(crate::ui::tr_now(store), &e));
        dispatch(
            &host,
            "agui:run-finished",
            &json!({"threadId": thread, "runId": store.last_run_id(), "status": status, "error": error}),
        );
    }
);

/// The page's plug-ins from the JS options: `tools`, `renderers` (see the module docs;
/// `suggestions` are an option like the attribute, [`WidgetOptions::suggestions`]). Every entry that cannot be used is a problem shown in the widget, never a failure.
fn plugins_from_js(id: u32, obj: &JsValue) -> (Plugins, Vec<String>) {
    let mut plugins = Plugins::new();
    let mut problems = Vec::new();
    let field = |k: &str| own(obj, k).filter(|v| !v.is_undefined() && !v.is_null());
    if let Some(list) = field("tools") {
        plugins = tools_from_js(id, &list, plugins, &mut problems);
    }
    if let Some(map) = field("renderers") {
        plugins = renderers_from_js(&map, plugins, &mut problems);
    }
    if let Some(upload) = field("upload") {
        match upload.dyn_into::<js_sys::Function>() {
            Ok(_) => plugins = plugins.upload(move |file| call_js_upload(id, file)),
            Err(_) => problems.push("upload: expected a function (file) → URL".to_owned()),
        }
    }
    (plugins, problems)
}

/// The page's `upload(file)`: a URL (or a promise of one) for the attached file.
async fn call_js_upload(widget: u32, file: web_sys::File) -> Result<String, String> {
    let f = js_function(widget, "upload", None)?;
    let out = f.call1(&JsValue::NULL, &file).map_err(|e| error_text(&e))?;
    let out = match out.dyn_into::<js_sys::Promise>() {
        Ok(p) => wasm_bindgen_futures::JsFuture::from(p)
            .await
            .map_err(|e| error_text(&e))?,
        Err(v) => v,
    };
    out.as_string()
        .filter(|url| !url.trim().is_empty())
        .ok_or_else(|| "upload did not return a URL".to_owned())
}

/// `tools: [{name, description, parameters, handler}]`: frontend tools whose handler runs in
/// the page.
fn tools_from_js(
    id: u32,
    list: &JsValue,
    mut plugins: Plugins,
    problems: &mut Vec<String>,
) -> Plugins {
    let Some(list) = list.dyn_ref::<js_sys::Array>() else {
        problems.push("tools: expected an array".to_owned());
        return plugins;
    };
    for item in list.iter() {
        let get = |k: &str| own(&item, k).unwrap_or(JsValue::UNDEFINED);
        let Some(name) = get("name").as_string().filter(|n| !n.is_empty()) else {
            problems.push("tools: a tool without a name".to_owned());
            continue;
        };
        if !get("handler").is_function() {
            problems.push(format!("tools: {name} has no handler function"));
            continue;
        }
        let parameters = json_of(&get("parameters"));
        let tool = Tool {
            name: name.clone(),
            description: get("description").as_string().unwrap_or_default(),
            parameters,
            metadata: None,
        };
        plugins = plugins.frontend_handler(tool, move |args| call_js_tool(id, name.clone(), args));
    }
    plugins
}

/// `renderers: {tool_name: 'element-name'}`: tool cards whose body is a custom element of the
/// page. Only valid custom element names are taken ([`valid_element_name`]).
fn renderers_from_js(map: &JsValue, mut plugins: Plugins, problems: &mut Vec<String>) -> Plugins {
    let Some(map) = map.dyn_ref::<js_sys::Object>().filter(|_| !map.is_array()) else {
        problems.push("renderers: expected an object {tool_name: 'element-name'}".to_owned());
        return plugins;
    };
    for entry in js_sys::Object::entries(map).iter() {
        let pair = js_sys::Array::from(&entry);
        let (Some(name), tag) = (pair.get(0).as_string(), pair.get(1).as_string()) else {
            continue;
        };
        match tag.filter(|t| valid_element_name(t)) {
            Some(tag) => {
                plugins = plugins.tool_renderer(&name, move |call| {
                    let tag = tag.clone();
                    crate::ui::lazy::lazy_or(move || element_card(tag, call), || ()).into_any()
                });
            }
            None => problems.push(format!(
                "renderers: {name}: not a custom element name (lower case, with a hyphen)"
            )),
        }
    }
    plugins
}

crate::ui::lazy::split!(run:
    /// A card body that is the page's own element: created once (by name, never from HTML), its
    /// `toolCall` property set again whenever the call changes.
    /// (In the `run` module: only a tool card shows it.)
    fn element_card(tag: String, call: ToolCallView) -> AnyView {
        let holder = NodeRef::<leptos::html::Div>::new();
        let element = StoredValue::new_local(None::<web_sys::Element>);
        Effect::new(move |_| {
            let value = call.view.with(|v| v.as_ref().map(|v| v.to_json()));
            let Some(div) = holder.get() else {
                return;
            };
            let el = match element.get_value() {
                Some(el) => el,
                None => {
                    let Some(el) = div
                        .owner_document()
                        .and_then(|d| d.create_element(&tag).ok())
                    else {
                        return;
                    };
                    let _ = div.append_child(&el);
                    element.set_value(Some(el.clone()));
                    el
                }
            };
            let value = value
                .and_then(|v| js_sys::JSON::parse(&v.to_string()).ok())
                .unwrap_or(JsValue::NULL);
            let _ = js_sys::Reflect::set(&el, &"toolCall".into(), &value);
        });
        view! { <div class="agui-tool-card__element" data-testid="tool-element" node_ref=holder></div> }
            .into_any()
    }
);

async fn call_js_tool(widget: u32, name: String, args: Value) -> Result<Value, String> {
    let f = js_function(widget, "tools", Some(&name))?;
    let args = js_sys::JSON::parse(&args.to_string()).map_err(|e| error_text(&e))?;
    let out = f.call1(&JsValue::NULL, &args).map_err(|e| error_text(&e))?;
    let out = match out.dyn_into::<js_sys::Promise>() {
        Ok(p) => wasm_bindgen_futures::JsFuture::from(p)
            .await
            .map_err(|e| error_text(&e))?,
        Err(v) => v,
    };
    if out.is_undefined() {
        return Ok(Value::Null);
    }
    json_of(&out).ok_or_else(|| format!("tool {name} returned a value that is not JSON"))
}

/// What `AguiChat.mount` returns: `{element, unmount(), state()}`.
fn handle_object(el: HtmlElement) -> js_sys::Object {
    let handle = js_sys::Object::new();
    set(&handle, "element", &el);
    let target = el.clone();
    let unmount_fn = Closure::<dyn Fn() -> bool>::new(move || unmount(&target));
    set(&handle, "unmount", &unmount_fn.into_js_value());
    let state_fn = Closure::<dyn Fn() -> JsValue>::new(move || state_of(&el));
    set(&handle, "state", &state_fn.into_js_value());
    handle
}

fn set(obj: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &key.into(), value);
}

/// `window.AguiChat`.
fn install_api() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let api = js_sys::Object::new();
    // `mount(element, options, open)`: options from a JS object (the element's properties,
    // for the loader's <agui-chat>; what it leaves out comes from the attributes), or, when
    // `options` is not an object, from the attributes alone (and the page's URL, with
    // `url-options`); `open`: the visitor already asked for the chat (a popup's launcher was
    // clicked before the chat was here): it opens, with the keyboard in the composer.
    let mount_fn = Closure::<dyn Fn(JsValue, JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
        |el: JsValue, js_options: JsValue, open: JsValue| {
            let el: HtmlElement = el
                .dyn_into()
                .map_err(|_| JsValue::from_str("AguiChat.mount: expected an element"))?;
            let id = next_id();
            let (mut options, mut problems, page) = if js_options.is_object() {
                let (mut options, mut problems) = options_from_js(&el, &js_options);
                options.focus = own(&js_options, "focus")
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);
                let (plugins, more) = plugins_from_js(id, &js_options);
                problems.extend(more);
                let page = PagePlugins {
                    plugins,
                    options: Some(js_options),
                };
                (options, problems, page)
            } else {
                let (options, problems) = options_of(&el, "");
                (options, problems, PagePlugins::default())
            };
            if open.is_truthy() {
                options.open = Some(true);
                options.focus = true;
            }
            problems.dedup();
            mount(id, el.clone(), options, problems, page);
            Ok(handle_object(el).into())
        },
    );
    set(&api, "mount", mount_fn.as_ref());
    mount_fn.forget();
    let unmount_fn = Closure::<dyn Fn(JsValue) -> bool>::new(|el: JsValue| {
        el.dyn_into::<HtmlElement>()
            .map(|el| unmount(&el))
            .unwrap_or(false)
    });
    set(&api, "unmount", unmount_fn.as_ref());
    unmount_fn.forget();
    let scan_fn = Closure::<dyn Fn(JsValue)>::new(|root: JsValue| {
        if root.is_object() {
            scan(&root);
        } else if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            scan(&doc.into());
        }
    });
    set(&api, "scan", scan_fn.as_ref());
    scan_fn.forget();
    // The loader's <agui-chat> (src/loader/agui-chat.js) reports through these.
    let changed = Closure::<dyn Fn(HtmlElement, String)>::new(|el: HtmlElement, attr: String| {
        reconfigure(&el, &attr);
    });
    set(&api, "_changed", changed.as_ref());
    changed.forget();
    let state = Closure::<dyn Fn(HtmlElement) -> JsValue>::new(|el: HtmlElement| state_of(&el));
    set(&api, "_state", state.as_ref());
    state.forget();
    set(&api, "version", &env!("CARGO_PKG_VERSION").into());
    set(&window, "AguiChat", &api);
}
