//! What a lake's backfilled files hold: which tenors' days are complete
//! (from their notes alone), and one curve's files of one day (whole, for
//! a task to write again).

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDate;
use futures_util::{stream, StreamExt, TryStreamExt};

use crate::record::checkpoint::{data_files, replaced_files};
use crate::record::file::{batch_rows, decode, note_of, FileNote, Recorded};
use crate::record::layout::{backfill_curve_tag, curve_tag, data_file, day_folder, FileKind};
use crate::storage::{Place, PlaceError};

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

/// What the backfilled files of days `first..=last` hold complete, read
/// from their footers.
pub async fn held(dest: &Place, first: NaiveDate, last: NaiveDate) -> Result<Held, PlaceError> {
    let files = data_files(dest).await?;
    let notes: Vec<(NaiveDate, Option<FileNote>)> = stream::iter(
        files
            .into_iter()
            .filter(|f| f.kind == FileKind::Backfill && (first..=last).contains(&f.day)),
    )
    .map(|file| async move {
        let footer = dest.footer(&file.name).await?;
        Ok::<_, PlaceError>((file.day, note_of(&footer)))
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

/// A backfilled file as it is.
pub struct HeldFile {
    pub name: String,
    pub note: FileNote,
    pub rows: Vec<Recorded>,
}

/// `curve_id`'s backfilled files of `day`, read whole; files a newer one
/// replaced (left by a run killed between writing and deleting) are not
/// among them, but are named in `stale` to be removed with them.
pub async fn curve_day(
    dest: &Place,
    curve_id: &str,
    day: NaiveDate,
) -> Result<(Vec<HeldFile>, Vec<String>), PlaceError> {
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
    let held: Vec<HeldFile> = stream::iter(current)
        .map(|file| async move {
            let bytes = dest
                .get(&file.name)
                .await?
                .ok_or_else(|| PlaceError(format!("{} vanished while backfilling", file.name)))?;
            let unreadable = |e: String| PlaceError(format!("cannot read {}: {e}", file.name));
            let (batches, note) = decode(bytes).map_err(unreadable)?;
            let mut rows = Vec::new();
            for batch in &batches {
                rows.extend(batch_rows(batch).map_err(unreadable)?);
            }
            Ok::<_, PlaceError>(HeldFile {
                name: file.name,
                note: note.unwrap_or_default(),
                rows,
            })
        })
        .buffer_unordered(READS_IN_FLIGHT)
        .try_collect()
        .await?;
    // Another curve whose digest is the same (never seen; 64 bits) is not ours.
    let held = held
        .into_iter()
        .filter(|f| f.note.curve_id.as_deref() == Some(curve_id))
        .collect();
    Ok((held, stale.into_iter().collect()))
}
