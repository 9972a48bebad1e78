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

/// A page of a walk: `records` records, of which the decoder kept `kept`.
fn walked(records: usize, kept: &[u32], next: Option<usize>) -> DecodedPage<u32> {
    DecodedPage {
        items: kept.to_vec(),
        records,
        next: next.map(|page| format!("https://svc/v2/x?page={page}&pageSize=100")),
        last: None,
    }
}

fn walk(pages: Vec<DecodedPage<u32>>) -> Vec<u32> {
    walk_result(pages).unwrap()
}

fn walk_result(pages: Vec<DecodedPage<u32>>) -> Result<Vec<u32>, ClientError> {
    let pages = std::sync::Mutex::new(pages.into_iter());
    let fetch = |_page: usize, _size: usize| {
        let page = pages
            .lock()
            .unwrap()
            .next()
            .expect("no page asked beyond the last");
        async move { Ok(page) }
    };
    let first = walked(1, &[1], Some(2));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(walk_next("GET /x", first, fetch, &Progress::default()))
}

#[test]
fn a_walk_goes_on_past_pages_whose_records_were_all_left_out() {
    // A backfill keeps only values after a time: early pages keep none.
    let pages = vec![
        walked(100, &[], Some(3)),
        walked(100, &[4], Some(4)),
        walked(3, &[5, 6], None),
    ];
    assert_eq!(walk(pages), [1, 4, 5, 6]);
}

#[test]
fn a_walk_ends_at_a_page_without_records_whatever_its_next_link() {
    let pages = vec![walked(100, &[2], Some(3)), walked(0, &[], Some(4))];
    assert_eq!(walk(pages), [1, 2]);
}

/// The message of a `ClientError::Service`, which the error must be.
pub(crate) fn service_message(error: ClientError) -> String {
    match error {
        ClientError::Service { message, .. } => message,
        other => panic!("not a service error: {other:?}"),
    }
}

#[test]
fn a_next_link_that_does_not_move_forward_is_an_error_not_a_loop() {
    // Page 2 names itself as the next: a loop that once sent 100,000 requests.
    let error = walk_result(vec![walked(100, &[2], Some(2))]).unwrap_err();
    assert!(service_message(error).contains("the pages loop"));
    let error = walk_result(vec![walked(100, &[2], Some(1))]).unwrap_err();
    assert!(service_message(error).contains("names page 1"));
}

#[test]
fn pages_past_the_limit_are_an_error_not_a_result_cut_short() {
    let error = walk_result(vec![walked(100, &[2], Some(MAX_PAGES + 1))]).unwrap_err();
    assert!(service_message(error).contains("past the limit"));
    assert!(within_limit("GET /x", MAX_PAGES).is_ok());
}
