"""Daily forward curves and their residuals: answers worked out by hand, a
dense solve of the same problem with numpy, properties over random
contracts, and the emulator's settlements of several curves and dates."""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict

import numpy as np
import pyarrow as pa
import pytest
from curves_helpers import (
    TODAY,
    business_days,
    column,
    delivery_days,
    dense_smooth,
    kept,
    settlements,
)

import marketcurves as mc

ON = "2024-12-02"
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
WINDOWS = ["1-5", "6-10", "11-15", "16-20", "21-25", "26-EOM"]


def _forward(table: pa.Table) -> np.ndarray:
    return np.array(column(table, "forward"))


def _contracts(rows: list[tuple[str, float]]) -> list[tuple[dt.date, dt.date, float]]:
    out = []
    for name, price in rows:
        tenor = mc.Tenor.parse(name)
        out.append((tenor.start, tenor.end, price))
    return out


def test_months_of_one_price_make_a_flat_curve() -> None:
    table = settlements([("a", t, ON, 70.0) for t in ("Jan 25", "Feb 25", "C 00")])
    for method in ("smooth", "flat"):
        out = mc.curves.build(table, method=method)
        assert out.column_names == ["curve_id", "date", "delivery", "forward"]
        assert out.schema.field("delivery").type == pa.date32()
        assert column(out, "delivery") == delivery_days(dt.date(2025, 1, 1), dt.date(2025, 2, 28))
        assert set(column(out, "date")) == {dt.date(2024, 12, 2)}
        np.testing.assert_allclose(_forward(out), 70.0, rtol=0, atol=1e-9)


def test_a_single_contract_is_flat_at_its_price() -> None:
    out = mc.curves.build(settlements([("a", "Q3 25", ON, 64.5)]))
    assert out.num_rows == 92
    np.testing.assert_allclose(_forward(out), 64.5, rtol=0, atol=1e-9)


def test_a_linear_trend_is_followed_and_flattens_at_the_far_end() -> None:
    # Twelve months priced on a line rising a dollar a month.
    table = settlements([("a", f"{m} 25", ON, 60.0 + i) for i, m in enumerate(MONTHS)])
    built = mc.curves.build(table)
    smooth, days = _forward(built), column(built, "delivery")
    assert np.all(np.diff(smooth[:-1]) > 0) and smooth[-1] == smooth[-2]
    # The flat curve steps up a dollar on each first of the month.
    flat = _forward(mc.curves.build(table, method="flat"))
    steps = np.flatnonzero(np.diff(flat)) + 1
    assert [days[i].day for i in steps] == [1] * 11
    np.testing.assert_allclose(flat[steps] - flat[steps - 1], 1.0)
    # The smooth curve runs through the steps: on the 15th it is within ten
    # cents of its month's price, but in December, where it flattens.
    middles = [i for i, d in enumerate(days) if d.day == 15 and d.month < 12]
    np.testing.assert_allclose(smooth[middles], 60.0 + np.arange(11), atol=0.1)


def test_a_quarter_covered_by_its_months_is_left_out_with_its_residual() -> None:
    months = [("a", "Jan 25", ON, 60.0), ("a", "Feb 25", ON, 62.0), ("a", "Mar 25", ON, 61.0)]
    with_quarter = settlements([*months, ("a", "Q1 25", ON, 65.0)])
    for method in ("smooth", "flat"):
        built = mc.curves.build(with_quarter, method=method)
        alone = mc.curves.build(settlements(months), method=method)
        assert built.equals(alone)
        out = mc.curves.residuals(with_quarter, built)
        assert out.column_names == ["curve_id", "date", "tenor", "price", "mean", "residual"]
        assert column(out, "tenor") == ["Jan 25", "Q1 25", "Feb 25", "Mar 25"]
        mean = (60 * 31 + 62 * 28 + 61 * 31) / 90
        assert column(out, "mean")[1] == pytest.approx(mean, abs=1e-9)
        assert column(out, "residual") == pytest.approx([0, 65 - mean, 0, 0], abs=1e-9)


def test_windows_inside_months() -> None:
    rows = [("1-5 Jan 25", 58.0), ("6-10 Jan 25", 59.0), ("Jan 25", 60.0), ("Feb 25", 63.0)]
    table = settlements([("a", t, ON, p) for t, p in rows])
    flat = _forward(mc.curves.build(table, method="flat"))
    rest = (31 * 60 - 5 * 58 - 5 * 59) / 21
    np.testing.assert_allclose(flat, [58] * 5 + [59] * 5 + [rest] * 21 + [63] * 28)
    built = mc.curves.build(table)
    np.testing.assert_allclose(column(mc.curves.residuals(table, built), "residual"), 0, atol=1e-9)
    days, reference = dense_smooth(_contracts(rows))
    assert column(built, "delivery") == days
    np.testing.assert_allclose(_forward(built), reference, rtol=0, atol=1e-8)


