//! Closing a client: one signal that every call of the client races, so that
//! `close()` ends what is in flight at once and refuses what comes after,
//! before anything is sent.

use std::future::Future;

use tokio_util::sync::CancellationToken;

use crate::error::ClientError;

/// The close signal of a client, shared by everything working for it.
#[derive(Clone, Debug, Default)]
pub struct Closing(CancellationToken);

impl Closing {
    /// Closes: every guarded call ends with [`ClientError::ClientClosed`].
    /// Idempotent.
    pub fn close(&self) {
        self.0.cancel();
    }

    pub fn is_closed(&self) -> bool {
        self.0.is_cancelled()
    }

    /// Resolves once closed (at once if already).
    pub async fn closed(&self) {
        self.0.cancelled().await;
    }

    /// A signal closed with this one, and also closable on its own: what a
    /// live feed stops on, so that closing the client stops its feeds.
    pub fn child(&self) -> Closing {
        Closing(self.0.child_token())
    }

    /// Runs `work` unless or until the client is closed. `work` is not polled
    /// at all on a closed client, so nothing is sent; when the client closes
    /// meanwhile, `work` is dropped where it stands (its requests cancelled,
    /// its connections released).
    pub async fn guard<T>(
        &self,
        work: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, ClientError> {
        tokio::select! {
            // Checked first, so a closed client never starts the work.
            biased;
            () = self.0.cancelled() => Err(ClientError::ClientClosed),
            result = work => result,
        }
    }
}

#[cfg(test)]
#[path = "closing_tests.rs"]
mod tests;
