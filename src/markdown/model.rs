//! The tree [`parse`](super::parse) gives: blocks and inlines that can only describe harmless
//! things, and the only way to a link's or an image's destination ([`SafeUrl`]).

/// A block-level node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(Vec<Inline>),
    /// `level` is 1..=6.
    Heading {
        level: u8,
        content: Vec<Inline>,
    },
    /// Fenced or indented code. `code` is verbatim (it ends with `\n` like the source lines).
    /// `lang` is the first word of a fence's info string, only `[A-Za-z0-9_+-.#]` characters
    /// kept (`None` when empty or for indented code).
    CodeBlock {
        lang: Option<String>,
        code: String,
    },
    Quote(Vec<Block>),
    /// For an unordered list `start` is 1 and means nothing. Items of tight lists hold a
    /// [`Block::Paragraph`] too (the tree does not record tightness).
    List {
        ordered: bool,
        start: u64,
        items: Vec<ListItem>,
    },
    /// `header` has one cell per column; each row of `rows` too (GFM pads/truncates rows).
    Table {
        align: Vec<Align>,
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
    /// Raw HTML in the source: shown as literal text, never interpreted. Trailing newlines are
    /// removed.
    Html(String),
    /// A GFM footnote definition at the top level (`[^label]: text`, indented lines continue
    /// it). The UI shows it in the notes at the end of the message, not where it stands.
    /// References (`[^label]`) stay [`Inline::Text`]: whether one resolves depends on the
    /// definitions of the whole message, which a streaming message may not have yet.
    Footnote {
        label: String,
        blocks: Vec<Block>,
    },
}

/// One list item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    /// `Some(checked)` for a GFM task list item (`- [x]` / `- [ ]`).
    pub task: Option<bool>,
    pub blocks: Vec<Block>,
}

/// Column alignment of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    None,
    Left,
    Center,
    Right,
}

/// An inline node. Adjacent text is merged into one [`Inline::Text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Emphasis(Vec<Inline>),
    Strong(Vec<Inline>),
    Strikethrough(Vec<Inline>),
    /// Only http, https and mailto survive; anything else (javascript:, data:, vbscript:,
    /// file:, relative URLs…) becomes the link's text only (its content, without a link).
    Link {
        href: SafeUrl,
        title: Option<String>,
        content: Vec<Inline>,
        /// The destination's host ([`SafeUrl::host`]) when the visible text names a different
        /// one (`[https://bank.example](https://evil.example)`): the UI shows it next to the
        /// text. `None` when the text names no host or only the destination's (case, a leading
        /// `www.`, a trailing dot or slash and the port aside), and for `mailto:`.
        shown_host: Option<String>,
    },
    /// Images are never loaded automatically: the UI shows a placeholder with alt text and a
    /// button; only http/https sources are kept (others become alt text).
    Image {
        src: SafeUrl,
        alt: String,
        title: Option<String>,
    },
    /// A formula: its TeX, as written between the delimiters (`$$…$$`, `\[…\]` and `\(…\)`,
    /// `$…$` where the page allows it). `display`: `$$`/`\[` (a block of its own). The UI
    /// turns the TeX into MathML ([`tex_to_mathml`](super::tex_to_mathml)) or shows it as is.
    Math {
        tex: String,
        display: bool,
    },
    /// The source of a formula still streaming (its closer has not arrived): shown as text,
    /// muted, until it closes.
    MathSource(String),
    SoftBreak,
    HardBreak,
    /// Inline raw HTML (`<b>`, `<script>`…): literal text.
    Html(String),
}

/// A URL that passed the scheme allow-list (http, https, mailto for links; http, https for
/// images). Constructed only via [`SafeUrl::parse_link`] / [`SafeUrl::parse_image`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SafeUrl(String);

impl SafeUrl {
    /// Accepts `http://host…`, `https://host…` (scheme case-insensitive, non-empty host) and
    /// `mailto:…` (non-empty). Rejects everything else, and any URL containing whitespace,
    /// control characters, zero-width or bidi-control characters or a backslash anywhere (browsers strip or reinterpret those, which
    /// could change what the scheme check saw). The URL is kept unchanged.
    pub fn parse_link(url: &str) -> Option<SafeUrl> {
        Self::parse_with(url, true)
    }

