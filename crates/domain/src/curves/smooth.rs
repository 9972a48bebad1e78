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

/// The curve over `weights.len()` days, or `None` if the constraints are
/// not independent (a contract whose days all weigh zero, say).
pub fn smooth(weights: &[f64], spans: &[Span]) -> Option<Vec<f64>> {
    let n = weights.len();
    let rows = Constraints::new(weights, spans);
    let m = rows.count() + 1;
    let pin = m - 1;
    let banded = smoothness(n)?;
    // Y = B⁻¹·Jᵀ, then S = J·Y less one at s.
    let mut y = vec![0.0; n * m];
    rows.scatter(&mut y, m);
    y[pin] = 1.0;
    banded.solve(&mut y, m);
    let mut s = vec![0.0; m * m];
    rows.gather(&y, m, &mut s);
    s[pin * m..].copy_from_slice(&y[..m]);
    s[pin * m + pin] -= 1.0;
    let lu = Lu::factor(s, m)?;
    let mut nu: Vec<f64> = spans.iter().map(|s| -s.price).collect();
    nu.resize(m, 0.0);
    lu.solve(&mut nu);
    let mut f = vec![0.0; n];
    subtract_product(&mut f, &y, &nu, m);
    // One step of refinement: the conditions' residuals, solved for as above.
    let mut r1 = second_differences_product(&f);
    rows.add_transpose(&nu[..pin], &mut r1);
    r1.iter_mut().for_each(|r| *r = -*r);
    let mut z = r1;
    banded.solve(&mut z, 1);
    let mut correction = vec![0.0; m];
    rows.gather(&z, 1, &mut correction);
    let met = rows.apply(&f);
    for ((c, span), mean) in correction.iter_mut().zip(spans).zip(&met) {
        *c -= span.price - mean;
    }
    if rows.flat_end {
        correction[spans.len()] += met[spans.len()];
    }
    correction[pin] = z[0];
    lu.solve(&mut correction);
    subtract_product(&mut z, &y, &correction, m);
    for (f, dz) in f.iter_mut().zip(&z) {
        *f += dz;
    }
    f.iter().all(|v| v.is_finite()).then_some(f)
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
struct Constraints<'a> {
    weights: &'a [f64],
    spans: &'a [Span],
    /// One over each contract's total weight.
    scale: Vec<f64>,
    flat_end: bool,
}

impl<'a> Constraints<'a> {
    fn new(weights: &'a [f64], spans: &'a [Span]) -> Constraints<'a> {
        let scale = spans.iter().map(|s| 1.0 / s.total(weights)).collect();
        Constraints {
            weights,
            spans,
            scale,
            flat_end: weights.len() >= 2,
        }
    }

    fn count(&self) -> usize {
        self.spans.len() + usize::from(self.flat_end)
    }

    /// Cᵀ into the first columns of `y`, `m` columns row by row.
    fn scatter(&self, y: &mut [f64], m: usize) {
        for (k, (span, scale)) in self.spans.iter().zip(&self.scale).enumerate() {
            for day in span.first..=span.last {
                y[day * m + k] = self.weights[day] * scale;
            }
        }
        if self.flat_end {
            let (k, n) = (self.spans.len(), self.weights.len());
            y[(n - 2) * m + k] = -1.0;
            y[(n - 1) * m + k] = 1.0;
        }
    }

    /// C·Y into the first rows of `out` (`columns` wide), Y of `columns` columns.
    fn gather(&self, y: &[f64], columns: usize, out: &mut [f64]) {
        for (k, (span, scale)) in self.spans.iter().zip(&self.scale).enumerate() {
            let row = &mut out[k * columns..(k + 1) * columns];
            row.fill(0.0);
            for day in span.first..=span.last {
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
            let (k, n) = (self.spans.len(), self.weights.len());
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
        for ((span, scale), l) in self.spans.iter().zip(&self.scale).zip(lambda) {
            let days = span.first..=span.last;
            for (o, w) in out[days.clone()].iter_mut().zip(&self.weights[days]) {
                *o += w * scale * l;
            }
        }
        if self.flat_end {
            let (l, n) = (lambda[self.spans.len()], out.len());
            out[n - 2] -= l;
            out[n - 1] += l;
        }
    }
}

#[cfg(test)]
#[path = "smooth_tests.rs"]
mod tests;
