use std::collections::HashMap;
use std::sync::Arc;

use super::*;
use crate::tick::TickSource;

/// Tenors named by one letter: "a" is key 0, "b" key 1...
fn key(tenor: &str) -> NameKey {
    NameKey::from_index(u32::from(tenor.as_bytes()[0] - b'a'))
}

fn tenor(key: NameKey) -> String {
    char::from(b'a' + key.index() as u8).to_string()
}

fn tick(tenor: &str, at: i64) -> Row {
    Row {
        key: key(tenor),
        generated_on: at,
        price: at as f64,
        source: TickSource::Update,
    }
}

fn names(rows: &[Row]) -> Vec<(String, i64)> {
    rows.iter()
        .map(|r| (tenor(r.key), r.generated_on))
        .collect()
}

fn pairs(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(t, at)| (t.to_string(), *at)).collect()
}

fn ticks_of(taken: Taken) -> Vec<Row> {
    match taken {
        Taken::Rows(rows) => rows,
        Taken::Error(e) => panic!("an error: {e}"),
        Taken::Empty => panic!("empty"),
        Taken::Closed => panic!("closed"),
    }
}

#[test]
fn ticks_come_out_first_in_first_out_up_to_max() {
    let queue = DeliveryQueue::new(100);
    let mut batch: Vec<Row> = (0..10).map(|i| tick("a", i)).collect();
    queue.push_rows(&mut batch);
    assert!(batch.is_empty());
    assert_eq!(queue.len(), 10);
    let first = ticks_of(queue.take(4));
    assert_eq!(
        first.iter().map(|t| t.generated_on).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    let rest = ticks_of(queue.take(100));
    assert_eq!(rest.len(), 6);
    assert!(matches!(queue.take(5), Taken::Empty));
    assert_eq!(queue.conflated(), 0);
}

#[test]
fn a_full_queue_keeps_the_latest_value_per_tenor_where_it_was() {
    let queue = DeliveryQueue::new(3);
    let mut batch = vec![tick("a", 1), tick("b", 2), tick("c", 3)];
    queue.push_rows(&mut batch);
    let mut batch = vec![tick("a", 4), tick("c", 5), tick("a", 6)];
    queue.push_rows(&mut batch);
    assert_eq!(queue.len(), 3);
    assert_eq!(queue.conflated(), 3);
    assert_eq!(
        names(&ticks_of(queue.take(10))),
        pairs(&[("a", 6), ("b", 2), ("c", 5)])
    );
}

#[test]
fn a_new_tenor_sweeps_out_obsolete_values_before_growing_the_queue() {
    let queue = DeliveryQueue::new(4);
    let mut batch = vec![tick("a", 1), tick("b", 2), tick("a", 3), tick("b", 4)];
    queue.push_rows(&mut batch);
    // Full, with two obsolete values: the new tenor takes their room.
    queue.push_rows(&mut vec![tick("c", 5)]);
    assert_eq!(queue.conflated(), 2);
    assert_eq!(queue.len(), 3);
    assert_eq!(
        names(&ticks_of(queue.take(10))),
        pairs(&[("a", 3), ("b", 4), ("c", 5)])
    );
}

#[test]
fn with_more_tenors_than_room_each_tenor_keeps_one_value() {
    let queue = DeliveryQueue::new(2);
    for round in 0..50 {
        let mut batch: Vec<Row> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|t| tick(t, round))
            .collect();
        queue.push_rows(&mut batch);
        assert!(queue.len() <= 5, "round {round}: {}", queue.len());
    }
    let out = ticks_of(queue.take(100));
    assert_eq!(
        names(&out),
        pairs(&[("a", 49), ("b", 49), ("c", 49), ("d", 49), ("e", 49)])
    );
    assert_eq!(queue.conflated(), 5 * 50 - 5);
}

