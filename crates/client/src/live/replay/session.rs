//! The replay session: the live session's stand-in behind a feed handle.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use chrono::{Days, NaiveDate};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::clock::ReplayClock;
use super::source::{takes, ReplaySource};
use super::values::Values;
use crate::live::names::{NameKey, Pair, Row};
use crate::live::shared::{Request, Shared, Stopping};
use crate::live::stats::Counters;
use crate::live::tick::TickSource;
use crate::record::layout::utc_day;
use crate::ClientError;
use domain::live::Subscription;
use domain::tenor::Tenor;
use domain::timestamp::Micros;

/// How many days back a snapshot looks for a tenor's last value.
pub(crate) const SNAPSHOT_DAYS: u64 = 30;
/// Values pushed at once when the consumer has room.
const PUSH_AT_ONCE: usize = 4_096;
/// Values waiting for the consumer at most, at full speed.
const AHEAD_AT_MOST: usize = 2 * PUSH_AT_ONCE;
/// How often a replay waiting for the consumer looks again.
const ROOM_WAIT: Duration = Duration::from_millis(1);

pub(crate) struct ReplaySession {
    shared: Arc<Shared>,
    source: Arc<dyn ReplaySource>,
    requests: mpsc::UnboundedReceiver<Request>,
    stopping: Stopping,
    clock: Arc<ReplayClock>,
    keys: HashMap<(Arc<str>, Arc<str>), NameKey>,
    /// Values still to deliver, in replay order.
    pending: VecDeque<Row>,
    /// The last day whose values are in `pending` for every subscription.
    loaded: NaiveDate,
    /// The next days' values, read while these are delivered.
    ahead: Option<Ahead>,
}

/// A read of the days after those loaded, started before they are needed.
struct Ahead {
    days: (NaiveDate, NaiveDate),
    subscriptions: Vec<Subscription>,
    read: tokio::task::JoinHandle<Result<Values, ClientError>>,
}

impl Drop for Ahead {
    fn drop(&mut self) {
        self.read.abort();
    }
}

