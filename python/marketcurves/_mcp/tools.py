"""The six tools. Each resolves its curve, plans its requests (``budget``),
and takes every number from the library: ``Client.catalogue``,
``last_settlement``, ``settlements``, ``intraday_history`` and
``mc.curves`` (``rolling``, ``spread``, ``crack``, ``convert``,
``build``). Each returns its structured output and a short text."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow
import pyarrow.compute as pc

from marketcurves import curves as analytics
from marketcurves._core import Tenor
from marketcurves._mcp import inputs
from marketcurves._mcp.budget import Budget
from marketcurves._mcp.catalog import Catalog
from marketcurves._mcp.problems import ToolProblem
from marketcurves._mcp.results import Results
from marketcurves._mcp.tables import number, shaped

if TYPE_CHECKING:
    from marketcurves.catalogue import Curve
    from marketcurves.client import Client

#: A tool's answer: its structured output and its text.
Answer = tuple[dict[str, Any], str]


@dataclass
class Desk:
    """What the tools share: the client, its catalogue, the caps and the
    saved results."""

    client: Client
    catalog: Catalog
    budget: Budget
    max_rows: int
    results: Results

    def call(self, name: str, arguments: dict[str, Any]) -> Answer:
        return TOOLS[name](self, arguments)

    def curve(self, given: str) -> Curve:
        self.budget.check(self.catalog.requests(), "reading the catalogue")
        return self.catalog.curve(given)

    def table(
        self, table: pyarrow.Table, values: list[str], series: str | None, what: str
    ) -> dict[str, Any]:
        return shaped(
            table,
            values=values,
            series=series,
            max_rows=self.max_rows,
            results=self.results,
            description=what,
        )


def _brief(curve: Curve) -> dict[str, Any]:
    return {"id": curve.id, "name": curve.name, "units": curve.units}


def _tenor_row(name: str) -> dict[str, Any]:
    tenor = Tenor.parse(name, strict=False)
    start, end = getattr(tenor, "start", None), getattr(tenor, "end", None)
    return {
        "tenor": name,
        "kind": tenor.kind,
        "start": start.isoformat() if start else None,
        "end": end.isoformat() if end else None,
    }


def find_curves(desk: Desk, args: dict[str, Any]) -> Answer:
    desk.budget.check(desk.catalog.requests(), "reading the catalogue")
    found = desk.catalog.search(args["query"], args["vertical"], args["quotation"], args["region"])
    shown = [
        {
            "id": c.id,
            "name": c.name,
            "vertical": c.vertical,
            "quotation": c.quotation,
            "region": c.region,
            "units": c.units,
            "contracts": len(c.contracts),
            "score": score,
        }
        for score, c in found[: args["limit"]]
    ]
    text = f"{len(found)} curves match {args['query']!r}" + (
        "; best: " + "; ".join(f"{c['name']} ({c['units']}, id {c['id']})" for c in shown[:5])
        if shown
        else ""
    )
    return {"matches": len(found), "curves": shown}, text


def describe_curve(desk: Desk, args: dict[str, Any]) -> Answer:
    curve = desk.curve(args["curve"])
    contracts = [_tenor_row(t.name) for t in curve.tenors]
    kinds = Counter(row["kind"] for row in contracts)
    out = {
        **_brief(curve),
        "vertical": curve.vertical,
        "quotation": curve.quotation,
        "region": curve.region,
        "filters": dict(curve.filters),
        "properties": dict(curve.properties),
        "kinds": dict(kinds),
        "contracts": contracts,
    }
    listed = ", ".join(f"{n} {k}" + ("" if n == 1 else "s") for k, n in kinds.items())
    return (
        out,
        f"{curve.name} ({curve.units}), id {curve.id}: {len(contracts)} contracts ({listed})",
    )


_FORWARD = ["tenor", "tenor_kind", "tenor_start", "tenor_end", "generated_on", "price"]


def forward_curve(desk: Desk, args: dict[str, Any]) -> Answer:
    curve = desk.curve(args["curve"])
    kinds = args["kinds"] or ["month"]
    wanted = [t for t in curve.contracts if Tenor.parse(t, strict=False).kind in kinds]
    if not wanted:
        raise ToolProblem(f"{curve.name} lists no contract of the kinds {kinds}")
    if args["date"] is None:
        desk.budget.check(1, "today's settlement")
        table = desk.client.last_settlement(curve)
        if table.num_rows == 0:
            raise ToolProblem(
                f"today's settlement of {curve.name} is not published yet: give date= an earlier day"
            )
        table = table.filter(
            pc.is_in(table["tenor_kind"].cast(pyarrow.string()), pyarrow.array(kinds))
        )
    else:
        on = inputs.day(args["date"], "date")
        inputs.days(args["date"], args["date"])
        pull = functools.partial(_settlements, desk.client, curve, on, on, wanted)
        (table,) = desk.budget.run([pull], what=f"the settlements of {len(wanted)} tenors")
    if table.num_rows == 0:
        raise ToolProblem(
            f"{curve.name} has no settlement on {args['date']} (a weekend or holiday?)"
        )
    table = table.select(_FORWARD)
    names = table["tenor"].to_pylist()
    table = table.take(sorted(range(len(names)), key=lambda i: Tenor.parse(names[i], strict=False)))
    on_day = table["generated_on"][0].as_py().date().isoformat()
    out = {
        "curve": _brief(curve),
        "units": curve.units,
        "date": on_day,
        **desk.table(table, ["price"], "tenor", "forward curve"),
    }
    first, last = _first_and_last(table)
    text = (
        f"{curve.name} settlement of {on_day}, {table.num_rows} contracts in {curve.units}: "
        f"{first['tenor']} {number(first['price'])} ... {last['tenor']} {number(last['price'])}"
    )
    return out, text


def _first_and_last(table: pyarrow.Table) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table's first and last rows (it has one at least), for a tool's text."""
    return table.slice(0, 1).to_pylist()[0], table.slice(table.num_rows - 1, 1).to_pylist()[0]


