use super::*;

const MS: Micros = 1_000;
const T0: Micros = 1_750_000_000_000_000;

fn sub(curve: &str, tenor: &str) -> Subscription {
    Subscription::new(curve, tenor)
}

fn book(buffer_limit: usize) -> Book {
    Book::new(buffer_limit, Arc::default())
}

fn take(book: &mut Book, curve: &str, tenor: &str, at: Micros) -> (Arrival, Vec<Row>) {
    let mut out = Vec::new();
    let arrival = book.on_price(curve, tenor, at, at as f64, &mut out);
    (arrival, out)
}

fn sources(book: &Book, rows: &[Row]) -> Vec<(String, TickSource)> {
    let names = book.names.read();
    rows.iter()
        .map(|r| (names.pair(r.key).tenor.to_string(), r.source))
        .collect()
}

#[test]
fn only_covered_tenors_are_delivered() {
    let mut book = book(100);
    book.cover(&[sub("a", "Jan 26"), sub("b", "*")]);
    assert_eq!(take(&mut book, "a", "Jan 26", T0).0, Arrival::Delivered);
    assert_eq!(take(&mut book, "a", "Feb 26", T0).0, Arrival::Uncovered);
    assert_eq!(take(&mut book, "b", "Q1 27", T0).0, Arrival::Delivered);
    assert_eq!(take(&mut book, "z", "Jan 26", T0).0, Arrival::Uncovered);
    book.cover(&[sub("b", "*")]);
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + MS).0,
        Arrival::Uncovered
    );
}

#[test]
fn a_tenor_is_named_by_one_key_for_the_life_of_the_feed() {
    let mut book = book(100);
    book.cover(&[sub("a", "*"), sub("b", "Jan 26")]);
    let (_, first) = take(&mut book, "a", "Jan 26", T0);
    let (_, second) = take(&mut book, "a", "Jan 26", T0 + MS);
    let (_, other_curve) = take(&mut book, "b", "Jan 26", T0);
    book.connection_lost();
    let (_, after) = take(&mut book, "a", "Jan 26", T0 + 2 * MS);
    assert_eq!(first[0].key, second[0].key);
    assert_eq!(first[0].key, after[0].key);
    assert_ne!(first[0].key, other_curve[0].key);
    let names = book.names.read();
    let (a, b) = (names.pair(first[0].key), names.pair(other_curve[0].key));
    assert_eq!((&*a.curve_id, &*a.tenor), ("a", "Jan 26"));
    assert_eq!((&*b.curve_id, &*b.tenor), ("b", "Jan 26"));
    // One string per name, shared by every tick made of it.
    let ticks = names.ticks(&[first[0], second[0]]);
    assert!(Arc::ptr_eq(&ticks[0].tenor, &ticks[1].tenor));
    assert!(Arc::ptr_eq(&ticks[0].curve_id, &ticks[1].curve_id));
}

#[test]
fn the_first_value_after_a_subscribe_is_its_snapshot_and_repeats_are_dropped() {
    let mut book = book(100);
    let jan = sub("a", "Jan 26");
    let all = sub("b", "*");
    book.cover(&[jan.clone(), all.clone()]);
    book.expect_snapshot(&jan);
    book.expect_snapshot(&all);
    let (_, t) = take(&mut book, "a", "Jan 26", T0);
    assert_eq!(t[0].source, TickSource::Snapshot);
    let (_, t) = take(&mut book, "b", "Jan 26", T0);
    assert_eq!(t[0].source, TickSource::Snapshot);
    let (_, t) = take(&mut book, "b", "Feb 26", T0);
    assert_eq!(t[0].source, TickSource::Snapshot);
    // An update before the confirmation of the `*` subscribe.
    let (_, t) = take(&mut book, "b", "Jan 26", T0 + MS);
    assert_eq!(t[0].source, TickSource::Update);
    book.snapshot_done(&jan);
    book.snapshot_done(&all);
    let (_, t) = take(&mut book, "b", "Mar 26", T0);
    assert_eq!(
        sources(&book, &t),
        vec![("Mar 26".to_owned(), TickSource::Update)]
    );
    // Subscribing again resends the snapshot, which was delivered already.
    book.expect_snapshot(&jan);
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 999).0,
        Arrival::Duplicate
    );
    let (_, t) = take(&mut book, "a", "Jan 26", T0 + MS);
    assert_eq!(t[0].source, TickSource::Update);
}

