"""Marking someone else's answers: a spreadsheet (CSV or ``.xlsx``) of
showdowns where a modeller wrote, per row, a classification for each hand
and the winner, as the ModelOff 2012 case asks. fivecard settles each row
itself and says where the answers differ, and why.

* The hands are found as ``solve`` finds them (:mod:`~fivecard.bulk.sources`);
  the answers are three more columns, found by their headers
  (:data:`CLASS_WORDS`, :data:`WINNER_WORDS`) or stated, in the order
  hand 1's classification, hand 2's classification, winner.
* A classification is a category's name in any case and spacing (the rule
  set's labels and names, and the aliases in :data:`CATEGORY_ALIASES`) or
  its score (1 = weakest, as ``fivecard rules`` lists them); a winner is a
  player's number (``1``, ``Player 2``, ``P2``), the name over that
  player's hand column, or a draw (:data:`DRAW_WORDS`).
* Answers are read strictly: a number in an answer is written in the
  digits 0-9 alone, without a sign, a decimal point, an exponent or a
  leading zero (a number cell of a workbook reads as its value: ``2``).
  ``-2``, ``+2``, ``2.0``, ``02``, ``2e0`` or a full-width ``２`` is no
  player's number and no score: such an answer is reported as unreadable
  for its row and counts as wrong, never credited as another answer.
* A row's **outcome** is right when the winner is right and the strongest
  hand's classification is right (both hands' for a draw); other
  differences are reported but do not cost the outcome.
* The ModelOff 2012 mark (:func:`modeloff_mark`): 1 per right outcome up to
  20 and 2 per right outcome above 20, on 25 outcomes (30 at most); another
  number of outcomes is scaled to 25 first.

Bad rows follow ``solve``'s rules: each is reported with its line and is not
marked (it holds no outcome); the other rows are unaffected. An answer that
cannot be read is reported for its row and counts as wrong.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import IO, Any, Final

from ..core.rules import Category, RuleSet, get_rules
from ..errors import PATH_QUOTE, FileError, FivecardError, quote
from .rows import column_letter

__all__ = [
    "Answers",
    "MarkedRow",
    "Marking",
    "AnswerColumnsError",
    "mark_file",
    "write_marked",
    "modeloff_mark",
    "read_classification",
    "read_winner",
    "CLASS_WORDS",
    "WINNER_WORDS",
    "DRAW_WORDS",
    "CATEGORY_ALIASES",
    "MODELOFF_OUTCOMES",
    "MODELOFF_MAX",
]

#: Header words of a classification column (with a hand's number or name).
CLASS_WORDS: Final = frozenset({"classification", "classified", "class", "category", "score", "type"})
#: Header words of the winner column.
WINNER_WORDS: Final = frozenset({"winner", "winning", "wins", "result", "outcome"})
#: A draw, as a winner answer (case, spaces and punctuation aside; ``0``
#: exactly as written).
DRAW_WORDS: Final = (
    "draw", "drawn", "tie", "tied", "dead heat", "split", "split pot", "chop", "push",
    "0", "none", "no winner", "nobody",
)
#: Other names of categories, by the category's name (used when the rule set has it).
CATEGORY_ALIASES: Final = {
    "one_pair": ("pair", "a pair"),
    "high_card": ("nothing", "high"),
    "two_pair": ("two pairs", "2 pair", "2 pairs"),
    "three_of_a_kind": ("trips", "set", "3 of a kind", "three of kind"),
    "four_of_a_kind": ("quads", "4 of a kind", "four of kind"),
    "full_house": ("boat", "full boat"),
    "royal_flush": ("royal",),
    "five_of_a_kind": ("5 of a kind",),
}
#: The ModelOff 2012 grid: 25 outcomes, 30 marks at most.
MODELOFF_OUTCOMES: Final = 25
MODELOFF_MAX: Final = 30
_FULL_RATE: Final = 20  # outcomes marked 1 each; those above, 2 each
_STEP_WORDS: Final = frozenset({"step"})  # "Step 2: Player 1 category": the 2 is a step
_READ_CACHE: Final = 4096  # distinct answer texts whose reading is kept
_CACHED_TEXT: Final = 80  # the longest answer text kept (a cell may hold 131,072 characters)


class AnswerColumnsError(FivecardError):
    """The answer columns cannot be found, or the ones named do not fit."""


def _words(text: str) -> list[str]:
    """Lower-case words and numbers of a header or answer: ``P1 Class`` is
    ``['p', '1', 'class']``."""
    return re.findall(r"[^\W\d_]+|\d+", text.casefold())


def _key(text: str) -> str:
    return "".join(_words(text))


def _spaced(text: str) -> str:
    """An answer in lower case, its spaces made single: ``' Player  2 '`` is ``'player 2'``."""
    return " ".join(text.casefold().split())


def _has_digit(text: str) -> bool:
    """Whether a text holds a digit of any script (``2``, ``２``, ``²``)."""
    return any(ch.isdigit() for ch in text)


_LOOSE: Final = re.compile(r"[+\-\u2212][0-9]|[0-9]\.[0-9]|[0-9][eE][+\-]?[0-9]|(?<![0-9])0[0-9]")


def _loose_number(text: str) -> bool:
    """Whether a text holds a number not written as digits alone: signed,
    with a decimal point or an exponent, a leading zero, or digits of
    another script (what error messages explain)."""
    return _LOOSE.search(text) is not None or any(ch.isdigit() and not ch.isascii() for ch in text)


# --- reading answers -----------------------------------------------------------------------
#
# The grammar of a number, strictly (ASCII digits, no sign, decimal point,
# exponent or leading zero), and of the forms a player is named by.

_NUMBER: Final = r"[1-9][0-9]{0,5}"
_PLAYER_WORD: Final = r"(?:player|plyr|hand|p|h)"
_A_PLAYER: Final = rf"(?:{_PLAYER_WORD}(?: ?# ?| |_|-)?)?{_NUMBER}"
#: ``2``, ``Player 2``, ``P2``, ``player_2``, ``Player #2``, ``Hand 2``, ``Player 2 wins``.
_ONE_PLAYER: Final = re.compile(rf"{_A_PLAYER}(?: (?:wins|win|won))?", re.ASCII)
#: ``1,2``, ``1 & 2``, ``1 and 2``, ``Players 1 and 2``, ``Player 1 and Player 2``.
_EVERY_PLAYER: Final = re.compile(
    rf"(?:(?:both|players|hands|plyrs) )*{_A_PLAYER}(?:(?: ?[,&] ?| and | ?, and ){_A_PLAYER})+", re.ASCII
)
_SCORE: Final = re.compile(_NUMBER, re.ASCII)
#: ``7 Full House``, ``7 - Full House``, ``7: Full House``.
_SCORE_AND_NAME: Final = re.compile(rf"({_NUMBER}) ?[-:.)=]? ?(.+)", re.ASCII)
_STRICT_NUMBERS: Final = "as digits alone: no sign, decimal point or leading zero"


@cache
def _category_names(rules: RuleSet) -> tuple[dict[str, Category], dict[str, Category]]:
    """A rule set's categories by name: by their letters alone (``one_pair``,
    ``One Pair``, ``one-pair`` are one) and, for names with digits
    (``2 pair``), by their words exactly."""
    by_letters: dict[str, Category] = {}
    by_words: dict[str, Category] = {}
    for category in rules.ladder:
        for alias in CATEGORY_ALIASES.get(category.name, ()):
            by_letters.setdefault(_key(alias), category)
            by_words.setdefault(_spaced(alias), category)
    for category in rules.ladder:  # a rule set's own names and labels come first
        for name in (category.name, category.label):
            by_letters[_key(name)] = category
            by_words[_spaced(name)] = category
    return by_letters, by_words


def _category_named(spaced: str, rules: RuleSet) -> Category | None:
    by_letters, by_words = _category_names(rules)
    if _has_digit(spaced):  # a name with a number matches only as written: '-2 pair' is not '2 pair'
        return by_words.get(spaced)
    return by_letters.get(_key(spaced))


def _classification(text: str, rules: RuleSet) -> Category | str:
    """A classification answer's category, or why it cannot be read (kept
    for the short texts answers are: a sheet repeats them)."""
    return _short_classification(text, rules) if len(text) <= _CACHED_TEXT else _read_classification(text, rules)


@lru_cache(maxsize=_READ_CACHE)
def _short_classification(text: str, rules: RuleSet) -> Category | str:
    return _read_classification(text, rules)


def _read_classification(text: str, rules: RuleSet) -> Category | str:
    spaced = _spaced(text)
    if _SCORE.fullmatch(spaced) and int(spaced) <= len(rules.ladder):
        return rules.ladder[int(spaced) - 1]
    found = _category_named(spaced, rules)
    if found is not None:
        return found
    both = _SCORE_AND_NAME.fullmatch(spaced)
    if both is not None:
        named = _category_named(both.group(2), rules)
        if named is not None and rules.score(named) == int(both.group(1)):
            return named
    example = quote(rules.ladder[min(5, len(rules.ladder) - 1)].label)
    scores = f"a score from 1 to {len(rules.ladder)}"
    if _loose_number(text):
        scores += f" {_STRICT_NUMBERS}"
    return f"could not read {quote(text)} as a classification (a category such as {example} or {scores})"


def read_classification(text: str, rules: RuleSet) -> Category:
    """A classification answer: a category's label or name in any case and
    spacing (or an alias of :data:`CATEGORY_ALIASES`), its score (``7``),
    or both (``7 Full House``, when they agree). A score is read strictly,
    as digits alone: ``7.0``, ``07``, ``+7`` are not read.

    >>> from fivecard.core.rules import STANDARD
    >>> [read_classification(t, STANDARD).label for t in ('Pair', 'full house', '10', '7 - Full House', 'Quads')]
    ['One Pair', 'Full House', 'Royal Flush', 'Full House', 'Four of a Kind']
    >>> read_classification('Flusj', STANDARD)
    Traceback (most recent call last):
    ...
    fivecard.errors.FivecardError: could not read 'Flusj' as a classification (a category such as 'Flush' or a score from 1 to 10)
    >>> read_classification('7.0', STANDARD)
    Traceback (most recent call last):
    ...
    fivecard.errors.FivecardError: could not read '7.0' as a classification (a category such as 'Flush' or a score from 1 to 10 as digits alone: no sign, decimal point or leading zero)
    """
    found = _classification(text, rules)
    if isinstance(found, str):
        raise FivecardError(found)
    return found


#: A winner answer, after draws: ``None`` is a draw, else the 0-based player.
Winner = int | None


def _is_name(spaced: str, name: str) -> bool:
    """Whether an answer is the name over a hand column: its letters, case,
    spaces and punctuation aside; a name with a number only as written."""
    own = _spaced(name)
    if not own or not _key(own):
        return False
    if _has_digit(spaced) or _has_digit(own):
        return spaced == own
    return _key(spaced) == _key(own)


def _winner(text: str, names: tuple[str, ...], hands: int) -> Winner | str:
    """A winner answer's player (0-based) or None for a draw; or why it
    cannot be read (a text). Kept for short texts, as classifications are."""
    return _short_winner(text, names, hands) if len(text) <= _CACHED_TEXT else _read_winner(text, names, hands)


@lru_cache(maxsize=_READ_CACHE)
def _short_winner(text: str, names: tuple[str, ...], hands: int) -> Winner | str:
    return _read_winner(text, names, hands)


def _read_winner(text: str, names: tuple[str, ...], hands: int) -> Winner | str:
    spaced = _spaced(text)
    if spaced == "0" or (not _has_digit(spaced) and _key(spaced) in _draw_keys()):
        return None
    one = _ONE_PLAYER.fullmatch(spaced)
    if one is not None:
        number = int(re.findall("[0-9]+", spaced)[0])
        if number <= hands:
            return number - 1
    elif _EVERY_PLAYER.fullmatch(spaced):
        if sorted(int(n) for n in re.findall("[0-9]+", spaced)) == list(range(1, hands + 1)):
            return None
    bare = re.sub(r" (?:wins|win|won)$", "", spaced)
    for i, name in enumerate(names[:hands]):
        if _is_name(spaced, name) or _is_name(bare, name):
            return i
    players = f"a player's number from 1 to {hands}"
    if _loose_number(text):
        players += f" {_STRICT_NUMBERS} ('2', 'Player 2', 'P2')"
    draws = ", ".join(quote(w) for w in DRAW_WORDS[:4])
    return f"could not read {quote(text)} as a winner ({players}, a player's name, or a draw: {draws} ...)"


@cache
def _draw_keys() -> frozenset[str]:
    return frozenset(_key(w) for w in DRAW_WORDS if not _has_digit(w))


def read_winner(text: str, names: Sequence[str] = (), *, hands: int = 2) -> Winner:
    """A winner answer: the player's number (``1``, ``Player 2``, ``P2``,
    ``Hand 1``, ``Player 1 wins``), the name over the player's hand column
    (``names``), or a draw (:data:`DRAW_WORDS`, or every player's number:
    ``1,2``). Returns the 0-based player, or None for a draw.

    A number is read strictly, as digits alone: ``-2``, ``+2``, ``2.0``,
    ``02``, ``2e0`` and ``２`` (full-width) are no player's number.

    >>> [read_winner(t, ['Alice', 'Bob']) for t in ('1', 'P2', 'Player 1 wins', 'bob', 'Dead heat', '1,2')]
    [0, 1, 0, 1, None, None]
    >>> read_winner('2.0')
    Traceback (most recent call last):
    ...
    fivecard.errors.FivecardError: could not read '2.0' as a winner (a player's number from 1 to 2 as digits alone: no sign, decimal point or leading zero ('2', 'Player 2', 'P2'), a player's name, or a draw: 'draw', 'drawn', 'tie', 'tied' ...)
    """
    found = _winner(text, tuple(names), hands)
    if isinstance(found, str):
        raise FivecardError(found)
    return found


# --- the model -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answers:
    """A row's answers: each hand's classification (a category's label;
    None when not given or not read) and the winner (a 1-based player,
    ``"draw"``, or None when not given or not read)."""

    classifications: tuple[str | None, ...]
    winner: int | str | None

    def json(self) -> dict[str, Any]:
        return {"classifications": list(self.classifications), "winner": self.winner}

    def text(self) -> str:
        classes = ", ".join(c if c is not None else "?" for c in self.classifications)
        return f"{classes}; winner {self.winner if self.winner is not None else '?'}"


@dataclass(frozen=True, slots=True)
class MarkedRow:
    """One data row, marked: its line, hands as written, the answers given
    (as written, ``cells``, and as read, ``given``) and expected, what
    differs (``differences``, for people), whether its outcome is right,
    and why (each hand's description and the showdown's explanation). A row
    whose hands cannot be settled has ``error`` set and is not marked."""

    line: int
    hands: tuple[str, ...]
    cells: tuple[str, ...] = ()
    given: Answers | None = None
    expected: Answers | None = None
    scores: tuple[int, ...] = ()
    correct: bool = False
    differences: tuple[str, ...] = ()
    explanation: str = ""
    error: str | None = None
    #: Which answers differ: 0, 1 (a hand's classification), 2 (the winner).
    wrong_cells: tuple[int, ...] = ()
    #: The row's cells as read.
    input: tuple[str, ...] = ()

    @property
    def differs(self) -> bool:
        return bool(self.differences)

    def verdict(self) -> str:
        """One line: ``right``, ``wrong: ...`` or ``right outcome; ...``."""
        if self.error is not None:
            return f"error: {self.error}"
        if not self.differences:
            return "right"
        lead = "right outcome; " if self.correct else "wrong: "
        return lead + "; ".join(self.differences)

    def json(self) -> dict[str, Any]:
        assert self.expected is not None and self.given is not None
        expected = self.expected.json() | {"scores": list(self.scores)}
        return {
            "line": self.line,
            "correct": self.correct,
            "expected": expected,
            "given": self.given.json() | {"cells": list(self.cells)},
            "differences": list(self.differences),
            "explanation": self.explanation,
        }


def modeloff_mark(correct: int, total: int) -> float:
    """The ModelOff 2012 mark: 1 per right outcome up to 20, 2 per right
    outcome above 20, out of 25 outcomes (30 marks at most). Another number
    of outcomes is scaled to 25 first (``correct * 25 / total``), the same
    rule applied, and the mark rounded to one decimal.

    >>> [modeloff_mark(n, 25) for n in (0, 20, 22, 25)]
    [0.0, 20.0, 24.0, 30.0]
    >>> modeloff_mark(9, 10), modeloff_mark(8, 10), modeloff_mark(50, 50), modeloff_mark(0, 0)
    (25.0, 20.0, 30.0, 0.0)
    """
    if total <= 0:
        return 0.0
    scaled = correct if total == MODELOFF_OUTCOMES else correct * MODELOFF_OUTCOMES / total
    mark = min(scaled, _FULL_RATE) + 2 * max(scaled - _FULL_RATE, 0)
    return round(float(mark), 1)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


@dataclass
class Marking:
    """A marked file: every data row (:class:`MarkedRow`, error rows too),
    in order; the answer columns (0-based, hand 1's classification, hand
    2's, winner) and how the table was read (``note``)."""

    path: str
    format: str
    rows: list[MarkedRow]
    columns: list[str]
    answer_columns: tuple[int, int, int]
    note: str | None = None
    sheet: str | None = None
    header_line: int | None = None
    rules: str = "standard"
    notes: list[str] = field(default_factory=list)

    @property
    def marked(self) -> list[MarkedRow]:
        return [r for r in self.rows if r.error is None]

    @property
    def errors(self) -> list[MarkedRow]:
        return [r for r in self.rows if r.error is not None]

    @property
    def correct(self) -> int:
        return sum(r.correct for r in self.marked)

    @property
    def total(self) -> int:
        return len(self.marked)

    @property
    def wrong(self) -> list[int]:
        """The lines whose outcome is wrong."""
        return [r.line for r in self.marked if not r.correct]

    @property
    def mark(self) -> float:
        return modeloff_mark(self.correct, self.total)

    def scaling(self) -> str | None:
        """How the mark was scaled, for a grid of another size than 25."""
        if self.total in (0, MODELOFF_OUTCOMES):
            return None
        scaled = round(self.correct * MODELOFF_OUTCOMES / self.total, 2)
        shown = str(int(scaled)) if scaled.is_integer() else f"{scaled:g}"
        return (
            f"{self.total} outcomes, scaled to {MODELOFF_OUTCOMES} for the mark: "
            f"{self.correct} x {MODELOFF_OUTCOMES} / {self.total} = {shown} right"
        )

    def summary(self) -> str:
        """``Outcomes right: 22/25; ModelOff mark: 24/30``."""
        return f"Outcomes right: {self.correct}/{self.total}; ModelOff mark: {_number(self.mark)}/{MODELOFF_MAX}"

    def answer_names(self) -> list[str]:
        return [_column_name(c, self.columns) for c in self.answer_columns]

    def json(self) -> dict[str, Any]:
        return {
            "rows": [r.json() for r in self.marked],
            "correct": self.correct,
            "total": self.total,
            "mark": self.mark,
            "out_of": MODELOFF_MAX,
            "wrong": self.wrong,
            "errors": [{"line": r.line, "error": r.error} for r in self.errors],
            "answers": self.answer_names(),
        }


def _column_name(column: int, columns: Sequence[str]) -> str:
    name = columns[column] if column < len(columns) else ""
    return column_letter(column) + (f" ({name})" if name and not name.startswith("column ") else "")


# --- finding the answer columns -----------------------------------------------------------


def _hand_of(words: list[str], hand_words: Sequence[list[str]]) -> int | None:
    """Which hand (0-based) a header's words name: by number (not a step's
    number), or by the hand column's own header words."""
    numbers = [
        int(w) for i, w in enumerate(words) if w.isdecimal() and not (i and words[i - 1] in _STEP_WORDS)
    ]
    if len(numbers) == 1 and 1 <= numbers[0] <= len(hand_words):
        return numbers[0] - 1
    if not numbers:
        for i, names in enumerate(hand_words):
            if names and all(n in words for n in names):
                return i
    return None


def find_answer_columns(
    columns: Sequence[str], hand_columns: set[int], hand_names: Sequence[str], *, hands: int = 2
) -> tuple[int, ...]:
    """The answer columns by their headers: each hand's classification, then
    the winner. Raises :class:`AnswerColumnsError` naming what is missing."""
    hand_words = [_words(n) for n in hand_names]
    classes: list[int | None] = [None] * hands
    winner: int | None = None
    for column, name in enumerate(columns):
        if column in hand_columns or name.startswith("column "):
            continue
        words = _words(name)
        if CLASS_WORDS & set(words):
            hand = _hand_of(words, hand_words)
            if hand is not None and classes[hand] is None:
                classes[hand] = column
        elif WINNER_WORDS & set(words) and winner is None:
            winner = column
    missing = [f"player {i + 1}'s classification" for i, c in enumerate(classes) if c is None]
    if winner is None:
        missing.append("the winner")
    if missing:
        labels = [c for c in range(len(columns)) if c not in hand_columns]
        # answers are usually the last columns
        letters = ",".join(column_letter(c) for c in labels[-hands - 1 :]) if len(labels) > hands else "C1,C2,W"
        found = ", ".join(_column_name(c, columns) for c in labels) or "none"
        raise AnswerColumnsError(
            f"no column for {' and '.join(missing)}: looked for headers such as 'Player 1 "
            f"classification', 'Classification 1', 'P1 Class', 'Hand 1 score', 'Winner', "
            f"'Result' among the columns that are not hands ({found}); name the answer "
            f"columns (hand 1's classification, hand 2's, winner) as letters or headers",
            option=("answers", letters),
        )
    assert winner is not None
    return (*(c for c in classes if c is not None), winner)


def _stated_columns(spec: str, columns: Sequence[str], hands: int) -> tuple[int, ...]:
    from .rows import _column_index

    items = [item.strip() for item in spec.split(",")]
    if len(items) != hands + 1 or not all(items):
        raise AnswerColumnsError(
            f"{quote(spec)} names {len([i for i in items if i])} answer columns; name {hands + 1}: "
            "hand 1's classification, hand 2's, the winner (e.g. 'D,E,F')"
        )
    found: list[int] = []
    for item in items:
        by_name = [i for i, name in enumerate(columns) if _key(name) == _key(item) and _key(item)]
        index = by_name[0] if by_name else _column_index(item)
        if index is None:
            names = ", ".join(quote(c) for c in columns if not c.startswith("column "))
            raise AnswerColumnsError(
                f"unknown answer column {quote(item)}: give a column letter (D), a number (4) "
                f"or a header name ({names or 'the table has no header'})"
            )
        found.append(index)
    return tuple(found)


# --- marking ------------------------------------------------------------------------------


def _cell(cells: Sequence[str], column: int) -> str:
    return cells[column] if column < len(cells) else ""


def _mark_row(
    solved: Any, columns: tuple[int, ...], rules: RuleSet, names: Sequence[str], blanks: dict[tuple[int, int], str]
) -> MarkedRow:
    row = solved.row
    hands = row.hands
    if solved.error is not None:
        return MarkedRow(row.line, hands, error=solved.error, input=row.cells)
    if len(solved.hands) != 2:
        return MarkedRow(
            row.line, hands, error=f"{len(solved.hands)} hands; a marked showdown has two", input=row.cells
        )
    cells = tuple(_cell(row.cells, c).strip() for c in columns)
    evaluations = [h.evaluation(rules) for h in solved.hands]
    expected_classes = tuple(e.label for e in evaluations)
    scores = tuple(e.score for e in evaluations)
    winners: tuple[int, ...] = solved.winners or ()
    draw = len(winners) != 1
    expected_winner: int | str = "draw" if draw else winners[0] + 1
    differences: list[str] = []
    wrong: list[int] = []
    given_classes: list[str | None] = []
    for i, text in enumerate(cells[:2]):
        what = f"hand {i + 1}'s classification"
        category: Category | None = None
        if not text:
            differences.append(f"{what}: {blanks.get((row.line, columns[i]), 'no answer')}")
        else:
            try:
                category = read_classification(text, rules)
            except FivecardError as exc:
                differences.append(f"{what}: {exc}")
        given_classes.append(category.label if category is not None else None)
        if category is None:
            wrong.append(i)
        elif category.label != expected_classes[i]:
            wrong.append(i)
            differences.append(
                f"{what}: said {quote(text)}, right: {expected_classes[i]} (score {scores[i]})"
            )
    given_winner: int | str | None = None
    text = cells[2]
    if not text:
        differences.append(f"the winner: {blanks.get((row.line, columns[2]), 'no answer')}")
        wrong.append(2)
    else:
        try:
            read = read_winner(text, names, hands=2)
            given_winner = "draw" if read is None else read + 1
        except FivecardError as exc:
            differences.append(f"the winner: {exc}")
            wrong.append(2)
        if given_winner is not None and given_winner != expected_winner:
            wrong.append(2)
            right = "a draw" if draw else f"player {expected_winner}"
            differences.append(f"the winner: said {quote(text)}, right: {right}")
    strongest = [0, 1] if draw else [winners[0]]
    correct = 2 not in wrong and not any(i in wrong for i in strongest)
    described = "; ".join(
        f"hand {i + 1} ({h.text}) is {e}" for i, (h, e) in enumerate(zip(solved.hands, evaluations))
    )
    return MarkedRow(
        line=row.line,
        hands=hands,
        cells=cells,
        given=Answers(tuple(given_classes), given_winner),
        expected=Answers(expected_classes, expected_winner),
        scores=scores,
        correct=correct,
        differences=tuple(differences),
        explanation=f"{described}. {solved.explanation}",
        wrong_cells=tuple(sorted(set(wrong))),
        input=row.cells,
    )


def mark_file(
    path: str,
    *,
    sheet: str | None = None,
    answers: str | None = None,
    hands: str | None = None,
    rules: str | RuleSet = "standard",
    stdin: IO[bytes] | None = None,
) -> Marking:
    """Mark the answers of a CSV file or workbook (``-``: ``stdin``):
    settle each row's two hands, read its answers (the columns named by
    ``answers``, as letters, numbers or header names in the order hand 1's
    classification, hand 2's, winner; default: found by their headers) and
    compare. ``sheet`` and ``hands`` as for ``solve``.

    Raises :class:`AnswerColumnsError` when the answer columns cannot be
    found, and :class:`~fivecard.errors.FileError` for an unreadable file or
    one that is not a table of two hands a row."""
    from .solve import solve_rows
    from .sources import open_source

    ruleset = get_rules(rules)
    source = open_source(path, sheet=sheet, stdin=stdin, suits=ruleset.suits, hands=hands)
    try:
        layout = source.layout
        if layout is None:
            raise FileError(
                f"{quote(source.name, PATH_QUOTE)} is read as text; marking needs a table (CSV or "
                "a workbook) with the answers in columns"
            )
        if len(layout.units) != 2:
            raise FileError(
                f"{quote(source.name, PATH_QUOTE)} has {len(layout.units)} hand columns "
                f"({layout.describe(source.columns)}); a marked showdown has two hands"
            )
        hand_columns = {c for unit in layout.units for c in unit}
        hand_names = [source.columns[u[0]] if len(u) == 1 else "" for u in layout.units]
        if answers is not None:
            columns = _stated_columns(answers, source.columns, 2)
            clash = sorted(set(columns) & hand_columns)
            if clash:
                raise AnswerColumnsError(
                    f"answer column {_column_name(clash[0], source.columns)} holds hands, not answers"
                )
        else:
            columns = find_answer_columns(source.columns, hand_columns, hand_names)
        names = [n if not n.startswith("column ") else "" for n in hand_names]
        rows = list(source.rows)
    finally:
        source.close()
    blanks = _formula_blanks(path, source, rows, columns) if source.sheet is not None else {}
    solved = solve_rows(rows, rules=ruleset)
    marked = [_mark_row(s, columns, ruleset, names, blanks) for s in solved]
    fmt = "xlsx" if source.sheet is not None else "csv"
    note = source.note
    if note is not None:
        note += "; answers: " + ", ".join(_column_name(c, source.columns) for c in columns)
    return Marking(
        path=path,
        format=fmt,
        rows=marked,
        columns=source.columns,
        answer_columns=(columns[0], columns[1], columns[2]),
        note=note,
        sheet=source.sheet,
        header_line=source.header_line,
        rules=ruleset.name,
    )


def _formula_blanks(path: str, source: Any, rows: Sequence[Any], columns: Sequence[int]) -> dict[tuple[int, int], str]:
    """For a workbook: the empty answer cells that hold a formula with no
    saved value (openpyxl, like fivecard, reads a formula's last computed
    value and cannot compute one), by (line, column), each with a message."""
    empty = {
        (row.line, c)
        for row in rows
        if row.error is None
        for c in columns
        if not _cell(row.cells, c).strip()
    }
    if not empty or path == "-":
        return {}
    import openpyxl

    found: dict[tuple[int, int], str] = {}
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
    except Exception:  # noqa: BLE001 - read once already; this is only a better message
        return {}
    try:
        sheet = book[source.sheet]
        lines = sorted({line for line, _ in empty})
        wanted = set(columns)
        for cells in sheet.iter_rows(min_row=lines[0], max_row=lines[-1]):
            for cell in cells:
                column = getattr(cell, "column", None)
                line = getattr(cell, "row", None)
                if column is None or line is None or (line, column - 1) not in empty or column - 1 not in wanted:
                    continue
                value = cell.value
                if isinstance(value, str) and value.startswith("="):
                    formula = value if len(value) <= 40 else value[:40] + "..."
                    found[(line, column - 1)] = (
                        f"cell {column_letter(column - 1)}{line} holds the formula {quote(formula)} with no "
                        "saved value (open and save the workbook in Excel or LibreOffice, which store "
                        "formulas' values)"
                    )
    finally:
        book.close()
    return found


# --- writing -----------------------------------------------------------------------------

_WRONG_FILL: Final = "FFC7CE"  # Excel's light red for bad cells
_RIGHT_HEADER: Final = "fivecard"


def write_marked(marking: Marking, output: str, *, stdout: Any = None) -> None:
    """Write the marked file: for a workbook input, the workbook itself
    (``output`` ending in ``.xlsx``/``.xlsm``) with its formulas and
    formatting kept, each wrong answer cell filled light red with the right
    answer in a comment, and a column ``fivecard`` at the right with each
    row's verdict; for a CSV input (``output`` ending in ``.csv``), the
    header and the data rows with two columns added, ``expected`` and
    ``verdict``. Written atomically; cells fivecard writes are inert."""
    from .target import Target, refuse_same_file, write_error

    suffix = output.rsplit(".", 1)[-1].lower() if "." in output else ""
    wanted = "xlsx" if suffix in ("xlsx", "xlsm") else "csv" if suffix == "csv" else None
    if wanted is None:
        raise FileError(f"cannot tell the output's format from {quote(output, PATH_QUOTE)}: name it .xlsx or .csv")
    if wanted != marking.format:
        raise FileError(
            f"the marked file is the input with the marks added: {quote(marking.path, PATH_QUOTE)} is "
            f"{'a workbook' if marking.format == 'xlsx' else 'CSV'}, so the output ends in .{marking.format}"
        )
    if marking.path == "-":
        raise FileError("a marked file is written from an input file, not from standard input")
    refuse_same_file(output, marking.path, None, stdout)
    target = Target(output, stdout, binary=wanted == "xlsx", utf8=True)
    try:
        if wanted == "xlsx":
            stream = target.binary
            assert stream is not None
            _write_workbook(marking, stream)
        else:
            _write_csv(marking, target.text)
        target.commit()
    except OSError as exc:
        target.abort()
        raise write_error(exc, target.name) from None
    except BaseException as exc:
        what = target.abort()
        if what:
            with contextlib.suppress(AttributeError):
                exc.add_note(what)
        raise


def _inert_cell(cell: Any, text: str) -> None:
    cell.value = _pictures(text)
    cell.data_type = "s"  # a text cell, even when it starts with "="


def _pictures(text: str) -> str:
    """A text for a workbook cell: control characters as their pictures, as
    :func:`~fivecard.bulk.writers.inert` shows them (a workbook's text cell
    needs no leading quote)."""
    from .writers import inert

    safe = inert(text)
    return safe[1:] if safe.startswith("'") and not text.startswith("'") else safe


def _expected_text(row: MarkedRow) -> str:
    if row.expected is None:
        return ""
    return row.expected.text()


def _write_workbook(marking: Marking, stream: IO[bytes]) -> None:
    import openpyxl
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill

    try:
        book = openpyxl.load_workbook(marking.path, keep_vba=marking.path.lower().endswith(".xlsm"))
    except Exception as exc:  # noqa: BLE001 - it was read once; say why it cannot be again
        raise FileError(f"cannot open {quote(marking.path, PATH_QUOTE)} to write it back: {exc}") from None
    sheet = book[marking.sheet] if marking.sheet is not None else book.worksheets[0]
    verdict_column = max(sheet.max_column, len(marking.columns)) + 1
    fill = PatternFill("solid", start_color=_WRONG_FILL, end_color=_WRONG_FILL)
    if marking.header_line is not None:
        header = sheet.cell(row=marking.header_line, column=verdict_column)
        _inert_cell(header, _RIGHT_HEADER)
        header.font = Font(bold=True)
    for row in marking.rows:
        _inert_cell(sheet.cell(row=row.line, column=verdict_column), row.verdict())
        if row.expected is None:
            continue
        for which in row.wrong_cells:
            cell = sheet.cell(row=row.line, column=marking.answer_columns[which] + 1)
            cell.fill = fill
            right = (
                f"{row.expected.classifications[which]} (score {row.scores[which]})"
                if which < 2
                else f"winner: {row.expected.winner}"
            )
            cell.comment = Comment(_pictures(f"fivecard: {right}"), "fivecard")
    widest = max((len(r.verdict()) for r in marking.rows), default=10)
    sheet.column_dimensions[column_letter(verdict_column - 1)].width = min(max(widest, 10), 80)
    book.save(stream)


def _write_csv(marking: Marking, out: IO[str]) -> None:
    from .writers import csv_field, inert

    def line(cells: Sequence[str]) -> str:
        return ",".join(csv_field(inert(c)) for c in cells) + "\n"

    width = len(marking.columns)
    if marking.header_line is not None:
        out.write(line([*marking.columns, "expected", "verdict"]))
    for row in marking.rows:
        cells = list(row.input)
        cells += [""] * (width - len(cells))
        out.write(line([*cells, _expected_text(row), row.verdict()]))
