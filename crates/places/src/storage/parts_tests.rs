use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::{self, BoxFuture};
use object_store::{Error, Extensions, PutPayload, PutResult, UploadPart};

use super::*;

/// What an upload was asked to do.
#[derive(Debug, Default)]
struct Log {
    parts: Vec<usize>,
    most_in_flight: usize,
    in_flight: usize,
    completing: bool,
    completed: bool,
    aborted: usize,
}

/// An upload that records its calls; its parts take `part_time`, part
/// number `failing` (from 0) fails, and `hanging` parts or completions
/// never end.
#[derive(Debug, Default)]
struct Recorder {
    log: Arc<Mutex<Log>>,
    part_time: Duration,
    failing: Option<usize>,
    hanging_parts: bool,
    hanging_completion: bool,
}

impl MultipartUpload for Recorder {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        let log = Arc::clone(&self.log);
        let (time, hanging) = (self.part_time, self.hanging_parts);
        let number = {
            let mut log = log.lock().unwrap();
            log.parts.push(data.content_length());
            log.in_flight += 1;
            log.most_in_flight = log.most_in_flight.max(log.in_flight);
            log.parts.len() - 1
        };
        let fails = self.failing == Some(number);
        Box::pin(async move {
            if hanging {
                future::pending::<()>().await;
            }
            tokio::time::sleep(time).await;
            log.lock().unwrap().in_flight -= 1;
            if fails {
                return Err(Error::Generic {
                    store: "test",
                    source: "503 Service Unavailable".into(),
                });
            }
            Ok(())
        })
    }

    fn complete<'a, 'b>(&'a mut self) -> BoxFuture<'b, Result<PutResult>>
    where
        'a: 'b,
        Self: 'b,
    {
        Box::pin(async move {
            self.log.lock().unwrap().completing = true;
            if self.hanging_completion {
                future::pending::<()>().await;
            }
            self.log.lock().unwrap().completed = true;
            Ok(PutResult {
                e_tag: None,
                version: None,
                extensions: Extensions::new(),
            })
        })
    }

    fn abort<'a, 'b>(&'a mut self) -> BoxFuture<'b, Result<()>>
    where
        'a: 'b,
        Self: 'b,
    {
        Box::pin(async move {
            self.log.lock().unwrap().aborted += 1;
            Ok(())
        })
    }
}

fn bytes(n: usize) -> Bytes {
    Bytes::from(vec![1u8; n])
}

#[tokio::test]
async fn parts_have_one_size_but_the_last_and_a_bounded_number_go_at_once() {
    let recorder = Recorder {
        part_time: Duration::from_millis(20),
        ..Recorder::default()
    };
    let log = Arc::clone(&recorder.log);
    let mut parts = Parts::new(Box::new(recorder), 4, 2);
    for n in [5, 7, 1, 9, 3] {
        parts.put(bytes(n)).await.unwrap();
    }
    parts.complete().await.unwrap();
    let log = log.lock().unwrap();
    assert_eq!(log.parts, [4, 4, 4, 4, 4, 4, 1]);
    assert_eq!(log.most_in_flight, 2);
    assert!(log.completed);
    assert_eq!(log.aborted, 0);
}

#[tokio::test]
async fn a_failed_part_is_reported_and_the_upload_aborted() {
    let recorder = Recorder {
        failing: Some(0),
        ..Recorder::default()
    };
    let log = Arc::clone(&recorder.log);
    let mut parts = Parts::new(Box::new(recorder), 4, 2);
    parts.put(bytes(6)).await.unwrap();
    let error = parts.complete().await.unwrap_err();
    assert!(error.to_string().contains("503"), "{error}");
    parts.abort().await;
    drop(parts);
    tokio::task::yield_now().await;
    let log = log.lock().unwrap();
    assert!(!log.completed);
    assert_eq!(log.aborted, 1, "aborted once, not again when dropped");
}

/// Runs `write` on a task, cancels it once `started` says so, and returns
/// the upload's log once its abort has been seen (or after a second).
async fn cancelled(
    recorder: Recorder,
    started: impl Fn(&Log) -> bool,
    write: impl FnOnce(Parts) -> BoxFuture<'static, ()>,
) -> Arc<Mutex<Log>> {
    let log = Arc::clone(&recorder.log);
    let task = tokio::spawn(write(Parts::new(Box::new(recorder), 4, 2)));
    while !started(&log.lock().unwrap()) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    task.abort();
    assert!(task.await.unwrap_err().is_cancelled());
    for _ in 0..1000 {
        if log.lock().unwrap().aborted > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    log
}

#[tokio::test]
async fn a_task_cancelled_while_parts_are_in_flight_aborts_the_upload() {
    let recorder = Recorder {
        hanging_parts: true,
        ..Recorder::default()
    };
    let log = cancelled(
        recorder,
        |log| log.parts.len() == 2,
        |mut parts| {
            Box::pin(async move {
                parts.put(bytes(100)).await.unwrap();
            })
        },
    )
    .await;
    let log = log.lock().unwrap();
    assert_eq!((log.completed, log.aborted), (false, 1));
}

#[tokio::test]
async fn a_task_cancelled_while_completing_aborts_the_upload() {
    let recorder = Recorder {
        hanging_completion: true,
        ..Recorder::default()
    };
    let log = cancelled(
        recorder,
        |log| log.completing,
        |mut parts| {
            Box::pin(async move {
                parts.put(bytes(3)).await.unwrap();
                parts.complete().await.unwrap();
            })
        },
    )
    .await;
    let log = log.lock().unwrap();
    assert_eq!((log.completed, log.aborted), (false, 1));
}
