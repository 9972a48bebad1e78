//! The value rules of the control API's arguments, each checked once here
//! with the message a caller sees (Python's `InvalidRequest` carries it).

use std::time::Duration;

use domain::tenor::TenorError;

use crate::faults::Corruption;

/// An argument of a control the emulator refuses, or a name it does not know.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ControlError {
    #[error("count must be at least 1")]
    ZeroCount,
    #[error("status must be an HTTP status from 100 to 599, not {0}")]
    Status(u16),
    #[error("kind must be 'truncated' or 'malformed', not '{0}'")]
    CorruptionKind(String),
    #[error("time_scale must be a finite number >= 0, not {0}")]
    TimeScale(f64),
    #[error("{0} must be a finite number")]
    NotFinite(&'static str),
    #[error("{name} must be a number of seconds >= 0, not {value}")]
    Seconds { name: &'static str, value: f64 },
    #[error("no account {0:?}")]
    UnknownAccount(String),
    #[error("unknown vertical {0:?}")]
    UnknownVertical(String),
    #[error("month must be YYYY-MM, not {0:?}")]
    Month(String),
    #[error("unknown curve id {0:?}")]
    UnknownCurve(String),
    #[error("the catalogue holds at most {max} curves; {count} more would make {total}")]
    TooManyCurves {
        count: u32,
        total: usize,
        max: usize,
    },
    #[error(transparent)]
    Tenor(#[from] TenorError),
}

pub type ControlResult<T> = Result<T, ControlError>;

/// A countdown of faults: zero would inject nothing, which is surely a mistake.
pub(crate) fn at_least_one(count: u32) -> ControlResult<u32> {
    if count == 0 {
        return Err(ControlError::ZeroCount);
    }
    Ok(count)
}

/// Emulated seconds per real second: 0 stops the clock, nothing runs it backwards.
pub(crate) fn time_scale(time_scale: f64) -> ControlResult<f64> {
    if time_scale.is_finite() && time_scale >= 0.0 {
        Ok(time_scale)
    } else {
        Err(ControlError::TimeScale(time_scale))
    }
}

/// A span of real time, such as a latency.
pub(crate) fn seconds(name: &'static str, value: f64) -> ControlResult<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| ControlError::Seconds { name, value })
}

/// A status a response can carry.
pub(crate) fn http_status(status: u16) -> ControlResult<u16> {
    if (100..=599).contains(&status) {
        Ok(status)
    } else {
        Err(ControlError::Status(status))
    }
}

impl std::str::FromStr for Corruption {
    type Err = ControlError;

    /// The names the control API uses: `truncated` and `malformed`.
    fn from_str(kind: &str) -> ControlResult<Corruption> {
        match kind {
            "truncated" => Ok(Corruption::Truncated),
            "malformed" => Ok(Corruption::Malformed),
            other => Err(ControlError::CorruptionKind(other.to_owned())),
        }
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
