use super::*;
use domain::live::LivePrice;
use domain::timestamp::parse_timestamp;

#[test]
fn frames_are_byte_for_byte_those_of_the_domain_encoder() {
    let mut encoder = FrameEncoder::default();
    let cases = [
        ("2025-06-13T10:00:00.123456", 71.25),
        ("2025-06-13T10:00:00.999999", 100.0),
        ("2025-06-13T10:00:01.000001", -3.5),
        ("2025-06-13T10:00:01.5", 0.001),
        ("1999-12-31T23:59:59.999", 123456.789),
        ("2025-06-13T10:00:01.050", 1e21),
    ];
    let id = "0f1e2d3c-aaaa-4bbb-8ccc-000000000001";
    for tenor in ["Jan 26", "26-EOM Feb 24", "C 00", "odd \"name\" \\ é"] {
        let pieces = FramePieces::new(id, tenor);
        for (text, price) in cases {
            let at = parse_timestamp(text).unwrap();
            let expected = LivePrice {
                curve_id: id.into(),
                tenor: tenor.into(),
                generated_on: at,
                price,
            }
            .encode();
            assert_eq!(encoder.encode(&pieces, at, price).as_str(), expected);
        }
    }
}

#[test]
fn frames_keep_their_bytes_while_the_buffer_is_reused() {
    let mut encoder = FrameEncoder::default();
    let pieces = FramePieces::new("c", "Jan 26");
    let at = parse_timestamp("2025-06-13T10:00:00").unwrap();
    let frames: Vec<Utf8Bytes> = (0..5_000)
        .map(|i| encoder.encode(&pieces, at + i * 1_000, f64::from(i as i32)))
        .collect();
    assert!(frames[0]
        .as_str()
        .contains(r#""generatedOn":"2025-06-13T10:00:00.000""#));
    assert!(frames[4_999]
        .as_str()
        .contains(r#""generatedOn":"2025-06-13T10:00:04.999""#));
    assert!(frames[4_999].as_str().contains(r#""price":4999.0"#));
}
