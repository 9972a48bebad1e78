//! A lake's check: what a destination holds, recorded and backfilled, per
//! curve and tenor, and what is wrong with it. It reads every data file of
//! the days asked for, a day at a time (memory follows a day, not the
//! lake), and changes nothing.
//!
//! Wrong, each of them: a business day (Monday to Friday) without a value
//! between a tenor's first and last day held; a value held twice by one
//! side (two recorded files, or two backfilled ones, of one day or of two:
//! a file copied); a file that a newer one replaces still present (a
//! compaction or a backfill cut short: `read_ticks` skips it, a plain
//! Parquet reader counts it twice); a file or folder that cannot be read;
//! rows filed under another day's folder; a note its file's rows
//! contradict (`FileNote::disagrees`: a file cut short, or another day's
//! copy); a name the layout does not give (a folder that is no
//! `date=YYYY-MM-DD`, a foreign `*.parquet`, a file a backfill set aside);
//! a link, which the lake's writers never go through; a price that is not a
//! number. A value held by both the recorder and the backfill is not wrong:
//! the sides meet there, and `read_ticks` keeps one. Days are those of the
//! values: a row filed under another day's folder counts for its own.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Datelike, NaiveDate, Utc, Weekday};
use serde::Serialize;

use super::checkpoint::{may_replace, Checkpoint};
use super::file::{batch_rows, decode, note_of, Recorded};
use super::layout::{data_file, hidden, utc_day, DataFile, FileKind, CHECKPOINT, STATUS};
use domain::timestamp::{truncate_to_millis, Micros};
use places::storage::{Place, PlaceError};
use places::ClientError;

/// Per curve and tenor, per day: whether the recorder's files hold a value
/// of it, and whether the backfill's do.
type Sides = BTreeMap<(String, String), BTreeMap<NaiveDate, (bool, bool)>>;

/// A value by curve, tenor, millisecond and side (backfilled or not).
type ValueKey = (String, String, Micros, bool);

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

/// A tenor's values of a day: held more than once by one side, or whose
/// price is not a number.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeldTwice {
    pub curve_id: String,
    pub tenor: String,
    pub day: NaiveDate,
    /// Values (each counted once).
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
    /// `(file or folder, why)`.
    pub unreadable: Vec<(String, String)>,
    /// `(file, why)`: rows filed under another day's folder.
    pub misfiled: Vec<(String, String)>,
    /// `(file, why)`: a note the file's rows contradict.
    pub untrue_notes: Vec<(String, String)>,
    /// `(name, why)`: names the lake's layout does not give.
    pub foreign: Vec<(String, String)>,
    /// Links to a folder or a file, never followed.
    pub links: Vec<String>,
    /// Values whose price is not a number, per tenor and day.
    pub nan_prices: Vec<HeldTwice>,
    pub recorder: Option<RecorderCoverage>,
}

impl LakeReport {
    /// Nothing wrong (see the module's comment).
    pub fn is_whole(&self) -> bool {
        self.tenors.iter().all(|t| t.missing_days.is_empty())
            && self.held_twice.is_empty()
            && self.counted_twice.is_empty()
            && self.unreadable.is_empty()
            && self.misfiled.is_empty()
            && self.untrue_notes.is_empty()
            && self.foreign.is_empty()
            && self.links.is_empty()
            && self.nan_prices.is_empty()
    }
}

/// What the check carries from day to day: which side holds each tenor's
/// days, and the values filed under a day not theirs, by their own day
/// (few: only they are kept past their folder's day).
#[derive(Default)]
struct Seen {
    sides: Sides,
    strays: BTreeMap<NaiveDate, HashMap<ValueKey, u64>>,
}

