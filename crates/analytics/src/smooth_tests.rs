use super::Smooth;
use crate::delivery::Span;
use crate::dense::Lu;

fn smooth(weights: &[f64], spans: &[Span]) -> Option<Vec<f64>> {
    let prices: Vec<f64> = spans.iter().map(|s| s.price).collect();
    Smooth::new(weights, spans)?.curve(&prices)
}

fn span(first: usize, last: usize, price: f64) -> Span {
    Span { first, last, price }
}

/// The same problem solved densely: the whole system of optimality
/// conditions, H·f + Cᵀ·λ = 0 and C·f = b, in one matrix.
fn reference(weights: &[f64], spans: &[Span]) -> Vec<f64> {
    let n = weights.len();
    let k = spans.len() + 1;
    let size = n + k;
    let mut a = vec![0.0; size * size];
    for r in 1..n - 1 {
        let c = [(r - 1, 1.0), (r, -2.0), (r + 1, 1.0)];
        for &(i, x) in &c {
            for &(j, y) in &c {
                a[i * size + j] += x * y;
            }
        }
    }
    let mut rows: Vec<Vec<(usize, f64)>> = spans
        .iter()
        .map(|s| {
            let total = s.total(weights);
            (s.first..=s.last)
                .map(|d| (d, weights[d] / total))
                .collect()
        })
        .collect();
    rows.push(vec![(n - 2, -1.0), (n - 1, 1.0)]);
    let mut b = vec![0.0; size];
    for (row, entries) in rows.iter().enumerate() {
        for &(day, x) in entries {
            a[(n + row) * size + day] = x;
            a[day * size + n + row] = x;
        }
        b[n + row] = spans.get(row).map_or(0.0, |s| s.price);
    }
    Lu::factor(a, size).unwrap().solve(&mut b);
    b.truncate(n);
    b
}

fn assert_close(got: &[f64], want: &[f64], tolerance: f64) {
    assert_eq!(got.len(), want.len());
    for (day, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tolerance, "day {day}: {g} against {w}");
    }
}

fn means_met(f: &[f64], weights: &[f64], spans: &[Span]) {
    for s in spans {
        let mean = s.mean(f, weights);
        assert!(
            (mean - s.price).abs() <= 1e-9 * s.price.abs(),
            "{s:?}: mean {mean}"
        );
    }
}

#[test]
fn a_single_contract_is_flat_at_its_price() {
    for n in [1, 2, 3, 31, 92] {
        let f = smooth(&vec![1.0; n], &[span(0, n - 1, 71.25)]).unwrap();
        assert_close(&f, &vec![71.25; n], 1e-9);
    }
}

#[test]
fn months_of_one_price_make_a_flat_curve() {
    let spans = [span(0, 30, 80.0), span(31, 58, 80.0), span(59, 89, 80.0)];
    let f = smooth(&[1.0; 90], &spans).unwrap();
    assert_close(&f, &[80.0; 90], 1e-9);
}

#[test]
fn a_linear_trend_rises_through_its_months_and_flattens_at_the_far_end() {
    // Six 30-day months priced as the line f = day would average them.
    let spans: Vec<Span> = (0..6)
        .map(|k| span(30 * k, 30 * k + 29, 30.0 * k as f64 + 14.5))
        .collect();
    let f = smooth(&[1.0; 180], &spans).unwrap();
    means_met(&f, &[1.0; 180], &spans);
    assert!(f.windows(2).take(178).all(|w| w[1] > w[0]), "rising");
    assert_eq!(f[179], f[178]);
    // The end condition bends the line most in the last month, and less and
    // less towards the first.
    let off =
        |range: std::ops::Range<usize>| range.map(|d| (f[d] - d as f64).abs()).fold(0.0, f64::max);
    assert!(
        off(0..30) < 0.2 && off(150..180) > 2.0,
        "{} {}",
        off(0..30),
        off(150..180)
    );
    assert!(off(0..30) < off(60..90) && off(60..90) < off(150..180));
}

#[test]
fn equals_the_dense_solution_with_gaps_overlaps_and_weights() {
    let weights: Vec<f64> = (0..120)
        .map(|d| if d % 7 >= 5 { 0.0 } else { 1.0 })
        .collect();
    let cases: [(&[f64], Vec<Span>); 3] = [
        // A month's gap between two months.
        (
            &[1.0; 120],
            vec![span(0, 29, 60.0), span(60, 89, 66.0), span(90, 119, 65.0)],
        ),
        // A window inside its month, and a quarter overlapping both months.
        (
            &[1.0; 120],
            vec![
                span(0, 4, 58.0),
                span(0, 29, 60.0),
                span(10, 101, 61.0),
                span(30, 59, 63.0),
            ],
        ),
        // Means over weekdays only.
        (
            &weights,
            vec![span(0, 29, 60.0), span(30, 59, 62.5), span(60, 119, 61.0)],
        ),
    ];
    for (weights, spans) in cases {
        let f = smooth(weights, &spans).unwrap();
        means_met(&f, weights, &spans);
        assert_close(&f, &reference(weights, &spans), 1e-9);
    }
}

#[test]
fn two_years_of_months_equal_the_dense_solution() {
    let mut spans = Vec::new();
    let mut first = 0;
    for month in 0..24 {
        let days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month % 12];
        let price = 70.0 + 5.0 * (month as f64 * 0.5).sin() + month as f64 * 0.1;
        spans.push(span(first, first + days - 1, price));
        first += days;
    }
    let weights = vec![1.0; first];
    let f = smooth(&weights, &spans).unwrap();
    means_met(&f, &weights, &spans);
    assert_close(&f, &reference(&weights, &spans), 1e-8);
}

#[test]
fn one_preparation_serves_any_prices_of_the_same_contracts() {
    let spans = [span(0, 30, 70.0), span(31, 58, 72.0), span(59, 89, 71.0)];
    let prepared = Smooth::new(&[1.0; 90], &spans).unwrap();
    let other = [span(0, 30, 60.0), span(31, 58, 58.5), span(59, 89, 61.0)];
    let prices: Vec<f64> = other.iter().map(|s| s.price).collect();
    assert_eq!(
        prepared.curve(&prices).unwrap(),
        smooth(&[1.0; 90], &other).unwrap()
    );
}
