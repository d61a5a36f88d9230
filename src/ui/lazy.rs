//! Parts of the chat fetched on first use: the lean widget's build (`scripts/build-widget.sh`,
//! `--cfg agui_split`) cuts each `split!` function out of the main wasm module into a module
//! of its own (Leptos's `wasm_split`, run by `wasm-split-cli`), fetched the first time it is
//! needed. The biggest is `run`: everything about a conversation — the transcript's rows with
//! their Markdown, tool cards and reasoning, and what starts, sends and reads a run (the
//! store's `run` module: request bodies, the transport, the wire decoders, the pipeline, the
//! reducer, saved conversations) — fetched when the person starts typing
//! ([`crate::ui::message::warm_run`]), when something saved is to be shown, or by the first
//! action that needs it ([`in_module`]). Others: the interrupt cards when a run first asks, the
//! state tree when there is state, the settings form, the queue, activity cards, attachments,
//! the warnings badge, the editor of a sent message, A2UI surfaces and MCP Apps with the first
//! of each, and the protobuf decoder when a response needs it. Without the cfg (the app's bundle, every
//! test) a split function is a plain call, so the DOM is the same either way and the app pays
//! nothing for it.
//!
//! A module that fails to load (offline, a blocked URL) is an error, never a panic: [`lazy()`]
//! shows a notice with a Retry button, [`in_module`] has the error banner offer Retry of the
//! action, and the next try fetches again (`wasm_split`'s loader memoises only a success).

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use crate::store::AgentStore;
use crate::ui::tr;

/// A chunk could not be loaded (the details are in the browser's console).
#[derive(Debug, Clone, Copy)]
pub struct LoadFailed;

#[cfg(agui_split)]
impl From<::leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: ::leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// Declares a part of the view that the split build moves into the chunk `$chunk`:
/// `split!(chunk: fn name(args) -> AnyView { body })` defines, to be shown with [`lazy`],
/// `async fn name(args) -> Result<AnyView, LoadFailed>` in the split build and
/// `fn name(args) -> AnyView` elsewhere.
///
/// `split!(chunk, preload fetch_chunk: fn …)` also defines `async fn fetch_chunk()`, which
/// fetches the chunk ahead of its first use (a no-op without the split build; see [`prefetch`]).
///
/// In the split build a split function first completes the stylesheet
/// ([`crate::ui::styles::complete`]): the rules of what the modules render are in theirs.
macro_rules! split {
    ($chunk:ident $(, preload $preload:ident)?: $(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(agui_split)]
        #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible $(, preload($preload))?)]
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::ui::lazy::LoadFailed> {
            // The rules of what the modules render come with the first of them.
            $crate::ui::styles::complete();
            Ok($body)
        }

        #[cfg(not(agui_split))]
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> $ret $body

        $(
            /// Fetches the chunk of this part ahead of its first use (nothing to fetch here).
            #[cfg(not(agui_split))]
            $vis async fn $preload() -> Result<(), $crate::ui::lazy::LoadFailed> {
                Ok(())
            }
        )?
    };
}
pub(crate) use split;

/// Declares a split point that hands back a value and renders nothing (a language's
/// catalog): `split_data!(chunk: fn name(args) -> T { body })` defines
/// `async fn name(args) -> Result<T, LoadFailed>` in every build. In the split build the call
/// fetches the chunk first (at once when it is here); elsewhere the future is ready on its
/// first poll, so [`drive`] runs what follows in the same pass. Unlike `split!` it leaves the
/// stylesheet alone: nothing it gives is rendered by rules of its own.
macro_rules! split_data {
    ($chunk:ident: $(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(agui_split)]
        #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::ui::lazy::LoadFailed> {
            let value: $ret = $body;
            Ok(value)
        }

        #[cfg(not(agui_split))]
        $(#[$m])*
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::ui::lazy::LoadFailed> {
            let value: $ret = $body;
            Ok(value)
        }
    };
}
pub(crate) use split_data;

/// Runs `then` with what `fut` gives: at once when it is ready on its first poll (a split
/// function whose module is here already), else in a task once it is.
pub fn drive<T: 'static>(fut: impl Future<Output = T> + 'static, then: impl FnOnce(T) + 'static) {
    let mut fut = Box::pin(fut);
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

/// Runs `call` — a call of a `split!` function that returns nothing (an action: most are in
/// `run`, adding files is in `attach`) — at once when its module is here (for `run`, always
/// after the first run), else once it arrives, in the order asked for. A module that cannot be
/// loaded is reported on `store` ([`AgentStore::part_failed`]) with `call` to try again.
#[cfg(agui_split)]
pub fn in_module<F, Fut>(store: AgentStore, call: F)
where
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Result<(), LoadFailed>> + 'static,
{
    run_once(store, std::rc::Rc::new(call));
}

#[cfg(agui_split)]
fn run_once<F, Fut>(store: AgentStore, call: std::rc::Rc<F>)
where
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Result<(), LoadFailed>> + 'static,
{
    drive(call(), move |done| {
        if done.is_err() {
            store.part_failed(std::rc::Rc::new(move || run_once(store, call.clone())));
        }
    });
}

