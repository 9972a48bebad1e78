//! `read_ticks`: a recording as one table, sorted by curve, tenor (in
//! calendar order) and time, reading only the days asked for, each value
//! once: the recorder and the backfill may both hold a value (the feed's
//! copy truncated to milliseconds, the historical endpoint's with
//! microseconds), and the lake is read as one.

use chrono::NaiveDate;
use futures_util::{stream, StreamExt, TryStreamExt};

use super::checkpoint::data_files;
use super::compact::sort_rows;
use super::file::{batch_rows, decode, recorded_rows_to_batch, tick_schema, Recorded};
use super::layout::{utc_day, DataFile};
use crate::live::TickSource;
use crate::rest::validate;
use crate::storage::{Place, PlaceError};
use crate::ClientError;
use domain::arrow::Table;
use domain::timestamp::{truncate_to_millis, Micros};

/// Files read at once.
const READS_IN_FLIGHT: usize = 8;

/// Which ticks to read; `None` takes all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TickSelection {
    curve_id: Option<String>,
    tenor: Option<String>,
    start: Option<Micros>,
    end: Option<Micros>,
}

impl TickSelection {
    /// Checks the arguments: a curve id, a tenor name, and `start` not after `end`.
    pub fn new(
        curve_id: Option<&str>,
        tenor: Option<&str>,
        start: Option<Micros>,
        end: Option<Micros>,
    ) -> Result<TickSelection, ClientError> {
        let curve_id = curve_id.map(validate::curve_id).transpose()?;
        let tenor = tenor
            .map(|t| validate::tenor(t).map(|t| t.name().to_owned()))
            .transpose()?;
        if let (Some(start), Some(end)) = (start, end) {
            if start > end {
                return Err(ClientError::InvalidRequest(
                    "start must not be after end".into(),
                ));
            }
        }
        Ok(TickSelection {
            curve_id,
            tenor,
            start,
            end,
        })
    }

    fn wants_day(&self, day: NaiveDate) -> bool {
        self.start.is_none_or(|s| day >= utc_day(s)) && self.end.is_none_or(|e| day <= utc_day(e))
    }

    fn wants(&self, row: &Recorded) -> bool {
        let tick = &row.tick;
        self.curve_id
            .as_deref()
            .is_none_or(|c| *tick.curve_id == *c)
            && self.tenor.as_deref().is_none_or(|t| *tick.tenor == *t)
            && self.start.is_none_or(|s| tick.generated_on >= s)
            && self.end.is_none_or(|e| tick.generated_on <= e)
    }
}

pub async fn read_ticks(place: Place, selection: TickSelection) -> Result<Table, ClientError> {
    let dest = place;
    dest.check_lake("dest").await?;
    let files: Vec<DataFile> = data_files(&dest)
        .await?
        .into_iter()
        .filter(|f| selection.wants_day(f.day))
        .collect();
    let dest = &dest;
    let selection = &selection;
    let chunks: Vec<Vec<Recorded>> = stream::iter(files)
        .map(|file| async move {
            let selection = selection.clone();
            let bytes = dest
                .get(&file.name)
                .await?
                .ok_or_else(|| PlaceError(format!("{} vanished while reading", file.name)))?;
            tokio::task::spawn_blocking(move || {
                let (batches, _) = decode(bytes).map_err(|e| format!("{}: {e}", file.name))?;
                let mut rows = Vec::new();
                for batch in &batches {
                    rows.extend(
                        batch_rows(batch)?
                            .into_iter()
                            .filter(|r| selection.wants(r)),
                    );
                }
                Ok::<_, String>(rows)
            })
            .await
            .map_err(|e| PlaceError(e.to_string()))?
            .map_err(|e| PlaceError(format!("cannot read {}: {e}", dest.shown())))
        })
        .buffer_unordered(READS_IN_FLIGHT)
        .try_collect()
        .await?;
    let mut rows: Vec<Recorded> = chunks.into_iter().flatten().collect();
    sort_rows(&mut rows);
    let rows = each_value_once(rows);
    let batch = recorded_rows_to_batch(&rows).map_err(ClientError::Destination)?;
    Ok(Table {
        schema: tick_schema(),
        batches: vec![batch],
    })
}

/// Sorted rows (`sort_rows`) with each value once: of the rows of one
/// curve and tenor at one millisecond (the interface compares times so,
/// live rule 5), the one the feed delivered is kept over a backfilled one,
/// else the first received.
pub fn each_value_once(rows: Vec<Recorded>) -> Vec<Recorded> {
    let mut kept: Vec<Recorded> = Vec::with_capacity(rows.len());
    for row in rows {
        if let Some(last) = kept.last_mut() {
            let same = last.tick.curve_id == row.tick.curve_id
                && last.tick.tenor == row.tick.tenor
                && truncate_to_millis(last.tick.generated_on)
                    == truncate_to_millis(row.tick.generated_on);
            if same {
                let live = |r: &Recorded| r.tick.source != TickSource::Backfill;
                if live(&row) && !live(last) {
                    *last = row;
                }
                continue;
            }
        }
        kept.push(row);
    }
    kept
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
