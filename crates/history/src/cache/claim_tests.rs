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
    let Taken::Held {
        until: Some(until), ..
    } = take(&files, &path)
    else {
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
    let far = SystemTime::now() + DEFAULT_LIFETIME;
    assert!(wait_gone(&files, &path, Some(far), far));
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
    let far = SystemTime::now() + DEFAULT_LIFETIME;
    assert!(!wait_gone(&files, &path, Some(past), far));
    assert!(started.elapsed() < DEFAULT_LIFETIME);
    assert_eq!(files.read(&path).unwrap(), None);
    assert!(matches!(take(&files, &path), Taken::Mine(_)));
}

#[test]
fn a_waiter_past_its_calls_deadline_gives_up_and_leaves_the_claim() {
    // A live claimant's claim: the waiter's call has waited all it may, so
    // it stops at once, and the claim stays for its holder.
    let (files, root) = store();
    let path = root.join("claims").join("d");
    assert!(matches!(take(&files, &path), Taken::Mine(_)));
    let started = Instant::now();
    let held = SystemTime::now() + DEFAULT_LIFETIME;
    let given_up = SystemTime::now() - Duration::from_millis(1);
    assert!(!wait_gone(&files, &path, Some(held), given_up));
    assert!(started.elapsed() < DEFAULT_LIFETIME / 2);
    assert!(
        files.read(&path).unwrap().is_some(),
        "the claim is its holder's"
    );
}

#[test]
fn of_overlapping_claims_on_a_tenor_the_first_stands_and_the_next_gives_way() {
    let (files, root) = store();
    let service = root.join("svc");
    let claim = |first, last| {
        claim_path(
            &service,
            History::Settlements,
            "c-1",
            "Jul 25",
            (day(first), day(last)),
        )
    };
    let Taken::Mine(first) = take(&files, &claim(1, 20)) else {
        panic!("the first claim stands");
    };
    // Days 10 to 31 overlap the first's: its holder fetches them.
    let Taken::Held { path, .. } = take(&files, &claim(10, 31)) else {
        panic!("an overlapping claim gives way");
    };
    assert_eq!(path, claim(1, 20));
    assert_eq!(
        files.read(&claim(10, 31)).unwrap(),
        None,
        "the second's claim is gone"
    );
    // Days beside them, and another tenor's, are claimed at once.
    assert!(matches!(take(&files, &claim(21, 31)), Taken::Mine(_)));
    let other_tenor = claim_path(
        &service,
        History::Settlements,
        "c-1",
        "Aug 25",
        (day(1), day(31)),
    );
    assert!(matches!(take(&files, &other_tenor), Taken::Mine(_)));
    first.release();
    assert!(matches!(take(&files, &claim(10, 20)), Taken::Mine(_)));
}

#[test]
fn a_claims_name_gives_its_tenor_and_days() {
    let name = "settlements_c-1_Jul%2025_2025-01-01_2025-01-31";
    assert_eq!(
        parts(name),
        Some(("settlements_c-1_Jul%2025", day(1), day(31)))
    );
    assert_eq!(parts("junk"), None);
}
