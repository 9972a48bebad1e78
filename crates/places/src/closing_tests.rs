use super::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[tokio::test]
async fn a_closed_signal_never_starts_the_work() {
    let closing = Closing::default();
    closing.close();
    closing.close();
    let started = AtomicBool::new(false);
    let result = closing
        .guard(async {
            started.store(true, Ordering::Relaxed);
            Ok(())
        })
        .await;
    assert!(matches!(result, Err(ClientError::ClientClosed)));
    assert!(!started.load(Ordering::Relaxed));
}

#[tokio::test]
async fn closing_ends_work_in_flight_and_reaches_children() {
    let closing = Closing::default();
    let child = closing.child();
    let closer = closing.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        closer.close();
    });
    let forever = closing.guard(async {
        std::future::pending::<()>().await;
        Ok(())
    });
    let ended = tokio::time::timeout(Duration::from_secs(10), forever).await;
    assert!(matches!(ended, Ok(Err(ClientError::ClientClosed))));
    assert!(child.is_closed());
}

#[tokio::test]
async fn closing_a_child_leaves_the_parent_open() {
    let closing = Closing::default();
    closing.child().close();
    assert!(!closing.is_closed());
    assert!(matches!(closing.guard(async { Ok(7) }).await, Ok(7)));
}
