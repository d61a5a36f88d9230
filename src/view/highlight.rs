//! Syntax highlighting for fenced code blocks in agent output: pure, dependency-free and
//! incremental, so a block can be coloured while it streams.
//!
//! [`language`] maps a fence's info word (`rust`, `py`, `tsx`, `c++`…) to a [`Lang`]; an unknown
//! word gives `None` and the block stays plain text. A [`Highlighter`] is fed the block's text
//! in deltas of any size ([`Highlighter::push`], split anywhere, even inside a line) and cuts it
//! into [`Line`]s: the line's text and [`Span`]s that cover it exactly, each with an optional
//! [`Class`] (a CSS class name through [`Class::css`]; plain text has none). [`highlight`] does
//! a finished block at once and gives the same lines as any sequence of pushes.
//!
//! **Safety.** This module only produces byte ranges into the text it was given (always at
//! char boundaries). The caller renders each span as a *text node* inside an element with the
//! span's class — never as markup — so nothing an agent writes in a code block can become HTML.
//!
//! **Incremental.** State that crosses lines (block comments, triple-quoted and template
//! strings, Rust raw strings, an HTML tag split over lines, CSS brace depth) is a small `Copy`
//! value carried from one line to the next. A line is tokenised once, when its `\n` arrives,
//! and is never touched again ([`Highlighter::lines`] only grows); only the still-open last
//! line is tokenised again on each look ([`Highlighter::open_spans`]), from the carried state
//! (at most [`MAX_LINE_BYTES`] of it: look once per frame, not once per delta).
//!
//! **Budgets** (the agent controls the text): a line is tokenised only up to
//! [`MAX_LINE_BYTES`], the rest of it is one plain span; after [`MAX_LINES`] lines or
//! [`MAX_BLOCK_BYTES`] bytes the remaining lines are plain. Tokenising is one forward pass over
//! the line (no backtracking, no regexes); word lookups bisect short sorted lists.
//!
//! One table-driven scanner serves every language (a `Syntax` per language: word lists,
//! comment markers, quotes, operator bytes and feature flags); HTML/XML, CSS, YAML, TOML, shell
//! and diff add a few small special cases. A word list is one sorted, space-separated `&str`
//! (smaller in wasm than a slice of `&str`s).

/// A line is tokenised up to this many bytes (cut back to a char boundary); the rest of it is
/// one plain span.
pub const MAX_LINE_BYTES: usize = 2_000;
/// Only this many lines of a block are tokenised; later lines are plain.
pub const MAX_LINES: usize = 5_000;
/// Lines starting after this many bytes of the block (line breaks included) are plain.
pub const MAX_BLOCK_BYTES: usize = 256 * 1024;

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
const ALIASES: &[(Lang, &str)] = &[
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

/// What a span is. Plain text has no class.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Keyword,
    /// Built-in and capitalised type names.
    Type,
    /// `true`, `false`, `null`, `None`… and `ALL_CAPS` constants.
    Literal,
    Number,
    String,
    Comment,
    /// A name followed by `(`, a name after `fn`/`def`/`func`…, a Rust macro, a shell command.
    Function,
    /// JSON/YAML/TOML keys, CSS properties, HTML attributes.
    Property,
    /// HTML/XML tag names, CSS element selectors.
    Tag,
    /// Shell `$VAR`, YAML anchors and aliases.
    Variable,
    /// Decorators and annotations, attributes `#[…]`, preprocessor lines, shebangs, lifetimes,
    /// diff headers, doctypes.
    Meta,
    Operator,
    /// A diff's added line.
    Inserted,
    /// A diff's removed line.
    Deleted,
}

impl Class {
    /// Every class, for a style sheet's test.
    pub const ALL: [Class; 14] = [
        Class::Keyword,
        Class::Type,
        Class::Literal,
        Class::Number,
        Class::String,
        Class::Comment,
        Class::Function,
        Class::Property,
        Class::Tag,
        Class::Variable,
        Class::Meta,
        Class::Operator,
        Class::Inserted,
        Class::Deleted,
    ];

