use std::collections::HashMap;

use super::*;

fn rules(vars: &[(&str, &str)]) -> Result<ProxyRules, ClientError> {
    let vars: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    ProxyRules::from_lookup(|name| vars.get(name).cloned())
}

fn proxy_of(rules: &ProxyRules, url: &str) -> Option<String> {
    rules
        .proxy_for(&Url::parse(url).unwrap())
        .map(ProxyServer::address)
}

#[test]
fn each_scheme_takes_its_own_variable() {
    let rules = rules(&[
        ("HTTP_PROXY", "http://plain.proxy:3128"),
        ("HTTPS_PROXY", "http://tls.proxy:8080"),
    ])
    .unwrap();
    let plain = Some("http://plain.proxy:3128".to_owned());
    let tls = Some("http://tls.proxy:8080".to_owned());
    assert_eq!(proxy_of(&rules, "http://api.example/v2"), plain);
    assert_eq!(proxy_of(&rules, "ws://live.example/"), plain);
    assert_eq!(proxy_of(&rules, "https://api.example/v2"), tls);
    assert_eq!(proxy_of(&rules, "wss://live.example/"), tls);
}

#[test]
fn uppercase_wins_lowercase_counts_and_empty_is_unset() {
    let both = rules(&[("HTTPS_PROXY", "upper:1"), ("https_proxy", "lower:2")]).unwrap();
    assert_eq!(proxy_of(&both, "https://x/"), Some("http://upper:1".into()));
    let lower = rules(&[("HTTPS_PROXY", " "), ("https_proxy", "lower:2")]).unwrap();
    assert_eq!(
        proxy_of(&lower, "https://x/"),
        Some("http://lower:2".into())
    );
    assert!(rules(&[("HTTPS_PROXY", "")]).unwrap().is_direct());
}

#[test]
fn all_proxy_fills_in_for_either_scheme() {
    let rules = rules(&[
        ("ALL_PROXY", "http://all:3128"),
        ("HTTP_PROXY", "http://h:1"),
    ])
    .unwrap();
    assert_eq!(proxy_of(&rules, "http://x/"), Some("http://h:1".into()));
    assert_eq!(proxy_of(&rules, "wss://x/"), Some("http://all:3128".into()));
}

#[test]
fn no_proxy_applies_to_every_scheme() {
    let rules = rules(&[
        ("HTTP_PROXY", "http://p:1"),
        ("HTTPS_PROXY", "http://p:1"),
        ("no_proxy", "corp.com,127.0.0.1:8080,[::1]"),
    ])
    .unwrap();
    assert_eq!(proxy_of(&rules, "https://api.corp.com/v2"), None);
    assert_eq!(proxy_of(&rules, "wss://live.corp.com"), None);
    assert_eq!(proxy_of(&rules, "http://127.0.0.1:8080/v2"), None);
    assert!(proxy_of(&rules, "http://127.0.0.1:8081/v2").is_some());
    assert_eq!(proxy_of(&rules, "ws://[::1]:9/"), None);
    assert!(proxy_of(&rules, "https://example.org/").is_some());
}

#[test]
fn default_ports_count_for_no_proxy() {
    let rules = rules(&[("HTTPS_PROXY", "p:1"), ("NO_PROXY", "corp.com:443")]).unwrap();
    assert_eq!(proxy_of(&rules, "https://corp.com/"), None);
    assert_eq!(proxy_of(&rules, "wss://corp.com/"), None);
    assert!(proxy_of(&rules, "https://corp.com:8443/").is_some());
}

#[test]
fn http_proxy_is_ignored_under_cgi() {
    let rules = rules(&[("REQUEST_METHOD", "GET"), ("HTTP_PROXY", "http://evil:1")]).unwrap();
    assert!(rules.is_direct());
}

#[test]
fn a_proxy_url_defaults_to_http_and_port_80() {
    let proxy = ProxyServer::parse("HTTP_PROXY", "proxy.corp").unwrap();
    assert_eq!(proxy.address(), "http://proxy.corp:80");
    assert!(!proxy.has_credentials());
    assert!(proxy.basic_authorization().is_none());
}

#[test]
fn credentials_are_decoded_used_and_never_shown() {
    let proxy =
        ProxyServer::parse("HTTPS_PROXY", "http://us%65r:p%40ss:w0rd@proxy.corp:3128/").unwrap();
    assert_eq!(proxy.address(), "http://proxy.corp:3128");
    // base64("user:p@ss:w0rd")
    assert_eq!(
        proxy.basic_authorization().unwrap().expose(),
        "Basic dXNlcjpwQHNzOncwcmQ="
    );
    let shown = format!("{proxy:?}");
    assert!(
        !shown.contains("w0rd") && !shown.contains("user"),
        "{shown}"
    );
    assert_eq!(
        proxy.url_with_credentials().as_str(),
        "http://user:p%40ss%3Aw0rd@proxy.corp:3128/"
    );
}

#[test]
fn unsupported_proxies_are_refused_without_their_password() {
    for value in [
        "https://u:secret-pw@proxy:443",
        "socks5://u:secret-pw@proxy:1080",
        "http://u:secret-pw@:3128",
    ] {
        let error = ProxyServer::parse("HTTPS_PROXY", value)
            .unwrap_err()
            .to_string();
        assert!(error.contains("HTTPS_PROXY"), "{error}");
        assert!(!error.contains("secret-pw"), "{error}");
    }
    assert!(rules(&[("HTTP_PROXY", "socks5://p:1080")]).is_err());
}
