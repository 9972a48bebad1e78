use std::sync::Arc;

use futures_util::FutureExt;

use super::*;
use crate::{LiveFeed, TickSource};
use places::Closing;

/// A producer that pushes three values of one tenor, then ends the feed;
/// its time is the time handed out plus one, and it holds no subscription.
struct Scripted;

impl Driven for Scripted {
    fn now_handed(&self, handed: Micros) -> Micros {
        handed + 1
    }

    fn check<'a>(&'a self, _: &'a Subscription) -> Option<BoxFuture<'a, Result<(), ClientError>>> {
        None
    }
}

fn start(closing: &Closing) -> Result<LiveFeed, ClientError> {
    LiveFeed::start_driven(16, closing, std::time::Duration::from_secs(5), |driving| {
        let task = async move {
            let key = driving
                .shared
                .names
                .add(&Arc::from("curve"), &Arc::from("Jan 26"));
            let mut rows: Vec<Row> = (1..=3)
                .map(|at| Row {
                    key,
                    generated_on: at * 1_000,
                    price: at as f64,
                    source: TickSource::Update,
                })
                .collect();
            driving.shared.queue.push_rows(&mut rows);
            driving.shared.queue.close();
        };
        (task.boxed(), Arc::new(Scripted) as Arc<dyn Driven>)
    })
}

#[tokio::test]
async fn a_driven_feed_hands_out_what_its_producer_pushes_then_ends() {
    let feed = start(&Closing::default()).unwrap();
    let mut prices = Vec::new();
    while let Ok(Some(ticks)) = feed.next_ticks(8, None).await {
        prices.extend(ticks.iter().map(|t| (t.tenor.to_string(), t.price)));
    }
    assert_eq!(
        prices,
        [
            ("Jan 26".into(), 1.0),
            ("Jan 26".into(), 2.0),
            ("Jan 26".into(), 3.0)
        ]
    );
    // The producer keeps the feed's time: the last value handed out, plus one.
    assert_eq!(feed.now(), Some(3_001));
}

#[tokio::test]
async fn a_strict_subscription_to_a_producer_that_is_gone_is_refused() {
    let feed = start(&Closing::default()).unwrap();
    assert!(feed.subscribe("curve", "Jan 26", true).await.is_err());
}

#[tokio::test]
async fn a_closed_client_starts_no_driven_feed() {
    let closing = Closing::default();
    closing.close();
    assert!(matches!(start(&closing), Err(ClientError::ClientClosed)));
}

#[test]
fn a_driven_feed_needs_a_runtime() {
    let error = start(&Closing::default()).err().unwrap();
    assert!(error.to_string().contains("tokio runtime"), "{error}");
}
