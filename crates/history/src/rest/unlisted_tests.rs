use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{DictionaryArray, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};

use super::*;

fn tenors(names: &[&str]) -> Vec<Tenor> {
    names.iter().map(|n| Tenor::parse_lenient(n)).collect()
}

fn one_column(column: Arc<dyn Array>) -> Table {
    let schema = Arc::new(Schema::new(vec![Field::new(
        "tenor",
        column.data_type().clone(),
        false,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![column]).unwrap();
    Table {
        schema,
        batches: vec![batch],
    }
}

#[test]
fn an_unlisted_tenor_with_no_row_is_named_and_a_listed_or_present_one_is_not() {
    let contracts = tenors(&["Jan 26", "Feb 26"]);
    let asked = tenors(&["Jan 26", "Jul 99", "Jun 25", "Mar 26"]);
    let plain = one_column(Arc::new(StringArray::from(vec!["Jan 26", "Jun 25"])));
    assert_eq!(
        empty_unlisted(&asked, &contracts, &plain),
        ["Jul 99", "Mar 26"]
    );

    // Dictionary columns, with a value no key uses.
    let keys = arrow_array::Int32Array::from(vec![0, 0]);
    let values = Arc::new(StringArray::from(vec!["Jun 25", "Jul 99"]));
    let dictionary = DictionaryArray::<Int32Type>::try_new(keys, values).unwrap();
    let coded = one_column(Arc::new(dictionary));
    assert_eq!(
        empty_unlisted(&asked, &contracts, &coded),
        ["Jul 99", "Mar 26"]
    );

    let noted = note_empty_unlisted("c", &asked, &contracts, coded);
    assert_eq!(
        noted.schema.metadata()[EMPTY_UNLISTED_TENORS],
        r#"["Jul 99","Mar 26"]"#
    );
    assert_eq!(noted.batches[0].schema(), noted.schema);
}

#[test]
fn nothing_is_noted_when_every_tenor_asked_for_is_listed() {
    let contracts = tenors(&["Jan 26"]);
    let empty = Table {
        schema: Arc::new(Schema::new(vec![Field::new(
            "tenor",
            DataType::Utf8,
            false,
        )])),
        batches: Vec::new(),
    };
    let table = note_empty_unlisted("c", &contracts, &contracts, empty);
    assert!(table.schema.metadata().is_empty());
}
