//! The page's JS plug-ins: frontend tools whose handler runs in the page, renderer elements,
//! the upload and transcribe hooks — looked up at call time in the options object the widget was mounted with.

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::embed::{code_renderer_entries, valid_element_name};
use crate::plugins::Plugins;
use crate::plugins::{CodeBlockView, ToolCallView};
use crate::protocol::types::Tool;

use crate::session::{HeaderRequest, HeaderSource};

use super::js::{error_text, js_value, json_of, own, read_json};
use super::mounted::MOUNTED;

/// The function the widget `id`'s JS options hold now under `path` (`["upload"]`, or
/// `["tools", name]`: the `handler` of the tool of that name). Looked up at call time, from
/// the options object the page mounted with (the element's properties, live): a page that
/// gives a new handler needs no remount, and the registry's handlers (which must be `Send`)
/// only hold plain data.
pub(super) fn js_function(
    id: u32,
    key: &str,
    tool: Option<&str>,
) -> Result<js_sys::Function, String> {
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

/// What a page's function gave: its value, or what its promise settles to.
async fn settled(out: Result<JsValue, JsValue>) -> Result<JsValue, JsValue> {
    match out?.dyn_into::<js_sys::Promise>() {
        Ok(p) => wasm_bindgen_futures::JsFuture::from(p).await,
        Err(v) => Ok(v),
    }
}

/// The page's plug-ins from the JS options: `tools`, `renderers`, `codeRenderers` (see the module docs;
/// `suggestions` are an option like the attribute, [`WidgetOptions::suggestions`]). Every entry that cannot be used is a problem shown in the widget, never a failure.
pub(super) fn plugins_from_js(id: u32, obj: &JsValue) -> (Plugins, Vec<String>) {
    let mut plugins = Plugins::new();
    let mut problems = Vec::new();
    let field = |k: &str| own(obj, k).filter(|v| !v.is_undefined() && !v.is_null());
    if let Some(list) = field("tools") {
        plugins = tools_from_js(id, &list, plugins, &mut problems);
    }
    if let Some(map) = field("renderers") {
        plugins = renderers_from_js(&map, plugins, &mut problems);
    }
    if let Some(map) = field("codeRenderers") {
        plugins = code_renderers_from_js(&map, plugins, &mut problems);
    }
    if let Some(upload) = field("upload") {
        match upload.dyn_into::<js_sys::Function>() {
            Ok(_) => plugins = plugins.upload(move |file| call_js_upload(id, file)),
            Err(_) => problems.push("upload: expected a function (file) → URL".to_owned()),
        }
    }
    if let Some(transcribe) = field("transcribe") {
        match transcribe.dyn_into::<js_sys::Function>() {
            Ok(_) => plugins = plugins.transcribe(move |audio| call_js_transcribe(id, audio)),
            Err(_) => problems.push("transcribe: expected a function (audio) → text".to_owned()),
        }
    }
    (plugins, problems)
}

/// `headers` given as a function: called before every request to the page's `endpoint`
/// (`None` when it is not a function or there is no endpoint).
pub(super) fn header_source_from_js(
    id: u32,
    obj: &JsValue,
    endpoint: Option<&str>,
) -> Option<HeaderSource> {
    own(obj, "headers").filter(JsValue::is_function)?;
    Some(
        HeaderSource::new(move |ask: HeaderRequest| call_js_headers(id, ask.refresh))
            .only_for(endpoint?),
    )
}

/// The page's `headers({refresh})`: an object of strings, or a promise of one.
pub(super) async fn call_js_headers(
    widget: u32,
    refresh: bool,
) -> Result<Vec<(String, String)>, String> {
    let f = js_function(widget, "headers", None)?;
    let ask = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&ask, &"refresh".into(), &JsValue::from_bool(refresh));
    let out = settled(f.call1(&JsValue::NULL, &ask))
        .await
        .map_err(|e| error_text(&e))?;
    let text = js_sys::JSON::stringify(&out)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| "headers did not return an object of strings".to_owned())?;
    crate::embed::parse_headers_using(&text, read_json).map_err(|e| e.message(&crate::i18n::EN))
}

/// The page's `upload(file)`: a URL (or a promise of one) for the attached file.
pub(super) async fn call_js_upload(widget: u32, file: web_sys::File) -> Result<String, String> {
    let f = js_function(widget, "upload", None)?;
    let out = settled(f.call1(&JsValue::NULL, &file))
        .await
        .map_err(|e| error_text(&e))?;
    out.as_string()
        .filter(|url| !url.trim().is_empty())
        .ok_or_else(|| "upload did not return a URL".to_owned())
}

/// The page's `transcribe(audio)`: the text (or a promise of it) of a recording.
pub(super) async fn call_js_transcribe(
    widget: u32,
    audio: web_sys::Blob,
) -> Result<String, String> {
    let f = js_function(widget, "transcribe", None)?;
    let out = settled(f.call1(&JsValue::NULL, &audio))
        .await
        .map_err(|e| error_text(&e))?;
    // Copied into the chat no longer than what it keeps (and one more character, to know that
    // it was cut).
    let keep = (crate::view::voice::MAX_TRANSCRIPT_CHARS as u32 + 1) * 2;
    out.dyn_into::<js_sys::JsString>()
        .ok()
        .and_then(|s| s.slice(0, keep.min(s.length())).as_string())
        .ok_or_else(|| "transcribe did not return a text".to_owned())
}

