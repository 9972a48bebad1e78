//! The fastest possible reader of a live feed: authenticates, subscribes and
//! counts frames, decoding nothing. Benchmarks measure the emulator's own
//! firehose rate with it, the limit any client of the feed can reach.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::domain::live::{Command, Subscription};

/// What the probe saw.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeCount {
    /// Text frames after the subscriptions were sent.
    pub frames: u64,
    pub bytes: u64,
    pub seconds: f64,
}

/// Connects to `url` (the full WebSocket address), sends `auth` and the
/// subscriptions, then counts text frames for `duration`.
pub async fn count_frames(
    url: &str,
    token: &str,
    subscriptions: &[Subscription],
    duration: Duration,
) -> Result<ProbeCount, String> {
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    let send = |command: Command| Message::text(command.encode());
    socket
        .send(send(Command::Auth(token.to_owned())))
        .await
        .map_err(|e| e.to_string())?;
    for subscription in subscriptions {
        socket
            .send(send(Command::Subscribe(subscription.clone())))
            .await
            .map_err(|e| e.to_string())?;
    }
    let mut count = ProbeCount::default();
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + duration;
    loop {
        let frame = tokio::time::timeout_at(deadline, socket.next()).await;
        match frame {
            Err(_elapsed) => break,
            Ok(Some(Ok(Message::Text(text)))) => {
                count.frames += 1;
                count.bytes += text.len() as u64;
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(e))) => return Err(format!("the feed failed: {e}")),
            Ok(None) => return Err("the feed closed".to_owned()),
        }
    }
    count.seconds = started.elapsed().as_secs_f64();
    let _ = socket.close(None).await;
    Ok(count)
}
