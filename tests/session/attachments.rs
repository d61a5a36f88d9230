//! Attachments (issue 13, item 1), natively: what the composer accepts (`accept` tokens, size
//! and count limits read from page attributes), every refusal, `unbase64` (line-wrapped base64), the
//! wire shape of a user message with parts (spec digest §3), what a saved thread keeps of
//! inlined files, and the chip a message shows for each part.

use agui_leptos::base64::encode;
use agui_leptos::protocol::input::{history_for_request, prepare_request};
use agui_leptos::protocol::types::{
    Content, ContentPart, MediaPart, Message, PartSource, Role, RunAgentInput,
};
use agui_leptos::view::attachments::*;
use serde_json::{json, Value};

fn limits(accept: &str) -> Limits {
    Limits {
        accept: Limits::parse_accept(accept).expect("usable tokens"),
        ..Limits::default()
    }
}

fn pending(name: &str, mime: &str, size: u64) -> Pending {
    Pending::new(name, mime, size)
}

fn url(value: &str, mime: Option<&str>) -> PartSource {
    PartSource::Url {
        value: value.into(),
        mime_type: mime.map(str::to_owned),
    }
}

// ---- accept ---------------------------------------------------------------------------------

#[test]
fn accept_matching_table() {
    // (accept attribute, file name, mime, accepted)
    let table: &[(&str, &str, &str, bool)] = &[
        ("image/*", "a.png", "image/png", true),
        ("image/*", "a.png", "IMAGE/PNG", true),
        ("image/*", "a.mp3", "audio/mpeg", false),
        ("image/*", "image", "", false),
        ("IMAGE/*", "a.gif", "image/gif", true),
        ("image/png", "a.png", "image/png", true),
        ("image/png", "a.jpg", "image/jpeg", false),
        ("text/plain", "a.txt", "text/plain; charset=utf-8", true),
        ("text/plain", "a.txt", "text/plainx", false),
        (".pdf", "Report.PDF", "", true),
        (".pdf", "report.pdf", "application/octet-stream", true),
        (".pdf", "pdf", "", false),
        (".pdf", ".pdf", "", false),
        (".pdf", "report.pdf.exe", "", false),
        (".PDF", "r.pdf", "", true),
        ("*", "x.bin", "application/x-whatever", true),
        ("*/*", "x", "", true),
        (
            " image/* , .pdf ,application/json",
            "d.json",
            "application/json",
            true,
        ),
        (" image/* , .pdf ,application/json", "d.pdf", "", true),
        (
            " image/* , .pdf ,application/json",
            "d.csv",
            "text/csv",
            false,
        ),
        // Garbage tokens are skipped; the usable ones still count.
        (
            "garbage, /x, x/, ., */png, image/*",
            "a.png",
            "image/png",
            true,
        ),
        (
            "garbage, /x, x/, ., */png, image/*",
            "a.pdf",
            "application/pdf",
            false,
        ),
        ("image/*", "a", "image", false),
    ];
    for (accept, name, mime, want) in table {
        assert_eq!(
            limits(accept).accepts(name, mime),
            *want,
            "accept={accept:?} name={name:?} mime={mime:?}"
        );
    }
}

#[test]
fn parse_accept_normalises_and_refuses_garbage() {
    assert_eq!(
        Limits::parse_accept(" Image/* ,.PDF,,application/json "),
        Some(vec![
            "image/*".into(),
            ".pdf".into(),
            "application/json".into()
        ])
    );
    for garbage in [
        "",
        " , ",
        "garbage",
        "/",
        "a/b/c",
        "*/png",
        ".",
        "image/ png",
        "<script>",
    ] {
        assert_eq!(Limits::parse_accept(garbage), None, "{garbage:?}");
    }
    let many = vec!["image/png"; 500].join(",");
    assert_eq!(Limits::parse_accept(&many).map(|v| v.len()), Some(64));
    let long = format!("image/{}", "x".repeat(200));
    assert_eq!(Limits::parse_accept(&long), None);
}

