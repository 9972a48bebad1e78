"""A history call's counts of tenor-days from the cache and from the
service, which the core notes in its table's schema metadata
(``cache::counted``): taken out here before the table is returned, so that
it is the very table an uncached call returns, and kept for
``Client.last_call_stats``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow

    from marketcurves.cache import CallStats

__all__ = ["taken"]

#: The core's key (``cache::counted::CACHE_DAYS``).
CACHE_DAYS = b"marketcurves.cache_days"


def taken(table: pyarrow.Table) -> tuple[pyarrow.Table, CallStats | None]:
    """``table`` without its call's counts, and those counts; None if the
    call did not go through a cache."""
    metadata = dict(table.schema.metadata or {})
    noted = metadata.pop(CACHE_DAYS, None)
    if noted is None:
        return table, None
    counts = json.loads(noted)
    stats: CallStats = {
        "days_from_cache": int(counts["from_cache"]),
        "days_from_service": int(counts["from_service"]),
    }
    return table.replace_schema_metadata(metadata or None), stats
