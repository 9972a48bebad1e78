//! A call's cached files of one curve in a store, found with one listing
//! and read at once. A folder answers a listing or a read in microseconds,
//! a store in milliseconds: listing each tenor's folder and reading its
//! files one after another made a warm read from a bucket five times a
//! folder's. So, in a store, a call lists everything under its curve once
//! (one `LIST`, its pages), reads the curve's packs (`pack`) that overlap
//! its days, plans each tenor's days from that listing and those packs,
//! and reads every segment the plans still need concurrently (at most
//! [`READS_AT_ONCE`] at a time); each tenor then decodes its files from
//! memory. A call whose days one pack holds reads that pack alone: one
//! `LIST` and one `GET`. A file gone since the listing (merged away by
//! another writer) sends that tenor back to its own folder's listing, as
//! before (`through::read_cached`); a pack that is not whole or not what
//! its note says is removed, with a warning, and the tenors planned
//! without it.
//!
//! [`cached_days`] answers, for any rule that needs it, which days of each
//! tenor of a curve the cache holds, packs counted.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use bytes::Bytes;
use chrono::NaiveDate;

use super::files::Files;
use super::layout::{curve_dir, decode, History, Segment};
use super::pack::{self, Pack, PackFile};
use super::plan::{plan, Run};
use super::segment::ReadError;

/// Reads of a store in flight at once for one call: enough to hide a
/// store's latency, few enough not to open a connection per file.
pub(super) const READS_AT_ONCE: usize = 16;
/// Packs read at most for one call, the newest first: packs that another
/// covers are removed by the writer of that one, so a curve has few.
const PACKS_AT_ONCE: usize = 4;

/// What one listing of a curve's folder holds.
#[derive(Default)]
struct Listing {
    /// Each tenor folder's segments, with when each was written.
    segments: HashMap<PathBuf, Vec<(SystemTime, Segment)>>,
    /// The curve's packs, with when each was written.
    packs: Vec<(SystemTime, PackFile)>,
}

impl Listing {
    fn of(files: &Files, curve_dir: &Path) -> Listing {
        let mut listing = Listing::default();
        for file in files.walk(curve_dir) {
            match file.names.as_slice() {
                [name] => {
                    if let Some(pack) = PackFile::from_name(curve_dir, name) {
                        listing.packs.push((file.written, pack));
                    }
                }
                [tenor, name] => {
                    let dir = curve_dir.join(tenor);
                    if let Some(segment) = Segment::from_name(&dir, name) {
                        let found = listing.segments.entry(dir).or_default();
                        found.push((file.written, segment));
                    }
                }
                _ => {}
            }
        }
        // The newest first: where packs overlap, the last written holds
        // what the service last said.
        listing
            .packs
            .sort_by(|(a, x), (b, y)| b.cmp(a).then(y.path.cmp(&x.path)));
        listing
    }
}

/// A source of a tenor's days: a segment, or a pack's share of the tenor
/// (a `Segment` whose path is the pack's).
struct Source {
    written: SystemTime,
    packed: bool,
    segment: Segment,
}

/// Each tenor folder's sources, the last written first (a pack before a
/// segment written the same second: it was written after, from its rows).
fn sources(listing: &Listing, packs: &[(SystemTime, Arc<Pack>)]) -> HashMap<PathBuf, Vec<Segment>> {
    let mut found: HashMap<PathBuf, Vec<Source>> = HashMap::new();
    for (dir, segments) in &listing.segments {
        let sources = segments.iter().map(|(written, segment)| Source {
            written: *written,
            packed: false,
            segment: segment.clone(),
        });
        found.entry(dir.clone()).or_default().extend(sources);
    }
    for (written, pack) in packs {
        let curve_dir = pack.file.path.parent().unwrap_or(Path::new(""));
        for days in pack.spans() {
            let dir = curve_dir.join(super::layout::encode(&days.tenor));
            found.entry(dir).or_default().push(Source {
                written: *written,
                packed: true,
                segment: Segment {
                    path: pack.file.path.clone(),
                    first: days.first,
                    last: days.last,
                },
            });
        }
    }
    found
        .into_iter()
        .map(|(dir, mut sources)| {
            sources.sort_by(|a, b| {
                (b.written, b.packed, b.segment.first, b.segment.last).cmp(&(
                    a.written,
                    a.packed,
                    a.segment.first,
                    a.segment.last,
                ))
            });
            (dir, sources.into_iter().map(|s| s.segment).collect())
        })
        .collect()
}

