use super::*;

fn options(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn error(text: &str, pairs: &[(&str, &str)]) -> String {
    match Place::parse("dest", text, &options(pairs)) {
        Err(ClientError::InvalidRequest(invalid)) => invalid.to_string(),
        Err(other) => panic!("{text}: not an InvalidRequest: {other}"),
        Ok(_) => panic!("{text}: accepted"),
    }
}

#[test]
fn local_paths_and_file_urls_are_local() {
    for (text, path) in [
        ("data/", "data/"),
        ("/tmp/x", "/tmp/x"),
        ("file:///tmp/x", "/tmp/x"),
    ] {
        match Place::parse("dest", text, &[]).unwrap() {
            Place::Folder(found) => assert_eq!(found, PathBuf::from(path)),
            Place::Store(_) => panic!("{text} is local"),
        }
    }
}

#[test]
fn object_store_urls_give_a_store_and_a_prefix() {
    let endpoint = [
        ("aws_endpoint", "http://127.0.0.1:9"),
        ("aws_allow_http", "true"),
        ("aws_region", "us-east-1"),
    ];
    match Place::parse("dest", "s3://bucket/exports/jet", &options(&endpoint)).unwrap() {
        Place::Store(location) => {
            assert_eq!(location.prefix.as_ref(), "exports/jet");
            assert_eq!(location.shown, "s3://bucket/exports/jet");
        }
        Place::Folder(_) => panic!("s3 is a store"),
    }
}

#[test]
fn bad_places_are_refused_naming_the_argument_and_never_a_value() {
    let message = error("ftp://host/x", &[]);
    assert!(
        message.contains("dest") && message.contains("ftp"),
        "{message}"
    );
    let message = error("s3:///no-bucket", &[]);
    assert!(message.contains("no bucket"), "{message}");
    let message = error("s3://bucket/x", &[("aws_secret_key_typo", "very-secret")]);
    assert!(message.contains("aws_secret_key_typo"), "{message}");
    assert!(!message.contains("very-secret"), "{message}");
    let message = error("data/", &[("aws_region", "us-east-1")]);
    assert!(message.contains("storage_options"), "{message}");
}

#[test]
fn a_store_takes_no_storage_options() {
    let store = || -> Arc<dyn ObjectStore> { Arc::new(object_store::memory::InMemory::new()) };
    let shown = "s3://bucket/desk".to_owned();
    match Place::of_store("dest", store(), shown.clone(), &[]).unwrap() {
        Place::Store(location) => {
            assert_eq!(location.shown, shown);
            assert_eq!(location.key("a/b").as_ref(), "a/b");
        }
        Place::Folder(_) => panic!("a store is a store"),
    }
    let both = options(&[("aws_region", "eu-west-1")]);
    match Place::of_store("dest", store(), shown, &both) {
        Err(ClientError::InvalidRequest(invalid)) => {
            let message = invalid.to_string();
            assert!(message.contains("storage_options"), "{message}");
            assert!(!message.contains("eu-west-1"), "{message}");
        }
        _ => panic!("a store and storage_options are refused"),
    }
}
