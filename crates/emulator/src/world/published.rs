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
pub(crate) const LOOKBACK_DAYS: i64 = 10;

/// The last value of `tenor` published at or before `at`, if the tenor is
/// offered on the day of `at` and had a value in the last [`LOOKBACK_DAYS`].
pub(crate) fn last_published(
    world: &World,
    curve: &Curve,
    tenor: &Tenor,
    at: Micros,
) -> Option<Stamp> {
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
pub(crate) fn published_between(
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
pub(crate) fn published_prices(
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
pub(crate) fn next_publication(
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
#[path = "published_tests.rs"]
mod tests;
