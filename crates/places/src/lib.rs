//! The places of the market curve client, the lowest of its layers: the way
//! to the service ([`net`]: proxies, `NO_PROXY`, the CONNECT tunnel, trusted
//! certificates) and where files go ([`storage`]: a local folder or an object
//! store prefix, each file written whole). Also what every layer above
//! shares: [`ClientError`], [`Secret`] and [`Closing`].
//!
//! Knows nothing of the service's endpoints, of Python or of the emulator.

pub mod auth_failure;
pub mod closing;
pub mod digest;
pub mod error;
pub mod give_back;
pub mod invalid;
pub mod net;
pub mod one_thread;
pub mod place_error;
pub mod secret;
pub mod storage;

pub use auth_failure::{AuthFailure, AuthReason};
pub use closing::Closing;
pub use error::{ClientError, ProviderCause};
pub use invalid::{Advice, Argument, Invalid, Lead, Rule};
pub use secret::Secret;
