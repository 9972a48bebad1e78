//! Commands sent and not yet answered. The service acknowledges neither
//! subscribe nor unsubscribe, but it answers in order: each command is
//! followed by a `ping` whose name is a unique marker, and the `pong` of that
//! marker says the command has been processed. An error frame that arrives
//! before that pong belongs to the oldest command still waiting.

use std::collections::VecDeque;
use std::time::Instant;

use tokio::sync::oneshot;

use domain::live::Subscription;
use places::ClientError;

/// Where the caller of `subscribe`/`unsubscribe` waits for the outcome.
pub type Reply = oneshot::Sender<Result<(), ClientError>>;

const MARKER_PREFIX: &str = "mc-";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    Subscribe,
    Unsubscribe,
}

/// A feed error code and its (scrubbed) message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub code: String,
    pub message: String,
}

pub(crate) struct Pending {
    pub marker: String,
    pub purpose: Purpose,
    pub subscription: Subscription,
    pub replies: Vec<Reply>,
    /// Subscribes sent again after `UNEXPECTED_ERROR`.
    pub retries: u32,
    pub sent_at: Instant,
    /// The first error the service sent for it.
    pub refusal: Option<Refusal>,
}

#[derive(Default)]
pub(crate) struct Inflight {
    waiting: VecDeque<Pending>,
    next_marker: u64,
}

impl Inflight {
    /// A new marker, unique for the feed's life.
    pub(crate) fn marker(&mut self, kind: &str) -> String {
        self.next_marker += 1;
        format!("{MARKER_PREFIX}{kind}-{}", self.next_marker)
    }

    pub(crate) fn push(&mut self, pending: Pending) {
        self.waiting.push_back(pending);
    }

    /// The error frame of the oldest waiting command, if any waits.
    pub(crate) fn refuse(&mut self, refusal: Refusal) -> Result<(), Refusal> {
        match self.waiting.front_mut() {
            Some(pending) => {
                pending.refusal.get_or_insert(refusal);
                Ok(())
            }
            None => Err(refusal),
        }
    }

    /// The commands a pong named `marker` answers: that one, and any sent
    /// before it (the service answers in order). Empty for another pong.
    pub(crate) fn answered(&mut self, marker: &str) -> Vec<Pending> {
        let Some(position) = self.waiting.iter().position(|p| p.marker == marker) else {
            return Vec::new();
        };
        self.waiting.drain(..=position).collect()
    }

    /// When the oldest waiting command was sent.
    pub(crate) fn oldest(&self) -> Option<Instant> {
        self.waiting.front().map(|p| p.sent_at)
    }

    /// Everything still waiting, when the connection is lost.
    pub(crate) fn take_all(&mut self) -> Vec<Pending> {
        self.waiting.drain(..).collect()
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }
}

#[cfg(test)]
#[path = "inflight_tests.rs"]
mod tests;
