use std::sync::atomic::Ordering::Relaxed;

use super::*;
use crate::names::NameKey;
use crate::tick::TickSource;
use domain::arrow::{curves_in, NamedCurve, CURVES_KEY};

/// Long enough that a test would hang on a wrong wait, short enough to keep
/// the suite quick.
const LONG: Duration = Duration::from_secs(3600);

/// The key of the one tenor of the tests: the first named.
fn the_tenor() -> NameKey {
    NameKey::from_index(0)
}

fn row(at: i64) -> Row {
    Row {
        key: the_tenor(),
        generated_on: at,
        price: at as f64,
        source: TickSource::Update,
    }
}

fn reader() -> (Arc<Shared>, Reader) {
    // Room for every tick of a test: none conflated.
    let shared = Arc::new(Shared::new(100_000));
    let key = shared.names.add(&Arc::from("c"), &Arc::from("Jan 26"));
    assert_eq!(key, the_tenor());
    let reader = Reader::new(Arc::clone(&shared));
    (shared, reader)
}

fn push(shared: &Shared, times: impl IntoIterator<Item = i64>) {
    let mut rows: Vec<Row> = times.into_iter().map(row).collect();
    shared.queue.push_rows(&mut rows);
}

/// Pushes `times` after `delay`, from a task of its own.
fn push_later(shared: &Arc<Shared>, delay: Duration, times: Vec<i64>) {
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        push(&shared, times);
    });
}

fn times(ticks: &[Tick]) -> Vec<i64> {
    ticks.iter().map(|t| t.generated_on).collect()
}

/// Fails the test rather than hang it if `future` waits where it should not.
async fn promptly<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(2), future)
        .await
        .expect("the read waited")
}

