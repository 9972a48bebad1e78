//! The live feed's messages (docs/protocol.md#live-feed): `{type, payload}` JSON text
//! frames. Commands are what a client sends, server messages what it reads.
//!
//! Reading is lenient where the interface leaves room: fields in any order,
//! unknown fields ignored, `generatedOn` with any number of fractional digits,
//! an error's `message` at the top level or inside `payload`, or absent.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::timestamp::{parse_timestamp, Micros};

/// The only subscription type the interface knows.
pub const PRICE: &str = "price";
/// The tenor that stands for every calendar tenor of a curve.
pub const ALL_TENORS: &str = "*";

/// One `subscribe` / `unsubscribe` payload: a curve and a tenor name or `*`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subscription {
    pub curve_id: String,
    pub tenor: String,
}

impl Subscription {
    pub fn new(curve_id: impl Into<String>, tenor: impl Into<String>) -> Subscription {
        Subscription {
            curve_id: curve_id.into(),
            tenor: tenor.into(),
        }
    }

    pub fn is_all_tenors(&self) -> bool {
        self.tenor == ALL_TENORS
    }

    fn payload(&self) -> Value {
        json!({ "id": self.curve_id, "tenor": self.tenor, "type": PRICE })
    }
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Auth(String),
    Subscribe(Subscription),
    Unsubscribe(Subscription),
    /// The payload comes back unchanged in `pong`; the interface gives it a `name`.
    Ping(Value),
}

impl Command {
    pub fn ping(name: &str) -> Command {
        Command::Ping(json!({ "name": name }))
    }

    /// The JSON text frame of this command.
    pub fn encode(&self) -> String {
        let (kind, payload) = match self {
            Command::Auth(token) => ("auth", Value::String(token.clone())),
            Command::Subscribe(s) => ("subscribe", s.payload()),
            Command::Unsubscribe(s) => ("unsubscribe", s.payload()),
            Command::Ping(payload) => ("ping", payload.clone()),
        };
        json!({ "type": kind, "payload": payload }).to_string()
    }
}

/// One value of the feed. `generated_on` has millisecond precision on the wire.
#[derive(Clone, Debug, PartialEq)]
pub struct LivePrice {
    pub curve_id: String,
    pub tenor: String,
    pub generated_on: Micros,
    pub price: f64,
}

impl LivePrice {
    /// The `price` message of this value, its time printed with milliseconds
    /// (docs/protocol.md#live-feed: the feed truncates to milliseconds).
    pub fn encode(&self) -> String {
        json!({
            "type": PRICE,
            "payload": {
                "id": self.curve_id,
                "tenor": self.tenor,
                "generatedOn": format_millis(self.generated_on),
                "price": self.price,
            }
        })
        .to_string()
    }
}

/// The error codes of the live feed (docs/protocol.md#errors).
pub const ERROR_CODES: [&str; 6] = [
    "NO_ACCESS",
    "NOT_LOGGED",
    "ERROR_PARSING",
    "COMMAND_NOT_FOUND",
    "BINARY_MESSAGE",
    "UNEXPECTED_ERROR",
];

/// What the server sends.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerMessage {
    AuthSuccess,
    AuthFailed,
    Price(LivePrice),
    Pong(Value),
    /// One of [`ERROR_CODES`] (or a code this client does not know yet).
    Error {
        code: String,
        message: String,
    },
}

impl ServerMessage {
    /// The JSON text frame of this message.
    pub fn encode(&self) -> String {
        match self {
            ServerMessage::AuthSuccess => json!({ "type": "auth-success" }).to_string(),
            ServerMessage::AuthFailed => json!({ "type": "auth-failed" }).to_string(),
            ServerMessage::Price(price) => price.encode(),
            ServerMessage::Pong(payload) => {
                json!({ "type": "pong", "payload": payload }).to_string()
            }
            ServerMessage::Error { code, message } => {
                json!({ "type": code, "message": message }).to_string()
            }
        }
    }
}

/// A server frame that is not a message of the interface.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unexpected live message: {reason}")]
pub struct MessageError {
    pub reason: String,
}

fn message_error(reason: impl Into<String>) -> MessageError {
    MessageError {
        reason: reason.into(),
    }
}

/// Fields are kept as text and read by the type of message: a price's
/// payload straight into its fields and `message` only if it is a string,
/// as the client's fast reader does, so that a value neither reads (an
/// unknown field, a number out of range) is skipped by both alike.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default, borrow)]
    payload: Option<&'a RawValue>,
    #[serde(default, borrow)]
    message: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct PricePayload {
    id: String,
    tenor: String,
    #[serde(rename = "generatedOn")]
    generated_on: String,
    price: f64,
}

/// Reads one text frame from the server.
pub fn decode_server_message(text: &str) -> Result<ServerMessage, MessageError> {
    let not_a_message = |e: serde_json::Error| message_error(format!("not a message: {e}"));
    let envelope: Envelope = serde_json::from_str(text).map_err(not_a_message)?;
    let payload = || match envelope.payload {
        Some(raw) => serde_json::from_str::<Value>(raw.get()).map_err(not_a_message),
        None => Ok(Value::Null),
    };
    Ok(match envelope.kind.as_str() {
        "auth-success" => ServerMessage::AuthSuccess,
        "auth-failed" => ServerMessage::AuthFailed,
        "pong" => ServerMessage::Pong(payload()?),
        PRICE => {
            let raw = envelope.payload.map_or("null", RawValue::get);
            let payload: PricePayload = serde_json::from_str(raw)
                .map_err(|e| message_error(format!("price payload: {e}")))?;
            let generated_on = parse_timestamp(&payload.generated_on)
                .map_err(|e| message_error(format!("price payload: generatedOn: {e}")))?;
            ServerMessage::Price(LivePrice {
                curve_id: payload.id,
                tenor: payload.tenor,
                generated_on,
                price: payload.price,
            })
        }
        code => {
            let payload = payload()?;
            let text_of = |v: &Value| v.as_str().map(str::to_owned);
            let message = envelope
                .message
                .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
                .or_else(|| payload.get("message").and_then(text_of))
                .or_else(|| text_of(&payload))
                .unwrap_or_default();
            ServerMessage::Error {
                code: code.to_owned(),
                message,
            }
        }
    })
}

/// `2025-06-13T15:30:00.123`: UTC, no suffix, milliseconds (truncated).
pub fn format_millis(at: Micros) -> String {
    let time = chrono::DateTime::from_timestamp_micros(at).expect("in range");
    time.format("%Y-%m-%dT%H:%M:%S%.3f").to_string()
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
