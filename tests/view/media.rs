//! Media in messages (`view::media`): how a content part, or an AI SDK file part, shows — an
//! image, a player, a file to download or a chip — with the type allow-lists, the URL schemes
//! and the byte budgets; and the tool card's result keeping text and media in order.

use agui_leptos::protocol::ai_sdk::AiSdkStream;
use agui_leptos::protocol::types::{Content, ContentPart, Role};
use agui_leptos::protocol::{PipelineOptions, Thread};
use agui_leptos::view::attachments::{shrink_for_storage, user_message, Kind};
use agui_leptos::view::media::{
    blob_type, classify, classify_all, from_file_activity, parse_data_url, Media, Missing, Shown,
    Src, MAX_PART_BYTES, MAX_TOTAL_BYTES,
};
use agui_leptos::view::tool::{result_model, PartView, ResultBody, ToolStatus, ToolView};
use serde_json::{json, Value};

fn media(kind: &str, source: Value, metadata: Option<Value>) -> ContentPart {
    let mut part = json!({"type": kind, "source": source});
    if let Some(m) = metadata {
        part["metadata"] = m;
    }
    let content: Content = serde_json::from_value(json!([part])).expect("a content part");
    match content {
        Content::Parts(mut p) => p.remove(0),
        other => panic!("not parts: {other:?}"),
    }
}

fn data(mime: &str, b64: &str) -> Value {
    json!({"type": "data", "value": b64, "mimeType": mime})
}

fn url(value: &str, mime: Option<&str>) -> Value {
    match mime {
        Some(m) => json!({"type": "url", "value": value, "mimeType": m}),
        None => json!({"type": "url", "value": value}),
    }
}

/// A base64 text of `bytes` zero bytes.
fn b64_of(bytes: u64) -> String {
    let mut s = "AAAA".repeat(usize::try_from(bytes / 3).expect("fits"));
    s.push_str(["", "AA==", "AAA="][usize::try_from(bytes % 3).expect("small")]);
    s
}

fn shown(m: &Media) -> (Shown, &'static str) {
    let src = match &m.src {
        Src::Data(_) => "data",
        Src::Url(_) => "url",
        Src::None(Missing::TooLarge) => "too-large",
        Src::None(Missing::NotSaved) => "not-saved",
        Src::None(Missing::ProviderFile) => "provider-file",
        Src::None(Missing::Unsupported) => "unsupported",
    };
    (m.shown, src)
}

#[test]
fn images_of_the_allowed_types_show_inline_and_others_are_files() {
    for mime in [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "image/avif",
    ] {
        let m = classify(&media("image", data(mime, "iVBORw0KGgo="), None)).expect("media");
        assert_eq!(shown(&m), (Shown::Image, "data"), "{mime}");
        assert_eq!(blob_type(&m), mime, "the blob has the checked type");
    }
    // Parameters and case are ignored.
    let m = classify(&media("image", data("Image/PNG; q=1", "AAAA"), None)).expect("media");
    assert_eq!(m.mime.as_deref(), Some("image/png"));
    assert_eq!(m.shown, Shown::Image);
    // SVG, and any type not on the list, is a file: never an image from agent data, and its
    // blob is an octet stream (opening it can never run it as a page).
    for mime in [
        "image/svg+xml",
        "text/html",
        "application/pdf",
        "image/x-icon",
        "",
    ] {
        let m = classify(&media("image", data(mime, "PHN2Zz4="), None)).expect("media");
        assert_eq!(shown(&m), (Shown::File, "data"), "{mime:?}");
        assert_eq!(blob_type(&m), "application/octet-stream", "{mime:?}");
    }
    // The declared type wins over the wire type: a PNG `document` is an image.
    let m = classify(&media("document", data("image/png", "AAAA"), None)).expect("media");
    assert_eq!((m.kind, m.shown), (Kind::Document, Shown::Image));
    // Text parts are not media.
    assert_eq!(
        classify(&ContentPart::Text {
            text: "hi".into(),
            id: None,
            metadata: None
        }),
        None
    );
}

