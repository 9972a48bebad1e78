use super::*;

const NOON: Micros = 1_763_985_600_000_000; // 2025-11-24 12:00:00 UTC

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[test]
fn parts_sort_in_the_order_they_were_closed() {
    let first = part_name(day("2025-11-24"), NOON, "ab12", 9);
    let second = part_name(day("2025-11-24"), NOON + 1, "ab12", 10);
    assert_eq!(
        first,
        "date=2025-11-24/part-20251124T120000.000000Z-ab12-000009.parquet"
    );
    assert!(first < second);
}

#[test]
fn names_read_back_as_the_files_they_are() {
    let part = part_name(day("2025-11-23"), NOON, "ab12", 1);
    assert_eq!(
        data_file(&part),
        Some(DataFile {
            name: part.clone(),
            day: day("2025-11-23"),
            kind: FileKind::Part
        })
    );
    let compacted = day_name(day("2025-11-23"));
    assert_eq!(compacted, "date=2025-11-23/day-2025-11-23.parquet");
    assert_eq!(data_file(&compacted).unwrap().kind, FileKind::Day);
}

#[test]
fn backfilled_files_name_their_curve_by_digest() {
    let name = backfill_name(day("2025-11-22"), "a/b c", NOON, "7c2e");
    let tag = curve_tag("a/b c");
    assert_eq!(
        name,
        format!("date=2025-11-22/backfill-{tag}-20251124T120000.000000Z-7c2e.parquet")
    );
    assert_eq!(backfill_curve_tag(&name), Some(tag.as_str()));
    assert_ne!(curve_tag("a/b c"), curve_tag("a/b d"));
    let file = data_file(&name).unwrap();
    assert_eq!(
        (file.day, file.kind),
        (day("2025-11-22"), FileKind::Backfill)
    );
    assert_eq!(data_file("date=2025-11-22/backfill-short-x.parquet"), None);
}

#[test]
fn temporary_files_notes_and_strangers_are_not_data() {
    for name in [
        "_checkpoint.json",
        "_status.json",
        "date=2025-11-23/.part-x.parquet.tmp",
        "date=2025-11-23/day-2025-11-22.parquet",
        "date=2025-11-23/notes.txt",
        "date=yesterday/part-1.parquet",
        "part-1.parquet",
    ] {
        assert_eq!(data_file(name), None, "{name}");
    }
}

#[test]
fn days_are_utc_days() {
    assert_eq!(utc_day(NOON), day("2025-11-24"));
    assert_eq!(utc_day(NOON - 12 * 3_600_000_000 - 1), day("2025-11-23"));
}
