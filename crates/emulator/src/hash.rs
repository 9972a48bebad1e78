//! Stateless, seeded pseudo-randomness: every synthetic value is a pure
//! function of the seed and what it describes, so the same seed always gives
//! the same world, whichever order it is asked in.

/// splitmix64: a fast, well-mixed bijection of 64-bit integers.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One hash of several parts, order-sensitive.
pub(crate) fn combine(parts: &[u64]) -> u64 {
    parts
        .iter()
        .fold(0x243F_6A88_85A3_08D3, |acc, &p| mix(acc ^ p))
}

/// FNV-1a of a string, mixed: to key values by names.
pub(crate) fn of_str(s: &str) -> u64 {
    let fnv = s.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    });
    mix(fnv)
}

/// A uniform float in [0, 1).
pub(crate) fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// An element of `items` chosen by `h`.
pub(crate) fn pick<T: Copy>(h: u64, items: &[T]) -> T {
    items[(h % items.len() as u64) as usize]
}

/// A version-4-shaped UUID string made from `h`.
pub(crate) fn uuid(h: u64) -> String {
    let (a, b) = (mix(h), mix(h ^ 0x5555_5555_5555_5555));
    let b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xFFFF,
        a & 0x0FFF,
        b >> 48,
        b & 0xFFFF_FFFF_FFFF
    )
}

#[cfg(test)]
#[path = "hash_tests.rs"]
mod tests;
