"""A tool's arguments checked against its input schema before anything
is sent: a missing or unknown argument (naming the close ones), a value of
the wrong type or not among those allowed, a day that is not one, a range
that cannot be, a tenor the curve does not have."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from marketcurves._core import Tenor
from marketcurves._mcp.problems import ToolProblem, unknown

if TYPE_CHECKING:
    from marketcurves.catalogue import Curve

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
}
#: Calendar kinds: a name of one of these shapes is a contract even if the
#: catalogue lists it no longer (an expired month).
CALENDAR = ("month", "quarter", "window")


def checked(schema: dict[str, Any], given: dict[str, Any] | None) -> dict[str, Any]:
    """The arguments, with their defaults."""
    given = dict(given or {})
    properties: dict[str, Any] = schema["properties"]
    for name in given:
        if name not in properties:
            raise unknown("argument", name, properties)
    for name in schema.get("required", []):
        if given.get(name) is None:
            raise ToolProblem(f"argument {name!r} is required")
    out = {}
    for name, spec in properties.items():
        value = given.get(name, spec.get("default"))
        if value is not None:
            _check(name, spec, value)
        out[name] = value
    return out


def _check(name: str, spec: dict[str, Any], value: Any) -> None:
    if "enum" in spec and value not in spec["enum"]:
        allowed = ", ".join(repr(v) for v in spec["enum"])
        raise ToolProblem(f"{name}={value!r} is not one of {allowed}")
    kind = spec.get("type")
    if kind in _TYPES:
        wrong = not isinstance(value, _TYPES[kind]) or (
            kind == "integer" and isinstance(value, bool)
        )
        if wrong:
            raise ToolProblem(
                f"{name} must be {'an' if kind[0] in 'aei' else 'a'} {kind}, not {value!r}"
            )
    if kind == "integer":
        if "minimum" in spec and value < spec["minimum"]:
            raise ToolProblem(f"{name} must be {spec['minimum']} or more, not {value}")
        if "maximum" in spec and value > spec["maximum"]:
            raise ToolProblem(f"{name} must be {spec['maximum']} or less, not {value}")
    if kind == "array":
        if not value and spec.get("minItems"):
            raise ToolProblem(f"{name} must not be empty")
        for item in value:
            _check(f"an item of {name}", spec["items"], item)


def day(value: str, name: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolProblem(f"{name}={value!r} is not a day: expected YYYY-MM-DD") from None


def days(start: str, end: str) -> tuple[dt.date, dt.date]:
    """A range that can be: end not before start, start not in the future."""
    first, last = day(start, "start"), day(end, "end")
    if last < first:
        raise ToolProblem(f"impossible range: end {last} is before start {first}")
    today = dt.datetime.now(dt.UTC).date()
    if first > today:
        raise ToolProblem(f"impossible range: start {first} is after today ({today}, UTC)")
    return first, last


def tenor(curve: Curve, name: str) -> str:
    """A tenor the curve lists, or a month, quarter or window (listed no
    longer); anything else names the curve's close tenors."""
    if name in curve.contracts:
        return name
    parsed = Tenor.parse(name.strip(), strict=False)
    if parsed.kind in CALENDAR:
        return parsed.name
    raise unknown(f"tenor of {curve.name}", name, curve.contracts)


def position(text: str) -> bool:
    """``M1``, ``Q2``, ``W1``: a nearby position, which rolls."""
    return len(text) >= 2 and text[0] in "MQW" and text[1:].isdigit()
