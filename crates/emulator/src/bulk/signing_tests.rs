use super::*;

#[test]
fn signatures_verify_only_for_what_was_signed() {
    let signer = Signer::new(0);
    let path = "/files/job/jet-2025-05.parquet";
    let signature = signer.sign(path, 1_750_000_000);
    assert_eq!(signature.len(), 64);
    assert!(signer.verify(path, 1_750_000_000, &signature));
    assert!(
        !signer.verify(path, 1_750_003_600, &signature),
        "a later expiry"
    );
    assert!(!signer.verify("/files/job/jet-2025-04.parquet", 1_750_000_000, &signature));
    assert!(!signer.verify(path, 1_750_000_000, &signature[..62]));
    assert!(!signer.verify(path, 1_750_000_000, "zz"));
    assert!(!signer.verify(path, 1_750_000_000, "é"));
    assert!(!Signer::new(1).verify(path, 1_750_000_000, &signature));
}
