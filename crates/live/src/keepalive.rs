//! When to ping, and when a connection is dead. The service drops a
//! connection after 60 s without a message in either direction, without a
//! close frame; a dead peer or a half-open TCP connection says nothing at
//! all. So: ping after `ping_interval` without sending, and call the
//! connection dead when a ping (or a command's marker ping) is unanswered for
//! `pong_timeout`, or when nothing at all arrived for
//! `ping_interval + pong_timeout`.

use std::time::{Duration, Instant};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// Nothing to do before this instant.
    Wait(Instant),
    Ping,
    Dead(String),
}

#[derive(Clone, Debug)]
pub(crate) struct KeepAlive {
    ping_interval: Duration,
    pong_timeout: Duration,
    pub last_sent: Instant,
    pub last_received: Instant,
    /// The keep-alive ping waiting for its pong: marker and when it was sent.
    pub outstanding: Option<(String, Instant)>,
}

impl KeepAlive {
    pub(crate) fn new(ping_interval: Duration, pong_timeout: Duration, now: Instant) -> KeepAlive {
        KeepAlive {
            ping_interval,
            pong_timeout,
            last_sent: now,
            last_received: now,
            outstanding: None,
        }
    }

    /// What is due at `now`; `oldest_command` is when the oldest command
    /// still waiting for its marker pong was sent.
    pub(crate) fn check(&self, now: Instant, oldest_command: Option<Instant>) -> Due {
        let ping_sent = self.outstanding.as_ref().map(|(_, at)| *at);
        for sent in [ping_sent, oldest_command].into_iter().flatten() {
            if now >= sent + self.pong_timeout {
                return Due::Dead(format!(
                    "no pong within {:.1} s of a ping",
                    self.pong_timeout.as_secs_f64()
                ));
            }
        }
        let silence = self.ping_interval + self.pong_timeout;
        if now >= self.last_received + silence {
            return Due::Dead(format!(
                "nothing received for {:.1} s",
                silence.as_secs_f64()
            ));
        }
        let next_ping = self.last_sent + self.ping_interval;
        if ping_sent.is_none() && now >= next_ping {
            return Due::Ping;
        }
        let mut deadline = self.last_received + silence;
        for sent in [ping_sent, oldest_command].into_iter().flatten() {
            deadline = deadline.min(sent + self.pong_timeout);
        }
        if ping_sent.is_none() {
            deadline = deadline.min(next_ping);
        }
        Due::Wait(deadline)
    }

    /// The pong of `marker` arrived; true if it was the keep-alive's.
    pub(crate) fn answered(&mut self, marker: &str) -> bool {
        if self.outstanding.as_ref().is_some_and(|(m, _)| m == marker) {
            self.outstanding = None;
            return true;
        }
        false
    }
}

#[cfg(test)]
#[path = "keepalive_tests.rs"]
mod tests;
