use super::*;
use crate::storage::Place;

fn refusal(text: &str) -> String {
    match Place::parse("dest", text, &[]) {
        Err(ClientError::InvalidRequest(invalid)) => invalid.to_string(),
        Err(other) => panic!("{text}: not an InvalidRequest: {other}"),
        Ok(_) => panic!("{text}: accepted"),
    }
}

#[test]
fn a_login_in_a_place_url_is_refused_and_never_echoed() {
    // A secret with `/` or `+` (as AWS's often have) ends the authority early.
    for url in [
        "s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/lake",
        "s3://AKIAEXAMPLE:wJalr/XUtn+FEMI@bucket/lake",
        "s3://AKIAEXAMPLE:1234/wJalrXUtnFEMI@bucket/lake",
        "s3://AKIAEXAMPLE:/wJalrXUtnFEMI@bucket/lake",
        "s3a://AKIAEXAMPLE:wJalrXUtnFEMI@bucket",
        "gs://svc:wJalrXUtnFEMI@bucket/lake",
        "az://account:wJalrXUtnFEMI@container/lake",
        "abfs://container:wJalrXUtnFEMI@account.dfs.core.windows.net/lake",
        "abfss://container:wJalrXUtnFEMI@account.dfs.core.windows.net/lake",
        "file://user:wJalrXUtnFEMI@localhost/tmp/lake",
    ] {
        let message = refusal(url);
        assert!(message.contains("credentials"), "{url}: {message}");
        for secret in ["wJalr", "FEMI", "AKIAEXAMPLE", "1234", "svc"] {
            assert!(!message.contains(secret), "{url} echoed: {message}");
        }
    }
}

#[test]
fn a_user_alone_is_a_login_except_azures_container_at_account() {
    for url in ["s3://AKIAEXAMPLE@bucket/lake", "gs://token@bucket"] {
        assert!(refusal(url).contains("credentials"), "{url}");
        assert!(!refusal(url).contains("AKIAEXAMPLE") && !refusal(url).contains("token@"));
    }
    check(
        "dest",
        "abfss://container@account.dfs.core.windows.net/lake",
    )
    .unwrap();
}

#[test]
fn a_query_or_a_port_is_refused_without_its_text() {
    let sas = refusal("az://container/lake?sv=2024&sig=c2VjcmV0");
    assert!(sas.contains("query") && !sas.contains("c2VjcmV0"), "{sas}");
    assert!(refusal("s3://bucket/lake#x").contains("fragment"));
    assert!(refusal("s3://bucket:9000/lake").contains("port"));
}

#[test]
fn a_url_as_a_local_folder_is_refused_without_its_login() {
    let dir = std::path::Path::new("s3://AKIAEXAMPLE:wJalr@bucket/cache");
    match crate::storage::folder::folder_to_write("cache_dir", dir) {
        Err(ClientError::InvalidRequest(invalid)) => {
            let message = invalid.to_string();
            assert!(message.contains("not a URL"), "{message}");
            assert!(
                !message.contains("wJalr") && !message.contains("AKIA"),
                "{message}"
            );
        }
        other => panic!("accepted: {other:?}"),
    }
}

#[test]
fn a_url_without_credentials_is_shown_as_it_is() {
    assert_eq!(without_credentials("s3://bucket/a/b"), "s3://bucket/a/b");
    assert_eq!(
        without_credentials("s3://K:S/x@bucket/a?sig=1"),
        "s3://***@bucket/a?…"
    );
    check("dest", "s3://bucket/lake/").unwrap();
    check("dest", "gs://bucket").unwrap();
}
