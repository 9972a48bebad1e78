//! Closing a `RestClient` from Python: the close signal ends every call and
//! live feed of the client, then `close()` waits for them to let go of it,
//! so that when it returns the connection pool is gone too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use history::RestClient;

/// How long `close()` waits for what it cut short to let go of the client:
/// calls end at once, a live feed within about a second (its close frame).
const RELEASE_WAIT: Duration = Duration::from_secs(10);
/// The holders are tasks that end on their own once the signal reaches them
/// and tell nobody, so their end is polled for.
const RELEASE_POLL: Duration = Duration::from_millis(5);

/// Closes `rest` and waits (at most [`RELEASE_WAIT`]) until nothing else
/// holds it; the last holder drops the connection pool.
pub(crate) async fn close_and_release(rest: Arc<RestClient>) {
    rest.close();
    let held = Arc::downgrade(&rest);
    drop(rest);
    let deadline = Instant::now() + RELEASE_WAIT;
    while held.strong_count() > 0 && Instant::now() < deadline {
        tokio::time::sleep(RELEASE_POLL).await;
    }
    if held.strong_count() > 0 {
        log::warn!(
            target: "marketcurves.http",
            "the client is closed, but some of its work had not ended after {} s",
            RELEASE_WAIT.as_secs()
        );
    }
}
