use super::*;
use crate::record::test_support::{both, row, runtime, write_part, MIDNIGHT, MS};
use live::TickSource;

fn key(curve: &str, tenor: &str) -> TenorKey {
    (curve.into(), tenor.into())
}

#[test]
fn an_empty_destination_has_nothing_to_resume() {
    runtime().block_on(async {
        for dest in both("checkpoint-empty") {
            assert_eq!(load(&dest).await.unwrap(), Checkpoint::default());
        }
    });
}

#[test]
fn files_the_checkpoint_does_not_name_are_read_from_their_footers() {
    runtime().block_on(async {
        for dest in both("checkpoint-footers") {
            dest.prepare().await.unwrap();
            let jan = |at| row("C1", "Jan 26", at, TickSource::Update);
            let (first, note) = write_part(&dest, &[jan(MIDNIGHT)], 1).await;
            let mut saved = Checkpoint::default();
            saved.add(&first, &note);
            saved.save(&dest).await.unwrap();
            // Written by a run killed before it replaced the checkpoint.
            let (second, _) = write_part(&dest, &[jan(MIDNIGHT + 7 * MS)], 2).await;
            let loaded = load(&dest).await.unwrap();
            assert_eq!(loaded.last[&key("C1", "Jan 26")], MIDNIGHT + 7 * MS);
            assert_eq!(loaded.files, BTreeSet::from([first, second]));
        }
    });
}

#[test]
fn a_damaged_checkpoint_costs_reads_not_ticks() {
    runtime().block_on(async {
        for dest in both("checkpoint-damaged") {
            dest.prepare().await.unwrap();
            let rows = [row("C2", "Q1 26", MIDNIGHT + 3 * MS, TickSource::Backfill)];
            write_part(&dest, &rows, 1).await;
            dest.put(CHECKPOINT, Bytes::from_static(b"{not json"))
                .await
                .unwrap();
            let loaded = load(&dest).await.unwrap();
            assert_eq!(loaded.last[&key("C2", "Q1 26")], MIDNIGHT + 3 * MS);
        }
    });
}
