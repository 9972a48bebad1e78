//! The consumer's side of the delivery queue: ticks taken in lots of any
//! size, one at a time, or gathered into batches.
//!
//! One tick at a time is taken from the queue a [`CHUNK`] at a time, the rest
//! held here for the next calls, so that a busy feed costs one look at the
//! queue per few thousand ticks. A batch is returned when it is full, or a
//! while after its first row arrived; an error met while gathering it waits
//! until the rows gathered before it are delivered. Every read is
//! cancel-safe: rows leave the reader only in a returned value, and the rows
//! of an abandoned batch go back to the front. Rows become [`Tick`]s (or an
//! Arrow batch) only as they are handed out, their names looked up once per
//! read.

use std::collections::VecDeque;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use arrow_array::RecordBatch;
use tokio::time::Instant;

use super::batch::feed_rows_to_batch;
use super::names::Row;
use super::queue::Taken;
use super::shared::Shared;
use super::stats::Counters;
use super::tick::{Tick, TickSource};
use domain::timestamp::Micros;
use places::{Argument, ClientError, Invalid, Rule};

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
    rows: VecDeque<Row>,
    /// An error met while a batch was gathered, for the next read, so that
    /// the rows gathered before it are delivered first.
    deferred: Option<ClientError>,
}

pub(crate) struct Reader {
    shared: Arc<Shared>,
    held: Mutex<Held>,
    /// The rows of the last [`ticks`](Self::ticks), which a caller that
    /// hands them out one by one (the Python feed) may give back in part.
    last: Mutex<Option<LastTake>>,
}

/// A lot of ticks handed out at once, and the time handed out before it.
struct LastTake {
    before: Micros,
    rows: Vec<Row>,
}

/// What a read found without waiting.
enum Ready {
    Rows(Vec<Row>),
    Nothing,
    /// Closed, and everything was handed out.
    Closed,
}

