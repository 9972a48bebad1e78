//! What a cache holds for one service and account, and removing it, from
//! one listing of its files (`files::Files::walk`), on a folder or a store.
//! In a store that accounts share, the history is the service's: clearing
//! it clears it for every account.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::NaiveDate;

use super::days::slice_batches;
use super::files::{Files, Listed, Put};
use super::layout::{decode, segments, History, Segment};
use super::{segment, Dirs};
use places::storage::whole_file::is_temporary;

/// The cached days of one curve's history of one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct CachedCurve {
    pub curve_id: String,
    pub history: History,
    pub tenors: usize,
    /// Tenor-days held (a day of one tenor counts once, however many
    /// files hold it while a merge is under way).
    pub days: u64,
    pub first: NaiveDate,
    pub last: NaiveDate,
    pub files: u64,
    pub bytes: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CacheInfo {
    /// The folder of this service and account (a store's: the URL of the
    /// service's history).
    pub dir: PathBuf,
    /// Every file in it, the catalogue's included.
    pub files: u64,
    pub bytes: u64,
    pub curves: Vec<CachedCurve>,
}

/// What clearing removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    pub files: u64,
    pub bytes: u64,
}

/// The tenors' folders of each curve with history of one kind, by the
/// curve's id and the tenor's name, in order.
type Curves = BTreeMap<String, BTreeMap<String, PathBuf>>;

fn curves(files: &Files, dirs: &Dirs, history: History) -> (Curves, Vec<Listed>) {
    let root = dirs.history.join(history.name());
    let listed = files.walk(&root);
    let mut found = Curves::new();
    for file in &listed {
        let [curve, tenor, ..] = file.names.as_slice() else {
            continue;
        };
        let (Some(curve_id), Some(tenor_name)) = (decode(curve), decode(tenor)) else {
            continue;
        };
        let dir = root.join(curve).join(tenor);
        found.entry(curve_id).or_default().insert(tenor_name, dir);
    }
    (found, listed)
}

fn sizes(listed: &[Listed]) -> BTreeMap<&Path, u64> {
    listed.iter().map(|f| (f.path.as_path(), f.bytes)).collect()
}

/// Every file of the service and account, the catalogues' included.
fn every_file(dirs: &Dirs) -> Vec<Listed> {
    let mut all = dirs.files.walk(&dirs.account);
    if dirs.history != dirs.account {
        all.extend(dirs.files.walk(&dirs.history));
    }
    all
}

pub fn info(dirs: &Dirs) -> CacheInfo {
    let files = &dirs.files;
    let all = every_file(dirs);
    let mut curves_found = Vec::new();
    for history in History::ALL {
        let (found, listed) = curves(files, dirs, history);
        let size = sizes(&listed);
        for (curve_id, tenors) in found {
            let by_tenor: Vec<Vec<Segment>> =
                tenors.values().map(|dir| segments(files, dir)).collect();
            let days = by_tenor.iter().map(|s| days_held(s)).sum();
            let segments: Vec<Segment> = by_tenor.into_iter().flatten().collect();
            let (Some(first), Some(last)) = (
                segments.iter().map(|s| s.first).min(),
                segments.iter().map(|s| s.last).max(),
            ) else {
                continue;
            };
            curves_found.push(CachedCurve {
                curve_id,
                history,
                tenors: tenors.len(),
                days,
                first,
                last,
                files: segments.len() as u64,
                bytes: segments
                    .iter()
                    .map(|s| size.get(s.path.as_path()).copied().unwrap_or(0))
                    .sum(),
            });
        }
    }
    let dir = match files {
        Files::Folder => dirs.history.clone(),
        Files::Store(_) => PathBuf::from(files.shown(&dirs.history)),
    };
    CacheInfo {
        dir,
        files: all.len() as u64,
        bytes: all.iter().map(|f| f.bytes).sum(),
        curves: curves_found,
    }
}

/// The days a tenor's segments cover, each once: two segments may overlap
/// for a moment (a merge writes the new one before removing the old).
fn days_held(segments: &[Segment]) -> u64 {
    let mut runs: Vec<(NaiveDate, NaiveDate)> =
        segments.iter().map(|s| (s.first, s.last)).collect();
    runs.sort_unstable();
    let mut days = 0;
    let mut counted_through: Option<NaiveDate> = None;
    for (first, last) in runs {
        let from = match counted_through {
            Some(through) if through >= last => continue,
            Some(through) if through >= first => through.succ_opt().unwrap_or(last),
            _ => first,
        };
        days += (last - from).num_days() as u64 + 1;
        counted_through = Some(last);
    }
    days
}

fn remove(files: &Files, path: &Path, bytes: u64, cleared: &mut Cleared) {
    if files.delete(path).is_ok() {
        cleared.files += 1;
        cleared.bytes += bytes;
    }
}

/// Temporary files left by a writer that died, an hour old or more (a
/// folder's: a store's writes leave none).
fn remove_stale_temporaries(dirs: &Dirs, cleared: &mut Cleared) {
    if dirs.files.is_store() {
        return;
    }
    let stale = SystemTime::now() - Duration::from_secs(3600);
    for file in every_file(dirs) {
        if is_temporary(file.file_name()) && file.written < stale {
            remove(&dirs.files, &file.path, file.bytes, cleared);
        }
    }
}

/// Keeps the days from `before` on of a segment that starts earlier.
fn trim(files: &Files, segment: &Segment, of: (History, &str, &str), before: NaiveDate) {
    let (history, curve_id, tenor) = of;
    let kept = Segment::in_dir(
        segment.path.parent().expect("a segment is in a folder"),
        before,
        segment.last,
    );
    if let Ok(batches) = segment::read(files, segment, history, curve_id, tenor) {
        let rows = slice_batches(&batches, history, before, segment.last);
        if let Err(e) = segment::write(files, &kept, Put::Create, of, &rows) {
            let path = files.shown(&kept.path);
            log::warn!(target: "marketcurves.cache", "cannot write {path}: {e}");
        }
    }
}

/// Removes the cached history of `curve_id` (every curve if None), of the
/// days before `before` (every day if None); clearing everything removes
/// the cached catalogues too.
pub fn clear(dirs: &Dirs, curve_id: Option<&str>, before: Option<NaiveDate>) -> Cleared {
    let files = &dirs.files;
    let mut cleared = Cleared::default();
    for history in History::ALL {
        let (found, listed) = curves(files, dirs, history);
        let size = sizes(&listed);
        for (curve, tenors) in found {
            if curve_id.is_some_and(|wanted| wanted != curve) {
                continue;
            }
            for (tenor, tenor_dir) in &tenors {
                for segment in segments(files, tenor_dir) {
                    match before {
                        Some(before) if segment.first >= before => continue,
                        Some(before) if segment.last >= before => {
                            trim(files, &segment, (history, &curve, tenor), before);
                        }
                        _ => {}
                    }
                    let bytes = size.get(segment.path.as_path()).copied().unwrap_or(0);
                    remove(files, &segment.path, bytes, &mut cleared);
                }
                files.remove_empty_folder(tenor_dir);
            }
            if let Some(curve_dir) = tenors.values().next().and_then(|d| d.parent()) {
                files.remove_empty_folder(curve_dir);
            }
        }
    }
    if curve_id.is_none() && before.is_none() {
        for file in files.walk(&dirs.account.join("catalogue")) {
            remove(files, &file.path, file.bytes, &mut cleared);
        }
    }
    remove_stale_temporaries(dirs, &mut cleared);
    cleared
}

#[cfg(test)]
#[path = "info_tests.rs"]
mod tests;
