//! Which view renders the body of a tool card, by tool name.
//!
//! A [`ToolRenderer`] takes a `toolCallId` and returns the card body; it reads everything else
//! (arguments as they stream, the result, the status) from the [`crate::store::AgentStore`] in
//! context, exactly like the generic body does. Tools without a renderer get the generic body
//! (arguments preview + result view) from [`crate::ui::tool_card`].
//!
//! An embedding app registers its own renderers and provides the registry before mounting the
//! chat:
//!
//! ```ignore
//! let mut registry = ToolRegistry::with_defaults();
//! registry.register("get_weather", |id| view! { <WeatherCard tool_call_id=id/> }.into_any());
//! registry.provide();
//! ```
//!
//! Without a registry in context, [`ToolRegistry::use_registry`] falls back to
//! [`ToolRegistry::with_defaults`].

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use leptos::prelude::*;

use crate::ui::venue_card::VenueResults;

/// Renders the body of one tool card from its `toolCallId`.
pub type ToolRenderer = Arc<dyn Fn(String) -> AnyView + Send + Sync>;

/// The tool names [`VenueResults`] is registered under by default.
pub const VENUE_TOOL_NAMES: &[&str] = &[
    "search_venues",
    "find_venues",
    "venue_search",
    "search_venue",
    "find_venue",
    "list_venues",
];

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

    /// The built-in renderers: the venue cards for `search_venues` and its aliases.
    pub fn with_defaults() -> Self {
        let mut registry = Self::empty();
        for name in VENUE_TOOL_NAMES {
            registry.register(*name, venue_results);
        }
        registry
    }

    /// Use `renderer` for the tool `name` (replacing any previous one). Names match after
    /// [`normalize_tool_name`], so `searchVenues`, `Search-Venues` and `search_venues` are one
    /// tool.
    pub fn register(
        &mut self,
        name: impl AsRef<str>,
        renderer: impl Fn(String) -> AnyView + Send + Sync + 'static,
    ) -> &mut Self {
        let key = normalize_tool_name(name.as_ref());
        Arc::make_mut(&mut self.renderers).insert(key, Arc::new(renderer));
        self
    }

    /// Builder form of [`ToolRegistry::register`].
    pub fn with(
        mut self,
        name: impl AsRef<str>,
        renderer: impl Fn(String) -> AnyView + Send + Sync + 'static,
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

    /// Put this registry in context for the tool cards below.
    pub fn provide(self) {
        provide_context(self);
    }

    /// The registry from context, or [`ToolRegistry::with_defaults`] when none was provided.
    pub fn use_registry() -> Self {
        static DEFAULTS: OnceLock<ToolRegistry> = OnceLock::new();
        use_context::<ToolRegistry>()
            .unwrap_or_else(|| DEFAULTS.get_or_init(Self::with_defaults).clone())
    }
}

fn venue_results(tool_call_id: String) -> AnyView {
    view! { <VenueResults tool_call_id=tool_call_id/> }.into_any()
}

/// Tool names compare in snake case: trimmed, `camelCase` split, dashes and spaces turned into
/// `_`, lower case. `searchVenues` and `Search-Venues` → `search_venues`.
pub fn normalize_tool_name(name: &str) -> String {
    let name = name.trim();
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.extend(c.to_lowercase());
            prev_lower = false;
        } else if c == '-' || c.is_whitespace() {
            out.push('_');
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// The part of a (normalized) tool name after its last namespace separator.
fn strip_namespace(name: &str) -> &str {
    let mut start = 0;
    for sep in [".", "/", ":", "__"] {
        if let Some(i) = name.rfind(sep) {
            start = start.max(i + sep.len());
        }
    }
    name.get(start..).unwrap_or(name)
}
