//! What a recorder reports: its counters, a log line a minute (target
//! `marketcurves.record`), and `_status.json` in the destination for
//! monitoring, replaced whole each time.

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

use super::file::TenorKey;
use domain::live::Subscription;
use domain::timestamp::Micros;

pub(crate) const TARGET: &str = "marketcurves.record";

/// What a recorder has done, since it started.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RecordSummary {
    pub ticks_written: u64,
    pub files_written: u64,
    /// Of the ticks written, those fetched from the intraday endpoints
    /// (after a start or a reconnect) rather than pushed by the feed.
    pub backfilled: u64,
    pub reconnects: u64,
    /// Times the recorder dropped what it held unwritten and started again
    /// from its files, because something could have been missed in between
    /// (a failed backfill, a queue that overflowed).
    pub restarts: u64,
    pub write_failures: u64,
    pub compacted_days: u64,
    /// Ticks received and not written when it stopped.
    pub unwritten: u64,
}

/// The lag from a tick's receipt to the completion of the write that holds it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lag {
    pub last: Duration,
    pub max: Duration,
}

impl Lag {
    pub fn saw(&mut self, lag: Duration) {
        self.last = lag;
        self.max = self.max.max(lag);
    }
}

fn iso(at: Micros) -> Option<String> {
    DateTime::from_timestamp_micros(at).map(|t| t.to_rfc3339_opts(SecondsFormat::Micros, true))
}

#[derive(Serialize)]
struct SubscriptionStatus {
    curve_id: String,
    tenor: String,
    /// The newest `generated_on` written among the tenors it covers.
    last_generated_on: Option<String>,
    /// Per tenor (for `*`, every tenor written so far).
    tenors: BTreeMap<String, Option<String>>,
}

#[derive(Serialize)]
struct StatusFile<'a> {
    dest: &'a str,
    state: &'a str,
    pid: u32,
    started_at: Option<String>,
    updated_at: Option<String>,
    last_write: Option<String>,
    held: usize,
    lag_seconds: BTreeMap<&'static str, f64>,
    error: Option<&'a str>,
    counters: &'a RecordSummary,
    subscriptions: Vec<SubscriptionStatus>,
}

/// Everything the status file says.
pub struct StatusInput<'a> {
    pub dest: &'a str,
    pub state: &'a str,
    pub started_at: Micros,
    pub last_write: Option<Micros>,
    pub held: usize,
    pub lag: Lag,
    pub error: Option<&'a str>,
    pub counters: &'a RecordSummary,
    pub subscriptions: &'a [Subscription],
    pub last: &'a BTreeMap<TenorKey, Micros>,
}

pub fn status_json(input: &StatusInput<'_>) -> Vec<u8> {
    let subscriptions = input
        .subscriptions
        .iter()
        .map(|sub| {
            let tenors: BTreeMap<String, Micros> = input
                .last
                .iter()
                .filter(|((curve_id, tenor), _)| {
                    *curve_id == sub.curve_id && (sub.is_all_tenors() || *tenor == sub.tenor)
                })
                .map(|((_, tenor), at)| (tenor.clone(), *at))
                .collect();
            let mut listed: BTreeMap<String, Option<String>> =
                tenors.iter().map(|(t, at)| (t.clone(), iso(*at))).collect();
            if !sub.is_all_tenors() {
                listed.entry(sub.tenor.clone()).or_insert(None);
            }
            SubscriptionStatus {
                curve_id: sub.curve_id.clone(),
                tenor: sub.tenor.clone(),
                last_generated_on: tenors.values().max().and_then(|at| iso(*at)),
                tenors: listed,
            }
        })
        .collect();
    let status = StatusFile {
        dest: input.dest,
        state: input.state,
        pid: std::process::id(),
        started_at: iso(input.started_at),
        updated_at: iso(Utc::now().timestamp_micros()),
        last_write: input.last_write.and_then(iso),
        held: input.held,
        lag_seconds: BTreeMap::from([
            ("last", input.lag.last.as_secs_f64()),
            ("max", input.lag.max.as_secs_f64()),
        ]),
        error: input.error,
        counters: input.counters,
        subscriptions,
    };
    serde_json::to_vec_pretty(&status).unwrap_or_default()
}

/// The minute's log line: what was written since the last one, and in all.
pub fn log_minute(now: &RecordSummary, before: &RecordSummary, held: usize, lag: Lag) {
    log::info!(
        target: TARGET,
        "recorder: {} ticks in {} files written in the last minute ({} in all), \
         {} reconnects, {} backfilled, {held} held, lag from receipt to write {:.2} s (max {:.2} s)",
        now.ticks_written - before.ticks_written,
        now.files_written - before.files_written,
        now.ticks_written,
        now.reconnects - before.reconnects,
        now.backfilled - before.backfilled,
        lag.last.as_secs_f64(),
        lag.max.as_secs_f64(),
    );
}
