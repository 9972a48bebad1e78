//! The Arrow form of price rows: the schemas of the design and their
//! builder, and the schemas of the Parquet files (bulk, recording).

mod build;
mod curves_key;
mod dictionary;
mod files;
mod merge;
mod schema;

pub use build::{build_batch, dependency_lists, metadata_maps, MetadataPair};
// The `tenor_start`/`tenor_end` and `tenor_kind` columns of the design,
// which the analytics crate's tables carry too.
pub use build::{dates, tenor_kind_column};
pub(crate) use build::{dependency_column, metadata_column, strings};
pub use curves_key::{
    carry_curves, curve_ids, curves_in, name_table, named_curves, schema_with_curves, with_curves,
    NamedCurve, CURVES_KEY,
};
pub use dictionary::compact_dictionaries;
pub use files::{
    bulk_dataset_schema, bulk_file_schema, bulk_partition_columns, recording_schema,
    BULK_PARTITION_COLUMNS,
};
pub use merge::merge_slice;
pub use schema::{schema, TableKind};

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchOptions};
use arrow_schema::{Schema, SchemaRef};

/// A table as record batches of one schema, already in table order.
#[derive(Clone, Debug)]
pub struct Table {
    pub schema: SchemaRef,
    pub batches: Vec<RecordBatch>,
}

impl Table {
    pub fn num_rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }

    /// The table with `metadata` as its schema's (the notes a result carries
    /// to Python: tenors left out, unlisted tenors that returned nothing);
    /// its columns untouched.
    pub fn with_metadata(mut self, metadata: HashMap<String, String>) -> Table {
        if &metadata == self.schema.metadata() {
            return self;
        }
        let schema = Arc::new(Schema::new_with_metadata(
            self.schema.fields().clone(),
            metadata,
        ));
        self.batches = self
            .batches
            .into_iter()
            // Not `with_schema`, which refuses metadata that changes a key.
            .map(|b| {
                let rows = RecordBatchOptions::new().with_row_count(Some(b.num_rows()));
                RecordBatch::try_new_with_options(schema.clone(), b.columns().to_vec(), &rows)
                    .expect("the same fields")
            })
            .collect();
        self.schema = schema;
        self
    }
}
