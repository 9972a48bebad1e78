//! The synthetic world: the catalogue, the tenors each curve offers, and when
//! each value is published.

pub(crate) mod contracts;
mod current;
pub(crate) mod curves;
pub(crate) mod iso_text;
pub(crate) mod prices;
pub(crate) mod published;
pub(crate) mod variants;

use std::collections::HashMap;

use chrono::NaiveDate;

use crate::calendar::{start_of, Calendar, MICROS_PER_MINUTE};
use crate::hash::combine;
pub(crate) use current::CurrentWorld;
use curves::Curve;
use domain::rows::Snapshot;
use domain::tenor::Tenor;
use domain::timestamp::Micros;
use domain::vocabulary::Vertical;
use prices::{slots_per_day, tick, PriceRecordOut, Stamp};

/// History starts here; earlier days simply have no data.
pub(crate) const FIRST_DAY: NaiveDate = NaiveDate::from_ymd_opt(2000, 1, 1).expect("valid");

#[derive(Clone)]
pub struct World {
    pub seed: u64,
    pub curves: Vec<Curve>,
    by_id: HashMap<String, usize>,
    pub calendar: Calendar,
}

impl World {
    pub fn new(seed: u64, calendar: Calendar) -> World {
        let curves = curves::generate(seed);
        let by_id = curves.iter().map(|c| (c.id.clone(), c.index)).collect();
        World {
            seed,
            curves,
            by_id,
            calendar,
        }
    }

    /// This world with `count` more curves in `vertical`, after the others
    /// (`variants`).
    pub fn with_more_curves(&self, vertical: &'static Vertical, count: usize) -> World {
        let mut world = self.clone();
        let first = world.curves.len();
        variants::add_variants(self.seed, &mut world.curves, vertical, count);
        for curve in &world.curves[first..] {
            world.by_id.insert(curve.id.clone(), curve.index);
        }
        world
    }

    pub fn curve(&self, id: &str) -> Option<&Curve> {
        self.by_id.get(id).map(|&i| &self.curves[i])
    }

    pub fn record<'a>(
        &'a self,
        curve: &'a Curve,
        tenor: &'a Tenor,
        stamp: Stamp,
    ) -> PriceRecordOut<'a> {
        prices::record(self.seed, &self.curves, curve, tenor, stamp)
    }

    /// The snapshot of `day` if it has been published by `now`: snapshots are
    /// taken at their time and published 5 to 14 minutes later.
    pub fn snapshot(
        &self,
        curve: &Curve,
        tenor: &Tenor,
        day: NaiveDate,
        which: Snapshot,
        now: Micros,
    ) -> Option<Stamp> {
        let at = self.calendar.assessment_time(day, which)?;
        let delay = (5 + combine(&[curve.key, at as u64, 13]) % 10) as Micros * MICROS_PER_MINUTE;
        let published = at + delay <= now;
        (published && contracts::offers(curve, tenor, day)).then(|| Stamp::exact(curve, at))
    }

    /// How many intraday values of `tenor` were published on `day` by `now`.
    pub fn ticks_published(
        &self,
        curve: &Curve,
        tenor: &Tenor,
        day: NaiveDate,
        now: Micros,
    ) -> u32 {
        if !self.calendar.is_business_day(day) || !contracts::offers(curve, tenor, day) {
            return 0;
        }
        let since_midnight = now - start_of(day);
        if since_midnight < 0 {
            return 0;
        }
        let slots = slots_per_day(curve);
        let current = (since_midnight / prices::granularity(curve)) as u32;
        if current >= slots {
            return slots;
        }
        // Every earlier slot is out; the current one once its jitter has passed.
        current + u32::from(tick(curve, day, current).at <= now)
    }
}
