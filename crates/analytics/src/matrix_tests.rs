use super::matrix;
use crate::test_tables::{dates, floats, names, settlements};

#[test]
fn one_row_per_date_one_column_per_tenor_in_calendar_order() {
    let table = settlements(
        &[
            ("a", "Mar 25", "2025-01-03", 3.0),
            ("a", "Q1 25", "2024-12-31", 9.0),
            ("a", "Jan 25", "2024-12-31", 1.0),
            ("a", "Feb 25", "2024-12-31", 2.0),
            ("a", "Feb 25", "2025-01-03", 2.5),
        ],
        "$/bbl",
    );
    let out = matrix(&table, "price").unwrap();
    assert_eq!(
        names(&out),
        ["curve_id", "date", "Jan 25", "Q1 25", "Feb 25", "Mar 25"]
    );
    assert_eq!(dates(&out), ["2024-12-31", "2025-01-03"]);
    assert_eq!(floats(&out, "Feb 25"), [Some(2.0), Some(2.5)]);
    assert_eq!(floats(&out, "Mar 25"), [None, Some(3.0)]);
    assert!(matrix(&table, "volume").is_err());
}
