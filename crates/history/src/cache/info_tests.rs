use std::fs;

use super::*;
use crate::cache::files::tests::both;
use crate::cache::layout::tenor_dir;

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// The service's and account's files in a folder, as a folder cache has
/// them, and in a store, as a shared one has them (the history apart from
/// the account's own).
fn caches(name: &str) -> Vec<Dirs> {
    both(name)
        .into_iter()
        .map(|(files, root)| {
            let (history, account) = match files {
                Files::Folder => (root.clone(), root.clone()),
                Files::Store(_) => (root.join("services/s"), root.join("accounts/a")),
            };
            Dirs {
                files,
                history,
                account,
                licences: None,
                checked: Default::default(),
            }
        })
        .collect()
}

fn remove(service: Dirs) {
    if let Files::Folder = service.files {
        fs::remove_dir_all(service.history).unwrap();
    }
}

/// Empty segments (days without values): what is kept is their days.
fn fill(service: &Dirs, curve: &str, tenor: &str, first: &str, last: &str) {
    let dir = tenor_dir(&service.history, History::Settlements, curve, tenor);
    let segment = Segment::in_dir(&dir, day(first), day(last));
    let of = (History::Settlements, curve, tenor);
    segment::write(&service.files, &segment, Put::Create, of, &[]).unwrap();
}

#[test]
fn info_names_each_curve_with_its_days() {
    for service in caches("info") {
        info_names_each_curve_with_its_days_in(service);
    }
}

fn info_names_each_curve_with_its_days_in(service: Dirs) {
    assert_eq!(info(&service).files, 0);
    fill(&service, "c/1", "Jan 25", "2025-01-01", "2025-01-31");
    fill(&service, "c/1", "Feb 25", "2025-02-01", "2025-03-31");
    fill(&service, "c2", "Jan 25", "2024-01-01", "2024-01-01");
    let found = info(&service);
    assert_eq!(found.files, 3);
    assert!(found.bytes > 0);
    let first = &found.curves[0];
    assert_eq!(first.curve_id, "c/1");
    assert_eq!(
        (first.first, first.last),
        (day("2025-01-01"), day("2025-03-31"))
    );
    assert_eq!((first.tenors, first.files), (2, 2));
    // January's 31 days of one tenor, February and March's 59 of the other.
    assert_eq!(first.days, 31 + 59);
    assert_eq!(found.curves[1].days, 1);
    assert_eq!(found.curves[1].curve_id, "c2");
    remove(service);
}

#[test]
fn clearing_removes_a_curve_or_the_days_before_a_date() {
    for service in caches("clear") {
        clearing_removes_a_curve_or_the_days_before_a_date_in(service);
    }
}

fn clearing_removes_a_curve_or_the_days_before_a_date_in(service: Dirs) {
    fill(&service, "c1", "Jan 25", "2025-01-01", "2025-01-31");
    fill(&service, "c1", "Feb 25", "2025-02-01", "2025-03-31");
    fill(&service, "c2", "Jan 25", "2024-01-01", "2024-01-01");

    let cleared = clear(&service, Some("c2"), None);
    assert_eq!(cleared.files, 1);
    assert_eq!(info(&service).curves.len(), 1);

    // Before March: January goes, February to March keeps March.
    let cleared = clear(&service, None, Some(day("2025-03-01")));
    assert_eq!(cleared.files, 2);
    let left = info(&service);
    assert_eq!(left.curves[0].first, day("2025-03-01"));
    assert_eq!(left.curves[0].last, day("2025-03-31"));

    clear(&service, None, None);
    assert_eq!(info(&service).curves, vec![]);
    remove(service);
}

#[test]
fn overlapping_segments_count_their_days_once() {
    let dir = Path::new("t");
    let segment = |first: &str, last: &str| Segment::in_dir(dir, day(first), day(last));
    let held = [
        segment("2025-01-01", "2025-01-10"),
        // A merge's new segment, written before the ones it covers go.
        segment("2025-01-01", "2025-01-20"),
        segment("2025-01-05", "2025-01-06"),
        segment("2025-02-01", "2025-02-01"),
    ];
    let days = |segments: &[Segment]| -> i64 {
        let runs = segments.iter().map(|s| (s.first, s.last)).collect();
        let joined = crate::cache::prefetch::joined(runs);
        joined.iter().map(|(f, l)| (*l - *f).num_days() + 1).sum()
    };
    assert_eq!(days(&held), 20 + 1);
    assert_eq!(days(&[]), 0);
}
