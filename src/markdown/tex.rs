//! TeX → MathML Core, as a closed tree ([`MathNode`]) the UI turns into elements with
//! `createElementNS` — never through a string of markup.
//!
//! pulldown-latex parses the TeX into events; this module consumes them and builds only the
//! elements of [`MathTag`] with the attributes of [`MathAttr`], whose values are written here
//! (numbers, fixed words, `#rrggbb` colours), never copied from the TeX. Text nodes carry the
//! formula's characters, which the DOM shows as text.
//!
//! Budgets, checked before the parser runs (agent data decides the TeX): at most
//! [`MAX_TEX_BYTES`] bytes, groups (`{…}`, `\left…\right`, `\begin…\end`) nested at most
//! [`MAX_TEX_DEPTH`] deep, no macro definitions (`\def`, `\newcommand`… could expand without
//! end); the parser's events and the tree's nodes are capped too. A formula over a budget or
//! that does not parse is an error: the UI shows its source.

use pulldown_latex::event::{
    ArrayColumn, ColumnAlignment, Content, DelimiterSize, EnvironmentFlow, Event, Font, Grouping,
    ScriptPosition, ScriptType, StateChange, Style, Visual,
};
use pulldown_latex::{Parser, Storage};

/// The longest formula rendered (bytes of TeX); a longer one shows as its source.
pub const MAX_TEX_BYTES: usize = 4_000;
/// How deep groups may nest in a formula rendered.
pub const MAX_TEX_DEPTH: usize = 24;
/// The most parser events and tree nodes one formula may make.
const MAX_EVENTS: usize = 20_000;
const MAX_NODES: usize = 20_000;

/// The MathML Core elements a formula may become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathTag {
    Math,
    Semantics,
    Annotation,
    Mrow,
    Mi,
    Mn,
    Mo,
    Mtext,
    Mspace,
    Msub,
    Msup,
    Msubsup,
    Munder,
    Mover,
    Munderover,
    Mfrac,
    Msqrt,
    Mroot,
    Mtable,
    Mtr,
    Mtd,
}

impl MathTag {
    /// The element's local name (in the MathML namespace).
    pub fn name(self) -> &'static str {
        match self {
            MathTag::Math => "math",
            MathTag::Semantics => "semantics",
            MathTag::Annotation => "annotation",
            MathTag::Mrow => "mrow",
            MathTag::Mi => "mi",
            MathTag::Mn => "mn",
            MathTag::Mo => "mo",
            MathTag::Mtext => "mtext",
            MathTag::Mspace => "mspace",
            MathTag::Msub => "msub",
            MathTag::Msup => "msup",
            MathTag::Msubsup => "msubsup",
            MathTag::Munder => "munder",
            MathTag::Mover => "mover",
            MathTag::Munderover => "munderover",
            MathTag::Mfrac => "mfrac",
            MathTag::Msqrt => "msqrt",
            MathTag::Mroot => "mroot",
            MathTag::Mtable => "mtable",
            MathTag::Mtr => "mtr",
            MathTag::Mtd => "mtd",
        }
    }
}

/// The attributes an element may carry (MathML Core's, and `class` with this module's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathAttr {
    Display,
    Mathvariant,
    Stretchy,
    Largeop,
    Movablelimits,
    Displaystyle,
    Scriptlevel,
    Linethickness,
    Width,
    Minsize,
    Maxsize,
    Mathcolor,
    Mathbackground,
    Encoding,
    Class,
    Dir,
}

impl MathAttr {
    /// The attribute's name.
    pub fn name(self) -> &'static str {
        match self {
            MathAttr::Display => "display",
            MathAttr::Mathvariant => "mathvariant",
            MathAttr::Stretchy => "stretchy",
            MathAttr::Largeop => "largeop",
            MathAttr::Movablelimits => "movablelimits",
            MathAttr::Displaystyle => "displaystyle",
            MathAttr::Scriptlevel => "scriptlevel",
            MathAttr::Linethickness => "linethickness",
            MathAttr::Width => "width",
            MathAttr::Minsize => "minsize",
            MathAttr::Maxsize => "maxsize",
            MathAttr::Mathcolor => "mathcolor",
            MathAttr::Mathbackground => "mathbackground",
            MathAttr::Encoding => "encoding",
            MathAttr::Class => "class",
            MathAttr::Dir => "dir",
        }
    }
}

