//! What the catalogue says of a curve's tenors: the contracts it lists, and
//! whether a tenor asked for is one of them or of a kind they have.

use std::collections::HashSet;

use domain::records::CurveQuotation;
use domain::tenor::{Tenor, TenorKind};
use places::ClientError;

/// The tenors a curve's catalogue entry lists.
pub fn contracts_of(curve: &CurveQuotation) -> Vec<Tenor> {
    curve
        .contracts
        .iter()
        .flatten()
        .map(|c| Tenor::parse_lenient(c))
        .collect()
}

/// That `tenor` is one of a curve's `contracts`, or of a shape they have
/// (an expired month of a curve that lists months, say).
pub(crate) fn tenor_offered(
    curve_id: &str,
    contracts: &[Tenor],
    tenor: &Tenor,
) -> Result<(), ClientError> {
    let kinds: HashSet<TenorKind> = contracts.iter().map(Tenor::kind).collect();
    if kinds.contains(&tenor.kind()) || contracts.contains(tenor) {
        return Ok(());
    }
    let listed: Vec<&str> = contracts.iter().map(Tenor::name).collect();
    Err(ClientError::invalid(
        places::Argument::Tenor,
        places::Rule::Unlisted,
        format!(
            "tenor {:?} is not a tenor of curve {curve_id} (its contracts: {})",
            tenor.name(),
            listed.join(", ")
        ),
    ))
}

/// Tenors in calendar order, each once: the order of a table's slices.
pub(crate) fn in_table_order(mut tenors: Vec<Tenor>) -> Vec<Tenor> {
    tenors.sort();
    tenors.dedup();
    tenors
}
