use std::sync::Arc;

use super::*;
use domain::arrow::{curves_in, CURVES_KEY};

fn brent() -> NamedCurve {
    NamedCurve {
        id: "a".into(),
        name: Some("Brent".into()),
        units: Some("USD/bbl".into()),
        quotation: Some("Outright".into()),
    }
}

#[test]
fn a_new_feed_names_nothing() {
    let curves = FeedCurves::default();
    assert!(!curves.schema().metadata().contains_key(CURVES_KEY));
    assert_eq!(curves.schema().fields(), live_schema().fields());
}

#[test]
fn curves_are_named_in_the_order_first_named_each_once() {
    let curves = FeedCurves::default();
    curves.name(NamedCurve::unnamed("b"));
    curves.name(brent());
    curves.name(NamedCurve::unnamed("b"));
    let named = curves_in(curves.schema().metadata());
    assert_eq!(named, vec![NamedCurve::unnamed("b"), brent()]);
    assert!(curves.described("a"));
    assert!(!curves.described("b"));
}

#[test]
fn a_description_replaces_the_id_alone_and_never_the_reverse() {
    let curves = FeedCurves::default();
    curves.name(NamedCurve::unnamed("a"));
    curves.name(brent());
    curves.name(NamedCurve::unnamed("a"));
    assert_eq!(curves_in(curves.schema().metadata()), vec![brent()]);
}

#[test]
fn the_schema_is_made_when_the_curves_change_not_when_it_is_read() {
    let curves = FeedCurves::default();
    curves.name(brent());
    let first = curves.schema();
    assert!(Arc::ptr_eq(&first, &curves.schema()));
    curves.name(brent());
    assert!(Arc::ptr_eq(&first, &curves.schema()));
    curves.name(NamedCurve::unnamed("b"));
    assert!(!Arc::ptr_eq(&first, &curves.schema()));
}
