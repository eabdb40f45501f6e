"""A test grid of two-hand showdowns that covers every outcome.

A spreadsheet modeller (ModelOff 2012: sort, classify and pick the winner of
two five-card hands) checks their formulas against :func:`grid_rows`: every
category against each neighbour (in both orders, so player 2 wins too),
every tie-break rule of every category down to the last kicker, a draw in
every category where one is possible, the wheel (A-2-3-4-5) below the 6-high
straight and straight flush, the ace-high straight and the royal flush,
Q-K-A-2-3 (no straight), cards written out of order, and ModelOff 2012's
own examples. :func:`grid_answers` settles each row with fivecard itself
(:func:`~fivecard.core.showdown.showdown`); no answer is typed by hand.

Both hands of a row come from one 52-card deck, so some tie-breaks cannot
happen (:data:`IMPOSSIBLE`): two hands never hold three or four cards of the
same rank, so equal trips (three of a kind's kickers, a full house's pair),
equal quads (four of a kind's kicker) and draws in those categories are
left out.

Every other rule set (:data:`SUPPORTED_RULES`) gets a grid found by search
rather than by hand: every hand of the rule set's dealt deck is scored at
once (:func:`~fivecard.vector.batch.strengths_of_indices`) and the rows are the
first matches, in a fixed order, of: each category's weakest hand against
the strongest of its neighbour below (both orders); per category, hands of
neighbouring strengths, one row per deciding step; a draw; with wild cards,
a natural hand against a wild hand of equal value; and neighbour rows with
the cards in no order. :func:`grid_impossible` says what one deck cannot
deal.

The grid is fixed (no randomness): the rows, in order, are the same on every
run. It writes as every file output does
(:mod:`~fivecard.files.target`, :func:`~fivecard.files.writers.cells.inert`):
:func:`write_grid` writes it as a workbook or a CSV file, atomically.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.hand import Hand
from ..core.rules import RULE_SETS, STANDARD, Category, RuleSet, get_rules
from ..core.showdown import showdown
from ..core.errors import PATH_QUOTE, FileError, FivecardError, RulesError, quote
from ..vector import batch
from ..files.target import Target
from ..files.writers.cells import check_text, csv_line, sheet_text
from ..files.writers.excel import column_widths, fitted_widths, save_workbook, text_cell

__all__ = [
    "GridRow",
    "GridAnswer",
    "IMPOSSIBLE",
    "GRID_COLUMNS",
    "ANSWER_COLUMNS",
    "SUPPORTED_RULES",
    "grid_rows",
    "grid_impossible",
    "grid_text",
    "grid_answers",
    "grid_table",
    "write_grid",
]

#: The rule sets the grid is built for: every built-in rule set, and
#: ``standard`` with wild cards (``standard+wild(2)``, see
#: :func:`~fivecard.core.rules.wild_rules`). ``standard``'s rows are
#: designed by hand; the others' are found by search.
SUPPORTED_RULES: Final = (*RULE_SETS, "standard+wild(...)")

#: The columns of the sheet "Grid" (and of a CSV file with ``answers=False``).
GRID_COLUMNS: Final = ("Test", "Player 1", "Player 2", "What it tests")
#: The columns of the sheet "Answers" (and of a CSV file).
ANSWER_COLUMNS: Final = (
    "Test",
    "Player 1",
    "Player 2",
    "Player 1 classification",
    "Player 2 classification",
    "Winner",
    "Why",
)

#: Tie-breaks (and draws) that two hands from one 52-card deck cannot reach.
IMPOSSIBLE: Final = (
    "Three of a Kind: equal trips (so the kickers never decide, and no draw): six cards of a rank",
    "Full House: equal trips (so the pair never decides, and no draw): six cards of a rank",
    "Four of a Kind: equal quads (so the kicker never decides, and no draw): eight cards of a rank",
)


@dataclass(frozen=True, slots=True)
class GridRow:
    """One showdown of the grid: a short id (``FL-kicker-3``), the two hands
    as text, and what the row tests, in words."""

    test: str
    hands: tuple[str, str]
    tests: str


@dataclass(frozen=True, slots=True)
class GridAnswer:
    """A row settled by fivecard: each hand's classification (the rule set's
    category label, e.g. ``Two Pair``), the winner (``1``, ``2`` or
    ``draw``) and why (the showdown's explanation)."""

    row: GridRow
    classifications: tuple[str, str]
    winner: str
    why: str


# Short codes of the standard categories, for row ids.
_CODES: Final = {
    "high_card": "HC",
    "one_pair": "1P",
    "two_pair": "2P",
    "three_of_a_kind": "3K",
    "straight": "ST",
    "flush": "FL",
    "full_house": "FH",
    "four_of_a_kind": "4K",
    "straight_flush": "SF",
    "royal_flush": "RF",
    "five_of_a_kind": "5K",
    "ace_king": "AK",
    "no_pair": "NP",
}

# One example of each category above its neighbour below, and that
# neighbour, from one deck: (stronger, weaker). In ladder order.
_NEIGHBOURS: Final = (
    ("8S 8D KH 5C 2D", "AC QD 9H 6S 3C"),  # One Pair / High Card
    ("4S 4D 3H 3C 2D", "AS AD KH QC JS"),  # the lowest Two Pair / the highest One Pair
    ("2S 2D 2H 4C 3C", "AH AC KS KD QH"),  # the lowest trips / the highest Two Pair
    ("AC 2D 3H 4S 5C", "AS AD AH KC QS"),  # the wheel / the highest trips
    ("7H 5H 4H 3H 2H", "TS JD QC KS AD"),  # the lowest Flush / the highest Straight
    ("3S 3D 3C 2S 2D", "AH KH QH JH 9H"),  # the lowest Full House / the highest Flush
    ("2C 2D 2H 2S 3C", "AS AD AH KS KD"),  # the lowest quads / the highest Full House
    ("AD 2D 3D 4D 5D", "KS KH KD KC AS"),  # the wheel straight flush / quads
    ("TS JS QS KS AS", "9H TH JH QH KH"),  # Royal Flush / the highest straight flush
)

# Tie-breaks: (id, the stronger hand, the weaker hand, what decides).
_TIE_BREAKS: Final = (
    ("HC-kicker-1", "AS JD 8C 6H 3S", "KC QH 9D 7S 5C", "High Card: the first (highest) card decides"),
    ("HC-kicker-2", "AS QD 8C 6H 3S", "AC JH 9D 7S 5C", "High Card: the second card decides"),
    ("HC-kicker-3", "AS QD 9C 6H 3S", "AC QH 8D 7S 5C", "High Card: the third card decides"),
    ("HC-kicker-4", "AS QD 9C 7H 3S", "AC QH 9D 6S 5C", "High Card: the fourth card decides"),
    ("HC-kicker-5", "AS QD 9C 7H 4S", "AC QH 9D 7S 3C", "High Card: the fifth (last) card decides"),
    ("1P-pair", "KS KD 7C 5H 2S", "QC QH AD JS 9C", "One Pair: the pair's rank decides before any kicker"),
    ("1P-kicker-1", "9S 9D AC 5H 2S", "9C 9H KD QS JC", "One Pair, equal pairs: the first kicker decides"),
    ("1P-kicker-2", "9S 9D AC QH 2S", "9C 9H AD JS TC", "One Pair, equal pairs: the second kicker decides"),
    ("1P-kicker-3", "9S 9D AC QH 5S", "9C 9H AD QS 4C", "One Pair, equal pairs: the third (last) kicker decides"),
    ("2P-high", "JS JD 3C 3H 2S", "TC TH 9D 9S AC", "Two Pair: the higher pair decides before the lower pair and kicker"),
    ("2P-low", "JS JD 5C 5H 2S", "JC JH 4D 4S AC", "Two Pair, equal higher pairs: the lower pair decides before the kicker"),
    ("2P-kicker", "JS JD 5C 5H 9S", "JC JH 5D 5S 8C", "Two Pair, equal pairs: the kicker decides"),
    ("3K-trips", "8S 8D 8C 3H 2S", "7C 7H 7D AS KC", "Three of a Kind: the trips' rank decides (kickers cannot: see the notes)"),
    ("ST-top", "7S 8D 9C TH JS", "6C 7H 8C 9D TS", "Straight: the top card decides"),
    ("ST-wheel", "2S 3D 4C 5H 6S", "AC 2H 3C 4D 5S", "Straight: the wheel A-2-3-4-5 is the lowest straight, below 6-high"),
    ("ST-ace-high", "TS JD QC KH AS", "9C TH JC QD KS", "Straight: the ace-high straight (10-J-Q-K-A) beats the king-high"),
    ("FL-kicker-1", "AH 9H 7H 4H 2H", "KS QS JS 9S 7S", "Flush: the first (highest) card decides"),
    ("FL-kicker-2", "AH JH 7H 4H 2H", "AS TS 9S 7S 5S", "Flush: the second card decides"),
    ("FL-kicker-3", "AH JH 8H 4H 2H", "AS JS 7S 6S 5S", "Flush: the third card decides"),
    ("FL-kicker-4", "AH JH 8H 5H 2H", "AS JS 8S 4S 3S", "Flush: the fourth card decides"),
    ("FL-kicker-5", "AH JH 8H 5H 3H", "AS JS 8S 5S 2S", "Flush: the fifth (last) card decides"),
    ("FH-trips", "4S 4D 4C 2H 2S", "3C 3H 3D AS AC", "Full House: the trips decide, not the pair"),
    ("4K-quads", "3S 3D 3C 3H 4S", "2C 2H 2D 2S AC", "Four of a Kind: the quads' rank decides, not the kicker"),
    ("SF-top", "5S 6S 7S 8S 9S", "4H 5H 6H 7H 8H", "Straight Flush: the top card decides"),
    ("SF-wheel", "2D 3D 4D 5D 6D", "AC 2C 3C 4C 5C", "Straight Flush: the wheel A-2-3-4-5 is the lowest, below 6-high"),
)

# Straights that are and are not: (id, the stronger hand, the weaker hand, what it tests).
_STRAIGHTS: Final = (
    ("ST-wheel-vs-3K", "AC 2H 3C 4D 5S", "KS KD KC QH JS", "The wheel A-2-3-4-5 is a straight (the ace plays low): it beats trips"),
    ("ST-wrap", "4C 4H 7D 8S 9C", "QS KD AC 2H 3S", "Q-K-A-2-3 is no straight (a straight does not wrap round): High Card loses to One Pair"),
)

# Draws: (id, hand, hand, what draws). Every category whose draw one deck allows.
_DRAWS: Final = (
    ("HC-draw", "KS JD 8C 6H 3S", "KC JH 8D 6S 3C", "High Card: the same five ranks draw (suits never break ties)"),
    ("1P-draw", "9S 9D AC QH 5S", "9C 9H AD QS 5C", "One Pair: the same pair and kickers draw"),
    ("2P-draw", "JS JD 5C 5H 9S", "JC JH 5D 5S 9C", "Two Pair: the same pairs and kicker draw"),
    ("ST-draw", "5S 6D 7C 8H 9S", "5C 6H 7D 8S 9C", "Straight: the same top card draws"),
    ("ST-wheel-draw", "AS 2D 3C 4H 5S", "AC 2H 3D 4S 5C", "Straight: two wheels (A-2-3-4-5) draw"),
    ("FL-draw", "KH JH 8H 6H 3H", "KS JS 8S 6S 3S", "Flush: the same five ranks draw (suits never break ties)"),
    ("SF-draw", "5S 6S 7S 8S 9S", "5H 6H 7H 8H 9H", "Straight Flush: the same top card draws"),
    ("RF-draw", "TS JS QS KS AS", "TH JH QH KH AH", "Royal Flush against a Royal Flush draws"),
)

# ModelOff 2012's own examples (its question on poker hands): (id, hand 1, hand 2, what it tests).
_SEED: Final = (
    ("ModelOff-flush", "QC TC 7C 6C 4C", "QD TD 7D 5D 4D", "ModelOff 2012: Q-10-7-6-4 flush beats Q-10-7-5-4 flush (fourth card)"),
    ("ModelOff-2P-draw", "TD TH 4H 4C 3S", "TS TC 4S 4D 3H", "ModelOff 2012: 10s and 4s with a 3 against the same: a draw"),
    ("ModelOff-royal-flush", "AD KD QD JD TD", "QC TC 7C 6C 4C", "ModelOff 2012: Royal Flush beats Flush"),
    ("ModelOff-royal-draw", "AD KD QD JD TD", "AS KS QS JS TS", "ModelOff 2012: two royal flushes draw"),
    ("ModelOff-FH", "7S 7H 7D 4S 4C", "6S 6H 6D AS AC", "ModelOff 2012: 7s full of 4s beats 6s full of aces (the trips decide)"),
    ("ModelOff-2P-high", "TS TC 8D 8S 4H", "8H 8C 4S 4C TH", "ModelOff 2012: 10s and 8s beat 8s and 4s (the higher pair decides)"),
    ("ModelOff-2P-low", "TS TC 8H 8C 4D", "TD TH 4S 4H QH",
     "ModelOff 2012: 10s and 8s beat 10s and 4s with a queen (the lower pair decides; its 4S, in both hands, is 4D here)"),
    ("ModelOff-3K", "QS QH QD 7S 4C", "JS JC JD AD KC", "ModelOff 2012: queens beat jacks (the trips decide, not the kickers)"),
    ("ModelOff-4K", "9C 9S 9D 9H JH", "7S 7H 7D 7C AS", "ModelOff 2012: four 9s beat four 7s (the quads decide, not the kicker)"),
)

# Cards written in no order: the formulas must sort them first.
_UNSORTED: Final = (
    ("unsorted-2P", "KD 9C 4H KS 9D", "5C AH 5S 2D 5H", "Cards in no order: two pair (K-9-4-K-9) against trips (5-A-5-2-5)"),
    ("unsorted-ST", "9S 5D 7C 6H 8S", "3H JH 8H QH 5H", "Cards in no order: a straight (9-5-7-6-8) against a flush"),
    ("unsorted-FH", "2S 3D 2D 3C 3S", "QC 4D QH 4S 4C", "Cards in no order: 3s full of 2s against 4s full of queens"),
    ("unsorted-SF", "JC 9C KC TC QC", "TD AD QD JD KD", "Cards in no order: king-high straight flush against a royal flush"),
)


def _rules(rules: str | RuleSet) -> RuleSet:
    ruleset = get_rules(rules)
    try:
        known = get_rules(ruleset.name) is ruleset  # a built-in or a standard+wild(...) one
    except FivecardError:
        known = False
    if not known:
        raise RulesError(
            f"the test grid is built for these rule sets only: {', '.join(SUPPORTED_RULES)}; "
            f"not {quote(ruleset.name)}"
        )
    return ruleset


def grid_rows(rules: str | RuleSet = "standard") -> list[GridRow]:
    """The test grid: the same rows, in the same order, on every call.

    Groups, in order: each category against its neighbour below, both orders
    (``NB-...``); the tie-breaks of each category (``HC-kicker-1`` ...
    ``SF-wheel``), the stronger hand alternately player 1 and player 2;
    draws (``...-draw``); ModelOff 2012's examples (``ModelOff-...``); cards written
    in no order (``unsorted-...``). Every row is checked to be a valid
    one-deck showdown that tests what it says (a draw draws, a tie-break is
    decided within the category, a neighbour row crosses one rung); a row
    that did not would be a bug, raised as an AssertionError.

    Those are ``standard``'s rows, designed by hand. Another rule set of
    :data:`SUPPORTED_RULES` gets rows found by search (see the module's
    notes; ids such as ``NB-5K-RF-1``, ``FL-tie-2``, ``HC-draw``,
    ``RF-wild-draw``, ``unsorted-FH-FL``), checked the same way; a rule set
    that is not built in (nor ``standard+wild(...)``) is a
    :class:`~fivecard.core.errors.RulesError`.

    >>> rows = grid_rows()
    >>> rows[0]
    GridRow(test='NB-1P-HC-1', hands=('8S 8D KH 5C 2D', 'AC QD 9H 6S 3C'), tests='One Pair beats High Card (player 1 wins)')
    """
    ruleset = _rules(rules)
    if ruleset is not STANDARD:
        return list(_search(ruleset)[0])
    ladder = ruleset.ladder
    designed: list[tuple[GridRow, str, str]] = []  # a row, its kind, the player meant to win
    for index, (stronger, weaker) in enumerate(_NEIGHBOURS):
        high, low = ladder[index + 1], ladder[index]
        name = f"NB-{_CODES[high.name]}-{_CODES[low.name]}"
        words = f"{high.label} beats {low.label}"
        designed.append((GridRow(f"{name}-1", (stronger, weaker), f"{words} (player 1 wins)"), "neighbour", "1"))
        designed.append((GridRow(f"{name}-2", (weaker, stronger), f"{words} (player 2 wins)"), "neighbour", "2"))
    for index, (test, stronger, weaker, words) in enumerate(_TIE_BREAKS + _STRAIGHTS):
        hands = (stronger, weaker) if index % 2 == 0 else (weaker, stronger)
        player = str(1 + index % 2)
        kind = "tie-break" if index < len(_TIE_BREAKS) else "other"
        designed.append((GridRow(test, hands, f"{words} (player {player} wins)"), kind, player))
    designed += [(GridRow(test, (a, b), words), "draw", "draw") for test, a, b, words in _DRAWS]
    designed += [(GridRow(test, (a, b), words), "other", "") for test, a, b, words in _SEED + _UNSORTED]
    _check(designed, ruleset)
    return [row for row, _, _ in designed]


def grid_impossible(rules: str | RuleSet = "standard") -> tuple[str, ...]:
    """What the grid of a rule set leaves out because one deck cannot deal
    it (:data:`IMPOSSIBLE` for ``standard``), a line per category."""
    ruleset = _rules(rules)
    return IMPOSSIBLE if ruleset is STANDARD else _search(ruleset)[1]


@cache
def _search(rules: RuleSet) -> tuple[tuple[GridRow, ...], tuple[str, ...]]:
    """The searched grid of a rule set other than ``standard``, checked, and
    what it leaves out."""
    designed, single = _searched(rules)
    _check(designed, rules)
    return tuple(row for row, _, _ in designed), _notes(rules, designed, single)


def _check(designed: Sequence[tuple[GridRow, str, str]], rules: RuleSet) -> None:
    """Each row a valid one-deck showdown that tests what it says: a
    neighbour row crosses one rung, a tie-break is decided within its
    category, a draw draws, and the player meant to win wins."""
    dealt = Counter(rules.deck())
    ids = [row.test for row, _, _ in designed]
    if len(set(ids)) != len(ids):
        raise AssertionError("the grid's ids are not unique")
    for row, kind, player in designed:
        try:
            result = showdown(row.hands, rules=rules)  # raises on a card in both hands
        except FivecardError as exc:
            raise AssertionError(f"grid row {row.test} is not a one-deck showdown: {exc}") from None
        hands = [Hand.parse(text, rules=rules).cards for text in row.hands]
        if [len(h) for h in hands] != [5, 5] or Counter(c for h in hands for c in h) - dealt:
            raise AssertionError(f"grid row {row.test} is not a one-deck showdown: not two hands of its deck")
        first, second = (e.category for e in result.evaluations)
        places = sorted(rules.ladder.index(c) for c in (first, second))
        good = (
            (kind != "neighbour" or places[1] - places[0] == 1)
            and (kind not in ("tie-break", "draw") or first == second)
            and (not player or _winner(result.winners) == player)
        )
        if not good:
            raise AssertionError(f"grid row {row.test} does not test what it says: {result.explanation}")


def _winner(winners: tuple[int, ...]) -> str:
    return str(winners[0] + 1) if len(winners) == 1 else "draw"


def grid_answers(rows: Sequence[GridRow], rules: str | RuleSet = "standard") -> list[GridAnswer]:
    """Each row settled by :func:`~fivecard.core.showdown.showdown`: the two
    classifications (category labels), the winner (``1``, ``2`` or
    ``draw``) and the explanation.

    >>> grid_answers([GridRow('x', ('AS AD 7C 5H 2S', 'KC QH 9D 7S 5C'), 'x')])[0].winner
    '1'
    """
    ruleset = get_rules(rules)
    answers = []
    for row in rows:
        result = showdown(row.hands, rules=ruleset)
        labels = tuple(e.label for e in result.evaluations)
        answers.append(GridAnswer(row, (labels[0], labels[1]), _winner(result.winners), result.explanation))
    return answers


def _table(rows: Sequence[GridRow], answers: Sequence[GridAnswer] | None) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The header and the cells of the grid, with or without the answers."""
    if answers is None:
        return GRID_COLUMNS, [(r.test, *r.hands, r.tests) for r in rows]
    return ANSWER_COLUMNS, [(a.row.test, *a.row.hands, *a.classifications, a.winner, a.why) for a in answers]


def grid_table(rows: Sequence[GridRow], answers: Sequence[GridAnswer] | None = None) -> list[str]:
    """The grid as lines of a text table: id, hands, (winner,) what it tests."""
    header = ["Test", "Player 1", "Player 2"] + (["Winner"] if answers is not None else []) + ["What it tests"]
    body = [
        [r.test, *r.hands] + ([answers[i].winner] if answers is not None else []) + [r.tests]
        for i, r in enumerate(rows)
    ]
    widths = [max(len(line[k]) for line in [header, *body]) for k in range(len(header) - 1)]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths)) + "  " + line[-1]
        for line in [header, *body]
    ]


def grid_text(rows: Sequence[GridRow], rules: str | RuleSet = "standard", *, answers: bool = True) -> str:
    """The grid as ``fivecard grid`` prints it: :func:`grid_table` (with
    the winners, unless ``answers`` is false), then what the grid leaves
    out (:func:`grid_impossible`)."""
    table = grid_table(rows, grid_answers(rows, rules) if answers else None)
    left_out = "".join(f"  {line}\n" for line in grid_impossible(rules))
    return "\n".join(table) + "\n\nNot in the grid (a deck cannot deal them, or there is nothing to test):\n" + left_out


def write_grid(
    path: str,
    rows: Sequence[GridRow],
    *,
    rules: str | RuleSet = "standard",
    answers: bool = True,
) -> None:
    """Write the grid to ``path``, atomically (a temporary file beside it,
    renamed over it when complete).

    ``.xlsx``: the sheet "Grid" (:data:`GRID_COLUMNS`, with room for the
    modeller's formulas beside it) and, with ``answers``, the sheet
    "Answers" (:data:`ANSWER_COLUMNS`). ``.csv``: one table, the Answers
    columns (the Grid columns without ``answers``). Every cell is inert
    text (see :func:`~fivecard.files.writers.cells.inert`). A workbook that Excel
    would not open (a cell past 32,767 characters) is refused with a
    :class:`~fivecard.core.errors.FileError` (see
    :func:`~fivecard.files.writers.excel.check_workbook`).
    """
    kind = os.path.splitext(path)[1].lower()
    if kind not in (".xlsx", ".csv"):
        raise FileError(f"the grid is written as FILE.xlsx or FILE.csv, not {quote(path, PATH_QUOTE)}")
    settled = grid_answers(rows, rules) if answers else None
    target = Target(path, None, binary=kind == ".xlsx", utf8=True)
    try:
        if kind == ".csv":
            header, cells = _table(rows, settled)
            target.text.write("".join(csv_line(line) for line in [header, *cells]))
        else:
            stream = target.binary
            assert stream is not None
            save_workbook(_workbook(rows, settled, path), stream, path)
        target.commit()
    except BaseException as exc:
        target.abort(exc)
        raise


def _workbook(rows: Sequence[GridRow], answers: Sequence[GridAnswer] | None, path: str) -> Any:
    import openpyxl
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = openpyxl.Workbook()
    sheets = [("Grid", _table(rows, None))]
    if answers is not None:
        sheets.append(("Answers", _table(rows, answers)))
    book.remove(book.worksheets[0])  # the empty sheet a new workbook starts with
    bold = Font(bold=True)
    for title, (header, cells) in sheets:
        sheet = book.create_sheet(title)
        for number, line in enumerate([header, *cells], 1):
            for k, text in enumerate(line):
                where = f"cell {get_column_letter(k + 1)}{number} of sheet {quote(title)}"
                check_text(sheet_text(text), path, where)
                text_cell(sheet.cell(row=number, column=k + 1), text)
        for cell in sheet[1]:
            cell.font = bold
        sheet.freeze_panes = "A2"
        column_widths(sheet, fitted_widths([header, *cells]))
    return book


# --- other rule sets: rows found by search ---------------------------------------

#: How many hands of one strength the search tries when it looks for two
#: that share no card: the first (natural hands first, then in deck
#: order), then hands spread evenly over the rest (the first hands of a
#: strength in deck order tend to hold the same cards: A♠, A♥ ...).
_FIRST: Final = 16
_SPREAD: Final = 240
#: The order in which a sorted hand's cards are written in the rows of
#: cards in no order (neither sorted nor reversed, whatever the cards).
_SHUFFLE: Final = (2, 4, 0, 3, 1)
_DECIDES: Final = re.compile(r"the ([a-z ]+?) decides|natural hand and a wild hand")


@dataclass(frozen=True, slots=True)
class _Deck:
    """Every hand of a rule set's dealt deck: its cards (deck positions), and
    the hands of each strength, natural hands first, then in deck order."""

    rules: RuleSet
    texts: tuple[str, ...]  # each dealt card's text (``AS``, ``JK``, ``A``)
    combos: npt.NDArray[np.uint8]
    order: npt.NDArray[np.int64]  # hand numbers by strength (then wild cards, then deck order)
    starts: npt.NDArray[np.int64]  # where each strength's hands start in ``order``
    strengths: tuple[int, ...]  # the strengths some hand has, weakest first
    category: npt.NDArray[np.int8]  # the ladder index of each strength
    wilds: npt.NDArray[np.int32]  # how many wild cards each hand holds

    def hands(self, strength: int) -> npt.NDArray[np.int64]:
        return _sample(self.order[self.starts[strength] : self.starts[strength + 1]])

    def masks(self, hands: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
        cards = self.combos[hands].astype(np.uint64)
        masks: npt.NDArray[np.uint64] = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards), axis=1)
        return masks

    def text(self, hand: int) -> str:
        return " ".join(self.texts[int(card)] for card in self.combos[hand])

    def of_category(self, index: int) -> list[int]:
        """The strengths of a ladder category that some hand has, weakest first."""
        return [s for s in self.strengths if self.category[s] == index]

    def pair(self, first: int, second: int) -> tuple[int, int] | None:
        """The first two hands (by :meth:`hands` order, the first hand's
        place first) of these strengths that share no card, or None."""
        a, b = self.hands(first), self.hands(second)
        apart = (self.masks(a)[:, None] & self.masks(b)[None, :]) == 0
        if first == second:
            apart &= ~np.eye(len(a), dtype=bool)
        first_apart = int(apart.argmax())  # the first in row order (a flat index)
        if not apart.flat[first_apart]:
            return None
        i, j = divmod(first_apart, len(b))
        return int(a[i]), int(b[j])


def _sample(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The hands the search tries, in order: see :data:`_FIRST`."""
    if len(hands) <= _FIRST + _SPREAD:
        return hands
    spread = np.linspace(_FIRST, len(hands) - 1, _SPREAD).astype(np.int64)
    picked: npt.NDArray[np.int64] = hands[np.concatenate((np.arange(_FIRST), spread))]
    return picked


def _deck(rules: RuleSet) -> _Deck:
    dealt = rules.deck()
    combos = batch.combinations(len(dealt))
    strengths = batch.strengths_of_indices(np.array([c.index for c in dealt], dtype=np.int32)[combos], rules=rules)
    wild = np.array([rules.is_wild(c) for c in dealt], dtype=np.int32)[combos].sum(axis=1)
    order = np.argsort(strengths.astype(np.int32) * 8 + wild, kind="stable")
    counts = np.bincount(strengths, minlength=len(batch.category_table(rules)) + 1)
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    present = tuple(int(s) for s in np.flatnonzero(counts) if s > 0)
    texts = tuple(c.code_str.upper() for c in dealt)
    return _Deck(rules, texts, combos, order, starts, present, batch.category_table(rules), wild)


def _code(category: Category) -> str:
    return _CODES.get(category.name) or "".join(w[0] for w in category.label.split()).upper()


def _searched(rules: RuleSet) -> tuple[list[tuple[GridRow, str, str]], set[str]]:
    """The rows of a rule set other than ``standard``, found by searching
    every hand of its dealt deck (see :func:`grid_rows`), and the names of
    the categories whose hands are all of one value."""
    deck = _deck(rules)
    ladder = rules.ladder
    levels = [deck.of_category(i) for i in range(len(ladder))]
    single = {c.name for c, level in zip(ladder, levels) if len(level) == 1}
    rows: list[tuple[GridRow, str, str]] = []
    # (a) each category against its neighbour below: the weakest hand of the
    # stronger category against the strongest of the weaker, both orders.
    neighbours: list[tuple[GridRow, str, str]] = []
    for index in range(1, len(ladder)):
        high, low = ladder[index], ladder[index - 1]
        if not levels[index] or not levels[index - 1]:
            continue
        found = None
        for up in levels[index]:
            for down in reversed(levels[index - 1]):
                found = deck.pair(up, down)
                if found:
                    break
            if found:
                break
        if found is None:
            continue
        stronger, weaker = deck.text(found[0]), deck.text(found[1])
        name = f"NB-{_code(high)}-{_code(low)}"
        words = f"{high.label} beats {low.label}"
        neighbours.append((GridRow(f"{name}-1", (stronger, weaker), f"{words} (player 1 wins)"), "neighbour", "1"))
        neighbours.append((GridRow(f"{name}-2", (weaker, stronger), f"{words} (player 2 wins)"), "neighbour", "2"))
    rows += neighbours
    # (b) per category, tie-breaks: hands of neighbouring strengths, from
    # the strongest down, one row per deciding step (until every step a
    # category's key has is found: one for a straight, one per rank group
    # else); and a draw.
    turn = 0
    for index, category in enumerate(ladder):
        level = levels[index]
        steps: set[str] = set()
        most = 1 if category.straight else len(category.shape)
        for place in range(len(level) - 1, 0, -1):
            found = deck.pair(level[place], level[place - 1])
            if found is None:
                continue
            hands = (deck.text(found[0]), deck.text(found[1]))
            step = _step(showdown(hands, rules=rules).explanation)
            if step in steps:
                continue
            steps.add(step)
            player = str(1 + turn % 2)
            turn += 1
            words = f"{category.label}: {step} (player {player} wins)"
            test = f"{_code(category)}-tie-{len(steps)}"
            rows.append((GridRow(test, hands if player == "1" else hands[::-1], words), "tie-break", player))
            if len(steps) == most:
                break
    for index, category in enumerate(ladder):
        for strength in reversed(levels[index]):
            found = deck.pair(strength, strength)
            if found:
                hands = (deck.text(found[0]), deck.text(found[1]))
                words = f"{category.label}: hands of equal value draw"
                rows.append((GridRow(f"{_code(category)}-draw", hands, words), "draw", "draw"))
                break
    if rules.wild_indices:
        rows += _wild_draws(deck, levels)
    # (c) cards written in no order: the neighbour rows' hands shuffled.
    for row, _, player in neighbours[::2][-4:]:
        first, second = (_shuffled(text) for text in row.hands)
        labels = row.tests.split(" beats ")
        words = f"Cards in no order: {labels[0]} against {labels[1].split(' (')[0]}"
        rows.append((GridRow(f"unsorted-{row.test[3:-2]}", (first, second), words), "other", player))
    return rows, single


def _step(explanation: str) -> str:
    """What decides a showdown within a category: ``the fifth card decides``."""
    match = _DECIDES.search(explanation)
    return match.group(0) if match else explanation.split(": ", 1)[-1]


def _shuffled(text: str) -> str:
    cards = text.split()
    return " ".join(cards[i] for i in _SHUFFLE)


def _wild_draws(deck: _Deck, levels: Sequence[Sequence[int]]) -> list[tuple[GridRow, str, str]]:
    """Per category, a natural hand against a wild hand of equal value (a
    draw), where one deck deals both."""
    rows = []
    for index, category in enumerate(deck.rules.ladder):
        for strength in reversed(levels[index]):
            hands = deck.order[deck.starts[strength] : deck.starts[strength + 1]]
            natural = _sample(hands[deck.wilds[hands] == 0])
            wild = _sample(hands[deck.wilds[hands] > 0])
            if not len(natural) or not len(wild):
                continue
            apart = (deck.masks(natural)[:, None] & deck.masks(wild)[None, :]) == 0
            if apart.any():
                i, j = divmod(int(apart.argmax()), len(wild))
                pair = (deck.text(int(natural[i])), deck.text(int(wild[j])))
                words = f"{category.label}: a natural hand and a wild hand of equal value draw"
                rows.append((GridRow(f"{_code(category)}-wild-draw", pair, words), "draw", "draw"))
                break
    return rows


def _notes(rules: RuleSet, rows: Sequence[tuple[GridRow, str, str]], single: set[str]) -> tuple[str, ...]:
    """What the searched grid of a rule set leaves out, category by category."""
    settled = [(showdown(row.hands, rules=rules), kind) for row, kind, _ in rows]
    notes = []
    for category in rules.ladder:
        seen = any(category in (e.category for e in result.evaluations) for result, _ in settled)
        if not seen:
            notes.append(f"{category.label}: the dealt deck holds no such hand")
            continue
        for what in ("tie-break", "draw"):
            if any(k == what and result.evaluations[0].category == category for result, k in settled):
                continue
            if what == "tie-break" and category.name in single:
                notes.append(f"{category.label}: no tie-break (all its hands are of equal value)")
            else:
                notes.append(f"{category.label}: no {what} (no two hands of one deck make one)")
    return tuple(notes)
