use std::sync::Arc;

use chrono::NaiveDate;

use super::*;
use crate::cache::files::tests::both;
use crate::cache::layout::{curve_dir, tenor_dir, Segment};
use crate::cache::prefetch::{cached_days, Prefetched};
use crate::cache::segment;
use domain::arrow::build_batch;
use domain::rows::PriceRow;
use domain::tenor::Tenor;

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// Settlements of `tenor` of curve c1, one a day from `first` to `last`.
fn settlements(tenor: &str, first: &str, last: &str) -> RecordBatch {
    let (first, last) = (day(first), day(last));
    let rows = first
        .iter_days()
        .take_while(|d| *d <= last)
        .enumerate()
        .map(|(i, d)| PriceRow {
            curve_id: Arc::from("c1"),
            tenor: Tenor::parse_lenient(tenor),
            date: Some(d),
            snapshot: None,
            generated_on: None,
            price: i as f64,
            units: Some("$/bbl".into()),
            dependencies: None,
            metadata: None,
        })
        .collect();
    build_batch(History::Settlements.table_kind(), rows).unwrap()
}

fn days(tenor: &str, first: &str, last: &str) -> TenorDays {
    TenorDays {
        tenor: tenor.into(),
        first: day(first),
        last: day(last),
    }
}

const OF: (History, &str) = (History::Settlements, "c1");

fn two_tenors() -> Vec<(TenorDays, Vec<RecordBatch>)> {
    vec![
        (
            days("Jan 26", "2025-01-01", "2025-01-31"),
            vec![settlements("Jan 26", "2025-01-01", "2025-01-31")],
        ),
        (
            days("Feb 26", "2025-01-10", "2025-01-31"),
            vec![settlements("Feb 26", "2025-01-10", "2025-01-20")],
        ),
    ]
}

fn spans(tenors: &[(TenorDays, Vec<RecordBatch>)]) -> Vec<TenorDays> {
    tenors.iter().map(|(d, _)| d.clone()).collect()
}

/// A segment of Jan 26 over `first..=last` of curve c1, then the pack of
/// [`two_tenors`] beside it: what a cold pull leaves.
fn a_segment_then_the_pack(
    files: &Files,
    root: &Path,
    (first, last): (&str, &str),
) -> (Segment, PackFile) {
    let jan = tenor_dir(root, History::Settlements, "c1", "Jan 26");
    let seg = Segment::in_dir(&jan, day(first), day(last));
    let rows = [settlements("Jan 26", first, last)];
    segment::write(
        files,
        &seg,
        Put::Create,
        (History::Settlements, "c1", "Jan 26"),
        &rows,
    )
    .unwrap();
    let tenors = two_tenors();
    let curve = curve_dir(root, History::Settlements, "c1");
    let file = PackFile::of(&curve, &spans(&tenors)).unwrap();
    write(files, &file, Put::Create, OF, &tenors).unwrap();
    (seg, file)
}

#[test]
fn a_pack_reads_back_each_tenors_days_and_rows() {
    for (files, root) in both("pack-roundtrip") {
        let curve = curve_dir(&root, History::Settlements, "c1");
        let tenors = two_tenors();
        let file = PackFile::of(&curve, &spans(&tenors)).unwrap();
        assert_eq!(
            (file.first, file.last),
            (day("2025-01-01"), day("2025-01-31"))
        );
        let name = file.path.file_name().unwrap().to_str().unwrap();
        assert_eq!(PackFile::from_name(&curve, name), Some(file.clone()));
        // A segment's name is not a pack's, nor a pack's a segment's.
        assert_eq!(
            PackFile::from_name(&curve, "2025-01-01_2025-01-31.parquet"),
            None
        );
        assert_eq!(Segment::from_name(&curve, name), None);
        let written = write(&files, &file, Put::Create, OF, &tenors).unwrap();
        assert_eq!(written, Written::Whole);
        let pack = from_file(files.read(&file.path), files.is_store(), &file, OF).unwrap();
        let mut held: Vec<TenorDays> = pack.spans().cloned().collect();
        held.sort_by_key(|d| d.first);
        assert_eq!(held, spans(&tenors));
        for (days, rows) in &tenors {
            assert_eq!(pack.rows(&days.tenor).unwrap(), rows.clone());
        }
        assert_eq!(pack.rows("Mar 26"), None);
        // Another curve's pack is not this one's.
        let other = from_file(
            files.read(&file.path),
            files.is_store(),
            &file,
            (History::Settlements, "c2"),
        );
        assert!(matches!(other, Err(ReadError::Corrupt(_))));
    }
}

