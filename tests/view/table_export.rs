//! A Markdown table as Markdown text and as CSV (`view::table_export`): RFC 4180 quoting,
//! formula neutralisation, escaped pipes, the alignment row, ragged rows.

use agui_leptos::markdown::plain_text;
use agui_leptos::markdown::{parse, Align, Block, Inline};
use agui_leptos::view::table_export::TableRef;

fn table(md: &str) -> Block {
    parse(md)
        .into_iter()
        .find(|b| matches!(b, Block::Table { .. }))
        .expect("a table")
}

fn text(s: &str) -> Vec<Inline> {
    vec![Inline::Text(s.to_owned())]
}

#[test]
fn cells_are_their_plain_text() {
    let t = table(
        "| Name | Site |\n|---|---|\n| **Bar** _Azul_ | [the site](https://azul.example) `v2` ![logo](https://x.example/l.png) |\n",
    );
    let t = TableRef::of(&t).expect("table");
    let row = &t.rows[0];
    assert_eq!(plain_text(&row[0]), "Bar Azul");
    assert_eq!(plain_text(&row[1]), "the site v2 logo");
    assert_eq!(t.csv(), "Name,Site\r\nBar Azul,the site v2 logo\r\n");
    assert!(TableRef::of(&Block::Rule).is_none());
}

#[test]
fn markdown_keeps_the_alignment_row_and_escapes_pipes() {
    let t = table("| a | b | c | d |\n|:--|:-:|--:|---|\n| x \\| y | `p\\|q` | 3 | |\n");
    let md = TableRef::of(&t).expect("table").markdown();
    assert_eq!(
        md,
        "| a | b | c | d |\n| :--- | :---: | ---: | --- |\n| x \\| y | p\\|q | 3 |  |\n"
    );
    // What it copies parses back to a table of the same text (formatting is not kept).
    let again = table(&md);
    let again = TableRef::of(&again).expect("table");
    assert_eq!(
        again.align,
        [Align::Left, Align::Center, Align::Right, Align::None]
    );
    assert_eq!(again.csv(), TableRef::of(&t).expect("table").csv());
}

#[test]
fn csv_quotes_as_rfc_4180_says() {
    let t = Block::Table {
        align: vec![Align::None; 4],
        header: vec![
            text("plain"),
            text("a,b"),
            text("say \"hi\""),
            text("two\nlines"),
        ],
        rows: vec![vec![text("x"), text(""), text("\"\""), text("cr\rhere")]],
    };
    assert_eq!(
        TableRef::of(&t).expect("table").csv(),
        "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nx,,\"\"\"\"\"\",\"cr\rhere\"\r\n"
    );
}

#[test]
fn csv_neutralises_formulas() {
    let cells = [
        "=SUM(A1:A2)",
        "+1",
        "-2",
        "@cmd",
        "\tx",
        "\rx",
        "a=b",
        "1-2",
    ];
    let t = Block::Table {
        align: vec![],
        header: cells.iter().map(|c| text(c)).collect(),
        rows: vec![],
    };
    assert_eq!(
        TableRef::of(&t).expect("table").csv(),
        "'=SUM(A1:A2),'+1,'-2,'@cmd,'\tx,\"'\rx\",a=b,1-2\r\n"
    );
    // A formula with a comma is neutralised inside its quotes.
    let t = Block::Table {
        align: vec![],
        header: vec![text("=HYPERLINK(\"http://evil.example\",\"x\")")],
        rows: vec![],
    };
    assert_eq!(
        TableRef::of(&t).expect("table").csv(),
        "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"\r\n"
    );
}

#[test]
fn ragged_rows_are_padded_to_the_widest() {
    let t = Block::Table {
        align: vec![Align::Right],
        header: vec![text("h1"), text("h2")],
        rows: vec![vec![text("1")], vec![text("1"), text("2"), text("3")]],
    };
    let t = TableRef::of(&t).expect("table");
    assert_eq!(t.columns(), 3);
    assert_eq!(t.csv(), "h1,h2,\r\n1,,\r\n1,2,3\r\n");
    assert_eq!(
        t.markdown(),
        "| h1 | h2 |  |\n| ---: | --- | --- |\n| 1 |  |  |\n| 1 | 2 | 3 |\n"
    );
}
