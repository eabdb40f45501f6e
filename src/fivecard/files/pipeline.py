"""The bulk pipeline: rows in, a columnar result out, a chunk at a time.

Every bulk path (``solve`` in every format, ``classify`` of many hands, the
library's :func:`fivecard.files.solve.solve_rows`) goes through here:

1. **read** a chunk of rows: a block of text lines, or rows of a table;
2. **encode** every hand of the chunk at once (lines of two-character cards
   laid out like ``8C TS KC 9H 4S 7D 2S 5D 3S AC`` are parsed where they lie,
   as whole byte arrays; any other row through the single-hand parser, for its
   exact message);
3. **evaluate**: one table lookup per hand (:mod:`fivecard.vector.batch`);
4. **settle** each row: winners, order and explanation are an
   :class:`Outcome`, computed once per distinct case (who wins and the
   deciding step; a two-hand row's case is found with array arithmetic);
5. the result, a :class:`Chunk` of columns (strengths, card indices, hand texts,
   errors by row, an outcome per row), goes to one writer per format
   (:mod:`fivecard.files.writers`).

Nothing is dropped or shifted: a chunk holds one row per input row, a bad row
as an error that names the problem.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, overload

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..vector.columns import class_arrays
from ..core.cards import CARDS, JOKER, TEXTS
from ..core.errors import FivecardError
from ..core.hand import HAND_SIZE, Hand
from .rows import Row, line_row
from ..core.rules import RuleSet
from ..core.showdown import Outcome, check_deck_cards, check_decks, outcome
from .sources import Block, decode_line, long_row, wide_row_error

__all__ = [
    "Chunk", "chunks_of_rows", "chunks_with_rows", "chunks_of_blocks", "chunk_of_block", "chunk_of_indices", "dealt_chunks", "token_text", "CHUNK_ROWS",
]

#: Rows per chunk read from a table (text blocks hold about 500 KiB of lines).
CHUNK_ROWS: Final = 1 << 15
_MOST_FIXED: Final = 20  # hands of a fixed-width line parsed as arrays
_JOKER: Final = JOKER.index
I64 = npt.NDArray[np.int64]


@dataclass(slots=True)
class Chunk:
    """A chunk of solved rows, as columns.

    Per row (``n``): ``line`` (its line or spreadsheet row number), its input
    (``lines``, a text line's bytes, or ``cells``, a table row's cells),
    ``count`` hands from hand index ``start``, ``error`` (row -> message; such
    a row has no hands) and ``outcome`` (an index into ``outcomes``, -1 for
    a row of one hand or an error; ``outcome_keys`` names what fixes each
    outcome, for writers to cache what they make of it). ``outcomes`` is
    shared by the chunks of a run (it only grows), so a case met in many
    chunks is one outcome.

    Per hand (``h``): ``texts`` (the hand as written, UTF-8 bytes; ``None``
    for a hand read as an array, whose ``tokens`` spell it: see
    :meth:`hand_texts`), ``indices`` (``(h, 5)`` card indices) and ``strength``.
    """

    rules: RuleSet
    line: I64
    lines: Sequence[bytes] | None
    cells: list[tuple[str, ...]] | None
    count: I64
    start: I64
    error: dict[int, str]
    texts: npt.NDArray[np.object_]
    indices: npt.NDArray[np.int32]
    strength: I64
    outcome: I64
    outcomes: list[Outcome] = field(default_factory=list)
    outcome_keys: list[Hashable] = field(default_factory=list)
    #: What a writer made of the chunk ahead (see ``prepare`` of the writers).
    prepared: dict[str, Any] = field(default_factory=dict)
    #: Per hand written as five two-character cards at single spaces (the
    #: common case, parsed as arrays): its five tokens (two bytes each, as
    #: little-endian uint16), else zeros.
    tokens: npt.NDArray[np.uint16] | None = None
    #: Per hand, when hands play their best five of 5 to 7 cards: every card
    #: index it was dealt (``indices`` holds the five that play); else None.
    dealt: list[tuple[int, ...]] | None = None
    _natural: npt.NDArray[np.bool_] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.line)

    def hand_texts(self, index: npt.NDArray[np.int64] | None = None) -> list[bytes]:
        """The hands (all, or those of ``index``) as written."""
        at = np.arange(len(self.strength)) if index is None else index
        texts: list[bytes | None] = self.texts[at].tolist()
        missing = [i for i, t in enumerate(texts) if t is None]
        if missing:
            assert self.tokens is not None
            made = token_text(self.tokens[at[missing]]).view("S14").ravel().tolist()
            for i, text in zip(missing, made):
                texts[i] = text
        return texts  # type: ignore[return-value]  # every None was filled

    def joined_lines(self) -> tuple[bytes, npt.NDArray[np.int64]]:
        """The rows' lines (of a text input) end to end, and their lengths."""
        assert self.lines is not None
        if isinstance(self.lines, _Lines):
            return self.lines.joined()
        lengths = np.fromiter(map(len, self.lines), dtype=np.int64, count=len(self.lines))
        return b"".join(self.lines), lengths

    def row_cells(self, i: int) -> tuple[str, ...]:
        """Row ``i``'s input cells (a text line is one cell)."""
        if self.cells is not None:
            return self.cells[i]
        assert self.lines is not None
        return (self.lines[i].decode("utf-8", "replace"),)

    def hands_of(self, i: int) -> range:
        """The hand indices of row ``i``."""
        first = int(self.start[i])
        return range(first, first + int(self.count[i]))

    def head(self, rows: int) -> Chunk:
        """The chunk's first ``rows`` rows (and their hands)."""
        hands = int(self.start[rows]) if rows < len(self) else len(self.strength)
        kept = np.flatnonzero(self.outcome[:rows] >= 0)
        return Chunk(
            self.rules,
            self.line[:rows],
            None if self.lines is None else self.lines[:rows],
            None if self.cells is None else self.cells[:rows],
            self.count[:rows],
            self.start[:rows],
            {i: e for i, e in self.error.items() if i < rows},
            self.texts[:hands],
            self.indices[:hands],
            self.strength[:hands],
            self.outcome[:rows],
            self.outcomes,
            self.outcome_keys,
            tokens=None if self.tokens is None else self.tokens[:hands],
            dealt=None if self.dealt is None else self.dealt[:hands],
        )

    def limited(self, most: int | None) -> Chunk:
        """The chunk with each row of more than ``most`` hands made an error
        row that says so (:func:`~fivecard.files.sources.wide_row_error`):
        the output's columns hold ``most`` hands, and a wider row must not
        spill past them (None: no limit)."""
        if most is None or not len(self) or int(self.count.max()) <= most:
            return self
        wide = np.flatnonzero(self.count > most)
        error = dict(self.error)
        for i in wide.tolist():
            error[i] = wide_row_error(int(self.count[i]), most)
        keep = np.ones(len(self.strength), dtype=bool)
        for i in wide.tolist():
            keep[self.hands_of(i)] = False
        count = self.count.copy()
        count[wide] = 0
        outcome = self.outcome.copy()
        outcome[wide] = -1
        return Chunk(
            self.rules, self.line, self.lines, self.cells, count, np.cumsum(count) - count, error,
            self.texts[keep], self.indices[keep], self.strength[keep], outcome, self.outcomes, self.outcome_keys,
            tokens=None if self.tokens is None else self.tokens[keep],
            dealt=None if self.dealt is None else [d for d, k in zip(self.dealt, keep.tolist()) if k],
        )  # fmt: skip

    @property
    def natural(self) -> npt.NDArray[np.bool_]:
        """Per hand: holds no wild card (no joker; made once)."""
        if self._natural is None:
            if not self.rules.wild_indices:
                self._natural = np.ones(len(self.strength), dtype=bool)
            else:
                wild = _wild_cards(self.rules)[self.indices]
                self._natural = ~(wild[:, 0] | wild[:, 1] | wild[:, 2] | wild[:, 3] | wild[:, 4])
        return self._natural


