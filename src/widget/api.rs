//! `window.AguiChat`: `mount`, `unmount`, `scan`, `version`, and what the loader reports through.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::plugins::Plugins;

use super::element::define;
use super::js::{own, set};
use super::js_plugins::plugins_from_js;
use super::mount::{mount, reconfigure, scan, state_of, unmount};
use super::mounted::{next_id, PagePlugins, DEMO};
use super::options::options_from_js;
use super::options::options_of;

/// What `AguiChat.mount` returns: `{element, unmount(), state()}`.
pub(super) fn handle_object(el: HtmlElement) -> js_sys::Object {
    let handle = js_sys::Object::new();
    set(&handle, "element", &el);
    let target = el.clone();
    let unmount_fn = Closure::<dyn Fn() -> bool>::new(move || unmount(&target));
    set(&handle, "unmount", &unmount_fn.into_js_value());
    let state_fn = Closure::<dyn Fn() -> JsValue>::new(move || state_of(&el));
    set(&handle, "state", &state_fn.into_js_value());
    handle
}

/// Run `f` on every mounted widget's store; how many.
fn each_store(f: impl Fn(crate::store::AgentStore)) -> u32 {
    let mut n = 0;
    // One at a time, outside the borrow (what `f` does may read the mounted widgets).
    while let Some(store) =
        super::mounted::MOUNTED.with_borrow(|m| m.get(n as usize).map(|w| w.store))
    {
        f(store);
        n += 1;
    }
    n
}

/// `window.AguiChat`.
pub(super) fn install_api() {
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
    // Sign-out: every widget forgets what it keeps in the browser and shows a fresh
    // conversation (the loader then clears what is left under the chats' prefix).
    let forget_fn = Closure::<dyn Fn() -> u32>::new(|| each_store(|s| s.forget()));
    set(&api, "forget", forget_fn.as_ref());
    forget_fn.forget();
    // The conversations a visitor had before the site's thread store go to it.
    let upload_fn = Closure::<dyn Fn() -> u32>::new(|| each_store(|s| s.upload_local()));
    set(&api, "uploadLocal", upload_fn.as_ref());
    upload_fn.forget();
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
