use super::*;

fn part(first: u64, last: u64) -> ByteRange {
    ByteRange::Part { first, last }
}

#[test]
fn single_ranges() {
    assert_eq!(byte_range(None, 100), ByteRange::Whole);
    assert_eq!(byte_range(Some("bytes=0-"), 100), part(0, 99));
    assert_eq!(byte_range(Some("bytes=40-"), 100), part(40, 99));
    assert_eq!(byte_range(Some("bytes=40-49"), 100), part(40, 49));
    assert_eq!(byte_range(Some("bytes=99-99"), 100), part(99, 99));
    assert_eq!(byte_range(Some("bytes=90-500"), 100), part(90, 99));
    assert_eq!(byte_range(Some("bytes=-10"), 100), part(90, 99));
    assert_eq!(byte_range(Some("bytes=-500"), 100), part(0, 99));
}

#[test]
fn ranges_past_the_end_are_unsatisfiable() {
    assert_eq!(
        byte_range(Some("bytes=100-"), 100),
        ByteRange::Unsatisfiable
    );
    assert_eq!(
        byte_range(Some("bytes=100-200"), 100),
        ByteRange::Unsatisfiable
    );
    assert_eq!(byte_range(Some("bytes=-0"), 100), ByteRange::Unsatisfiable);
    assert_eq!(byte_range(Some("bytes=0-"), 0), ByteRange::Unsatisfiable);
}

#[test]
fn headers_not_followed_send_the_whole_file() {
    for header in [
        "items=0-5",
        "bytes=5-2",
        "bytes=0-1,5-6",
        "bytes=a-",
        "bytes=-",
        "bytes=",
        "bytes=+1-2",
        "bytes=18446744073709551616-",
    ] {
        assert_eq!(byte_range(Some(header), 100), ByteRange::Whole, "{header}");
    }
}
