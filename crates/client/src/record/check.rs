//! A lake's check: what a destination holds, recorded and backfilled, per
//! curve and tenor, and what is wrong with it. It reads every data file of
//! the days asked for, a day at a time (memory follows a day, not the
//! lake), and changes nothing.
//!
//! Wrong, each of them: a business day (Monday to Friday) without a value
//! between a tenor's first and last day held; a value held twice by one
//! side (two recorded files, or two backfilled ones: a file copied); a file
//! that a newer one replaces still present (a compaction or a backfill cut
//! short: `read_ticks` skips it, a plain Parquet reader counts it twice); a
//! file that cannot be read. A value held by both the recorder and the
//! backfill is not wrong: the sides meet there, and `read_ticks` keeps one.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Datelike, NaiveDate, Utc, Weekday};
use serde::Serialize;

use super::checkpoint::{may_replace, Checkpoint};
use super::file::{batch_rows, decode, note_of};
use super::layout::{data_file, DataFile, FileKind, CHECKPOINT, STATUS};
use crate::storage::{Place, PlaceError};
use crate::ClientError;
use domain::timestamp::{truncate_to_millis, Micros};

/// Per curve and tenor, per day: whether the recorder's files hold a value
/// of it, and whether the backfill's do.
type Sides = BTreeMap<(String, String), BTreeMap<NaiveDate, (bool, bool)>>;

/// How old a running recorder's status may be: it is replaced every minute.
const STATUS_FRESH_FOR: chrono::TimeDelta = chrono::TimeDelta::minutes(3);

/// What the lake holds of one curve's tenor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TenorCoverage {
    pub curve_id: String,
    pub tenor: String,
    pub first_day: NaiveDate,
    pub last_day: NaiveDate,
    /// Days with a value in the recorder's files...
    pub days_recorded: u64,
    /// ...and in the backfill's.
    pub days_backfilled: u64,
    /// Business days from the first day to the last without a value.
    pub missing_days: Vec<NaiveDate>,
}

/// A tenor's values that one side holds more than once on a day.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeldTwice {
    pub curve_id: String,
    pub tenor: String,
    pub day: NaiveDate,
    /// Values held more than once (each counted once).
    pub values: u64,
}

/// The recorder's coverage, from its status and checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecorderCoverage {
    /// `running` or `stopped`, as its status says.
    pub state: String,
    pub updated_at: Option<String>,
    /// It says it runs, and said so within the last minutes.
    pub running: bool,
    /// When it does not run: per tenor, the last value recorded, from which
    /// on nothing is recorded (until it is started again).
    pub not_recorded_since: Vec<(String, String, Micros)>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LakeReport {
    pub tenors: Vec<TenorCoverage>,
    pub held_twice: Vec<HeldTwice>,
    /// Files that a newer file replaces, still present.
    pub counted_twice: Vec<String>,
    /// `(file, why)`.
    pub unreadable: Vec<(String, String)>,
    pub recorder: Option<RecorderCoverage>,
}

impl LakeReport {
    /// Nothing wrong (see the module's comment).
    pub fn is_whole(&self) -> bool {
        self.tenors.iter().all(|t| t.missing_days.is_empty())
            && self.held_twice.is_empty()
            && self.counted_twice.is_empty()
            && self.unreadable.is_empty()
    }
}

