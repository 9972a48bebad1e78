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
mod tests {
    use super::*;

    #[test]
    fn commands_have_the_interface_shape() {
        let sub = Subscription::new("c-1", "Jan 26");
        let frame: Value = serde_json::from_str(&Command::Subscribe(sub).encode()).unwrap();
        assert_eq!(
            frame,
            json!({"type": "subscribe", "payload": {"id": "c-1", "tenor": "Jan 26", "type": "price"}})
        );
        let frame: Value = serde_json::from_str(&Command::Auth("jwt".into()).encode()).unwrap();
        assert_eq!(frame, json!({"type": "auth", "payload": "jwt"}));
        let frame: Value = serde_json::from_str(&Command::ping("k").encode()).unwrap();
        assert_eq!(frame, json!({"type": "ping", "payload": {"name": "k"}}));
    }

    #[test]
    fn prices_are_read_in_any_field_order_with_any_fraction() {
        let text = r#"{"payload":{"price":71.25,"extra":1,"generatedOn":"2025-06-13T15:30:00.5","tenor":"Q3 25","id":"c"},"type":"price"}"#;
        let ServerMessage::Price(price) = decode_server_message(text).unwrap() else {
            panic!("not a price");
        };
        assert_eq!(price.tenor, "Q3 25");
        assert_eq!(price.price, 71.25);
        assert_eq!(
            price.generated_on,
            parse_timestamp("2025-06-13T15:30:00.500").unwrap()
        );
    }

    #[test]
    fn prices_round_trip_at_millisecond_precision() {
        let at = parse_timestamp("2025-06-13T15:30:00.123456").unwrap();
        let price = LivePrice {
            curve_id: "c".into(),
            tenor: "Jan 26".into(),
            generated_on: at,
            price: -3.5,
        };
        let back = decode_server_message(&price.encode()).unwrap();
        let ServerMessage::Price(back) = back else {
            panic!("not a price")
        };
        assert_eq!(back.generated_on, at - 456);
        assert_eq!(format_millis(at), "2025-06-13T15:30:00.123");
    }

    #[test]
    fn prices_round_trip_exactly() {
        // Found by fuzzing: a price re-read from its own frame came back 1 ULP away.
        for price in [113.403_810_550_330_89, -4.444_444_444_444_445e62] {
            let live = LivePrice {
                curve_id: "c".into(),
                tenor: "Jan 26".into(),
                generated_on: 0,
                price,
            };
            let back = decode_server_message(&live.encode()).unwrap();
            assert_eq!(back, ServerMessage::Price(live));
        }
    }

    #[test]
    fn values_no_reader_reads_are_skipped() {
        // Found by fuzzing: a number out of range in an unknown field of a
        // price, or in `message`, was refused here and skipped by the
        // client's fast reader.
        for text in [
            r#"{"type":"price","payload":{"id":"c","tenor":"Jan 26","x":1e999,
                "generatedOn":"2025-06-13T15:30:00.123","price":1}}"#,
            r#"{"type":"price","message":1e999,"payload":{"id":"c","tenor":"Jan 26",
                "generatedOn":"2025-06-13T15:30:00.123","price":1}}"#,
        ] {
            let message = decode_server_message(text).unwrap();
            assert!(matches!(message, ServerMessage::Price(_)), "{text}");
        }
        let bare = decode_server_message(r#"{"type":"NO_ACCESS","message":1e999}"#);
        assert!(
            matches!(bare.unwrap(), ServerMessage::Error { message, .. } if message.is_empty())
        );
    }

    #[test]
    fn errors_carry_their_code_and_message_wherever_it_is() {
        let top = decode_server_message(r#"{"type":"NO_ACCESS","message":"not licensed"}"#);
        let inside =
            decode_server_message(r#"{"type":"NO_ACCESS","payload":{"message":"not licensed"}}"#);
        let expected = ServerMessage::Error {
            code: "NO_ACCESS".into(),
            message: "not licensed".into(),
        };
        assert_eq!(top.unwrap(), expected);
        assert_eq!(inside.unwrap(), expected);
        let bare = decode_server_message(r#"{"type":"NOT_LOGGED"}"#).unwrap();
        assert!(matches!(bare, ServerMessage::Error { code, .. } if code == "NOT_LOGGED"));
        for message in [
            ServerMessage::AuthSuccess,
            ServerMessage::AuthFailed,
            ServerMessage::Pong(json!({"name": "x"})),
            expected,
        ] {
            assert_eq!(decode_server_message(&message.encode()).unwrap(), message);
        }
    }

    #[test]
    fn broken_frames_are_refused_with_a_reason() {
        assert!(decode_server_message("not json").is_err());
        assert!(decode_server_message(r#"{"payload":{}}"#).is_err());
        let bad = decode_server_message(r#"{"type":"price","payload":{"id":"c"}}"#);
        assert!(bad.unwrap_err().reason.contains("price payload"));
        let bad = decode_server_message(
            r#"{"type":"price","payload":{"id":"c","tenor":"t","generatedOn":"yesterday","price":1}}"#,
        );
        assert!(bad.unwrap_err().reason.contains("generatedOn"));
    }
}
