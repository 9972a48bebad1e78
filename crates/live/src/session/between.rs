//! Between connections: waiting before the next attempt while answering
//! the handle, handing commands cut off by a lost connection to the next
//! one, and the end of the session.

use std::time::Duration;

use super::Session;
use crate::event::{FeedEvent, TARGET};
use crate::inflight::Purpose;
use crate::shared::Request;
use places::ClientError;

impl Session {
    /// Waits before the next attempt, answering requests; false if closing.
    pub(super) async fn idle(&mut self, wait: Duration) -> bool {
        let sleep = tokio::time::sleep(wait);
        tokio::pin!(sleep);
        loop {
            tokio::select! {
                biased;
                () = self.stopping.feed.closed() => return false,
                request = self.requests.recv() => match request {
                    Some(request) => self.offline(request),
                    None => return false,
                },
                _ = &mut sleep => return true,
            }
        }
    }

    /// A request while not connected: a subscribe waits for the connection
    /// (it is sent with the resubscriptions); an unsubscribe is done, as the
    /// next connection starts without it.
    pub(super) fn offline(&mut self, request: Request) {
        match request {
            Request::Subscribe(subscription, reply) => {
                if self.shared.registry().contains(&subscription) {
                    self.parked.push((subscription, reply));
                } else {
                    let _ = reply.send(Ok(()));
                }
            }
            Request::Unsubscribe(_, reply) => {
                let _ = reply.send(Ok(()));
            }
        }
    }

    /// After a connection: commands waiting for an answer wait for the next
    /// one (subscribes) or are done (unsubscribes); gaps start again.
    pub(super) fn connection_lost(&mut self) {
        for pending in self.inflight.take_all() {
            match pending.purpose {
                Purpose::Subscribe => {
                    let subscription = pending.subscription;
                    for reply in pending.replies {
                        self.parked.push((subscription.clone(), reply));
                    }
                }
                Purpose::Unsubscribe => {
                    for reply in pending.replies {
                        let _ = reply.send(Ok(()));
                    }
                }
            }
        }
        self.backfills.abort_all();
        self.book.connection_lost();
        self.gaps.connection_lost();
    }

    /// The end: waiting callers get the fatal error (or `Closed`), the
    /// consumer gets the fatal error once, then `Closed`.
    pub(super) async fn finish(mut self, fatal: Option<ClientError>) {
        if let Some(fatal) = &fatal {
            self.shared.set_stopped_by(fatal);
        }
        // Waiting calls, and later ones, get the error that ended the feed.
        let error = || {
            self.shared
                .stopped_by()
                .unwrap_or_else(crate::shared::feed_closed)
        };
        self.requests.close();
        while let Ok(request) = self.requests.try_recv() {
            let (Request::Subscribe(_, reply) | Request::Unsubscribe(_, reply)) = request;
            let _ = reply.send(Err(error()));
        }
        for (_, reply) in self.parked.drain(..) {
            let _ = reply.send(Err(error()));
        }
        self.backfills.shutdown().await;
        if let Some(fatal) = fatal {
            // A closed client is the caller's doing: no error event, only the end.
            if matches!(fatal, ClientError::ClientClosed) {
                log::info!(target: TARGET, "live feed stopping: {fatal}");
            } else {
                self.events.emit(FeedEvent::Error {
                    message: fatal.to_string(),
                });
            }
            self.shared.queue.push_error(fatal);
        }
        self.shared
            .closed
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.shared.queue.close();
        log::info!(target: TARGET, "live feed stopped");
    }
}
