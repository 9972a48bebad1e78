//! Symmetric positive definite systems with two bands below the diagonal,
//! the shape of a sum of squared second differences: factored once as
//! L·D·Lᵀ in linear time, then solved for many right-hand sides at once.
//!
//! The right-hand sides are stored day by day (all of a day's values
//! together), so each step of the substitutions is one pass over a short
//! contiguous row, which the compiler turns into vector instructions.

#[derive(Debug)]
pub(crate) struct Pentadiagonal {
    /// D's diagonal.
    d: Vec<f64>,
    /// L below its diagonal: `l1[i]` is L[i][i-1], `l2[i]` is L[i][i-2].
    l1: Vec<f64>,
    l2: Vec<f64>,
}

impl Pentadiagonal {
    /// Factors the matrix with diagonal `b0`, `b1[i]` = B[i][i-1] and `b2[i]`
    /// = B[i][i-2] (the first one or two entries unused). `None` if it is not
    /// positive definite.
    pub(crate) fn factor(b0: &[f64], b1: &[f64], b2: &[f64]) -> Option<Pentadiagonal> {
        let n = b0.len();
        let (mut d, mut l1, mut l2) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        for i in 0..n {
            if i >= 2 {
                l2[i] = b2[i] / d[i - 2];
            }
            if i >= 1 {
                let beyond = if i >= 2 {
                    l2[i] * d[i - 2] * l1[i - 1]
                } else {
                    0.0
                };
                l1[i] = (b1[i] - beyond) / d[i - 1];
            }
            let mut pivot = b0[i];
            if i >= 1 {
                pivot -= l1[i] * l1[i] * d[i - 1];
            }
            if i >= 2 {
                pivot -= l2[i] * l2[i] * d[i - 2];
            }
            // A NaN pivot is refused too.
            if pivot.is_nan() || pivot <= 0.0 {
                return None;
            }
            d[i] = pivot;
        }
        Some(Pentadiagonal { d, l1, l2 })
    }

    pub(crate) fn len(&self) -> usize {
        self.d.len()
    }

    /// Solves B·X = R in place, R holding `columns` right-hand sides row by
    /// row: `x[i * columns + c]` is row i of column c.
    pub(crate) fn solve(&self, x: &mut [f64], columns: usize) {
        let n = self.len();
        assert_eq!(x.len(), n * columns, "one row per unknown");
        if columns == 0 {
            return;
        }
        // L·Y = R, row by row from the top.
        for i in 1..n {
            let (done, rest) = x.split_at_mut(i * columns);
            let row = &mut rest[..columns];
            let above = &done[(i - 1) * columns..];
            let l1 = self.l1[i];
            if i >= 2 {
                let two_above = &done[(i - 2) * columns..(i - 1) * columns];
                let l2 = self.l2[i];
                for ((r, a), b) in row.iter_mut().zip(above).zip(two_above) {
                    *r -= l1 * a + l2 * b;
                }
            } else {
                for (r, a) in row.iter_mut().zip(above) {
                    *r -= l1 * a;
                }
            }
        }
        // D·Z = Y.
        for (row, d) in x.chunks_exact_mut(columns).zip(&self.d) {
            let inverse = 1.0 / d;
            for r in row {
                *r *= inverse;
            }
        }
        // Lᵀ·X = Z, row by row from the bottom.
        for i in (0..n.saturating_sub(1)).rev() {
            let (head, below) = x.split_at_mut((i + 1) * columns);
            let row = &mut head[i * columns..];
            let next = &below[..columns];
            let l1 = self.l1[i + 1];
            if i + 2 < n {
                let after_next = &below[columns..2 * columns];
                let l2 = self.l2[i + 2];
                for ((r, a), b) in row.iter_mut().zip(next).zip(after_next) {
                    *r -= l1 * a + l2 * b;
                }
            } else {
                for (r, a) in row.iter_mut().zip(next) {
                    *r -= l1 * a;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "banded_tests.rs"]
mod tests;
