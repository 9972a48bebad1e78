//! The replay session: the live session's stand-in behind a feed handle.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use chrono::{Days, NaiveDate};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::source::{takes, ReplaySource};
use crate::live::names::{NameKey, Row};
use crate::live::shared::{Request, Shared, Stopping};
use crate::live::stats::Counters;
use crate::live::tick::{Tick, TickSource};
use crate::live::LiveConfig;
use crate::record::layout::utc_day;
use crate::rest::windows::MAX_INTRADAY_HISTORY_DAYS;
use crate::ClientError;
use domain::live::Subscription;
use domain::tenor::Tenor;
use domain::timestamp::Micros;

/// How many days back a snapshot looks for a tenor's last value.
const SNAPSHOT_DAYS: u64 = 30;
/// Values pushed at once when the consumer has room.
const PUSH_AT_ONCE: usize = 4_096;
/// Values waiting for the consumer at most, at full speed.
const AHEAD_AT_MOST: usize = 2 * PUSH_AT_ONCE;
/// How often a replay waiting for the consumer looks again.
const ROOM_WAIT: Duration = Duration::from_millis(1);

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
        let invalid = |message: String| Err(ClientError::InvalidRequest(message));
        if self.end < self.start {
            return invalid("end must not be before start".into());
        }
        // As for intraday history: ten years is a wish, more a typo whose
        // cost (a read a day, a request a window) would follow the range.
        let days = (self.end - self.start) / 86_400_000_000 + 1;
        if days > MAX_INTRADAY_HISTORY_DAYS {
            return invalid(format!(
                "a replay covers at most {MAX_INTRADAY_HISTORY_DAYS} days (about ten years); \
                 this one {days}: check the dates"
            ));
        }
        if let Some(speed) = self.speed {
            if !(speed.is_finite() && speed > 0.0) {
                return invalid(format!(
                    "speed must be a number above 0 or 'max', not {speed}"
                ));
            }
        }
        LiveConfig::check_queue_size(self.queue_size)
    }
}

/// The replay's time, shared with the handle (`LiveFeed::now`).
pub(crate) struct ReplayClock {
    config: ReplayConfig,
    started: Instant,
    /// At full speed: the time of the last value pushed.
    last: AtomicI64,
    /// Every value up to the end is pushed.
    done: AtomicBool,
}

impl ReplayClock {
    pub fn new(config: ReplayConfig) -> ReplayClock {
        ReplayClock {
            last: AtomicI64::new(config.start),
            started: Instant::now(),
            done: AtomicBool::new(false),
            config,
        }
    }

    /// The replay's current time: paced, `start` plus the real time since
    /// it began times the speed; at full speed, the last value's time.
    pub fn now(&self) -> Micros {
        if self.done.load(Relaxed) {
            return self.config.end;
        }
        match self.config.speed {
            Some(speed) => {
                let elapsed = self.started.elapsed().as_secs_f64() * speed * 1e6;
                (self.config.start.saturating_add(elapsed as i64)).min(self.config.end)
            }
            None => self.last.load(Relaxed),
        }
    }

    /// When, in real time, the replay reaches `at`.
    fn due(&self, at: Micros, speed: f64) -> Instant {
        let seconds = (at - self.config.start).max(0) as f64 / 1e6 / speed;
        self.started + Duration::from_secs_f64(seconds.min(1e9))
    }
}

pub(crate) struct ReplaySession {
    shared: Arc<Shared>,
    source: Arc<dyn ReplaySource>,
    requests: mpsc::UnboundedReceiver<Request>,
    stopping: Stopping,
    clock: Arc<ReplayClock>,
    keys: HashMap<(Arc<str>, Arc<str>), NameKey>,
    /// Values still to deliver, in replay order.
    pending: VecDeque<Tick>,
    /// The last day whose values are in `pending` for every subscription.
    loaded: NaiveDate,
}

/// Replay order: time, then curve, then tenor in calendar order.
fn in_replay_order(ticks: &mut [Tick]) {
    ticks.sort_by_cached_key(|t| {
        (
            t.generated_on,
            Arc::clone(&t.curve_id),
            Tenor::parse_lenient(&t.tenor).sort_key(),
            Arc::clone(&t.tenor),
        )
    });
}

