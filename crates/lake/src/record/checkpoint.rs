//! What a recording already holds: for each curve and tenor, the time of
//! its last value. A restart resumes from there.
//!
//! The files are the truth: each carries its own last times in its footer.
//! `_checkpoint.json`, replaced after each file is written, saves reading
//! every footer: it says which files it has counted, and only files it does
//! not name (written after it, by a run killed before replacing it, or by a
//! compaction) are read. So a checkpoint that is stale, missing or damaged
//! costs some reads, never a tick.

use std::collections::{BTreeMap, BTreeSet};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::file::{note_of, saw, FileNote, TenorKey};
use super::layout::{backfill_curve_tag, data_file, DataFile, FileKind, CHECKPOINT};
use domain::timestamp::Micros;
use places::storage::{Operation, Place, PlaceError};

const TARGET: &str = "marketcurves.record";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The last `generated_on` kept per tenor (truncated to milliseconds).
    #[serde(with = "super::file::last_as_list")]
    pub last: BTreeMap<TenorKey, Micros>,
    /// The data files counted in `last`.
    pub files: BTreeSet<String>,
}

impl Checkpoint {
    /// Counts a file just written.
    pub fn add(&mut self, name: &str, note: &FileNote) {
        for ((curve_id, tenor), at) in &note.last {
            saw(&mut self.last, curve_id, tenor, *at);
        }
        self.files.insert(name.to_owned());
    }

    pub async fn save(&self, dest: &Place) -> Result<(), PlaceError> {
        let json =
            serde_json::to_vec(self).map_err(|e| dest.failed(Operation::Write, CHECKPOINT, e))?;
        dest.put(CHECKPOINT, Bytes::from(json)).await
    }
}

/// The recording's data files, after removing the files a newer file of
/// theirs replaces: parts a compacted day holds, left behind by a
/// compaction cut short, and backfilled files written again.
pub async fn data_files(dest: &Place) -> Result<Vec<DataFile>, PlaceError> {
    let mut files: Vec<DataFile> = dest
        .list()
        .await?
        .iter()
        .filter_map(|name| data_file(name))
        .collect();
    let replaced = replaced_files(dest, &files).await?;
    for name in &replaced {
        log::info!(target: TARGET, "removing {name}: a newer file holds its ticks");
        dest.delete(name).await?;
    }
    files.retain(|f| !replaced.contains(&f.name));
    Ok(files)
}

/// The files still present that a newer file of theirs replaced. Only
/// files that may replace another are read: a compacted day beside parts
/// of its day, a backfilled file beside another of its curve and day.
pub async fn replaced_files(
    dest: &Place,
    files: &[DataFile],
) -> Result<BTreeSet<String>, PlaceError> {
    let mut replaced = BTreeSet::new();
    for file in files.iter().filter(|f| may_replace(f, files)) {
        // A file vanished since listed, or not one of the lake's (a bad
        // footer), replaces nothing; its readers skip or list again.
        let note = match dest.footer(&file.name).await {
            Ok(footer) => note_of(&footer).unwrap_or_default(),
            Err(e) => {
                log::warn!(target: TARGET, "{e}: it replaces no file");
                continue;
            }
        };
        replaced.extend(
            note.replaces
                .into_iter()
                .filter(|name| files.iter().any(|f| &f.name == name)),
        );
    }
    Ok(replaced)
}

pub(crate) fn may_replace(file: &DataFile, files: &[DataFile]) -> bool {
    match file.kind {
        FileKind::Part => false,
        FileKind::Day => files
            .iter()
            .any(|f| f.day == file.day && f.kind == FileKind::Part),
        FileKind::Backfill => {
            let curve = backfill_curve_tag(&file.name);
            files.iter().any(|f| {
                f.day == file.day
                    && f.name != file.name
                    && f.kind == FileKind::Backfill
                    && backfill_curve_tag(&f.name) == curve
            })
        }
    }
}

/// The recording's checkpoint, brought up to date with its files.
pub async fn load(dest: &Place) -> Result<Checkpoint, PlaceError> {
    let files = data_files(dest).await?;
    let saved = match dest.get(CHECKPOINT).await? {
        Some(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            log::warn!(target: TARGET, "{CHECKPOINT} is damaged ({e}); reading every file's footer");
            Checkpoint::default()
        }),
        None => Checkpoint::default(),
    };
    let mut checkpoint = Checkpoint {
        last: saved.last,
        files: BTreeSet::new(),
    };
    for file in &files {
        if saved.files.contains(&file.name) {
            checkpoint.files.insert(file.name.clone());
            continue;
        }
        match note_of(&dest.footer(&file.name).await?) {
            Some(note) => checkpoint.add(&file.name, &note),
            None => log::warn!(
                target: TARGET,
                "{} has no note of the recorder in its footer; it is not counted",
                file.name
            ),
        }
    }
    Ok(checkpoint)
}

#[cfg(test)]
#[path = "checkpoint_tests.rs"]
mod tests;
