//! A value quoted in a problem's text.

/// A value in a problem's text, quoted like `{:?}` writes it (`"x\"y"`, control characters
/// escaped) without `str`'s `Debug`, whose Unicode tables would be in the lean widget's main
/// module for these messages alone.
pub(super) fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
