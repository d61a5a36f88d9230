//! Tests for the sans-IO SSE decoder (`agui_leptos::protocol::sse`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use agui_leptos::protocol::sse::{SseDecoder, SseError, SseFrame, DEFAULT_MAX_FRAME_BYTES};
use proptest::prelude::*;
use serde_json::Value;

type Out = Vec<Result<SseFrame, SseError>>;

/// Decode `chunks` with a fresh decoder (given limit), then finish.
fn decode_chunks_with(limit: usize, chunks: &[&[u8]]) -> Out {
    let mut dec = SseDecoder::with_max_frame_bytes(limit);
    let mut out = Vec::new();
    let mut total = 0u64;
    for chunk in chunks {
        out.extend(dec.push(chunk));
        total += chunk.len() as u64;
        assert_eq!(dec.bytes_seen(), total);
        assert!(dec.buffered_bytes() <= limit + 2, "buffer exceeds limit");
    }
    out.extend(dec.finish());
    assert_eq!(dec.bytes_seen(), 0, "finish resets");
    out
}

fn decode_chunks(chunks: &[&[u8]]) -> Out {
    decode_chunks_with(DEFAULT_MAX_FRAME_BYTES, chunks)
}

fn decode(body: &[u8]) -> Out {
    decode_chunks(&[body])
}

/// Decode pushing one byte at a time.
fn decode_bytewise(body: &[u8]) -> Out {
    let chunks: Vec<&[u8]> = body.chunks(1).collect();
    decode_chunks(&chunks)
}

fn data(s: &str) -> SseFrame {
    SseFrame {
        data: s.to_owned(),
        ..SseFrame::default()
    }
}

fn ok_data(list: &[&str]) -> Out {
    list.iter().map(|s| Ok(data(s))).collect()
}

