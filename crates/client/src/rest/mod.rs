//! The REST client: auth, retries, paging, and the data methods.

pub mod auth;
pub mod client;
pub mod http;
pub mod intraday_values;
pub mod paging;
pub mod progress;
pub mod retry;
pub mod send;
pub mod validate;
pub mod windows;

pub use auth::{Credentials, TokenProvider};
pub use client::{CatalogueQuery, RestClient};
pub use http::HttpConfig;
pub use progress::Progress;
