//! The delivery queue between the socket reader and the consumer.
//!
//! Bounded without ever blocking the reader: once `capacity` items wait, a
//! new value of a tenor that already has one waiting takes that value's place
//! (the consumer gets the latest value, where the older one was in the
//! order); a tenor with nothing waiting first has older duplicates of other
//! tenors swept out, and is appended only if there are none. So the queue
//! holds at most max(capacity, number of distinct tenors) ticks, plus the
//! errors waiting for the consumer, which are never dropped.
//!
//! Conflation needs to know where each tenor's latest value waits; that index
//! is built only while the queue is full and dropped once it has drained to
//! half. Tenors are named by the keys of the feed's names, so the index is a
//! table by key, and a queue that is not full takes and gives rows in runs,
//! a copy of a few words each.
//!
//! A waiting consumer says how many rows it needs (a batch: the rest of it)
//! and is woken once that many wait, not at every push: a batch of thousands
//! of rows is drained in one go, its consumer woken once or twice.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;

use super::names::{NameKey, Row};
use places::ClientError;

pub(crate) enum Item {
    Row(Row),
    /// A failure surfaced to the consumer in order with the rows; boxed, as
    /// it is rare and a row is a few words.
    Error(Box<ClientError>),
}

/// Where each tenor's latest waiting value is, by sequence number, among the
/// rows from `from` on (those behind the last error).
#[derive(Default)]
struct Index {
    from: u64,
    latest: Latest,
    /// Waiting rows that a later one of their tenor makes obsolete.
    stale: usize,
}

/// Sequence numbers by tenor key; keys are small and dense, so a table.
#[derive(Default)]
struct Latest(Vec<u64>);

impl Latest {
    const NONE: u64 = u64::MAX;

    fn get(&self, key: NameKey) -> Option<u64> {
        self.0
            .get(key.index())
            .copied()
            .filter(|&seq| seq != Latest::NONE)
    }

    /// Records `seq` as the key's latest; returns whether it had one.
    fn insert(&mut self, key: NameKey, seq: u64) -> bool {
        let index = key.index();
        if index >= self.0.len() {
            self.0.resize(index + 1, Latest::NONE);
        }
        std::mem::replace(&mut self.0[index], seq) != Latest::NONE
    }

    fn remove(&mut self, key: NameKey) {
        if let Some(seq) = self.0.get_mut(key.index()) {
            *seq = Latest::NONE;
        }
    }
}

struct Inner {
    items: VecDeque<Item>,
    /// Sequence number of `items[0]`; an item's number never changes while it waits.
    head_seq: u64,
    /// Sequence number after the last error: a tick ahead of an error is never
    /// replaced, so nothing newer overtakes the error.
    barrier: u64,
    capacity: usize,
    index: Option<Index>,
    /// Errors waiting: while there are none, the rows at the front are
    /// taken without looking at each.
    errors: usize,
    /// The fewest waiting rows that wake the consumers: the least one of
    /// them waiting asked for (`usize::MAX`: none waits). Every waiter is
    /// woken at once, and each says again what it needs if it waits on.
    wanted: usize,
    conflated: u64,
    closed: bool,
    /// The producer has pushed all it holds (a replay past its last value):
    /// a waiter takes the rows there are, however few, as none may follow.
    all_pushed: bool,
}

/// What a push of rows did.
pub struct Pushed {
    /// Values conflated so far.
    pub conflated: u64,
    /// A waiting consumer was woken.
    pub woke: bool,
}

/// What the consumer gets from one look at the queue.
pub enum Taken {
    Rows(Vec<Row>),
    Error(ClientError),
    /// Nothing yet; more may come.
    Empty,
    /// Nothing, and nothing more will come.
    Closed,
}

pub struct DeliveryQueue {
    inner: Mutex<Inner>,
    ready: Notify,
}

