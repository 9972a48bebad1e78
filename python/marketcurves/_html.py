"""The helpers every notebook view (``_repr_html_``) is written with: each
class draws itself with them, the core's ``Tenor`` and ``BulkResult``
included (``src/python/html.rs`` calls :func:`facts`), so that every view
looks and escapes alike. This module knows none of the classes it draws.

Every value goes through :func:`html.escape`: names, ids and paths come from
the service or the user and may hold markup. Nothing here reads a secret:
the objects drawn keep their tokens and pre-signed URLs out of reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["NAMES_LISTED", "facts", "grid", "names", "number", "span"]

#: Contracts and subscriptions listed by name; the rest are counted.
NAMES_LISTED = 12


def _text(value: Any) -> str:
    import html  # only notebooks ask for views, and html.entities is slow to load

    return "—" if value is None else html.escape(str(value))


def number(value: int) -> str:
    """A count with thousands separated (``12,345``)."""
    return f"{value:,}"


def names(values: Sequence[Any]) -> str:
    """The first :data:`NAMES_LISTED` of ``values``, and how many more."""
    shown = ", ".join(str(n) for n in values[:NAMES_LISTED])
    more = f" … and {len(values) - NAMES_LISTED} more" if len(values) > NAMES_LISTED else ""
    return f"{shown}{more}"


def span(pair: tuple[Any, Any]) -> str:
    """A range from its two ends (``2025-01 .. 2025-06``)."""
    return f"{pair[0]} .. {pair[1]}"


def facts(title: str, rows: Iterable[tuple[str, Any]]) -> str:
    """A titled two-column table of ``(label, value)``."""
    body = "".join(
        f'<tr><th style="text-align:left">{_text(label)}</th>'
        f'<td style="text-align:left">{_text(value)}</td></tr>'
        for label, value in rows
    )
    return f"<div><strong>{_text(title)}</strong><table>{body}</table></div>"


def grid(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], more: int) -> str:
    """A titled table with a header row; ``more`` rows left out are counted."""
    head = "".join(f"<th>{_text(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{_text(v)}</td>" for v in row) + "</tr>" for row in rows)
    tail = f"<p>… {more} more</p>" if more > 0 else ""
    return (
        f"<div><strong>{_text(title)}</strong>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{tail}</div>"
    )
