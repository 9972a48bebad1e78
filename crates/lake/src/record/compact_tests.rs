use super::*;
use crate::record::checkpoint::load;
use crate::record::file::{note_of, FileNote};
use crate::record::layout::{utc_day, FileKind};
use crate::record::test_support::{both, row, runtime, write_part, MIDNIGHT, MS};
use live::TickSource;

const DAY: i64 = 86_400_000_000;

async fn all_rows(dest: &Place) -> Vec<Recorded> {
    let mut rows = Vec::new();
    for file in data_files(dest).await.unwrap() {
        let (batches, _) = decode(dest.get(&file.name).await.unwrap().unwrap()).unwrap();
        for batch in &batches {
            rows.extend(batch_rows(batch).unwrap());
        }
    }
    sort_rows(&mut rows);
    rows
}

#[test]
fn closed_days_become_one_sorted_file_and_today_is_left_alone() {
    runtime().block_on(async {
        for dest in both("compact-days") {
            dest.prepare().await.unwrap();
            let up = |curve, tenor, at| row(curve, tenor, at, TickSource::Update);
            write_part(&dest, &[up("C1", "Feb 26", MIDNIGHT + MS)], 1).await;
            write_part(&dest, &[up("C1", "Jan 26", MIDNIGHT + 2 * MS)], 2).await;
            write_part(&dest, &[up("C1", "Jan 26", MIDNIGHT + DAY)], 3).await;
            write_part(&dest, &[up("C1", "Jan 26", MIDNIGHT + DAY + MS)], 4).await;
            let before = all_rows(&dest).await;
            let done = compact(&dest, utc_day(MIDNIGHT + DAY)).await.unwrap();
            assert_eq!(done.len(), 1);
            assert_eq!((done[0].files, done[0].rows), (2, 2));
            let files = data_files(&dest).await.unwrap();
            let kinds: Vec<(NaiveDate, FileKind)> =
                files.iter().map(|f| (f.day, f.kind.clone())).collect();
            let (first, second) = (utc_day(MIDNIGHT), utc_day(MIDNIGHT + DAY));
            assert_eq!(
                kinds,
                vec![
                    (first, FileKind::Day),
                    (second, FileKind::Part),
                    (second, FileKind::Part)
                ]
            );
            assert_eq!(all_rows(&dest).await, before);
            // Calendar order inside the compacted file: Jan before Feb.
            let (batches, _) = decode(dest.get(&day_name(first)).await.unwrap().unwrap()).unwrap();
            let tenors: Vec<String> = batch_rows(&batches[0])
                .unwrap()
                .iter()
                .map(|r| r.tick.tenor.to_string())
                .collect();
            assert_eq!(tenors, ["Jan 26", "Feb 26"]);
            let resumed = load(&dest).await.unwrap();
            assert_eq!(
                resumed.last[&("C1".to_string(), "Jan 26".to_string())],
                MIDNIGHT + DAY + MS
            );
        }
    });
}

#[test]
fn parts_a_cut_compaction_left_are_removed_not_counted_twice() {
    runtime().block_on(async {
        for dest in both("compact-cut") {
            dest.prepare().await.unwrap();
            let up = |at| row("C1", "Jan 26", at, TickSource::Update);
            let a = write_part(&dest, &[up(MIDNIGHT)], 1).await.0;
            let b = write_part(&dest, &[up(MIDNIGHT + MS)], 2).await.0;
            let rows = all_rows(&dest).await;
            // The compacted file is written; the parts were not yet deleted.
            let mut note = FileNote::of_rows(&rows);
            note.replaces = vec![a.clone(), b.clone()];
            let bytes = encode(&[recorded_rows_to_batch(&rows).unwrap()], &note).unwrap();
            dest.put(&day_name(utc_day(MIDNIGHT)), bytes).await.unwrap();
            let files = data_files(&dest).await.unwrap();
            assert_eq!(files.len(), 1, "{files:?}");
            assert_eq!(all_rows(&dest).await, rows);
            let footer = dest.footer(&files[0].name).await.unwrap();
            assert_eq!(note_of(&footer).unwrap().replaces, vec![a, b]);
        }
    });
}