def _settlements(
    client: Client, curve: Curve, start: Any, end: Any, tenors: Any, budget: int
) -> pyarrow.Table:
    return client.settlements(curve, start, end, tenors, max_requests=budget)


def _intraday(
    client: Client, curve: Curve, start: Any, end: Any, tenors: Any, budget: int
) -> pyarrow.Table:
    return client.intraday_history(curve, start, end, tenors, max_requests=budget)


def price_history(desk: Desk, args: dict[str, Any]) -> Answer:
    curve = desk.curve(args["curve"])
    start, end = inputs.days(args["start"], args["end"])
    span = f"{start} to {end}"
    if args["nearby"]:
        if args["tenors"] or args["intraday"]:
            raise ToolProblem("nearby= rolls settlements: give it without tenors= or intraday=")
        pull = functools.partial(_settlements, desk.client, curve, start, end, "all")
        (history,) = desk.budget.run([pull], what="a rolling series (every contract of the range)")
        nearby = sorted(set(args["nearby"]))
        table = analytics.rolling(history, nearby=nearby, roll_days=args["roll_days"]).drop_columns(
            ["curve_id"]
        )
        names = [c for c in table.column_names if c != "date"]
        out = {
            "curve": _brief(curve),
            "units": curve.units,
            **desk.table(table, names, None, "rolling series"),
        }
        last = table.slice(table.num_rows - 1, 1).to_pylist()[0] if table.num_rows else {}
        text = (
            f"{curve.name} rolling {', '.join(names)} ({curve.units}), {span}: {table.num_rows} days"
            + (
                f"; last {last['date']}: " + ", ".join(f"{n} {number(last[n])}" for n in names)
                if last
                else ""
            )
        )
        return out, text
    if not args["tenors"]:
        raise ToolProblem(
            "give tenors= (describe_curve lists them) or nearby=[1] for the front month"
        )
    tenors = [inputs.tenor(curve, t) for t in args["tenors"]]
    fetch = _intraday if args["intraday"] else _settlements
    kind = "intraday values" if args["intraday"] else "settlements"
    pull = functools.partial(fetch, desk.client, curve, start, end, tenors)
    (history,) = desk.budget.run([pull], what=f"the {kind} of {len(tenors)} tenors from {span}")
    keyed = (
        ["tenor", "generated_on", "price"]
        if args["intraday"]
        else ["tenor", "date", "generated_on", "price"]
    )
    table = history.select(keyed)
    out = {
        "curve": _brief(curve),
        "units": curve.units,
        **desk.table(table, ["price"], "tenor", kind),
    }
    return out, _series_text(
        table, "tenor", "price", f"{curve.name} {kind} ({curve.units}), {span}"
    )


def _series_text(table: pyarrow.Table, series: str, value: str, title: str) -> str:
    if table.num_rows == 0:
        return f"{title}: no rows (weekends and holidays have none)"
    last: dict[str, Any] = {}
    for row in table.select([series, value]).to_pylist():
        last[row[series]] = row[value]
    shown = ", ".join(f"{k} {number(v)}" for k, v in list(last.items())[:8])
    return f"{title}: {table.num_rows} rows; last {shown}"


