use super::*;

const CURVE: &str = "6f1e2d3c-0000-4000-8000-000000000001";

fn decode(
    endpoint: PriceEndpoint,
    body: &str,
    tenor: Option<&str>,
) -> Result<Vec<PriceRow>, DecodeError> {
    let request = RequestContext {
        curve_id: CURVE,
        tenor,
    };
    decode_price_rows(endpoint, body.as_bytes(), request)
}

#[test]
fn one_last_settlement_record() {
    let body = r#"{"generatedOn":"2025-06-13T15:30:00.5","price":81.25,"units":"$/bbl",
        "tenor":"Aug 25","dependencies":[],"metadata":[{"name":"monthName","value":"August"}]}"#;
    let rows = decode(PriceEndpoint::LastSettlement, body, Some("Aug 25")).unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(&*row.curve_id, CURVE);
    assert_eq!(row.tenor.name(), "Aug 25");
    assert_eq!(row.price, 81.25);
    assert_eq!(row.generated_on, Some(1_749_828_600_500_000));
    assert_eq!(row.dependencies.as_deref(), Some(&[][..]));
    assert_eq!(
        row.metadata,
        Some(vec![("monthName".to_owned(), Some("August".to_owned()))])
    );
}

#[test]
fn fields_in_any_order_and_any_fraction_length() {
    for fraction in ["", ".1", ".12", ".123", ".1234", ".12345", ".123456"] {
        let body = format!(
            r#"{{"items":[{{"tenor":"Jan 26","price":1,"generatedOn":"2025-06-13T15:30:00{fraction}"}}],"last":null,"next":null,"self":null,"prev":null}}"#
        );
        let rows = decode(PriceEndpoint::OngoingIntraday, &body, Some("Jan 26")).unwrap();
        let micros = rows[0].generated_on.unwrap() % 1_000_000;
        let expected = format!("{:0<6}", fraction.trim_start_matches('.'));
        assert_eq!(micros, expected.parse::<i64>().unwrap(), "{fraction:?}");
    }
}

#[test]
fn missing_optional_fields_become_none() {
    let rows = decode(
        PriceEndpoint::LastSettlementAll,
        r#"{"items":[{"price":1.5,"tenor":"Q1 26"},{"price":2,"tenor":"C 00","units":null,"generatedOn":null,"dependencies":null,"metadata":null}]}"#,
        None,
    )
    .unwrap();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row.generated_on, None);
        assert_eq!(row.units, None);
        assert_eq!(row.dependencies, None);
        assert_eq!(row.metadata, None);
    }
}

