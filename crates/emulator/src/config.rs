//! How an emulator is set up: its seed, the speed and start of its clock,
//! its calendar's early closes, and where it listens.

use std::net::SocketAddr;

use chrono::{DateTime, Utc};

use crate::calendar::EarlyClose;

#[derive(Clone, Debug)]
pub struct EmulatorConfig {
    pub seed: u64,
    /// Emulated seconds per real second; 0 stops the clock.
    pub time_scale: f64,
    /// Where the clock starts; `None` is the real time.
    pub start: Option<DateTime<Utc>>,
    pub early_close: EarlyClose,
    /// Port 0 picks a free one.
    pub bind: SocketAddr,
}

impl Default for EmulatorConfig {
    fn default() -> Self {
        EmulatorConfig {
            seed: 0,
            time_scale: 1.0,
            start: None,
            early_close: EarlyClose::ChristmasAndNewYearsEve,
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        }
    }
}

impl EmulatorConfig {
    /// A clock that stands still at `start` (tests that must not race it).
    pub fn stopped_at(start: DateTime<Utc>) -> EmulatorConfig {
        EmulatorConfig {
            time_scale: 0.0,
            start: Some(start),
            ..EmulatorConfig::default()
        }
    }
}
