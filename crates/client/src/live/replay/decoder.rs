//! The one thread a lake's replay decodes its days on.
//!
//! Decoded on the runtime's blocking pool, each day ran on whichever of its
//! threads was free, and glibc gives each thread an arena of its own, which
//! keeps about the most it ever held: over a long replay more threads had
//! each held a day, and the replay's peak memory rose with its length
//! (`benches/replay.py`: a 100-day replay peaked 1.12 times as high as a
//! 10-day one). On one thread, the days reuse one arena.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use crate::storage::PlaceError;

type Job = Box<dyn FnOnce() + Send>;

pub struct Decoder {
    jobs: mpsc::Sender<Job>,
}

impl Decoder {
    /// Starts the thread; it ends when the decoder is dropped.
    pub fn start() -> Result<Decoder, PlaceError> {
        let (jobs, queued) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("marketcurves-replay".into())
            .spawn(move || {
                for job in queued {
                    // A job that panics answers nobody (its caller sees the
                    // answer dropped); the thread goes on for the next.
                    let _ = catch_unwind(AssertUnwindSafe(job));
                }
            })
            .map_err(|e| PlaceError(format!("cannot start a thread to decode the lake: {e}")))?;
        Ok(Decoder { jobs })
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
        self.jobs
            .send(job)
            .map_err(|_| PlaceError("the replay's decoding thread has stopped".into()))?;
        result
            .await
            .map_err(|_| PlaceError("decoding a day of the lake failed (an internal error)".into()))
    }
}
