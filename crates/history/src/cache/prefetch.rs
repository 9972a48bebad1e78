//! A call's cached files of one curve in a store, found with one listing
//! and read at once. A folder answers a listing or a read in microseconds,
//! a store in milliseconds: listing each tenor's folder and reading its
//! files one after another made a warm read from a bucket five times a
//! folder's. So, in a store, a call lists everything under its curve once
//! (one `LIST`, its pages), plans each tenor's days from that listing, and
//! reads every file the plans need concurrently (at most [`READS_AT_ONCE`]
//! at a time); each tenor then decodes its files from memory. A file gone
//! since the listing (merged away by another writer) sends that tenor back
//! to its own folder's listing, as before (`through::read_cached`).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use bytes::Bytes;
use chrono::NaiveDate;

use super::files::Files;
use super::layout::{newest_first, Segment};
use super::plan::{plan, Run};

/// Reads of a store in flight at once for one call: enough to hide a
/// store's latency, few enough not to open a connection per file.
pub(super) const READS_AT_ONCE: usize = 16;

/// What one listing of a curve's folder found, and the files read.
pub(super) struct Prefetched {
    /// Each tenor folder's segments, the last written first.
    segments: HashMap<PathBuf, Vec<Segment>>,
    /// Each file read, taken by the tenor that plans it.
    files: Mutex<HashMap<PathBuf, io::Result<Option<Bytes>>>>,
}

impl Prefetched {
    /// Lists `curve_dir` once and reads the files that the plans of
    /// `tenor_dirs` over `start..=end` need (blocking: on a blocking
    /// thread, as every operation of `files`).
    pub(super) fn read(
        files: &Files,
        curve_dir: &Path,
        tenor_dirs: &[PathBuf],
        (start, end): (NaiveDate, NaiveDate),
    ) -> Prefetched {
        let mut found: HashMap<PathBuf, Vec<_>> = HashMap::new();
        for file in files.walk(curve_dir) {
            let [tenor, name] = file.names.as_slice() else {
                continue;
            };
            let dir = curve_dir.join(tenor);
            if let Some(segment) = Segment::from_name(&dir, name) {
                found.entry(dir).or_default().push((file.written, segment));
            }
        }
        let segments: HashMap<PathBuf, Vec<Segment>> = found
            .into_iter()
            .map(|(dir, found)| (dir, newest_first(found)))
            .collect();
        let wanted: Vec<PathBuf> = tenor_dirs
            .iter()
            .filter_map(|dir| segments.get(dir))
            .flat_map(|segments| plan(segments, start, end))
            .filter_map(|run| match run {
                Run::Cached { segment, .. } => Some(segment.path),
                Run::Missing { .. } => None,
            })
            .collect();
        let read = files.read_all(&wanted, READS_AT_ONCE);
        Prefetched {
            segments,
            files: Mutex::new(wanted.into_iter().zip(read).collect()),
        }
    }

    /// The segments of a tenor's folder (none if the listing found none).
    pub(super) fn segments(&self, dir: &Path) -> Vec<Segment> {
        self.segments.get(dir).cloned().unwrap_or_default()
    }

    /// What reading a file gave, if it was read here.
    pub(super) fn take(&self, path: &Path) -> Option<io::Result<Option<Bytes>>> {
        self.files.lock().expect("prefetched lock").remove(path)
    }
}

#[cfg(test)]
#[path = "prefetch_tests.rs"]
mod tests;
