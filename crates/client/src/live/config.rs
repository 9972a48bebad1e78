//! How a live feed connects, keeps alive, reconnects and buffers.

use std::time::Duration;

use crate::net::Network;
use crate::ClientError;

/// The path of the live feed under `{live_url}` (docs/protocol.md#live-feed).
pub const SOCKET_PATH: &str = "/v2/customer/socket/websocket";

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
    /// latest value per tenor.
    pub queue_capacity: usize,
    /// How long `subscribe` waits for a connection and the service's answer.
    pub subscribe_timeout: Duration,
    /// Proxies and trusted certificates. [`LiveFeed::start`](super::LiveFeed::start)
    /// takes the REST client's, so that both go the same way.
    pub network: Network,
}

impl Default for LiveConfig {
    fn default() -> Self {
        LiveConfig {
            url: String::new(),
            backfill: true,
            ping_interval: Duration::from_secs(40),
            pong_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(30),
            reconnect_min: Duration::from_millis(250),
            reconnect_max: Duration::from_secs(30),
            queue_capacity: 100_000,
            subscribe_timeout: Duration::from_secs(30),
            network: Network::default(),
        }
    }
}

impl LiveConfig {
    /// The feed's address under `live_url` (`wss://host` or `wss://host/`).
    pub fn endpoint(live_url: &str) -> String {
        format!("{}{SOCKET_PATH}", live_url.trim_end_matches('/'))
    }

    /// Refuses settings the feed cannot run with, naming the setting.
    pub fn validate(&self) -> Result<(), ClientError> {
        let invalid = |message: String| Err(ClientError::InvalidRequest(message));
        let scheme = self
            .url
            .split_once("://")
            .map(|(s, _)| s.to_ascii_lowercase());
        if !matches!(scheme.as_deref(), Some("ws" | "wss")) {
            return invalid(format!(
                "live url must be a ws:// or wss:// address, not {:?}",
                self.url
            ));
        }
        let positive = [
            ("ping_interval", self.ping_interval),
            ("pong_timeout", self.pong_timeout),
            ("connect_timeout", self.connect_timeout),
            ("subscribe_timeout", self.subscribe_timeout),
        ];
        for (name, value) in positive {
            if value.is_zero() {
                return invalid(format!("{name} must be longer than zero"));
            }
        }
        if self.reconnect_max < self.reconnect_min {
            return invalid(format!(
                "reconnect_max ({:?}) must not be shorter than reconnect_min ({:?})",
                self.reconnect_max, self.reconnect_min
            ));
        }
        if self.queue_capacity == 0 {
            return invalid("queue_capacity must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_appends_the_socket_path_once() {
        let expected = "wss://live.example/v2/customer/socket/websocket";
        assert_eq!(LiveConfig::endpoint("wss://live.example"), expected);
        assert_eq!(LiveConfig::endpoint("wss://live.example/"), expected);
    }

    #[test]
    fn settings_are_checked() {
        let ok = LiveConfig {
            url: LiveConfig::endpoint("ws://127.0.0.1:1"),
            ..LiveConfig::default()
        };
        assert!(ok.validate().is_ok());
        let http = LiveConfig {
            url: "http://x".into(),
            ..ok.clone()
        };
        assert!(http.validate().unwrap_err().to_string().contains("ws://"));
        let zero = LiveConfig {
            pong_timeout: Duration::ZERO,
            ..ok.clone()
        };
        assert!(zero
            .validate()
            .unwrap_err()
            .to_string()
            .contains("pong_timeout"));
        let inverted = LiveConfig {
            reconnect_min: Duration::from_secs(5),
            reconnect_max: Duration::from_secs(1),
            ..ok
        };
        assert!(inverted.validate().is_err());
    }
}
