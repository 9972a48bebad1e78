use std::fs;

use super::*;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-atomic-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_file_appears_whole_and_leaves_no_temporary() {
    let dir = scratch("whole");
    let path = dir.join("sub").join("a.bin");
    write_bytes(&path, b"hello").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"hello");
    write_bytes(&path, b"again").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"again");
    let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
    assert_eq!(names.len(), 1);
    fs::remove_dir_all(dir).unwrap();
}