/// A node of a formula's tree.
#[derive(Debug, Clone, PartialEq)]
pub enum MathNode {
    Element(MathElement),
    Text(String),
}

/// An element: its tag, attributes (values written by this module) and children.
#[derive(Debug, Clone, PartialEq)]
pub struct MathElement {
    pub tag: MathTag,
    pub attrs: Vec<(MathAttr, String)>,
    pub children: Vec<MathNode>,
}

impl MathElement {
    fn new(tag: MathTag, children: Vec<MathNode>) -> Self {
        MathElement {
            tag,
            attrs: Vec::new(),
            children,
        }
    }

    fn attr(mut self, attr: MathAttr, value: impl Into<String>) -> Self {
        self.attrs.push((attr, value.into()));
        self
    }

    /// The value of `attr`, if set.
    pub fn get(&self, attr: MathAttr) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(a, _)| *a == attr)
            .map(|(_, v)| v.as_str())
    }

    /// Its text, depth first (what a test or an accessible name reads).
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.push_text(&mut out);
        out
    }

    fn push_text(&self, out: &mut String) {
        for child in &self.children {
            match child {
                MathNode::Text(t) => out.push_str(t),
                MathNode::Element(e) if e.tag == MathTag::Annotation => {}
                MathNode::Element(e) => e.push_text(out),
            }
        }
    }
}

impl From<MathElement> for MathNode {
    fn from(e: MathElement) -> Self {
        MathNode::Element(e)
    }
}

/// Why a formula shows as its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TexError {
    /// Longer than [`MAX_TEX_BYTES`].
    TooLong,
    /// Groups nested deeper than [`MAX_TEX_DEPTH`].
    TooDeep,
    /// It defines macros (`\def`, `\newcommand`…), which are not run.
    Macro,
    /// More events or nodes than a formula may make.
    TooBig,
    /// The TeX does not parse (an unknown command, an unbalanced group…).
    Invalid,
}

/// The formula `tex` as a `<math>` element (`display`: a block of its own), with the TeX kept
/// in an `annotation` (copied with the formula, never shown). Never panics.
pub fn tex_to_mathml(tex: &str, display: bool) -> Result<MathElement, TexError> {
    check_budget(tex)?;
    let storage = Storage::new();
    let mut events = Vec::new();
    for event in Parser::new(tex, &storage) {
        if events.len() >= MAX_EVENTS {
            return Err(TexError::TooBig);
        }
        events.push(event.map_err(|_| TexError::Invalid)?);
    }
    let mut conv = Converter {
        events,
        at: 0,
        nodes: 0,
        display,
    };
    let mut children = Vec::new();
    let mut run = Run::default();
    while conv.at < conv.events.len() {
        conv.sequence_item(0, &mut run, &mut children)?;
    }
    run.flush(&mut children);
    let body = MathElement::new(MathTag::Mrow, children);
    let annotation = MathElement::new(MathTag::Annotation, vec![MathNode::Text(tex.to_owned())])
        .attr(MathAttr::Encoding, "application/x-tex");
    let semantics = MathElement::new(MathTag::Semantics, vec![body.into(), annotation.into()]);
    // Formulas read left to right, also in a right-to-left paragraph.
    let math = MathElement::new(MathTag::Math, vec![semantics.into()]).attr(MathAttr::Dir, "ltr");
    Ok(if display {
        math.attr(MathAttr::Display, "block")
    } else {
        math
    })
}

