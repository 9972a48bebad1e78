use std::collections::HashSet;

use super::*;
use crate::world::curves::generate;
use crate::world::World;
use domain::vocabulary::find_vertical;

fn crude() -> &'static Vertical {
    find_vertical("CRUDE").unwrap()
}

#[test]
fn added_curves_are_new_curves_of_the_vertical_after_the_others() {
    let mut curves = generate(0);
    let before = curves.clone();
    add_variants(0, &mut curves, crude(), 100);
    assert_eq!(curves.len(), before.len() + 100);
    for (old, now) in before.iter().zip(&curves) {
        assert_eq!((&old.id, &old.components), (&now.id, &now.components));
    }
    let added = &curves[before.len()..];
    for (offset, curve) in added.iter().enumerate() {
        assert_eq!(curve.index, before.len() + offset);
        assert_eq!(curve.vertical.name, "Crude");
        assert!(curve.variant > 0);
        for &component in &curve.components {
            let component = &curves[component];
            assert_eq!(
                component.variant, 0,
                "components are the interface's own curves"
            );
            assert_eq!(
                (component.vertical.name, component.region),
                (curve.vertical.name, curve.region)
            );
        }
    }
    assert!(added.iter().any(|c| !c.components.is_empty()));
    let ids: HashSet<_> = curves.iter().map(|c| &c.id).collect();
    let names: HashSet<_> = curves.iter().map(|c| &c.name).collect();
    assert_eq!(ids.len(), curves.len());
    assert_eq!(names.len(), curves.len());
}

#[test]
fn curves_added_in_two_calls_are_those_added_in_one() {
    let (mut once, mut twice) = (generate(3), generate(3));
    add_variants(3, &mut once, crude(), 150);
    add_variants(3, &mut twice, crude(), 40);
    add_variants(3, &mut twice, crude(), 110);
    let ids = |curves: &[Curve]| curves.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&once), ids(&twice));
}

#[test]
fn a_world_with_more_curves_finds_them_by_id() {
    use crate::calendar::{Calendar, EarlyClose};
    let world = World::new(0, Calendar::new(EarlyClose::ChristmasAndNewYearsEve));
    let grown = world.with_more_curves(crude(), 5);
    assert_eq!(grown.curves.len(), world.curves.len() + 5);
    let last = grown.curves.last().unwrap();
    assert_eq!(grown.curve(&last.id).unwrap().index, last.index);
    assert!(
        world.curve(&last.id).is_none(),
        "the first world is left as it was"
    );
}
