"""The one protocol every writer is driven through, and what the writers
share: the header of a table, what to tell of rows wider than it.

A writer is handed the pipeline's chunks (:class:`~fivecard.files.pipeline.Chunk`)
in order, the way python-chess hands a game's moves to a visitor: the
caller drives (:func:`fivecard.files.solve.solve_file`, the processes of
:mod:`fivecard.files.parallel`, ``classify -``, ``deal``), the writer only
formats. Guarantees: ``prepare`` depends on the chunk alone (the reading
thread calls it ahead, while the previous chunk is written), ``write``
writes the chunk's rows in order, ``close`` finishes the output,
``discard`` gives it up after an error (nothing more is written), and
``notes`` says afterwards what a reader of the output should know (rows
wider than the header, texts cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Protocol

from ...core.lang import ENGLISH, Language
from ...core.rules import Category, RuleSet
from ...core.words import category_name
from ...core.showdown import Outcome
from ..pipeline import Chunk

__all__ = ["Writer", "WriterBase", "Sink", "TextBytes", "result_header", "overflow_note", "past_note", "winners_text"]


class Writer(Protocol):
    """What drives a writer: the chunks in order, then ``close`` (or
    ``discard``), then ``notes``."""

    widest: int  # the most hands a row held
    past: int  # the most cells a row held past the table's columns

    def prepare(self, chunk: Chunk) -> None:
        """Make ahead what :meth:`write` needs that depends on the chunk
        alone (called by the reading thread; may do nothing)."""

    def write(self, chunk: Chunk) -> None:
        """Write the chunk's rows."""

    def close(self) -> None:
        """Finish the output."""

    def discard(self) -> None:
        """Give up the output (after an error): release what it holds."""

    def notes(self) -> list[str]:
        """What to tell of the output once it is written."""


class WriterBase:
    """What the writers share: the table's width and hands, what rows past
    them held, and the protocol's defaults (nothing to prepare, to discard,
    or to tell). ``lang``: the language of the words for people in its
    cells (categories, descriptions, explanations; never headers, keys,
    ids or card codes)."""

    def __init__(self, columns: Sequence[str], hands: int, rules: RuleSet, lang: Language = ENGLISH) -> None:
        self.width = len(columns)
        self.hands = hands
        self.rules = rules
        self.lang = lang
        self.widest = 0
        self.past = 0  # the most cells of a row past the table's columns

    def explanation(self, outcome: Outcome) -> str:
        """An outcome's explanation in the writer's language."""
        return outcome.explanation if self.lang.english else outcome.explain(self.lang)

    def label(self, category: Category) -> str:
        """A category's label in the writer's language."""
        return category.label if self.lang.english else category_name(category.name, category.label, self.lang)

    def measure(self, chunk: Chunk) -> None:
        """Keep the most hands and the most cells past the columns a row held."""
        if len(chunk):
            self.widest = max(self.widest, int(chunk.count.max()))
        if chunk.cells is not None:
            self.past = max(self.past, max((len(c) for c in chunk.cells), default=0) - self.width)

    def prepare(self, chunk: Chunk) -> None:
        pass

    def discard(self) -> None:
        pass

    def notes(self) -> list[str]:
        return []


class Sink(Protocol):
    """Where a writer of lines writes its bytes: a binary stream, or
    :class:`TextBytes`."""

    def write(self, data: bytes, /) -> int: ...

    def flush(self) -> None: ...


class TextBytes:
    """A writer's bytes (UTF-8) written to a text stream whose encoding may
    be another (a terminal's): decoded and written as text."""

    def __init__(self, text: IO[str]) -> None:
        self.text = text

    def write(self, data: bytes) -> int:
        self.text.write(data.decode("utf-8", "replace"))
        return len(data)

    def flush(self) -> None:
        self.text.flush()


def result_header(columns: Sequence[str], hands: int) -> list[str]:
    """The CSV and xlsx header: line, the input's columns, three per hand,
    winner, explanation, error.

    >>> result_header(["Round"], 1)
    ['line', 'Round', 'hand 1 sorted', 'hand 1 category', 'hand 1 score', 'winner', 'explanation', 'error']
    """
    header = ["line", *columns]
    for i in range(1, hands + 1):
        header += [f"hand {i} sorted", f"hand {i} category", f"hand {i} score"]
    return header + ["winner", "explanation", "error"]


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


def winners_text(outcome: Outcome) -> str:
    """The winners as a cell shows them: ``1``, or ``1,2`` for a draw."""
    return ",".join(str(i + 1) for i in outcome.winners)
