//! Bad input as data: which argument, which rule it broke, the value shown
//! and what to do about it. The crates write the rule in words that name no
//! language's parameters; a binding words the argument and the advice its
//! own way (Python's `pass cache_dir= to the client`), from these fields.

use std::fmt;

/// One of the client's notions an argument stands for. A binding maps each
/// to the name of its own parameter; `Named` is an argument the caller
/// named itself (a binding passes its parameter's name for the places it
/// reads, the crates the name of their own parameter).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Argument {
    /// A curve id.
    Curve,
    /// One tenor (a contract's name).
    Tenor,
    /// The tenors or contracts a call covers (named ones, expired, all).
    Tenors,
    /// A range's first day or month.
    Start,
    /// A range's last day or month.
    End,
    /// The range as a whole (its length, the order of its ends).
    Range,
    /// A vertical of the catalogue.
    Vertical,
    /// A catalogue filter.
    Filter,
    /// How a call uses the cache (off, on, offline, refresh).
    CacheMode,
    /// The cache's folder, or its absence.
    CacheFolder,
    /// A file of CA certificates to trust.
    CaBundle,
    /// The service's REST base address.
    BaseUrl,
    /// What the client calls for a token.
    TokenProvider,
    /// A proxy, from the settings or the environment.
    Proxy,
    /// Live subscriptions, or one of them.
    Subscription,
    /// Whether a subscription must name listed curves and contracts.
    Strict,
    /// A count or a limit (rows, batch sizes).
    Limit,
    /// A period or a duration.
    Period,
    /// How long a call waits at most (for a batch, for a bulk job).
    Timeout,
    /// How long a bulk download waits between looks at its job.
    PollInterval,
    /// The most rows a batch of ticks holds.
    BatchRows,
    /// The most requests the client has under way at once.
    Concurrency,
    /// The most ticks a recorder holds before it writes.
    HoldLimit,
    /// The most requests a call may send (its request budget).
    Budget,
    /// An argument named by whoever gave it.
    Named(String),
    /// The request as a whole: several arguments together, or the service's
    /// refusal of it.
    Request,
}

impl Argument {
    /// The argument in the words of the Rust API.
    pub fn words(&self) -> &str {
        match self {
            Argument::Curve => "curve id",
            Argument::Tenor => "tenor",
            Argument::Tenors => "tenors",
            Argument::Start => "start",
            Argument::End => "end",
            Argument::Range => "range",
            Argument::Vertical => "vertical",
            Argument::Filter => "catalogue filter",
            Argument::CacheMode => "cache mode",
            Argument::CacheFolder => "cache folder",
            Argument::CaBundle => "CA bundle",
            Argument::BaseUrl => "base URL",
            Argument::TokenProvider => "token provider",
            Argument::Proxy => "proxy",
            Argument::Subscription => "subscription",
            Argument::Strict => "strict",
            Argument::Limit => "limit",
            Argument::Period => "period",
            Argument::Timeout => "timeout",
            Argument::PollInterval => "poll interval",
            Argument::BatchRows => "batch row limit",
            Argument::Concurrency => "concurrency limit",
            Argument::HoldLimit => "hold limit",
            Argument::Budget => "request budget",
            Argument::Named(name) => name,
            Argument::Request => "request",
        }
    }
}

/// The kind of rule an argument broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// Not of the form wanted: not a UUID, a month, a tenor name, a URL.
    Form,
    /// Empty or blank where a value is wanted.
    Empty,
    /// Outside its bounds, or a range whose ends are out of order.
    Bounds,
    /// None of the values the argument takes.
    Unknown,
    /// Not what the catalogue (or the lake) lists: the service would send nothing.
    Unlisted,
    /// At odds with another argument, or with the client's settings.
    Conflict,
    /// A folder, file or store that cannot be used as asked.
    Place,
    /// Refused by the service (HTTP 400 or 422).
    Refused,
    /// A thing that cannot be set up from it (a TLS configuration, a client).
    Unusable,
    /// A call whose plan needs more requests than its budget allows: it
    /// was refused before sending them. (Counts of 32 bits, saturated, keep
    /// every `ClientError` small.)
    Budget { needed: u32, allowed: u32 },
}

/// What the caller can do about it, as data: a binding words it in its own
/// terms (its parameter's name and syntax, a command line's flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Advice {
    /// Give the client a cache folder (or set `MARKETCURVES_CACHE_DIR`).
    CacheFolder,
    /// Subscribe without checking the catalogue (a subscription that is not strict).
    NotStrict,
    /// Give the client a file of the CA certificates to trust.
    CaBundle,
    /// A certificate not trusted: a proxy or firewall may inspect TLS, and
    /// its CA certificates are to be trusted.
    InspectedTls,
    /// Offline without the catalogue: fetch it once online, or name the
    /// tenors so that none need listing.
    FetchCatalogue,
    /// A response longer than the client takes in: its limit can be raised.
    ResponseLimit,
    /// A call over its request budget: ask for fewer tenors or a shorter
    /// range, or let a cache serve the days it holds.
    Narrow,
}

