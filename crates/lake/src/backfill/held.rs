//! What a lake's backfilled files hold: which tenors' days are complete,
//! and one curve's files of one day (whole, for a task to write again).
//!
//! A footer is not the truth: a day counts as complete only if its file's
//! rows bear its note out (`FileNote::disagrees`: their count, day, curve,
//! tenors' last times, digest). A file another day's copy replaced, or one
//! cut short by another tool, is fetched again and written over; one that
//! cannot be read as the lake's file is set aside (`<name>.corrupt`).

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDate;
use futures_util::{stream, StreamExt, TryStreamExt};

use crate::record::checkpoint::{data_files, replaced_files};
use crate::record::file::{batch_rows, decode, FileNote, Recorded};
use crate::record::layout::{backfill_curve_tag, curve_tag, data_file, day_folder, FileKind};
use places::storage::{Place, PlaceError};
use places::ClientError;

/// Footers, or files, read at once.
const READS_IN_FLIGHT: usize = 16;

/// The days held complete, per curve and tenor.
#[derive(Debug, Default)]
pub struct Held {
    complete: HashMap<(String, String), BTreeSet<NaiveDate>>,
}

impl Held {
    pub fn is_complete(&self, curve_id: &str, tenor: &str, day: NaiveDate) -> bool {
        self.complete
            .get(&(curve_id.to_owned(), tenor.to_owned()))
            .is_some_and(|days| days.contains(&day))
    }

    pub(crate) fn add(&mut self, day: NaiveDate, note: FileNote) {
        let Some(curve_id) = note.curve_id else {
            return;
        };
        for tenor in note.complete {
            self.complete
                .entry((curve_id.clone(), tenor))
                .or_default()
                .insert(day);
        }
    }
}

/// What the backfilled files of days `first..=last` hold complete: the
/// notes their rows bear out.
pub async fn held(dest: &Place, first: NaiveDate, last: NaiveDate) -> Result<Held, PlaceError> {
    let files = data_files(dest).await?;
    let notes: Vec<(NaiveDate, Option<FileNote>)> = stream::iter(
        files
            .into_iter()
            .filter(|f| f.kind == FileKind::Backfill && (first..=last).contains(&f.day)),
    )
    .map(|file| async move {
        let note = match read_whole(dest, &file.name).await? {
            Ok((note, rows)) => match note.disagrees(file.day, &rows) {
                None => Some(note),
                Some(why) => {
                    log::warn!(target: TARGET, "{}: {why}; its days are fetched again", file.name);
                    None
                }
            },
            Err(why) => {
                log::warn!(target: TARGET, "{why}; its days are fetched again");
                None
            }
        };
        Ok::<_, PlaceError>((file.day, note))
    })
    .buffer_unordered(READS_IN_FLIGHT)
    .try_collect()
    .await?;
    let mut held = Held::default();
    for (day, note) in notes {
        held.add(day, note.unwrap_or_default());
    }
    Ok(held)
}

const TARGET: &str = "marketcurves::backfill";

/// A file's note and rows, or why it is not the lake's file.
type Read = Result<(FileNote, Vec<Recorded>), String>;

/// A file's note and rows; Ok(Err(why)) when it is not whole Parquet of
/// the lake's columns with a note, Err when the place refused the read.
async fn read_whole(dest: &Place, name: &str) -> Result<Read, PlaceError> {
    let Some(bytes) = dest.get(name).await? else {
        return Ok(Err(format!("{name} vanished while backfilling")));
    };
    let unreadable = |e: String| format!("cannot read {name}: {e}");
    let (batches, note) = match decode(bytes) {
        Ok(decoded) => decoded,
        Err(e) => return Ok(Err(unreadable(e))),
    };
    let mut rows = Vec::new();
    for batch in &batches {
        match batch_rows(batch) {
            Ok(more) => rows.extend(more),
            Err(e) => return Ok(Err(unreadable(e))),
        }
    }
    match note {
        Some(note) => Ok(Ok((note, rows))),
        None => Ok(Err(unreadable("it has no note in its footer".into()))),
    }
}

/// Refuses a lake with a link among the days `first..=last` (a day folder,
/// or a file in one), or a link that names no day: a backfill never
/// writes or deletes through one.
pub async fn refuse_links(
    dest: &Place,
    first: NaiveDate,
    last: NaiveDate,
) -> Result<(), ClientError> {
    let survey = dest.survey().await?;
    let day_of = |link: &str| {
        let folder = link.split('/').next().unwrap_or_default();
        NaiveDate::parse_from_str(folder.strip_prefix("date=")?, "%Y-%m-%d").ok()
    };
    let linked = survey
        .links
        .iter()
        .find(|link| day_of(link).is_none_or(|day| (first..=last).contains(&day)));
    match linked {
        Some(link) => Err(ClientError::invalid(
            places::Argument::Range,
            places::Rule::Place,
            format!(
                "{} holds a symbolic link, {link}: a backfill never writes or deletes through \
             one; put the folder or file itself there, or remove the link",
                dest.shown()
            ),
        )),
        None => Ok(()),
    }
}

/// A backfilled file as it is.
pub struct HeldFile {
    pub name: String,
    pub note: FileNote,
    pub rows: Vec<Recorded>,
    /// Its rows bear its note out; if not, only its rows of its curve and
    /// day are carried over, and none of its tenors is complete.
    pub trusted: bool,
}

/// One curve's backfilled files of a day.
#[derive(Default)]
pub struct CurveDay {
    /// The current files, read.
    pub held: Vec<HeldFile>,
    /// Files a newer one replaced, to be removed.
    pub stale: Vec<String>,
    /// `(file, why)`: files not readable as the lake's, to be set aside.
    pub unreadable: Vec<(String, String)>,
}

/// `curve_id`'s backfilled files of `day`, read whole; files a newer one
/// replaced (left by a run killed between writing and deleting) are not
/// among them, but are named in `stale` to be removed with them.
pub async fn curve_day(
    dest: &Place,
    curve_id: &str,
    day: NaiveDate,
) -> Result<CurveDay, PlaceError> {
    let tag = curve_tag(curve_id);
    let files: Vec<_> = dest
        .list_under(&day_folder(day))
        .await?
        .iter()
        .filter_map(|name| data_file(name))
        .filter(|f| f.kind == FileKind::Backfill && backfill_curve_tag(&f.name) == Some(&tag))
        .collect();
    let stale = replaced_files(dest, &files).await?;
    let current = files.into_iter().filter(|f| !stale.contains(&f.name));
    let read: Vec<(String, Read)> = stream::iter(current)
        .map(|file| async move {
            let read = read_whole(dest, &file.name).await?;
            Ok::<_, PlaceError>((file.name, read))
        })
        .buffer_unordered(READS_IN_FLIGHT)
        .try_collect()
        .await?;
    let mut found = CurveDay {
        stale: stale.into_iter().collect(),
        ..CurveDay::default()
    };
    for (name, read) in read {
        match read {
            // Another curve whose digest is the same (never seen; 64 bits) is not ours.
            Ok((note, _)) if note.curve_id.as_deref().is_some_and(|c| c != curve_id) => {}
            Ok((note, rows)) => {
                let trusted = note.curve_id.is_some() && note.disagrees(day, &rows).is_none();
                found.held.push(HeldFile {
                    name,
                    note,
                    rows,
                    trusted,
                });
            }
            Err(why) => found.unreadable.push((name, why)),
        }
    }
    Ok(found)
}
