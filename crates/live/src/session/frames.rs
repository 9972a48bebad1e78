//! Frames from the service: read in batches (after one frame, those already
//! received are taken without waiting, up to [`BATCH`], and their rows go to
//! the queue under one lock), prices into the book, pongs and errors to the
//! commands waiting for them.

use std::time::Instant;

use futures_util::{FutureExt, StreamExt};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use super::online::Link;
use super::Session;
use crate::book::Arrival;
use crate::connection::describe_close;
use crate::event::{FeedEvent, TARGET};
use crate::inflight::Refusal;
use crate::names::Row;
use crate::stats::Counters;
use crate::wire::{read_frame, Frame};
use domain::live::ServerMessage;

/// Frames read before their rows are handed to the queue.
pub(super) const BATCH: usize = 512;

impl Session {
    /// Handles `first` and the frames already received after it.
    pub(super) async fn read_batch(
        &mut self,
        link: &mut Link,
        first: Option<Result<Message, WsError>>,
        rows: &mut Vec<Row>,
    ) -> Result<(), String> {
        let mut outcome = self.on_message(link, first, rows).await;
        let mut frames: u64 = 1;
        while outcome.is_ok() && (frames as usize) < BATCH {
            let Some(next) = link.socket.next().now_or_never() else {
                break;
            };
            outcome = self.on_message(link, next, rows).await;
            frames += 1;
        }
        let counters = &self.shared.counters;
        Counters::add(&counters.messages, frames);
        counters.set_last_message(Session::now_micros());
        link.keep().last_received = Instant::now();
        self.start_decided_gaps();
        outcome
    }

    async fn on_message(
        &mut self,
        link: &mut Link,
        message: Option<Result<Message, WsError>>,
        rows: &mut Vec<Row>,
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
            Some(Ok(Message::Text(text))) => self.on_text(link, &text, rows).await,
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
        rows: &mut Vec<Row>,
    ) -> Result<(), String> {
        let message = match read_frame(text) {
            Ok(Frame::Price {
                curve_id,
                tenor,
                at,
                price,
            }) => {
                self.gaps.saw_service_time(at);
                let arrival = self.book.on_price(&curve_id, &tenor, at, price, rows);
                if arrival == Arrival::Duplicate {
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
}