@cache
def _wild_cards(rules: RuleSet) -> npt.NDArray[np.bool_]:
    """Per card index: whether the card is wild under the rules."""
    table = np.zeros(len(CARDS), dtype=bool)
    table[list(rules.wild_indices)] = True
    return table


def token_text(tokens: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint8]:
    """Rows of two-byte tokens (little-endian uint16; five a hand) spelled as
    text, one space between cards: for ``(n, t)`` tokens an ``(n, 3t - 1)``
    byte matrix (a hand: ``(n, 14)``)."""
    n, t = tokens.shape
    matrix = np.full((n, 3 * t), 32, dtype=np.uint8)
    matrix.reshape(n, t, 3)[:, :, :2] = np.ascontiguousarray(tokens).view(np.uint8).reshape(n, t, 2)
    return np.ascontiguousarray(matrix[:, : 3 * t - 1])


# --- reading rows ---------------------------------------------------------------------------


def chunks_of_rows(
    rows: Iterable[Row],
    rules: RuleSet,
    decks: int = 1,
    *,
    size: int = CHUNK_ROWS,
    best_five: bool = False,
    most_hands: int | None = None,
) -> Iterator[Chunk]:
    """Solve rows (of a table, or lines already split) a chunk at a time
    (``best_five``: hands of 5 to 7 cards play their best five;
    ``most_hands``: a row of more hands is an error row, see
    :meth:`Chunk.limited`)."""
    for chunk, _ in chunks_with_rows(rows, rules, decks, size=size, best_five=best_five):
        yield chunk.limited(most_hands)


