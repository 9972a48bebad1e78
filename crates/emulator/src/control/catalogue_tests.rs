use super::super::tests::controls;
use super::*;
use crate::bulk::parquet_file::write_month;
use crate::bulk::records::FileKey;
use domain::month::Month;

fn crude_curves(controls: &Controls) -> usize {
    let world = controls.state.world();
    world
        .curves
        .iter()
        .filter(|c| c.vertical.name == "Crude")
        .count()
}

fn key(curves: usize) -> FileKey {
    FileKey {
        vertical: "CRUDE",
        month: Month::parse("2025-05").unwrap(),
        denied: Default::default(),
        curves,
    }
}

#[test]
fn added_curves_are_listed_and_make_the_verticals_files_bigger() {
    let controls = controls();
    let (curves, crude) = (controls.state.world().curves.len(), crude_curves(&controls));
    let rows = controls.bulk_rows("CRUDE", "2025-05", None).unwrap();
    let before = write_month(&controls.state.world(), &key(curves)).unwrap();

    controls.add_curves("Crude", 2 * crude as u32).unwrap();
    let world = controls.state.world();
    assert_eq!(world.curves.len(), curves + 2 * crude);
    assert_eq!(crude_curves(&controls), 3 * crude);
    let added = world.curves.last().unwrap();
    assert_eq!(world.curve(&added.id).unwrap().index, added.index);

    let grown = controls.bulk_rows("CRUDE", "2025-05", None).unwrap();
    assert!(grown > 2 * rows, "{grown} rows against {rows}");
    let bigger = write_month(&world, &key(world.curves.len())).unwrap();
    assert!(bigger.len() > 2 * before.len());
    // A job submitted before the curves were added still lists the old file.
    assert_eq!(write_month(&world, &key(curves)).unwrap(), before);
}

#[test]
fn adding_curves_needs_a_vertical_a_count_and_room() {
    let controls = controls();
    assert_eq!(
        controls.add_curves("Coal", 1).unwrap_err().to_string(),
        "unknown vertical \"Coal\""
    );
    assert_eq!(controls.add_curves("JET", 0), Err(ControlError::ZeroCount));
    let curves = controls.state.world().curves.len();
    let error = controls.add_curves("JET", u32::MAX).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the catalogue holds at most 100000 curves; 4294967295 more would make {}",
            curves + u32::MAX as usize
        )
    );
    assert_eq!(controls.state.world().curves.len(), curves, "nothing added");
}