impl Reader {
    pub(crate) fn new(shared: Arc<Shared>) -> Reader {
        Reader {
            shared,
            held: Mutex::default(),
            last: Mutex::default(),
        }
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        // Nothing that could panic runs under this lock; a poisoned one is intact.
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Ticks taken from the queue and not yet handed out.
    pub(crate) fn held_len(&self) -> usize {
        self.held().rows.len()
    }

    /// Up to `max` ticks in delivery order, waiting until one is there or
    /// `timeout` passes (then none; `None` waits for ever). Errors come once
    /// each, in order with the ticks; `None`, the end, once closed and
    /// drained.
    pub(crate) async fn ticks(
        &self,
        max: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Tick>>, ClientError> {
        let Some(rows) = self.read(checked_max(max)?, 1, timeout).await? else {
            return Ok(None);
        };
        let before = self.shared.handed.load(Relaxed);
        let ticks = self.delivered(&rows);
        *lock(&self.last) = Some(LastTake { before, rows });
        Ok(Some(ticks))
    }

    /// The time handed out (see [`Shared::handed`]) had the last
    /// `unread` ticks of the last [`ticks`](Self::ticks) not been.
    pub(crate) fn handed(&self, unread: usize) -> Micros {
        let last = lock(&self.last);
        match last.as_ref() {
            Some(take) if unread > 0 => {
                let read = take.rows.len().saturating_sub(unread);
                handed_time(&take.rows[..read]).unwrap_or(take.before)
            }
            _ => self.shared.handed.load(Relaxed),
        }
    }

    /// Takes back the last `unread` ticks of the last [`ticks`](Self::ticks)
    /// (a caller handed them out no further), then gives every row held
    /// here back to the queue, in front: what the consumer has not had is
    /// all in the queue, where a replay takes it back to place a new
    /// subscription's values among it.
    pub(crate) fn give_back_unread(&self, unread: usize) {
        let mut held = self.held();
        if let Some(mut take) = lock(&self.last).take() {
            let read = take.rows.len().saturating_sub(unread);
            let handed = handed_time(&take.rows[..read]).unwrap_or(take.before);
            self.shared.handed.store(handed, Relaxed);
            let back = take.rows.split_off(read);
            let n = back.len() as u64;
            self.shared.counters.ticks_delivered.fetch_sub(
                n.min(self.shared.counters.ticks_delivered.load(Relaxed)),
                Relaxed,
            );
            for row in back.into_iter().rev() {
                held.rows.push_front(row);
            }
        }
        let rows: Vec<Row> = held.rows.drain(..).collect();
        self.shared.queue.give_back(rows);
    }

    /// What is there now, up to `max`, without waiting (errors as in `ticks`).
    pub(crate) fn ready_ticks(&self, max: usize) -> Result<Option<Vec<Tick>>, ClientError> {
        match self.ready(checked_max(max)?, 1)? {
            Ready::Rows(rows) => Ok(Some(self.delivered(&rows))),
            Ready::Nothing => Ok(Some(Vec::new())),
            Ready::Closed => Ok(None),
        }
    }

    /// The next tick: `Some(None)` if `timeout` passes first, `None` at
    /// the end (errors as in `ticks`).
    pub(crate) async fn tick(
        &self,
        timeout: Option<Duration>,
    ) -> Result<Option<Option<Tick>>, ClientError> {
        let held = self.held().rows.pop_front();
        let first = match held {
            Some(row) => Some(row),
            None => {
                let Some(rows) = self.read(CHUNK, 1, timeout).await? else {
                    return Ok(None);
                };
                let mut rows = rows.into_iter();
                let first = rows.next();
                self.give_back(rows.collect());
                first
            }
        };
        self.handed_out(first.as_slice());
        Ok(Some(first.map(|row| self.shared.names.read().tick(&row))))
    }

    /// Up to `max_rows` ticks, at least one: returned once `max_rows` are
    /// there or, after the first row arrived, once `timeout` has passed
    /// (`None`: only when full). An error after some rows is returned by
    /// the next call; `None`, the end, once closed and drained.
    pub(crate) async fn batch(
        &self,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Tick>>, ClientError> {
        let rows = self.batch_rows(max_rows, timeout).await?;
        Ok(rows.map(|rows| self.delivered(&rows)))
    }

    /// [`batch`](Self::batch) as an Arrow record batch, built from the rows
    /// and the names without a [`Tick`] in between.
    pub(crate) async fn record_batch(
        &self,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<RecordBatch>, ClientError> {
        let Some(rows) = self.batch_rows(max_rows, timeout).await? else {
            return Ok(None);
        };
        self.handed_out(&rows);
        let schema = self.shared.curves.schema();
        feed_rows_to_batch(&rows, &self.shared.names.read(), schema)
            .map(Some)
            .map_err(|e| ClientError::internal("building a batch of ticks", e))
    }

    async fn batch_rows(
        &self,
        max_rows: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Row>>, ClientError> {
        if !(1..=MAX_BATCH_ROWS).contains(&max_rows) {
            return Err(ClientError::InvalidRequest(
                Invalid::led(
                    Argument::BatchRows,
                    Rule::Bounds,
                    &format!(" must be from 1 to {MAX_BATCH_ROWS}, not {max_rows}"),
                )
                .value(max_rows.to_string()),
            ));
        }
        if timeout == Some(Duration::ZERO) {
            return Err(ClientError::InvalidRequest(Invalid::led(
                Argument::Timeout,
                Rule::Bounds,
                " must be longer than zero (or None: return full batches only)",
            )));
        }
        let mut batch = Gathering {
            reader: self,
            rows: Vec::new(),
        };
        let mut deadline: Option<Instant> = None;
        loop {
            let wait = deadline.map(|at| at.saturating_duration_since(Instant::now()));
            let need = max_rows - batch.rows.len();
            // Any row starts a batch; after the first, the rest of it is
            // taken in one go once it is there (or when the time is up).
            let enough = if batch.rows.is_empty() { 1 } else { need };
            match self.read(need, enough, wait).await {
                Ok(Some(rows)) => batch.rows.extend(rows),
                Ok(None) if !batch.rows.is_empty() => break,
                Ok(None) => return Ok(None),
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
        Ok(Some(batch.finish()))
    }

    /// Held rows first, then a deferred error, then the queue's once
    /// `enough` wait there, waiting as in [`ticks`](Self::ticks); when the
    /// time is up, whatever rows are there.
    async fn read(
        &self,
        max: usize,
        enough: usize,
        timeout: Option<Duration>,
    ) -> Result<Option<Vec<Row>>, ClientError> {
        let no_wait = timeout == Some(Duration::ZERO);
        match self.ready(max, if no_wait { 1 } else { enough })? {
            Ready::Rows(rows) => return Ok(Some(rows)),
            Ready::Closed => return Ok(None),
            Ready::Nothing if no_wait => return Ok(Some(Vec::new())),
            Ready::Nothing => {}
        }
        self.shared.queue.next(max, enough, timeout).await
    }

    fn ready(&self, max: usize, enough: usize) -> Result<Ready, ClientError> {
        {
            let mut held = self.held();
            if !held.rows.is_empty() {
                let n = held.rows.len().min(max);
                return Ok(Ready::Rows(held.rows.drain(..n).collect()));
            }
            if let Some(error) = held.deferred.take() {
                return Err(error);
            }
        }
        match self.shared.queue.take_enough(max, enough) {
            Taken::Rows(rows) => Ok(Ready::Rows(rows)),
            Taken::Error(error) => Err(error),
            Taken::Empty => Ok(Ready::Nothing),
            Taken::Closed => Ok(Ready::Closed),
        }
    }

    /// Puts rows taken and not handed out back in front of those held.
    fn give_back(&self, rows: Vec<Row>) {
        if rows.is_empty() {
            return;
        }
        let mut held = self.held();
        for row in rows.into_iter().rev() {
            held.rows.push_front(row);
        }
    }

    /// The rows handed out, as ticks.
    fn delivered(&self, rows: &[Row]) -> Vec<Tick> {
        self.handed_out(rows);
        self.shared.names.read().ticks(rows)
    }

    /// Counts the rows handed out and notes the time of the last update
    /// among them; any other read forgets the last lot of `ticks`.
    fn handed_out(&self, rows: &[Row]) {
        *lock(&self.last) = None;
        Counters::add(&self.shared.counters.ticks_delivered, rows.len() as u64);
        if let Some(at) = handed_time(rows) {
            self.shared.handed.store(at, Relaxed);
        }
    }
}

/// The time of the last update among `rows` (a snapshot is of an earlier
/// time, and moves no replay's time).
fn handed_time(rows: &[Row]) -> Option<Micros> {
    rows.iter()
        .rev()
        .find(|row| row.source != TickSource::Snapshot)
        .map(|row| row.generated_on)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing that could panic runs under these locks; a poisoned one is intact.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn checked_max(max: usize) -> Result<usize, ClientError> {
    if max == 0 {
        return Err(ClientError::InvalidRequest(
            Invalid::new(Argument::Limit, Rule::Bounds, "max must be at least 1").value("0"),
        ));
    }
    Ok(max)
}

/// The rows of a batch being gathered. Dropped before it is finished (the
/// read was cancelled), it gives them back, so nothing taken is lost.
struct Gathering<'a> {
    reader: &'a Reader,
    rows: Vec<Row>,
}

impl Gathering<'_> {
    fn finish(mut self) -> Vec<Row> {
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
