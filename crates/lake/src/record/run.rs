//! The recorder: the live feed into Parquet files, each value exactly once
//! across disconnections, restarts and crashes.
//!
//! What the files hold of each tenor is always a prefix of what the service
//! published: files are written in the order their ticks were received
//! (`pending`), and each records its tenors' last times (`checkpoint`). A
//! start resumes from those times: the feed delivers only later values and
//! backfills what was published since from the intraday endpoints
//! (`LiveConfig::resume`), before any newer live value. So a crash loses
//! only what no file held yet, and the next start fetches exactly that.
//!
//! When the feed itself may have missed a value (a backfill that failed, a
//! queue that overflowed, an error of the feed), the recorder cannot patch
//! the hole in place: it drops what it holds unwritten and starts the feed
//! again from its files, which is the same recovery as a crash's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, Utc};
use tokio_util::sync::CancellationToken;

use super::checkpoint::{load, Checkpoint};
use super::compact::compact;
use super::config::RecordConfig;
use super::file::Recorded;
use super::layout::{part_name, utc_day, STATUS};
use super::lock::WriterLock;
use super::pending::Pending;
use super::status::{log_minute, status_json, Lag, RecordSummary, StatusInput, TARGET};
use super::subscriptions::check_against_catalogue;
use domain::timestamp::Micros;
use history::RestClient;
use live::{LiveFeed, ResumePoint, TickSource};
use places::storage::{Operation, Place, PlaceError};
use places::ClientError;

/// Ticks taken from the feed at once.
const DRAIN_MAX: usize = 50_000;
/// The longest the loop waits for ticks before its housekeeping.
const TICK: Duration = Duration::from_millis(250);
const STATUS_EVERY: Duration = Duration::from_secs(60);
/// Waits between failed writes, and between restarts of the feed.
const RETRY_MIN: Duration = Duration::from_secs(1);
const RETRY_MAX: Duration = Duration::from_secs(30);
/// How long a stop may spend writing what is held.
const FINISH_WAIT: Duration = Duration::from_secs(5);
/// A day is compacted this long after it ended, on the service's clock
/// (the newest `generated_on` seen), once nothing of it is held.
const COMPACT_AFTER: Micros = 3_600_000_000;

/// Why a recorder starts a new feed when its feed ended with nothing more to say.
const FEED_ENDED: &str =
    "the feed is closed (by close(), by a fatal error, or for a replay at its end)";

/// Records until `stop` is cancelled (then writes what it holds and returns
/// what it did) or a failure it cannot mend.
pub async fn record(
    rest: Arc<RestClient>,
    place: Place,
    config: RecordConfig,
    stop: CancellationToken,
) -> Result<RecordSummary, ClientError> {
    let recorder = Recorder::prepare(rest, place, config).await?;
    recorder.run(stop).await
}

/// How following one feed ended.
enum Ended {
    Stopped,
    /// Something may have been missed: start again from the files.
    Restart(String),
}

struct Recorder {
    rest: Arc<RestClient>,
    dest: Place,
    /// Held for the run: no other recorder writes into `dest` meanwhile.
    lock: WriterLock,
    config: RecordConfig,
    checkpoint: Checkpoint,
    pending: Pending,
    summary: RecordSummary,
    /// The summary at the last minute's log line.
    logged: RecordSummary,
    /// Reconnects of the feeds before the current one.
    reconnects_before: u64,
    run_tag: String,
    sequence: u64,
    started_at: Micros,
    last_write: Option<Micros>,
    lag: Lag,
    retry_at: Option<Instant>,
    retry_wait: Duration,
    last_error: Option<String>,
    status_at: Instant,
    newest_seen: Option<Micros>,
    compacted_before: Option<NaiveDate>,
}

fn now_micros() -> Micros {
    Utc::now().timestamp_micros()
}

