use std::cell::RefCell;

use super::*;
use crate::rest::paging::tests::service_message;

const MS: Micros = 1_000;

/// A paged resource of `count` values a millisecond apart (and 1 µs past
/// it, as intraday times carry microseconds), in pages of `size`.
struct Server {
    values: Vec<(Micros, f64)>,
    size: usize,
    with_last: bool,
    asked: RefCell<Vec<usize>>,
}

impl Server {
    fn new(count: i64, size: usize, newest_first: bool, with_last: bool) -> Server {
        let mut values: Vec<(Micros, f64)> = (1..=count).map(|i| (i * MS + 1, i as f64)).collect();
        if newest_first {
            values.reverse();
        }
        Server {
            values,
            size,
            with_last,
            asked: RefCell::default(),
        }
    }

    fn link(&self, page: usize) -> String {
        format!("https://x/v2/p?page={page}&pageSize={}", self.size)
    }

    /// Page `page` as the service would serve it (any page size asked for
    /// is answered with the server's own).
    fn page(&self, page: usize) -> TimedPage {
        self.asked.borrow_mut().push(page);
        let pages = self.values.len().div_ceil(self.size).max(1);
        let start = (page - 1) * self.size;
        let values: Vec<_> = self
            .values
            .iter()
            .skip(start)
            .take(self.size)
            .copied()
            .collect();
        TimedPage {
            records: values.len(),
            values,
            next: (page < pages).then(|| self.link(page + 1)),
            last: self.with_last.then(|| self.link(pages)),
        }
    }

    fn read(&self, after: Micros) -> Since {
        self.read_from(after, None).0
    }

    fn read_from(&self, after: Micros, hint: Option<PageHint>) -> (Since, Option<PageHint>) {
        read_pages(after, hint, |page| self.page(page)).unwrap()
    }

    fn asked(&self) -> Vec<usize> {
        self.asked.borrow().clone()
    }
}

fn times(since: &Since) -> Vec<Micros> {
    let mut times: Vec<Micros> = since.values.iter().map(|(at, _)| at / MS).collect();
    times.sort();
    times
}

