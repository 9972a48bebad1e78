//! Subscribe and unsubscribe on the wire, each followed by its marker ping,
//! and what the service's answer (the marker's pong, or an error frame
//! before it) means for the caller waiting on it.

use super::online::Link;
use super::Session;
use crate::event::{FeedEvent, TARGET};
use crate::inflight::{Pending, Purpose, Refusal, Reply};
use domain::live::{Command, Subscription};
use places::ClientError;

/// Subscribes sent again after `UNEXPECTED_ERROR` ("internal error; retry").
const UNEXPECTED_RETRIES: u32 = 2;

impl Session {
    /// Sends a command and its marker ping. It waits in `inflight` first, so
    /// that if the connection breaks while sending, its callers wait for the
    /// next connection.
    pub(super) async fn send_command(
        &mut self,
        link: &mut Link,
        purpose: Purpose,
        subscription: Subscription,
        replies: Vec<Reply>,
        retries: u32,
    ) -> Result<(), String> {
        let command = match purpose {
            Purpose::Subscribe => {
                self.book.expect_snapshot(&subscription);
                Command::Subscribe(subscription.clone())
            }
            Purpose::Unsubscribe => Command::Unsubscribe(subscription.clone()),
        };
        let marker = self.inflight.marker(match purpose {
            Purpose::Subscribe => "sub",
            Purpose::Unsubscribe => "unsub",
        });
        let frames = [command.encode(), Command::ping(&marker).encode()];
        self.inflight.push(Pending {
            marker,
            purpose,
            subscription,
            replies,
            retries,
            sent_at: std::time::Instant::now(),
            refusal: None,
        });
        link.send(&frames, self.config.pong_timeout).await
    }

    /// A command the service has processed: confirm it, retry it, or report
    /// its refusal.
    pub(super) async fn resolve(
        &mut self,
        link: &mut Link,
        pending: Pending,
    ) -> Result<(), String> {
        let Pending {
            purpose,
            subscription,
            replies,
            retries,
            refusal,
            ..
        } = pending;
        if purpose == Purpose::Subscribe {
            self.book.snapshot_done(&subscription);
        }
        let Some(refusal) = refusal else {
            for reply in replies {
                let _ = reply.send(Ok(()));
            }
            if purpose == Purpose::Subscribe {
                self.await_snapshots(subscription);
            }
            return Ok(());
        };
        if purpose == Purpose::Subscribe
            && refusal.code == "UNEXPECTED_ERROR"
            && retries < UNEXPECTED_RETRIES
            && self.shared.registry().contains(&subscription)
        {
            log::info!(
                target: TARGET,
                "UNEXPECTED_ERROR on subscribe to {} {:?}; retrying",
                subscription.curve_id,
                subscription.tenor
            );
            let purpose = Purpose::Subscribe;
            return self
                .send_command(link, purpose, subscription, replies, retries + 1)
                .await;
        }
        if purpose == Purpose::Subscribe {
            // Refused for good: the subscription is dropped, not retried on reconnect.
            self.shared.registry().discard(&subscription);
            let subscriptions = self.shared.subscriptions();
            self.book.cover(&subscriptions);
        }
        let error = || refusal_error(purpose, &subscription, &refusal);
        let told = answer(replies, error);
        if !told {
            // Nobody waits for it (a resubscription, or a caller that gave up):
            // the consumer gets it in order with the ticks.
            self.events.emit(FeedEvent::Error {
                message: error().to_string(),
            });
            self.shared.queue.push_error(error());
        } else {
            log::warn!(target: TARGET, "{}", error());
        }
        Ok(())
    }
}

/// Sends `make()` to every caller still waiting; false if none was.
fn answer(replies: Vec<Reply>, make: impl Fn() -> ClientError) -> bool {
    let mut told = false;
    for reply in replies {
        told |= reply.send(Err(make())).is_ok();
    }
    told
}

fn refusal_error(purpose: Purpose, subscription: &Subscription, refusal: &Refusal) -> ClientError {
    let verb = match purpose {
        Purpose::Subscribe => "subscribe",
        Purpose::Unsubscribe => "unsubscribe",
    };
    if refusal.code == "NO_ACCESS" {
        return ClientError::AccessDenied {
            endpoint: format!(
                "live {verb} to curve {} tenor {:?}",
                subscription.curve_id, subscription.tenor
            ),
            message: if refusal.message.is_empty() {
                "NO_ACCESS".into()
            } else {
                format!("NO_ACCESS: {}", refusal.message)
            },
            subscription: Some(subscription.clone()),
        };
    }
    ClientError::Live {
        code: refusal.code.clone(),
        message: refusal.message.clone(),
        subscription: Some(subscription.clone()),
        advice: None,
    }
}
