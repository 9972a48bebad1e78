//! What a cache holds for one service and account, and removing it, from
//! one listing of its files (`files::Files::walk`), on a folder or a store.
//! In a store that accounts share, the history is the service's: clearing
//! it clears it for every account.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::NaiveDate;

use arrow_array::RecordBatch;

use super::days::slice_batches;
use super::files::{Files, Listed, Put};
use super::layout::{curve_dir, decode, segments, History, Segment};
use super::pack::{self, PackFile, TenorDays};
use super::prefetch::cached_days;
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

/// What one curve has of one kind of history: its tenors' folders by the
/// tenor's name, in order, and its packs (`pack`).
#[derive(Default)]
struct CurveFiles {
    tenors: BTreeMap<String, PathBuf>,
    packs: Vec<PackFile>,
}

/// The files of each curve with history of one kind, by the curve's id.
type Curves = BTreeMap<String, CurveFiles>;

fn curves(files: &Files, dirs: &Dirs, history: History) -> (Curves, Vec<Listed>) {
    let root = dirs.history.join(history.name());
    let listed = files.walk(&root);
    let mut found = Curves::new();
    for file in &listed {
        let Some(curve_id) = file.names.first().and_then(|c| decode(c)) else {
            continue;
        };
        match file.names.as_slice() {
            // A file in a curve's folder: a pack, if its name says so.
            [curve, name] => {
                if let Some(pack) = PackFile::from_name(&root.join(curve), name) {
                    found.entry(curve_id).or_default().packs.push(pack);
                }
            }
            [curve, tenor, _, ..] => {
                let Some(tenor_name) = decode(tenor) else {
                    continue;
                };
                let dir = root.join(curve).join(tenor);
                let curve = found.entry(curve_id).or_default();
                curve.tenors.insert(tenor_name, dir);
            }
            _ => {}
        }
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
        for (curve_id, curve) in found {
            // Each tenor's days once, whether a segment or a pack holds them.
            let held = cached_days(files, &dirs.history, history, &curve_id);
            let days = held
                .values()
                .flatten()
                .map(|(first, last)| (*last - *first).num_days() as u64 + 1)
                .sum();
            let runs = held.values().flatten();
            let (Some(first), Some(last)) = (
                runs.clone().map(|(first, _)| *first).min(),
                runs.map(|(_, last)| *last).max(),
            ) else {
                continue;
            };
            let root = dirs.history.join(history.name());
            let curve_files: Vec<&Listed> = listed
                .iter()
                .filter(|f| f.names.first().and_then(|c| decode(c)).as_ref() == Some(&curve_id))
                .filter(|f| is_held(&root, f, &curve))
                .collect();
            curves_found.push(CachedCurve {
                curve_id,
                history,
                tenors: held.len(),
                days,
                first,
                last,
                files: curve_files.len() as u64,
                bytes: curve_files.iter().map(|f| f.bytes).sum(),
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

/// Whether a listed file of a curve is one that holds its days: a
/// segment in a tenor's folder, or one of its packs.
fn is_held(root: &Path, file: &Listed, curve: &CurveFiles) -> bool {
    match file.names.as_slice() {
        [_, _] => curve.packs.iter().any(|p| p.path == file.path),
        [_, tenor, name] => {
            Segment::from_name(&root.join(&file.names[0]).join(tenor), name).is_some()
        }
        _ => false,
    }
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

/// Keeps the days from `before` on of a pack that starts earlier: a new
/// pack of each tenor's days from then (a pack that cannot be read is
/// only removed: the tenors' segments hold its days).
fn trim_pack(files: &Files, file: &PackFile, of: (History, &str), before: NaiveDate) {
    let bytes = files.read(&file.path);
    let Ok(pack) = pack::from_file(bytes, files.is_store(), file, of) else {
        return;
    };
    let kept: Vec<(TenorDays, Vec<RecordBatch>)> = pack
        .spans()
        .filter(|days| days.last >= before)
        .map(|days| {
            let first = days.first.max(before);
            let rows = pack.rows(&days.tenor).unwrap_or_default();
            let rows = slice_batches(&rows, of.0, first, days.last);
            let days = TenorDays {
                tenor: days.tenor.clone(),
                first,
                last: days.last,
            };
            (days, rows)
        })
        .collect();
    let spans: Vec<TenorDays> = kept.iter().map(|(d, _)| d.clone()).collect();
    let curve_dir = file.path.parent().expect("a pack is in a folder");
    let Some(trimmed) = PackFile::of(curve_dir, &spans) else {
        return;
    };
    if let Err(e) = pack::write(files, &trimmed, Put::Create, of, &kept) {
        let path = files.shown(&trimmed.path);
        log::warn!(target: "marketcurves.cache", "cannot write {path}: {e}");
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
        for (curve, curve_files) in found {
            if curve_id.is_some_and(|wanted| wanted != curve) {
                continue;
            }
            for pack in &curve_files.packs {
                match before {
                    Some(before) if pack.first >= before => continue,
                    Some(before) if pack.last >= before => {
                        trim_pack(files, pack, (history, &curve), before);
                    }
                    _ => {}
                }
                let bytes = size.get(pack.path.as_path()).copied().unwrap_or(0);
                remove(files, &pack.path, bytes, &mut cleared);
            }
            let tenors = curve_files.tenors;
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
            let curve_dir = curve_dir(&dirs.history, history, &curve);
            files.remove_empty_folder(&curve_dir);
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
