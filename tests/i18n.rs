//! The UI string catalog (`src/i18n.rs`): every language has every key (the struct literal
//! enforces presence; this checks content), no text is empty, and translations keep the
//! English placeholders so `fill` never drops or invents a parameter.

use agui_leptos::i18n::{fill, placeholder_count, split_placeholder, Locale, EN};

#[test]
fn every_language_has_every_key_with_a_non_empty_text() {
    let reference: Vec<&str> = EN.entries().iter().map(|(k, _)| *k).collect();
    assert!(reference.len() > 100, "the catalog lists the UI strings");
    for &locale in Locale::ALL {
        let entries = locale.strings().entries();
        let keys: Vec<&str> = entries.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, reference, "{locale:?} has the same keys as English");
        for (key, text) in entries {
            assert!(!text.trim().is_empty(), "{locale:?}.{key} is empty");
        }
    }
}

#[test]
fn translations_keep_the_placeholders() {
    let english = EN.entries();
    for &locale in Locale::ALL {
        for ((key, en), (_, text)) in english.iter().zip(locale.strings().entries()) {
            assert_eq!(
                placeholder_count(text),
                placeholder_count(en),
                "{locale:?}.{key}: {text:?} vs {en:?}"
            );
        }
    }
}

#[test]
fn german_is_really_translated() {
    let de = Locale::De.strings();
    assert_eq!(de.send, "Senden");
    let same = EN
        .entries()
        .iter()
        .zip(de.entries())
        .filter(|((_, en), (_, de))| en == de)
        .count();
    // A few words are the same in both (Audio, Video, Budget, Plan, "{} …" shapes).
    assert!(
        same * 10 < EN.entries().len(),
        "{same} German texts equal the English"
    );
}

#[test]
fn placeholders_fill_in_order() {
    assert_eq!(fill("{} of {} answered", &[&2, &3]), "2 of 3 answered");
    assert_eq!(fill("Pay {}", &[&"€40"]), "Pay €40");
    assert_eq!(fill("no parameters", &[&1]), "no parameters");
    assert_eq!(fill("{} and {}", &[&1]), "1 and ");
    assert_eq!(split_placeholder("Delete “{}”?"), ("Delete “", "”?"));
    assert_eq!(split_placeholder("plain"), ("plain", ""));
}

#[test]
fn locales_are_negotiated_from_language_tags() {
    assert_eq!(Locale::from_tag("de-AT"), Some(Locale::De));
    assert_eq!(Locale::from_tag("DE"), Some(Locale::De));
    assert_eq!(Locale::from_tag("de_CH"), Some(Locale::De));
    assert_eq!(Locale::from_tag("en-GB"), Some(Locale::En));
    assert_eq!(Locale::from_tag("fr-FR"), None);
    assert_eq!(Locale::from_tag(""), None);
    assert_eq!(Locale::negotiate(["fr-FR", "de-DE", "en"]), Locale::De);
    assert_eq!(Locale::negotiate(["fr-FR", "ja"]), Locale::En);
    assert_eq!(Locale::negotiate([]), Locale::En);
    for &locale in Locale::ALL {
        assert_eq!(Locale::from_tag(locale.tag()), Some(locale));
    }
}

#[test]
fn every_key_is_used_by_the_ui() {
    // A key no component or view model reads is a dead string translators would keep
    // maintaining. Every source file but the catalog itself.
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir)
            .expect("a source directory")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let source: String = files
        .iter()
        .filter(|p| !p.ends_with("i18n.rs"))
        .map(|p| std::fs::read_to_string(p).expect("readable source"))
        .collect();
    let unused: Vec<&str> = EN
        .entries()
        .into_iter()
        .map(|(key, _)| key)
        .filter(|key| {
            !source.match_indices(&format!(".{key}")).any(|(i, m)| {
                source[i + m.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
            })
        })
        .collect();
    assert!(unused.is_empty(), "keys no component uses: {unused:?}");
}

#[test]
fn the_catalog_stays_pure() {
    // Natively testable: no browser or UI crate in the catalog.
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/i18n.rs"),
    )
    .expect("src/i18n.rs");
    for banned in ["web_sys", "leptos", "wasm_bindgen", "js_sys"] {
        assert!(!source.contains(banned), "src/i18n.rs uses {banned}");
    }
}
