use arrow_array::builder::StringDictionaryBuilder;
use arrow_schema::{DataType, Field, Schema};

use super::*;

fn batch(parts: &[&[&str]]) -> RecordBatch {
    let arrays: Vec<DictionaryArray<Int8Type>> = parts
        .iter()
        .map(|values| {
            let mut builder = StringDictionaryBuilder::<Int8Type>::new();
            for value in *values {
                builder.append_value(value);
            }
            builder.finish()
        })
        .collect();
    let data_type = DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8));
    let schema = Arc::new(Schema::new(vec![Field::new("k", data_type, false)]));
    let refs: Vec<&dyn Array> = arrays.iter().map(|a| a as &dyn Array).collect();
    let joined = arrow_select::concat::concat(&refs).unwrap();
    RecordBatch::try_new(schema, vec![joined]).unwrap()
}

fn dictionary(batch: &RecordBatch) -> Vec<String> {
    let values = batch.column(0).as_dictionary::<Int8Type>().values().clone();
    values
        .as_string::<i32>()
        .iter()
        .map(|v| v.unwrap().to_owned())
        .collect()
}

#[test]
fn joined_dictionaries_are_compacted_and_equal_to_one_built_at_once() {
    let joined = batch(&[&["month", "month"], &["month"], &["quarter", "month"]]);
    assert_eq!(dictionary(&joined).len(), 4);
    let compact = compact_dictionaries(joined).unwrap();
    assert_eq!(dictionary(&compact), ["month", "quarter"]);
    assert_eq!(
        compact,
        batch(&[&["month", "month", "month", "quarter", "month"]])
    );
}

#[test]
fn a_compact_batch_is_left_as_it_is() {
    let built = batch(&[&["window", "other", "window"]]);
    assert_eq!(compact_dictionaries(built.clone()).unwrap(), built);
}
