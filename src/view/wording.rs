//! The wording of failures words the session's errors, so it sits above the session:
//! [`crate::wording`]. This path stays for the components that still name it (`ui/`,
//! `widget.rs`); new code imports [`crate::wording`].

pub use crate::wording::{
    attach_error, branch_error, hitl_error, notice, resume_error, run_failure, thread_error,
    transport_error,
};