/// Assert that a body decodes to `expected` whole, byte by byte, and split at
/// every point into two chunks.
fn assert_decodes(body: &[u8], expected: &Out) {
    assert_eq!(&decode(body), expected, "single push of {body:?}");
    assert_eq!(&decode_bytewise(body), expected, "bytewise {body:?}");
    for i in 0..=body.len() {
        let (a, b) = body.split_at(i);
        assert_eq!(
            &decode_chunks(&[a, b]),
            expected,
            "split at {i} of {body:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// 1. Unit cases
// ---------------------------------------------------------------------------

#[test]
fn lf_framing() {
    assert_decodes(b"data: a\n\ndata: b\n\n", &ok_data(&["a", "b"]));
}

#[test]
fn cr_framing() {
    assert_decodes(b"data: a\r\rdata: b\r\r", &ok_data(&["a", "b"]));
}

#[test]
fn crlf_framing() {
    assert_decodes(b"data: a\r\n\r\ndata: b\r\n\r\n", &ok_data(&["a", "b"]));
}

#[test]
fn mixed_line_endings() {
    assert_decodes(
        b"data: a\r\n\ndata: b\r\rdata: c\n\r\n",
        &ok_data(&["a", "b", "c"]),
    );
}

#[test]
fn crlf_split_across_pushes_is_one_line_end() {
    let mut dec = SseDecoder::new();
    assert_eq!(dec.push(b"data: a\r"), vec![]);
    // If the LF were a second line end, this would dispatch.
    assert_eq!(dec.push(b"\n"), vec![]);
    assert_eq!(dec.push(b"data: b\r"), vec![]);
    assert_eq!(dec.push(b"\n\r"), vec![Ok(data("a\nb"))]);
    // A CR at a chunk end followed by a non-LF is just a CR line end.
    assert_eq!(dec.push(b"data: c\r"), vec![]);
    assert_eq!(dec.push(b"\rdata: d\n"), vec![Ok(data("c"))]);
    // Empty pushes do not forget the pending CR.
    assert_eq!(dec.push(b"\r"), vec![Ok(data("d"))]);
    assert_eq!(dec.push(b""), vec![]);
    assert_eq!(dec.push(b"\ndata: e\n\n"), vec![Ok(data("e"))]);
    assert_eq!(dec.finish(), vec![]);
}

#[test]
fn cr_lf_as_separate_chunks_each_byte() {
    let body = b"data: x\r\n\r\ndata: y\r\n\r\n";
    assert_eq!(decode_bytewise(body), ok_data(&["x", "y"]));
}

#[test]
fn multi_line_data_joined_with_lf() {
    assert_decodes(
        b"data: one\ndata: two\ndata:three\n\n",
        &ok_data(&["one\ntwo\nthree"]),
    );
}

#[test]
fn empty_data_lines() {
    assert_decodes(b"data:\n\n", &ok_data(&[""]));
    assert_decodes(b"data:\ndata:\n\n", &ok_data(&["\n"]));
    assert_decodes(b"data\ndata\n\n", &ok_data(&["\n"]));
    assert_decodes(b"data: a\ndata:\n\n", &ok_data(&["a\n"]));
}

#[test]
fn comments_yield_nothing() {
    assert_decodes(b": keep-alive\n\n", &vec![]);
    assert_decodes(b":\n:\n: x\n\n\n", &vec![]);
    assert_decodes(
        b": keep-alive\ndata: a\n: in the middle\ndata: b\n\n: trailing\n\n",
        &ok_data(&["a\nb"]),
    );
}

#[test]
fn event_id_retry_are_reported() {
    let body = b"event: first\nevent: ping\nid: 42\nretry: 1500\ndata: {}\n\ndata: next\n\n";
    let expected = vec![
        Ok(SseFrame {
            event: Some("ping".into()),
            data: "{}".into(),
            id: Some("42".into()),
            retry: Some(1500),
        }),
        // id/retry/event are per frame, not sticky.
        Ok(data("next")),
    ];
    assert_decodes(body, &expected);
}

#[test]
fn id_with_nul_and_bad_retry_are_ignored() {
    let body = b"id: 1\nid: a\0b\nretry: 12a\nretry: -5\nretry:\nretry: 99999999999999999999999\ndata: x\n\n";
    let expected = vec![Ok(SseFrame {
        id: Some("1".into()),
        ..data("x")
    })];
    assert_decodes(body, &expected);

    let body = b"id:\nretry:0\ndata: x\n\n";
    let expected = vec![Ok(SseFrame {
        id: Some(String::new()),
        retry: Some(0),
        ..data("x")
    })];
    assert_decodes(body, &expected);
}

#[test]
fn unknown_fields_ignored() {
    assert_decodes(
        b"foo: bar\nDATA: no\nData: no\n data: no\ndata: yes\n\n",
        &ok_data(&["yes"]),
    );
}

#[test]
fn frame_with_only_event_yields_nothing_and_resets() {
    assert_decodes(
        b"event: ping\nid: 7\nretry: 5\n\ndata: a\n\n",
        &ok_data(&["a"]),
    );
    assert_decodes(b"event: ping\n\n", &vec![]);
}

#[test]
fn field_without_colon() {
    // "data" alone: data field with empty value.
    assert_decodes(b"data\n\n", &ok_data(&[""]));
    let expected = vec![Ok(SseFrame {
        event: Some(String::new()),
        ..data("a")
    })];
    assert_decodes(b"event\ndata: a\n\n", &expected);
}

#[test]
fn only_one_leading_space_removed() {
    assert_decodes(b"data:no-space\n\n", &ok_data(&["no-space"]));
    assert_decodes(b"data:  two\n\n", &ok_data(&[" two"]));
    assert_decodes(b"data:\tx\n\n", &ok_data(&["\tx"]));
    assert_decodes(b"data: a: b:c\n\n", &ok_data(&["a: b:c"]));
}

#[test]
fn leading_bom_skipped() {
    assert_decodes(b"\xEF\xBB\xBFdata: a\n\n", &ok_data(&["a"]));
    // BOM then a line that would otherwise not be recognised as "data".
    assert_decodes(
        b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n",
        &ok_data(&["b"]),
    );
    // Only at the very start.
    assert_decodes(b"data: a\n\n\xEF\xBB\xBFdata: b\n\n", &ok_data(&["a"]));
}

#[test]
fn bom_split_byte_by_byte() {
    let mut dec = SseDecoder::new();
    assert_eq!(dec.push(b"\xEF"), vec![]);
    assert_eq!(dec.push(b"\xBB"), vec![]);
    assert_eq!(dec.push(b"\xBF"), vec![]);
    assert_eq!(dec.push(b"data: a\n\n"), ok_data(&["a"]));
    assert_eq!(dec.bytes_seen(), 12);
    assert_eq!(dec.finish(), vec![]);
}

#[test]
fn partial_bom_is_data() {
    // A BOM prefix that is not completed is ordinary (invalid UTF-8) input.
    assert_decodes(b"\xEF\xBBdata: a\n\n", &vec![]);
    assert_decodes(b"\xEFdata: a\n\n", &vec![]);
    assert_decodes(b"\xEF\xBB\n\ndata: a\n\n", &ok_data(&["a"]));
    // Stream that is just a partial BOM.
    assert_decodes(b"\xEF\xBB", &vec![]);
    assert_decodes(b"", &vec![]);
}

#[test]
fn emoji_split_at_every_byte() {
    let text = "pre 😀 mid 𝄞 é 日本 post";
    let body = format!("data: {text}\n\n");
    assert_decodes(body.as_bytes(), &ok_data(&[text]));
    // Three-way splits around the 4-byte emoji.
    let bytes = body.as_bytes();
    let start = body.find('😀').unwrap();
    for i in start..=start + 4 {
        for j in i..=start + 4 {
            let out = decode_chunks(&[&bytes[..i], &bytes[i..j], &bytes[j..]]);
            assert_eq!(out, ok_data(&[text]));
        }
    }
}

#[test]
fn invalid_utf8_replaced_and_decoding_continues() {
    let body = b"data: a\xFFb\xF0\x9F\n\ndata: c\xC3\n\ndata: ok\n\n";
    assert_decodes(body, &ok_data(&["a\u{FFFD}b\u{FFFD}", "c\u{FFFD}", "ok"]));
    // Truncated sequence right before a CR/LF and ':'.
    let body = b"event: \xE6\x97\ndata\xE6: x\ndata: \xE6\x97\r\n\r\n";
    let expected = vec![Ok(SseFrame {
        event: Some("\u{FFFD}".into()),
        ..data("\u{FFFD}")
    })];
    assert_decodes(body, &expected);
}

#[test]
fn finish_flushes_last_frame_and_line() {
    assert_decodes(b"data: a\n\ndata: b\n", &ok_data(&["a", "b"]));
    assert_decodes(b"data: a\n\ndata: b", &ok_data(&["a", "b"]));
    assert_decodes(b"data: a\ndata: b\r", &ok_data(&["a\nb"]));
    assert_decodes(
        b"data: a\nevent: x",
        &vec![Ok(SseFrame {
            event: Some("x".into()),
            ..data("a")
        })],
    );
    assert_decodes(b"event: x", &vec![]);
    assert_decodes(b": comment", &vec![]);
}

#[test]
fn decoder_is_reusable_after_finish() {
    let mut dec = SseDecoder::new();
    assert_eq!(dec.push(b"data: a"), vec![]);
    assert_eq!(dec.finish(), ok_data(&["a"]));
    assert_eq!(dec.bytes_seen(), 0);
    assert_eq!(dec.push(b"\xEF\xBB\xBFdata: b\n\n"), ok_data(&["b"]));
    assert_eq!(dec.finish(), vec![]);
}

#[test]
fn frame_too_large_reported_once_and_following_frames_decode() {
    let big = "x".repeat(100);
    let body = format!("data: ok1\n\nid: 1\ndata: {big}\ndata: {big}\nevent: e\n\ndata: ok2\n\n");
    let start = "data: ok1\n\n".len() as u64;
    let expected = vec![
        Ok(data("ok1")),
        Err(SseError::FrameTooLarge {
            limit: 50,
            offset: start,
        }),
        Ok(data("ok2")),
    ];
    let bytes = body.as_bytes();
    assert_eq!(decode_chunks_with(50, &[bytes]), expected);
    let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(decode_chunks_with(50, &bytewise), expected);
    for i in 0..=bytes.len() {
        let (a, b) = bytes.split_at(i);
        assert_eq!(decode_chunks_with(50, &[a, b]), expected, "split at {i}");
    }
}

#[test]
fn frame_too_large_offset_skips_leading_comment_and_crlf() {
    let body = b"data: a\r\n\r\n: keep-alive\r\ndata: 0123456789\r\n\r\ndata: b\r\n\r\n";
    let expected = vec![
        Ok(data("a")),
        Err(SseError::FrameTooLarge {
            limit: 10,
            offset: "data: a\r\n\r\n: keep-alive\r\n".len() as u64,
        }),
        Ok(data("b")),
    ];
    assert_eq!(decode_chunks_with(10, &[body]), expected);
    let bytewise: Vec<&[u8]> = body.chunks(1).collect();
    assert_eq!(decode_chunks_with(10, &bytewise), expected);
}

#[test]
fn oversized_frame_at_eof_is_dropped() {
    let out = decode_chunks_with(8, &[b"data: 0123456789"]);
    assert_eq!(
        out,
        vec![Err(SseError::FrameTooLarge {
            limit: 8,
            offset: 0
        })]
    );
}

#[test]
fn error_message() {
    let err = SseError::FrameTooLarge {
        limit: 10,
        offset: 7,
    };
    assert_eq!(
        err.to_string(),
        "SSE frame larger than 10 bytes (starting at byte offset 7); frame dropped"
    );
}

#[test]
fn long_comments_are_not_limited() {
    let comment = format!(":{}\n", "c".repeat(10_000));
    let body = format!("{comment}data: a\n{comment}\n");
    let out = decode_chunks_with(16, &[body.as_bytes()]);
    assert_eq!(out, ok_data(&["a"]));
}

#[test]
fn bounded_memory_on_endless_line() {
    const LIMIT: usize = 1024 * 1024;
    let chunk = vec![b'a'; 64 * 1024];
    let started = Instant::now();
    let mut dec = SseDecoder::with_max_frame_bytes(LIMIT);
    let mut out = Vec::new();
    let mut pushed = 0u64;
    while pushed < 50 * 1024 * 1024 {
        out.extend(dec.push(&chunk));
        pushed += chunk.len() as u64;
        assert!(dec.buffered_bytes() <= LIMIT);
    }
    assert_eq!(dec.bytes_seen(), pushed);
    out.extend(dec.finish());
    assert_eq!(
        out,
        vec![Err(SseError::FrameTooLarge {
            limit: LIMIT,
            offset: 0
        })]
    );
    // After the skipped frame ends, decoding resumes.
    let mut dec2 = SseDecoder::with_max_frame_bytes(LIMIT);
    for _ in 0..40 {
        assert!(dec2.push(&chunk).iter().all(|r| r.is_err()));
    }
    assert_eq!(dec2.push(b"\n\ndata: after\n\n"), ok_data(&["after"]));
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn big_line_in_small_chunks_is_linear() {
    let payload = "z".repeat(2 * 1024 * 1024);
    let body = format!("data: {payload}\n\n");
    let started = Instant::now();
    let mut dec = SseDecoder::new();
    let mut out = Vec::new();
    for chunk in body.as_bytes().chunks(64) {
        out.extend(dec.push(chunk));
    }
    out.extend(dec.finish());
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].as_ref().map(|f| f.data.len()), Ok(payload.len()));
    assert!(started.elapsed() < Duration::from_secs(10));
}

// ---------------------------------------------------------------------------
// 4. Exact size boundary
// ---------------------------------------------------------------------------

#[test]
fn frame_size_boundary() {
    // Frame size = bytes of the frame's non-comment lines, terminators excluded.
    const LIMIT: usize = 32;
    let at_limit = format!("data: {}", "a".repeat(LIMIT - "data: ".len()));
    assert_eq!(at_limit.len(), LIMIT);
    for eol in ["\n", "\r\n", "\r"] {
        let body = format!("{at_limit}{eol}{eol}data: next{eol}{eol}");
        let expected = vec![Ok(data(&at_limit["data: ".len()..])), Ok(data("next"))];
        assert_eq!(decode_chunks_with(LIMIT, &[body.as_bytes()]), expected);

        let over = format!("{at_limit}b{eol}{eol}data: next{eol}{eol}");
        let expected = vec![
            Err(SseError::FrameTooLarge {
                limit: LIMIT,
                offset: 0,
            }),
            Ok(data("next")),
        ];
        assert_eq!(decode_chunks_with(LIMIT, &[over.as_bytes()]), expected);
        let bytewise: Vec<&[u8]> = over.as_bytes().chunks(1).collect();
        assert_eq!(decode_chunks_with(LIMIT, &bytewise), expected);

        // Across several lines: 16 + 16 = 32 is fine; comments are free.
        let body = format!("event: 123456789{eol}: free comment{eol}data: 1234567890{eol}{eol}");
        assert_eq!(
            decode_chunks_with(LIMIT, &[body.as_bytes()]),
            vec![Ok(SseFrame {
                event: Some("123456789".into()),
                ..data("1234567890")
            })]
        );
        let body = format!("event: 123456789{eol}data: 12345678901{eol}{eol}");
        assert_eq!(
            decode_chunks_with(LIMIT, &[body.as_bytes()]),
            vec![Err(SseError::FrameTooLarge {
                limit: LIMIT,
                offset: 0
            })]
        );
    }
    // The example from the docs.
    assert_eq!(
        decode_chunks_with(10, &[b"data: abcd\n\n"]),
        ok_data(&["abcd"])
    );
    assert_eq!(decode_chunks_with(10, &[b"data: abcde\n\n"]).len(), 1);
    assert!(decode_chunks_with(10, &[b"data: abcde\n\n"])[0].is_err());
    // Limit 0: any non-comment content is too large; comments still fine.
    assert_eq!(decode_chunks_with(0, &[b": hi\n\n"]), vec![]);
    assert_eq!(
        decode_chunks_with(0, &[b"data\n\n"]),
        vec![Err(SseError::FrameTooLarge {
            limit: 0,
            offset: 0
        })]
    );
}

// ---------------------------------------------------------------------------
// 2. Conformance corpus: every split point gives identical frames
// ---------------------------------------------------------------------------

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/streams")
}

fn load_corpus() -> Vec<(String, Vec<Value>)> {
    let dir = corpus_dir();
    let mut streams = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue; // MANIFEST.txt
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        let stream = doc["stream"]
            .as_array()
            .unwrap_or_else(|| panic!("{} has no stream array", path.display()))
            .clone();
        streams.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            stream,
        ));
    }
    streams.sort_by(|a, b| a.0.cmp(&b.0));
    streams
}

