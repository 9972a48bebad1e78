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
#[path = "wire_tests.rs"]
mod tests;
