//! Parts of the chat fetched on first use: the lean widget's build (`scripts/build-widget.sh`,
//! `--cfg agui_split`) cuts each `split!` function out of the main wasm module into a module
//! of its own (Leptos's `wasm_split`, run by `wasm-split-cli`), fetched the first time it is
//! needed. The biggest is `run`: everything about a conversation — the transcript's rows with
//! their Markdown, tool cards and reasoning, and what starts, sends and reads a run (the
//! store's `run` module: request bodies, the transport, the wire decoders, the pipeline, the
//! reducer, saved conversations) and what records a dictation — fetched when the person
//! starts typing ([`crate::ui::message::warm_run`]), when something saved is to be shown, or by the first
//! action that needs it ([`AgentStore::in_module`]). Others: the interrupt cards when a run first asks, the
//! state tree when there is state, the settings form, the queue, activity cards, attachments,
//! the warnings badge, the editor of a sent message, A2UI surfaces and MCP Apps with the first
//! of each, formulas (`math`), a table's toolbar (`tables`), a subagent's group (`subagents`)
//! and an answer's sources (`sources`) with the first of each, and the protobuf decoder when a
//! response needs it. Without the cfg (the app's bundle, every
//! test) a split function is a plain call, so the DOM is the same either way and the app pays
//! nothing for it.
//!
//! A module that fails to load (offline, a blocked URL) is an error, never a panic: [`lazy()`]
//! shows a notice with a Retry button, [`AgentStore::in_module`] has the error banner offer Retry of the
//! action, and the next try fetches again (`wasm_split`'s loader memoises only a success).

use leptos::prelude::*;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

pub(crate) use crate::split::{drive, prefetch, split, LoadFailed};
use crate::store::AgentStore;
use crate::ui::tr;

/// What a `split!` part's call gives, type-erased: one instantiation of the waiting and retry
/// code serves every part (the app's bundle would otherwise carry a copy per part).
type Part = Pin<Box<dyn Future<Output = Result<AnyView, LoadFailed>>>>;

/// Shows a `split!` part: in the same pass when its module is here (always, without the split
/// build), else nothing until it arrives; a module that could not be loaded shows a notice with
/// Retry, which fetches it again.
pub fn lazy<F, Fut>(store: AgentStore, load: F) -> impl IntoView
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, LoadFailed>> + 'static,
{
    lazy_part(store, Arc::new(move || -> Part { Box::pin(load()) }))
}

/// [`lazy`] with the store of the context (a part of a message's Markdown); nothing outside
/// a chat.
pub fn lazy_in_chat<F, Fut>(load: F) -> AnyView
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, LoadFailed>> + 'static,
{
    match use_context::<AgentStore>() {
        Some(store) => lazy(store, load).into_any(),
        None => ().into_any(),
    }
}

fn lazy_part(store: AgentStore, load: Arc<dyn Fn() -> Part + Send + Sync>) -> impl IntoView {
    let attempt = RwSignal::new(0u32);
    let shown = move |loaded: Result<AnyView, LoadFailed>| match loaded {
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
    };
    move || {
        attempt.track();
        // Built untracked, as a plain call would be: the part's own closures track what they
        // read, and only Retry runs this again. Shown like a stand-in's part (in this pass
        // when its module is here), with nothing until it comes — not through Leptos's
        // `Suspend`, whose machinery would be in the lean widget's main module for this alone.
        let mut part = untrack(|| load());
        match untrack(|| part.as_mut().poll(&mut Context::from_waker(Waker::noop()))) {
            // Here (always without the split build): shown in this pass, nothing around it.
            Poll::Ready(loaded) => shown(loaded),
            Poll::Pending => {
                let shown: Part = Box::pin(async move { Ok(shown(part.await)) });
                untrack(|| stand_in(shown, Arc::new(|| ().into_any()))).into_any()
            }
        }
    }
}

/// Shows a `split!` part in the same pass when its module is here (a transcript row: rows
/// exist only once `run` is), `fallback` until then ([`with_stand_in`]).
pub use with_stand_in as lazy_or;

/// Shows `fallback` until `load` has resolved, then what it gives: at once when it resolves on
/// its first poll (the chunk is here already — every part after the first), so the stand-in is
/// then never built. A failure leaves the stand-in (it shows everything, so there is nothing to
/// retry); the next part that mounts tries again. (Public for the browser test.)
pub fn with_stand_in<Fut, V>(
    load: impl FnOnce() -> Fut + 'static,
    fallback: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView
where
    Fut: Future<Output = Result<AnyView, LoadFailed>> + 'static,
    V: IntoView + 'static,
{
    stand_in(Box::pin(load()), Arc::new(move || fallback().into_any()))
}

fn stand_in(mut load: Part, fallback: Arc<dyn Fn() -> AnyView + Send + Sync>) -> impl IntoView {
    // The part is built where it is shown (its components read this owner's context) and
    // tracked by nothing.
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
            None => untrack(|| fallback()),
        }
    }
}
