use std::time::Duration;

use super::*;

const HOUR: Duration = Duration::from_secs(3600);

#[test]
fn an_answer_is_trusted_for_the_remembered_time_only() {
    let now = Answer::now(true);
    assert!(now.fresh(HOUR));
    assert!(!now.fresh(Duration::ZERO), "a zero time remembers nothing");
    let old = Answer {
        at: now.at - 2 * 3600,
        ..now
    };
    assert!(!old.fresh(HOUR));
    let ahead = Answer {
        at: now.at + 3600,
        ..now
    };
    assert!(
        !ahead.fresh(HOUR),
        "an answer from the future is not trusted"
    );
}

#[test]
fn answers_are_kept_in_a_private_file_and_read_back() {
    let dir = test_support::scratch("licence-memory");
    let path = dir.join("licences").join("a.json");
    let memory = Memory::at(path.clone());
    assert_eq!(memory.get("c1"), None);
    let yes = Answer::now(true);
    let no = Answer::now(false);
    memory.put("c1", yes);
    memory.put("c2", no);
    let again = Memory::at(path.clone());
    assert_eq!((again.get("c1"), again.get("c2")), (Some(yes), Some(no)));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn a_file_that_does_not_read_is_as_good_as_none_and_is_replaced() {
    let dir = test_support::scratch("licence-memory-bad");
    let path = dir.join("a.json");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&path, b"{not json").unwrap();
    let memory = Memory::at(path.clone());
    assert_eq!(memory.get("c1"), None);
    let yes = Answer::now(true);
    memory.put("c1", yes);
    assert_eq!(memory.get("c1"), Some(yes));
}

#[test]
fn stale_answers_are_forgotten_when_another_is_written() {
    let dir = test_support::scratch("licence-memory-stale");
    let memory = Memory::at(dir.join("a.json"));
    let stale = Answer {
        licensed: true,
        at: 1,
    };
    memory.put("old", stale);
    memory.put("new", Answer::now(true));
    assert_eq!(memory.get("old"), None);
}
