//! How a live feed connects, keeps alive, reconnects and buffers.

use std::time::Duration;

use domain::timestamp::Micros;
use places::net::Network;
use places::{Argument, ClientError, Rule};

/// The path of the live feed under `{live_url}` (docs/protocol.md#live-feed).
pub const SOCKET_PATH: &str = "/v2/customer/socket/websocket";

/// The last value of a tenor that an earlier run kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    pub curve_id: String,
    pub tenor: String,
    /// Its `generatedOn`, in microseconds (compared truncated to milliseconds).
    pub after: Micros,
}

#[derive(Clone, Debug)]
pub struct LiveConfig {
    /// The full WebSocket address; [`LiveConfig::endpoint`] builds it from `{live_url}`.
    pub url: String,
    /// Fetch what was published during a disconnection from the intraday
    /// endpoints and deliver it before the newer live values.
    pub backfill: bool,
    /// Send a ping after this much time without sending anything (the
    /// interface recommends 30 to 50 s; the service drops a connection after
    /// 60 s without a message in either direction).
    pub ping_interval: Duration,
    /// A ping unanswered this long, or nothing received for
    /// `ping_interval + pong_timeout`, means the connection is dead; so does
    /// an `auth` unanswered this long.
    pub pong_timeout: Duration,
    /// Connecting plus the authentication handshake.
    pub connect_timeout: Duration,
    /// The shortest wait before reconnecting; it doubles with each failed
    /// attempt, with jitter, up to `reconnect_max`.
    pub reconnect_min: Duration,
    pub reconnect_max: Duration,
    /// Ticks waiting for the consumer before the queue conflates them to the
    /// latest value per tenor (1 to [`MAX_QUEUE_SIZE`](Self::MAX_QUEUE_SIZE)).
    pub queue_size: usize,
    /// How long `subscribe` waits for a connection and the service's answer.
    pub subscribe_timeout: Duration,
    /// Where an earlier run stopped: for each tenor, the time of the last
    /// value it kept. Those tenors deliver only later values, and the
    /// values published since are backfilled once they are subscribed.
    pub resume: Vec<ResumePoint>,
    /// Proxies and trusted certificates. [`LiveFeed::start`](super::LiveFeed::start)
    /// takes the REST client's, so that both go the same way.
    pub network: Network,
}

impl Default for LiveConfig {
    fn default() -> Self {
        LiveConfig {
            url: String::new(),
            backfill: true,
            ping_interval: LiveConfig::DEFAULT_PING_INTERVAL,
            pong_timeout: LiveConfig::DEFAULT_PONG_TIMEOUT,
            connect_timeout: LiveConfig::DEFAULT_CONNECT_TIMEOUT,
            reconnect_min: LiveConfig::DEFAULT_RECONNECT_MIN,
            reconnect_max: LiveConfig::DEFAULT_RECONNECT_MAX,
            queue_size: LiveConfig::DEFAULT_QUEUE_SIZE,
            subscribe_timeout: LiveConfig::DEFAULT_SUBSCRIBE_TIMEOUT,
            resume: Vec::new(),
            network: Network::default(),
        }
    }
}

impl LiveConfig {
    // The defaults, named so that the binding's signature shows these very values.
    pub const DEFAULT_PING_INTERVAL: Duration = Duration::from_secs(40);
    pub const DEFAULT_PONG_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
    pub const DEFAULT_RECONNECT_MIN: Duration = Duration::from_millis(250);
    pub const DEFAULT_RECONNECT_MAX: Duration = Duration::from_secs(30);
    pub const DEFAULT_QUEUE_SIZE: usize = 100_000;
    pub const DEFAULT_SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(30);
    /// The largest `queue_size`: past it, a queue of ticks would take gigabytes.
    pub const MAX_QUEUE_SIZE: usize = 100_000_000;

    /// The feed's address under `live_url` (`wss://host` or `wss://host/`).
    pub fn endpoint(live_url: &str) -> String {
        format!("{}{SOCKET_PATH}", live_url.trim_end_matches('/'))
    }

    /// Sets the longest wait between reconnection attempts, lowering the
    /// shortest to it if it was longer, so that any positive `max` is valid.
    pub fn with_reconnect_max(self, max: Duration) -> LiveConfig {
        LiveConfig {
            reconnect_min: self.reconnect_min.min(max),
            reconnect_max: max,
            ..self
        }
    }

    /// Refuses settings the feed cannot run with, naming the setting.
    pub fn validate(&self) -> Result<(), ClientError> {
        let invalid = |argument: Argument, rule: Rule, message: String| {
            Err(ClientError::invalid(argument, rule, message))
        };
        let scheme = self
            .url
            .split_once("://")
            .map(|(s, _)| s.to_ascii_lowercase());
        if !matches!(scheme.as_deref(), Some("ws" | "wss")) {
            return invalid(
                Argument::Named("url".into()),
                Rule::Form,
                format!(
                    "live url must be a ws:// or wss:// address, not {:?}",
                    self.url
                ),
            );
        }
        let positive = [
            ("ping_interval", self.ping_interval),
            ("pong_timeout", self.pong_timeout),
            ("connect_timeout", self.connect_timeout),
            ("reconnect_max", self.reconnect_max),
            ("subscribe_timeout", self.subscribe_timeout),
        ];
        for (name, value) in positive {
            if value.is_zero() {
                return invalid(
                    Argument::Period,
                    Rule::Bounds,
                    format!("{name} must be longer than zero"),
                );
            }
        }
        if self.reconnect_max < self.reconnect_min {
            return invalid(
                Argument::Period,
                Rule::Bounds,
                format!(
                    "reconnect_max ({:?}) must not be shorter than reconnect_min ({:?})",
                    self.reconnect_max, self.reconnect_min
                ),
            );
        }
        LiveConfig::check_queue_size(self.queue_size)
    }

    /// That a delivery queue's size is one this feed takes (a replay's too).
    pub fn check_queue_size(queue_size: usize) -> Result<(), ClientError> {
        if !(1..=LiveConfig::MAX_QUEUE_SIZE).contains(&queue_size) {
            return Err(ClientError::invalid(
                places::Argument::Limit,
                places::Rule::Bounds,
                format!(
                    "queue_size must be from 1 to {}, not {queue_size}",
                    LiveConfig::MAX_QUEUE_SIZE
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
