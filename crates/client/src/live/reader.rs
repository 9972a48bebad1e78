//! The consumer's side of the delivery queue: ticks taken in lots of any
//! size, one at a time, or gathered into batches.
//!
//! One tick at a time is taken from the queue a [`CHUNK`] at a time, the rest
//! held here for the next calls, so that a busy feed costs one look at the
//! queue per few thousand ticks. A batch is returned when it is full, or a
//! while after its first row arrived; an error met while gathering it waits
//! until the rows gathered before it are delivered. Every read is
//! cancel-safe: ticks leave the reader only in a returned value, and the rows
//! of an abandoned batch go back to the front.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use super::queue::Taken;
use super::shared::Shared;
use super::stats::Counters;
use super::tick::Tick;
use crate::ClientError;

/// Ticks taken from the queue at once for a read of one, and the usual size
/// of a take.
pub const CHUNK: usize = 4_096;
/// The rows of a batch unless told otherwise.
pub const DEFAULT_BATCH_ROWS: usize = 10_000;
/// How long a batch waits for more rows after its first, unless told otherwise.
pub const DEFAULT_BATCH_TIMEOUT: Duration = Duration::from_secs(1);
/// The largest batch: more rows would be one allocation of gigabytes.
pub const MAX_BATCH_ROWS: usize = 10_000_000;

#[derive(Default)]
struct Held {
    /// Taken from the queue, not yet handed out, oldest first.
    ticks: VecDeque<Tick>,
    /// An error met while a batch was gathered, for the next read, so that
    /// the rows gathered before it are delivered first.
    deferred: Option<ClientError>,
}

pub(crate) struct Reader {
    shared: Arc<Shared>,
    held: Mutex<Held>,
}

/// What a read found without waiting.
enum Ready {
    Ticks(Vec<Tick>),
    Nothing,
    /// Closed, and everything was handed out.
    Closed,
}

