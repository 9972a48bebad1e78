//! Where a bulk file goes. A `path` from the service is trusted only if it is
//! exactly `vertical=<name>/year=<YYYY>/month=<MM>`: no other component, no
//! `..`, no root, so nothing can be written outside the destination.

use std::path::PathBuf;

use domain::month::Month;

/// A checked partition of the bulk dataset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    pub vertical: String,
    pub month: Month,
}

impl Partition {
    pub fn parse(path: &str) -> Result<Partition, String> {
        let refuse = || {
            format!("refused bulk path {path:?}: expected vertical=<name>/year=<YYYY>/month=<MM>")
        };
        let parts: Vec<&str> = path.split('/').collect();
        let [vertical, year, month] = parts.as_slice() else {
            return Err(refuse());
        };
        let vertical = vertical.strip_prefix("vertical=").ok_or_else(refuse)?;
        let name_ok = !vertical.is_empty()
            && vertical.len() <= 40
            && vertical
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '_')
            && vertical.trim() == vertical;
        let year = year.strip_prefix("year=").ok_or_else(refuse)?;
        let month = month.strip_prefix("month=").ok_or_else(refuse)?;
        let month = Month::parse(&format!("{year}-{month}")).ok_or_else(refuse)?;
        if !name_ok {
            return Err(refuse());
        }
        Ok(Partition {
            vertical: vertical.to_owned(),
            month,
        })
    }

    /// The directory under the destination: `vertical=…/year=…/month=…`.
    pub fn relative_dir(&self) -> PathBuf {
        PathBuf::from(format!("vertical={}", self.vertical))
            .join(format!("year={:04}", self.month.year()))
            .join(format!("month={:02}", self.month.month()))
    }
}

/// A safe file name for a download: the URL's last path segment if it is a
/// plain `*.parquet` name, else `part-<n>.parquet`.
pub fn file_name(url: &str, index: usize) -> String {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let last = path.rsplit('/').next().unwrap_or_default();
    let plain = last.len() <= 100
        && last.ends_with(".parquet")
        && !last.starts_with('.')
        && last
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if plain {
        last.to_owned()
    } else {
        format!("part-{index}.parquet")
    }
}

/// `name`, or if a file of the same partition already took it (compared
/// without case, as some file systems do), `<stem>-<n>.parquet` with the
/// smallest `n` still free: two files the service names alike must not
/// overwrite each other. The choice depends only on the listing's order, so
/// a rerun of the same job finds each file under the name it had.
pub fn unique_name(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.to_ascii_lowercase()) {
        return name;
    }
    let stem = name.strip_suffix(".parquet").unwrap_or(&name).to_owned();
    (1..)
        .map(|n| format!("{stem}-{n}.parquet"))
        .find(|candidate| taken.insert(candidate.to_ascii_lowercase()))
        .expect("some suffix is free")
}

#[cfg(test)]
#[path = "partition_tests.rs"]
mod tests;