impl Recorder {
    /// Checks everything that can be checked before connecting: the
    /// subscriptions against the catalogue, the destination (bucket and
    /// credentials, then a first write), and reads what it already holds.
    async fn prepare(
        rest: Arc<RestClient>,
        dest: Place,
        config: RecordConfig,
    ) -> Result<Recorder, ClientError> {
        check_against_catalogue(&rest, &config.subscriptions).await?;
        dest.check().await?;
        // Before anything is cleaned up or read: what another recorder
        // writes is not this one's to touch.
        let lock = WriterLock::take(&dest).await?;
        dest.prepare().await?;
        let checkpoint = load(&dest).await?;
        let recorder = Recorder {
            rest,
            dest,
            lock,
            config,
            checkpoint,
            pending: Pending::default(),
            summary: RecordSummary::default(),
            logged: RecordSummary::default(),
            reconnects_before: 0,
            run_tag: format!("{:04x}", fastrand::u16(..)),
            sequence: 0,
            started_at: now_micros(),
            last_write: None,
            lag: Lag::default(),
            retry_at: None,
            retry_wait: RETRY_MIN,
            last_error: None,
            status_at: Instant::now(),
            newest_seen: None,
            compacted_before: None,
        };
        recorder.write_status("starting").await?;
        log::info!(
            target: TARGET,
            "recording {} subscriptions into {}; resuming {} tenors",
            recorder.config.subscriptions.len(),
            recorder.dest.shown(),
            recorder.resume_points().len()
        );
        Ok(recorder)
    }

    async fn run(mut self, stop: CancellationToken) -> Result<RecordSummary, ClientError> {
        let mut restart_wait = RETRY_MIN;
        loop {
            let ended = self.follow_a_feed(&stop).await;
            match ended {
                Ok(Ended::Stopped) => return self.finish().await,
                Ok(Ended::Restart(reason)) => {
                    log::warn!(
                        target: TARGET,
                        "starting the feed again from what the files hold \
                         ({} ticks held unwritten are dropped and fetched again): {reason}",
                        self.pending.held()
                    );
                    self.pending.clear();
                    self.summary.restarts += 1;
                    tokio::select! {
                        () = stop.cancelled() => return self.finish().await,
                        () = tokio::time::sleep(restart_wait) => {}
                    }
                    restart_wait = (restart_wait * 2).min(RETRY_MAX);
                }
                // The client it records through was closed (by the caller,
                // often racing the stop of a cancelled `record_async`):
                // that ends it as a stop does, with what it holds written.
                Err(ClientError::ClientClosed) => {
                    log::info!(
                        target: TARGET,
                        "the client was closed: the recorder stops and writes what it holds"
                    );
                    return self.finish().await;
                }
                Err(fatal) => return self.fail(fatal).await,
            }
        }
    }

    /// Ends on an error it cannot mend. What it holds was received whole,
    /// so when the service (not the destination) ended the run, it is
    /// written first: a restart need not fetch it again.
    async fn fail(mut self, fatal: ClientError) -> Result<RecordSummary, ClientError> {
        let from_the_service = matches!(
            fatal,
            ClientError::AccessDenied { .. }
                | ClientError::Auth(_)
                | ClientError::TokenProvider { .. }
        );
        if from_the_service {
            if let Err(e) = self.write_held().await {
                log::warn!(target: TARGET, "{e}");
            }
        }
        self.summary.unwritten = self.pending.held() as u64;
        let _ = self
            .write_status_with("failed", Some(&fatal.to_string()))
            .await;
        Err(fatal)
    }

    /// The last time kept of each subscribed tenor.
    fn resume_points(&self) -> Vec<ResumePoint> {
        self.checkpoint
            .last
            .iter()
            .filter(|((curve_id, tenor), _)| {
                self.config.subscriptions.iter().any(|sub| {
                    sub.curve_id == *curve_id && (sub.is_all_tenors() || sub.tenor == *tenor)
                })
            })
            .map(|((curve_id, tenor), at)| ResumePoint {
                curve_id: curve_id.clone(),
                tenor: tenor.clone(),
                after: *at,
            })
            .collect()
    }

