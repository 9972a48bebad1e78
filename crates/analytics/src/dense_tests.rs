use super::Lu;

#[test]
fn solves_a_system_that_needs_pivoting() {
    // A zero in the first pivot's place, and a symmetric indefinite matrix.
    let a = vec![0.0, 2.0, 1.0, 2.0, 1.0, -1.0, 1.0, -1.0, 3.0];
    let x = [1.5, -2.0, 0.25];
    let mut b: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|j| a[i * 3 + j] * x[j]).sum())
        .collect();
    Lu::factor(a, 3).unwrap().solve(&mut b);
    for (got, want) in b.iter().zip(x) {
        assert!((got - want).abs() < 1e-12, "{b:?}");
    }
}

#[test]
fn a_singular_matrix_is_refused() {
    assert!(Lu::factor(vec![1.0, 2.0, 2.0, 4.0], 2).is_none());
    assert!(Lu::factor(vec![f64::NAN], 1).is_none());
}
