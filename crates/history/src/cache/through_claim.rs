//! Just before a tenor's missing days are fetched from a shared cache's
//! service: look again (another writer may have kept them since the call
//! made its plan), and claim what is still missing (`claim`), so that
//! clients racing on one range send, together, about the requests one
//! would. A folder cache is not looked at again and takes no claim.

use std::path::Path;
use std::time::SystemTime;

use chrono::NaiveDate;

use super::claim::{self, claim_path, Claim, Taken};
use super::finality::last_final_day;
use super::through::{read_cached, Call, RunRows, Through};
use domain::tenor::Tenor;
use places::ClientError;

/// How many times a client waits on others' claims of a tenor's days
/// before it fetches them unclaimed. All the waits of a call, whatever
/// its tenors, end by its one deadline (`Call::claims_until`, one
/// `claim::lifetime` after it began): a call of many tenors never waits
/// a lifetime per tenor.
const ROUNDS: usize = 3;

impl Through<'_> {
    /// The tenor's runs as they stand just before its fetch, and the claim
    /// this client holds on what is left to fetch (none when nothing is,
    /// when nothing fetched would be kept, or when the store did not let
    /// it claim).
    pub(super) async fn before_fetch(
        &self,
        call: &Call<'_>,
        tenor: &Tenor,
        dir: &Path,
        mut runs: Vec<RunRows>,
    ) -> Result<(Vec<RunRows>, Option<Claim>), ClientError> {
        let files = &self.dirs.files;
        let now = self.service.http().service_clock().now();
        let last_final = last_final_day(now, call.history.margin());
        for _ in 0..ROUNDS {
            let Some(span) = missing_span(&runs) else {
                return Ok((runs, None));
            };
            // The call waited all it may on claims: fetch unclaimed.
            if SystemTime::now() >= call.claims_until {
                return Ok((runs, None));
            }
            // Days none of which would be kept: a claim would only delay.
            if span.0 > last_final {
                return Ok((runs, None));
            }
            let path = claim_path(
                &self.dirs.history,
                call.history,
                call.curve_id,
                tenor.name(),
                span,
            );
            let taken = {
                let (files, path) = (files.clone(), path.clone());
                blocking(move || claim::take(&files, &path)).await?
            };
            match taken {
                Taken::Mine(claim) => {
                    // Claimed: what another kept before it is read, not fetched.
                    let runs = self.reread(call, tenor, dir).await?;
                    if missing_span(&runs).is_none() {
                        blocking(move || claim.release()).await?;
                        return Ok((runs, None));
                    }
                    return Ok((runs, Some(claim)));
                }
                Taken::Held { path, until } => {
                    let (files, give_up) = (files.clone(), call.claims_until);
                    blocking(move || claim::wait_gone(&files, &path, until, give_up)).await?;
                    runs = self.reread(call, tenor, dir).await?;
                }
                Taken::Unanswered => return Ok((runs, None)),
            }
        }
        Ok((runs, None))
    }

    /// The tenor's runs from a fresh listing of its files.
    async fn reread(
        &self,
        call: &Call<'_>,
        tenor: &Tenor,
        dir: &Path,
    ) -> Result<Vec<RunRows>, ClientError> {
        read_cached(&self.dirs.files, call, tenor.name(), dir, None).await
    }
}

/// Releases a claim once the days are kept (or will not be).
pub(super) async fn release(claim: Option<Claim>) -> Result<(), ClientError> {
    match claim {
        Some(claim) => blocking(move || claim.release()).await,
        None => Ok(()),
    }
}

/// The first and last of the days still missing, if any.
fn missing_span(runs: &[RunRows]) -> Option<(NaiveDate, NaiveDate)> {
    let mut missing = runs.iter().filter_map(|run| match run {
        RunRows::Missing { first, last } => Some((*first, *last)),
        RunRows::Have { .. } => None,
    });
    let (first, mut last) = missing.next()?;
    for (_, l) in missing {
        last = l;
    }
    Some((first, last))
}

/// A store's requests, on a blocking thread of the runtime.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ClientError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ClientError::internal("claiming days in the cache", e))
}
