"""``classify`` of many hands: a line per hand, or a JSON array of the
hands' objects.

Guarantees: each line is byte for byte what ``classify`` of that one hand
prints (:meth:`fivecard.core.report.Painter.evaluation`: its cards, ``->``,
the showdown order, the description, score and strength, and what wild
cards became); the JSON array is what ``json.dump(..., indent=2)`` writes
of the hands' objects (:func:`fivecard.core.report.evaluation_json`;
``ascii``: non-ASCII escaped); a hand of more than five cards is the
single-hand path's own line or object.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from ...core.columns import class_columns
from ...core.lang import ENGLISH, Language
from ...core.report import Painter
from ...core.rules import RuleSet
from ..pipeline import Chunk
from .base import Sink, WriterBase
from .cards import people_cards
from .matrix import join_rows
from .memo import PerCase, PerStrength
from .objects import best_evaluation, class_json, hand_objects
from .order import showdown_order, wild

__all__ = ["ClassifyWriter", "hand_tails", "wild_tails"]

Objects = npt.NDArray[np.object_]


def hand_tails(rules: RuleSet, painter: Painter | None = None) -> PerStrength:
    """Per strength, what follows a natural hand's cards in its line:
    `` {description}  (score S, strength N)`` (in the painter's language)."""
    columns = class_columns(rules)
    lang = ENGLISH if painter is None else painter.lang
    if lang.english:
        return PerStrength(
            rules, lambda s: f" {columns.description(s)}  (score {columns.score(s)}, strength {s:,})".encode()
        )
    assert painter is not None
    return PerStrength(
        rules, lambda s: f" {columns.description(s, lang)}{painter.score_text(columns.score(s), s)}".encode()
    )


def wild_tails(chunk: Chunk, tails: Objects, painter: Painter) -> Objects:
    """``tails`` (per hand, what follows its cards in a line of ``classify``:
    ``Painter.evaluation``'s description, score and strength), with those of
    the hands that hold a wild card saying what the wild cards became."""
    found = wild(chunk)
    if found is None:
        return tails
    out = tails.copy()
    description, became, score = _wild_text_pieces(chunk.rules, painter.color, painter.ascii, painter.lang)
    strength = chunk.strength[found.rows]
    out[found.rows] = description(strength) + became(found) + score(strength)
    return out


@cache
def _wild_text_pieces(
    rules: RuleSet, color: bool, ascii: bool, lang: Language = ENGLISH
) -> tuple[PerStrength, PerCase, PerStrength]:
    """A wild hand's tail (see :func:`wild_tails`) in three pieces: per
    strength its description, per case what the wild cards became, per
    strength its score and strength (each in ``lang``)."""
    painter = Painter(color=color, ascii=ascii, lang=lang)
    columns = class_columns(rules)
    return (
        PerStrength(rules, lambda s: f" {columns.description(s, lang)}".encode()),
        PerCase(lambda made: painter.became(made, bool(rules.jokers)).encode()),
        PerStrength(rules, lambda s: painter.score_text(columns.score(s), s).encode()),
    )


class ClassifyWriter(WriterBase):
    """``classify`` of many hands: a line per hand (its cards, ``->``, the
    showdown order, the description, score and strength), or with
    ``as_json`` a JSON array of the hands' objects laid out as
    ``json.dump(..., indent=2)`` lays it out (``ascii``: non-ASCII escaped)."""

    def __init__(self, out: Sink, painter: Painter, rules: RuleSet, *, as_json: bool, ascii: bool) -> None:
        super().__init__((), 1, rules)
        self.out = out
        self.painter = painter
        self.as_json = as_json
        self.ascii = ascii
        self.written = 0
        if as_json:
            self.classes = class_json(rules, "  ", painter.lang)
        else:
            self.tails = hand_tails(rules, painter)

    def write(self, chunk: Chunk) -> None:
        h = len(chunk.strength)
        if not h:
            return
        if self.as_json:
            objects = hand_objects(chunk, self.classes(chunk.strength), "  ", ascii=self.ascii, lang=self.painter.lang)
            grid = np.empty((h, 3), dtype=object)
            grid[:, 0] = b",\n  "
            if not self.written:
                grid[0, 0] = b"[\n  "
            grid[:, 1:] = objects
            self.out.write(join_rows(grid))
        else:
            identity = np.broadcast_to(np.arange(5), (h, 5))
            grid = np.empty((h, 5), dtype=object)
            grid[:, 0] = people_cards(chunk, self.painter, identity)
            grid[:, 1] = b" ->  "
            grid[:, 2] = people_cards(chunk, self.painter, showdown_order(chunk))
            grid[:, 3] = wild_tails(chunk, self.tails(chunk.strength), self.painter)
            grid[:, 4] = b"\n"
            if chunk.dealt is not None:  # the best five of more cards: every card dealt on the left
                for k in range(h):
                    line = self.painter.evaluation(best_evaluation(chunk, k))
                    grid[k, :] = [line.encode(), b"", b"", b"", b"\n"]
            self.out.write(join_rows(grid))
        self.written += h

    def close(self) -> None:
        if self.as_json:
            self.out.write(b"\n]\n" if self.written else b"[]\n")
        self.out.flush()
