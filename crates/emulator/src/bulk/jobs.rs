//! Bulk jobs: the range a job covers once narrowed to the licence, how long it
//! runs on the emulator's clock, how it ends, and the files it lists.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use super::records::FileKey;
use super::signing::URL_LIFETIME_SECONDS;
use crate::hash::{combine, of_str, uuid};
use crate::world::FIRST_DAY;
use domain::month::Month;
use domain::timestamp::Micros;
use domain::vocabulary::Vertical;

const MICROS_PER_SECOND: Micros = 1_000_000;

/// The requested months narrowed to what the account may have: from its bulk
/// licence start (and the start of history) to the last complete month before
/// `now`. None if nothing is left.
pub(crate) fn effective_range(
    start: Month,
    end: Month,
    licence_start: Option<Month>,
    now: Micros,
) -> Option<(Month, Month)> {
    let first = start
        .max(Month::of(FIRST_DAY))
        .max(licence_start.unwrap_or(start));
    let last = end.min(Month::at(now).previous());
    (first <= last).then_some((first, last))
}

/// How long a job runs: 2 s, plus 0.5 s for every month requested.
pub(crate) fn running_time(requested_months: u32) -> Micros {
    2 * MICROS_PER_SECOND + i64::from(requested_months) * MICROS_PER_SECOND / 2
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobStatus {
    Running,
    Succeeded,
    Failed,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Running => "RUNNING",
            JobStatus::Succeeded => "SUCCEEDED",
            JobStatus::Failed => "FAILED",
        }
    }
}

/// A job as submitted.
pub struct JobRequest {
    pub owner: String,
    pub vertical: &'static Vertical,
    pub first: Month,
    pub last: Month,
    pub requested_months: u32,
    pub denied: BTreeSet<String>,
    /// The catalogue's size when submitted (`FileKey::curves`).
    pub curves: usize,
    pub submitted_at: Micros,
    /// Ends FAILED instead of SUCCEEDED.
    pub fails: bool,
    /// Lists files whose paths leave the destination (a fault for tests).
    pub malicious: bool,
}

pub struct Job {
    pub id: String,
    pub owner: String,
    pub vertical: &'static Vertical,
    pub first: Month,
    pub last: Month,
    denied: BTreeSet<String>,
    curves: usize,
    /// When it ends; whole seconds, so that URLs expire exactly an hour later.
    pub ready_at: Micros,
    fails: bool,
    malicious: bool,
    urls_expired: AtomicBool,
    building: AtomicBool,
    built: watch::Sender<Option<Built>>,
}

/// The sizes of a job's files, month by month, once they are built.
pub(crate) type Built = Result<Arc<[u64]>, String>;

/// One file a job lists: its URL name, its partition path and its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobFile {
    pub name: String,
    pub path: String,
    pub month: Month,
}

/// Paths of the malicious-paths fault: a client must not write outside its
/// destination directory, whatever the listing says.
const ESCAPING_PATHS: [(&str, &str); 2] = [
    ("escape-parent.parquet", "../../x"),
    ("escape-absolute.parquet", "/etc/x"),
];

impl Job {
    pub fn status(&self, now: Micros) -> JobStatus {
        match (now >= self.ready_at, self.fails) {
            (false, _) => JobStatus::Running,
            (true, false) => JobStatus::Succeeded,
            (true, true) => JobStatus::Failed,
        }
    }

    /// The content of the file of `month`.
    pub fn key(&self, month: Month) -> FileKey {
        FileKey {
            vertical: self.vertical.bulk_name,
            month,
            denied: self.denied.clone(),
            curves: self.curves,
        }
    }

    pub fn months(&self) -> impl Iterator<Item = Month> {
        Month::range(self.first, self.last)
    }

