use std::fs;

use super::*;

fn read(path: &Path) -> Result<Option<(Fetched, Vec<CurveQuotation>)>, String> {
    super::read(&Files::Folder, path)
}

fn write(path: &Path, fetched: &Fetched, curves: &[CurveQuotation]) -> io::Result<()> {
    super::write(&Files::Folder, path, fetched, curves)
}

fn curves() -> Vec<CurveQuotation> {
    let filters: BTreeMap<String, String> = [
        ("vertical".into(), "Jet".into()),
        ("region".into(), "AG".into()),
    ]
    .into();
    vec![
        CurveQuotation {
            id: Some("c1".into()),
            name: Some("Jet Fob AG".into()),
            quotation: Some("Fob".into()),
            units: Some("$/mt".into()),
            filters: Some(filters),
            properties: Some(BTreeMap::new()),
            contracts: Some(vec!["Jan 25".into(), "Q1 25".into()]),
        },
        CurveQuotation {
            id: Some("c2".into()),
            name: None,
            quotation: None,
            units: None,
            filters: None,
            properties: None,
            contracts: None,
        },
    ]
}

#[test]
fn a_catalogue_reads_back_as_it_was_fetched() {
    let dir = std::env::temp_dir().join(format!("mc-catalogue-{}", std::process::id()));
    let path = dir.join("catalogue").join("all.parquet");
    assert_eq!(read(&path), Ok(None));
    let fetched = Fetched {
        query: "".into(),
        service_time: "2025-06-13T17:00:00Z".parse().unwrap(),
        local_time: Utc::now(),
    };
    write(&path, &fetched, &curves()).unwrap();
    assert_eq!(read(&path), Ok(Some((fetched, curves()))));

    fs::write(&path, b"PAR1 not really").unwrap();
    assert!(read(&path).is_err());
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_catalogue_expires_at_the_refresh_on_the_services_clock() {
    // Fetched just now from a service whose clock says Tuesday 03:00, long
    // ago: on its clock the next refresh (Wednesday 02:30) is a day away.
    let fetched = Fetched {
        query: "".into(),
        service_time: "2025-06-17T03:00:00Z".parse().unwrap(),
        local_time: Utc::now(),
    };
    assert!(!fetched.expired(None));
    // The service's clock has moved on a day since (as its answers say).
    let offset = fetched.service_time - fetched.local_time;
    assert!(fetched.expired(Some(offset + TimeDelta::days(1))));
    // On this machine's clock, it expired long ago.
    assert!(fetched.expired(Some(TimeDelta::zero())));
}
