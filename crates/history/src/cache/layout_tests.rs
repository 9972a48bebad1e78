use std::path::Path;

use super::*;

#[test]
fn names_are_safe_file_names_and_come_back() {
    for name in ["Jan 25", "26-EOM Feb 24", "C 00", "..", "a/b", "Q1 25", "é"] {
        let encoded = encode(name);
        assert!(encoded
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_%".contains(c)));
        assert_eq!(decode(&encoded).as_deref(), Some(name));
    }
    assert_eq!(encode("Jan 25"), "Jan%2025");
    assert_eq!(encode(".."), "%2E%2E");
}

#[test]
fn services_and_accounts_get_folders_of_their_own() {
    let root = Path::new("/cache");
    let a = service_dir(root, "https://a.test/v2", "email:x@y");
    assert_eq!(a, service_dir(root, "https://a.test/v2", "email:x@y"));
    assert_ne!(a, service_dir(root, "https://b.test/v2", "email:x@y"));
    assert_ne!(a, service_dir(root, "https://a.test/v2", "email:z@y"));
    assert!(a.starts_with("/cache/v1"));
}

#[test]
fn segment_names_say_their_days() {
    let dir = Path::new("/d");
    let segment = Segment::from_name(dir, "2025-01-01_2025-01-31.parquet").unwrap();
    assert_eq!(segment.first.to_string(), "2025-01-01");
    assert_eq!(segment.last.to_string(), "2025-01-31");
    assert_eq!(segment, Segment::in_dir(dir, segment.first, segment.last));
    for name in [
        "2025-01-31_2025-01-01.parquet",
        ".tmp-1-2025-01-01_2025-01-31.parquet",
        "2025-01-01_2025-01-31.parquet.part",
        "notes.txt",
    ] {
        assert_eq!(Segment::from_name(dir, name), None, "{name}");
    }
}
