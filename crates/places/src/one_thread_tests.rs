use super::*;

#[test]
fn work_runs_on_the_one_thread_and_a_panic_fails_only_its_own_call() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let thread = OneThread::start("one-thread-test", "testing").unwrap();
        let name = || std::thread::current().name().map(str::to_owned);
        let first = thread.run(name).await.unwrap();
        assert_eq!(first.as_deref(), Some("one-thread-test"));
        let failed: Result<(), PlaceError> = thread.run(|| panic!("a job that fails")).await;
        let error = failed.unwrap_err();
        assert!(error.to_string().contains("testing failed"), "{error}");
        // The thread goes on: the next call is answered, on the same thread.
        assert_eq!(thread.run(name).await.unwrap(), first);
    });
}
