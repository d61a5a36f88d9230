//! Which view renders the body of a tool card, by tool name. Starts empty: every tool gets the
//! generic body ([`crate::ui::tool::parts`]) until a page registers a renderer for it through
//! [`crate::plugins::Plugins::tool_renderer`].
//!
//! A [`ToolRenderer`] receives the call's [`ToolCallView`] (its live view: name, arguments as
//! they stream, status, result) and returns the card body.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use leptos::prelude::*;

use super::ToolCallView;
use crate::view::tool::{normalize_tool_name, strip_namespace};

/// Renders the body of one tool card from the call's live view.
pub type ToolRenderer = Arc<dyn Fn(ToolCallView) -> AnyView + Send + Sync>;

/// Tool name → card body renderer. Cheap to clone (the table is shared until modified).
#[derive(Clone, Default)]
pub struct ToolRegistry {
    renderers: Arc<HashMap<String, ToolRenderer>>,
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.renderers.keys().map(String::as_str).collect();
        names.sort_unstable();
        f.debug_struct("ToolRegistry")
            .field("tools", &names)
            .finish()
    }
}

impl ToolRegistry {
    /// A registry with no renderers: every tool gets the generic body.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Use `renderer` for the tool `name` (replacing any previous one). Names match after
    /// [`normalize_tool_name`], so `searchVenues`, `Search-Venues` and `search_venues` are one
    /// tool.
    pub fn register(
        &mut self,
        name: impl AsRef<str>,
        renderer: impl Fn(ToolCallView) -> AnyView + Send + Sync + 'static,
    ) -> &mut Self {
        let key = normalize_tool_name(name.as_ref());
        Arc::make_mut(&mut self.renderers).insert(key, Arc::new(renderer));
        self
    }

    /// Builder form of [`ToolRegistry::register`].
    pub fn with(
        mut self,
        name: impl AsRef<str>,
        renderer: impl Fn(ToolCallView) -> AnyView + Send + Sync + 'static,
    ) -> Self {
        self.register(name, renderer);
        self
    }

    /// Stop using a custom renderer for `name`; true when there was one.
    pub fn unregister(&mut self, name: &str) -> bool {
        let key = normalize_tool_name(name);
        Arc::make_mut(&mut self.renderers).remove(&key).is_some()
    }

    /// The renderer for a tool name: an exact (normalized) match first, then the name without
    /// a namespace (`functions.search_venues`, `mcp__travel__search_venues`,
    /// `travel/search_venues`).
    pub fn get(&self, tool_name: &str) -> Option<ToolRenderer> {
        let key = normalize_tool_name(tool_name);
        if let Some(r) = self.renderers.get(&key) {
            return Some(r.clone());
        }
        let bare = strip_namespace(&key);
        if bare.len() != key.len() {
            return self.renderers.get(bare).cloned();
        }
        None
    }

    /// True when `tool_name` has a custom renderer.
    pub fn contains(&self, tool_name: &str) -> bool {
        self.get(tool_name).is_some()
    }

    /// The registered (normalized) names, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.renderers.keys().cloned().collect();
        names.sort_unstable();
        names
    }
}
