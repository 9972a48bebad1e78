//! Decoding a response as a task of its own.
//!
//! Responses in flight are futures of one task (a `buffer_unordered`
//! stream), so decoded there they would take turns on one thread, each
//! holding up the responses behind it; as tasks of their own they use every
//! worker of the runtime. (Not the blocking pool: a thread per response in
//! flight, each with its own malloc arena, kept a pull's memory higher.)

use places::ClientError;

/// Runs `work` on any worker of the runtime and waits for its result.
pub(super) async fn in_own_task<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ClientError> + Send + 'static,
) -> Result<T, ClientError> {
    match tokio::spawn(async move { work() }).await {
        Ok(result) => result,
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        // Cancelled only when the runtime shuts down, with the client.
        Err(_) => Err(ClientError::ClientClosed),
    }
}
