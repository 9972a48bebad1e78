"""Every tool, called through the SDK's client over stdio, against the
library's own answer to the same question: the numbers must be equal.
One server for the module (``session``), its cache in the environment."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import marketcurves as mc

JET = "Jet Fob AG"
DAY = "2025-06-12"
WEEK = ("2025-06-02", "2025-06-12")
NAMES = {"find_curves", "describe_curve", "forward_curve", "price_history", "spread", "build_curve"}


@pytest.fixture(scope="module")
def jet(library: mc.Client) -> mc.Curve:
    return next(c for c in library.catalogue() if c.name == JET)


@pytest.fixture(scope="module")
def crude(library: mc.Client) -> mc.Curve:
    return next(
        c
        for c in library.catalogue(vertical="Crude")
        if c.units == "$/bbl" and "Aug 25" in c.contracts
    )


def column(rows: list[dict], name: str) -> list:
    return [row[name] for row in rows]


def test_every_tool_is_listed_read_only_with_its_schemas(session):
    tools = {tool.name: tool for tool in session.tools()}
    assert set(tools) == NAMES
    for tool in tools.values():
        assert tool.input_schema["type"] == "object" and tool.input_schema["properties"]
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert tool.annotations.read_only_hint is True
        assert tool.description


def test_find_curves_ranks_the_curve_named_first(session, library, jet):
    found = session.ok("find_curves", {"query": "jet fob ag", "limit": 3})
    assert found["curves"][0]["id"] == jet.id
    assert found["curves"][0]["units"] == jet.units
    assert len(found["curves"]) == 3 and found["matches"] >= 3
    only = session.ok(
        "find_curves", {"query": "", "vertical": "jet", "quotation": "FOB", "limit": 50}
    )
    expected = library.catalogue(vertical="Jet", quotation="Fob")
    assert {c["id"] for c in only["curves"]} == {c.id for c in expected}


def test_describe_curve_lists_the_contracts_in_calendar_order(session, jet):
    described = session.ok("describe_curve", {"curve": jet.id})
    assert (described["name"], described["units"]) == (jet.name, jet.units)
    assert column(described["contracts"], "tenor") == [t.name for t in jet.tenors]
    july = next(c for c in described["contracts"] if c["tenor"] == "Jul 25")
    assert (july["kind"], july["start"], july["end"]) == ("month", "2025-07-01", "2025-07-31")
    assert sum(described["kinds"].values()) == len(jet.contracts)


def test_forward_curve_is_todays_settlement_by_default(session, library, jet):
    shown = session.ok("forward_curve", {"curve": JET})
    today = library.last_settlement(jet)
    months = today.filter(pc.equal(today["tenor_kind"].cast(pa.string()), "month"))
    expected = dict(zip(months["tenor"].to_pylist(), months["price"].to_pylist(), strict=True))
    assert (
        dict(zip(column(shown["rows"], "tenor"), column(shown["rows"], "price"), strict=True))
        == expected
    )
    assert shown["units"] == jet.units and shown["date"] == "2025-06-13"
    assert shown["rows"][0]["generated_on"].endswith("Z")


def test_forward_curve_on_a_date_with_kinds(session, library, jet):
    shown = session.ok("forward_curve", {"curve": JET, "date": DAY, "kinds": ["quarter", "month"]})
    wanted = [
        t for t in jet.contracts if mc.Tenor.parse(t, strict=False).kind in ("month", "quarter")
    ]
    table = library.settlements(jet, DAY, DAY, wanted)
    expected = dict(zip(table["tenor"].to_pylist(), table["price"].to_pylist(), strict=True))
    assert (
        dict(zip(column(shown["rows"], "tenor"), column(shown["rows"], "price"), strict=True))
        == expected
    )
    assert column(shown["rows"], "tenor") == [t.name for t in sorted(map(mc.Tenor, expected))]


def test_price_history_settlements_equal_the_librarys(session, library, jet):
    shown = session.ok(
        "price_history",
        {"curve": JET, "start": WEEK[0], "end": WEEK[1], "tenors": ["Jul 25", "Q3 25"]},
    )
    table = library.settlements(jet, *WEEK, ["Jul 25", "Q3 25"])
    assert column(shown["rows"], "price") == table["price"].to_pylist()
    assert column(shown["rows"], "tenor") == table["tenor"].to_pylist()
    assert column(shown["rows"], "date") == [d.isoformat() for d in table["date"].to_pylist()]
    assert shown["units"] == jet.units and shown["row_count"] == table.num_rows


def test_a_rolling_front_month_equals_curves_rolling(session, library, jet):
    shown = session.ok(
        "price_history",
        {"curve": JET, "start": "2025-05-01", "end": DAY, "nearby": [1, 2], "roll_days": 2},
    )
    history = library.settlements(jet, "2025-05-01", DAY, "all")
    expected = mc.curves.rolling(history, nearby=[1, 2], roll_days=2)
    assert column(shown["rows"], "M1") == expected["M1"].to_pylist()
    assert column(shown["rows"], "M2") == expected["M2"].to_pylist()
    assert shown["columns"] == ["date", "M1", "M2"]


def test_a_calendar_spread_equals_curves_spread(session, library, jet):
    shown = session.ok(
        "spread", {"curve": JET, "start": WEEK[0], "end": WEEK[1], "near": "M1", "far": "M2"}
    )
    expected = mc.curves.spread(library.settlements(jet, *WEEK, "all"), "M1", "M2")
    assert column(shown["rows"], "spread") == expected["spread"].to_pylist()
    assert column(shown["rows"], "near") == expected["near"].to_pylist()


def test_a_crack_converts_units_as_curves_crack(session, library, jet, crude):
    args = {
        "curve": JET,
        "against": crude.id,
        "start": WEEK[0],
        "end": WEEK[1],
        "tenors": ["Aug 25"],
    }
    shown = session.ok("spread", args)
    legs = [library.settlements(c, *WEEK, ["Aug 25"]) for c in (jet, crude)]
    expected = mc.curves.crack(*legs, units="$/bbl", factor=jet, crude_factor=crude)
    assert column(shown["rows"], "spread") == expected["crack"].to_pylist()
    assert column(shown["rows"], "curve") == expected["product"].to_pylist()
    assert shown["units"] == "$/bbl"


def test_build_curve_above_max_rows_is_a_summary_and_a_parquet_resource(
    session, library, jet, server_dir
):
    shown = session.ok("build_curve", {"curve": JET, "date": DAY})
    tenors = [t for t in jet.contracts if mc.Tenor.parse(t, strict=False).kind != "continuous"]
    expected = mc.curves.build(library.settlements(jet, DAY, DAY, tenors)).select(
        ["delivery", "forward"]
    )
    assert expected.num_rows > 500  # the server's default --max-rows
    assert "rows" not in shown and shown["row_count"] == expected.num_rows
    summary = shown["summary"]
    assert summary["min"]["forward"] == pc.min(expected["forward"]).as_py()
    assert summary["max"]["forward"] == pc.max(expected["forward"]).as_py()
    assert summary["last"]["delivery"] == expected["delivery"][-1].as_py().isoformat()
    uri = shown["resource"]["uri"]
    assert uri in {r.uri for r in session.resources()}
    assert session.read_table(uri).equals(expected)
    # Private to the user: the folder 0700, each file 0600.
    (folder,) = (server_dir / "tmp").glob("marketcurves-mcp-*")
    assert folder.stat().st_mode & 0o777 == 0o700
    files = list(folder.glob("*.parquet"))
    assert files and all(f.stat().st_mode & 0o777 == 0o600 for f in files)


def test_intraday_above_max_rows_summarizes_each_tenor(session, library, jet):
    args = {
        "curve": JET,
        "start": WEEK[0],
        "end": WEEK[1],
        "tenors": ["Jul 25", "Aug 25"],
        "intraday": True,
    }
    shown = session.ok("price_history", args)
    table = library.intraday_history(jet, *WEEK, ["Jul 25", "Aug 25"])
    assert shown["row_count"] == table.num_rows > 500
    for tenor in ("Jul 25", "Aug 25"):
        rows = table.filter(pc.equal(table["tenor"], tenor))
        assert shown["summary"]["last_by_series"][tenor]["price"] == rows["price"][-1].as_py()
    saved = session.read_table(shown["resource"]["uri"])
    assert saved["price"].to_pylist() == table["price"].to_pylist()
