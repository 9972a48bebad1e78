use super::*;
use serde_json::json;

fn from(value: serde_json::Value) -> serde_json::Result<CurveQuotation> {
    serde_json::from_value(value)
}

#[test]
fn a_full_curve_quotation() {
    let curve = from(json!({
        "id": "2b7c7f58-4a56-4b6e-9a8b-0f3f5e8d7a11",
        "name": "Jet FOB AG Cargo",
        "quotation": "Fob",
        "units": "$/mt",
        "filters": {"vertical": "Jet", "region": "AG", "quotation": "Fob", "grade": 54},
        "properties": {"loadPortName": "Ruwais", "vessel": null},
        "contracts": ["Jan 25", null, "Q1 25"],
        "somethingNew": {"nested": [1, 2]}
    }))
    .unwrap();
    assert_eq!(curve.quotation.as_deref(), Some("Fob"));
    let filters = curve.filters.unwrap();
    assert_eq!(filters["grade"], "54");
    assert_eq!(filters["vertical"], "Jet");
    let properties = curve.properties.unwrap();
    assert_eq!(properties.get("vessel"), None);
    assert_eq!(properties["loadPortName"], "Ruwais");
    assert_eq!(curve.contracts.unwrap(), ["Jan 25", "Q1 25"]);
}

#[test]
fn every_field_of_a_curve_may_be_missing_or_null() {
    assert_eq!(from(json!({})).unwrap(), CurveQuotation::default());
    let nulls = json!({"id": null, "name": null, "quotation": null, "units": null,
                       "filters": null, "properties": null, "contracts": null});
    assert_eq!(from(nulls).unwrap(), CurveQuotation::default());
}

#[test]
fn filters_must_be_strings_or_scalars() {
    let err = from(json!({"filters": {"region": ["AG"]}})).unwrap_err();
    assert!(err.to_string().contains("region"), "{err}");
}

#[test]
fn a_price_record_with_dependencies_and_metadata() {
    let record: PriceRecord = serde_json::from_value(json!({
        "generatedOn": "2025-06-13T16:30:00.12",
        "price": 712.5,
        "units": "$/mt",
        "tenor": "Jul 25",
        "dependencies": [
            {"id": "a", "name": "Freight", "value": 21.25, "units": "$/mt", "tenorName": "Aug 25"},
            null,
            {"name": "Premium"}
        ],
        "metadata": [
            {"name": "loadDate", "value": "2025-07-01T00:00:00.000Z"},
            {"name": "monthNumber", "value": 7}
        ]
    }))
    .unwrap();
    assert_eq!(record.price, Some(712.5));
    let deps = record.dependencies.unwrap();
    assert_eq!(deps.len(), 2);
    assert_eq!(deps[0].tenor_name.as_deref(), Some("Aug 25"));
    assert_eq!(deps[1].value, None);
    let metadata = record.metadata.unwrap();
    assert_eq!(metadata[1].value.as_deref(), Some("7"));
}

#[test]
fn envelopes_settlements_assessments_and_bulk_objects() {
    let page: Page<PriceRecord> = serde_json::from_value(json!({
        "items": [{"price": 1.0, "tenor": "Jan 25"}],
        "self": "https://svc/v2/ongoing/intraday/x/Jan%2025?page=1&pageSize=100",
        "next": null,
        "prev": null,
        "last": "https://svc/v2/ongoing/intraday/x/Jan%2025?page=1&pageSize=100"
    }))
    .unwrap();
    assert_eq!(page.items.unwrap().len(), 1);
    assert!(page.next.is_none());
    assert!(page.self_link.unwrap().contains("page=1"));

    let day: HistoricalSettlement = serde_json::from_value(json!({
        "date": "2025-06-13", "value": {"price": 2.0, "tenor": "Jan 25"}
    }))
    .unwrap();
    assert_eq!(day.value.unwrap().price, Some(2.0));

    let set: AssessmentSet = serde_json::from_value(json!({
        "tenor": "Jan 25",
        "singaporeSnapshot": {"price": 1.0},
        "londonSnapshot": null
    }))
    .unwrap();
    assert!(set.london_snapshot.is_none() && set.new_york_snapshot.is_none());

    let submitted: BulkSubmission = serde_json::from_value(json!({
        "job_id": "j-1", "date_range": {"effective_start": "2024-03", "effective_end": "2024-12"}
    }))
    .unwrap();
    assert_eq!(
        submitted.date_range.unwrap().effective_start.as_deref(),
        Some("2024-03")
    );

    let status: BulkStatus = serde_json::from_value(json!({
        "status": "SUCCEEDED",
        "presigned_urls": [{"url": "https://f/x.parquet?sig=secret", "path": "vertical=Jet/year=2024/month=03", "size": 1234}]
    }))
    .unwrap();
    let file = &status.presigned_urls.unwrap()[0];
    assert_eq!(file.size, Some(1234));
    let shown = format!("{file:?}");
    assert!(
        !shown.contains("secret") && shown.contains("x.parquet"),
        "{shown}"
    );
}
