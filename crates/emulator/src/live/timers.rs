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
use crate::server::AppState;
use domain::timestamp::Micros;

pub const IDLE_TIMEOUT: Micros = 60_000_000;
pub const NO_SUBSCRIPTION_TIMEOUT: Micros = 180_000_000;
/// The close code of a connection without subscriptions: 1000, normal closure.
pub const NO_SUBSCRIPTION_CODE: u16 = 1000;

/// The longest real wait between two looks at the clock.
pub const MAX_WAIT: Duration = Duration::from_millis(100);

/// What a connection's timers call for at one reading of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Look again at this emulated instant.
    Nothing {
        next: Micros,
    },
    Drop,
    Close,
}

/// `published_through`: the instant up to which the publisher has pushed values.
pub fn due(
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
pub fn real_wait(emulated: Option<Micros>, scale: f64) -> Duration {
    real_wait_at_least(emulated, scale, Duration::from_millis(1))
}

/// [`real_wait`] with another shortest wait than a millisecond.
pub fn real_wait_at_least(emulated: Option<Micros>, scale: f64, least: Duration) -> Duration {
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
pub async fn watch(state: &AppState, peer: &Peer) {
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
mod tests {
    use super::*;

    const T: Micros = 1_750_000_000_000_000;
    const S: Micros = 1_000_000;

    #[test]
    fn sixty_quiet_seconds_drop_the_connection_once_the_publisher_is_past_them() {
        let subscribed = None;
        assert_eq!(
            due(T + 59 * S, T + 59 * S, T, subscribed),
            Due::Nothing { next: T + 60 * S }
        );
        assert_eq!(due(T + 60 * S, T + 60 * S, T, subscribed), Due::Drop);
        // Values due before the deadline may still be on their way.
        assert_eq!(
            due(T + 61 * S, T + 59 * S, T, subscribed),
            Due::Nothing { next: T + 60 * S }
        );
        // Activity moves the deadline.
        assert_eq!(
            due(T + 61 * S, T + 61 * S, T + 30 * S, subscribed),
            Due::Nothing { next: T + 90 * S }
        );
    }

    #[test]
    fn three_minutes_without_a_subscription_close_the_connection() {
        let quiet = Some(T);
        // Pings keep it active, but do not save it.
        let active = T + 175 * S;
        assert_eq!(
            due(T + 179 * S, T + 179 * S, active, quiet),
            Due::Nothing { next: T + 180 * S }
        );
        assert_eq!(due(T + 180 * S, T + 180 * S, active, quiet), Due::Close);
        // Idle since before the 3 minutes: the idle drop came first.
        assert_eq!(due(T + 200 * S, T + 200 * S, T + 10 * S, quiet), Due::Drop);
        // A jump past both deadlines: the earlier one acts.
        assert_eq!(
            due(T + 999 * S, T + 999 * S, T + 150 * S, quiet),
            Due::Close
        );
    }

    #[test]
    fn waits_follow_the_clock_speed_and_are_capped() {
        assert_eq!(real_wait(None, 1.0), MAX_WAIT);
        assert_eq!(real_wait(Some(1_000_000), 0.0), MAX_WAIT, "a stopped clock");
        assert_eq!(real_wait(Some(50_000), 1.0), Duration::from_millis(50));
        assert_eq!(
            real_wait(Some(60_000_000), 1_000.0),
            Duration::from_millis(60)
        );
        assert_eq!(real_wait(Some(3_600_000_000), 10.0), MAX_WAIT);
        assert_eq!(real_wait(Some(-5), 1.0), Duration::from_millis(1));
    }
}
