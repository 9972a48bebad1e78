use super::*;

#[test]
fn uuids_have_the_uuid_shape_and_differ() {
    let id = uuid(1);
    assert_eq!(id.len(), 36);
    assert_eq!(id.as_bytes()[14], b'4');
    assert!(matches!(id.as_bytes()[19], b'8' | b'9' | b'a' | b'b'));
    assert_ne!(uuid(1), uuid(2));
    assert_eq!(uuid(7), uuid(7));
}

#[test]
fn unit_is_in_range() {
    for i in 0..1000 {
        let u = unit(mix(i));
        assert!((0.0..1.0).contains(&u));
    }
}