#[tokio::test]
async fn a_batch_is_returned_as_soon_as_max_rows_are_there() {
    let (shared, reader) = reader();
    push(&shared, 0..5);
    let first = promptly(reader.batch(3, Some(LONG)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(times(&first), [0, 1, 2]);
    let rest = promptly(reader.batch(2, Some(LONG)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(times(&rest), [3, 4]);
    assert_eq!(shared.counters.ticks_delivered.load(Relaxed), 5);
}

#[tokio::test]
async fn a_batch_is_returned_timeout_after_its_first_row_not_after_the_call() {
    let (shared, reader) = reader();
    let first_row = Duration::from_millis(150);
    let timeout = Duration::from_millis(200);
    push_later(&shared, first_row, vec![1]);
    push_later(&shared, first_row + Duration::from_millis(50), vec![2]);
    let started = Instant::now();
    let batch = reader.batch(10, Some(timeout)).await.unwrap().unwrap();
    let elapsed = started.elapsed();
    assert_eq!(
        times(&batch),
        [1, 2],
        "a row within the time joins the batch"
    );
    assert!(elapsed >= first_row + timeout, "{elapsed:?}");
    assert!(
        elapsed < first_row + timeout + Duration::from_secs(1),
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn without_a_timeout_only_a_full_batch_is_returned() {
    let (shared, reader) = reader();
    push(&shared, [1, 2]);
    let late = Duration::from_millis(150);
    push_later(&shared, late, vec![3]);
    let started = Instant::now();
    let batch = promptly(reader.batch(3, None)).await.unwrap().unwrap();
    assert_eq!(times(&batch), [1, 2, 3]);
    assert!(started.elapsed() >= late);
}

#[tokio::test]
async fn rows_gathered_before_an_error_come_first_and_the_error_on_the_next_read() {
    let (shared, reader) = reader();
    push(&shared, [1, 2]);
    shared.queue.push_error(ClientError::auth(
        places::AuthReason::FeedRefusedTwice,
        None,
        "",
    ));
    push(&shared, [3]);
    // Returned at once: waiting out the timeout would only delay the error.
    let before = promptly(reader.batch(10, Some(LONG)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(times(&before), [1, 2]);
    let error = promptly(reader.batch(10, Some(LONG))).await.unwrap_err();
    assert!(matches!(error, ClientError::Auth(_)), "{error}");
    let after = promptly(reader.batch(1, Some(LONG)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(times(&after), [3]);
}

#[tokio::test]
async fn a_deferred_error_is_returned_by_any_read() {
    let (shared, reader) = reader();
    push(&shared, [1]);
    shared.queue.push_error(ClientError::auth(
        places::AuthReason::FeedRefusedTwice,
        None,
        "",
    ));
    promptly(reader.batch(10, Some(LONG)))
        .await
        .unwrap()
        .unwrap();
    let error = reader.ready_ticks(10).unwrap_err();
    assert!(matches!(error, ClientError::Auth(_)), "{error}");
    assert!(
        reader.ready_ticks(10).unwrap().unwrap().is_empty(),
        "returned once"
    );
}

#[tokio::test]
async fn a_closed_queue_ends_the_batch_and_then_every_read() {
    let (shared, reader) = reader();
    push(&shared, [1, 2]);
    shared.queue.close();
    let last = promptly(reader.batch(10, None)).await.unwrap().unwrap();
    assert_eq!(times(&last), [1, 2]);
    let closed = promptly(reader.batch(10, None)).await.unwrap();
    assert!(closed.is_none(), "the end is no error");
    assert!(matches!(promptly(reader.tick(None)).await, Ok(None)));
    assert!(matches!(reader.ready_ticks(1), Ok(None)));
}

#[tokio::test]
async fn an_abandoned_batch_gives_its_rows_back_to_the_next_read() {
    let (shared, reader) = reader();
    push(&shared, [1, 2]);
    // Cancelled while waiting for a third row, as Ctrl-C cancels it.
    let abandoned = tokio::time::timeout(Duration::from_millis(50), reader.batch(3, None)).await;
    assert!(abandoned.is_err());
    assert_eq!(reader.held_len(), 2);
    push(&shared, [3]);
    let batch = promptly(reader.batch(3, None)).await.unwrap().unwrap();
    assert_eq!(times(&batch), [1, 2, 3]);
    assert_eq!(shared.counters.ticks_delivered.load(Relaxed), 3);
}

#[tokio::test]
async fn one_tick_at_a_time_takes_a_chunk_and_holds_the_rest() {
    let (shared, reader) = reader();
    push(&shared, 0..(CHUNK as i64 + 2));
    let first = promptly(reader.tick(None)).await.unwrap().unwrap().unwrap();
    assert_eq!(first.generated_on, 0);
    assert_eq!(reader.held_len(), CHUNK - 1);
    assert_eq!(shared.queue.len(), 2);
    assert_eq!(shared.counters.ticks_delivered.load(Relaxed), 1);
    let second = promptly(reader.tick(None)).await.unwrap().unwrap().unwrap();
    assert_eq!(second.generated_on, 1);
    // Held ticks come before the queue's, to any read.
    let rest = reader.ready_ticks(usize::MAX).unwrap().unwrap();
    assert_eq!(rest.len(), CHUNK - 2);
    assert_eq!(rest[0].generated_on, 2);
    let queued = reader.ready_ticks(usize::MAX).unwrap().unwrap();
    assert_eq!(times(&queued), [CHUNK as i64, CHUNK as i64 + 1]);
}

#[tokio::test]
async fn a_read_with_no_wait_returns_what_is_there() {
    let (shared, reader) = reader();
    assert!(promptly(reader.tick(Some(Duration::ZERO)))
        .await
        .unwrap()
        .unwrap()
        .is_none());
    let none = promptly(reader.ticks(5, Some(Duration::ZERO)))
        .await
        .unwrap()
        .unwrap();
    assert!(none.is_empty());
    push(&shared, [1]);
    let one = promptly(reader.ticks(5, Some(Duration::ZERO)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(times(&one), [1]);
}

#[tokio::test]
async fn bad_sizes_and_timeouts_are_refused_naming_them_and_take_nothing() {
    let (shared, reader) = reader();
    push(&shared, [1]);
    // The argument is data (the binding words it as its parameter).
    let refused = [
        (
            reader.batch(0, None).await,
            Argument::BatchRows,
            "batch row limit",
        ),
        (
            reader.batch(MAX_BATCH_ROWS + 1, None).await,
            Argument::BatchRows,
            "batch row limit",
        ),
        (
            reader.batch(1, Some(Duration::ZERO)).await,
            Argument::Timeout,
            "timeout",
        ),
        (reader.ticks(0, None).await, Argument::Limit, "max"),
    ];
    for (result, argument, name) in refused {
        let error = result.unwrap_err();
        let ClientError::InvalidRequest(invalid) = &error else {
            panic!("not an InvalidRequest: {error}");
        };
        assert_eq!(invalid.argument, argument);
        assert!(error.to_string().starts_with(name), "{error}");
    }
    assert_eq!(shared.queue.len(), 1);
}

#[tokio::test]
async fn a_record_batch_holds_the_rows_of_a_batch_under_their_names() {
    let (shared, reader) = reader();
    let other = Row {
        key: shared.names.add(&Arc::from("d"), &Arc::from("Q3 26")),
        source: TickSource::Snapshot,
        ..row(3)
    };
    push(&shared, [1, 2]);
    shared.queue.push_rows(&mut vec![other]);
    push(&shared, [4]);
    let batch = promptly(reader.record_batch(3, None))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(shared.counters.ticks_delivered.load(Relaxed), 3);
    // The batch of the same rows handed out as ticks.
    let ticks = shared.names.read().ticks(&[row(1), row(2), other]);
    assert_eq!((&*ticks[2].curve_id, &*ticks[2].tenor), ("d", "Q3 26"));
    assert_eq!((&*ticks[0].curve_id, &*ticks[0].tenor), ("c", "Jan 26"));
    assert_eq!(batch, crate::ticks_to_batch(&ticks).unwrap());
    // The fourth waits for the next read.
    let next = promptly(reader.record_batch(10, Some(Duration::from_millis(1))));
    assert_eq!(next.await.unwrap().unwrap().num_rows(), 1);
}

#[tokio::test]
async fn a_record_batch_names_the_curves_of_the_feed_in_its_schema() {
    let (shared, reader) = reader();
    push(&shared, [1]);
    let unnamed = promptly(reader.record_batch(1, None))
        .await
        .unwrap()
        .expect("a batch");
    assert!(!unnamed.schema().metadata().contains_key(CURVES_KEY));
    shared.curves.name(NamedCurve::unnamed("c"));
    push(&shared, [2, 3]);
    let first = promptly(reader.record_batch(1, None))
        .await
        .unwrap()
        .expect("a batch");
    let second = promptly(reader.record_batch(1, None))
        .await
        .unwrap()
        .expect("a batch");
    assert_eq!(
        curves_in(first.schema().metadata()),
        vec![NamedCurve::unnamed("c")]
    );
    // One schema for every batch until the curves change.
    assert!(Arc::ptr_eq(&first.schema(), &second.schema()));
}

#[tokio::test]
async fn the_time_handed_out_leaves_out_what_the_caller_gives_back() {
    let (shared, reader) = reader();
    push(&shared, [10, 20, 30, 40]);
    let ticks = reader.ticks(3, Some(LONG)).await.unwrap().unwrap();
    assert_eq!(ticks.len(), 3);
    assert_eq!(reader.handed(0), 30);
    // Two of the three were not handed out further.
    assert_eq!(reader.handed(2), 10);
    reader.give_back_unread(2);
    assert_eq!(reader.handed(0), 10);
    assert_eq!(shared.counters.ticks_delivered.load(Relaxed), 1);
    let again = reader.ticks(10, Some(LONG)).await.unwrap().unwrap();
    let times: Vec<i64> = again.iter().map(|t| t.generated_on).collect();
    assert_eq!(times, [20, 30, 40]);
    assert_eq!(reader.handed(0), 40);
}