    /// The CSS class of a span of this class.
    pub fn css(self) -> &'static str {
        match self {
            Class::Keyword => "agui-tok-kw",
            Class::Type => "agui-tok-type",
            Class::Literal => "agui-tok-lit",
            Class::Number => "agui-tok-num",
            Class::String => "agui-tok-str",
            Class::Comment => "agui-tok-com",
            Class::Function => "agui-tok-fn",
            Class::Property => "agui-tok-prop",
            Class::Tag => "agui-tok-tag",
            Class::Variable => "agui-tok-var",
            Class::Meta => "agui-tok-meta",
            Class::Operator => "agui-tok-op",
            Class::Inserted => "agui-tok-ins",
            Class::Deleted => "agui-tok-del",
        }
    }
}

/// Bytes `start..end` of a line's text, both at char boundaries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
    pub class: Option<Class>,
}

/// One line of a block (without its `\n`). `spans` cover `text` exactly, in order, adjacent
/// spans never share a class; a line that is all plain has no spans at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub spans: Vec<Span>,
}

impl Line {
    /// The line's pieces to render: `(class, text)`, in order, none empty.
    pub fn parts(&self) -> impl Iterator<Item = (Option<Class>, &str)> + '_ {
        parts(&self.text, &self.spans)
    }
}