    async fn start_feed(&self) -> Result<LiveFeed, ClientError> {
        let mut live = self.config.live.clone();
        // The feed's queue must not drop values before the recorder's own
        // limit is reached.
        live.queue_size = live.queue_size.max(self.config.hold_limit);
        live.resume = self.resume_points();
        let feed = LiveFeed::start(Arc::clone(&self.rest), live)?;
        for sub in &self.config.subscriptions {
            // Checked against the catalogue once, when the recorder started.
            match feed.subscribe(&sub.curve_id, &sub.tenor, false).await {
                Ok(()) => {}
                Err(
                    e @ (ClientError::AccessDenied { .. }
                    | ClientError::InvalidRequest(_)
                    | ClientError::Auth(_)
                    | ClientError::TokenProvider { .. }
                    | ClientError::ClientClosed),
                ) => return Err(e),
                // Not yet answered: it stays recorded and is sent once connected.
                Err(e) => log::warn!(target: TARGET, "subscribing {sub:?}: {e}"),
            }
        }
        Ok(feed)
    }

    async fn follow_a_feed(&mut self, stop: &CancellationToken) -> Result<Ended, ClientError> {
        let feed = tokio::select! {
            () = stop.cancelled() => return Ok(Ended::Stopped),
            feed = self.start_feed() => feed?,
        };
        let base = feed.stats();
        let ended = self.follow(&feed, &base, stop).await;
        feed.close().await;
        if matches!(ended, Ok(Ended::Stopped)) {
            // What the feed had queued when it closed is received too.
            while let Ok(Some(ticks)) = feed.try_next_ticks(DRAIN_MAX) {
                if ticks.is_empty() || self.missed_since(&feed, &base).is_some() {
                    break;
                }
                self.accept(ticks);
            }
        }
        self.reconnects_before += feed.stats().reconnects;
        self.summary.reconnects = self.reconnects_before;
        ended
    }

    /// Why values may have been missed since `base` was read, if they may.
    fn missed_since(&self, feed: &LiveFeed, base: &live::FeedStats) -> Option<String> {
        let now = feed.stats();
        if now.conflated > base.conflated {
            return Some(format!(
                "the feed's queue overflowed ({} values replaced)",
                now.conflated - base.conflated
            ));
        }
        if now.backfill_failures > base.backfill_failures {
            return Some("a backfill failed".into());
        }
        None
    }

    /// Takes ticks until stopped, or until the feed may have missed a value
    /// since `base` was read (when it started).
    async fn follow(
        &mut self,
        feed: &LiveFeed,
        base: &live::FeedStats,
        stop: &CancellationToken,
    ) -> Result<Ended, ClientError> {
        loop {
            let got = tokio::select! {
                biased;
                () = stop.cancelled() => return Ok(Ended::Stopped),
                got = feed.next_ticks(DRAIN_MAX, Some(TICK)) => got,
            };
            match got {
                // Counters are read after taking the ticks: a value lost
                // before any of them was counted before they were queued.
                Ok(Some(ticks)) => match self.missed_since(feed, base) {
                    Some(reason) => return Ok(Ended::Restart(reason)),
                    None => self.accept(ticks),
                },
                // The feed ended (a fatal error it has no more to say about):
                // a new one is started.
                Ok(None) => return Ok(Ended::Restart(FEED_ENDED.into())),
                Err(
                    e @ (ClientError::AccessDenied { .. }
                    | ClientError::Auth(_)
                    | ClientError::TokenProvider { .. }
                    | ClientError::ClientClosed),
                ) => return Err(e),
                Err(other) => return Ok(Ended::Restart(other.to_string())),
            }
            self.housekeeping(feed.stats().reconnects).await?;
        }
    }

