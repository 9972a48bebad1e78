//! The maximum-smoothness forward curve of Benth, Koekebakker and Ollmar
//! ("Extracting and applying smooth forward curves from average-based
//! commodity contracts with seasonal variation", Journal of Derivatives
//! 15(1), 2007), on days: the values `f` over the curve's days minimising
//! Σ (f[d+1] − 2·f[d] + f[d−1])², such that each contract's weighted mean
//! of `f` over its days is its price and the far end is flat (the last day
//! equals the day before, their end condition).
//!
//! The optimality conditions are H·f + Cᵀ·λ = 0 and C·f = b, where H, the
//! squared second differences, has two bands and C has one row per
//! constraint. H is singular (a straight line costs nothing) and the
//! constraints span whole contracts, so neither alone can be factored as a
//! banded matrix. B = H + e₀e₀ᵀ + eeᵀ can: the end condition's row e
//! changes nothing where e·f = 0, which the solution satisfies, and the
//! first day's term is taken back by one more unknown s = f[0]. With J = [C;
//! e₀ᵀ] and ν = (λ, −s), f = −B⁻¹Jᵀν and ν solves a small dense system
//! (J·B⁻¹·Jᵀ less one on s's diagonal)·ν = (−b, 0): one banded solve for
//! every constraint's column at once, then one dense solve of a few dozen
//! unknowns. Linear in the days, where a dense solve is cubic.
//!
//! B's smallest eigenvalues are those of slow waves, about (π/n)⁴, so its
//! solves lose digits on long curves; one step of iterative refinement on
//! the conditions themselves wins them back.

use super::banded::Pentadiagonal;
use super::delivery::Span;
use super::dense::Lu;

/// What the solve needs of the days and contracts, not of their prices:
/// made once for a run of dates whose contracts are the same (every date of
/// a month, in a settlement history), each date's curve then costs one
/// dense solve and two products.
pub(crate) struct Smooth {
    rows: Constraints,
    banded: Pentadiagonal,
    /// B⁻¹·Jᵀ, a row per day.
    y: Vec<f64>,
    /// J·B⁻¹·Jᵀ less one at s, factored.
    lu: Lu,
}

impl Smooth {
    /// `None` if the constraints are not independent (a contract whose days
    /// all weigh zero, say).
    pub(crate) fn new(weights: &[f64], spans: &[Span]) -> Option<Smooth> {
        let n = weights.len();
        let rows = Constraints::new(weights, spans);
        let m = rows.count() + 1;
        let pin = m - 1;
        let banded = smoothness(n)?;
        let mut y = vec![0.0; n * m];
        rows.scatter(&mut y, m);
        y[pin] = 1.0;
        banded.solve(&mut y, m);
        let mut s = vec![0.0; m * m];
        rows.gather(&y, m, &mut s);
        s[pin * m..].copy_from_slice(&y[..m]);
        s[pin * m + pin] -= 1.0;
        let lu = Lu::factor(s, m)?;
        Some(Smooth {
            rows,
            banded,
            y,
            lu,
        })
    }

    /// The curve over the days, for the contracts' `prices` (in the order
    /// of the spans it was made with).
    pub(crate) fn curve(&self, prices: &[f64]) -> Option<Vec<f64>> {
        let (rows, y) = (&self.rows, &self.y);
        let contracts = rows.ranges.len();
        let m = rows.count() + 1;
        let pin = m - 1;
        let mut nu: Vec<f64> = prices.iter().map(|p| -p).collect();
        nu.resize(m, 0.0);
        self.lu.solve(&mut nu);
        let mut f = vec![0.0; rows.weights.len()];
        subtract_product(&mut f, y, &nu, m);
        // One step of refinement: the conditions' residuals, solved for as above.
        let mut z = second_differences_product(&f);
        rows.add_transpose(&nu[..pin], &mut z);
        z.iter_mut().for_each(|r| *r = -*r);
        self.banded.solve(&mut z, 1);
        let mut correction = vec![0.0; m];
        rows.gather(&z, 1, &mut correction);
        let met = rows.apply(&f);
        for ((c, price), mean) in correction.iter_mut().zip(prices).zip(&met) {
            *c -= price - mean;
        }
        if rows.flat_end {
            correction[contracts] += met[contracts];
        }
        correction[pin] = z[0];
        self.lu.solve(&mut correction);
        subtract_product(&mut z, y, &correction, m);
        for (f, dz) in f.iter_mut().zip(&z) {
            *f += dz;
        }
        f.iter().all(|v| v.is_finite()).then_some(f)
    }
}

