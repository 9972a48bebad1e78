use std::net::IpAddr;

use super::*;

fn name(list: &str, host: &str, port: u16) -> bool {
    NoProxy::parse(list).bypasses(Host::Name(host), port)
}

fn address(list: &str, ip: &str, port: u16) -> bool {
    let ip: IpAddr = ip.parse().unwrap();
    NoProxy::parse(list).bypasses(Host::Address(ip), port)
}

#[test]
fn a_name_covers_itself_and_its_subdomains_only() {
    for entry in [
        "corp.com",
        ".corp.com",
        "*.corp.com",
        "CORP.com",
        " corp.com ",
    ] {
        assert!(name(entry, "corp.com", 443), "{entry}");
        assert!(name(entry, "api.corp.com", 443), "{entry}");
        assert!(name(entry, "a.b.CORP.COM", 443), "{entry}");
        assert!(!name(entry, "notcorp.com", 443), "{entry}");
        assert!(!name(entry, "corp.com.evil.net", 443), "{entry}");
        assert!(!name(entry, "com", 443), "{entry}");
    }
    assert!(name("corp.com", "corp.com.", 443), "a fully qualified name");
}

#[test]
fn a_list_is_comma_separated_and_empty_entries_are_skipped() {
    let list = "example.org, ,corp.com,,10.0.0.1";
    assert!(name(list, "example.org", 80));
    assert!(name(list, "x.corp.com", 80));
    assert!(address(list, "10.0.0.1", 80));
    assert!(!name(list, "other.net", 80));
    assert!(NoProxy::parse("").entries.is_empty());
    assert!(NoProxy::parse(" , ").entries.is_empty());
}

#[test]
fn a_star_alone_covers_everything() {
    assert!(name("*", "anything.example", 443));
    assert!(address("*", "203.0.113.9", 80));
    assert!(address("example.org, *", "::1", 80));
}

#[test]
fn addresses_match_exactly_and_networks_by_prefix() {
    assert!(address("127.0.0.1", "127.0.0.1", 8080));
    assert!(!address("127.0.0.1", "127.0.0.2", 8080));
    assert!(address("10.0.0.0/8", "10.200.3.4", 80));
    assert!(!address("10.0.0.0/8", "11.0.0.1", 80));
    assert!(address("0.0.0.0/0", "198.51.100.1", 80));
    assert!(address("::1", "::1", 80));
    assert!(address("[::1]", "::1", 80));
    assert!(address("fd00::/8", "fd12:3456::1", 80));
    assert!(!address("fd00::/8", "fe80::1", 80));
    assert!(
        !address("10.0.0.0/8", "::ffff:10.0.0.1", 80),
        "families differ"
    );
    assert!(
        !address("10.0.0.0/33", "10.0.0.1", 80),
        "a bad prefix is skipped"
    );
}

#[test]
fn names_are_not_resolved() {
    assert!(!address("localhost", "127.0.0.1", 80));
    assert!(!name("127.0.0.1", "localhost", 80));
}

#[test]
fn a_port_limits_an_entry_to_that_port() {
    assert!(name("corp.com:8443", "api.corp.com", 8443));
    assert!(!name("corp.com:8443", "api.corp.com", 443));
    assert!(address("127.0.0.1:8080", "127.0.0.1", 8080));
    assert!(!address("127.0.0.1:8080", "127.0.0.1", 8081));
    assert!(address("[::1]:8080", "::1", 8080));
    assert!(!address("[::1]:8080", "::1", 9090));
    assert!(
        !name("corp.com:http", "corp.com", 80),
        "a port must be a number"
    );
}

#[test]
fn loopback_is_proxied_unless_listed() {
    assert!(!address("corp.com", "127.0.0.1", 80));
    assert!(!name("corp.com", "localhost", 80));
    assert!(address("localhost,127.0.0.1,::1", "127.0.0.1", 80));
}