/// What orders two tenors' values of the same time: curve, then tenor in
/// calendar order.
fn tie_order(pair: &Pair) -> (&str, impl Ord, &str) {
    let tenor = &*pair.tenor;
    (
        &*pair.curve_id,
        Tenor::parse_lenient(tenor).sort_key(),
        tenor,
    )
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
            ahead: None,
        }
    }

    pub async fn run(mut self) {
        self.shared.counters.connected.store(true, Relaxed);
        if let Err(fatal) = self.replay().await {
            self.shared.set_stopped_by(&fatal);
            self.shared.queue.push_error(fatal);
        }
        self.ahead = None;
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
            let Some(next) = self.pending.front().map(|row| row.generated_on) else {
                if self.loaded >= end_day {
                    return Ok(());
                }
                self.load_next(end_day).await?;
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
            let due_now = self
                .pending
                .iter()
                .take(room.min(PUSH_AT_ONCE))
                .take_while(|row| config.speed.is_none() || row.generated_on <= now)
                .count();
            let mut rows: Vec<Row> = self.pending.drain(..due_now).collect();
            if let Some(last) = rows.last() {
                self.clock.last.store(last.generated_on, Relaxed);
            }
            Counters::add(&self.shared.counters.messages, rows.len() as u64);
            self.shared.queue.push_rows(&mut rows);
        }
    }

    /// Loads the values of the next days (read ahead, if the subscriptions
    /// are still those it was read for), and starts reading the days after.
    async fn load_next(&mut self, end_day: NaiveDate) -> Result<(), ClientError> {
        let days = self.next_days(self.loaded, end_day);
        let subscriptions = self.shared.subscriptions();
        let values = match self.ahead.take() {
            Some(mut ahead) if ahead.days == days && ahead.subscriptions == subscriptions => {
                (&mut ahead.read).await.map_err(|e| ClientError::Live {
                    code: "INTERNAL".into(),
                    message: format!("a replay's read stopped: {e}"),
                    subscription: None,
                })??
            }
            _ => self.source.days(days.0, days.1, &subscriptions).await?,
        };
        let now = self.clock.now();
        self.pending = self.updates_after(values, now).into();
        // The day read and the last day's rows are freed (see `give_back`).
        crate::give_back::trim();
        self.loaded = days.1;
        if self.loaded < end_day {
            let days = self.next_days(self.loaded, end_day);
            let source = Arc::clone(&self.source);
            let wanted = subscriptions.clone();
            let read = tokio::spawn(async move { source.days(days.0, days.1, &wanted).await });
            self.ahead = Some(Ahead {
                days,
                subscriptions,
                read,
            });
        }
        Ok(())
    }

    /// The days read after `loaded`: as many as the source reads at once.
    fn next_days(&self, loaded: NaiveDate, end_day: NaiveDate) -> (NaiveDate, NaiveDate) {
        let first = loaded + Days::new(1);
        let last = (loaded + Days::new(self.source.days_at_once())).min(end_day);
        (first, last)
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
                // The set is already without it: what the others still take
                // stays (decided once per tenor, not per value).
                let remaining = self.shared.subscriptions();
                let names = self.shared.names.read();
                let mut taken: HashMap<NameKey, bool> = HashMap::new();
                self.pending.retain(|row| {
                    *taken.entry(row.key).or_insert_with(|| {
                        let pair = names.pair(row.key);
                        remaining
                            .iter()
                            .any(|s| takes(s, &pair.curve_id, &pair.tenor))
                    })
                });
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
        self.shared.queue.push_rows(&mut snapshots);
        // The values after now of the days already loaded for the others.
        if utc_day(now) > self.loaded {
            return Ok(());
        }
        let values = self.source.days(utc_day(now), self.loaded, one).await?;
        let mut later = self.updates_after(values, now);
        // Another subscription may already take some of them.
        let taken_before: Vec<Subscription> = self
            .shared
            .subscriptions()
            .into_iter()
            .filter(|s| s != subscription)
            .collect();
        {
            let names = self.shared.names.read();
            later.retain(|row| {
                let pair = names.pair(row.key);
                !taken_before
                    .iter()
                    .any(|s| takes(s, &pair.curve_id, &pair.tenor))
            });
        }
        if later.is_empty() {
            return Ok(());
        }
        let mut merged: Vec<Row> = self.pending.drain(..).chain(later).collect();
        self.in_replay_order(&mut merged);
        self.pending = merged.into();
        Ok(())
    }

    /// The last value at or before `at` of each tenor `subscriptions`
    /// take, looking back up to [`SNAPSHOT_DAYS`].
    async fn snapshots(
        &mut self,
        subscriptions: &[Subscription],
        at: Micros,
    ) -> Result<Vec<Row>, ClientError> {
        let mut last: HashMap<NameKey, Row> = HashMap::new();
        // Back from `at`'s day, as many days at once as the source reads
        // best; the named tenors all found end the look back early.
        let step = self.source.days_at_once().max(1);
        let oldest = utc_day(at) - Days::new(SNAPSHOT_DAYS);
        let mut newest = utc_day(at);
        while newest >= oldest {
            let first = (newest - Days::new(step - 1)).max(oldest);
            let values = self.source.days(first, newest, subscriptions).await?;
            let keys = self.keys_of(&values.names);
            // In time order: the last one at or before `at` is kept.
            for value in values.rows.iter().take_while(|v| v.generated_on <= at) {
                let key = keys[value.name as usize];
                let newer = last
                    .get(&key)
                    .is_none_or(|held| held.generated_on < value.generated_on);
                if newer {
                    let row = Row {
                        key,
                        generated_on: value.generated_on,
                        price: value.price,
                        source: TickSource::Snapshot,
                    };
                    last.insert(key, row);
                }
            }
            let all_named = subscriptions.iter().all(|s| !s.is_all_tenors());
            if all_named && last.len() >= subscriptions.len() {
                break;
            }
            newest = first - Days::new(1);
        }
        let mut rows: Vec<Row> = last.into_values().collect();
        self.in_replay_order(&mut rows);
        Ok(rows)
    }

    /// `values` after `after` and up to the end, as updates in replay order.
    fn updates_after(&mut self, values: Values, after: Micros) -> Vec<Row> {
        let end = self.clock.config.end;
        let keys = self.keys_of(&values.names);
        values
            .rows
            .into_iter()
            .filter(|v| v.generated_on > after && v.generated_on <= end)
            .map(|v| Row {
                key: keys[v.name as usize],
                generated_on: v.generated_on,
                price: v.price,
                source: TickSource::Update,
            })
            .collect()
    }

    /// The feed's key of each name.
    fn keys_of(&mut self, names: &[(Arc<str>, Arc<str>)]) -> Vec<NameKey> {
        let registry = &self.shared.names;
        names
            .iter()
            .map(|(curve_id, tenor)| {
                *self
                    .keys
                    .entry((Arc::clone(curve_id), Arc::clone(tenor)))
                    .or_insert_with(|| registry.add(curve_id, tenor))
            })
            .collect()
    }

    /// Replay order: time, then curve, then tenor in calendar order. Sorted
    /// runs (the values pending, then those added) are merged, not sorted
    /// again, and tenors are compared only between values of one time.
    fn in_replay_order(&self, rows: &mut [Row]) {
        let names = self.shared.names.read();
        rows.sort_by(|a, b| {
            a.generated_on.cmp(&b.generated_on).then_with(|| {
                if a.key == b.key {
                    std::cmp::Ordering::Equal
                } else {
                    tie_order(names.pair(a.key)).cmp(&tie_order(names.pair(b.key)))
                }
            })
        });
    }
}

async fn sleep_until(due: Option<Instant>) {
    match due {
        Some(due) => tokio::time::sleep_until(due).await,
        None => std::future::pending().await,
    }
}
