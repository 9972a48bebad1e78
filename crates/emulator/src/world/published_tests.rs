use super::*;
use crate::calendar::{start_of, Calendar, EarlyClose};
use crate::world::prices::granularity;
use domain::timestamp::parse_timestamp;

fn world() -> World {
    World::new(0, Calendar::new(EarlyClose::ChristmasAndNewYearsEve))
}

fn at(text: &str) -> Micros {
    parse_timestamp(text).unwrap()
}

fn tenor(name: &str) -> Tenor {
    Tenor::parse(name).unwrap()
}

#[test]
fn the_last_value_is_the_last_tick_of_the_intraday_day() {
    let world = world();
    let curve = &world.curves[0];
    let jul = tenor("Jul 25");
    let now = at("2025-06-13T10:00:00");
    let day = day_of(now);
    let count = world.ticks_published(curve, &jul, day, now);
    let last = last_published(&world, curve, &jul, now).unwrap();
    assert_eq!(last, tick(curve, day, count - 1));
    assert!(last.at <= now && now - last.at <= granularity(curve) * 2);
    // Exactly at a tick's instant, that tick is the last one.
    assert_eq!(last_published(&world, curve, &jul, last.at), Some(last));
    assert!(last_published(&world, curve, &jul, last.at - 1).unwrap().at < last.at);
}

#[test]
fn over_a_weekend_the_last_value_is_fridays() {
    let world = world();
    let curve = &world.curves[3];
    let jul = tenor("Jul 25");
    let friday = NaiveDate::from_ymd_opt(2025, 6, 13).unwrap();
    let slots = slots_per_day(curve);
    let expected = tick(curve, friday, slots - 1);
    for sunday_or_monday in ["2025-06-15T12:00:00", "2025-06-16T00:00:00"] {
        let last = last_published(&world, curve, &jul, at(sunday_or_monday));
        assert_eq!(last, Some(expected), "{sunday_or_monday}");
    }
}

#[test]
fn expired_unknown_and_long_quiet_tenors_have_no_value() {
    let world = world();
    let curve = &world.curves[0];
    let now = at("2025-06-13T10:00:00");
    assert_eq!(last_published(&world, curve, &tenor("May 25"), now), None);
    assert_eq!(last_published(&world, curve, &tenor("Jan 40"), now), None);
    let other = Tenor::parse("Cal-26").unwrap();
    assert_eq!(last_published(&world, curve, &other, now), None);
    // History starts in 2000 in the intraday endpoints too, but a tenor
    // that first appears today has nothing before today's first tick.
    let first_tick = tick(curve, day_of(now), 0).at;
    let newest = last_published(&world, curve, &tenor("Jun 25"), first_tick);
    assert_eq!(newest.map(|s| s.at), Some(first_tick));
}

#[test]
fn an_interval_holds_exactly_the_ticks_between_its_ends() {
    let world = world();
    let curve = &world.curves[7];
    let jul = tenor("Jul 25");
    let thursday = NaiveDate::from_ymd_opt(2025, 6, 12).unwrap();
    let after = at("2025-06-12T23:00:00");
    let until = at("2025-06-16T01:00:00");
    let stamps = published_between(&world, curve, &jul, after, until);
    assert!(stamps.windows(2).all(|w| w[0].at < w[1].at));
    assert!(stamps.iter().all(|s| after < s.at && s.at <= until));
    let per_hour = (60 / curve.profile.granularity_minutes) as usize;
    // The last hour of Thursday, all of Friday, nothing at the weekend,
    // the first hour of Monday.
    assert_eq!(stamps.len(), per_hour + 24 * per_hour + per_hour);
    assert_eq!(stamps[0], tick(curve, thursday, 23 * per_hour as u32));
    // Adjacent intervals neither skip nor repeat a value.
    let middle = at("2025-06-13T12:34:56.789");
    let mut joined = published_between(&world, curve, &jul, after, middle);
    joined.extend(published_between(&world, curve, &jul, middle, until));
    assert_eq!(joined, stamps);
    assert!(published_between(&world, curve, &jul, until, after).is_empty());
    let first = stamps[0].at;
    let priced = published_prices(&world, curve, &jul, first, until);
    assert_eq!(priced.len(), stamps.len());
    assert_eq!(priced[0], (first, price(0, curve, &jul, first)));
}

#[test]
fn the_next_value_is_due_at_the_next_tick() {
    let world = world();
    let curve = &world.curves[2];
    let jul = tenor("Jul 25");
    let now = at("2025-06-13T10:00:00");
    let next = next_publication(&world, curve, &jul, now).unwrap();
    let stamps = published_between(&world, curve, &jul, now, next);
    assert_eq!(stamps.last().map(|s| s.at), Some(next));
    assert_eq!(stamps.len(), 1);
    // Late on Friday, the next value is on Monday.
    let friday_night = at("2025-06-13T23:59:59");
    let monday = NaiveDate::from_ymd_opt(2025, 6, 16).unwrap();
    let next = next_publication(&world, curve, &jul, friday_night).unwrap();
    assert!(next >= start_of(monday) && next < start_of(monday) + granularity(curve));
}
