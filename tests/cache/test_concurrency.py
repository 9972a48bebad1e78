"""Many writers on one cache folder: processes and threads pulling the same
and overlapping ranges at once all get the uncached tables, the files they
leave serve later pulls with no request, and no temporary file is left."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from cache_helpers import (
    HANG_GUARD,
    SUMMER,
    TWO,
    assert_same_table,
    count_requests,
    race,
    race_job,
    temporaries,
)

#: (method, start, end, tenors): the same ranges and overlapping ones, of
#: both histories, the settlements over more than one file's days.
PULLS = [
    ("settlements", "2025-01-01", "2025-03-31", SUMMER),
    ("settlements", "2025-02-15", "2025-05-30", SUMMER),
    ("settlements", "2025-01-01", "2025-06-12", SUMMER),
    ("intraday_history", "2025-06-02", "2025-06-06", TWO),
    ("intraday_history", "2025-06-05", "2025-06-12", TWO),
]


def test_two_processes_racing_on_one_cache_get_the_uncached_tables(em, cache_dir, curve, tmp_path):
    jobs = [
        race_job(em, cache_dir, curve, PULLS, ["use", "refresh", "use"], tmp_path, "a"),
        race_job(em, cache_dir, curve, PULLS[::-1], ["use", "use", "refresh"], tmp_path, "b"),
    ]
    # Both start pulling at once.
    for report in race(jobs):
        assert report == {"pulls": 3 * len(PULLS), "failures": []}

    assert not temporaries(cache_dir)
    with em.client(cache_dir=cache_dir) as client:
        for method, start, end, tenors in PULLS:
            pull = getattr(client, method)
            got, sent = count_requests(
                em, lambda p=pull, s=start, e=end, t=tenors: p(curve, s, e, t)
            )
            assert sent.total == 0, (method, start, end, sent)
            assert_same_table(
                got, pull(curve, start, end, tenors, cache="off"), f"{method} {start}"
            )


@pytest.fixture(scope="module")
def expected(em, curve) -> dict[tuple, object]:
    with em.client() as client:
        return {p: getattr(client, p[0])(curve, *p[1:3], list(p[3])) for p in _hashable(PULLS)}


def _hashable(pulls: list) -> list[tuple]:
    return [(m, s, e, tuple(t)) for m, s, e, t in pulls]


def test_threads_racing_on_one_cache_get_the_uncached_tables(em, cache_dir, curve, expected):
    # Eight threads share one client; eight more have a client each.
    shared, threads = em.client(cache_dir=cache_dir), 16
    start = threading.Barrier(threads)

    def worker(seed: int) -> list[tuple[tuple, object]]:
        client = shared if seed < threads // 2 else em.client(cache_dir=cache_dir)
        pulls = _hashable(PULLS)
        order = pulls[seed % len(pulls) :] + pulls[: seed % len(pulls)]
        start.wait(HANG_GUARD)
        try:
            # Some threads then rewrite the files while the others read them.
            modes = ("use", "refresh") if seed % 4 == 0 else ("use",)
            return [
                (p, getattr(client, p[0])(curve, *p[1:3], list(p[3]), cache=mode))
                for mode in modes
                for p in order
            ]
        finally:
            if client is not shared:
                client.close()

    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(worker, seed) for seed in range(threads)]
        results = [pair for f in futures for pair in f.result(timeout=HANG_GUARD)]
    shared.close()
    assert len(results) == (threads + threads // 4) * len(PULLS)
    for pull, table in results:
        assert_same_table(table, expected[pull], f"{pull[:3]}")  # type: ignore[arg-type]
    assert not temporaries(cache_dir)

    with em.client(cache_dir=cache_dir) as client:
        for pull in expected:
            _, sent = count_requests(
                em, lambda p=pull: getattr(client, p[0])(curve, *p[1:3], list(p[3]))
            )
            assert sent.total == 0, (pull, sent)