def spread(desk: Desk, args: dict[str, Any]) -> Answer:
    curve = desk.curve(args["curve"])
    start, end = inputs.days(args["start"], args["end"])
    if args["against"] is not None:
        return _crack(desk, curve, start, end, args)
    near, far = args["near"], args["far"]
    if near is None or far is None:
        raise ToolProblem(
            "give near= and far= (tenors or positions M1, M2), or against= and tenors="
        )
    legs = [leg if inputs.position(leg) else inputs.tenor(curve, leg) for leg in (near, far)]
    tenors: Any = "all" if any(inputs.position(leg) for leg in legs) else legs
    pull = functools.partial(_settlements, desk.client, curve, start, end, tenors)
    (history,) = desk.budget.run([pull], what=f"the settlements of {near} and {far}")
    units = curve.units
    if args["units"] is not None:
        history = analytics.convert(history, to=args["units"], factor=curve)
        units = args["units"]
    table = analytics.spread(history, legs[0], legs[1], roll_days=args["roll_days"]).drop_columns(
        ["curve_id"]
    )
    out = {"curve": _brief(curve), "units": units, **desk.table(table, ["spread"], None, "spread")}
    title = f"{curve.name} {near} - {far} ({units}), {start} to {end}"
    if table.num_rows == 0:
        return out, f"{title}: no rows (weekends and holidays have none)"
    last = table.slice(table.num_rows - 1, 1).to_pylist()[0]
    held = f"{last['near']} - {last['far']}"
    return (
        out,
        f"{title}: {table.num_rows} days; last {last['date']} ({held}) {number(last['spread'])}",
    )


def _crack(desk: Desk, curve: Curve, start: Any, end: Any, args: dict[str, Any]) -> Answer:
    other = desk.catalog.curve(args["against"])
    if not args["tenors"] or args["near"] is not None or args["far"] is not None:
        raise ToolProblem(
            "against= takes tenors= (the same tenors of both curves), not near= or far="
        )
    tenors = [inputs.tenor(curve, t) for t in args["tenors"]]
    pulls = [
        functools.partial(_settlements, desk.client, c, start, end, tenors) for c in (curve, other)
    ]
    legs = desk.budget.run(pulls, what=f"the settlements of {len(tenors)} tenors of both curves")
    units = args["units"] or "$/bbl"
    crack = analytics.crack(legs[0], legs[1], units=units, factor=curve, crude_factor=other)
    table = crack.rename_columns(
        ["tenor", "date", "curve", "against", "spread", "units"]
    ).drop_columns(["units"])
    title = f"{curve.name} - {other.name} ({units}), {start} to {end}"
    out = {
        "curve": _brief(curve),
        "against": _brief(other),
        "units": units,
        **desk.table(table, ["curve", "against", "spread"], "tenor", "spread between curves"),
    }
    return out, _series_text(table, "tenor", "spread", title)


def build_curve(desk: Desk, args: dict[str, Any]) -> Answer:
    curve = desk.curve(args["curve"])
    on = inputs.day(args["date"], "date")
    inputs.days(args["date"], args["date"])
    tenors = [t for t in curve.contracts if Tenor.parse(t, strict=False).kind in inputs.CALENDAR]
    pull = functools.partial(_settlements, desk.client, curve, on, on, tenors)
    (day,) = desk.budget.run([pull], what=f"the settlements of {len(tenors)} contracts")
    if day.num_rows == 0:
        raise ToolProblem(f"{curve.name} has no settlement on {on} (a weekend or holiday?)")
    built = analytics.build(day, method=args["method"], weights=args["weights"])
    table = built.select(["delivery", "forward"])
    out = {
        "curve": _brief(curve),
        "units": curve.units,
        "date": on.isoformat(),
        **desk.table(table, ["forward"], None, "daily forward curve"),
    }
    first, last = _first_and_last(table)
    text = (
        f"{curve.name} daily forward curve ({args['method']}) of {on}, {table.num_rows} days in {curve.units}: "
        f"{first['delivery']} {number(first['forward'])} ... {last['delivery']} {number(last['forward'])}"
    )
    return out, text


TOOLS = {
    "find_curves": find_curves,
    "describe_curve": describe_curve,
    "forward_curve": forward_curve,
    "price_history": price_history,
    "spread": spread,
    "build_curve": build_curve,
}
