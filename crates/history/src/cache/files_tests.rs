use object_store::path::Path as StorePath;

use super::*;

/// A folder's files (under a fresh scratch folder) and a store's (under a
/// prefix of an in-memory store), with the root of each one's paths.
pub(crate) fn both(name: &str) -> Vec<(Files, PathBuf)> {
    let folder = test_support::scratch(&format!("cache-files-{name}"));
    let store = Location {
        store: test_support::in_memory_store(),
        prefix: StorePath::from("desk/cache"),
        shown: "memory://desk/cache".into(),
    };
    vec![
        (Files::Folder, folder),
        (Files::Store(store), PathBuf::new()),
    ]
}

fn put(files: &Files, path: &Path, how: Put, text: &str) -> Written {
    files
        .write(path, how, |out| out.write_all(text.as_bytes()))
        .unwrap()
}

#[test]
fn a_file_is_created_once_and_replaced_only_when_asked() {
    for (files, root) in both("create") {
        let path = root
            .join("v1")
            .join("a")
            .join("2025-01-01_2025-01-31.parquet");
        assert_eq!(files.read(&path).unwrap(), None);
        assert_eq!(put(&files, &path, Put::Create, "first"), Written::Whole);
        let second = put(&files, &path, Put::Create, "second");
        let kept = files.read(&path).unwrap().unwrap();
        if files.is_store() {
            // The race's loser is told, and its copy dropped.
            assert_eq!(second, Written::Lost);
            assert_eq!(kept.as_ref(), b"first");
        } else {
            // A folder renames over the file, as it always has.
            assert_eq!(second, Written::Whole);
            assert_eq!(kept.as_ref(), b"second");
        }
        assert_eq!(put(&files, &path, Put::Replace, "third"), Written::Whole);
        assert_eq!(files.read(&path).unwrap().unwrap().as_ref(), b"third");
        files.delete(&path).unwrap();
        files.delete(&path).unwrap();
        assert_eq!(files.read(&path).unwrap(), None);
    }
}

#[test]
fn a_listing_gives_back_the_names_the_files_were_made_with() {
    for (files, root) in both("names") {
        let tenor = root.join("settlements").join("c%2F1").join("Jan%2025");
        put(&files, &tenor.join("a_b.parquet"), Put::Create, "x");
        put(&files, &tenor.join("deeper").join("c"), Put::Create, "yz");
        let mut found = files.walk(&root.join("settlements"));
        found.sort_by(|a, b| a.names.cmp(&b.names));
        let names: Vec<_> = found.iter().map(|f| f.names.join("/")).collect();
        assert_eq!(
            names,
            ["c%2F1/Jan%2025/a_b.parquet", "c%2F1/Jan%2025/deeper/c"]
        );
        assert_eq!(found[0].path, tenor.join("a_b.parquet"));
        assert_eq!((found[0].bytes, found[1].bytes), (1, 2));
        // The listed path reads the file.
        assert!(files.read(&found[0].path).unwrap().is_some());
        let direct: Vec<_> = files.list(&tenor).into_iter().map(|f| f.names).collect();
        assert_eq!(direct, [vec!["a_b.parquet".to_owned()]]);
        assert!(files.list(&root.join("none")).is_empty());
    }
}
