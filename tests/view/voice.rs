//! Voice (`src/view/voice.rs`): the `voice` option, where a transcript goes in the composer's
//! text, the budgets, the clock, the text an answer is read aloud as, and the notes' wording.

use std::collections::HashMap;

use agui_leptos::embed::WidgetOptions;
use agui_leptos::i18n::{Locale, EN};
use agui_leptos::view::voice::{
    clock, cut, insert, speakable, Inserted, Voice, VoiceNote, MAX_REASON_CHARS, MAX_SPOKEN_CHARS,
    MAX_TRANSCRIPT_CHARS,
};
use agui_leptos::wording::voice_note;

fn parse(pairs: &[(&str, &str)]) -> (WidgetOptions, Vec<String>) {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    WidgetOptions::parse(|name| map.get(name).cloned())
}

#[test]
fn the_voice_option_is_off_unless_the_page_asks() {
    assert_eq!(parse(&[]).0.voice, Voice::Off);
    for (value, voice) in [
        ("transcribe", Voice::Transcribe),
        (" Browser ", Voice::Browser),
        ("off", Voice::Off),
        ("false", Voice::Off),
        ("", Voice::Off),
    ] {
        let (o, problems) = parse(&[("voice", value)]);
        assert_eq!(o.voice, voice, "{value:?}");
        assert!(problems.is_empty(), "{value:?}: {problems:?}");
    }
    let (o, problems) = parse(&[("voice", "whisper")]);
    assert_eq!(o.voice, Voice::Off, "an unknown value shows no button");
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].starts_with("voice: unknown value"),
        "{problems:?}"
    );
}

/// `value` with `|` marking the caret (or two `|` a selection), the transcript put there, and
/// the result written the same way.
fn put(marked: &str, transcript: &str) -> String {
    let units: Vec<u32> = marked
        .match_indices('|')
        .enumerate()
        .map(|(n, (i, _))| marked[..i].encode_utf16().count() as u32 - n as u32)
        .collect();
    let value = marked.replace('|', "");
    let (start, end) = match units.as_slice() {
        [at] => (*at, *at),
        [a, b] => (*a, *b),
        _ => panic!("one caret or one selection in {marked:?}"),
    };
    let Inserted { value, caret } = insert(&value, start, end, transcript);
    let at = value
        .char_indices()
        .scan(0u32, |units, (i, c)| {
            let here = *units;
            *units += c.len_utf16() as u32;
            Some((i, here))
        })
        .find(|(_, u)| *u == caret)
        .map(|(i, _)| i)
        .unwrap_or(value.len());
    format!("{}|{}", &value[..at], &value[at..])
}

#[test]
fn a_transcript_goes_at_the_caret_with_spaces_where_words_meet() {
    assert_eq!(put("|", "hello from the mic"), "hello from the mic|");
    assert_eq!(put("Book a table|", "for two"), "Book a table for two|");
    assert_eq!(put("Book a table |", "for two"), "Book a table for two|");
    assert_eq!(put("|tonight", "Book a table"), "Book a table |tonight");
    assert_eq!(put("Book |tonight", "a table"), "Book a table |tonight");
    // The transcript is trimmed, and an empty one changes nothing.
    assert_eq!(put("Hi|", "  there \n"), "Hi there|");
    assert_eq!(put("Hi|", "   "), "Hi|");
    // A selection is replaced.
    assert_eq!(put("Book |a chair| now", "a table"), "Book a table| now");
}

#[test]
fn punctuation_that_hugs_a_word_gets_no_space() {
    assert_eq!(put("(|)", "maybe"), "(maybe|)");
    assert_eq!(put("Really|?", "not"), "Really not|?");
    assert_eq!(put("one|, two", "and a half"), "one and a half|, two");
}

#[test]
fn japanese_and_chinese_get_no_spaces() {
    assert_eq!(put("東京で|", "予約したい"), "東京で予約したい|");
    assert_eq!(put("|です", "テーブル"), "テーブル|です");
    assert_eq!(put("Tokyo|", "東京"), "Tokyo東京|");
}

