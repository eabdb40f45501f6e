"""Running totals of a run, for the summary after it: rows, errors, hands
classified alone, sole wins per position and draws.

Guarantees: the totals of parts solved apart (:mod:`fivecard.files.parallel`)
merged (:meth:`Tally.merge`) equal those of the whole solved at once; the
summary counts every row once.
"""

from __future__ import annotations

import numpy as np

from ...core.lang import Language, language
from ...core.report import number_text
from ..pipeline import Chunk

__all__ = ["Tally"]


class Tally:
    """Running totals for the summary after a run."""

    def __init__(self) -> None:
        self.rows = 0
        self.errors = 0
        self.classified = 0
        self.draws = 0
        self.wins: dict[int, int] = {}  # 0-based position -> sole wins
        self.most_hands = 0

    def add(self, chunk: Chunk) -> None:
        self.rows += len(chunk)
        self.errors += len(chunk.error)
        if not len(chunk):
            return
        self.most_hands = max(self.most_hands, int(chunk.count.max()))
        self.classified += int((chunk.count == 1).sum())
        seen = chunk.outcome[chunk.outcome >= 0]
        if len(seen):
            times = np.bincount(seen)
            used = np.flatnonzero(times)
            outcomes = chunk.outcomes
            sole = np.array([outcomes[u].winners[0] if len(outcomes[u].winners) == 1 else -1 for u in used.tolist()])
            times = times[used]
            self.draws += int(times[sole < 0].sum())
            won = sole >= 0
            for position, wins in enumerate(np.bincount(sole[won], weights=times[won]).astype(np.int64).tolist()):
                if wins:
                    self.wins[position] = self.wins.get(position, 0) + wins

    def merge(self, other: Tally) -> None:
        """Add the totals of rows tallied elsewhere (another part of the input)."""
        self.rows += other.rows
        self.errors += other.errors
        self.classified += other.classified
        self.draws += other.draws
        for position, wins in other.wins.items():
            self.wins[position] = self.wins.get(position, 0) + wins
        self.most_hands = max(self.most_hands, other.most_hands)

    @property
    def solved(self) -> int:
        return self.rows - self.errors

    def summary(self, lang: Language | str | None = None) -> str:
        """E.g. ``1,000 rows: 1,000 solved, 0 errors; hand 1 wins 376, hand 2
        wins 624, draws 0`` (in ``lang``, default English)."""
        words = language(lang)
        if not words.english:
            return self._summary(words)
        text = f"{self.rows:,} row{'' if self.rows == 1 else 's'}: {self.solved:,} solved, "
        text += f"{self.errors:,} error{'' if self.errors == 1 else 's'}"
        if self.classified:
            text += f", {self.classified:,} classified only (one hand)"
        if self.most_hands > 1:
            wins = ", ".join(
                f"hand {p + 1} wins {self.wins.get(p, 0):,}" for p in range(self.most_hands)
            )
            text += f"; {wins}, draws {self.draws:,}"
        return text

    def _summary(self, lang: Language) -> str:
        """:meth:`summary` in a language other than English."""

        def number(count: int) -> str:
            return number_text(count, lang)

        rows = lang.phrase_n("{count} row", "{count} rows", self.rows, "files", count=number(self.rows))
        parts = [
            lang.phrase_n("{count} solved", "{count} solved", self.solved, "files", count=number(self.solved)),
            lang.phrase_n("{count} error", "{count} errors", self.errors, "files", count=number(self.errors)),
        ]
        if self.classified:
            parts.append(lang.phrase_n("{count} classified only (one hand)", "{count} classified only (one hand)",
                                       self.classified, "files", count=number(self.classified)))  # fmt: skip
        separator = lang.pgettext("list", ", ", "files")
        text = lang.phrase("{rows}: {counts}", "files", rows=rows, counts=separator.join(parts))
        if self.most_hands > 1:
            wins = [
                lang.phrase("hand {number} wins {count}", "files", number=p + 1, count=number(self.wins.get(p, 0)))
                for p in range(self.most_hands)
            ]
            wins.append(lang.phrase("draws {count}", "files", count=number(self.draws)))
            text = lang.phrase("{counts}; {wins}", "files", counts=text, wins=separator.join(wins))
        return text