#[test]
fn default_limits() {
    let d = Limits::default();
    assert_eq!(d.max_file_bytes, 10 * 1024 * 1024);
    assert_eq!(d.max_message_bytes, 20 * 1024 * 1024);
    assert_eq!(d.max_files, 10);
    for (name, mime) in [
        ("a.png", "image/png"),
        ("a.ogg", "audio/ogg"),
        ("a.mp4", "video/mp4"),
        ("a.pdf", "application/pdf"),
        ("a.txt", "text/plain"),
        ("a.md", "text/markdown"),
        ("a.csv", "text/csv"),
        ("a.json", "application/json"),
    ] {
        assert!(d.accepts(name, mime), "{name}");
    }
    assert!(!d.accepts("a.exe", "application/x-msdownload"));
    assert!(!d.accepts("a.zip", "application/zip"));
}

// ---- limits from attributes -----------------------------------------------------------------

#[test]
fn byte_sizes_from_attributes() {
    let ok: &[(&str, u64)] = &[
        ("1", 1),
        ("  500  ", 500),
        ("500b", 500),
        ("500KB", 500 * 1024),
        ("500 kb", 500 * 1024),
        ("2k", 2048),
        ("3KiB", 3 * 1024),
        ("10MB", 10 * 1024 * 1024),
        ("10 mib", 10 * 1024 * 1024),
        ("1m", 1024 * 1024),
        ("1000MB", HARD_MAX_BYTES),
        ("99999999999999", HARD_MAX_BYTES),
    ];
    for (attr, want) in ok {
        assert_eq!(parse_bytes(attr), Some(*want), "{attr:?}");
    }
    for bad in [
        "",
        "0",
        "0MB",
        "-1",
        "+5",
        "1.5MB",
        "MB",
        "10 GB",
        "10 MBs",
        "ten",
        "1e6",
        "0x10",
        "99999999999999999999999",
        "18446744073709551615MB",
    ] {
        assert_eq!(parse_bytes(bad), None, "{bad:?}");
    }
}

#[test]
fn file_counts_from_attributes() {
    assert_eq!(parse_count("3"), Some(3));
    assert_eq!(parse_count(" 12 "), Some(12));
    assert_eq!(parse_count("100000"), Some(HARD_MAX_FILES));
    for bad in [
        "",
        "0",
        "-2",
        "2.5",
        "two",
        "3 files",
        "99999999999999999999999",
    ] {
        assert_eq!(parse_count(bad), None, "{bad:?}");
    }
}

#[test]
fn limits_from_attributes_keep_defaults_for_garbage() {
    let d = Limits::default();
    assert_eq!(Limits::from_attributes(None, None, None, None), d);
    assert_eq!(
        Limits::from_attributes(Some("nope"), Some("big"), Some("-1"), Some("many")),
        d
    );
    let l = Limits::from_attributes(Some(".pdf"), Some("2MB"), Some("3MB"), Some("4"));
    assert_eq!(l.accept, vec![".pdf".to_owned()]);
    assert_eq!(
        (l.max_file_bytes, l.max_message_bytes, l.max_files),
        (2 * 1024 * 1024, 3 * 1024 * 1024, 4)
    );
    // Only the file limit raised above the message default: the message limit follows.
    let l = Limits::from_attributes(None, Some("50MB"), None, None);
    assert_eq!(l.max_message_bytes, 50 * 1024 * 1024);
    let l = Limits::from_attributes(None, Some("1MB"), None, None);
    assert_eq!(l.max_message_bytes, d.max_message_bytes);
}

// ---- pending files, kinds, refusals -----------------------------------------------------------

#[test]
fn kinds_by_mime() {
    assert_eq!(kind("image/png"), Kind::Image);
    assert_eq!(kind("IMAGE/SVG+XML"), Kind::Image);
    assert_eq!(kind("audio/mpeg"), Kind::Audio);
    assert_eq!(kind("video/webm; codecs=vp9"), Kind::Video);
    for doc in [
        "application/pdf",
        "text/plain",
        "application/json",
        "",
        "image",
        "imagex/png",
    ] {
        assert_eq!(kind(doc), Kind::Document, "{doc:?}");
    }
    assert_eq!(
        [Kind::Image, Kind::Audio, Kind::Video, Kind::Document].map(Kind::as_str),
        ["image", "audio", "video", "document"]
    );
}