impl DeliveryQueue {
    pub fn new(capacity: usize) -> DeliveryQueue {
        DeliveryQueue {
            inner: Mutex::new(Inner {
                items: VecDeque::with_capacity(capacity.min(4_096)),
                head_seq: 0,
                barrier: 0,
                capacity: capacity.max(1),
                index: None,
                errors: 0,
                wanted: usize::MAX,
                conflated: 0,
                closed: false,
                all_pushed: false,
            }),
            ready: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere cannot leave the queue half-updated: every change
        // is made before anything that could panic. So a poisoned lock is used.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Appends the rows (emptying `rows`), conflating if the queue is full,
    /// and wakes the consumers if as many rows wait as one of them needs.
    pub fn push_rows(&self, rows: &mut Vec<Row>) -> Pushed {
        let pushed = {
            let mut inner = self.lock();
            if inner.closed || rows.is_empty() {
                rows.clear();
                return Pushed {
                    conflated: inner.conflated,
                    woke: false,
                };
            }
            inner.push_rows(rows);
            let woke = inner.items.len() >= inner.wanted;
            if woke {
                inner.wanted = usize::MAX;
            }
            Pushed {
                conflated: inner.conflated,
                woke,
            }
        };
        if pushed.woke {
            self.ready.notify_waiters();
        }
        pushed
    }

    pub fn push_error(&self, error: ClientError) {
        {
            let mut inner = self.lock();
            if inner.closed {
                return;
            }
            inner.push(Item::Error(Box::new(error)));
            inner.wanted = usize::MAX;
        }
        self.ready.notify_waiters();
    }

    /// No more items will come; what waits is still delivered.
    pub fn close(&self) {
        {
            let mut inner = self.lock();
            inner.closed = true;
            inner.wanted = usize::MAX;
        }
        self.ready.notify_waiters();
    }

    pub fn len(&self) -> usize {
        self.lock().items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().items.is_empty()
    }

    /// The producer has pushed all it holds, and may push more only if
    /// asked (a replay past its last value, still answering subscriptions):
    /// a consumer waiting for more rows than there are takes those there
    /// are, now and from now on, rather than waiting for rows that would
    /// never come.
    pub fn all_pushed(&self) {
        let woke = {
            let mut inner = self.lock();
            inner.all_pushed = true;
            let woke = inner.wanted != usize::MAX && !inner.items.is_empty();
            if woke {
                inner.wanted = usize::MAX;
            }
            woke
        };
        if woke {
            self.ready.notify_waiters();
        }
    }

    /// How many rows a waiting consumer needs before it is woken (0 when
    /// none waits): a producer that keeps just ahead of its consumer (a
    /// replay) pushes at least that many.
    pub fn wanted(&self) -> usize {
        match self.lock().wanted {
            usize::MAX => 0,
            wanted => wanted,
        }
    }

    /// Every row in front of the first error, taken back by the producer
    /// (a replay that must place values of a new subscription among them).
    pub fn take_back(&self) -> Vec<Row> {
        match self.lock().take(usize::MAX) {
            Taken::Rows(rows) => rows,
            _ => Vec::new(),
        }
    }

    /// Puts rows taken and not handed out back at the front, in their
    /// order, whatever the capacity (they were in the queue before).
    pub fn give_back(&self, rows: Vec<Row>) {
        if rows.is_empty() {
            return;
        }
        let woke = {
            let mut inner = self.lock();
            inner.give_back(rows);
            let woke = inner.items.len() >= inner.wanted;
            if woke {
                inner.wanted = usize::MAX;
            }
            woke
        };
        if woke {
            self.ready.notify_waiters();
        }
    }

    /// Values replaced by newer ones so far.
    pub fn conflated(&self) -> u64 {
        self.lock().conflated
    }

    /// Up to `max` rows from the front, stopping before an error; an error
    /// at the front is taken alone.
    pub fn take(&self, max: usize) -> Taken {
        self.lock().take(max)
    }

    /// [`take`](Self::take) once `enough` rows wait (or half the queue's
    /// capacity, since a fuller queue conflates), an error or the close;
    /// before that, nothing, and a push of that many rows wakes [`next`](Self::next).
    pub fn take_enough(&self, max: usize, enough: usize) -> Taken {
        self.lock().take_enough(max, enough)
    }

    /// Like [`take_enough`](Self::take_enough), waiting until there is
    /// enough or `timeout` passes (then whatever rows are there, however
    /// few). Cancel-safe: items leave the queue only in the synchronous
    /// takes, so a dropped call loses nothing. `None` is the end: closed
    /// and drained.
    pub async fn next(
        &self,
        max: usize,
        enough: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Row>>, ClientError> {
        let wait = async {
            loop {
                let notified = self.ready.notified();
                tokio::pin!(notified);
                // Registered before looking, so a push in between still wakes us.
                notified.as_mut().enable();
                match self.take_enough(max, enough) {
                    Taken::Rows(rows) => return Ok(Some(rows)),
                    Taken::Error(error) => return Err(error),
                    Taken::Closed => return Ok(None),
                    Taken::Empty => notified.await,
                }
            }
        };
        let Some(limit) = timeout else {
            return wait.await;
        };
        match tokio::time::timeout(limit, wait).await {
            Ok(read) => read,
            Err(_elapsed) => match self.take(max) {
                Taken::Rows(rows) => Ok(Some(rows)),
                Taken::Error(error) => Err(error),
                // Closed: said by the next read.
                Taken::Empty | Taken::Closed => Ok(Some(Vec::new())),
            },
        }
    }
}

impl Inner {
    fn push_rows(&mut self, rows: &mut Vec<Row>) {
        if self.index.is_none() && self.items.len() + rows.len() <= self.capacity {
            // Room for all, and no index to keep: what `push` would do, at once.
            self.items.extend(rows.drain(..).map(Item::Row));
            return;
        }
        for row in rows.drain(..) {
            self.push(Item::Row(row));
        }
    }

    fn push(&mut self, item: Item) {
        if let Item::Row(row) = item {
            if self.items.len() >= self.capacity && self.conflate(row.key) {
                self.replace_latest(row);
                return;
            }
        }
        let seq = self.head_seq + self.items.len() as u64;
        match (&item, self.index.as_mut()) {
            (Item::Row(row), Some(index)) => {
                if index.latest.insert(row.key, seq) {
                    index.stale += 1;
                }
            }
            (Item::Row(_), None) => {}
            (Item::Error(_), _) => {
                self.barrier = seq + 1;
                self.index = None;
                self.errors += 1;
            }
        }
        self.items.push_back(item);
    }

    /// Whether a full queue makes a value of tenor `key` replace the one
    /// waiting. If not, room has been made where it could be.
    fn conflate(&mut self, key: NameKey) -> bool {
        if self.index.is_none() {
            self.index = Some(self.build_index());
        }
        let index = self.index.as_ref().expect("just built");
        if index.latest.get(key).is_some() {
            return true;
        }
        if index.stale > 0 {
            self.sweep_stale();
        }
        false
    }

    fn build_index(&self) -> Index {
        let from = self.barrier.max(self.head_seq);
        let mut index = Index {
            from,
            ..Index::default()
        };
        let skip = (from - self.head_seq) as usize;
        for (offset, item) in self.items.iter().enumerate().skip(skip) {
            if let Item::Row(row) = item {
                let seq = self.head_seq + offset as u64;
                if index.latest.insert(row.key, seq) {
                    index.stale += 1;
                }
            }
        }
        index
    }

    fn replace_latest(&mut self, row: Row) {
        let index = self.index.as_ref().expect("conflating");
        let seq = index.latest.get(row.key).expect("conflated: it waits");
        self.items[(seq - self.head_seq) as usize] = Item::Row(row);
        self.conflated += 1;
    }

    /// Drops every waiting tick a later one of its tenor makes obsolete,
    /// keeping the order of the rest.
    fn sweep_stale(&mut self) {
        let index = self.index.take().expect("conflating");
        let before = self.items.len();
        let head = self.head_seq;
        let mut offset = 0u64;
        self.items.retain(|item| {
            let seq = head + offset;
            offset += 1;
            match item {
                Item::Row(row) if seq >= index.from => index.latest.get(row.key) == Some(seq),
                _ => true,
            }
        });
        self.conflated += (before - self.items.len()) as u64;
        // Positions moved: number them again from the same head.
        self.index = Some(self.build_index());
    }

    fn give_back(&mut self, rows: Vec<Row>) {
        // Numbered again from a head before them: the index would be stale.
        self.index = None;
        let n = rows.len() as u64;
        if self.head_seq < n {
            let shift = n - self.head_seq;
            self.head_seq += shift;
            self.barrier += shift;
        }
        self.head_seq -= n;
        for row in rows.into_iter().rev() {
            self.items.push_front(Item::Row(row));
        }
    }

    fn take_enough(&mut self, max: usize, enough: usize) -> Taken {
        let enough = enough.min(self.capacity / 2).max(1);
        let some = self.all_pushed && !self.items.is_empty();
        if self.items.len() >= enough || self.errors > 0 || self.closed || some {
            return self.take(max);
        }
        self.wanted = self.wanted.min(enough);
        Taken::Empty
    }

    fn take(&mut self, max: usize) -> Taken {
        if matches!(self.items.front(), Some(Item::Error(_))) {
            let Some(Item::Error(error)) = self.pop_front() else {
                unreachable!()
            };
            self.errors -= 1;
            return Taken::Error(*error);
        }
        // The rows in front of the first error, up to `max`.
        let count = if self.errors == 0 {
            max.min(self.items.len())
        } else {
            self.items
                .iter()
                .take(max)
                .take_while(|item| matches!(item, Item::Row(_)))
                .count()
        };
        let rows: Vec<Row> = if self.index.is_none() {
            self.head_seq += count as u64;
            self.items.drain(..count).map(Item::into_row).collect()
        } else {
            (0..count)
                .filter_map(|_| self.pop_front().map(Item::into_row))
                .collect()
        };
        if self.index.is_some() && self.items.len() <= self.capacity / 2 {
            self.index = None;
        }
        match (rows.is_empty(), self.closed) {
            (false, _) => Taken::Rows(rows),
            (true, false) => Taken::Empty,
            (true, true) => Taken::Closed,
        }
    }

    /// The front item, keeping the conflation index.
    fn pop_front(&mut self) -> Option<Item> {
        let item = self.items.pop_front()?;
        let seq = self.head_seq;
        self.head_seq += 1;
        let indexed = self.index.as_mut().filter(|index| seq >= index.from);
        if let (Some(index), Item::Row(row)) = (indexed, &item) {
            if index.latest.get(row.key) == Some(seq) {
                index.latest.remove(row.key);
            } else {
                index.stale -= 1;
            }
        }
        Some(item)
    }
}

impl Item {
    /// The row of an item known to be one.
    fn into_row(self) -> Row {
        match self {
            Item::Row(row) => row,
            Item::Error(_) => unreachable!("only rows are counted in"),
        }
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