#[test]
fn audio_and_video_of_the_allowed_types_are_players() {
    let m = classify(&media("audio", data("audio/mpeg", "AAAA"), None)).expect("media");
    assert_eq!(shown(&m), (Shown::Audio, "data"));
    assert_eq!(blob_type(&m), "audio/mpeg");
    let m = classify(&media(
        "video",
        url("https://cdn.example/clip.webm", Some("video/webm")),
        None,
    ))
    .expect("media");
    assert_eq!(shown(&m), (Shown::Video, "url"));
    // A URL without a type: the wire type decides.
    let m = classify(&media("audio", url("https://cdn.example/a", None), None)).expect("media");
    assert_eq!(shown(&m), (Shown::Audio, "url"));
    let m = classify(&media("document", url("https://cdn.example/a", None), None)).expect("media");
    assert_eq!(shown(&m), (Shown::File, "url"));
    // Types off the lists are files.
    let m = classify(&media("audio", data("audio/x-unknown", "AAAA"), None)).expect("media");
    assert_eq!(shown(&m), (Shown::File, "data"));
    let m = classify(&media("video", data("video/quicktime", "AAAA"), None)).expect("media");
    assert_eq!(shown(&m), (Shown::File, "data"));
}

#[test]
fn only_http_and_https_urls_are_kept_and_provider_files_are_never_opened() {
    let m = classify(&media(
        "image",
        url("https://example.com/cat.png", None),
        None,
    ))
    .expect("m");
    match &m.src {
        Src::Url(u) => {
            assert_eq!(u.as_str(), "https://example.com/cat.png");
            assert_eq!(u.host(), Some("example.com"));
        }
        other => panic!("{other:?}"),
    }
    for bad in [
        "javascript:alert(1)",
        "data:image/png;base64,AAAA",
        "blob:https://example.com/x",
        "mailto:a@example.com",
        "file:///etc/passwd",
        "https://exa mple.com/x.png",
        "//example.com/x.png",
    ] {
        let m = classify(&media("image", url(bad, Some("image/png")), None)).expect("m");
        assert_eq!(shown(&m).1, "unsupported", "{bad}");
        let m = classify(&media("document", url(bad, None), None)).expect("m");
        assert_eq!(shown(&m).1, "unsupported", "{bad}");
    }
    let handle = json!({"type": "file", "value": "file-abc123", "provider": "openai", "mimeType": "image/png"});
    let m = classify(&media("image", handle, None)).expect("m");
    assert_eq!(shown(&m), (Shown::Image, "provider-file"));
}

#[test]
fn name_alt_and_size_come_from_the_part() {
    let meta = json!({"filename": "  chart.png ", "description": "Sales by month", "size": 99});
    let m = classify(&media("image", data("image/png", "AAAAAAAA"), Some(meta))).expect("m");
    assert_eq!(m.name.as_deref(), Some("chart.png"));
    assert_eq!(m.alt.as_deref(), Some("Sales by month"));
    assert_eq!(
        m.size,
        Some(6),
        "a data part's size is what its base64 decodes to"
    );
    // No description: the name is the alternative text; none at all: the UI says whose.
    let m = classify(&media(
        "image",
        data("image/png", "AAAA"),
        Some(json!({"name": "a.png"})),
    ))
    .expect("m");
    assert_eq!(m.alt.as_deref(), Some("a.png"));
    let m = classify(&media(
        "image",
        data("image/png", "AAAA"),
        Some(json!({"filename": "  "})),
    ))
    .expect("m");
    assert_eq!((m.name, m.alt), (None, None));
    // A URL part's size is its metadata's; a long name is cut.
    let long = "x".repeat(5_000);
    let m = classify(&media(
        "document",
        url("https://example.com/r.pdf", Some("application/pdf")),
        Some(json!({"filename": long, "size": 2048})),
    ))
    .expect("m");
    assert_eq!(m.size, Some(2048));
    assert!(m.name.expect("name").chars().count() <= 201);
}

