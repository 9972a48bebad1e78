//! A cached catalogue: the curve quotations of one query, as a Parquet
//! table (id, name, quotation, units, filters, properties, contracts), with
//! when it was fetched in its footer. It serves until the next contracts
//! refresh after that (see `finality`).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, MapBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, MapArray, RecordBatch, StringArray};
use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::files::{Files, Put};
use super::finality::next_catalogue_refresh;
use super::noted;
use domain::records::CurveQuotation;

const NOTE_KEY: &str = "marketcurves.catalogue";

/// When a cached catalogue was fetched: by the service's clock, and by
/// this machine's, so that its age can be told on either.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fetched {
    pub query: String,
    pub service_time: DateTime<Utc>,
    pub local_time: DateTime<Utc>,
}

impl Fetched {
    /// Whether the contracts have been refreshed since: judged on the
    /// service's clock, `offset` ahead of this machine's (the one measured
    /// now if known, else the one of the fetch).
    pub fn expired(&self, offset: Option<TimeDelta>) -> bool {
        let offset = offset.unwrap_or(self.service_time - self.local_time);
        Utc::now() + offset >= next_catalogue_refresh(self.service_time)
    }
}

/// Writes the catalogue, replacing the one it expires.
pub fn write(
    files: &Files,
    path: &Path,
    fetched: &Fetched,
    curves: &[CurveQuotation],
) -> io::Result<()> {
    let batch = to_batch(curves).map_err(io::Error::other)?;
    let rows = (batch.schema(), std::slice::from_ref(&batch));
    noted::write(files, path, Put::Replace, rows, NOTE_KEY, fetched).map(drop)
}

/// The catalogue a file holds and when it was fetched; None if there is no
/// file, Err with the reason if it cannot be trusted.
pub fn read(files: &Files, path: &Path) -> Result<Option<(Fetched, Vec<CurveQuotation>)>, String> {
    let file = match files.read(path) {
        Ok(Some(file)) => file,
        Ok(None) => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    let (builder, fetched): (_, Fetched) = noted::open(file, NOTE_KEY)?;
    let mut curves = Vec::new();
    for batch in builder
        .build()
        .map_err(|e| format!("cannot read it: {e}"))?
    {
        let batch = batch.map_err(|e| format!("cannot read it: {e}"))?;
        curves.extend(from_batch(&batch).ok_or("its columns are not a catalogue's")?);
    }
    Ok(Some((fetched, curves)))
}

fn strings<'a>(values: impl Iterator<Item = Option<&'a str>>) -> ArrayRef {
    Arc::new(values.collect::<StringArray>())
}

fn string_maps<'a>(maps: impl Iterator<Item = Option<&'a BTreeMap<String, String>>>) -> ArrayRef {
    let mut builder = MapBuilder::new(None, StringBuilder::new(), StringBuilder::new());
    for map in maps {
        if let Some(map) = map {
            for (key, value) in map {
                builder.keys().append_value(key);
                builder.values().append_value(value);
            }
        }
        builder
            .append(map.is_some())
            .expect("keys and values in step");
    }
    Arc::new(builder.finish())
}

fn to_batch(curves: &[CurveQuotation]) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let mut contracts = ListBuilder::new(StringBuilder::new());
    for curve in curves {
        match &curve.contracts {
            Some(list) => {
                for name in list {
                    contracts.values().append_value(name);
                }
                contracts.append(true);
            }
            None => contracts.append(false),
        }
    }
    let contracts: ArrayRef = Arc::new(contracts.finish());
    RecordBatch::try_from_iter([
        ("id", strings(curves.iter().map(|c| c.id.as_deref()))),
        ("name", strings(curves.iter().map(|c| c.name.as_deref()))),
        (
            "quotation",
            strings(curves.iter().map(|c| c.quotation.as_deref())),
        ),
        ("units", strings(curves.iter().map(|c| c.units.as_deref()))),
        (
            "filters",
            string_maps(curves.iter().map(|c| c.filters.as_ref())),
        ),
        (
            "properties",
            string_maps(curves.iter().map(|c| c.properties.as_ref())),
        ),
        ("contracts", contracts),
    ])
}

fn text_column(batch: &RecordBatch, name: &str) -> Option<Vec<Option<String>>> {
    let column = batch.column_by_name(name)?.as_string_opt::<i32>()?;
    Some(
        (0..column.len())
            .map(|i| column.is_valid(i).then(|| column.value(i).to_owned()))
            .collect(),
    )
}

fn map_column(batch: &RecordBatch, name: &str) -> Option<Vec<Option<BTreeMap<String, String>>>> {
    let column: &MapArray = batch.column_by_name(name)?.as_map_opt()?;
    let (keys, values) = (
        column.keys().as_string_opt::<i32>()?,
        column.values().as_string_opt::<i32>()?,
    );
    let offsets = column.value_offsets();
    Some(
        (0..column.len())
            .map(|i| {
                column.is_valid(i).then(|| {
                    (offsets[i] as usize..offsets[i + 1] as usize)
                        .map(|j| (keys.value(j).to_owned(), values.value(j).to_owned()))
                        .collect()
                })
            })
            .collect(),
    )
}

fn from_batch(batch: &RecordBatch) -> Option<Vec<CurveQuotation>> {
    let [ids, names, quotations, units] =
        ["id", "name", "quotation", "units"].map(|name| text_column(batch, name));
    let (filters, properties) = (
        map_column(batch, "filters")?,
        map_column(batch, "properties")?,
    );
    let contracts = batch.column_by_name("contracts")?.as_list_opt::<i32>()?;
    let contract_names = contracts.values().as_string_opt::<i32>()?;
    let offsets = contracts.value_offsets();
    let mut curves = Vec::with_capacity(batch.num_rows());
    for (i, ((filters, properties), (((id, name), quotation), units))) in filters
        .into_iter()
        .zip(properties)
        .zip(ids?.into_iter().zip(names?).zip(quotations?).zip(units?))
        .enumerate()
    {
        let contracts = contracts.is_valid(i).then(|| {
            (offsets[i] as usize..offsets[i + 1] as usize)
                .map(|j| contract_names.value(j).to_owned())
                .collect()
        });
        curves.push(CurveQuotation {
            id,
            name,
            quotation,
            units,
            filters,
            properties,
            contracts,
        });
    }
    Some(curves)
}

#[cfg(test)]
#[path = "catalogue_tests.rs"]
mod tests;