/// Checks the days `first..=last` of `dest` (all without bounds).
pub async fn check_lake(
    dest: &Place,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> Result<LakeReport, ClientError> {
    dest.check_lake("dest").await?;
    let mut report = LakeReport::default();
    let files: Vec<DataFile> = dest
        .list()
        .await?
        .iter()
        .filter_map(|name| data_file(name))
        .filter(|f| first.is_none_or(|d| f.day >= d) && last.is_none_or(|d| f.day <= d))
        .collect();
    report.counted_twice = replaced(dest, &files, &mut report.unreadable).await;
    let mut days: BTreeMap<NaiveDate, Vec<&DataFile>> = BTreeMap::new();
    for file in files
        .iter()
        .filter(|f| !report.counted_twice.contains(&f.name))
    {
        days.entry(file.day).or_default().push(file);
    }
    let mut held: Sides = BTreeMap::new();
    for (day, of_day) in days {
        check_day(dest, day, &of_day, &mut held, &mut report).await?;
    }
    report.tenors = held
        .into_iter()
        .filter_map(|((curve_id, tenor), by_day)| coverage(curve_id, tenor, &by_day))
        .collect();
    report.recorder = recorder(dest).await?;
    Ok(report)
}

/// The files a newer file replaces; a footer that cannot be read is noted.
async fn replaced(
    dest: &Place,
    files: &[DataFile],
    unreadable: &mut Vec<(String, String)>,
) -> Vec<String> {
    let mut replaced = BTreeSet::new();
    for file in files.iter().filter(|f| may_replace(f, files)) {
        match dest.footer(&file.name).await {
            Ok(footer) => replaced.extend(
                note_of(&footer)
                    .unwrap_or_default()
                    .replaces
                    .into_iter()
                    .filter(|name| files.iter().any(|f| &f.name == name)),
            ),
            Err(e) => unreadable.push((file.name.clone(), e.to_string())),
        }
    }
    replaced.into_iter().collect()
}

/// Reads one day's files into `held` (which side has a value of each
/// tenor that day) and `report` (values held twice, unreadable files).
async fn check_day(
    dest: &Place,
    day: NaiveDate,
    files: &[&DataFile],
    held: &mut Sides,
    report: &mut LakeReport,
) -> Result<(), PlaceError> {
    // (curve, tenor, ms, backfilled) -> times held.
    let mut seen: HashMap<(String, String, Micros, bool), u64> = HashMap::new();
    for file in files {
        if report.unreadable.iter().any(|(name, _)| name == &file.name) {
            continue;
        }
        let backfilled = file.kind == FileKind::Backfill;
        let Some(bytes) = dest.get(&file.name).await? else {
            continue;
        };
        let rows = decode(bytes).and_then(|(batches, _)| {
            let mut rows = Vec::new();
            for batch in &batches {
                rows.extend(batch_rows(batch)?);
            }
            Ok(rows)
        });
        let rows = match rows {
            Ok(rows) => rows,
            Err(why) => {
                report.unreadable.push((file.name.clone(), why));
                continue;
            }
        };
        for row in rows {
            let (curve, tenor) = (row.tick.curve_id.to_string(), row.tick.tenor.to_string());
            let sides = held
                .entry((curve.clone(), tenor.clone()))
                .or_default()
                .entry(day)
                .or_default();
            if backfilled {
                sides.1 = true;
            } else {
                sides.0 = true;
            }
            let at = truncate_to_millis(row.tick.generated_on);
            *seen.entry((curve, tenor, at, backfilled)).or_default() += 1;
        }
    }
    let mut twice: BTreeMap<(String, String), u64> = BTreeMap::new();
    for ((curve, tenor, _, _), times) in seen {
        if times > 1 {
            *twice.entry((curve, tenor)).or_default() += 1;
        }
    }
    report.held_twice.extend(
        twice
            .into_iter()
            .map(|((curve_id, tenor), values)| HeldTwice {
                curve_id,
                tenor,
                day,
                values,
            }),
    );
    Ok(())
}

fn coverage(
    curve_id: String,
    tenor: String,
    by_day: &BTreeMap<NaiveDate, (bool, bool)>,
) -> Option<TenorCoverage> {
    let (first_day, last_day) = (*by_day.keys().next()?, *by_day.keys().next_back()?);
    let missing_days = first_day
        .iter_days()
        .take_while(|d| *d <= last_day)
        .filter(|d| !matches!(d.weekday(), Weekday::Sat | Weekday::Sun))
        .filter(|d| !by_day.contains_key(d))
        .collect();
    Some(TenorCoverage {
        curve_id,
        tenor,
        first_day,
        last_day,
        days_recorded: by_day.values().filter(|(r, _)| *r).count() as u64,
        days_backfilled: by_day.values().filter(|(_, b)| *b).count() as u64,
        missing_days,
    })
}

/// The recorder's coverage, if a recorder ever wrote into `dest`.
async fn recorder(dest: &Place) -> Result<Option<RecorderCoverage>, PlaceError> {
    let Some(bytes) = dest.get(STATUS).await? else {
        return Ok(None);
    };
    let status: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let text = |key: &str| status.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let state = text("state").unwrap_or_else(|| "unknown".into());
    let updated_at = text("updated_at");
    let fresh = updated_at
        .as_deref()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .is_some_and(|t| Utc::now() - t.with_timezone(&Utc) < STATUS_FRESH_FOR);
    let running = state == "running" && fresh;
    let mut not_recorded_since = Vec::new();
    if !running {
        let checkpoint: Checkpoint = match dest.get(CHECKPOINT).await? {
            Some(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
            None => Checkpoint::default(),
        };
        not_recorded_since = checkpoint
            .last
            .into_iter()
            .map(|((curve, tenor), at)| (curve, tenor, at))
            .collect();
    }
    Ok(Some(RecorderCoverage {
        state,
        updated_at,
        running,
        not_recorded_since,
    }))
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
