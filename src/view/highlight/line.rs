//! What the highlighter gives: [`Line`]s cut into [`Span`]s, each with an optional [`Class`].

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
