//! The service's REST endpoints: auth, retries, paging, one request or every
//! page of one (`service`), a range (`history`). The client over them and
//! the cache is [`crate::client`], a layer above.

pub mod auth;
pub mod budget;
pub mod expired;
mod history;
pub mod http;
pub mod in_window;
pub mod intraday_values;
mod own_task;
pub mod paging;
pub mod paths;
pub mod progress;
pub mod query;
pub mod retry;
pub mod send;
pub mod service;
pub mod service_clock;
pub mod tenor_rules;
pub mod unlisted;
pub mod validate;
pub mod values_since;
pub mod windows;

pub use auth::{Credentials, TokenProvider};
pub use budget::Budget;
pub use expired::SKIPPED_TENORS;
pub use http::{HttpConfig, DEFAULT_MAX_RESPONSE_BYTES};
pub use progress::Progress;
pub use query::{CatalogueQuery, Contracts, HistoryQuery, PriceQuery, TenorQuery};
