//! The UI string catalog (`src/i18n/`): every language has every key (the struct literal
//! enforces presence; this checks content), no text is empty, translations keep the English
//! placeholders so `fill` never drops or invents a parameter, and are really translated; the
//! page's own texts (`i18n::overrides`) are checked and laid over a catalog.

use agui_leptos::i18n::overrides::{OverrideError, Overrides, MAX_CHARS, MAX_KEYS, MAX_SETS};
use agui_leptos::i18n::{fill, placeholder_count, split_placeholder, Locale, Strings, EN};

#[test]
fn every_language_has_every_key_with_a_non_empty_text() {
    let reference: Vec<&str> = EN.entries().iter().map(|(k, _)| *k).collect();
    assert!(reference.len() > 100, "the catalog lists the UI strings");
    for &locale in Locale::ALL {
        let entries = locale.strings().entries();
        let keys: Vec<&str> = entries.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, reference, "{locale:?} has the same keys as English");
        for (key, text) in entries {
            // A digit separator may be a space (French groups digits with a narrow one).
            let blank = if key == "thousands_separator" {
                text.is_empty()
            } else {
                text.trim().is_empty()
            };
            assert!(!blank, "{locale:?}.{key} is empty");
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

/// Keys whose text follows the language's number conventions, not its words.
const NUMBER_CONVENTIONS: &[&str] = &["thousands_separator", "decimal_separator", "money_symbol"];

#[test]
fn every_language_but_english_is_really_translated() {
    assert_eq!(Locale::ALL.len(), 8, "en de fr es pt ja zh ar");
    for &locale in Locale::ALL.iter().filter(|l| **l != Locale::En) {
        let same: Vec<&str> = EN
            .entries()
            .iter()
            .zip(locale.strings().entries())
            .filter(|((key, en), (_, text))| en == text && !NUMBER_CONVENTIONS.contains(key))
            .map(|((key, _), _)| *key)
            .collect();
        // A few words are the same as the English ones (Chat, Message, Menu, Audio, Budget,
        // Pause, "HTTP {}: {}"…); French shares the most.
        assert!(
            same.len() <= 16,
            "{locale:?}: {} texts equal the English: {same:?}",
            same.len()
        );
        assert_ne!(locale.strings().send, EN.send, "{locale:?}");
    }
    assert_eq!(Locale::De.strings().send, "Senden");
    assert_eq!(
        Locale::Fr.strings().thread_untitled,
        "Nouvelle conversation"
    );
    assert_eq!(Locale::Es.strings().send, "Enviar");
    assert_eq!(Locale::Pt.strings().thread_untitled, "Nova conversa");
    assert_eq!(Locale::Ja.strings().send, "送信");
    assert_eq!(Locale::Zh.strings().send, "发送");
    assert_eq!(Locale::Ar.strings().send, "إرسال");
}

#[test]
fn japanese_chinese_and_arabic_are_written_in_their_scripts() {
    // Kana, CJK ideographs, and the full-width punctuation both write.
    let kana_or_han = |c: char| matches!(c, '\u{3000}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}');
    let han = |c: char| matches!(c, '\u{3000}'..='\u{303f}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}');
    let kana = |c: char| matches!(c, '\u{3040}'..='\u{30ff}');
    let arabic = |c: char| matches!(c, '\u{0600}'..='\u{06ff}');
    let scripts: [(Locale, &dyn Fn(char) -> bool); 3] = [
        (Locale::Ja, &kana_or_han),
        (Locale::Zh, &han),
        (Locale::Ar, &arabic),
    ];
    for (locale, script) in scripts {
        let foreign: Vec<&str> = locale
            .strings()
            .entries()
            .into_iter()
            .filter(|(key, text)| {
                !NUMBER_CONVENTIONS.contains(key)
                    && *key != "error_http"
                    && !text.chars().any(script)
            })
            .map(|(key, _)| key)
            .collect();
        assert!(
            foreign.is_empty(),
            "{locale:?}: texts without its script: {foreign:?}"
        );
    }
    // Simplified Chinese is not Japanese: no kana.
    let kana_in_zh: Vec<&str> = Locale::Zh
        .strings()
        .entries()
        .into_iter()
        .filter(|(_, text)| text.chars().any(kana))
        .map(|(key, _)| key)
        .collect();
    assert!(kana_in_zh.is_empty(), "kana in Chinese: {kana_in_zh:?}");
}

#[test]
fn only_arabic_is_written_right_to_left() {
    for &locale in Locale::ALL {
        assert_eq!(locale.rtl(), locale == Locale::Ar, "{locale:?}");
    }
}

#[test]
fn every_language_has_number_conventions() {
    for &locale in Locale::ALL {
        let t = locale.strings();
        assert!(!t.thousands_separator.is_empty(), "{locale:?}");
        assert_ne!(t.thousands_separator, t.decimal_separator, "{locale:?}");
        assert!(
            t.money_symbol.contains('¤'),
            "{locale:?}: {}",
            t.money_symbol
        );
    }
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
    assert_eq!(Locale::from_tag("fr-FR"), Some(Locale::Fr));
    assert_eq!(Locale::from_tag("fr-CA"), Some(Locale::Fr));
    assert_eq!(Locale::from_tag("es-419"), Some(Locale::Es));
    assert_eq!(Locale::from_tag("pt-BR"), Some(Locale::Pt));
    assert_eq!(Locale::from_tag("pt-PT"), Some(Locale::Pt));
    assert_eq!(Locale::from_tag("ja-JP"), Some(Locale::Ja));
    assert_eq!(Locale::from_tag("ar-EG"), Some(Locale::Ar));
    assert_eq!(Locale::from_tag("AR"), Some(Locale::Ar));
    assert_eq!(Locale::from_tag("it-IT"), None);
    assert_eq!(Locale::from_tag(""), None);
    assert_eq!(Locale::from_tag("-"), None);
    assert_eq!(Locale::negotiate(["it-IT", "de-DE", "en"]), Locale::De);
    assert_eq!(Locale::negotiate(["it-IT", "ko"]), Locale::En);
    assert_eq!(Locale::negotiate([]), Locale::En);
    for &locale in Locale::ALL {
        assert_eq!(Locale::from_tag(locale.tag()), Some(locale));
    }
}

#[test]
fn chinese_is_the_simplified_script_only() {
    for tag in [
        "zh",
        "zh-CN",
        "zh-Hans",
        "zh-SG",
        "zh_cn",
        "ZH-HANS",
        "zh-Hans-HK",
        "zh-Hans-TW",
    ] {
        assert_eq!(Locale::from_tag(tag), Some(Locale::Zh), "{tag}");
    }
    for tag in [
        "zh-TW",
        "zh-Hant",
        "zh-HK",
        "zh-MO",
        "zh-Hant-CN",
        "zh_tw",
        "ZH-HANT",
    ] {
        assert_eq!(Locale::from_tag(tag), None, "{tag}");
    }
    // A traditional-script reader gets the browser's next language, else English.
    assert_eq!(Locale::negotiate(["zh-TW", "ja"]), Locale::Ja);
    assert_eq!(Locale::negotiate(["zh-HK", "zh-Hant"]), Locale::En);
    assert_eq!(Locale::negotiate(["zh-TW", "zh-CN"]), Locale::Zh);
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
        .filter(|p| !p.starts_with(src.join("i18n")))
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
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/i18n");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("src/i18n").flatten() {
        let path = entry.path();
        let source = std::fs::read_to_string(&path).expect("readable source");
        for banned in ["web_sys", "leptos", "wasm_bindgen", "js_sys"] {
            assert!(!source.contains(banned), "{} uses {banned}", path.display());
        }
        files += 1;
    }
    assert!(files >= 10, "mod, strings and a file per language");
}

#[test]
fn every_key_has_its_doc_in_declaration_order() {
    let docs = Strings::docs();
    let keys: Vec<&str> = docs.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, Strings::KEYS);
    assert_eq!(keys.len(), EN.entries().len());
    let (_, doc) = docs
        .iter()
        .find(|(k, _)| *k == "widget_open")
        .expect("widget_open");
    assert!(doc.contains("`{}` is the widget's title"), "{doc:?}");
}

