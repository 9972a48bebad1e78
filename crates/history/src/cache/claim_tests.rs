use std::time::Instant;

use chrono::NaiveDate;

use super::*;
use crate::cache::files::tests::both;

fn store() -> (Files, PathBuf) {
    both("claims")
        .into_iter()
        .find(|(files, _)| files.is_store())
        .expect("a store")
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 1, d).unwrap()
}

#[test]
fn a_claim_lives_beside_the_history_named_after_its_days() {
    let path = claim_path(
        Path::new("svc"),
        History::Settlements,
        "c-1",
        "M1",
        (day(1), day(31)),
    );
    assert_eq!(
        path,
        Path::new("svc/claims/settlements_c-1_M1_2025-01-01_2025-01-31")
    );
}

#[test]
fn one_writer_holds_a_claim_and_the_others_are_told_until_when() {
    let (files, root) = store();
    let path = root.join("claims").join("a");
    let Taken::Mine(claim) = take(&files, &path) else {
        panic!("the first claim is the first writer's");
    };
    let Taken::Held { until: Some(until) } = take(&files, &path) else {
        panic!("a second writer finds it held");
    };
    assert!(until > SystemTime::now());
    assert!(until <= SystemTime::now() + DEFAULT_LIFETIME);
    claim.release();
    assert!(matches!(take(&files, &path), Taken::Mine(_)));
}

#[test]
fn a_waiter_sees_a_released_claim_go() {
    let (files, root) = store();
    let path = root.join("claims").join("b");
    let Taken::Mine(claim) = take(&files, &path) else {
        panic!("claimed");
    };
    let releasing = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        claim.release();
    });
    assert!(wait_gone(
        &files,
        &path,
        Some(SystemTime::now() + DEFAULT_LIFETIME)
    ));
    releasing.join().unwrap();
}

#[test]
fn a_claim_past_its_time_holds_no_one_and_is_removed() {
    // A claimant that died: its claim says a time already past.
    let (files, root) = store();
    let path = root.join("claims").join("c");
    assert!(matches!(take(&files, &path), Taken::Mine(_)));
    let started = Instant::now();
    let past = SystemTime::now() - Duration::from_secs(1);
    assert!(!wait_gone(&files, &path, Some(past)));
    assert!(started.elapsed() < DEFAULT_LIFETIME);
    assert_eq!(files.read(&path).unwrap(), None);
    assert!(matches!(take(&files, &path), Taken::Mine(_)));
}
