//! A stable digest for names on disk: the same text gives the same name on
//! every machine and version (std's hasher promises neither).

use sha2::{Digest, Sha256};

/// The SHA-256 of `text`, in lowercase hex.
pub fn digest(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