#[test]
fn a_gap_holds_live_values_back_until_its_backfill_then_merges_them() {
    let mut book = book(100);
    let jan = sub("a", "Jan 26");
    book.cover(&[jan.clone(), sub("a", "Feb 26")]);
    take(&mut book, "a", "Jan 26", T0);
    // Reconnect: only tenors delivered before have a gap.
    book.connection_lost();
    assert_eq!(book.open_gaps(), 1);
    book.expect_snapshot(&jan);
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 3 * MS).0,
        Arrival::Buffered
    );
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 4 * MS).0,
        Arrival::Buffered
    );
    // Feb 26 has no gap: delivered at once.
    assert_eq!(take(&mut book, "a", "Feb 26", T0).0, Arrival::Delivered);
    book.snapshot_done(&jan);
    // The snapshot, newer than the last value delivered, asked for the backfill.
    let requests = book.take_decided().ready;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].since, T0);
    assert_eq!(requests[0].until, Some(T0 + 3 * MS));
    assert!(book.gaps_without_snapshot(&jan).is_empty(), "started once");
    assert_eq!(book.take_decided(), Decided::default());
    let mut out = Vec::new();
    let backfill = vec![
        (T0 + 2 * MS + 5, 2.0),
        (T0 + MS + 7, 1.0),
        (T0 + 3 * MS + 1, 3.0),
    ];
    let report = book
        .fill_gap(requests[0].id, "a", "Jan 26", Some(backfill), &mut out)
        .unwrap();
    let times: Vec<Micros> = out.iter().map(|t| t.generated_on).collect();
    assert_eq!(
        times,
        vec![T0 + MS + 7, T0 + 2 * MS + 5, T0 + 3 * MS + 1, T0 + 4 * MS]
    );
    assert_eq!(report.backfilled, 3);
    assert_eq!(report.duplicates, 1);
    assert_eq!(report.span, Some((T0 + MS + 7, T0 + 3 * MS + 1)));
    assert_eq!(book.open_gap_count(), 0);
    // After the gap the tenor is live again.
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 5 * MS).0,
        Arrival::Delivered
    );
    // A late answer for the closed gap is ignored.
    assert!(book
        .fill_gap(requests[0].id, "a", "Jan 26", Some(vec![]), &mut out)
        .is_none());
}

#[test]
fn a_lost_connection_or_an_unsubscribe_drops_the_gap_and_its_held_values() {
    let mut book = book(100);
    let all = sub("a", "*");
    book.cover(std::slice::from_ref(&all));
    take(&mut book, "a", "Jan 26", T0);
    take(&mut book, "a", "Feb 26", T0);
    assert_eq!(book.open_gaps(), 2);
    take(&mut book, "a", "Jan 26", T0 + MS);
    let mut requests = book.take_decided().ready;
    requests.extend(book.gaps_without_snapshot(&all));
    assert_eq!(requests.len(), 2);
    book.connection_lost();
    let mut out = Vec::new();
    assert!(book
        .fill_gap(requests[0].id, "a", &requests[0].tenor, None, &mut out)
        .is_none());
    assert_eq!(book.open_gaps(), 2);
    book.cover(&[]);
    assert_eq!(book.open_gap_count(), 0);
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 2 * MS).0,
        Arrival::Uncovered
    );
}

#[test]
fn held_back_values_are_bounded_by_conflating_to_the_latest() {
    let mut book = book(3);
    let jan = sub("a", "Jan 26");
    book.cover(std::slice::from_ref(&jan));
    take(&mut book, "a", "Jan 26", T0);
    book.open_gaps();
    for i in 1..=10 {
        assert_eq!(
            take(&mut book, "a", "Jan 26", T0 + i * MS).0,
            Arrival::Buffered
        );
    }
    assert_eq!(book.conflated(), 7);
    let request = book.take_decided().ready.remove(0);
    let mut out = Vec::new();
    book.fill_gap(request.id, "a", "Jan 26", None, &mut out);
    let times: Vec<Micros> = out.iter().map(|t| t.generated_on).collect();
    assert_eq!(times, vec![T0 + MS, T0 + 2 * MS, T0 + 10 * MS]);
}

