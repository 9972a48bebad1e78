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
//! half, so the usual path costs no hashing.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;

use super::tick::Tick;
use crate::ClientError;

pub(crate) enum Item {
    Tick(Tick),
    /// A failure surfaced to the consumer in order with the ticks.
    Error(ClientError),
}

type Key = (Arc<str>, Arc<str>);

fn key(tick: &Tick) -> Key {
    (Arc::clone(&tick.curve_id), Arc::clone(&tick.tenor))
}

/// Where each tenor's latest waiting value is, by sequence number, among the
/// ticks from `from` on (those behind the last error).
#[derive(Default)]
struct Index {
    from: u64,
    latest: HashMap<Key, u64>,
    /// Waiting ticks that a later one of their tenor makes obsolete.
    stale: usize,
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
    conflated: u64,
    closed: bool,
}

/// What the consumer gets from one look at the queue.
pub(crate) enum Taken {
    Ticks(Vec<Tick>),
    Error(ClientError),
    /// Nothing yet; more may come.
    Empty,
    /// Nothing, and nothing more will come.
    Closed,
}

pub(crate) struct DeliveryQueue {
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
                conflated: 0,
                closed: false,
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

    /// Appends the ticks (emptying `ticks`), conflating if the queue is full.
    /// Returns how many values have been conflated so far.
    pub fn push_ticks(&self, ticks: &mut Vec<Tick>) -> u64 {
        let conflated = {
            let mut inner = self.lock();
            if inner.closed || ticks.is_empty() {
                ticks.clear();
                return inner.conflated;
            }
            for tick in ticks.drain(..) {
                inner.push(Item::Tick(tick));
            }
            inner.conflated
        };
        self.ready.notify_waiters();
        conflated
    }

    pub fn push_error(&self, error: ClientError) {
        {
            let mut inner = self.lock();
            if inner.closed {
                return;
            }
            inner.push(Item::Error(error));
        }
        self.ready.notify_waiters();
    }

    /// No more items will come; what waits is still delivered.
    pub fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_waiters();
    }

    pub fn len(&self) -> usize {
        self.lock().items.len()
    }

    /// Values replaced by newer ones so far.
    pub fn conflated(&self) -> u64 {
        self.lock().conflated
    }

    /// Up to `max` ticks from the front, stopping before an error; an error
    /// at the front is taken alone.
    pub fn take(&self, max: usize) -> Taken {
        self.lock().take(max)
    }

    /// Like [`take`](Self::take), waiting until something is there or
    /// `timeout` passes (then no ticks). Cancel-safe: items leave the queue
    /// only in the synchronous `take`, so a dropped call loses nothing.
    pub async fn next(
        &self,
        max: usize,
        timeout: Option<Duration>,
    ) -> Result<Vec<Tick>, ClientError> {
        let wait = async {
            loop {
                let notified = self.ready.notified();
                tokio::pin!(notified);
                // Registered before looking, so a push in between still wakes us.
                notified.as_mut().enable();
                match self.take(max) {
                    Taken::Ticks(ticks) => return Ok(ticks),
                    Taken::Error(error) => return Err(error),
                    Taken::Closed => return Err(ClientError::Closed),
                    Taken::Empty => notified.await,
                }
            }
        };
        match timeout {
            None => wait.await,
            Some(limit) => tokio::time::timeout(limit, wait)
                .await
                .unwrap_or(Ok(Vec::new())),
        }
    }
}

impl Inner {
    fn push(&mut self, item: Item) {
        if let Item::Tick(tick) = &item {
            if self.items.len() >= self.capacity && self.conflate(tick) {
                let Item::Tick(tick) = item else {
                    unreachable!()
                };
                self.replace_latest(tick);
                return;
            }
        }
        let seq = self.head_seq + self.items.len() as u64;
        match (&item, self.index.as_mut()) {
            (Item::Tick(tick), Some(index)) => {
                if index.latest.insert(key(tick), seq).is_some() {
                    index.stale += 1;
                }
            }
            (Item::Tick(_), None) => {}
            (Item::Error(_), _) => {
                self.barrier = seq + 1;
                self.index = None;
            }
        }
        self.items.push_back(item);
    }

    /// Whether a full queue makes `tick` replace its tenor's waiting value.
    /// If not, room has been made where it could be.
    fn conflate(&mut self, tick: &Tick) -> bool {
        if self.index.is_none() {
            self.index = Some(self.build_index());
        }
        let index = self.index.as_ref().expect("just built");
        if index.latest.contains_key(&key(tick)) {
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
            if let Item::Tick(tick) = item {
                let seq = self.head_seq + offset as u64;
                if index.latest.insert(key(tick), seq).is_some() {
                    index.stale += 1;
                }
            }
        }
        index
    }

    fn replace_latest(&mut self, tick: Tick) {
        let index = self.index.as_ref().expect("conflating");
        let seq = index.latest[&key(&tick)];
        self.items[(seq - self.head_seq) as usize] = Item::Tick(tick);
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
                Item::Tick(tick) if seq >= index.from => index.latest.get(&key(tick)) == Some(&seq),
                _ => true,
            }
        });
        self.conflated += (before - self.items.len()) as u64;
        // Positions moved: number them again from the same head.
        self.index = Some(self.build_index());
    }

    fn take(&mut self, max: usize) -> Taken {
        if matches!(self.items.front(), Some(Item::Error(_))) {
            let Some(Item::Error(error)) = self.pop_front() else {
                unreachable!()
            };
            return Taken::Error(error);
        }
        let mut ticks = Vec::with_capacity(max.min(self.items.len()));
        while ticks.len() < max && matches!(self.items.front(), Some(Item::Tick(_))) {
            let Some(Item::Tick(tick)) = self.pop_front() else {
                unreachable!()
            };
            ticks.push(tick);
        }
        if self.index.is_some() && self.items.len() <= self.capacity / 2 {
            self.index = None;
        }
        match (ticks.is_empty(), self.closed) {
            (false, _) => Taken::Ticks(ticks),
            (true, false) => Taken::Empty,
            (true, true) => Taken::Closed,
        }
    }

    fn pop_front(&mut self) -> Option<Item> {
        let item = self.items.pop_front()?;
        let seq = self.head_seq;
        self.head_seq += 1;
        let indexed = self.index.as_mut().filter(|index| seq >= index.from);
        if let (Some(index), Item::Tick(tick)) = (indexed, &item) {
            let key = key(tick);
            if index.latest.get(&key) == Some(&seq) {
                index.latest.remove(&key);
            } else {
                index.stale -= 1;
            }
        }
        Some(item)
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
