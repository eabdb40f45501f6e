"""Marking someone else's answers: a spreadsheet (CSV or ``.xlsx``) of
showdowns where a modeller wrote, per row, a classification for each hand
and the winner, as the ModelOff 2012 case asks. fivecard settles each row
itself and says where the answers differ, and why.

* The hands are found as ``solve`` finds them (:mod:`~fivecard.files.sources`);
  the answers are three more columns, stated, in the order hand 1's
  classification, hand 2's classification, winner, or found by their
  headers (:data:`CLASS_WORDS`, :data:`WINNER_WORDS`) and their cells
  (:func:`find_answer_columns`).
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

Rows are marked a chunk at a time as they are read, through the bulk
pipeline that ``solve`` uses (:func:`open_marking` and
:meth:`Marking.stream`): memory stays bounded whatever the number of rows
(only the totals grow), and time is linear in the rows. :func:`mark_file`
keeps every marked row, for the library and files of a size to hold.

The marked file (:func:`open_marked`) is written as the rows are marked:
as CSV (from any input, at any size), or, for a workbook, as a copy of the
workbook with the marks added (:func:`write_marked` describes both). The
copy keeps the input's formulas, formatting and other sheets, so it is made
with openpyxl, which holds the whole workbook in memory: a workbook of more
than :data:`MAX_COPY_XML` bytes of XML is refused before any row is marked
(CSV has no such limit). The copy stays within Excel's limits
(:func:`~fivecard.files.writers.excel.check_workbook`), and holds macros only when
it is named ``.xlsm``.

Bad rows follow ``solve``'s rules: each is reported with its line and is not
marked (it holds no outcome); the other rows are unaffected. An answer that
cannot be read is reported for its row and counts as wrong.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import re
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache
from typing import IO, Any, Final

from ..core.columns import class_columns
from ..core.rules import Category, RuleSet, get_rules
from ..core.errors import PATH_QUOTE, FileAccessError, FileError, FivecardError, in_context, quote
from ..files.rows import Row, column_letter
from ..files.workbook import unsaved_formula

__all__ = [
    "Answers",
    "MarkedRow",
    "Marking",
    "MarkTotals",
    "MarkedFile",
    "MarkJson",
    "AnswerColumnsError",
    "mark_file",
    "open_marking",
    "open_marked",
    "write_marked",
    "report_marking",
    "modeloff_mark",
    "round_half_away",
    "read_classification",
    "read_winner",
    "CLASS_WORDS",
    "WINNER_WORDS",
    "DRAW_WORDS",
    "CATEGORY_ALIASES",
    "MODELOFF_OUTCOMES",
    "MODELOFF_MAX",
    "MAX_COPY_XML",
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
#: The most XML (unpacked, in bytes: every sheet, the shared strings, the
#: styles ...) of a workbook copied with its marks. openpyxl holds a
#: workbook whole, in over ten times its XML: 32 MiB is about 100,000
#: rows of six cells, some 450 MB in memory.
MAX_COPY_XML: Final = 32 << 20
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
    fivecard.core.errors.FivecardError: could not read 'Flusj' as a classification (a category such as 'Flush' or a score from 1 to 10)
    >>> read_classification('7.0', STANDARD)
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: could not read '7.0' as a classification (a category such as 'Flush' or a score from 1 to 10 as digits alone: no sign, decimal point or leading zero)
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
    fivecard.core.errors.FivecardError: could not read '2.0' as a winner (a player's number from 1 to 2 as digits alone: no sign, decimal point or leading zero ('2', 'Player 2', 'P2'), a player's name, or a draw: 'draw', 'drawn', 'tie', 'tied' ...)
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

    def to_json(self) -> dict[str, Any]:
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

    def text(self) -> str:
        """The row as ``fivecard mark`` reports it: nothing for a right row;
        else ``line N: wrong outcome`` (or ``right outcome, other
        differences``), each difference and why, or ``line N: error: ...``."""
        if self.error is not None:
            return f"line {self.line}: error: {self.error}\n"
        if not self.differences:
            return ""
        lead = "right outcome, other differences" if self.correct else "wrong outcome"
        lines = [f"line {self.line}: {lead}", *(f"  {d}" for d in self.differences), f"  why: {self.explanation}"]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        assert self.expected is not None and self.given is not None
        expected = self.expected.to_json() | {"scores": list(self.scores)}
        return {
            "line": self.line,
            "correct": self.correct,
            "expected": expected,
            "given": self.given.to_json() | {"cells": list(self.cells)},
            "differences": list(self.differences),
            "explanation": self.explanation,
        }


def round_half_away(value: float | Fraction, places: int = 0) -> float:
    """A number rounded to ``places`` decimals (tens, hundreds ... when
    negative) as Excel's ROUND rounds it: on its decimal value, a half away
    from zero. A float's decimal value is the one it is written as
    (``str``), so ``2.675`` is 2.675, not the binary number just below it;
    a :class:`~fractions.Fraction` is rounded exactly. (Python's
    :func:`round` rounds a half to even, on the binary value: 6.25 to 6.2,
    2.675 to 2.67.)

    >>> [round_half_away(v, 1) for v in (6.25, 0.05, 2.15, -0.05)]
    [6.3, 0.1, 2.2, -0.1]
    >>> round_half_away(2.675, 2), round_half_away(21.5, -1), round_half_away(Fraction(1, 8), 2)
    (2.68, 20.0, 0.13)
    """
    exact = Fraction(Decimal(str(value))) if isinstance(value, float) else Fraction(value)
    scale = Fraction(10) ** places
    whole = math.floor(abs(exact) * scale + Fraction(1, 2))
    rounded = float(whole / scale)
    return -rounded if exact < 0 else rounded


def modeloff_mark(correct: int, total: int) -> float:
    """The ModelOff 2012 mark: 1 per right outcome up to 20, 2 per right
    outcome above 20, out of 25 outcomes (30 marks at most). Another number
    of outcomes is scaled to 25 first (``correct * 25 / total``), the same
    rule applied, and the mark rounded to one decimal as Excel's ROUND
    rounds (:func:`round_half_away`), on the exact mark.

    >>> [modeloff_mark(n, 25) for n in (0, 20, 22, 25)]
    [0.0, 20.0, 24.0, 30.0]
    >>> modeloff_mark(9, 10), modeloff_mark(8, 10), modeloff_mark(50, 50), modeloff_mark(0, 0)
    (25.0, 20.0, 30.0, 0.0)
    >>> modeloff_mark(1, 4)  # 6.25
    6.3
    """
    if total <= 0:
        return 0.0
    scaled = Fraction(correct * MODELOFF_OUTCOMES, total)
    mark = min(scaled, Fraction(_FULL_RATE)) + 2 * max(scaled - _FULL_RATE, Fraction(0))
    return round_half_away(mark, 1)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


@dataclass
class MarkTotals:
    """The running totals of a marking: outcomes right (``correct``) of the
    rows marked (``total``), rows with errors (not marked), and wrong answer
    cells. They are all a marking keeps of its rows as they stream."""

    correct: int = 0
    total: int = 0
    errors: int = 0
    wrong_answers: int = 0

    def add(self, row: MarkedRow) -> None:
        if row.error is not None:
            self.errors += 1
            return
        self.total += 1
        self.correct += row.correct
        self.wrong_answers += len(row.wrong_cells)

    @property
    def mark(self) -> float:
        return modeloff_mark(self.correct, self.total)

    def scaling(self) -> str | None:
        """How the mark was scaled, for a grid of another size than 25."""
        if self.total in (0, MODELOFF_OUTCOMES):
            return None
        scaled = round_half_away(Fraction(self.correct * MODELOFF_OUTCOMES, self.total), 2)
        shown = str(int(scaled)) if scaled.is_integer() else f"{scaled:g}"
        return (
            f"{self.total} outcomes, scaled to {MODELOFF_OUTCOMES} for the mark: "
            f"{self.correct} x {MODELOFF_OUTCOMES} / {self.total} = {shown} right"
        )

    def summary(self) -> str:
        """``Outcomes right: 22/25; ModelOff mark: 24/30``."""
        return f"Outcomes right: {self.correct}/{self.total}; ModelOff mark: {_number(self.mark)}/{MODELOFF_MAX}"

    def text(self) -> str:
        """The totals as ``fivecard mark`` ends: the :meth:`summary`, how the
        mark was scaled (if it was) and the rows with errors (if any)."""
        scaling = self.scaling()
        errors = f"({self.errors} row{'s' if self.errors != 1 else ''} with errors, not marked)\n" if self.errors else ""
        return f"{self.summary()}\n" + (f"({scaling})\n" if scaling is not None else "") + errors


@dataclass
class Marking:
    """A marked file: the answer columns (0-based, hand 1's classification,
    hand 2's, winner), how the table was read (``note``), the running
    ``totals``, and the marked rows (``rows``: every data row, error rows
    too, in order).

    :func:`mark_file` keeps every row in ``rows``; a marking opened with
    :func:`open_marking` yields them once from :meth:`stream`, keeps none
    (memory stays bounded), and is closed after (``with``, or
    :meth:`close`). ``correct``, ``total``, ``mark`` and :meth:`summary` are
    the totals'; ``marked``, ``errors`` and ``wrong`` are of the rows kept."""

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
    totals: MarkTotals = field(default_factory=MarkTotals)
    #: Read from a regular file, which a marked workbook copy reads again.
    regular: bool = True
    _run: _Run | None = field(default=None, repr=False, compare=False)

    def stream(self) -> Iterator[MarkedRow]:
        """Mark the rows as they are read, a chunk at a time, and yield each
        (in order; the totals grow as they go). Once only."""
        from ..files.pipeline import chunks_with_rows

        run, self._run = self._run, None
        if run is None:
            raise FivecardError(f"the rows of {quote(self.path, PATH_QUOTE)} were marked already")
        try:
            for chunk, rows in chunks_with_rows(run.rows, run.rules):
                for row in run.mark(chunk, rows):
                    self.totals.add(row)
                    yield row
        finally:
            run.close()

    def close(self) -> None:
        """Close the input (rows not streamed yet are not marked)."""
        run, self._run = self._run, None
        if run is not None:
            run.close()

    def __enter__(self) -> Marking:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def marked(self) -> list[MarkedRow]:
        return [r for r in self.rows if r.error is None]

    @property
    def errors(self) -> list[MarkedRow]:
        return [r for r in self.rows if r.error is not None]

    @property
    def correct(self) -> int:
        return self.totals.correct

    @property
    def total(self) -> int:
        return self.totals.total

    @property
    def wrong(self) -> list[int]:
        """The lines whose outcome is wrong."""
        return [r.line for r in self.marked if not r.correct]

    @property
    def mark(self) -> float:
        return self.totals.mark

    def scaling(self) -> str | None:
        """How the mark was scaled, for a grid of another size than 25."""
        return self.totals.scaling()

    def summary(self) -> str:
        """``Outcomes right: 22/25; ModelOff mark: 24/30``."""
        return self.totals.summary()

    def answer_names(self) -> list[str]:
        return [_column_name(c, self.columns) for c in self.answer_columns]

    def to_json(self) -> dict[str, Any]:
        """The rows kept and the totals, as ``fivecard mark --json`` prints
        them (which :class:`MarkJson` writes as the rows stream)."""
        return {
            "rows": [r.to_json() for r in self.marked],
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


#: How many data rows the answer columns' cells are read in, to find them.
ANSWER_SAMPLE: Final = 50
_CLEAR_SHARE: Final = 0.75  # the answers of a column that must read as one kind
_CLASS, _WINNER, _EITHER, _HANDS = "classification", "winner", "either", "hands"


def _column_kind(texts: Sequence[str], rules: RuleSet, names: tuple[str, ...], hands: int) -> str | None:
    """What a column's cells (the non-empty ones of the first rows) hold:
    hands (most of them), classifications (category names or scores),
    winners (players' numbers or names, draws), either (``1`` and ``2``
    alone), or none of these (None): notes, row numbers (rising from row
    to row: ``1``, ``2``, ``3`` ...), nothing. A kind of answer needs three quarters of the
    cells; of two kinds, the one more cells read as."""
    from ..files.rows import HAND, cell_shape

    if not texts:
        return None
    if sum(cell_shape(t, suits=rules.suits) == HAND for t in texts) * 2 > len(texts):
        return _HANDS
    if len(texts) >= 3 and all(_SCORE.fullmatch(t) for t in texts):
        numbers = [int(t) for t in texts]
        if all(a < b for a, b in itertools.pairwise(numbers)):
            return None  # the rows counted (a row that is an error not among them)
    classes = sum(not isinstance(_classification(t, rules), str) for t in texts)
    winners = sum(not isinstance(_winner(t, names, hands), str) for t in texts)
    enough = _CLEAR_SHARE * len(texts)
    if classes >= enough and (winners < enough or classes > winners):
        return _CLASS
    if winners >= enough and (classes < enough or winners > classes):
        return _WINNER
    return _EITHER if classes >= enough else None


def find_answer_columns(
    columns: Sequence[str],
    hand_columns: set[int],
    hand_names: Sequence[str],
    *,
    hands: int = 2,
    rows: Sequence[Sequence[str]] = (),
    rules: RuleSet | None = None,
) -> tuple[int, ...]:
    """The answer columns: each hand's classification, then the winner.

    A header decides (:data:`CLASS_WORDS` and the hand's number or name,
    :data:`WINNER_WORDS`), unless the column's cells in ``rows`` (the first
    data rows) plainly hold the other kind of answer. A role no header
    decides goes to the column whose cells hold it, whatever its header:
    category names or scores are a classification (of the hand the header
    names, ``Player 2 hand``, else in column order), players or draws the
    winner; a column of only ``1`` and ``2`` takes what is left, the winner
    last (unless it is left of the hands, where a round's number is). A
    column of hands is never an answer column. When the cells
    cannot settle what the headers alone do, the headers stand. Raises
    :class:`AnswerColumnsError` naming what is missing or ambiguous."""
    return _answer_columns(columns, hand_columns, hand_names, hands, rows, rules or get_rules("standard"))[0]


def _answer_columns(
    columns: Sequence[str],
    hand_columns: set[int],
    hand_names: Sequence[str],
    hands: int,
    rows: Sequence[Sequence[str]],
    rules: RuleSet,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`find_answer_columns`, and which of the columns found were found by their cells."""
    names = tuple(n if not n.startswith("column ") else "" for n in hand_names)
    kinds: dict[int, str | None] = {}

    def kind(column: int) -> str | None:  # read when needed: most headers decide
        if column not in kinds:
            texts = [cells[column].strip() for cells in rows if column < len(cells) and cells[column].strip()]
            kinds[column] = _column_kind(texts, rules, names, hands)
        return kinds[column]

    hand_words = [_words(n) for n in hand_names]
    heads: dict[int, tuple[str, int | None]] = {}
    for column, name in enumerate(columns):
        words = set(_words(name))
        if column in hand_columns or name.startswith("column ") or not words & (CLASS_WORDS | WINNER_WORDS):
            continue
        if kind(column) == _HANDS:
            continue
        heads[column] = (_CLASS, _hand_of(_words(name), hand_words)) if CLASS_WORDS & words else (_WINNER, None)
    # the headers trusted where the cells do not plainly say the other answer
    trusted = {c: head for c, head in heads.items() if kind(c) not in {_CLASS, _WINNER} - {head[0]}}
    chosen = _by_headers(trusted, hands)
    if None not in chosen:
        return tuple(c for c in chosen if c is not None), ()
    for column in range(len(columns)):
        if column not in hand_columns:
            kind(column)
    try:
        return _fill_by_cells(chosen, kinds, trusted, hand_words, columns, min(hand_columns))
    except AnswerColumnsError:
        by_headers = _by_headers(heads, hands)
        if None in by_headers:
            raise
        return tuple(c for c in by_headers if c is not None), ()


def _by_headers(heads: dict[int, tuple[str, int | None]], hands: int) -> list[int | None]:
    """The answer columns the headers name (hand 1's classification, ...,
    the winner; None where none does): the first column of each role."""
    found: list[int | None] = [None] * (hands + 1)
    for column, (role, hand) in sorted(heads.items()):
        slot = hands if role == _WINNER else hand
        if slot is not None and found[slot] is None:
            found[slot] = column
    return found


def _fill_by_cells(
    chosen: list[int | None],
    kinds: dict[int, str | None],
    heads: dict[int, tuple[str, int | None]],
    hand_words: Sequence[list[str]],
    columns: Sequence[str],
    first_hand: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Fill the roles the headers leave open with the columns whose cells
    hold them (see :func:`find_answer_columns`); returns the answer columns
    and those found so. Answers follow the hands: a column left of them is
    no answer if it holds only 1s and 2s (a round's number), and is dropped
    first when more columns than roles are offered."""
    hands = len(chosen) - 1
    found = list(chosen)
    taken = {c for c in found if c is not None}
    free = [c for c in kinds if c not in taken and kinds[c] != _HANDS]
    role = {c: heads[c][0] if c in heads else kinds[c] for c in free}
    open_classes = [i for i in range(hands) if found[i] is None]
    winner_open = found[hands] is None
    wanted = len(open_classes) + winner_open

    def offered(columns: list[int]) -> tuple[list[int], list[int], list[int]]:
        classes = [c for c in columns if role[c] == _CLASS] if open_classes else []
        winners = [c for c in columns if role[c] == _WINNER] if winner_open else []
        either = [c for c in columns if role[c] == _EITHER and c > first_hand] if wanted else []
        return classes, winners, either

    def too_many(classes: list[int], winners: list[int], either: list[int]) -> bool:
        return len(classes) > len(open_classes) or len(winners) > 1 or len(classes + winners + either) > wanted

    classes, winners, either = offered(free)
    if too_many(classes, winners, either):
        classes, winners, either = offered([c for c in free if c > first_hand])
    if too_many(classes, winners, either):
        offered_all = sorted(sum(offered(free), []))
        raise AnswerColumnsError(
            f"the cells of {', '.join(_column_name(c, columns) for c in offered_all)} could each be "
            f"answers, for {wanted} answer column{'s' if wanted != 1 else ''} that no header names; "
            "name the answer columns (hand 1's classification, hand 2's, winner) as letters or headers",
            option=("answers", ",".join(column_letter(c) for c in sorted(taken | set(offered_all))[-hands - 1 :])),
        )
    if winners:
        found[hands] = winners[0]
    elif winner_open and either and len(classes) + len(either) > len(open_classes):
        found[hands] = either.pop()  # answers run: the classifications, then the winner
    left = sorted(classes + either)
    for column in list(left):  # a classification whose header names its hand ("Player 2 hand")
        hand = None if columns[column].startswith("column ") else _hand_of(_words(columns[column]), hand_words)
        if hand is not None:
            left.remove(column)
            if found[hand] is None:
                found[hand] = column
    for i in open_classes:
        if found[i] is None and left:
            found[i] = left.pop(0)
    answers = tuple(c for c in found if c is not None)
    if len(answers) < len(found):
        raise _missing(found, columns, sorted(kinds))
    return answers, tuple(c for c in answers if c not in taken)


def _missing(found: Sequence[int | None], columns: Sequence[str], labels: Sequence[int]) -> AnswerColumnsError:
    """The error of answer columns not found (``labels``: the columns that are not hands)."""
    hands = len(found) - 1
    missing = [f"player {i + 1}'s classification" for i, c in enumerate(found[:hands]) if c is None]
    if found[hands] is None:
        missing.append("the winner")
    # answers are usually the last columns
    letters = ",".join(column_letter(c) for c in labels[-hands - 1 :]) if len(labels) > hands else "C1,C2,W"
    shown = ", ".join(_column_name(c, columns) for c in labels) or "none"
    return AnswerColumnsError(
        f"no column for {' and '.join(missing)}: looked for headers such as 'Player 1 "
        f"classification', 'Classification 1', 'P1 Class', 'Hand 1 score', 'Winner', "
        f"'Result', and for cells of categories ('Flush', '7') or winners ('Player 1', "
        f"'draw'), among the columns that are not hands ({shown}); name the answer "
        f"columns (hand 1's classification, hand 2's, winner) as letters or headers",
        option=("answers", letters),
    )


def _stated_columns(spec: str, columns: Sequence[str], hands: int) -> tuple[int, ...]:
    from ..files.rows import _column_index

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


class _Run:
    """What marking a table's rows needs: its rows (read as they are
    marked), the answer columns, the rule set, the players' names, and where
    to look for formulas without a saved value (a workbook's)."""

    def __init__(
        self, source: Any, columns: tuple[int, ...], rules: RuleSet, names: Sequence[str], formulas: _Formulas | None
    ) -> None:
        self.source = source
        self.rows: Iterator[Row] = source.rows
        self.columns = columns
        self.rules = rules
        self.names = tuple(names)
        self.formulas = formulas

    def close(self) -> None:
        self.source.close()
        if self.formulas is not None:
            self.formulas.close()

    def mark(self, chunk: Any, rows: Sequence[Row]) -> Iterator[MarkedRow]:
        """Mark the rows of one solved chunk (see :mod:`~fivecard.files.pipeline`)."""
        counts = chunk.count.tolist()
        starts = chunk.start.tolist()
        strengths = chunk.strength.tolist()
        numbers = chunk.outcome.tolist()
        blanks: dict[tuple[int, int], str] = {}
        if self.formulas is not None:
            empty = {
                (row.line, c)
                for i, row in enumerate(rows)
                if i not in chunk.error and counts[i] == 2
                for c in self.columns
                if not _cell(row.cells, c).strip()
            }
            blanks = self.formulas.messages(empty) if empty else {}
        for i, row in enumerate(rows):
            error = chunk.error.get(i)
            if error is None and counts[i] != 2:
                error = f"{counts[i]} hands; a marked showdown has two"
            if error is not None:
                yield MarkedRow(row.line, row.hands, error=error, input=row.cells)
                continue
            first = starts[i]
            outcome = chunk.outcomes[numbers[i]]
            pair = (strengths[first], strengths[first + 1])
            yield self._marked(row, pair, outcome.winners, outcome.explanation, blanks)

    def _marked(
        self, row: Row, strengths: tuple[int, int], winners: tuple[int, ...], explanation: str,
        blanks: dict[tuple[int, int], str],
    ) -> MarkedRow:
        columns, rules = self.columns, self.rules
        classes = class_columns(rules)
        cells = tuple(_cell(row.cells, c).strip() for c in columns)
        expected_classes = tuple(classes.category(s).label for s in strengths)
        scores = tuple(classes.score(s) for s in strengths)
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
                read = _classification(text, rules)
                if isinstance(read, str):
                    differences.append(f"{what}: {read}")
                else:
                    category = read
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
            winner = _winner(text, self.names, 2)
            if isinstance(winner, str):
                differences.append(f"the winner: {winner}")
                wrong.append(2)
            else:
                given_winner = "draw" if winner is None else winner + 1
                if given_winner != expected_winner:
                    wrong.append(2)
                    right = "a draw" if draw else f"player {expected_winner}"
                    differences.append(f"the winner: said {quote(text)}, right: {right}")
        strongest = (0, 1) if draw else (winners[0],)
        correct = 2 not in wrong and not any(i in wrong for i in strongest)
        hands = row.hands
        first, second = (classes.description(s) for s in strengths)
        described = f"hand 1 ({hands[0]}) is {first}; hand 2 ({hands[1]}) is {second}"
        return MarkedRow(
            line=row.line,
            hands=hands,
            cells=cells,
            given=Answers(tuple(given_classes), given_winner),
            expected=Answers(expected_classes, expected_winner),
            scores=scores,
            correct=correct,
            differences=tuple(differences),
            explanation=f"{described}. {explanation}",
            wrong_cells=tuple(sorted(set(wrong))),
            input=row.cells,
        )


class _Formulas:
    """For a workbook: which empty answer cells hold a formula with no saved
    value (openpyxl, like fivecard, reads a formula's last computed value and
    cannot compute one), for a better message than "no answer". Read from
    the workbook held whole for a marked copy (``book``), or else in step
    with the rows, forward only, with openpyxl's read-only mode, which
    streams a sheet (its answer columns only): bounded memory, one pass."""

    def __init__(self, path: str, sheet: str, columns: Sequence[int]) -> None:
        self.path = path
        self.sheet = sheet
        self.low = min(columns)
        self.high = max(columns)
        self.book: Any = None  # a workbook held whole, when there is one
        self._opened: Any = None  # the read-only workbook opened here
        self._rows: Iterator[Any] | None = None
        self._next = 0  # the line of the next row the read-only reader gives
        self._failed = False

    def close(self) -> None:
        opened, self._opened, self._rows = self._opened, None, None
        if opened is not None:
            with contextlib.suppress(Exception):
                opened.close()

    def messages(self, empty: set[tuple[int, int]]) -> dict[tuple[int, int], str]:
        """The message of each empty cell (line, column) that holds a formula."""
        if self._failed:
            return {}
        try:
            values = self._values(empty)
        except Exception:  # noqa: BLE001 - the rows were read already; this is only a better message
            self._failed = True
            self.close()
            return {}
        found: dict[tuple[int, int], str] = {}
        for (line, column), value in values.items():
            if isinstance(value, str) and value.startswith("="):
                found[(line, column)] = unsaved_formula(column, line, value)
        return found

    def _values(self, empty: set[tuple[int, int]]) -> dict[tuple[int, int], Any]:
        if self.book is not None:
            sheet = self.book[self.sheet]
            return {(line, column): sheet.cell(row=line, column=column + 1).value for line, column in empty}
        lines = sorted({line for line, _ in empty})
        if self._rows is None:
            import openpyxl

            _for_openpyxl(self.path)
            self._opened = openpyxl.load_workbook(self.path, read_only=True, data_only=False)
            sheet = self._opened[self.sheet]
            self._rows = iter(sheet.iter_rows(min_row=lines[0], min_col=self.low + 1, max_col=self.high + 1))
            self._next = lines[0]
        wanted = set(lines)
        values: dict[tuple[int, int], Any] = {}
        while self._next <= lines[-1]:
            cells = next(self._rows, None)
            if cells is None:
                break
            line, self._next = self._next, self._next + 1  # the reader gives every row in turn
            if line in wanted:
                for offset, cell in enumerate(cells):
                    if (line, self.low + offset) in empty:
                        values[(line, self.low + offset)] = getattr(cell, "value", None)
        return values


def open_marking(
    path: str,
    *,
    sheet: str | None = None,
    answers: str | None = None,
    hands: str | None = None,
    rules: str | RuleSet = "standard",
    stdin: IO[bytes] | None = None,
) -> Marking:
    """Open a CSV file or workbook (``-``: ``stdin``) for marking, and find
    its hand and answer columns: the answers of ``answers`` (as letters,
    numbers or header names, in the order hand 1's classification, hand 2's,
    winner; default: found by their headers and their cells in the first
    :data:`ANSWER_SAMPLE` rows, :func:`find_answer_columns`). ``sheet`` and
    ``hands`` as for ``solve``. The rows are marked as they are read, by
    :meth:`Marking.stream`; close the marking after (``with``).

    Raises :class:`AnswerColumnsError` when the answer columns cannot be
    found, and :class:`~fivecard.core.errors.FileError` for an unreadable file or
    one that is not a table of two hands a row."""
    from ..files.sources import open_source

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
        by_cells: tuple[int, ...] = ()
        if answers is not None:
            columns = _stated_columns(answers, source.columns, 2)
            clash = sorted(set(columns) & hand_columns)
            if clash:
                raise AnswerColumnsError(
                    f"answer column {_column_name(clash[0], source.columns)} holds hands, not answers"
                )
        else:
            first = list(itertools.islice(source.rows, ANSWER_SAMPLE))  # read again when marked
            source.rows = itertools.chain(first, source.rows)
            sample = [row.cells for row in first if row.error is None]
            columns, by_cells = _answer_columns(source.columns, hand_columns, hand_names, 2, sample, ruleset)
        names = [n if not n.startswith("column ") else "" for n in hand_names]
        formulas = None
        if source.sheet is not None and path != "-" and source.regular:
            formulas = _Formulas(path, source.sheet, columns)
    except BaseException:
        source.close()
        raise
    note = source.note
    if note is not None:
        note += "; answers: " + ", ".join(_column_name(c, source.columns) for c in columns)
        if by_cells:
            note += f"; found by their cells: {', '.join(column_letter(c) for c in by_cells)}"
    return Marking(
        path=path,
        format="xlsx" if source.sheet is not None else "csv",
        rows=[],
        columns=source.columns,
        answer_columns=(columns[0], columns[1], columns[2]),
        note=note,
        sheet=source.sheet,
        header_line=source.header_line,
        rules=ruleset.name,
        regular=source.regular and path != "-",
        _run=_Run(source, columns, ruleset, names, formulas),
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
    """Mark the answers of a CSV file or workbook (``-``: ``stdin``), as
    :func:`open_marking` opens it, and keep every marked row (``rows``).
    For a file too big to hold its rows, stream them
    (:meth:`Marking.stream`).

    Raises :class:`AnswerColumnsError` when the answer columns cannot be
    found, and :class:`~fivecard.core.errors.FileError` for an unreadable file or
    one that is not a table of two hands a row."""
    with open_marking(path, sheet=sheet, answers=answers, hands=hands, rules=rules, stdin=stdin) as marking:
        marking.rows = list(marking.stream())
    return marking


# --- writing -----------------------------------------------------------------------------

_WRONG_FILL: Final = "FFC7CE"  # Excel's light red for bad cells
_RIGHT_HEADER: Final = "fivecard"
_OUTPUT_KINDS: Final = frozenset({"csv", "xlsx", "xlsm"})  # by the output's name


def _expected_text(row: MarkedRow) -> str:
    if row.expected is None:
        return ""
    return row.expected.text()


def _xml_size(path: str) -> int:
    """The unpacked size of a workbook's XML parts (what openpyxl parses)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            return sum(i.file_size for i in archive.infolist() if i.filename.lower().endswith((".xml", ".vml")))
    except OSError as exc:
        raise FileAccessError(f"cannot open {quote(path, PATH_QUOTE)} to write it back: {exc.strerror or exc}") from None
    except zipfile.BadZipFile as exc:
        raise FileError(f"cannot open {quote(path, PATH_QUOTE)} to write it back: {exc}") from None


def _for_openpyxl(path: str) -> None:
    """Check every XML part of the workbook at ``path`` with fivecard's own
    reader's limits before openpyxl parses it (openpyxl reads parts fivecard
    never does: themes, drawings, other sheets), so that hostile XML there
    is one :class:`~fivecard.core.errors.FileError`, not a reader's time or memory."""
    from ..files.workbook import open_workbook

    try:
        with open(path, "rb") as stream:
            book = open_workbook(stream)
            try:
                book.check_parts()
            finally:
                book.close()
    except OSError as exc:
        raise FileAccessError(f"cannot read {quote(path, PATH_QUOTE)} again: {exc.strerror or exc}") from None
    except FileError as exc:
        raise in_context(exc, f"{quote(path, PATH_QUOTE)}: ") from None


def _has_macros(path: str) -> bool:
    import zipfile

    with contextlib.suppress(OSError, zipfile.BadZipFile), zipfile.ZipFile(path) as archive:
        return any(name.lower().startswith("xl/vba") for name in archive.namelist())
    return False


class MarkedFile:
    """The marked file, written as the rows are marked (see
    :func:`write_marked` for what it holds): :meth:`add` each marked row in
    order, then :meth:`commit`; on an error, :meth:`abort` (or use it in a
    ``with``, which aborts on an exception and says so in its notes). What
    can be checked is checked when it is opened, before any row is marked.
    ``notes`` say what the user should know of the file written."""

    def __init__(self, marking: Marking, output: str, *, stdout: Any = None) -> None:
        from ..files.target import Target, refuse_same_file

        kind = output.rsplit(".", 1)[-1].lower() if "." in output else ""
        if kind not in _OUTPUT_KINDS:
            raise FileError(
                f"cannot tell the output's format from {quote(output, PATH_QUOTE)}: name it .xlsx or .csv "
                "(.xlsm for a workbook that keeps its macros)"
            )
        if kind != "csv" and marking.format != "xlsx":
            raise FileError(
                f"a marked workbook is the input workbook with the marks added: {quote(marking.path, PATH_QUOTE)} "
                "is CSV, so the output ends in .csv"
            )
        if kind != "csv" and marking.path == "-":
            raise FileError(
                "a marked workbook is written from a workbook file, not from standard input: write "
                "the marks as CSV (-o marked.csv)"
            )
        if kind != "csv" and not marking.regular:
            raise FileError(
                f"a marked workbook is made by reading the workbook again, and {quote(marking.path, PATH_QUOTE)} "
                "is not a regular file (a pipe?): write the marks as CSV (-o marked.csv)"
            )
        refuse_same_file(output, marking.path, None, stdout)
        self.marking = marking
        self.output = output
        self.kind = kind
        self.notes: list[str] = []
        self._widest = 10
        self._book: Any = None
        if kind != "csv":
            self._open_copy()
        self.target = Target(output, stdout, binary=kind != "csv", utf8=True)
        self._done = False
        if kind == "csv" and marking.header_line is not None:
            with self:
                self._write_line([*marking.columns, "expected", "verdict"])

    def _open_copy(self) -> None:
        """Load the workbook to copy (within :data:`MAX_COPY_XML`), check
        that its copy is one Excel opens, and find the verdicts' column."""
        import openpyxl

        from ..files.writers.excel import XLSX_COLUMNS, check_workbook, text_cell

        marking, path = self.marking, self.marking.path
        size = _xml_size(path)
        if size > MAX_COPY_XML:
            raise FileError(
                f"{quote(path, PATH_QUOTE)} unpacks to {size / (1 << 20):,.1f} MiB of XML; a marked copy of a "
                f"workbook is made with openpyxl, which holds the whole workbook in memory, for at most "
                f"{MAX_COPY_XML >> 20} MiB of XML (about 100,000 rows of six cells): write the marks as "
                "CSV (-o marked.csv), which has no limit, or mark without -o"
            )
        keep = self.kind == "xlsm"  # macros only under .xlsm: an .xlsx is never macro-enabled
        if not keep and _has_macros(path):
            self.notes.append(
                f"{quote(self.output, PATH_QUOTE)} is an .xlsx workbook, which holds no macros: the macros of "
                f"{quote(path, PATH_QUOTE)} are not in it (name it .xlsm to keep them)"
            )
        _for_openpyxl(path)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                book = openpyxl.load_workbook(path, keep_vba=keep)
        except Exception as exc:  # noqa: BLE001 - it was read once; say why it cannot be again
            raise FileError(f"cannot open {quote(path, PATH_QUOTE)} to write it back: {exc}") from None
        for said in dict.fromkeys(str(w.message) for w in caught):  # what openpyxl does not keep, once each
            if "Title is more than" not in said:  # a name too long is refused below
                self.notes.append(f"openpyxl, which makes the copy, says: {said}")
        book.template = False
        sheet = book[marking.sheet] if marking.sheet is not None else book.worksheets[0]
        self._verdicts = max(sheet.max_column, len(marking.columns)) + 1
        if self._verdicts > XLSX_COLUMNS:
            raise FileError(
                f"sheet {quote(sheet.title)} of {quote(path, PATH_QUOTE)} reaches column "
                f"{column_letter(sheet.max_column - 1)}, so the marked copy's column of verdicts would "
                f"be past {column_letter(XLSX_COLUMNS - 1)}, Excel's last ({XLSX_COLUMNS:,}): write the "
                "marks as CSV (-o marked.csv)"
            )
        check_workbook(book, self.output)  # the input's own cells and names, within Excel's limits
        self._book, self._sheet = book, sheet
        run = marking._run
        if run is not None and run.formulas is not None:
            run.formulas.book = book  # formulas are looked up here, not read again
        if marking.header_line is not None:
            from openpyxl.styles import Font

            header = sheet.cell(row=marking.header_line, column=self._verdicts)
            text_cell(header, _RIGHT_HEADER)
            header.font = Font(bold=True)

    def _write_line(self, cells: Sequence[str]) -> None:
        from ..files.writers.cells import csv_line

        with self._writing():
            self.target.text.write(csv_line(cells))

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A failed write (a full disk) is a :class:`~fivecard.core.errors.FileError` naming the output."""
        from ..files.target import write_error

        try:
            yield
        except OSError as exc:
            raise write_error(exc, self.target.name) from None

    def add(self, row: MarkedRow) -> None:
        """Add one marked row (in order)."""
        marking = self.marking
        if self._book is None:
            cells = list(row.input)
            cells += [""] * (len(marking.columns) - len(cells))
            self._write_line([*cells, _expected_text(row), row.verdict()])
            return
        from openpyxl.comments import Comment
        from openpyxl.styles import PatternFill

        from ..files.writers.cells import cut_text, sheet_text
        from ..files.writers.excel import text_cell

        verdict = cut_text(row.verdict())
        self._widest = max(self._widest, len(verdict))
        sheet = self._sheet
        text_cell(sheet.cell(row=row.line, column=self._verdicts), verdict)
        if row.expected is None:
            return
        fill = PatternFill("solid", start_color=_WRONG_FILL, end_color=_WRONG_FILL)
        for which in row.wrong_cells:
            cell = sheet.cell(row=row.line, column=marking.answer_columns[which] + 1)
            cell.fill = fill
            right = (
                f"{row.expected.classifications[which]} (score {row.scores[which]})"
                if which < 2
                else f"winner: {row.expected.winner}"
            )
            cell.comment = Comment(sheet_text(f"fivecard: {right}"), "fivecard")

    def commit(self) -> None:
        """Finish the file and put it in place."""
        if self._book is not None:
            from ..files.writers.excel import save_workbook

            self._sheet.column_dimensions[column_letter(self._verdicts - 1)].width = min(self._widest, 80)
            stream = self.target.binary
            assert stream is not None
            with self._writing():
                save_workbook(self._book, stream, self.output)
            self._release()
        with self._writing():
            self.target.commit()
        self._done = True

    def abort(self) -> str:
        """Give up: nothing is written. Returns what to tell of the output."""
        self._release()
        return self.target.abort()

    def _release(self) -> None:
        """Let go of the workbook (and the input's macros, which openpyxl
        keeps as an open zip file)."""
        archive = getattr(self._book, "vba_archive", None)
        if archive is not None:
            archive.close()
        self._book = None

    def __enter__(self) -> MarkedFile:
        return self

    def __exit__(self, kind: Any, exc: BaseException | None, trace: Any) -> None:
        if exc is not None and not self._done:
            what = self.abort()
            if what:
                exc.add_note(what)


def open_marked(marking: Marking, output: str, *, stdout: Any = None) -> MarkedFile:
    """Open the marked file ``output`` of a marking (see :func:`write_marked`
    for what it holds), checked before any row is marked: its format, that
    it is not the input, and for a workbook copy its size and Excel's
    limits. Raises :class:`~fivecard.core.errors.FileError`."""
    return MarkedFile(marking, output, stdout=stdout)


def write_marked(marking: Marking, output: str, *, stdout: Any = None) -> list[str]:
    """Write the marked file of a marking whose rows are kept
    (:func:`mark_file`); returns its notes. The file is, by its name:

    * ``.csv`` (from CSV or a workbook, at any size, written as the rows
      are marked): the header and the data rows as read, with two columns
      added, ``expected`` and ``verdict``;
    * ``.xlsx`` or ``.xlsm`` (from a workbook of at most
      :data:`MAX_COPY_XML` of XML): the workbook itself with its formulas,
      formatting and other sheets kept, each wrong answer cell filled light
      red with the right answer in a comment, and a column ``fivecard`` at
      the right with each row's verdict. Macros are kept only in an
      ``.xlsm`` (a file named ``.xlsx`` with macros is one Excel refuses);
      a sheet whose cells reach Excel's last column (XFD) has no room for
      the verdicts and is refused.

    Written atomically; cells fivecard writes are inert."""
    with open_marked(marking, output, stdout=stdout) as marked:
        for row in marking.rows:
            marked.add(row)
        marked.commit()
    return marked.notes


# --- JSON ---------------------------------------------------------------------------------


class _Spool:
    """Items of a JSON list written aside (a temporary file) while the rows
    stream, so that memory does not grow with them; copied out at the end."""

    def __init__(self) -> None:
        self.count = 0
        self.file: IO[str] | None = None

    def add(self, item: str) -> None:
        if self.file is None:
            self.file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed by write_to
        self.file.write(("," if self.count else "") + "\n    " + item)
        self.count += 1

    def write_to(self, out: IO[str]) -> None:
        if self.file is None:
            out.write("[]")
            return
        import shutil

        self.file.seek(0)
        out.write("[")
        shutil.copyfileobj(self.file, out)
        out.write("\n  ]")
        self.close()

    def close(self) -> None:
        file, self.file = self.file, None
        if file is not None:
            file.close()


class MarkJson:
    """``fivecard mark --json``'s document, written as the rows are marked
    (:meth:`add` each, then :meth:`finish`): the same text as
    ``json.dumps(marking.to_json(), indent=2)`` for a marking that kept its
    rows, in memory that does not grow with them (the lists that follow the
    rows, ``wrong`` and ``errors``, wait in temporary files)."""

    def __init__(self, out: IO[str], *, ascii: bool = False) -> None:
        from json.encoder import encode_basestring, encode_basestring_ascii

        self.out = out
        self.ascii = ascii
        self.rows = 0
        self._wrong = _Spool()
        self._errors = _Spool()
        self._string = encode_basestring_ascii if ascii else encode_basestring
        out.write('{\n  "rows": [')

    def _item(self, data: Any) -> str:
        return json.dumps(data, ensure_ascii=self.ascii, indent=2).replace("\n", "\n    ")

    def _value(self, value: Any) -> str:
        if isinstance(value, str):
            return self._string(value)
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(int(value))

    def _list(self, values: Sequence[Any], pad: str) -> str:
        if not values:
            return "[]"
        inner = ",".join(f"\n{pad}  {self._value(v)}" for v in values)
        return f"[{inner}\n{pad}]"

    def _row(self, row: MarkedRow) -> str:
        """``json.dumps(row.to_json(), indent=2)``, as an item of the rows, made
        without the pure-Python encoder that ``indent`` asks for (4 times
        faster, the same text)."""
        assert row.expected is not None and row.given is not None
        expected, given = row.expected, row.given
        return (
            f'{{\n      "line": {row.line},\n      "correct": {self._value(row.correct)},\n'
            f'      "expected": {{\n        "classifications": {self._list(expected.classifications, " " * 8)},\n'
            f'        "winner": {self._value(expected.winner)},\n        "scores": {self._list(row.scores, " " * 8)}\n'
            f'      }},\n      "given": {{\n        "classifications": {self._list(given.classifications, " " * 8)},\n'
            f'        "winner": {self._value(given.winner)},\n        "cells": {self._list(row.cells, " " * 8)}\n'
            f'      }},\n      "differences": {self._list(row.differences, " " * 6)},\n'
            f'      "explanation": {self._string(row.explanation)}\n    }}'
        )

    def add(self, row: MarkedRow) -> None:
        if row.error is not None:
            self._errors.add(self._item({"line": row.line, "error": row.error}))
            return
        self.out.write(("," if self.rows else "") + "\n    " + self._row(row))
        self.rows += 1
        if not row.correct:
            self._wrong.add(str(row.line))

    def finish(self, marking: Marking) -> None:
        """Write the totals and the lists after the rows, and end the document."""
        out, totals = self.out, marking.totals
        out.write("\n  ]" if self.rows else "]")
        for key, value in (("correct", totals.correct), ("total", totals.total), ("mark", totals.mark),
                           ("out_of", MODELOFF_MAX)):
            out.write(f',\n  "{key}": {json.dumps(value)}')
        out.write(',\n  "wrong": ')
        self._wrong.write_to(out)
        out.write(',\n  "errors": ')
        self._errors.write_to(out)
        answers = json.dumps(marking.answer_names(), ensure_ascii=self.ascii, indent=2).replace("\n", "\n  ")
        out.write(f',\n  "answers": {answers}\n}}\n')

    def close(self) -> None:
        """Drop what waits aside (after an error)."""
        self._wrong.close()
        self._errors.close()


# --- the whole run ------------------------------------------------------------------------


def report_marking(
    marking: Marking,
    out: IO[str],
    *,
    output: str | None = None,
    as_json: bool = False,
    ascii: bool = False,
    say: Callable[[str], None] = lambda _: None,
) -> list[str]:
    """Mark an open marking's rows a chunk at a time (memory stays bounded)
    and report them to ``out``: each row's line and the totals
    (:meth:`MarkedRow.text`, :meth:`MarkTotals.text`), or with ``as_json``
    the document :class:`MarkJson` writes. With ``output``, the marked file
    is written too (:func:`write_marked` says what it holds), checked, and
    a workbook to copy loaded, before any row is marked; the marking's note
    (where its columns were found) goes to ``say`` once the output is
    checked. Returns the marked file's notes."""
    marked = open_marked(marking, output, stdout=out) if output is not None else None
    with marked if marked is not None else contextlib.nullcontext():
        if marking.note is not None:
            say(marking.note)
        report = MarkJson(out, ascii=ascii) if as_json else None
        try:
            for row in marking.stream():
                if marked is not None:
                    marked.add(row)
                if report is not None:
                    report.add(row)
                else:
                    out.write(row.text())
            if marked is not None:
                marked.commit()
        except BaseException:
            if report is not None:
                report.close()
            raise
    if report is not None:
        report.finish(marking)
    else:
        out.write(marking.totals.text())
    return marked.notes if marked is not None else []
