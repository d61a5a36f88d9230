//! The chat's stylesheets (`style/*.css`), in cascade order, minified by `build.rs` and
//! compiled in — those of what the bundle has (the demo's cards, the inspector only with their
//! features). The widget gives them to each shadow root ([`adopt`]), [`crate::app::AgentChat`]
//! puts them next to the chat.
//!
//! The lean widget's split build (`--cfg agui_split`) keeps in its main module only the sheets
//! of what that module renders (the frame, header, composer, welcome, banners); the sheets of
//! the parts fetched on first use (Markdown, tool cards, interrupt forms, the state tree,
//! settings, attachments, …: `Half::Modules` in `build/sheets.rs`) come with the first of
//! those parts to be fetched (`split::MODULES_CSS`, which only split functions name): every
//! split function first calls the completion [`adopt`] registers (`split::before_parts`), which
//! puts them back in their places, so the cascade is the same as the whole sheet's.

/// The stylesheet this build starts with: the whole of it, or in the split build the sheets of
/// what its main module renders (runs of sheets in a row joined by `css_min::JOIN`).
#[cfg(not(agui_split))]
pub const STYLESHEET: &str = include_str!(concat!(env!("OUT_DIR"), "/stylesheet.css"));
#[cfg(agui_split)]
pub const STYLESHEET: &str = include_str!(concat!(env!("OUT_DIR"), "/stylesheet-main.css"));

#[path = "../../build/css_min.rs"]
#[allow(dead_code)] // the minifier is build.rs's; the split widget uses `interleave`.
mod css_min;
#[cfg(agui_split)]
use css_min::interleave;

thread_local! {
    /// The chat's stylesheet, constructed once and adopted by every widget's shadow root
    /// (`None` inside: the browser cannot construct one).
    static SHEET: std::cell::OnceCell<Option<web_sys::CssStyleSheet>> = const { std::cell::OnceCell::new() };
    /// The whole sheet once [`complete`] has run (the split build).
    static WHOLE: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
    /// The `<style>` elements of shadow roots that cannot adopt a sheet, to complete them too.
    static ELEMENTS: std::cell::RefCell<Vec<web_sys::Element>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `f` of the text a new shadow root gets: the whole sheet once [`complete`] has run (read in
/// place, never copied).
fn with_text<R>(f: impl FnOnce(&str) -> R) -> R {
    WHOLE.with(|w| f(w.get().map_or(STYLESHEET, String::as_str)))
}

/// Gives `shadow` the chat's styles: the shared constructed stylesheet, which a strict CSP
/// (`style-src 'self'`) allows — it blocks a `<style>` element — and which every widget of the
/// page shares instead of parsing its own copy; a `<style>` where the browser has none.
pub fn adopt(shadow: &web_sys::ShadowRoot, doc: &web_sys::Document) {
    use wasm_bindgen::JsValue;
    // The rules of what the modules render come with the first of them: every split function
    // completes the sheet first.
    #[cfg(agui_split)]
    crate::split::before_parts(complete);
    let sheet = SHEET.with(|s| {
        s.get_or_init(|| {
            let sheet = web_sys::CssStyleSheet::new().ok()?;
            with_text(|t| sheet.replace_sync(t)).ok()?;
            Some(sheet)
        })
        .clone()
    });
    let adoptable =
        js_sys::Reflect::has(shadow, &JsValue::from_str("adoptedStyleSheets")).unwrap_or(false);
    match sheet.filter(|_| adoptable) {
        Some(sheet) => shadow.set_adopted_style_sheets(&js_sys::Array::of1(&sheet)),
        None => {
            if let Ok(style) = doc.create_element("style") {
                with_text(|t| style.set_text_content(Some(t)));
                let _ = shadow.append_child(&style);
                if cfg!(agui_split) && WHOLE.with(|w| w.get().is_none()) {
                    ELEMENTS.with_borrow_mut(|e| {
                        e.retain(|s| s.is_connected());
                        e.push(style);
                    });
                }
            }
        }
    }
}

/// Completes the stylesheet of every widget with `modules`, the rules of the parts fetched on
/// first use (at most once; the split build's split functions call it before they render,
/// handing it `split::MODULES_CSS`, which only they name: the main module does not carry it).
#[cfg(agui_split)]
fn complete(modules: &'static str) {
    if WHOLE.with(|w| w.get().is_some()) {
        return;
    }
    let whole = interleave(STYLESHEET, modules);
    if let Some(Some(sheet)) = SHEET.with(|s| s.get().cloned()) {
        let _ = sheet.replace_sync(&whole);
    }
    for style in ELEMENTS.take() {
        if style.is_connected() {
            style.set_text_content(Some(&whole));
        }
    }
    WHOLE.with(|w| w.set(whole).ok());
}
