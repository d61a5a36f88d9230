//! The page's own custom elements the widget may create: tool cards (`renderers`) and fenced
//! code blocks (`codeRenderers: {lang: 'element-name'}`). The page names both the element and
//! what it draws; agent output only picks, by a tool's name or a fence's language, among what
//! the page registered.

use super::quoted::quoted;

/// A valid custom element name (HTML's "valid custom element name", ASCII subset): starts
/// with a lower-case letter, contains a hyphen, only `a-z 0-9 - . _`, and not one of the names
/// the spec reserves. What a page may ask the widget to create (`renderers`); anything else is
/// refused, so no option can make the widget create a `script`, an `iframe` or any built-in
/// element.
pub fn valid_element_name(name: &str) -> bool {
    const RESERVED: &[&str] = &[
        "annotation-xml",
        "color-profile",
        "font-face",
        "font-face-src",
        "font-face-uri",
        "font-face-format",
        "font-face-name",
        "missing-glyph",
    ];
    name.len() <= 100
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.contains('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._".contains(&b))
        && !RESERVED.contains(&name)
}

/// The most renderers a page registers (more are reported and ignored).
pub const MAX_CODE_RENDERERS: usize = 64;

/// A fence language as code renderers match it: the first word, only the characters a code
/// block's language keeps (`[A-Za-z0-9_+-.#]`, as the Markdown parser sanitises it), in
/// lower case (```` ```Mermaid ```` is `mermaid`), at most 64 bytes; `None` when nothing is
/// left.
pub fn fence_key(lang: &str) -> Option<String> {
    let word = lang.split_whitespace().next()?;
    let key: String = word
        .chars()
        .filter(|&c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '.' | '#'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (!key.is_empty() && key.len() <= 64).then_some(key)
}

/// The usable entries of a page's `codeRenderers` (fence key, element name) and a problem for
/// each other: a language with no usable key, an element name that is not a valid custom
/// element name ([`valid_element_name`]: never `script`, `iframe` or any built-in element), a
/// value that is not a string (`None`), more than [`MAX_CODE_RENDERERS`]. A language given
/// twice keeps its last element.
pub fn code_renderer_entries(
    entries: impl IntoIterator<Item = (String, Option<String>)>,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut ok: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    for (lang, tag) in entries {
        let Some(key) = fence_key(&lang) else {
            problems.push(format!(
                "codeRenderers: {} is not a code block language",
                quoted(&lang)
            ));
            continue;
        };
        let Some(tag) = tag.filter(|t| valid_element_name(t)) else {
            problems.push(format!(
                "codeRenderers: {key}: not a custom element name (lower case, with a hyphen)"
            ));
            continue;
        };
        ok.retain(|(k, _)| *k != key);
        if ok.len() >= MAX_CODE_RENDERERS {
            problems.push(format!(
                "codeRenderers: more than {MAX_CODE_RENDERERS}; {key} is ignored"
            ));
            continue;
        }
        ok.push((key, tag));
    }
    (ok, problems)
}