#[test]
fn a_pack_whose_rows_are_not_what_its_note_says_is_corrupt() {
    for (files, root) in both("pack-lying") {
        let curve = curve_dir(&root, History::Settlements, "c1");
        let tenors = two_tenors();
        let file = PackFile::of(&curve, &spans(&tenors)).unwrap();
        // Feb 26's rows under Jan 26's name in the note.
        let lying = vec![(
            days("Jan 26", "2025-01-01", "2025-01-31"),
            vec![settlements("Feb 26", "2025-01-10", "2025-01-20")],
        )];
        write(&files, &file, Put::Replace, OF, &lying).unwrap();
        let read = from_file(files.read(&file.path), files.is_store(), &file, OF);
        assert!(matches!(read, Err(ReadError::Corrupt(_))), "{read:?}");
        // Not Parquet at all.
        files
            .write(&file.path, Put::Replace, |out| out.write_all(b"junk"))
            .unwrap();
        let read = from_file(files.read(&file.path), files.is_store(), &file, OF);
        assert!(matches!(read, Err(ReadError::Corrupt(_))));
        // Gone.
        files.delete(&file.path).unwrap();
        let read = from_file(files.read(&file.path), files.is_store(), &file, OF);
        assert!(matches!(read, Err(ReadError::Gone)));
    }
}

#[test]
fn a_call_whose_days_a_pack_holds_reads_the_pack_and_no_segment() {
    for (files, root) in both("pack-prefetch") {
        let curve = curve_dir(&root, History::Settlements, "c1");
        let jan = tenor_dir(&root, History::Settlements, "c1", "Jan 26");
        let feb = tenor_dir(&root, History::Settlements, "c1", "Feb 26");
        // The segments a cold pull keeps, then its pack.
        let (seg, file) = a_segment_then_the_pack(&files, &root, ("2025-01-01", "2025-01-31"));
        // A call of more tenors than one round of reads: packs are read.
        let mut dirs = vec![jan.clone(), feb.clone()];
        let others =
            (0..15).map(|i| tenor_dir(&root, History::Settlements, "c1", &format!("T{i}")));
        dirs.extend(others);
        let got = Prefetched::read(
            &files,
            &curve,
            &dirs,
            (day("2025-01-05"), day("2025-01-25")),
            OF,
        );
        assert!(got.pack(&file.path).is_some());
        // The pack, written last, is each tenor's first source.
        assert_eq!(got.segments(&jan)[0].path, file.path);
        assert_eq!(got.segments(&feb)[0].path, file.path);
        assert!(got.take(&seg.path).is_none(), "the segment is not read");

        // A pack that lies is removed, and the tenors planned without it.
        files
            .write(&file.path, Put::Replace, |out| out.write_all(b"junk"))
            .unwrap();
        let got = Prefetched::read(
            &files,
            &curve,
            &dirs,
            (day("2025-01-05"), day("2025-01-25")),
            OF,
        );
        assert!(got.pack(&file.path).is_none());
        assert_eq!(got.segments(&jan), vec![seg.clone()]);
        assert!(got.take(&seg.path).is_some(), "the segment is read instead");
        assert_eq!(
            files.read(&file.path).unwrap(),
            None,
            "the corrupt pack is removed"
        );
    }
}

#[test]
fn the_days_cached_count_packs_and_segments_once() {
    for (files, root) in both("pack-days") {
        a_segment_then_the_pack(&files, &root, ("2025-01-20", "2025-02-10"));
        let held = cached_days(&files, &root, History::Settlements, "c1");
        assert_eq!(held["Jan 26"], vec![(day("2025-01-01"), day("2025-02-10"))]);
        assert_eq!(held["Feb 26"], vec![(day("2025-01-10"), day("2025-01-31"))]);
        assert_eq!(held.len(), 2);
        assert!(cached_days(&files, &root, History::Intraday, "c1").is_empty());
    }
}
