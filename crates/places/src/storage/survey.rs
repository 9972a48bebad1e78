//! A place's names as a lake's check and a backfill need them: what a
//! listing met on its way besides files. A link (to a folder or a file) is
//! named and never followed: a writer that went through one would write,
//! or delete, somewhere the place does not hold. A folder that cannot be
//! read is named with the reason, and the rest is listed still.

use std::path::{Path, PathBuf};

use super::{Operation, Place, PlaceError};

/// Every name under a place, and what else the listing met.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Survey {
    /// Files, relative to the place, sorted.
    pub names: Vec<String>,
    /// Links, to a folder or a file, relative to the place.
    pub links: Vec<String>,
    /// `(folder or file, why)`: what could not be listed.
    pub unreadable: Vec<(String, String)>,
}

impl Place {
    /// Lists the place whole, never through a link; a store has no links.
    pub async fn survey(&self) -> Result<Survey, PlaceError> {
        match self {
            Place::Folder(root) => {
                let root = root.clone();
                tokio::task::spawn_blocking(move || survey_local(&root))
                    .await
                    .map_err(|e| PlaceError::new(self.shown(), Operation::List, e))
            }
            Place::Store(_) => {
                // A store has no links and no folders of its own to refuse.
                let mut names = self.list().await?;
                names.sort();
                Ok(Survey {
                    names,
                    ..Survey::default()
                })
            }
        }
    }
}

fn survey_local(root: &Path) -> Survey {
    let mut survey = Survey::default();
    let mut folders: Vec<(PathBuf, String)> = vec![(root.to_path_buf(), String::new())];
    while let Some((folder, relative)) = folders.pop() {
        let shown = |name: &str| match relative.as_str() {
            "" => name.to_owned(),
            _ => format!("{relative}/{name}"),
        };
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && relative.is_empty() => continue,
            Err(e) => {
                survey
                    .unreadable
                    .push((folder_name(&relative), e.to_string()));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    survey
                        .unreadable
                        .push((folder_name(&relative), e.to_string()));
                    continue;
                }
            };
            let path = shown(&entry.file_name().to_string_lossy());
            match entry.file_type() {
                Ok(kind) if kind.is_symlink() => survey.links.push(path),
                Ok(kind) if kind.is_dir() => folders.push((entry.path(), path)),
                Ok(_) => survey.names.push(path),
                Err(e) => survey.unreadable.push((path, e.to_string())),
            }
        }
    }
    survey.names.sort();
    survey.links.sort();
    survey
}

fn folder_name(relative: &str) -> String {
    match relative {
        "" => ".".to_owned(),
        _ => format!("{relative}/"),
    }
}

/// The first link among the folders of `name` below `root`, and `name`
/// itself: a writer refuses to go through it.
pub(crate) fn link_on_the_way(root: &Path, name: &str) -> Option<String> {
    let mut path = root.to_path_buf();
    let mut shown = Vec::new();
    for part in name.split('/').filter(|p| !p.is_empty()) {
        path.push(part);
        shown.push(part);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => return Some(shown.join("/")),
            Ok(_) => {}
            // Not there yet: nothing below it is a link either.
            Err(_) => return None,
        }
    }
    None
}

#[cfg(test)]
#[path = "survey_tests.rs"]
mod tests;