/// The pieces of `text` cut by `spans` (all of `text`, plain, when `spans` is empty).
pub fn parts<'a>(
    text: &'a str,
    spans: &'a [Span],
) -> impl Iterator<Item = (Option<Class>, &'a str)> + 'a {
    let whole = spans.is_empty().then_some((None, text));
    whole
        .into_iter()
        .chain(spans.iter().map(move |s| {
            let piece = text.get(s.start as usize..s.end as usize).unwrap_or("");
            (s.class, piece)
        }))
        .filter(|(_, t)| !t.is_empty())
}

/// A block being highlighted as it streams.
#[derive(Clone, Debug)]
pub struct Highlighter {
    lang: Lang,
    state: State,
    lines: Vec<Line>,
    open: String,
    /// Bytes of the finished lines, line breaks included.
    bytes: usize,
}

impl Highlighter {
    pub fn new(lang: Lang) -> Self {
        Highlighter {
            lang,
            state: State::default(),
            lines: Vec::new(),
            open: String::new(),
            bytes: 0,
        }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Feeds more of the block. Every line whose `\n` arrives is tokenised now, once.
    pub fn push(&mut self, appended: &str) {
        let mut rest = appended;
        while let Some((head, tail)) = rest.split_once('\n') {
            self.open.push_str(head);
            let text = std::mem::take(&mut self.open);
            self.commit(text);
            rest = tail;
        }
        self.open.push_str(rest);
    }

    /// The finished lines (those whose `\n` arrived). They never change once here.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The text after the last `\n`.
    pub fn open_text(&self) -> &str {
        &self.open
    }

    /// The spans of [`Self::open_text`], tokenised from the carried state (not kept).
    pub fn open_spans(&self) -> Vec<Span> {
        self.tokenise(&self.open).0
    }

    /// The still-open last line (a copy of its text with [`Self::open_spans`]).
    pub fn open_line(&self) -> Line {
        Line {
            text: self.open.clone(),
            spans: self.open_spans(),
        }
    }

    /// The block is complete: every line, the open one too when it is not empty.
    pub fn finish(mut self) -> Vec<Line> {
        if !self.open.is_empty() {
            let text = std::mem::take(&mut self.open);
            self.commit(text);
        }
        self.lines
    }

    fn commit(&mut self, text: String) {
        let (spans, state) = self.tokenise(&text);
        self.state = state;
        self.bytes = self.bytes.saturating_add(text.len() + 1);
        self.lines.push(Line { text, spans });
    }

    fn tokenise(&self, text: &str) -> (Vec<Span>, State) {
        if self.lines.len() >= MAX_LINES || self.bytes >= MAX_BLOCK_BYTES {
            return (Vec::new(), self.state);
        }
        tokenise(syntax(self.lang), self.state, text, self.lines.is_empty())
    }
}

/// A finished block's lines (the last one may lack its `\n`; an empty last line is dropped).
pub fn highlight(lang: Lang, code: &str) -> Vec<Line> {
    let mut h = Highlighter::new(lang);
    h.push(code);
    h.finish()
}

/// What carries from one line to the next.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct State {
    mode: Mode,
    /// Rust: the raw string's `#`s, the block comment's nesting depth. CSS: the brace depth.
    n: u8,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Code,
    Comment,
    /// A string opened by this quote byte; `true` when tripled (`"""`).
    Str(u8, bool),
    /// A Rust raw string (`r#"…"#`, `State::n` hashes).
    Raw,
    /// Inside an HTML/XML tag, among its attributes.
    Tag,
}

/// Capitalised words are types, `ALL_CAPS` ones literals.
const CAPS: u32 = 1;
/// Word lists match ASCII-case-insensitively.
const NOCASE: u32 = 1 << 1;
/// `"""` / `'''` strings.
const TRIPLE: u32 = 1 << 2;
/// Lifetimes, raw strings, nested comments, `#[attr]`, `name!` macros.
const RUST: u32 = 1 << 3;
/// A line starting with `#` is a preprocessor line.
const PREPROC: u32 = 1 << 4;
/// `@name` is a decorator or annotation.
const AT_META: u32 = 1 << 5;
/// Shell words, `$VAR`, commands, no escapes in `'…'`.
const SHELL: u32 = 1 << 6;
/// `"…"` strings may span lines.
const MULTILINE: u32 = 1 << 7;
/// A string followed by `:` is a key.
const KEY_COLON: u32 = 1 << 8;
/// A line comment starts only at a line's start or after a space (`a#b`, `http://`).
const SPACED: u32 = 1 << 9;
const CSS: u32 = 1 << 10;
const MARKUP: u32 = 1 << 11;
const YAML: u32 = 1 << 12;
const TOML: u32 = 1 << 13;
const DIFF: u32 = 1 << 14;
/// `` `…` `` strings have no escapes (Go).
const RAW_BT: u32 = 1 << 15;

/// A language's table.
struct Syntax {
    keywords: &'static str,
    types: &'static str,
    literals: &'static str,
    line: &'static [&'static str],
    block: (&'static str, &'static str),
    quotes: &'static [u8],
    /// Bytes that may prefix a string (`b"…"`, `f'…'`), one or two of them.
    prefixes: &'static [u8],
    ops: &'static [u8],
    flags: u32,
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

fn syntax(lang: Lang) -> &'static Syntax {
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
fn listed(list: &str, w: &[u8], nocase: bool) -> bool {
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

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

/// A byte of a word (non-ASCII bytes always are, so words end at char boundaries).
fn is_word(f: u32, b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || b == b'_'
        || b >= 0x80
        || (b == b'$' && f & SHELL == 0)
        || (b == b'-' && f & (CSS | SHELL) != 0)
        || (f & SHELL != 0 && b"./+%@:~".contains(&b))
}

/// A byte of a tag or attribute name.
fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80 || b"-_:.@".contains(&b)
}

/// The end of the run of bytes from `i` that `p` accepts.
fn run(s: &[u8], mut i: usize, p: impl Fn(u8) -> bool) -> usize {
    while s.get(i).is_some_and(|&c| p(c)) {
        i += 1;
    }
    i
}

/// The start of the char after the one at `i`.
fn next_char(s: &[u8], i: usize) -> usize {
    run(s, i + 1, |c| c & 0xC0 == 0x80)
}

fn starts(s: &[u8], i: usize, pat: &str) -> bool {
    !pat.is_empty() && s.get(i..).is_some_and(|r| r.starts_with(pat.as_bytes()))
}

/// Spans being built over the tokenised prefix of a line.
struct Scan<'a> {
    s: &'a [u8],
    spans: Vec<Span>,
    done: usize,
}

