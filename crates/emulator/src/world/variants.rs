//! More curves in a vertical (`Controls::add_curves`): the interface lists
//! the catalogue's filter keys, not its size, and a real vertical quotes far
//! more curves than one per quotation and region, so the emulator can list
//! more, as a service lists new quotations. Each is a variant of one of the
//! vertical's combinations, taken in turn (its own grade, ports, spec and
//! prices), appended to the catalogue: earlier curves keep their place, and
//! a bulk job keeps the catalogue it was submitted with.

use super::curves::{curve, link_components, Curve};
use domain::vocabulary::Vertical;

/// Adds `count` curves to `vertical`. The n-th curve ever added to a
/// vertical is the same whether it came one call at a time or in one.
pub(crate) fn add_variants(
    seed: u64,
    curves: &mut Vec<Curve>,
    vertical: &'static Vertical,
    count: usize,
) {
    let own: Vec<(&'static str, &'static str)> = curves
        .iter()
        .filter(|c| c.vertical.name == vertical.name && c.variant == 0)
        .map(|c| (c.quotation, c.region))
        .collect();
    if own.is_empty() {
        return;
    }
    let added = curves
        .iter()
        .filter(|c| c.vertical.name == vertical.name && c.variant > 0)
        .count();
    let first = curves.len();
    for n in added..added + count {
        let (quotation, region) = own[n % own.len()];
        let variant = (n / own.len() + 1) as u32;
        let index = curves.len();
        curves.push(curve(seed, index, vertical, quotation, region, variant));
    }
    link_components(curves, first);
}

#[cfg(test)]
#[path = "variants_tests.rs"]
mod tests;
