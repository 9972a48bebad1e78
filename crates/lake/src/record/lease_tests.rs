use object_store::memory::InMemory;

use super::*;
use crate::record::lock::Writer;

fn location(store: &Arc<InMemory>) -> Location {
    Location {
        store: Arc::clone(store) as Arc<dyn ObjectStore>,
        prefix: StorePath::from("ticks"),
        shown: "memory://bucket/ticks".into(),
    }
}

fn key() -> StorePath {
    StorePath::from("ticks/_lock")
}

async fn holder_at(store: &InMemory) -> Holder {
    let bytes = store.get(&key()).await.unwrap().bytes().await.unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

async fn plant(store: &InMemory, holder: &Holder) {
    store.put(&key(), holder.payload()).await.unwrap();
}

#[tokio::test]
async fn a_second_recorder_is_refused_naming_the_first_until_it_lets_go() {
    let store = Arc::new(InMemory::new());
    let first = Lease::take(&location(&store), Writer::Recorder)
        .await
        .unwrap();
    let holder = holder_at(&store).await;
    assert_eq!(holder.pid, std::process::id());
    assert!(holder.until > Utc::now());

    let refused = Lease::take(&location(&store), Writer::Recorder)
        .await
        .err()
        .expect("refused");
    let message = refused.to_string();
    assert!(matches!(refused, ClientError::Destination(_)), "{message}");
    assert!(
        message.contains("another recorder")
            && message.contains(&format!("process {} on {}", holder.pid, holder.host)),
        "{message}"
    );

    first.release().await;
    assert!(
        store.head(&key()).await.is_err(),
        "released: the object is gone"
    );
    let again = Lease::take(&location(&store), Writer::Recorder)
        .await
        .unwrap();
    again.check().unwrap();
}

#[cfg(unix)]
#[tokio::test]
async fn a_lease_past_its_term_or_of_a_process_gone_is_taken_over() {
    let store = Arc::new(InMemory::new());
    let mut expired = Holder::this_process(Utc::now());
    expired.host = "another-host".into();
    expired.until = Utc::now() - chrono::Duration::seconds(1);
    plant(&store, &expired).await;
    let taken = Lease::take(&location(&store), Writer::Recorder)
        .await
        .unwrap();
    assert_eq!(holder_at(&store).await.pid, std::process::id());
    drop(taken);

    // Killed a moment ago on this host: its term has not run out, but no
    // process of that number runs.
    let mut killed = Holder::this_process(Utc::now());
    let mut child = std::process::Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    killed.pid = child.id();
    plant(&store, &killed).await;
    Lease::take(&location(&store), Writer::Recorder)
        .await
        .unwrap();

    // Held by a running process of another host, within its term.
    let mut live = Holder::this_process(Utc::now());
    live.host = "another-host".into();
    plant(&store, &live).await;
    assert!(Lease::take(&location(&store), Writer::Recorder)
        .await
        .is_err());
}

#[tokio::test]
async fn a_lease_another_took_over_is_noticed_at_the_next_renewal() {
    let store = Arc::new(InMemory::new());
    let every = Duration::from_millis(20);
    let lease = Lease::take_renewing(&location(&store), Writer::Recorder, every)
        .await
        .unwrap();
    let first = holder_at(&store).await.until;
    tokio::time::sleep(every * 5).await;
    lease.check().expect("renewed");
    assert!(holder_at(&store).await.until > first, "the term moves on");
    let mut other = Holder::this_process(Utc::now());
    other.host = "another-host".into();
    plant(&store, &other).await;
    tokio::time::sleep(every * 5).await;
    let lost = lease.check().unwrap_err().to_string();
    assert!(lost.contains("no longer this recorder's"), "{lost}");
    lease.release().await;
    assert_eq!(
        holder_at(&store).await.host,
        "another-host",
        "not deleted: not ours"
    );
}
