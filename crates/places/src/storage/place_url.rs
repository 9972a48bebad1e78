//! A place's URL checked before anything else reads it: credentials never
//! ride in one. A place's URL is echoed in messages, results and reprs, and
//! travels in a cluster's task graph, so `s3://KEY:SECRET@bucket/…`, a
//! query (an Azure SAS token) or anything that could be a login's remnant
//! is refused, and the refusal shows the URL without it. Credentials go in
//! `storage_options` or the environment.

use url::Url;

use super::location::invalid;
use crate::error::ClientError;
use crate::invalid::Rule;

/// Schemes whose URL may name a container as `container@account.dfs.core.windows.net`
/// (the Hadoop driver's convention, which object_store accepts): there the
/// user part is a container's name, not a login.
const CONTAINER_AT_ACCOUNT: [&str; 3] = ["az", "abfs", "abfss"];

/// That `url` (a place's text with `://`) carries no credentials, query or
/// port; the error names `argument` and shows the URL without its user part.
pub(super) fn check(argument: &str, url: &str) -> Result<(), ClientError> {
    let shown = without_credentials(url);
    let login = || {
        invalid(
            argument,
            Rule::Form,
            format!(
                "{argument} {shown:?} carries credentials in its URL: give them in \
             storage_options or the environment (AWS_SECRET_ACCESS_KEY, …), never in a URL, \
             where every message and result would show them"
            ),
        )
    };
    if colon_before_at(url) {
        return Err(login());
    }
    let parsed = Url::parse(url).map_err(|e| {
        invalid(
            argument,
            Rule::Form,
            format!("{argument} {shown:?} is not a valid URL: {e}"),
        )
    })?;
    let container_at =
        CONTAINER_AT_ACCOUNT.contains(&parsed.scheme().to_ascii_lowercase().as_str());
    if parsed.password().is_some() || (!parsed.username().is_empty() && !container_at) {
        return Err(login());
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(invalid(
            argument,
            Rule::Form,
            format!(
                "{argument} {shown:?} has a query or fragment, which a place's URL never has \
             (a SAS token or other credentials go in storage_options or the environment)"
            ),
        ));
    }
    if parsed.port().is_some() {
        return Err(invalid(
            argument,
            Rule::Form,
            format!(
                "{argument} {shown:?} names a port: a bucket or container has none (an endpoint \
             goes in storage_options, such as aws_endpoint)"
            ),
        ));
    }
    Ok(())
}

/// A secret with a `/` ends the URL's authority early, so the login is
/// not always parsed as one: `KEY:` before an `@` is one whatever follows.
fn colon_before_at(url: &str) -> bool {
    url.split_once("://")
        .is_some_and(|(_, rest)| rest.rfind('@').is_some_and(|at| rest[..at].contains(':')))
}

/// Whether `text` is a URL with a login (`http://user:password@proxy`),
/// parsed or not.
pub(super) fn has_login(text: &str) -> bool {
    colon_before_at(text)
        || Url::parse(text.trim())
            .is_ok_and(|url| url.password().is_some() || !url.username().is_empty())
}

/// `url` for a message: whatever precedes the last `@` after `://` (a
/// login, perhaps with a `/` in its secret) becomes `***`, and any query
/// or fragment `…`.
pub fn without_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let rest = match rest.rfind('@') {
        Some(at) => format!("***@{}", &rest[at + 1..]),
        None => rest.to_owned(),
    };
    match rest.split_once(['?', '#']) {
        Some((base, _)) => format!("{scheme}://{base}?…"),
        None => format!("{scheme}://{rest}"),
    }
}

#[cfg(test)]
#[path = "place_url_tests.rs"]
mod tests;