#[test]
fn a_text_is_found_and_replaced_by_its_key() {
    assert_eq!(EN.get("send"), Some("Send"));
    assert_eq!(
        EN.get("inspector_replay_refused"),
        Some(EN.inspector_replay_refused)
    );
    assert_eq!(EN.get("Send"), None);
    let mut t = *Locale::Ja.strings();
    assert!(t.set("stop", "止める"));
    assert!(!t.set("nope", "x"));
    assert_eq!((t.stop, t.send), ("止める", "送信"));
}

// ---- the page's own texts ----------------------------------------------------------------

#[test]
fn a_page_text_replaces_its_key_and_the_rest_stays_the_catalog_s() {
    let (o, problems) = Overrides::check([("composer_placeholder", "Ask Acme…"), ("send", "Go")]);
    assert_eq!(problems, vec![]);
    assert_eq!(o.len(), 2);
    let fr = Locale::Fr.strings();
    let t = o.apply(Locale::Fr, fr).expect("within the budget");
    assert_eq!(t.composer_placeholder, "Ask Acme…");
    assert_eq!(t.send, "Go");
    assert_eq!(t.stop, fr.stop, "a key left out keeps the language's text");
    assert_eq!(t.thread_untitled, "Nouvelle conversation");
    // The same texts again: the same catalog, not another copy.
    let again = o.apply(Locale::Fr, fr).expect("kept");
    assert!(std::ptr::eq(t, again));
    // Another language: its own merged catalog.
    let de = o
        .apply(Locale::De, Locale::De.strings())
        .expect("within the budget");
    assert_eq!((de.send, de.stop), ("Go", "Stopp"));
    // No texts: the catalog itself.
    assert!(std::ptr::eq(
        Overrides::default()
            .apply(Locale::Fr, fr)
            .expect("nothing to merge"),
        fr
    ));
}

