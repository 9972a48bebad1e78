//! The fuzz targets' smoke run, on stable: every property on the committed//! seed corpus (`fuzz/corpus/<target>/`) and on a few thousand generated
//! inputs shaped like what the service sends. A few seconds in all.

use std::path::PathBuf;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::*;

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 5] = [
    ("tenor", tenor),
    ("timestamp", timestamp),
    ("rest_records", rest_records),
    ("live_message", live_message),
    ("bulk_path", bulk_path),
];

fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
    let files: Vec<_> = entries
        .map(|entry| entry.unwrap().path())
        .map(|path| (path.clone(), std::fs::read(&path).unwrap()))
        .collect();
    assert!(files.len() >= 3, "{dir:?} holds {} seeds", files.len());
    files
}

#[test]
fn every_seed_of_the_corpus_keeps_every_property() {
    for (target, check) in TARGETS {
        for (path, data) in seeds(target) {
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}: seed {path:?}");
        }
    }
}

const MONTH_WORDS: &str = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|jan|DEC|[A-Za-z]{3})";

fn matching(regex: &str) -> impl Strategy<Value = String> {
    proptest::string::string_regex(regex).expect("a valid regex")
}

fn tenor_names() -> impl Strategy<Value = String> {
    prop_oneof![
        "[Cc] [0-9]{1,3}",
        "[Qq][0-9] [0-9]{2}",
        matching(&format!("{MONTH_WORDS} [0-9]{{1,3}}")),
        matching(&format!(
            "(1|6|11|16|21|26|0?[0-9]{{1,2}})-(5|10|15|20|25|EOM|eom|Eom|0?[0-9]{{1,2}}) {MONTH_WORDS} [0-9]{{2}}"
        )),
        "[A-Za-z0-9 -]{0,14}",
        ".{0,8}",
    ]
}

/// Instants from 1900 to 2100 written with 0 to 9 fractional digits.
fn valid_timestamps() -> impl Strategy<Value = String> {
    let range = -2_208_988_800_000_000_i64..4_102_444_800_000_000;
    let suffix = prop_oneof![Just(""), Just("Z"), Just("+00:00")];
    (range, 0..=9_usize, "[0-9]{3}", suffix).prop_map(|(at, digits, nanos, suffix)| {
        let instant = DateTime::from_timestamp_micros(at).expect("in range");
        let full = instant.format("%Y-%m-%dT%H:%M:%S%.6f").to_string() + &nanos;
        let (whole, fraction) = full.split_once('.').expect("a fraction");
        with_fraction_length(whole, fraction, digits) + suffix
    })
}

fn timestamps() -> impl Strategy<Value = String> {
    prop_oneof![
        valid_timestamps(),
        "[+-]?[0-9]{4,6}-[0-9]{1,2}-[0-9]{1,2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,10})?(Z|\\+00:00|\\+01:00)?",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}",
        "[0-9T:. Z+-]{0,30}",
    ]
}

/// Field names of the interface's records, and a few others.
fn keys() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(INTERFACE_KEYS.to_vec()).prop_map(str::to_owned),
        "[a-z]{1,6}",
    ]
}

fn scalars() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        timestamps().prop_map(Value::from),
        tenor_names().prop_map(Value::from),
        "[0-9]{4}-[0-9]{2}-[0-9]{2}".prop_map(Value::from),
        ".{0,6}".prop_map(Value::from),
    ]
}

