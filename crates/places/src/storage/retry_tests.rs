use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use object_store::path::Path as StorePath;
use object_store::ObjectStoreExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;
use crate::storage::Place;

/// The longest a request can wait in backoffs before it fails: each
/// backoff at most twice the last, capped.
fn longest_backoffs(config: &RetryConfig) -> Duration {
    let mut next = config.backoff.init_backoff;
    let mut total = Duration::ZERO;
    for _ in 0..config.max_retries {
        total += next;
        next = next
            .mul_f64(config.backoff.base)
            .min(config.backoff.max_backoff);
    }
    total
}

#[test]
fn a_lasting_failure_is_reported_within_seconds() {
    let longest = longest_backoffs(&store_retry());
    assert_eq!(
        longest,
        Duration::from_millis(200 + 400 + 800 + 1600 + 3200)
    );
    assert!(longest < RETRY_TIMEOUT);
    let defaults = longest_backoffs(&RetryConfig::default());
    assert!(defaults > Duration::from_secs(50), "{defaults:?}");
}

/// A store on loopback that answers every request 503, counting them.
async fn always_unavailable() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&count);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let counted = Arc::clone(&counted);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buffer = [0; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buffer[..n]),
                    }
                }
                counted.fetch_add(1, Ordering::SeqCst);
                let body = "<Error><Code>SlowDown</Code></Error>";
                let reply = format!(
                    "HTTP/1.1 503 Slow Down\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    (endpoint, count)
}

#[tokio::test]
async fn a_store_built_from_a_url_retries_by_these_bounds() {
    let (endpoint, count) = always_unavailable().await;
    let options: Vec<(String, String)> = [
        ("aws_endpoint", endpoint.as_str()),
        ("aws_allow_http", "true"),
        ("aws_access_key_id", "key"),
        ("aws_secret_access_key", "secret"),
        ("aws_region", "us-east-1"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let Place::Store(location) = Place::parse("dest", "s3://bucket/x", &options).unwrap() else {
        panic!("s3:// is a store");
    };
    let started = Instant::now();
    let error = location
        .store
        .head(&StorePath::from("x/a.parquet"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("503"), "{error}");
    assert_eq!(count.load(Ordering::SeqCst), 1 + MAX_RETRIES);
    assert!(started.elapsed() < longest_backoffs(&store_retry()) + Duration::from_secs(2));
}