#[test]
fn data_parts_over_the_budgets_are_too_large_and_never_kept() {
    let at_limit = b64_of(MAX_PART_BYTES);
    let m = classify(&media("image", data("image/png", &at_limit), None)).expect("m");
    assert_eq!(shown(&m), (Shown::Image, "data"));
    let over = b64_of(MAX_PART_BYTES + 3);
    let m = classify(&media("image", data("image/png", &over), None)).expect("m");
    assert_eq!(shown(&m), (Shown::Image, "too-large"));
    assert_eq!(m.size, Some(MAX_PART_BYTES + 3), "its size is still shown");
    // One message's parts together: those past the total are too large, the rest shown, in
    // order, whatever their kind.
    let part = b64_of(MAX_PART_BYTES);
    let n = MAX_TOTAL_BYTES / MAX_PART_BYTES;
    let mut parts: Vec<ContentPart> = (0..n)
        .map(|_| media("document", data("application/pdf", &part), None))
        .collect();
    parts.push(media("image", data("image/png", &part), None));
    parts.push(media("image", url("https://example.com/a.png", None), None));
    parts.push(media("image", data("image/png", "AAAA"), None));
    let all = classify_all(&parts);
    assert_eq!(all.len(), parts.len());
    let srcs: Vec<&str> = all.iter().map(|m| shown(m).1).collect();
    let mut want = vec!["data"; usize::try_from(n).expect("small")];
    want.extend(["too-large", "url", "too-large"]);
    assert_eq!(srcs, want);
    // Alone, each would fit.
    assert_eq!(
        shown(&classify(&parts[parts.len() - 1]).expect("m")).1,
        "data"
    );
}

#[test]
fn an_attachment_not_saved_says_so() {
    let part = media(
        "image",
        data("image/png", &b64_of(100_000)),
        Some(json!({"filename": "photo.png"})),
    );
    let mut messages = vec![user_message("u1".into(), "look", vec![part])];
    assert_eq!(shrink_for_storage(&mut messages, 1_000), 1);
    let Some(Content::Parts(parts)) = &messages[0].content else {
        panic!("parts")
    };
    let all = classify_all(parts);
    assert_eq!(all.len(), 1, "the text part is not media");
    assert_eq!(shown(&all[0]), (Shown::Image, "not-saved"));
    assert_eq!(all[0].name.as_deref(), Some("photo.png"));
    assert_eq!(all[0].size, Some(100_000));
}

#[test]
fn data_urls_are_read_without_decoding() {
    assert_eq!(
        parse_data_url("data:image/PNG;base64,iVBOR"),
        Some(("image/png".into(), Some("iVBOR")))
    );
    assert_eq!(
        parse_data_url("DATA:;base64,AAAA"),
        Some((String::new(), Some("AAAA")))
    );
    assert_eq!(
        parse_data_url("data:text/plain,hello%20there"),
        Some(("text/plain".into(), None))
    );
    assert_eq!(parse_data_url("https://example.com/a.png"), None);
    assert_eq!(parse_data_url("data:"), None);
    assert_eq!(parse_data_url("dat"), None);
}

fn activity(fields: Value) -> Media {
    from_file_activity(fields.as_object().expect("object")).expect("a file")
}

