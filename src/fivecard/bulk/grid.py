"""A test grid of two-hand showdowns that covers every outcome (issue 15).

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

The grid is fixed (no randomness): the rows, in order, are the same on every
run. It lives in the bulk layer beside the other file outputs
(:mod:`~fivecard.bulk.target`, :func:`~fivecard.bulk.writers.inert`):
:func:`write_grid` writes it as a workbook or a CSV file, atomically.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..core.rules import STANDARD, RuleSet, get_rules
from ..core.showdown import showdown
from ..errors import PATH_QUOTE, FileError, FivecardError, RulesError, quote
from .target import Target
from .writers import inert

__all__ = [
    "GridRow",
    "GridAnswer",
    "IMPOSSIBLE",
    "GRID_COLUMNS",
    "ANSWER_COLUMNS",
    "SUPPORTED_RULES",
    "grid_rows",
    "grid_answers",
    "grid_table",
    "write_grid",
]

#: The rule sets the grid is built for.
SUPPORTED_RULES: Final = ("standard",)

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
    if ruleset.name not in SUPPORTED_RULES:
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

    Only ``standard`` is supported (:data:`SUPPORTED_RULES`); another rule
    set is a :class:`~fivecard.errors.RulesError`.

    >>> rows = grid_rows()
    >>> rows[0]
    GridRow(test='NB-1P-HC-1', hands=('8S 8D KH 5C 2D', 'AC QD 9H 6S 3C'), tests='One Pair beats High Card (player 1 wins)')
    """
    ruleset = _rules(rules)
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


def _check(designed: Sequence[tuple[GridRow, str, str]], rules: RuleSet) -> None:
    """Each row a valid one-deck showdown that tests what it says: a
    neighbour row crosses one rung, a tie-break is decided within its
    category, a draw draws, and the player meant to win wins."""
    ids = [row.test for row, _, _ in designed]
    if len(set(ids)) != len(ids):
        raise AssertionError("the grid's ids are not unique")
    for row, kind, player in designed:
        try:
            result = showdown(row.hands, rules=rules)  # raises on a card in both hands
        except FivecardError as exc:
            raise AssertionError(f"grid row {row.test} is not a one-deck showdown: {exc}") from None
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
    text (see :func:`~fivecard.bulk.writers.inert`).
    """
    kind = os.path.splitext(path)[1].lower()
    if kind not in (".xlsx", ".csv"):
        raise FileError(f"the grid is written as FILE.xlsx or FILE.csv, not {quote(path, PATH_QUOTE)}")
    settled = grid_answers(rows, rules) if answers else None
    target = Target(path, None, binary=kind == ".xlsx", utf8=True)
    try:
        if kind == ".csv":
            header, cells = _table(rows, settled)
            text = io.StringIO()
            writer = csv.writer(text, lineterminator="\n")
            writer.writerow(header)
            writer.writerows([[inert(c) for c in line] for line in cells])
            target.text.write(text.getvalue())
        else:
            stream = target.binary
            assert stream is not None
            _workbook(rows, settled).save(stream)
        target.commit()
    except BaseException:
        target.abort()
        raise


def _workbook(rows: Sequence[GridRow], answers: Sequence[GridAnswer] | None) -> Any:
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
        for line in [header, *cells]:
            sheet.append([_text_cell(c) for c in line])
        for cell in sheet[1]:
            cell.font = bold
        for line_cells in sheet.iter_rows():
            for cell in line_cells:
                cell.data_type = "s"  # a text cell, never a formula
        sheet.freeze_panes = "A2"
        for k in range(len(header)):
            width = max(len(str(line[k])) for line in [header, *cells])
            sheet.column_dimensions[get_column_letter(k + 1)].width = min(width, 60) + 2
    return book


def _text_cell(text: str) -> str:
    """A workbook cell's text: :func:`inert`'s control-character pictures;
    the cell itself is marked text, so no leading ``'`` is needed."""
    safe = inert(text)
    return safe[1:] if safe.startswith("'") and not text.startswith("'") else safe