#[test]
fn conformance_streams_every_split_point() {
    let corpus = load_corpus();
    assert_eq!(
        corpus.len(),
        72,
        "expected 72 fixtures in {}",
        corpus_dir().display()
    );
    let mut bodies = 0;
    let mut decodes = 0;
    for (name, stream) in &corpus {
        for eol in ["\n", "\r\n", "\r"] {
            let mut body = String::new();
            for event in stream {
                let json = serde_json::to_string(event).unwrap();
                body.push_str(&format!("data: {json}{eol}{eol}"));
            }
            let body = body.as_bytes();
            bodies += 1;

            let mut dec = SseDecoder::new();
            let mut reference = dec.push(body);
            reference.extend(dec.finish());
            let parsed: Vec<Value> = reference
                .iter()
                .map(|r| {
                    let frame = r.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(frame.event, None);
                    assert_eq!(frame.id, None);
                    assert_eq!(frame.retry, None);
                    serde_json::from_str(&frame.data).unwrap()
                })
                .collect();
            assert_eq!(&parsed, stream, "{name} ({eol:?})");

            for i in 0..=body.len() {
                let (a, b) = body.split_at(i);
                let mut out = dec.push(a);
                out.extend(dec.push(b));
                out.extend(dec.finish());
                assert!(
                    out == reference,
                    "{name} ({eol:?}) differs when split at {i}"
                );
                decodes += 1;
            }
        }
    }
    assert_eq!(bodies, 72 * 3);
    assert!(decodes > 100_000, "only {decodes} split decodes");
}