def chunks_with_rows(
    rows: Iterable[Row],
    rules: RuleSet,
    decks: int = 1,
    *,
    size: int = CHUNK_ROWS,
    best_five: bool = False,
) -> Iterator[tuple[Chunk, list[Row]]]:
    """As :func:`chunks_of_rows`, each chunk with the rows it was made of
    (for a reader of the results that needs a row's own fields: its
    hands as split, its error); a chunk's rows are held only while it is."""
    iterator = iter(rows)
    while batch_rows := list(itertools.islice(iterator, size)):
        chunk = _solve(
            rules,
            decks,
            np.fromiter((r.line for r in batch_rows), dtype=np.int64, count=len(batch_rows)),
            None,
            [r.cells for r in batch_rows],
            {i: r for i, r in enumerate(batch_rows)},
            [],
            best_five,
        )
        yield chunk, batch_rows


@dataclass(frozen=True, slots=True)
class _Fixed:
    """Lines of ``hands`` hands of two-character cards at single spaces,
    parsed where they lie: their row indices, card indices ``(m, hands, 5)``
    and the bytes of each hand."""

    rows: I64
    indices: npt.NDArray[np.int32]
    tokens: npt.NDArray[np.uint16]


def chunks_of_blocks(
    blocks: Iterable[Block],
    rules: RuleSet,
    decks: int = 1,
    *,
    one_hand: bool = False,
    best_five: bool = False,
    most_hands: int | None = None,
) -> Iterator[Chunk]:
    """Solve the lines of a text input, a block of lines at a time. Blank and
    comment lines are not rows (their numbers are kept by the others).
    ``one_hand``: each line is one hand (``classify``), and only blank lines
    are skipped. ``best_five``: hands of 5 to 7 cards play their best five.
    ``most_hands``: a row of more hands is an error row (:meth:`Chunk.limited`)."""
    for block in blocks:
        chunk = _solve_block(block, rules, decks, one_hand, best_five)
        if len(chunk):
            yield chunk.limited(most_hands)


def chunk_of_block(block: Block, rules: RuleSet, decks: int = 1, most_hands: int | None = None) -> Chunk:
    """The rows of one block of lines (none, if all are blank or comments;
    ``most_hands``: as for :func:`chunks_of_blocks`)."""
    return _solve_block(block, rules, decks).limited(most_hands)


