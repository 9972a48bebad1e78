use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, LargeStringArray, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};

use super::*;
use crate::records::CurveQuotation;

fn quotation(id: &str, name: &str, units: &str) -> CurveQuotation {
    CurveQuotation {
        id: Some(id.into()),
        name: Some(name.into()),
        units: Some(units.into()),
        quotation: Some("Outright".into()),
        ..CurveQuotation::default()
    }
}

fn table_of(column: &str, array: ArrayRef) -> Table {
    let schema = Arc::new(Schema::new(vec![Field::new(
        column,
        array.data_type().clone(),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![array]).unwrap();
    Table {
        schema,
        batches: vec![batch],
    }
}

fn ids_table(ids: &[&str]) -> Table {
    table_of("curve_id", Arc::new(StringArray::from(ids.to_vec())))
}

#[test]
fn named_curves_take_the_catalogue_row_and_keep_unlisted_ids() {
    let catalogue = [quotation("a", "Brent", "USD/bbl")];
    let curves = named_curves(["a", "b", "a"], &catalogue);
    assert_eq!(
        curves,
        vec![
            NamedCurve {
                id: "a".into(),
                name: Some("Brent".into()),
                units: Some("USD/bbl".into()),
                quotation: Some("Outright".into()),
            },
            NamedCurve::unnamed("b"),
        ]
    );
}

#[test]
fn written_curves_read_back_and_the_json_has_the_documented_fields() {
    let catalogue = [quotation("a", "Brent", "USD/bbl")];
    let table = name_table(ids_table(&["a", "a"]), "curve_id", &[], &catalogue);
    let metadata = table.schema.metadata();
    let json: serde_json::Value = serde_json::from_str(&metadata[CURVES_KEY]).unwrap();
    assert_eq!(
        json,
        serde_json::json!([{"id": "a", "name": "Brent", "units": "USD/bbl", "quotation": "Outright"}])
    );
    assert_eq!(curves_in(metadata), named_curves(["a"], &catalogue));
    assert_eq!(table.batches[0].schema(), table.schema);
}

#[test]
fn a_curve_asked_for_is_named_though_it_has_no_row() {
    let catalogue = [quotation("a", "Brent", "USD/bbl")];
    let table = name_table(ids_table(&[]), "curve_id", &["a"], &catalogue);
    let curves = curves_in(table.schema.metadata());
    assert_eq!(curves, named_curves(["a"], &catalogue));
}

#[test]
fn other_metadata_is_kept() {
    let table = ids_table(&["a"]).with_metadata(HashMap::from([("k".into(), "v".into())]));
    let table = name_table(table, "curve_id", &[], &[]);
    assert_eq!(table.schema.metadata()["k"], "v");
    assert_eq!(
        curves_in(table.schema.metadata()),
        vec![NamedCurve::unnamed("a")]
    );
}

#[test]
fn no_key_or_a_malformed_one_reads_as_no_curves() {
    assert!(curves_in(&HashMap::new()).is_empty());
    let bad = HashMap::from([(CURVES_KEY.to_owned(), "{not json".to_owned())]);
    assert!(curves_in(&bad).is_empty());
}

#[test]
fn ids_are_read_from_large_strings_and_dictionaries() {
    let large = table_of(
        "curve_id",
        Arc::new(LargeStringArray::from(vec!["b", "a", "b"])),
    );
    assert_eq!(curve_ids(&large.batches, "curve_id"), vec!["b", "a"]);
    let dictionary: DictionaryArray<Int8Type> = vec![Some("x"), None, Some("y"), Some("x")]
        .into_iter()
        .collect();
    let dictionary = table_of("leg", Arc::new(dictionary));
    assert_eq!(curve_ids(&dictionary.batches, "leg"), vec!["x", "y"]);
    assert!(curve_ids(&dictionary.batches, "curve_id").is_empty());
}

#[test]
fn carried_curves_are_those_of_the_output_columns() {
    let catalogue = [
        quotation("a", "Brent", "USD/bbl"),
        quotation("b", "Gasoil", "USD/t"),
    ];
    let product = name_table(ids_table(&["a"]), "curve_id", &[], &catalogue);
    let crude = name_table(ids_table(&["b", "c"]), "curve_id", &[], &catalogue);
    let inputs = [product.schema.metadata(), crude.schema.metadata()];
    let out = table_of("curve_id", Arc::new(StringArray::from(vec!["b", "a"])));
    let out = carry_curves(&inputs, out, &["curve_id"]);
    assert_eq!(
        curves_in(out.schema.metadata()),
        named_curves(["b", "a"], &catalogue)
    );
}

#[test]
fn nothing_is_carried_from_tables_without_the_key() {
    let out = carry_curves(&[&HashMap::new()], ids_table(&["a"]), &["curve_id"]);
    assert!(out.schema.metadata().is_empty());
}

#[test]
fn a_key_written_again_replaces_the_first() {
    let catalogue = [quotation("a", "Brent", "USD/bbl")];
    let table = name_table(ids_table(&["a"]), "curve_id", &[], &catalogue);
    let mut curves = curves_in(table.schema.metadata());
    curves[0].units = Some("USD/t".into());
    let table = with_curves(table, &curves);
    assert_eq!(curves_in(table.schema.metadata()), curves);
    assert_eq!(curves_in(table.batches[0].schema().metadata()), curves);
}
