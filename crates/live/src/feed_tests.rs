use super::*;

/// The binding shares a feed between threads and runs its futures on the
/// runtime's workers: the handle must be `Send + Sync`, its futures `Send`.
#[allow(dead_code)]
fn shareable(feed: Arc<LiveFeed>) {
    fn send_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: T) {}
    send_sync(&feed);
    send(async move {
        let _ = feed.subscribe("c", "*", true).await;
        let _ = feed.unsubscribe("c", "*").await;
        let _ = feed.next_ticks(1, None).await;
        let _ = feed.next_tick(None).await;
        let _ = feed.next_batch(1, None).await;
        feed.close().await;
    });
}

#[tokio::test]
async fn bad_settings_are_refused_before_anything_starts() {
    struct Never;
    impl TokenSource for Never {
        fn fresh_token(
            &self,
        ) -> futures_util::future::BoxFuture<'_, Result<places::Secret, ClientError>> {
            panic!("not called")
        }
    }
    impl Backfiller for Never {
        fn published_since<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
            _: crate::GapSpan,
            _: (&'a crate::PageHints, &'a std::sync::atomic::AtomicU64),
        ) -> futures_util::future::BoxFuture<'a, Result<Vec<(i64, f64)>, ClientError>> {
            panic!("not called")
        }
    }
    let config = LiveConfig {
        url: "https://not-a-socket".into(),
        ..LiveConfig::default()
    };
    let started = LiveFeed::start_with(Arc::new(Never), Arc::new(Never), config);
    assert!(matches!(started, Err(ClientError::InvalidRequest(_))));
}
