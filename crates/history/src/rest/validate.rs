//! Checks of the caller's arguments, made before anything is sent, with
//! messages that name the argument and, where there is a list, the valid values.

use std::fmt::Display;
use std::time::Duration;

use chrono::NaiveDate;

use super::windows::{MAX_INTRADAY_DAYS, MAX_INTRADAY_HISTORY_DAYS};
use domain::tenor::Tenor;
use domain::vocabulary::{canonical, find_vertical, Vertical, VERTICALS};
use places::{Argument, ClientError, Rule};

fn invalid(argument: Argument, rule: Rule, message: String) -> ClientError {
    ClientError::invalid(argument, rule, message)
}

/// A path segment of dots only, which a URL resolves to another path (the
/// curve's parent, say) however it is encoded: never a curve id or a tenor.
fn dots(segment: &str) -> bool {
    matches!(segment, "." | "..")
}

pub fn curve_id(id: &str) -> Result<String, ClientError> {
    let id = id.trim();
    if id.is_empty() || id.chars().any(char::is_control) || dots(id) {
        return Err(invalid(
            Argument::Curve,
            Rule::Form,
            format!("curve_id must be a curve id from the catalogue, not {id:?}"),
        ));
    }
    Ok(id.to_owned())
}

pub fn tenor(name: &str) -> Result<Tenor, ClientError> {
    if name.trim().is_empty() {
        return Err(invalid(
            Argument::Tenor,
            Rule::Empty,
            "tenor must be a tenor name such as 'Jan 26', not empty".into(),
        ));
    }
    // No tenor has one, and in a path segment it would only earn a 404; dots
    // would send the request to another path.
    if name.chars().any(char::is_control) || dots(name.trim()) {
        return Err(invalid(
            Argument::Tenor,
            Rule::Form,
            format!("tenor must be a tenor name such as 'Jan 26', not {name:?}"),
        ));
    }
    Tenor::parse(name).map_err(|e| invalid(Argument::Tenor, Rule::Form, format!("tenor: {e}")))
}

/// An intraday history range within [`MAX_INTRADAY_HISTORY_DAYS`].
pub fn intraday_span(start: NaiveDate, end: NaiveDate) -> Result<(), ClientError> {
    let days = (end - start).num_days() + 1;
    if days > MAX_INTRADAY_HISTORY_DAYS {
        return Err(invalid(
            Argument::Range,
            Rule::Bounds,
            format!(
                "intraday_history covers at most {MAX_INTRADAY_HISTORY_DAYS} days (about ten \
             years, {} requests a tenor at least); {start} to {end} is {days} days: check \
             the dates, or pull a longer history in parts",
                MAX_INTRADAY_HISTORY_DAYS / MAX_INTRADAY_DAYS
            ),
        ));
    }
    Ok(())
}

/// `start` not after `end`: days, or the months of a bulk job.
pub fn date_range<T: PartialOrd + Display>(start: T, end: T) -> Result<(), ClientError> {
    if end < start {
        return Err(invalid(
            Argument::Range,
            Rule::Bounds,
            format!("start {start} is after end {end}"),
        ));
    }
    Ok(())
}

/// A duration given as a number of seconds (as Python gives it): finite and > 0.
pub fn seconds(argument: Argument, value: f64) -> Result<Duration, ClientError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            let rest = format!(" must be a finite number of seconds > 0, not {value}");
            ClientError::InvalidRequest(
                places::Invalid::led(argument, Rule::Bounds, &rest).value(value.to_string()),
            )
        })
}

/// The vertical in the interface's spelling (`fuel oil`, `FUEL_OIL` → `Fuel Oil`).
pub fn vertical(name: &str) -> Result<&'static Vertical, ClientError> {
    find_vertical(name).ok_or_else(|| {
        let names: Vec<&str> = VERTICALS.iter().map(|v| v.name).collect();
        invalid(
            Argument::Vertical,
            Rule::Unknown,
            format!("vertical {name:?} is not one of {}", names.join(", ")),
        )
    })
}

/// A quotation or region in the interface's spelling, among those of
/// `vertical` if given, else of any vertical.
pub fn vocabulary_value(
    argument: &str,
    value: &str,
    vertical: Option<&'static Vertical>,
    values_of: fn(&'static Vertical) -> &'static [&'static str],
) -> Result<&'static str, ClientError> {
    let verticals: Vec<&'static Vertical> = match vertical {
        Some(v) => vec![v],
        None => VERTICALS.iter().collect(),
    };
    if let Some(found) = verticals
        .iter()
        .find_map(|v| canonical(values_of(v), value))
    {
        return Ok(found);
    }
    let mut valid: Vec<&str> = verticals
        .iter()
        .flat_map(|v| values_of(v).iter().copied())
        .collect();
    valid.sort_unstable();
    valid.dedup();
    let scope = vertical.map_or(String::new(), |v| format!(" of {}", v.name));
    Err(invalid(
        Argument::Filter,
        Rule::Unknown,
        format!(
            "{argument} {value:?} is not a {argument}{scope}; valid: {}",
            valid.join(", ")
        ),
    ))
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
