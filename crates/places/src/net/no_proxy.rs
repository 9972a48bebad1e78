//! `NO_PROXY`: the destinations that are reached directly although a proxy
//! is set.
//!
//! reqwest keeps its own list private and hyper-util's ignores ports, so the
//! list is read here, once, and REST, bulk downloads and the live feed all
//! ask it. The rules are curl's, plus ports:
//!
//! - a comma-separated list; spaces around entries and case do not matter;
//! - `*` alone: no destination uses the proxy;
//! - a name (`corp.com`, `.corp.com` or `*.corp.com`): that host and every
//!   host under it (`api.corp.com`), never `notcorp.com`;
//! - an IP address (`10.1.2.3`, `::1`, `[::1]`) or a network (`10.0.0.0/8`);
//! - `:port` after any of these (`corp.com:8443`, `[::1]:8080`): only
//!   destinations on that port.
//!
//! Names are matched as written in the URL, without resolving them:
//! `localhost` does not cover `127.0.0.1`, and loopback destinations get no
//! special treatment (as in curl and reqwest).

use std::net::IpAddr;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoProxy {
    entries: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    pattern: Pattern,
    /// None: any port.
    port: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Pattern {
    Everything,
    /// Lowercase, without a leading dot or a trailing one.
    Domain(String),
    Address(IpAddr),
    Network(IpAddr, u8),
}

/// A destination as a URL names it: a host (a name, or an address without
/// brackets) and the port, explicit or the scheme's.
#[derive(Clone, Copy, Debug)]
pub enum Host<'a> {
    Name(&'a str),
    Address(IpAddr),
}

impl NoProxy {
    /// Reads a `NO_PROXY` value. Entries that cannot mean anything (an empty
    /// one, a bad port) are skipped, as other tools skip them.
    pub fn parse(list: &str) -> NoProxy {
        let entries = list.split(',').filter_map(Entry::parse).collect();
        NoProxy { entries }
    }

    /// Whether `host:port` is to be reached directly.
    pub fn bypasses(&self, host: Host<'_>, port: u16) -> bool {
        self.entries.iter().any(|entry| entry.matches(host, port))
    }
}

impl Entry {
    fn parse(text: &str) -> Option<Entry> {
        let text = text.trim().to_ascii_lowercase();
        if text.is_empty() {
            return None;
        }
        if text == "*" {
            return Some(Entry::any_port(Pattern::Everything));
        }
        // A bare IPv6 address has colons of its own: try addresses first.
        if let Some(pattern) = address_or_network(&text) {
            return Some(Entry::any_port(pattern));
        }
        let (host, port) = split_port(&text)?;
        let pattern = match address_or_network(host) {
            Some(pattern) => pattern,
            None => {
                let name = host.trim_start_matches("*.").trim_start_matches('.');
                let name = name.trim_end_matches('.');
                if name.is_empty() || name.contains(['/', '[', ']', '*']) {
                    return None;
                }
                Pattern::Domain(name.to_owned())
            }
        };
        Some(Entry { pattern, port })
    }

    fn any_port(pattern: Pattern) -> Entry {
        Entry {
            pattern,
            port: None,
        }
    }

    fn matches(&self, host: Host<'_>, port: u16) -> bool {
        if self.port.is_some_and(|wanted| wanted != port) {
            return false;
        }
        match (&self.pattern, host) {
            (Pattern::Everything, _) => true,
            (Pattern::Domain(domain), Host::Name(name)) => {
                let name = name.trim_end_matches('.');
                name.eq_ignore_ascii_case(domain)
                    || name.len() > domain.len()
                        && name.as_bytes()[name.len() - domain.len() - 1] == b'.'
                        && name[name.len() - domain.len()..].eq_ignore_ascii_case(domain)
            }
            (Pattern::Address(address), Host::Address(ip)) => *address == ip,
            (Pattern::Network(network, bits), Host::Address(ip)) => in_network(ip, *network, *bits),
            _ => false,
        }
    }
}

/// `10.0.0.1`, `::1`, `[::1]`, `10.0.0.0/8`, `fd00::/8`.
fn address_or_network(text: &str) -> Option<Pattern> {
    let unbracketed = |t: &str| {
        t.strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .unwrap_or(t)
            .parse::<IpAddr>()
            .ok()
    };
    match text.split_once('/') {
        None => unbracketed(text).map(Pattern::Address),
        Some((address, bits)) => {
            let address = unbracketed(address)?;
            let bits: u8 = bits.parse().ok()?;
            let width = if address.is_ipv4() { 32 } else { 128 };
            (bits <= width).then_some(Pattern::Network(address, bits))
        }
    }
}

/// `host:port` into its parts (`[v6]:port` too); a host alone has no port.
/// None for a port that is not a number.
fn split_port(text: &str) -> Option<(&str, Option<u16>)> {
    if let Some(rest) = text.strip_prefix('[') {
        let (address, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(port) => Some(port.parse().ok()?),
            None if after.is_empty() => None,
            None => return None,
        };
        return Some((address, port));
    }
    match text.rsplit_once(':') {
        Some((host, port)) => Some((host, Some(port.parse().ok()?))),
        None => Some((text, None)),
    }
}

fn in_network(ip: IpAddr, network: IpAddr, bits: u8) -> bool {
    match (ip, network) {
        (IpAddr::V4(ip), IpAddr::V4(network)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            u32::from(ip) & mask == u32::from(network) & mask
        }
        (IpAddr::V6(ip), IpAddr::V6(network)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            u128::from(ip) & mask == u128::from(network) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
#[path = "no_proxy_tests.rs"]
mod tests;
