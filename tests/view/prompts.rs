//! The composer's prompt history (`src/view/prompts.rs`).

use agui_leptos::view::prompts::{caret_allows, prompt_at, step};

#[test]
fn up_goes_back_through_the_prompts_and_down_comes_back_to_the_typing() {
    assert_eq!(step(0, None, true), None, "no prompt yet");
    assert_eq!(step(3, None, true), Some(Some(0)));
    assert_eq!(step(3, Some(1), true), Some(Some(2)));
    assert_eq!(step(3, Some(2), true), None, "the oldest");
    assert_eq!(step(3, Some(2), false), Some(Some(1)));
    assert_eq!(
        step(3, Some(0), false),
        Some(None),
        "back to what was typed"
    );
    assert_eq!(step(3, None, false), None);
    let prompts = ["first".to_owned(), "second".to_owned()];
    assert_eq!(prompt_at(&prompts, 0), Some("second"));
    assert_eq!(prompt_at(&prompts, 1), Some("first"));
    assert_eq!(prompt_at(&prompts, 2), None);
}

#[test]
fn the_arrows_move_the_caret_until_it_is_on_the_first_or_last_line() {
    assert!(caret_allows("", 0, 0, true));
    assert!(caret_allows("one line", 4, 4, true));
    assert!(caret_allows("one line", 4, 4, false));
    let two = "first\nsecond";
    assert!(caret_allows(two, 3, 3, true));
    assert!(
        !caret_allows(two, 3, 3, false),
        "↓ moves to the second line"
    );
    assert!(!caret_allows(two, 8, 8, true), "↑ moves to the first line");
    assert!(caret_allows(two, 8, 8, false));
    // UTF-16 offsets: the emoji is two units, the caret after it is still on line one.
    let emoji = "🙂x\ny";
    assert!(caret_allows(emoji, 3, 3, true));
    assert!(!caret_allows(emoji, 3, 3, false));
    assert!(
        caret_allows(emoji, 99, 99, false),
        "past the end: the last line"
    );
}

#[test]
fn a_long_message_of_the_person_is_collapsed_at_first() {
    use agui_leptos::view::prompts::{is_long, LONG_MESSAGE_CHARS, LONG_MESSAGE_LINES};
    assert!(!is_long("a short question"));
    assert!(!is_long(&"x".repeat(LONG_MESSAGE_CHARS)));
    assert!(is_long(&"x".repeat(LONG_MESSAGE_CHARS + 1)));
    assert!(!is_long(&"line\n".repeat(LONG_MESSAGE_LINES)));
    assert!(is_long(&"line\n".repeat(LONG_MESSAGE_LINES + 1)));
}
