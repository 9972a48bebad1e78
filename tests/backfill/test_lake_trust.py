"""A lake tampered with: ``mc.check_lake`` sees across days and files, and a
backfill run again trusts no footer its rows do not bear out, sets aside what
it cannot read, never goes through a link, keeps one spelling of a tenor and
says when it marks days complete that hold no value."""

from __future__ import annotations

import datetime as dt
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from backfill_helpers import FIRST, LAST, curve_and_tenors, intraday_requests, lake_rows, values

import marketcurves as mc


def _only(folder):
    (one,) = list(folder.glob("backfill-*.parquet"))
    return one


def test_a_lake_tampered_with_is_reported_and_a_rerun_repairs_it(em, tmp_path):
    lake, clean = tmp_path / "lake", tmp_path / "clean"
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 2)
        pairs = [(curve_id, t) for t in tenors]
        client.backfill(lake, pairs, FIRST, LAST)
        assert mc.check_lake(lake).ok
        # A day lost; a day's file replaced by another day's copy; a file cut
        # to half its rows by another tool, its footer's note kept (its rows
        # are by tenor: the second tenor's day is lost).
        shutil.rmtree(lake / "date=2025-05-07")
        lost = _only(lake / "date=2025-05-14")
        lost.unlink()
        copy = lake / "date=2025-05-14" / _only(lake / "date=2025-05-15").name
        shutil.copy(_only(lake / "date=2025-05-15"), copy)
        cut = _only(lake / "date=2025-05-21")
        table = pq.read_table(cut)
        note = {k: v for k, v in pq.read_metadata(cut).metadata.items() if b"marketcurves" in k}
        pq.write_table(table.slice(0, table.num_rows // 2).replace_schema_metadata(note), cut)

        report = mc.check_lake(lake)
        assert not report.ok
        missing = {d.isoformat() for t in report.tenors for d in t["missing_days"]}
        assert missing == {"2025-05-07", "2025-05-14", "2025-05-21"}
        assert [m["file"] for m in report.misfiled] == [f"date=2025-05-14/{copy.name}"]
        assert {h["day"].isoformat() for h in report.held_twice} == {"2025-05-15"}
        untrue = {u["file"].split("/")[0] for u in report.untrue_notes}
        assert untrue == {"date=2025-05-14", "date=2025-05-21"}

        before = intraday_requests(em)
        again = client.backfill(lake, pairs, FIRST, LAST)
        assert intraday_requests(em) > before and again.files_written >= 3
        assert mc.check_lake(lake).ok, mc.check_lake(lake)
        client.backfill(clean, pairs, FIRST, LAST)
        assert values(mc.read_ticks(lake)) == values(mc.read_ticks(clean))
        assert lake_rows(lake) == lake_rows(clean)


def test_the_check_names_foreign_names_links_and_nan_prices(em, tmp_path):
    lake, elsewhere = tmp_path / "lake", tmp_path / "elsewhere"
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        client.backfill(lake, [(curve_id, tenors[0])], "2025-06-02", "2025-06-05")
    (lake / "date=2025-13-01").mkdir()
    (lake / "date=2025-13-01" / "x.parquet").write_bytes(b"x")
    (lake / "date=2025-06-02" / "other.parquet").write_bytes(b"x")
    shutil.move(lake / "date=2025-06-04", elsewhere)
    os.symlink(elsewhere, lake / "date=2025-06-04")
    os.symlink(tmp_path / "nowhere", lake / "date=2025-06-02" / "gone.parquet")
    day = lake / "date=2025-06-03"
    table = pq.read_table(_only(day))
    prices = pa.array([float("nan")] * table.num_rows, pa.float64())
    nan = table.set_column(table.schema.get_field_index("price"), "price", prices)
    pq.write_table(nan, day / "part-20250603T235959.000000Z-x-000001.parquet")

    report = mc.check_lake(lake)
    assert not report.ok
    assert sorted(f["file"] for f in report.foreign) == [
        "date=2025-06-02/other.parquet",
        "date=2025-13-01/x.parquet",
    ]
    assert "date=YYYY-MM-DD" in report.foreign[1]["reason"]
    assert report.links == ["date=2025-06-02/gone.parquet", "date=2025-06-04"]
    assert [(n["tenor"], n["day"], n["values"]) for n in report.nan_prices] == [
        (tenors[0], dt.date(2025, 6, 3), table.num_rows)
    ]
    assert set(mc.check_lake(lake).to_dict()) >= {"foreign", "links", "nan_prices"}


def test_an_unreadable_file_is_set_aside_and_its_day_fetched_again(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        pairs = [(curve_id, tenors[0])]
        client.backfill(tmp_path, pairs, "2025-06-02", "2025-06-05")
        expected = values(mc.read_ticks(tmp_path))
        broken = _only(tmp_path / "date=2025-06-03")
        broken.write_bytes(b"not parquet")
        foreign = _only(tmp_path / "date=2025-06-04")
        pq.write_table(pa.table({"x": [1, 2]}), foreign)
        with pytest.warns(UserWarning, match="set aside 2 file"):
            again = client.backfill(tmp_path, pairs, "2025-06-02", "2025-06-05")
        names = sorted(n.split("/", 1)[1] for n in again.set_aside)
        assert names == sorted([f"{broken.name}.corrupt", f"{foreign.name}.corrupt"])
        assert (tmp_path / "date=2025-06-03" / f"{broken.name}.corrupt").read_bytes() == (
            b"not parquet"
        )
        assert values(mc.read_ticks(tmp_path)) == expected
        report = mc.check_lake(tmp_path)
        assert len(report.foreign) == 2 and "set aside" in report.foreign[0]["reason"]


def test_a_backfill_refuses_a_link_in_its_range_and_sends_nothing(em, tmp_path):
    lake, elsewhere = tmp_path / "lake", tmp_path / "elsewhere"
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        pairs = [(curve_id, tenors[0])]
        client.backfill(lake, pairs, "2025-06-02", "2025-06-03")
        shutil.move(lake / "date=2025-06-03", elsewhere)
        os.symlink(elsewhere, lake / "date=2025-06-03")
        held = sorted(p.name for p in elsewhere.iterdir())
        before = intraday_requests(em)
        with pytest.raises(mc.InvalidRequest, match="date=2025-06-03"):
            client.backfill(lake, pairs, "2025-06-02", "2025-06-05")
        assert intraday_requests(em) == before
        assert sorted(p.name for p in elsewhere.iterdir()) == held
        assert mc.check_lake(lake).links == ["date=2025-06-03"]
        # Outside the range, a link is none of the backfill's business.
        client.backfill(lake, pairs, "2025-06-04", "2025-06-05")


def test_a_tenor_in_another_letter_case_lands_under_its_listed_name(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        client.backfill(tmp_path, [(curve_id, tenors[0].lower())], "2025-06-02", "2025-06-03")
        assert set(mc.read_ticks(tmp_path).column("tenor").to_pylist()) == {tenors[0]}
        again = client.backfill(tmp_path, [(curve_id, tenors[0])], "2025-06-02", "2025-06-03")
        assert again.requests == 0 and again.days_skipped == 2


def test_days_marked_complete_without_a_value_are_named_and_warned_of(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        with pytest.warns(UserWarning, match="no value"):
            summary = client.backfill(tmp_path, [(curve_id, tenors[0])], "2016-06-06", "2016-06-10")
        assert summary.values == 0 and summary.days_complete == 5
        assert summary.empty == [(curve_id, tenors[0], dt.date(2016, 6, 6), dt.date(2016, 6, 10))]
