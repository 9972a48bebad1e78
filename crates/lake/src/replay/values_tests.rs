use super::*;

fn sub(curve: &str, tenor: &str) -> Subscription {
    Subscription::new(curve, tenor)
}

fn staged(name: u32, generated_on: Micros, recorded_at: Micros, source: TickSource) -> Value {
    Value {
        name,
        generated_on,
        recorded_at,
        price: generated_on as f64 + recorded_at as f64 / 1e6,
        source,
    }
}

/// `(curve, tenor, time, price)` of each value.
fn listed(values: &Values) -> Vec<(String, String, Micros, f64)> {
    values
        .rows
        .iter()
        .map(|v| {
            let (curve, tenor) = &values.names[v.name as usize];
            (
                curve.to_string(),
                tenor.to_string(),
                v.generated_on,
                v.price,
            )
        })
        .collect()
}

#[test]
fn a_name_is_indexed_once_and_only_if_a_subscription_takes_it() {
    let subscriptions = [sub("c-1", "*"), sub("c-2", "Jan 27")];
    let mut names = NameTable::new(&subscriptions);
    let jan = names.index("c-1", "Jan 27");
    assert_eq!(jan, Some(0));
    assert_eq!(names.index("c-1", "Jan 27"), jan);
    // `*` takes calendar tenors, not continuous ones.
    assert_eq!(names.index("c-1", "C 01"), None);
    assert_eq!(names.index("c-2", "Jan 27"), Some(1));
    assert_eq!(names.index("c-2", "Feb 27"), None);
    assert_eq!(names.index("c-3", "Jan 27"), None);
    assert_eq!(names.names.len(), 2);
}

#[test]
fn settled_values_are_in_time_then_curve_then_calendar_order() {
    let subscriptions = [sub("c-2", "*"), sub("c-1", "*")];
    let mut names = NameTable::new(&subscriptions);
    // Met in an order unlike the calendar's: "Mar 27" before "Feb 27".
    let mar = names.index("c-2", "Mar 27").unwrap();
    let feb = names.index("c-2", "Feb 27").unwrap();
    let jan_other = names.index("c-1", "Jan 28").unwrap();
    let live = TickSource::Update;
    let values = names.settle(vec![
        staged(mar, 2_000, 1, live),
        staged(feb, 2_000, 1, live),
        staged(jan_other, 2_000, 1, live),
        staged(mar, 1_000, 1, live),
    ]);
    let order: Vec<(String, String, Micros)> = listed(&values)
        .into_iter()
        .map(|(c, t, at, _)| (c, t, at))
        .collect();
    let row = |c: &str, t: &str, at| (c.to_owned(), t.to_owned(), at);
    assert_eq!(
        order,
        vec![
            row("c-2", "Mar 27", 1_000),
            row("c-1", "Jan 28", 2_000),
            row("c-2", "Feb 27", 2_000),
            row("c-2", "Mar 27", 2_000),
        ]
    );
}

#[test]
fn a_value_is_kept_once_per_tenor_and_millisecond_the_feeds_copy_first() {
    let subscriptions = [sub("c-1", "*")];
    let mut names = NameTable::new(&subscriptions);
    let jan = names.index("c-1", "Jan 27").unwrap();
    let feb = names.index("c-1", "Feb 27").unwrap();
    let values = names.settle(vec![
        // The backfill's copy with microseconds, received first; the feed's
        // truncated to the millisecond: the feed's is kept.
        staged(jan, 5_000_250, 1, TickSource::Backfill),
        staged(jan, 5_000_000, 9, TickSource::Update),
        // Two backfilled copies: the first received.
        staged(feb, 7_000_100, 3, TickSource::Backfill),
        staged(feb, 7_000_100, 2, TickSource::Backfill),
        // Another millisecond of the same tenor stays.
        staged(feb, 7_001_000, 4, TickSource::Backfill),
    ]);
    let kept: Vec<(String, Micros, f64)> = listed(&values)
        .into_iter()
        .map(|(_, t, at, price)| (t, at, price))
        .collect();
    assert_eq!(
        kept,
        vec![
            ("Jan 27".to_owned(), 5_000_000, 5_000_000.0 + 9e-6),
            ("Feb 27".to_owned(), 7_000_100, 7_000_100.0 + 2e-6),
            ("Feb 27".to_owned(), 7_001_000, 7_001_000.0 + 4e-6),
        ]
    );
}

#[test]
fn settling_does_not_depend_on_the_order_values_were_read_in() {
    let subscriptions = [sub("c-1", "*")];
    let tenors = ["Jan 27", "Feb 27", "Q1 27", "Cal 28"];
    let mut values: Vec<(usize, Micros, Micros, TickSource)> = Vec::new();
    let mut seed: u64 = 7;
    let mut next = |below: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % below
    };
    for _ in 0..500 {
        let source = if next(2) == 0 {
            TickSource::Update
        } else {
            TickSource::Backfill
        };
        let tenor = next(tenors.len() as u64) as usize;
        values.push((tenor, next(20) as i64 * 700, next(5) as i64, source));
    }
    let settle = |order: &[(usize, Micros, Micros, TickSource)]| {
        let mut names = NameTable::new(&subscriptions);
        let staged: Vec<Value> = order
            .iter()
            .map(|&(t, at, received, source)| {
                let name = names.index("c-1", tenors[t]).unwrap();
                staged(name, at, received, source)
            })
            .collect();
        listed(&names.settle(staged))
    };
    let forwards = settle(&values);
    values.reverse();
    assert_eq!(settle(&values), forwards);
    // Each tenor at most once a millisecond, in time order.
    let mut seen = std::collections::HashSet::new();
    for (_, tenor, at, _) in &forwards {
        assert!(
            seen.insert((tenor.clone(), at / 1000)),
            "{tenor} {at} twice"
        );
    }
    assert!(forwards.windows(2).all(|w| w[0].2 <= w[1].2));
}
