//! A feed resumed from an earlier run (`LiveConfig::resume`, as the recorder
//! starts): what was published after each tenor's resume point is
//! backfilled before its newer values, whether its subscription was made
//! before the connection or once connected.

use super::*;
use crate::test_server::price;
use crate::{ResumePoint, TickSource};

fn resume_at(curve_id: &str, tenor: &str, after: &str) -> ResumePoint {
    ResumePoint {
        curve_id: curve_id.into(),
        tenor: tenor.into(),
        after: at(after),
    }
}

#[tokio::test]
async fn a_second_subscription_made_once_connected_is_backfilled_too() {
    let mut h = harness(|config| {
        config.resume = vec![
            resume_at(CURVE, "Jan 26", "2025-06-13T10:00:00"),
            resume_at("c-2", "Feb 26", "2025-06-13T10:00:00"),
        ];
    })
    .await;
    h.backfill.answers.lock().unwrap().extend([
        Ok(vec![(at("2025-06-13T10:00:01.250123"), 71.0)]),
        Ok(vec![(at("2025-06-13T10:00:02.5"), 82.0)]),
    ]);
    let mut conn = h.server.next_connection().await;
    conn.authenticate().await;
    // The recorder subscribes one after the other: the second is sent
    // on a connection that is up and resubscribed already.
    let (first, _) = tokio::join!(h.feed.subscribe(CURVE, "*", true), async {
        let snapshot = price(CURVE, "Jan 26", "2025-06-13T10:00:03.000", 72.0);
        conn.accept_subscribe(vec![snapshot]).await
    });
    first.unwrap();
    let (second, _) = tokio::join!(h.feed.subscribe("c-2", "*", true), async {
        let snapshot = price("c-2", "Feb 26", "2025-06-13T10:00:04.000", 83.0);
        conn.accept_subscribe(vec![snapshot]).await
    });
    second.unwrap();
    let mut ticks = take(&h.feed, 4).await;
    ticks.sort_by(|a, b| (&*a.curve_id, a.generated_on).cmp(&(&*b.curve_id, b.generated_on)));
    assert_eq!(
        summary(&ticks),
        vec![
            (at("2025-06-13T10:00:01.250123"), 71.0, TickSource::Backfill),
            (at("2025-06-13T10:00:03"), 72.0, TickSource::Snapshot),
            (at("2025-06-13T10:00:02.5"), 82.0, TickSource::Backfill),
            (at("2025-06-13T10:00:04"), 83.0, TickSource::Snapshot),
        ]
    );
    let calls = h.backfill.calls.lock().unwrap().clone();
    let asked: Vec<(&str, &str, Micros)> = calls
        .iter()
        .map(|(curve, tenor, gap)| (curve.as_str(), tenor.as_str(), gap.after))
        .collect();
    assert_eq!(
        asked,
        vec![
            (CURVE, "Jan 26", at("2025-06-13T10:00:00")),
            ("c-2", "Feb 26", at("2025-06-13T10:00:00")),
        ]
    );
    h.feed.close().await;
}
