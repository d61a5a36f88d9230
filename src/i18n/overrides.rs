//! A page's own texts for some keys of the catalog (the widget's `strings` option,
//! `Plugins::strings`): checked ([`Overrides::check`]) and laid over a language's catalog as
//! one `&'static Strings` ([`Overrides::apply`]), so the UI reads them like any catalog. Keys
//! left out keep the catalog's text.
//!
//! The page is not trusted more than the agent: a text is shown as a text node like every
//! catalog string (never as HTML), an unknown key or a text whose `{}` placeholders differ
//! from the English text's is refused (it would break [`super::fill`]), and every size has a
//! budget: [`MAX_KEYS`] texts of at most [`MAX_CHARS`] characters, and at most [`MAX_SETS`]
//! merged catalogs ([`MAX_BYTES`] of text) for the whole page, each made once and kept (a
//! remount with the same texts finds it again).

use std::cell::RefCell;

use super::{placeholder_count, Locale, Strings, EN};

/// The most texts one set may give.
pub const MAX_KEYS: usize = 500;
/// The longest text, in characters.
pub const MAX_CHARS: usize = 2_000;
/// The most merged catalogs a page keeps (distinct pairs of language and texts).
pub const MAX_SETS: usize = 16;
/// The most bytes of page texts those catalogs keep together.
pub const MAX_BYTES: usize = 2 << 20;

/// Checked texts by key (sorted by key, one text per key).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Overrides(Vec<(&'static str, Box<str>)>);

/// Why a text of a page was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OverrideError {
    #[error("{key:?} is not a key of the UI strings; ignored")]
    UnknownKey { key: String },
    #[error(
        "{key}: has {found} `{{}}` placeholders where the English text has {expected}; ignored"
    )]
    Placeholders {
        key: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("{key}: empty; ignored")]
    Empty { key: &'static str },
    #[error("{key}: {chars} characters, more than {MAX_CHARS}; ignored")]
    TooLong { key: &'static str, chars: usize },
    #[error("more than {MAX_KEYS} texts: the {extra} after the first {MAX_KEYS} are ignored")]
    TooMany { extra: usize },
    #[error("more than {MAX_SETS} different sets of texts on this page (or {MAX_BYTES} bytes): the catalog's texts are shown")]
    Budget,
}

thread_local! {
    /// Every merged catalog made so far: (language, texts, the catalog).
    static MERGED: RefCell<Vec<(Locale, Overrides, &'static Strings)>> = const { RefCell::new(Vec::new()) };
}

impl Overrides {
    /// The usable texts of `pairs` (key, text) and what is wrong with the others. A key given
    /// twice keeps its last text.
    pub fn check<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> (Overrides, Vec<OverrideError>) {
        let mut texts: Vec<(&'static str, Box<str>)> = Vec::new();
        let mut problems = Vec::new();
        let mut extra = 0;
        for (i, (key, text)) in pairs.into_iter().enumerate() {
            if i >= MAX_KEYS {
                extra += 1;
                continue;
            }
            let (key, text) = (key.as_ref(), text.as_ref());
            match Self::check_one(key, text) {
                Ok(key) => {
                    texts.retain(|(k, _)| *k != key);
                    texts.push((key, text.into()));
                }
                Err(e) => problems.push(e),
            }
        }
        if extra > 0 {
            problems.push(OverrideError::TooMany { extra });
        }
        texts.sort_by_key(|(k, _)| *k);
        (Overrides(texts), problems)
    }

    /// The catalog's own name of `key` when `text` may stand for it.
    fn check_one(key: &str, text: &str) -> Result<&'static str, OverrideError> {
        let Some(&known) = Strings::KEYS.iter().find(|k| **k == key) else {
            return Err(OverrideError::UnknownKey {
                key: key.chars().take(80).collect(),
            });
        };
        // Counted only as far as the limit: a megabyte of text is not walked twice.
        let chars = text.chars().take(MAX_CHARS + 1).count();
        if chars > MAX_CHARS {
            return Err(OverrideError::TooLong {
                key: known,
                chars: text.chars().count(),
            });
        }
        if text.trim().is_empty() {
            return Err(OverrideError::Empty { key: known });
        }
        let expected = EN.get(known).map_or(0, placeholder_count);
        let found = placeholder_count(text);
        if found != expected {
            return Err(OverrideError::Placeholders {
                key: known,
                expected,
                found,
            });
        }
        Ok(known)
    }

    /// No text given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many keys have a text.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The text given for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, t)| &**t)
    }

    /// Every (key, text), by key.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.0.iter().map(|(k, t)| (*k, &**t))
    }

    /// `base` — the catalog of `locale` — with these texts in place of its own: `base`
    /// itself when there are none; the same catalog every time for the same language and
    /// texts (made once, then kept for the page's life); [`OverrideError::Budget`] when the
    /// page has made too many.
    pub fn apply(
        &self,
        locale: Locale,
        base: &'static Strings,
    ) -> Result<&'static Strings, OverrideError> {
        if self.is_empty() {
            return Ok(base);
        }
        MERGED.with_borrow_mut(|made| {
            if let Some((_, _, strings)) = made.iter().find(|(l, o, _)| *l == locale && o == self) {
                return Ok(*strings);
            }
            let kept: usize = made.iter().map(|(_, o, _)| o.bytes()).sum();
            if made.len() >= MAX_SETS || kept + self.bytes() > MAX_BYTES {
                return Err(OverrideError::Budget);
            }
            let mut merged = *base;
            for (key, text) in &self.0 {
                // Kept for the page's life, like the catalogs: within the budget above.
                let text: &'static str = Box::leak(text.clone());
                merged.set(key, text);
            }
            let merged: &'static Strings = Box::leak(Box::new(merged));
            made.push((locale, self.clone(), merged));
            Ok(merged)
        })
    }

    /// What keeping these texts costs (the merged catalog and the texts, twice: its copy and
    /// the key of [`MERGED`]).
    fn bytes(&self) -> usize {
        std::mem::size_of::<Strings>() + 2 * self.0.iter().map(|(_, t)| t.len()).sum::<usize>()
    }
}
