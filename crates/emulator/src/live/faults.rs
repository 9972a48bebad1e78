//! Faults of the live feed a test can switch on: refused authentications,
//! commands failing with `UNEXPECTED_ERROR`, pings left unanswered, a feed
//! that falls silent, and the firehose of synthetic values for benchmarks. Dropping and restarting
//! connections act at once and live on [`super::Live`].

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

pub struct LiveFaults {
    failing_auths: AtomicU32,
    failing_commands: AtomicU32,
    answer_pings: AtomicBool,
    silent: AtomicBool,
    firehose: AtomicBool,
}

impl Default for LiveFaults {
    fn default() -> Self {
        LiveFaults {
            failing_auths: AtomicU32::new(0),
            failing_commands: AtomicU32::new(0),
            answer_pings: AtomicBool::new(true),
            silent: AtomicBool::new(false),
            firehose: AtomicBool::new(false),
        }
    }
}

/// Takes one from a countdown; false once it is at zero.
fn count_down(counter: &AtomicU32) -> bool {
    counter
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
}

impl LiveFaults {
    /// The next `count` auth commands answer `auth-failed` whatever the token.
    pub fn fail_next_auth(&self, count: u32) {
        self.failing_auths.fetch_add(count, Ordering::SeqCst);
    }

    /// Whether the auth being handled is to fail (counts down).
    pub fn take_auth_failure(&self) -> bool {
        count_down(&self.failing_auths)
    }

    /// The next `count` commands of authenticated connections answer
    /// `UNEXPECTED_ERROR` and are not carried out.
    pub fn fail_next_command(&self, count: u32) {
        self.failing_commands.fetch_add(count, Ordering::SeqCst);
    }

    /// Whether the command being handled is to fail (counts down).
    pub fn take_command_failure(&self) -> bool {
        count_down(&self.failing_commands)
    }

    pub fn set_answer_pings(&self, enabled: bool) {
        self.answer_pings.store(enabled, Ordering::SeqCst);
    }

    pub fn answer_pings(&self) -> bool {
        self.answer_pings.load(Ordering::SeqCst)
    }

    /// While silent, connections write nothing but close frames.
    pub fn set_silent(&self, enabled: bool) {
        self.silent.store(enabled, Ordering::SeqCst);
    }

    pub fn silent(&self) -> bool {
        self.silent.load(Ordering::Relaxed)
    }

    pub fn set_firehose(&self, enabled: bool) {
        self.firehose.store(enabled, Ordering::SeqCst);
    }

    pub fn firehose(&self) -> bool {
        self.firehose.load(Ordering::Relaxed)
    }

    /// Back to a well-behaved feed.
    pub fn clear(&self) {
        self.failing_auths.store(0, Ordering::SeqCst);
        self.failing_commands.store(0, Ordering::SeqCst);
        self.set_answer_pings(true);
        self.set_silent(false);
        self.set_firehose(false);
    }
}

#[cfg(test)]
#[path = "faults_tests.rs"]
mod tests;
