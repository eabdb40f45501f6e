"""Each hand's JSON object, for whole chunks: the objects of JSON Lines, of
``classify --json`` and of ``deal --json``.

Guarantees: a hand's object holds the fields of
:func:`fivecard.core.report.evaluation_json`, in its order, with the same
values (its class's fields from :func:`fivecard.core.report.class_fields`
and the class's facts, :mod:`fivecard.core.columns`), laid out compactly or
as ``json.dumps(..., indent=2)`` lays it out nested at an indent; a hand
with wild cards says what they became; a hand of more than five cards is
the single-hand path's own object. The head of an object (its input and
cards) depends on the chunk alone, so the reading thread makes it ahead.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.cards import Card
from ...core.columns import class_columns
from ...core.evaluate import Evaluation, evaluate
from ...core.hand import Hand
from ...core.lang import ENGLISH, Language
from ...core.report import class_fields, evaluation_json, wild_fields
from ...core.rules import RuleSet
from ...core.words import category_name
from ...vector import batch
from ..pipeline import Chunk, token_text
from .cards import card, piece_matrix, spelled, spellings
from .cells import JSON_SPECIAL, NO_LEADING, escaped, json_ascii, json_text
from .matrix import rows_of
from .memo import PerCase, PerStrength
from .order import wild

__all__ = ["hand_objects", "hand_heads", "token_heads", "class_json", "best_evaluation"]

Objects = npt.NDArray[np.object_]


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
    spell = piece_matrix("canonical", width, b"").view(np.uint16 if width == 2 else np.uint8).ravel()
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


def token_heads(chunk: Chunk, indent: str | None = None) -> npt.NDArray[np.uint8] | None:
    """:func:`hand_heads` as one byte matrix, when every hand of the chunk
    was read as five two-character tokens (plain ASCII: nothing to escape);
    else None."""
    tokens = chunk.tokens
    if tokens is None or not len(tokens) or not chunk.rules.suits or not bool((tokens[:, 0] != 0).all()):
        return None  # (without suits a card is spelled in one character)
    matrix, start, _ = _head_matrix(indent, chunk.indices, 2)
    np.ndarray((len(tokens), 5), np.uint16, matrix, start, (matrix.shape[1], 3))[:] = tokens
    return matrix


def hand_heads(chunk: Chunk, indent: str | None = None, *, ascii: bool = False) -> Objects:
    """Per hand, the first piece of its JSON object (see :func:`hand_objects`):
    from ``{`` to its sorted cards. A function of the chunk alone, so the
    reading thread can make it ahead."""
    matrix = token_heads(chunk, indent)
    if matrix is not None:
        return rows_of(matrix)
    head, cards_head, item_sep, item_close, sorted_head = _json_pieces(indent)
    h = len(chunk.indices)
    small = chunk.indices
    _, lengths = spellings("canonical")
    used = lengths[small]
    first = np.empty(h, dtype=object)
    done = np.zeros(h, dtype=bool)
    width = int(used.max()) if h else 1
    if not h or int(used.min()) == width:  # one spelling width: one byte matrix
        matrix, start, end = _head_matrix(indent, small, width)
        if chunk.tokens is not None:  # hands read as arrays: plain ASCII, 14 bytes
            rows = np.flatnonzero(chunk.tokens[:, 0] != 0)
            matrix[rows, start:end] = token_text(chunk.tokens[rows])
            first[rows] = rows_of(matrix[rows])
            done[rows] = True
        rest = rows_of(matrix[~done, end:])
    else:
        order = batch.row_order(small)
        sorted_indices = np.take_along_axis(chunk.indices, order, axis=1)
        rest = spelled(chunk.indices, "canonical", cards_head, item_sep, item_close) + (
            spelled(sorted_indices, "canonical", sorted_head, item_sep, item_close)
        )
    others = np.flatnonzero(~done)
    if len(others):
        fix = json_ascii if ascii else json_text
        texts = escaped(chunk.hand_texts(others), JSON_SPECIAL, NO_LEADING, fix, b"")
        first[others] = head + texts + rest
    return first


def hand_objects(
    chunk: Chunk, classes: Objects, indent: str | None = None, *, ascii: bool = False,
    heads: Objects | None = None, joined: npt.NDArray[np.bool_] | None = None, lang: Language = ENGLISH,
) -> Objects:
    """Per hand, its JSON object (see :func:`fivecard.core.report.evaluation_json`)
    in two pieces to be joined: from ``{`` to the sorted cards (``heads``,
    when made already), and ``classes`` (per hand: the rest, from its class,
    followed by ``", "`` where ``joined``). Compact, or for ``indent`` (the
    indent of the object's lines) as ``json.dumps(..., indent=2)`` lays it
    out. A hand with wild cards ends with what they became. ``lang``: the
    language of each hand's ``name`` and ``description``."""
    h = len(chunk.indices)
    first = heads if heads is not None else hand_heads(chunk, indent, ascii=ascii)
    objects = np.empty((h, 2), dtype=object)
    objects[:, 0] = first
    objects[:, 1] = wild_json(chunk, classes, indent, joined, lang)
    if chunk.dealt is not None:  # the best five of more cards: with what was dealt and what does not play
        texts = chunk.hand_texts()
        for k in range(len(chunk.indices)):
            data = evaluation_json(best_evaluation(chunk, k), texts[k].decode("utf-8", "replace"), lang=lang)
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


def wild_json(
    chunk: Chunk, classes: Objects, indent: str | None, joined: npt.NDArray[np.bool_] | None = None,
    lang: Language = ENGLISH,
) -> Objects:
    """``classes`` (per hand, the end of its JSON object, from its class,
    then ``", "`` where ``joined``), with the ends of the hands that hold a
    wild card made from their case (``"natural": false`` and what the wild
    cards became)."""
    found = wild(chunk)
    if found is None:
        return classes
    opening, ending = _wild_json_pieces(chunk.rules, indent, lang)
    pieces = opening(chunk.strength[found.rows]) + ending(found)
    out = classes.copy()
    out[found.rows] = pieces if joined is None else np.where(joined[found.rows], pieces + b", ", pieces)
    return out


def _fields(rules: RuleSet, strength: int, lang: Language = ENGLISH) -> dict[str, Any]:
    """The fields of a hand's JSON object that its class fixes (``name``
    and ``description`` in ``lang``)."""
    columns = class_columns(rules)
    category = columns.category(strength)
    name = category_name(category.name, category.label, lang)
    return class_fields(
        category.name, name, columns.score(strength), strength, columns.description(strength, lang), rules.name
    )


@cache
def _wild_json_pieces(rules: RuleSet, indent: str | None, lang: Language = ENGLISH) -> tuple[PerStrength, PerCase]:
    """The end of a wild hand's JSON object, from its category on (as
    :func:`class_json`, with ``"natural": false`` and what its wild cards
    became), in two pieces: per strength, its class's fields (the object
    not closed), and per case, the wild fields and the close. (The fields
    of an object are laid out one after another: the two pieces joined are
    the object's end made at once.)"""
    close = len(b"}" if indent is None else ("\n" + indent + "}").encode())

    def opening(strength: int) -> bytes:
        return _json_end(_fields(rules, strength, lang), indent)[:-close]

    def ending(made: tuple[Card, ...]) -> bytes:
        return _json_end(wild_fields(False, [c.code_str for c in made]), indent)

    return PerStrength(rules, opening), PerCase(ending)


def class_json(rules: RuleSet, indent: str | None, lang: Language = ENGLISH) -> PerStrength:
    """Per strength: the end of a natural hand's JSON object, from its
    category on (:func:`fivecard.core.report.class_fields`; compact, or indented
    as ``json.dumps(..., indent=2)`` nested at ``indent``; ``name`` and
    ``description`` in ``lang``)."""

    def make(strength: int) -> bytes:
        fields = _fields(rules, strength, lang)
        if rules.wild_indices:
            fields.update(wild_fields(True, []))
        return _json_end(fields, indent)

    return PerStrength(rules, make)


def _json_end(fields: dict[str, Any], indent: str | None) -> bytes:
    """The end of a hand's JSON object, from ``fields`` on (compact, or
    indented as ``json.dumps(..., indent=2)`` nested at ``indent``)."""
    if indent is None:
        text = ", " + json.dumps(fields, ensure_ascii=False)[1:-1] + "}"
    else:
        body = json.dumps(fields, ensure_ascii=False, indent=2)[1:-2].replace("\n", "\n" + indent)
        text = "," + body + "\n" + indent + "}"
    return text.encode()


def best_evaluation(chunk: Chunk, k: int) -> Evaluation:
    """The full evaluation of hand ``k`` of a chunk whose hands play their
    best five, as the single-hand path makes it: of the five the pipeline
    chose (``indices``, as ``evaluate(..., best_five=True)`` chooses them),
    with the cards dealt."""
    assert chunk.dealt is not None
    five = evaluate(Hand(tuple(card(i) for i in chunk.indices[k].tolist()), chunk.rules))
    dealt = tuple(card(i) for i in chunk.dealt[k])
    return Evaluation(five.hand, five.strength, five.hand_class, five.showdown, five.jokers, dealt)