#[test]
fn conflation_never_reorders_a_tenor_and_counts_every_replaced_value() {
    // Random pushes and takes against a full queue: per tenor the values come
    // out increasing, the newest pushed value of each tenor always comes out,
    // and delivered + conflated = pushed.
    let mut rng = fastrand::Rng::with_seed(7);
    let queue = DeliveryQueue::new(16);
    let tenors = ["a", "b", "c", "d", "e", "f", "g"];
    let mut pushed = 0u64;
    let mut delivered: Vec<Row> = Vec::new();
    for at in 0..20_000i64 {
        let mut batch = vec![tick(tenors[rng.usize(..tenors.len())], at)];
        pushed += 1;
        queue.push_rows(&mut batch);
        assert!(queue.len() <= 16);
        if rng.u8(..) < 40 {
            delivered.extend(ticks_of(queue.take(rng.usize(1..8))));
        }
    }
    if let Taken::Rows(rest) = queue.take(usize::MAX) {
        delivered.extend(rest);
    }
    assert_eq!(delivered.len() as u64 + queue.conflated(), pushed);
    let mut last: HashMap<String, i64> = HashMap::new();
    for t in &delivered {
        let previous = last.insert(tenor(t.key), t.generated_on);
        assert!(previous.is_none_or(|p| p < t.generated_on), "{t:?}");
    }
    assert!(queue.conflated() > 0);
}

#[test]
fn errors_come_once_in_order_with_ticks_and_are_never_conflated() {
    let queue = DeliveryQueue::new(2);
    queue.push_rows(&mut vec![tick("a", 1)]);
    queue.push_error(ClientError::auth(
        places::AuthReason::FeedRefusedTwice,
        None,
        "",
    ));
    queue.push_rows(&mut vec![tick("a", 2), tick("a", 3), tick("a", 4)]);
    // Behind the error the queue conflates; ahead of it nothing moves.
    assert_eq!(queue.len(), 3);
    assert_eq!(names(&ticks_of(queue.take(10))), pairs(&[("a", 1)]));
    assert!(matches!(queue.take(10), Taken::Error(ClientError::Auth(_))));
    assert_eq!(names(&ticks_of(queue.take(10))), pairs(&[("a", 4)]));
    assert!(matches!(queue.take(10), Taken::Empty));
    queue.close();
    assert!(matches!(queue.take(10), Taken::Closed));
    queue.push_rows(&mut vec![tick("a", 5)]);
    assert!(matches!(queue.take(10), Taken::Closed));
}

