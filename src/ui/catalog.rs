//! The UI strings a chat shows: the catalog of its language, kept in the store
//! ([`AgentStore::set_strings`]) for [`crate::ui::tr`].
//!
//! In the lean widget's split build each catalog but English is a module of its own
//! (`lang_de`, `lang_fr`, … a few KB each), fetched the first time a chat speaks that
//! language: the main module holds English alone. Without the split
//! build every catalog is a plain static and nothing waits ([`drive`] runs on at once).

use leptos::prelude::*;

use crate::i18n::{Locale, Strings, EN};
use crate::store::{AgentStore, Notice};
use crate::ui::lazy::{drive, split_data, LoadFailed};

split_data!(lang_de: fn catalog_de() -> &'static Strings { &crate::i18n::de::DE });
split_data!(lang_fr: fn catalog_fr() -> &'static Strings { &crate::i18n::fr::FR });
split_data!(lang_es: fn catalog_es() -> &'static Strings { &crate::i18n::es::ES });
split_data!(lang_pt: fn catalog_pt() -> &'static Strings { &crate::i18n::pt::PT });
split_data!(lang_ja: fn catalog_ja() -> &'static Strings { &crate::i18n::ja::JA });
split_data!(lang_zh: fn catalog_zh() -> &'static Strings { &crate::i18n::zh::ZH });
split_data!(lang_ar: fn catalog_ar() -> &'static Strings { &crate::i18n::ar::AR });

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

/// Keeps the store's strings those of its language: now when they are here (always without
/// the split build), else once their module is, and again whenever the language changes. The
/// signal turns true once the first strings are in place — or could not be fetched: English
/// then, with a notice — so a widget can wait for it rather than flash English.
pub fn follow(store: AgentStore) -> ReadSignal<bool> {
    let ready = RwSignal::new(false);
    let Some(locale) = store.config.try_with_untracked(|c| c.locale) else {
        return ready.read_only();
    };
    apply(store, locale, Some(ready));
    let current = Memo::new(move |_| store.config.with(|c| c.locale));
    Effect::watch(
        move || current.get(),
        move |locale, _, _| apply(store, *locale, None),
        false,
    );
    ready.read_only()
}

/// Puts the strings of `locale` in the store; the first time, `ready` says when.
fn apply(store: AgentStore, locale: Locale, ready: Option<RwSignal<bool>>) {
    drive(catalog(locale), move |got| {
        match got {
            Ok(strings) => store.set_strings(locale, strings),
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
