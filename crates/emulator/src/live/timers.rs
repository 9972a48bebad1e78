//! The two clocks of a live connection (interface, Live connection and
//! Limits), both on the emulator's clock:
//!
//! - 60 seconds without a message in either direction: the connection is
//!   dropped abruptly, with no close frame (the client sees 1006). Only
//!   messages count (JSON text frames, and binary frames, which are answered),
//!   not WebSocket protocol pings, as the interface speaks of messages and
//!   asks clients to send `ping` commands;
//! - about 3 minutes without a subscription: a close frame with code 1000;
//!   pings do not prevent it. The time runs from authentication or from the
//!   removal of the last subscription; a connection that never authenticates
//!   is closed the same way 3 minutes after it opened.
//!
//! Whichever deadline comes first acts. The idle deadline acts only once the
//! publisher has gone past it, so that values due before it (after a jump of
//! the clock, say) have gone out and counted as activity first.

use std::time::Duration;

use super::peer::Peer;
use super::Parts;
use domain::timestamp::Micros;

pub(crate) const IDLE_TIMEOUT: Micros = 60_000_000;
pub(crate) const NO_SUBSCRIPTION_TIMEOUT: Micros = 180_000_000;
/// The close code of a connection without subscriptions: 1000, normal closure.
pub(crate) const NO_SUBSCRIPTION_CODE: u16 = 1000;

/// The longest real wait between two looks at the clock.
pub(crate) const MAX_WAIT: Duration = Duration::from_millis(100);

/// What a connection's timers call for at one reading of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// Look again at this emulated instant.
    Nothing {
        next: Micros,
    },
    Drop,
    Close,
}

/// `published_through`: the instant up to which the publisher has pushed values.
pub(crate) fn due(
    now: Micros,
    published_through: Micros,
    last_activity: Micros,
    quiet_since: Option<Micros>,
) -> Due {
    let idle = last_activity.saturating_add(IDLE_TIMEOUT);
    let quiet = quiet_since.map(|since| since.saturating_add(NO_SUBSCRIPTION_TIMEOUT));
    match quiet {
        Some(quiet) if quiet <= now && quiet <= idle => return Due::Close,
        _ => {}
    }
    if idle <= now && idle <= published_through {
        return Due::Drop;
    }
    Due::Nothing {
        next: quiet.map_or(idle, |quiet| quiet.min(idle)),
    }
}

/// How long to sleep for `emulated` microseconds at `scale`: at most
/// [`MAX_WAIT`], so that a change of speed or a jump is noticed soon.
pub(crate) fn real_wait(emulated: Option<Micros>, scale: f64) -> Duration {
    real_wait_at_least(emulated, scale, Duration::from_millis(1))
}

/// [`real_wait`] with another shortest wait than a millisecond.
pub(crate) fn real_wait_at_least(
    emulated: Option<Micros>,
    scale: f64,
    least: Duration,
) -> Duration {
    match emulated {
        Some(emulated) if scale > 0.0 => {
            let seconds = emulated.max(0) as f64 / 1e6 / scale;
            let wait = Duration::from_secs_f64(seconds.min(MAX_WAIT.as_secs_f64()));
            wait.max(least)
        }
        _ => MAX_WAIT,
    }
}

/// Returns when the connection is to be dropped; queues the close frame
/// itself when it is to be closed, and then waits for the writer to end it.
pub(crate) async fn watch(state: Parts<'_>, peer: &Peer) {
    loop {
        let now = state.clock.now();
        let through = state.live.published_through();
        match due(now, through, peer.last_activity(), peer.quiet_since()) {
            Due::Drop => return,
            Due::Close => {
                peer.outbox
                    .update(|o| o.close(NO_SUBSCRIPTION_CODE, "no subscription"));
                return std::future::pending().await;
            }
            Due::Nothing { next } => {
                tokio::time::sleep(real_wait(Some(next - now), state.clock.scale())).await;
            }
        }
    }
}

#[cfg(test)]
#[path = "timers_tests.rs"]
mod tests;
