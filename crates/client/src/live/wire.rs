//! Reading server frames fast: a price frame, by far the most common, is
//! read in place (curve and tenor borrowed from the frame, the time parsed
//! without a format string); anything else goes through the lenient reader
//! of the domain.

use std::borrow::Cow;

use chrono::NaiveDate;
use serde::de::IgnoredAny;
use serde::Deserialize;

use domain::live::{decode_server_message, MessageError, ServerMessage, PRICE};
use domain::timestamp::{parse_timestamp, Micros};

/// A frame from the server.
#[derive(Debug, PartialEq)]
pub(crate) enum Frame<'a> {
    Price {
        curve_id: Cow<'a, str>,
        tenor: Cow<'a, str>,
        at: Micros,
        price: f64,
    },
    Other(ServerMessage),
}

#[derive(Deserialize)]
struct PriceFrame<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    payload: PricePayload<'a>,
    // Not used, but known, so that a frame that repeats it is refused here
    // as by the domain's reader, which reads an error's `message`.
    #[serde(rename = "message", default)]
    _message: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct PricePayload<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    tenor: Cow<'a, str>,
    #[serde(rename = "generatedOn", borrow)]
    generated_on: Cow<'a, str>,
    price: f64,
}

pub(crate) fn read_frame(text: &str) -> Result<Frame<'_>, MessageError> {
    if let Ok(frame) = serde_json::from_str::<PriceFrame<'_>>(text) {
        if frame.kind == PRICE {
            let payload = frame.payload;
            if let Some(at) = millis_timestamp(&payload.generated_on)
                .or_else(|| parse_timestamp(&payload.generated_on).ok())
            {
                return Ok(Frame::Price {
                    curve_id: payload.id,
                    tenor: payload.tenor,
                    at,
                    price: payload.price,
                });
            }
        }
    }
    match decode_server_message(text)? {
        ServerMessage::Price(price) => Ok(Frame::Price {
            curve_id: Cow::Owned(price.curve_id),
            tenor: Cow::Owned(price.tenor),
            at: price.generated_on,
            price: price.price,
        }),
        other => Ok(Frame::Other(other)),
    }
}

/// `YYYY-MM-DDTHH:MM:SS.fff`, the feed's own shape; None for any other.
fn millis_timestamp(text: &str) -> Option<Micros> {
    let b = text.as_bytes();
    if b.len() != 23
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'.'
    {
        return None;
    }
    let number = |from: usize, to: usize| -> Option<u32> {
        b[from..to].iter().try_fold(0u32, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let date = NaiveDate::from_ymd_opt(number(0, 4)? as i32, number(5, 7)?, number(8, 10)?)?;
    let time = date.and_hms_milli_opt(
        number(11, 13)?,
        number(14, 16)?,
        number(17, 19)?,
        number(20, 23)?,
    )?;
    Some(time.and_utc().timestamp_micros())
}

/// Text from the server made safe to log or put in an error: the token of
/// the connection and anything shaped like a JWT are replaced, and it is
/// cut to a readable length.
pub(crate) fn scrub(text: &str, token: Option<&str>) -> String {
    let mut text = match token {
        Some(token) if !token.is_empty() => text.replace(token, "***"),
        _ => text.to_owned(),
    };
    while let Some(start) = text.find("eyJ") {
        let rest = &text[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=')))
            .unwrap_or(rest.len());
        text.replace_range(start..start + end, "***");
    }
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
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
}
