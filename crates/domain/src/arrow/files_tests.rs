use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;

use super::*;

#[test]
fn a_bulk_dataset_is_a_files_columns_then_its_partitions_never_null() {
    let file = bulk_file_schema();
    let dataset = bulk_dataset_schema(&file);
    let names: Vec<&str> = dataset.fields().iter().map(|f| f.name().as_str()).collect();
    let (own, partitions) = names.split_at(file.fields().len());
    let file_names: Vec<&str> = file.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(own, file_names.as_slice());
    assert_eq!(partitions, BULK_PARTITION_COLUMNS);
    for name in BULK_PARTITION_COLUMNS {
        assert!(
            !dataset.field_with_name(name).unwrap().is_nullable(),
            "{name}"
        );
    }
}

#[test]
fn partition_columns_repeat_the_partition_for_each_row_with_the_schemas_types() {
    let columns = bulk_partition_columns("Fuel Oil", 2024, 12, 3);
    let dataset = bulk_dataset_schema(&Schema::empty());
    for (column, field) in columns.iter().zip(dataset.fields()) {
        assert_eq!(column.data_type(), field.data_type(), "{}", field.name());
        assert_eq!(column.len(), 3);
    }
    assert_eq!(columns[0].as_string::<i32>().value(2), "Fuel Oil");
    assert_eq!(columns[1].as_primitive::<Int32Type>().value(0), 2024);
    assert_eq!(columns[2].as_primitive::<Int32Type>().value(1), 12);
}
