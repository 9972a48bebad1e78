"""A griffe extension that gives each awaitable twin (``settlements_async``)
the Parameters, Returns (or Yields) and Raises sections of its blocking form
(``settlements``) in the API reference.

A twin's docstring says only that it is "the awaitable form of" the other
(which is what ``help()`` shows), so that its arguments are described once.
The reference shows its sections all the same, those of its blocking form,
keeping only the parameters the twin takes (a twin has no ``progress``).
A twin whose docstring has sections of its own keeps them.
"""

from __future__ import annotations

from typing import Any

import griffe

#: The sections a twin takes from its blocking form: not its text, nor its
#: examples, which call the blocking form.
_TAKEN = (
    griffe.DocstringSectionKind.parameters,
    griffe.DocstringSectionKind.returns,
    griffe.DocstringSectionKind.yields,
    griffe.DocstringSectionKind.raises,
    griffe.DocstringSectionKind.warns,
)


class AsyncTwins(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _give_sections(pkg)


def _give_sections(obj: griffe.Object) -> None:
    for name, member in obj.members.items():
        if member.is_alias:
            continue
        if member.is_function and name.endswith("_async"):
            blocking = obj.members.get(name.removesuffix("_async"))
            if blocking is not None and not blocking.is_alias and blocking.is_function:
                _copy_sections(blocking, member)  # type: ignore[arg-type]
        elif member.is_class or member.is_module:
            _give_sections(member)  # type: ignore[arg-type]


def _copy_sections(blocking: griffe.Function, twin: griffe.Function) -> None:
    if blocking.docstring is None or twin.docstring is None:
        return
    own = twin.docstring.parsed
    if any(section.kind is not griffe.DocstringSectionKind.text for section in own):
        return
    taken = {parameter.name for parameter in twin.parameters}
    added: list[griffe.DocstringSection] = []
    for section in blocking.docstring.parsed:
        if section.kind not in _TAKEN:
            continue
        if isinstance(section, griffe.DocstringSectionParameters):
            kept = [p for p in section.value if p.name.lstrip("*") in taken]
            if not kept:
                continue
            section = griffe.DocstringSectionParameters(kept, title=section.title)
        added.append(section)
    # `parsed` is computed once and kept on the docstring: what the
    # reference renders from.
    twin.docstring.__dict__["parsed"] = [*own, *added]