    fn accept(&mut self, ticks: Vec<live::Tick>) {
        let recorded_at = now_micros();
        for tick in &ticks {
            self.newest_seen = self.newest_seen.max(Some(tick.generated_on));
        }
        self.pending
            .push(ticks.into_iter().map(|tick| Recorded { tick, recorded_at }));
    }

    /// Seals and writes files when due, watches the hold limit, reports and compacts.
    async fn housekeeping(&mut self, feed_reconnects: u64) -> Result<(), ClientError> {
        self.summary.reconnects = self.reconnects_before + feed_reconnects;
        let (rotate, rotate_rows) = (self.config.rotate, self.config.rotate_rows);
        self.pending.seal(rotate, rotate_rows, false);
        if self.retry_at.is_none_or(|at| Instant::now() >= at) {
            self.write_sealed().await?;
        }
        if self.pending.held() > self.config.hold_limit {
            // Closed early and tried now: only a destination that refuses
            // them makes the recorder hold more than its limit.
            self.pending.seal(rotate, rotate_rows, true);
            self.write_sealed().await?;
            if self.pending.held() > self.config.hold_limit {
                return Err(self.hold_exceeded());
            }
        }
        if self.status_at.elapsed() >= STATUS_EVERY {
            self.status_at = Instant::now();
            log_minute(&self.summary, &self.logged, self.pending.held(), self.lag);
            self.logged = self.summary.clone();
            self.lag.max = self.lag.last;
            if let Err(e) = self.write_status("running").await {
                log::warn!(target: TARGET, "{e}");
            }
        }
        self.compact_if_due().await;
        Ok(())
    }

    fn hold_exceeded(&self) -> ClientError {
        PlaceError::new(
            self.dest.shown(),
            Operation::Hold {
                held: self.pending.held(),
                limit: self.config.hold_limit,
            },
            self.last_error.as_deref().unwrap_or("no reason given"),
        )
        .into()
    }

    /// Writes sealed files, oldest first, until one fails (it is tried
    /// again after a wait that doubles, up to 30 s).
    async fn write_sealed(&mut self) -> Result<(), ClientError> {
        while let Some(front) = self.pending.sealed.front_mut() {
            // A store's lease lost to another recorder: not one more file.
            self.lock.check()?;
            let (tag, sequence) = (&self.run_tag, self.sequence);
            front
                .encode(|day| part_name(day, now_micros(), tag, sequence))
                .map_err(PlaceError::encoding)?;
            let (name, bytes, note) = front.encoded.clone().expect("just encoded");
            match self.dest.put(&name, bytes).await {
                Ok(()) => {
                    self.sequence += 1;
                    let written = self.pending.written().expect("the front was there");
                    self.lag.saw(written.first_arrival.elapsed());
                    self.summary.ticks_written += written.rows.len() as u64;
                    self.summary.files_written += 1;
                    self.summary.backfilled += written
                        .rows
                        .iter()
                        .filter(|r| r.tick.source == TickSource::Backfill)
                        .count() as u64;
                    self.checkpoint.add(&name, &note);
                    self.last_write = Some(now_micros());
                    self.retry_at = None;
                    self.retry_wait = RETRY_MIN;
                    self.last_error = None;
                    if let Err(e) = self.checkpoint.save(&self.dest).await {
                        // The files' footers say the same: a start reads them.
                        log::warn!(target: TARGET, "{e}");
                    }
                }
                Err(refused) => {
                    let reason = refused.to_string();
                    self.summary.write_failures += 1;
                    log::warn!(
                        target: TARGET,
                        "{reason}; {} ticks held, trying again in {:.0} s",
                        self.pending.held(),
                        self.retry_wait.as_secs_f64()
                    );
                    self.last_error = Some(reason);
                    self.retry_at = Some(Instant::now() + self.retry_wait);
                    self.retry_wait = (self.retry_wait * 2).min(RETRY_MAX);
                    break;
                }
            }
        }
        Ok(())
    }

