use super::*;
use crate::record::file::{recorded_rows_to_batch, tick_schema};
use crate::record::test_support::{row, runtime, scratch, write_part, MIDNIGHT, MS};
use live::TickSource;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use places::storage::Place;

#[test]
fn a_files_span_comes_from_its_statistics() {
    runtime().block_on(async {
        let dest = Place::Folder(scratch("span"));
        dest.prepare().await.unwrap();
        let rows = [
            row("C1", "Jan 26", MIDNIGHT + 9 * MS, TickSource::Update),
            row("C1", "Feb 26", MIDNIGHT + DAY + 3 * MS, TickSource::Update),
        ];
        let (name, _) = write_part(&dest, &rows, 1).await;
        let footer = dest.footer(&name).await.unwrap();
        assert_eq!(
            time_span(&footer),
            Some((MIDNIGHT + 9 * MS, MIDNIGHT + DAY + 3 * MS))
        );
        let day = |offset: u64| utc_day_of(MIDNIGHT) + Days::new(offset);
        assert!(may_hold(&footer, days_times(day(1), day(1))));
        assert!(may_hold(&footer, days_times(day(0), day(0))));
        assert!(!may_hold(&footer, days_times(day(2), day(3))));
        assert!(!may_hold(&footer, (MIDNIGHT - DAY, MIDNIGHT + 9 * MS - 1)));
    });
}

#[test]
fn a_file_without_statistics_may_hold_any_day() {
    let rows = [row("C1", "Jan 26", MIDNIGHT, TickSource::Update)];
    let properties = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::None)
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, tick_schema(), Some(properties)).unwrap();
    writer
        .write(&recorded_rows_to_batch(&rows).unwrap())
        .unwrap();
    writer.close().unwrap();
    let metadata = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&bytes::Bytes::from(out))
        .unwrap();
    assert_eq!(time_span(&metadata), None);
    assert!(may_hold(&metadata, (MIDNIGHT + DAY, MIDNIGHT + 2 * DAY)));
}

#[test]
fn the_days_next_to_a_span_and_its_times() {
    let first = utc_day_of(MIDNIGHT);
    let last = first + Days::new(2);
    let next: Vec<NaiveDate> = neighbours(first, last).collect();
    assert_eq!(next, [first - Days::new(1), last + Days::new(1)]);
    assert_eq!(days_times(first, last), (MIDNIGHT, MIDNIGHT + 3 * DAY - 1));
}

fn utc_day_of(at: Micros) -> NaiveDate {
    crate::record::layout::utc_day(at)
}
