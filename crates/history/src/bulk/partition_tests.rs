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

#[test]
fn names_taken_in_a_partition_get_a_suffix() {
    let mut taken = std::collections::HashSet::new();
    let names: Vec<String> = [
        "a.parquet",
        "a.parquet",
        "A.parquet",
        "a-1.parquet",
        "b.parquet",
    ]
    .into_iter()
    .map(|n| unique_name(n.to_owned(), &mut taken))
    .collect();
    assert_eq!(
        names,
        [
            "a.parquet",
            "a-1.parquet",
            "A-2.parquet",
            "a-1-1.parquet",
            "b.parquet"
        ]
    );
}
