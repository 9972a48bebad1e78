use arrow_array::StringArray;

use super::*;

fn keys(array: &StringArray) -> Vec<Option<NameKey<'_>>> {
    (0..array.len()).map(|row| key_at(array, row)).collect()
}

#[test]
fn equal_names_have_equal_keys_wherever_they_lie_in_the_buffer() {
    // The last values sit within 16 bytes of the buffer's end, the others not.
    let array = StringArray::from(vec![
        Some("Jan 26"),
        Some("Jan 26 extra text"),
        Some("Jan 2"),
        None,
        Some(""),
        Some("Jan 26"),
    ]);
    let got = keys(&array);
    assert_eq!(got[0], got[5]);
    assert_ne!(got[0], got[2], "a prefix is another name");
    assert_eq!(got[3], None);
    assert!(matches!(got[1], Some(NameKey::Long("Jan 26 extra text"))));
    assert!(matches!(got[4], Some(NameKey::Packed(_))));
    assert_ne!(got[4], got[2]);
}

#[test]
fn names_differing_only_in_length_or_trailing_zero_bytes_differ() {
    let array = StringArray::from(vec!["a", "a\0", "a\0\0", "ab", "b"]);
    let got = keys(&array);
    for i in 0..got.len() {
        for j in 0..got.len() {
            assert_eq!(got[i] == got[j], i == j, "{i} vs {j}");
        }
    }
}

#[test]
fn fifteen_bytes_pack_and_sixteen_do_not() {
    let array = StringArray::from(vec!["123456789012345", "1234567890123456"]);
    assert!(matches!(key_at(&array, 0), Some(NameKey::Packed(_))));
    assert!(matches!(key_at(&array, 1), Some(NameKey::Long(_))));
}

#[test]
fn a_sliced_array_reads_its_own_rows() {
    let array = StringArray::from(vec!["Feb 26", "Jan 26", "Feb 26"]);
    let sliced = array.slice(1, 2);
    let whole = keys(&array);
    assert_eq!(key_at(&sliced, 0), whole[1]);
    assert_eq!(key_at(&sliced, 1), whole[2]);
}
