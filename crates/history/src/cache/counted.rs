//! A call's own count of what the cache saved it: the tenor-days served
//! from the cache and those fetched from the service, carried in its
//! table's schema metadata so that each caller sees its own call's figures
//! (a counter on the client would mix concurrent calls).

use domain::arrow::Table;

/// The schema metadata key: `{"from_cache": n, "from_service": m}`.
pub const CACHE_DAYS: &str = "marketcurves.cache_days";

/// `table` with its call's counts of tenor-days under [`CACHE_DAYS`].
pub fn counted(table: Table, from_cache: i64, from_service: i64) -> Table {
    let mut metadata = table.schema.metadata().clone();
    let counts = serde_json::json!({
        "from_cache": from_cache.max(0),
        "from_service": from_service.max(0),
    });
    metadata.insert(CACHE_DAYS.to_owned(), counts.to_string());
    table.with_metadata(metadata)
}

#[cfg(test)]
#[path = "counted_tests.rs"]
mod tests;
