//! The language tables: the languages and their fence words, and one [`Syntax`] per language
//! (word lists, comment markers, quotes, operator bytes, feature flags) that the scanner
//! (`scan.rs`) reads. A word list is one sorted, space-separated `&str`, looked up by
//! [`listed`].

/// A language the highlighter knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Json,
    Shell,
    Html,
    Css,
    Sql,
    Yaml,
    Go,
    Java,
    C,
    Cpp,
    CSharp,
    Kotlin,
    Swift,
    Toml,
    Diff,
}

/// Fence info words per language, compared ASCII-case-insensitively.
pub(super) const ALIASES: &[(Lang, &str)] = &[
    (Lang::Rust, "rust rs"),
    (Lang::Python, "python py python3 py3"),
    (Lang::JavaScript, "javascript js jsx mjs cjs node"),
    (Lang::TypeScript, "typescript ts tsx mts cts"),
    (Lang::Json, "json jsonc json5 jsonl"),
    (
        Lang::Shell,
        "sh bash shell zsh ksh console shellsession terminal",
    ),
    (Lang::Html, "html htm xhtml xml svg vue"),
    (Lang::Css, "css scss less"),
    (
        Lang::Sql,
        "sql postgres postgresql pgsql psql mysql sqlite plsql",
    ),
    (Lang::Yaml, "yaml yml"),
    (Lang::Go, "go golang"),
    (Lang::Java, "java"),
    (Lang::C, "c h"),
    (Lang::Cpp, "cpp c++ cc cxx hpp hh hxx"),
    (Lang::CSharp, "csharp cs c#"),
    (Lang::Kotlin, "kotlin kt kts"),
    (Lang::Swift, "swift"),
    (Lang::Toml, "toml"),
    (Lang::Diff, "diff patch udiff"),
];

/// The language of a fence's info word (`rust`, `py`, `c++`…); `None` for an unknown one.
pub fn language(info: &str) -> Option<Lang> {
    let info = info.trim();
    if info.is_empty() || info.len() > 16 {
        return None;
    }
    ALIASES
        .iter()
        .find(|(_, names)| names.split(' ').any(|n| n.eq_ignore_ascii_case(info)))
        .map(|(lang, _)| *lang)
}

/// Capitalised words are types, `ALL_CAPS` ones literals.
pub(super) const CAPS: u32 = 1;
/// Word lists match ASCII-case-insensitively.
pub(super) const NOCASE: u32 = 1 << 1;
/// `"""` / `'''` strings.
pub(super) const TRIPLE: u32 = 1 << 2;
/// Lifetimes, raw strings, nested comments, `#[attr]`, `name!` macros.
pub(super) const RUST: u32 = 1 << 3;
/// A line starting with `#` is a preprocessor line.
pub(super) const PREPROC: u32 = 1 << 4;
/// `@name` is a decorator or annotation.
pub(super) const AT_META: u32 = 1 << 5;
/// Shell words, `$VAR`, commands, no escapes in `'…'`.
pub(super) const SHELL: u32 = 1 << 6;
/// `"…"` strings may span lines.
pub(super) const MULTILINE: u32 = 1 << 7;
/// A string followed by `:` is a key.
pub(super) const KEY_COLON: u32 = 1 << 8;
/// A line comment starts only at a line's start or after a space (`a#b`, `http://`).
pub(super) const SPACED: u32 = 1 << 9;
pub(super) const CSS: u32 = 1 << 10;
pub(super) const MARKUP: u32 = 1 << 11;
pub(super) const YAML: u32 = 1 << 12;
pub(super) const TOML: u32 = 1 << 13;
pub(super) const DIFF: u32 = 1 << 14;
/// `` `…` `` strings have no escapes (Go).
pub(super) const RAW_BT: u32 = 1 << 15;

/// A language's table.
pub(super) struct Syntax {
    pub(super) keywords: &'static str,
    pub(super) types: &'static str,
    pub(super) literals: &'static str,
    pub(super) line: &'static [&'static str],
    pub(super) block: (&'static str, &'static str),
    pub(super) quotes: &'static [u8],
    /// Bytes that may prefix a string (`b"…"`, `f'…'`), one or two of them.
    pub(super) prefixes: &'static [u8],
    pub(super) ops: &'static [u8],
    pub(super) flags: u32,
}

const C_OPS: &[u8] = b"+-*/%=<>!&|^~?:";
const SLASH: &[&str] = &["//"];
const HASH: &[&str] = &["#"];
const C_BLOCK: (&str, &str) = ("/*", "*/");
const NO_BLOCK: (&str, &str) = ("", "");

const BASE: Syntax = Syntax {
    keywords: "",
    types: "",
    literals: "false null true",
    line: SLASH,
    block: C_BLOCK,
    quotes: b"\"'",
    prefixes: b"",
    ops: C_OPS,
    flags: CAPS,
};

const JS_KW: &str = "as async await break case catch class const continue debugger default delete do else export extends finally for from function get if import in instanceof let new of return set static super switch this throw try typeof var void while with yield";