#[test]
fn ai_sdk_file_parts_classify_by_their_media_type() {
    let m = activity(
        json!({"url": "data:image/png;base64,AAAA", "mediaType": "image/png", "filename": "dot.png"}),
    );
    assert_eq!(shown(&m), (Shown::Image, "data"));
    assert_eq!((m.name.as_deref(), m.size), (Some("dot.png"), Some(3)));
    assert_eq!(m.kind, Kind::Image);
    // The declared mediaType decides, not the data URL's own type.
    let m = activity(json!({"url": "data:image/png;base64,AAAA", "mediaType": "image/svg+xml"}));
    assert_eq!(shown(&m), (Shown::File, "data"));
    assert_eq!(blob_type(&m), "application/octet-stream");
    let m = activity(json!({"url": "https://cdn.example/r.pdf", "mediaType": "application/pdf"}));
    assert_eq!(shown(&m), (Shown::File, "url"));
    let m = activity(json!({"url": "https://cdn.example/a.mp3", "mediaType": "audio/mpeg"}));
    assert_eq!(shown(&m), (Shown::Audio, "url"));
    let m = activity(json!({"url": "javascript:alert(1)", "mediaType": "image/png"}));
    assert_eq!(shown(&m), (Shown::Image, "unsupported"));
    let m = activity(json!({"url": "data:text/plain,hi", "mediaType": "text/plain"}));
    assert_eq!(shown(&m), (Shown::File, "unsupported"));
    let big = format!("data:image/png;base64,{}", b64_of(MAX_PART_BYTES + 3));
    let m = activity(json!({"url": big, "mediaType": "image/png"}));
    assert_eq!(shown(&m), (Shown::Image, "too-large"));
    // No url string: not a file (the activity card shows it).
    assert!(
        from_file_activity(json!({"mediaType": "image/png"}).as_object().expect("o")).is_none()
    );
    assert!(from_file_activity(json!({"url": 3}).as_object().expect("o")).is_none());
}

#[test]
fn an_ai_sdk_file_chunk_decodes_into_a_file_the_model_shows() {
    let bytes = "\
data: {\"type\":\"start\",\"messageId\":\"msg1\"}\n\n\
data: {\"type\":\"file\",\"url\":\"data:image/png;base64,iVBORw0KGgo=\",\"mediaType\":\"image/png\"}\n\n\
data: {\"type\":\"file\",\"url\":\"https://cdn.example/report.pdf\",\"mediaType\":\"application/pdf\"}\n\n\
data: {\"type\":\"finish\"}\n\n\
data: [DONE]\n\n";
    let mut s = AiSdkStream::new(Thread::new(), PipelineOptions::default(), "th1", "run1");
    s.push_bytes(bytes.as_bytes());
    s.finish();
    assert_eq!(s.error(), None);
    let files: Vec<Media> = s
        .pipeline
        .thread
        .messages
        .iter()
        .filter(|m| m.role == Role::Activity && m.activity_type.as_deref() == Some("file"))
        .filter_map(|m| match &m.content {
            Some(Content::Object(o)) => from_file_activity(o),
            _ => None,
        })
        .collect();
    assert_eq!(files.len(), 2, "{:?}", s.pipeline.thread.messages);
    assert_eq!(shown(&files[0]), (Shown::Image, "data"));
    assert_eq!(files[0].size, Some(8));
    assert_eq!(shown(&files[1]), (Shown::File, "url"));
    assert_eq!(files[1].mime.as_deref(), Some("application/pdf"));
}

#[test]
fn a_tool_result_keeps_its_text_and_media_in_order() {
    let content: Content = serde_json::from_value(json!([
        {"type": "text", "text": "Here is the chart"},
        {"type": "image", "source": {"type": "data", "value": "AAAA", "mimeType": "image/png"}},
        {"type": "document", "source": {"type": "url", "value": "https://example.com/r.csv", "mimeType": "text/csv"}},
        {"type": "text", "text": "{\"rows\":2}"},
    ]))
    .expect("parts");
    let v = ToolView {
        id: "t1".into(),
        name: "chart".into(),
        status: ToolStatus::Success,
        args: None,
        args_text_len: 0,
        result: Some(content),
        result_error: None,
        duration_ms: None,
    };
    let model = result_model(&v).expect("a result");
    let ResultBody::Parts(parts) = model.body else {
        panic!("parts")
    };
    let kinds: Vec<String> = parts
        .iter()
        .map(|p| match p {
            PartView::Text(b) => format!("text:{}", b.json),
            PartView::Media(m) => format!("{}:{}", m.shown.as_str(), shown(m).1),
        })
        .collect();
    assert_eq!(kinds, ["text:false", "image:data", "file:url", "text:true"]);
}
