use super::*;
use domain::live::{decode_server_message, ServerMessage};

#[test]
fn synthetic_values_move_forward_and_vary() {
    let start = 1_750_000_000_000_000;
    let key = FeedKey::new(1, 0, "c", "Jan 26", None, start, 70.0);
    let mut encoder = FrameEncoder::default();
    let mut last = (start, f64::NAN);
    for i in 0..3_000 {
        // The clock is stopped, then jumps ahead.
        let now = if i < 2_000 { start } else { start + 60_000_000 };
        let frame = key.next_synthetic(now, &mut encoder);
        let ServerMessage::Price(price) = decode_server_message(&frame).unwrap() else {
            panic!("not a price: {frame}");
        };
        assert!(price.generated_on > last.0, "{i}");
        assert_ne!(price.price, last.1);
        assert_eq!(price.tenor, "Jan 26");
        last = (price.generated_on, price.price);
    }
    assert_eq!(last.0, start + 60_000_000 + 999_000);
    assert_eq!(key.synthetic_at(), last.0);
}
