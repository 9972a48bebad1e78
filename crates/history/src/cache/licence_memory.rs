//! What one machine remembers of an account's licence: for each curve it
//! asked about, whether the service let the account read it, and when it
//! said so. Remembered for a bounded time (`ttl`, 12 hours unless
//! `MARKETCURVES_LICENCE_TTL` says otherwise), so that a licence the
//! service withdraws is honoured by the shared cache within that time,
//! while a session (or the next one) does not ask again for every call.
//!
//! One small file per account, in the user's cache folder
//! (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS,
//! `%LOCALAPPDATA%` on Windows) under `marketcurves/licences/`, named by a
//! digest of the base URL and the account (never the token, never the
//! account's name), and private to its owner (`0600` in a `0700` folder,
//! as every file the package writes). A file that cannot be read or
//! written is as good as none: the client then asks the service once per
//! session. Two processes writing at once may lose one's line (each
//! replaces the file whole): the loser asks again next time, nothing more.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use places::digest::digest;
use places::storage::whole_file::{write_bytes, Durability};

/// The variable that sets how long an answer is remembered, in seconds.
pub(super) const TTL_VARIABLE: &str = "MARKETCURVES_LICENCE_TTL";
/// Twelve hours: a token's lifetime, a working day of a desk.
pub(super) const DEFAULT_TTL: Duration = Duration::from_secs(12 * 3600);

const VERSION: u32 = 1;

/// How long an answer of the service is trusted: `MARKETCURVES_LICENCE_TTL`
/// seconds (read at each use, so a test may shorten it), else 12 hours.
pub(super) fn ttl() -> Duration {
    std::env::var(TTL_VARIABLE)
        .ok()
        .and_then(|value| value.trim().parse::<u64>().ok())
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_TTL)
}

/// The service's answer about one curve, and when it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Answer {
    /// Whether the account may read the curve.
    pub licensed: bool,
    /// When, in seconds since the Unix epoch.
    pub at: u64,
}

impl Answer {
    pub(super) fn now(licensed: bool) -> Answer {
        Answer {
            licensed,
            at: unix_now(),
        }
    }

    /// Whether the answer is still trusted, `ttl` after it was given (one
    /// from the future, a clock set back, is not).
    pub(super) fn fresh(&self, ttl: Duration) -> bool {
        let now = unix_now();
        self.at <= now && now - self.at < ttl.as_secs()
    }
}

#[derive(Default, Serialize, Deserialize)]
struct Remembered {
    version: u32,
    curves: BTreeMap<String, Answer>,
}

/// One account's file on this machine (none if the user has no cache
/// folder).
#[derive(Debug)]
pub(super) struct Memory {
    path: Option<PathBuf>,
}

impl Memory {
    pub(super) fn of(base_url: &str, account: &str) -> Memory {
        let name = format!("{}.json", &digest(&format!("{base_url}\n{account}"))[..16]);
        Memory {
            path: user_cache_folder()
                .map(|dir| dir.join("marketcurves").join("licences").join(name)),
        }
    }

    #[cfg(test)]
    pub(super) fn at(path: PathBuf) -> Memory {
        Memory { path: Some(path) }
    }

    /// The answer remembered for `curve_id`, fresh or not.
    pub(super) fn get(&self, curve_id: &str) -> Option<Answer> {
        self.read().curves.get(curve_id).copied()
    }

    /// Remembers `answer` for `curve_id`, forgetting the stale answers.
    pub(super) fn put(&self, curve_id: &str, answer: Answer) {
        let Some(path) = &self.path else { return };
        let mut remembered = self.read();
        let ttl = ttl();
        remembered.curves.retain(|_, kept| kept.fresh(ttl));
        remembered.curves.insert(curve_id.to_owned(), answer);
        remembered.version = VERSION;
        let written = serde_json::to_vec(&remembered)
            .map_err(std::io::Error::other)
            .and_then(|bytes| write_bytes(path, Durability::Renamed, &bytes));
        if let Err(e) = written {
            log::debug!(target: "marketcurves.cache", "cannot remember a licence in {path:?}: {e}");
        }
    }

    fn read(&self) -> Remembered {
        let Some(path) = &self.path else {
            return Remembered::default();
        };
        std::fs::read(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Remembered>(&bytes).ok())
            .filter(|r| r.version == VERSION)
            .unwrap_or_default()
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The user's cache folder, as each platform names it.
fn user_cache_folder() -> Option<PathBuf> {
    let variable = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if cfg!(windows) {
        return variable("LOCALAPPDATA");
    }
    if cfg!(target_os = "macos") {
        return variable("HOME").map(|home| home.join("Library").join("Caches"));
    }
    variable("XDG_CACHE_HOME").or_else(|| variable("HOME").map(|home| home.join(".cache")))
}

#[cfg(test)]
#[path = "licence_memory_tests.rs"]
mod tests;