impl Reader {
    pub fn new(shared: Arc<Shared>) -> Reader {
        Reader {
            shared,
            held: Mutex::default(),
        }
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        // Nothing that could panic runs under this lock; a poisoned one is intact.
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Ticks taken from the queue and not yet handed out.
    pub fn held_len(&self) -> usize {
        self.held().ticks.len()
    }

    /// Up to `max` ticks in delivery order, waiting until one is there or
    /// `timeout` passes (then none; `None` waits for ever). Errors come once
    /// each, in order with the ticks; [`ClientError::Closed`] once closed
    /// and drained.
    pub async fn ticks(
        &self,
        max: usize,
        timeout: Option<Duration>,
    ) -> Result<Vec<Tick>, ClientError> {
        let ticks = self.read(checked_max(max)?, timeout).await?;
        Ok(self.delivered(ticks))
    }

    /// What is there now, up to `max`, without waiting (errors as in `ticks`).
    pub fn ready_ticks(&self, max: usize) -> Result<Vec<Tick>, ClientError> {
        match self.ready(checked_max(max)?)? {
            Ready::Ticks(ticks) => Ok(self.delivered(ticks)),
            Ready::Nothing => Ok(Vec::new()),
            Ready::Closed => Err(ClientError::Closed),
        }
    }

    /// The next tick, or `None` if `timeout` passes first (errors as in `ticks`).
    pub async fn tick(&self, timeout: Option<Duration>) -> Result<Option<Tick>, ClientError> {
        let held = self.held().ticks.pop_front();
        let first = match held {
            Some(tick) => Some(tick),
            None => {
                let mut ticks = self.read(CHUNK, timeout).await?.into_iter();
                let first = ticks.next();
                self.give_back(ticks.collect());
                first
            }
        };
        self.count_delivered(usize::from(first.is_some()));
        Ok(first)
    }

    /// Up to `max_rows` ticks, at least one: returned once `max_rows` are
    /// there or, after the first row arrived, once `timeout` has passed
    /// (`None`: only when full). An error after some rows is returned by
    /// the next call; [`ClientError::Closed`] once closed and drained.
    pub async fn batch(
        &self,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> Result<Vec<Tick>, ClientError> {
        if !(1..=MAX_BATCH_ROWS).contains(&max_rows) {
            return Err(ClientError::InvalidRequest(format!(
                "max_rows must be from 1 to {MAX_BATCH_ROWS}, not {max_rows}"
            )));
        }
        if timeout == Some(Duration::ZERO) {
            return Err(ClientError::InvalidRequest(
                "timeout must be longer than zero (or None: return full batches only)".into(),
            ));
        }
        let mut batch = Gathering {
            reader: self,
            rows: Vec::new(),
        };
        let mut deadline: Option<Instant> = None;
        loop {
            let wait = deadline.map(|at| at.saturating_duration_since(Instant::now()));
            match self.read(max_rows - batch.rows.len(), wait).await {
                Ok(ticks) => batch.rows.extend(ticks),
                Err(ClientError::Closed) if !batch.rows.is_empty() => break,
                Err(error) if !batch.rows.is_empty() => {
                    self.held().deferred = Some(error);
                    break;
                }
                Err(error) => return Err(error),
            }
            if batch.rows.is_empty() {
                continue;
            }
            // The time runs from the first row on (None: no deadline).
            if deadline.is_none() {
                deadline = timeout.map(|timeout| Instant::now() + timeout);
            }
            let expired = deadline.is_some_and(|at| Instant::now() >= at);
            if batch.rows.len() >= max_rows || expired {
                break;
            }
        }
        Ok(self.delivered(batch.finish()))
    }

    /// Held ticks first, then a deferred error, then the queue, waiting as
    /// in [`ticks`](Self::ticks).
    async fn read(&self, max: usize, timeout: Option<Duration>) -> Result<Vec<Tick>, ClientError> {
        match self.ready(max)? {
            Ready::Ticks(ticks) => return Ok(ticks),
            Ready::Closed => return Err(ClientError::Closed),
            Ready::Nothing if timeout == Some(Duration::ZERO) => return Ok(Vec::new()),
            Ready::Nothing => {}
        }
        self.shared.queue.next(max, timeout).await
    }

    fn ready(&self, max: usize) -> Result<Ready, ClientError> {
        {
            let mut held = self.held();
            if !held.ticks.is_empty() {
                let n = held.ticks.len().min(max);
                return Ok(Ready::Ticks(held.ticks.drain(..n).collect()));
            }
            if let Some(error) = held.deferred.take() {
                return Err(error);
            }
        }
        match self.shared.queue.take(max) {
            Taken::Ticks(ticks) => Ok(Ready::Ticks(ticks)),
            Taken::Error(error) => Err(error),
            Taken::Empty => Ok(Ready::Nothing),
            Taken::Closed => Ok(Ready::Closed),
        }
    }

    /// Puts ticks taken and not handed out back in front of those held.
    fn give_back(&self, ticks: Vec<Tick>) {
        if ticks.is_empty() {
            return;
        }
        let mut held = self.held();
        for tick in ticks.into_iter().rev() {
            held.ticks.push_front(tick);
        }
    }

    fn delivered(&self, ticks: Vec<Tick>) -> Vec<Tick> {
        self.count_delivered(ticks.len());
        ticks
    }

    fn count_delivered(&self, n: usize) {
        Counters::add(&self.shared.counters.ticks_delivered, n as u64);
    }
}

fn checked_max(max: usize) -> Result<usize, ClientError> {
    if max == 0 {
        return Err(ClientError::InvalidRequest("max must be at least 1".into()));
    }
    Ok(max)
}

/// The rows of a batch being gathered. Dropped before it is finished (the
/// read was cancelled), it gives them back, so nothing taken is lost.
struct Gathering<'a> {
    reader: &'a Reader,
    rows: Vec<Tick>,
}

impl Gathering<'_> {
    fn finish(mut self) -> Vec<Tick> {
        std::mem::take(&mut self.rows)
    }
}

impl Drop for Gathering<'_> {
    fn drop(&mut self) {
        self.reader.give_back(std::mem::take(&mut self.rows));
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