/// Runs `call` (the unsplit build: at once).
#[cfg(not(agui_split))]
pub fn in_module(_store: AgentStore, call: impl FnOnce()) {
    call();
}

/// What a `split!` function that gives a value (not a view, not an action) gives, once its
/// module is here; `Err` when it could not be loaded. (The protobuf decoder: the transport
/// awaits it before it reads the response.)
#[cfg(agui_split)]
pub async fn from_module<T>(
    call: impl Future<Output = Result<T, LoadFailed>>,
) -> Result<T, LoadFailed> {
    call.await
}

/// What a `split!` function gives: without the split build the call was a plain one.
#[cfg(not(agui_split))]
pub async fn from_module<T>(value: T) -> Result<T, LoadFailed> {
    Ok(value)
}

/// Starts fetching a chunk (a `preload` of `split!`) without waiting for it; a failure is
/// only logged (by the loader) and the part's own load tries again when it shows.
pub fn prefetch<E: 'static>(preload: impl Future<Output = Result<(), E>> + 'static) {
    leptos::task::spawn_local(async move {
        let _ = preload.await;
    });
}

/// Shows a `split!` part: in the split build once its chunk is here ([`fetched`]).
#[cfg(agui_split)]
pub fn lazy<F, Fut>(store: AgentStore, load: F) -> impl IntoView
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, LoadFailed>> + 'static,
{
    fetched(store, load)
}

/// Shows a `split!` part: without the split build, a plain call.
#[cfg(not(agui_split))]
pub fn lazy(_store: AgentStore, load: impl Fn() -> AnyView) -> AnyView {
    load()
}

/// Shows a `split!` part in the same pass when its module is here (a transcript row: rows
/// exist only once `run` is), `fallback` until then: in the split build [`with_stand_in`].
#[cfg(agui_split)]
pub use with_stand_in as lazy_or;

/// Shows a `split!` part: without the split build, a plain call.
#[cfg(not(agui_split))]
pub fn lazy_or<V>(load: impl FnOnce() -> AnyView, _fallback: impl Fn() -> V) -> AnyView {
    load()
}

/// Shows what `load` gives once it has resolved (nothing while its chunk is on the way), or a
/// notice with Retry when it failed. (Public for the browser test of the failure path, which
/// the unsplit build never takes.)
pub fn fetched<F, Fut>(store: AgentStore, load: F) -> impl IntoView
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, LoadFailed>> + 'static,
{
    let attempt = RwSignal::new(0u32);
    move || {
        attempt.track();
        let part = SendWrapper::new(load());
        Suspend::new(async move {
            match part.await {
                Ok(view) => view,
                Err(LoadFailed) => view! {
                    <p class="agui-lazy-failed" data-testid="lazy-failed" role="alert">
                        <span>{move || tr(store).lazy_failed}</span>
                        <button
                            type="button"
                            class="agui-button agui-button--secondary"
                            data-testid="lazy-retry"
                            on:click=move |_| attempt.update(|n| *n = n.wrapping_add(1))
                        >
                            {move || tr(store).retry}
                        </button>
                    </p>
                }
                .into_any(),
            }
        })
    }
}

/// Shows `fallback` until `load` has resolved, then what it gives: at once when it resolves on
/// its first poll (the chunk is here already — every part after the first), so the stand-in is
/// then never built. A failure leaves the stand-in (it shows everything, so there is nothing to
/// retry); the next part that mounts tries again. (Public for the browser test, as [`fetched`].)
pub fn with_stand_in<Fut, V>(
    load: impl FnOnce() -> Fut + 'static,
    fallback: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView
where
    Fut: Future<Output = Result<AnyView, LoadFailed>> + 'static,
    V: IntoView + 'static,
{
    // The part is built where it is shown (its components read this owner's context) and
    // tracked by nothing.
    let mut load = Box::pin(load());
    let first = untrack(|| load.as_mut().poll(&mut Context::from_waker(Waker::noop())));
    let part = RwSignal::new_local(None::<AnyView>);
    match first {
        Poll::Ready(loaded) => part.set(loaded.ok()),
        // On its way: the task polls again (with its waker), under this owner, and not at
        // all once the owner is gone.
        Poll::Pending => {
            let owner = Owner::current().unwrap_or_default().downgrade();
            let alive = Arc::new(AtomicBool::new(true));
            let on_drop = alive.clone();
            on_cleanup(move || on_drop.store(false, Ordering::Relaxed));
            leptos::task::spawn_local(async move {
                let loaded = std::future::poll_fn(|cx| match owner.upgrade() {
                    Some(owner) if alive.load(Ordering::Relaxed) => {
                        owner.with(|| untrack(|| load.as_mut().poll(cx))).map(Some)
                    }
                    _ => Poll::Ready(None),
                })
                .await;
                if let Some(Ok(view)) = loaded {
                    part.try_set(Some(view));
                }
            });
        }
    }
    // Runs again only when the part arrives (the stand-in is built untracked), which takes it
    // out to mount it.
    move || {
        part.track();
        match part.try_update_untracked(Option::take).flatten() {
            Some(view) => view,
            None => untrack(|| fallback().into_any()),
        }
    }
}
