//! Which view draws a fenced code block, by its language. Starts empty: every block is
//! highlighted code until a page registers a renderer for its language through
//! [`crate::plugins::Plugins::code_renderer`] (a diagram, a chart, a map…). The agent's
//! output only picks, by the fence's language, among what the page registered.
//!
//! A [`CodeRenderer`] receives the block's live [`CodeBlockView`] (its text as it streams and
//! whether the block is finished) and returns what is shown in the block's card, above the
//! highlighted source the person can switch to.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use leptos::prelude::*;

use crate::embed::fence_key;

/// What a code renderer receives: one fenced block, live.
#[derive(Clone)]
pub struct CodeBlockView {
    /// The fence's language as matched ([`fence_key`]: lower case).
    pub lang: Arc<str>,
    /// The block's text so far (reactive): it grows while the fence is open.
    pub code: Signal<String>,
    /// `false` while the fence is still open (the message streams), then `true` (reactive).
    pub complete: Signal<bool>,
}

/// Draws a fenced block from its live view.
pub type CodeRenderer = Arc<dyn Fn(CodeBlockView) -> AnyView + Send + Sync>;

/// Fence language → renderer. Cheap to clone (the table is shared until modified).
#[derive(Clone, Default)]
pub struct CodeRegistry {
    renderers: Arc<HashMap<String, CodeRenderer>>,
}

impl fmt::Debug for CodeRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CodeRegistry")
            .field("langs", &self.langs())
            .finish()
    }
}

impl CodeRegistry {
    /// Use `renderer` for fences of `lang` (matched by [`fence_key`]; replacing any previous
    /// one). A language with no usable key registers nothing.
    pub fn register(
        &mut self,
        lang: &str,
        renderer: impl Fn(CodeBlockView) -> AnyView + Send + Sync + 'static,
    ) -> &mut Self {
        if let Some(key) = fence_key(lang) {
            Arc::make_mut(&mut self.renderers).insert(key, Arc::new(renderer));
        }
        self
    }

    /// The renderer for a fence's language, if the page registered one.
    pub fn get(&self, lang: &str) -> Option<CodeRenderer> {
        self.renderers.get(&fence_key(lang)?).cloned()
    }

    /// The registered languages, sorted.
    pub fn langs(&self) -> Vec<String> {
        let mut langs: Vec<String> = self.renderers.keys().cloned().collect();
        langs.sort_unstable();
        langs
    }

    /// Every renderer of `other` added (its own win on a clash).
    pub fn extend(&mut self, other: &CodeRegistry) {
        if other.renderers.is_empty() {
            return;
        }
        let mine = Arc::make_mut(&mut self.renderers);
        for (k, r) in other.renderers.iter() {
            mine.insert(k.clone(), r.clone());
        }
    }
}
