use super::*;
use places::storage::Place;

fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-lock-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn a_second_writer_is_refused_naming_the_first_until_the_first_lets_go() {
    let dir = folder("second");
    let dest = Place::Folder(dir.clone());
    let first = WriterLock::take(&dest).await.unwrap();
    let refused = WriterLock::take(&dest).await.err().expect("refused");
    let message = refused.to_string();
    assert!(matches!(refused, ClientError::Destination(_)), "{message}");
    assert!(message.contains("another recorder"), "{message}");
    assert!(
        message.contains(&format!("process {}", std::process::id())),
        "{message}"
    );
    drop(first);
    let again = WriterLock::take(&dest).await.unwrap();
    drop(again);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_recorder_and_a_backfill_write_at_once_but_not_two_backfills() {
    let dir = folder("kinds");
    let dest = Place::Folder(dir.clone());
    let recorder = WriterLock::take(&dest).await.unwrap();
    let backfill = WriterLock::take_for(&dest, Writer::Backfill).await.unwrap();
    let refused = WriterLock::take_for(&dest, Writer::Backfill).await.err();
    let message = refused.expect("refused").to_string();
    assert!(message.contains("another backfill"), "{message}");
    drop((recorder, backfill));
    std::fs::remove_dir_all(dir).unwrap();
}