#[test]
fn a_resumed_tenor_delivers_only_later_values_and_opens_a_gap_when_covered() {
    let mut book = book(100);
    book.resume("a", "Jan 26", T0 + 400);
    book.resume("b", "Feb 26", T0);
    book.cover(&[sub("a", "Jan 26")]);
    // Compared truncated to milliseconds: T0 + 900 µs is the resumed value.
    assert_eq!(book.open_gaps(), 1, "only the covered tenor has a gap");
    let jan = sub("a", "Jan 26");
    let requests = book.gaps_without_snapshot(&jan);
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].since, T0);
    let mut out = Vec::new();
    let backfill = vec![(T0 + 900, 1.0), (T0 + MS, 2.0)];
    book.fill_gap(requests[0].id, "a", "Jan 26", Some(backfill), &mut out);
    let times: Vec<Micros> = out.iter().map(|t| t.generated_on).collect();
    assert_eq!(times, vec![T0 + MS]);
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + MS).0,
        Arrival::Duplicate
    );
}

#[test]
fn a_resumed_tenor_covered_only_once_connected_opens_its_gap_then() {
    let mut book = book(100);
    book.resume("a", "Jan 26", T0);
    book.resume("b", "Feb 26", T0);
    let (all_a, all_b) = (sub("a", "*"), sub("b", "*"));
    // Connected with only `a` subscribed: `b` is subscribed afterwards.
    book.cover(std::slice::from_ref(&all_a));
    assert_eq!(book.open_gaps(), 1);
    book.cover(&[all_a.clone(), all_b.clone()]);
    assert_eq!(book.open_resumed_gaps(&all_b), 1);
    assert_eq!(
        book.open_resumed_gaps(&all_b),
        0,
        "one gap per resumed tenor"
    );
    assert_eq!(book.open_resumed_gaps(&all_a), 0, "opened on connecting");
    book.expect_snapshot(&all_b);
    let (arrival, _) = take(&mut book, "b", "Feb 26", T0 + 5 * MS);
    assert_eq!(
        arrival,
        Arrival::Buffered,
        "the snapshot waits for the backfill"
    );
    book.snapshot_done(&all_b);
    let requests = book.take_decided().ready;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].since, T0);
    let mut out = Vec::new();
    let backfill = vec![(T0 + 2 * MS, 1.0), (T0 + 5 * MS, 2.0)];
    book.fill_gap(requests[0].id, "b", "Feb 26", Some(backfill), &mut out);
    let times: Vec<Micros> = out.iter().map(|t| t.generated_on).collect();
    assert_eq!(times, vec![T0 + 2 * MS, T0 + 5 * MS]);
    // A later subscription of a tenor delivered by this feed is no resume.
    book.cover(std::slice::from_ref(&all_a));
    book.cover(&[all_a, all_b.clone()]);
    assert_eq!(book.open_resumed_gaps(&all_b), 0);
}

/// A tenor delivered up to T0 whose gap the reconnect opened, its
/// subscription sent again.
fn reconnected(tenor: &str) -> (Book, Subscription) {
    let mut book = book(100);
    let jan = sub("a", tenor);
    book.cover(std::slice::from_ref(&jan));
    take(&mut book, "a", tenor, T0 + 250);
    book.connection_lost();
    assert_eq!(book.open_gaps(), 1);
    book.expect_snapshot(&jan);
    (book, jan)
}

#[test]
fn a_snapshot_that_is_the_last_value_delivered_closes_the_gap_with_no_request() {
    let (mut book, jan) = reconnected("Jan 26");
    // Truncated to milliseconds, as the feed prints it (live rule 5).
    assert_eq!(take(&mut book, "a", "Jan 26", T0).0, Arrival::Duplicate);
    let decided = book.take_decided();
    assert_eq!(decided.skipped, 1);
    assert!(decided.ready.is_empty());
    assert_eq!(book.open_gap_count(), 0);
    book.snapshot_done(&jan);
    assert!(book.gaps_without_snapshot(&jan).is_empty());
    // The tenor is live again at once.
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + MS).0,
        Arrival::Delivered
    );
}