/// `tools: [{name, description, parameters, handler}]`: frontend tools whose handler runs in
/// the page.
pub(super) fn tools_from_js(
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
pub(super) fn renderers_from_js(
    map: &JsValue,
    mut plugins: Plugins,
    problems: &mut Vec<String>,
) -> Plugins {
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

/// `codeRenderers: {lang: 'element-name'}`: fenced blocks of a language drawn by a custom
/// element of the page ([`code_renderer_entries`] keeps the usable ones).
pub(super) fn code_renderers_from_js(
    map: &JsValue,
    mut plugins: Plugins,
    problems: &mut Vec<String>,
) -> Plugins {
    let Some(map) = map.dyn_ref::<js_sys::Object>().filter(|_| !map.is_array()) else {
        problems.push("codeRenderers: expected an object {lang: 'element-name'}".to_owned());
        return plugins;
    };
    let entries = js_sys::Object::entries(map)
        .into_iter()
        .filter_map(|entry| {
            let pair = js_sys::Array::from(&entry);
            Some((pair.get(0).as_string()?, pair.get(1).as_string()))
        });
    let (entries, found) = code_renderer_entries(entries);
    problems.extend(found);
    for (lang, tag) in entries {
        plugins = plugins.code_renderer(&lang, move |block| {
            let tag = tag.clone();
            crate::ui::lazy::lazy_or(move || element_code(tag, block), || ()).into_any()
        });
    }
    plugins
}

/// The page's element `tag` in `holder`, created the first time (by name, never from HTML)
/// and kept in `element`; `None` until `holder` is mounted.
fn page_element(
    tag: &str,
    holder: NodeRef<leptos::html::Div>,
    element: StoredValue<Option<web_sys::Element>, LocalStorage>,
) -> Option<web_sys::Element> {
    let div = holder.get()?;
    if let Some(el) = element.get_value() {
        return Some(el);
    }
    let el = div.owner_document()?.create_element(tag).ok()?;
    let _ = div.append_child(&el);
    element.set_value(Some(el.clone()));
    Some(el)
}

crate::split::split!(run:
    /// A code block drawn by the page's own element: created once (by name, never from HTML),
    /// its `code` and `complete` properties set again whenever they change.
    /// (In the `run` module: only an answer's Markdown shows it.)
    fn element_code(tag: String, block: CodeBlockView) -> AnyView {
        let holder = NodeRef::<leptos::html::Div>::new();
        let element = StoredValue::new_local(None::<web_sys::Element>);
        Effect::new(move |_| {
            let code = block.code.get();
            let complete = block.complete.get();
            let Some(el) = page_element(&tag, holder, element) else {
                return;
            };
            let _ = js_sys::Reflect::set(&el, &"code".into(), &JsValue::from_str(&code));
            let _ = js_sys::Reflect::set(&el, &"complete".into(), &JsValue::from_bool(complete));
        });
        view! { <div class="agui-code__element" data-testid="code-element" node_ref=holder></div> }
            .into_any()
    }
);

crate::split::split!(run:
    /// A card body that is the page's own element: created once (by name, never from HTML), its
    /// `toolCall` property set again whenever the call changes.
    /// (In the `run` module: only a tool card shows it.)
    fn element_card(tag: String, call: ToolCallView) -> AnyView {
        let holder = NodeRef::<leptos::html::Div>::new();
        let element = StoredValue::new_local(None::<web_sys::Element>);
        Effect::new(move |_| {
            let value = call.view.with(|v| v.as_ref().map(|v| v.to_json()));
            let Some(el) = page_element(&tag, holder, element) else {
                return;
            };
            let value = value.map_or(JsValue::NULL, |v| js_value(&v));
            let _ = js_sys::Reflect::set(&el, &"toolCall".into(), &value);
        });
        view! { <div class="agui-tool-card__element" data-testid="tool-element" node_ref=holder></div> }
            .into_any()
    }
);

pub(super) async fn call_js_tool(widget: u32, name: String, args: Value) -> Result<Value, String> {
    let f = js_function(widget, "tools", Some(&name))?;
    let args = js_value(&args);
    let out = settled(f.call1(&JsValue::NULL, &args))
        .await
        .map_err(|e| error_text(&e))?;
    if out.is_undefined() {
        return Ok(Value::Null);
    }
    json_of(&out).ok_or_else(|| format!("tool {name} returned a value that is not JSON"))
}

/// `threads: {list, load, save, remove}`: the site's thread store in the page's code, each
/// function looked up when it is called (as the other hooks are).
///
/// - `list(cursor)` → `{entries: [{id, title, updatedAt}], next}` (or just the array: one
///   page); `cursor` is the `next` of the page before, `null` for the first;
/// - `load(id)` → `{record, etag}` (`null`: there is no such conversation);
/// - `save(id, record, {etag})` → the new version (a string, or nothing); `etag` is the
///   version the save expects (`null`: a new conversation, `'*'`: any);
/// - `remove(id)`.
///
/// A throw or a rejection fails the call, which is tried again later; an error with
/// `status: 412` is a conflict (the chat loads, merges and saves again), `status: 404` a
/// missing conversation.
pub(super) struct JsThreadStore(pub(super) u32);

/// Whether the JS options give a `threads` object with the four functions (an error: one
/// that lacks some).
pub(super) fn has_thread_hooks(obj: &JsValue) -> Result<bool, String> {
    let Some(threads) = own(obj, "threads").filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(false);
    };
    for f in ["list", "load", "save", "remove"] {
        if !own(&threads, f).is_some_and(|v| v.is_function()) {
            return Err(format!(
                "threads: expected {{list, load, save, remove}} functions ({f} is missing)"
            ));
        }
    }
    Ok(true)
}

/// Call the page's `threads.<name>(args…)` and wait for its answer.
async fn call_threads(
    widget: u32,
    name: &str,
    args: &[JsValue],
) -> Result<JsValue, crate::session::remote::StoreFailure> {
    use crate::session::remote::StoreFailure;
    let threads = MOUNTED
        .with_borrow(|m| {
            m.iter()
                .find(|w| w.id == widget)
                .and_then(|w| w.page.options.clone())
        })
        .and_then(|o| own(&o, "threads"))
        .ok_or_else(|| StoreFailure::Failed("the widget is gone".to_owned()))?;
    let f = own(&threads, name)
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| StoreFailure::Failed(format!("threads.{name} is not a function")))?;
    let array: js_sys::Array = args.iter().collect();
    settled(f.apply(&threads, &array)).await.map_err(|e| {
        let status = own(&e, "status").and_then(|s| s.as_f64());
        match status {
            Some(412.0) => StoreFailure::Conflict,
            Some(404.0) => StoreFailure::NotFound,
            _ => StoreFailure::Failed(format!("threads.{name}: {}", error_text(&e))),
        }
    })
}

