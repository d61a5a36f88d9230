//! The catalog of every string the chat UI shows (pure: no web-sys, so its completeness is
//! tested natively in `tests/view/i18n.rs`).
//!
//! One [`Strings`] value per language, one file per language (`en.rs`, `de.rs`, …); a field
//! per key (`strings.rs`). A language that forgets a key does not compile (a struct literal
//! must name every field), and the test checks that no text is empty and that every
//! translation keeps the English placeholders. Parameters are positional `{}` placeholders
//! filled by [`fill`]; where a placeholder sits between elements (a `<code>` in the middle of a
//! sentence) the view splits the template with [`split_placeholder`]. Plurals are separate
//! keys (`_one` / `_other`). A page may replace any text ([`overrides`]).
//!
//! English is the reference and the fallback, and the only catalog the lean widget's main
//! module holds: in its split build (`--cfg agui_split`) every other catalog is a module of
//! its own, fetched the first time a chat speaks it (`crate::ui::catalog`), so
//! [`Locale::strings`] does not exist there. Agent output, tool names and the demo agent's
//! trigger phrases are never translated.

mod strings;
pub use strings::Strings;

pub mod overrides;

pub mod ar;
pub mod de;
pub mod en;
pub mod es;
pub mod fr;
pub mod ja;
pub mod pt;
pub mod zh;

pub use ar::AR;
pub use de::DE;
pub use en::EN;
pub use es::ES;
pub use fr::FR;
pub use ja::JA;
pub use pt::PT;
pub use zh::ZH;

/// One supported UI language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Locale {
    #[default]
    En,
    De,
    Fr,
    Es,
    /// Portuguese, worded to read naturally in Brazil and in Portugal.
    Pt,
    Ja,
    /// Simplified Chinese.
    Zh,
    /// Arabic (right to left).
    Ar,
}

impl Locale {
    /// Every language the chat speaks (every bundle has them all; the lean widget fetches
    /// each but English when first used).
    pub const ALL: &'static [Locale] = &[
        Locale::En,
        Locale::De,
        Locale::Fr,
        Locale::Es,
        Locale::Pt,
        Locale::Ja,
        Locale::Zh,
        Locale::Ar,
    ];

    /// The BCP 47 tag, for `lang` attributes.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::De => "de",
            Locale::Fr => "fr",
            Locale::Es => "es",
            Locale::Pt => "pt",
            Locale::Ja => "ja",
            Locale::Zh => "zh",
            Locale::Ar => "ar",
        }
    }

    /// Written right to left (the chat's root then carries `dir="rtl"`).
    pub fn rtl(self) -> bool {
        self == Locale::Ar
    }

    /// The language of a BCP 47 tag by its primary subtag (`de-AT`, `DE`, `de_CH` → German);
    /// `None` when the chat does not speak it. Chinese is the simplified script's: `zh`,
    /// `zh-CN`, `zh-SG`, `zh-Hans` (and `zh-Hans-HK`); a tag that names the traditional
    /// script or a region that writes it (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) is `None`,
    /// so the browser's next language is tried.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let mut subtags = tag.trim().split(['-', '_']);
        let primary = subtags.next().unwrap_or_default();
        let locale = Locale::ALL
            .iter()
            .copied()
            .find(|l| l.tag().eq_ignore_ascii_case(primary))?;
        if locale == Locale::Zh && !simplified(subtags) {
            return None;
        }
        Some(locale)
    }

    /// The first language the chat speaks in a preference list (`navigator.languages`), else
    /// English.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Locale {
        preferred
            .into_iter()
            .find_map(Locale::from_tag)
            .unwrap_or_default()
    }

    /// The catalog of this language (not in the lean widget's split build: see the module's
    /// docs and [`Locale::compiled`]).
    #[cfg(not(agui_split))]
    pub fn strings(self) -> &'static Strings {
        match self {
            Locale::En => &EN,
            Locale::De => &DE,
            Locale::Fr => &FR,
            Locale::Es => &ES,
            Locale::Pt => &PT,
            Locale::Ja => &JA,
            Locale::Zh => &ZH,
            Locale::Ar => &AR,
        }
    }

    /// The catalog of this language when this module holds it: always, but in the lean
    /// widget's split build only English's.
    #[cfg(not(agui_split))]
    pub fn compiled(self) -> Option<&'static Strings> {
        Some(self.strings())
    }

    /// The catalog of this language when this module holds it: English only, in the lean
    /// widget's split build.
    #[cfg(agui_split)]
    pub fn compiled(self) -> Option<&'static Strings> {
        (self == Locale::En).then_some(&EN)
    }
}

/// Whether the subtags after `zh` leave it in the simplified script: the script subtag
/// decides when there is one, else the region.
fn simplified<'a>(subtags: impl Iterator<Item = &'a str>) -> bool {
    let mut region_traditional = false;
    for sub in subtags {
        if sub.eq_ignore_ascii_case("hans") {
            return true;
        }
        if sub.eq_ignore_ascii_case("hant") {
            return false;
        }
        region_traditional |= ["tw", "hk", "mo"]
            .iter()
            .any(|r| sub.eq_ignore_ascii_case(r));
    }
    !region_traditional
}

/// Replaces each `{}` of `template`, in order, with the next argument (a missing argument
/// leaves nothing; extra arguments are ignored).
pub fn fill(template: &str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut args = args.iter();
    let mut pieces = template.split("{}");
    if let Some(first) = pieces.next() {
        out.push_str(first);
    }
    for piece in pieces {
        if let Some(arg) = args.next() {
            out.push_str(&arg.to_string());
        }
        out.push_str(piece);
    }
    out
}

/// The text before and after the first `{}` (all of it before when there is none).
pub fn split_placeholder(template: &str) -> (&str, &str) {
    template.split_once("{}").unwrap_or((template, ""))
}

/// The number of `{}` placeholders in a template.
pub fn placeholder_count(template: &str) -> usize {
    template.matches("{}").count()
}
