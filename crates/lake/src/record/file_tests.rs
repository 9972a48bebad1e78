use super::*;
use crate::record::test_support::{row, MIDNIGHT, MS};

#[test]
fn a_file_reads_back_as_written_with_its_note() {
    let rows = vec![
        row("C1", "Jan 26", MIDNIGHT + 1_500, TickSource::Backfill),
        row("C1", "Jan 26", MIDNIGHT + 2 * MS, TickSource::Update),
        row("C2", "Q1 26", MIDNIGHT, TickSource::Snapshot),
    ];
    let note = FileNote::of_rows(&rows);
    let bytes = encode(&[recorded_rows_to_batch(&rows).unwrap()], &note).unwrap();
    let (batches, read_note) = decode(bytes).unwrap();
    assert_eq!(read_note.as_ref(), Some(&note));
    assert_eq!(batch_rows(&batches[0]).unwrap(), rows);
    // Last times are kept truncated to milliseconds.
    let last: Vec<_> = note.last.into_iter().collect();
    assert_eq!(
        last,
        vec![
            (("C1".into(), "Jan 26".into()), MIDNIGHT + 2 * MS),
            (("C2".into(), "Q1 26".into()), MIDNIGHT),
        ]
    );
}

#[test]
fn the_schema_is_the_recordings() {
    let names: Vec<String> = tick_schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(
        names,
        [
            "curve_id",
            "tenor",
            "generated_on",
            "price",
            "source",
            "recorded_at"
        ]
    );
}

#[test]
fn a_cut_file_or_a_stranger_is_refused() {
    let rows = vec![row("C1", "Jan 26", MIDNIGHT, TickSource::Update)];
    let bytes = encode(
        &[recorded_rows_to_batch(&rows).unwrap()],
        &FileNote::of_rows(&rows),
    )
    .unwrap();
    assert!(decode(bytes.slice(..bytes.len() - 10)).is_err());
    assert!(decode(Bytes::from_static(b"not parquet")).is_err());
}