#[test]
fn a_newer_snapshot_asks_for_the_values_up_to_it() {
    let (mut book, _) = reconnected("Jan 26");
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 9 * MS).0,
        Arrival::Buffered
    );
    let decided = book.take_decided();
    assert_eq!(decided.skipped, 0);
    let [request] = &decided.ready[..] else {
        panic!("one request: {decided:?}");
    };
    assert_eq!((&*request.curve_id, &*request.tenor), ("a", "Jan 26"));
    assert_eq!((request.since, request.until), (T0, Some(T0 + 9 * MS)));
}

#[test]
fn a_missing_snapshot_is_backfilled_once_its_grace_is_over() {
    let (mut book, jan) = reconnected("Jan 26");
    book.snapshot_done(&jan);
    assert_eq!(book.take_decided(), Decided::default());
    let requests = book.gaps_without_snapshot(&jan);
    assert_eq!(requests.len(), 1);
    assert_eq!((requests[0].since, requests[0].until), (T0, None));
    // A value coming later is held back until that backfill is in.
    assert_eq!(take(&mut book, "a", "Jan 26", T0 + MS).0, Arrival::Buffered);
    assert_eq!(book.take_decided(), Decided::default());
}

#[test]
fn a_snapshot_older_than_the_last_value_delivered_is_not_believed() {
    // The service's feed went back (a restart that lost its latest values):
    // the intraday endpoints are asked, with no upper bound.
    let (mut book, _) = reconnected("Jan 26");
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 - 5 * MS).0,
        Arrival::Buffered
    );
    let decided = book.take_decided();
    assert_eq!(decided.ready.len(), 1);
    assert_eq!((decided.ready[0].since, decided.ready[0].until), (T0, None));
    let mut out = Vec::new();
    book.fill_gap(decided.ready[0].id, "a", "Jan 26", Some(vec![]), &mut out);
    assert!(out.is_empty(), "the old snapshot is not delivered again");
}

#[test]
fn a_repeat_that_is_no_snapshot_decides_nothing() {
    let (mut book, jan) = reconnected("Jan 26");
    book.snapshot_done(&jan);
    assert_eq!(take(&mut book, "a", "Jan 26", T0).0, Arrival::Duplicate);
    assert_eq!(book.take_decided(), Decided::default());
    assert_eq!(book.open_gap_count(), 1, "still waiting");
}

#[test]
fn star_snapshots_decide_each_tenor_on_its_own() {
    let mut book = book(100);
    let all = sub("a", "*");
    book.cover(std::slice::from_ref(&all));
    for tenor in ["Jan 26", "Feb 26", "Mar 26"] {
        take(&mut book, "a", tenor, T0);
    }
    book.connection_lost();
    assert_eq!(book.open_gaps(), 3);
    book.expect_snapshot(&all);
    assert_eq!(take(&mut book, "a", "Jan 26", T0).0, Arrival::Duplicate);
    assert_eq!(take(&mut book, "a", "Feb 26", T0 + MS).0, Arrival::Buffered);
    // Feb's next value, an update, waits with it; Jan's is live.
    assert_eq!(
        take(&mut book, "a", "Feb 26", T0 + 2 * MS).0,
        Arrival::Buffered
    );
    assert_eq!(
        take(&mut book, "a", "Jan 26", T0 + 2 * MS).0,
        Arrival::Delivered
    );
    book.snapshot_done(&all);
    let decided = book.take_decided();
    assert_eq!(decided.skipped, 1);
    let asked: Vec<&str> = decided.ready.iter().map(|r| &*r.tenor).collect();
    assert_eq!(asked, vec!["Feb 26"]);
    let silent: Vec<Arc<str>> = book
        .gaps_without_snapshot(&all)
        .into_iter()
        .map(|r| r.tenor)
        .collect();
    assert_eq!(silent, vec![Arc::from("Mar 26")]);
}
