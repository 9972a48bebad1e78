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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_interface_shape() {
        let p = Partition::parse("vertical=Fuel Oil/year=2024/month=03").unwrap();
        assert_eq!(p.vertical, "Fuel Oil");
        assert_eq!(
            p.relative_dir(),
            PathBuf::from("vertical=Fuel Oil/year=2024/month=03")
        );
        assert!(Partition::parse("vertical=JET/year=2025/month=12").is_ok());
    }

    #[test]
    fn refuses_anything_else() {
        for bad in [
            "../../x",
            "/etc/x",
            "vertical=Jet/year=2024/month=03/../../x",
            "vertical=../year=2024/month=03",
            "vertical=Jet/year=2024/month=13",
            "vertical=Jet/year=24/month=03",
            "vertical=/year=2024/month=03",
            "vertical=Jet/year=2024",
            "vertical=Jet\\..\\x/year=2024/month=03",
            "/vertical=Jet/year=2024/month=03",
            "vertical=Jet/year=2024/month=03/",
        ] {
            assert!(Partition::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn file_names_are_plain() {
        assert_eq!(
            file_name("https://h/f/abc-1.parquet?X-Sig=1", 0),
            "abc-1.parquet"
        );
        assert_eq!(file_name("https://h/f/..%2Fx.parquet", 2), "part-2.parquet");
        assert_eq!(file_name("https://h/f/data?x=1", 1), "part-1.parquet");
        assert_eq!(file_name("https://h/.hidden.parquet", 0), "part-0.parquet");
    }
}
