"""The plots given bad input raise InvalidRequest naming the problem, before
drawing; without matplotlib they say what to install; ``import
marketcurves`` imports none of matplotlib, pandas or polars; and they draw
without a display."""

from __future__ import annotations

import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import marketcurves as mc


def invalid(run, *words):
    with pytest.raises(mc.InvalidRequest) as caught:
        run()
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_empty_tables(settlements, intraday, tenor):
    empty = settlements.slice(0, 0)
    invalid(lambda: mc.plot.forward_curve(empty), "table", "empty")
    invalid(lambda: mc.plot.curve_history(empty), "table", "empty")
    invalid(lambda: mc.plot.heatmap(empty), "table", "empty")
    invalid(
        lambda: mc.plot.settlements_and_intraday(empty, intraday, tenor), "settlements", "empty"
    )
    invalid(
        lambda: mc.plot.settlements_and_intraday(settlements, intraday.slice(0, 0), tenor),
        "intraday",
        "empty",
    )


def test_a_tenor_missing_from_either_table(settlements, intraday, curve):
    absent = curve.contracts[-1]
    invalid(
        lambda: mc.plot.settlements_and_intraday(settlements, intraday, absent),
        "intraday",
        repr(absent),
    )
    invalid(
        lambda: mc.plot.settlements_and_intraday(settlements, intraday, "Jan 30"),
        "settlements",
        "'Jan 30'",
    )
    invalid(lambda: mc.plot.settlements_and_intraday(settlements, intraday, 5), "tenor")


def test_several_curves_where_one_is_drawn(client, jet, settlements, intraday, tenor):
    other = client.settlements(jet[1], "2025-06-10", "2025-06-12")
    both = pa.concat_tables([settlements, other])
    for plot in (mc.plot.forward_curve, mc.plot.curve_history, mc.plot.heatmap):
        invalid(lambda p=plot: p(both), "2 curves", jet[0].id, jet[1].id, plot.__name__)
    invalid(lambda: mc.plot.settlements_and_intraday(other, intraday, tenor), "different curves")


def test_several_units(settlements, intraday, tenor):
    half = settlements.num_rows // 2
    units = pa.array(["$/mt"] * half + ["c/gal"] * (settlements.num_rows - half))
    mixed = settlements.set_column(settlements.column_names.index("units"), "units", units)
    invalid(
        lambda: mc.plot.forward_curve(mixed, on="2025-05-02"), "units", "$/mt", "c/gal", "convert"
    )
    cents = intraday.set_column(
        intraday.column_names.index("units"), "units", pa.array(["c/gal"] * intraday.num_rows)
    )
    invalid(
        lambda: mc.plot.settlements_and_intraday(settlements, cents, tenor), "units", "intraday"
    )


def test_a_day_the_table_lacks_and_bad_arguments(settlements):
    invalid(
        lambda: mc.plot.forward_curve(settlements, on="2025-05-03"),
        "2025-05-03",
        "2025-05-02",
        "2025-06-12",
    )
    invalid(lambda: mc.plot.curve_history(settlements, ["2025-06-12", "2024-01-01"]), "2024-01-01")
    invalid(lambda: mc.plot.curve_history(settlements, []), "dates")
    invalid(lambda: mc.plot.forward_curve(settlements, on="June"), "on")
    invalid(lambda: mc.plot.forward_curve(settlements.to_pylist()), "pyarrow.Table", "list")
    invalid(lambda: mc.plot.forward_curve(settlements.drop_columns(["price"])), "price")
    invalid(lambda: mc.plot.forward_curve(settlements, ax="axes"), "ax")


def test_a_record_batch_and_a_polars_frame_are_tables_too(settlements):
    day = pc.max(settlements["date"]).as_py()
    batch = settlements.combine_chunks().to_batches()[0]
    assert len(mc.plot.forward_curve(batch).get_lines()[0].get_ydata()) > 0
    frame = mc.to_polars(settlements)
    assert str(day) in mc.plot.forward_curve(frame).get_title()


def test_without_matplotlib_a_plot_says_what_to_install(settlements, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError) as caught:
        mc.plot.forward_curve(settlements)
    assert "pip install 'marketcurves[plot]'" in str(caught.value)
    assert caught.value.name == "matplotlib"


def test_importing_the_package_imports_no_optional_library():
    code = "import sys, marketcurves as mc; mc.plot; mc.to_polars; print(sorted({m.split('.')[0] for m in sys.modules} & {'matplotlib', 'pandas', 'polars', 'numpy', 'tqdm'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_png_files_without_a_display(settlements, intraday, tenor, tmp_path):
    pq.write_table(settlements, tmp_path / "s.parquet")
    pq.write_table(intraday, tmp_path / "i.parquet")
    code = f"""
import pyarrow.parquet as pq, marketcurves as mc
s, i = pq.read_table({str(tmp_path / "s.parquet")!r}), pq.read_table({str(tmp_path / "i.parquet")!r})
for name, ax in [("forward", mc.plot.forward_curve(s)), ("history", mc.plot.curve_history(s)),
                 ("heatmap", mc.plot.heatmap(s)), ("tenor", mc.plot.settlements_and_intraday(s, i, {tenor!r}))]:
    ax.figure.savefig({str(tmp_path)!r} + "/" + name + ".png")
import matplotlib; print(matplotlib.get_backend())
"""
    # No display, and no backend chosen: matplotlib must fall back to Agg.
    hidden = ("DISPLAY", "MPLBACKEND", "WAYLAND_DISPLAY")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().lower() == "agg"
    for name in ("forward", "history", "heatmap", "tenor"):
        assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
