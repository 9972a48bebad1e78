"""Calls written the old way keep working for one release.

A public call takes its data (a curve, a range, a destination) by position
and its options by keyword only. Where an option was once taken by
position, :func:`positional_options` lets the old form through, with a
:class:`DeprecationWarning` that writes out the new one, as polars'
``deprecate_nonkeyword_arguments`` does. The function itself is declared
in its new form, which its signature, the type checkers and the API
reference show.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from marketcurves import _warn

_F = TypeVar("_F", bound=Callable[..., Any])

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def positional_options(*names: str) -> Callable[[_F], _F]:
    """Takes the keyword-only options ``names``, in that order, also by
    position after the function's positional parameters, as the function
    took them before, with a :class:`DeprecationWarning` naming the new form.
    """

    def decorate(function: _F) -> _F:
        signature = inspect.signature(function)
        parameters = signature.parameters
        for name in names:
            if parameters[name].kind is not inspect.Parameter.KEYWORD_ONLY:
                raise TypeError(f"{function.__qualname__}: {name} is not keyword-only")
        positional = [p.name for p in parameters.values() if p.kind in _POSITIONAL]
        limit = len(positional)
        shown = _shown(function)
        data = [p for p in positional if p not in ("self", "cls")]

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > limit:
                given = list(names[: len(args) - limit])
                args, kwargs = _moved(shown, names, limit, args, kwargs)
                _warn_old_form(shown, data, given)
            return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def _moved(
    shown: str, names: tuple[str, ...], limit: int, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The options given by position, moved to the keywords."""
    extra = args[limit:]
    if len(extra) > len(names):
        most = limit + len(names)
        raise TypeError(f"{shown}() takes at most {most} positional arguments ({len(args)} given)")
    moved = dict(zip(names, extra, strict=False))
    for name in moved:
        if name in kwargs:
            raise TypeError(f"{shown}() got multiple values for argument {name!r}")
    return args[:limit], {**kwargs, **moved}


def _warn_old_form(shown: str, data: list[str], given: list[str]) -> None:
    """The warning, with the call written the new way."""
    new_form = ", ".join([*data, *(f"{name}=..." for name in given)])
    them = "it" if len(given) == 1 else "them"
    _warn.user(
        f"{shown}() takes {', '.join(given)} by keyword only: write {shown}({new_form}). "
        f"Passing {them} by position is deprecated and stops working in the next release.",
        DeprecationWarning,
    )


def _shown(function: Callable[..., Any]) -> str:
    """How a user names the call: ``Client`` for ``Client.__init__``."""
    qualname = function.__qualname__
    return qualname.removesuffix(".__init__")
