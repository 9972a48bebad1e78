//! The fastest possible reader of a live feed: authenticates, subscribes and
//! counts frames, decoding nothing. Benchmarks measure the emulator's own
//! firehose rate with it, the limit any client of the feed can reach.
//!
//! Asked to, it also reads each frame with the client's own frame reader:
//! the rate then is the most a client can get that decodes every price but
//! has no book, queue or Python behind it, which splits a benchmark's gap to
//! the limit into what decoding costs and what the rest does.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::wire::{read_frame, scrub, Frame};
use domain::live::{Command, Subscription};

/// What the probe does with each text frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Counts it.
    Count,
    /// Reads it with the client's frame reader too; a frame the reader
    /// refuses ends the probe with an error.
    Decode,
}

/// What the probe saw.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeCount {
    /// Text frames after the subscriptions were sent.
    pub frames: u64,
    pub bytes: u64,
    /// Frames read as prices (with [`Reading::Decode`] only).
    pub prices: u64,
    pub seconds: f64,
}

/// Connects to `url` (the full WebSocket address), sends `auth` and the
/// subscriptions, then counts text frames for `duration`.
pub async fn count_frames(
    url: &str,
    token: &str,
    subscriptions: &[Subscription],
    duration: Duration,
    reading: Reading,
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
        // The timeout below looks at the clock only when no frame is ready,
        // and a reader slower than the feed always finds one: so the time is
        // also checked here, every few hundred frames.
        if count.frames % 256 == 0 && tokio::time::Instant::now() >= deadline {
            break;
        }
        let frame = tokio::time::timeout_at(deadline, socket.next()).await;
        match frame {
            Err(_elapsed) => break,
            Ok(Some(Ok(Message::Text(text)))) => {
                count.frames += 1;
                count.bytes += text.len() as u64;
                if reading == Reading::Decode {
                    match read_frame(&text) {
                        Ok(Frame::Price { .. }) => count.prices += 1,
                        Ok(Frame::Other(_)) => {}
                        Err(e) => {
                            let reason = scrub(&e.reason, Some(token));
                            return Err(format!("a frame the client refuses: {reason}"));
                        }
                    }
                }
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