/// What one listing of a curve's folder found, and the files read.
pub(super) struct Prefetched {
    /// Each tenor folder's sources (segments and packs), the last written
    /// first.
    segments: HashMap<PathBuf, Vec<Segment>>,
    /// Each segment read, taken by the tenor that plans it.
    files: Mutex<HashMap<PathBuf, io::Result<Option<Bytes>>>>,
    /// The packs read whole and checked.
    packs: HashMap<PathBuf, Arc<Pack>>,
}

/// What a call reads of its curve before it knows its tenors (while the
/// catalogue that names them is read): its packs over its days, found by
/// one listing of the curve's own folder; or, for a call that reads no
/// packs, the listing of everything under the curve.
pub(crate) struct Early {
    /// None until the whole curve is listed.
    listing: Option<Listing>,
    packs: Vec<(SystemTime, Arc<Pack>)>,
}

impl Early {
    /// If `packs`, lists the curve's own folder (its packs, not its
    /// tenors' files) and reads its packs over `start..=end`; else lists
    /// everything under `curve_dir` (blocking, as every operation of
    /// `files`).
    pub(super) fn read(
        files: &Files,
        curve_dir: &Path,
        days: (NaiveDate, NaiveDate),
        of: (History, &str),
        packs: bool,
    ) -> Early {
        if !packs {
            let listing = Some(Listing::of(files, curve_dir));
            return Early {
                listing,
                packs: Vec::new(),
            };
        }
        let mut found: Vec<(SystemTime, PackFile)> = files
            .list(curve_dir)
            .into_iter()
            .filter_map(|file| {
                Some((
                    file.written,
                    PackFile::from_name(curve_dir, file.file_name())?,
                ))
            })
            .collect();
        found.sort_by(|(a, x), (b, y)| b.cmp(a).then(y.path.cmp(&x.path)));
        let packs = read_packs(files, &found, days, of);
        Early {
            listing: None,
            packs,
        }
    }
}

impl Prefetched {
    /// Reads what the plans of `tenor_dirs` over `start..=end` need: the
    /// curve's packs when the call has tenors enough to be worth one, and
    /// the segments the plans still need (blocking: on a blocking thread,
    /// as every operation of `files`).
    pub(super) fn read(
        files: &Files,
        curve_dir: &Path,
        tenor_dirs: &[PathBuf],
        days: (NaiveDate, NaiveDate),
        of: (History, &str),
    ) -> Prefetched {
        let packs = tenor_dirs.len() >= super::through_pack::PACK_TENORS;
        let early = Early::read(files, curve_dir, days, of, packs);
        Prefetched::planned(files, curve_dir, early, tenor_dirs, days)
    }

    /// From what was read early: if the packs hold every day of every
    /// tenor, nothing more (a refresh removes the packs over its days, so
    /// no segment is newer than a pack of its days: `through_pack`); else
    /// the whole curve listed once and the segments the plans of
    /// `tenor_dirs` over `start..=end` still need read at once.
    pub(super) fn planned(
        files: &Files,
        curve_dir: &Path,
        early: Early,
        tenor_dirs: &[PathBuf],
        (start, end): (NaiveDate, NaiveDate),
    ) -> Prefetched {
        let Early { listing, packs } = early;
        let listed = listing.is_some();
        let listing = listing.unwrap_or_default();
        let mut segments = sources(&listing, &packs);
        let covered = |segments: &HashMap<PathBuf, Vec<Segment>>| {
            tenor_dirs.iter().all(|dir| {
                let sources = segments.get(dir).map(Vec::as_slice).unwrap_or_default();
                plan(sources, start, end)
                    .iter()
                    .all(|run| matches!(run, Run::Cached { .. }))
            })
        };
        if !listed && !covered(&segments) {
            segments = sources(&Listing::of(files, curve_dir), &packs);
        }
        let packs: HashMap<PathBuf, Arc<Pack>> = packs
            .into_iter()
            .map(|(_, pack)| (pack.file.path.clone(), pack))
            .collect();
        let wanted: Vec<PathBuf> = tenor_dirs
            .iter()
            .filter_map(|dir| segments.get(dir))
            .flat_map(|segments| plan(segments, start, end))
            .filter_map(|run| match run {
                Run::Cached { segment, .. } if !packs.contains_key(&segment.path) => {
                    Some(segment.path)
                }
                _ => None,
            })
            .collect();
        let read = files.read_all(&wanted, READS_AT_ONCE);
        Prefetched {
            segments,
            files: Mutex::new(wanted.into_iter().zip(read).collect()),
            packs,
        }
    }

    /// The sources of a tenor's folder (none if the listing found none).
    pub(super) fn segments(&self, dir: &Path) -> Vec<Segment> {
        self.segments.get(dir).cloned().unwrap_or_default()
    }