#[test]
fn an_unknown_key_is_reported_and_ignored() {
    let (o, problems) = Overrides::check([("sned", "Go"), ("send", "Go")]);
    assert_eq!(o.get("send"), Some("Go"));
    assert_eq!(o.len(), 1);
    assert_eq!(
        problems,
        vec![OverrideError::UnknownKey { key: "sned".into() }]
    );
    assert!(problems[0].to_string().contains("\"sned\""));
    // Keys are the field names exactly.
    let (o, problems) = Overrides::check([("Send", "Go")]);
    assert!(o.is_empty());
    assert_eq!(problems.len(), 1);
}

#[test]
fn a_text_must_keep_the_english_placeholders() {
    let (o, problems) = Overrides::check([
        ("widget_open", "Open"),               // drops the title
        ("send", "Send {}"),                   // invents one
        ("interrupts_progress", "{}/{} done"), // keeps both
        ("error_http", "HTTP {}"),             // drops the body
    ]);
    assert_eq!(
        o.iter().map(|(k, _)| k).collect::<Vec<_>>(),
        ["interrupts_progress"]
    );
    assert_eq!(
        problems,
        vec![
            OverrideError::Placeholders {
                key: "widget_open",
                expected: 1,
                found: 0
            },
            OverrideError::Placeholders {
                key: "send",
                expected: 0,
                found: 1
            },
            OverrideError::Placeholders {
                key: "error_http",
                expected: 2,
                found: 1
            },
        ]
    );
}