def test_days_between_contracts_are_on_the_curve() -> None:
    # No contract for March and April, nor for July to September.
    rows = [("Jan 25", 70.0), ("Feb 25", 71.0), ("May 25", 66.0), ("Jun 25", 67.5), ("Q4 25", 65.0)]
    table = settlements([("a", t, ON, p) for t, p in rows])
    built = mc.curves.build(table)
    days, reference = dense_smooth(_contracts(rows))
    assert column(built, "delivery") == days
    np.testing.assert_allclose(_forward(built), reference, rtol=0, atol=1e-8)
    # The flat curve holds each contract's price across the gap after it.
    flat = mc.curves.build(table, method="flat")
    value = dict(zip(column(flat, "delivery"), column(flat, "forward"), strict=True))
    assert value[dt.date(2025, 3, 15)] == 71.0 and value[dt.date(2025, 8, 1)] == 67.5


def test_business_weights_with_a_holiday() -> None:
    # January 2025 starts on a Wednesday, a holiday here: 22 business days,
    # two of them (Thursday 2 and Friday 3) in the first window.
    table = settlements([("a", "1-5 Jan 25", ON, 60.0), ("a", "Jan 25", ON, 62.0)])
    holidays = [dt.date(2025, 1, 1)]
    flat = _forward(mc.curves.build(table, method="flat", weights="business", holidays=holidays))
    # The other 20 business days: (22 * 62 - 2 * 60) / 20, weekends alike.
    np.testing.assert_allclose(flat, [60.0] * 5 + [62.2] * 26, rtol=0, atol=1e-12)
    built = mc.curves.build(table, weights="business", holidays=["2025-01-01"])
    assert built.num_rows == 31
    out = mc.curves.residuals(table, built, weights="business", holidays=holidays)
    np.testing.assert_allclose(column(out, "residual"), 0, atol=1e-9 * 62)
    # Averaged over every day instead, the window's price is missed.
    assert abs(column(mc.curves.residuals(table, built), "residual")[0]) > 1e-3
    _, reference = dense_smooth(
        _contracts([("1-5 Jan 25", 60.0), ("Jan 25", 62.0)]),
        business_days(dt.date(2025, 1, 1), dt.date(2025, 1, 31), holidays),
    )
    np.testing.assert_allclose(_forward(built), reference, rtol=0, atol=1e-8)


def test_prices_keyed_by_time_build_a_curve_per_time() -> None:
    times = [
        dt.datetime(2025, 1, 3, 16, 30, tzinfo=dt.UTC),
        dt.datetime(2025, 1, 3, 16, 31, tzinfo=dt.UTC),
    ]
    table = pa.table(
        {
            "curve_id": ["a", "a", "a"],
            "tenor": ["Feb 25", "Feb 25", "Mar 25"],
            "generated_on": pa.array([times[0], times[1], times[1]], pa.timestamp("us", tz="UTC")),
            "price": [70.0, 71.0, 72.0],
        }
    )
    out = mc.curves.build(table)
    assert out.column_names == ["curve_id", "generated_on", "delivery", "forward"]
    assert out.num_rows == 28 + 59
    assert column(mc.curves.residuals(table, out), "residual") == pytest.approx([0, 0, 0], abs=1e-9)


# Random tables: months from a random month on, perhaps a quarter, perhaps
# some windows of the first month, for two curves at three dates each.


def _random_contracts(rng: random.Random) -> list[tuple[str, float]]:
    first = rng.randrange(24)
    count = rng.randrange(1, 13)
    names = [f"{MONTHS[m % 12]} {25 + m // 12}" for m in range(first, first + count)]
    if rng.random() < 0.5:
        names.append(f"Q{first % 12 // 3 + 1} {25 + first // 12}")
    month = f"{MONTHS[first % 12]} {25 + first // 12}"
    names += [f"{w} {month}" for w in WINDOWS[: rng.randrange(7)]]
    return [(n, rng.uniform(20, 120)) for n in names]


