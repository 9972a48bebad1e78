//! A table of intraday values as the recording's rows.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};

use crate::record::file::Recorded;
use domain::arrow::Table;
use domain::timestamp::Micros;
use live::{Tick, TickSource};

/// The rows of a table of the package's prices schema, as backfilled
/// values received at `recorded_at`. A value without a time (the interface
/// gives every intraday value one) has no day to go to and is left out.
pub(crate) fn backfilled_rows(table: &Table, recorded_at: Micros) -> Result<Vec<Recorded>, String> {
    let mut rows = Vec::with_capacity(table.num_rows());
    for batch in &table.batches {
        rows_of(batch, recorded_at, &mut rows)?;
    }
    Ok(rows)
}

fn rows_of(
    batch: &RecordBatch,
    recorded_at: Micros,
    rows: &mut Vec<Recorded>,
) -> Result<(), String> {
    let column = |name: &str| {
        batch
            .column_by_name(name)
            .ok_or_else(|| format!("the intraday table has no {name} column"))
    };
    let curves = column("curve_id")?
        .as_string_opt::<i32>()
        .ok_or("curve_id is not text")?;
    let tenors = column("tenor")?
        .as_string_opt::<i32>()
        .ok_or("tenor is not text")?;
    let times = column("generated_on")?
        .as_primitive_opt::<TimestampMicrosecondType>()
        .ok_or("generated_on is not a timestamp in microseconds")?;
    let prices = column("price")?
        .as_primitive_opt::<Float64Type>()
        .ok_or("price is not a float")?;
    let mut names: Option<(Arc<str>, Arc<str>)> = None;
    for i in 0..batch.num_rows() {
        if times.is_null(i) || prices.is_null(i) {
            continue;
        }
        // Rows come a tenor at a time: one shared name while it lasts.
        let (curve, tenor) = match &names {
            Some((c, t)) if **c == *curves.value(i) && **t == *tenors.value(i) => {
                (Arc::clone(c), Arc::clone(t))
            }
            _ => {
                let pair: (Arc<str>, Arc<str>) = (curves.value(i).into(), tenors.value(i).into());
                names = Some(pair.clone());
                pair
            }
        };
        rows.push(Recorded {
            tick: Tick {
                curve_id: curve,
                tenor,
                generated_on: times.value(i),
                price: prices.value(i),
                source: TickSource::Backfill,
            },
            recorded_at,
        });
    }
    Ok(())
}
