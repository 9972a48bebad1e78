"""A griffe extension that lets the package's docstrings, written for
``help()`` and reStructuredText, read well on the mkdocs site.

Two things would render badly as Markdown: Sphinx roles
(``:class:`~marketcurves.Client```) would show as literal text, and doctest
lines (``>>> ...``) would become nested block quotes. Roles become
mkdocstrings cross-references when their target is an object of the
package (looked up as Python would, from the object's class and module
outwards), plain code otherwise; doctests become ``pycon`` code blocks.
The docstrings themselves stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|meth|func|attr|data|mod|exc|obj):`(~?)([\w.]+)`")
# Directives for the doctest runner, not for the reader.
_DIRECTIVE = re.compile(r"\s*# doctest: .*$")


class RstDocstrings(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _rewrite(obj.docstring.value, obj, loader)


def _rewrite(text: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    return _ROLE.sub(lambda m: _reference(m, obj, loader), _fence_doctests(text))


def _objects(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)  # type: ignore[arg-type]


def _reference(match: re.Match[str], obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    short, target = match.group(1), match.group(2)
    label = target.rsplit(".", 1)[-1] if short else target
    path = _resolve(target, obj, loader)
    return f"`{label}`" if path is None else f"[`{label}`][{path}]"


def _resolve(target: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str | None:
    """The canonical path of ``target`` seen from ``obj``: a member of the
    object itself, of its class, of its module, or of the package."""
    scopes = [obj.path]
    parent = obj.parent
    while parent is not None:
        scopes.append(parent.path)
        parent = parent.parent
    for scope in [*scopes, ""]:
        path = f"{scope}.{target}" if scope else target
        try:
            found = loader.modules_collection.get_member(path)
        except (KeyError, ValueError, griffe.AliasResolutionError):
            # An alias on the way that points outside the package
            # (``html.escape`` from a module that imports ``html``).
            continue
        try:
            return found.canonical_path
        except griffe.AliasResolutionError:
            return None
    return None


def _fence_doctests(text: str) -> str:
    """Wraps each run of doctest lines (a ``>>>`` line, its ``...``
    continuations and its output, up to a blank line) in a pycon block,
    without their ``# doctest:`` directives."""
    out: list[str] = []
    in_block = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_block:
            out.append("```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append("```")
            in_block = False
        out.append(_DIRECTIVE.sub("", line) if in_block else line)
    if in_block:
        out.append("```")
    return "\n".join(out)
