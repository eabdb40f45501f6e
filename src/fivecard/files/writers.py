"""Writing a columnar result (:class:`~fivecard.files.pipeline.Chunk`): one writer
per format, each formatting whole columns at once.

What a row's cells hold is made once per distinct value and reused: a
strength's category, score and description, an outcome's winners and
explanation, a card's spelling. Cards are spelled by table lookups over the
card codes; texts that need escaping (a ``,`` in a CSV cell, a ``"`` in a
JSON string, a cell a spreadsheet would run as a formula) are found by
scanning the bytes of a whole column, and only those are escaped one by one.

The cells a CSV file or a workbook receives are inert: no cell is ever a
formula (a text starting with ``=``, ``+``, ``-`` or ``@``, also after
spaces, or with a tab or a line end, gets a leading ``'`` in CSV, by
:func:`inert`, and is a text cell in a workbook), and control characters, which
a workbook cannot hold, are shown as their Unicode pictures (U+0007 as
``␇``). A row with more hands than the header names keeps every named column
in place: the extra hands' cells follow the error column, and
:meth:`Writer.notes` says so.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import IO, Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from ..core.cards import ALL_CARDS, CARD_OF_CODE, JOKER, SORT_PLACE, Card
from ..core.evaluate import Evaluation, class_descriptions, evaluate
from ..core.hand import Hand
from .pipeline import Chunk, token_text
from ..core.report import Painter, class_fields, evaluation_json, wild_fields
from ..core.showdown import Outcome
from ..core.rules import RuleSet
from ..vector import batch
from ..vector.batch import category_table as batch_category_table
from .formats import BINARY_FORMATS, OUTPUT_FORMATS, output_format
from ..core.lookup import tables_for
from ..core.errors import PATH_QUOTE, FileError, quote
from .rows import column_letter
from ..vector.wild import wild_cases
from .workbook import MAX_ROWS

__all__ = [
    "Writer",
    "make_writer",
    "OUTPUT_FORMATS",
    "BINARY_FORMATS",
    "inert",
    "csv_field",
    "result_header",
    "output_format",
    "overflow_note",
    "ClassInfo",
    "class_info",
    "Tally",
    "MAX_ROWS",
    "XLSX_COLUMNS",
    "XLSX_CELL",
    "XLSX_SHEET_NAME",
    "sheet_text",
    "check_workbook",
    "check_text",
    "save_workbook",
]

_PER_HAND: Final = 3  # CSV and xlsx cells per hand: sorted cards, category, score
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: What a spreadsheet may run as a formula: a text that starts with one of
#: these, after any leading spaces (some programs trim them first) ...
_FORMULA_START: Final = ("=", "+", "-", "@")
#: ... or a text that starts with a tab or a line end (some programs drop
#: them, or read the rest of the cell as a line of its own).
_BREAK_START: Final = ("\t", "\n", "\r", "\x85", "\u2028", "\u2029")
_POWERS: Final = 10 ** np.arange(1, 19, dtype=np.int64)
#: What Excel opens: columns of a sheet (A ... XFD; rows: :data:`MAX_ROWS`),
#: characters of a cell, characters of a sheet's name (and those a name
#: may not hold, nor start or end with: ``'``).
XLSX_COLUMNS: Final = 16_384
XLSX_CELL: Final = 32_767
XLSX_SHEET_NAME: Final = 31
_SHEET_NAME_BANNED: Final = frozenset("[]:*?/\\")
Objects = npt.NDArray[np.object_]
I64 = npt.NDArray[np.int64]


# --- cells made safe --------------------------------------------------------------------------


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\u2421" if code == 0x7F else chr(0x2400 + code)


def inert(text: str) -> str:
    """A cell's text made safe for a spreadsheet: control characters as their
    pictures, and a leading ``'`` before what a spreadsheet could run as a
    formula: a text starting with ``=``, ``+``, ``-`` or ``@``, after any
    spaces, or with a tab or a line end (``\\n``, ``\\r``, ...).

    >>> inert('=cmd|" /C calc"!A0'), inert('AS KS'), inert('bell\\x07')
    ('\\'=cmd|" /C calc"!A0', 'AS KS', 'bell␇')
    >>> inert(' =1+1'), inert('\\n=1+1'), inert('\\t@SUM(A1)'), inert('Ann - Bob')
    ("' =1+1", "'\\n=1+1", "'\\t@SUM(A1)", 'Ann - Bob')
    """
    if _CONTROL.search(text):
        text = _CONTROL.sub(_picture, text)
    if text.startswith(_BREAK_START) or text.lstrip().startswith(_FORMULA_START):
        return "'" + text
    return text


def sheet_text(text: str) -> str:
    """A text for a workbook's text cell: control characters as their
    pictures, as :func:`inert` shows them (a text cell is never run as a
    formula, so it needs no leading ``'``).

    >>> sheet_text('=1+1'), sheet_text('bell\\x07')
    ('=1+1', 'bell␇')
    """
    return _CONTROL.sub(_picture, text) if _CONTROL.search(text) else text


def csv_field(text: str) -> str:
    """A field as the csv module writes it (minimal quoting).

    >>> csv_field('High Card, K-10-9-8-4'), csv_field('Royal Flush')
    ('"High Card, K-10-9-8-4"', 'Royal Flush')
    """
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _csv_cell(text: str) -> bytes:
    return csv_field(inert(text)).encode()


def _json_text(text: str) -> bytes:
    """A JSON string's inside (no quotes)."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode()


def _json_ascii(text: str) -> bytes:
    return json.dumps(text)[1:-1].encode()


def _byte_set(characters: bytes) -> npt.NDArray[np.bool_]:
    table = np.zeros(256, dtype=bool)
    table[list(characters)] = True
    table[0x80:] = True  # not ASCII: checked (and undecodable bytes replaced) one by one
    return table


_CSV_SPECIAL: Final = _byte_set(b',"\r\n' + bytes(range(0x20)) + b"\x7f")
_CSV_LEADING: Final = _byte_set(b"=+-@\t\n\r ")  # a space: a formula may follow
_JSON_SPECIAL: Final = _byte_set(b'"\\' + bytes(range(0x20)))
_NO_LEADING: Final = np.zeros(256, dtype=bool)


def _escaped(
    values: Sequence[bytes],
    special: npt.NDArray[np.bool_],
    leading: npt.NDArray[np.bool_],
    fix: Callable[[str], bytes],
    wrap: bytes = b"",
) -> Objects:
    """Each value as a cell: ``wrap + value + wrap`` when none of its bytes
    is ``special`` and its first is not ``leading`` (found by one scan of all
    the values' bytes); else ``fix`` of its text."""
    n = len(values)
    out = np.empty(n, dtype=object)
    if not n:
        return out
    joined = b"\n".join(values)
    data = np.frombuffer(joined, dtype=np.uint8)
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
    starts = np.cumsum(lengths + 1) - lengths - 1
    flagged = np.zeros(n, dtype=bool)
    if leading.any():
        nonempty = lengths > 0
        flagged[nonempty] = leading[data[starts[nonempty]]]
    hits = np.flatnonzero(special[data])
    if len(hits):
        rows = np.searchsorted(starts, hits, side="right") - 1
        flagged[rows[hits < starts[rows] + lengths[rows]]] = True  # not the "\n" between values
    plain = np.array(values, dtype=object) if not wrap else None
    if wrap:
        plain = np.array(values, dtype=object)
        plain = wrap + plain + wrap
    assert plain is not None
    out[:] = plain
    for i in np.flatnonzero(flagged).tolist():
        out[i] = fix(values[i].decode("utf-8", "replace"))
    return out


def _numbers(values: I64, before: bytes = b"", after: bytes = b"", *, pad: int = 0) -> Objects:
    """Whole numbers as ASCII bytes (between ``before`` and ``after``,
    right-aligned in ``pad`` columns): :func:`_numbered_rows` with nothing
    after the number but ``after``."""
    return _numbered_rows(values, before, [after] if after else [], pad=pad)


# --- what every hand of a strength shares -----------------------------------------------------


class ClassInfo:
    """What every hand of one strength shares, for output (the class, and
    its description, are made when first asked for: a category and a
    score need neither)."""

    __slots__ = ("category", "name", "score", "strength", "_rules", "_description")

    def __init__(self, rules: RuleSet, strength: int) -> None:
        category = rules.ladder[int(batch.category_table(rules)[strength])]
        self.category: str = category.name
        self.name: str = category.label
        self.score = rules.score(category)
        self.strength = strength
        self._rules = rules
        self._description: str | None = None

    @property
    def description(self) -> str:
        if self._description is None:
            self._description = class_descriptions(self._rules)[self.strength]
        return self._description


@cache
def _class_infos(rules: RuleSet) -> list[ClassInfo | None]:
    return [None] * (tables_for(rules).size + 1)


def class_info(rules: RuleSet, strength: int) -> ClassInfo:
    """The category, score and description of a strength (cached)."""
    infos = _class_infos(rules)
    info = infos[strength]
    if info is None:
        if not 1 <= strength < len(infos):
            tables_for(rules).hand_class(strength)  # its error: no such class
        info = infos[strength] = ClassInfo(rules, strength)
    return info


class _PerStrength:
    """A piece made from a strength's class the first time it is met."""

    def __init__(self, rules: RuleSet, make: Callable[[ClassInfo], Any]) -> None:
        self.rules = rules
        self.make = make
        self.table: Objects = np.full(tables_for(rules).size + 1, None, dtype=object)
        self.made = np.zeros(len(self.table), dtype=bool)

    def piece(self, strength: int) -> Any:
        """The piece of one strength."""
        if not self.made[strength]:
            self.table[strength] = self.make(class_info(self.rules, strength))
            self.made[strength] = True
        return self.table[strength]

    def __call__(self, strengths: I64) -> Objects:
        table = self.table
        missing = ~self.made[strengths]
        if missing.any():
            for strength in batch.distinct(strengths[missing]).tolist():
                table[strength] = self.make(class_info(self.rules, strength))
                self.made[strength] = True
        result: Objects = table[strengths]
        return result


class _PerOutcome:
    """A piece made from an outcome the first time it is met (per register
    of outcomes: chunks share theirs, see :class:`~fivecard.files.pipeline.Chunk`)."""

    def __init__(self, make: Callable[[Outcome], Any], none: Any) -> None:
        self.make = make
        self.none = none
        self.source: list[Outcome] | None = None
        self.made: Objects = np.empty(0, dtype=object)

    def __call__(self, chunk: Chunk) -> Objects:
        if chunk.outcomes is not self.source:
            self.source = chunk.outcomes
            self.made = np.empty(0, dtype=object)
        have = len(self.made) - 1
        known = len(chunk.outcomes)  # once: the reading thread may add more meanwhile
        if have < known:
            made = np.empty(known + 1, dtype=object)
            made[: max(have, 0)] = self.made[: max(have, 0)]
            for i in range(max(have, 0), known):
                made[i] = self.make(chunk.outcomes[i])
            made[-1] = self.none  # index -1: no outcome
            self.made = made
        result: Objects = self.made[chunk.outcome]
        return result


# --- cards ------------------------------------------------------------------------------------

_PLACES: Final = len(ALL_CARDS)  # a card as its sort place (batch.sort_keys)


def _sort_order(codes: npt.NDArray[np.int32]) -> npt.NDArray[np.int64]:
    """Per hand, the positions of its cards in sorted order."""
    return batch.row_order(batch.sort_keys(codes))


@cache
def _spellings(kind: str) -> tuple[Objects, npt.NDArray[np.int64]]:
    """Sort place -> the card's spelling as bytes (``canonical``: ``As``;
    ``unicode``/``ascii``: padded to three columns for a table), and the
    byte length of each."""
    table = np.full(_PLACES, b"?", dtype=object)
    for card in ALL_CARDS:
        if kind == "canonical":
            text = card.code_str
        else:
            text = card.code_str if kind == "ascii" else str(card)
            text += " " * (3 - len(text))
        table[SORT_PLACE[card.code]] = text.encode()
    lengths = np.fromiter((len(t) for t in table.tolist()), dtype=np.int64, count=_PLACES)
    return table, lengths


@cache
def _piece_matrix(kind: str, width: int, between: bytes) -> npt.NDArray[np.uint8]:
    """Per sort place: its spelling (``width`` bytes; other cards:
    zeros) and then ``between``, as a byte matrix."""
    table, _ = _spellings(kind)
    matrix = np.zeros((_PLACES, width + len(between)), dtype=np.uint8)
    matrix[:, width:] = np.frombuffer(between, np.uint8)
    for i, text in enumerate(table.tolist()):
        if len(text) == width:
            matrix[i, :width] = list(text)
    return matrix


def _spelled_matrix(
    codes: npt.NDArray[np.int32], kind: str, before: bytes, between: bytes, after: bytes
) -> npt.NDArray[np.uint8] | None:
    """:func:`_spelled` as an ``(h, width)`` byte matrix, when every card
    spelling used has one length (else None): one gather of the cards'
    pieces."""
    _, lengths = _spellings(kind)
    small = batch.sort_keys(codes)
    h = len(codes)
    used = lengths[small]
    width = int(used.max()) if h else 1
    if h and int(used.min()) != width:
        return None
    step = width + len(between)
    cards = _piece_matrix(kind, width, between)[small].reshape(h, 5 * step)[:, : 5 * step - len(between)]
    if not before and not after:
        return cards
    edges = [np.broadcast_to(np.frombuffer(before, np.uint8), (h, len(before)))] if before else []
    ends = [np.broadcast_to(np.frombuffer(after, np.uint8), (h, len(after)))] if after else []
    return np.hstack([*edges, cards, *ends])


def _rows_of(matrix: npt.NDArray[np.uint8]) -> Objects:
    """Each row of a byte matrix as bytes."""
    out = np.empty(len(matrix), dtype=object)
    if len(matrix):
        out[:] = np.ascontiguousarray(matrix).view(f"S{matrix.shape[1]}").ravel().tolist()
    return out


def _spelled(
    codes: npt.NDArray[np.int32], kind: str, before: bytes, between: bytes, after: bytes
) -> Objects:
    """Each hand's cards spelled and joined: ``before + c1 + between + ...
    + c5 + after``."""
    matrix = _spelled_matrix(codes, kind, before, between, after)
    if matrix is not None:
        return _rows_of(matrix)
    table, _ = _spellings(kind)
    out = np.empty(len(codes), dtype=object)
    for i, row in enumerate(table[batch.sort_keys(codes)].tolist()):
        out[i] = before + between.join(row) + after
    return out


def _written_sorted(chunk: Chunk, order: npt.NDArray[np.int64], prefix: bytes = b"") -> Objects:
    """Each hand's cards sorted, spelled as the input spelled them (``10h``
    stays ``10h``, ``A♥`` stays ``A♥``), one space apart, after ``prefix``.
    A hand written in some other way than five tokens (cards run together, a
    lone suit symbol) is spelled the way people read cards (``10♥``)."""
    texts = chunk.texts
    h = len(texts)
    out = np.empty(h, dtype=object)
    if not h:
        return out
    done = np.zeros(h, dtype=bool)
    if chunk.tokens is not None:  # hands read as arrays: their tokens at hand
        done = chunk.tokens[:, 0] != 0
        rows = np.flatnonzero(done)
        _put_tokens(out, rows, chunk.tokens[rows], order[rows], prefix)
    others = np.flatnonzero(~done)
    if len(others):
        lengths = np.fromiter(map(len, texts[others].tolist()), dtype=np.int64, count=len(others))
        fixed = others[lengths == 14]
        if len(fixed):
            raw = b"".join(texts[fixed].tolist())
            good = (np.ndarray((len(fixed), 4), np.uint8, raw, 2, (14, 3)) == 32).all(axis=1)
            # not five two-character tokens: "4, 6, 6, J, 10" has its spaces there too
            good &= (np.frombuffer(raw, np.uint8).reshape(len(fixed), 14) != ord(",")).all(axis=1)
            tokens = np.ndarray((len(fixed), 5), "<u2", raw, 0, (14, 3))[good]
            _put_tokens(out, fixed[good], tokens, order[fixed[good]], prefix)
            done[fixed[good]] = True
        others = np.flatnonzero(~done)
    if len(others):
        people, _ = _spellings("unicode")
        small = batch.sort_keys(chunk.codes[others])
        for i, text, positions, cards in zip(
            others.tolist(), texts[others].tolist(), order[others].tolist(), small.tolist()
        ):
            tokens_of = text.replace(b",", b" ").split()
            if len(tokens_of) == 5:
                out[i] = prefix + b" ".join(tokens_of[p] for p in positions)
            else:
                out[i] = prefix + b" ".join(people[cards[p]].rstrip() for p in positions)
    return out


def _put_tokens(
    out: Objects, rows: I64, tokens: npt.NDArray[np.uint16], order: npt.NDArray[np.int64], prefix: bytes
) -> None:
    """``out[rows]``: ``prefix`` and the two-byte tokens in ``order``."""
    if not len(rows):
        return
    text = token_text(np.take_along_axis(tokens, order, axis=1))
    if prefix:
        text = np.hstack([np.broadcast_to(np.frombuffer(prefix, np.uint8), (len(rows), len(prefix))), text])
    out[rows] = text.view(f"S{text.shape[1]}").ravel().tolist()


def _token_sorted(chunk: Chunk) -> npt.NDArray[np.uint8] | None:
    """:func:`_written_sorted` as an ``(h, 14)`` byte matrix, when every hand
    was read as five two-character tokens (else None). Each card is sorted
    as one number (its sort place, its position in the hand, its token), so
    one sort of the numbers orders the tokens, stably."""
    tokens = chunk.tokens
    if tokens is None or not len(tokens) or not bool((tokens[:, 0] != 0).all()):
        return None
    h = len(tokens)
    packed = batch.sort_keys(chunk.codes).astype(np.int32) << 19
    packed |= np.arange(5, dtype=np.int32) << 16
    packed |= tokens
    packed = batch.sort_rows(packed)
    text = np.full((h, 14), ord(" "), dtype=np.uint8)
    np.ndarray((h, 5), np.uint16, text, 0, (14, 3))[:] = packed  # the low 16 bits: the tokens
    return text


@cache
def _showdown_places(rules: RuleSet) -> npt.NDArray[np.int64]:
    """Per strength and rank place (ace 0 ... two 12): where the rank's
    cards stand in showdown order (groups first, the wheel's ace last)."""
    tables = tables_for(rules)
    # per strength: the ladder index, then the five ranks in showdown order
    records = np.frombuffer(tables.records, dtype=np.uint8).reshape(tables.size, -1).astype(np.int64)
    places = np.full((tables.size + 1, 14), 9, dtype=np.int64)
    strengths = np.arange(1, tables.size + 1)
    for position in range(4, -1, -1):  # a group's rank: its first position
        places[strengths, 14 - records[:, 1 + position]] = position
    return places


def _showdown_places_of(chunk: Chunk) -> npt.NDArray[np.int32]:
    """Per hand, the sort places of its cards in showdown order (see
    :func:`_showdown_order`), by one sort of packed numbers."""
    small = batch.sort_keys(chunk.codes)
    rank_place, suit_place = small // 5, small % 5
    position = _showdown_places(chunk.rules)[chunk.strength[:, None], np.clip(rank_place, 0, 12)]
    packed = batch.sort_rows(((position * 8 + suit_place) << 8 | small).astype(np.int32))
    result: npt.NDArray[np.int32] = packed & 0xFF
    wild = _wild(chunk)
    if wild is not None:
        result[wild.rows] = np.take_along_axis(small[wild.rows], wild.shown, axis=1)
    return result


@cache
def _card_numbers(kind: str) -> tuple[npt.NDArray[np.uint64], int]:
    """Per sort place: its spelling for a table (``unicode`` or ``ascii``,
    three columns) as the little-endian number of its bytes, and the bytes
    a suited card's spelling takes (every suited card's: 5 or 3)."""
    table, lengths = _spellings(kind)
    numbers = np.zeros(_PLACES, dtype=np.uint64)
    for place, text in enumerate(table.tolist()):
        numbers[place] = int.from_bytes(text[:8].ljust(8, b"\0"), "little")
    suited = [SORT_PLACE[c.code] for c in ALL_CARDS if c.suit is not None]
    width = int(lengths[suited].max())
    assert int(lengths[suited].min()) == width <= 8
    return numbers, width


@cache
def _category_labels(rules: RuleSet) -> npt.NDArray[np.uint8]:
    """Per ladder index, the category as the text table shows it (`` {name:<16}``),
    as rows of bytes (all of one length, or the rows are not used)."""
    texts = [f" {c.label:<16}".encode() for c in rules.ladder]
    width = max(map(len, texts))
    rows = np.zeros((len(texts), width), dtype=np.uint8)
    for i, text in enumerate(texts):
        rows[i, : len(text)] = np.frombuffer(text, np.uint8)
    return rows if len(set(map(len, texts))) == 1 else rows[:0]


def _showdown_order(chunk: Chunk) -> npt.NDArray[np.int64]:
    """Per hand, the positions of its cards in showdown order: a group's
    cards in sorted order (a wild card where the card it became goes, see
    :class:`~fivecard.vector.wild.WildCases`)."""
    small = batch.sort_keys(chunk.codes)
    rank_place, suit_place = small // 5, small % 5  # ace 0 ... two 12; a joker 13
    position = _showdown_places(chunk.rules)[chunk.strength[:, None], np.clip(rank_place, 0, 12)]
    order = batch.row_order(position * 8 + suit_place)
    wild = _wild(chunk)
    if wild is not None:
        order[wild.rows] = wild.shown
    return order


class _Wild:
    """The hands of a chunk that hold a wild card: their indices (``rows``),
    the numbers of their cases (what the wild cards became, see
    :class:`~fivecard.vector.wild.WildCases`) and the positions of their cards
    in showdown order (``shown``)."""

    __slots__ = ("rows", "numbers", "shown", "cases")

    def __init__(self, chunk: Chunk) -> None:
        self.cases = wild_cases(chunk.rules)
        self.rows = np.flatnonzero(~chunk.natural)
        self.numbers, self.shown = self.cases.numbers(chunk.codes[self.rows], chunk.strength[self.rows])


def _wild(chunk: Chunk) -> _Wild | None:
    """The chunk's hands that hold a wild card (made once per chunk), or
    None when there are none."""
    if not chunk.rules.wild_codes:
        return None
    made = chunk.prepared.get("wild")
    if made is None:
        made = chunk.prepared["wild"] = _Wild(chunk)
    return made if len(made.rows) else None


class _PerCase:
    """A piece made from what a wild hand's wild cards became (see
    :class:`~fivecard.vector.wild.WildCases`), the first time it is met."""

    def __init__(self, make: Callable[[tuple[Card, ...]], bytes]) -> None:
        self.make = make
        self.table: Objects = np.empty(0, dtype=object)
        self.made = np.zeros(0, dtype=bool)
        self.lock = threading.Lock()  # shared by the writers of a process (the table grows)

    def __call__(self, wild: _Wild) -> Objects:
        """The pieces of the wild hands."""
        numbers = wild.numbers
        top = int(numbers.max(initial=-1)) + 1
        with self.lock:
            if len(self.table) < top:
                grown = np.empty(top, dtype=object)
                grown[: len(self.table)] = self.table
                self.table = grown
                self.made = np.concatenate([self.made, np.zeros(top - len(self.made), dtype=bool)])
            missing = numbers[~self.made[numbers]]
            if len(missing):
                values = wild.cases.values
                for number in batch.distinct(missing).tolist():
                    self.table[number] = self.make(values[number])
                    self.made[number] = True
            result: Objects = self.table[numbers]
        return result


# --- tallies ----------------------------------------------------------------------------------


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


# --- writers ----------------------------------------------------------------------------------


class Writer(Protocol):
    widest: int  # the most hands a row held
    past: int  # the most cells a row held past the table's columns

    def write(self, chunk: Chunk) -> None: ...
    def close(self) -> None: ...
    def discard(self) -> None:
        """Give up the output (after an error): release what it holds."""
    def notes(self) -> list[str]: ...


def overflow_note(widest: int, hands: int, where: str) -> list[str]:
    """What to tell when rows held more hands than the header names."""
    if widest <= hands:
        return []
    extra = f"hand {hands + 1}" if widest == hands + 1 else f"hands {hands + 1}-{widest}"
    return [
        f"some rows hold up to {widest} hands, more than the {hands} the first rows held: "
        f"the cells of {extra} follow {where}"
    ]


def past_note(past: int, width: int) -> list[str]:
    """What to tell when rows of a table had cells past its columns."""
    if past <= 0:
        return []
    cells = "a cell" if past == 1 else f"up to {past} cells"
    return [f"some rows have {cells} past the table's {width} columns: they follow the error column"]


def _winners_text(outcome: Outcome) -> str:
    return ",".join(str(i + 1) for i in outcome.winners)


def result_header(columns: Sequence[str], hands: int) -> list[str]:
    """The CSV and xlsx header: line, the input's columns, three per hand,
    winner, explanation, error."""
    header = ["line", *columns]
    for i in range(1, hands + 1):
        header += [f"hand {i} sorted", f"hand {i} category", f"hand {i} score"]
    return header + ["winner", "explanation", "error"]


def _join_rows(grid: Objects) -> bytes:
    return b"".join(grid.ravel().tolist())


class _Base:
    """What the writers share: the table's width and hands, and what
    rows past them held."""

    def __init__(self, columns: Sequence[str], hands: int, rules: RuleSet) -> None:
        self.width = len(columns)
        self.hands = hands
        self.rules = rules
        self.widest = 0
        self.past = 0  # the most cells of a row past the table's columns

    def _measure(self, chunk: Chunk) -> None:
        if len(chunk):
            self.widest = max(self.widest, int(chunk.count.max()))
        if chunk.cells is not None:
            self.past = max(self.past, max((len(c) for c in chunk.cells), default=0) - self.width)

    def discard(self) -> None:
        pass


class CsvWriter(_Base):
    """CSV, UTF-8: the input's cells, three cells per hand (sorted cards as
    written, category, score), winner(s), explanation, error."""

    def __init__(
        self, out: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet, *, bom: bool = False,
        header: bool = True,
    ) -> None:
        super().__init__(columns, hands, rules)
        self.out = out
        if bom and header:
            out.write(b"\xef\xbb\xbf")
        if header:
            out.write(b",".join(_csv_cell(c) for c in result_header(columns, hands)) + b"\n")
        self.classes = _PerStrength(rules, lambda i: f",{csv_field(i.name)},{i.score}".encode())
        self.tails = _PerOutcome(
            lambda o: f",{csv_field(_winners_text(o))},{_csv_cell(o.explanation).decode()},\n".encode(),
            b",,,\n",
        )

    def _prepared(self, chunk: Chunk) -> tuple[Objects, Objects, Objects]:
        return (
            _numbers(chunk.line, after=b","),
            _input_cells(chunk, self.width, b",", _CSV_SPECIAL, _CSV_LEADING, _csv_cell, b""),
            _written_sorted(chunk, _sort_order(chunk.codes), b","),
        )

    def write(self, chunk: Chunk) -> None:
        self._measure(chunk)
        n = len(chunk)
        if not n:
            return
        if _all_tokens(chunk, self.hands):
            self.out.write(self._tokened(chunk))
            return
        hands = self.hands
        grid = np.empty((n, 3 + 2 * hands), dtype=object)
        numbers, inputs, written = self._prepared(chunk)
        grid[:, 0] = numbers
        grid[:, 1] = inputs
        classes = self.classes(chunk.strength)
        for j in range(hands):
            grid[:, 2 + 2 * j] = b",,,"
            grid[:, 3 + 2 * j] = b""
            rows = np.flatnonzero(chunk.count > j)
            at = chunk.start[rows] + j
            grid[rows, 2 + 2 * j] = written[at]
            grid[rows, 3 + 2 * j] = classes[at]
        last = 2 + 2 * hands
        grid[:, last] = self.tails(chunk)
        for i, message in chunk.error.items():
            grid[i, last] = b",,," + _csv_cell(message) + b"\n"
        for i in np.flatnonzero(chunk.count > hands).tolist():
            span = chunk.hands_of(i)
            extra = b"".join(written[k] + classes[k] for k in range(span.start + hands, span.stop))
            grid[i, last] = grid[i, last][:-1] + extra + b"\n"
        if chunk.cells is not None and self.past > 0:
            for i, cells in enumerate(chunk.cells):
                if len(cells) > self.width:
                    tail = b"".join(b"," + _csv_cell(c) for c in cells[self.width :])
                    grid[i, last] = grid[i, last][:-1] + tail + b"\n"
        self.out.write(_join_rows(grid))

    def prepare(self, chunk: Chunk) -> None:
        """What :meth:`write` needs that depends on the chunk alone, made
        ahead by the reading thread: for plain lines, their byte matrices."""
        if len(chunk) and _all_tokens(chunk, self.hands):
            chunk.prepared["csv"] = self._matrices(chunk)

    def _matrices(self, chunk: Chunk) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """Of plain lines: each hand's sorted cards, and each line (its tokens,
        single spaces), as byte matrices."""
        spelled = _token_sorted(chunk)
        assert spelled is not None and chunk.tokens is not None
        return spelled, token_text(chunk.tokens.reshape(len(chunk), 5 * self.hands))

    def _tokened(self, chunk: Chunk) -> bytes:
        """The rows of a chunk of lines that each hold the header's hands as
        two-character cards at single spaces (see :func:`_all_tokens`): such
        a line needs no escaping, and each row's line number, line and first
        hand's sorted cards are one byte matrix row."""
        hands = self.hands
        spelled, line = chunk.prepared.get("csv") or self._matrices(chunk)
        classes = self.classes(chunk.strength)
        grid = np.empty((len(chunk), 2 * hands + 1), dtype=object)
        grid[:, 0] = _numbered_rows(chunk.line, b"", [b",", line, b",", spelled[::hands]])
        grid[:, 1] = classes[::hands]
        comma = np.full((len(chunk), 1), ord(","), dtype=np.uint8)
        for j in range(1, hands):
            grid[:, 2 * j] = _rows_of(np.hstack([comma, spelled[j::hands]]))
            grid[:, 2 * j + 1] = classes[j::hands]
        grid[:, -1] = self.tails(chunk)
        return _join_rows(grid)

    def close(self) -> None:
        self.out.flush()

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the error column, three cells a hand") + past_note(
            self.past, self.width
        )


def _all_tokens(chunk: Chunk, hands: int) -> bool:
    """Whether every row of the chunk is a text line of exactly ``hands``
    hands read as arrays (two-character cards at single spaces, nothing
    else on the line): the common shape, whose rows are laid out as byte
    matrices."""
    return (
        chunk.lines is not None
        and chunk.tokens is not None
        and not chunk.error
        and bool((chunk.count == hands).all())
        and bool((chunk.tokens[:, 0] != 0).all())
    )


def _numbered_rows(
    numbers: I64, before: bytes, pieces: Sequence[bytes | npt.NDArray[np.uint8]], *, pad: int = 0
) -> Objects:
    """Per row: ``before``, its number (right-aligned in ``pad`` columns),
    then ``pieces`` (constant bytes, or a byte matrix with a row per row)
    end to end, as one bytes object: a byte matrix for each width of the
    numbers."""
    out = np.empty(len(numbers), dtype=object)
    digits = np.maximum(np.searchsorted(_POWERS, numbers, side="right") + 1, pad)
    widths = [len(p) if isinstance(p, bytes) else p.shape[1] for p in pieces]
    for width in batch.distinct(digits).tolist():
        at = np.flatnonzero(digits == width)
        size = len(before) + width + sum(widths)
        matrix = np.empty((len(at), size), dtype=np.uint8)
        matrix[:, : len(before)] = np.frombuffer(before, np.uint8)
        number = numbers[at]
        for column in range(len(before) + width - 1, len(before) - 1, -1):
            matrix[:, column] = np.where(number > 0, ord("0") + number % 10, ord(" "))
            number = number // 10
        last = len(before) + width - 1
        matrix[:, last] = np.where(numbers[at] == 0, ord("0"), matrix[:, last])  # zero is "0"
        column = len(before) + width
        for piece, piece_width in zip(pieces, widths):
            if isinstance(piece, bytes):
                matrix[:, column : column + piece_width] = np.frombuffer(piece, np.uint8)
            else:
                matrix[:, column : column + piece_width] = piece[at]
            column += piece_width
        out[at] = matrix.view(f"S{size}").ravel().tolist()
    return out


def _input_cells(
    chunk: Chunk,
    width: int,
    separator: bytes,
    special: npt.NDArray[np.bool_],
    leading: npt.NDArray[np.bool_],
    fix: Callable[[str], bytes],
    wrap: bytes,
) -> Objects:
    """Per row: its input cells (``width`` of them, padded), each escaped,
    with a separator between them."""
    if chunk.lines is not None:
        return _escaped(chunk.lines, special, leading, fix, wrap)
    assert chunk.cells is not None
    out = np.empty(len(chunk), dtype=object)
    out[:] = b""
    for j in range(width):
        values = [c[j].encode("utf-8", "replace") if j < len(c) else b"" for c in chunk.cells]
        column = _escaped(values, special, leading, fix, wrap)
        out = out + column if j == 0 else out + separator + column
    return out


class JsonlWriter(_Base):
    """JSON Lines: one object per row (the README's contract)."""

    def __init__(self, out: IO[bytes], rules: RuleSet) -> None:
        super().__init__((), 0, rules)
        self.out = out
        self.classes = _class_json(rules, None)
        # a hand with another after it: its class piece and ", "
        self.joined = _PerStrength(rules, lambda i: self.classes.piece(i.strength) + b", ")
        self.tails = _PerOutcome(
            lambda o: (
                f'], "winners": {json.dumps([i + 1 for i in o.winners])}, '
                f'"order": {json.dumps([[i + 1 for i in t] for t in o.order])}, '
                f'"explanation": {json.dumps(o.explanation, ensure_ascii=False)}}}\n'
            ).encode(),
            b'], "winners": null, "order": null, "explanation": null}\n',
        )

    @staticmethod
    def _prepared(chunk: Chunk) -> tuple[Objects, Objects]:
        return _numbers(chunk.line, b'{"line": ', b', "hands": ['), _hand_heads(chunk)

    def prepare(self, chunk: Chunk) -> None:
        """What :meth:`write` needs that depends on the chunk alone, made
        ahead by the reading thread (the hands' byte matrix and what wild
        cards became: numpy work, which overlaps the writing)."""
        if not len(chunk):
            return
        _wild(chunk)
        if self._plain(chunk):
            chunk.prepared["jsonl heads"] = _token_heads(chunk)
        else:
            chunk.prepared["jsonl"] = self._prepared(chunk)

    @staticmethod
    def _plain(chunk: Chunk) -> bool:
        """Rows of as many hands each, all read as two-character cards,
        spelled in two characters (a rule set with suits)."""
        return chunk.rules.suits and _all_tokens(chunk, int(chunk.count[0]))

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
        objects = hand_objects(chunk, classes, heads=prepared[1], joined=~last)
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
        self.out.write(_join_rows(grid))

    def _tokened(self, chunk: Chunk, hands: int) -> bytes:
        """The rows of a chunk of lines of ``hands`` hands each, all read as
        two-character cards (see :func:`_all_tokens`): each row's start and
        its first hand's head are one byte matrix row."""
        heads = chunk.prepared.get("jsonl heads")
        if heads is None:
            heads = _token_heads(chunk)
        assert heads is not None
        strength = chunk.strength
        ends = np.empty(len(strength), dtype=object)
        for j in range(hands):
            ends[j::hands] = (self.classes if j == hands - 1 else self.joined)(strength[j::hands])
        last = np.zeros((len(chunk), hands), dtype=bool)
        last[:, -1] = True
        ends = _wild_json(chunk, ends, None, ~last.ravel())
        grid = np.empty((len(chunk), 2 * hands + 1), dtype=object)
        grid[:, 0] = _numbered_rows(chunk.line, b'{"line": ', [b', "hands": [', heads[::hands]])
        for j in range(hands):
            if j:
                grid[:, 2 * j] = _rows_of(heads[j::hands])
            grid[:, 2 * j + 1] = ends[j::hands]
        grid[:, -1] = self.tails(chunk)
        return _join_rows(grid)

    def close(self) -> None:
        self.out.flush()

    def notes(self) -> list[str]:
        return []


def _json_pieces(indent: str | None) -> tuple[bytes, bytes, bytes, bytes, bytes]:
    """The head of a hand's JSON object, in pieces: before its input, from
    its input to its cards, between cards, after the cards, and from the
    cards to the sorted cards (compact, or for ``indent``)."""
    if indent is None:
        opening, key_sep, item_open, item_sep, item_close = b"{", b", ", b'["', b'", "', b'"]'
    else:
        pad = indent.encode()
        opening = b"{\n" + pad + b"  "
        key_sep = b",\n" + pad + b"  "
        item_open = b"[\n" + pad + b'    "'
        item_sep = b'",\n' + pad + b'    "'
        item_close = b'"\n' + pad + b"  ]"
    return (
        opening + b'"input": "', b'"' + key_sep + b'"cards": ' + item_open, item_sep, item_close,
        key_sep + b'"sorted": ' + item_open,
    )


def _head_matrix(
    indent: str | None, small: npt.NDArray[np.int32], width: int
) -> tuple[npt.NDArray[np.uint8], int, int]:
    """Per hand, the head of its JSON object as a byte matrix row, from
    ``{`` to its sorted cards, when every card is spelled in ``width``
    bytes; the input's place is left as "?" for the caller to fill. Returns
    the matrix and where the input starts and ends in a row. A template row,
    then each card's spelling written where it stands, as one number of
    ``width`` bytes, through strided views."""
    head, cards_head, item_sep, item_close, sorted_head = _json_pieces(indent)
    h = len(small)
    spell = _piece_matrix("canonical", width, b"").view(np.uint16 if width == 2 else np.uint8).ravel()
    step = width + len(item_sep)
    cards = item_sep.join([b"?" * width] * 5)
    parts = [head, b"?? ?? ?? ?? ??", cards_head, cards, item_close, sorted_head, cards, item_close]
    at = np.cumsum([0] + [len(part) for part in parts]).tolist()
    size = at[-1]
    matrix = np.empty((h, size), dtype=np.uint8)
    matrix[:] = np.frombuffer(b"".join(parts), np.uint8)
    for offset, places in ((at[3], small), (at[6], batch.sort_rows(small))) if h else ():
        np.ndarray((h, 5), spell.dtype, matrix, offset, (size, step))[:] = spell[places]
    return matrix, at[1], at[2]


def _token_heads(chunk: Chunk, indent: str | None = None) -> npt.NDArray[np.uint8] | None:
    """:func:`_hand_heads` as one byte matrix, when every hand of the chunk
    was read as five two-character tokens (plain ASCII: nothing to escape);
    else None."""
    tokens = chunk.tokens
    if tokens is None or not len(tokens) or not chunk.rules.suits or not bool((tokens[:, 0] != 0).all()):
        return None  # (without suits a card is spelled in one character)
    matrix, start, _ = _head_matrix(indent, batch.sort_keys(chunk.codes), 2)
    np.ndarray((len(tokens), 5), np.uint16, matrix, start, (matrix.shape[1], 3))[:] = tokens
    return matrix


def _hand_heads(chunk: Chunk, indent: str | None = None, *, ascii: bool = False) -> Objects:
    """Per hand, the first piece of its JSON object (see :func:`hand_objects`):
    from ``{`` to its sorted cards. A function of the chunk alone, so the
    reading thread can make it ahead."""
    matrix = _token_heads(chunk, indent)
    if matrix is not None:
        return _rows_of(matrix)
    head, cards_head, item_sep, item_close, sorted_head = _json_pieces(indent)
    h = len(chunk.codes)
    small = batch.sort_keys(chunk.codes)
    _, lengths = _spellings("canonical")
    used = lengths[small]
    first = np.empty(h, dtype=object)
    done = np.zeros(h, dtype=bool)
    width = int(used.max()) if h else 1
    if not h or int(used.min()) == width:  # one spelling width: one byte matrix
        matrix, start, end = _head_matrix(indent, small, width)
        if chunk.tokens is not None:  # hands read as arrays: plain ASCII, 14 bytes
            rows = np.flatnonzero(chunk.tokens[:, 0] != 0)
            matrix[rows, start:end] = token_text(chunk.tokens[rows])
            first[rows] = _rows_of(matrix[rows])
            done[rows] = True
        rest = _rows_of(matrix[~done, end:])
    else:
        order = batch.row_order(small)
        sorted_codes = np.take_along_axis(chunk.codes, order, axis=1)
        rest = _spelled(chunk.codes, "canonical", cards_head, item_sep, item_close) + (
            _spelled(sorted_codes, "canonical", sorted_head, item_sep, item_close)
        )
    others = np.flatnonzero(~done)
    if len(others):
        fix = _json_ascii if ascii else _json_text
        texts = _escaped(chunk.hand_texts(others), _JSON_SPECIAL, _NO_LEADING, fix, b"")
        first[others] = head + texts + rest
    return first


def hand_objects(
    chunk: Chunk, classes: Objects, indent: str | None = None, *, ascii: bool = False,
    heads: Objects | None = None, joined: npt.NDArray[np.bool_] | None = None,
) -> Objects:
    """Per hand, its JSON object (see :func:`fivecard.report.evaluation_json`)
    in two pieces to be joined: from ``{`` to the sorted cards (``heads``,
    when made already), and ``classes`` (per hand: the rest, from its class,
    followed by ``", "`` where ``joined``). Compact, or for ``indent`` (the
    indent of the object's lines) as ``json.dumps(..., indent=2)`` lays it
    out. A hand with wild cards ends with what they became."""
    h = len(chunk.codes)
    first = heads if heads is not None else _hand_heads(chunk, indent, ascii=ascii)
    objects = np.empty((h, 2), dtype=object)
    objects[:, 0] = first
    objects[:, 1] = _wild_json(chunk, classes, indent, joined)
    if chunk.dealt is not None:  # the best five of more cards: with what was dealt and what does not play
        texts = chunk.hand_texts()
        for k in range(len(chunk.codes)):
            data = evaluation_json(best_evaluation(chunk, k), texts[k].decode("utf-8", "replace"))
            objects[k] = [_json_object(data, indent, ascii, classes[k]), b""]
    return objects


def _json_object(data: dict[str, Any], indent: str | None, ascii: bool, ends: bytes) -> bytes:
    """A hand's JSON object made from its full evaluation's, laid out as
    :func:`hand_objects` lays them out, with the ``", "`` its class piece
    ``ends`` with (when another hand follows)."""
    if indent is None:
        text = json.dumps(data, ensure_ascii=ascii)
    else:
        text = json.dumps(data, ensure_ascii=ascii, indent=2).replace("\n", "\n" + indent)
    return text.encode() + (ends[-2:] if ends.endswith(b", ") else b"")


def _wild_json(
    chunk: Chunk, classes: Objects, indent: str | None, joined: npt.NDArray[np.bool_] | None = None
) -> Objects:
    """``classes`` (per hand, the end of its JSON object, from its class,
    then ``", "`` where ``joined``), with the ends of the hands that hold a
    wild card made from their case (``"natural": false`` and what the wild
    cards became)."""
    wild = _wild(chunk)
    if wild is None:
        return classes
    opening, ending = _wild_json_pieces(chunk.rules, indent)
    pieces = opening(chunk.strength[wild.rows]) + ending(wild)
    out = classes.copy()
    out[wild.rows] = pieces if joined is None else np.where(joined[wild.rows], pieces + b", ", pieces)
    return out


@cache
def _wild_json_pieces(rules: RuleSet, indent: str | None) -> tuple[_PerStrength, _PerCase]:
    """The end of a wild hand's JSON object, from its category on (as
    :func:`_class_json`, with ``"natural": false`` and what its wild cards
    became), in two pieces: per strength, its class's fields (the object
    not closed), and per case, the wild fields and the close. (The fields
    of an object are laid out one after another: the two pieces joined are
    the object's end made at once.)"""
    close = len(b"}" if indent is None else ("\n" + indent + "}").encode())

    def opening(info: ClassInfo) -> bytes:
        fields = class_fields(info.category, info.name, info.score, info.strength, info.description, rules.name)
        return _json_end(fields, indent)[:-close]

    def ending(made: tuple[Card, ...]) -> bytes:
        return _json_end(wild_fields(False, [c.code_str for c in made]), indent)

    return _PerStrength(rules, opening), _PerCase(ending)


def _card(code: int) -> Card:
    return CARD_OF_CODE[code]


def best_evaluation(chunk: Chunk, k: int) -> Evaluation:
    """The full evaluation of hand ``k`` of a chunk whose hands play their
    best five, as the single-hand path makes it: of the five the pipeline
    chose (``codes``, as ``evaluate(..., best_five=True)`` chooses them),
    with the cards dealt."""
    assert chunk.dealt is not None
    five = Hand(tuple(_card(c) for c in chunk.codes[k].tolist()), chunk.rules)
    return replace(evaluate(five), dealt=tuple(_card(c) for c in chunk.dealt[k]))


class TextWriter(_Base):
    """An aligned table for people: line, each hand (showdown order and
    category), winner(s), explanation."""

    def __init__(self, out: IO[bytes], hands: int, painter: Painter, rules: RuleSet, *, header: bool = True) -> None:
        super().__init__((), hands, rules)
        self.out = out
        self.painter = painter
        if header:
            cells = ["line".rjust(6)] + [f"hand {i + 1}".ljust(36) for i in range(hands)]
            out.write(("  ".join(cells) + "  winner  explanation\n").encode())
        self.labels = _PerStrength(rules, lambda i: f" {i.name:<16}".encode())
        self.descriptions = _PerStrength(rules, lambda i: f"-       {i.description}".encode())
        self.tails = _PerOutcome(lambda o: f"{_winners_text(o):<6}  {o.explanation}".encode(), b"")
        self.line_tails = _PerOutcome(lambda o: f"  {_winners_text(o):<6}  {o.explanation}\n".encode(), b"  \n")

    def write(self, chunk: Chunk) -> None:
        self._measure(chunk)
        n = len(chunk)
        if not n:
            return
        if self._plain(chunk):
            self.out.write(self._matrix_rows(chunk))
            return
        shown = _people_cards(chunk, self.painter, _showdown_order(chunk)) + self.labels(chunk.strength)
        grid = np.empty((n, self.hands + 3), dtype=object)
        grid[:, 0] = _numbers(chunk.line, pad=6)
        blank = b"  " + b" " * 36
        for j in range(self.hands):
            grid[:, 1 + j] = blank
            rows = np.flatnonzero(chunk.count > j)
            grid[rows, 1 + j] = b"  " + shown[chunk.start[rows] + j]
        tails = self.tails(chunk)
        one = np.flatnonzero(chunk.count == 1)
        if len(one):
            tails[one] = self.descriptions(chunk.strength[chunk.start[one]])
        grid[:, 1 + self.hands] = b"  " + tails
        grid[:, 2 + self.hands] = b"\n"
        for i in np.flatnonzero(chunk.count > self.hands).tolist():
            span = chunk.hands_of(i)
            grid[i, 2 + self.hands] = b"".join(
                f"  | hand {k + 1}: ".encode() + shown[span.start + k].rstrip()
                for k in range(self.hands, len(span))
            ) + b"\n"
        for i, message in chunk.error.items():
            grid[i, 1:] = b""
            grid[i, 1] = f"  error: {message}\n".encode()
        self.out.write(_join_rows(grid))

    def _plain(self, chunk: Chunk) -> bool:
        """Rows of the header's hands, all read as two-character cards,
        shown without colour: each row but its explanation is a byte matrix
        row."""
        rules = chunk.rules
        return (
            not self.painter.color and rules.suits and _all_tokens(chunk, self.hands)
            and len(_category_labels(rules)) > 0
        )

    def _matrix_rows(self, chunk: Chunk) -> bytes:
        """The rows of a chunk :meth:`_plain` accepts: up to the winner, a
        byte matrix row each (the line number, then per hand its cards in
        showdown order, three columns each, and its category), then the
        winner and the explanation."""
        matrix = chunk.prepared.get("text")
        if matrix is None:
            matrix = self._hands_matrix(chunk)
        grid = np.empty((len(chunk), 2), dtype=object)
        grid[:, 0] = _numbered_rows(chunk.line, b"", [matrix], pad=6)
        if chunk.rules.jokers:  # a joker's spelling is shorter than a suited card's: its slot ends in zeros
            joker = (chunk.codes == JOKER.code).any(axis=1).reshape(len(chunk), -1).any(axis=1)
            rows = np.flatnonzero(joker)
            grid[rows, 0] = [row.replace(b"\0", b"") for row in grid[rows, 0].tolist()]
        grid[:, 1] = self.line_tails(chunk)
        return _join_rows(grid)

    def prepare(self, chunk: Chunk) -> None:
        """What :meth:`write` needs that depends on the chunk alone, made
        ahead by the reading thread: for plain lines, their byte matrix."""
        if len(chunk) and self._plain(chunk):
            chunk.prepared["text"] = self._hands_matrix(chunk)

    def _hands_matrix(self, chunk: Chunk) -> npt.NDArray[np.uint8]:
        """Of plain lines, per row its hands as the table shows them."""
        n, hands = len(chunk), self.hands
        places = _showdown_places_of(chunk)
        pieces, card = _card_numbers("ascii" if self.painter.ascii else "unicode")
        labels = _category_labels(chunk.rules)
        label = len(labels[0])
        hand_width = 2 + 5 * card + 4 + label
        size = hands * hand_width
        matrix = np.full((n, size), ord(" "), dtype=np.uint8)
        category = batch.category_table(chunk.rules)[chunk.strength]
        for j in range(hands):
            start = j * hand_width + 2
            for k in range(5):  # eight bytes a card, the next card written over the spill
                at = start + k * (card + 1)
                np.ndarray((n,), np.uint64, matrix, at, (size,))[:] = pieces[places[j::hands, k]]
            for k in range(4):
                matrix[:, start + k * (card + 1) + card] = ord(" ")
            cards_end = start + 5 * card + 4
            matrix[:, cards_end : cards_end + label] = labels[category[j::hands]]
        return matrix

    def close(self) -> None:
        self.out.flush()

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the explanation")


def _people_cards(
    chunk: Chunk, painter: Painter, order: npt.NDArray[np.int64], *, showdown: bool = True
) -> Objects:
    """Per hand, its cards in ``order`` as people read them (padded to three
    columns each, red hearts and diamonds with colour)."""
    codes = np.take_along_axis(chunk.codes, order, axis=1)
    if painter.color:
        out = np.empty(len(codes), dtype=object)
        cards = [[_card(c) for c in row] for row in codes.tolist()]
        out[:] = [painter.cards(row).encode() for row in cards] if cards else []
    else:
        out = _spelled(codes, "ascii" if painter.ascii else "unicode", b"", b" ", b"")
    return out


def _class_json(rules: RuleSet, indent: str | None, after: str = "") -> _PerStrength:
    """Per strength: the end of a natural hand's JSON object, from its
    category on (:func:`fivecard.core.report.class_fields`; compact, or indented
    as ``json.dumps(..., indent=2)`` nested at ``indent``)."""

    def make(info: ClassInfo) -> bytes:
        fields = class_fields(info.category, info.name, info.score, info.strength, info.description, rules.name)
        if rules.wild_codes:
            fields.update(wild_fields(True, []))
        return _json_end(fields, indent) + after.encode()

    return _PerStrength(rules, make)


def _json_end(fields: dict[str, Any], indent: str | None) -> bytes:
    """The end of a hand's JSON object, from ``fields`` on (compact, or
    indented as ``json.dumps(..., indent=2)`` nested at ``indent``)."""
    if indent is None:
        text = ", " + json.dumps(fields, ensure_ascii=False)[1:-1] + "}"
    else:
        body = json.dumps(fields, ensure_ascii=False, indent=2)[1:-2].replace("\n", "\n" + indent)
        text = "," + body + "\n" + indent + "}"
    return text.encode()


def _wild_tails(chunk: Chunk, tails: Objects, painter: Painter) -> Objects:
    """``tails`` (per hand, what follows its cards in a line of ``classify``:
    ``Painter.evaluation``'s description, score and strength), with those of
    the hands that hold a wild card saying what the wild cards became."""
    wild = _wild(chunk)
    if wild is None:
        return tails
    out = tails.copy()
    description, became, score = _wild_text_pieces(chunk.rules, painter.color, painter.ascii)
    strength = chunk.strength[wild.rows]
    out[wild.rows] = description(strength) + became(wild) + score(strength)
    return out


@cache
def _wild_text_pieces(rules: RuleSet, color: bool, ascii: bool) -> tuple[_PerStrength, _PerCase, _PerStrength]:
    """A wild hand's tail (see :func:`_wild_tails`) in three pieces: per
    strength its description, per case what the wild cards became, per
    strength its score and strength."""
    painter = Painter(color=color, ascii=ascii)
    word = "JK" if rules.jokers else "wild"
    return (
        _PerStrength(rules, lambda i: f" {i.description}".encode()),
        _PerCase(lambda made: f"  [{word} as {', '.join(map(painter.card, made))}]".encode()),
        _PerStrength(rules, lambda i: f"  (score {i.score}, strength {i.strength:,})".encode()),
    )


class ClassifyWriter:
    """``classify`` of many hands: a line per hand (its cards, ``->``, the
    showdown order, the description, score and strength), or with
    ``as_json`` a JSON array of the hands' objects laid out as
    ``json.dump(..., indent=2)`` lays it out (``ascii``: non-ASCII escaped)."""

    def __init__(self, out: IO[bytes], painter: Painter, rules: RuleSet, *, as_json: bool, ascii: bool) -> None:
        self.out = out
        self.painter = painter
        self.rules = rules
        self.as_json = as_json
        self.ascii = ascii
        self.written = 0
        if as_json:
            self.classes = _class_json(rules, "  ")
        else:
            self.tails = _PerStrength(
                rules, lambda i: f" {i.description}  (score {i.score}, strength {i.strength:,})".encode()
            )

    def write(self, chunk: Chunk) -> None:
        h = len(chunk.strength)
        if not h:
            return
        if self.as_json:
            objects = hand_objects(chunk, self.classes(chunk.strength), "  ", ascii=self.ascii)
            grid = np.empty((h, 3), dtype=object)
            grid[:, 0] = b",\n  "
            if not self.written:
                grid[0, 0] = b"[\n  "
            grid[:, 1:] = objects
            self.out.write(_join_rows(grid))
        else:
            identity = np.broadcast_to(np.arange(5), (h, 5))
            grid = np.empty((h, 5), dtype=object)
            grid[:, 0] = _people_cards(chunk, self.painter, identity, showdown=False)
            grid[:, 1] = b" ->  "
            grid[:, 2] = _people_cards(chunk, self.painter, _showdown_order(chunk))
            grid[:, 3] = _wild_tails(chunk, self.tails(chunk.strength), self.painter)
            grid[:, 4] = b"\n"
            if chunk.dealt is not None:  # the best five of more cards: every card dealt on the left
                for k in range(h):
                    line = self.painter.evaluation(best_evaluation(chunk, k))
                    grid[k, :] = [line.encode(), b"", b"", b"", b"\n"]
            self.out.write(_join_rows(grid))
        self.written += h

    def close(self) -> None:
        if self.as_json:
            self.out.write(b"\n]\n" if self.written else b"[]\n")
        self.out.flush()


class DealWriter:
    """``deal``'s rounds from chunks of dealt rounds
    (:func:`fivecard.files.pipeline.dealt_chunks`): per round (``Round N`` when
    there are several) a line per hand as ``classify`` writes it, the
    winners marked, and the explanation; or, with ``as_json``, each round's
    JSON object laid out as :func:`fivecard.core.report.write_json_object`
    lays out an item of its rounds array (returned, not written)."""

    def __init__(self, painter: Painter, rules: RuleSet, *, several: bool) -> None:
        self.painter = painter
        self.rules = rules
        self.several = several
        self.tails = _PerStrength(
            rules, lambda i: f" {i.description}  (score {i.score}, strength {i.strength:,})".encode()
        )
        self.classes = _class_json(rules, " " * 8)
        self.marks = _PerOutcome(lambda o: sum(1 << w for w in o.winners) | (1 << 62 if o.is_split else 0), 0)
        self.explanations = _PerOutcome(lambda o: self.painter.bold(o.explanation).encode() + b"\n", b"")
        self.json_tails = _PerOutcome(
            lambda o: self._json_tail(
                {"winners": [w + 1 for w in o.winners], "order": [[w + 1 for w in t] for t in o.order],
                 "explanation": o.explanation}
            ),
            self._json_tail({"winners": None, "order": None, "explanation": None}),
        )

    @staticmethod
    def _json_tail(fields: dict[str, Any]) -> bytes:
        body = json.dumps(fields, ensure_ascii=False, indent=2)[1:-2].replace("\n", "\n    ")
        return ("," + body + "\n    }").encode()

    def text(self, chunk: Chunk) -> bytes:
        h = len(chunk.strength)
        if not h:
            return b""
        players = int(chunk.count[0])
        identity = np.broadcast_to(np.arange(5), (h, 5))
        grid = np.empty((h, 7), dtype=object)
        position = np.tile(np.arange(players), len(chunk))
        grid[:, 0] = [f"Hand {p + 1}: ".encode() for p in range(players)] * len(chunk)
        grid[:, 1] = _people_cards(chunk, self.painter, identity, showdown=False)
        grid[:, 2] = b" ->  "
        grid[:, 3] = _people_cards(chunk, self.painter, _showdown_order(chunk))
        grid[:, 4] = _wild_tails(chunk, self.tails(chunk.strength), self.painter)
        marks = np.repeat(self.marks(chunk).astype(np.int64), players)
        won = (marks >> position) & 1 == 1
        split = (marks >> 62) & 1 == 1
        grid[:, 5] = np.where(won, np.where(split, b"  <- splits", b"  <- wins"), b"")
        grid[:, 6] = b"\n"
        lines = grid.reshape(len(chunk), players * 7)
        rounds = np.empty((len(chunk), 4), dtype=object)
        if self.several:
            rounds[:, 0] = _numbers(chunk.line, b"Round ", b"\n")
        else:
            rounds[:, 0] = b""
        rounds[:, 1] = [b"".join(row) for row in lines.tolist()]
        rounds[:, 2] = self.explanations(chunk)
        rounds[:, 3] = b"\n" if self.several else b""
        return _join_rows(rounds)

    def json_items(self, chunk: Chunk) -> list[str]:
        """Each round's JSON text (an item of the rounds array)."""
        h = len(chunk.strength)
        if not h:
            return []
        players = int(chunk.count[0])
        objects = hand_objects(chunk, self.classes(chunk.strength), " " * 8)
        grid = np.empty((h, 3), dtype=object)
        grid[:, 0] = b",\n        "
        grid[::players, 0] = b""
        grid[:, 1:] = objects
        hands = grid.reshape(len(chunk), players * 3)
        heads = _numbers(chunk.line, b'{\n      "round": ', b',\n      "hands": [\n        ')
        tails = self.json_tails(chunk)
        return [
            (head + b"".join(row) + b"\n      ]" + tail).decode()
            for head, row, tail in zip(heads.tolist(), hands.tolist(), tails.tolist())
        ]


_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,14}")


