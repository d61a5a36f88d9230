//! The browser's side of a site's thread store ([`crate::session::sync`]): one call at a time,
//! when the session says one is due. [`AgentStore::sync_soon`] (run after every change the
//! store publishes) sets a timer for the next due call; the call itself and everything that
//! reads its answer are in the lean widget's `threads` module, fetched only by a chat that
//! has a store.

use super::*;
use crate::session::sync::SyncJob;
use crate::split::split;

impl AgentStore {
    /// Plan the next call to the site's thread store, if the session has one due (nothing
    /// without a store; one timer at a time).
    pub(crate) fn sync_soon(&self) {
        let Some(at) = self.try_with_session(Session::sync_wake_at).flatten() else {
            return;
        };
        let planned = self.shell.try_with_value(|s| s.sync_at).flatten();
        if planned.is_some_and(|p| p <= at) {
            return;
        }
        self.shell.try_update_value(|s| s.sync_at = Some(at));
        let store = *self;
        let wait = (at - js_sys::Date::now()).clamp(0.0, 3_600_000.0);
        set_timeout(
            move || {
                if store.shell.try_update_value(|s| s.sync_at = None).is_some() {
                    store.in_module(move || sync_call(store));
                }
            },
            std::time::Duration::from_millis(wait as u64),
        );
    }

    /// Clear everything this chat keeps in the browser — its conversations, drafts and what
    /// was still to be saved to the site's store — and show a fresh conversation: the site
    /// signed the person out. A run in flight is stopped first. (The site's store keeps what
    /// it has.)
    pub fn forget(&self) {
        self.stop();
        self.threads_call(Call::Forget);
    }

    /// This browser's own conversations from before the site's store was configured: never
    /// sent to it by themselves ([`Session::local_only`]).
    pub fn local_only(&self) -> Vec<String> {
        self.with_session(Session::local_only)
    }

    /// Send this browser's own conversations to the site's store ([`AgentStore::local_only`]).
    pub fn upload_local(&self) {
        self.threads_call(Call::Upload);
    }

    /// How many of this browser's own conversations the thread list offers to send to the
    /// site's store ([`Session::upload_offer`]).
    pub fn upload_offer(&self) -> usize {
        self.with_session(Session::upload_offer)
    }

    /// "Not now" to that offer ([`Session::decline_upload`]).
    pub fn decline_upload(&self) {
        self.threads_call(Call::Decline);
    }

    /// Run `call` in the `threads` module (where the code it reaches is), then show its end.
    fn threads_call(&self, call: Call) {
        let store = *self;
        store.in_module(move || session_call(store, call));
    }
}

/// What [`AgentStore::threads_call`] runs (a value, not a function: the code stays in the
/// module).
#[derive(Clone, Copy)]
enum Call {
    Forget,
    Upload,
    Decline,
}

split!(threads:
    fn session_call(store: AgentStore, call: Call) -> () {
        let done = store.update(|s| match call {
            Call::Forget => s.forget().is_ok(),
            Call::Upload => {
                s.upload_local();
                true
            }
            Call::Decline => {
                s.decline_upload();
                true
            }
        });
        if done == Some(true) {
            store.on_thread_switched();
        }
    }
);

thread_local! {
    /// The page's chats with a thread store, and whether the page's `visibilitychange`
    /// listener is there: when the page is hidden (a tab closed or left, a phone locked),
    /// their saves that wait for the debounce go at once.
    static HIDING: std::cell::RefCell<(Vec<AgentStore>, bool)> =
        const { std::cell::RefCell::new((Vec::new(), false)) };
}

/// Save `store`'s waiting changes when the page is hidden (one listener for the page).
fn save_when_hidden(store: AgentStore) {
    let listen = HIDING.with_borrow_mut(|(stores, listening)| {
        // (The chats that are gone leave.)
        stores.retain(|s| s.try_with_session(|_| ()).is_some());
        stores.push(store);
        !std::mem::replace(listening, true)
    });
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if listen {
        let hidden = document.clone();
        let on_change = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
            if !hidden.hidden() {
                return;
            }
            let stores = HIDING.with_borrow(|(stores, _)| stores.clone());
            for store in stores {
                if store.update(Session::sync_hurry).is_some() {
                    store.in_module(move || sync_call(store));
                }
            }
        });
        let _ = document.add_event_listener_with_callback(
            "visibilitychange",
            wasm_bindgen::JsCast::unchecked_ref(on_change.as_ref()),
        );
        on_change.forget();
    }
}

split!(threads:
    /// Make the call that is due, and hand its answer to the session.
    fn sync_call(store: AgentStore) -> () {
        let first = store
            .shell
            .try_update_value(|s| !std::mem::replace(&mut s.hide_watched, true));
        if first == Some(true) {
            save_when_hidden(store);
        }
        // What is saved in the browser is read first (its end publishes, which plans again).
        let reading = store.restoring.get_untracked()
            && !store.try_with_session(Session::loading_open).unwrap_or(false);
        let remote = store.config.with_untracked(|c| c.thread_store.clone());
        let job = match remote {
            Some(remote) if !reading => store
                .update(Session::sync_next)
                .flatten()
                .map(|job| (remote, job)),
            _ => None,
        };
        match job {
            Some((remote, job)) => {
                let shows = matches!(&job, SyncJob::Load { id } if *id == store.thread_id());
                if shows {
                    store.restoring.set(true);
                }
                leptos::task::spawn_local(async move {
                    let outcome = job.run(remote.0.as_ref()).await;
                    store.update(|s| s.sync_done(outcome));
                    if shows {
                        store.restoring.set(false);
                    }
                    store.on_thread_switched();
                });
            }
            None if !reading => store.sync_soon(),
            None => {}
        }
    }
);
