"""A Griffe extension for the manual's library reference: the docstrings'
``>>>`` examples (doctests, run by the tests) are shown as Python console
blocks, and their output is not read as Markdown; Sphinx roles
(``:func:`parse_card```, ``:class:`~fivecard.core.hand.Hand```) are shown
as code (``parse_card``, ``Hand``)."""

from __future__ import annotations

import re
from typing import Any

import griffe


def fence(text: str) -> str:
    """``text`` with each run of doctest lines (a ``>>>`` line, its ``...``
    lines and its output up to a blank line) in a ``pycon`` fence."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


ROLE = re.compile(r":[a-z]+:`(~?)([^`]+)`")


def roles(text: str) -> str:
    """``text`` with each Sphinx role as code (``~`` keeps the last name)."""
    return ROLE.sub(lambda m: "`" + (m[2].rsplit(".", 1)[-1] if m[1] else m[2]) + "`", text)


class Doctests(griffe.Extension):
    """Fences the doctests of every object's docstring."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(roles(obj.docstring.value))
