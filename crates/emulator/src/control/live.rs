//! Faults of the live feed: connections dropped or restarted at once,
//! refused authentications and failing commands, unanswered pings, a feed
//! that falls silent, and the firehose of synthetic values for benchmarks.

use super::checks::{at_least_one, ControlResult};
use super::Controls;

impl Controls {
    /// Ends every live connection abruptly: no close frame, so clients see 1006.
    pub fn drop_live_connections(&self) {
        self.state.live.drop_connections();
    }

    /// Disconnects every live client as the weekly restart does: a close
    /// frame with code 1012, "service restart".
    pub fn restart_feed(&self) {
        self.state.live.restart_feed();
    }

    /// The next `count` live `auth` commands answer `auth-failed`, whatever the token.
    pub fn fail_next_auth(&self, count: u32) -> ControlResult<()> {
        self.state.live.faults.fail_next_auth(at_least_one(count)?);
        Ok(())
    }

    /// The next `count` valid commands of authenticated live connections
    /// answer `UNEXPECTED_ERROR` and are not carried out.
    pub fn fail_next_live_command(&self, count: u32) -> ControlResult<()> {
        self.state
            .live
            .faults
            .fail_next_command(at_least_one(count)?);
        Ok(())
    }

    /// While off, live pings get no pong (they still count as activity).
    pub fn answer_pings(&self, enabled: bool) {
        self.state.live.faults.set_answer_pings(enabled);
    }

    /// While on, live connections stay open but the feed writes nothing to
    /// them except close frames.
    pub fn silence_live(&self, enabled: bool) {
        self.state.live.faults.set_silent(enabled);
    }

    /// For benchmarks: while on, every live connection gets synthetic values
    /// of its subscribed tenors as fast as it reads them.
    pub fn firehose(&self, enabled: bool) {
        self.state.live.set_firehose(enabled);
    }

    /// How many live connections are open.
    pub fn live_connections(&self) -> usize {
        self.state.live.connections()
    }
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
