//! Price frames made fast, for the firehose: the parts of a key's frame that
//! never change are escaped once, the date and time are formatted once per
//! second, and frames are cut from one large buffer, so a frame costs no
//! allocation of its own. The bytes are exactly those of
//! [`LivePrice::encode`](domain::live::LivePrice::encode).

use axum::extract::ws::Utf8Bytes;
use bytes::{BufMut, BytesMut};
use chrono::DateTime;

use domain::timestamp::Micros;

/// serde_json writes object keys in sorted order: `payload` before `type`,
/// and `generatedOn`, `id`, `price`, `tenor` inside the payload.
const HEAD: &[u8] = br#"{"payload":{"generatedOn":""#;
const BUFFER: usize = 64 * 1024;

/// The unchanging parts of one key's price frames.
#[derive(Debug)]
pub(crate) struct FramePieces {
    /// `","id":"<id>","price":`
    after_time: Vec<u8>,
    /// `,"tenor":"<tenor>"},"type":"price"}`
    after_price: Vec<u8>,
}

impl FramePieces {
    pub(crate) fn new(curve_id: &str, tenor: &str) -> FramePieces {
        let quoted = |s: &str| serde_json::to_string(s).expect("a string serializes");
        FramePieces {
            after_time: format!(r#"","id":{},"price":"#, quoted(curve_id)).into_bytes(),
            after_price: format!(r#","tenor":{}}},"type":"price"}}"#, quoted(tenor)).into_bytes(),
        }
    }
}

/// Encodes price frames; one per writer.
pub(crate) struct FrameEncoder {
    buffer: BytesMut,
    second: i64,
    /// `YYYY-MM-DDTHH:MM:SS` of `second`.
    second_text: String,
}

impl Default for FrameEncoder {
    fn default() -> Self {
        FrameEncoder {
            buffer: BytesMut::with_capacity(BUFFER),
            second: i64::MIN,
            second_text: String::new(),
        }
    }
}

impl FrameEncoder {
    /// The frame of a value at `at` (printed in milliseconds, truncated).
    pub(crate) fn encode(&mut self, pieces: &FramePieces, at: Micros, price: f64) -> Utf8Bytes {
        let second = at.div_euclid(1_000_000);
        if second != self.second {
            let time = DateTime::from_timestamp(second, 0).expect("in range");
            self.second_text = time.format("%Y-%m-%dT%H:%M:%S").to_string();
            self.second = second;
        }
        let millis = at.rem_euclid(1_000_000) / 1_000;
        if self.buffer.capacity() - self.buffer.len() < 512 {
            self.buffer.reserve(BUFFER);
        }
        let buffer = &mut self.buffer;
        buffer.put_slice(HEAD);
        buffer.put_slice(self.second_text.as_bytes());
        let digits = [
            b'.',
            b'0' + (millis / 100) as u8,
            b'0' + (millis / 10 % 10) as u8,
            b'0' + (millis % 10) as u8,
        ];
        buffer.put_slice(&digits);
        buffer.put_slice(&pieces.after_time);
        serde_json::to_writer(buffer.writer(), &price).expect("writing to memory");
        let buffer = &mut self.buffer;
        buffer.put_slice(&pieces.after_price);
        let frame = buffer.split().freeze();
        Utf8Bytes::try_from(frame).expect("JSON text is UTF-8")
    }
}

#[cfg(test)]
#[path = "frame_tests.rs"]
mod tests;
