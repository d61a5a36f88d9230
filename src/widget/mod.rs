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
//! - `codeRenderers: {lang: 'element-name'}` — the widget creates that custom element in the
//!   card of a fenced block of that language and sets its `code` and `complete` properties
//!   every time they change;
//! - `suggestions: ['prompt', {prompt, hint}]` — chips that send the prompt.
//!
//! A widget with an `endpoint` gets exactly those: no tool advertised but the page's, the
//! generic card for every other tool. Without an `endpoint` (or with the `demo` attribute) it
//! also gets the demo plug-ins the binary registered ([`start_with_demo`]).

mod api;
mod element;
mod events;
mod guard;
pub(crate) mod js;
mod js_plugins;
mod mount;
mod mounted;
mod options;

pub use api::{start, start_with_demo};
pub use mount::scan;
pub use mounted::ELEMENT;