    /// Every file listed, in month order (then any escaping paths, which
    /// serve the first month's file).
    pub fn files(&self) -> Vec<JobFile> {
        let mut files: Vec<JobFile> = self
            .months()
            .map(|month| JobFile {
                name: format!(
                    "{}-{month}.parquet",
                    self.vertical.bulk_name.to_ascii_lowercase()
                ),
                path: format!(
                    "vertical={}/year={:04}/month={:02}",
                    self.vertical.name,
                    month.year(),
                    month.month()
                ),
                month,
            })
            .collect();
        if self.malicious {
            files.extend(ESCAPING_PATHS.iter().map(|(name, path)| JobFile {
                name: (*name).to_owned(),
                path: (*path).to_owned(),
                month: self.first,
            }));
        }
        files
    }

    pub fn file(&self, name: &str) -> Option<JobFile> {
        self.files().into_iter().find(|f| f.name == name)
    }

    /// When the job's URLs stop working (Unix seconds): an hour after it succeeded.
    pub fn urls_expire(&self) -> i64 {
        self.ready_at / MICROS_PER_SECOND + URL_LIFETIME_SECONDS
    }

    /// Whether the URLs were expired early, by [`Jobs::expire_urls`].
    pub fn urls_expired(&self) -> bool {
        self.urls_expired.load(Ordering::SeqCst)
    }

    /// True for the one caller that is to build the job's files.
    pub fn claim_build(&self) -> bool {
        !self.building.swap(true, Ordering::SeqCst)
    }

    pub fn set_built(&self, built: Built) {
        self.built.send_replace(Some(built));
    }

    /// The sizes of the files once built, waiting up to `patience` for them.
    pub async fn wait_built(&self, patience: Duration) -> Option<Built> {
        let mut built = self.built.subscribe();
        let waited = tokio::time::timeout(patience, built.wait_for(Option::is_some)).await;
        match waited {
            Ok(Ok(ready)) => ready.clone(),
            _ => None,
        }
    }
}

pub struct Jobs {
    seed: u64,
    submitted: AtomicU64,
    jobs: Mutex<HashMap<String, Arc<Job>>>,
}

impl Jobs {
    pub fn new(seed: u64) -> Jobs {
        Jobs {
            seed,
            submitted: AtomicU64::new(0),
            jobs: Mutex::default(),
        }
    }

    pub fn submit(&self, request: JobRequest) -> Arc<Job> {
        let n = self.submitted.fetch_add(1, Ordering::SeqCst);
        let done = request.submitted_at + running_time(request.requested_months);
        let job = Arc::new(Job {
            id: uuid(combine(&[self.seed, n, of_str("bulk-job")])),
            owner: request.owner,
            vertical: request.vertical,
            first: request.first,
            last: request.last,
            denied: request.denied,
            curves: request.curves,
            ready_at: (done + MICROS_PER_SECOND - 1).div_euclid(MICROS_PER_SECOND)
                * MICROS_PER_SECOND,
            fails: request.fails,
            malicious: request.malicious,
            urls_expired: AtomicBool::new(false),
            building: AtomicBool::new(false),
            built: watch::Sender::new(None),
        });
        let mut jobs = self.jobs.lock().expect("jobs lock");
        jobs.insert(job.id.clone(), Arc::clone(&job));
        job
    }

    /// A job of `owner`: another account's job is as unknown as a made-up id.
    pub fn get(&self, id: &str, owner: &str) -> Option<Arc<Job>> {
        let jobs = self.jobs.lock().expect("jobs lock");
        jobs.get(id).filter(|job| job.owner == owner).cloned()
    }

    /// A job of any account (downloads carry no account, only a signature).
    pub fn find(&self, id: &str) -> Option<Arc<Job>> {
        self.jobs.lock().expect("jobs lock").get(id).cloned()
    }

    /// Every URL issued so far (by jobs that have succeeded by `now`) expires.
    pub fn expire_urls(&self, now: Micros) {
        for job in self.jobs.lock().expect("jobs lock").values() {
            if job.ready_at <= now {
                job.urls_expired.store(true, Ordering::SeqCst);
            }
        }
    }
}

#[cfg(test)]
#[path = "jobs_tests.rs"]
mod tests;
