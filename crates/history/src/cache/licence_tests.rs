use super::*;

fn licences(name: &str) -> (Licences, std::path::PathBuf) {
    let path = test_support::scratch(name).join("a.json");
    (Licences::remembered_in(Memory::at(path.clone())), path)
}

#[test]
fn an_answer_noted_in_one_session_is_known_in_the_next_on_this_machine() {
    let (first, path) = licences("licences-next-session");
    assert_eq!(first.known("c1"), None);
    first.note("c1", true);
    first.note("c2", false);
    let next = Licences::remembered_in(Memory::at(path));
    assert!(next.known("c1").is_some_and(|a| a.licensed));
    assert!(next.known("c2").is_some_and(|a| !a.licensed));
    assert_eq!(next.known("c3"), None);
}

#[test]
fn a_refusal_replaces_a_confirmation_and_served_days_confirm() {
    let (licences, _) = licences("licences-refusal");
    licences.note("c1", true);
    licences.note("c1", false);
    assert!(licences.known("c1").is_some_and(|a| !a.licensed));
    licences.served("c1");
    assert!(licences.known("c1").is_some_and(|a| a.licensed));
}
