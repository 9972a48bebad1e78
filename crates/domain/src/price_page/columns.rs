//! The columns of one page of prices, filled record by record while the
//! page is read, then made into a batch of the `prices` schema.

use std::iter::repeat_n;
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder};
use arrow_array::{ArrayRef, Float64Array, RecordBatch, TimestampMicrosecondArray};
use arrow_schema::ArrowError;

use crate::arrow::{
    dates, dependency_column, metadata_column, schema, strings, tenor_kind_column, TableKind,
};
use crate::tenor::Tenor;
use crate::timestamp::Micros;

/// A dependency as read: each field absent or null is None.
#[derive(Default)]
pub(super) struct DependencyFields<'a> {
    pub id: Option<&'a str>,
    pub name: Option<&'a str>,
    pub value: Option<f64>,
    pub units: Option<&'a str>,
    pub tenor_name: Option<&'a str>,
}

/// The columns of the page's records so far. The nested columns' items are
/// appended as they are read; a record's own fields once it is whole.
#[derive(Default)]
pub(super) struct PageColumns {
    generated_on: Vec<Micros>,
    price: Vec<f64>,
    units: StringBuilder,
    /// Per record: how many dependencies, None where the field was null.
    dependency_lens: Vec<Option<usize>>,
    dependency_id: StringBuilder,
    dependency_name: StringBuilder,
    dependency_value: Float64Builder,
    dependency_units: StringBuilder,
    dependency_tenor_name: StringBuilder,
    metadata_lens: Vec<Option<usize>>,
    metadata_keys: StringBuilder,
    metadata_values: StringBuilder,
}

impl PageColumns {
    pub(super) fn len(&self) -> usize {
        self.price.len()
    }

    /// The time of the last record, which the next must follow.
    pub(super) fn last_time(&self) -> Option<Micros> {
        self.generated_on.last().copied()
    }

    pub(super) fn push_dependency(&mut self, dependency: DependencyFields<'_>) {
        self.dependency_id.append_option(dependency.id);
        self.dependency_name.append_option(dependency.name);
        self.dependency_value.append_option(dependency.value);
        self.dependency_units.append_option(dependency.units);
        self.dependency_tenor_name
            .append_option(dependency.tenor_name);
    }

    pub(super) fn push_metadata_entry(&mut self, key: &str, value: Option<&str>) {
        self.metadata_keys.append_value(key);
        self.metadata_values.append_option(value);
    }

    /// A record whose dependencies and metadata entries were pushed already.
    pub(super) fn push_record(
        &mut self,
        generated_on: Micros,
        price: f64,
        units: Option<&str>,
        dependencies: Option<usize>,
        metadata: Option<usize>,
    ) {
        self.generated_on.push(generated_on);
        self.price.push(price);
        self.units.append_option(units);
        self.dependency_lens.push(dependencies);
        self.metadata_lens.push(metadata);
    }

    /// The batch, every row of curve `curve_id` and tenor `tenor`.
    pub(super) fn finish(
        mut self,
        curve_id: &str,
        tenor: &Tenor,
    ) -> Result<RecordBatch, ArrowError> {
        let rows = self.len();
        let generated_on = TimestampMicrosecondArray::from(self.generated_on).with_timezone("UTC");
        let dependencies: Vec<ArrayRef> = vec![
            Arc::new(self.dependency_id.finish()),
            Arc::new(self.dependency_name.finish()),
            Arc::new(self.dependency_value.finish()),
            Arc::new(self.dependency_units.finish()),
            Arc::new(self.dependency_tenor_name.finish()),
        ];
        let columns: Vec<ArrayRef> = vec![
            strings(repeat_n(Some(curve_id), rows)),
            strings(repeat_n(Some(tenor.name()), rows)),
            tenor_kind_column(repeat_n(tenor.kind().as_str(), rows)),
            dates(repeat_n(tenor.start(), rows)),
            dates(repeat_n(tenor.end(), rows)),
            Arc::new(generated_on),
            Arc::new(Float64Array::from(self.price)),
            Arc::new(self.units.finish()),
            dependency_column(&self.dependency_lens, dependencies)?,
            metadata_column(
                &self.metadata_lens,
                Arc::new(self.metadata_keys.finish()),
                Arc::new(self.metadata_values.finish()),
            )?,
        ];
        RecordBatch::try_new(schema(TableKind::Prices), columns)
    }
}
