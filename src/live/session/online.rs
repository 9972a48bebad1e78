//! One authenticated connection: resubscribe, then read frames, answer
//! requests, keep alive and merge backfills until the connection is lost or
//! the feed is closed.
//!
//! Frames are read in batches: after one frame, those already received are
//! taken without waiting (up to [`BATCH`]), and their ticks go to the queue
//! under one lock.

use std::time::{Duration, Instant};

use futures_util::{FutureExt, SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use super::{closed, Ended, Session};
use crate::client::Secret;
use crate::domain::live::{Command, ServerMessage};
use crate::live::connection::{describe_close, Socket};
use crate::live::event::{FeedEvent, TARGET};
use crate::live::inflight::{Purpose, Refusal};
use crate::live::keepalive::{Due, KeepAlive};
use crate::live::shared::Request;
use crate::live::stats::Counters;
use crate::live::tick::Tick;
use crate::live::wire::{read_frame, scrub, Frame};

/// Frames read before their ticks are handed to the queue.
const BATCH: usize = 512;
/// How long a close frame may take to go out when closing.
const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// At most one `Conflated` event, and one undecodable-frame warning, per this.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// An authenticated connection.
pub(crate) struct Link {
    socket: Socket,
    /// The token it authenticated with, kept to scrub it from server text.
    token: Secret,
    keep: Option<KeepAlive>,
    close_reason: Option<String>,
    undecodable_logged_at: Option<Instant>,
}

impl Link {
    pub fn new(socket: Socket, token: Secret) -> Link {
        Link {
            socket,
            token,
            keep: None,
            close_reason: None,
            undecodable_logged_at: None,
        }
    }

    fn keep(&mut self) -> &mut KeepAlive {
        self.keep.as_mut().expect("set when online")
    }

    /// Sends text frames, flushed together; a send that takes longer than
    /// `limit` (the service not reading) counts as a lost connection.
    pub async fn send(&mut self, frames: &[String], limit: Duration) -> Result<(), String> {
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

    fn scrub(&self, text: &str) -> String {
        scrub(text, Some(self.token.expose()))
    }
}

impl Session {
    pub(super) async fn online(&mut self, mut link: Link, reconnect: bool) -> Ended {
        let config = &self.config;
        link.keep = Some(KeepAlive::new(
            config.ping_interval,
            config.pong_timeout,
            Instant::now(),
        ));
        match self.resubscribe(&mut link, reconnect).await {
            Ok(()) => {}
            Err(reason) => return Ended::Lost(reason),
        }
        let mut ticks: Vec<Tick> = Vec::with_capacity(BATCH);
        let timer = tokio::time::sleep_until(Instant::now().into());
        tokio::pin!(timer);
        loop {
            let step: Result<(), String> = tokio::select! {
                biased;
                _ = closed(&mut self.closing) => {
                    let frame = CloseFrame { code: CloseCode::Normal, reason: "".into() };
                    let _ = tokio::time::timeout(CLOSE_GRACE, link.socket.close(Some(frame))).await;
                    return Ended::Closing;
                }
                request = self.requests.recv() => match request {
                    Some(request) => self.online_request(&mut link, request).await,
                    None => return Ended::Closing,
                },
                Some(joined) = self.backfills.join_next(), if !self.backfills.is_empty() => {
                    self.gap_done(joined, &mut ticks);
                    Ok(())
                }
                _ = &mut timer => self.on_timer(&mut link).await,
                message = link.socket.next() => self.read_batch(&mut link, message, &mut ticks).await,
            };
            if !ticks.is_empty() {
                let conflated = self.shared.queue.push_ticks(&mut ticks);
                self.note_conflation(conflated);
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
    /// connection wait for theirs). After a reconnect, tenors delivered before
    /// hold their values back until their gaps are backfilled.
    async fn resubscribe(&mut self, link: &mut Link, reconnect: bool) -> Result<(), String> {
        let subscriptions = self.shared.subscriptions();
        self.book.cover(&subscriptions);
        let opened = if reconnect && self.config.backfill {
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
        let report = self.conflation_report_due();
        let keep = match link.keep().check(Instant::now(), oldest) {
            Due::Wait(at) => at,
            Due::Ping | Due::Dead(_) => Instant::now(),
        };
        report.map_or(keep, |at| at.min(keep))
    }

    async fn on_timer(&mut self, link: &mut Link) -> Result<(), String> {
        if self
            .conflation_report_due()
            .is_some_and(|at| at <= Instant::now())
        {
            self.report_conflation();
        }
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

    /// Handles `first` and the frames already received after it.
    async fn read_batch(
        &mut self,
        link: &mut Link,
        first: Option<Result<Message, WsError>>,
        ticks: &mut Vec<Tick>,
    ) -> Result<(), String> {
        let mut outcome = self.on_message(link, first, ticks).await;
        let mut frames: u64 = 1;
        while outcome.is_ok() && (frames as usize) < BATCH {
            let Some(next) = link.socket.next().now_or_never() else {
                break;
            };
            outcome = self.on_message(link, next, ticks).await;
            frames += 1;
        }
        let counters = &self.shared.counters;
        Counters::add(&counters.messages, frames);
        counters.set_last_message(Session::now_micros());
        link.keep().last_received = Instant::now();
        outcome
    }

    async fn on_message(
        &mut self,
        link: &mut Link,
        message: Option<Result<Message, WsError>>,
        ticks: &mut Vec<Tick>,
    ) -> Result<(), String> {
        match message {
            None => Err(link
                .close_reason
                .take()
                .unwrap_or_else(|| "the connection ended without a close frame (1006)".into())),
            Some(Err(error)) => Err(match link.close_reason.take() {
                Some(reason) => reason,
                None => format!("connection error: {}", link.scrub(&error.to_string())),
            }),
            Some(Ok(Message::Text(text))) => self.on_text(link, &text, ticks).await,
            Some(Ok(Message::Close(frame))) => {
                // The stream ends right after; the reason is reported then.
                link.close_reason = Some(describe_close(frame.as_ref()));
                Ok(())
            }
            Some(Ok(Message::Binary(_))) => {
                self.undecodable(link, "a binary frame");
                Ok(())
            }
            Some(Ok(_)) => Ok(()),
        }
    }

    async fn on_text(
        &mut self,
        link: &mut Link,
        text: &str,
        ticks: &mut Vec<Tick>,
    ) -> Result<(), String> {
        let message = match read_frame(text) {
            Ok(Frame::Price {
                curve_id,
                tenor,
                at,
                price,
            }) => {
                let arrival = self.book.on_price(&curve_id, &tenor, at, price, ticks);
                if arrival == crate::live::book::Arrival::Duplicate {
                    Counters::add(&self.shared.counters.duplicates_dropped, 1);
                }
                return Ok(());
            }
            Ok(Frame::Other(message)) => message,
            Err(error) => {
                let reason = link.scrub(&error.reason);
                self.undecodable(link, &reason);
                return Ok(());
            }
        };
        match message {
            ServerMessage::Pong(payload) => {
                let Some(marker) = payload.get("name").and_then(|n| n.as_str()) else {
                    return Ok(());
                };
                if link.keep().answered(marker) {
                    return Ok(());
                }
                for pending in self.inflight.answered(marker) {
                    self.resolve(link, pending).await?;
                }
                Ok(())
            }
            ServerMessage::Error { code, message } => {
                let message = link.scrub(&message);
                if code == "NOT_LOGGED" {
                    return Err(format!("NOT_LOGGED from the service: {message}"));
                }
                if let Err(refusal) = self.inflight.refuse(Refusal { code, message }) {
                    // Not the answer to a command: reported, and the feed goes on.
                    let text = if refusal.message.is_empty() {
                        refusal.code
                    } else {
                        format!("{}: {}", refusal.code, refusal.message)
                    };
                    self.events.emit(FeedEvent::Error {
                        message: format!("live feed error: {text}"),
                    });
                }
                Ok(())
            }
            ServerMessage::AuthSuccess | ServerMessage::AuthFailed | ServerMessage::Price(_) => {
                log::debug!(target: TARGET, "an unexpected auth answer was skipped");
                Ok(())
            }
        }
    }

    /// Counts a frame that is not a message of the interface; warns at most
    /// once a second.
    fn undecodable(&mut self, link: &mut Link, reason: &str) {
        let counters = &self.shared.counters;
        Counters::add(&counters.undecodable, 1);
        let due = link
            .undecodable_logged_at
            .is_none_or(|at| at.elapsed() >= REPORT_EVERY);
        if due {
            link.undecodable_logged_at = Some(Instant::now());
            log::warn!(
                target: TARGET,
                "skipped a frame that is not a message of the interface ({} so far): {reason}",
                counters.undecodable.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
    }

    /// The total conflated so far is `queue_total` (queue) plus what the
    /// book conflated; reports what is new, at most once a second.
    fn note_conflation(&mut self, queue_total: u64) {
        let held = self.book.conflated();
        self.shared
            .held_conflated
            .store(held, std::sync::atomic::Ordering::Relaxed);
        self.conflation_total = queue_total + held;
        if self.conflation_total > self.conflation_reported
            && self
                .conflation_report_due()
                .is_some_and(|at| at <= Instant::now())
        {
            self.report_conflation();
        }
    }

    fn conflation_report_due(&self) -> Option<Instant> {
        if self.conflation_total <= self.conflation_reported {
            return None;
        }
        Some(
            self.conflation_reported_at
                .map_or_else(Instant::now, |at| at + REPORT_EVERY),
        )
    }

    fn report_conflation(&mut self) {
        let count = self.conflation_total - self.conflation_reported;
        if count == 0 {
            return;
        }
        self.conflation_reported = self.conflation_total;
        self.conflation_reported_at = Some(Instant::now());
        self.events.emit(FeedEvent::Conflated { count });
    }
}
