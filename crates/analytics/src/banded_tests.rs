use super::Pentadiagonal;

/// B·x for the bands of `factor`'s arguments.
fn multiply(b0: &[f64], b1: &[f64], b2: &[f64], x: &[f64]) -> Vec<f64> {
    let n = b0.len();
    (0..n)
        .map(|i| {
            let mut sum = b0[i] * x[i];
            if i >= 1 {
                sum += b1[i] * x[i - 1];
            }
            if i >= 2 {
                sum += b2[i] * x[i - 2];
            }
            if i + 1 < n {
                sum += b1[i + 1] * x[i + 1];
            }
            if i + 2 < n {
                sum += b2[i + 2] * x[i + 2];
            }
            sum
        })
        .collect()
}

/// A diagonally dominant matrix of `n` rows: positive definite.
fn bands(n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let b0 = (0..n).map(|i| 7.0 + (i % 3) as f64).collect();
    let b1 = (0..n).map(|i| -2.0 - (i % 2) as f64).collect();
    let b2 = (0..n).map(|i| 1.0 + (i % 4) as f64 * 0.25).collect();
    (b0, b1, b2)
}

#[test]
fn solves_several_right_hand_sides_at_once() {
    for n in [1, 2, 3, 4, 9] {
        let (b0, b1, b2) = bands(n);
        let matrix = Pentadiagonal::factor(&b0, &b1, &b2).unwrap();
        let columns = 3;
        let wanted: Vec<Vec<f64>> = (0..columns)
            .map(|c| (0..n).map(|i| (i * 7 + c * 3) as f64 % 5.0 - 2.0).collect())
            .collect();
        let mut x = vec![0.0; n * columns];
        for (c, want) in wanted.iter().enumerate() {
            for (i, v) in multiply(&b0, &b1, &b2, want).into_iter().enumerate() {
                x[i * columns + c] = v;
            }
        }
        matrix.solve(&mut x, columns);
        for (c, want) in wanted.iter().enumerate() {
            for i in 0..n {
                assert!(
                    (x[i * columns + c] - want[i]).abs() < 1e-12,
                    "n {n}, column {c}, row {i}"
                );
            }
        }
    }
}

#[test]
fn a_matrix_that_is_not_positive_definite_is_refused() {
    assert!(Pentadiagonal::factor(&[1.0, 1.0], &[0.0, 2.0], &[0.0, 0.0]).is_none());
    assert!(Pentadiagonal::factor(&[f64::NAN], &[0.0], &[0.0]).is_none());
}