#[test]
fn pending_normalises_and_guesses_the_mime() {
    assert_eq!(pending("a.png", "Image/PNG", 3).mime, "image/png");
    assert_eq!(
        pending("a.txt", "text/plain;charset=UTF-8", 3).mime,
        "text/plain"
    );
    assert_eq!(pending("notes.MD", "", 3).mime, "text/markdown");
    assert_eq!(pending("t.csv", "", 3).mime, "text/csv");
    assert_eq!(pending("blob", "", 3).mime, "application/octet-stream");
    assert_eq!(pending("a.png", "image/png", 3).kind(), Kind::Image);
    // A guessed type is accepted like a given one.
    let p = pending("notes.md", "", 10);
    assert_eq!(check(&Limits::default(), &[], &p), Ok(()));
}

#[test]
fn every_refusal() {
    let l = Limits {
        accept: vec!["image/*".into()],
        max_file_bytes: 100,
        max_message_bytes: 250,
        max_files: 3,
    };
    let ok = pending("a.png", "image/png", 100);
    assert_eq!(check(&l, &[], &ok), Ok(()));
    assert_eq!(
        check(&l, &[], &pending("x.exe", "application/x-msdownload", 5)),
        Err(AttachError::NotAccepted {
            name: "x.exe".into(),
            mime: "application/x-msdownload".into()
        })
    );
    assert_eq!(
        check(&l, &[], &pending("e.png", "image/png", 0)),
        Err(AttachError::Empty {
            name: "e.png".into()
        })
    );
    assert_eq!(
        check(&l, &[], &pending("big.png", "image/png", 101)),
        Err(AttachError::FileTooLarge {
            name: "big.png".into(),
            size: 101,
            max: 100
        })
    );
    let two = [
        pending("1.png", "image/png", 100),
        pending("2.png", "image/png", 100),
    ];
    assert_eq!(
        check(&l, &two, &pending("3.png", "image/png", 51)),
        Err(AttachError::MessageTooLarge {
            total: 251,
            max: 250
        })
    );
    assert_eq!(check(&l, &two, &pending("3.png", "image/png", 50)), Ok(()));
    let three = [
        pending("1.png", "image/png", 1),
        pending("2.png", "image/png", 1),
        pending("3.png", "image/png", 1),
    ];
    assert_eq!(
        check(&l, &three, &pending("4.png", "image/png", 1)),
        Err(AttachError::TooMany { max: 3 })
    );
    // Totals never overflow.
    let huge = Limits {
        max_file_bytes: u64::MAX,
        max_message_bytes: u64::MAX - 1,
        ..l.clone()
    };
    assert_eq!(
        check(
            &huge,
            &[pending("1.png", "image/png", u64::MAX)],
            &pending("2.png", "image/png", u64::MAX)
        ),
        Err(AttachError::MessageTooLarge {
            total: u64::MAX,
            max: u64::MAX - 1
        })
    );
    // English for logs.
    assert_eq!(
        AttachError::TooMany { max: 3 }.to_string(),
        "at most 3 files per message"
    );
}

// ---- parts and the user message on the wire --------------------------------------------------

#[test]
fn parts_carry_the_file_name_in_metadata() {
    let p = part(
        Kind::Image,
        data_source("image/png", b"png"),
        Some("cat.png"),
    );
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"type": "image", "source": {"type": "data", "value": "cG5n", "mimeType": "image/png"},
               "metadata": {"filename": "cat.png"}})
    );
    let p = part(Kind::Document, url("https://x.test/a.pdf", None), None);
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"type": "document", "source": {"type": "url", "value": "https://x.test/a.pdf"}})
    );
    let p = part(
        Kind::Audio,
        url("https://x.test/a.mp3", Some("audio/mpeg")),
        Some("  "),
    );
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"type": "audio", "source": {"type": "url", "value": "https://x.test/a.mp3", "mimeType": "audio/mpeg"}})
    );
    let p = pending("clip.webm", "video/webm", 2).part(&[1, 2]);
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"type": "video", "source": {"type": "data", "value": "AQI=", "mimeType": "video/webm"},
               "metadata": {"filename": "clip.webm"}})
    );
}

