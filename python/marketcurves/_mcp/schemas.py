"""The six tools as a client lists them: names, descriptions, and JSON
schemas of their inputs and outputs. All are read-only."""

from __future__ import annotations

from typing import Any

_CURVE = {
    "type": "string",
    "description": "a curve id, or its exact name (any case), as find_curves gives them",
}
_DAY = {"type": "string", "format": "date", "description": "a day, YYYY-MM-DD (UTC)"}
_TENORS = {
    "type": "array",
    "items": {"type": "string"},
    "minItems": 1,
    "description": "tenor names as describe_curve lists them ('Jul 25', 'Q3 25', '1-5 Jul 25'); "
    "expired months, quarters and windows too",
}
_KINDS = {
    "type": "array",
    "items": {"enum": ["month", "quarter", "window", "continuous"]},
    "description": "the kinds of contracts; default month",
}
_UNITS = {"enum": ["c/gal", "$/gal", "$/bbl", "$/mt"]}

#: What every table output holds: rows inline, or a summary and a resource.
#: Arrays of objects say so in words rather than with ``items``: a client
#: checks each item against an ``items`` schema, which took it longer than
#: the library took to answer (benches/mcp.py).
_TABLE = {
    "row_count": {"type": "integer"},
    "columns": {"type": "array", "items": {"type": "string"}},
    "rows": {
        "type": "array",
        "description": "inline rows, up to max_rows: objects of column name to value",
    },
    "summary": {
        "type": "object",
        "description": "above max_rows: first and last rows, min, max, last value per series",
    },
    "resource": {
        "type": "object",
        "description": "above max_rows: the whole table as a Parquet MCP resource (uri)",
    },
}


def _obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    schema["additionalProperties"] = False
    if required:
        schema["required"] = required
    return schema


def _out(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


TOOLS: dict[str, dict[str, Any]] = {
    "find_curves": {
        "description": "Search the curve catalogue by words (vertical, quotation, region, name, "
        "units), ranked by how many words each curve holds. Gives ids for the other tools.",
        "input": _obj(
            {
                "query": {
                    "type": "string",
                    "description": "words, e.g. 'jet fob ag'; '' lists all",
                },
                "vertical": {
                    "type": "string",
                    "description": "Gasoline, ULSD, Jet, Naphtha, Crude, Fuel Oil",
                },
                "quotation": {"type": "string", "description": "Fob, Price, Margin..."},
                "region": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
            },
            ["query"],
        ),
        "output": _out(
            {
                "matches": {"type": "integer"},
                "curves": {
                    "type": "array",
                    "description": "objects: id, name, vertical, quotation, region, units, "
                    "contracts, score",
                },
            }
        ),
    },
    "describe_curve": {
        "description": "A curve's units, vertical, quotation, region, filters and its listed "
        "contracts (tenors) by kind, with their delivery dates.",
        "input": _obj({"curve": _CURVE}, ["curve"]),
        "output": _out(
            {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "units": {"type": ["string", "null"]},
                "kinds": {"type": "object"},
                "contracts": {
                    "type": "array",
                    "description": "objects: tenor, kind, start, end",
                },
            }
        ),
    },
    "forward_curve": {
        "description": "A curve's settlement prices on one day, one row per contract: the "
        "latest published settlement by default, or a given date.",
        "input": _obj({"curve": _CURVE, "date": _DAY, "kinds": _KINDS}, ["curve"]),
        "output": _out(
            {
                "curve": {"type": "object"},
                "units": {"type": "string"},
                "date": {"type": "string"},
                **_TABLE,
            }
        ),
    },
    "price_history": {
        "description": "Settlements (or intraday values) of given tenors from start to end, "
        "or with nearby=[1] a rolling front-month series of settlements.",
        "input": _obj(
            {
                "curve": _CURVE,
                "start": _DAY,
                "end": {**_DAY, "description": "the last day, included (YYYY-MM-DD, UTC)"},
                "tenors": _TENORS,
                "intraday": {
                    "type": "boolean",
                    "default": False,
                    "description": "intraday values, not settlements",
                },
                "nearby": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 1},
                    "description": "rolling month positions instead of tenors: [1] is the front month",
                },
                "roll_days": {
                    "type": "integer",
                    "minimum": 0,
                    "default": 0,
                    "description": "business days before delivery a position rolls",
                },
            },
            ["curve", "start", "end"],
        ),
        "output": _out({"curve": {"type": "object"}, "units": {"type": "string"}, **_TABLE}),
    },
    "spread": {
        "description": "A spread from start to end: near minus far of one curve (tenors, or "
        "positions M1, Q1, W1 that roll), or with against= a curve's tenors minus another "
        "curve's (a crack), both converted to units (default $/bbl) first.",
        "input": _obj(
            {
                "curve": _CURVE,
                "start": _DAY,
                "end": _DAY,
                "near": {"type": "string", "description": "a tenor or a position (M1)"},
                "far": {"type": "string", "description": "a tenor or a position (M2)"},
                "against": {**_CURVE, "description": "the curve subtracted (a crack: crude)"},
                "tenors": _TENORS,
                "units": _UNITS,
                "roll_days": {"type": "integer", "minimum": 0, "default": 0},
            },
            ["curve", "start", "end"],
        ),
        "output": _out({"units": {"type": "string"}, **_TABLE}),
    },
    "build_curve": {
        "description": "The daily forward curve built from a curve's contracts settled on a "
        "date (maximum smoothness, or flat), one row per delivery day.",
        "input": _obj(
            {
                "curve": _CURVE,
                "date": _DAY,
                "method": {"enum": ["smooth", "flat"], "default": "smooth"},
                "weights": {"enum": ["calendar", "business"], "default": "calendar"},
            },
            ["curve", "date"],
        ),
        "output": _out(
            {
                "curve": {"type": "object"},
                "units": {"type": "string"},
                "date": {"type": "string"},
                **_TABLE,
            }
        ),
    },
}