// ---------------------------------------------------------------------------
// 3. Property tests
// ---------------------------------------------------------------------------

/// Maps a uniformly random byte to a byte distribution weighted towards the
/// bytes that matter to the decoder. (Mapping `any::<u8>()` is much cheaper to
/// generate than a `prop_oneof!` per byte, and still shrinks towards LF.)
fn weighted_byte(b: u8) -> u8 {
    match b {
        0..=39 => b'\n',
        40..=69 => b'\r',
        70..=99 => b':',
        100..=114 => b' ',
        115..=134 => b'd',
        135..=139 => b'a',
        140..=144 => b't',
        145..=149 => 0xEF,
        150..=154 => 0xBB,
        155..=159 => 0xBF,
        160..=164 => 0xF0,
        165..=169 => 0x80,
        170..=172 => 0,
        // Letters of the other field names.
        173..=199 => b"eventidry5"[usize::from(b % 10)],
        // Anything (151 is odd, so this is a bijection on u8).
        200..=255 => b.wrapping_mul(151),
    }
}

fn weighted_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..2000)
            .prop_map(|v| v.into_iter().map(weighted_byte).collect()),
        // Token soup: whole field prefixes and terminators.
        prop::collection::vec(
            prop::sample::select(vec![
                &b"data:"[..],
                b"data: ",
                b"event: ",
                b"id: ",
                b"retry: 12",
                b": c",
                b"\n",
                b"\r",
                b"\r\n",
                b"\xEF\xBB\xBF",
                b"\xF0\x9F\x98\x80",
                b"x",
                b"\xF0",
                b"\0",
            ]),
            0..300
        )
        .prop_map(|parts| parts.concat()),
    ]
}

