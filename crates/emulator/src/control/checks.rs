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
    #[error(transparent)]
    Tenor(#[from] TenorError),
}

pub type ControlResult<T> = Result<T, ControlError>;

/// A countdown of faults: zero would inject nothing, which is surely a mistake.
pub fn at_least_one(count: u32) -> ControlResult<u32> {
    if count == 0 {
        return Err(ControlError::ZeroCount);
    }
    Ok(count)
}

/// Emulated seconds per real second: 0 stops the clock, nothing runs it backwards.
pub fn time_scale(time_scale: f64) -> ControlResult<f64> {
    if time_scale.is_finite() && time_scale >= 0.0 {
        Ok(time_scale)
    } else {
        Err(ControlError::TimeScale(time_scale))
    }
}

/// A span of real time, such as a latency.
pub fn seconds(name: &'static str, value: f64) -> ControlResult<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| ControlError::Seconds { name, value })
}

/// A status a response can carry.
pub fn http_status(status: u16) -> ControlResult<u16> {
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
mod tests {
    use super::*;

    #[test]
    fn counts_start_at_one() {
        assert_eq!(at_least_one(1), Ok(1));
        assert_eq!(
            at_least_one(0).unwrap_err().to_string(),
            "count must be at least 1"
        );
    }

    #[test]
    fn a_time_scale_is_finite_and_not_negative() {
        assert_eq!(time_scale(0.0), Ok(0.0));
        assert_eq!(time_scale(60.0), Ok(60.0));
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(time_scale(bad), Err(ControlError::TimeScale(_))));
        }
        assert_eq!(
            time_scale(-1.0).unwrap_err().to_string(),
            "time_scale must be a finite number >= 0, not -1"
        );
    }

    #[test]
    fn seconds_are_a_duration() {
        assert_eq!(seconds("latency", 0.25), Ok(Duration::from_millis(250)));
        assert_eq!(
            seconds("latency", -0.5).unwrap_err().to_string(),
            "latency must be a number of seconds >= 0, not -0.5"
        );
        assert!(seconds("latency", f64::NAN).is_err());
    }

    #[test]
    fn statuses_are_those_of_http() {
        assert_eq!(http_status(100), Ok(100));
        assert_eq!(http_status(599), Ok(599));
        assert_eq!(
            http_status(600).unwrap_err().to_string(),
            "status must be an HTTP status from 100 to 599, not 600"
        );
        assert_eq!(http_status(99), Err(ControlError::Status(99)));
    }

    #[test]
    fn corruptions_are_named_as_the_control_api_names_them() {
        assert_eq!("truncated".parse(), Ok(Corruption::Truncated));
        assert_eq!("malformed".parse(), Ok(Corruption::Malformed));
        let reset = "reset".parse::<Corruption>().unwrap_err();
        assert_eq!(
            reset.to_string(),
            "kind must be 'truncated' or 'malformed', not 'reset'"
        );
    }
}
