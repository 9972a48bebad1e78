"""The history cache a Dask worker's client shares with the driver's: what
of the driver's ``cache_dir`` travels in a backfill's settings, which are
pickled into Dask's task graph.

Only a cache every worker can reach travels, and never a secret: an
object store's URL (or an obstore store built without credentials) with
those of its storage options that are not credentials. The workers take
the store's credentials from their environment, as they do for the
backfill's destination (see :mod:`marketcurves.backfill`). A local folder
does not travel: a worker on another machine would fill a folder of its
own, so the workers keep no cache.
"""

from __future__ import annotations

from typing import Any

from marketcurves import _args, _core

__all__ = ["worker_cache"]

#: A store's own name among its settings: the URL already says it.
_NAMES = frozenset({"bucket", "aws_bucket", "aws_bucket_name", "bucket_name", "container_name"})


def worker_cache(
    cache_dir: str | tuple[Any, str] | None,
    storage_options: dict[str, str] | None,
    mode: str,
) -> dict[str, Any]:
    """The settings' cache entries for the driver's ``cache_dir``: its
    ``cache_dir``, ``cache_storage_options`` and ``cache`` mode, or only
    ``cache: "off"`` for no cache or a local folder."""
    off: dict[str, Any] = {"cache": "off"}
    if cache_dir is None or mode == "off":
        return off
    if isinstance(cache_dir, str):
        scheme = _scheme(cache_dir)
        if scheme in ("", "file"):
            return off
        return {
            "cache_dir": cache_dir,
            "cache_storage_options": _without_secrets(scheme, storage_options or {}) or None,
            "cache": mode,
        }
    store, url = cache_dir
    store_scheme = _args.STORE_SCHEMES.get(type(store).__name__)
    if store_scheme is None:
        return off
    settings = _store_settings(store)
    secret = _core.secret_storage_options(store_scheme, settings)
    if not secret and getattr(store, "credential_provider", None) is None:
        # Built without a credential: the store itself travels, as a
        # backfill's destination does.
        return {"cache_dir": cache_dir, "cache_storage_options": None, "cache": mode}
    # Its URL and its settings that are no secret, the credentials being
    # the workers' own.
    kept = {k: v for k, v in _without_secrets(store_scheme, settings).items() if k not in _NAMES}
    return {"cache_dir": url, "cache_storage_options": kept or None, "cache": mode}


def _scheme(place: str) -> str:
    return place.partition("://")[0].lower() if "://" in place else ""


def _store_settings(store: Any) -> dict[str, str]:
    return {
        str(key): str(value)
        for part in (getattr(store, "config", None), getattr(store, "client_options", None))
        for key, value in (part or {}).items()
    }


def _without_secrets(scheme: str, options: dict[str, str]) -> dict[str, str]:
    secret = set(_core.secret_storage_options(scheme, options))
    return {key: value for key, value in options.items() if key not in secret}