static RUST_SYN: Syntax = Syntax {
    keywords: "Self as async await break const continue crate dyn else enum extern fn for if impl in let loop macro_rules match mod move mut pub ref return self static struct super trait type union unsafe use where while yield",
    types: "bool char f32 f64 i128 i16 i32 i64 i8 isize str u128 u16 u32 u64 u8 usize",
    literals: "Err None Ok Some false true",
    prefixes: b"bc",
    flags: CAPS | RUST | MULTILINE,
    ..BASE
};
static PYTHON_SYN: Syntax = Syntax {
    keywords: "and as assert async await break case class continue def del elif else except finally for from global if import in is lambda match nonlocal not or pass raise return try while with yield",
    types: "bool bytes dict float int list object set str tuple",
    literals: "False None True cls self",
    line: HASH,
    block: NO_BLOCK,
    prefixes: b"rbfuRBFU",
    flags: CAPS | TRIPLE | AT_META,
    ..BASE
};
static JS_SYN: Syntax = Syntax {
    keywords: JS_KW,
    literals: "Infinity NaN false null true undefined",
    quotes: b"\"'`",
    flags: CAPS | AT_META,
    ..BASE
};
static TS_SYN: Syntax = Syntax {
    keywords: "abstract as async await break case catch class const continue debugger declare default delete do else enum export extends finally for from function get if implements import in infer instanceof interface is keyof let namespace new of override private protected public readonly return satisfies set static super switch this throw try type typeof var void while with yield",
    types: "any bigint boolean never number object string symbol unknown",
    ..JS_SYN
};
static JSON_SYN: Syntax = Syntax {
    ops: b"",
    flags: KEY_COLON,
    ..BASE
};
static SHELL_SYN: Syntax = Syntax {
    keywords: "alias break case continue declare do done elif else esac eval exec exit export fi for function if in local readonly return select set shift source then time trap unset until while",
    literals: "",
    line: HASH,
    block: NO_BLOCK,
    ops: b"|&;<>=!",
    flags: SHELL | MULTILINE | SPACED,
    ..BASE
};
static HTML_SYN: Syntax = Syntax {
    literals: "",
    line: &[],
    block: ("<!--", "-->"),
    ops: b"",
    flags: MARKUP,
    ..BASE
};
static CSS_SYN: Syntax = Syntax {
    literals: "auto currentColor inherit initial none transparent unset",
    flags: CSS | AT_META | SPACED,
    ops: b"",
    ..BASE
};
static SQL_SYN: Syntax = Syntax {
    keywords: "add all alter and as asc begin between by cascade case check column commit constraint create cross declare default delete desc distinct drop else end exists foreign from full function grant group having if ilike in index inner insert into is join key language left like limit not offset on or order outer primary procedure references replace return returning returns revoke right rollback select set table then transaction trigger union unique update values view when where with",
    types: "bigint bigserial blob bool boolean bytea char date decimal double float int integer interval json jsonb numeric real serial smallint text time timestamp timestamptz tinyint uuid varchar",
    line: &["--"],
    quotes: b"\"'`",
    flags: NOCASE | MULTILINE,
    ..BASE
};
static YAML_SYN: Syntax = Syntax {
    literals: "false no null off on true yes",
    line: HASH,
    block: NO_BLOCK,
    ops: b"",
    flags: YAML | KEY_COLON | SPACED | NOCASE,
    ..BASE
};
static GO_SYN: Syntax = Syntax {
    keywords: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
    types: "any bool byte complex128 complex64 error float32 float64 int int16 int32 int64 int8 rune string uint uint16 uint32 uint64 uint8 uintptr",
    literals: "false iota nil true",
    quotes: b"\"'`",
    flags: CAPS | RAW_BT,
    ..BASE
};
static JAVA_SYN: Syntax = Syntax {
    keywords: "abstract assert break case catch class continue default do else enum extends final finally for if implements import instanceof interface native new package permits private protected public record return sealed static strictfp super switch synchronized this throw throws transient try var volatile while yield",
    types: "boolean byte char double float int long short void",
    flags: CAPS | AT_META | TRIPLE,
    ..BASE
};
static C_SYN: Syntax = Syntax {
    keywords: "auto break case catch class const const_cast constexpr continue decltype default delete do dynamic_cast else enum explicit extern final for friend goto if inline mutable namespace new noexcept operator override private protected public register reinterpret_cast restrict return sizeof static static_cast struct switch template this throw try typedef typename union using virtual volatile while",
    types: "bool char double float int int16_t int32_t int64_t int8_t long short signed size_t ssize_t uint16_t uint32_t uint64_t uint8_t unsigned void wchar_t",
    literals: "NULL false nullptr true",
    prefixes: b"uUL8",
    flags: CAPS | PREPROC,
    ..BASE
};
static CSHARP_SYN: Syntax = Syntax {
    keywords: "abstract as async await base break case catch checked class const continue default delegate do else enum event explicit extern finally fixed for foreach get goto if implicit in init interface internal is lock namespace new operator out override params private protected public readonly record ref return sealed set sizeof stackalloc static struct switch this throw try typeof unchecked unsafe using var virtual volatile when where while yield",
    types: "bool byte char decimal double dynamic float int long object sbyte short string uint ulong ushort void",
    prefixes: b"$@",
    flags: CAPS | PREPROC,
    ..BASE
};
static KOTLIN_SYN: Syntax = Syntax {
    keywords: "abstract annotation as break by catch class companion constructor continue data do else enum external final finally for fun get if import in init inner interface internal is lateinit object open operator out override package private protected public return sealed set super suspend this throw try typealias val var vararg when where while",
    flags: CAPS | AT_META | TRIPLE,
    ..BASE
};
static SWIFT_SYN: Syntax = Syntax {
    keywords: "Self any as associatedtype async await break case catch class continue convenience default defer deinit do else enum extension fallthrough fileprivate final for func guard if import in init inout internal is lazy let mutating open operator override private protocol public repeat required rethrows return self some static struct subscript super switch throw throws try typealias var weak where while",
    literals: "false nil true",
    flags: CAPS | AT_META | TRIPLE,
    ..BASE
};
static TOML_SYN: Syntax = Syntax {
    literals: "false inf nan true",
    line: HASH,
    block: NO_BLOCK,
    ops: b"",
    flags: TOML | TRIPLE,
    ..BASE
};
static DIFF_SYN: Syntax = Syntax {
    flags: DIFF,
    ..BASE
};

