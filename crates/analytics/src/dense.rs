//! Small dense systems (a few dozen unknowns: one per contract of a curve
//! at a time), by LU with partial pivoting. The smooth curve's system of
//! multipliers is symmetric but not definite, so Cholesky would not do.

#[derive(Debug)]
pub(crate) struct Lu {
    n: usize,
    /// L below the diagonal (unit diagonal implied) and U on and above it, row by row.
    lu: Vec<f64>,
    /// The row swapped into place at each step.
    swaps: Vec<usize>,
}

impl Lu {
    /// Factors the `n`×`n` matrix `a`, stored row by row. `None` if a pivot
    /// is zero or not a number: the matrix is singular as far as this can tell.
    pub(crate) fn factor(mut a: Vec<f64>, n: usize) -> Option<Lu> {
        assert_eq!(a.len(), n * n, "a square matrix");
        let mut swaps = Vec::with_capacity(n);
        for k in 0..n {
            let pivot_row = (k..n)
                .max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))
                .expect("k < n");
            let pivot = a[pivot_row * n + k];
            if pivot == 0.0 || !pivot.is_finite() {
                return None;
            }
            if pivot_row != k {
                for c in 0..n {
                    a.swap(k * n + c, pivot_row * n + c);
                }
            }
            swaps.push(pivot_row);
            let (top, bottom) = a.split_at_mut((k + 1) * n);
            let pivot_tail = &top[k * n + k + 1..(k + 1) * n];
            for row in bottom.chunks_exact_mut(n) {
                let factor = row[k] / pivot;
                row[k] = factor;
                if factor != 0.0 {
                    for (r, p) in row[k + 1..].iter_mut().zip(pivot_tail) {
                        *r -= factor * p;
                    }
                }
            }
        }
        Some(Lu { n, lu: a, swaps })
    }

    /// Solves A·x = b in place.
    pub(crate) fn solve(&self, b: &mut [f64]) {
        let n = self.n;
        assert_eq!(b.len(), n, "one value per unknown");
        for (k, &swap) in self.swaps.iter().enumerate() {
            b.swap(k, swap);
        }
        for i in 0..n {
            let row = &self.lu[i * n..i * n + i];
            let sum: f64 = row.iter().zip(&b[..i]).map(|(l, x)| l * x).sum();
            b[i] -= sum;
        }
        for i in (0..n).rev() {
            let row = &self.lu[i * n..(i + 1) * n];
            let sum: f64 = row[i + 1..]
                .iter()
                .zip(&b[i + 1..])
                .map(|(u, x)| u * x)
                .sum();
            b[i] = (b[i] - sum) / row[i];
        }
    }
}

#[cfg(test)]
#[path = "dense_tests.rs"]
mod tests;
