use super::*;

#[test]
fn reads_page_and_size_from_links() {
    let link = "https://svc/v2/ongoing/intraday/x/Jan%2025?page=7&pageSize=100";
    assert_eq!(link_paging(link), Some((7, Some(100))));
    assert_eq!(
        link_paging("https://svc/v2/catalogue?pageSize=50&page=2"),
        Some((2, Some(50)))
    );
    assert_eq!(
        link_paging("https://svc/v2/catalogue?page=3"),
        Some((3, None))
    );
    assert_eq!(link_paging("https://svc/v2/catalogue"), None);
    assert_eq!(link_paging("https://svc/v2/catalogue?page=x"), None);
}
