//! The live feed driven through a real WebSocket on loopback.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

use super::LIVE_PATH;
use crate::accounts::DEMO_EMAIL;
use crate::world::curves::Curve;
use crate::world::prices::{granularity, price};
use crate::world::published::{last_published, published_between};
use crate::world::World;
use crate::{Emulator, EmulatorConfig};
use domain::live::{format_millis, Command, Subscription};
use domain::tenor::Tenor;
use domain::timestamp::parse_timestamp;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn emulator() -> Emulator {
    let start = parse_timestamp("2025-06-13T10:00:00").unwrap();
    let start = chrono::DateTime::from_timestamp_micros(start).unwrap();
    Emulator::start(EmulatorConfig::stopped_at(start))
        .await
        .unwrap()
}

/// A curve of the demo account's licence.
fn fob(world: &World) -> &Curve {
    world.curves.iter().find(|c| c.quotation == "Fob").unwrap()
}

async fn connect(emulator: &Emulator) -> Socket {
    let url = format!("{}{LIVE_PATH}", emulator.live_url());
    connect_async(url).await.unwrap().0
}

async fn send(socket: &mut Socket, command: Command) {
    socket.send(Message::text(command.encode())).await.unwrap();
}

/// The next message, as JSON; None if the connection closed.
async fn next(socket: &mut Socket) -> Option<Value> {
    let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .expect("a message within 5 s");
    match message {
        Some(Ok(Message::Text(text))) => Some(serde_json::from_str(&text).unwrap()),
        Some(Ok(Message::Close(_))) | None => None,
        other => panic!("unexpected {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_subscribe_prices_and_pong() {
    let emulator = emulator().await;
    let state = emulator.shared_state();
    let world = state.world();
    let curve = fob(&world);
    let jul = Tenor::parse("Jul 25").unwrap();

    // A command before auth: NOT_LOGGED, then a close frame with 1008.
    let mut early = connect(&emulator).await;
    send(&mut early, Command::ping("early")).await;
    assert_eq!(next(&mut early).await.unwrap()["type"], "NOT_LOGGED");
    match early.next().await {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(frame.code, CloseCode::Policy),
        other => panic!("expected a close frame, got {other:?}"),
    }
    // Reading on answers the close frame; the server then ends the connection.
    assert!(early.next().await.is_none());

    let mut socket = connect(&emulator).await;
    send(&mut socket, Command::Auth("not-a-token".into())).await;
    assert_eq!(
        next(&mut socket).await,
        Some(json!({"type": "auth-failed"}))
    );
    let token = state.accounts.issue(DEMO_EMAIL, state.clock.now());
    send(&mut socket, Command::Auth(token)).await;
    assert_eq!(
        next(&mut socket).await,
        Some(json!({"type": "auth-success"}))
    );
    for _ in 0..100 {
        if state.live.connections() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(state.live.connections(), 1, "the first connection is gone");

    send(
        &mut socket,
        Command::Subscribe(Subscription::new(&curve.id, "Jul 25")),
    )
    .await;
    let now = state.clock.now();
    let last = last_published(&world, curve, &jul, now).unwrap();
    let snapshot = next(&mut socket).await.unwrap();
    let expected = json!({"type": "price", "payload": {
        "id": curve.id, "tenor": "Jul 25", "generatedOn": format_millis(last.at),
        "price": price(world.seed, curve, &jul, last.at),
    }});
    assert_eq!(snapshot, expected);

    send(
        &mut socket,
        Command::Ping(json!({"name": "k", "n": [1, 2]})),
    )
    .await;
    let pong = next(&mut socket).await.unwrap();
    assert_eq!(
        pong,
        json!({"type": "pong", "payload": {"name": "k", "n": [1, 2]}})
    );

    // The clock moves on by two values: both are pushed, in order.
    state.clock.advance(2 * granularity(curve));
    let due = published_between(&world, curve, &jul, now, state.clock.now());
    assert_eq!(due.len(), 2);
    for stamp in due {
        let update = next(&mut socket).await.unwrap();
        assert_eq!(update["payload"]["generatedOn"], format_millis(stamp.at));
    }

    socket.send(Message::binary(vec![1, 2, 3])).await.unwrap();
    assert_eq!(next(&mut socket).await.unwrap()["type"], "BINARY_MESSAGE");

    state.live.drop_connections();
    match tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .unwrap()
    {
        None | Some(Err(_)) => {}
        other => panic!("expected an abrupt end, got {other:?}"),
    }
}
