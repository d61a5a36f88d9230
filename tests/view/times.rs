//! A message's time (`src/view/times.rs`).

use agui_leptos::protocol::resume::parse_iso8601_ms as parse_iso;
use agui_leptos::view::times::{ago, metadata_time};
use serde_json::json;

#[test]
fn iso_8601_is_read_with_its_zone_and_garbage_is_not() {
    assert_eq!(parse_iso("1970-01-01T00:00:00Z"), Some(0.0));
    assert_eq!(parse_iso("2026-12-05T22:16:33Z"), Some(1_796_508_993_000.0));
    assert_eq!(
        parse_iso("2026-12-05T22:16:33.250Z"),
        Some(1_796_508_993_250.0)
    );
    assert_eq!(
        parse_iso("2026-12-05T23:16:33+01:00"),
        Some(1_796_508_993_000.0)
    );
    assert_eq!(
        parse_iso("2026-12-05T20:16:33-02:00"),
        Some(1_796_508_993_000.0)
    );
    assert_eq!(parse_iso("2026-12-05"), Some(1_796_428_800_000.0));
    assert_eq!(parse_iso("2000-02-29T12:00:00Z"), Some(951_825_600_000.0));
    for bad in [
        "",
        "yesterday",
        "2026-13-01",
        "2026-12-05T25:00Z",
        "2026-12-05Tab:cd",
        "é",
    ] {
        assert_eq!(parse_iso(bad), None, "{bad:?}");
    }
}

#[test]
fn a_message_s_own_time_comes_from_its_metadata() {
    let meta = |v| json!(v).as_object().cloned();
    assert_eq!(
        metadata_time(meta(json!({"createdAt": "1970-01-01T00:00:01Z"})).as_ref()),
        Some(1000.0)
    );
    assert_eq!(
        metadata_time(meta(json!({"timestamp": 1_700_000_000})).as_ref()),
        Some(1.7e12),
        "seconds"
    );
    assert_eq!(
        metadata_time(meta(json!({"created_at": 1.7e12})).as_ref()),
        Some(1.7e12),
        "milliseconds"
    );
    assert_eq!(
        metadata_time(meta(json!({"createdAt": 1e300})).as_ref()),
        None,
        "beyond a Date"
    );
    assert_eq!(
        metadata_time(meta(json!({"createdAt": true})).as_ref()),
        None
    );
    assert_eq!(metadata_time(None), None);
}

#[test]
fn how_long_ago_picks_the_unit_a_person_reads() {
    let now = 1e12;
    assert_eq!(ago(now - 10_000.0, now), Some((0.0, "second")));
    assert_eq!(
        ago(now + 60_000.0, now),
        Some((0.0, "second")),
        "a clock ahead: now"
    );
    assert_eq!(ago(now - 5.0 * 60_000.0, now), Some((-5.0, "minute")));
    assert_eq!(ago(now - 3.0 * 3_600_000.0, now), Some((-3.0, "hour")));
    assert_eq!(ago(now - 2.0 * 86_400_000.0, now), Some((-2.0, "day")));
    assert_eq!(ago(now - 8.0 * 86_400_000.0, now), None);
}

#[test]
fn iso_8601_is_written_as_date_to_iso_string_does_and_reads_back() {
    use agui_leptos::view::times::iso_8601;
    assert_eq!(iso_8601(0.0).as_deref(), Some("1970-01-01T00:00:00.000Z"));
    assert_eq!(
        iso_8601(1_796_508_993_250.0).as_deref(),
        Some("2026-12-05T22:16:33.250Z")
    );
    assert_eq!(
        iso_8601(951_825_600_000.0).as_deref(),
        Some("2000-02-29T12:00:00.000Z")
    );
    assert_eq!(iso_8601(-1.0).as_deref(), Some("1969-12-31T23:59:59.999Z"));
    assert_eq!(iso_8601(f64::NAN), None);
    assert_eq!(iso_8601(1e300), None);
    for ms in [
        0.0,
        1.0,
        86_399_999.0,
        1_796_508_993_250.0,
        4_102_444_800_000.0,
        -86_400_001.0,
    ] {
        let text = iso_8601(ms).unwrap();
        assert_eq!(parse_iso(&text), Some(ms), "{text}");
    }
}
