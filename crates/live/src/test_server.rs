//! A scripted live feed server for tests: it accepts WebSocket connections
//! on loopback and hands each to the test, which reads the client's commands
//! and answers them (or not) step by step.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::config::LiveConfig;
use domain::live::Subscription;

/// How long a scripted step waits before the test fails.
pub(crate) const STEP: Duration = Duration::from_secs(5);

pub(crate) struct TestServer {
    pub url: String,
    connections: mpsc::UnboundedReceiver<ServerConn>,
    accepting: JoinHandle<()>,
}

impl TestServer {
    pub(crate) async fn start() -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (sender, connections) = mpsc::unbounded_channel();
        let accepting = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                if let Ok(ws) = tokio_tungstenite::accept_async(stream).await {
                    let _ = sender.send(ServerConn { ws });
                }
            }
        });
        TestServer {
            url: LiveConfig::endpoint(&format!("ws://{address}")),
            connections,
            accepting,
        }
    }

    /// The next connection the client opens.
    pub(crate) async fn next_connection(&mut self) -> ServerConn {
        tokio::time::timeout(STEP, self.connections.recv())
            .await
            .expect("the client did not connect")
            .expect("the server stopped")
    }

    /// Whether the client opens another connection within `within`.
    pub(crate) async fn connects_within(&mut self, within: Duration) -> Option<ServerConn> {
        tokio::time::timeout(within, self.connections.recv())
            .await
            .ok()
            .flatten()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

pub(crate) struct ServerConn {
    ws: WebSocketStream<TcpStream>,
}

/// A client command: its type and payload.
pub(crate) type Received = (String, Value);

impl ServerConn {
    /// The next command, or None once the client closed or left.
    pub(crate) async fn recv_within(
        &mut self,
        within: Duration,
    ) -> Option<Result<Received, String>> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let next = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()?;
            match next {
                None => return None,
                Some(Err(e)) => return Some(Err(e.to_string())),
                Some(Ok(Message::Text(text))) => {
                    let frame: Value = serde_json::from_str(&text).unwrap();
                    let kind = frame["type"].as_str().unwrap().to_owned();
                    return Some(Ok((kind, frame["payload"].clone())));
                }
                Some(Ok(Message::Close(frame))) => {
                    let code = frame.map_or(0, |f| u16::from(f.code));
                    return Some(Err(format!("close {code}")));
                }
                Some(Ok(_)) => {}
            }
        }
    }

    pub(crate) async fn recv(&mut self) -> Received {
        match self.recv_within(STEP).await {
            Some(Ok(received)) => received,
            Some(Err(e)) => panic!("expected a command, got {e}"),
            None => panic!("expected a command, got nothing"),
        }
    }

    pub(crate) async fn send(&mut self, frame: Value) {
        self.send_text(&frame.to_string()).await;
    }

    pub(crate) async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// Reads `auth`, answers `auth-success`, returns the token.
    pub(crate) async fn authenticate(&mut self) -> String {
        let token = self.expect_auth().await;
        self.send(json!({"type": "auth-success"})).await;
        token
    }

    pub(crate) async fn expect_auth(&mut self) -> String {
        let (kind, payload) = self.recv().await;
        assert_eq!(kind, "auth", "the first command must be auth");
        payload.as_str().unwrap().to_owned()
    }

    /// Reads `subscribe` (or `unsubscribe`) and its marker ping; returns
    /// both, leaving the pong to the test.
    pub(crate) async fn expect_command(&mut self, expected: &str) -> (Subscription, String) {
        let (kind, payload) = self.recv().await;
        assert_eq!(kind, expected, "{payload}");
        assert_eq!(payload["type"], "price");
        let subscription = Subscription::new(
            payload["id"].as_str().unwrap(),
            payload["tenor"].as_str().unwrap(),
        );
        let marker = self.expect_ping().await;
        (subscription, marker)
    }

    pub(crate) async fn expect_ping(&mut self) -> String {
        let (kind, payload) = self.recv().await;
        assert_eq!(kind, "ping", "{payload}");
        payload["name"].as_str().unwrap().to_owned()
    }

    pub(crate) async fn pong(&mut self, marker: &str) {
        self.send(json!({"type": "pong", "payload": {"name": marker}}))
            .await;
    }

    /// Subscribe, snapshot prices, pong: a subscription the service accepts.
    pub(crate) async fn accept_subscribe(&mut self, snapshots: Vec<Value>) -> Subscription {
        let (subscription, marker) = self.expect_command("subscribe").await;
        for price in snapshots {
            self.send(price).await;
        }
        self.pong(&marker).await;
        subscription
    }

    pub(crate) async fn error(&mut self, code: &str, message: &str) {
        self.send(json!({"type": code, "message": message})).await;
    }

    pub(crate) async fn close_with(mut self, code: u16) {
        let frame = CloseFrame {
            code: CloseCode::from(code),
            reason: "".into(),
        };
        let _ = self.ws.close(Some(frame)).await;
        // Let the close handshake finish before the socket goes.
        let _ = tokio::time::timeout(Duration::from_secs(1), self.ws.next()).await;
    }

    /// Sends many text frames as fast as the socket takes them.
    pub(crate) async fn blast(&mut self, frames: Vec<String>) {
        for (i, frame) in frames.into_iter().enumerate() {
            self.ws.feed(Message::text(frame)).await.unwrap();
            if i % 1_024 == 0 {
                self.ws.flush().await.unwrap();
            }
        }
        self.ws.flush().await.unwrap();
    }

    /// Drops the TCP connection without a close frame.
    pub(crate) fn drop_abruptly(self) {
        drop(self);
    }
}

/// A `price` message.
pub(crate) fn price(curve: &str, tenor: &str, generated_on: &str, value: f64) -> Value {
    json!({"type": "price", "payload": {
        "id": curve, "tenor": tenor, "generatedOn": generated_on, "price": value
    }})
}
