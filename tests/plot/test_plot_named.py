"""Plots of the client's tables name the curve and its units without
``curve=``, from the curves the table names in its schema metadata; a table
naming none (from elsewhere) is titled with the curve's id, as before."""

from __future__ import annotations

import marketcurves as mc


def test_a_client_table_is_titled_with_its_curve_name_and_units(settlements, curve):
    ax = mc.plot.forward_curve(settlements)
    assert ax.get_title().splitlines()[-1] == curve.name
    assert ax.get_ylabel() == f"price ({curve.units})"
    ax = mc.plot.heatmap(settlements)
    assert ax.get_title().splitlines()[-1] == curve.name


def test_a_built_curve_carries_the_name_and_units(settlements, curve):
    built = mc.curves.build(settlements.slice(0, 40))
    ax = mc.plot.forward_curve(built)
    assert ax.get_title().splitlines()[-1] == curve.name
    assert ax.get_ylabel() == f"price ({curve.units})"


def test_intraday_values_and_settlements_are_titled_with_the_name(
    settlements, intraday, tenor, curve
):
    ax = mc.plot.settlements_and_intraday(settlements, intraday, tenor)
    assert ax.get_title().splitlines()[-1] == curve.name


def test_a_dataframe_of_to_pandas_keeps_the_name(settlements, curve):
    frame = mc.to_pandas(settlements, nested="drop")
    if not hasattr(frame, "__arrow_c_stream__"):
        # pandas before 2.2 is no Arrow stream: plots take the table.
        return
    ax = mc.plot.forward_curve(frame)
    assert ax.get_title().splitlines()[-1] == curve.name


def test_a_table_naming_no_curve_is_titled_with_the_id(settlements, curve):
    bare = settlements.replace_schema_metadata({})
    ax = mc.plot.forward_curve(bare)
    assert ax.get_title().splitlines()[-1] == curve.id
    assert ax.get_ylabel() == f"price ({curve.units})"
