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
use crate::record::layout::utc_day;
use domain::live::Subscription;
use domain::tenor::Tenor;
use domain::timestamp::Micros;
use live::driven::Counters;
use live::driven::{NameKey, Pair, Row};
use live::driven::{Request, Shared, Stopping};
use live::TickSource;
use places::ClientError;

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
    /// When each subscription took effect: its values after that time are
    /// delivered, however late the days holding them are read.
    since: HashMap<Subscription, Micros>,
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
    pub(crate) fn new(
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
            since: HashMap::new(),
        }
    }

    pub(crate) async fn run(mut self) {
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
            let end_due = config
                .speed
                .and_then(|speed| self.clock.due(config.end, speed));
            let idle = self.shared.registry().is_empty();
            let past_end = end_due.is_some_and(|due| Instant::now() >= due);
            let all_read = self.pending.is_empty() && self.loaded >= end_day;
            if (idle && past_end) || (!idle && all_read) {
                // Everything is pushed: the replay ends once the consumer
                // has had it all and asks for more, and until then takes
                // subscriptions (at its time, the last value handed out).
                // A consumer waiting for a full batch takes what is left.
                self.shared.queue.all_pushed();
                if self.shared.queue.is_empty() && self.shared.queue.wanted() > 0 {
                    return Ok(());
                }
                if !self.wait(ROOM_WAIT).await {
                    return Ok(());
                }
                continue;
            }
            if idle {
                // Nothing to deliver: wait for a subscription (paced, the
                // replay's time passes meanwhile, up to its end).
                tokio::select! {
                    request = self.requests.recv() => match request {
                        Some(request) => self.answer(request).await,
                        None => return Ok(()),
                    },
                    _ = sleep_until(end_due) => {}
                    _ = self.stopping.feed.closed() => return Ok(()),
                }
                continue;
            }
            let Some(next) = self.pending.front().map(|row| row.generated_on) else {
                self.load_next(end_day).await?;
                continue;
            };
            let due = config.speed.and_then(|speed| self.clock.due(next, speed));
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
                // Pushed ahead of the consumer, but no further than the
                // queue holds: a subscription takes back what was not
                // handed out (`take_back`), so pushing ahead moves no time.
                // A consumer waiting for a batch of more is woken only once
                // that many wait: as many are let ahead.
                let wanted = self.shared.queue.wanted();
                let ahead = config.queue_size.min(AHEAD_AT_MOST.max(wanted));
                ahead.saturating_sub(self.shared.queue.len())
            };
            if room == 0 {
                if !self.wait(ROOM_WAIT).await {
                    return Ok(());
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
            Counters::add(&self.shared.counters.messages, rows.len() as u64);
            self.shared.queue.push_rows(&mut rows);
        }
    }

    /// Waits `pause` while answering requests; false once the feed is
    /// closed or its handle gone.
    async fn wait(&mut self, pause: Duration) -> bool {
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            request = self.requests.recv() => match request {
                Some(request) => self.answer(request).await,
                None => return false,
            },
            _ = self.stopping.feed.closed() => return false,
        }
        true
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
                    advice: None,
                })??
            }
            _ => self.source.days(days.0, days.1, &subscriptions).await?,
        };
        // Each subscription's values after it took effect: a paced replay
        // whose consumer is late reads days its clock is already past, and
        // delivers them late (or conflated), never skipped.
        let since = self.since_by_name(&values);
        self.pending = self.updates_since(values, |name| since[name]).into();
        // The day read and the last day's rows are freed (see `give_back`).
        places::give_back::trim();
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
                let first = self.clock.start();
                let (queued, updates) = self.take_back();
                // The subscription that starts a paced clock takes effect
                // at the start: read a moment later, at a high speed, the
                // clock would already be past values it must deliver.
                let now = if first && self.clock.config.speed.is_some() {
                    self.clock.config.start
                } else {
                    self.clock.now()
                };
                let answered = match self.subscribe(&subscription, now).await {
                    Ok((snapshots, later)) => {
                        self.since.insert(subscription, now);
                        self.put_back(queued, snapshots, updates, later);
                        Ok(())
                    }
                    Err(e) => {
                        self.shared.registry().remove(&subscription);
                        self.put_back(queued, Vec::new(), updates, Vec::new());
                        Err(e)
                    }
                };
                let _ = reply.send(answered);
            }
            Request::Unsubscribe(_, reply) => {
                // The set is already without it: what the others still take
                // stays (decided once per tenor, not per value), and what
                // the consumer has not had of it goes.
                let (mut queued, mut updates) = self.take_back();
                let remaining = self.shared.subscriptions();
                let names = self.shared.names.read();
                let mut taken: HashMap<NameKey, bool> = HashMap::new();
                let mut kept = |row: &Row| {
                    *taken.entry(row.key).or_insert_with(|| {
                        let pair = names.pair(row.key);
                        remaining
                            .iter()
                            .any(|s| takes(s, &pair.curve_id, &pair.tenor))
                    })
                };
                self.pending.retain(&mut kept);
                queued.retain(&mut kept);
                updates.retain(&mut kept);
                drop(names);
                self.put_back(queued, Vec::new(), updates, Vec::new());
                let _ = reply.send(Ok(()));
            }
        }
    }

    /// At full speed, what was pushed and not handed out: the snapshots at
    /// its front, to stay there, and the updates, which go back before
    /// those pending. Paced, nothing: what was pushed was due.
    fn take_back(&mut self) -> (Vec<Row>, Vec<Row>) {
        if self.clock.config.speed.is_some() {
            return (Vec::new(), Vec::new());
        }
        let mut queued = self.shared.queue.take_back();
        let snapshots = queued
            .iter()
            .take_while(|row| row.source == TickSource::Snapshot)
            .count();
        let updates = queued.split_off(snapshots);
        let counted = &self.shared.counters.messages;
        counted.fetch_sub((updates.len() as u64).min(counted.load(Relaxed)), Relaxed);
        (queued, updates)
    }

    /// Pushes the snapshots waiting and new, and puts the updates taken
    /// back in front of those pending, a new subscription's among them.
    fn put_back(
        &mut self,
        mut queued: Vec<Row>,
        mut snapshots: Vec<Row>,
        updates: Vec<Row>,
        later: Vec<Row>,
    ) {
        queued.append(&mut snapshots);
        self.shared.queue.push_rows(&mut queued);
        if updates.is_empty() && later.is_empty() {
            return;
        }
        let mut merged: Vec<Row> = updates.into_iter().chain(self.pending.drain(..)).collect();
        if !later.is_empty() {
            merged.extend(later);
            self.in_replay_order(&mut merged);
        }
        self.pending = merged.into();
    }

    /// A snapshot per tenor as of `now`, and the values after it of the
    /// days loaded that no other subscription takes.
    async fn subscribe(
        &mut self,
        subscription: &Subscription,
        now: Micros,
    ) -> Result<(Vec<Row>, Vec<Row>), ClientError> {
        let one = std::slice::from_ref(subscription);
        let snapshots = self.snapshots(one, now).await?;
        // The values after now of the days already loaded for the others.
        if utc_day(now) > self.loaded {
            return Ok((snapshots, Vec::new()));
        }
        let values = self.source.days(utc_day(now), self.loaded, one).await?;
        let mut later = self.updates_since(values, |_| now);
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
        Ok((snapshots, later))
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

    /// Each name's time from which on its values are delivered: the
    /// earliest at which a subscription taking it took effect.
    fn since_by_name(&self, values: &Values) -> Vec<Micros> {
        let subscriptions = self.shared.subscriptions();
        let start = self.clock.config.start;
        values
            .names
            .iter()
            .map(|(curve_id, tenor)| {
                subscriptions
                    .iter()
                    .filter(|s| takes(s, curve_id, tenor))
                    .map(|s| self.since.get(s).copied().unwrap_or(start))
                    .min()
                    .unwrap_or(Micros::MAX)
            })
            .collect()
    }

    /// `values` after `since` of their name and up to the end, as updates
    /// in replay order.
    fn updates_since(&mut self, values: Values, since: impl Fn(usize) -> Micros) -> Vec<Row> {
        let end = self.clock.config.end;
        let keys = self.keys_of(&values.names);
        let since: Vec<Micros> = (0..values.names.len()).map(since).collect();
        values
            .rows
            .into_iter()
            .filter(|v| v.generated_on > since[v.name as usize] && v.generated_on <= end)
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
