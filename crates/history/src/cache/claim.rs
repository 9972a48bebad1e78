//! Claims on the days a writer of a shared cache is fetching, so that
//! clients racing on one range fetch each tenor's days once between them.
//!
//! Before it fetches a tenor's missing days, a client creates a small
//! object named after them (a conditional create, as segments are). The
//! one that creates it fetches and keeps the days, then removes it; the
//! others wait for it to go, read what the claimant kept, and fetch only
//! what is still missing. A claim says until when it holds ([`lifetime`]
//! after it was made): a claimant that died (SIGKILL) holds no one beyond
//! that, and a waiter never waits longer than [`lifetime`] from when it
//! first saw the claim, whatever the clocks say. A claim only saves
//! requests: losing one, or one outliving its claimant, costs duplicate
//! fetches, never wrong rows (the segments' own conditional create keeps
//! the cache whole). A folder cache takes none.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::NaiveDate;

use super::files::{Files, Put, Written};
use super::layout::{encode, History};

/// How long a claim holds by default: a settlements request, or a month of
/// intraday windows, ends well within it; one that does not only lets a
/// waiter fetch the days too.
pub(super) const DEFAULT_LIFETIME: Duration = Duration::from_secs(60);
/// The variable that sets how long a claim holds, in seconds: a desk whose
/// service answers fast may wait less on a claimant that died.
pub(super) const LIFETIME_VARIABLE: &str = "MARKETCURVES_CLAIM_TTL";

/// How long a claim holds: `MARKETCURVES_CLAIM_TTL` seconds (read at each
/// use, so a test may shorten it), else [`DEFAULT_LIFETIME`].
pub(super) fn lifetime() -> Duration {
    std::env::var(LIFETIME_VARIABLE)
        .ok()
        .and_then(|value| value.trim().parse::<u64>().ok())
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_LIFETIME)
}
/// The first pause between two looks at a claim; it doubles up to
/// [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(20);
const LONGEST_PAUSE: Duration = Duration::from_millis(250);

/// Where the claim on `first..=last` of a tenor lives: one flat folder
/// beside the history, not among the segments, so that listings of a
/// curve never see it. Two tenors whose names join alike would share a
/// claim: a bounded wait, never a wrong row.
pub(super) fn claim_path(
    service: &Path,
    history: History,
    curve_id: &str,
    tenor: &str,
    (first, last): (NaiveDate, NaiveDate),
) -> PathBuf {
    service.join("claims").join(format!(
        "{}_{}_{}_{first}_{last}",
        history.name(),
        encode(curve_id),
        encode(tenor)
    ))
}

/// What trying to claim found.
pub(super) enum Taken {
    /// The days are this client's to fetch; release the claim after.
    Mine(Claim),
    /// Another holds them (or days among them), by the claim at `path`,
    /// until the time it says (if it says).
    Held {
        path: PathBuf,
        until: Option<SystemTime>,
    },
    /// The store did not answer: fetch without a claim, as before claims.
    Unanswered,
}

/// A claim this client holds.
pub(super) struct Claim {
    files: Files,
    path: PathBuf,
}

/// Tries to claim the days at `path`.
pub(super) fn take(files: &Files, path: &Path) -> Taken {
    let until = SystemTime::now() + lifetime();
    let millis = until
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let written = files.write(path, Put::Create, |out: &mut (dyn Write + Send)| {
        write!(out, "{millis}")
    });
    match written {
        Ok(Written::Whole) => {
            let claim = Claim {
                files: files.clone(),
                path: path.to_owned(),
            };
            match older_overlapping(files, path) {
                // Another's claim on some of these days came first: this
                // one goes, and its holder fetches them.
                Some(other) => {
                    claim.release();
                    Taken::Held {
                        until: held_until(files, &other),
                        path: other,
                    }
                }
                None => Taken::Mine(claim),
            }
        }
        Ok(Written::Lost) => Taken::Held {
            until: held_until(files, path),
            path: path.to_owned(),
        },
        Err(why) => {
            log::debug!(
                target: "marketcurves.cache",
                "cannot claim {} ({why}); its days are fetched unclaimed",
                files.shown(path)
            );
            Taken::Unanswered
        }
    }
}

