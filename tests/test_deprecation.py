"""Options once taken by position keep working for one release: the old
form gives what the new form gives, with a ``DeprecationWarning`` that
writes the new form out (``marketcurves._deprecation``)."""

from __future__ import annotations

import inspect
import warnings

import pyarrow as pa
import pytest
from support import BULK_TIME_SCALE

import marketcurves as mc
from marketcurves._deprecation import positional_options


@positional_options("poll_interval", "timeout")
def download(dest: str, *, poll_interval: float = 2.0, timeout: float = 60.0) -> tuple:
    return dest, poll_interval, timeout


class Job:
    @positional_options("progress")
    def fetch(self, dest: str, *, progress: bool = False, limit: int = 1) -> tuple:
        return dest, progress, limit


def test_the_new_form_gives_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert download("d", timeout=5.0) == ("d", 2.0, 5.0)
        assert Job().fetch("d", progress=True) == ("d", True, 1)


def test_the_old_form_works_and_names_the_new_one() -> None:
    with pytest.warns(DeprecationWarning) as caught:
        assert download("d", 0.5) == ("d", 0.5, 60.0)
    assert str(caught[0].message) == (
        "download() takes poll_interval by keyword only: write download(dest, poll_interval=...). "
        "Passing it by position is deprecated and stops working in the next release."
    )
    assert caught[0].filename == __file__, "the warning names the caller's line"
    with pytest.warns(DeprecationWarning, match=r"write download\(dest, poll_interval=\.\.\., "):
        assert download("d", 0.5, 9.0) == ("d", 0.5, 9.0)
    with pytest.warns(DeprecationWarning, match=r"write Job.fetch\(dest, progress=\.\.\.\)"):
        assert Job().fetch("d", True, limit=3) == ("d", True, 3)


def test_more_or_doubled_arguments_are_refused_as_python_refuses_them() -> None:
    with pytest.raises(TypeError, match=r"at most 3 positional arguments \(4 given\)"):
        download("d", 0.5, 9.0, 1)
    with pytest.raises(TypeError, match="multiple values for argument 'poll_interval'"):
        download("d", 0.5, poll_interval=1.0)
    with pytest.raises(TypeError, match="progress is not keyword-only"):

        @positional_options("progress")
        def positional(dest: str, progress: bool = False) -> None: ...


def test_signatures_show_the_new_form() -> None:
    assert str(inspect.signature(download)) == (
        "(dest: 'str', *, poll_interval: 'float' = 2.0, timeout: 'float' = 60.0) -> 'tuple'"
    )
    client = inspect.signature(mc.Client)
    assert (
        next(p.name for p in client.parameters.values() if p.kind is p.KEYWORD_ONLY) == "live_url"
    )


# The public calls the rule changed, written the old way.


def test_a_client_made_the_old_way(em) -> None:
    with pytest.warns(DeprecationWarning, match=r"write Client\(base_url, live_url=\.\.\., token="):
        client = mc.Client(em.base_url, em.live_url, em.token())
    with client:
        assert client.live_url == em.live_url
        assert client.catalogue(vertical="Jet")


def test_bulk_downloads_the_old_way(fresh_em, tmp_path) -> None:
    fresh_em.time_scale = BULK_TIME_SCALE
    with fresh_em.client() as client:
        new = client.bulk_download(
            "Jet", "2025-01", "2025-01", tmp_path / "new", poll_interval=0.05
        )
        with pytest.warns(
            DeprecationWarning,
            match=r"bulk_download\(vertical, start, end, dest, progress=\.\.\.\)",
        ):
            old = client.bulk_download(
                "Jet", "2025-01", "2025-01", tmp_path / "old", False, poll_interval=0.05
            )
        assert old.rows == new.rows > 0
        job = client.bulk_submit("Jet", "2025-01", "2025-01")
        with pytest.warns(DeprecationWarning, match=r"BulkJob.wait\(poll_interval=\.\.\.\)"):
            job.wait(0.05)
        with pytest.warns(DeprecationWarning, match=r"BulkJob.download\(dest, progress=\.\.\.\)"):
            again = job.download(tmp_path / "job", False)
        assert again.rows == new.rows


def test_the_live_feed_read_the_old_way(em) -> None:
    with em.client() as client:
        with pytest.warns(DeprecationWarning, match=r"Client.live\(backfill=\.\.\.\)"):
            feed = client.live(False)
        with feed:
            with pytest.warns(DeprecationWarning, match=r"LiveFeed.next\(timeout=\.\.\.\)"):
                assert feed.next(0) is None
            with pytest.warns(DeprecationWarning, match=r"LiveFeed.batches\(max_rows=\.\.\.\)"):
                batches = feed.batches(5)
            feed.close()
            assert list(batches) == []


def test_tables_converted_the_old_way() -> None:
    table = pa.table(
        {
            "curve_id": ["c"],
            "tenor": ["Jan 26"],
            "generated_on": pa.array([0], pa.timestamp("us", tz="UTC")),
            "price": [10.0],
            "units": ["$/mt"],
        }
    )
    pytest.importorskip("pandas")
    with pytest.warns(DeprecationWarning, match=r"to_pandas\(table, nested=\.\.\.\)"):
        old = mc.to_pandas(table, "drop")
    assert old.equals(mc.to_pandas(table, nested="drop"))
    with pytest.warns(DeprecationWarning, match=r"convert\(table, to=\.\.\., factor=\.\.\.\)"):
        converted = mc.curves.convert(table, "$/bbl", 7.45)
    assert converted.equals(mc.curves.convert(table, to="$/bbl", factor=7.45))