impl Scan<'_> {
    /// The byte at `i`, 0 past the end.
    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    /// Bytes `done..end` have `class` (merged into the last span when it has the same).
    fn put(&mut self, end: usize, class: Option<Class>) {
        if end <= self.done {
            return;
        }
        let (start, end32) = (to_u32(self.done), to_u32(end));
        match self.spans.last_mut() {
            Some(last) if last.class == class => last.end = end32,
            _ => self.spans.push(Span {
                start,
                end: end32,
                class,
            }),
        }
        self.done = end;
    }
}

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// One line's spans and the state after it.
fn tokenise(syn: &Syntax, state: State, text: &str, first: bool) -> (Vec<Span>, State) {
    let mut cut = text.len().min(MAX_LINE_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut sc = Scan {
        s: text.as_bytes().get(..cut).unwrap_or_default(),
        spans: Vec::new(),
        done: 0,
    };
    let state = scan(syn, state, &mut sc, first);
    sc.put(text.len(), None);
    let mut spans = sc.spans;
    if matches!(spans.as_slice(), [Span { class: None, .. }]) {
        spans.clear();
    }
    (spans, state)
}

/// The scanner: one forward pass over `sc.s`.
fn scan(syn: &Syntax, mut st: State, sc: &mut Scan, first: bool) -> State {
    use Class::*;
    let s = sc.s;
    let n = s.len();
    let f = syn.flags;
    let has = |flag: u32| f & flag != 0;
    let nocase = has(NOCASE);
    let mut i = 0;
    // Shell: a command may start here. Others: the class of a name just defined.
    let mut cmd = true;
    let mut def: Option<Class> = None;

    if st.mode == Mode::Code {
        i = run(s, 0, is_space);
        sc.put(i, None);
        if (first && s.starts_with(b"#!") && !s.starts_with(b"#!["))
            || (has(PREPROC) && sc.at(i) == b'#')
        {
            sc.put(n, Some(Meta));
            return st;
        }
        if has(DIFF) {
            let header = ["+++ ", "--- ", "@@", "diff ", "index "];
            let class = if header.iter().any(|h| starts(s, 0, h)) {
                Some(Meta)
            } else {
                match s.first() {
                    Some(b'+') => Some(Inserted),
                    Some(b'-') => Some(Deleted),
                    _ => None,
                }
            };
            sc.put(n, class);
            return st;
        }
        if has(YAML) {
            if (starts(s, 0, "---") || starts(s, 0, "...")) && (n == 3 || is_space(sc.at(3))) {
                sc.put(3, Some(Meta));
                i = 3;
            }
            while sc.at(i) == b'-' && (i + 1 == n || is_space(sc.at(i + 1))) {
                sc.put(i + 1, Some(Operator));
                i = run(s, i + 1, is_space);
                sc.put(i, None);
            }
            if let Some(e) = yaml_key(s, i) {
                sc.put(e, Some(Property));
                i = e;
            }
        }
        if has(TOML) {
            if sc.at(i) == b'[' {
                let e = s.iter().position(|&b| b == b']').map_or(n, |p| p + 1);
                sc.put(e, Some(Type));
                i = e;
            } else {
                let e = run(s, i, |c| c.is_ascii_alphanumeric() || b"_-.".contains(&c));
                if e > i && sc.at(run(s, e, is_space)) == b'=' {
                    sc.put(e, Some(Property));
                    i = e;
                }
            }
        }
        if has(SHELL) && starts(s, i, "$ ") {
            // A console prompt.
            sc.put(i + 1, Some(Meta));
            i += 1;
        }
    }

    while i < n {
        match st.mode {
            Mode::Comment => {
                let (open, close) = syn.block;
                let nest = has(RUST);
                let mut j = i;
                let mut end = n;
                while j < n {
                    if starts(s, j, close) {
                        j += close.len();
                        if !nest || st.n == 0 {
                            st.mode = Mode::Code;
                            end = j;
                            break;
                        }
                        st.n -= 1;
                    } else if nest && starts(s, j, open) {
                        j += open.len();
                        st.n = st.n.saturating_add(1);
                    } else {
                        j += 1;
                    }
                }
                sc.put(end, Some(Comment));
                i = end;
            }
            Mode::Str(q, triple) => {
                let esc = !((q == b'\'' && has(SHELL)) || (q == b'`' && has(RAW_BT)));
                let mut j = i;
                let mut end = None;
                while j < n {
                    let b = sc.at(j);
                    if esc && b == b'\\' {
                        j += 2;
                    } else if b == q && (!triple || sc.at(j + 1) == q && sc.at(j + 2) == q) {
                        end = Some(j + if triple { 3 } else { 1 });
                        break;
                    } else {
                        j += 1;
                    }
                }
                match end {
                    Some(e) => {
                        let key = has(KEY_COLON) && sc.at(run(s, e, is_space)) == b':';
                        sc.put(e, Some(if key { Property } else { String }));
                        st.mode = if has(MARKUP) { Mode::Tag } else { Mode::Code };
                        i = e;
                    }
                    None => {
                        sc.put(n, Some(String));
                        i = n;
                    }
                }
            }
            Mode::Raw => {
                let h = usize::from(st.n);
                let mut j = i;
                let mut end = n;
                while j < n {
                    if sc.at(j) == b'"' && (1..=h).all(|k| sc.at(j + k) == b'#') {
                        end = j + 1 + h;
                        st = State::default();
                        break;
                    }
                    j += 1;
                }
                sc.put(end, Some(String));
                i = end;
            }
            Mode::Tag => {
                let b = sc.at(i);
                if b == b'>' {
                    st.mode = Mode::Code;
                    i += 1;
                    sc.put(i, None);
                } else if syn.quotes.contains(&b) {
                    st.mode = Mode::Str(b, false);
                    i += 1;
                } else if is_name(b) {
                    i = run(s, i, is_name);
                    sc.put(i, Some(Property));
                } else {
                    i = next_char(s, i);
                    sc.put(i, None);
                }
            }
            Mode::Code => {
                let b = sc.at(i);
                let prev = if i == 0 { b' ' } else { sc.at(i - 1) };
                let was_def = def;
                if !is_space(b) {
                    def = None;
                }
                let at1 = sc.at(i + 1);
                let (e, class) = if is_space(b) {
                    (run(s, i, is_space), None)
                } else if syn.line.iter().any(|m| starts(s, i, m))
                    && (!has(SPACED) || is_space(prev))
                {
                    (n, Some(Comment))
                } else if starts(s, i, syn.block.0) {
                    st.mode = Mode::Comment;
                    i += syn.block.0.len();
                    continue;
                } else if has(MARKUP) {
                    if b == b'<' && (at1 == b'!' || at1 == b'?') {
                        let e = s.get(i..).and_then(|r| r.iter().position(|&c| c == b'>'));
                        (e.map_or(n, |p| i + p + 1), Some(Meta))
                    } else if b == b'<' && (at1 == b'/' || at1.is_ascii_alphabetic()) {
                        let name = i + 1 + usize::from(at1 == b'/');
                        sc.put(name, None);
                        st.mode = Mode::Tag;
                        (run(s, name, is_name), Some(Tag))
                    } else if b == b'&' {
                        let e = run(s, i + 1, |c| c.is_ascii_alphanumeric() || c == b'#');
                        if e > i + 1 && sc.at(e) == b';' {
                            (e + 1, Some(Literal))
                        } else {
                            (i + 1, None)
                        }
                    } else {
                        (run(s, i + 1, |c| c != b'<' && c != b'&'), None)
                    }
                } else if has(RUST)
                    && b == b'#'
                    && (at1 == b'[' || at1 == b'!' && sc.at(i + 2) == b'[')
                {
                    // An attribute, to its matching `]` (or the line's end).
                    let mut depth = 0u32;
                    let mut e = n;
                    for (j, &c) in s.iter().enumerate().skip(i) {
                        if c == b'[' {
                            depth += 1;
                        } else if c == b']' {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                e = j + 1;
                                break;
                            }
                        }
                    }
                    (e, Some(Meta))
                } else if syn.quotes.contains(&b) && !(b == b'\'' && is_word(f, prev)) {
                    if has(RUST) && b == b'\'' {
                        // A char literal, else a lifetime.
                        if at1 == b'\\' || sc.at(next_char(s, i + 1)) == b'\'' {
                            st.mode = Mode::Str(b, false);
                            i += 1;
                            continue;
                        } else if is_word(f, at1) {
                            (run(s, i + 1, |c| is_word(f, c)), Some(Meta))
                        } else {
                            (i + 1, None)
                        }
                    } else {
                        let triple = has(TRIPLE) && at1 == b && sc.at(i + 2) == b;
                        st.mode = Mode::Str(b, triple);
                        i += if triple { 3 } else { 1 };
                        continue;
                    }
                } else if has(SHELL) && b == b'$' {
                    let e = if at1 == b'{' {
                        let close = s.get(i..).and_then(|r| r.iter().position(|&c| c == b'}'));
                        close.map_or(n, |p| i + p + 1)
                    } else if at1.is_ascii_alphabetic() || at1 == b'_' {
                        run(s, i + 1, |c| c.is_ascii_alphanumeric() || c == b'_')
                    } else if at1.is_ascii_digit() || (at1 != 0 && b"@*#?$!-".contains(&at1)) {
                        i + 2
                    } else {
                        i
                    };
                    if e > i {
                        (e, Some(Variable))
                    } else {
                        cmd = at1 == b'(';
                        (i + 1, None)
                    }
                } else if has(AT_META) && b == b'@' && (at1.is_ascii_alphabetic() || at1 == b'_') {
                    (
                        run(s, i + 1, |c| is_word(f, c) || c == b'.' || c == b'-'),
                        Some(Meta),
                    )
                } else if has(YAML) && b"&*!".contains(&b) && is_space(prev) && at1 > b' ' {
                    let e = run(s, i + 1, |c| c > b' ');
                    (e, Some(if b == b'!' { Meta } else { Variable }))
                } else if has(CSS) && b == b'{' {
                    st.n = st.n.saturating_add(1);
                    (i + 1, None)
                } else if has(CSS) && b == b'}' {
                    st.n = st.n.saturating_sub(1);
                    (i + 1, None)
                } else if has(CSS)
                    && (b == b'#' || b == b'.')
                    && is_word(f, at1)
                    && !(b == b'.' && at1.is_ascii_digit())
                {
                    // `.class` and `#id` selectors; `#fff` in a rule (or an SCSS variable).
                    let e = run(s, i + 1, |c| is_word(f, c));
                    let hex = s.get(i + 1..e).unwrap_or_default();
                    let colour =
                        matches!(hex.len(), 3 | 4 | 6 | 8) && hex.iter().all(u8::is_ascii_hexdigit);
                    let class = match (st.n, b) {
                        (_, b'#') if colour => Some(Number),
                        (0, _) => Some(Type),
                        (_, b'#') => Some(Number),
                        _ => None,
                    };
                    (e, class)
                } else if has(CSS)
                    && ((b == b':' && st.n == 0) || b == b'!')
                    && is_word(f, sc.at(run(s, i + 1, |c| c == b':')))
                {
                    // `:hover`, `::before`; `!important`.
                    let e = run(s, run(s, i + 1, |c| c == b':'), |c| is_word(f, c));
                    (e, Some(if b == b'!' { Keyword } else { Meta }))
                } else if b.is_ascii_digit()
                    || b == b'.' && at1.is_ascii_digit() && !is_word(f, prev)
                {
                    let hex = b == b'0' && matches!(at1, b'x' | b'X');
                    let mut j = i + 1;
                    // Digits, letters (`0xFF`, `1e3`, `10px`, `42u32`), `_`, a `.` before a
                    // digit, an exponent's sign.
                    loop {
                        let c = sc.at(j);
                        let more = c.is_ascii_alphanumeric()
                            || c == b'_'
                            || (c == b'%' && has(CSS))
                            || (c == b'.' && sc.at(j + 1).is_ascii_digit())
                            || (matches!(c, b'+' | b'-')
                                && !hex
                                && matches!(sc.at(j - 1), b'e' | b'E'));
                        if !more {
                            break;
                        }
                        j += 1;
                    }
                    (j, Some(Number))
                } else if is_word(f, b)
                    && (b != b'-' || has(SHELL) || at1 == b'-' || at1.is_ascii_alphabetic())
                {
                    let e = run(s, i, |c| is_word(f, c));
                    let w = s.get(i..e).unwrap_or_default();
                    let next = sc.at(e);
                    if has(RUST) && matches!(w, b"r" | b"br" | b"cr") {
                        let h = run(s, e, |c| c == b'#') - e;
                        if let (b'"', Ok(h8)) = (sc.at(e + h), u8::try_from(h)) {
                            st = State {
                                mode: Mode::Raw,
                                n: h8,
                            };
                            i = e + h + 1;
                            continue;
                        }
                    }
                    if w.len() <= 2
                        && syn.quotes.contains(&next)
                        && w.iter().all(|c| syn.prefixes.contains(c))
                    {
                        let triple = has(TRIPLE) && sc.at(e + 1) == next && sc.at(e + 2) == next;
                        st.mode = Mode::Str(next, triple);
                        i = e + if triple { 3 } else { 1 };
                        continue;
                    }
                    let mut e = e;
                    let class = if has(SHELL) {
                        if next == b'=' && prev != b'=' {
                            Some(Variable)
                        } else if listed(syn.keywords, w, false) {
                            cmd = listed(
                                "do elif else exec function if then time until while",
                                w,
                                false,
                            );
                            Some(Keyword)
                        } else if cmd && prev != b'=' && b != b'-' {
                            cmd = false;
                            Some(Function)
                        } else {
                            if prev != b'=' {
                                cmd = false;
                            }
                            None
                        }
                    } else if has(CSS)
                        && ((st.n > 0 && sc.at(run(s, e, is_space)) == b':')
                            || (next == b':' && matches!(sc.at(e + 1), b' ' | b'\t' | 0)))
                    {
                        // `color: red`; at the top level `$var: 1` and `max-width: 600px`.
                        Some(Property)
                    } else if has(CSS) && st.n == 0 {
                        Some(Tag)
                    } else if was_def.is_some() {
                        was_def
                    } else if listed(syn.keywords, w, nocase) {
                        // The name after `fn` is a function's, after `class` a type's.
                        if listed("def fn fun func function", w, false) {
                            def = Some(Function);
                        } else if listed("class enum interface struct trait type", w, false) {
                            def = Some(Type);
                        }
                        Some(Keyword)
                    } else if listed(syn.literals, w, nocase) {
                        Some(Literal)
                    } else if listed(syn.types, w, nocase) {
                        Some(Type)
                    } else if has(RUST) && next == b'!' && sc.at(e + 1) != b'=' {
                        e += 1;
                        Some(Function)
                    } else if next == b'(' {
                        Some(Function)
                    } else if has(CAPS) && w.first().is_some_and(u8::is_ascii_uppercase) {
                        if w.len() > 1 && !w.iter().any(u8::is_ascii_lowercase) {
                            Some(Literal)
                        } else {
                            Some(Type)
                        }
                    } else {
                        None
                    };
                    (e, class)
                } else if syn.ops.contains(&b) {
                    if has(SHELL) && b"|&;".contains(&b) {
                        cmd = true;
                    }
                    (i + 1, Some(Operator))
                } else {
                    if has(SHELL) && b"({`".contains(&b) {
                        cmd = true;
                    }
                    (next_char(s, i), None)
                };
                sc.put(e, class);
                i = e;
            }
        }
    }
    // Strings that cannot span lines end with theirs.
    if let Mode::Str(q, triple) = st.mode {
        if !triple && q != b'`' && !has(MULTILINE) {
            st.mode = if has(MARKUP) { Mode::Tag } else { Mode::Code };
        }
    }
    st
}

/// The end of a YAML key starting at `i` (`key:` followed by a space or the line's end).
fn yaml_key(s: &[u8], i: usize) -> Option<usize> {
    let first = *s.get(i)?;
    if b"\"'#[]{}&*!|>%@`?,".contains(&first) {
        return None;
    }
    let mut prev = b' ';
    for (j, &c) in s.iter().enumerate().skip(i) {
        if c == b':' && s.get(j + 1).is_none_or(|&d| is_space(d)) {
            let key = s.get(i..j).unwrap_or_default();
            return Some(i + key.iter().rposition(|&c| !is_space(c)).map_or(0, |p| p + 1));
        }
        if c == b'#' && is_space(prev) {
            return None;
        }
        prev = c;
    }
    None
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
