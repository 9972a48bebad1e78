use super::*;
use domain::arrow::{schema, TableKind};

#[test]
fn the_counts_ride_in_the_schema_metadata_beside_what_was_there() {
    let mut metadata = std::collections::HashMap::new();
    metadata.insert("other".to_owned(), "kept".to_owned());
    let table = Table {
        schema: schema(TableKind::Prices),
        batches: Vec::new(),
    }
    .with_metadata(metadata);
    let table = counted(table, 12, 3);
    let found = table.schema.metadata();
    assert_eq!(found["other"], "kept");
    let counts: serde_json::Value = serde_json::from_str(&found[CACHE_DAYS]).unwrap();
    assert_eq!(
        counts,
        serde_json::json!({"from_cache": 12, "from_service": 3})
    );
}
