use super::*;
use serde_json::json;

fn code(text: &str) -> &'static str {
    parse_command(text).unwrap_err().code
}

#[test]
fn the_four_commands_as_the_client_encodes_them() {
    let sub = Subscription::new("c-1", "Jan 26");
    for command in [
        Command::Auth("a.b.c".into()),
        Command::Subscribe(sub.clone()),
        Command::Unsubscribe(Subscription::new("c-1", "*")),
        Command::ping("keep-alive"),
        Command::Ping(json!({"name": "x", "sent": 12, "nested": {"a": [1]}})),
    ] {
        assert_eq!(parse_command(&command.encode()), Ok(command));
    }
    let reordered =
        r#"{"payload":{"type":"price","tenor":"Jan 26","id":"c-1"},"type":"subscribe"}"#;
    assert_eq!(parse_command(reordered), Ok(Command::Subscribe(sub)));
}

#[test]
fn frames_that_are_not_messages_are_parsing_errors() {
    for text in [
        "",
        "not json",
        "{\"type\": \"auth\"",
        "[]",
        "\"auth\"",
        "null",
        r#"{"payload": "t"}"#,
        r#"{"type": 1, "payload": "t"}"#,
        r#"{"type": null}"#,
        r#"{"type": "auth", "payload": "t", "id": 1}"#,
    ] {
        assert_eq!(code(text), ERROR_PARSING, "{text}");
    }
}

#[test]
fn unknown_commands_are_not_found_whatever_their_payload() {
    for text in [
        r#"{"type": "hello"}"#,
        r#"{"type": "Subscribe", "payload": {"id": "c", "tenor": "*", "type": "price"}}"#,
        r#"{"type": "pong", "payload": {"name": "x"}}"#,
        r#"{"type": "", "payload": 3}"#,
    ] {
        assert_eq!(code(text), COMMAND_NOT_FOUND, "{text}");
    }
}

#[test]
fn payloads_of_the_wrong_shape_are_parsing_errors() {
    for text in [
        r#"{"type": "auth"}"#,
        r#"{"type": "auth", "payload": {"token": "t"}}"#,
        r#"{"type": "auth", "payload": null}"#,
        r#"{"type": "subscribe", "payload": {"id": "c", "tenor": "*"}}"#,
        r#"{"type": "subscribe", "payload": {"id": "c", "tenor": "*", "type": "settlement"}}"#,
        r#"{"type": "subscribe", "payload": {"id": 7, "tenor": "*", "type": "price"}}"#,
        r#"{"type": "subscribe", "payload": {"id": "c", "tenor": null, "type": "price"}}"#,
        r#"{"type": "subscribe", "payload": {"id": "c", "tenor": "*", "type": "price", "x": 1}}"#,
        r#"{"type": "subscribe", "payload": ["c", "*", "price"]}"#,
        r#"{"type": "unsubscribe", "payload": {"id": "c", "tenor": "*", "type": "PRICE"}}"#,
        r#"{"type": "unsubscribe"}"#,
        r#"{"type": "ping"}"#,
        r#"{"type": "ping", "payload": "x"}"#,
        r#"{"type": "ping", "payload": {}}"#,
        r#"{"type": "ping", "payload": {"name": 1}}"#,
    ] {
        assert_eq!(code(text), ERROR_PARSING, "{text}");
    }
    let message = parse_command(
        r#"{"type": "subscribe", "payload": {"id": "c", "tenor": "*", "type": "tick"}}"#,
    )
    .unwrap_err()
    .message;
    assert!(message.contains("\"tick\""), "{message}");
}