pub(super) fn syntax(lang: Lang) -> &'static Syntax {
    match lang {
        Lang::Rust => &RUST_SYN,
        Lang::Python => &PYTHON_SYN,
        Lang::JavaScript => &JS_SYN,
        Lang::TypeScript => &TS_SYN,
        Lang::Json => &JSON_SYN,
        Lang::Shell => &SHELL_SYN,
        Lang::Html => &HTML_SYN,
        Lang::Css => &CSS_SYN,
        Lang::Sql => &SQL_SYN,
        Lang::Yaml => &YAML_SYN,
        Lang::Go => &GO_SYN,
        Lang::Java => &JAVA_SYN,
        Lang::C | Lang::Cpp => &C_SYN,
        Lang::CSharp => &CSHARP_SYN,
        Lang::Kotlin => &KOTLIN_SYN,
        Lang::Swift => &SWIFT_SYN,
        Lang::Toml => &TOML_SYN,
        Lang::Diff => &DIFF_SYN,
    }
}

/// Whether `w` is one of the words of `list` (space-separated, sorted bytewise; lowercase when
/// `nocase`, then `w` is compared lowercased): a binary search, a few short compares per word.
pub(super) fn listed(list: &str, w: &[u8], nocase: bool) -> bool {
    use std::cmp::Ordering::*;
    let l = list.as_bytes();
    let (mut lo, mut hi) = (0, l.len());
    while lo < hi && !w.is_empty() && w.len() <= 24 {
        let mid = lo + (hi - lo) / 2;
        let before = l.get(lo..mid).unwrap_or_default();
        let start = before
            .iter()
            .rposition(|&c| c == b' ')
            .map_or(lo, |p| lo + p + 1);
        let after = l.get(mid..hi).unwrap_or_default();
        let end = after
            .iter()
            .position(|&c| c == b' ')
            .map_or(hi, |p| mid + p);
        let k = l.get(start..end).unwrap_or_default();
        let order = if nocase {
            k.iter().copied().cmp(w.iter().map(u8::to_ascii_lowercase))
        } else {
            k.cmp(w)
        };
        match order {
            Equal => return true,
            Less => lo = end + 1,
            Greater if start > lo => hi = start - 1,
            Greater => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`listed`] needs every word list sorted, without repeats, lowercase when `NOCASE`.
    #[test]
    fn word_lists_are_sorted() {
        let langs = ALIASES.iter().map(|(l, _)| *l);
        for syn in langs.map(syntax) {
            for list in [syn.keywords, syn.types, syn.literals] {
                let words: Vec<&str> = list.split(' ').filter(|w| !w.is_empty()).collect();
                assert!(words.windows(2).all(|p| p[0] < p[1]), "{list}");
                if syn.flags & NOCASE != 0 {
                    assert_eq!(list, list.to_ascii_lowercase());
                }
                for w in &words {
                    assert!(listed(list, w.as_bytes(), false), "{w} in {list}");
                    assert!(!listed(list, format!("{w}x").as_bytes(), false));
                    assert!(!listed(list, &w.as_bytes()[1..], false) || words.contains(&&w[1..]));
                }
            }
        }
        assert!(listed(SQL_SYN.keywords, b"SeLeCt", true));
        assert!(!listed(SQL_SYN.keywords, b"SeLeCt", false));
        assert!(!listed("", b"a", false));
        assert!(!listed("b", b"a", false) && !listed("b", b"c", false) && listed("b", b"b", false));
    }
}