#[test]
fn a_record_without_price_or_tenor_names_the_field() {
    let err = decode(
        PriceEndpoint::LastSettlementAll,
        r#"{"items":[{"price":1,"tenor":"Jan 26"},{"tenor":"Feb 26"}]}"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, "items[1].price");
    assert_eq!(err.endpoint, "GET /ongoing/last-settlement/<curve_id>");

    let err = decode(
        PriceEndpoint::LastSettlementAll,
        r#"{"items":[{"price":1}]}"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, "items[0].tenor");

    let err = decode(
        PriceEndpoint::LastSettlement,
        r#"{"price":null,"tenor":"Jan 26"}"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, "price");
    assert!(err.to_string().contains("`price`"), "{err}");
}

#[test]
fn a_missing_tenor_is_taken_from_the_request_path() {
    let rows = decode(
        PriceEndpoint::LastSettlement,
        r#"{"price":3}"#,
        Some("Mar 26"),
    )
    .unwrap();
    assert_eq!(rows[0].tenor.name(), "Mar 26");
}

#[test]
fn wrong_types_and_bad_timestamps_name_the_field() {
    let err = decode(
        PriceEndpoint::HistoricalSettlements,
        r#"[{"date":"2025-06-13","value":{"price":"high","tenor":"Jan 26"}}]"#,
        Some("Jan 26"),
    )
    .unwrap_err();
    assert_eq!(err.field, "[0].value.price");

    let err = decode(
        PriceEndpoint::OngoingIntraday,
        r#"{"items":[{"price":1,"tenor":"Jan 26","generatedOn":"13/06/2025"}]}"#,
        Some("Jan 26"),
    )
    .unwrap_err();
    assert_eq!(err.field, "items[0].generatedOn");
    assert!(err.reason.contains("13/06/2025"));

    let err = decode(PriceEndpoint::LastSettlement, "<html>502</html>", None).unwrap_err();
    assert_eq!(err.field, ".");
    let err = decode(
        PriceEndpoint::LastSettlement,
        r#"{"price":1,"tenor":"x"} trailing"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, ".");
}

#[test]
fn historical_settlements_carry_their_date() {
    let body = r#"[
        {"date":"2025-06-13","value":{"generatedOn":"2025-06-13T15:30:00","price":700,"tenor":"Jul 25"}},
        null,
        {"value":{"price":699,"tenor":"Jul 25"}}
    ]"#;
    let rows = decode(PriceEndpoint::HistoricalSettlements, body, Some("Jul 25")).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].date, chrono::NaiveDate::from_ymd_opt(2025, 6, 13));
    assert_eq!(rows[1].date, None);

    let err = decode(
        PriceEndpoint::HistoricalSettlements,
        r#"[{"date":"2025-06-13"}]"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, "[0].value");
    let err = decode(
        PriceEndpoint::HistoricalSettlements,
        r#"[{"date":"13 June","value":{"price":1,"tenor":"Jul 25"}}]"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, "[0].date");
}

#[test]
fn assessments_give_one_row_per_published_snapshot() {
    let body = r#"{"items":[
        {"tenor":"Jan 26",
         "singaporeSnapshot":{"generatedOn":"2025-06-13T08:30:00","price":1,"tenor":"Jan 26"},
         "londonSnapshot":{"generatedOn":"2025-06-13T15:30:00","price":2},
         "newYorkSnapshot":null},
        {"tenor":"Feb 26","newYorkSnapshot":{"price":3,"tenor":"Feb 26"}}
    ]}"#;
    let rows = decode(PriceEndpoint::LastAssessmentsAll, body, None).unwrap();
    let got: Vec<(&str, Snapshot, f64)> = rows
        .iter()
        .map(|r| (r.tenor.name(), r.snapshot.unwrap(), r.price))
        .collect();
    assert_eq!(
        got,
        [
            ("Jan 26", Snapshot::Singapore, 1.0),
            ("Jan 26", Snapshot::London, 2.0),
            ("Feb 26", Snapshot::NewYork, 3.0),
        ]
    );
    let err = decode(
        PriceEndpoint::LastAssessmentsAll,
        r#"{"items":[{"londonSnapshot":{"price":2}}]}"#,
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, "items[0].londonSnapshot.tenor");
}

#[test]
fn an_empty_or_null_body_gives_no_rows() {
    assert!(decode(PriceEndpoint::HistoricalSettlements, "[]", None)
        .unwrap()
        .is_empty());
    assert!(decode(PriceEndpoint::HistoricalSettlements, "null", None)
        .unwrap()
        .is_empty());
    assert!(
        decode(PriceEndpoint::OngoingIntraday, r#"{"items":[]}"#, None)
            .unwrap()
            .is_empty()
    );
    assert!(decode(PriceEndpoint::LastSettlementAll, "{}", None)
        .unwrap()
        .is_empty());
}

#[test]
fn a_field_whose_key_is_empty_is_still_named() {
    // Found by fuzzing: the error named the field as "", which reads as none.
    let err = decode(
        PriceEndpoint::LastSettlement,
        "{\"\":\"a\u{1}b\",\"price\":1,\"tenor\":\"Jan 26\"}",
        None,
    )
    .unwrap_err();
    assert_eq!(err.field, r#""""#);
    assert!(err.to_string().contains(r#"field `""`"#), "{err}");
}

#[test]
fn prices_are_read_as_the_exact_number_written() {
    // Found by fuzzing: serde_json's default float parsing read some
    // full-precision numbers 1 ULP away (about 1 price in 8).
    for (text, exact) in [
        ("113.40381055033089", 113.403_810_550_330_89_f64),
        ("-4.444444444444445e62", -4.444_444_444_444_445e62),
    ] {
        let body = format!(r#"{{"price":{text},"tenor":"Jan 26"}}"#);
        let rows = decode(PriceEndpoint::LastSettlement, &body, None).unwrap();
        assert_eq!(rows[0].price.to_bits(), exact.to_bits(), "{text}");
    }
}