fn split_into_chunks<'a>(body: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (body.len() + 1)).collect();
    points.sort_unstable();
    let mut chunks = Vec::new();
    let mut prev = 0;
    for p in points {
        chunks.push(&body[prev..p]); // empty chunks included on purpose
        prev = p;
    }
    chunks.push(&body[prev..]);
    chunks
}

fn encode_frames(frames: &[Vec<String>], eol: &str) -> String {
    let mut body = String::new();
    for lines in frames {
        for line in lines {
            body.push_str("data: ");
            body.push_str(line);
            body.push_str(eol);
        }
        body.push_str(eol);
    }
    body
}

fn payload_line() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..40).prop_map(|chars| {
        chars
            .into_iter()
            .filter(|c| *c != '\r' && *c != '\n')
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn chunking_invariance(
        body in weighted_bytes(),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        small_limit in 0usize..80,
    ) {
        let chunks = split_into_chunks(&body, &cuts);
        for limit in [DEFAULT_MAX_FRAME_BYTES, small_limit] {
            let whole = decode_chunks_with(limit, &[&body]);
            let chunked = decode_chunks_with(limit, &chunks);
            prop_assert_eq!(&chunked, &whole);
            let bytewise: Vec<&[u8]> = body.chunks(1).collect();
            prop_assert_eq!(&decode_chunks_with(limit, &bytewise), &whole);
        }
    }

    #[test]
    fn data_payloads_roundtrip(
        frames in prop::collection::vec(prop::collection::vec(payload_line(), 1..5), 0..8),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        with_bom in any::<bool>(),
    ) {
        let mut body = encode_frames(&frames, eol);
        if with_bom {
            body.insert(0, '\u{FEFF}');
        }
        let expected: Out = frames.iter().map(|lines| Ok(data(&lines.join("\n")))).collect();
        prop_assert_eq!(&decode(body.as_bytes()), &expected);
        let chunks = split_into_chunks(body.as_bytes(), &cuts);
        prop_assert_eq!(&decode_chunks(&chunks), &expected);
    }
}
