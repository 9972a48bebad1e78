use proptest::prelude::*;

use super::*;

const CURVE: &str = "6f1e2d3c-0000-4000-8000-000000000001";
const TENOR: &str = "Jan 26";
const ENDPOINT: PriceEndpoint = PriceEndpoint::HistoricalIntraday;

fn request() -> RequestContext<'static> {
    RequestContext {
        curve_id: CURVE,
        tenor: Some(TENOR),
    }
}

fn general(body: &str) -> Result<PricePage, String> {
    general_with(body, Detail::Full)
}

fn general_with(body: &str, detail: Detail) -> Result<PricePage, String> {
    read_in_general(ENDPOINT, body.as_bytes(), request(), detail).map_err(|e| e.to_string())
}

fn decoded(body: &str) -> Result<PricePage, String> {
    decoded_with(body, Detail::Full)
}

fn decoded_with(body: &str, detail: Detail) -> Result<PricePage, String> {
    decode_price_page(ENDPOINT, body.as_bytes(), request(), detail).map_err(|e| e.to_string())
}

/// Whether the body is read in one pass, not sent to the general path.
fn in_one_pass(body: &str) -> bool {
    read_in_one_pass(body.as_bytes(), CURVE, TENOR, Detail::Full).is_some()
}

/// `page` with its dependencies and metadata null: what `Detail::Values`
/// reads of the same body.
fn values_of(page: &PricePage) -> PricePage {
    let batch = &page.batch;
    let schema = batch.schema();
    let columns = schema
        .fields()
        .iter()
        .zip(batch.columns())
        .map(|(field, column)| match field.name().as_str() {
            "dependencies" | "metadata" => {
                arrow_array::new_null_array(field.data_type(), batch.num_rows())
            }
            _ => column.clone(),
        })
        .collect();
    PricePage {
        batch: RecordBatch::try_new(schema.clone(), columns).unwrap(),
        ..page.clone()
    }
}

/// The page decoded, after checking that the general path gives the same,
/// and that both read its values alone as the page without its details.
fn page(body: &str) -> PricePage {
    let page = decoded(body).unwrap();
    assert_eq!(Ok(&page), general(body).as_ref(), "{body}");
    let values = values_of(&page);
    assert_eq!(
        Ok(&values),
        decoded_with(body, Detail::Values).as_ref(),
        "{body}"
    );
    assert_eq!(
        Ok(&values),
        general_with(body, Detail::Values).as_ref(),
        "{body}"
    );
    page
}

const USUAL: &str = r#"{"items":[
  {"generatedOn":"2025-03-17T01:40:05.675","price":7.76,"units":"$/bbl","tenor":"Jan 26",
   "dependencies":[{"id":"a","name":"Gasoline \"HOU\"","value":225.527,"units":"c/gal","tenorName":"Jan 26"}],
   "metadata":[{"name":"monthName","value":"Janvier \u00e9t\u00e9"},{"name":"monthNumber","value":"1"}]},
  {"generatedOn":"2025-03-17T01:41:24","price":7.77,"units":"$/bbl","tenor":"Jan 26",
   "dependencies":[],"metadata":[]}
 ],
 "self":"https://svc/v2/x?page=2&pageSize=100","prev":"https://svc/v2/x?page=1&pageSize=100",
 "next":"https://svc/v2/x?page=3&pageSize=100","last":"https://svc/v2/x?page=29&pageSize=100"}"#;

#[test]
fn the_usual_page_is_read_in_one_pass_as_the_general_path_reads_it() {
    assert!(in_one_pass(USUAL));
    let page = page(USUAL);
    assert_eq!(page.records, 2);
    assert_eq!(page.batch.num_rows(), 2);
    assert_eq!(
        page.next.as_deref(),
        Some("https://svc/v2/x?page=3&pageSize=100")
    );
    assert_eq!(
        page.last.as_deref(),
        Some("https://svc/v2/x?page=29&pageSize=100")
    );
}

