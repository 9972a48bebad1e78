use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::NaiveDate;

use super::*;
use crate::cache::days::slice_batches;
use crate::cache::files::{Files, Put, Written};
use domain::arrow::build_batch;
use domain::records::Dependency;
use domain::rows::PriceRow;
use domain::tenor::Tenor;

const DAY_MICROS: i64 = 86_400_000_000;

/// A segment written in a folder, as a cache in a folder writes it.
fn write(
    segment: &Segment,
    history: History,
    curve_id: &str,
    tenor: &str,
    batches: &[RecordBatch],
) -> io::Result<Written> {
    super::write(
        &Files::Folder,
        segment,
        Put::Create,
        (history, curve_id, tenor),
        batches,
    )
}

fn read(
    segment: &Segment,
    history: History,
    curve_id: &str,
    tenor: &str,
) -> Result<Vec<RecordBatch>, ReadError> {
    super::read(&Files::Folder, segment, history, curve_id, tenor)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-segment-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// Intraday rows of `Jan 25`: `per_day` values on each day of `days`.
pub(crate) fn intraday(days: &[NaiveDate], per_day: i64) -> RecordBatch {
    let rows = days
        .iter()
        .flat_map(|d| {
            let start = to_epoch_days(*d) as i64 * DAY_MICROS;
            (0..per_day).map(move |i| PriceRow {
                curve_id: Arc::from("c1"),
                tenor: Tenor::parse_lenient("Jan 25"),
                date: None,
                snapshot: None,
                generated_on: Some(start + i * 60_000_000),
                price: i as f64,
                units: Some("$/mt".into()),
                dependencies: Some(vec![Dependency {
                    id: Some("d".into()),
                    name: Some("dep".into()),
                    value: Some(1.5),
                    units: None,
                    tenor_name: Some("Jan 25".into()),
                }]),
                metadata: Some(vec![("k".into(), Some("v".into()))]),
            })
        })
        .collect();
    build_batch(History::Intraday.table_kind(), rows).unwrap()
}

#[test]
fn a_segment_reads_back_as_the_table_it_was() {
    let dir = scratch("roundtrip");
    let segment = Segment::in_dir(&dir, day("2025-01-01"), day("2025-01-03"));
    let batch = intraday(&[day("2025-01-01"), day("2025-01-03")], 5);
    write(
        &segment,
        History::Intraday,
        "c1",
        "Jan 25",
        std::slice::from_ref(&batch),
    )
    .unwrap();
    let read_back = read(&segment, History::Intraday, "c1", "Jan 25").unwrap();
    assert_eq!(read_back, vec![batch.clone()]);
    assert_eq!(
        read_back[0].schema(),
        schema(History::Intraday.table_kind())
    );

    // Only the days asked for.
    let third = day("2025-01-03");
    let sliced = slice_batches(&read_back, History::Intraday, third, third);
    assert_eq!(sliced, vec![batch.slice(5, 5)]);
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_segment_of_days_without_values_is_empty() {
    let dir = scratch("empty");
    let segment = Segment::in_dir(&dir, day("2020-01-01"), day("2020-12-31"));
    write(&segment, History::Intraday, "c1", "Jan 25", &[]).unwrap();
    let read_back = read(&segment, History::Intraday, "c1", "Jan 25").unwrap();
    assert_eq!(
        read_back.iter().map(RecordBatch::num_rows).sum::<usize>(),
        0
    );
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn damaged_files_are_corrupt_and_missing_ones_gone() {
    let dir = scratch("damaged");
    let segment = Segment::in_dir(&dir, day("2025-01-01"), day("2025-01-01"));
    let corrupt = |segment: &Segment| {
        matches!(
            read(segment, History::Intraday, "c1", "Jan 25"),
            Err(ReadError::Corrupt(_))
        )
    };
    assert!(matches!(
        read(&segment, History::Intraday, "c1", "Jan 25"),
        Err(ReadError::Gone)
    ));
    let batch = intraday(&[day("2025-01-01")], 50);
    write(&segment, History::Intraday, "c1", "Jan 25", &[batch]).unwrap();
    let whole = fs::read(&segment.path).unwrap();

    // Cut short.
    fs::write(&segment.path, &whole[..whole.len() / 2]).unwrap();
    assert!(corrupt(&segment));
    // Zeroed in the middle.
    let mut zeroed = whole.clone();
    let middle = zeroed.len() / 3;
    zeroed[middle..middle + 200].fill(0);
    fs::write(&segment.path, &zeroed).unwrap();
    assert!(corrupt(&segment));
    // Whole, but under the name of other days, or of another tenor.
    fs::write(&segment.path, &whole).unwrap();
    let renamed = Segment::in_dir(&dir, day("2025-01-01"), day("2025-01-02"));
    fs::copy(&segment.path, &renamed.path).unwrap();
    assert!(corrupt(&renamed));
    assert!(matches!(
        read(&segment, History::Intraday, "c1", "Feb 25"),
        Err(ReadError::Corrupt(_))
    ));
    assert!(read(&segment, History::Intraday, "c1", "Jan 25").is_ok());
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn in_a_store_a_segment_is_created_once_and_checked_when_read() {
    for (files, root) in crate::cache::files::tests::both("segment") {
        let dir = root.join("Jan%2025");
        let segment = Segment::in_dir(&dir, day("2025-01-01"), day("2025-01-02"));
        let of = (History::Intraday, "c1", "Jan 25");
        let read = |segment: &Segment| super::read(&files, segment, of.0, of.1, of.2);
        assert!(matches!(read(&segment), Err(ReadError::Gone)));
        let batch = intraday(&[day("2025-01-01"), day("2025-01-02")], 3);
        let wrote = super::write(
            &files,
            &segment,
            Put::Create,
            of,
            std::slice::from_ref(&batch),
        );
        assert_eq!(wrote.unwrap(), Written::Whole);
        assert_eq!(read(&segment).unwrap(), vec![batch.clone()]);
        // A second writer of the same days: on a store, it loses the race.
        let again = super::write(
            &files,
            &segment,
            Put::Create,
            of,
            std::slice::from_ref(&batch),
        )
        .unwrap();
        let expected = if files.is_store() {
            Written::Lost
        } else {
            Written::Whole
        };
        assert_eq!(again, expected);
        // Planted bytes are not a segment.
        let planted = Segment::in_dir(&dir, day("2025-02-01"), day("2025-02-01"));
        files
            .write(&planted.path, Put::Create, |out| {
                out.write_all(b"PAR1 planted")
            })
            .unwrap();
        assert!(matches!(read(&planted), Err(ReadError::Corrupt(_))));
    }
}