impl Advice {
    /// The advice in the words of the Rust API.
    pub fn words(self) -> &'static str {
        match self {
            Advice::CacheFolder => "give the client a cache folder, or set MARKETCURVES_CACHE_DIR",
            Advice::NotStrict => "subscribe without the strict check to subscribe anyway",
            Advice::CaBundle => "give the client a PEM file of the CA certificates to trust",
            Advice::InspectedTls => {
                "if a proxy or firewall of your network inspects TLS, give the client the \
                 path of a PEM file with its CA certificates (or set SSL_CERT_FILE)"
            }
            Advice::FetchCatalogue => {
                "(fetch it once online; a history call needs the whole catalogue to list a \
                 curve's tenors, unless the call names them)"
            }
            Advice::ResponseLimit => "the client's response size limit can be raised",
            Advice::Narrow => {
                "narrow the call: fewer tenors, a shorter range, or a cache that holds its \
                 days (cached days cost no request)"
            }
        }
    }

    /// The advice with what joins it to the message before it.
    pub fn joined(self) -> String {
        match self {
            Advice::FetchCatalogue => format!(" {}", self.words()),
            _ => format!("; {}", self.words()),
        }
    }
}

/// `message`, then the advice if there is some, joined in the Rust API's
/// words or, through `advise`, a binding's.
pub fn advised(message: &str, advice: Option<Advice>, advise: &dyn Fn(Advice) -> String) -> String {
    match advice {
        Some(advice) => format!("{message}{}", advise(advice)),
        None => message.to_owned(),
    }
}

/// An argument that breaks a rule, found before anything was sent (or
/// refused by the service with 400). `words` says what is wrong in the
/// Rust API's words, naming the argument and showing the value where that
/// helps; `advice`, when there is some, follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub argument: Argument,
    pub rule: Rule,
    /// The offending value as shown (never a secret), when one value is at fault.
    pub value: Option<String>,
    pub words: String,
    /// What the words begin with that a binding writes its own way.
    pub lead: Lead,
    pub advice: Option<Advice>,
}

/// The start of an [`Invalid`]'s words that names the argument: a binding
/// writes it with its parameter's name (and syntax for a value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lead {
    /// The words name no argument up front.
    None,
    /// The argument's own words ([`Argument::words`]).
    Argument,
    /// The argument given each of these values, joined by "and"
    /// ([`Invalid::given`] in the Rust API's words).
    Values(Vec<String>),
}

impl Invalid {
    pub fn new(argument: Argument, rule: Rule, words: impl Into<String>) -> Invalid {
        Invalid {
            argument,
            rule,
            value: None,
            words: words.into(),
            lead: Lead::None,
            advice: None,
        }
    }

    /// Words that begin with the argument, then `rest` (" must be …").
    pub fn led(argument: Argument, rule: Rule, rest: &str) -> Invalid {
        let words = format!("{}{rest}", argument.words());
        Invalid {
            lead: Lead::Argument,
            ..Invalid::new(argument, rule, words)
        }
    }

    /// Words that begin with the argument given each of `values` (`tenors
    /// "expired" and tenors "all"`), then `rest`.
    pub fn led_by_values(argument: Argument, rule: Rule, values: &[&str], rest: &str) -> Invalid {
        let values: Vec<String> = values.iter().map(|&v| v.to_owned()).collect();
        let words = format!("{}{rest}", Invalid::given(&argument, &values));
        Invalid {
            lead: Lead::Values(values),
            ..Invalid::new(argument, rule, words)
        }
    }

    /// `argument` given each of `values`, in the Rust API's words.
    pub fn given(argument: &Argument, values: &[String]) -> String {
        let each: Vec<String> = values
            .iter()
            .map(|value| format!("{} {value:?}", argument.words()))
            .collect();
        each.join(" and ")
    }

    /// The words after their lead, when the argument leads them.
    pub fn rest(&self) -> Option<&str> {
        match &self.lead {
            Lead::None => None,
            Lead::Argument => self.words.strip_prefix(self.argument.words()),
            Lead::Values(values) => self
                .words
                .strip_prefix(&Invalid::given(&self.argument, values)),
        }
    }

    /// With the offending value, as shown.
    #[must_use]
    pub fn value(mut self, value: impl Into<String>) -> Invalid {
        self.value = Some(value.into());
        self
    }

    #[must_use]
    pub fn advice(mut self, advice: Advice) -> Invalid {
        self.advice = Some(advice);
        self
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&advised(&self.words, self.advice, &|a| a.joined()))
    }
}

#[cfg(test)]
#[path = "invalid_tests.rs"]
mod tests;
