use super::*;
use crate::record::file::{encode, recorded_rows_to_batch, FileNote};
use crate::record::layout::{backfill_name, day_name, utc_day};
use crate::record::test_support::{both, row, runtime, write_part, MIDNIGHT, MS};
use live::TickSource;

const DAY: Micros = 86_400_000_000;

#[test]
fn a_whole_lake_is_whole_and_each_planted_fault_is_found() {
    runtime().block_on(async {
        for dest in both("check") {
            dest.prepare().await.unwrap();
            let up = |at| row("C1", "Jan 26", at, TickSource::Update);
            // Monday recorded; Tuesday backfilled, and recorded too where the sides meet.
            let (monday, _) = write_part(&dest, &[up(MIDNIGHT), up(MIDNIGHT + MS)], 1).await;
            write_part(&dest, &[up(MIDNIGHT + DAY + MS)], 2).await;
            let tuesday: Vec<_> = [MIDNIGHT + DAY + MS + 7, MIDNIGHT + DAY + 2 * MS]
                .into_iter()
                .map(|at| row("C1", "Jan 26", at, TickSource::Backfill))
                .collect();
            let note = FileNote {
                curve_id: Some("C1".into()),
                ..FileNote::of_rows(&tuesday)
            };
            let name = backfill_name(utc_day(MIDNIGHT + DAY), "C1", MIDNIGHT, "ab");
            let bytes = encode(&[recorded_rows_to_batch(&tuesday).unwrap()], &note).unwrap();
            dest.put(&name, bytes).await.unwrap();

            let report = check_lake(&dest, None, None).await.unwrap();
            assert!(report.is_whole(), "{}: {report:?}", dest.shown());
            let tenor = &report.tenors[0];
            assert_eq!((tenor.days_recorded, tenor.days_backfilled), (2, 1));

            // Thursday: Wednesday is missing.
            write_part(&dest, &[up(MIDNIGHT + 3 * DAY)], 3).await;
            // A part copied: its values held twice.
            let copy = monday.replace("-000001", "-000009");
            dest.put(&copy, dest.get(&monday).await.unwrap().unwrap())
                .await
                .unwrap();
            // A compaction cut short: Monday's day file beside the part it replaces.
            let mut merged = FileNote::of_rows(&[up(MIDNIGHT), up(MIDNIGHT + MS)]);
            merged.replaces = vec![copy.clone()];
            let batch = recorded_rows_to_batch(&[up(MIDNIGHT), up(MIDNIGHT + MS)]).unwrap();
            let day_file = day_name(utc_day(MIDNIGHT));
            dest.put(&day_file, encode(&[batch], &merged).unwrap())
                .await
                .unwrap();
            // A file that is not Parquet.
            let corrupt = "date=2025-11-28/part-20251128T000000.000000Z-x-000001.parquet";
            dest.put(corrupt, bytes::Bytes::from_static(b"not parquet"))
                .await
                .unwrap();

            let report = check_lake(&dest, None, None).await.unwrap();
            assert!(!report.is_whole());
            assert_eq!(
                report.tenors[0].missing_days,
                [utc_day(MIDNIGHT + 2 * DAY)],
                "{}",
                dest.shown()
            );
            assert_eq!(report.counted_twice, [copy]);
            // The part and the day file both hold Monday's two values.
            assert_eq!(report.held_twice.len(), 1);
            assert_eq!(report.held_twice[0].values, 2);
            assert_eq!(report.unreadable.len(), 1);
            assert_eq!(report.unreadable[0].0, corrupt);
            // Bounds read only the days asked for.
            let thursday = utc_day(MIDNIGHT + 3 * DAY);
            let later = check_lake(&dest, Some(thursday), Some(thursday))
                .await
                .unwrap();
            assert!(later.is_whole(), "{later:?}");
        }
    });
}

#[test]
fn a_day_holding_another_days_copy_is_missing_misfiled_and_held_twice() {
    runtime().block_on(async {
        for dest in both("check-days") {
            dest.prepare().await.unwrap();
            let up = |at| row("C1", "Jan 26", at, TickSource::Update);
            let (monday, _) = write_part(&dest, &[up(MIDNIGHT), up(MIDNIGHT + MS)], 1).await;
            write_part(&dest, &[up(MIDNIGHT + 2 * DAY)], 2).await;
            // Tuesday's folder holds a copy of Monday's part, not its own values.
            let copy = monday.replace("date=2025-11-24", "date=2025-11-25");
            dest.put(&copy, dest.get(&monday).await.unwrap().unwrap())
                .await
                .unwrap();
            // And a part whose note claims more rows than it holds.
            let mut claims = FileNote::of_rows(&[up(MIDNIGHT + 2 * DAY + MS)]);
            claims.rows = 5;
            let batch = recorded_rows_to_batch(&[up(MIDNIGHT + 2 * DAY + MS)]).unwrap();
            let short = "date=2025-11-26/part-20251126T000000.000000Z-y-000001.parquet";
            dest.put(short, encode(&[batch], &claims).unwrap())
                .await
                .unwrap();

            let report = check_lake(&dest, None, None).await.unwrap();
            assert!(!report.is_whole());
            assert_eq!(report.tenors[0].missing_days, [utc_day(MIDNIGHT + DAY)]);
            assert_eq!(report.misfiled.len(), 1, "{}", dest.shown());
            assert_eq!(report.misfiled[0].0, copy);
            assert_eq!(
                report.held_twice,
                [HeldTwice {
                    curve_id: "C1".into(),
                    tenor: "Jan 26".into(),
                    day: utc_day(MIDNIGHT),
                    values: 2
                }]
            );
            let untrue: Vec<&str> = report
                .untrue_notes
                .iter()
                .map(|(f, _)| f.as_str())
                .collect();
            assert_eq!(untrue, [copy.as_str(), short]);
        }
    });
}
