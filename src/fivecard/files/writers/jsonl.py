"""JSON Lines: one object per row, the manual's contract.

Guarantees: each line is one JSON object: ``{"line": N, "hands": [...],
"winners": [...], "order": [[...]], "explanation": "..."}`` with each
hand's object as :func:`fivecard.core.report.evaluation_json` makes it
(see :mod:`~fivecard.files.writers.objects`; ``winners``, ``order`` and
``explanation`` are null for a row of one hand), or ``{"line": N, "error":
"..."}`` for a bad row. A chunk of plain lines is laid out as byte
matrices made ahead by the reading thread, and every chunk's rows are
joined from columns of pieces (:func:`~fivecard.files.writers.matrix.join_columns`),
not from a grid of them.
"""

from __future__ import annotations

import json
from typing import IO

import numpy as np
import numpy.typing as npt

from ...core.lang import ENGLISH, Language
from ...core.rules import RuleSet
from ..pipeline import Chunk
from .base import WriterBase
from .matrix import Column, all_tokens, join_columns, numbered_rows, numbers
from .memo import PerOutcome, PerStrength
from .objects import class_json, hand_heads, hand_objects, token_heads, wild_json
from .order import wild

__all__ = ["JsonlWriter"]

Objects = npt.NDArray[np.object_]


class JsonlWriter(WriterBase):
    """JSON Lines: one object per row (the manual's contract)."""

    def __init__(self, out: IO[bytes], rules: RuleSet, lang: Language = ENGLISH) -> None:
        super().__init__((), 0, rules, lang)
        self.out = out
        self.classes = class_json(rules, None, lang)
        # a hand with another after it: its class piece and ", "
        self.joined = PerStrength(rules, lambda s: self.classes.piece(s) + b", ")
        self.tails = PerOutcome(
            lambda o: (
                f'], "winners": {json.dumps([i + 1 for i in o.winners])}, '
                f'"order": {json.dumps([[i + 1 for i in t] for t in o.order])}, '
                f'"explanation": {json.dumps(self.explanation(o), ensure_ascii=False)}}}\n'
            ).encode(),
            b'], "winners": null, "order": null, "explanation": null}\n',
        )

    @staticmethod
    def _prepared(chunk: Chunk) -> tuple[Objects, Objects]:
        return numbers(chunk.line, b'{"line": ', b', "hands": ['), hand_heads(chunk)

    def prepare(self, chunk: Chunk) -> None:
        """What :meth:`write` needs that depends on the chunk alone, made
        ahead by the reading thread (the hands' byte matrix and what wild
        cards became: numpy work, which overlaps the writing)."""
        if not len(chunk):
            return
        wild(chunk)
        if self._plain(chunk):
            chunk.prepared["jsonl heads"] = token_heads(chunk)
        else:
            chunk.prepared["jsonl"] = self._prepared(chunk)

    @staticmethod
    def _plain(chunk: Chunk) -> bool:
        """Rows of as many hands each, all read as two-character cards,
        spelled in two characters (a rule set with suits)."""
        return chunk.rules.suits and all_tokens(chunk, int(chunk.count[0]))

    def write(self, chunk: Chunk) -> None:
        n = len(chunk)
        if not n:
            return
        if self._plain(chunk):
            self.out.write(self._tokened(chunk, int(chunk.count[0])))
            return
        last = np.zeros(len(chunk.strength), dtype=bool)
        last[(chunk.start + chunk.count - 1)[chunk.count > 0]] = True
        classes = np.where(last, self.classes(chunk.strength), self.joined(chunk.strength))
        prepared = chunk.prepared.get("jsonl") or self._prepared(chunk)
        objects = hand_objects(chunk, classes, heads=prepared[1], joined=~last, lang=self.lang)
        most = int(chunk.count.max())
        grid = np.empty((n, 2 + 2 * max(most, 1)), dtype=object)
        grid[:, 0] = prepared[0]
        grid[:, 1:-1] = b""
        for j in range(most):
            rows = np.flatnonzero(chunk.count > j)
            grid[rows, 1 + 2 * j : 3 + 2 * j] = objects[chunk.start[rows] + j]
        grid[:, -1] = self.tails(chunk)
        for i, message in chunk.error.items():
            grid[i, 0] = f'{{"line": {int(chunk.line[i])}, "error": '.encode()
            grid[i, 1] = json.dumps(message, ensure_ascii=False).encode()
            grid[i, -1] = b"}\n"
        self.out.write(join_columns(list(grid.T), n))

    def _tokened(self, chunk: Chunk, hands: int) -> bytes:
        """The rows of a chunk of lines of ``hands`` hands each, all read as
        two-character cards (see :func:`~fivecard.files.writers.matrix.all_tokens`):
        each row's start and its first hand's head are one byte matrix row."""
        heads = chunk.prepared.get("jsonl heads")
        if heads is None:
            heads = token_heads(chunk)
        assert heads is not None
        strength = chunk.strength
        ends = np.empty(len(strength), dtype=object)
        for j in range(hands):
            ends[j::hands] = (self.classes if j == hands - 1 else self.joined)(strength[j::hands])
        last = np.zeros((len(chunk), hands), dtype=bool)
        last[:, -1] = True
        ends = wild_json(chunk, ends, None, ~last.ravel(), self.lang)
        columns: list[Column] = [numbered_rows(chunk.line, b'{"line": ', [b', "hands": [', heads[::hands]])]
        for j in range(hands):
            if j:
                columns.append(heads[j::hands])
            columns.append(ends[j::hands])
        columns.append(self.tails(chunk))
        return join_columns(columns, len(chunk))

    def close(self) -> None:
        self.out.flush()