/// Checks the days `first..=last` of `dest` (all without bounds).
pub async fn check_lake(
    dest: &Place,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> Result<LakeReport, ClientError> {
    dest.check_lake("dest").await?;
    let mut report = LakeReport::default();
    let survey = dest.survey().await?;
    let in_range = |day: NaiveDate| first.is_none_or(|d| day >= d) && last.is_none_or(|d| day <= d);
    report.unreadable = survey.unreadable;
    report.links = survey.links;
    let mut files: Vec<DataFile> = Vec::new();
    for name in &survey.names {
        match data_file(name) {
            Some(file) if in_range(file.day) => files.push(file),
            Some(_) => {}
            None if hidden(name) => {}
            None => report.foreign.push((name.clone(), foreign(name))),
        }
    }
    report.counted_twice = replaced(dest, &files, &mut report.unreadable).await;
    let mut days: BTreeMap<NaiveDate, Vec<&DataFile>> = BTreeMap::new();
    for file in files
        .iter()
        .filter(|f| !report.counted_twice.contains(&f.name))
    {
        days.entry(file.day).or_default().push(file);
    }
    let mut seen = Seen::default();
    for (day, of_day) in &days {
        check_day(dest, *day, of_day, &mut seen, &mut report).await;
    }
    held_across_days(dest, &days, seen.strays, &mut report).await;
    report.tenors = seen
        .sides
        .into_iter()
        .filter_map(|((curve_id, tenor), by_day)| coverage(curve_id, tenor, &by_day))
        .collect();
    report.recorder = recorder(dest).await?;
    Ok(report)
}

/// Why a name that is not hidden is no file of the lake's.
fn foreign(name: &str) -> String {
    let folder = name.split_once('/').map(|(folder, _)| folder);
    let dated = folder
        .and_then(|f| f.strip_prefix("date="))
        .is_some_and(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok());
    if name.ends_with(".corrupt") {
        "set aside by a backfill: it could not be read as the lake's file; look at it, \
         then delete it"
            .into()
    } else if folder.is_none() {
        "a file beside the day folders, which the lake's layout does not name".into()
    } else if !dated {
        format!(
            "its folder {:?} is not a day folder (date=YYYY-MM-DD)",
            folder.unwrap_or_default()
        )
    } else {
        "a name the lake's layout does not give (part-, day- or backfill- .parquet)".into()
    }
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

/// A whole file's rows, or why they cannot be read.
async fn rows_of(
    dest: &Place,
    name: &str,
) -> Result<(Vec<Recorded>, Option<super::file::FileNote>), String> {
    let bytes = match dest.get(name).await {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err("it vanished while the lake was checked".into()),
        Err(refused) => return Err(refused.to_string()),
    };
    let (batches, note) = decode(bytes)?;
    let mut rows = Vec::new();
    for batch in &batches {
        rows.extend(batch_rows(batch)?);
    }
    Ok((rows, note))
}

/// Reads one day's files into `seen` (which side has a value of each
/// tenor each day, and the values filed here that are not of this day)
/// and `report` (values held twice, unreadable files, misfiled rows,
/// untrue notes, prices that are not numbers).
async fn check_day(
    dest: &Place,
    day: NaiveDate,
    files: &[&DataFile],
    seen: &mut Seen,
    report: &mut LakeReport,
) {
    let mut values: HashMap<ValueKey, u64> = HashMap::new();
    let mut nan: BTreeMap<(String, String, NaiveDate), u64> = BTreeMap::new();
    for file in files {
        if report.unreadable.iter().any(|(name, _)| name == &file.name) {
            continue;
        }
        let backfilled = file.kind == FileKind::Backfill;
        let (rows, note) = match rows_of(dest, &file.name).await {
            Ok(read) => read,
            Err(why) => {
                report.unreadable.push((file.name.clone(), why));
                continue;
            }
        };
        match &note {
            Some(note) => {
                if let Some(why) = note.disagrees(day, &rows) {
                    report.untrue_notes.push((file.name.clone(), why));
                }
            }
            // A backfill keeps nothing of a file without its note.
            None if backfilled => report
                .untrue_notes
                .push((file.name.clone(), "it has no note in its footer".into())),
            None => {}
        }
        let mut elsewhere: BTreeMap<NaiveDate, u64> = BTreeMap::new();
        for row in rows {
            let (curve, tenor) = (row.tick.curve_id.to_string(), row.tick.tenor.to_string());
            let of = utc_day(row.tick.generated_on);
            let sides = seen
                .sides
                .entry((curve.clone(), tenor.clone()))
                .or_default()
                .entry(of)
                .or_default();
            if backfilled {
                sides.1 = true;
            } else {
                sides.0 = true;
            }
            if row.tick.price.is_nan() {
                *nan.entry((curve.clone(), tenor.clone(), of)).or_default() += 1;
            }
            let key = (
                curve,
                tenor,
                truncate_to_millis(row.tick.generated_on),
                backfilled,
            );
            if of == day {
                *values.entry(key).or_default() += 1;
            } else {
                *elsewhere.entry(of).or_default() += 1;
                *seen.strays.entry(of).or_default().entry(key).or_default() += 1;
            }
        }
        if !elsewhere.is_empty() {
            let days: Vec<String> = elsewhere
                .iter()
                .map(|(d, n)| format!("{n} of {d}"))
                .collect();
            report.misfiled.push((
                file.name.clone(),
                format!(
                    "rows filed under {day} that are of other days: {}",
                    days.join(", ")
                ),
            ));
        }
    }
    report.held_twice.extend(twice(day, values));
    report.nan_prices.extend(
        nan.into_iter()
            .map(|((curve_id, tenor, day), values)| HeldTwice {
                curve_id,
                tenor,
                day,
                values,
            }),
    );
}

/// Per tenor, the values of `day` counted more than once.
fn twice(day: NaiveDate, values: HashMap<ValueKey, u64>) -> Vec<HeldTwice> {
    let mut twice: BTreeMap<(String, String), u64> = BTreeMap::new();
    for ((curve, tenor, _, _), times) in values {
        if times > 1 {
            *twice.entry((curve, tenor)).or_default() += 1;
        }
    }
    twice
        .into_iter()
        .map(|((curve_id, tenor), values)| HeldTwice {
            curve_id,
            tenor,
            day,
            values,
        })
        .collect()
}

/// The values filed under another day's folder, held twice with those of
/// their own day (a day's file copied into another's folder): each such
/// day read again, its own values counted with the strays.
async fn held_across_days(
    dest: &Place,
    days: &BTreeMap<NaiveDate, Vec<&DataFile>>,
    strays: BTreeMap<NaiveDate, HashMap<ValueKey, u64>>,
    report: &mut LakeReport,
) {
    for (day, mut values) in strays {
        for file in days.get(&day).into_iter().flatten() {
            let Ok((rows, _)) = rows_of(dest, &file.name).await else {
                continue;
            };
            let backfilled = file.kind == FileKind::Backfill;
            for row in rows.iter().filter(|r| utc_day(r.tick.generated_on) == day) {
                let at = truncate_to_millis(row.tick.generated_on);
                let key = (
                    row.tick.curve_id.to_string(),
                    row.tick.tenor.to_string(),
                    at,
                    backfilled,
                );
                if let Some(times) = values.get_mut(&key) {
                    *times += 1;
                }
            }
        }
        report.held_twice.extend(twice(day, values));
    }
    report
        .held_twice
        .sort_by(|a, b| (a.day, &a.curve_id, &a.tenor).cmp(&(b.day, &b.curve_id, &b.tenor)));
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
