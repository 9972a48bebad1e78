use super::*;
use crate::bulk::test_service::TempFolder;

fn parts_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_part_is_named_unguessably_and_says_its_version() {
    let folder = TempFolder::new("part-name");
    let target = folder.0.join("f.parquet");
    let one = Part::create(&target, Some("\"abc\"")).unwrap();
    let two = Part::create(&target, Some("\"abc\"")).unwrap();
    assert_ne!(one.path(), two.path());
    let name = one.path().file_name().unwrap().to_str().unwrap().to_owned();
    assert!(
        name.starts_with(".f.parquet.") && name.ends_with(".ImFiYyI.part"),
        "{name}"
    );
    drop(one);
    assert_eq!(
        parts_in(&folder.0).len(),
        1,
        "an empty part is removed when dropped"
    );
    std::fs::write(two.path(), b"abc").unwrap();
    drop(two);
    assert_eq!(
        parts_in(&folder.0).len(),
        1,
        "one holding a version's bytes stays"
    );
}

#[test]
fn the_longest_left_over_part_with_a_version_is_resumed_and_the_rest_removed() {
    let folder = TempFolder::new("part-left-over");
    let target = folder.0.join("f.parquet");
    let write = |validator: Option<&str>, bytes: usize| {
        let mut part = Part::create(&target, validator).unwrap();
        std::fs::write(part.path(), vec![1u8; bytes]).unwrap();
        // Closed and left, as a run that was killed leaves it.
        part.file = None;
        part.path.clone()
    };
    write(Some("\"a\""), 10);
    let longest = write(Some("\"b\""), 20);
    write(None, 30);
    std::fs::write(folder.0.join("other.parquet"), b"x").unwrap();

    let found = Part::left_over(&target).unwrap().unwrap();
    assert_eq!(
        (found.path(), found.len(), found.validator()),
        (longest.as_path(), 20, Some("\"b\""))
    );
    let longest_name = longest.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        parts_in(&folder.0),
        [longest_name, "other.parquet".to_owned()]
    );
}

#[test]
fn a_part_another_download_is_writing_is_left_alone() {
    let folder = TempFolder::new("part-held");
    let target = folder.0.join("f.parquet");
    let held = Part::create(&target, Some("\"a\"")).unwrap();
    std::fs::write(held.path(), b"abc").unwrap();
    assert!(Part::left_over(&target).unwrap().is_none());
    assert!(held.path().exists());
}

#[test]
fn a_kept_part_takes_the_final_name() {
    let folder = TempFolder::new("part-kept");
    let target = folder.0.join("f.parquet");
    let part = Part::create(&target, None).unwrap();
    std::fs::write(part.path(), b"whole").unwrap();
    part.keep(&target).unwrap();
    assert_eq!(parts_in(&folder.0), ["f.parquet"]);
    assert_eq!(std::fs::read(&target).unwrap(), b"whole");
}

#[test]
fn a_left_over_part_whose_name_holds_no_header_value_is_not_resumed() {
    let folder = TempFolder::new("part-bad-version");
    let target = folder.0.join("f.parquet");
    // "a\nb", base64url: a version no request could carry.
    let planted = folder.0.join(".f.parquet.AAAAAAAAAAAA.YQpi.part");
    std::fs::write(&planted, b"abc").unwrap();
    assert!(Part::left_over(&target).unwrap().is_none());
    assert!(!planted.exists(), "removed: it can never be resumed");
}