#[test]
fn the_caret_counts_utf16_units_like_the_browser() {
    // 😀 is two UTF-16 units: a caret after it is at 2, not 1 (chars) or 4 (bytes).
    assert_eq!(put("😀|", "ok"), "😀 ok|");
    let inserted = insert("😀", 2, 2, "ok");
    assert_eq!(inserted.caret, 5, "😀 (2) + space + ok");
    // A position past the end or inside a character is clamped onto one.
    assert_eq!(insert("ab", 99, 99, "c").value, "ab c");
    assert_eq!(insert("😀", 1, 1, "x").value, "😀 x");
    // start > end is the same selection.
    assert_eq!(insert("abcd", 3, 1, "X").value, "a X d");
}

#[test]
fn a_transcript_over_the_budget_is_cut_on_a_character() {
    let long = "é".repeat(MAX_TRANSCRIPT_CHARS + 10);
    let (kept, was_cut) = cut(&long, MAX_TRANSCRIPT_CHARS);
    assert!(was_cut);
    assert_eq!(kept.chars().count(), MAX_TRANSCRIPT_CHARS);
    let (kept, was_cut) = cut("  short  ", MAX_TRANSCRIPT_CHARS);
    assert_eq!((kept, was_cut), ("short", false));
    let exact = "a".repeat(MAX_TRANSCRIPT_CHARS);
    assert_eq!(cut(&exact, MAX_TRANSCRIPT_CHARS), (exact.as_str(), false));
    assert_eq!(cut("anything", 0), ("", true));
}

#[test]
fn the_clock_shows_minutes_and_seconds() {
    assert_eq!(clock(0), "0:00");
    assert_eq!(clock(3), "0:03");
    assert_eq!(clock(59), "0:59");
    assert_eq!(clock(299), "4:59");
    assert_eq!(clock(300), "5:00");
}

#[test]
fn an_answer_is_read_without_its_markdown() {
    let md = "# Tonight in Lisbon\n\nTry **Bar Azul** in _Alfama_: [their site](https://azul.example/menu?x=1).\n\n\
              ```python\nprint('hi')\n```\n\n- `uv run` first\n- ~~not this~~ this\n\n> quoted\n\n\
              ![a map of Alfama](https://maps.example/a.png)\n\n| city | bar |\n|---|:--:|\n| Lisbon | Azul |";
    let spoken = speakable(md);
    assert_eq!(
        spoken,
        "Tonight in Lisbon\nTry Bar Azul in _Alfama_: their site.\nprint('hi')\nuv run first\n\
         not this this\nquoted\na map of Alfama\ncity   bar\nLisbon   Azul"
    );
    assert!(!spoken.contains("https://"), "no URL is read");
    // snake_case stays as written; a lone bracket is text.
    assert_eq!(
        speakable("call get_weather [soon"),
        "call get_weather [soon"
    );
    assert_eq!(speakable("__bold__ #hashtag"), "bold #hashtag");
}

#[test]
fn what_is_read_aloud_has_a_budget() {
    let long = "word ".repeat(MAX_SPOKEN_CHARS);
    assert_eq!(speakable(&long).chars().count(), MAX_SPOKEN_CHARS);
    // Brackets without links do not make it slow (the search for `](` is bounded).
    let brackets = "[".repeat(200_000);
    let started = std::time::Instant::now();
    let spoken = speakable(&brackets);
    assert_eq!(spoken.chars().count(), MAX_SPOKEN_CHARS);
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
}

#[test]
fn the_notes_are_worded_in_the_chat_s_language() {
    assert_eq!(
        voice_note(&EN, &VoiceNote::failed("quota exceeded")),
        "The recording could not be turned into text: quota exceeded"
    );
    assert_eq!(
        voice_note(&EN, &VoiceNote::Cut(MAX_TRANSCRIPT_CHARS)),
        "The dictated text was long: only its first 20,000 characters were kept."
    );
    let de = Locale::De.strings();
    assert_eq!(voice_note(de, &VoiceNote::Empty), de.voice_empty);
    assert!(voice_note(de, &VoiceNote::Cut(20_000)).contains("20.000"));
    // A reason from the page or the browser is bounded.
    let VoiceNote::Failed(reason) = VoiceNote::failed(&"x".repeat(10_000)) else {
        panic!("a failure");
    };
    assert_eq!(reason.chars().count(), MAX_REASON_CHARS);
    let VoiceNote::NoMicrophone(reason) = VoiceNote::no_microphone(&"y".repeat(10_000)) else {
        panic!("no microphone");
    };
    assert_eq!(reason.chars().count(), MAX_REASON_CHARS);
}