def _sheet_value(text: str) -> str | int:
    """An input cell for a workbook: a whole number of up to 15 digits (a
    round, an id) as a number, any other text as it is."""
    bare = text.strip() if text[:1].isspace() or text[-1:].isspace() else text
    return int(bare) if _NUMBER.fullmatch(bare) else text


class XlsxWriter(_Base):
    """A workbook ready to hand in: the input columns, then the steps of the
    ModelOff 2012 case for each hand (1: sorted cards, 2: category and
    score) and per row (3: winner) with the explanation. Numbers (line,
    round, score, a single winner) are number cells; every text is a text
    cell (never a formula). The header row is bold and frozen, the columns
    sized to their contents. Past a sheet's 1,048,576 rows the rows go on in
    another sheet (``fivecard (2)`` ...), each with the header."""

    def __init__(self, target: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet) -> None:
        import openpyxl  # deferred: only .xlsx work pays for importing it

        super().__init__(columns, hands, rules)
        self.target = target
        self.book = openpyxl.Workbook(write_only=True)
        header = result_header(columns, hands)
        if len(header) > XLSX_COLUMNS:
            raise FileError(
                f"a workbook of {len(columns):,} input columns and {hands:,} hands would need "
                f"{len(header):,} columns, past {column_letter(XLSX_COLUMNS - 1)}, Excel's last "
                f"({XLSX_COLUMNS:,}): write CSV, JSON Lines or Parquet"
            )
        steps = {"sorted": "Step 1: ", "category": "Step 2: ", "winner": "Step 3: "}
        self.header = [next((steps[k] + h for k in steps if h.endswith(k)), h) for h in header]
        self.cut = 0  # texts cut to what a workbook cell holds
        self.widths = [len(h) for h in self.header]
        self.sheets = 0
        self.rows = MAX_ROWS  # a sheet is started before the first row
        self.classes = _PerStrength(rules, lambda i: (i.name, i.score))
        self.tails = _PerOutcome(
            lambda o: (o.winners[0] + 1 if len(o.winners) == 1 else _winners_text(o), self._text(o.explanation)),
            ("", ""),
        )

    def _new_sheet(self) -> None:
        from openpyxl.styles import Font

        self._finish_sheet()
        self.sheets += 1
        self.sheet = self.book.create_sheet("fivecard" if self.sheets == 1 else f"fivecard ({self.sheets})")
        self.sheet.freeze_panes = "A2"
        bold = Font(bold=True)
        self.sheet.append([self._cell(text, font=bold) for text in self.header])
        self.rows = 1

    def _finish_sheet(self) -> None:
        """Column widths go before a write-only sheet's rows: they are set
        on each sheet from the widths of the header and the first rows."""

    def _cell(self, value: Any, font: Any = None) -> Any:
        from openpyxl.cell import WriteOnlyCell

        cell = WriteOnlyCell(self.sheet, value=self._text(value) if isinstance(value, str) else value)
        if isinstance(value, str):
            cell.data_type = "s"  # a text cell, even when it starts with "="
        if font is not None:
            cell.font = font
        return cell

    def _text(self, value: str) -> str:
        text = sheet_text(value)
        if len(text) > XLSX_CELL:  # Excel's limit: cut, and said in the notes
            text = text[: XLSX_CELL - 1] + "…"
            self.cut += 1
        return text

    def _value(self, value: Any) -> Any:
        """A text that a workbook would take for a formula is a text cell."""
        if isinstance(value, str) and (value.startswith("=") or _CONTROL.search(value) or len(value) > XLSX_CELL):
            return self._cell(value)
        return value

    def write(self, chunk: Chunk) -> None:
        self._measure(chunk)
        if not len(chunk):
            return
        order = _sort_order(chunk.codes)
        written = [t.decode("utf-8", "replace") for t in _written_sorted(chunk, order).tolist()]
        classes = self.classes(chunk.strength).tolist()
        tails = self.tails(chunk).tolist()
        starts = chunk.start.tolist()
        counts = chunk.count.tolist()
        lines = chunk.line.tolist()
        value = self._value
        for i in range(len(chunk)):
            if self.rows >= MAX_ROWS:
                self._new_sheet()
            cells = chunk.row_cells(i)
            row: list[Any] = [lines[i]]
            row += [value(_sheet_value(c)) for c in cells[: self.width]]
            row += [""] * (1 + self.width - len(row))
            per_hand: list[Any] = []
            for k in range(starts[i], starts[i] + counts[i]):
                name, score = classes[k]
                per_hand += [value(written[k]), name, score]
            split = _PER_HAND * self.hands
            row += per_hand[:split] + [""] * (split - len(per_hand[:split]))
            winner, explanation = tails[i]
            row += [winner, explanation, value(chunk.error.get(i, ""))]
            row += per_hand[split:] + [value(c) for c in cells[self.width :]]
            if len(row) > XLSX_COLUMNS:
                raise FileError(
                    f"line {lines[i]}: its {len(row):,} cells in the workbook would reach column "
                    f"{column_letter(len(row) - 1)}, past {column_letter(XLSX_COLUMNS - 1)}, Excel's last "
                    f"({XLSX_COLUMNS:,}): write CSV, JSON Lines or Parquet"
                )
            if self.rows < 200:
                for j, v in enumerate(row[: len(self.widths)]):
                    if isinstance(v, str) and len(v) > self.widths[j]:
                        self.widths[j] = min(len(v), 60)
            self.sheet.append(row)
            self.rows += 1

    def close(self) -> None:
        import zipfile

        from openpyxl.utils import get_column_letter
        from openpyxl.writer.excel import ExcelWriter

        if self.sheets == 0:
            self._new_sheet()
        for sheet in self.book.worksheets:
            for j, width in enumerate(self.widths, 1):
                sheet.column_dimensions[get_column_letter(j)].width = width + 2
        archive = zipfile.ZipFile(self.target, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        try:
            ExcelWriter(self.book, archive).save()
        except BaseException:
            try:  # a failed zip must not try again when it is collected
                archive.close()
            except Exception:  # noqa: BLE001 - the first error is the one to report
                pass
            raise

    def discard(self) -> None:
        """Close the sheets' temporary files without writing a workbook."""
        for sheet in self.book.worksheets:
            try:
                sheet.close()
            except Exception:  # noqa: BLE001 - openpyxl's own state; nothing is written anyway
                pass

    def notes(self) -> list[str]:
        notes = overflow_note(self.widest, self.hands, "the error column, three cells a hand")
        notes += past_note(self.past, self.width)
        if self.cut:
            notes.append(
                f"{self.cut:,} text{'s' if self.cut != 1 else ''} longer than a workbook cell holds "
                f"({XLSX_CELL:,} characters) cut, ending in '…'"
            )
        if self.sheets > 1:
            notes.append(
                f"{self.sheets} sheets: a sheet holds {MAX_ROWS:,} rows, so the rows go on "
                f"in 'fivecard (2)' and after"
            )
        return notes


# --- workbooks that Excel opens ---------------------------------------------------------------


def _sheet_name_problem(title: str) -> str | None:
    if not title:
        return "a sheet has no name"
    if len(title) > XLSX_SHEET_NAME:
        return f"sheet {quote(title)} has a name of {len(title):,} characters, and Excel allows {XLSX_SHEET_NAME}"
    banned = "".join(sorted(set(title) & _SHEET_NAME_BANNED))
    if banned:
        return f"sheet {quote(title)} has {quote(banned)} in its name, which Excel does not allow ([]:*?/\\)"
    if title.startswith("'") or title.endswith("'"):
        return f"sheet {quote(title)} starts or ends its name with ', which Excel does not allow"
    return None


def check_workbook(book: Any, name: str) -> None:
    """Raise :class:`~fivecard.core.errors.FileError` where an openpyxl workbook
    (one held whole, not write-only) saved as ``name`` would be a file that
    Excel refuses to open: a sheet past :data:`MAX_ROWS` rows or
    :data:`XLSX_COLUMNS` columns, a cell of more than :data:`XLSX_CELL`
    characters, a sheet's name longer than :data:`XLSX_SHEET_NAME` or
    holding ``[]:*?/\\``, or macros in a file not named ``.xlsm`` (Excel
    opens a file only when its name says what it holds)."""
    problem: str | None = None
    macros = getattr(book, "vba_archive", None) is not None
    if macros != name.lower().endswith(".xlsm"):
        problem = (
            "it holds macros, which only a workbook named .xlsm may hold"
            if macros
            else "a workbook named .xlsm holds macros, and this one is not macro-enabled"
        )
    for sheet in book.worksheets + getattr(book, "chartsheets", []):
        problem = problem or _sheet_name_problem(sheet.title)
    for sheet in book.worksheets:
        if problem is not None:
            break
        if sheet.max_row > MAX_ROWS:
            problem = f"sheet {quote(sheet.title)} has {sheet.max_row:,} rows, and Excel's sheets hold {MAX_ROWS:,}"
        elif sheet.max_column > XLSX_COLUMNS:
            problem = (
                f"sheet {quote(sheet.title)} reaches column {column_letter(sheet.max_column - 1)} "
                f"({sheet.max_column:,}), past {column_letter(XLSX_COLUMNS - 1)}, Excel's last ({XLSX_COLUMNS:,})"
            )
        else:
            for cell in sheet._cells.values():
                if isinstance(cell.value, str):
                    check_text(cell.value, name, f"cell {cell.coordinate} of sheet {quote(sheet.title)}")
    if problem is not None:
        raise FileError(f"{quote(name, PATH_QUOTE)} would not open in Excel: {problem}")


def check_text(text: str, name: str, where: str) -> None:
    """Raise :class:`~fivecard.core.errors.FileError` for a text longer than a
    workbook cell holds, to be written at ``where`` (``cell D5 of sheet
    'Grid'``) of the workbook ``name`` (openpyxl cuts such a text without a
    word as it is put in a cell)."""
    if len(text) > XLSX_CELL:
        raise FileError(
            f"{quote(name, PATH_QUOTE)} would not open in Excel: {where} holds {len(text):,} characters, "
            f"and a cell holds at most {XLSX_CELL:,}"
        )


def save_workbook(book: Any, stream: IO[bytes], name: str) -> None:
    """Save an openpyxl workbook (held whole) to ``stream`` as the file
    ``name`` (``.xlsx``, or ``.xlsm`` for one with macros), checked first
    (:func:`check_workbook`): every workbook fivecard writes whole goes
    through here; a streamed one is :class:`XlsxWriter`'s."""
    book.template = False  # a template's content type under .xlsx is refused too
    check_workbook(book, name)
    book.save(stream)


class _OutcomeTexts:
    """The texts of the run's outcomes (a dictionary's values), made once
    each as the register of outcomes grows."""

    def __init__(self, make: Callable[[Outcome], str]) -> None:
        self.make = make
        self.source: list[Outcome] | None = None
        self.texts: list[str] = []
        self.column: Any = None

    def __call__(self, chunk: Chunk, used: int) -> list[str]:
        """The texts of the first ``used`` outcomes of the chunk's register."""
        if chunk.outcomes is not self.source:
            self.source, self.texts, self.column = chunk.outcomes, [], None
        self.texts.extend(self.make(o) for o in chunk.outcomes[len(self.texts) : used])
        return self.texts[:used]

    def arrow(self, pa: Any, chunk: Chunk, used: int) -> Any:
        """The texts of at least the first ``used`` outcomes as an Arrow
        string array (a dictionary's values), made again only when the
        register has grown past it."""
        if chunk.outcomes is not self.source or self.column is None or len(self.column) < max(used, 1):
            texts = self(chunk, max(used, len(chunk.outcomes)))
            self.column = pa.array(texts or [""], pa.string())
        return self.column


class ParquetWriter(_Base):
    """Apache Parquet (with the optional ``pyarrow``): a row per input row,
    typed columns: line, the input's cells, per hand its sorted cards,
    category, score and strength, then winner(s), explanation and error."""

    def __init__(self, target: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            from ..core.errors import FileError

            raise FileError(
                "Parquet output needs pyarrow: pip install 'fivecard[parquet]'"
            ) from None
        super().__init__(columns, hands, rules)
        self.pa = pa
        self.names = ["line", *columns]
        fields = [pa.field("line", pa.int64())] + [pa.field(c, pa.string()) for c in columns]
        label = pa.dictionary(pa.int8(), pa.string())
        for i in range(1, hands + 1):
            fields += [
                pa.field(f"hand {i} sorted", pa.string()),
                pa.field(f"hand {i} category", label),
                pa.field(f"hand {i} score", pa.int16()),
                pa.field(f"hand {i} strength", pa.int32()),
            ]
        fields += [
            pa.field("winner", pa.dictionary(pa.int32(), pa.string())),
            pa.field("explanation", pa.dictionary(pa.int32(), pa.string())),
            pa.field("error", pa.string()),
            # what a row holds past the columns: further hands ("hand 3: sorted,
            # category, score; ..."), then cells past the table's columns
            pa.field("more", pa.string()),
        ]
        self.schema = pa.schema(fields)
        # Dictionary pages only where values repeat (categories, outcomes):
        # trying them on every input line costs more than it saves.
        repeated = [f.name for f in fields if pa.types.is_dictionary(f.type)]
        # Statistics (min and max per page) where a reader filters by them:
        # the numbers; those of free text cost more to make than they save.
        numbers = [f.name for f in fields if pa.types.is_integer(f.type)]
        # Values handed to the encoder 32,768 at a time, not 1,024: a third
        # less time encoding, the same pages.
        self.file = pq.ParquetWriter(
            target,
            self.schema,
            compression="snappy",
            use_dictionary=repeated,
            write_statistics=numbers,
            write_batch_size=1 << 15,
        )
        self.ladder = np.asarray(batch_category_table(rules), dtype=np.int8)
        self.labels = pa.array([c.label for c in rules.ladder], pa.string())
        self.scores = np.array([0] + [rules.score(c) for c in rules.ladder], dtype=np.int16)
        self.winners = _OutcomeTexts(_winners_text)
        self.explanations = _OutcomeTexts(lambda o: o.explanation)

    def _texts(
        self, data: bytes, lengths: I64, valid: npt.NDArray[np.bool_] | None = None, *, ascii: bool = False
    ) -> Any:
        """A string column from UTF-8 bytes laid end to end (``lengths``
        each; ``valid``: False for a null), built from the buffers without a
        Python object per value; bytes that are not UTF-8 are read with
        replacement characters, as every writer does (``ascii``: the bytes
        are known to be ASCII, and are not checked)."""
        pa = self.pa
        n = len(lengths)
        large = len(data) >= 1 << 31
        offsets = np.zeros(n + 1, dtype=np.int64 if large else np.int32)
        np.cumsum(lengths, out=offsets[1:])
        mask = None if valid is None or valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
        nulls = 0 if mask is None else n - int(valid.sum())  # type: ignore[union-attr]
        buffers = [mask, pa.py_buffer(offsets), pa.py_buffer(data)]
        if ascii and not large:
            return pa.Array.from_buffers(pa.string(), n, buffers, null_count=nulls)
        column = pa.Array.from_buffers(pa.large_binary() if large else pa.binary(), n, buffers, null_count=nulls)
        try:
            return column.cast(pa.large_string() if large else pa.string()).cast(pa.string())
        except pa.lib.ArrowInvalid:
            values = column.to_pylist()
            return pa.array([None if v is None else v.decode("utf-8", "replace") for v in values], pa.string())

    def _object_texts(self, values: Sequence[bytes | None]) -> Any:
        """A string column from values (UTF-8 bytes, or None for a null)."""
        lengths = np.fromiter((0 if v is None else len(v) for v in values), dtype=np.int64, count=len(values))
        valid = np.fromiter((v is not None for v in values), dtype=bool, count=len(values))
        return self._texts(b"".join(v for v in values if v is not None), lengths, valid)

    def prepare(self, chunk: Chunk) -> None:
        """The chunk's Arrow table, made ahead by the reading thread (Arrow
        builds its arrays without holding the interpreter)."""
        if len(chunk):
            chunk.prepared["parquet"] = self._table(chunk)

    def write(self, chunk: Chunk) -> None:
        self._measure(chunk)
        if len(chunk):
            self.file.write_table(chunk.prepared.get("parquet") or self._table(chunk))

    def _table(self, chunk: Chunk) -> Any:
        pa = self.pa
        n = len(chunk)
        spelled = _token_sorted(chunk)  # (h, 14) bytes, when every hand was read as tokens
        written = _written_sorted(chunk, _sort_order(chunk.codes)) if spelled is None else None
        arrays: list[Any] = [pa.array(chunk.line)]
        if chunk.lines is not None and self.width == 1:  # plain lines are ASCII
            arrays.append(self._texts(*chunk.joined_lines(), ascii=spelled is not None and not chunk.error))
        else:
            for j in range(self.width):
                cells = [chunk.row_cells(i) for i in range(n)]
                arrays.append(pa.array([c[j] if j < len(c) else None for c in cells], pa.string()))
        for j in range(self.hands):
            has = chunk.count > j
            rows = np.flatnonzero(has)
            hand = chunk.start[rows] + j
            mask = ~has
            strength = np.zeros(n, dtype=np.int64)
            strength[rows] = chunk.strength[hand]
            if spelled is not None:
                every = len(rows) == n == len(spelled) // self.hands  # each row this many hands
                spelled_cells = spelled[j :: self.hands] if every else spelled[hand]
                arrays.append(self._texts(spelled_cells.tobytes(), np.where(has, 14, 0), has, ascii=True))
            else:
                assert written is not None
                sorted_cells = np.full(n, None, dtype=object)
                sorted_cells[rows] = written[hand]
                arrays.append(self._object_texts(sorted_cells.tolist()))
            category = pa.array(np.maximum(self.ladder[strength], 0), pa.int8(), mask=mask)
            arrays.append(pa.DictionaryArray.from_arrays(category, self.labels))
            score = self.scores[self.ladder[strength].astype(np.int64) + 1]
            arrays.append(pa.array(score, pa.int16(), mask=mask))
            arrays.append(pa.array(strength.astype(np.int32), pa.int32(), mask=mask))
        none = chunk.outcome < 0
        index = pa.array(np.where(none, 0, chunk.outcome).astype(np.int32), pa.int32(), mask=none)
        used = int(chunk.outcome.max(initial=-1)) + 1  # the outcomes this chunk may use
        winners = self.winners.arrow(pa, chunk, used)
        explanations = self.explanations.arrow(pa, chunk, used)
        arrays.append(pa.DictionaryArray.from_arrays(index, winners))
        arrays.append(pa.DictionaryArray.from_arrays(index, explanations))
        errors = np.full(n, None, dtype=object)
        for i, message in chunk.error.items():
            errors[i] = message
        arrays.append(pa.array(errors, pa.string()) if chunk.error else pa.nulls(n, pa.string()))
        more = np.full(n, None, dtype=object)
        held = False
        for i in np.flatnonzero(chunk.count > self.hands).tolist():
            held = True
            span = chunk.hands_of(i)
            texts = []
            for k in range(span.start + self.hands, span.stop):
                info = class_info(self.rules, int(chunk.strength[k]))
                if written is None:
                    assert spelled is not None
                    spelling = spelled[k].tobytes()
                else:
                    spelling = written[k]
                cards = spelling.decode("utf-8", "replace")
                texts.append(f"hand {k - span.start + 1}: {cards}, {info.name}, {info.score}")
            more[i] = "; ".join(texts)
        if chunk.cells is not None:
            for i, row_cells in enumerate(chunk.cells):
                if len(row_cells) > self.width:
                    held = True
                    extra = ", ".join(row_cells[self.width :])
                    more[i] = extra if more[i] is None else f"{more[i]}; {extra}"
        arrays.append(pa.array(more, pa.string()) if held else pa.nulls(n, pa.string()))
        return pa.Table.from_arrays(arrays, schema=self.schema)

    def close(self) -> None:
        self.file.close()

    def discard(self) -> None:
        try:
            self.file.close()
        except Exception:  # noqa: BLE001 - nothing is kept anyway
            pass

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "in the 'more' column") + [
            note.replace("they follow the error column", "they are in the 'more' column")
            for note in past_note(self.past, self.width)
        ]


def make_writer(
    fmt: str,
    *,
    binary: IO[bytes],
    columns: Sequence[str],
    hands: int,
    painter: Painter,
    rules: RuleSet,
    bom: bool = False,
    header: bool = True,
) -> Writer:
    """A writer for the format. ``header``: write the header (not for a
    part of the rows that follows another, see :mod:`fivecard.files.parallel`;
    text, CSV and JSON Lines only)."""
    if fmt == "xlsx":
        return XlsxWriter(binary, columns, hands, rules)
    if fmt == "parquet":
        return ParquetWriter(binary, columns, hands, rules)
    if fmt == "jsonl":
        return JsonlWriter(binary, rules)
    if fmt == "csv":
        return CsvWriter(binary, columns, hands, rules, bom=bom, header=header)
    return TextWriter(binary, hands, painter, rules, header=header)
