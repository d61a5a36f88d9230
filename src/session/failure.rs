//! The failures are view data: they live in [`crate::view::failure`]. This path stays for the
//! code that still names it (`session/mod.rs` re-exports them, `store.rs` imports them here);
//! new code imports them from the view.

pub use crate::view::failure::{
    error_body, EndpointRefusal, Notice, RunFailure, TransportError, ERROR_BODY_BYTES,
};
