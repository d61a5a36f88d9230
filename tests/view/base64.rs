//! `agui_leptos::base64`, the one base64 codec (attachments' `data` sources, MCP Apps' blobs):
//! the encoder against RFC 4648's vectors, every length round trip padded and unpadded, and a
//! strict decoder — one text per byte string, everything else refused.

use agui_leptos::base64::{decode, encode};

// ---- encode ---------------------------------------------------------------------------------

#[test]
fn base64_rfc4648_vectors() {
    for (input, want) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(encode(input.as_bytes()), want, "{input:?}");
    }
    assert_eq!(encode(&[0xfb, 0xff, 0xbf]), "+/+/");
    assert_eq!(encode(&[0, 0, 0]), "AAAA");
    assert_eq!(encode(&[0xff; 3]), "////");
    let all: Vec<u8> = (0..=255).collect();
    // Every byte value (checked against Python's `base64.b64encode(bytes(range(256)))`).
    assert_eq!(
        encode(&all),
        concat!(
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7",
            "PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3",
            "eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKz",
            "tLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v",
            "8PHy8/T19vf4+fr7/P3+/w==",
        )
    );
}

#[test]
fn base64_lengths_0_to_10() {
    let wants = [
        "",
        "AQ==",
        "AQI=",
        "AQID",
        "AQIDBA==",
        "AQIDBAU=",
        "AQIDBAUG",
        "AQIDBAUGBw==",
        "AQIDBAUGBwg=",
        "AQIDBAUGBwgJ",
        "AQIDBAUGBwgJCg==",
    ];
    for (n, want) in wants.iter().enumerate() {
        let bytes: Vec<u8> = (1..=n as u8).collect();
        let got = encode(&bytes);
        assert_eq!(got, *want, "length {n}");
        assert_eq!(got.len(), n.div_ceil(3) * 4);
    }
}

// ---- decode ---------------------------------------------------------------------------------

#[test]
fn every_length_0_to_64_round_trips_padded_and_unpadded() {
    for n in 0..=64usize {
        for seed in [0usize, 37, 101, 255] {
            let bytes: Vec<u8> = (0..n).map(|i| ((i * 37 + seed) % 256) as u8).collect();
            let text = encode(&bytes);
            assert_eq!(text.len(), n.div_ceil(3) * 4, "{n} bytes");
            assert_eq!(
                decode(&text).as_deref(),
                Some(bytes.as_slice()),
                "{n} bytes"
            );
            assert_eq!(
                decode(text.trim_end_matches('=')).as_deref(),
                Some(bytes.as_slice()),
                "{n} bytes, unpadded"
            );
        }
    }
    assert_eq!(decode("").as_deref(), Some(&[][..]));
    assert_eq!(decode("Zm9vYmFy").as_deref(), Some(&b"foobar"[..]));
    assert_eq!(decode("+/+/").as_deref(), Some(&[0xfb, 0xff, 0xbf][..]));
}

#[test]
fn refuses_what_is_not_a_canonical_encoding() {
    for text in [
        // Outside the alphabet: punctuation, whitespace, the URL-safe alphabet, non-ASCII.
        "!!!!",
        "PHA+ aGk=",
        "Zm9v\nYmFy",
        " Zm8=",
        "Zm8= ",
        "-_-_",
        "Zm9v*",
        "ü",
        "Zm8é",
        // A lone sixth (no whole byte).
        "A",
        "AAAAA",
        "AAAAA=",
        // Too much padding, padding inside, padding that does not complete a quantum.
        "QQ===",
        "=",
        "==",
        "====",
        "QQ=A",
        "QQ=",
        "Q=",
        "QUE==",
        "AAAA=",
        "AAAA==",
        "Q===",
        // Leftover bits that are not zero (`QQ==` and `QUE=` are the canonical forms).
        "QR==",
        "QR",
        "QUF=",
        "QUF",
        "Zm9vYh==",
    ] {
        assert_eq!(decode(text), None, "{text:?}");
    }
}

/// Every text of up to three characters over the alphabet, `=` and two strays: it decodes
/// exactly when it is the encoding of what it decodes to (padded or not).
#[test]
fn decodes_exactly_the_canonical_encodings() {
    let chars: Vec<char> = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=- "
        .chars()
        .collect();
    let mut texts = vec![String::new()];
    let mut accepted = 0;
    for _ in 0..3 {
        texts = texts
            .iter()
            .flat_map(|t| chars.iter().map(move |c| format!("{t}{c}")))
            .collect();
        for t in &texts {
            let canonical = decode(t).map(|b| encode(&b));
            let want = canonical
                .as_deref()
                .is_some_and(|e| e == t || e.trim_end_matches('=') == t);
            assert_eq!(canonical.is_some(), want, "{t:?} -> {canonical:?}");
            accepted += usize::from(want);
        }
    }
    // Two characters for each byte, three for each pair (unpadded; `QQ=` is a broken quantum).
    assert_eq!(accepted, 256 + 256 * 256, "one text per byte string");
}
