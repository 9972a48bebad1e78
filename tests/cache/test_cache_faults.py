"""A pull that fails keeps nothing wrong: the tenors that arrived may be
kept, the one that failed is fetched by the next pull, and a refresh that
fails leaves the cache as it was."""

from __future__ import annotations

import pytest
from cache_helpers import SUMMER, assert_same_table, count_requests, segment_files, temporaries

import marketcurves as mc

MAY = ("2025-05-01", "2025-05-31")


@pytest.fixture
def quick(fresh_em, cache_dir):
    """A client that does not retry: an injected fault is the call's error."""
    with fresh_em.client(cache_dir=cache_dir, max_retries=0) as client:
        yield client


def test_a_failed_request_is_fetched_by_the_next_pull(fresh_em, cache_dir, curve):
    # One request at a time, so the tenors run in table order (Jul 25, Q3 25,
    # Aug 25): the two before the failure arrive whole and are kept, the
    # failing one is not, and the next pull asks for it alone.
    with fresh_em.client(cache_dir=cache_dir, max_retries=0, max_concurrency=1) as client:
        client.catalogue()
        fresh_em.fail_next(1, 500, path=f"/historical/settlements/{curve}/Aug%2025")
        with pytest.raises(mc.ServiceError):
            client.settlements(curve, *MAY, SUMMER)
        assert not segment_files(cache_dir, tenor="Aug 25")
        assert segment_files(cache_dir, tenor="Jul 25") and segment_files(cache_dir, tenor="Q3 25")

        got, sent = count_requests(fresh_em, lambda: client.settlements(curve, *MAY, SUMMER))
        assert sent.settlements == 1, sent
        uncached = client.settlements(curve, *MAY, SUMMER, cache="off")
        assert_same_table(got, uncached, "after a failure")
        _, sent = count_requests(fresh_em, lambda: client.settlements(curve, *MAY, SUMMER))
        assert sent.total == 0, sent
    assert not temporaries(cache_dir)


def test_a_malformed_answer_is_not_kept(fresh_em, quick, cache_dir, curve):
    quick.catalogue()
    fresh_em.corrupt_next(1, path=f"/historical/intraday/{curve}/Aug%2025", kind="malformed")
    with pytest.raises(mc.DecodeError):
        quick.intraday_history(curve, "2025-06-09", "2025-06-12", SUMMER)
    assert not segment_files(cache_dir, "intraday", "Aug 25")
    got = quick.intraday_history(curve, "2025-06-09", "2025-06-12", SUMMER)
    uncached = quick.intraday_history(curve, "2025-06-09", "2025-06-12", SUMMER, cache="off")
    assert_same_table(got, uncached, "after a malformed answer")


def test_a_failed_refresh_leaves_the_cache_as_it_was(fresh_em, quick, cache_dir, curve):
    first = quick.settlements(curve, *MAY, SUMMER)
    fresh_em.fail_next(1, 500, path=f"/historical/settlements/{curve}/Aug%2025")
    with pytest.raises(mc.ServiceError):
        quick.settlements(curve, *MAY, SUMMER, cache="refresh")
    served, sent = count_requests(
        fresh_em, lambda: quick.settlements(curve, *MAY, SUMMER, cache="offline")
    )
    assert sent.total == 0
    assert_same_table(served, first, "after a failed refresh")


def test_a_curve_outside_the_licence_is_refused_and_nothing_kept(fresh_em, quick, cache_dir):
    sales = next(c for c in quick.catalogue() if c.quotation == "Sales" and "Jul 25" in c.contracts)
    for mode in ("use", "refresh"):
        with pytest.raises(mc.AccessDenied):
            quick.settlements(sales, *MAY, ["Jul 25"], cache=mode)
    assert not segment_files(cache_dir)
    with pytest.raises(mc.CacheMiss):
        quick.settlements(sales, *MAY, ["Jul 25"], cache="offline")
