//! One page of the paged price endpoints (ongoing and historical intraday)
//! read straight into an Arrow batch of the `prices` table.
//!
//! The usual page, a hundred records of the tenor asked for with times
//! strictly increasing, is read in one pass: each field is appended to its
//! column as it is read, and strings without escapes are copied from the
//! body into the column, never into a `String` of their own. Anything else
//! (records out of order or repeated, another tenor, no time, numbers where
//! metadata has text, a field twice, or a body that does not follow the
//! interface) is read again by the general path, [`page_rows`] and
//! [`build_batch`]: it sorts, removes repeats, accepts every variation the
//! interface allows and names the field of an error. So the two paths give
//! the same batch, or the same error, for every body.

mod columns;
mod wire;

use arrow_array::RecordBatch;
use arrow_schema::ArrowError;

use crate::arrow::{build_batch, TableKind};
use crate::decode::{decode_json, page_rows, DecodeError, PriceEndpoint, RequestContext};
use crate::records::{Page, PriceRecord};
use crate::tenor::Tenor;
use columns::PageColumns;

/// How much of each record a page's batch keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Every field.
    #[default]
    Full,
    /// Times, prices and units. `dependencies` and `metadata` (four fifths
    /// of a usual record's bytes) are skipped unread and their columns are
    /// null: for callers that keep only the values, such as a backfill.
    Values,
}

/// A page of prices: its rows as one batch, in table order, and its links.
#[derive(Clone, Debug, PartialEq)]
pub struct PricePage {
    pub batch: RecordBatch,
    /// How many records the page held (null entries of `items` aside),
    /// before repeats were removed: zero marks the end of a `next` walk.
    pub records: usize,
    pub next: Option<String>,
    pub last: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("cannot build the table: {0}")]
    Arrow(#[from] ArrowError),
}

/// Reads one page of `endpoint` (a paged one: its request names a tenor),
/// keeping `detail` of each record.
pub fn decode_price_page(
    endpoint: PriceEndpoint,
    body: &[u8],
    request: RequestContext<'_>,
    detail: Detail,
) -> Result<PricePage, PageError> {
    if let Some(tenor) = request.tenor {
        if let Some(page) = read_in_one_pass(body, request.curve_id, tenor, detail) {
            return page;
        }
    }
    read_in_general(endpoint, body, request, detail)
}

/// The one-pass reading, or None where the body is not the usual page.
fn read_in_one_pass(
    body: &[u8],
    curve_id: &str,
    tenor: &str,
    detail: Detail,
) -> Option<Result<PricePage, PageError>> {
    let mut columns = PageColumns::default();
    let links = wire::read_page(body, tenor, detail, &mut columns).ok()?;
    let records = columns.len();
    let batch = columns.finish(curve_id, &Tenor::parse_lenient(tenor));
    Some(batch.map_err(PageError::from).map(|batch| PricePage {
        batch,
        records,
        next: links.next,
        last: links.last,
    }))
}

fn read_in_general(
    endpoint: PriceEndpoint,
    body: &[u8],
    request: RequestContext<'_>,
    detail: Detail,
) -> Result<PricePage, PageError> {
    let page: Page<PriceRecord> = decode_json(endpoint.describe(), body)?;
    let mut rows = page_rows(endpoint, page.items, request)?;
    if detail == Detail::Values {
        for row in &mut rows {
            row.dependencies = None;
            row.metadata = None;
        }
    }
    let records = rows.len();
    Ok(PricePage {
        batch: build_batch(TableKind::Prices, rows)?,
        records,
        next: page.next,
        last: page.last,
    })
}

#[cfg(test)]
mod tests;
