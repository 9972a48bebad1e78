use super::*;
use crate::storage::test_places::{both, runtime, scratch};

#[test]
fn writes_are_whole_and_listed_relative_to_the_destination() {
    runtime().block_on(async {
        for dest in both("dest-basic") {
            dest.prepare().await.unwrap();
            let name = "date=2025-11-24/part-a.parquet";
            dest.put(name, Bytes::from_static(b"first")).await.unwrap();
            dest.put(name, Bytes::from_static(b"second")).await.unwrap();
            dest.put("_status.json", Bytes::from_static(b"{}"))
                .await
                .unwrap();
            assert_eq!(dest.get(name).await.unwrap().unwrap(), "second");
            assert_eq!(dest.get("date=2025-11-24/none").await.unwrap(), None);
            let mut names = dest.list().await.unwrap();
            names.sort();
            assert_eq!(names, vec!["_status.json".to_string(), name.to_string()]);
            dest.delete(name).await.unwrap();
            dest.delete(name).await.unwrap();
            assert_eq!(dest.list().await.unwrap(), vec!["_status.json".to_string()]);
        }
    });
}

#[test]
fn a_large_file_goes_up_in_parts_and_reads_back_whole() {
    runtime().block_on(async {
        let dest = crate::storage::test_places::in_memory();
        let big: Vec<u8> = (0..PART_SIZE * 2 + 17).map(|i| (i % 251) as u8).collect();
        dest.put("big", Bytes::from(big.clone())).await.unwrap();
        assert_eq!(dest.get("big").await.unwrap().unwrap(), big);
    });
}

#[test]
fn temporary_files_of_a_killed_run_are_removed_on_prepare() {
    runtime().block_on(async {
        let root = scratch("dest-temporaries");
        let folder = root.join("date=2025-11-24");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(".part-x.parquet.1-2.tmp"), b"half").unwrap();
        std::fs::write(folder.join("part-x.parquet"), b"whole").unwrap();
        let dest = Place::Folder(root);
        dest.prepare().await.unwrap();
        assert_eq!(
            dest.list().await.unwrap(),
            vec!["date=2025-11-24/part-x.parquet".to_string()]
        );
    });
}

#[test]
fn a_failed_write_names_the_destination_and_the_file() {
    runtime().block_on(async {
        let root = scratch("dest-refused");
        std::fs::create_dir_all(&root).unwrap();
        // A file where the day's folder should be: no write can succeed.
        std::fs::write(root.join("date=2025-11-24"), b"in the way").unwrap();
        let dest = Place::Folder(root.clone());
        let error = dest
            .put("date=2025-11-24/part-a.parquet", Bytes::from_static(b"x"))
            .await
            .unwrap_err();
        assert!(error.to_string().contains("cannot write"), "{error}");
        assert!(
            error.to_string().contains(&root.display().to_string()),
            "{error}"
        );
        assert!(error.to_string().contains("part-a.parquet"), "{error}");
    });
}
