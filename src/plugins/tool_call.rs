//! What a tool renderer receives: one tool call's live view, read from the store only when
//! that call changes ([`AgentStore::tool_version`]).

use std::sync::Arc;

use leptos::prelude::*;

use crate::store::AgentStore;
use crate::view::tool::{ToolStatus, ToolView};

/// What a tool renderer receives: the tool call's id and its live view (name, arguments as
/// they stream, status, result), re-read only when this call changes.
#[derive(Clone)]
pub struct ToolCallView {
    pub id: Arc<str>,
    /// `None` only while the call is not (or no longer) in the thread.
    pub view: Memo<Option<ToolView>>,
}

impl ToolCallView {
    /// The live view of `tool_call_id` (what the chat's tool card hands its renderer).
    pub fn new(tool_call_id: &str) -> Self {
        let store = AgentStore::expect();
        let version = store.tool_version(tool_call_id);
        let id: Arc<str> = Arc::from(tool_call_id);
        let key = id.clone();
        ToolCallView {
            id,
            view: Memo::new(move |_| {
                version.track();
                store.tool_view(&key)
            }),
        }
    }

    /// The status (reactive); `None` while the call is unknown.
    pub fn status(&self) -> Option<ToolStatus> {
        self.view.with(|v| v.as_ref().map(|v| v.status))
    }

    /// The arguments so far, best effort while they stream (reactive).
    pub fn args(&self) -> Option<serde_json::Value> {
        self.view.with(|v| v.as_ref().and_then(|v| v.args.clone()))
    }

    /// The result as text, once there is one (reactive).
    pub fn result_text(&self) -> Option<String> {
        self.view.with(|v| {
            v.as_ref()
                .and_then(|v| v.result.as_ref().map(|c| c.text().into_owned()))
        })
    }
}