/// B = H + e₀e₀ᵀ + eeᵀ as bands, factored: positive definite for any number of days.
fn smoothness(n: usize) -> Option<Pentadiagonal> {
    let (mut b0, mut b1, mut b2) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    // Each second difference f[r-1] - 2 f[r] + f[r+1] adds its outer product.
    for r in 1..n.saturating_sub(1) {
        b0[r - 1] += 1.0;
        b0[r] += 4.0;
        b0[r + 1] += 1.0;
        b1[r] -= 2.0;
        b1[r + 1] -= 2.0;
        b2[r + 1] += 1.0;
    }
    b0[0] += 1.0;
    if n >= 2 {
        b0[n - 2] += 1.0;
        b0[n - 1] += 1.0;
        b1[n - 1] -= 1.0;
    }
    Pentadiagonal::factor(&b0, &b1, &b2)
}

/// H·f: the squared second differences' matrix times `f`.
fn second_differences_product(f: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; f.len()];
    for r in 1..f.len().saturating_sub(1) {
        let g = f[r - 1] - 2.0 * f[r] + f[r + 1];
        out[r - 1] += g;
        out[r] -= 2.0 * g;
        out[r + 1] += g;
    }
    out
}

/// out -= Y·v, Y of `m` columns stored row by row.
fn subtract_product(out: &mut [f64], y: &[f64], v: &[f64], m: usize) {
    for (o, row) in out.iter_mut().zip(y.chunks_exact(m)) {
        *o -= row.iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
    }
}

/// C: each contract's weighted mean, then the far end's flatness (from two days).
struct Constraints {
    weights: Vec<f64>,
    /// Each contract's first and last day.
    ranges: Vec<(usize, usize)>,
    /// One over each contract's total weight.
    scale: Vec<f64>,
    flat_end: bool,
}

impl Constraints {
    fn new(weights: &[f64], spans: &[Span]) -> Constraints {
        Constraints {
            weights: weights.to_vec(),
            ranges: spans.iter().map(|s| (s.first, s.last)).collect(),
            scale: spans.iter().map(|s| 1.0 / s.total(weights)).collect(),
            flat_end: weights.len() >= 2,
        }
    }

    fn count(&self) -> usize {
        self.ranges.len() + usize::from(self.flat_end)
    }

    /// Each contract's days with their coefficients in C.
    fn contracts(
        &self,
    ) -> impl Iterator<Item = (usize, std::ops::RangeInclusive<usize>, f64)> + '_ {
        self.ranges
            .iter()
            .zip(&self.scale)
            .enumerate()
            .map(|(k, (&(first, last), &scale))| (k, first..=last, scale))
    }

    /// Cᵀ into the first columns of `y`, `m` columns row by row.
    fn scatter(&self, y: &mut [f64], m: usize) {
        for (k, days, scale) in self.contracts() {
            for day in days {
                y[day * m + k] = self.weights[day] * scale;
            }
        }
        if self.flat_end {
            let (k, n) = (self.ranges.len(), self.weights.len());
            y[(n - 2) * m + k] = -1.0;
            y[(n - 1) * m + k] = 1.0;
        }
    }

    /// C·Y into the first rows of `out` (`columns` wide), Y of `columns` columns.
    fn gather(&self, y: &[f64], columns: usize, out: &mut [f64]) {
        for (k, days, scale) in self.contracts() {
            let row = &mut out[k * columns..(k + 1) * columns];
            row.fill(0.0);
            for day in days {
                let w = self.weights[day] * scale;
                if w != 0.0 {
                    let from = &y[day * columns..(day + 1) * columns];
                    for (o, v) in row.iter_mut().zip(from) {
                        *o += w * v;
                    }
                }
            }
        }
        if self.flat_end {
            let (k, n) = (self.ranges.len(), self.weights.len());
            for c in 0..columns {
                out[k * columns + c] = y[(n - 1) * columns + c] - y[(n - 2) * columns + c];
            }
        }
    }

    /// C·f.
    fn apply(&self, f: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.count()];
        self.gather(f, 1, &mut out);
        out
    }

    /// out += Cᵀ·λ.
    fn add_transpose(&self, lambda: &[f64], out: &mut [f64]) {
        for ((_, days, scale), l) in self.contracts().zip(lambda) {
            for (o, w) in out[days.clone()].iter_mut().zip(&self.weights[days]) {
                *o += w * scale * l;
            }
        }
        if self.flat_end {
            let (l, n) = (lambda[self.ranges.len()], out.len());
            out[n - 2] -= l;
            out[n - 1] += l;
        }
    }
}

#[cfg(test)]
#[path = "smooth_tests.rs"]
mod tests;
