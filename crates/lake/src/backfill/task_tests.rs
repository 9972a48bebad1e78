use super::*;
use crate::backfill::held::{curve_day, held};
use crate::record::read::{read_ticks, TickSelection};
use crate::record::test_support::{both, row, runtime, MIDNIGHT, MS};
use live::TickSource;

fn task(tenors: &[&str]) -> BackfillTask {
    let day = utc_day(MIDNIGHT);
    BackfillTask {
        curve_id: "C1".into(),
        tenors: tenors.iter().map(|t| t.to_string()).collect(),
        start: day,
        end: day,
    }
}

fn values(tenor: &str, count: i64) -> Vec<Recorded> {
    (0..count)
        .map(|i| {
            row(
                "C1",
                tenor,
                MIDNIGHT + i * 60_000 * MS,
                TickSource::Backfill,
            )
        })
        .collect()
}

#[test]
fn a_day_written_again_keeps_other_tenors_and_replaces_its_own() {
    runtime().block_on(async {
        for dest in both("backfill-day") {
            let day = utc_day(MIDNIGHT);
            let jan = "Jan 26".to_string();
            let feb = "Feb 26".to_string();
            let maker = OneThread::start("test", "writing").unwrap();
            let first = write_day(
                &dest,
                &maker,
                (&task(&["Jan 26"]), day),
                values("Jan 26", 3),
                vec![jan.clone()],
                "a",
            )
            .await
            .unwrap();
            assert_eq!(
                (first.values, first.days_complete, first.files_written),
                (3, 1, 1)
            );
            // Feb's values, not yet final; then Feb again, final, with one more value.
            let two = task(&["Feb 26"]);
            write_day(&dest, &maker, (&two, day), values("Feb 26", 2), vec![], "b")
                .await
                .unwrap();
            write_day(
                &dest,
                &maker,
                (&two, day),
                values("Feb 26", 4),
                vec![feb.clone()],
                "c",
            )
            .await
            .unwrap();

            let CurveDay {
                held: files, stale, ..
            } = curve_day(&dest, "C1", day).await.unwrap();
            assert_eq!((files.len(), stale.len()), (1, 0), "{}", dest.shown());
            let note = &files[0].note;
            assert_eq!(note.complete, ["Feb 26", "Jan 26"]);
            assert_eq!((note.rows, files[0].rows.len()), (7, 7));
            let held = held(&dest, day, day).await.unwrap();
            assert!(held.is_complete("C1", "Jan 26", day));
            assert!(held.is_complete("C1", "Feb 26", day));
            assert!(!held.is_complete("C2", "Feb 26", day));
            let all = read_ticks(dest.clone(), TickSelection::default())
                .await
                .unwrap();
            assert_eq!(all.num_rows(), 7);
        }
    });
}

#[test]
fn a_file_left_beside_its_replacement_is_not_read() {
    runtime().block_on(async {
        for dest in both("backfill-stale") {
            let day = utc_day(MIDNIGHT);
            let jan = "Jan 26".to_string();
            let one = task(&["Jan 26"]);
            let maker = OneThread::start("test", "writing").unwrap();
            write_day(&dest, &maker, (&one, day), values("Jan 26", 2), vec![], "a")
                .await
                .unwrap();
            let first = curve_day(&dest, "C1", day).await.unwrap().held;
            let old = first[0].name.clone();
            let bytes = dest.get(&old).await.unwrap().unwrap();
            write_day(
                &dest,
                &maker,
                (&one, day),
                values("Jan 26", 3),
                vec![jan.clone()],
                "b",
            )
            .await
            .unwrap();
            // As if killed between writing the new file and deleting the old one.
            dest.put(&old, bytes).await.unwrap();
            let all = read_ticks(dest.clone(), TickSelection::default())
                .await
                .unwrap();
            assert_eq!(all.num_rows(), 3, "{}", dest.shown());
            let CurveDay {
                held: files, stale, ..
            } = curve_day(&dest, "C1", day).await.unwrap();
            assert_eq!(files.len(), 1);
            assert!(stale.is_empty(), "read_ticks removed it");
        }
    });
}
