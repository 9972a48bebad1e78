//! The Arrow form of price rows: the schemas of the design and their builder.

mod build;
mod schema;

pub use build::build_batch;
pub use schema::{schema, TableKind};