#[test]
fn variations_the_interface_allows_stay_in_one_pass() {
    let bodies = [
        // Fields in any order, unknown fields of any shape, absent fields.
        r#"{"last":null,"extra":{"a":[1,{"b":null}]},"items":[{"price":1,"generatedOn":"2025-06-13T15:30:00.123456","more":[1]}]}"#,
        // Nulls: fields, list entries, whole lists.
        r#"{"items":[null,{"generatedOn":"2025-06-13T15:30:00","price":1,"units":null,"tenor":null,
            "dependencies":[null,{"id":null,"value":null}],"metadata":null},null]}"#,
        r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":2,"dependencies":null,
            "metadata":[null,{"value":"no name, so left out"},{"name":"k"},{"name":"k2","value":null}]}]}"#,
        // No items at all, null items, an empty list.
        r#"{}"#,
        r#"{"items":null,"next":null}"#,
        r#"{"items":[]}"#,
        // Times with a UTC suffix or a space.
        r#"{"items":[{"generatedOn":"2025-06-13 15:30:00Z","price":1},{"generatedOn":"2025-06-13T15:31:00+00:00","price":1}]}"#,
        // Keys and values with escapes.
        r#"{"it\u0065ms":[{"generatedOn":"2025-06-13T15:30:00","pri\u0063e":3,"units":"\u0024/bbl"}]}"#,
    ];
    for body in bodies {
        assert!(in_one_pass(body), "{body}");
        page(body);
    }
}

#[test]
fn unusual_pages_take_the_general_path_and_read_the_same() {
    let bodies = [
        // Out of order, and a record repeated (the general path sorts and
        // keeps one of each).
        r#"{"items":[{"generatedOn":"2025-06-13T15:31:00","price":1},{"generatedOn":"2025-06-13T15:30:00","price":2}]}"#,
        r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1},{"generatedOn":"2025-06-13T15:30:00","price":1}]}"#,
        // Without a time, or of another tenor than the request's.
        r#"{"items":[{"price":1}]}"#,
        r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,"tenor":"Feb 26"}]}"#,
        // Metadata values that are numbers or booleans, kept as text.
        r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,"metadata":[{"name":"n","value":6},{"name":"b","value":true}]}]}"#,
        // A record as a list of its fields' values.
        r#"{"items":[["2025-06-13T15:30:00",1,"$/bbl","Jan 26",null,null]]}"#,
    ];
    for body in bodies {
        assert!(!in_one_pass(body), "{body}");
        page(body);
    }
}

#[test]
fn errors_are_the_general_paths_naming_the_field() {
    let cases = [
        (
            r#"{"items":[{"generatedOn":"2025-06-13T15:30:00"}]}"#,
            "items[0].price",
        ),
        (
            r#"{"items":[{"generatedOn":"yesterday","price":1}]}"#,
            "items[0].generatedOn",
        ),
        (
            r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":"1"}]}"#,
            "items[0].price",
        ),
        (
            r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,"price":2}]}"#,
            "items[0]",
        ),
        (r#"{"items":{}}"#, "items"),
        (r#"{"items":[]} trailing"#, "."),
    ];
    for (body, field) in cases {
        let error = decoded(body).unwrap_err();
        assert_eq!(Err(error.clone()), general(body), "{body}");
        assert_eq!(
            Err(error.clone()),
            decoded_with(body, Detail::Values),
            "{body}"
        );
        assert!(
            error.contains(&format!("field `{field}`")),
            "{body}: {error}"
        );
    }
}

#[test]
fn a_page_without_a_request_tenor_takes_the_general_path() {
    let body = r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,"tenor":"Jan 26"}]}"#;
    let request = RequestContext {
        curve_id: CURVE,
        tenor: None,
    };
    let page = decode_price_page(ENDPOINT, body.as_bytes(), request, Detail::Full).unwrap();
    assert_eq!(page.batch.num_rows(), 1);
}

#[test]
fn values_alone_leave_details_unread_but_still_refuse_them_twice() {
    // Details of a shape the full reading refuses are not read at all.
    let odd = r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,
        "dependencies":"none","metadata":{"name":"k"}}]}"#;
    assert!(decoded(odd).is_err());
    let page = decoded_with(odd, Detail::Values).unwrap();
    assert_eq!(page.batch.num_rows(), 1);
    assert_eq!(
        page.batch
            .column_by_name("dependencies")
            .unwrap()
            .null_count(),
        1
    );
    for twice in [
        r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,"dependencies":[],"dependencies":[]}]}"#,
        r#"{"items":[{"generatedOn":"2025-06-13T15:30:00","price":1,"metadata":[],"metadata":null}]}"#,
    ] {
        let error = decoded_with(twice, Detail::Values).unwrap_err();
        assert_eq!(Err(error.clone()), decoded(twice), "{twice}");
        assert!(error.contains("duplicate field"), "{twice}: {error}");
    }
}

