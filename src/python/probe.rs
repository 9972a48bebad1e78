//! `marketcurves._core.probe_live`: the counting reader of the live feed,
//! for benchmarks (`marketcurves.testing.probe_live`).

use std::time::Duration;

use pyo3::prelude::*;

use super::errors::invalid_request;
use super::runtime::wait_interruptibly;
use domain::live::Subscription;
use live::probe::{count_frames, Reading};
use live::LiveConfig;

/// Frames per second a reader that only counts gets from the feed at
/// `live_url`, subscribed to `subscriptions` for `seconds`; with `decode`,
/// one that also reads each frame with the client's frame reader.
#[pyfunction]
#[pyo3(name = "_probe_live", signature = (live_url, token, subscriptions, seconds, *, decode = false))]
pub(crate) fn probe_live(
    py: Python<'_>,
    live_url: &str,
    token: String,
    subscriptions: Vec<(String, String)>,
    seconds: f64,
    decode: bool,
) -> PyResult<f64> {
    let duration = Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| invalid_request(format!("seconds must be > 0, not {seconds}")))?;
    let url = LiveConfig::endpoint(live_url);
    let subscriptions: Vec<Subscription> = subscriptions
        .into_iter()
        .map(|(curve_id, tenor)| Subscription::new(curve_id, tenor))
        .collect();
    let reading = if decode {
        Reading::Decode
    } else {
        Reading::Count
    };
    let counted = wait_interruptibly(
        py,
        async move { count_frames(&url, &token, &subscriptions, duration, reading).await },
        |_| Ok(()),
    )?
    .map_err(invalid_request)?;
    Ok(counted.frames as f64 / counted.seconds)
}
