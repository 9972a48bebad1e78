use super::*;
use crate::storage::test_places::{runtime, scratch};

#[test]
fn links_are_named_not_followed_and_never_written_or_deleted_through() {
    runtime().block_on(async {
        let root = scratch("survey");
        let elsewhere = scratch("survey-elsewhere");
        std::fs::create_dir_all(root.join("date=2025-06-02")).unwrap();
        std::fs::write(root.join("date=2025-06-02/a.parquet"), b"x").unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("b.parquet"), b"y").unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join("date=2025-06-03")).unwrap();
        std::os::unix::fs::symlink(
            elsewhere.join("b.parquet"),
            root.join("date=2025-06-02/c.parquet"),
        )
        .unwrap();
        let place = Place::Folder(root.clone());
        let survey = place.survey().await.unwrap();
        assert_eq!(survey.names, ["date=2025-06-02/a.parquet"]);
        assert_eq!(
            survey.links,
            ["date=2025-06-02/c.parquet", "date=2025-06-03"]
        );
        assert!(survey.unreadable.is_empty());

        let through = place
            .put(
                "date=2025-06-03/new.parquet",
                bytes::Bytes::from_static(b"z"),
            )
            .await
            .unwrap_err();
        assert!(
            through
                .to_string()
                .contains("date=2025-06-03 is a symbolic link"),
            "{through}"
        );
        assert!(!elsewhere.join("new.parquet").exists());
        let through = place.delete("date=2025-06-03/b.parquet").await.unwrap_err();
        assert!(through.to_string().contains("symbolic link"), "{through}");
        assert!(elsewhere.join("b.parquet").exists());
        let link = place.delete("date=2025-06-02/c.parquet").await.unwrap_err();
        assert!(
            link.to_string()
                .contains("date=2025-06-02/c.parquet is a symbolic link"),
            "{link}"
        );
        // Beside the links, the place is written as ever.
        place
            .put(
                "date=2025-06-04/new.parquet",
                bytes::Bytes::from_static(b"z"),
            )
            .await
            .unwrap();
    });
}