    /// Like [`SafeUrl::parse_link`] but only `http` and `https`.
    pub fn parse_image(url: &str) -> Option<SafeUrl> {
        Self::parse_with(url, false)
    }

    /// The URL, for an `href`/`src` attribute (set through the DOM, never spliced into HTML).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The host (and port) an `http(s)` URL goes to, as written, userinfo dropped
    /// (`https://bank.example@evil.example/` → `evil.example`); `None` for `mailto:`.
    pub fn host(&self) -> Option<&str> {
        let (scheme, rest) = self.0.split_once("://")?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        Some(
            authority
                .rsplit_once('@')
                .map_or(authority, |(_, host)| host),
        )
    }

    fn parse_with(url: &str, allow_mailto: bool) -> Option<SafeUrl> {
        if url.is_empty()
            || url
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '\\' || is_invisible(c))
        {
            return None;
        }
        let (scheme, rest) = url.split_once(':')?;
        let scheme = scheme.to_ascii_lowercase();
        let ok = match scheme.as_str() {
            "http" | "https" => rest
                .strip_prefix("//")
                .and_then(|host| host.chars().next())
                .is_some_and(|c| !matches!(c, '/' | '?' | '#')),
            "mailto" => allow_mailto && !rest.is_empty(),
            _ => false,
        };
        ok.then(|| SafeUrl(url.to_string()))
    }
}

/// Zero-width and bidi-control characters (could hide what a URL really says).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// The host to show next to a link whose visible `text` could pass for another destination:
/// `Some(href's host)` when a word of `text` reads as a host name (`https://bank.example`,
/// `bank.example/login`, `www.bаnk.example` with a Cyrillic `а`, `user@bank.example`) other
/// than the destination's. Hosts compare after [`host_key`] (case, a leading `www.`, a
/// trailing dot, the port and lookalike dots ignored), so a text naming the destination's host
/// — an autolink, whose text is its URL — shows nothing, and neither does plain text.
pub(super) fn spoofed_host(text: &str, href: &SafeUrl) -> Option<String> {
    let host = href.host()?;
    let key = host_key(host);
    text.split_whitespace()
        .filter_map(|word| {
            // What a browser would read as the host if the word were the URL.
            let word = word.trim_matches(|c: char| c.is_ascii() && !c.is_ascii_alphanumeric());
            let rest = word.split_once("//").map_or(word, |(_, rest)| rest);
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let named = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            Some(host_key(named)).filter(|k| looks_like_host(k))
        })
        .any(|named| named != key)
        .then(|| host.to_owned())
}

/// A host reduced for comparison: the port dropped, dot lookalikes read as `.` (as IDNA maps
/// them), lowercase, without a trailing dot or a leading `www.`.
fn host_key(host: &str) -> String {
    let host = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let host: String = host
        .chars()
        .map(|c| match c {
            '\u{2024}' | '\u{3002}' | '\u{fe52}' | '\u{ff0e}' | '\u{ff61}' => '.',
            c => c,
        })
        .collect::<String>()
        .to_lowercase();
    let host = host.trim_end_matches('.');
    host.strip_prefix("www.").unwrap_or(host).to_owned()
}

/// Whether `key` ([`host_key`]) reads as a host name: two or more dot-separated labels of
/// letters, digits, `-`, `_` or any non-ASCII character (lookalikes included), the last one of
/// two or more characters not starting with a digit (so `e.g` and `1.2.3` are no host) — or
/// an IPv4 address.
fn looks_like_host(key: &str) -> bool {
    let labels: Vec<&str> = key.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_') || !c.is_ascii())
    };
    let ipv4 = labels.len() == 4 && labels.iter().all(|l| l.bytes().all(|b| b.is_ascii_digit()));
    let tld_ok = labels
        .last()
        .is_some_and(|l| l.chars().count() >= 2 && !l.starts_with(|c: char| c.is_ascii_digit()));
    labels.len() >= 2 && labels.iter().all(label_ok) && (tld_ok || ipv4)
}