def _solve_block(
    block: Block, rules: RuleSet, decks: int, one_hand: bool = False, best_five: bool = False
) -> Chunk:
    data = block.data
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
    length = ends - starts
    count = len(ends)
    fixed: list[_Fixed] = []
    taken = np.zeros(count, dtype=bool)
    candidates = (length % 15 == 14) & (length < (15 if one_hand else 15 * _MOST_FIXED))
    if block.long:
        candidates[list(block.long)] = False
    if best_five:  # the arrays read five cards to a hand
        candidates[:] = False
    for hands in np.flatnonzero(np.bincount(length[candidates] // 15 + 1)).tolist():
        rows = np.flatnonzero(candidates & (length == 15 * hands - 1))
        width = 15 * hands - 1
        if len(rows) == count and len(data) == count * (width + 1):
            raw, stride = data, width + 1  # every line alike: read in place
        else:
            raw, stride = buf[starts[rows, None] + np.arange(width)].tobytes(), width
        m = len(rows)
        indices = np.empty((m, hands, 5), dtype=np.int32)
        ok = np.ones(m, dtype=bool)
        for j in range(hands):
            indices[:, j], good = batch.fixed_width_indices(raw, m, stride, rules, offset=15 * j)
            ok &= good
            if j:
                ok &= np.ndarray((m,), np.uint8, raw, 15 * j - 1, (stride,)) == 32
        if rules.one_deck and hands > 1:  # a card twice in one hand is not ok already; across hands:
            bits = _BITS[np.take(_card_bit_index(), indices)]  # (m, hands, 5): one bit a card (a joker none)
            held = bits[:, :, 0] | bits[:, :, 1] | bits[:, :, 2] | bits[:, :, 3] | bits[:, :, 4]
            seen = held[:, 0]
            for j in range(1, hands):
                ok &= (seen & held[:, j]) == 0
                seen = seen | held[:, j]
            if rules.jokers:  # no more jokers in the row than the deck has
                ok &= (indices == _JOKER).reshape(m, -1).sum(axis=1) <= rules.jokers
        tokens = np.empty((m, hands, 5), dtype=np.uint16)
        for j in range(hands):
            tokens[:, j] = batch.token_view(raw, m, stride, 15 * j)
        if not ok.all():
            keep = np.flatnonzero(ok)
            if not len(keep):
                continue
            rows, indices, tokens = rows[keep], indices[keep], tokens[keep]
        fixed.append(_Fixed(rows, indices, tokens))
        taken[rows] = True
    first = block.first
    if taken.all():  # every line read as arrays: its text is split off only if a writer asks
        numbers = np.arange(first, first + count, dtype=np.int64)
        return _solve(rules, decks, numbers, _Lines(data, count), None, {}, fixed)
    lines = data.split(b"\n")
    lines.pop()
    general: dict[int, Row] = {}
    skipped: list[int] = []
    for i in np.flatnonzero(~taken).tolist():
        if block.long and i in block.long:
            size, prefix = block.long[i]
            general[i] = long_row(first + i, size, prefix)
            lines[i] = general[i].cells[0].encode()
            continue
        text, undecoded = decode_line(lines[i])
        if one_hand:
            row = Row(first + i, (text,), (text,)) if text.strip() else None
        else:
            row = line_row(first + i, text, best_five=best_five)
        if undecoded is not None and row is not None:
            row = Row(row.line, row.cells, error=undecoded)
        if row is None:
            skipped.append(i)
        else:
            general[i] = row
    numbers = np.arange(first, first + count, dtype=np.int64)
    if skipped:  # drop blank and comment lines, renumbering what refers to rows
        keep_rows = np.ones(count, dtype=bool)
        keep_rows[skipped] = False
        new_index = np.cumsum(keep_rows) - 1
        numbers = numbers[keep_rows]
        lines = [text for text, kept in zip(lines, keep_rows.tolist()) if kept]
        general = {int(new_index[i]): row for i, row in general.items()}
        fixed = [_Fixed(new_index[f.rows], f.indices, f.tokens) for f in fixed]
    return _solve(rules, decks, numbers, lines, None, general, fixed, best_five)


@cache
def _card_bit_index() -> npt.NDArray[np.int8]:
    """Card index -> a bit of its own among the cards of a rule set (a suited
    card's index; a rank-only card's rank place, ace 0; a rule set has
    either suited or rank-only cards), so that the cards of a hand are an OR
    of bits; the joker, which a deck may hold twice, 64, whose bit is none
    (jokers are counted)."""
    table = np.zeros(len(CARDS), dtype=np.int8)
    for index, card in enumerate(CARDS):
        if card.is_joker:
            table[index] = 64
        elif card.suit is None:
            table[index] = index - JOKER.index - 2
        else:
            table[index] = index
    return table


_BITS: Final = np.append(np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64)), np.uint64(0))


