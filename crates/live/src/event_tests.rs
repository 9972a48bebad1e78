use super::*;

#[test]
fn events_are_drained_oldest_first_and_the_oldest_dropped_when_full() {
    let sink = EventSink::default();
    let session_side = sink.clone();
    let extra = 5;
    for count in 0..(EVENTS_KEPT + extra) as u64 {
        session_side.emit(FeedEvent::Conflated { count });
    }
    let drained = sink.drain();
    assert_eq!(drained.len(), EVENTS_KEPT);
    assert_eq!(
        drained[0],
        FeedEvent::Conflated {
            count: extra as u64
        }
    );
    assert_eq!(
        drained[EVENTS_KEPT - 1],
        FeedEvent::Conflated {
            count: (EVENTS_KEPT + extra - 1) as u64
        }
    );
    assert!(sink.drain().is_empty(), "drained events are gone");
    session_side.emit(FeedEvent::Connected { attempt: 0 });
    assert_eq!(sink.drain(), vec![FeedEvent::Connected { attempt: 0 }]);
}