mod js_threads {
    use super::*;
    use crate::session::remote::{
        Expect, ListPage, Loaded, StoreFailure, StoreFuture, ThreadStore,
    };

    fn bad(what: &str) -> StoreFailure {
        StoreFailure::Failed(format!("threads.{what}"))
    }

    impl ThreadStore for JsThreadStore {
        fn list(&self, cursor: Option<&str>) -> StoreFuture<ListPage> {
            let (id, cursor) = (self.0, cursor.map_or(JsValue::NULL, JsValue::from_str));
            Box::pin(async move {
                let out = json_of(&call_threads(id, "list", &[cursor]).await?);
                match out {
                    Some(Value::Array(entries)) => Ok(ListPage {
                        entries,
                        next: None,
                    }),
                    Some(Value::Object(mut o)) => Ok(ListPage {
                        entries: match o.remove("entries") {
                            Some(Value::Array(e)) => e,
                            _ => return Err(bad("list did not give {entries: [...]}")),
                        },
                        next: o.get("next").and_then(Value::as_str).map(str::to_owned),
                    }),
                    _ => Err(bad("list did not give a page of entries")),
                }
            })
        }

        fn load(&self, thread: &str) -> StoreFuture<Loaded> {
            let (id, thread) = (self.0, JsValue::from_str(thread));
            Box::pin(async move {
                let out = call_threads(id, "load", &[thread]).await?;
                if out.is_null() || out.is_undefined() {
                    return Err(StoreFailure::NotFound);
                }
                let mut o = match json_of(&out) {
                    Some(Value::Object(o)) => o,
                    _ => return Err(bad("load did not give {record, etag}")),
                };
                Ok(Loaded {
                    etag: o.get("etag").and_then(Value::as_str).map(str::to_owned),
                    record: o
                        .remove("record")
                        .ok_or_else(|| bad("load gave no record"))?,
                })
            })
        }

        fn save(
            &self,
            thread: &str,
            record: &Value,
            expect: &Expect,
        ) -> StoreFuture<Option<String>> {
            let id = self.0;
            let args = [JsValue::from_str(thread), js_value(record), {
                let o = js_sys::Object::new();
                let etag = match expect {
                    Expect::New => JsValue::NULL,
                    Expect::Version(v) => JsValue::from_str(v),
                    Expect::Any => JsValue::from_str("*"),
                };
                super::super::js::set(&o, "etag", &etag);
                o.into()
            }];
            Box::pin(async move { Ok(call_threads(id, "save", &args).await?.as_string()) })
        }

        fn remove(&self, thread: &str) -> StoreFuture<()> {
            let (id, thread) = (self.0, JsValue::from_str(thread));
            Box::pin(async move {
                call_threads(id, "remove", &[thread]).await?;
                Ok(())
            })
        }
    }
}
