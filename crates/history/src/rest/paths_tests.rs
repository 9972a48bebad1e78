use super::*;

#[test]
fn tenors_and_ids_are_encoded_as_one_path_segment() {
    let path = price_path(
        PriceEndpoint::HistoricalSettlements,
        "abc-1",
        Some("26-EOM Feb 24"),
    );
    assert_eq!(path, "/historical/settlements/abc-1/26-EOM%20Feb%2024");
    let odd = price_path(PriceEndpoint::LastSettlement, "a/b?c", Some("x+y"));
    assert_eq!(odd, "/ongoing/last-settlement/a%2Fb%3Fc/x%2By");
    assert_eq!(
        price_path(PriceEndpoint::LastAssessmentsAll, "id", None),
        "/ongoing/last-assessments/id"
    );
}