class _Lines(Sequence[bytes]):
    """A block's lines without their line ends, split off when first read."""

    __slots__ = ("_data", "_count", "_split")

    def __init__(self, data: bytes, count: int) -> None:
        self._data = data
        self._count = count
        self._split: list[bytes] | None = None

    def _lines(self) -> list[bytes]:
        if self._split is None:
            self._split = self._data.split(b"\n")
            self._split.pop()
        return self._split

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> bytes: ...
    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...
    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        return self._lines()[index]

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._lines())

    def joined(self) -> tuple[bytes, npt.NDArray[np.int64]]:
        """The lines end to end and their lengths (lines of one length: one
        copy of the block without its line ends)."""
        data, n = self._data, self._count
        if n and len(data) % n == 0 and data[len(data) // n - 1 :: len(data) // n].count(b"\n") == n:
            width = len(data) // n - 1
            kept = np.frombuffer(data, dtype=np.uint8).reshape(n, width + 1)[:, :width]
            return kept.tobytes(), np.full(n, width, dtype=np.int64)
        lines = self._lines()
        return b"".join(lines), np.fromiter(map(len, lines), dtype=np.int64, count=n)


def chunk_of_indices(indices: npt.NDArray[np.int32], rules: RuleSet, first: int = 1) -> Chunk:
    """Solve rows of dealt hands: ``indices`` is ``(rows, hands, 5)`` card
    indices of valid hands (a deal), numbered from ``first``. Each hand's
    text is its canonical spelling (``As Kd 7h 7c 2s``)."""
    rows, hands = indices.shape[:2]
    count = np.full(rows, hands, dtype=np.int64)
    flat = np.ascontiguousarray(indices.reshape(-1, 5), dtype=np.int32)
    texts = np.empty(len(flat), dtype=object)
    tokens = None
    if rules.suits:  # every canonical spelling has two characters: the tokens spell it
        tokens = _canonical_tokens()[flat]
    else:
        texts[:] = [" ".join(TEXTS[i] for i in row).encode() for row in flat.tolist()]
    chunk = Chunk(
        rules,
        np.arange(first, first + rows, dtype=np.int64),
        None,
        [()] * rows,
        count,
        np.arange(rows, dtype=np.int64) * hands,
        {},
        texts,
        flat,
        batch._strengths(flat, rules, checked=False).astype(np.int64),
        np.full(rows, -1, dtype=np.int64),
        tokens=tokens,
    )
    _settle(chunk)
    return chunk


@cache
def _canonical_tokens() -> npt.NDArray[np.uint16]:
    """Card index -> its two-character canonical spelling as a
    little-endian uint16 token (rank-only cards: 0)."""
    spelled = np.zeros(len(TEXTS), dtype=np.uint16)
    for index, text in enumerate(TEXTS):
        if len(text) == 2:
            spelled[index] = ord(text[0]) | ord(text[1]) << 8
    return spelled


# --- solving a chunk ------------------------------------------------------------------------


def _solve(
    rules: RuleSet,
    decks: int,
    line: I64,
    lines: Sequence[bytes] | None,
    cells: list[tuple[str, ...]] | None,
    general: dict[int, Row],
    fixed: list[_Fixed],
    best_five: bool = False,
) -> Chunk:
    n = len(line)
    count = np.zeros(n, dtype=np.int64)
    error: dict[int, str] = {}
    for f in fixed:
        count[f.rows] = f.indices.shape[1]
    # The general rows: split already; encode all their hands at once.
    texts: list[str] = []
    owners: list[int] = []
    sizes: list[int] = []
    for i, row in general.items():
        problem = _row_problem(row)
        if problem is not None:
            error[i] = problem
            continue
        texts.extend(row.hands)
        owners.append(i)
        sizes.append(len(row.hands))
    rows = np.array(owners, dtype=np.int64)
    size = np.array(sizes, dtype=np.int64)
    first = np.cumsum(size) - size  # each row's first hand in ``texts``
    ok = np.ones(len(rows), dtype=bool)
    dealt: list[tuple[int, ...]] = []
    if best_five:
        encoded: batch.Encoded | None = None
        if texts:
            encoded, dealt = _encode_best(texts, rules)
    else:
        encoded = batch.encode(texts, rules=rules) if texts else None
    if encoded is not None and encoded.errors:
        bad = np.array(sorted(encoded.errors), dtype=np.int64)
        where = np.searchsorted(first, bad, side="right") - 1
        seen: set[int] = set()
        for k, w in zip(bad.tolist(), where.tolist()):
            if w in seen:
                continue  # a row's first bad hand names it
            seen.add(w)
            ok[w] = False
            prefix = f"hand {k - int(first[w]) + 1}: " if sizes[w] > 1 else ""
            error[owners[w]] = prefix + encoded.errors[k]
    if encoded is not None and rules.one_deck and best_five:  # each hand's every card, not its five
        for w in np.flatnonzero(ok & (size > 1)).tolist():
            row_dealt = dealt[int(first[w]) : int(first[w]) + int(size[w])]
            try:
                check_deck_cards(
                    [(str(j), [CARDS[i] for i in indices]) for j, indices in enumerate(row_dealt, 1)],
                    rules,
                    decks,
                )
            except FivecardError as exc:
                ok[w] = False
                error[owners[w]] = str(exc)
    elif encoded is not None and rules.one_deck:
        for hands in batch.distinct(size[ok & (size > 1)]).tolist():
            group = np.flatnonzero(ok & (size == hands))
            every = encoded.indices[first[group, None] + np.arange(hands)].reshape(len(group), 5 * hands)
            every = np.sort(every, axis=1)
            jokers = (every == _JOKER).sum(axis=1)
            suspect = ((every[:, 1:] == every[:, :-1]) & (every[:, 1:] != _JOKER)).any(axis=1)
            suspect |= jokers > rules.jokers
            for w in group[suspect].tolist():
                span = encoded.indices[int(first[w]) : int(first[w]) + hands]
                problem = _deck_problem(span, rules, decks)
                if problem is not None:
                    ok[w] = False
                    error[owners[w]] = problem
    count[rows[ok]] = size[ok]
    start = np.cumsum(count) - count
    h = int(count.sum())
    hand_texts = np.empty(h, dtype=object)
    tokens: npt.NDArray[np.uint16] | None
    if len(fixed) == 1 and len(fixed[0].rows) == n:  # every row read as arrays, in order
        indices = fixed[0].indices.reshape(-1, 5)
        tokens = fixed[0].tokens.reshape(-1, 5)
    else:
        indices = np.zeros((h, 5), dtype=np.int32)
        tokens = np.zeros((h, 5), dtype=np.uint16) if fixed else None
        for f in fixed:
            k = f.indices.shape[1]
            at = (start[f.rows, None] + np.arange(k)).ravel()
            indices[at] = f.indices.reshape(-1, 5)
            assert tokens is not None
            tokens[at] = f.tokens.reshape(-1, 5)
    hands_dealt: list[tuple[int, ...]] = [()] * h if best_five else []
    if ok.any():
        assert encoded is not None
        kept = size[ok]
        within = np.arange(int(kept.sum())) - np.repeat(np.cumsum(kept) - kept, kept)
        source = np.repeat(first[ok], kept) + within
        at = np.repeat(start[rows[ok]], kept) + within
        indices[at] = encoded.indices[source]
        chosen = source.tolist()
        hand_texts[at] = [texts[k].encode("utf-8", "replace") for k in chosen]
        if best_five:
            for place, k in zip(at.tolist(), chosen):
                hands_dealt[place] = dealt[k]
    strength = batch._strengths(indices, rules, checked=False).astype(np.int64)
    chunk = Chunk(
        rules, line, lines, cells, count, start, error, hand_texts, indices, strength,
        np.full(n, -1, dtype=np.int64), tokens=tokens,
        dealt=hands_dealt if best_five else None,
    )
    _settle(chunk)
    return chunk


def _encode_best(texts: list[str], rules: RuleSet) -> tuple[batch.Encoded, list[tuple[int, ...]]]:
    """Hands of 5 to 7 cards: the indices of the five that play each (as
    :func:`fivecard.evaluate` with ``best_five`` chooses them), and each
    hand's every card index (for the deck check). Each hand is read by the
    single-hand parser (its exact message for a bad hand)."""
    from ..core.hand import dealt_cards
    from ..vector.seven import best_positions

    encoded = batch.Encoded(rules, np.zeros((len(texts), 5), dtype=np.int32))
    dealt: list[tuple[int, ...]] = [()] * len(texts)
    by_size: dict[int, list[int]] = {}
    for i, text in enumerate(texts):
        try:
            cards = dealt_cards(text, rules)
        except FivecardError as exc:
            encoded.errors[i] = str(exc)
            continue
        dealt[i] = tuple(c.index for c in cards)
        by_size.setdefault(len(cards), []).append(i)
    for rows in by_size.values():
        every = np.array([dealt[i] for i in rows], dtype=np.int32)
        chosen = best_positions(every, rules=rules).astype(np.int64)
        encoded.indices[rows] = np.take_along_axis(every, chosen, axis=1)
    return encoded, dealt


def _row_problem(row: Row) -> str | None:
    """Why a row cannot be solved before its cards are read: its own error,
    or no hands. An empty hand among others is read as every hand is (the
    library's message for it, on every path; later hands keep their
    numbers)."""
    if row.error is not None:
        return row.error
    if not any(text.strip() for text in row.hands):
        return "no hands in this row"
    return None


def _deck_problem(indices: npt.NDArray[np.int32], rules: RuleSet, decks: int) -> str | None:
    """The single-hand path's deck check, run only when a card repeats or
    jokers abound (the common row needs no Hand objects)."""
    if not rules.one_deck:
        return None
    values = indices.ravel().tolist()
    naturals = [i for i in values if i != _JOKER]
    if len(set(naturals)) == len(naturals) and len(values) - len(naturals) <= rules.jokers:
        return None
    try:
        check_decks(
            [Hand(tuple(CARDS[i] for i in row), rules) for row in indices.tolist()],
            decks=decks,
        )
    except FivecardError as exc:
        return str(exc)
    return None


# --- settling -------------------------------------------------------------------------------


class _Outcomes:
    """The outcomes met so far under one rule set, numbered: chunks refer to
    them by number, so a case met in many chunks is settled once and writers
    format it once. Two-hand cases are found by their integer keys with one
    sorted search; at most :data:`_CACHE_LIMIT` are kept (then a fresh
    register starts: chunks made before keep theirs)."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.keys: list[Hashable] = []
        self.numbers: dict[Hashable, int] = {}
        self.sorted_keys = np.zeros(0, dtype=np.int64)  # the integer keys, sorted
        self.sorted_numbers = np.zeros(0, dtype=np.int64)
        self.many = 0  # outcomes of three or more hands (keyed by their strengths: rarely met twice)

    def add(self, key: Hashable, strengths: Sequence[int], naturals: Sequence[bool], rules: RuleSet) -> int:
        number = self.numbers.get(key)
        if number is None:
            self.many += not isinstance(key, int)
            number = self.numbers[key] = len(self.outcomes)
            self.outcomes.append(outcome(tuple(strengths), tuple(naturals), rules))
            self.keys.append(key)
        return number

    def find(self, keys: I64) -> I64:
        """The numbers of integer keys, or -1 for keys not met yet."""
        found = np.full(len(keys), -1, dtype=np.int64)
        if len(self.sorted_keys):
            at = np.minimum(np.searchsorted(self.sorted_keys, keys), len(self.sorted_keys) - 1)
            hit = self.sorted_keys[at] == keys
            found[hit] = self.sorted_numbers[at[hit]]
        return found

    def index(self, keys: I64, numbers: I64) -> None:
        """Add integer keys (and their numbers) to those :meth:`find` searches."""
        every = np.concatenate([self.sorted_keys, keys])
        order = np.argsort(every, kind="stable")
        self.sorted_keys = every[order]
        self.sorted_numbers = np.concatenate([self.sorted_numbers, numbers])[order]


_CACHE_LIMIT: Final = 1 << 16  # distinct outcomes kept: memory must not grow with the input
_MANY_LIMIT: Final = 1 << 10  # outcomes of three or more hands kept
_REGISTERS: dict[RuleSet, _Outcomes] = {}


def _register(rules: RuleSet) -> _Outcomes:
    register = _REGISTERS.get(rules)
    if register is None or len(register.outcomes) >= _CACHE_LIMIT or register.many >= _MANY_LIMIT:
        register = _REGISTERS[rules] = _Outcomes()
    return register


def _settle(chunk: Chunk) -> None:
    """Fill the chunk's outcomes: two-hand rows by array arithmetic over
    their case keys (new cases settled one by one, the others found by one
    sorted search); rows of three or more hands one by one (cached)."""
    rules = chunk.rules
    natural = chunk.natural
    register = _register(rules)
    pairs = np.flatnonzero(chunk.count == 2)
    if len(pairs):
        first, second = chunk.start[pairs], chunk.start[pairs] + 1
        a, b = chunk.strength[first], chunk.strength[second]
        keys = _pair_keys(a, b, rules)
        if rules.wild_indices:
            keys |= natural[first].astype(np.int64) << 44 | natural[second].astype(np.int64) << 45
        numbers = register.find(keys)
        new = np.flatnonzero(numbers < 0)
        if len(new):
            at = batch.first_of_each(keys[new])
            rows = new[at]
            made = [
                register.add(int(keys[row]), (int(a[row]), int(b[row])), (bool(natural[i]), bool(natural[j])), rules)
                for row, i, j in zip(rows.tolist(), first[rows].tolist(), second[rows].tolist())
            ]
            register.index(keys[rows], np.array(made, dtype=np.int64))
            numbers[new] = register.find(keys[new])
        chunk.outcome[pairs] = numbers
    for row in np.flatnonzero(chunk.count > 2).tolist():
        span = chunk.hands_of(row)
        strengths = tuple(chunk.strength[span.start : span.stop].tolist())
        naturals = tuple(natural[span.start : span.stop].tolist())
        chunk.outcome[row] = register.add((strengths, naturals), strengths, naturals, rules)
    chunk.outcomes = register.outcomes
    chunk.outcome_keys = register.keys


@cache
def _first_difference() -> npt.NDArray[np.int8]:
    """An XOR of two packed keys -> the key position (0-4) of their first
    difference, from the left."""
    table = np.zeros(1 << 20, dtype=np.int8)
    for position in range(5):
        low = 1 << (16 - 4 * position)
        table[low : low << 4] = position
    return table


def _pair_keys(first: I64, second: I64, rules: RuleSet) -> I64:
    """One integer per two-hand showdown that fixes its outcome: who wins,
    and the deciding step (categories; or the step, the two values and the
    groups named before it); for a draw, the class. Worked out in 32 bits
    (half the memory traffic of 64)."""
    arrays = class_arrays(rules)
    category, packed = arrays.category.astype(np.int32), arrays.key
    big_first, big_second = arrays.names_first, arrays.names_second
    a, b = first.astype(np.int32), second.astype(np.int32)
    best, worst = np.maximum(a, b), np.minimum(a, b)
    winner = (a < b).astype(np.int32)  # 0: hand 1, 1: hand 2
    kw, kl = packed[best], packed[worst]
    step = _first_difference()[kw ^ kl].astype(np.int32)
    shift = 16 - 4 * step
    value_w, value_l = (kw >> shift) & 15, (kl >> shift) & 15
    named_1 = np.where((step > 0) & big_first[best], kw >> 16, 0)
    named_2 = np.where((step > 1) & big_second[best], (kw >> 12) & 15, 0)
    cat_w, cat_l = category[best], category[worst]
    head = winner << 27 | cat_w << 23
    same = (3 << 28) | head | step << 20 | value_w << 16 | value_l << 12 | named_1 << 8 | named_2 << 4
    decided = np.where(cat_w == cat_l, same, (2 << 28) | head | cat_l << 19)
    result: I64 = np.where(a == b, (1 << 28) | best, decided).astype(np.int64)
    return result


def dealt_chunks(
    players: int, *, rules: str | RuleSet = "standard", seed: int, rounds: int = 1, size: int = 512
) -> Iterator[Chunk]:
    """The rounds :func:`~fivecard.play.deal.deal_rounds` deals (the same
    cards for the same seed), solved ``size`` rounds at a time through this
    pipeline: each a :class:`Chunk` whose rows are rounds (numbered from 1)
    and whose hands are the players'."""
    from ..play.deal import check_players, check_rounds  # (dealing only: secrets and hmac load with it)

    ruleset = check_players(players, rules)
    check_rounds(rounds)
    return _chunks(players, ruleset, seed, rounds, size)


def _chunks(players: int, ruleset: RuleSet, seed: int, rounds: int, size: int) -> Iterator[Chunk]:
    rng = random.Random(seed)
    deck_indices = [c.index for c in ruleset.deck()]
    dealt = players * HAND_SIZE
    done = 0
    while done < rounds:
        m = min(size, rounds - done)
        table = np.empty((m, dealt), dtype=np.int32)
        for row in range(m):
            deck = list(deck_indices)
            rng.shuffle(deck)  # the permutation depends on the length alone: as for the cards
            table[row] = deck[:dealt]
        yield chunk_of_indices(table.reshape(m, players, HAND_SIZE), ruleset, done + 1)
        done += m
