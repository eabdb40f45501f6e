"""Cards spelled for output, whole columns at a time: by table lookups over
the card indices, a card's spelling written as one number of its bytes
through strided views where every spelling has one length.

Guarantees: a card is spelled as the input spelled it where the writers
keep the input's spelling (``10h`` stays ``10h``, ``A♥`` stays ``A♥``: see
:func:`written_sorted`), else canonically (``As``) or as people read it
(``A♠``, ``10♥``; ``ascii``: ``As``, ``Th``), padded to three columns for a
table; a hand's cards sorted are in ascending index (sorted order), stably.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from ...core.cards import CARDS, Card
from ...core.report import Painter
from ...vector import batch
from ..pipeline import Chunk, token_text
from .matrix import rows_of

__all__ = [
    "card",
    "spellings",
    "piece_matrix",
    "spelled",
    "written_sorted",
    "token_sorted",
    "card_numbers",
    "people_cards",
]

Objects = npt.NDArray[np.object_]
I64 = npt.NDArray[np.int64]
INDICES: Final = len(CARDS)  # how many card indices there are


def card(index: int) -> Card:
    """The card of an index."""
    return CARDS[index]


@cache
def spellings(kind: str) -> tuple[Objects, npt.NDArray[np.int64]]:
    """Card index -> the card's spelling as bytes (``canonical``: ``As``;
    ``unicode``/``ascii``: padded to three columns for a table), and the
    byte length of each."""
    table = np.full(INDICES, b"?", dtype=object)
    for index, each in enumerate(CARDS):
        if kind == "canonical":
            text = each.code_str
        else:
            text = each.code_str if kind == "ascii" else str(each)
            text += " " * (3 - len(text))
        table[index] = text.encode()
    lengths = np.fromiter((len(t) for t in table.tolist()), dtype=np.int64, count=INDICES)
    return table, lengths


@cache
def piece_matrix(kind: str, width: int, between: bytes) -> npt.NDArray[np.uint8]:
    """Per card index: its spelling (``width`` bytes; other cards:
    zeros) and then ``between``, as a byte matrix."""
    table, _ = spellings(kind)
    matrix = np.zeros((INDICES, width + len(between)), dtype=np.uint8)
    matrix[:, width:] = np.frombuffer(between, np.uint8)
    for i, text in enumerate(table.tolist()):
        if len(text) == width:
            matrix[i, :width] = list(text)
    return matrix


def _spelled_matrix(
    indices: npt.NDArray[np.int32], kind: str, before: bytes, between: bytes, after: bytes
) -> npt.NDArray[np.uint8] | None:
    """:func:`spelled` as an ``(h, width)`` byte matrix, when every card
    spelling used has one length (else None): one gather of the cards'
    pieces."""
    _, lengths = spellings(kind)
    small = indices
    h = len(indices)
    used = lengths[small]
    width = int(used.max()) if h else 1
    if h and int(used.min()) != width:
        return None
    step = width + len(between)
    cards = piece_matrix(kind, width, between)[small].reshape(h, 5 * step)[:, : 5 * step - len(between)]
    if not before and not after:
        return cards
    edges = [np.broadcast_to(np.frombuffer(before, np.uint8), (h, len(before)))] if before else []
    ends = [np.broadcast_to(np.frombuffer(after, np.uint8), (h, len(after)))] if after else []
    return np.hstack([*edges, cards, *ends])


def spelled(indices: npt.NDArray[np.int32], kind: str, before: bytes, between: bytes, after: bytes) -> Objects:
    """Each hand's cards (card indices) spelled and joined: ``before + c1 +
    between + ... + c5 + after``."""
    matrix = _spelled_matrix(indices, kind, before, between, after)
    if matrix is not None:
        return rows_of(matrix)
    table, _ = spellings(kind)
    out = np.empty(len(indices), dtype=object)
    for i, row in enumerate(table[indices].tolist()):
        out[i] = before + between.join(row) + after
    return out


def written_sorted(chunk: Chunk, order: npt.NDArray[np.int64], prefix: bytes = b"") -> Objects:
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
        people, _ = spellings("unicode")
        small = chunk.indices[others]
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


def token_sorted(chunk: Chunk) -> npt.NDArray[np.uint8] | None:
    """:func:`written_sorted` as an ``(h, 14)`` byte matrix, when every hand
    was read as five two-character tokens (else None). Each card is sorted
    as one number (its index, its position in the hand, its token), so
    one sort of the numbers orders the tokens, stably."""
    tokens = chunk.tokens
    if tokens is None or not len(tokens) or not bool((tokens[:, 0] != 0).all()):
        return None
    h = len(tokens)
    packed = chunk.indices.astype(np.int32) << 19
    packed |= np.arange(5, dtype=np.int32) << 16
    packed |= tokens
    packed = batch.sort_rows(packed)
    text = np.full((h, 14), ord(" "), dtype=np.uint8)
    np.ndarray((h, 5), np.uint16, text, 0, (14, 3))[:] = packed  # the low 16 bits: the tokens
    return text


@cache
def card_numbers(kind: str) -> tuple[npt.NDArray[np.uint64], int]:
    """Per card index: its spelling for a table (``unicode`` or ``ascii``,
    three columns) as the little-endian number of its bytes, and the bytes
    a suited card's spelling takes (every suited card's: 5 or 3)."""
    table, lengths = spellings(kind)
    numbers = np.zeros(INDICES, dtype=np.uint64)
    for index, text in enumerate(table.tolist()):
        numbers[index] = int.from_bytes(text[:8].ljust(8, b"\0"), "little")
    suited = [index for index, c in enumerate(CARDS) if c.suit is not None]
    width = int(lengths[suited].max())
    assert int(lengths[suited].min()) == width <= 8
    return numbers, width


def people_cards(chunk: Chunk, painter: Painter, order: npt.NDArray[np.int64]) -> Objects:
    """Per hand, its cards in ``order`` as people read them (padded to three
    columns each, red hearts and diamonds with colour)."""
    indices = np.take_along_axis(chunk.indices, order, axis=1)
    if painter.color or not (painter.ascii or painter.lang.english):  # (a language's own letters: Russian К♠)
        out = np.empty(len(indices), dtype=object)
        cards = [[CARDS[i] for i in row] for row in indices.tolist()]
        out[:] = [painter.cards(row).encode() for row in cards] if cards else []
    else:
        out = spelled(indices, "ascii" if painter.ascii else "unicode", b"", b" ", b"")
    return out
