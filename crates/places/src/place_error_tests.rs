use super::*;
use crate::ClientError;

#[test]
fn a_failed_write_names_the_file_and_keeps_its_fields() {
    let error: ClientError =
        PlaceError::new("/lake/2025/ticks.parquet", Operation::Write, "disk full").into();
    let ClientError::Destination(failure) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(failure.operation, Operation::Write);
    assert_eq!(failure.place, "/lake/2025/ticks.parquet");
    assert_eq!(failure.cause, "disk full");
    assert_eq!(
        error.to_string(),
        "cannot write /lake/2025/ticks.parquet: disk full"
    );
}

#[test]
fn a_refusal_names_the_holder_and_the_kind_of_writer() {
    let held = PlaceError::new("/lake", Operation::Held(Writer::Backfill), "process 7");
    let message = held.to_string();
    assert!(
        message.starts_with("/lake is being backfilled by another backfill (process 7)"),
        "{message}"
    );
}
