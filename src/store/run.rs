//! What the lean widget keeps in its `run` module (`src/ui/lazy.rs`): everything that starts,
//! sends and reads a run — the request's body, the transport, the wire decoders, the pipeline
//! and the reducer — and what reads saved conversations. [`AgentStore`]'s methods call these
//! through [`in_module`](crate::store::AgentStore::in_module): at once when the module is here (every time
//! after the first), else once it arrives. A page fetches the module when the person starts
//! typing (the composer), when something is saved to show, or at the first action that needs
//! it; a chat nobody writes in never does. Without the split build each is a plain call.
//!
//! The protobuf binding's decoder is a module of its own (`proto`): a widget with
//! `transport="protobuf"` prefetches it when a run starts, and the transport awaits it before
//! it reads a protobuf response ([`proto_decoder`]). One that cannot be loaded fails the run,
//! and the error banner's Retry ([`AgentStore::part_failed`]) runs it again.

use std::rc::Rc;

use super::*;
use crate::protocol::types::ContentPart;
use crate::protocol::wire::WireFront;
use crate::protocol::Wire;
use crate::split::{split, Handoff};
use crate::transport;

split!(run:
    /// [`Session::save_drafts`].
    pub fn save_drafts(store: AgentStore) -> () {
        store.update(Session::save_drafts);
    }
);

split!(run:
    /// Reads the saved conversations into the store's fresh session and shows the one that
    /// was open; a run the page left in flight is asked for again.
    pub fn read_saved(store: AgentStore) -> () {
        store.update(Session::read_saved);
        store.restoring.set(false);
        store.on_thread_switched();
        let resumed = store.update(Session::resume_stream).flatten();
        store.after(resumed);
    }
);

split!(run:
    /// [`AgentStore::send_with`].
    pub fn send(store: AgentStore, message: Handoff<(String, Vec<ContentPart>)>) -> () {
        store.sending.set(None);
        if let Some((text, parts)) = message.take() {
            let request = store.update(|s| s.send_parts(&text, parts)).flatten();
            store.after(request);
        }
    }
);

split!(run:
    /// [`AgentStore::retry`].
    pub fn retry(store: AgentStore) -> () {
        let request = store.update(Session::retry).flatten();
        store.after(request);
    }
);

split!(run:
    /// [`AgentStore::stop`].
    pub fn stop(store: AgentStore) -> () {
        if let Some(Some(handle)) = store.shell.try_update_value(|s| s.abort.take()) {
            handle.abort();
        }
        store.update(Session::stop);
        store.after(None);
    }
);

split!(run:
    /// [`AgentStore::continue_held_run`].
    pub fn continue_held_run(store: AgentStore) -> () {
        let request = store.update(Session::continue_held_run).flatten();
        store.after(request);
    }
);

split!(run:
    /// [`AgentStore::execute`].
    pub fn request(store: AgentStore, request: Handoff<RunRequest>) -> () {
        if let Some(request) = request.take() {
            transport_of(store, request);
        }
    }
);

#[cfg(feature = "protobuf")]
split!(proto, preload fetch_proto:
    /// The protobuf binding's decoder (the lean widget fetches it when a response needs it,
    /// or ahead, when a run that admits it starts).
    pub fn proto_decoder() -> Box<dyn WireFront> {
        Box::new(crate::protocol::proto::ProtoDecoder::default())
    }
);

/// The decoder a response in `wire` needs beyond the core's: protobuf's, once its module is
/// here (`Err` when it could not be loaded); `None` for the wires the core reads itself.
async fn front_for(wire: Wire) -> Result<Option<Box<dyn WireFront>>, TransportError> {
    #[cfg(feature = "protobuf")]
    if wire == Wire::Proto {
        return proto_decoder()
            .await
            .map(Some)
            .map_err(|_| TransportError::DecoderUnavailable);
    }
    let _ = wire;
    Ok(None)
}

/// Starts fetching what a run with this `Accept` may need to read its response.
fn warm_decoders(accept: &str) {
    #[cfg(feature = "protobuf")]
    if accept == crate::protocol::proto::ACCEPT {
        crate::split::prefetch(fetch_proto());
    }
    let _ = accept;
}

/// Runs the transport `request` names; its bytes and its end go back to the session with its
/// generation.
fn transport_of(store: AgentStore, request: RunRequest) {
    let generation = request.generation;
    if !store.update(|s| s.is_current(generation)).unwrap_or(false) {
        return;
    }
    match request.route {
        Route::Local { agent, speed } => {
            let handle = AbortHandle::Local(Rc::new(std::cell::Cell::new(false)));
            store
                .shell
                .try_update_value(|s| s.abort = Some(handle.clone()));
            leptos::task::spawn_local(async move {
                let chunks = agent.respond(&request.body);
                let result =
                    transport::run_local(chunks, &handle, speed, |b| store.push_for(generation, b))
                        .await;
                store.end_for(generation, result);
            });
        }
        Route::Http {
            endpoint,
            headers,
            header_source,
            allowed,
            fetch,
            get,
            accept,
        } => {
            if let Err(e) = transport::check_endpoint(&endpoint, allowed.as_deref()) {
                return store.end_for(generation, Err(e));
            }
            let handle = match transport::fetch_abort_handle() {
                Ok(h) => h,
                Err(e) => return store.end_for(generation, Err(e)),
            };
            store
                .shell
                .try_update_value(|s| s.abort = Some(handle.clone()));
            let text = (!get).then(|| request.body.to_string());
            warm_decoders(accept);
            leptos::task::spawn_local(async move {
                // A refused request (401/403) with the page's computed headers asks them again,
                // refreshed, and goes once more; nothing of it was read.
                let mut refresh = false;
                let result = loop {
                    let headers = match &header_source {
                        Some(source) => match transport::source_headers(source, refresh).await {
                            Ok(computed) => crate::session::merge_headers(&headers, computed),
                            Err(e) => break Err(e),
                        },
                        None => headers.clone(),
                    };
                    let result = transport::run_http(
                        transport::HttpRequest {
                            endpoint: &endpoint,
                            headers: &headers,
                            fetch,
                            accept,
                            body: text.as_deref(),
                        },
                        &handle,
                        |wire| async move {
                            let front = front_for(wire).await?;
                            store.update(|s| match front {
                                Some(front) => s.open_response_with(generation, front),
                                None => s.open_response(generation, wire),
                            });
                            Ok(())
                        },
                        |b| store.push_for(generation, b),
                    )
                    .await;
                    match result {
                        Err(TransportError::Status {
                            status: 401 | 403, ..
                        }) if header_source.is_some() && !refresh => refresh = true,
                        result => break result,
                    }
                };
                let unloaded = matches!(result, Err(TransportError::DecoderUnavailable));
                store.end_for(generation, result);
                // The part that could not be loaded is the banner's; its Retry runs again.
                if unloaded {
                    store.part_failed(Rc::new(move || store.retry()));
                }
            });
        }
    }
}
