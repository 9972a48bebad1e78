//! `read_ticks`: a recording as one table, sorted by curve, tenor (in
//! calendar order) and time, reading only the days asked for, each value
//! once: the recorder and the backfill may both hold a value (the feed's
//! copy truncated to milliseconds, the historical endpoint's with
//! microseconds), and the lake is read as one. A value filed under the day
//! next to its own is read with its day (`span`), once.

use chrono::{Days, NaiveDate};
use futures_util::{stream, StreamExt, TryStreamExt};

use super::checkpoint::data_files;
use super::compact::sort_rows;
use super::file::{batch_rows, decode, recorded_rows_to_batch, tick_schema, Recorded};
use super::layout::{utc_day, DataFile};
use super::span::may_hold;
use domain::arrow::Table;
use domain::timestamp::{truncate_to_millis, Micros};
use history::rest::validate;
use live::TickSource;
use places::storage::{Operation, Place, PlaceError};
use places::ClientError;

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
                return Err(ClientError::invalid(
                    places::Argument::Range,
                    places::Rule::Bounds,
                    "start must not be after end",
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

    /// Whether `day`'s folder is next to the days asked for: a file filed
    /// there may hold values of them (`span`), which its footer tells.
    fn next_to(&self, day: NaiveDate) -> bool {
        let before = |s: Micros| utc_day(s).checked_sub_days(Days::new(1)) == Some(day);
        let after = |e: Micros| utc_day(e).checked_add_days(Days::new(1)) == Some(day);
        self.start.is_some_and(before) || self.end.is_some_and(after)
    }

    fn times(&self) -> (Micros, Micros) {
        (
            self.start.unwrap_or(Micros::MIN),
            self.end.unwrap_or(Micros::MAX),
        )
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

/// How many times the lake is listed again when a file listed vanished
/// before it was read (a backfill rewriting a day, a recorder rotating).
pub(crate) const RELISTS: usize = 5;

const TARGET: &str = "marketcurves.record";

pub async fn read_ticks(place: Place, selection: TickSelection) -> Result<Table, ClientError> {
    let dest = place;
    dest.check_lake("dest").await?;
    let mut attempt = 0;
    let rows = loop {
        match read_rows(&dest, &selection).await? {
            Ok(rows) => break rows,
            Err(vanished) if attempt < RELISTS => {
                attempt += 1;
                log::info!(
                    target: TARGET,
                    "{vanished} vanished while reading {}: listing the lake again",
                    dest.shown()
                );
            }
            Err(vanished) => {
                return Err(PlaceError::new(
                    dest.shown(),
                    Operation::KeptVanishing {
                        doing: "reading",
                        listings: RELISTS,
                    },
                    vanished,
                )
                .into())
            }
        }
    };
    let mut rows = rows;
    sort_rows(&mut rows);
    let rows = each_value_once(rows);
    let batch = recorded_rows_to_batch(&rows).map_err(PlaceError::encoding)?;
    Ok(Table {
        schema: tick_schema(),
        batches: vec![batch],
    })
}

/// The rows `selection` takes of every file listed now, or the name of a
/// file that vanished before it was read. A file that is not one of the
/// lake's (a bad footer, other columns) is skipped with a warning.
async fn read_rows(
    dest: &Place,
    selection: &TickSelection,
) -> Result<Result<Vec<Recorded>, String>, ClientError> {
    let files: Vec<DataFile> = data_files(dest)
        .await?
        .into_iter()
        .filter(|f| selection.wants_day(f.day) || selection.next_to(f.day))
        .collect();
    let chunks: Vec<Result<Vec<Recorded>, String>> = stream::iter(files)
        .map(|file| async move {
            let selection = selection.clone();
            if !selection.wants_day(file.day) {
                // A file of a day next to those asked for is read only if
                // its statistics say it holds values of them: a file filed
                // under the wrong day. One that cannot be read, or has gone,
                // holds none of them (it is its own day's reader's to name).
                let holds = dest.footer(&file.name).await;
                if !holds.is_ok_and(|footer| may_hold(&footer, selection.times())) {
                    return Ok(Ok(Vec::new()));
                }
            }
            let Some(bytes) = dest.get(&file.name).await? else {
                return Ok::<_, PlaceError>(Err(file.name));
            };
            let rows = tokio::task::spawn_blocking(move || {
                let (batches, _) = decode(bytes)?;
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
            .map_err(|e| PlaceError::new(&file.name, Operation::Read, e))?;
            Ok(Ok(rows.unwrap_or_else(|e| {
                log::warn!(
                    target: TARGET,
                    "skipping {} in {}: not a file of ticks ({e})",
                    file.name,
                    dest.shown()
                );
                Vec::new()
            })))
        })
        .buffer_unordered(READS_IN_FLIGHT)
        .try_collect()
        .await?;
    let mut rows = Vec::new();
    for chunk in chunks {
        match chunk {
            Ok(chunk) => rows.extend(chunk),
            Err(vanished) => return Ok(Err(vanished)),
        }
    }
    Ok(Ok(rows))
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
