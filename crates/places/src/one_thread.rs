//! Work run on one thread of its own, rather than on the runtime's blocking
//! pool.
//!
//! On the pool, each piece of work runs on whichever thread is free, and
//! glibc gives each thread an arena of its own, which keeps about the most
//! it ever held: the more threads had held a day of a replay or a day's file
//! of a backfill, the more memory the process kept, so that it rose with the
//! length of the work (`benches/replay.py`: a 100-day replay peaked 1.12
//! times as high as a 10-day one; `benches/backfill.py`: a worker's 120 days
//! 1.12 times its 30). On one thread, the pieces reuse one arena.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use crate::place_error::{Operation, PlaceError};

type Job = Box<dyn FnOnce() + Send>;

pub struct OneThread {
    jobs: mpsc::Sender<Job>,
    what: &'static str,
}

impl OneThread {
    /// Starts the thread (named `name`, for `what` in messages); it ends
    /// when this is dropped.
    pub fn start(name: &str, what: &'static str) -> Result<OneThread, PlaceError> {
        let (jobs, queued) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                for job in queued {
                    // A job that panics answers nobody (its caller sees the
                    // answer dropped); the thread goes on for the next.
                    let _ = catch_unwind(AssertUnwindSafe(job));
                }
            })
            .map_err(|e| PlaceError::new("", Operation::StartThread(what), e))?;
        Ok(OneThread { jobs, what })
    }

    /// Runs `work` on the thread and waits for its result.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PlaceError> {
        let (done, result) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(work());
        });
        let what = self.what;
        self.jobs
            .send(job)
            .map_err(|_| PlaceError::new("", Operation::ThreadStopped(what), "stopped"))?;
        result
            .await
            .map_err(|_| PlaceError::new("", Operation::ThreadFailed(what), "no answer"))
    }
}

#[cfg(test)]
#[path = "one_thread_tests.rs"]
mod tests;
