use super::*;
use domain::live::LivePrice;
use serde_json::json;

#[test]
fn price_frames_are_read_in_place_with_the_same_result_as_the_domain_reader() {
    let price = LivePrice {
        curve_id: "c-1".into(),
        tenor: "26-EOM Feb 24".into(),
        generated_on: parse_timestamp("2025-06-13T15:30:00.123").unwrap(),
        price: -71.25,
    };
    let text = price.encode();
    let frame = read_frame(&text).unwrap();
    let Frame::Price {
        curve_id,
        tenor,
        at,
        price: value,
    } = frame
    else {
        panic!("not a price");
    };
    assert!(matches!(curve_id, Cow::Borrowed(_)));
    assert_eq!((&*curve_id, &*tenor), ("c-1", "26-EOM Feb 24"));
    assert_eq!((at, value), (price.generated_on, price.price));
}

#[test]
fn other_time_shapes_and_escapes_still_read() {
    let text = json!({"type": "price", "payload": {"id": "c\"1", "tenor": "Jan 26",
            "generatedOn": "2025-06-13T15:30:00.5", "price": 1}})
    .to_string();
    let Frame::Price { curve_id, at, .. } = read_frame(&text).unwrap() else {
        panic!("not a price");
    };
    assert_eq!(curve_id, "c\"1");
    assert_eq!(at, parse_timestamp("2025-06-13T15:30:00.500").unwrap());
}

#[test]
fn the_fast_time_reader_agrees_with_the_general_one() {
    for text in [
        "2025-06-13T15:30:00.123",
        "2024-02-29T23:59:59.999",
        "1999-01-01T00:00:00.000",
    ] {
        assert_eq!(millis_timestamp(text), parse_timestamp(text).ok(), "{text}");
    }
    for text in [
        "2025-02-30T00:00:00.000",
        "2025-06-13 15:30:00.123",
        "2025-06-13T15:30:00.12x",
    ] {
        assert_eq!(millis_timestamp(text), None, "{text}");
    }
}

#[test]
fn other_messages_and_broken_frames_go_through_the_domain_reader() {
    assert_eq!(
        read_frame(r#"{"type":"pong","payload":{"name":"k"}}"#).unwrap(),
        Frame::Other(ServerMessage::Pong(json!({"name": "k"})))
    );
    assert_eq!(
        read_frame(r#"{"type":"auth-success"}"#).unwrap(),
        Frame::Other(ServerMessage::AuthSuccess)
    );
    assert!(read_frame("{").is_err());
    assert!(read_frame(r#"{"type":"price","payload":{"id":"c"}}"#).is_err());
}

#[test]
fn a_frame_the_domain_reader_refuses_is_refused_here_too() {
    // Found by the live_message property: a price frame that repeats
    // `message` was read here and refused by decode_server_message.
    let text = r#"{"type":"price","payload":{"id":"c","tenor":"Jan 26",
            "generatedOn":"2025-06-13T15:30:00.123","price":1},"message":1,"message":2}"#;
    let domain = decode_server_message(text).unwrap_err();
    assert_eq!(read_frame(text).unwrap_err(), domain);
}

#[test]
fn tokens_never_survive_scrubbing() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln";
    let scrubbed = scrub(&format!("bad token {jwt}: refused"), None);
    assert_eq!(scrubbed, "bad token ***: refused");
    assert_eq!(
        scrub("opaque-secret seen", Some("opaque-secret")),
        "*** seen"
    );
    assert!(scrub(&"x".repeat(500), None).chars().count() <= 201);
}
