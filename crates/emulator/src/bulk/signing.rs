//! Pre-signed URLs: the path and the expiry time signed with a key of the
//! emulator (HMAC-SHA256, hex), so that a download needs no bearer token and
//! a URL cannot be altered, or its life extended, without the key.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::hash::{combine, mix};

/// How long a URL lives after its job succeeded.
pub(crate) const URL_LIFETIME_SECONDS: i64 = 3600;

pub struct Signer {
    key: [u8; 32],
}

impl Signer {
    /// A key of its own, derived from the seed (not the token secret).
    pub fn new(seed: u64) -> Signer {
        let mut key = [0u8; 32];
        for (i, chunk) in key.chunks_mut(8).enumerate() {
            chunk.copy_from_slice(&mix(combine(&[seed, 0xB01C_F11E, i as u64])).to_le_bytes());
        }
        Signer { key }
    }

    fn mac(&self, path: &str, expires: i64) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(format!("GET\n{path}\n{expires}").as_bytes());
        mac
    }

    /// The signature of a download of `path` valid until `expires` (Unix seconds).
    pub fn sign(&self, path: &str, expires: i64) -> String {
        let signature = self.mac(path, expires).finalize().into_bytes();
        signature.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Whether `signature` (hex) is the signature of `path` and `expires`.
    pub fn verify(&self, path: &str, expires: i64, signature: &str) -> bool {
        let Some(bytes) = from_hex(signature) else {
            return false;
        };
        // Compared in constant time.
        self.mac(path, expires).verify_slice(&bytes).is_ok()
    }
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
#[path = "signing_tests.rs"]
mod tests;
