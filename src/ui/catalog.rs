//! The UI strings a chat shows: the catalog of its language with the page's own texts over it
//! ([`crate::i18n::overrides`]), kept in the store ([`AgentStore::set_strings`]) for
//! [`crate::ui::tr`].
//!
//! In the lean widget's split build each catalog but English is a module of its own
//! (`lang_de`, `lang_fr`, … a few KB each), fetched the first time a chat speaks that
//! language, and the checking and merging of a page's texts is another (`strings`), fetched
//! only by a page that gives some: the main module holds English alone. Without the split
//! build every catalog is a plain static and nothing waits ([`drive`] runs on at once).

use std::sync::Arc;

use leptos::prelude::*;

use crate::i18n::overrides::Overrides;
use crate::i18n::{Locale, Strings, EN};
use crate::store::{AgentStore, Notice};
use crate::ui::lazy::{drive, split, LoadFailed};

/// A page's own texts: (key, text) pairs as given, checked where they are applied.
pub type Texts = Arc<[(String, String)]>;

split!(lang_de, data: fn catalog_de() -> &'static Strings { &crate::i18n::de::DE });
split!(lang_fr, data: fn catalog_fr() -> &'static Strings { &crate::i18n::fr::FR });
split!(lang_es, data: fn catalog_es() -> &'static Strings { &crate::i18n::es::ES });
split!(lang_pt, data: fn catalog_pt() -> &'static Strings { &crate::i18n::pt::PT });
split!(lang_ja, data: fn catalog_ja() -> &'static Strings { &crate::i18n::ja::JA });
split!(lang_zh, data: fn catalog_zh() -> &'static Strings { &crate::i18n::zh::ZH });
split!(lang_ar, data: fn catalog_ar() -> &'static Strings { &crate::i18n::ar::AR });

split!(strings, data:
    /// Puts in the store `base`, the catalog of `locale`, with the usable ones of `texts`
    /// over it; what is wrong with the others is a notice when `report`.
    fn with_texts(store: AgentStore, locale: Locale, base: &'static Strings, texts: Texts, report: bool) -> () {
        let (overrides, mut problems) = Overrides::check(texts.iter().map(|(k, t)| (k, t)));
        let strings = overrides.apply(locale, base).unwrap_or_else(|e| {
            problems.push(e);
            base
        });
        store.set_strings(locale, strings);
        for p in problems.iter().filter(|_| report) {
            store.notice(Notice::WidgetOption(format!("strings: {p}")));
        }
    }
);

/// The catalog of `locale`: English at once; another in the split build once its module is
/// here.
pub async fn catalog(locale: Locale) -> Result<&'static Strings, LoadFailed> {
    match locale {
        Locale::En => Ok(&EN),
        Locale::De => catalog_de().await,
        Locale::Fr => catalog_fr().await,
        Locale::Es => catalog_es().await,
        Locale::Pt => catalog_pt().await,
        Locale::Ja => catalog_ja().await,
        Locale::Zh => catalog_zh().await,
        Locale::Ar => catalog_ar().await,
    }
}

/// Keeps the store's strings ([`AgentConfig::strings`](crate::session::AgentConfig)) those of
/// its language with `texts` over them: now when they are here (always without the split
/// build), else once their modules are, and again whenever the language changes. What is
/// wrong with `texts` is a notice (once); a catalog that could not be fetched is a notice too,
/// and English is shown.
pub fn follow(store: AgentStore, texts: Texts) {
    let Some(first) = store.config.try_with_untracked(|c| c.locale) else {
        return;
    };
    apply(store, first, texts.clone(), true);
    // The lean widget's language changes only by a remount (its `lang` attribute).
    #[cfg(not(agui_split))]
    Effect::new(move |before: Option<Locale>| {
        let now = store.config.with(|c| c.locale);
        if before.unwrap_or(first) != now {
            apply(store, now, texts.clone(), false);
        }
        now
    });
}

/// Puts the strings of `locale` in the store: its catalog (English, with a notice, when that
/// cannot be fetched) with `texts` over it (their problems noticed when `report`).
fn apply(store: AgentStore, locale: Locale, texts: Texts, report: bool) {
    drive(catalog(locale), move |got| {
        let base = got.unwrap_or_else(|LoadFailed| {
            store.notice(Notice::WidgetOption(format!(
                "lang: the {} catalog could not be loaded; English is shown",
                locale.tag()
            )));
            &EN
        });
        if texts.is_empty() {
            store.set_strings(locale, base);
            return;
        }
        drive(
            with_texts(store, locale, base, texts, report),
            move |done| {
                // The texts' module could not be fetched: the catalog's own words.
                if done.is_err() {
                    store.set_strings(locale, base);
                }
            },
        );
    });
}