#[test]
fn user_message_without_parts_is_the_plain_message() {
    let m = user_message("m1".into(), "hello", Vec::new());
    assert_eq!(m, Message::user("m1", "hello"));
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"id": "m1", "role": "user", "content": "hello"})
    );
}

#[test]
fn user_message_with_parts_puts_the_text_first() {
    let img = part(Kind::Image, data_source("image/png", b"abc"), Some("a.png"));
    let doc = part(
        Kind::Document,
        url("https://x.test/d.pdf", Some("application/pdf")),
        None,
    );
    let m = user_message("m1".into(), "look", vec![img.clone(), doc.clone()]);
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"id": "m1", "role": "user", "content": [
            {"type": "text", "text": "look"},
            {"type": "image", "source": {"type": "data", "value": "YWJj", "mimeType": "image/png"},
             "metadata": {"filename": "a.png"}},
            {"type": "document", "source": {"type": "url", "value": "https://x.test/d.pdf", "mimeType": "application/pdf"}}
        ]})
    );
    assert_eq!(m.text(), "look");
    // Blank text: only the media parts.
    for blank in ["", "  \n"] {
        let m = user_message("m2".into(), blank, vec![img.clone()]);
        assert_eq!(
            m.content,
            Some(Content::Parts(vec![img.clone()])),
            "{blank:?}"
        );
    }
}

fn input(messages: Vec<Message>) -> RunAgentInput {
    RunAgentInput {
        thread_id: "t".into(),
        run_id: "r".into(),
        parent_run_id: None,
        state: None,
        messages,
        tools: None,
        context: None,
        forwarded_props: None,
        resume: None,
        protocol_version: None,
    }
}

#[test]
fn a_user_message_with_parts_round_trips_through_the_request() {
    let img = part(Kind::Image, data_source("image/png", b"abc"), Some("a.png"));
    let doc = part(
        Kind::Document,
        url("https://x.test/d.pdf", None),
        Some("d.pdf"),
    );
    let m = user_message("m1".into(), "look", vec![img, doc]);
    let (body, warnings) =
        prepare_request(&input(history_for_request(std::slice::from_ref(&m))), None)
            .expect("a valid request");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(body["messages"][0], serde_json::to_value(&m).unwrap());
    let back: Message = serde_json::from_value(body["messages"][0].clone()).unwrap();
    assert_eq!(back, m);
}

// ---- saving ---------------------------------------------------------------------------------

fn media_of(m: &Message, i: usize) -> &MediaPart {
    match &m.content {
        Some(Content::Parts(parts)) => match &parts[i] {
            ContentPart::Image(p)
            | ContentPart::Audio(p)
            | ContentPart::Video(p)
            | ContentPart::Document(p) => p,
            other => panic!("not media: {other:?}"),
        },
        other => panic!("no parts: {other:?}"),
    }
}