#[tokio::test]
async fn a_waiting_consumer_wakes_on_a_push_and_a_cancelled_wait_loses_nothing() {
    let queue = Arc::new(DeliveryQueue::new(10));
    let timed_out = queue.next(10, 1, Some(Duration::from_millis(20))).await;
    assert!(timed_out.unwrap().unwrap().is_empty());
    // A wait that is abandoned before anything arrives.
    let abandoned = tokio::time::timeout(Duration::from_millis(10), queue.next(10, 1, None)).await;
    assert!(abandoned.is_err());
    let waiter = {
        let queue = Arc::clone(&queue);
        tokio::spawn(async move { queue.next(10, 1, None).await })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    queue.push_rows(&mut vec![tick("a", 1), tick("b", 2)]);
    let got = waiter.await.unwrap().unwrap().unwrap();
    assert_eq!(names(&got), pairs(&[("a", 1), ("b", 2)]));
    queue.close();
    assert!(matches!(queue.next(10, 1, None).await, Ok(None)));
}

#[tokio::test]
async fn a_consumer_waiting_for_many_rows_is_woken_once_they_are_there() {
    let queue = Arc::new(DeliveryQueue::new(100));
    let waiter = {
        let queue = Arc::clone(&queue);
        tokio::spawn(async move { queue.next(100, 5, None).await })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    let first = queue.push_rows(&mut vec![tick("a", 1), tick("b", 2)]);
    assert!(!first.woke, "2 of the 5 rows wanted");
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!waiter.is_finished());
    let second = queue.push_rows(&mut (3..6).map(|at| tick("a", at)).collect());
    assert!(second.woke);
    let got = waiter.await.unwrap().unwrap().unwrap();
    assert_eq!(got.len(), 5);
    // No one waits: a push wakes no one.
    assert!(!queue.push_rows(&mut vec![tick("a", 6)]).woke);
}

#[tokio::test]
async fn a_wait_for_many_rows_ends_with_those_there_at_its_timeout_or_at_an_error() {
    let queue = DeliveryQueue::new(100);
    queue.push_rows(&mut vec![tick("a", 1), tick("b", 2)]);
    let timed_out = queue.next(100, 50, Some(Duration::from_millis(20))).await;
    assert_eq!(
        names(&timed_out.unwrap().unwrap()),
        pairs(&[("a", 1), ("b", 2)])
    );
    // An error behind fewer rows than wanted: the rows, then the error.
    queue.push_rows(&mut vec![tick("a", 3)]);
    queue.push_error(ClientError::auth(
        places::AuthReason::FeedRefusedTwice,
        None,
        "",
    ));
    let rows = queue.next(100, 50, None).await.unwrap().unwrap();
    assert_eq!(names(&rows), pairs(&[("a", 3)]));
    assert!(matches!(
        queue.next(100, 50, None).await,
        Err(ClientError::Auth(_))
    ));
}

#[tokio::test]
async fn a_consumer_never_waits_for_more_than_half_the_queue() {
    // More would be conflated before it came.
    let queue = DeliveryQueue::new(8);
    queue.push_rows(&mut (0..4).map(|at| tick("a", at)).collect());
    let rows = tokio::time::timeout(Duration::from_secs(2), queue.next(100, 1_000, None))
        .await
        .expect("woken at half the queue");
    assert_eq!(rows.unwrap().unwrap().len(), 4);
    assert_eq!(queue.conflated(), 0);
}

#[test]
fn rows_taken_back_and_given_back_keep_their_order_whatever_the_capacity() {
    let queue = DeliveryQueue::new(2);
    queue.push_rows(&mut vec![tick("a", 1), tick("b", 2)]);
    let taken = ticks_of(queue.take(1));
    queue.give_back(taken);
    queue.push_rows(&mut vec![tick("c", 3)]);
    // Full: "c" made room by nothing, and none of "a" or "b" was replaced.
    assert_eq!(
        names(&queue.take_back()),
        pairs(&[("a", 1), ("b", 2), ("c", 3)])
    );
    assert_eq!(queue.len(), 0);
    queue.give_back(vec![tick("a", 1), tick("b", 2), tick("c", 3)]);
    assert_eq!(queue.len(), 3);
    assert_eq!(
        names(&ticks_of(queue.take(10))),
        pairs(&[("a", 1), ("b", 2), ("c", 3)])
    );
}

#[tokio::test]
async fn once_all_is_pushed_a_consumer_takes_the_rows_there_however_few() {
    let queue = Arc::new(DeliveryQueue::new(100));
    queue.push_rows(&mut vec![tick("a", 1), tick("b", 2)]);
    let waiter = {
        let queue = Arc::clone(&queue);
        tokio::spawn(async move { queue.next(100, 5, None).await })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!waiter.is_finished(), "2 of the 5 rows wanted");
    queue.all_pushed();
    let got = tokio::time::timeout(Duration::from_secs(5), waiter).await;
    assert_eq!(got.unwrap().unwrap().unwrap().unwrap().len(), 2);
    // From now on too, and an empty queue still waits.
    queue.push_rows(&mut vec![tick("a", 3)]);
    assert!(matches!(queue.take_enough(100, 5), Taken::Rows(rows) if rows.len() == 1));
    assert!(matches!(queue.take_enough(100, 5), Taken::Empty));
}
