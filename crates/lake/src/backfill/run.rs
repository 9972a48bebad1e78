//! A whole backfill on this machine: planned, then every task at once
//! within the client's bound on requests in flight, holding the
//! destination's backfill lock (one backfill per destination at a time).

use std::sync::Arc;

use futures_util::{stream, StreamExt, TryStreamExt};
use serde::Serialize;

use super::plan::{plan, BackfillRequest, Plan};
use super::task::{run_task, TaskOutcome};
use crate::record::lock::{Writer, WriterLock};
use history::rest::Progress;
use history::RestClient;
use places::storage::Place;
use places::ClientError;

/// Tasks run at once: enough that the next window's first pages are in
/// flight while the last pages of others come in; each holds a window of
/// one curve in memory.
const TASKS_IN_FLIGHT: usize = 4;

/// What a backfill did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BackfillSummary {
    pub tasks: u64,
    /// Historical intraday requests sent (pages included).
    pub requests: u64,
    pub values: u64,
    /// Days of a curve's tenor written complete.
    pub days_complete: u64,
    /// Days of a curve's tenor already complete, not fetched again.
    pub days_skipped: u64,
    pub files_written: u64,
    /// Files that could not be read as the lake's, set aside as `<name>.corrupt`.
    pub set_aside: Vec<String>,
    /// Days marked complete without a value (`TaskOutcome::empty`).
    pub empty: Vec<(String, String, chrono::NaiveDate, chrono::NaiveDate)>,
}

impl BackfillSummary {
    pub fn add(&mut self, outcome: &TaskOutcome) {
        self.tasks += 1;
        self.values += outcome.values;
        self.days_complete += outcome.days_complete;
        self.files_written += outcome.files_written;
        self.set_aside.extend(outcome.set_aside.iter().cloned());
        self.empty.extend(outcome.empty.iter().cloned());
    }
}

/// Plans `request` into `dest` and runs it here; `progress` counts the
/// requests.
pub async fn run_all(
    rest: Arc<RestClient>,
    dest: Place,
    request: BackfillRequest,
    progress: Arc<Progress>,
) -> Result<BackfillSummary, ClientError> {
    dest.check().await?;
    let Plan {
        tasks,
        days_skipped,
    } = plan(&rest, &dest, &request).await?;
    // Only now: a request refused leaves nothing behind.
    let lock = WriterLock::take_for(&dest, Writer::Backfill).await?;
    dest.prepare().await?;
    let (rest, dest, counted, held) = (&rest, &dest, &progress, &lock);
    let outcomes: Result<Vec<TaskOutcome>, ClientError> = stream::iter(tasks)
        .map(|task| async move {
            // A store's lease lost (to another backfill): no more writes.
            held.check()?;
            run_task(rest, dest, &task, counted).await
        })
        .buffer_unordered(TASKS_IN_FLIGHT)
        .try_collect()
        .await;
    lock.release().await;
    let outcomes = outcomes?;
    let mut summary = BackfillSummary {
        days_skipped,
        requests: progress.read().0,
        ..BackfillSummary::default()
    };
    for outcome in &outcomes {
        summary.add(outcome);
    }
    Ok(summary)
}