#[test]
fn shrink_for_storage_drops_only_big_inlined_data() {
    let small = part(
        Kind::Image,
        data_source("image/png", &[7; 30]),
        Some("s.png"),
    );
    let big = part(
        Kind::Image,
        data_source("image/png", &[7; 300]),
        Some("b.png"),
    );
    let link = part(Kind::Video, url("https://x.test/v.mp4", None), None);
    let file = part(
        Kind::Document,
        PartSource::File {
            value: "file-123".repeat(100),
            provider: Some("openai".into()),
            mime_type: None,
        },
        None,
    );
    let mut messages = vec![
        Message::user("u0", "x".repeat(1000)),
        user_message(
            "u1".into(),
            "see",
            vec![small.clone(), big, link.clone(), file.clone()],
        ),
    ];
    let before_text = messages[0].clone();
    assert!(needs_shrinking(&messages, 100));
    assert_eq!(shrink_for_storage(&mut messages, 100), 1);
    assert_eq!(messages[0], before_text, "text untouched");
    let Some(Content::Parts(parts)) = &messages[1].content else {
        panic!("parts")
    };
    assert_eq!(
        parts[0],
        ContentPart::Text {
            text: "see".into(),
            id: None,
            metadata: None
        }
    );
    assert_eq!(parts[1], small, "small data kept");
    assert_eq!(parts[3], link, "url untouched");
    assert_eq!(parts[4], file, "file untouched");
    assert_eq!(
        serde_json::to_value(&parts[2]).unwrap(),
        json!({"type": "image", "source": {"type": "data", "value": "", "mimeType": "image/png"},
               "metadata": {"filename": "b.png", "dropped": true, "size": 300}})
    );
    // Idempotent.
    let once = messages.clone();
    assert!(!needs_shrinking(&messages, 100));
    assert_eq!(shrink_for_storage(&mut messages, 100), 0);
    assert_eq!(messages, once);
    // Reloads cleanly.
    let text = serde_json::to_string(&messages).unwrap();
    let back: Vec<Message> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, messages);
    // The next request leaves the empty part out (it carries no bytes), keeps the rest.
    let sent = history_for_request(&messages);
    let Some(Content::Parts(sent_parts)) = &sent[1].content else {
        panic!("parts")
    };
    assert_eq!(sent_parts.len(), 4);
    assert!(sent_parts
        .iter()
        .all(|p| !describe(p).is_some_and(|c| c.dropped)));
    assert!(prepare_request(&input(sent), None).is_ok());
}

#[test]
fn shrink_for_storage_replaces_metadata_that_is_not_an_object_and_spans_roles() {
    let mut tool = Message::new("t1", Role::Tool);
    tool.tool_call_id = Some("c1".into());
    tool.content = Some(Content::Parts(vec![ContentPart::Audio(MediaPart {
        source: data_source("audio/wav", &[1; 99]),
        id: Some("p1".into()),
        metadata: Some(json!("agent's own")),
    })]));
    let mut messages = vec![tool];
    assert_eq!(shrink_for_storage(&mut messages, 10), 1);
    let m = media_of(&messages[0], 0);
    assert_eq!(m.id.as_deref(), Some("p1"));
    assert_eq!(m.metadata, Some(json!({"dropped": true, "size": 99})));
    // A budget equal to the value's length keeps it.
    let mut keep = vec![user_message(
        "u".into(),
        "",
        vec![part(Kind::Image, data_source("image/png", b"abc"), None)],
    )];
    assert_eq!(shrink_for_storage(&mut keep, 4), 0);
    assert_eq!(shrink_for_storage(&mut keep, 3), 1);
    // Every part of a message left out of a request: empty text content, still valid.
    let sent = history_for_request(&keep);
    assert_eq!(sent[0].content, Some(Content::Text(String::new())));
}

// ---- chips ----------------------------------------------------------------------------------

