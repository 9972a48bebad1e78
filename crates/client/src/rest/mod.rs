//! The REST client: auth, retries, paging, the service's endpoints
//! (`service`, `history`), and the client over them and the cache (`client`).

pub(crate) mod auth;
pub(crate) mod client;
pub(crate) mod expired;
mod history;
pub(crate) mod http;
pub(crate) mod in_window;
pub(crate) mod intraday_values;
mod own_task;
pub(crate) mod paging;
pub(crate) mod paths;
pub(crate) mod progress;
pub(crate) mod query;
pub(crate) mod retry;
pub(crate) mod send;
pub(crate) mod service;
pub(crate) mod service_clock;
pub(crate) mod tenor_rules;
pub(crate) mod unlisted;
pub(crate) mod validate;
pub(crate) mod values_since;
pub(crate) mod windows;

pub use auth::{Credentials, TokenProvider};
pub use client::RestClient;
pub use expired::SKIPPED_TENORS;
pub use http::{HttpConfig, DEFAULT_MAX_RESPONSE_BYTES};
pub use progress::Progress;
pub use query::{CatalogueQuery, Contracts, HistoryQuery, PriceQuery, TenorQuery};
