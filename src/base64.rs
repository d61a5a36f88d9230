//! Base64 with the standard alphabet (RFC 4648 §4), pure and dependency-free: the one
//! implementation behind attachments' `data` sources ([`crate::view::attachments`]) and MCP
//! Apps' resource blobs.
//!
//! [`encode`] always pads with `=`. [`decode`] is strict, so that one text means one byte
//! string: the standard alphabet only (no whitespace, no URL-safe `-_`), `=` padding optional
//! but, when present, at most two and completing a four-character quantum, and the unused bits
//! of the last character zero (`QQ==` is the byte `A`; `QR==` is refused).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64, padded.
pub fn encode(bytes: &[u8]) -> String {
    let sym = |n: u32| char::from(ALPHABET.get((n & 63) as usize).copied().unwrap_or(b'='));
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let (n, len) = match *chunk {
            [a, b, c] => (u32::from(a) << 16 | u32::from(b) << 8 | u32::from(c), 3),
            [a, b] => (u32::from(a) << 16 | u32::from(b) << 8, 2),
            [a] => (u32::from(a) << 16, 1),
            _ => continue,
        };
        out.push(sym(n >> 18));
        out.push(sym(n >> 12));
        out.push(if len > 1 { sym(n >> 6) } else { '=' });
        out.push(if len > 2 { sym(n) } else { '=' });
    }
    out
}

/// The bytes of a base64 text, padded or not; `None` when it is not the canonical encoding of
/// some bytes (see the module docs). O(the text).
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let body = text.trim_end_matches('=');
    let padding = text.len() - body.len();
    // A lone sixth is no byte; padding only completes a quantum.
    if padding > 2 || body.len() % 4 == 1 || (padding > 0 && text.len() % 4 != 0) {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in body.bytes() {
        acc = (acc << 6) | u32::from(sextet(b)?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // The bits left over past the last byte must be zero.
    (acc == 0).then_some(out)
}

/// The value of one base64 character.
fn sextet(b: u8) -> Option<u8> {
    Some(match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    })
}
