"""A griffe extension that leaves the special methods of classes (``__eq__``,
``__repr__``, ``__enter__``...) out of the API reference: what they give
(comparison, a context manager) is said in the class's own docstring, and a
page of them would hide the methods a reader looks for. Those a reader does
call by their form stay: the constructor, whose signature is the class's,
and the iterators (``for`` and ``async for``), where they are methods. A
constructor that only the package can call (it takes objects of the
compiled core) goes too."""

from __future__ import annotations

from typing import Any

import griffe

SHOWN = {"__init__", "__new__", "__iter__", "__aiter__"}


class SpecialMethods(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _hide_in(pkg)


def _hide_in(obj: griffe.Object) -> None:
    for name, member in list(obj.members.items()):
        if member.is_alias:
            continue
        # ``__iter__ = None`` (a class that is not iterable) is no method to show.
        shown = name in SHOWN and member.is_function
        if obj.is_class and ((member.is_special and not shown) or _package_made(name, member)):
            # Removed from the model, not marked private: the reference
            # reaches most classes through their aliases in `marketcurves`,
            # which would not see a mark on the class's own member.
            del obj.members[name]
        else:
            _hide_in(member)  # type: ignore[arg-type]


def _package_made(name: str, member: griffe.Object | griffe.Alias) -> bool:
    """A constructor that takes an object of the compiled core
    (``_core.CoreClient``...), which a user never holds: the package makes
    such a class (``Client.live`` a ``LiveFeed``), and the reference shows
    no signature for it rather than one nobody can call."""
    if name != "__init__" or not isinstance(member, griffe.Function):
        return False
    return any("_core." in str(p.annotation or "") for p in member.parameters)
