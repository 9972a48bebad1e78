use std::sync::Arc;

use futures_util::stream;
use object_store::memory::InMemory;

use super::*;

fn chunks(sizes: &[usize]) -> Vec<Result<Bytes, String>> {
    sizes
        .iter()
        .map(|n| Ok(Bytes::from(vec![7u8; *n])))
        .collect()
}

/// Bytes of this length.
fn sized(size: u64) -> Expected {
    Expected {
        size: Some(size),
        parquet: false,
    }
}

/// A Parquet file of this length.
fn parquet(size: u64) -> Expected {
    Expected {
        size: Some(size),
        parquet: true,
    }
}

fn key() -> StorePath {
    StorePath::from("exports/vertical=Jet/year=2024/month=03/a.parquet")
}

#[tokio::test]
async fn a_whole_stream_becomes_the_object_and_a_rerun_sees_it() {
    let store = Arc::new(InMemory::new());
    let source = stream::iter(chunks(&[PART_SIZE, PART_SIZE + 5, 3]));
    let total = (2 * PART_SIZE + 8) as u64;
    let mut counted = 0;
    let written = stream_to_store(store.as_ref(), &key(), source, sized(total), |n| {
        counted += n
    })
    .await
    .unwrap();
    assert_eq!((written, counted), (total, total));
    assert_eq!(store.head(&key()).await.unwrap().size, total);
    assert!(already_there(store.as_ref(), &key(), Some(total)).await);
    assert!(!already_there(store.as_ref(), &key(), Some(total + 1)).await);
    assert!(!already_there(store.as_ref(), &key(), None).await);
}

#[tokio::test]
async fn a_short_or_broken_stream_leaves_no_object() {
    let store = Arc::new(InMemory::new());
    let short = stream::iter(chunks(&[10, 10]));
    let error = stream_to_store(store.as_ref(), &key(), short, sized(30), |_| {})
        .await
        .unwrap_err();
    assert!(matches!(
        error,
        UploadError::Size {
            expected: 30,
            received: 20
        }
    ));
    assert!(store.head(&key()).await.is_err());

    let mut broken = chunks(&[10]);
    broken.push(Err("connection reset".to_owned()));
    let error = stream_to_store(
        store.as_ref(),
        &key(),
        stream::iter(broken),
        sized(30),
        |_| {},
    )
    .await
    .unwrap_err();
    assert!(matches!(&error, UploadError::Source(why) if why == "connection reset"));
    assert!(store.head(&key()).await.is_err());
}

#[tokio::test]
async fn a_parquet_upload_is_completed_only_if_its_footer_decodes() {
    let store = Arc::new(InMemory::new());
    let file = Bytes::from(test_support::parquet_file(1_000));
    let size = file.len() as u64;
    let halves = vec![
        Ok::<_, String>(file.slice(..file.len() / 2)),
        Ok(file.slice(file.len() / 2..)),
    ];
    let written = stream_to_store(
        store.as_ref(),
        &key(),
        stream::iter(halves),
        parquet(size),
        |_| {},
    )
    .await
    .unwrap();
    assert_eq!(written, size);

    let other = StorePath::from("exports/x.parquet");
    let garbage = vec![Ok::<_, String>(Bytes::from(vec![b'x'; file.len()]))];
    let error = stream_to_store(
        store.as_ref(),
        &other,
        stream::iter(garbage),
        parquet(size),
        |_| {},
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&error, UploadError::Content(why) if why.contains("does not end as a Parquet file does")),
        "{error:?}"
    );
    assert!(store.head(&other).await.is_err(), "no object under the key");
}