/// A record as a list of `(key, JSON)` fields, written in the order given.
fn record_text(fields: &[(String, String)]) -> String {
    let fields: Vec<String> = fields.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
    format!("{{{}}}", fields.join(","))
}

fn text_or_null() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_owned()),
        Just(r#""$/bbl""#.to_owned()),
        Just(r#""c/gal""#.to_owned()),
        Just(r#""\"quoted\" \u00e9""#.to_owned()),
        Just("7".to_owned()),
    ]
}

fn dependency() -> impl Strategy<Value = String> {
    let field = |key: &'static str| {
        prop_oneof![
            Just(None),
            text_or_null().prop_map(move |v| Some((key.to_owned(), v)))
        ]
    };
    let value = prop_oneof![Just("null"), Just("1.5"), Just("-2"), Just("\"x\"")];
    (
        field("id"),
        field("name"),
        proptest::option::of(value),
        field("units"),
        field("tenorName"),
        any::<bool>(),
    )
        .prop_map(|(id, name, value, units, tenor_name, null)| {
            if null {
                return "null".to_owned();
            }
            let value = value.map(|v| ("value".to_owned(), v.to_owned()));
            record_text(
                &[id, name, value, units, tenor_name]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>(),
            )
        })
}

fn metadata_entry() -> impl Strategy<Value = String> {
    (
        proptest::option::of(text_or_null()),
        proptest::option::of(text_or_null()),
        any::<bool>(),
    )
        .prop_map(|(name, value, null)| {
            if null {
                return "null".to_owned();
            }
            let fields: Vec<(String, String)> = [("name", name), ("value", value)]
                .into_iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v?)))
                .collect();
            record_text(&fields)
        })
}

fn list_of(entry: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_owned()),
        proptest::collection::vec(entry, 0..3).prop_map(|e| format!("[{}]", e.join(","))),
    ]
}

/// A record of a page: its time is `step` seconds after the last one's
/// (0 repeats it, so the page is not the usual one).
fn record() -> impl Strategy<Value = (u8, Vec<(String, String)>)> {
    (
        0u8..4,
        proptest::option::of(prop_oneof![Just("1.25"), Just("null"), Just("3")]),
        proptest::option::of(text_or_null()),
        proptest::option::of(prop_oneof![
            Just(r#""Jan 26""#),
            Just("null"),
            Just(r#""Feb 26""#)
        ]),
        proptest::option::of(list_of(dependency())),
        proptest::option::of(list_of(metadata_entry())),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(step, price, units, tenor, dependencies, metadata, no_time, reverse)| {
                let mut fields: Vec<(String, String)> = [
                    ("price", price.map(str::to_owned)),
                    ("units", units),
                    ("tenor", tenor.map(str::to_owned)),
                    ("dependencies", dependencies),
                    ("metadata", metadata),
                    ("extra", Some(r#"{"x":[1,null]}"#.to_owned())),
                ]
                .into_iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v?)))
                .collect();
                if !no_time {
                    fields.push(("generatedOn".to_owned(), String::new()));
                }
                if reverse {
                    fields.reverse();
                }
                (step, fields)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Whatever the page, the decoding gives what the general path gives:
    /// the same batch and links, or the same error.
    #[test]
    fn any_page_reads_as_the_general_path_reads_it(
        records in proptest::collection::vec(record(), 0..6),
        null_entries in any::<bool>(),
    ) {
        let mut seconds = 0u32;
        let mut items: Vec<String> = Vec::new();
        for (step, mut fields) in records {
            seconds += u32::from(step);
            for (key, value) in &mut fields {
                if key == "generatedOn" {
                    *value = format!(r#""2025-06-13T15:{:02}:{:02}""#, seconds / 60, seconds % 60);
                }
            }
            items.push(record_text(&fields));
            if null_entries {
                items.push("null".to_owned());
            }
        }
        let body = format!(r#"{{"items":[{}],"next":null,"last":"https://svc/v2/x?page=1"}}"#, items.join(","));
        prop_assert_eq!(decoded(&body), general(&body), "{}", body);
        // Values alone: the page without its details, wherever the full
        // reading succeeds (elsewhere the details' shape may be what failed).
        if let Ok(full) = general(&body) {
            let values = Ok(values_of(&full));
            prop_assert_eq!(&decoded_with(&body, Detail::Values), &values, "{}", body);
            prop_assert_eq!(&general_with(&body, Detail::Values), &values, "{}", body);
        }
    }
}
