"""Solving many showdowns, one row at a time: each row of a file becomes one
result (a showdown, a classified hand, or an error that names the row), in
input order. Nothing is dropped or shifted: rows out = rows in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .errors import FivecardError
from .evaluate import Evaluation, evaluate
from .hand import Hand
from .rules import RuleSet, get_rules
from .showdown import Showdown, check_decks, settle

__all__ = ["Row", "Solved", "Tally", "solve_row", "solve_rows", "RowError"]


class RowError(FivecardError):
    """A bad row met under ``strict``: the message names its line."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of input: its line (or spreadsheet row) number, its original
    cells (a text line is one cell), and the hand texts read from it; or
    ``error`` when the row could not even be split into hands."""

    line: int
    cells: tuple[str, ...]
    hands: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Solved:
    """The result of one row: evaluations of its hands and, for two or more
    hands, the showdown; or an error message naming the problem."""

    row: Row
    evaluations: tuple[Evaluation, ...] = ()
    showdown: Showdown | None = None
    error: str | None = None

    @property
    def line(self) -> int:
        return self.row.line


def solve_row(row: Row, *, rules: str | RuleSet = "standard", decks: int = 1) -> Solved:
    """Solve one row; a bad row gives a :class:`Solved` with ``error`` set."""
    if row.error is not None:
        return Solved(row, error=row.error)
    if not row.hands:
        return Solved(row, error="no hands in this row")
    ruleset = get_rules(rules)
    hands: list[Hand] = []
    for number, text in enumerate(row.hands, 1):
        try:
            hands.append(Hand.parse(text, rules=ruleset))
        except FivecardError as exc:
            prefix = f"hand {number}: " if len(row.hands) > 1 else ""
            return Solved(row, error=f"{prefix}{exc}")
    try:
        check_decks(hands, decks=decks)
    except FivecardError as exc:
        return Solved(row, error=str(exc))
    evaluations = tuple(evaluate(h) for h in hands)
    if len(evaluations) == 1:
        return Solved(row, evaluations)
    return Solved(row, evaluations, settle(evaluations))


def solve_rows(
    rows: Iterable[Row],
    *,
    rules: str | RuleSet = "standard",
    decks: int = 1,
    strict: bool = False,
) -> Iterator[Solved]:
    """Solve rows lazily, in order. With ``strict``, the first bad row raises
    :class:`RowError` naming its line instead."""
    ruleset = get_rules(rules)
    for row in rows:
        solved = solve_row(row, rules=ruleset, decks=decks)
        if strict and solved.error is not None:
            raise RowError(f"line {row.line}: {solved.error}")
        yield solved


@dataclass(slots=True)
class Tally:
    """Running totals for the summary after a run."""

    rows: int = 0
    errors: int = 0
    classified: int = 0
    draws: int = 0
    wins: dict[int, int] = field(default_factory=dict)  # 0-based position -> sole wins
    most_hands: int = 0

    def add(self, solved: Solved) -> None:
        self.rows += 1
        if solved.error is not None:
            self.errors += 1
            return
        self.most_hands = max(self.most_hands, len(solved.evaluations))
        if solved.showdown is None:
            self.classified += 1
        elif solved.showdown.is_draw:
            self.draws += 1
        else:
            position = solved.showdown.winners[0]
            self.wins[position] = self.wins.get(position, 0) + 1

    @property
    def solved(self) -> int:
        return self.rows - self.errors

    def summary(self) -> str:
        """E.g. ``1,000 rows: 1,000 solved, 0 errors; hand 1 wins 376, hand 2
        wins 624, draws 0``."""
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
