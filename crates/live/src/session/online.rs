//! One authenticated connection: resubscribe, then read frames, answer
//! requests, keep alive and merge backfills until the connection is lost or
//! the feed is closed.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use super::frames::BATCH;
use super::{Ended, Session};
use crate::connection::Socket;
use crate::inflight::Purpose;
use crate::keepalive::{Due, KeepAlive};
use crate::names::Row;
use crate::shared::Request;
use crate::wire::scrub;
use domain::live::Command;
use places::Secret;
/// How long a close frame may take to go out when closing.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// An authenticated connection.
pub(crate) struct Link {
    pub(super) socket: Socket,
    /// The token it authenticated with, kept to scrub it from server text.
    token: Secret,
    keep: Option<KeepAlive>,
    pub(super) close_reason: Option<String>,
    pub(super) undecodable_logged_at: Option<Instant>,
}

impl Link {
    pub(super) fn new(socket: Socket, token: Secret) -> Link {
        Link {
            socket,
            token,
            keep: None,
            close_reason: None,
            undecodable_logged_at: None,
        }
    }

    pub(super) fn keep(&mut self) -> &mut KeepAlive {
        self.keep.as_mut().expect("set when online")
    }

    /// Sends text frames, flushed together; a send that takes longer than
    /// `limit` (the service not reading) counts as a lost connection.
    pub(super) async fn send(&mut self, frames: &[String], limit: Duration) -> Result<(), String> {
        let socket = &mut self.socket;
        let sending = async {
            for frame in frames {
                socket.feed(Message::text(frame.as_str())).await?;
            }
            socket.flush().await
        };
        match tokio::time::timeout(limit, sending).await {
            Ok(Ok(())) => {
                if let Some(keep) = self.keep.as_mut() {
                    keep.last_sent = Instant::now();
                }
                Ok(())
            }
            Ok(Err(e)) => Err(format!("cannot send: {e}")),
            Err(_) => Err(format!("cannot send within {:.1} s", limit.as_secs_f64())),
        }
    }

    pub(super) fn scrub(&self, text: &str) -> String {
        scrub(text, Some(self.token.expose()))
    }
}

impl Session {
    pub(super) async fn online(&mut self, mut link: Link) -> Ended {
        let config = &self.config;
        link.keep = Some(KeepAlive::new(
            config.ping_interval,
            config.pong_timeout,
            Instant::now(),
        ));
        match self.resubscribe(&mut link).await {
            Ok(()) => {}
            Err(reason) => return Ended::Lost(reason),
        }
        let mut rows: Vec<Row> = Vec::with_capacity(BATCH);
        let timer = tokio::time::sleep_until(Instant::now().into());
        tokio::pin!(timer);
        loop {
            let step: Result<(), String> = tokio::select! {
                biased;
                () = self.stopping.feed.closed() => {
                    let frame = CloseFrame { code: CloseCode::Normal, reason: "".into() };
                    let _ = tokio::time::timeout(CLOSE_GRACE, link.socket.close(Some(frame))).await;
                    return Ended::Closing;
                }
                request = self.requests.recv() => match request {
                    Some(request) => self.online_request(&mut link, request).await,
                    None => return Ended::Closing,
                },
                Some(joined) = self.backfills.join_next(), if !self.backfills.is_empty() => {
                    self.gap_done(joined, &mut rows);
                    Ok(())
                }
                _ = &mut timer => self.on_timer(&mut link).await,
                message = link.socket.next() => self.read_batch(&mut link, message, &mut rows).await,
            };
            if !rows.is_empty() {
                // Published before the rows: a reader that finds the count
                // unchanged after taking them knows none follows a lost value.
                self.shared
                    .held_conflated
                    .store(self.book.conflated(), std::sync::atomic::Ordering::Relaxed);
                let pushed = self.shared.queue.push_rows(&mut rows);
                self.note_conflation(pushed.conflated);
                if pushed.woke {
                    // A reader's task woken from here waits on this worker
                    // until this task yields, and on a busy feed the socket
                    // always has a frame ready: let it run now, or it may
                    // wait for a whole budget of reads while the queue fills.
                    tokio::task::yield_now().await;
                }
            }
            if let Err(reason) = step {
                return Ended::Lost(reason);
            }
            // Deadlines mostly move later; the timer is moved only when it has
            // fired or something is due sooner, not after every batch.
            let deadline = self.deadline(&mut link);
            if timer.is_elapsed() || deadline < timer.deadline().into_std() {
                timer.as_mut().reset(deadline.into());
            }
        }
    }

