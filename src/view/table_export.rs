//! A Markdown table taken away: as Markdown text again, or as CSV (RFC 4180) — what the
//! table toolbar copies and downloads. Pure functions of the Markdown tree
//! ([`crate::markdown::Block::Table`]).
//!
//! A cell is its plain text ([`plain_text`]): a link is its text, code its code, an image its
//! alt text, a line break a space. Rows shorter than the widest row (or the header) are padded
//! with empty cells, so every record has as many fields as the table has columns.

use crate::markdown::{plain_text, Align, Block, Inline};

/// A table of the Markdown tree, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct TableRef<'a> {
    pub align: &'a [Align],
    pub header: &'a [Vec<Inline>],
    pub rows: &'a [Vec<Vec<Inline>>],
}

impl<'a> TableRef<'a> {
    /// The table `block` is; `None` for any other block.
    pub fn of(block: &'a Block) -> Option<Self> {
        match block {
            Block::Table {
                align,
                header,
                rows,
            } => Some(TableRef {
                align,
                header,
                rows,
            }),
            _ => None,
        }
    }

    /// How many columns: the widest of the header and the rows.
    pub fn columns(&self) -> usize {
        self.rows
            .iter()
            .map(Vec::len)
            .fold(self.header.len(), usize::max)
    }

    /// Every row, header first, as the plain text of `columns()` cells.
    fn records(&self) -> impl Iterator<Item = Vec<String>> + '_ {
        let n = self.columns();
        std::iter::once(self.header)
            .chain(self.rows.iter().map(Vec::as_slice))
            .map(move |row| {
                (0..n)
                    .map(|i| row.get(i).map(|c| plain_text(c)).unwrap_or_default())
                    .collect()
            })
    }

    /// The table as GFM Markdown: a header row, the alignment row (`---`, `:---`, `:---:`,
    /// `---:`), then the rows; `|` in a cell is escaped (`\|`), every line ends with `\n`.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let mut records = self.records();
        if let Some(header) = records.next() {
            markdown_row(&mut out, &header);
        }
        out.push('|');
        for i in 0..self.columns() {
            out.push_str(match self.align.get(i) {
                Some(Align::Left) => " :--- |",
                Some(Align::Center) => " :---: |",
                Some(Align::Right) => " ---: |",
                Some(Align::None) | None => " --- |",
            });
        }
        out.push('\n');
        for row in records {
            markdown_row(&mut out, &row);
        }
        out
    }

    /// The table as CSV (RFC 4180): the header, then the rows, each record ending with CRLF;
    /// a field with a comma, a quote, CR or LF is quoted, its quotes doubled. A cell a
    /// spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or CR) is
    /// prefixed with `'` (OWASP's advice on CSV injection), so it opens as text.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        for record in self.records() {
            for (i, field) in record.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                csv_field(&mut out, field);
            }
            out.push_str("\r\n");
        }
        out
    }
}

fn markdown_row(out: &mut String, cells: &[String]) {
    out.push('|');
    for cell in cells {
        out.push(' ');
        for c in cell.chars() {
            match c {
                '|' => out.push_str("\\|"),
                // A cell is one line of the table.
                '\n' | '\r' => out.push(' '),
                c => out.push(c),
            }
        }
        out.push_str(" |");
    }
    out.push('\n');
}

fn csv_field(out: &mut String, field: &str) {
    let formula = field.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quoted = field.contains([',', '"', '\r', '\n']);
    if quoted {
        out.push('"');
    }
    if formula {
        out.push('\'');
    }
    for c in field.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    if quoted {
        out.push('"');
    }
}
