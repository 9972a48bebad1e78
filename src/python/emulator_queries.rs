//! The work behind some `EmulatorServer` methods: checking their arguments,
//! and answering what the emulator's world holds (rows of a bulk file, values
//! the live feed published), so that tests can compare a client's results.

use std::time::Duration;

use chrono::{DateTime, Utc};
use pyo3::prelude::*;

use super::errors::invalid_request;
use domain::month::Month;
use domain::tenor::Tenor;
use domain::vocabulary::find_vertical;
use emulator::accounts::Licence;
use emulator::bulk::records::{count_rows, FileKey};
use emulator::calendar::{day_of, start_of};
use emulator::world::published::published_prices;
use emulator::world::World;
use emulator::AppState;

pub fn check_scale(time_scale: f64) -> PyResult<f64> {
    if time_scale.is_finite() && time_scale >= 0.0 {
        Ok(time_scale)
    } else {
        Err(invalid_request(format!(
            "time_scale must be a finite number >= 0, not {time_scale}"
        )))
    }
}

pub fn at_least_one(count: u32) -> PyResult<u32> {
    if count == 0 {
        return Err(invalid_request("count must be at least 1"));
    }
    Ok(count)
}

pub fn check_seconds(name: &str, seconds: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        invalid_request(format!(
            "{name} must be a number of seconds >= 0, not {seconds}"
        ))
    })
}

/// Rows of the bulk file of `vertical` (either spelling) and `month` (`YYYY-MM`)
/// for a licence.
pub fn bulk_rows(
    py: Python<'_>,
    world: &World,
    vertical: &str,
    month: &str,
    licence: Licence,
) -> PyResult<u64> {
    let vertical = find_vertical(vertical)
        .ok_or_else(|| invalid_request(format!("unknown vertical {vertical:?}")))?;
    let month = Month::parse(month)
        .ok_or_else(|| invalid_request(format!("month must be YYYY-MM, not {month:?}")))?;
    if licence.revoked {
        return Ok(0);
    }
    let key = FileKey {
        vertical: vertical.bulk_name,
        month,
        denied: licence.denied_quotations,
    };
    Ok(py.detach(|| count_rows(world, &key)))
}

/// The values the live feed published for a curve and tenor from `start` to
/// `end`, both included (default: the start of the emulator's UTC day, now).
pub fn published(
    state: &AppState,
    curve_id: &str,
    tenor: &str,
    start: Option<DateTime<Utc>>,
    end: Option<DateTime<Utc>>,
) -> PyResult<Vec<(DateTime<Utc>, f64)>> {
    let world = &state.world;
    let curve = world
        .curve(curve_id)
        .ok_or_else(|| invalid_request(format!("unknown curve id {curve_id:?}")))?;
    let tenor = Tenor::parse(tenor).map_err(|e| invalid_request(e.to_string()))?;
    let now = state.clock.now();
    let start = start.map_or_else(|| start_of(day_of(now)), |s| s.timestamp_micros());
    let end = end.map_or(now, |e| e.timestamp_micros());
    let values = published_prices(world, curve, &tenor, start, end);
    Ok(values
        .into_iter()
        .map(|(at, price)| {
            (
                DateTime::from_timestamp_micros(at).expect("in range"),
                price,
            )
        })
        .collect())
}
