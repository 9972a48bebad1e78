//! A lake as a replay's source: the files of a recorder and a backfill
//! (`record::layout`), a UTC day at a time, read a batch at a time. A day's
//! values are those of its time, whichever folder holds them: the folders
//! of the days next to it are looked into too (`record::span`).

use ahash::AHashMap;
use std::path::PathBuf;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, TimestampMicrosecondType};
use arrow_array::{Array, DictionaryArray, RecordBatch};
use bytes::Bytes;
use chrono::NaiveDate;
use futures_util::future::BoxFuture;
use futures_util::{stream, StreamExt, TryStreamExt};

use super::source::{takes, ReplaySource};
use super::values::{NameTable, Value, Values};
use crate::record::checkpoint::replaced_files;
use crate::record::file::{note_of, open_batches, open_keyed_batches};
use crate::record::layout::{data_file, day_folder, DataFile};
use crate::record::read::RELISTS;
use crate::record::span::{days_times, may_hold, neighbours};
use domain::live::Subscription;
use domain::timestamp::Micros;
use live::TickSource;
use live::SUBSCRIBE_ANYWAY;
use places::one_thread::OneThread;
use places::storage::{Operation, Place, PlaceError};
use places::{Argument, ClientError, Invalid, Rule};

/// Files fetched at once.
const READS_IN_FLIGHT: usize = 8;
const TARGET: &str = "marketcurves.replay";

/// A lake: the files of a recorder and a backfill (`record::layout`).
pub struct LakeSource {
    place: Place,
    /// Where its days are decoded (`one_thread`).
    decoder: OneThread,
}

impl LakeSource {
    /// The lake at `place`, which must exist.
    pub async fn open(place: Place) -> Result<LakeSource, ClientError> {
        place.check_lake("source").await?;
        let decoder = OneThread::start("marketcurves-replay", "decoding the lake")?;
        Ok(LakeSource { place, decoder })
    }

    /// The files of the days `first..=last` that no other replaces.
    async fn files(&self, first: NaiveDate, last: NaiveDate) -> Result<Vec<String>, PlaceError> {
        let mut names = Vec::new();
        for day in first.iter_days().take_while(|d| *d <= last) {
            let files: Vec<DataFile> = self
                .place
                .list_under(&day_folder(day))
                .await?
                .iter()
                .filter_map(|name| data_file(name))
                .collect();
            // Nothing is removed here: a replay only reads.
            let replaced = replaced_files(&self.place, &files).await?;
            names.extend(
                files
                    .into_iter()
                    .filter(|f| !replaced.contains(&f.name))
                    .map(|f| f.name),
            );
        }
        Ok(names)
    }