    /// Subscribes again to everything recorded (callers waiting for a
    /// connection wait for theirs). Tenors delivered before (on an earlier
    /// connection, or by an earlier run: `LiveConfig::resume`) hold their
    /// values back until their gaps are backfilled.
    async fn resubscribe(&mut self, link: &mut Link) -> Result<(), String> {
        // The list and the requests already queued, under the registry's
        // lock (which a caller holds while it changes the registry and queues
        // its request): a subscription in the list has its caller's request
        // here, parked on it below, and one added since is sent when its
        // request is read. None is sent twice.
        let (subscriptions, queued) = {
            let registry = self.shared.registry();
            let mut queued = Vec::new();
            while let Ok(request) = self.requests.try_recv() {
                queued.push(request);
            }
            (registry.list(), queued)
        };
        for request in queued {
            self.offline(request);
        }
        self.book.cover(&subscriptions);
        let opened = if self.config.backfill {
            self.book.open_gaps()
        } else {
            0
        };
        self.gaps.opened(opened);
        let mut parked = std::mem::take(&mut self.parked);
        for subscription in subscriptions {
            let (mine, others): (Vec<_>, Vec<_>) =
                parked.into_iter().partition(|(s, _)| *s == subscription);
            parked = others;
            let replies = mine.into_iter().map(|(_, reply)| reply).collect();
            self.send_command(link, Purpose::Subscribe, subscription, replies, 0)
                .await?;
        }
        // Unsubscribed while waiting for the connection: nothing to do.
        for (_, reply) in parked {
            let _ = reply.send(Ok(()));
        }
        Ok(())
    }

    async fn online_request(&mut self, link: &mut Link, request: Request) -> Result<(), String> {
        let subscriptions = self.shared.subscriptions();
        self.book.cover(&subscriptions);
        match request {
            Request::Subscribe(subscription, reply) => {
                if !subscriptions.contains(&subscription) {
                    // Unsubscribed again before it was sent.
                    let _ = reply.send(Ok(()));
                    return Ok(());
                }
                if self.config.backfill {
                    // Resumed tenors it covers hold back their values from
                    // now on, until their backfill (started once it is
                    // confirmed) is in.
                    let opened = self.book.open_resumed_gaps(&subscription);
                    self.gaps.opened_more(opened);
                }
                let purpose = Purpose::Subscribe;
                self.send_command(link, purpose, subscription, vec![reply], 0)
                    .await
            }
            Request::Unsubscribe(subscription, reply) => {
                let purpose = Purpose::Unsubscribe;
                self.send_command(link, purpose, subscription, vec![reply], 0)
                    .await
            }
        }
    }

    /// The earliest instant something may be due.
    fn deadline(&self, link: &mut Link) -> Instant {
        let oldest = self.inflight.oldest();
        let keep = match link.keep().check(Instant::now(), oldest) {
            Due::Wait(at) => at,
            Due::Ping | Due::Dead(_) => Instant::now(),
        };
        [self.conflation_report_due(), self.gaps.grace_ends()]
            .into_iter()
            .flatten()
            .fold(keep, Instant::min)
    }

    async fn on_timer(&mut self, link: &mut Link) -> Result<(), String> {
        if self
            .conflation_report_due()
            .is_some_and(|at| at <= Instant::now())
        {
            self.report_conflation();
        }
        self.graces_ended();
        match link.keep().check(Instant::now(), self.inflight.oldest()) {
            Due::Wait(_) => Ok(()),
            Due::Dead(reason) => Err(reason),
            Due::Ping => {
                let marker = self.inflight.marker("keepalive");
                let frame = Command::ping(&marker).encode();
                link.keep().outstanding = Some((marker, Instant::now()));
                link.send(&[frame], self.config.pong_timeout).await
            }
        }
    }
}