/// The budgets checked before parsing: size, nesting, macro definitions.
fn check_budget(tex: &str) -> Result<(), TexError> {
    if tex.len() > MAX_TEX_BYTES {
        return Err(TexError::TooLong);
    }
    let bytes = tex.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let word: String = tex[i + 1..]
                    .chars()
                    .take_while(char::is_ascii_alphabetic)
                    .collect();
                if word.is_empty() {
                    // A control symbol (`\{`, `\\`): the next character is not a group.
                    i += 1 + tex[i + 1..].chars().next().map_or(0, char::len_utf8);
                    continue;
                }
                match word.as_str() {
                    "def"
                    | "gdef"
                    | "edef"
                    | "xdef"
                    | "let"
                    | "futurelet"
                    | "newcommand"
                    | "renewcommand"
                    | "providecommand"
                    | "DeclareMathOperator" => return Err(TexError::Macro),
                    "left" | "begin" => depth += 1,
                    "right" | "end" => depth = depth.saturating_sub(1),
                    _ => {}
                }
                i += 1 + word.len();
                if depth > MAX_TEX_DEPTH {
                    return Err(TexError::TooDeep);
                }
                continue;
            }
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_TEX_DEPTH {
            return Err(TexError::TooDeep);
        }
        i += 1;
    }
    Ok(())
}

/// What state changes set for the rest of a group: the font of identifiers and numbers, and
/// the attributes (colour, style) of the `mrow` the following elements go into.
#[derive(Default, Clone)]
struct Run {
    font: Option<Font>,
    attrs: Vec<(MathAttr, String)>,
    /// The elements since the attributes last changed.
    items: Vec<MathNode>,
}

impl Run {
    /// Moves the run's elements into `out`, in an `mrow` with its attributes when it has any.
    fn flush(&mut self, out: &mut Vec<MathNode>) {
        let items = std::mem::take(&mut self.items);
        if self.attrs.is_empty() {
            out.extend(items);
        } else if !items.is_empty() {
            let mut row = MathElement::new(MathTag::Mrow, items);
            row.attrs = self.attrs.clone();
            out.push(row.into());
        }
    }
}

struct Converter<'a> {
    events: Vec<Event<'a>>,
    at: usize,
    nodes: usize,
    display: bool,
}

