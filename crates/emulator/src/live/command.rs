//! Reading client commands, strictly: the emulator accepts exactly the shapes
//! of the interface (Events, Client commands) and answers anything else with
//! the error code the interface gives it, so a client that deviates finds out
//! here rather than against the service.
//!
//! - not JSON, not an object, no string `type`, a field besides `type` and
//!   `payload`, a payload of the wrong shape, a subscription `type` other than
//!   `price`: `ERROR_PARSING`;
//! - a string `type` that is not a command: `COMMAND_NOT_FOUND` (whatever the
//!   payload).
//!
//! A ping's payload may carry fields besides `name`: it comes back unchanged.

use serde_json::{Map, Value};

use domain::live::{Command, Subscription, PRICE};

pub(crate) const NO_ACCESS: &str = "NO_ACCESS";
pub(crate) const NOT_LOGGED: &str = "NOT_LOGGED";
pub(crate) const ERROR_PARSING: &str = "ERROR_PARSING";
pub(crate) const COMMAND_NOT_FOUND: &str = "COMMAND_NOT_FOUND";
pub(crate) const BINARY_MESSAGE: &str = "BINARY_MESSAGE";
pub(crate) const UNEXPECTED_ERROR: &str = "UNEXPECTED_ERROR";

/// Why a frame is not a command: an error code of the interface and a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CommandError {
    pub code: &'static str,
    pub message: String,
}

fn parsing(message: impl Into<String>) -> CommandError {
    CommandError {
        code: ERROR_PARSING,
        message: message.into(),
    }
}

/// Reads one text frame as a command.
pub(crate) fn parse_command(text: &str) -> Result<Command, CommandError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| parsing(format!("the message is not JSON: {e}")))?;
    let Value::Object(mut message) = value else {
        return Err(parsing(
            "a message is a JSON object {\"type\", \"payload\"}",
        ));
    };
    let kind = match message.remove("type") {
        Some(Value::String(kind)) => kind,
        Some(_) => return Err(parsing("\"type\" must be a string")),
        None => return Err(parsing("the message has no \"type\"")),
    };
    let payload = message.remove("payload");
    if let Some(field) = message.keys().next() {
        return Err(parsing(format!(
            "unexpected field {field:?}: a message has only \"type\" and \"payload\""
        )));
    }
    match kind.as_str() {
        "auth" => match payload {
            Some(Value::String(token)) => Ok(Command::Auth(token)),
            _ => Err(parsing("the payload of auth is the token, a string")),
        },
        "subscribe" => Ok(Command::Subscribe(subscription(&kind, payload)?)),
        "unsubscribe" => Ok(Command::Unsubscribe(subscription(&kind, payload)?)),
        "ping" => match payload {
            Some(Value::Object(fields)) if fields.get("name").is_some_and(Value::is_string) => {
                Ok(Command::Ping(Value::Object(fields)))
            }
            _ => Err(parsing(
                "the payload of ping is an object with a string \"name\"",
            )),
        },
        _ => Err(CommandError {
            code: COMMAND_NOT_FOUND,
            message: format!(
                "unknown command {kind:?}: the commands are auth, subscribe, unsubscribe and ping"
            ),
        }),
    }
}

/// A subscribe or unsubscribe payload: exactly `id`, `tenor` and `type`
/// (`price`), all strings.
fn subscription(kind: &str, payload: Option<Value>) -> Result<Subscription, CommandError> {
    let shape = format!(
        "the payload of {kind} is an object {{\"id\", \"tenor\", \"type\": \"price\"}} of strings"
    );
    let Some(Value::Object(mut fields)) = payload else {
        return Err(parsing(shape));
    };
    let take = |name: &str, fields: &mut Map<String, Value>| match fields.remove(name) {
        Some(Value::String(value)) => Ok(value),
        Some(_) => Err(parsing(format!("{shape}: \"{name}\" is not a string"))),
        None => Err(parsing(format!("{shape}: \"{name}\" is missing"))),
    };
    let curve_id = take("id", &mut fields)?;
    let tenor = take("tenor", &mut fields)?;
    let subscription_type = take("type", &mut fields)?;
    if let Some(field) = fields.keys().next() {
        return Err(parsing(format!("{shape}: unexpected field {field:?}")));
    }
    if subscription_type != PRICE {
        return Err(parsing(format!(
            "unsupported subscription type {subscription_type:?}: the only type is \"price\""
        )));
    }
    Ok(Subscription { curve_id, tenor })
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
