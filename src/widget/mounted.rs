//! The page's widgets: what is mounted where, and the demo's plug-ins when the binary ships them.

use std::any::Any;
use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

use crate::plugins::Plugins;
use crate::store::AgentStore;
use crate::ui::widget_shell::ShellControls;

/// The custom element's name.
pub const ELEMENT: &str = "agui-chat";
/// The attribute prefix of declaratively mounted elements (`data-agui-endpoint`…).
pub(super) const DATA_PREFIX: &str = "data-agui-";

/// A mounted widget.
pub(super) struct Mounted {
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
pub(super) struct PagePlugins {
    pub(super) plugins: Plugins,
    pub(super) options: Option<JsValue>,
}

thread_local! {
    pub(super) static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
    /// The demo's plug-ins, when the binary ships them ([`start_with_demo`]).
    pub(super) static DEMO: Cell<Option<fn() -> Plugins>> = const { Cell::new(None) };
    pub(super) static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

pub(super) fn next_id() -> u32 {
    let id = NEXT_ID.get();
    NEXT_ID.set(id + 1);
    id
}

pub(super) fn is_mounted(el: &HtmlElement) -> bool {
    MOUNTED.with_borrow(|m| m.iter().any(|w| &w.host == el))
}