impl ReplaySession {
    pub fn new(
        shared: Arc<Shared>,
        source: Arc<dyn ReplaySource>,
        requests: mpsc::UnboundedReceiver<Request>,
        stopping: Stopping,
        clock: Arc<ReplayClock>,
    ) -> ReplaySession {
        let loaded = utc_day(clock.config.start);
        ReplaySession {
            shared,
            source,
            requests,
            stopping,
            clock,
            keys: HashMap::new(),
            pending: VecDeque::new(),
            loaded,
        }
    }

    pub async fn run(mut self) {
        self.shared.counters.connected.store(true, Relaxed);
        if let Err(fatal) = self.replay().await {
            self.shared.set_stopped_by(&fatal);
            self.shared.queue.push_error(fatal);
        }
        self.clock.done.store(true, Relaxed);
        self.shared.counters.connected.store(false, Relaxed);
        // Nothing more will come: once drained, the feed reads as closed.
        self.shared.closed.store(true, Relaxed);
        self.shared.queue.close();
    }

    async fn replay(&mut self) -> Result<(), ClientError> {
        let config = self.clock.config.clone();
        let end_day = utc_day(config.end);
        loop {
            if self.stopping.feed.is_closed() {
                return Ok(());
            }
            while let Ok(request) = self.requests.try_recv() {
                self.answer(request).await;
            }
            if self.shared.registry().is_empty() {
                // Nothing to deliver: wait for a subscription (paced, the
                // replay's time passes meanwhile, up to its end).
                let end_due = config.speed.map(|speed| self.clock.due(config.end, speed));
                tokio::select! {
                    request = self.requests.recv() => match request {
                        Some(request) => self.answer(request).await,
                        None => return Ok(()),
                    },
                    _ = sleep_until(end_due) => return Ok(()),
                    _ = self.stopping.feed.closed() => return Ok(()),
                }
                continue;
            }
            let Some(next) = self.pending.front().map(|t| t.generated_on) else {
                if self.loaded >= end_day {
                    return Ok(());
                }
                let first = self.loaded + Days::new(1);
                let last = (self.loaded + Days::new(self.source.days_at_once())).min(end_day);
                let subscriptions = self.shared.subscriptions();
                let now = self.clock.now();
                let later = self
                    .values_after((first, last), &subscriptions, now)
                    .await?;
                self.loaded = last;
                self.pending = later.into();
                continue;
            };
            let due = config.speed.map(|speed| self.clock.due(next, speed));
            if due.is_some_and(|due| Instant::now() < due) {
                tokio::select! {
                    _ = sleep_until(due) => {}
                    request = self.requests.recv() => match request {
                        Some(request) => self.answer(request).await,
                        None => return Ok(()),
                    },
                    _ = self.stopping.feed.closed() => return Ok(()),
                }
                continue;
            }
            let paced_and_conflating = config.speed.is_some() && config.conflate;
            let room = if paced_and_conflating {
                PUSH_AT_ONCE
            } else {
                // At full speed the replay keeps just ahead of its consumer,
                // so that its time, where a subscription takes effect, is
                // about the consumer's.
                // A consumer waiting for a batch of more is woken only once
                // that many wait: as many are let ahead.
                let wanted = self.shared.queue.wanted();
                let ahead = config.queue_size.min(AHEAD_AT_MOST.max(wanted));
                ahead.saturating_sub(self.shared.queue.len())
            };
            if room == 0 {
                tokio::select! {
                    _ = tokio::time::sleep(ROOM_WAIT) => {}
                    _ = self.stopping.feed.closed() => return Ok(()),
                }
                continue;
            }
            let now = self.clock.now();
            let mut rows = Vec::with_capacity(room.min(PUSH_AT_ONCE));
            while rows.len() < room.min(PUSH_AT_ONCE) {
                match self.pending.front() {
                    Some(tick) if config.speed.is_none() || tick.generated_on <= now => {
                        let tick = self.pending.pop_front().expect("a front");
                        self.clock.last.store(tick.generated_on, Relaxed);
                        rows.push(self.row(&tick));
                    }
                    _ => break,
                }
            }
            Counters::add(&self.shared.counters.messages, rows.len() as u64);
            self.shared.queue.push_rows(&mut rows);
        }
    }

    /// Answers the handle, which has already changed the subscription set.
    async fn answer(&mut self, request: Request) {
        match request {
            Request::Subscribe(subscription, reply) => {
                let answered = self.subscribe(&subscription).await;
                if answered.is_err() {
                    self.shared.registry().remove(&subscription);
                }
                let _ = reply.send(answered);
            }
            Request::Unsubscribe(_, reply) => {
                // The set is already without it: what the others still take stays.
                let remaining = self.shared.subscriptions();
                self.pending
                    .retain(|t| remaining.iter().any(|s| takes(s, &t.curve_id, &t.tenor)));
                let _ = reply.send(Ok(()));
            }
        }
    }

