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
use crate::ui::lazy::{drive, split_data, LoadFailed};

/// A page's own texts: (key, text) pairs as given, checked where they are applied.
pub type Texts = Arc<[(String, String)]>;

split_data!(lang_de: fn catalog_de() -> &'static Strings { &crate::i18n::de::DE });
split_data!(lang_fr: fn catalog_fr() -> &'static Strings { &crate::i18n::fr::FR });
split_data!(lang_es: fn catalog_es() -> &'static Strings { &crate::i18n::es::ES });
split_data!(lang_pt: fn catalog_pt() -> &'static Strings { &crate::i18n::pt::PT });
split_data!(lang_ja: fn catalog_ja() -> &'static Strings { &crate::i18n::ja::JA });
split_data!(lang_zh: fn catalog_zh() -> &'static Strings { &crate::i18n::zh::ZH });
split_data!(lang_ar: fn catalog_ar() -> &'static Strings { &crate::i18n::ar::AR });

split_data!(strings:
    /// `base`, the catalog of `locale`, with the usable ones of `texts` over it, and what is
    /// wrong with the others (for the person: technical, English).
    fn with_texts(locale: Locale, base: &'static Strings, texts: Texts) -> (&'static Strings, Vec<String>) {
        let (overrides, problems) = Overrides::check(texts.iter().map(|(k, t)| (k, t)));
        let mut problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
        let strings = overrides.apply(locale, base).unwrap_or_else(|e| {
            problems.push(e.to_string());
            base
        });
        (strings, problems)
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

/// The strings of `locale` with `texts` over them, and what is wrong with `texts`.
pub async fn strings_of(
    locale: Locale,
    texts: Texts,
) -> Result<(&'static Strings, Vec<String>), LoadFailed> {
    let base = catalog(locale).await?;
    if texts.is_empty() {
        return Ok((base, Vec::new()));
    }
    with_texts(locale, base, texts).await
}

/// Keeps the store's strings those of its language with `texts` over them: now when they are
/// here (always without the split build), else once their modules are, and again whenever
/// the language changes. What is wrong with `texts` is a notice (once). The signal turns true
/// once the first strings are in place — or could not be fetched: English then, with a
/// notice — so a widget can wait for it rather than flash English.
pub fn follow(store: AgentStore, texts: Texts) -> ReadSignal<bool> {
    let ready = RwSignal::new(false);
    let Some(locale) = store.config.try_with_untracked(|c| c.locale) else {
        return ready.read_only();
    };
    apply(store, locale, texts.clone(), Some(ready));
    let current = Memo::new(move |_| store.config.with(|c| c.locale));
    Effect::watch(
        move || current.get(),
        move |locale, _, _| apply(store, *locale, texts.clone(), None),
        false,
    );
    ready.read_only()
}

/// Puts the strings of `locale` in the store; the first time (`ready`), with the notices.
fn apply(store: AgentStore, locale: Locale, texts: Texts, ready: Option<RwSignal<bool>>) {
    drive(strings_of(locale, texts), move |got| {
        match got {
            Ok((strings, problems)) => {
                store.set_strings(locale, strings);
                for p in problems.into_iter().filter(|_| ready.is_some()) {
                    store.notice(Notice::WidgetOption(format!("strings: {p}")));
                }
            }
            Err(LoadFailed) => store.notice(Notice::WidgetOption(format!(
                "lang: the {} catalog could not be loaded; English is shown",
                locale.tag()
            ))),
        }
        if let Some(ready) = ready {
            ready.try_set(true);
        }
    });
}
