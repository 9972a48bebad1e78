use std::path::Path;

use proptest::prelude::*;

use super::*;

fn day(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 1, 1).unwrap() + chrono::Days::new(n as u64)
}

fn days_of(run: &Run) -> (NaiveDate, NaiveDate) {
    match run {
        Run::Cached { first, last, .. } | Run::Missing { first, last } => (*first, *last),
    }
}

fn segment(first: u32, last: u32) -> Segment {
    Segment::in_dir(Path::new("/d"), day(first), day(last))
}

#[test]
fn an_empty_cache_misses_everything_in_one_run() {
    assert_eq!(
        plan(&[], day(0), day(99)),
        vec![Run::Missing {
            first: day(0),
            last: day(99)
        }]
    );
}

#[test]
fn a_request_wider_than_the_cache_misses_only_its_edges() {
    let runs = plan(&[segment(10, 19)], day(0), day(29));
    assert_eq!(
        runs,
        vec![
            Run::Missing {
                first: day(0),
                last: day(9)
            },
            Run::Cached {
                segment: segment(10, 19),
                first: day(10),
                last: day(19)
            },
            Run::Missing {
                first: day(20),
                last: day(29)
            },
        ]
    );
}

#[test]
fn where_files_overlap_the_first_listed_wins() {
    // Newest first: (5, 20), then (0, 10), then (8, 9).
    let runs = plan(
        &[segment(5, 20), segment(0, 10), segment(8, 9)],
        day(2),
        day(25),
    );
    assert_eq!(
        runs,
        vec![
            Run::Cached {
                segment: segment(0, 10),
                first: day(2),
                last: day(4)
            },
            Run::Cached {
                segment: segment(5, 20),
                first: day(5),
                last: day(20)
            },
            Run::Missing {
                first: day(21),
                last: day(25)
            },
        ]
    );
}

#[test]
fn a_newer_narrow_file_takes_its_days_from_an_older_wide_one() {
    let runs = plan(&[segment(10, 12), segment(0, 30)], day(0), day(30));
    let owners: Vec<(NaiveDate, NaiveDate)> = runs
        .iter()
        .map(|p| match p {
            Run::Cached { segment, .. } => (segment.first, segment.last),
            Run::Missing { .. } => panic!("nothing is missing"),
        })
        .collect();
    assert_eq!(
        owners,
        vec![(day(0), day(30)), (day(10), day(12)), (day(0), day(30))]
    );
    assert_eq!(days_of(&runs[1]), (day(10), day(12)));
}

proptest! {
    /// Every day of the request is in exactly one run, in order; a cached
    /// day is in its file and in no file listed before it; a missing day is
    /// in no file; no two missing runs touch.
    #[test]
    fn runs_cover_each_day_once(
        files in prop::collection::vec((0u32..60, 0u32..20), 0..6),
        start in 0u32..60,
        len in 0u32..60,
    ) {
        let segments: Vec<Segment> = files.iter().map(|(a, n)| segment(*a, a + n)).collect();
        let runs = plan(&segments, day(start), day(start + len));
        let mut expected = day(start);
        let mut previous_missing = false;
        for run in &runs {
            let (first, last) = days_of(run);
            prop_assert_eq!(first, expected);
            prop_assert!(first <= last);
            match run {
                Run::Cached { segment, .. } => {
                    prop_assert!(segment.first <= first && last <= segment.last);
                    let rank = segments.iter().position(|s| s == segment).unwrap();
                    for earlier in &segments[..rank] {
                        prop_assert!(earlier.last < first || earlier.first > last);
                    }
                    previous_missing = false;
                }
                Run::Missing { .. } => {
                    prop_assert!(!previous_missing);
                    for s in &segments {
                        prop_assert!(s.last < first || s.first > last);
                    }
                    previous_missing = true;
                }
            }
            expected = last + chrono::Days::new(1);
        }
        prop_assert_eq!(expected, day(start + len) + chrono::Days::new(1));
    }
}
