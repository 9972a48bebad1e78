//! One live connection from upgrade to end: a reader carrying out the
//! client's commands, a writer draining the outbox, the timers, and the
//! switch that drops it. The first of them to finish ends the connection.
//!
//! Ending abruptly is dropping the socket: the TCP connection ends with no
//! close frame, and the client sees 1006. Ending with a close frame is
//! queueing it in the outbox, so that what was queued before goes first;
//! the client then gets a second to answer it before the socket is dropped.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};

use super::firehose::Firehose;
use super::outbox::Outgoing;
use super::peer::Peer;
use super::session::Session;
use super::{Generations, Parts};

/// How long a client has to answer a close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// The client went away, or writing failed.
    Gone,
    /// A close frame was sent.
    CloseSent,
    Dropped,
}

/// Takes the connection out of the feed however its task ends.
struct Registered<'a> {
    state: Parts<'a>,
    peer: Arc<Peer>,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.state
            .live
            .close_peer(&self.peer, self.state.clock.now());
    }
}

pub async fn serve(socket: WebSocket, state: Parts<'_>, seen: Generations) {
    let Some(peer) = state.live.open(state.clock.now(), seen) else {
        return;
    };
    let _registered = Registered {
        state,
        peer: Arc::clone(&peer),
    };
    let (mut sink, mut stream) = socket.split();
    let mut session = Session::new(state, Arc::clone(&peer));
    let ended = tokio::select! {
        () = read(&mut stream, &mut session) => Ended::Gone,
        ended = write(&mut sink, state, &peer) => ended,
        () = super::timers::watch(state, &peer) => Ended::Dropped,
        () = peer.dropped() => Ended::Dropped,
    };
    if ended == Ended::CloseSent {
        let rest = async { while let Some(Ok(_)) = stream.next().await {} };
        let _ = tokio::time::timeout(CLOSE_GRACE, rest).await;
    }
}

async fn read(stream: &mut SplitStream<WebSocket>, session: &mut Session<'_>) {
    // A close frame from the client is answered by the WebSocket layer; the
    // stream then ends.
    while let Some(Ok(message)) = stream.next().await {
        match message {
            Message::Text(text) => session.on_text(&text),
            Message::Binary(_) => session.on_binary(),
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => {}
        }
    }
}

/// Writes what the outbox holds (and, while the firehose runs, synthetic
/// values) in batches: many frames, then one flush.
async fn write(sink: &mut SplitSink<WebSocket, Message>, state: Parts<'_>, peer: &Peer) -> Ended {
    let mut batch = Vec::new();
    let mut firehose = Firehose::default();
    loop {
        peer.set_writing(true);
        peer.outbox.drain_into(&mut batch);
        let silent = state.live.faults.silent();
        if silent {
            // What a connection that died on the way delivers: nothing. The
            // close of a restart still goes, so that restarts end silence.
            batch.retain(|outgoing| matches!(outgoing, Outgoing::Close { .. }));
        }
        let mut wrote = !batch.is_empty();
        for outgoing in batch.drain(..) {
            match outgoing {
                Outgoing::Frame(text) => {
                    if sink.feed(Message::Text(text)).await.is_err() {
                        return Ended::Gone;
                    }
                }
                Outgoing::Close { code, reason } => {
                    let frame = CloseFrame {
                        code,
                        reason: reason.into(),
                    };
                    return match sink.send(Message::Close(Some(frame))).await {
                        Ok(()) => Ended::CloseSent,
                        Err(_) => Ended::Gone,
                    };
                }
            }
        }
        let mut more = false;
        if state.live.faults.firehose() && !silent {
            match firehose.feed_batch(sink, state.clock, peer).await {
                Ok(fed) => more = fed,
                Err(()) => return Ended::Gone,
            }
            wrote |= more;
        }
        if wrote {
            if sink.flush().await.is_err() {
                return Ended::Gone;
            }
            peer.touch(state.clock.now());
        }
        peer.set_writing(false);
        state.live.drained();
        if !more {
            peer.outbox.wait().await;
        }
    }
}
