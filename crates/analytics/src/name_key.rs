//! A name read from a string column as one integer, so the look-up made for
//! every row hashes and compares a number instead of calling `memcmp`.
//!
//! Curve ids and tenor names are short: up to 15 bytes fit in a `u128` with
//! their length in the top byte, read straight from the column's buffer.
//! Longer names keep their text.

use arrow_array::{Array, StringArray};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NameKey<'a> {
    Packed(u128),
    Long(&'a str),
}

const PACKED: usize = 15;

impl<'a> NameKey<'a> {
    /// The key of `array`'s value at `row` (which must not be null).
    #[inline(always)]
    pub(crate) fn of(array: &'a StringArray, row: usize) -> NameKey<'a> {
        let offsets = array.value_offsets();
        let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
        let len = end - start;
        if len > PACKED {
            return NameKey::Long(array.value(row));
        }
        let bytes = array.values().as_slice();
        // Sixteen bytes from the name's start, masked to its length: one
        // load, not a copy of a length known only at run time.
        let word = match bytes.get(start..start + 16) {
            Some(word) => u128::from_le_bytes(word.try_into().expect("16 bytes")),
            None => {
                let mut word = [0u8; 16];
                word[..len].copy_from_slice(&bytes[start..end]);
                u128::from_le_bytes(word)
            }
        };
        let mask = if len == 0 {
            0
        } else {
            u128::MAX >> (128 - 8 * len)
        };
        NameKey::Packed((word & mask) | ((len as u128) << 120))
    }
}

/// The key of a row's value, or `None` where it is null.
#[inline(always)]
pub(crate) fn key_at(array: &StringArray, row: usize) -> Option<NameKey<'_>> {
    (!array.is_null(row)).then(|| NameKey::of(array, row))
}

#[cfg(test)]
#[path = "name_key_tests.rs"]
mod tests;
