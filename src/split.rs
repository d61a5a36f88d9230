//! The lean widget's split points, the machinery below the chat's layers: the lean widget's
//! build (`scripts/build-widget.sh`, `--cfg agui_split`) cuts each `split!` function out of the
//! main wasm module into a module of its own (Leptos's `wasm_split`, run by `wasm-split-cli`),
//! fetched the first time it is needed; without the cfg (the app's bundle, every test) a split
//! function is a plain call. The store runs actions in them
//! ([`AgentStore::in_module`](crate::store::AgentStore::in_module)); the components show parts
//! with `ui::lazy::lazy` (`docs/dev/lean-widget.md`).
//!
//! `leptos::wasm_split` is Leptos's re-export of the `wasm_split` crate (`#[doc(hidden)]` in
//! Leptos 0.8, pinned by Cargo.lock with Leptos): the attribute macro the `split!` macros expand
//! to, and its loader.

use std::cell::Cell;
use std::future::Future;
use std::task::{Context, Poll, Waker};

/// A chunk could not be loaded (the details are in the browser's console).
#[derive(Debug, Clone, Copy)]
pub struct LoadFailed;

#[cfg(agui_split)]
impl From<::leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: ::leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

thread_local! {
    /// What a split function runs first ([`before_parts`]).
    static BEFORE_PART: Cell<Option<fn(&'static str)>> = const { Cell::new(None) };
    /// The `run` module's code has run ([`run_came`]).
    static RUN_CAME: Cell<bool> = const { Cell::new(false) };
}

/// Notes that the `run` module's code runs (the `split!` macro calls it first in every split
/// function of `run` in the split build; only that module names it).
#[doc(hidden)]
pub fn run_here() {
    RUN_CAME.set(true);
}

/// Whether the `run` module's code has run yet (always true without the split build): until
/// then, nothing exists that only its code makes — a run, a restored conversation. The store
/// frees a chat's session through `run` (`store::free_session`) only then: before, the main
/// module has made it and `run` would be fetched for nothing.
pub fn run_came() -> bool {
    cfg!(not(agui_split)) || RUN_CAME.get()
}

/// The stylesheet's rules of what only the modules render (`build.rs`'s modules' half). Only
/// split functions name it (the `split!` macro hands it to [`first_part`]), so it is data of
/// the modules, never of the main module.
#[cfg(agui_split)]
#[doc(hidden)]
pub static MODULES_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/stylesheet-modules.css"));

/// Registers what every split function runs first (in the split build), given
/// `MODULES_CSS`: the stylesheet's completion, which `ui::styles` registers when a widget
/// adopts the stylesheet. (A registered function is in the main module: it must not name the
/// modules' rules itself.)
pub fn before_parts(first: fn(&'static str)) {
    BEFORE_PART.set(Some(first));
}

/// Runs what [`before_parts`] registered (the `split!` macro calls it).
#[doc(hidden)]
pub fn first_part(modules_css: &'static str) {
    if let Some(first) = BEFORE_PART.get() {
        first(modules_css);
    }
}

/// Declares a part of the view that the split build moves into the chunk `$chunk`:
/// `split!(chunk: fn name(args) -> T { body })` defines `async fn name(args) -> Result<T,
/// LoadFailed>` in every build: in the split build the call fetches the chunk first (at once
/// when it is here); elsewhere the future is ready on its first poll, with `Ok`, so what shows
/// a part ([`ui::lazy::lazy`](crate::ui::lazy::lazy)), runs an action
/// ([`AgentStore::in_module`](crate::store::AgentStore::in_module)) or awaits a value takes the
/// same path in both builds, and a part that is here shows in the same pass.
///
/// `split!(chunk, preload fetch_chunk: fn …)` also defines `async fn fetch_chunk()`, which
/// fetches the chunk ahead of its first use (a no-op without the split build; see [`prefetch`]).
///
/// In the split build a split function first runs what [`before_parts`] registered (the
/// stylesheet's rules of what the modules render are in theirs: `ui::styles` completes it).
///
/// `split!(chunk, data: fn …)` is a split point that hands back a value and renders nothing (a
/// language's catalog): the same, but it leaves the stylesheet alone, so its module does not
/// need the modules' rules.
macro_rules! split {
    (@point [$chunk:ident] [$($preload:ident)?] [$($first:tt)*] $(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(agui_split)]
        #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible $(, preload($preload))?)]
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::split::LoadFailed> {
            if stringify!($chunk) == "run" {
                $crate::split::run_here();
            }
            $($first)*
            let value: $ret = $body;
            Ok(value)
        }

        #[cfg(not(agui_split))]
        $(#[$m])*
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::split::LoadFailed> {
            let value: $ret = $body;
            Ok(value)
        }

        $(
            /// Fetches the chunk of this part ahead of its first use (nothing to fetch here).
            #[cfg(not(agui_split))]
            $vis async fn $preload() -> Result<(), $crate::split::LoadFailed> {
                Ok(())
            }
        )?
    };
    ($chunk:ident, data: $($rest:tt)*) => {
        $crate::split::split!(@point [$chunk] [] [] $($rest)*);
    };
    ($chunk:ident $(, preload $preload:ident)?: $($rest:tt)*) => {
        // The rules of what the modules render come with the first of them.
        $crate::split::split!(@point [$chunk] [$($preload)?]
            [$crate::split::first_part($crate::split::MODULES_CSS);] $($rest)*);
    };
}
pub(crate) use split;

/// Runs `then` with what `fut` gives: at once when it is ready on its first poll (a split
/// function whose module is here already), else in a task once it is.
pub fn drive<T: 'static>(fut: impl Future<Output = T> + 'static, then: impl FnOnce(T) + 'static) {
    drive_boxed(Box::pin(fut), Box::new(then));
}

/// [`drive`], type-erased: one copy per `T`, not per call.
fn drive_boxed<T: 'static>(
    mut fut: std::pin::Pin<Box<dyn Future<Output = T>>>,
    then: Box<dyn FnOnce(T)>,
) {
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => then(out),
        Poll::Pending => leptos::task::spawn_local(async move { then(fut.await) }),
    }
}

/// A value handed to a `split!` function once, without copying it: the call that runs takes
/// it; a call whose module could not be loaded never ran, so the value stays for its retry.
pub struct Handoff<T>(std::rc::Rc<std::cell::Cell<Option<T>>>);

impl<T> Handoff<T> {
    pub fn new(value: T) -> Self {
        Handoff(std::rc::Rc::new(std::cell::Cell::new(Some(value))))
    }

    /// The value, the first time (`None` after).
    pub fn take(&self) -> Option<T> {
        self.0.take()
    }
}

impl<T> Clone for Handoff<T> {
    fn clone(&self) -> Self {
        Handoff(self.0.clone())
    }
}

/// Starts fetching a chunk (a `preload` of `split!`) without waiting for it; a failure is
/// only logged (by the loader) and the part's own load tries again when it shows.
pub fn prefetch<E: 'static>(preload: impl Future<Output = Result<(), E>> + 'static) {
    leptos::task::spawn_local(async move {
        let _ = preload.await;
    });
}
