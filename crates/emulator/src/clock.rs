//! The emulator's clock: real time by default, or a time that starts where a
//! test says and runs at `time_scale` times real speed (0 stops it), so that a
//! test can reach 16:30 London or a 12-hour token expiry in seconds.

use std::sync::Mutex;
use std::time::Instant;

use chrono::{DateTime, Utc};

use domain::timestamp::Micros;

pub struct Clock {
    state: Mutex<Anchor>,
}

#[derive(Clone, Copy)]
struct Anchor {
    real: Instant,
    emulated: Micros,
    scale: f64,
}

impl Clock {
    /// A clock reading `start` now (default: the real time) and running at `scale`.
    pub fn new(start: Option<DateTime<Utc>>, scale: f64) -> Clock {
        let emulated = start.unwrap_or_else(Utc::now).timestamp_micros();
        Clock {
            state: Mutex::new(Anchor {
                real: Instant::now(),
                emulated,
                scale,
            }),
        }
    }

    pub fn now(&self) -> Micros {
        let anchor = *self.state.lock().expect("clock lock");
        let elapsed = anchor.real.elapsed().as_secs_f64() * 1e6 * anchor.scale;
        anchor.emulated + elapsed as Micros
    }

    pub fn now_utc(&self) -> DateTime<Utc> {
        DateTime::from_timestamp_micros(self.now()).expect("emulated time in range")
    }

    pub fn scale(&self) -> f64 {
        self.state.lock().expect("clock lock").scale
    }

    /// Jumps to `to`; the clock keeps its speed.
    pub fn set(&self, to: Micros) {
        let mut anchor = self.state.lock().expect("clock lock");
        anchor.real = Instant::now();
        anchor.emulated = to;
    }

    /// Moves the clock forward (or back, if negative) by `by` microseconds.
    pub fn advance(&self, by: Micros) {
        self.set(self.now() + by);
    }

    pub fn set_scale(&self, scale: f64) {
        let now = self.now();
        let mut anchor = self.state.lock().expect("clock lock");
        *anchor = Anchor {
            real: Instant::now(),
            emulated: now,
            scale,
        };
    }
}

#[cfg(test)]
#[path = "clock_tests.rs"]
mod tests;
