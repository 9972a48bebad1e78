use chrono::NaiveDate;

use super::*;
use crate::cache::files::tests::both;
use crate::cache::files::Put;

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

#[test]
fn one_listing_finds_each_tenors_segments_and_reads_those_its_plan_needs() {
    for (files, root) in both("prefetch") {
        let curve = root.join("settlements").join("c1");
        let (jul, aug) = (curve.join("Jul%2025"), curve.join("Aug%2025"));
        let write = |segment: &Segment, text: &str| {
            files
                .write(&segment.path, Put::Create, |out| {
                    out.write_all(text.as_bytes())
                })
                .unwrap();
        };
        let early = Segment::in_dir(&jul, day("2025-01-01"), day("2025-01-31"));
        let late = Segment::in_dir(&jul, day("2025-03-01"), day("2025-03-31"));
        let other = Segment::in_dir(&aug, day("2025-01-01"), day("2025-03-31"));
        write(&early, "early");
        write(&late, "late");
        write(&other, "other");
        let days = (day("2025-02-01"), day("2025-03-15"));
        let of = (crate::cache::layout::History::Settlements, "c1");
        let got = Prefetched::read(&files, &curve, &[jul.clone(), aug.clone()], days, of);
        assert_eq!(got.segments(&jul).len(), 2);
        assert_eq!(got.segments(&aug), vec![other.clone()]);
        assert!(got.segments(&curve.join("Q3%2025")).is_empty());
        // Only what the plans read: `early` ends before the call's days.
        assert!(got.take(&early.path).is_none());
        let late_bytes = got.take(&late.path).unwrap().unwrap().unwrap();
        assert_eq!(&late_bytes[..], b"late");
        assert!(got.take(&other.path).is_some());
        assert!(got.take(&late.path).is_none(), "taken once");
    }
}
