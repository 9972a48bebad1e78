//! What happens to a feed, for logs, statistics and the user's callback.
//!
//! Every event is logged (target `marketcurves.live`) where it happens. The
//! user's handler runs elsewhere: events go through a bounded channel to a
//! dispatcher task that calls the handler on tokio's blocking pool, one event
//! at a time and in order, catching a panic. So a slow, blocking (a Python
//! callable waiting for the GIL) or panicking handler never stalls the socket
//! reader; if it falls more than [`EVENT_BACKLOG`] events behind, newer
//! events are not passed to it (they are still logged).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use domain::timestamp::Micros;

pub(crate) const TARGET: &str = "marketcurves.live";
/// Events waiting for a slow handler before newer ones are skipped.
const EVENT_BACKLOG: usize = 1_024;

#[derive(Clone, Debug, PartialEq)]
pub enum FeedEvent {
    /// Authenticated; `attempt` counts the failed tries before (0 the first time).
    Connected { attempt: u32 },
    /// The connection was lost (close code, error, missed pong, restart).
    Disconnected { reason: String },
    /// Connected again after a loss, `attempts` tries and `downtime` later.
    Reconnected { downtime: Duration, attempts: u32 },
    /// A backfill delivered `count` values of a tenor, published from `from`
    /// to `to`, that the disconnection had kept from the feed.
    GapFilled {
        curve_id: String,
        tenor: String,
        count: usize,
        from: Micros,
        to: Micros,
    },
    /// The consumer is slow: `count` values were replaced by newer ones of
    /// the same tenor since the last such event.
    Conflated { count: u64 },
    /// A failure the feed carries on after (a refused resubscription, a failed
    /// backfill, an unexpected server error).
    Error { message: String },
}

pub type EventHandler = Arc<dyn Fn(&FeedEvent) + Send + Sync>;

/// Logs events and hands them to the dispatcher.
pub(crate) struct EventSink {
    to_handler: Option<mpsc::Sender<FeedEvent>>,
}

impl EventSink {
    /// A sink and, with a handler, the task that calls it; the task ends once
    /// the sink is dropped and the backlog is handled.
    pub fn new(handler: Option<EventHandler>) -> (EventSink, Option<JoinHandle<()>>) {
        let Some(handler) = handler else {
            return (EventSink { to_handler: None }, None);
        };
        let (sender, receiver) = mpsc::channel(EVENT_BACKLOG);
        let task = tokio::spawn(dispatch(receiver, handler));
        let sink = EventSink {
            to_handler: Some(sender),
        };
        (sink, Some(task))
    }

    pub fn emit(&self, event: FeedEvent) {
        log_event(&event);
        if let Some(sender) = &self.to_handler {
            if sender.try_send(event).is_err() {
                log::debug!(target: TARGET, "event handler is behind; an event was not passed to it");
            }
        }
    }
}

async fn dispatch(mut events: mpsc::Receiver<FeedEvent>, handler: EventHandler) {
    while let Some(event) = events.recv().await {
        let handler = Arc::clone(&handler);
        let call = move || catch_unwind(AssertUnwindSafe(|| handler(&event))).is_ok();
        match tokio::task::spawn_blocking(call).await {
            Ok(true) => {}
            _ => log::warn!(target: TARGET, "the live feed's event handler panicked"),
        }
    }
}

fn log_event(event: &FeedEvent) {
    match event {
        FeedEvent::Connected { attempt } => {
            log::info!(target: TARGET, "connected (after {attempt} failed attempts)")
        }
        FeedEvent::Disconnected { reason } => log::warn!(target: TARGET, "disconnected: {reason}"),
        FeedEvent::Reconnected { downtime, attempts } => log::info!(
            target: TARGET,
            "reconnected after {:.3} s and {attempts} attempts",
            downtime.as_secs_f64()
        ),
        FeedEvent::GapFilled {
            curve_id,
            tenor,
            count,
            ..
        } => log::info!(target: TARGET, "backfilled {count} values of {curve_id} {tenor}"),
        FeedEvent::Conflated { count } => log::warn!(
            target: TARGET,
            "consumer is slow: {count} values replaced by newer ones of the same tenor"
        ),
        FeedEvent::Error { message } => log::warn!(target: TARGET, "{message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[tokio::test]
    async fn a_panicking_handler_does_not_stop_the_next_events() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&seen);
        let handler: EventHandler = Arc::new(move |event| {
            if let FeedEvent::Conflated { count } = event {
                record.lock().unwrap().push(*count);
                assert!(*count != 2, "handler failure");
            }
        });
        let (sink, task) = EventSink::new(Some(handler));
        for count in 1..=3 {
            sink.emit(FeedEvent::Conflated { count });
        }
        drop(sink);
        task.unwrap().await.unwrap();
        assert_eq!(*seen.lock().unwrap(), vec![1, 2, 3]);
    }
}