    /// Compacts the days that ended an hour ago on the service's clock,
    /// once nothing of them is held.
    async fn compact_if_due(&mut self) {
        if !self.config.compact {
            return;
        }
        let Some(newest) = self.newest_seen else {
            return;
        };
        let before = utc_day(newest - COMPACT_AFTER);
        if self.compacted_before >= Some(before) {
            return;
        }
        if self.pending.holds_before(before) {
            return;
        }
        self.compacted_before = Some(before);
        match compact(&self.dest, before).await {
            Ok(days) => self.summary.compacted_days += days.len() as u64,
            Err(e) => log::warn!(target: TARGET, "compaction failed, tried again tomorrow: {e}"),
        }
    }

    /// What a restart makes of the ticks held unwritten: it fetches again
    /// what was published after each tenor's last value in the files, so
    /// the ticks of a tenor no file holds yet are lost (it begins again from
    /// its latest value).
    fn unwritten_fate(&self) -> String {
        let mut unknown: Vec<(&str, &str)> = self
            .pending
            .rows()
            .map(|row| (&*row.tick.curve_id, &*row.tick.tenor))
            .filter(|(curve_id, tenor)| {
                let key = (curve_id.to_string(), tenor.to_string());
                !self.checkpoint.last.contains_key(&key)
            })
            .collect();
        unknown.sort_unstable();
        unknown.dedup();
        if unknown.is_empty() {
            return "They are not lost: a restarted recorder fetches them again from the \
                    service"
                .into();
        }
        format!(
            "A restarted recorder fetches them again from the service, except those of \
             the {} tenor(s) no file holds yet (the first: curve {} tenor {:?}), which it \
             begins again from their latest value",
            unknown.len(),
            unknown[0].0,
            unknown[0].1
        )
    }

    /// On stopping: everything held is sealed and written (for a few
    /// seconds at most), then the status says so.
    async fn finish(mut self) -> Result<RecordSummary, ClientError> {
        self.write_held().await?;
        self.summary.unwritten = self.pending.held() as u64;
        if self.summary.unwritten > 0 {
            let error = ClientError::from(PlaceError::new(
                self.dest.shown(),
                Operation::Stop {
                    unwritten: self.summary.unwritten,
                    fate: self.unwritten_fate(),
                },
                self.last_error
                    .as_deref()
                    .unwrap_or("the destination refused them"),
            ));
            let _ = self
                .write_status_with("failed", Some(&error.to_string()))
                .await;
            return Err(error);
        }
        // A day that ended while it ran is not left for the next run.
        self.compact_if_due().await;
        self.write_status("stopped").await?;
        log_minute(&self.summary, &self.logged, 0, self.lag);
        let summary = self.summary;
        self.lock.release().await;
        Ok(summary)
    }

    /// Seals and writes everything held, trying for a few seconds at most.
    async fn write_held(&mut self) -> Result<(), ClientError> {
        self.pending
            .seal(self.config.rotate, self.config.rotate_rows, true);
        let deadline = Instant::now() + FINISH_WAIT;
        loop {
            self.retry_at = None;
            self.write_sealed().await?;
            if self.pending.sealed.is_empty() || Instant::now() >= deadline {
                return Ok(());
            }
            tokio::time::sleep(self.retry_wait.min(deadline - Instant::now())).await;
        }
    }

    async fn write_status(&self, state: &str) -> Result<(), ClientError> {
        self.write_status_with(state, None).await
    }

    async fn write_status_with(&self, state: &str, error: Option<&str>) -> Result<(), ClientError> {
        let shown = self.dest.shown();
        let json = status_json(&StatusInput {
            dest: &shown,
            state,
            started_at: self.started_at,
            last_write: self.last_write,
            held: self.pending.held(),
            lag: self.lag,
            error,
            counters: &self.summary,
            subscriptions: &self.config.subscriptions,
            last: &self.checkpoint.last,
        });
        self.dest.put(STATUS, json.into()).await?;
        Ok(())
    }
}