/// JSON trees built from the interface's field names and value shapes.
fn json_trees() -> impl Strategy<Value = Value> {
    scalars().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::vec((keys(), inner), 0..8)
                .prop_map(|fields| Value::Object(fields.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A price record of the interface, with each field possibly missing or odd.
fn price_records() -> impl Strategy<Value = Value> {
    let field = |value: BoxedStrategy<Value>| prop::option::weighted(0.8, value);
    (
        field(timestamps().prop_map(Value::from).boxed()),
        field(prop_oneof![any::<f64>().prop_map(Value::from), scalars()].boxed()),
        field(tenor_names().prop_map(Value::from).boxed()),
        field(json_trees().boxed()),
    )
        .prop_map(|(generated_on, price, tenor, extra)| {
            let mut record = Map::new();
            let fields = [
                ("generatedOn", generated_on),
                ("price", price),
                ("tenor", tenor),
            ];
            for (name, value) in fields {
                if let Some(value) = value {
                    record.insert(name.to_owned(), value);
                }
            }
            record.insert("units".into(), json!("$/bbl"));
            record.insert("metadata".into(), extra.unwrap_or(Value::Null));
            Value::Object(record)
        })
}

fn rest_bodies() -> impl Strategy<Value = Vec<u8>> {
    let records = || prop::collection::vec(price_records(), 0..4);
    prop_oneof![
        price_records(),
        records().prop_map(|items| json!({"items": items, "next": null})),
        records().prop_map(|values| {
            let days: Vec<Value> = values
                .into_iter()
                .map(|value| json!({"date": "2025-06-13", "value": value}))
                .collect();
            Value::from(days)
        }),
        (price_records(), price_records()).prop_map(|(a, b)| {
            json!({"items": [{"tenor": "Jan 26", "singaporeSnapshot": a, "newYorkSnapshot": b}]})
        }),
        json_trees(),
    ]
    .prop_map(|body| body.to_string().into_bytes())
    .boxed()
    .prop_union(prop::collection::vec(any::<u8>(), 0..48).boxed())
    .boxed()
}

fn live_frames() -> impl Strategy<Value = String> {
    let kinds = prop_oneof![
        prop::sample::select(vec![
            "price",
            "pong",
            "auth-success",
            "auth-failed",
            "NO_ACCESS",
            "NOT_LOGGED",
        ])
        .prop_map(Value::from),
        scalars(),
    ];
    let price = (".{0,4}", tenor_names(), timestamps(), scalars()).prop_map(
        |(id, tenor, at, price)| json!({"id": id, "tenor": tenor, "generatedOn": at, "price": price}),
    );
    let payload = prop_oneof![price, json_trees()];
    let message = prop::option::of(scalars());
    let frame = (kinds, prop::option::of(payload), message).prop_map(|(kind, payload, message)| {
        let mut frame = Map::new();
        frame.insert("type".into(), kind);
        if let Some(payload) = payload {
            frame.insert("payload".into(), payload);
        }
        if let Some(message) = message {
            frame.insert("message".into(), message);
        }
        Value::Object(frame).to_string()
    });
    prop_oneof![4 => frame, 1 => ".{0,24}"]
}

fn bulk_paths() -> impl Strategy<Value = String> {
    prop_oneof![
        "(vertical=)?(Jet|Fuel Oil|JET| Jet|Jet |\\.\\.|[A-Za-z0-9 _./\\\\]{0,8})/(year=)?[0-9.]{2,5}/(month=)?[0-9]{1,3}",
        "vertical=[A-Za-z0-9 _]{0,42}/year=[0-9]{4}/month=[0-9]{2}",
        "(https://h/f/)?[A-Za-z0-9._%/?=-]{0,20}(\\.parquet)?(\\?X-Sig=1)?",
        ".{0,24}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 800,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn tenor_properties_hold(name in tenor_names()) {
        tenor(name.as_bytes());
    }

    #[test]
    fn timestamp_properties_hold(text in timestamps()) {
        timestamp(text.as_bytes());
    }

    #[test]
    fn rest_record_properties_hold(body in rest_bodies()) {
        rest_records(&body);
    }

    #[test]
    fn live_message_properties_hold(frame in live_frames()) {
        live_message(frame.as_bytes());
    }

    #[test]
    fn bulk_path_properties_hold(path in bulk_paths()) {
        bulk_path(path.as_bytes());
    }
}