    /// The files that may hold values of the days `first..=last`: those
    /// filed under them, and those filed under the days next to them whose
    /// statistics say so (`record::span`: a file moved, copied or planted
    /// there), found by their footers alone.
    async fn files_of_days(
        &self,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<String>, PlaceError> {
        let mut names = self.files(first, last).await?;
        let times = days_times(first, last);
        for day in neighbours(first, last) {
            for name in self.files(day, day).await? {
                // One that cannot be read, or has gone, holds nothing of
                // these days: its own day's read names it.
                if let Ok(footer) = self.place.footer(&name).await {
                    if may_hold(&footer, times) {
                        names.push(name);
                    }
                }
            }
        }
        Ok(names)
    }

    /// Whether the file `name` holds a value `subscription` takes.
    async fn holds(&self, name: &str, subscription: &Subscription) -> Result<bool, ClientError> {
        // Vanished, or not one of the lake's: it holds nothing (the replay
        // skips it too).
        let Ok(footer) = self.place.footer(name).await else {
            return Ok(false);
        };
        if let Some(note) = note_of(&footer) {
            let mut held = note.last.keys();
            return Ok(held.any(|(curve, tenor)| takes(subscription, curve, tenor)));
        }
        let bytes = self.place.get(name).await?.unwrap_or_default();
        let one = [subscription.clone()];
        let Ok((batches, _)) = open_batches(bytes) else {
            return Ok(false);
        };
        let mut names = NameTable::new(&one);
        let mut staged = Vec::new();
        for batch in batches {
            let Ok(batch) = batch else {
                return Ok(false);
            };
            if stage(&batch, &mut names, &mut staged, ALL_TIMES).is_err() {
                return Ok(false);
            }
            if !staged.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The values of the days, listed again (up to [`RELISTS`] times) if a
    /// file vanished between listing and reading: a backfill rewriting a
    /// day, a recorder rotating, never fail a replay.
    async fn read(
        &self,
        days: (NaiveDate, NaiveDate),
        subscriptions: &[Subscription],
    ) -> Result<Values, ClientError> {
        let mut attempt = 0;
        loop {
            match self.read_listed(days, subscriptions).await? {
                Ok(values) => return Ok(values),
                Err(name) if attempt < RELISTS => {
                    attempt += 1;
                    log::info!(target: TARGET, "{name} vanished while replaying: listing again");
                }
                Err(name) => {
                    return Err(PlaceError::new(
                        self.place.shown(),
                        Operation::KeptVanishing {
                            doing: "replaying",
                            listings: RELISTS,
                        },
                        name,
                    )
                    .into())
                }
            }
        }
    }

    /// The values of the files listed now, or the name of one that vanished.
    async fn read_listed(
        &self,
        (first, last): (NaiveDate, NaiveDate),
        subscriptions: &[Subscription],
    ) -> Result<Result<Values, String>, ClientError> {
        let names = self.files_of_days(first, last).await?;
        let files: Vec<(String, File)> = match &self.place {
            // Read on the decoding thread, as it needs them.
            Place::Folder(root) => names
                .into_iter()
                .map(|name| (name.clone(), File::At(root.join(name))))
                .collect(),
            place @ Place::Store(_) => {
                let fetched: Vec<(String, Option<Bytes>)> = stream::iter(names)
                    .map(|name| async move {
                        let bytes = place.get(&name).await?;
                        Ok::<_, PlaceError>((name, bytes))
                    })
                    .buffered(READS_IN_FLIGHT)
                    .try_collect()
                    .await?;
                let mut files = Vec::with_capacity(fetched.len());
                for (name, bytes) in fetched {
                    match bytes {
                        Some(bytes) => files.push((name, File::Read(bytes))),
                        None => return Ok(Err(name)),
                    }
                }
                files
            }
        };
        let subscriptions = subscriptions.to_vec();
        let times = days_times(first, last);
        let values = self
            .decoder
            .run(move || decode_day(files, &subscriptions, times))
            .await??;
        Ok(values)
    }
}

/// A file of a day: its path in a folder, or its bytes fetched from a store.
enum File {
    At(PathBuf),
    Read(Bytes),
}

/// A day's files as values of `times` alone (a value filed under the
/// wrong day is its own day's), on the decoding thread.
/// A file that is not one of the lake's (a bad footer, other columns) is
/// skipped with a warning naming it; one that vanished is named.
fn decode_day(
    files: Vec<(String, File)>,
    subscriptions: &[Subscription],
    times: (Micros, Micros),
) -> Result<Result<Values, String>, PlaceError> {
    let mut names = NameTable::new(subscriptions);
    let mut opened = Vec::with_capacity(files.len());
    for (name, file) in files {
        let unreadable = |e: String| PlaceError::new(name.as_str(), Operation::Read, e);
        let bytes = match file {
            File::Read(bytes) => bytes,
            File::At(path) => match std::fs::read(&path) {
                Ok(bytes) => Bytes::from(bytes),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Err(name)),
                Err(e) => return Err(unreadable(e.to_string())),
            },
        };
        match open_keyed_batches(bytes) {
            Ok((batches, note)) => opened.push((name, batches, note.map_or(0, |n| n.rows))),
            Err(e) => skipped(&name, &e),
        }
    }
    // Sized once from the footers' counts: grown by doubling, the day's
    // largest vector would be copied and left behind as it grew.
    let mut staged = Vec::with_capacity(opened.iter().map(|(_, _, rows)| *rows as usize).sum());
    for (name, batches, _) in opened {
        // A file that fails part-way is skipped whole: none of its values.
        let before = staged.len();
        for batch in batches {
            let staging = batch
                .map_err(|e| e.to_string())
                .and_then(|batch| stage(&batch, &mut names, &mut staged, times));
            if let Err(e) = staging {
                staged.truncate(before);
                skipped(&name, &e);
                break;
            }
        }
    }
    let values = names.settle(staged);
    // The day's files and batches are freed: give them back, so that a long
    // replay holds no more than a short one.
    places::give_back::trim();
    Ok(Ok(values))
}

fn skipped(name: &str, why: &str) {
    log::warn!(target: TARGET, "skipping {name}: not a file of ticks ({why})");
}

/// Every time: what a file holds whatever its day.
const ALL_TIMES: (Micros, Micros) = (Micros::MIN, Micros::MAX);

/// The values of a recording's batch that the subscriptions take, of
/// `from..=to`.
fn stage(
    batch: &RecordBatch,
    names: &mut NameTable<'_>,
    staged: &mut Vec<Value>,
    (from, to): (Micros, Micros),
) -> Result<(), String> {
    let time = |i: usize| {
        batch
            .column(i)
            .as_primitive_opt::<TimestampMicrosecondType>()
            .ok_or("a time column is not a timestamp")
    };
    let (generated, recorded) = (time(2)?, time(5)?);
    let prices = batch
        .column(3)
        .as_primitive_opt::<Float64Type>()
        .ok_or("price is not a float")?;
    if batch
        .columns()
        .iter()
        .any(|column| column.logical_null_count() > 0)
    {
        return Err("a column has nulls".into());
    }
    let mut keep = |i: usize, name: Option<u32>, source: TickSource| {
        let generated_on = generated.value(i);
        if generated_on < from || generated_on > to {
            return;
        }
        if let Some(name) = name {
            staged.push(Value {
                name,
                generated_on,
                recorded_at: recorded.value(i),
                price: prices.value(i),
                source,
            });
        }
    };
    let keyed = |i: usize| batch.column(i).as_dictionary_opt::<Int32Type>();
    if let (Some(curves), Some(tenors), Some(sources)) = (keyed(0), keyed(1), keyed(4)) {
        // Read as dictionaries (`open_keyed_batches`): names and sources
        // are worked out once per key, not once a row.
        let texts = |column: &'_ DictionaryArray<Int32Type>| {
            let texts = column.values().as_string_opt::<i32>();
            texts.cloned().ok_or("a text column is not text")
        };
        let (curve_texts, tenor_texts) = (texts(curves)?, texts(tenors)?);
        let source_texts = texts(sources)?;
        let source_of: Vec<Option<TickSource>> = source_texts
            .iter()
            .map(|s| s.and_then(source_named))
            .collect();
        let mut curve: Option<i32> = None;
        let mut by_tenor: Vec<Option<Option<u32>>> = vec![None; tenor_texts.len()];
        let (curves, tenors) = (curves.keys().values(), tenors.keys().values());
        let sources = sources.keys().values();
        for i in 0..batch.num_rows() {
            let (curve_key, tenor_key) = (curves[i], tenors[i] as usize);
            if curve != Some(curve_key) {
                curve = Some(curve_key);
                by_tenor.fill(None);
            }
            let name = match by_tenor[tenor_key] {
                Some(name) => name,
                None => *by_tenor[tenor_key].insert(names.index(
                    curve_texts.value(curve_key as usize),
                    tenor_texts.value(tenor_key),
                )),
            };
            let source_key = sources[i] as usize;
            let Some(source) = source_of[source_key] else {
                let other = source_texts.value(source_key);
                return Err(format!("unknown source {other:?}"));
            };
            keep(i, name, source);
        }
        return Ok(());
    }
    let text = |i: usize| {
        batch
            .column(i)
            .as_string_opt::<i32>()
            .ok_or("a text column is not text")
    };
    let (curves, tenors, sources) = (text(0)?, text(1)?, text(4)?);
    // A batch is mostly one curve: its tenors are looked up by the batch's
    // own strings until the curve changes.
    let mut curve: Option<&str> = None;
    let mut by_tenor: AHashMap<&str, Option<u32>> = AHashMap::new();
    for i in 0..batch.num_rows() {
        let (curve_id, tenor) = (curves.value(i), tenors.value(i));
        if curve != Some(curve_id) {
            curve = Some(curve_id);
            by_tenor.clear();
        }
        let name = match by_tenor.get(tenor) {
            Some(name) => *name,
            None => *by_tenor
                .entry(tenor)
                .or_insert_with(|| names.index(curve_id, tenor)),
        };
        let Some(source) = source_named(sources.value(i)) else {
            return Err(format!("unknown source {:?}", sources.value(i)));
        };
        keep(i, name, source);
    }
    Ok(())
}

/// The source a recording names, if it is one.
fn source_named(text: &str) -> Option<TickSource> {
    match text {
        "update" => Some(TickSource::Update),
        "snapshot" => Some(TickSource::Snapshot),
        "backfill" => Some(TickSource::Backfill),
        _ => None,
    }
}

impl ReplaySource for LakeSource {
    fn days<'a>(
        &'a self,
        first: NaiveDate,
        last: NaiveDate,
        subscriptions: &'a [Subscription],
    ) -> BoxFuture<'a, Result<Values, ClientError>> {
        Box::pin(self.read((first, last), subscriptions))
    }

    /// A day: the lake's partition, and what memory holds at once.
    fn days_at_once(&self) -> u64 {
        1
    }

    /// Some file of the days must hold a value of the subscription: its
    /// footer's note names the tenors it holds (a file without one, written
    /// by another tool, is read). The first found ends the search.
    fn check<'a>(
        &'a self,
        subscription: &'a Subscription,
        first: NaiveDate,
        last: NaiveDate,
    ) -> BoxFuture<'a, Result<(), ClientError>> {
        Box::pin(async move {
            for day in first.iter_days().take_while(|d| *d <= last) {
                for name in self.files_of_days(day, day).await? {
                    if self.holds(&name, subscription).await? {
                        return Ok(());
                    }
                }
            }
            Err(ClientError::InvalidRequest(
                Invalid::new(
                    Argument::Subscription,
                    Rule::Unlisted,
                    format!(
                        "the lake at {} holds no value of curve {} tenor {:?} from {first} to \
                         {last}: the replay would deliver nothing for it",
                        self.place.shown(),
                        subscription.curve_id,
                        subscription.tenor,
                    ),
                )
                .advice(SUBSCRIBE_ANYWAY),
            ))
        })
    }
}
