//! Growing the catalogue: more curves in a vertical, as a service lists new
//! quotations. Bulk files hold every curve of their vertical, so this is
//! also how a test gets big bulk files (a month of a vertical grows by 40 to
//! 45 kB per curve added) while they stay what the interface describes:
//! one file per vertical and month, one row per snapshot.

use super::checks::{at_least_one, ControlError, ControlResult};
use super::Controls;
use domain::vocabulary::find_vertical;

/// Curves the catalogue may hold: each costs about 2.5 kB of memory, and
/// every listing and bulk file walks them all.
pub(super) const MAX_CURVES: usize = 100_000;

impl Controls {
    /// Lists `count` more curves in `vertical` (either spelling), after the
    /// others: variants of its quotations and regions, taken in turn, each
    /// with its own id, name, grade, ports and prices, served like every
    /// curve (catalogue, history, live feed, bulk files). Jobs submitted
    /// before keep the catalogue they were submitted with.
    pub fn add_curves(&self, vertical: &str, count: u32) -> ControlResult<()> {
        let found = find_vertical(vertical)
            .ok_or_else(|| ControlError::UnknownVertical(vertical.to_owned()))?;
        let count = at_least_one(count)?;
        self.state.change_world(|world| {
            let total = world.curves.len() + count as usize;
            if total > MAX_CURVES {
                return Err(ControlError::TooManyCurves {
                    count,
                    total,
                    max: MAX_CURVES,
                });
            }
            Ok(world.with_more_curves(found, count as usize))
        })
    }
}

#[cfg(test)]
#[path = "catalogue_tests.rs"]
mod tests;
