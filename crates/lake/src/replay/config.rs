//! What a replay delivers, and how fast: its span, speed and queue, checked
//! before anything is read.

use domain::timestamp::Micros;
use history::rest::windows::MAX_INTRADAY_HISTORY_DAYS;
use live::LiveConfig;
use places::{Argument, ClientError, Rule};

/// What a replay delivers, and how fast.
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    /// The replay's first time: subscriptions made before any value get
    /// their snapshots as of it.
    pub start: Micros,
    /// Its last: iteration ends once every value up to it is delivered.
    pub end: Micros,
    /// Replay seconds per real second; `None` as fast as the consumer takes values.
    pub speed: Option<f64>,
    /// Paced, a slow consumer gets the newest value per tenor (the live
    /// feed's rule); without, every value, late.
    pub conflate: bool,
    pub queue_size: usize,
}

impl ReplayConfig {
    pub fn validate(&self) -> Result<(), ClientError> {
        let invalid = |argument: Argument, rule: Rule, message: String| {
            Err(ClientError::invalid(argument, rule, message))
        };
        if self.end < self.start {
            return invalid(
                Argument::Range,
                Rule::Bounds,
                "end must not be before start".into(),
            );
        }
        // As for intraday history: ten years is a wish, more a typo whose
        // cost (a read a day, a request a window) would follow the range.
        let days = (self.end - self.start) / 86_400_000_000 + 1;
        if days > MAX_INTRADAY_HISTORY_DAYS {
            return invalid(
                Argument::Range,
                Rule::Bounds,
                format!(
                    "a replay covers at most {MAX_INTRADAY_HISTORY_DAYS} days (about ten years); \
                 this one {days}: check the dates"
                ),
            );
        }
        if let Some(speed) = self.speed {
            if !(speed.is_finite() && speed > 0.0) {
                return invalid(
                    Argument::Named("speed".into()),
                    Rule::Bounds,
                    format!("speed must be a number above 0 or 'max', not {speed}"),
                );
            }
        }
        LiveConfig::check_queue_size(self.queue_size)
    }
}
