"""The credentials the environment gives: read by :class:`marketcurves.Client`
when it is given none, and by a backfill's worker, which is never sent the
driver's (``marketcurves._backfill_worker``)."""

from __future__ import annotations

import os

from marketcurves._options import Credentials


def variable(name: str) -> str | None:
    """An environment variable's value; None if unset or blank."""
    value = os.environ.get(name)
    return value if value and value.strip() else None


def credentials() -> Credentials | None:
    """``MARKETCURVES_TOKEN``, or else ``MARKETCURVES_EMAIL`` and
    ``MARKETCURVES_PASSWORD``; None if the environment gives neither."""
    if (token := variable("MARKETCURVES_TOKEN")) is not None:
        return {"token": token}
    email, password = variable("MARKETCURVES_EMAIL"), variable("MARKETCURVES_PASSWORD")
    if email is not None and password is not None:
        return {"email": email, "password": password}
    return None
