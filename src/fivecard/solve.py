"""Solving many showdowns, one row at a time: each row of a file becomes one
result (a showdown, a classified hand, or an error that names the row), in
input order. Nothing is dropped or shifted: rows out = rows in.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Final

from .cards import JOKER, Card, full_deck
from .errors import FivecardError
from .evaluate import Evaluation, describe, evaluate
from .hand import Hand
from .rows import Row
from .rules import RuleSet, get_rules
from .showdown import check_decks, explain_showdown
from .tables import tables_for

__all__ = [
    "Row",
    "HandResult",
    "Solved",
    "ClassInfo",
    "Tally",
    "solve_row",
    "solve_rows",
    "class_info",
    "RowError",
    "CODE_TEXT",
    "explanation_of",
    "solve_chunk",
]

CHUNK_ROWS: Final = 4096
_CARD_OF_CODE: Final[dict[int, Card]] = {
    c.code: c for c in (*full_deck(), *full_deck(suits=False), JOKER)
}
_JOKER_CODE: Final = JOKER.code
#: Card code -> canonical text (``As``, ``Q``, ``JK``).
CODE_TEXT: Final[dict[int, str]] = {code: card.code_str for code, card in _CARD_OF_CODE.items()}


class RowError(FivecardError):
    """A bad row met under ``strict``: the message names its line."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand of a solved row: its text as written, its card codes, its
    strength and its cards sorted (canonical, space separated)."""

    text: str
    codes: tuple[int, ...]
    strength: int
    sorted: str

    def evaluation(self, rules: RuleSet) -> Evaluation:
        """The rich evaluation (for text and JSON output)."""
        return evaluate(Hand(tuple(_CARD_OF_CODE[c] for c in self.codes), rules))

    @property
    def natural(self) -> bool:
        return _JOKER_CODE not in self.codes


@dataclass(frozen=True, slots=True)
class Solved:
    """The result of one row: its hands and, for two or more hands, the
    winners, the order (0-based, best first, ties grouped) and the
    explanation; or an error message naming the problem."""

    row: Row
    hands: tuple[HandResult, ...] = ()
    winners: tuple[int, ...] | None = None
    order: tuple[tuple[int, ...], ...] | None = None
    explanation: str | None = None
    error: str | None = None

    @property
    def line(self) -> int:
        return self.row.line

    @property
    def is_draw(self) -> bool:
        return self.winners is not None and len(self.winners) > 1


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """What every hand of one strength shares, for output."""

    category: str
    name: str
    score: int
    strength: int
    description: str


@cache
def _class_infos(rules: RuleSet) -> list[ClassInfo | None]:
    return [None] * (tables_for(rules).size + 1)


def class_info(rules: RuleSet, strength: int) -> ClassInfo:
    """The category, score and description of a strength (cached)."""
    infos = _class_infos(rules)
    info = infos[strength]
    if info is None:
        hand_class = tables_for(rules).hand_class(strength)
        info = ClassInfo(
            hand_class.category.name,
            hand_class.category.label,
            rules.score(hand_class.category),
            strength,
            describe(hand_class),
        )
        infos[strength] = info
    return info


def solve_row(row: Row, *, rules: str | RuleSet = "standard", decks: int = 1) -> Solved:
    """Solve one row; a bad row gives a :class:`Solved` with ``error`` set."""
    return next(solve_chunk([row], get_rules(rules), decks))


def solve_rows(
    rows: Iterable[Row],
    *,
    rules: str | RuleSet = "standard",
    decks: int = 1,
    strict: bool = False,
) -> Iterator[Solved]:
    """Solve rows lazily, in order, a chunk at a time through the batch path
    (:mod:`fivecard.batch`). With ``strict``, the first bad row raises
    :class:`RowError` naming its line instead."""
    ruleset = get_rules(rules)
    iterator = iter(rows)
    while chunk := list(itertools.islice(iterator, CHUNK_ROWS)):
        for solved in solve_chunk(chunk, ruleset, decks):
            if strict and solved.error is not None:
                raise RowError(f"line {solved.line}: {solved.error}")
            yield solved


def solve_chunk(rows: Sequence[Row], rules: RuleSet, decks: int) -> Iterator[Solved]:
    """Solve a chunk of rows with one batch encode and evaluation."""
    from . import batch  # numpy, only for bulk work

    problems = [_row_problem(row) for row in rows]
    texts = [text for row, problem in zip(rows, problems) if problem is None for text in row.hands]
    encoded = batch.encode(texts, rules=rules)
    strengths = batch.strengths(encoded).tolist()
    codes = encoded.codes.tolist()
    sorted_texts = batch.sorted_texts(encoded)
    position = 0
    for row, problem in zip(rows, problems):
        if problem is not None:
            yield Solved(row, error=problem)
            continue
        first, position = position, position + len(row.hands)
        bad = next((i for i in range(first, position) if i in encoded.errors), None)
        if bad is not None:
            prefix = f"hand {bad - first + 1}: " if len(row.hands) > 1 else ""
            yield Solved(row, error=prefix + encoded.errors[bad])
            continue
        hands = tuple(
            HandResult(texts[i], tuple(codes[i]), strengths[i], sorted_texts[i])
            for i in range(first, position)
        )
        if len(hands) == 1:
            yield Solved(row, hands)
            continue
        problem = _deck_problem(hands, rules, decks)
        if problem is not None:
            yield Solved(row, error=problem)
            continue
        yield _settle(row, hands, rules)


def _row_problem(row: Row) -> str | None:
    """Why a row cannot be solved before its cards are read: its own error,
    no hands, or an empty hand (later hands keep their numbers)."""
    if row.error is not None:
        return row.error
    empty = [i + 1 for i, text in enumerate(row.hands) if not text.strip()]
    if len(empty) == len(row.hands):
        return "no hands in this row"
    if len(empty) == 1:
        return f"hand {empty[0]} is empty"
    if empty:
        listed = ", ".join(map(str, empty[:-1])) + f" and {empty[-1]}"
        return f"hands {listed} are empty"
    return None


def _deck_problem(hands: Sequence[HandResult], rules: RuleSet, decks: int) -> str | None:
    """The single-hand path's deck check, run only when a card repeats or
    jokers abound (the common row needs no Hand objects)."""
    if not rules.one_deck:
        return None
    codes = [c for h in hands for c in h.codes]
    naturals = [c for c in codes if c != _JOKER_CODE]
    if len(set(naturals)) == len(naturals) and len(codes) - len(naturals) <= rules.jokers:
        return None
    try:
        check_decks(
            [Hand(tuple(_CARD_OF_CODE[c] for c in h.codes), rules) for h in hands], decks=decks
        )
    except FivecardError as exc:
        return str(exc)
    return None


def _settle(row: Row, hands: tuple[HandResult, ...], rules: RuleSet) -> Solved:
    levels = sorted({h.strength for h in hands}, reverse=True)
    order = tuple(tuple(i for i, h in enumerate(hands) if h.strength == s) for s in levels)
    explanation = explanation_of(
        tuple(h.strength for h in hands), tuple(h.natural for h in hands), rules
    )
    return Solved(row, hands, order[0], order, explanation)


@lru_cache(maxsize=1 << 16)  # bounded: memory must not grow with the input
def explanation_of(
    strengths: tuple[int, ...], naturals: tuple[bool, ...], rules: RuleSet
) -> str:
    """The showdown explanation of hands of these strengths (and whether each
    is natural): it depends on nothing else, so it is cached."""
    tables = tables_for(rules)
    levels = sorted(set(strengths), reverse=True)
    order = [[i for i, s in enumerate(strengths) if s == level] for level in levels]
    return explain_showdown(
        [tables.hand_class(s) for s in strengths], order, rules=rules, naturals=naturals
    )


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
        self.most_hands = max(self.most_hands, len(solved.hands))
        if solved.winners is None:
            self.classified += 1
        elif solved.is_draw:
            self.draws += 1
        else:
            position = solved.winners[0]
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
