//! The REST client: auth, retries, paging, and the data methods.

pub mod auth;
pub mod closing;
pub mod error;
pub mod http;
pub mod intraday_values;
pub mod paging;
pub mod progress;
pub mod rest;
pub mod retry;
pub mod secret;
pub mod send;
pub mod validate;
pub mod windows;

pub use auth::{Credentials, TokenProvider};
pub use closing::Closing;
pub use error::ClientError;
pub use http::HttpConfig;
pub use progress::Progress;
pub use rest::{CatalogueQuery, RestClient};
pub use secret::Secret;
