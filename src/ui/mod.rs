//! The chat UI: one Leptos component per file, all reading the [`crate::store::AgentStore`]
//! from context. Nothing here renders agent output as raw HTML. Every string shown comes from
//! the [`crate::i18n`] catalog of the store's locale ([`tr`]).

pub mod activity;
pub mod chat;
pub mod composer;
pub mod error_banner;
pub mod errors;
pub mod frontend_tools;
pub mod inspector;
pub mod inspector_toggle;
pub mod interrupt_card;
pub mod markdown_view;
pub mod message;
pub mod reasoning;
pub mod run_status;
pub mod schema_form;
pub mod settings;
pub mod state_panel;
pub mod thread_list;
pub mod tool_card;
pub mod tool_registry;
pub mod transcript;
pub mod trip_panel;
pub mod venue_card;
pub mod warnings;
pub mod widget_shell;

use leptos::prelude::*;

use crate::i18n::Strings;
use crate::store::AgentStore;

/// The UI strings of the store's locale. Tracked: called inside a view closure, the text
/// follows a locale change.
pub fn tr(store: AgentStore) -> &'static Strings {
    store.config.with(|c| c.locale.strings())
}

/// [`tr`] for helpers that may render outside a chat (markdown): English without a store.
pub fn tr_ctx() -> &'static Strings {
    use_context::<AgentStore>().map_or(&crate::i18n::EN, tr)
}

/// [`tr`] without subscribing (event handlers, one-off messages).
pub fn tr_now(store: AgentStore) -> &'static Strings {
    store.config.with_untracked(|c| c.locale.strings())
}

// ---- numbers in the UI language ----------------------------------------------------------

/// Plain digits grouped by threes with the language's separator: `1234567` → `1,234,567`
/// (`1.234.567` in German). The one digit grouping of the UI (counts, tokens, amounts).
pub fn thousands(digits: impl std::fmt::Display, t: &Strings) -> String {
    let digits = digits.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push_str(t.thousands_separator);
        }
        out.push(c);
    }
    out
}

/// `x` with `places` fractional digits and the language's decimal separator:
/// `1.23, 1` → `1.2` (`1,2` in German). No digit grouping.
pub fn decimal(x: f64, places: usize, t: &Strings) -> String {
    let s = format!("{x:.places$}");
    if t.decimal_separator == "." {
        s
    } else {
        s.replacen('.', t.decimal_separator, 1)
    }
}
