//! The intraday values of a curve and tenor seen as a timeline: the last one
//! published at or before an instant (what a live subscription starts with)
//! and every one published in an interval (what the live feed pushes as the
//! clock moves). Both are the ticks the intraday endpoints serve, so every
//! value of the feed can be found again there.

use chrono::{Duration, NaiveDate};

use super::contracts::offers;
use super::curves::Curve;
use super::prices::{price, slots_per_day, tick, Stamp};
use super::World;
use crate::calendar::{day_of, days};
use domain::tenor::Tenor;
use domain::timestamp::Micros;

/// How far back a snapshot looks for the last value: past a long weekend and
/// a holiday or two. A tenor quiet for longer has no value (interface, live
/// rule 2: "not updated for a long time").
pub const LOOKBACK_DAYS: i64 = 10;

/// The last value of `tenor` published at or before `at`, if the tenor is
/// offered on the day of `at` and had a value in the last [`LOOKBACK_DAYS`].
pub fn last_published(world: &World, curve: &Curve, tenor: &Tenor, at: Micros) -> Option<Stamp> {
    let today = day_of(at);
    if !offers(curve, tenor, today) {
        return None;
    }
    let first = today - Duration::days(LOOKBACK_DAYS);
    days(first, today).rev().find_map(|day| {
        let count = world.ticks_published(curve, tenor, day, at);
        (count > 0).then(|| tick(curve, day, count - 1))
    })
}

/// Every value of `tenor` published in `(after, until]`, oldest first.
pub fn published_between(
    world: &World,
    curve: &Curve,
    tenor: &Tenor,
    after: Micros,
    until: Micros,
) -> Vec<Stamp> {
    let mut stamps = Vec::new();
    if until <= after {
        return stamps;
    }
    for day in days(day_of(after), day_of(until)) {
        let before = world.ticks_published(curve, tenor, day, after);
        let by_end = world.ticks_published(curve, tenor, day, until);
        stamps.extend((before..by_end).map(|slot| tick(curve, day, slot)));
    }
    stamps
}

/// Every value of `tenor` published from `start` to `end` (both included),
/// oldest first, with its price: what the live feed sent and the intraday
/// endpoints serve.
pub fn published_prices(
    world: &World,
    curve: &Curve,
    tenor: &Tenor,
    start: Micros,
    end: Micros,
) -> Vec<(Micros, f64)> {
    published_between(world, curve, tenor, start - 1, end)
        .into_iter()
        .map(|stamp| (stamp.at, price(world.seed, curve, tenor, stamp.at)))
        .collect()
}

/// When the next value of `tenor` after `after` is due, looking a few days
/// ahead (None if nothing is due that soon, e.g. an expiring tenor).
pub fn next_publication(
    world: &World,
    curve: &Curve,
    tenor: &Tenor,
    after: Micros,
) -> Option<Micros> {
    let today = day_of(after);
    let horizon: NaiveDate = today + Duration::days(4);
    days(today, horizon).find_map(|day| {
        if !world.calendar.is_business_day(day) || !offers(curve, tenor, day) {
            return None;
        }
        let published = world.ticks_published(curve, tenor, day, after);
        (published < slots_per_day(curve)).then(|| tick(curve, day, published).at)
    })
}

#[cfg(test)]
mod tests {
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
}
