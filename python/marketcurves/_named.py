"""The curves a table names in its schema metadata, under one key.

Every table the client returns, and every table :mod:`marketcurves.curves`
derives from one, lists its curves under ``marketcurves.curves``: a JSON
list of ``{"id", "name", "units", "quotation"}`` (written by the core,
``domain::arrow::curves_key``). :func:`marketcurves.to_pandas` keeps the
list, parsed, in ``DataFrame.attrs`` under the same key. Plots and notebook
views read it here to name a curve and its units; a table without it
(built elsewhere) gives nothing, and they show the curve's id as before.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

#: The schema metadata key (and ``DataFrame.attrs`` key) of a table's curves.
CURVES_KEY = "marketcurves.curves"


class NamedCurve(TypedDict):
    """One curve of a table, as the catalogue describes it (None where it
    did not say)."""

    id: str
    name: str | None
    units: str | None
    quotation: str | None


def curves_of(value: Any) -> list[NamedCurve]:
    """The curves ``value`` (a pyarrow table or batch, a pandas DataFrame
    from :func:`~marketcurves.to_pandas`) names; none if it names none."""
    attrs = getattr(value, "attrs", None)
    if isinstance(attrs, dict) and CURVES_KEY in attrs:
        return _checked(attrs[CURVES_KEY])
    schema = getattr(value, "schema", None)
    metadata = getattr(schema, "metadata", None)
    if not isinstance(metadata, dict):
        return []
    raw = metadata.get(CURVES_KEY.encode())
    if raw is None:
        return []
    try:
        return _checked(json.loads(raw))
    except ValueError:
        return []


def _checked(value: Any) -> list[NamedCurve]:
    """The entries of ``value`` that have an id (a list someone else wrote
    may not)."""
    if not isinstance(value, list):
        return []
    return [
        NamedCurve(
            id=entry["id"],
            name=_text(entry.get("name")),
            units=_text(entry.get("units")),
            quotation=_text(entry.get("quotation")),
        )
        for entry in value
        if isinstance(entry, dict) and isinstance(entry.get("id"), str)
    ]


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def curve_of(value: Any, curve_id: str | None) -> NamedCurve | None:
    """The entry of ``curve_id`` (of the one curve named, if None) in the
    curves ``value`` names."""
    curves = curves_of(value)
    if curve_id is None:
        return curves[0] if len(curves) == 1 else None
    return next((c for c in curves if c["id"] == curve_id), None)


def with_curves(table: Any, curves: list[NamedCurve]) -> Any:
    """The pyarrow ``table`` naming ``curves`` (as it was if there are none)."""
    if not curves:
        return table
    metadata = dict(table.schema.metadata or {})
    metadata[CURVES_KEY.encode()] = json.dumps(curves).encode()
    return table.replace_schema_metadata(metadata)