def _random_table(rng: random.Random) -> tuple[pa.Table, dict[tuple[str, str], list]]:
    groups = {}
    for curve in ("a", "b"):
        for date in ("2024-12-02", "2024-12-03", "2024-12-04"):
            groups[(curve, date)] = _random_contracts(rng)
    rows = [(c, t, d, p) for (c, d), contracts in groups.items() for t, p in contracts]
    rng.shuffle(rows)
    return settlements(rows), groups


@pytest.mark.parametrize("seed", range(12))
def test_random_contracts_are_met_stable_and_built_alone(seed: int) -> None:
    rng = random.Random(seed)
    table, groups = _random_table(rng)
    method = rng.choice(["smooth", "flat"])
    weights = rng.choice(["calendar", "business"])
    holidays = [dt.date(2025, 1, 1), dt.date(2025, 12, 25)] if weights == "business" else None
    built = mc.curves.build(table, method=method, weights=weights, holidays=holidays)
    assert built.equals(mc.curves.build(table, method=method, weights=weights, holidays=holidays))
    out = mc.curves.residuals(table, built, weights=weights, holidays=holidays).to_pylist()
    assert len(out) == table.num_rows
    by_key: dict[tuple[str, str], list] = defaultdict(list)
    for row in out:
        by_key[(row["curve_id"], row["date"].isoformat())].append(row)
    for key, contracts in groups.items():
        keep = kept(_contracts(contracts))
        residual = {r["tenor"]: (r["residual"], r["price"]) for r in by_key[key]}
        for (name, _), k in zip(contracts, keep, strict=True):
            r, price = residual[name]
            if k:
                assert abs(r) <= 1e-9 * abs(price), (key, name, r)
        alone = settlements([(key[0], t, key[1], p) for t, p in contracts])
        one = mc.curves.build(alone, method=method, weights=weights, holidays=holidays)
        mine = built.filter(
            pa.compute.and_(
                pa.compute.equal(built["curve_id"], key[0]),
                pa.compute.equal(built["date"], pa.scalar(dt.date.fromisoformat(key[1]))),
            )
        )
        assert mine.equals(one), key


@pytest.mark.parametrize("seed", range(6))
def test_smooth_curves_equal_a_dense_solve(seed: int) -> None:
    rng = random.Random(100 + seed)
    contracts = _random_contracts(rng)
    holidays = [dt.date(2025, 1, 1), dt.date(2025, 4, 18), dt.date(2025, 12, 25)]
    business = rng.random() < 0.5
    table = settlements([("a", t, ON, p) for t, p in contracts])
    if business:
        built = mc.curves.build(table, weights="business", holidays=holidays)
    else:
        built = mc.curves.build(table)
    parsed = _contracts(contracts)
    span = (min(c[0] for c in parsed), max(c[1] for c in parsed))
    days, reference = dense_smooth(parsed, business_days(*span, holidays) if business else None)
    assert column(built, "delivery") == days
    np.testing.assert_allclose(_forward(built), reference, rtol=0, atol=1e-8)


def test_two_years_of_months_equal_a_dense_solve() -> None:
    rng = random.Random(7)
    names = [f"{MONTHS[m % 12]} {25 + m // 12}" for m in range(24)]
    contracts = [(n, 70 + 8 * np.sin(i / 2) + rng.gauss(0, 1)) for i, n in enumerate(names)]
    built = mc.curves.build(settlements([("a", t, ON, p) for t, p in contracts]))
    days, reference = dense_smooth(_contracts(contracts))
    assert len(days) == 730
    np.testing.assert_allclose(_forward(built), reference, rtol=0, atol=1e-8)


def test_settlements_of_several_curves_and_dates(client, crude, gasoline_cents) -> None:
    history = pa.concat_tables(
        [client.settlements(c, "2025-06-02", TODAY) for c in (crude, gasoline_cents)]
    )
    built = mc.curves.build(history)
    dates = sorted(set(column(history, "date")))
    keys = set(zip(column(built, "curve_id"), column(built, "date"), strict=True))
    assert keys == {(c.id, d) for c in (crude, gasoline_cents) for d in dates}
    out = mc.curves.residuals(history, built)
    assert out.num_rows == sum(1 for t in column(history, "tenor") if mc.Tenor.parse(t).start)
    groups: dict[tuple[str, dt.date], list] = defaultdict(list)
    for row in out.to_pylist():
        groups[(row["curve_id"], row["date"])].append(row)
    left_out = 0
    for rows in groups.values():
        keep = kept(_contracts([(r["tenor"], r["price"]) for r in rows]))
        for row, k in zip(rows, keep, strict=True):
            if k:
                assert abs(row["residual"]) <= 1e-9 * abs(row["price"]), row
            left_out += not k
    # The emulator lists quarters beside their months, and windows beside
    # the prompt month: those are left out.
    assert left_out > len(groups)
    # Each curve and date's curve runs from its contracts' first day to their last.
    spans = built.group_by(["curve_id", "date"]).aggregate(
        [("delivery", "min"), ("delivery", "max"), ("delivery", "count")]
    )
    for row in spans.to_pylist():
        parsed = _contracts(
            [(r["tenor"], r["price"]) for r in groups[(row["curve_id"], row["date"])]]
        )
        assert row["delivery_min"] == min(c[0] for c in parsed)
        assert row["delivery_max"] == max(c[1] for c in parsed)
        assert row["delivery_count"] == (row["delivery_max"] - row["delivery_min"]).days + 1