/// A claim's tenor (all of its name but its days) and days, from its name.
fn parts(name: &str) -> Option<(&str, NaiveDate, NaiveDate)> {
    let mut parts = name.rsplitn(3, '_');
    let last = parts.next()?.parse().ok()?;
    let first = parts.next()?.parse().ok()?;
    Some((parts.next()?, first, last))
}

/// The claim of the same tenor whose days overlap those of the claim at
/// `path` (just made) and that came before it: made earlier, or, made
/// within the store's clock's precision, first by name. Two clients
/// claiming unequal but overlapping days at once both see both claims, and
/// agree on which stands. From one listing of the claims' folder (which
/// holds only the claims in force); None if it cannot be listed.
fn older_overlapping(files: &Files, path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let name = path.file_name()?.to_str()?;
    let (tenor, first, last) = parts(name)?;
    let listed = files.list(dir);
    let written = |wanted: &str| {
        listed
            .iter()
            .find(|l| l.file_name() == wanted)
            .map(|l| l.written)
    };
    // Not listed yet: taken as the newest, so it gives way to any other.
    let newest = SystemTime::now() + Duration::from_secs(86_400);
    let mine = written(name).unwrap_or(newest);
    listed
        .iter()
        .filter(|other| other.file_name() != name)
        .filter(|other| {
            parts(other.file_name()).is_some_and(|(t, f, l)| t == tenor && f <= last && l >= first)
        })
        .filter(|other| (other.written, other.file_name()) < (mine, name))
        .min_by(|a, b| (a.written, a.file_name()).cmp(&(b.written, b.file_name())))
        .map(|other| dir.join(other.file_name()))
}

/// Until when the claim at `path` holds, as it says; None when it is gone
/// or says nothing readable.
fn held_until(files: &Files, path: &Path) -> Option<SystemTime> {
    let bytes = files.read(path).ok()??;
    let millis: u64 = std::str::from_utf8(&bytes).ok()?.trim().parse().ok()?;
    Some(UNIX_EPOCH + Duration::from_millis(millis))
}

/// Waits, on a blocking thread, until the claim at `path` is gone or no
/// longer holds: at most [`lifetime`], however far its own time says.
/// A claim that outlived its time is removed, so that the next writer may
/// claim the days anew. The waiter gives up sooner at `give_up` (its
/// call's one deadline for every claim it meets), leaving the claim to its
/// holder. True when the claim went of itself.
pub(super) fn wait_gone(
    files: &Files,
    path: &Path,
    until: Option<SystemTime>,
    give_up: SystemTime,
) -> bool {
    let now = SystemTime::now();
    let longest = now + lifetime();
    let deadline = until.map_or(longest, |t| t.min(longest));
    let mut pause = FIRST_PAUSE;
    loop {
        match files.read(path) {
            Ok(None) => return true,
            Ok(Some(_)) => {}
            // A store that does not answer: wait no more, fetch.
            Err(_) => return false,
        }
        let now = SystemTime::now();
        if now >= deadline {
            log::debug!(
                target: "marketcurves.cache",
                "the claim {} outlived its time; removed",
                files.shown(path)
            );
            let _ = files.delete(path);
            return false;
        }
        if now >= give_up {
            return false;
        }
        let left = deadline
            .min(give_up)
            .duration_since(now)
            .unwrap_or_default();
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

impl Claim {
    /// Removes the claim: the days are kept, or will not be by this client.
    pub(super) fn release(self) {
        if let Err(why) = self.files.delete(&self.path) {
            log::debug!(
                target: "marketcurves.cache",
                "cannot remove the claim {} ({why}); it ends with its time",
                self.files.shown(&self.path)
            );
        }
    }
}

#[cfg(test)]
#[path = "claim_tests.rs"]
mod tests;