#[test]
fn the_page_s_texts_have_budgets() {
    // Each text: at most MAX_CHARS characters (characters, not bytes), never empty.
    let long = "é".repeat(MAX_CHARS);
    let (o, problems) = Overrides::check([("send", long.as_str())]);
    assert_eq!(
        (o.len(), problems.len()),
        (1, 0),
        "exactly the limit is fine"
    );
    let longer = "x".repeat(MAX_CHARS + 1);
    let (o, problems) = Overrides::check([("send", longer.as_str()), ("stop", "  ")]);
    assert!(o.is_empty());
    assert_eq!(
        problems,
        vec![
            OverrideError::TooLong {
                key: "send",
                chars: MAX_CHARS + 1
            },
            OverrideError::Empty { key: "stop" },
        ]
    );
    // At most MAX_KEYS texts are looked at: enough for a page to give every key.
    assert!(
        Strings::KEYS.len() <= MAX_KEYS,
        "{} keys, but a page may give only {MAX_KEYS} texts: raise MAX_KEYS",
        Strings::KEYS.len()
    );
    let many: Vec<(String, String)> = (0..MAX_KEYS + 5)
        .map(|i| {
            (
                Strings::KEYS[i % Strings::KEYS.len()].to_owned(),
                format!("t{i}"),
            )
        })
        .map(|(k, t)| {
            let n = placeholder_count(EN.get(&k).unwrap_or_default());
            (k, format!("{t}{}", " {}".repeat(n)))
        })
        .collect();
    let (o, problems) = Overrides::check(many.iter().map(|(k, t)| (k, t)));
    assert_eq!(problems, vec![OverrideError::TooMany { extra: 5 }]);
    assert_eq!(
        o.len(),
        Strings::KEYS.len(),
        "a key given twice keeps one text"
    );
    let last = MAX_KEYS - 1;
    let key = Strings::KEYS[last % Strings::KEYS.len()];
    assert!(
        o.get(key)
            .is_some_and(|t| t.starts_with(&format!("t{last}"))),
        "the last one wins"
    );
}

#[test]
fn a_page_makes_at_most_so_many_merged_catalogs() {
    // Each distinct set is kept for the page's life: past the budget the catalog is used.
    let made: Vec<_> = (0..MAX_SETS + 1)
        .map(|i| {
            let (o, _) = Overrides::check([("send", format!("Send #{i}"))]);
            o.apply(Locale::Es, Locale::Es.strings())
        })
        .collect();
    assert!(made[..MAX_SETS].iter().all(Result::is_ok));
    assert_eq!(made[MAX_SETS], Err(OverrideError::Budget));
    // One made before is still found.
    let (o, _) = Overrides::check([("send", "Send #0")]);
    assert_eq!(
        o.apply(Locale::Es, Locale::Es.strings()).map(|t| t.send),
        Ok("Send #0")
    );
}

// The loader draws a popup's launcher before the chat (and its catalogs) is here, with its own
// words (src/loader/agui-chat.js for English, agui-chat.words.js for the rest): the same name
// as the chat gives it, in every language the chat speaks.
#[test]
fn the_loaders_launcher_words_are_the_catalogs() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/loader");
    let loader = std::fs::read_to_string(root.join("agui-chat.js")).expect("the loader");
    let words = std::fs::read_to_string(root.join("agui-chat.words.js")).expect("its words");
    // A `['open', 'loading', 'failed', 'retry', 'title']` list, JS escapes read.
    let items = |list: &str| -> Vec<String> {
        list.trim()
            .trim_end_matches([',', ';'])
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split("', '")
            .map(|s| s.trim_matches('\'').replace("\\u00a0", "\u{a0}"))
            .collect()
    };
    let mut all: Vec<(String, Vec<String>)> = words
        .lines()
        .filter_map(|l| l.trim().split_once(": ["))
        .map(|(tag, rest)| (tag.to_owned(), items(rest)))
        .collect();
    let en = loader
        .lines()
        .find_map(|l| l.strip_prefix("const EN = "))
        .expect("the loader's English words");
    all.push(("en".to_owned(), items(en)));
    let tags: std::collections::BTreeSet<&str> = all.iter().map(|(t, _)| t.as_str()).collect();
    let shipped: std::collections::BTreeSet<&str> = Locale::ALL.iter().map(|l| l.tag()).collect();
    assert_eq!(tags, shipped, "one entry per language of the catalogs");
    for (tag, items) in &all {
        let t = Locale::from_tag(tag).expect("a shipped language").strings();
        assert_eq!(items.len(), 5, "{tag}: five words");
        assert_eq!(
            items[0],
            split_placeholder(t.widget_open).0,
            "{tag}: the launcher's name"
        );
        assert_eq!(items[4], t.widget_default_title, "{tag}: the default title");
    }
}