impl<'a> Converter<'a> {
    fn next(&mut self) -> Option<Event<'a>> {
        let event = self.events.get_mut(self.at)?;
        self.at += 1;
        // Each event is read once: take it instead of cloning (its `Box`es included).
        Some(std::mem::replace(event, Event::End))
    }

    fn node(&mut self, element: MathElement) -> Result<MathNode, TexError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(TexError::TooBig);
        }
        Ok(element.into())
    }

    fn leaf(&mut self, tag: MathTag, text: String) -> MathElement {
        MathElement::new(tag, vec![MathNode::Text(text)])
    }

    /// Reads one item of a group's sequence into `out`: an element, or a state change
    /// applied to the rest of the group (`run`).
    fn sequence_item(
        &mut self,
        depth: usize,
        run: &mut Run,
        out: &mut Vec<MathNode>,
    ) -> Result<(), TexError> {
        match self.events.get(self.at) {
            Some(Event::StateChange(change)) => {
                let change = *change;
                self.at += 1;
                match change {
                    StateChange::Font(font) => run.font = font,
                    StateChange::Color(color) => {
                        run.flush(out);
                        let (r, g, b) = color.color;
                        let value = format!("#{r:02x}{g:02x}{b:02x}");
                        let attr = match color.target {
                            pulldown_latex::event::ColorTarget::Background => {
                                MathAttr::Mathbackground
                            }
                            _ => MathAttr::Mathcolor,
                        };
                        run.attrs.retain(|(a, _)| *a != attr);
                        run.attrs.push((attr, value));
                    }
                    StateChange::Style(style) => {
                        run.flush(out);
                        let (display, level) = match style {
                            Style::Display => ("true", "0"),
                            Style::Text => ("false", "0"),
                            Style::Script => ("false", "1"),
                            Style::ScriptScript => ("false", "2"),
                        };
                        run.attrs.retain(|(a, _)| {
                            !matches!(a, MathAttr::Displaystyle | MathAttr::Scriptlevel)
                        });
                        run.attrs.push((MathAttr::Displaystyle, display.into()));
                        run.attrs.push((MathAttr::Scriptlevel, level.into()));
                    }
                }
                Ok(())
            }
            Some(_) => {
                let element = self.element(depth, run.font)?;
                run.items.push(element);
                run.flush_if_plain(out);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// One element (see pulldown-latex's `Event`: a content, a group, a visual or a script
    /// with its parts).
    fn element(&mut self, depth: usize, font: Option<Font>) -> Result<MathNode, TexError> {
        if depth > MAX_TEX_DEPTH * 4 {
            return Err(TexError::TooDeep);
        }
        let element = match self.next().ok_or(TexError::Invalid)? {
            Event::Content(content) => self.content(content, font),
            Event::Begin(grouping) => self.group(grouping, depth + 1, font)?,
            Event::End => return Err(TexError::Invalid),
            Event::Visual(visual) => match visual {
                Visual::SquareRoot => {
                    let radicand = self.element(depth + 1, font)?;
                    MathElement::new(MathTag::Msqrt, vec![radicand])
                }
                Visual::Root => {
                    let radicand = self.element(depth + 1, font)?;
                    let index = self.element(depth + 1, font)?;
                    MathElement::new(MathTag::Mroot, vec![radicand, index])
                }
                Visual::Fraction(thickness) => {
                    let numerator = self.element(depth + 1, font)?;
                    let denominator = self.element(depth + 1, font)?;
                    let frac = MathElement::new(MathTag::Mfrac, vec![numerator, denominator]);
                    match thickness {
                        Some(t) => frac.attr(MathAttr::Linethickness, t.to_string()),
                        None => frac,
                    }
                }
                Visual::Negation => {
                    let mut negated = self.element(depth + 1, font)?;
                    negate(&mut negated);
                    return Ok(negated);
                }
            },
            Event::Script { ty, position } => {
                let above_below = match position {
                    ScriptPosition::Right => false,
                    ScriptPosition::AboveBelow => true,
                    ScriptPosition::Movable => self.display,
                };
                let base = self.element(depth + 1, font)?;
                let first = self.element(depth + 1, font)?;
                let (tag, parts) = match (ty, above_below) {
                    (ScriptType::Subscript, false) => (MathTag::Msub, vec![base, first]),
                    (ScriptType::Superscript, false) => (MathTag::Msup, vec![base, first]),
                    (ScriptType::Subscript, true) => (MathTag::Munder, vec![base, first]),
                    (ScriptType::Superscript, true) => (MathTag::Mover, vec![base, first]),
                    (ScriptType::SubSuperscript, above_below) => {
                        let second = self.element(depth + 1, font)?;
                        let tag = if above_below {
                            MathTag::Munderover
                        } else {
                            MathTag::Msubsup
                        };
                        (tag, vec![base, first, second])
                    }
                };
                MathElement::new(tag, parts)
            }
            Event::Space { width, .. } => {
                let space = MathElement::new(MathTag::Mspace, Vec::new());
                match width {
                    Some(w) => space.attr(MathAttr::Width, w.to_string()),
                    None => space,
                }
            }
            // Where an element is expected these mean nothing of their own.
            Event::StateChange(_) | Event::EnvironmentFlow(_) => {
                MathElement::new(MathTag::Mrow, Vec::new())
            }
        };
        self.node(element)
    }

    fn content(&mut self, content: Content<'_>, font: Option<Font>) -> MathElement {
        match content {
            Content::Text(text) => self.leaf(MathTag::Mtext, text.to_owned()),
            Content::Number(number) => {
                let digits = font.map_or(Font::UpRight, |f| match f {
                    Font::BoldSymbol | Font::BoldItalic => Font::Bold,
                    f => f,
                });
                self.leaf(
                    MathTag::Mn,
                    number.chars().map(|c| styled(c, digits)).collect(),
                )
            }
            Content::Function(name) => {
                let mi = self.leaf(MathTag::Mi, name.to_owned());
                if name.chars().count() == 1 {
                    mi.attr(MathAttr::Mathvariant, "normal")
                } else {
                    mi
                }
            }
            Content::Ordinary { content, stretchy } => {
                if stretchy {
                    self.leaf(MathTag::Mo, content.to_string())
                        .attr(MathAttr::Stretchy, "true")
                } else {
                    let mi = self.leaf(
                        MathTag::Mi,
                        font.map_or(content, |f| styled(content, f)).to_string(),
                    );
                    if font == Some(Font::UpRight) {
                        mi.attr(MathAttr::Mathvariant, "normal")
                    } else {
                        mi
                    }
                }
            }
            Content::LargeOp { content, small } => {
                let mo = self.leaf(MathTag::Mo, content.to_string());
                if small {
                    mo.attr(MathAttr::Largeop, "false")
                } else {
                    mo.attr(MathAttr::Largeop, "true")
                        .attr(MathAttr::Movablelimits, "true")
                }
            }
            Content::BinaryOp { content, .. } => self.leaf(MathTag::Mo, content.to_string()),
            Content::Relation { content, .. } => {
                let mut buf = [0u8; 8];
                let text =
                    String::from_utf8_lossy(content.encode_utf8_to_buf(&mut buf)).into_owned();
                self.leaf(MathTag::Mo, text)
            }
            Content::Delimiter { content, size, .. } => {
                let mo = self.leaf(MathTag::Mo, content.to_string()).attr(
                    MathAttr::Stretchy,
                    if size.is_some() { "true" } else { "false" },
                );
                match size {
                    Some(size) => {
                        let em = match size {
                            DelimiterSize::Big => "1.2em",
                            DelimiterSize::BIG => "1.8em",
                            DelimiterSize::Bigg => "2.4em",
                            DelimiterSize::BIGG => "3em",
                        };
                        mo.attr(MathAttr::Minsize, em).attr(MathAttr::Maxsize, em)
                    }
                    None => mo,
                }
            }
            Content::Punctuation(c) => self.leaf(MathTag::Mo, c.to_string()),
        }
    }

    /// A group up to its `End`: a row, or a table for the environments with cells and lines.
    fn group(
        &mut self,
        grouping: Grouping,
        depth: usize,
        font: Option<Font>,
    ) -> Result<MathElement, TexError> {
        if let Grouping::Normal | Grouping::LeftRight(..) = grouping {
            let mut children = Vec::new();
            let mut run = Run {
                font,
                ..Run::default()
            };
            loop {
                match self.events.get(self.at) {
                    None => return Err(TexError::Invalid),
                    Some(Event::End) => {
                        self.at += 1;
                        break;
                    }
                    // A stray alignment outside an environment: nothing to show.
                    Some(Event::EnvironmentFlow(_)) => self.at += 1,
                    Some(_) => self.sequence_item(depth, &mut run, &mut children)?,
                }
            }
            run.flush(&mut children);
            if let Grouping::LeftRight(open, close) = grouping {
                let fence = |c: Option<char>| {
                    c.map(|c| {
                        MathNode::from(
                            MathElement::new(MathTag::Mo, vec![MathNode::Text(c.to_string())])
                                .attr(MathAttr::Stretchy, "true"),
                        )
                    })
                };
                let mut row: Vec<MathNode> = fence(open).into_iter().collect();
                row.extend(children);
                row.extend(fence(close));
                return Ok(MathElement::new(MathTag::Mrow, row));
            }
            return Ok(MathElement::new(MathTag::Mrow, children));
        }
        // An environment: cells split by `&`, rows by `\\`.
        let columns: Vec<Option<&'static str>> = match &grouping {
            Grouping::Array(cols) => cols
                .iter()
                .filter_map(|c| match c {
                    ArrayColumn::Column(a) => Some(Some(align_class(*a))),
                    ArrayColumn::Separator(_) => None,
                })
                .collect(),
            Grouping::Matrix { alignment } | Grouping::SubArray { alignment } => {
                vec![Some(align_class(*alignment))]
            }
            g if aligned(g) => vec![Some("agui-math-r"), Some("agui-math-l")],
            Grouping::Cases { .. } => vec![Some("agui-math-l"), Some("agui-math-l")],
            _ => Vec::new(),
        };
        let class_of = |col: usize| -> Option<&'static str> {
            if aligned(&grouping) {
                // Aligned environments alternate right and left.
                columns.get(col % 2).copied().flatten()
            } else {
                columns.get(col).or(columns.last()).copied().flatten()
            }
        };
        let mut rows: Vec<MathNode> = Vec::new();
        let mut cells: Vec<MathNode> = Vec::new();
        let mut cell: Vec<MathNode> = Vec::new();
        let mut run = Run::default();
        let finish_cell = |cells: &mut Vec<MathNode>, cell: &mut Vec<MathNode>, run: &mut Run| {
            run.flush(cell);
            *run = Run::default();
            let row = MathElement::new(MathTag::Mrow, std::mem::take(cell));
            let mut mtd = MathElement::new(MathTag::Mtd, vec![row.into()]);
            if let Some(class) = class_of(cells.len()) {
                mtd = mtd.attr(MathAttr::Class, class);
            }
            cells.push(mtd.into());
        };
        loop {
            match self.events.get(self.at) {
                None => return Err(TexError::Invalid),
                Some(Event::End) => {
                    self.at += 1;
                    break;
                }
                Some(Event::EnvironmentFlow(flow)) => {
                    let new_row = matches!(flow, EnvironmentFlow::NewLine { .. });
                    let cell_break = matches!(flow, EnvironmentFlow::Alignment);
                    self.at += 1;
                    if cell_break || new_row {
                        finish_cell(&mut cells, &mut cell, &mut run);
                    }
                    if new_row {
                        rows.push(
                            self.node(MathElement::new(MathTag::Mtr, std::mem::take(&mut cells)))?,
                        );
                    }
                }
                Some(_) => self.sequence_item(depth, &mut run, &mut cell)?,
            }
        }
        if !cell.is_empty() || !run.items.is_empty() || !cells.is_empty() {
            finish_cell(&mut cells, &mut cell, &mut run);
        }
        if !cells.is_empty() {
            rows.push(self.node(MathElement::new(MathTag::Mtr, cells))?);
        }
        let mut table = MathElement::new(MathTag::Mtable, rows);
        if aligned(&grouping)
            || matches!(
                grouping,
                Grouping::Gather { .. }
                    | Grouping::Gathered
                    | Grouping::Equation { .. }
                    | Grouping::Multline
                    | Grouping::Cases { .. }
            )
        {
            table = table.attr(MathAttr::Displaystyle, "true");
        }
        Ok(match grouping {
            Grouping::Cases { left } => {
                let brace = self.leaf(MathTag::Mo, if left { "{" } else { "}" }.into());
                let brace: MathNode = brace.into();
                let parts = if left {
                    vec![brace, table.into()]
                } else {
                    vec![table.into(), brace]
                };
                MathElement::new(MathTag::Mrow, parts)
            }
            _ => table,
        })
    }
}