    /// A snapshot per tenor as of now, then the values after it of the
    /// days loaded.
    async fn subscribe(&mut self, subscription: &Subscription) -> Result<(), ClientError> {
        let now = self.clock.now();
        let one = std::slice::from_ref(subscription);
        let mut snapshots = self.snapshots(one, now).await?;
        let mut rows: Vec<Row> = snapshots
            .iter_mut()
            .map(|tick| {
                tick.source = TickSource::Snapshot;
                self.row(tick)
            })
            .collect();
        self.shared.queue.push_rows(&mut rows);
        // The values after now of the days already loaded for the others.
        let mut later = Vec::new();
        if utc_day(now) <= self.loaded {
            later = self
                .values_after((utc_day(now), self.loaded), one, now)
                .await?;
        }
        if !later.is_empty() {
            // Another subscription may already take some of them.
            let taken_before: Vec<Subscription> = self
                .shared
                .subscriptions()
                .into_iter()
                .filter(|s| s != subscription)
                .collect();
            later.retain(|t| !taken_before.iter().any(|s| takes(s, &t.curve_id, &t.tenor)));
            let mut merged: Vec<Tick> = self.pending.drain(..).chain(later).collect();
            in_replay_order(&mut merged);
            self.pending = merged.into();
        }
        Ok(())
    }

    /// The last value at or before `at` of each tenor `subscriptions`
    /// take, looking back up to [`SNAPSHOT_DAYS`].
    async fn snapshots(
        &self,
        subscriptions: &[Subscription],
        at: Micros,
    ) -> Result<Vec<Tick>, ClientError> {
        let mut last: HashMap<(Arc<str>, Arc<str>), Tick> = HashMap::new();
        // Back from `at`'s day, as many days at once as the source reads
        // best; the named tenors all found end the look back early.
        let step = self.source.days_at_once().max(1);
        let oldest = utc_day(at) - Days::new(SNAPSHOT_DAYS);
        let mut newest = utc_day(at);
        while newest >= oldest {
            let first = (newest - Days::new(step - 1)).max(oldest);
            for tick in self.source.days(first, newest, subscriptions).await? {
                if tick.generated_on > at {
                    continue;
                }
                let key = (Arc::clone(&tick.curve_id), Arc::clone(&tick.tenor));
                match last.get(&key) {
                    Some(held) if held.generated_on >= tick.generated_on => {}
                    _ => {
                        last.insert(key, tick);
                    }
                }
            }
            let all_named = subscriptions.iter().all(|s| !s.is_all_tenors());
            if all_named && last.len() >= subscriptions.len() {
                break;
            }
            newest = first - Days::new(1);
        }
        let mut ticks: Vec<Tick> = last.into_values().collect();
        in_replay_order(&mut ticks);
        Ok(ticks)
    }

    /// The values of the days `first..=last` that `subscriptions` take,
    /// after `after` and up to the end, in replay order.
    async fn values_after(
        &self,
        (first, last): (NaiveDate, NaiveDate),
        subscriptions: &[Subscription],
        after: Micros,
    ) -> Result<Vec<Tick>, ClientError> {
        let end = self.clock.config.end;
        let mut ticks: Vec<Tick> = self
            .source
            .days(first, last, subscriptions)
            .await?
            .into_iter()
            .filter(|t| t.generated_on > after && t.generated_on <= end)
            .map(|t| Tick {
                source: TickSource::Update,
                ..t
            })
            .collect();
        in_replay_order(&mut ticks);
        Ok(ticks)
    }

    fn row(&mut self, tick: &Tick) -> Row {
        let key = (Arc::clone(&tick.curve_id), Arc::clone(&tick.tenor));
        let names = &self.shared.names;
        let key = *self
            .keys
            .entry(key)
            .or_insert_with(|| names.add(&tick.curve_id, &tick.tenor));
        Row {
            key,
            generated_on: tick.generated_on,
            price: tick.price,
            source: tick.source,
        }
    }
}

async fn sleep_until(due: Option<Instant>) {
    match due {
        Some(due) => tokio::time::sleep_until(due).await,
        None => std::future::pending().await,
    }
}
