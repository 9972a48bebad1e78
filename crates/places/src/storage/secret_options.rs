//! Which storage options are secrets: those a cluster's task graph must not
//! carry (`marketcurves.backfill`), whatever alias names them. Each key is
//! read by object_store's own parser, so every alias it takes
//! (`secret_access_key`, `access_key`, `master_key`, `sas_token`, …) is
//! known by the key it stands for, and only that key's canonical name is
//! classified here.

use std::str::FromStr;

use object_store::aws::AmazonS3ConfigKey;
use object_store::azure::AzureConfigKey;
use object_store::gcp::GoogleConfigKey;

use super::place_url::has_login;

/// Canonical keys whose value is a credential: a key, a secret, a token, a
/// customer's encryption key. Paths to credential files
/// (`google_service_account`, `aws_web_identity_token_file`) and ids
/// (`azure_storage_client_id`) are not, and stay.
const SECRET_KEYS: [&str; 12] = [
    "aws_access_key_id",
    "aws_secret_access_key",
    "aws_session_token",
    "aws_sse_customer_key_base64",
    "azure_storage_account_key",
    "azure_storage_client_secret",
    "azure_storage_sas_key",
    "azure_storage_token",
    "azure_fabric_session_token",
    "azure_storage_encryption_key",
    "google_service_account_key",
    "google_bearer_token",
];

/// The keys of `options` (as given) whose value is a secret for a store of
/// `scheme` (`s3`, `gs`, `az`, …): a credential's key by any alias, or any
/// option whose value is a URL with a login (a proxy's, an endpoint's).
pub fn secret_options<'a>(scheme: &str, options: &'a [(String, String)]) -> Vec<&'a str> {
    options
        .iter()
        .filter(|(key, value)| has_login(value) || is_secret_key(scheme, key))
        .map(|(key, _)| key.as_str())
        .collect()
}

fn is_secret_key(scheme: &str, key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let aws = canonical::<AmazonS3ConfigKey>;
    let google = canonical::<GoogleConfigKey>;
    let azure = canonical::<AzureConfigKey>;
    let parsers: &[fn(&str) -> Option<String>] = match scheme.to_ascii_lowercase().as_str() {
        "s3" | "s3a" => &[aws],
        "gs" => &[google],
        "az" | "azure" | "abfs" | "abfss" | "adl" => &[azure],
        // Options go with an object store URL only (refused with anything
        // else); a secret of any store's is one here too.
        _ => &[aws, google, azure],
    };
    parsers
        .iter()
        .filter_map(|parse| parse(&key))
        .any(|canonical| SECRET_KEYS.contains(&canonical.as_str()))
}

fn canonical<K: FromStr + AsRef<str>>(key: &str) -> Option<String> {
    K::from_str(key).ok().map(|k| k.as_ref().to_owned())
}

#[cfg(test)]
#[path = "secret_options_tests.rs"]
mod tests;