#[test]
fn describe_media_parts() {
    assert_eq!(
        describe(&ContentPart::Text {
            text: "hi".into(),
            id: None,
            metadata: None
        }),
        None
    );
    let inline = pending("cat.png", "image/png", 5).part(b"hello");
    assert_eq!(
        describe(&inline),
        Some(Chip {
            kind: Kind::Image,
            name: Some("cat.png".into()),
            mime: Some("image/png".into()),
            size: Some(5),
            url: None,
            dropped: false
        })
    );
    let link = part(
        Kind::Audio,
        url("https://x.test/a.mp3", Some("audio/mpeg")),
        None,
    );
    assert_eq!(
        describe(&link),
        Some(Chip {
            kind: Kind::Audio,
            name: None,
            mime: Some("audio/mpeg".into()),
            size: None,
            url: Some("https://x.test/a.mp3".into()),
            dropped: false
        })
    );
    let mut dropped = vec![user_message(
        "u".into(),
        "",
        vec![pending("r.pdf", "application/pdf", 1000).part(&[0; 1000])],
    )];
    shrink_for_storage(&mut dropped, 10);
    let Some(Content::Parts(parts)) = &dropped[0].content else {
        panic!("parts")
    };
    assert_eq!(
        describe(&parts[0]),
        Some(Chip {
            kind: Kind::Document,
            name: Some("r.pdf".into()),
            mime: Some("application/pdf".into()),
            size: Some(1000),
            url: None,
            dropped: true
        })
    );
    let handle = ContentPart::Video(MediaPart {
        source: PartSource::File {
            value: "file-1".into(),
            provider: None,
            mime_type: Some("video/mp4".into()),
        },
        id: None,
        metadata: Some(json!({"filename": 7, "size": 12})),
    });
    assert_eq!(
        describe(&handle),
        Some(Chip {
            kind: Kind::Video,
            name: None,
            mime: Some("video/mp4".into()),
            size: Some(12),
            url: None,
            dropped: false
        })
    );
    // An agent's empty data part without our marker is not "dropped".
    let empty = ContentPart::Image(MediaPart {
        source: PartSource::Data {
            value: String::new(),
            mime_type: "image/png".into(),
        },
        id: None,
        metadata: None,
    });
    assert_eq!(
        describe(&empty).map(|c| (c.dropped, c.size)),
        Some((false, Some(0)))
    );
}

#[test]
fn describe_never_panics_on_odd_metadata() {
    for meta in [
        json!(null),
        json!([]),
        json!("x"),
        json!({"dropped": "yes", "size": -1}),
    ] {
        let p = ContentPart::Document(MediaPart {
            source: PartSource::Data {
                value: String::new(),
                mime_type: "text/plain".into(),
            },
            id: None,
            metadata: Some(meta.clone()),
        });
        let chip = describe(&p).expect("a chip");
        assert!(!chip.dropped, "{meta}");
        assert_eq!(chip.name, None);
        let _: Value = serde_json::to_value(&p).unwrap();
    }
}

#[test]
fn unbase64_reverses_base64_and_refuses_other_text() {
    for n in 0..=40usize {
        let bytes: Vec<u8> = (0..n).map(|i| (i * 37 % 256) as u8).collect();
        let text = encode(&bytes);
        assert_eq!(
            unbase64(&text).as_deref(),
            Some(bytes.as_slice()),
            "{n} bytes"
        );
        assert_eq!(
            unbase64(text.trim_end_matches('=')).as_deref(),
            Some(bytes.as_slice()),
            "unpadded"
        );
    }
    assert_eq!(unbase64("Zm9v\nYmFy").as_deref(), Some(&b"foobar"[..]));
    assert_eq!(unbase64("Zm9v*"), None);
    assert_eq!(unbase64("ü"), None);
}

#[test]
fn refusals_are_worded_by_the_catalog() {
    use agui_leptos::i18n::EN;
    use agui_leptos::wording::attach_error;
    let limits = Limits::default();
    let big = Pending::new("film.mp4", "video/mp4", 50 * 1024 * 1024);
    let e = check(&limits, &[], &big).unwrap_err();
    assert_eq!(
        attach_error(&EN, &e),
        "film.mp4 is too large (50.0 MB; at most 10.0 MB)"
    );
    let exe = Pending::new("setup.exe", "application/x-msdownload", 10);
    let e = check(&limits, &[], &exe).unwrap_err();
    assert_eq!(
        attach_error(&EN, &e),
        "setup.exe: this type of file can’t be attached"
    );
    let many: Vec<Pending> = (0..10)
        .map(|i| Pending::new(&format!("{i}.png"), "image/png", 1))
        .collect();
    let e = check(&limits, &many, &Pending::new("x.png", "image/png", 1)).unwrap_err();
    assert_eq!(attach_error(&EN, &e), "At most 10 files per message");
}
