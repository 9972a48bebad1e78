//! Opening a connection: a TCP stream (through the proxy's tunnel if the
//! environment names one), TLS for `wss://`, the WebSocket handshake, then
//! `auth` with the token as the first command (interface, Authentication
//! 3), until the service says `auth-success` or `auth-failed`.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::Url;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::event::TARGET;
use super::wire::{read_frame, scrub, Frame};
use domain::live::{Command, ServerMessage};
use places::net::failure::Said;
use places::net::{connect, failure, Network};
use places::Secret;

pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub(crate) enum Handshake {
    Authenticated(Box<Socket>),
    /// `auth-failed`: the token was refused.
    Refused,
}

/// Why a connection was not opened, without the token or the proxy's
/// password.
pub(crate) enum OpenError {
    /// Worth another attempt after a wait.
    Passing(String),
    /// Reconnecting cannot mend it: a certificate that is not trusted, a
    /// proxy that wants other credentials or forbids the destination.
    Permanent(Said),
}

/// Connects to `url` over `network` and authenticates with `token`, waiting
/// at most `answer_within` for the service's answer to `auth` (a connection
/// that opens but never answers is as dead as one that does not open). The
/// caller bounds the time the whole takes.
pub(crate) async fn open(
    url: &str,
    token: &Secret,
    network: &Network,
    answer_within: Duration,
) -> Result<Handshake, OpenError> {
    let parsed =
        Url::parse(url).map_err(|e| OpenError::Permanent(Said::from(format!("bad url: {e}"))))?;
    let stream = connect::open_stream(network, &parsed)
        .await
        .map_err(|e| match e.permanent {
            true => OpenError::Permanent(Said::from(e.message)),
            false => OpenError::Passing(e.message),
        })?;
    let connector = network.websocket_connector();
    let (socket, _) = tokio_tungstenite::client_async_tls_with_config(url, stream, None, connector)
        .await
        .map_err(|e| {
            if let Some(problem) = failure::certificate_problem(&e) {
                let server = connect::authority(&parsed).unwrap_or_default();
                return OpenError::Permanent(failure::certificate_message(&server, &problem));
            }
            let through = network.route_note(url);
            let detail = scrub(&failure::chain(&e), None);
            OpenError::Passing(format!("cannot connect{through}: {detail}"))
        })?;
    authenticate(socket, token, answer_within)
        .await
        .map_err(OpenError::Passing)
}

/// Sends `auth` and waits for the answer. An error is a reason for the
/// logs, without the token.
async fn authenticate(
    mut socket: Socket,
    token: &Secret,
    answer_within: Duration,
) -> Result<Handshake, String> {
    let auth = Command::Auth(token.expose().to_owned()).encode();
    socket
        .send(Message::text(auth))
        .await
        .map_err(|e| format!("cannot send auth: {e}"))?;
    match tokio::time::timeout(answer_within, auth_answer(&mut socket, token)).await {
        Err(_) => Err(format!(
            "no answer to auth within {:.1} s",
            answer_within.as_secs_f64()
        )),
        Ok(Err(reason)) => Err(reason),
        Ok(Ok(true)) => Ok(Handshake::Authenticated(Box::new(socket))),
        Ok(Ok(false)) => {
            // Whether the service keeps the connection is not stated: leave it.
            let _ = socket.close(None).await;
            Ok(Handshake::Refused)
        }
    }
}

/// Reads until the service answers `auth`: true for `auth-success`, false
/// for `auth-failed`.
async fn auth_answer(socket: &mut Socket, token: &Secret) -> Result<bool, String> {
    let clean = |text: &str| scrub(text, Some(token.expose()));
    loop {
        let message = match socket.next().await {
            None => return Err("the service closed the connection during authentication".into()),
            Some(Err(e)) => return Err(format!("connection failed during authentication: {e}")),
            Some(Ok(message)) => message,
        };
        match message {
            Message::Text(text) => match read_frame(&text) {
                Ok(Frame::Other(ServerMessage::AuthSuccess)) => return Ok(true),
                Ok(Frame::Other(ServerMessage::AuthFailed)) => return Ok(false),
                Ok(Frame::Other(ServerMessage::Error { code, message })) => {
                    return Err(format!("{code} during authentication: {}", clean(&message)))
                }
                Ok(_) => log::debug!(target: TARGET, "a frame before auth-success was skipped"),
                Err(e) => log::warn!(
                    target: TARGET,
                    "an undecodable frame during authentication was skipped: {}",
                    clean(&e.reason)
                ),
            },
            Message::Close(frame) => return Err(describe_close(frame.as_ref())),
            _ => {}
        }
    }
}

/// A close frame in words, e.g. `closed by the service (1012, restart)`.
pub(crate) fn describe_close(frame: Option<&CloseFrame>) -> String {
    match frame {
        Some(frame) if frame.reason.is_empty() => {
            format!("closed by the service (code {})", u16::from(frame.code))
        }
        Some(frame) => format!(
            "closed by the service (code {}: {})",
            u16::from(frame.code),
            scrub(&frame.reason, None)
        ),
        None => "closed by the service (no close code)".into(),
    }
}
