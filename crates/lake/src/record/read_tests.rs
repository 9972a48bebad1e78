use super::*;
use crate::record::test_support::{row, runtime, scratch, write_part, MIDNIGHT, MS};
use arrow_array::{Array, StringArray, TimestampMicrosecondArray};
use live::TickSource;

const DAY: i64 = 86_400_000_000;

#[test]
fn the_selection_is_checked() {
    assert!(TickSelection::new(Some(""), None, None, None).is_err());
    assert!(TickSelection::new(None, Some("Q5 26"), None, None).is_err());
    assert!(TickSelection::new(None, None, Some(2), Some(1)).is_err());
    assert!(TickSelection::new(Some("C1"), Some("Jan 26"), Some(1), Some(1)).is_ok());
}

#[test]
fn ticks_come_back_selected_and_sorted_by_curve_tenor_and_time() {
    runtime().block_on(async {
        let root = scratch("read");
        let dest = Place::Folder(root.clone());
        dest.prepare().await.unwrap();
        let up = |curve, tenor, at| row(curve, tenor, at, TickSource::Update);
        let files = [
            vec![
                up("C2", "Jan 26", MIDNIGHT + MS),
                up("C1", "Feb 26", MIDNIGHT),
                up("C1", "Jan 26", MIDNIGHT + 2 * MS),
            ],
            vec![up("C1", "Jan 26", MIDNIGHT + DAY)],
        ];
        for (i, rows) in files.iter().enumerate() {
            write_part(&dest, rows, i as u64).await;
        }
        let place = || Place::Folder(root.clone());
        let all = read_ticks(place(), TickSelection::default()).await.unwrap();
        let batch = &all.batches[0];
        let text = |i: usize| {
            let column = batch
                .column(i)
                .as_any()
                .downcast_ref::<StringArray>()
                .unwrap();
            (0..column.len())
                .map(|r| column.value(r).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(text(0), ["C1", "C1", "C1", "C2"]);
        assert_eq!(text(1), ["Jan 26", "Jan 26", "Feb 26", "Jan 26"]);
        let times = batch
            .column(2)
            .as_any()
            .downcast_ref::<TimestampMicrosecondArray>()
            .unwrap();
        assert!(times.value(0) < times.value(1));

        let jan = TickSelection::new(Some("C1"), Some("Jan 26"), None, Some(MIDNIGHT + 5 * MS));
        let some = read_ticks(place(), jan.unwrap()).await.unwrap();
        assert_eq!(some.batches[0].num_rows(), 1);

        let missing = read_ticks(
            Place::Folder(root.join("nothing")),
            TickSelection::default(),
        );
        assert!(matches!(missing.await, Err(ClientError::InvalidRequest(_))));
    });
}

#[test]
fn a_value_held_by_the_recorder_and_the_backfill_is_read_once() {
    let at = MIDNIGHT + 7 * MS;
    let mut backfilled = row("C1", "Jan 26", at + 456, TickSource::Backfill);
    backfilled.recorded_at = at + DAY;
    let recorded = row("C1", "Jan 26", at, TickSource::Update);
    let next = row("C1", "Jan 26", at + MS, TickSource::Backfill);
    let other_tenor = row("C1", "Feb 26", at, TickSource::Backfill);
    let mut rows = vec![
        backfilled.clone(),
        next.clone(),
        recorded.clone(),
        other_tenor.clone(),
        backfilled.clone(),
    ];
    sort_rows(&mut rows);
    assert_eq!(each_value_once(rows), vec![recorded, next, other_tenor]);
}

#[test]
fn a_value_filed_under_the_day_next_to_its_own_is_read_with_its_day_once() {
    use crate::record::file::{encode, recorded_rows_to_batch, FileNote};
    use crate::record::layout::part_name;
    runtime().block_on(async {
        let root = scratch("read-misfiled");
        let dest = Place::Folder(root.clone());
        dest.prepare().await.unwrap();
        let up = |at| row("C1", "Jan 26", at, TickSource::Update);
        let own = vec![up(MIDNIGHT + DAY + MS), up(MIDNIGHT + DAY + 3 * MS)];
        write_part(&dest, &own, 1).await;
        // The second day's values, one held twice, filed under the days
        // before and after it.
        let stray = |rows: &[Recorded], day, sequence| {
            let note = FileNote::of_rows(rows);
            let bytes = encode(&[recorded_rows_to_batch(rows).unwrap()], &note).unwrap();
            let name = part_name(utc_day(day), MIDNIGHT, "stray", sequence);
            let dest = &dest;
            async move { dest.put(&name, bytes).await.unwrap() }
        };
        stray(&[up(MIDNIGHT + DAY + 2 * MS)], MIDNIGHT, 2).await;
        stray(
            &[own[1].clone(), up(MIDNIGHT + DAY + 4 * MS)],
            MIDNIGHT + 2 * DAY,
            3,
        )
        .await;
        let times = |start, end| {
            let selection = TickSelection::new(None, None, start, end).unwrap();
            let place = Place::Folder(root.clone());
            async move {
                let table = read_ticks(place, selection).await.unwrap();
                let batch = &table.batches[0];
                let times = batch
                    .column(2)
                    .as_any()
                    .downcast_ref::<TimestampMicrosecondArray>()
                    .unwrap();
                (0..times.len())
                    .map(|i| times.value(i) - MIDNIGHT - DAY)
                    .collect::<Vec<_>>()
            }
        };
        let all = vec![MS, 2 * MS, 3 * MS, 4 * MS];
        assert_eq!(times(None, None).await, all);
        let day = (Some(MIDNIGHT + DAY), Some(MIDNIGHT + 2 * DAY - 1));
        assert_eq!(times(day.0, day.1).await, all);
        assert_eq!(times(day.0, None).await, all);
        assert_eq!(times(None, day.1).await, all);
        assert_eq!(times(Some(MIDNIGHT + DAY + 2 * MS), day.1).await, all[1..]);
        assert!(times(None, Some(MIDNIGHT + DAY - 1)).await.is_empty());
    });
}