#[test]
fn oldest_first_pages_are_read_from_the_last_back_to_the_gap() {
    let server = Server::new(1_000, 100, false, true);
    let since = server.read(985 * MS);
    assert_eq!(times(&since), (985..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![1, 10], "the first page, then the last");
    assert!(since.reaches_back);
    assert_eq!(since.earliest, Some(MS + 1));

    // A gap across a page boundary reads the page before the last too.
    let server = Server::new(1_000, 100, false, true);
    let since = server.read(880 * MS);
    assert_eq!(times(&since), (880..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![1, 10, 9]);
}

#[test]
fn newest_first_pages_are_walked_until_one_reaches_back() {
    let server = Server::new(1_000, 100, true, true);
    let since = server.read(950 * MS);
    assert_eq!(times(&since), (950..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![1], "the newest page holds the gap");

    let server = Server::new(1_000, 100, true, false);
    let since = server.read(850 * MS);
    assert_eq!(times(&since), (850..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![1, 2]);
}

#[test]
fn a_gap_older_than_every_value_reads_every_page_and_does_not_reach_back() {
    for newest_first in [false, true] {
        let server = Server::new(250, 100, newest_first, true);
        let since = server.read(0);
        assert_eq!(times(&since), (1..=250).collect::<Vec<_>>());
        assert_eq!(server.asked().len(), 3);
        assert!(!since.reaches_back);
    }
}

#[test]
fn oldest_first_without_a_last_link_walks_every_page() {
    let server = Server::new(250, 100, false, false);
    let since = server.read(240 * MS);
    assert_eq!(times(&since), (240..=250).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![1, 2, 3]);
}

#[test]
fn pages_in_no_order_are_all_read() {
    let mut server = Server::new(300, 100, false, true);
    // The last page (values 201..=300) comes out of order within itself.
    server.values[250..300].reverse();
    let since = server.read(290 * MS);
    assert_eq!(times(&since), (290..=300).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![1, 3, 2]);

    // Each page in order, but the pages themselves shuffled.
    let mut server = Server::new(300, 100, false, true);
    server.values.rotate_left(100);
    let since = server.read(50 * MS);
    assert_eq!(times(&since), (50..=300).collect::<Vec<_>>());
    let mut asked = server.asked();
    asked.sort();
    assert_eq!(asked, vec![1, 2, 3]);
}

#[test]
fn a_single_page_is_one_request_whatever_its_order() {
    for newest_first in [false, true] {
        let server = Server::new(40, 100, newest_first, true);
        let since = server.read(35 * MS);
        assert_eq!(times(&since), (35..=40).collect::<Vec<_>>());
        assert_eq!(server.asked(), vec![1]);
    }
}

#[test]
fn times_are_compared_truncated_to_milliseconds() {
    // The value at 985.001 ms is the one the feed printed as 985 ms.
    let server = Server::new(1_000, 100, false, true);
    let since = server.read(985 * MS);
    assert!(since.values.contains(&(985 * MS + 1, 985.0)));
    let server = Server::new(1_000, 100, false, true);
    assert!(server
        .read(985 * MS + 999)
        .values
        .contains(&(985 * MS + 1, 985.0)));
}

const fn hint(page: usize) -> Option<PageHint> {
    Some(PageHint { page, size: 100 })
}

#[test]
fn an_oldest_first_read_tells_where_the_newest_values_were() {
    let server = Server::new(1_000, 100, false, true);
    assert_eq!(server.read_from(985 * MS, None).1, hint(10));
    let server = Server::new(1_000, 100, true, true);
    assert_eq!(
        server.read_from(985 * MS, None).1,
        None,
        "newest first needs none"
    );
}

#[test]
fn a_read_from_a_sibling_s_hint_takes_one_request() {
    let server = Server::new(1_000, 100, false, true);
    let (since, learned) = server.read_from(985 * MS, hint(10));
    assert_eq!(times(&since), (985..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![10]);
    assert_eq!(learned, hint(10));

    // A gap reaching back past the hinted page reads the pages before it.
    let server = Server::new(1_000, 100, false, true);
    let (since, _) = server.read_from(880 * MS, hint(10));
    assert_eq!(times(&since), (880..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![10, 9]);
}

#[test]
fn a_stale_hint_follows_the_next_links_to_the_newest_page() {
    let server = Server::new(1_000, 100, false, true);
    let (since, learned) = server.read_from(850 * MS, hint(9));
    assert_eq!(times(&since), (850..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![9, 10]);
    assert_eq!(learned, hint(10));
}

#[test]
fn a_hint_the_pages_do_not_keep_sends_the_read_back_to_page_one() {
    // Past the last page: an empty page.
    let server = Server::new(1_000, 100, false, true);
    let (since, _) = server.read_from(985 * MS, hint(12));
    assert_eq!(times(&since), (985..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![12, 1, 10]);
    // Another order than the sibling's.
    let server = Server::new(1_000, 100, true, true);
    let (since, _) = server.read_from(985 * MS, hint(10));
    assert_eq!(times(&since), (985..=1_000).collect::<Vec<_>>());
    assert_eq!(server.asked(), vec![10, 1]);
}

/// A read from `after` of the pages `pages` serves, whatever size is asked.
fn read_pages(
    after: Micros,
    hint: Option<PageHint>,
    pages: impl Fn(usize) -> TimedPage,
) -> Result<(Since, Option<PageHint>), ClientError> {
    let fetch = |page: usize, _size: usize| {
        let page = pages(page);
        async move { Ok(page) }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(values_since("GET /p", after, hint, fetch))
}

#[test]
fn a_looping_next_link_is_an_error() {
    // Newest first, every page naming page 1 as the next.
    let error = read_pages(0, None, |page| TimedPage {
        values: vec![(10 * MS - page as i64, 1.0), (MS, 1.0)],
        records: 2,
        next: Some("https://x/v2/p?page=1&pageSize=2".into()),
        last: None,
    })
    .unwrap_err();
    assert!(service_message(error).contains("the pages loop"));
}

#[test]
fn a_last_link_past_the_page_limit_is_an_error() {
    let error = read_pages(0, None, |_| TimedPage {
        values: vec![(MS, 1.0), (2 * MS, 2.0)],
        records: 2,
        next: Some("https://x/v2/p?page=2&pageSize=2".into()),
        last: Some(format!("https://x/v2/p?page={}&pageSize=2", MAX_PAGES + 1)),
    })
    .unwrap_err();
    assert!(service_message(error).contains("past the limit"));
}
