use super::*;
use test_support::TempFolder;

fn message(result: Result<impl std::fmt::Debug, ClientError>) -> String {
    match result.unwrap_err() {
        ClientError::InvalidRequest(invalid) => invalid.to_string(),
        other => panic!("not an InvalidRequest: {other:?}"),
    }
}

#[test]
fn a_folder_to_write_may_be_missing_but_not_a_file() {
    let folder = TempFolder::new("args");
    let root = &folder.0;
    let file = root.join("a-file");
    std::fs::write(&file, "x").unwrap();
    assert!(folder_to_write("dest", root).is_ok());
    assert!(folder_to_write("dest", &root.join("new/deeper")).is_ok());
    assert!(!root.join("new").exists(), "checking creates nothing");
    assert!(message(folder_to_write("dest", &file)).contains("is a file, not a folder"));
    let under_file = message(folder_to_write("dest", &file.join("sub")));
    assert!(under_file.contains("cannot be created") && under_file.contains("is a file"));
    for blank in ["", "  "] {
        assert!(
            message(folder_to_write("dest", Path::new(blank))).contains("dest must not be empty")
        );
    }
    assert!(message(folder_to_write("dest", Path::new("a\0b"))).contains("NUL"));
    assert!(folder_to_read("dest", root).is_ok());
    assert!(message(folder_to_read("dest", &file)).contains("is not a folder"));
    assert!(message(folder_to_read("dest", &root.join("missing"))).contains("is not a folder"));
}

#[cfg(unix)]
#[test]
fn a_folder_the_system_refuses_to_write_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let folder = TempFolder::new("read-only");
    let read_only = folder.0.join("read-only");
    std::fs::create_dir(&read_only).unwrap();
    let mode = |mode| std::fs::Permissions::from_mode(mode);
    std::fs::set_permissions(&read_only, mode(0o500)).unwrap();
    // Root writes into any folder but those of /proc/sys.
    // SAFETY: geteuid has no preconditions.
    let refused = if unsafe { libc::geteuid() } == 0 {
        Path::new("/proc/sys")
    } else {
        &read_only
    };
    let text = message(folder_to_write("dest", &refused.join("new")));
    std::fs::set_permissions(&read_only, mode(0o700)).unwrap();
    assert!(
        text.ends_with(&format!("is not writable (in {refused:?})")),
        "{text}"
    );
}

/// A folder where `access(2)` tells root it may write, and nothing can be
/// made: the check must try, not ask.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_that_only_says_it_is_writable_is_refused() {
    let proc_root = Path::new("/proc");
    let text = message(folder_to_write("cache_dir", &proc_root.join("cache")));
    assert!(text.ends_with("is not writable (in \"/proc\")"), "{text}");
    assert!(message(folder_to_write("dest", proc_root)).ends_with("is not writable"));
}
