use std::fs;
use std::path::PathBuf;

use super::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-whole-file-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn what_is_made_is_for_its_owner_alone_and_an_existing_folder_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("modes");
    fs::create_dir_all(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.join("a").join("b").join("f.bin");
    for durability in [Durability::Renamed, Durability::Synced] {
        write_whole(&path, durability, |out| out.write_all(b"data")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"data");
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&dir.join("a")), 0o700);
        assert_eq!(mode(&dir.join("a").join("b")), 0o700);
        assert_eq!(mode(&dir), 0o755, "the user's own folder is left as it was");
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_failed_write_leaves_the_old_file_and_no_temporary() {
    let dir = scratch("failed");
    let path = dir.join("f.bin");
    write_whole(&path, Durability::Renamed, |out| out.write_all(b"old")).unwrap();
    let failed = write_whole(&path, Durability::Renamed, |out| {
        out.write_all(b"half")?;
        Err(io::Error::other("disk full"))
    });
    assert!(failed.is_err());
    assert_eq!(fs::read(&path).unwrap(), b"old");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_link_planted_at_the_final_name_is_replaced_not_written_through() {
    let dir = scratch("link");
    fs::create_dir_all(&dir).unwrap();
    let outside = scratch("link-outside");
    fs::create_dir_all(&outside).unwrap();
    let target = outside.join("victim");
    fs::write(&target, b"theirs").unwrap();
    let path = dir.join("f.bin");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    write_whole(&path, Durability::Synced, |out| out.write_all(b"ours")).unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"theirs");
    assert!(!fs::symlink_metadata(&path).unwrap().is_symlink());
    assert_eq!(fs::read(&path).unwrap(), b"ours");
    fs::remove_dir_all(dir).unwrap();
    fs::remove_dir_all(outside).unwrap();
}

#[test]
fn temporary_names_cannot_be_guessed() {
    // Two writers of one file use two names, neither made of the pid and a
    // counter: a name planted in advance is never the one used.
    let dir = scratch("names");
    let path = dir.join("f.bin");
    let mut seen = Vec::new();
    for _ in 0..2 {
        write_whole(&path, Durability::Renamed, |out| {
            let names: Vec<String> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".tmp"))
                .collect();
            seen.extend(names);
            out.write_all(b"x")
        })
        .unwrap();
    }
    assert_eq!(seen.len(), 2);
    assert_ne!(seen[0], seen[1]);
    for name in &seen {
        assert!(name.starts_with(".f.bin."), "{name}");
        assert!(!name.contains(&std::process::id().to_string()), "{name}");
        assert!(name.len() >= ".f.bin.".len() + RANDOM_CHARACTERS + ".tmp".len());
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_appears_whole_and_leaves_no_temporary() {
    let dir = scratch("whole");
    let path = dir.join("sub").join("a.bin");
    write_bytes(&path, Durability::Renamed, b"hello").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"hello");
    write_bytes(&path, Durability::Renamed, b"again").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"again");
    let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
    assert_eq!(names.len(), 1);
    fs::remove_dir_all(dir).unwrap();
}
