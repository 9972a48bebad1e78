//! How a call uses the history cache: the client's choice, which each call
//! may override.

use places::ClientError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheMode {
    /// Serve what the cache holds, fetch the rest, keep what is final.
    Use,
    /// Fetch everything again and overwrite what the cache holds.
    Refresh,
    /// Never send a request: what the cache lacks is a [`ClientError::CacheMiss`].
    Offline,
    /// As if there were no cache.
    Off,
}

impl CacheMode {
    pub const NAMES: [&'static str; 4] = ["use", "refresh", "offline", "off"];

    /// A mode by its name; `argument` names what gave it, for the message.
    pub fn parse(argument: &str, text: &str) -> Result<CacheMode, ClientError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "use" => Ok(CacheMode::Use),
            "refresh" => Ok(CacheMode::Refresh),
            "offline" => Ok(CacheMode::Offline),
            "off" => Ok(CacheMode::Off),
            _ => Err(ClientError::invalid(places::Argument::CacheMode, places::Rule::Unknown, format!(
                "{argument} must be one of \"use\", \"refresh\", \"offline\" or \"off\", not {text:?}"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CacheMode::Use => "use",
            CacheMode::Refresh => "refresh",
            CacheMode::Offline => "offline",
            CacheMode::Off => "off",
        }
    }

    /// Whether what the cache holds is read.
    pub fn reads(self) -> bool {
        matches!(self, CacheMode::Use | CacheMode::Offline)
    }
}
