//! What a recorder is asked to do, checked before anything connects.

use std::time::Duration;

use domain::live::Subscription;
use live::{checked_subscription, LiveConfig};
use places::{Argument, ClientError, Rule};

#[derive(Clone, Debug)]
pub struct RecordConfig {
    pub subscriptions: Vec<Subscription>,
    /// A file is closed this long after its first tick arrived...
    pub rotate: Duration,
    /// ...or once it holds this many ticks.
    pub rotate_rows: usize,
    /// Ticks held unwritten (a destination refusing writes) before the
    /// recorder stops with an error rather than hold more.
    pub hold_limit: usize,
    /// Compact each day into one file once it is over.
    pub compact: bool,
    /// The feed's settings; `backfill` decides whether a restart (and a
    /// reconnect) fetches what it missed.
    pub live: LiveConfig,
}

impl RecordConfig {
    pub const DEFAULT_ROTATE: &'static str = "5min";
    pub const DEFAULT_ROTATE_ROWS: usize = 1_000_000;
    /// About 130 MB of ticks.
    pub const DEFAULT_HOLD_LIMIT: usize = 2_000_000;
    const LONGEST_ROTATE: Duration = Duration::from_secs(24 * 3600);

    /// Checks every argument: at least one subscription, each a curve id and
    /// `*` or a tenor name; a rotation period from 1 s to 1 day; positive sizes.
    pub fn new(
        subscriptions: &[(String, String)],
        rotate: &str,
        rotate_rows: usize,
        hold_limit: usize,
        compact: bool,
        live: LiveConfig,
    ) -> Result<RecordConfig, ClientError> {
        let invalid = |argument: Argument, rule: Rule, message: String| {
            Err(ClientError::invalid(argument, rule, message))
        };
        if subscriptions.is_empty() {
            return invalid(
                Argument::Subscription,
                Rule::Empty,
                "subscriptions must name at least one (curve_id, tenor) pair; \
                 tenor '*' takes every tenor of the curve"
                    .into(),
            );
        }
        let mut checked = Vec::new();
        for (curve_id, tenor) in subscriptions {
            let subscription = checked_subscription(curve_id, tenor)?;
            if !checked.contains(&subscription) {
                checked.push(subscription);
            }
        }
        let rotate = parse_period("rotate", rotate)?;
        if rotate < Duration::from_secs(1) || rotate > RecordConfig::LONGEST_ROTATE {
            return invalid(
                Argument::Period,
                Rule::Bounds,
                format!("rotate must be from 1s to 1d, not {:?}", humanize(rotate)),
            );
        }
        if rotate_rows == 0 {
            return invalid(
                Argument::Limit,
                Rule::Bounds,
                "rotate_rows must be at least 1".into(),
            );
        }
        if !(1..=LiveConfig::MAX_QUEUE_SIZE).contains(&hold_limit) {
            let rest = format!(
                " must be from 1 to {}, not {hold_limit}",
                LiveConfig::MAX_QUEUE_SIZE
            );
            return Err(ClientError::InvalidRequest(
                places::Invalid::led(Argument::HoldLimit, Rule::Bounds, &rest)
                    .value(hold_limit.to_string()),
            ));
        }
        live.validate()?;
        Ok(RecordConfig {
            subscriptions: checked,
            rotate,
            rotate_rows,
            hold_limit,
            compact,
            live,
        })
    }
}

/// A period written as a number and a unit: `500ms`, `30s`, `5min`, `2h`,
/// `1d` (a bare number is seconds; `m` is minutes).
pub fn parse_period(argument: &str, text: &str) -> Result<Duration, ClientError> {
    let bad = || {
        ClientError::invalid(
            places::Argument::Period,
            places::Rule::Form,
            format!("{argument} must be a period such as '30s', '5min' or '1h', not {text:?}"),
        )
    };
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let number: f64 = number.parse().map_err(|_| bad())?;
    let seconds = match unit.trim().to_ascii_lowercase().as_str() {
        "ms" => 0.001,
        "" | "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
        "m" | "min" | "mins" | "minute" | "minutes" => 60.0,
        "h" | "hr" | "hour" | "hours" => 3600.0,
        "d" | "day" | "days" => 86_400.0,
        _ => return Err(bad()),
    };
    Duration::try_from_secs_f64(number * seconds).map_err(|_| bad())
}

fn humanize(period: Duration) -> String {
    format!("{}s", period.as_secs_f64())
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
