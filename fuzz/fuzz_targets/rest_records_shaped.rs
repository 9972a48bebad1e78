//! REST bodies built from the interface's field names and value shapes, so
//! that the fuzzer spends its time past the JSON syntax, in the records
//! (see marketcurves_live::fuzzing::rest_records for the properties).
#![no_main]

use marketcurves_live::fuzzing::INTERFACE_KEYS;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

#[derive(Arbitrary, Debug)]
enum Json {
    Null,
    Bool(bool),
    Integer(i64),
    Float(f64),
    Text(Text),
    Array(Vec<Json>),
    Object(Vec<(Key, Json)>),
}

#[derive(Arbitrary, Debug)]
enum Key {
    Known(u8),
    Other(String),
}

#[derive(Arbitrary, Debug)]
enum Text {
    /// `YYYY-MM-DDTHH:MM:SS[.f…]`, with each number free to be out of range.
    Timestamp {
        date: (u16, u8, u8),
        time: (u8, u8, u8),
        fraction: Option<(u32, u8)>,
        utc_suffix: bool,
    },
    Date(u16, u8, u8),
    Tenor(u8, u8),
    Any(String),
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl Text {
    fn render(&self) -> String {
        match self {
            Text::Timestamp {
                date: (y, mo, d),
                time: (h, mi, s),
                fraction,
                utc_suffix,
            } => {
                let mut text = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
                if let Some((digits, length)) = fraction {
                    let digits = format!("{digits:010}");
                    text.push('.');
                    text.push_str(&digits[..usize::from(*length % 11)]);
                }
                if *utc_suffix {
                    text.push('Z');
                }
                text
            }
            Text::Date(y, mo, d) => format!("{y:04}-{mo:02}-{d:02}"),
            Text::Tenor(shape, year) => {
                let month = MONTHS[usize::from(*shape) % 12];
                match shape / 12 % 4 {
                    0 => format!("{month} {:02}", year % 100),
                    1 => format!("Q{} {:02}", shape % 6, year % 100),
                    2 => format!("{}-EOM {month} {:02}", 1 + shape % 30, year % 100),
                    _ => format!("C {:02}", year % 4),
                }
            }
            Text::Any(text) => text.clone(),
        }
    }
}

impl Json {
    fn value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::from(*b),
            Json::Integer(n) => Value::from(*n),
            Json::Float(x) => Value::from(*x),
            Json::Text(text) => Value::from(text.render()),
            Json::Array(items) => items.iter().map(Json::value).collect(),
            Json::Object(fields) => {
                let object: Map<String, Value> = fields
                    .iter()
                    .map(|(key, value)| (key.name(), value.value()))
                    .collect();
                Value::Object(object)
            }
        }
    }
}

impl Key {
    fn name(&self) -> String {
        match self {
            Key::Known(i) => INTERFACE_KEYS[usize::from(*i) % INTERFACE_KEYS.len()].to_owned(),
            Key::Other(name) => name.clone(),
        }
    }
}

fuzz_target!(|body: Json| {
    marketcurves_live::fuzzing::rest_records(body.value().to_string().as_bytes());
});
