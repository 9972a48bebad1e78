//! Every result of the core that Python receives as a dict, converted here
//! and nowhere else: the catalogue's curves, the live feed's counters and
//! events, the recorder's summary and compacted days, a backfill's summary,
//! a lake's check, what the history cache holds and cleared.
//! Each dict's keys are those of its `TypedDict` in `marketcurves`
//! (`_live_types.py`, `record.py`, `cache.py`, or the stubs' private ones,
//! `_core.pyi`); `tests/test_result_types.py` checks that they stay the same.

use chrono::DateTime;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use domain::records::CurveQuotation;
use history::cache::{CacheInfo, Cleared};
use lake::backfill::BackfillSummary;
use lake::record::check::LakeReport;
use lake::record::compact::CompactedDay;
use lake::record::RecordSummary;
use live::{FeedEvent, FeedStats};

/// The curves of a catalogue query, each a `marketcurves._core._CurveRow`
/// (which `marketcurves.Curve` is made from): a field the service left out
/// is None, or empty for the mappings and the contracts.
pub(crate) fn catalogue(
    py: Python<'_>,
    curves: Vec<CurveQuotation>,
) -> PyResult<Bound<'_, PyList>> {
    let rows = PyList::empty(py);
    for curve in curves {
        let dict = PyDict::new(py);
        dict.set_item("id", curve.id)?;
        dict.set_item("name", curve.name)?;
        dict.set_item("quotation", curve.quotation)?;
        dict.set_item("units", curve.units)?;
        dict.set_item("filters", curve.filters.unwrap_or_default())?;
        dict.set_item("properties", curve.properties.unwrap_or_default())?;
        dict.set_item("contracts", curve.contracts.unwrap_or_default())?;
        rows.append(dict)?;
    }
    Ok(rows)
}

/// `LiveFeed.stats()`: `marketcurves.live.FeedStats`.
pub(crate) fn feed_stats<'py>(py: Python<'py>, stats: &FeedStats) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("messages", stats.messages)?;
    dict.set_item("ticks_delivered", stats.ticks_delivered)?;
    dict.set_item("reconnects", stats.reconnects)?;
    dict.set_item("gaps_filled", stats.gaps_filled)?;
    dict.set_item("backfilled", stats.backfilled)?;
    dict.set_item("backfill_requests", stats.backfill_requests)?;
    dict.set_item("backfill_failures", stats.backfill_failures)?;
    dict.set_item("gaps_skipped", stats.gaps_skipped)?;
    dict.set_item("conflated", stats.conflated)?;
    dict.set_item("duplicates_dropped", stats.duplicates_dropped)?;
    let last = stats.last_message.and_then(DateTime::from_timestamp_micros);
    dict.set_item("last_message", last)?;
    dict.set_item("subscriptions", stats.subscriptions)?;
    dict.set_item("connected", stats.connected)?;
    dict.set_item("queued", stats.queued)?;
    Ok(dict)
}

/// An event handed to `on_event`: `marketcurves.live.FeedEvent`.
pub(crate) fn feed_event<'py>(py: Python<'py>, event: &FeedEvent) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let at = |micros: i64| DateTime::from_timestamp_micros(micros);
    match event {
        FeedEvent::Connected { attempt } => {
            dict.set_item("kind", "connected")?;
            dict.set_item("attempt", attempt)?;
        }
        FeedEvent::Disconnected { reason } => {
            dict.set_item("kind", "disconnected")?;
            dict.set_item("reason", reason)?;
        }
        FeedEvent::Reconnected { downtime, attempts } => {
            dict.set_item("kind", "reconnected")?;
            dict.set_item("downtime", downtime.as_secs_f64())?;
            dict.set_item("attempts", attempts)?;
        }
        FeedEvent::GapFilled {
            curve_id,
            tenor,
            count,
            from,
            to,
        } => {
            dict.set_item("kind", "gap_filled")?;
            dict.set_item("curve_id", curve_id)?;
            dict.set_item("tenor", tenor)?;
            dict.set_item("count", count)?;
            dict.set_item("start", at(*from))?;
            dict.set_item("end", at(*to))?;
        }
        FeedEvent::Conflated { count } => {
            dict.set_item("kind", "conflated")?;
            dict.set_item("count", count)?;
        }
        FeedEvent::Error { message } => {
            dict.set_item("kind", "error")?;
            dict.set_item("message", message)?;
        }
    }
    Ok(dict)
}

/// What a recorder did: `marketcurves.RecordSummary`'s fields.
pub(crate) fn record_summary<'py>(
    py: Python<'py>,
    summary: &RecordSummary,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("ticks_written", summary.ticks_written)?;
    dict.set_item("files_written", summary.files_written)?;
    dict.set_item("backfilled", summary.backfilled)?;
    dict.set_item("reconnects", summary.reconnects)?;
    dict.set_item("restarts", summary.restarts)?;
    dict.set_item("write_failures", summary.write_failures)?;
    dict.set_item("compacted_days", summary.compacted_days)?;
    dict.set_item("unwritten", summary.unwritten)?;
    Ok(dict)
}

