//! The replay's time: paced, on a virtual clock from the start that runs
//! from the first subscription; at full speed, the time of the last value
//! handed to the consumer.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use chrono::{Days, NaiveDate};
use tokio::time::Instant;

use super::config::ReplayConfig;
use super::session::SNAPSHOT_DAYS;
use crate::record::layout::utc_day;
use domain::timestamp::Micros;

/// The replay's time, shared with the handle (`LiveFeed::now`).
pub(crate) struct ReplayClock {
    pub(super) config: ReplayConfig,
    /// When the first subscription was answered: a paced replay's time
    /// stands at the start until then, so that its first snapshot is as of
    /// the start however long the caller took to subscribe.
    started: OnceLock<Instant>,
    /// The time of the last update handed out (`Shared::handed`).
    handed: Arc<AtomicI64>,
    /// Every value up to the end is handed out.
    pub(super) done: AtomicBool,
}

impl ReplayClock {
    pub(crate) fn new(config: ReplayConfig, handed: Arc<AtomicI64>) -> ReplayClock {
        ReplayClock {
            started: OnceLock::new(),
            handed,
            done: AtomicBool::new(false),
            config,
        }
    }

    /// Starts a paced replay's clock, if not already; true if it starts now.
    pub(super) fn start(&self) -> bool {
        let mut now = false;
        self.started.get_or_init(|| {
            now = true;
            Instant::now()
        });
        now
    }

    /// The replay's current time: paced, `start` plus the real time since
    /// the first subscription times the speed; at full speed, the time of
    /// the last value handed out.
    pub(crate) fn now(&self) -> Micros {
        self.now_handed(self.handed.load(Relaxed))
    }

    /// [`now`](Self::now), `handed` the time handed out at full speed.
    pub(crate) fn now_handed(&self, handed: Micros) -> Micros {
        if self.done.load(Relaxed) {
            return self.config.end;
        }
        match (self.config.speed, self.started.get()) {
            (None, _) => handed.clamp(self.config.start, self.config.end),
            (Some(_), None) => self.config.start,
            (Some(speed), Some(started)) => {
                let elapsed = started.elapsed().as_secs_f64() * speed * 1e6;
                (self.config.start.saturating_add(elapsed as i64)).min(self.config.end)
            }
        }
    }

    /// The days a subscription made now reads: its snapshots' look back,
    /// then every day up to the end.
    pub(crate) fn days_read_from_now(&self) -> (NaiveDate, NaiveDate) {
        let first = utc_day(self.now()) - Days::new(SNAPSHOT_DAYS);
        (first, utc_day(self.config.end))
    }

    /// When, in real time, the replay reaches `at` (None: not started).
    pub(super) fn due(&self, at: Micros, speed: f64) -> Option<Instant> {
        let started = self.started.get()?;
        let seconds = (at - self.config.start).max(0) as f64 / 1e6 / speed;
        Some(*started + Duration::from_secs_f64(seconds.min(1e9)))
    }
}