impl Run {
    /// Without attributes the run's elements go straight into the sequence.
    fn flush_if_plain(&mut self, out: &mut Vec<MathNode>) {
        if self.attrs.is_empty() {
            out.append(&mut self.items);
        }
    }
}

/// The environments whose columns alternate right and left (`align`, `aligned`, `split`…).
fn aligned(grouping: &Grouping) -> bool {
    matches!(
        grouping,
        Grouping::Align { .. }
            | Grouping::Aligned
            | Grouping::Alignat { .. }
            | Grouping::Alignedat { .. }
            | Grouping::Split
    )
}

fn align_class(alignment: ColumnAlignment) -> &'static str {
    match alignment {
        ColumnAlignment::Left => "agui-math-l",
        ColumnAlignment::Center => "agui-math-c",
        ColumnAlignment::Right => "agui-math-r",
    }
}

/// `\not`: a combining long solidus over the element's last character.
fn negate(node: &mut MathNode) {
    if let MathNode::Element(e) = node {
        match e.children.last_mut() {
            Some(MathNode::Text(t)) => t.push('\u{0338}'),
            Some(child @ MathNode::Element(_)) => negate(child),
            None => {}
        }
    }
}

/// `c` in the mathematical alphanumeric style of `font` (Unicode's Mathematical Alphanumeric
/// Symbols, with the letters that live in Letterlike Symbols); characters a style has no
/// form for stay as they are.
fn styled(c: char, font: Font) -> char {
    // (capital A, small a, digit 0) of each style; 0 where the style has no such letters.
    let (upper, lower, digit) = match font {
        Font::Bold | Font::BoldSymbol => (0x1D400, 0x1D41A, 0x1D7CE),
        Font::Italic => (0x1D434, 0x1D44E, 0),
        Font::BoldItalic => (0x1D468, 0x1D482, 0x1D7CE),
        Font::Script => (0x1D49C, 0x1D4B6, 0),
        Font::BoldScript => (0x1D4D0, 0x1D4EA, 0x1D7CE),
        Font::Fraktur => (0x1D504, 0x1D51E, 0),
        Font::DoubleStruck => (0x1D538, 0x1D552, 0x1D7D8),
        Font::BoldFraktur => (0x1D56C, 0x1D586, 0x1D7CE),
        Font::SansSerif => (0x1D5A0, 0x1D5BA, 0x1D7E2),
        Font::BoldSansSerif => (0x1D5D4, 0x1D5EE, 0x1D7EC),
        Font::SansSerifItalic => (0x1D608, 0x1D622, 0x1D7E2),
        Font::SansSerifBoldItalic => (0x1D63C, 0x1D656, 0x1D7EC),
        Font::Monospace => (0x1D670, 0x1D68A, 0x1D7F6),
        Font::UpRight | Font::DoubleStruckItalic => return c,
    };
    // The holes of the block: these letters were encoded earlier, in Letterlike Symbols.
    let hole = match (font, c) {
        (Font::Italic, 'h') => Some('\u{210E}'),
        (Font::Script, 'B') => Some('\u{212C}'),
        (Font::Script, 'E') => Some('\u{2130}'),
        (Font::Script, 'F') => Some('\u{2131}'),
        (Font::Script, 'H') => Some('\u{210B}'),
        (Font::Script, 'I') => Some('\u{2110}'),
        (Font::Script, 'L') => Some('\u{2112}'),
        (Font::Script, 'M') => Some('\u{2133}'),
        (Font::Script, 'R') => Some('\u{211B}'),
        (Font::Script, 'e') => Some('\u{212F}'),
        (Font::Script, 'g') => Some('\u{210A}'),
        (Font::Script, 'o') => Some('\u{2134}'),
        (Font::Fraktur, 'C') => Some('\u{212D}'),
        (Font::Fraktur, 'H') => Some('\u{210C}'),
        (Font::Fraktur, 'I') => Some('\u{2111}'),
        (Font::Fraktur, 'R') => Some('\u{211C}'),
        (Font::Fraktur, 'Z') => Some('\u{2128}'),
        (Font::DoubleStruck, 'C') => Some('\u{2102}'),
        (Font::DoubleStruck, 'H') => Some('\u{210D}'),
        (Font::DoubleStruck, 'N') => Some('\u{2115}'),
        (Font::DoubleStruck, 'P') => Some('\u{2119}'),
        (Font::DoubleStruck, 'Q') => Some('\u{211A}'),
        (Font::DoubleStruck, 'R') => Some('\u{211D}'),
        (Font::DoubleStruck, 'Z') => Some('\u{2124}'),
        _ => None,
    };
    if let Some(h) = hole {
        return h;
    }
    let code = match c {
        'A'..='Z' if upper != 0 => upper + (c as u32 - 'A' as u32),
        'a'..='z' if lower != 0 => lower + (c as u32 - 'a' as u32),
        '0'..='9' if digit != 0 => digit + (c as u32 - '0' as u32),
        _ => return c,
    };
    char::from_u32(code).unwrap_or(c)
}