/// What a backfill, or one task of it, did: `marketcurves.BackfillSummary`'s fields.
pub(crate) fn backfill_summary<'py>(
    py: Python<'py>,
    summary: &BackfillSummary,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("tasks", summary.tasks)?;
    dict.set_item("requests", summary.requests)?;
    dict.set_item("values", summary.values)?;
    dict.set_item("days_complete", summary.days_complete)?;
    dict.set_item("days_skipped", summary.days_skipped)?;
    dict.set_item("files_written", summary.files_written)?;
    dict.set_item("set_aside", &summary.set_aside)?;
    dict.set_item("empty", &summary.empty)?;
    Ok(dict)
}

/// A lake's check: `marketcurves.lake.LakeReport`'s fields.
pub(crate) fn lake_report<'py>(
    py: Python<'py>,
    report: &LakeReport,
) -> PyResult<Bound<'py, PyDict>> {
    let at = |micros: i64| DateTime::from_timestamp_micros(micros);
    let tenors = PyList::empty(py);
    for tenor in &report.tenors {
        let dict = PyDict::new(py);
        dict.set_item("curve_id", &tenor.curve_id)?;
        dict.set_item("tenor", &tenor.tenor)?;
        dict.set_item("first_day", tenor.first_day)?;
        dict.set_item("last_day", tenor.last_day)?;
        dict.set_item("days_recorded", tenor.days_recorded)?;
        dict.set_item("days_backfilled", tenor.days_backfilled)?;
        dict.set_item("missing_days", &tenor.missing_days)?;
        tenors.append(dict)?;
    }
    let twice = PyList::empty(py);
    for held in &report.held_twice {
        let dict = PyDict::new(py);
        dict.set_item("curve_id", &held.curve_id)?;
        dict.set_item("tenor", &held.tenor)?;
        dict.set_item("day", held.day)?;
        dict.set_item("values", held.values)?;
        twice.append(dict)?;
    }
    let why = |found: &[(String, String)]| -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (file, reason) in found {
            let dict = PyDict::new(py);
            dict.set_item("file", file)?;
            dict.set_item("reason", reason)?;
            list.append(dict)?;
        }
        Ok(list)
    };
    let nan = PyList::empty(py);
    for held in &report.nan_prices {
        let dict = PyDict::new(py);
        dict.set_item("curve_id", &held.curve_id)?;
        dict.set_item("tenor", &held.tenor)?;
        dict.set_item("day", held.day)?;
        dict.set_item("values", held.values)?;
        nan.append(dict)?;
    }
    let recorder = match &report.recorder {
        None => None,
        Some(coverage) => {
            let dict = PyDict::new(py);
            dict.set_item("state", &coverage.state)?;
            dict.set_item("updated_at", &coverage.updated_at)?;
            dict.set_item("running", coverage.running)?;
            let since = PyList::empty(py);
            for (curve_id, tenor, last) in &coverage.not_recorded_since {
                since.append((curve_id, tenor, at(*last)))?;
            }
            dict.set_item("not_recorded_since", since)?;
            Some(dict)
        }
    };
    let dict = PyDict::new(py);
    dict.set_item("tenors", tenors)?;
    dict.set_item("held_twice", twice)?;
    dict.set_item("counted_twice", &report.counted_twice)?;
    dict.set_item("unreadable", why(&report.unreadable)?)?;
    dict.set_item("misfiled", why(&report.misfiled)?)?;
    dict.set_item("untrue_notes", why(&report.untrue_notes)?)?;
    dict.set_item("foreign", why(&report.foreign)?)?;
    dict.set_item("links", &report.links)?;
    dict.set_item("nan_prices", nan)?;
    dict.set_item("recorder", recorder)?;
    Ok(dict)
}

/// A day of a recording merged: `marketcurves.record.CompactedDay`.
pub(crate) fn compacted_day<'py>(
    py: Python<'py>,
    day: &CompactedDay,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("day", day.day)?;
    dict.set_item("files", day.files)?;
    dict.set_item("rows", day.rows)?;
    Ok(dict)
}

/// What the history cache holds: `marketcurves.cache.CacheInfo`.
pub(crate) fn cache_info(py: Python<'_>, info: CacheInfo) -> PyResult<Bound<'_, PyDict>> {
    let curves = PyList::empty(py);
    for curve in info.curves {
        let entry = PyDict::new(py);
        entry.set_item("curve_id", curve.curve_id)?;
        entry.set_item("history", curve.history.name())?;
        entry.set_item("tenors", curve.tenors)?;
        entry.set_item("days", curve.days)?;
        entry.set_item("first", curve.first)?;
        entry.set_item("last", curve.last)?;
        entry.set_item("files", curve.files)?;
        entry.set_item("bytes", curve.bytes)?;
        curves.append(entry)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("dir", info.dir.to_string_lossy())?;
    dict.set_item("files", info.files)?;
    dict.set_item("bytes", info.bytes)?;
    dict.set_item("curves", curves)?;
    Ok(dict)
}

/// What clearing the cache removed: `marketcurves.cache.Cleared`.
pub(crate) fn cleared(py: Python<'_>, cleared: Cleared) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("files", cleared.files)?;
    dict.set_item("bytes", cleared.bytes)?;
    Ok(dict)
}
