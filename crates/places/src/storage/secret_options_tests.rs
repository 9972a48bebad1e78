use super::*;

fn secrets(scheme: &str, keys: &[&str], value: &str) -> Vec<String> {
    let options: Vec<(String, String)> = keys
        .iter()
        .map(|k| (k.to_string(), value.to_owned()))
        .collect();
    secret_options(scheme, &options)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Every alias object_store 0.14 takes for a credential, by store.
const AWS: [&str; 15] = [
    "aws_access_key_id",
    "access_key_id",
    "aws_secret_access_key",
    "secret_access_key",
    "AWS_SECRET_ACCESS_KEY",
    "aws_session_token",
    "aws_token",
    "session_token",
    "token",
    "aws_sse_customer_key_base64",
    "sse_customer_key_base64",
    "Secret_Access_Key",
    "SESSION_TOKEN",
    "Token",
    "ACCESS_KEY_ID",
];
const AZURE: [&str; 19] = [
    "azure_storage_account_key",
    "azure_storage_access_key",
    "azure_storage_master_key",
    "master_key",
    "account_key",
    "access_key",
    "azure_storage_client_secret",
    "azure_client_secret",
    "client_secret",
    "azure_storage_sas_key",
    "azure_storage_sas_token",
    "sas_key",
    "sas_token",
    "azure_storage_token",
    "bearer_token",
    "token",
    "azure_fabric_session_token",
    "fabric_session_token",
    "azure_storage_encryption_key",
];
const GOOGLE: [&str; 4] = [
    "google_service_account_key",
    "service_account_key",
    "google_bearer_token",
    "bearer_token",
];

#[test]
fn every_alias_of_a_credential_is_a_secret_for_its_store() {
    for (scheme, keys) in [("s3", &AWS[..]), ("az", &AZURE[..]), ("gs", &GOOGLE[..])] {
        assert_eq!(secrets(scheme, keys, "x").len(), keys.len(), "{scheme}");
    }
    assert_eq!(secrets("abfss", &["encryption_key"], "x").len(), 1);
    assert_eq!(secrets("s3a", &["secret_access_key"], "x").len(), 1);
}

#[test]
fn an_alias_is_a_secret_whatever_the_scheme_when_the_scheme_is_not_a_store() {
    let all: Vec<&str> = AWS.iter().chain(&AZURE).chain(&GOOGLE).copied().collect();
    assert_eq!(secrets("file", &all, "x").len(), all.len());
}

#[test]
fn settings_paths_and_ids_are_not_secrets() {
    let aws = [
        "aws_region",
        "endpoint",
        "aws_allow_http",
        "bucket",
        "aws_web_identity_token_file",
        "aws_role_arn",
        "aws_sse_kms_key_id",
        "proxy_url",
        "timeout",
    ];
    assert!(secrets("s3", &aws, "http://127.0.0.1:9").is_empty());
    let azure = [
        "account_name",
        "client_id",
        "tenant_id",
        "use_emulator",
        "federated_token_file",
        "container_name",
    ];
    assert!(secrets("az", &azure, "x").is_empty());
    let google = ["service_account", "application_credentials", "base_url"];
    assert!(secrets("gs", &google, "/etc/key.json").is_empty());
    assert!(secrets("s3", &["not_an_option"], "x").is_empty());
}

#[test]
fn a_url_with_a_login_is_a_secret_under_any_key() {
    for value in [
        "http://user:hunter2@proxy:3128",
        "http://user:hun/ter2@proxy:3128",
        "https://user@endpoint",
    ] {
        assert_eq!(
            secrets("s3", &["proxy_url", "aws_endpoint"], value).len(),
            2,
            "{value}"
        );
    }
}
