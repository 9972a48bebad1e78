use super::*;
use domain::month::Month;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn key(month: &str) -> FileKey {
    FileKey {
        vertical: "JET",
        month: Month::parse(month).unwrap(),
        denied: Default::default(),
        curves: 233,
    }
}

#[tokio::test]
async fn files_are_built_once_and_let_go_beyond_the_budget() {
    let cache = FileCache::new(10);
    let builds = Arc::new(AtomicUsize::new(0));
    let build = |n: u8| {
        let builds = Arc::clone(&builds);
        move || {
            builds.fetch_add(1, Ordering::SeqCst);
            Ok(vec![n; 6])
        }
    };
    let (may, june) = (key("2025-05"), key("2025-06"));
    assert_eq!(cache.get_or_build(&may, build(1)).await.unwrap()[0], 1);
    assert_eq!(cache.get_or_build(&may, build(9)).await.unwrap()[0], 1);
    assert_eq!(builds.load(Ordering::SeqCst), 1);
    // Both do not fit in 10 bytes: May goes, its size stays.
    cache.get_or_build(&june, build(2)).await.unwrap();
    assert_eq!(cache.size(&may), Some(6));
    assert_eq!(cache.get_or_build(&may, build(1)).await.unwrap()[0], 1);
    assert_eq!(builds.load(Ordering::SeqCst), 3);
    assert_eq!(cache.size(&key("2025-07")), None);
}

#[tokio::test]
async fn a_failed_build_is_an_error_and_not_kept() {
    let cache = FileCache::new(DEFAULT_BUDGET);
    let may = key("2025-05");
    let failed = cache.get_or_build(&may, || Err("disk full".into())).await;
    assert_eq!(failed.unwrap_err(), "disk full");
    assert_eq!(cache.size(&may), None);
}
