//! The REST client: auth, retries, paging, and the data methods.

pub mod auth;
pub mod http;
pub mod intraday_values;
pub mod paging;
pub mod progress;
pub mod client;
pub mod retry;
pub mod send;
pub mod validate;
pub mod windows;

pub use auth::{Credentials, TokenProvider};
pub use http::HttpConfig;
pub use progress::Progress;
pub use client::{CatalogueQuery, RestClient};
