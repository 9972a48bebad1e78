use std::fs;
use std::io::Write;

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

#[test]
fn a_failed_write_leaves_the_old_file_and_no_temporary() {
    let dir = scratch("failed");
    let path = dir.join("a.bin");
    write_bytes(&path, b"old").unwrap();
    let failed = write_file(&path, |out| {
        out.write_all(b"half")?;
        Err(io::Error::other("disk full"))
    });
    assert!(failed.is_err());
    assert_eq!(fs::read(&path).unwrap(), b"old");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    fs::remove_dir_all(dir).unwrap();
}