def test_tables_that_went_through_pandas_are_read_alike() -> None:
    table = settlements([("a", "Jan 25", ON, 60.0), ("a", "Feb 25", ON, 61.0)])
    built = mc.curves.build(table)
    again = pa.Table.from_pandas(table.to_pandas(), preserve_index=False)
    assert mc.curves.build(again).equals(built)
    through = pa.Table.from_pandas(mc.to_pandas(built), preserve_index=False)
    assert column(mc.curves.residuals(again, through), "residual") == pytest.approx([0, 0])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: mc.curves.build(t, method="spline"), 'unknown method "spline"'),
        (lambda t: mc.curves.build(t, weights="trading"), 'unknown weights "trading"'),
        (lambda t: mc.curves.build(t, holidays=["2025-01-01"]), "holidays only apply"),
        (
            lambda t: mc.curves.build(t, weights="business", holidays="LME"),
            "unknown calendar 'LME'.* IFEU",
        ),
        (lambda t: mc.curves.build(t, holidays="data"), "holidays only apply"),
        (lambda t: mc.curves.residuals(t, t, holidays="IFEU"), "holidays only apply"),
        (lambda t: mc.curves.build(t, weights="business", holidays=3), "holidays must be a list"),
        (
            lambda t: mc.curves.build(t, weights="business", holidays=["Jan 1"]),
            "holidays must be an ISO date",
        ),
        (lambda t: mc.curves.build(t, method=1), "method must be"),
        (lambda t: mc.curves.build(t.drop_columns(["price"])), 'no column "price"'),
        (lambda t: mc.curves.build(t.to_pylist()), "must be an Arrow table"),
        (lambda t: mc.curves.residuals(t, t), 'built has no column "delivery"'),
        (lambda t: mc.curves.residuals(t, None), "built must be an Arrow table"),
    ],
)
def test_bad_input_is_an_invalid_request_naming_it(call, message) -> None:
    table = settlements([("a", "Jan 25", ON, 60.0), ("a", "Feb 25", ON, 61.0)])
    with pytest.raises(mc.InvalidRequest, match=message):
        call(table)


def test_contracts_no_curve_can_meet_are_named() -> None:
    same = settlements([("a", "Jan 25", ON, 60.0), ("a", "JAN 25", ON, 61.0)])
    with pytest.raises(mc.InvalidRequest, match='"JAN 25" and "Jan 25" of curve a at 2024-12-02'):
        mc.curves.build(same)
    # 26-28 February 2022: a Saturday, a Sunday and, here, a holiday.
    holidays = ["2022-02-28"]
    empty = settlements([("a", "26-EOM Feb 22", "2022-01-04", 60.0)])
    with pytest.raises(mc.InvalidRequest, match=r'"26-EOM Feb 22" of curve a .* no business day'):
        mc.curves.build(empty, weights="business", holidays=holidays)
    # The quarter's only days the others leave are those three: the months
    # and windows fix its mean, and another price cannot be met.
    rows = [("Jan 22", 70.0), ("Mar 22", 72.0), ("Q1 22", 75.0)]
    rows += [(f"{w} Feb 22", 71.0) for w in WINDOWS[:5]]
    table = settlements([("a", t, "2022-01-04", p) for t, p in rows])
    for method in ("smooth", "flat"):
        with pytest.raises(
            mc.InvalidRequest, match=r"curve a at 2022-01-04 cannot all be met.*Q1 22"
        ):
            mc.curves.build(table, method=method, weights="business", holidays=holidays)
    built = mc.curves.build(settlements([("b", "Jan 25", ON, 1.0)]))
    with pytest.raises(mc.InvalidRequest, match="built has no curve for a at 2024-12-02"):
        mc.curves.residuals(settlements([("a", "Jan 25", ON, 1.0)]), built)
