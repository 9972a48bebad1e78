use super::*;

const MS: Micros = 1_000;
const T0: Micros = 1_750_000_000_000_000;

fn live(at: Micros, source: TickSource) -> Value {
    Value {
        at,
        price: at as f64,
        source,
    }
}

#[test]
fn gap_values_come_once_in_order_and_the_snapshot_repeat_is_dropped() {
    // Delivered up to T0; while disconnected T0+1..T0+3 ms were published;
    // the resubscription's snapshot repeats T0+3 ms (at ms precision),
    // then T0+4 ms arrives live during the backfill.
    let mut mark = Watermark(Some(T0));
    let backfill = vec![
        (T0 + 3 * MS + 456, 3.0),
        (T0 - 5 * MS, -1.0),
        (T0 + MS + 123, 1.0),
        (T0 + 200, 0.0),
        (T0 + 2 * MS + 999, 2.0),
    ];
    let buffered = vec![
        live(T0 + 3 * MS, TickSource::Snapshot),
        live(T0 + 4 * MS, TickSource::Update),
    ];
    let merged = merge_gap(&mut mark, backfill, buffered);
    let times: Vec<Micros> = merged.values.iter().map(|v| v.at).collect();
    // Backfilled values keep their microseconds.
    assert_eq!(
        times,
        vec![
            T0 + MS + 123,
            T0 + 2 * MS + 999,
            T0 + 3 * MS + 456,
            T0 + 4 * MS
        ]
    );
    assert_eq!(merged.backfilled, 3);
    // T0-5ms and T0+200µs (same millisecond as T0) and the snapshot.
    assert_eq!(merged.duplicates, 3);
    assert_eq!(merged.values[3].source, TickSource::Update);
    assert!(merged.values[..3]
        .iter()
        .all(|v| v.source == TickSource::Backfill));
    assert_eq!(mark, Watermark(Some(T0 + 4 * MS)));
}

#[test]
fn a_newer_snapshot_than_the_backfill_is_delivered_as_a_snapshot() {
    let mut mark = Watermark(Some(T0));
    let merged = merge_gap(
        &mut mark,
        vec![(T0 + MS, 1.0)],
        vec![live(T0 + 2 * MS, TickSource::Snapshot)],
    );
    let sources: Vec<TickSource> = merged.values.iter().map(|v| v.source).collect();
    assert_eq!(sources, vec![TickSource::Backfill, TickSource::Snapshot]);
}

#[test]
fn a_failed_backfill_still_delivers_the_live_values_strictly_increasing() {
    let mut mark = Watermark(Some(T0));
    let buffered = vec![
        live(T0, TickSource::Snapshot),
        live(T0 + MS, TickSource::Update),
        live(T0 + MS, TickSource::Update),
        live(T0 + 500, TickSource::Update),
        live(T0 + 3 * MS, TickSource::Update),
    ];
    let merged = merge_gap(&mut mark, Vec::new(), buffered);
    let times: Vec<Micros> = merged.values.iter().map(|v| v.at).collect();
    assert_eq!(times, vec![T0 + MS, T0 + 3 * MS]);
    assert_eq!(merged.duplicates, 3);
    assert_eq!(merged.backfilled, 0);
}

#[test]
fn every_delivery_is_strictly_later_than_the_one_before() {
    let mut rng = fastrand::Rng::with_seed(3);
    for _ in 0..200 {
        let start = T0 + rng.i64(0..20) * MS;
        let mut mark = Watermark(Some(start));
        let backfill: Vec<(Micros, f64)> = (0..rng.usize(0..30))
            .map(|_| (T0 + rng.i64(0..40_000), 0.0))
            .collect();
        let buffered: Vec<Value> = (0..rng.usize(0..30))
            .map(|_| live(T0 + rng.i64(0..40) * MS, TickSource::Update))
            .collect();
        let total = backfill.len() + buffered.len();
        let merged = merge_gap(&mut mark, backfill, buffered);
        assert_eq!(merged.values.len() + merged.duplicates, total);
        let mut previous = start;
        for value in &merged.values {
            assert!(truncate_to_millis(value.at) > previous);
            previous = truncate_to_millis(value.at);
        }
    }
}

#[test]
fn a_tenor_never_delivered_takes_everything_once() {
    let mut mark = Watermark::default();
    assert!(mark.admit(T0 + 10));
    assert!(!mark.admit(T0 + 999));
    assert!(mark.admit(T0 + MS));
    assert_eq!(mark, Watermark(Some(T0 + MS)));
}
