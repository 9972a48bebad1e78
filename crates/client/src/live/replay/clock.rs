//! The replay's time: paced on a virtual clock from the start, or at full
//! speed the time of the last value delivered.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
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
    started: Instant,
    /// At full speed: the time of the last value pushed.
    pub(super) last: AtomicI64,
    /// Every value up to the end is pushed.
    pub(super) done: AtomicBool,
}

impl ReplayClock {
    pub fn new(config: ReplayConfig) -> ReplayClock {
        ReplayClock {
            last: AtomicI64::new(config.start),
            started: Instant::now(),
            done: AtomicBool::new(false),
            config,
        }
    }

    /// The replay's current time: paced, `start` plus the real time since
    /// it began times the speed; at full speed, the last value's time.
    pub fn now(&self) -> Micros {
        if self.done.load(Relaxed) {
            return self.config.end;
        }
        match self.config.speed {
            Some(speed) => {
                let elapsed = self.started.elapsed().as_secs_f64() * speed * 1e6;
                (self.config.start.saturating_add(elapsed as i64)).min(self.config.end)
            }
            None => self.last.load(Relaxed),
        }
    }

    /// The days a subscription made now reads: its snapshots' look back,
    /// then every day up to the end.
    pub fn days_read_from_now(&self) -> (NaiveDate, NaiveDate) {
        let first = utc_day(self.now()) - Days::new(SNAPSHOT_DAYS);
        (first, utc_day(self.config.end))
    }

    /// When, in real time, the replay reaches `at`.
    pub(super) fn due(&self, at: Micros, speed: f64) -> Instant {
        let seconds = (at - self.config.start).max(0) as f64 / 1e6 / speed;
        self.started + Duration::from_secs_f64(seconds.min(1e9))
    }
}
