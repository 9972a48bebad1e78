//! The live probe against the emulator's firehose: the benchmark's limit is
//! measured by a reader that sees what the client's frame reader sees.

use std::time::Duration;

use domain::live::Subscription;
use emulator::live::LIVE_PATH;
use emulator::{Emulator, EmulatorConfig};
use live::probe::{count_frames, Reading};

/// An emulator whose clock stands still on a trading day.
async fn emulator() -> Emulator {
    let start = domain::timestamp::parse_timestamp("2025-06-13T10:00:00").unwrap();
    let start = chrono::DateTime::from_timestamp_micros(start).unwrap();
    Emulator::start(EmulatorConfig::stopped_at(start))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_reads_every_firehose_frame_as_a_price_the_client_accepts() {
    let emulator = emulator().await;
    let controls = emulator.controls();
    // A curve of the demo account's licence.
    let world = emulator.state().world();
    let curve = world.curves.iter().find(|c| c.quotation == "Fob").unwrap();
    let token = controls.token(None);
    let url = format!("{}{LIVE_PATH}", emulator.live_url());
    let all = [Subscription::new(&curve.id, "*")];
    controls.firehose(true);
    let window = Duration::from_millis(300);
    let counted = count_frames(&url, &token, &all, window, Reading::Count)
        .await
        .unwrap();
    let decoded = count_frames(&url, &token, &all, window, Reading::Decode)
        .await
        .unwrap();
    controls.firehose(false);
    assert!(counted.frames > 1_000, "{counted:?}");
    assert_eq!(counted.prices, 0, "counting decodes nothing");
    assert!(decoded.frames > 1_000, "{decoded:?}");
    // Every frame but the answer to `auth` is a price.
    assert_eq!(decoded.prices + 1, decoded.frames);
}