    /// What reading a file gave, if it was read here.
    pub(super) fn take(&self, path: &Path) -> Option<io::Result<Option<Bytes>>> {
        self.files.lock().expect("prefetched lock").remove(path)
    }

    /// The pack at `path`, if it is one read here.
    pub(super) fn pack(&self, path: &Path) -> Option<&Pack> {
        self.packs.get(path).map(Arc::as_ref)
    }

    /// The packs read here, whole.
    pub(super) fn packs(&self) -> impl Iterator<Item = &Pack> {
        self.packs.values().map(Arc::as_ref)
    }
}

/// The packs of the listing over `start..=end`, the newest first, read at
/// once and checked; one that is not what it says is removed, with a
/// warning (its days are read from segments, or fetched, and a new pack
/// replaces it).
fn read_packs(
    files: &Files,
    listed: &[(SystemTime, PackFile)],
    (start, end): (NaiveDate, NaiveDate),
    (history, curve_id): (History, &str),
) -> Vec<(SystemTime, Arc<Pack>)> {
    let wanted: Vec<&(SystemTime, PackFile)> = listed
        .iter()
        .filter(|(_, pack)| pack.first <= end && start <= pack.last)
        .take(PACKS_AT_ONCE)
        .collect();
    let paths: Vec<PathBuf> = wanted.iter().map(|(_, p)| p.path.clone()).collect();
    let read = files.read_all(&paths, READS_AT_ONCE);
    let mut packs = Vec::new();
    for ((written, file), bytes) in wanted.into_iter().zip(read) {
        match pack::from_file(bytes, files.is_store(), file, (history, curve_id)) {
            Ok(pack) => packs.push((*written, Arc::new(pack))),
            Err(ReadError::Gone) => {}
            Err(ReadError::Corrupt(why)) => {
                log::warn!(
                    target: "marketcurves.cache",
                    "{} is corrupt ({why}); removed, and its days read from the tenors' \
                     files or fetched again",
                    files.shown(&file.path)
                );
                let _ = files.delete(&file.path);
            }
            Err(ReadError::Unanswered(why)) => {
                log::warn!(
                    target: "marketcurves.cache",
                    "cannot read {} ({why}); its days are read from the tenors' files",
                    files.shown(&file.path)
                );
            }
        }
    }
    packs
}

/// Which days of each tenor of `curve_id`'s `history` the cache of the
/// service at `service` (`Dirs::history`) holds: by tenor name, runs of
/// days `(first, last)` in order, joined where they touch, from one
/// listing of the curve's folder and its packs (each read for its note).
/// A day held by a segment and a pack counts once. This is the one
/// answer to "which days are cached": the cache's reads plan from the
/// same files, so a day listed here is a day a call reads, not fetches.
pub fn cached_days(
    files: &Files,
    service: &Path,
    history: History,
    curve_id: &str,
) -> BTreeMap<String, Vec<(NaiveDate, NaiveDate)>> {
    let dir = curve_dir(service, history, curve_id);
    let listing = Listing::of(files, &dir);
    let mut held: BTreeMap<String, Vec<(NaiveDate, NaiveDate)>> = BTreeMap::new();
    for (tenor_dir, segments) in &listing.segments {
        let name = tenor_dir
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(decode);
        let Some(tenor) = name else {
            continue;
        };
        let runs = segments.iter().map(|(_, s)| (s.first, s.last));
        held.entry(tenor).or_default().extend(runs);
    }
    let paths: Vec<PathBuf> = listing.packs.iter().map(|(_, p)| p.path.clone()).collect();
    let read = files.read_all(&paths, READS_AT_ONCE);
    for ((_, file), bytes) in listing.packs.iter().zip(read) {
        if let Ok(pack) = pack::from_file(bytes, files.is_store(), file, (history, curve_id)) {
            for days in pack.spans() {
                let runs = held.entry(days.tenor.clone()).or_default();
                runs.push((days.first, days.last));
            }
        }
    }
    held.into_iter()
        .map(|(tenor, runs)| (tenor, joined(runs)))
        .collect()
}

/// Runs of days in order, those that overlap or touch joined.
pub(crate) fn joined(mut runs: Vec<(NaiveDate, NaiveDate)>) -> Vec<(NaiveDate, NaiveDate)> {
    runs.sort_unstable();
    let mut out: Vec<(NaiveDate, NaiveDate)> = Vec::new();
    for (first, last) in runs {
        match out.last_mut() {
            Some((_, end)) if end.succ_opt().is_some_and(|next| first <= next) => {
                *end = (*end).max(last);
            }
            _ => out.push((first, last)),
        }
    }
    out
}

#[cfg(test)]
#[path = "prefetch_tests.rs"]
mod tests;
