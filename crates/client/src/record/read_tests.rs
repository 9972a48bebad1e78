use super::*;
use crate::live::TickSource;
use crate::record::test_support::{row, runtime, scratch, write_part, MIDNIGHT, MS};
use arrow_array::{Array, StringArray, TimestampMicrosecondArray};

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
