use chrono::NaiveDate;

use super::*;

const ID: &str = "425934c1-68dd-43eb-b8ee-477999b2f5ec";

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 5, d).unwrap()
}

/// The message of an `InvalidRequest`, or a panic if it is anything else.
fn refusal<T: std::fmt::Debug>(result: Result<T, ClientError>) -> String {
    match result {
        Err(ClientError::InvalidRequest(invalid)) => invalid.to_string(),
        other => panic!("expected InvalidRequest, got {other:?}"),
    }
}

/// Tenor names as the caller gives them.
fn names(tenors: &[&str]) -> Option<Vec<String>> {
    Some(tenors.iter().map(|t| t.to_string()).collect())
}

#[test]
fn a_price_query_trims_the_id_and_takes_one_tenor_or_all() {
    let one = PriceQuery::new(&format!("  {ID} "), Some("Jul 25")).unwrap();
    assert_eq!(one.curve_id(), ID);
    assert_eq!(one.tenor().map(Tenor::name), Some("Jul 25"));
    assert!(PriceQuery::new(ID, None).unwrap().tenor().is_none());
}

#[test]
fn a_price_query_refuses_bad_ids_and_tenors_naming_them() {
    for bad in ["", "   ", "ab\ncd"] {
        let message = refusal(PriceQuery::new(bad, Some("Jul 25")));
        assert!(message.starts_with("curve_id"), "{bad:?}: {message}");
    }
    for bad in ["", "  ", "Q5 25", "3-7 Jan 25", "Jan 25\n"] {
        let message = refusal(PriceQuery::new(ID, Some(bad)));
        assert!(message.starts_with("tenor"), "{bad:?}: {message}");
    }
}

#[test]
fn a_tenor_query_needs_a_valid_tenor() {
    let query = TenorQuery::new(ID, "26-EOM Feb 24").unwrap();
    assert_eq!(
        (query.curve_id(), query.tenor().name()),
        (ID, "26-EOM Feb 24")
    );
    assert!(refusal(TenorQuery::new(ID, "")).contains("tenor"));
    assert!(refusal(TenorQuery::new(ID, "32-EOM Jan 25")).contains("tenor"));
    assert!(refusal(TenorQuery::new(" ", "Jul 25")).contains("curve_id"));
}

#[test]
fn a_history_query_keeps_its_days_and_tenors() {
    let query = HistoryQuery::new(ID, day(1), day(31), None).unwrap();
    assert_eq!((query.start(), query.end()), (day(1), day(31)));
    assert!(query.tenors().is_none());
    let tenors = names(&["Jul 25", "Q3 25", "Jul 25"]);
    let query = HistoryQuery::new(ID, day(3), day(3), tenors).unwrap();
    let kept: Vec<&str> = query.tenors().unwrap().iter().map(Tenor::name).collect();
    assert_eq!(kept, ["Jul 25", "Q3 25", "Jul 25"]);
}

#[test]
fn a_history_query_refuses_a_reversed_range_and_bad_tenors() {
    let message = refusal(HistoryQuery::new(ID, day(31), day(1), None));
    assert_eq!(message, "start 2025-05-31 is after end 2025-05-01");
    let message = refusal(HistoryQuery::new(ID, day(1), day(31), Some(Vec::new())));
    assert!(
        message.starts_with("tenors must name at least one tenor"),
        "{message}"
    );
    let tenors = names(&["Jul 25", "Q5 25"]);
    let message = refusal(HistoryQuery::new(ID, day(1), day(31), tenors));
    assert!(message.contains("Q5 25"), "{message}");
    assert!(refusal(HistoryQuery::new("", day(1), day(31), None)).contains("curve_id"));
}

#[test]
fn a_catalogue_query_sends_the_interface_spelling() {
    let custom = vec![("grade".to_owned(), "A1".to_owned())];
    let query = CatalogueQuery::new(Some("fuel_oil"), None, Some("ara"), custom).unwrap();
    let params = query.params();
    assert_eq!(
        params,
        [
            ("filter[vertical]".to_owned(), "Fuel Oil".to_owned()),
            ("filter[region]".to_owned(), "ARA".to_owned()),
            ("filter[grade]".to_owned(), "A1".to_owned()),
        ]
    );
    assert!(CatalogueQuery::default().params().is_empty());
}

#[test]
fn a_catalogue_query_refuses_values_outside_the_vocabulary() {
    let message = refusal(CatalogueQuery::new(Some("Coal"), None, None, Vec::new()));
    assert!(
        message.contains("vertical") && message.contains("Fuel Oil"),
        "{message}"
    );
    let message = refusal(CatalogueQuery::new(
        Some("Jet"),
        Some("Blend"),
        None,
        Vec::new(),
    ));
    assert!(
        message.contains("quotation") && message.contains("of Jet"),
        "{message}"
    );
    let message = refusal(CatalogueQuery::new(None, None, Some(""), Vec::new()));
    assert!(message.starts_with("region"), "{message}");
}

#[test]
fn a_catalogue_query_refuses_blank_or_odd_custom_filters() {
    for key in ["", " ", "grade\n"] {
        let custom = vec![(key.to_owned(), "x".to_owned())];
        let message = refusal(CatalogueQuery::new(None, None, None, custom));
        assert!(message.contains("filter name"), "{key:?}: {message}");
    }
    for value in ["", "   "] {
        let custom = vec![("grade".to_owned(), value.to_owned())];
        let message = refusal(CatalogueQuery::new(None, None, None, custom));
        assert!(message.contains("grade"), "{value:?}: {message}");
    }
}
