"""Output forms of evaluations and showdowns: JSON objects and terminal text.

No poker logic lives here: it only lays out what :mod:`fivecard.core.evaluate` and
:mod:`fivecard.core.showdown` decided.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from .cards import Card
from .evaluate import Evaluation, describe
from .lang import ENGLISH, Language, language
from .showdown import Showdown

__all__ = [
    "evaluation_json",
    "showdown_json",
    "write_json_object",
    "RawJson",
    "Painter",
]


def class_fields(category: str, name: str, score: int, strength: int, description: str, rules: str) -> dict[str, Any]:
    """The fields of a hand's JSON object that depend on its class alone, in
    the contract's order (the bulk writers make their JSON from this too)."""
    return {
        "category": category,
        "name": name,
        "score": score,
        "strength": strength,
        "description": description,
        "rules": rules,
    }


def wild_fields(natural: bool, jokers: list[str]) -> dict[str, Any]:
    """The fields a hand's JSON object has under a rule set with jokers."""
    return {"natural": natural, "jokers": jokers}


def _class_fields(evaluation: Evaluation, lang: Language = ENGLISH) -> dict[str, Any]:
    """The fields of a hand's JSON object that depend on its class alone
    (``description`` in ``lang``)."""
    return class_fields(
        evaluation.category_id,
        evaluation.label,
        evaluation.score,
        evaluation.strength,
        evaluation.description if lang is ENGLISH else describe(evaluation.hand_class, lang),
        evaluation.rules.name,
    )


def evaluation_json(
    evaluation: Evaluation,
    text: str | None = None,
    fields: dict[str, Any] | None = None,
    lang: Language | str | None = None,
) -> dict[str, Any]:
    """The JSON object of one hand (a stable contract: the manual's JSON output page);
    ``fields``: its class's fields, when already made; ``lang``: the
    language of its ``description`` (the keys and every other value are the
    same in every language)."""
    cards = evaluation.hand.cards
    data: dict[str, Any] = {
        "input": text if text is not None else " ".join(c.code_str for c in cards),
        "cards": [c.code_str for c in cards],
        "sorted": [c.code_str for c in evaluation.hand.sorted()],
        **(fields or _class_fields(evaluation, language(lang))),
    }
    if evaluation.rules.wild_indices:
        data.update(wild_fields(evaluation.natural, [c.code_str for c in evaluation.jokers]))
    if evaluation.dealt:  # the best five of more cards
        data["dealt"] = [c.code_str for c in evaluation.dealt]
        data["unused"] = [c.code_str for c in evaluation.unused]
    return data


def showdown_json(
    result: Showdown, texts: Sequence[str] | None = None, lang: Language | str | None = None
) -> dict[str, Any]:
    """The JSON object of a showdown; hand numbers are 1-based. Hands of one
    strength share the fields that depend on it alone (linear time). With a
    board, its cards come first (``"board"``). The hands' descriptions are
    in ``lang`` (the explanation is in the language the showdown was
    settled in: ``showdown(..., lang=)``)."""
    shared: dict[int, dict[str, Any]] = {}
    words = language(lang)

    def hand_json(evaluation: Evaluation, text: str | None) -> dict[str, Any]:
        fields = shared.get(evaluation.strength)
        if fields is None:
            fields = shared[evaluation.strength] = _class_fields(evaluation, words)
        return evaluation_json(evaluation, text, fields)

    return {
        **({"board": [c.code_str for c in result.board]} if result.board else {}),
        "hands": [
            hand_json(e, None if texts is None else texts[i])
            for i, e in enumerate(result.evaluations)
        ],
        "winners": [i + 1 for i in result.winners],
        "order": [[i + 1 for i in tier] for tier in result.order],
        "explanation": result.explanation,
    }


def _indented(value: Any, level: int) -> str:
    # JSON text never holds a raw line break (strings escape it), so
    # indenting every line after the first nests the value ``level`` deep.
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * level)


class RawJson(str):
    """An item of an array :func:`write_json_object` writes as it is: JSON
    text already laid out as an item of an array of the object (the bulk
    writers make it, e.g. ``deal``'s rounds)."""


def write_json_object(out: TextIO, fields: Iterable[tuple[str, Any]]) -> None:
    """Write the object of ``fields`` (key, value pairs) and a line break,
    byte for byte as ``json.dump(dict(fields), out, ensure_ascii=False,
    indent=2)`` would, but a value that is an iterator is written as an
    array one item at a time, so memory does not grow with it. ``fields`` is
    read lazily: a value may depend on an earlier iterator having been read
    to its end (a tally after the rounds).

    >>> import sys
    >>> def fields():
    ...     seen = []
    ...     yield "squares", (seen.append(n) or n * n for n in range(3))
    ...     yield "count", len(seen)
    >>> write_json_object(sys.stdout, fields())
    {
      "squares": [
        0,
        1,
        4
      ],
      "count": 3
    }
    """
    separator = "{"
    for key, value in fields:
        out.write(f"{separator}\n  {json.dumps(key, ensure_ascii=False)}: ")
        separator = ","
        if not isinstance(value, Iterator):
            out.write(_indented(value, 1))
            continue
        opening = "["
        for item in value:
            text = item if isinstance(item, RawJson) else _indented(item, 2)
            out.write(f"{opening}\n    {text}")
            opening = ","
        out.write("[]" if opening == "[" else "\n  ]")
    out.write("{}\n" if separator == "{" else "\n}\n")


class Painter:
    """Cards as terminal text, red hearts and diamonds when ``color``."""

    _RED = "\033[31m"
    _BOLD = "\033[1m"
    _RESET = "\033[0m"

    def __init__(self, *, color: bool, ascii: bool = False) -> None:
        self.color = color
        self.ascii = ascii  # for a terminal without the suit symbols: As, Td

    def text(self, card: Card) -> str:
        """The card as people read it: ``A♠``, or ``As`` in ASCII."""
        return card.code_str if self.ascii else str(card)

    def card(self, card: Card) -> str:
        text = self.text(card)
        if self.color and card.suit is not None and card.suit.value in "hd":
            return f"{self._RED}{text}{self._RESET}"
        return text

    def padded(self, card: Card) -> str:
        """The card padded to three columns, so that lines of cards align."""
        return self.card(card) + " " * (3 - len(self.text(card)))

    def cards(self, cards: Sequence[Card]) -> str:
        """Cards separated by spaces, each padded to a fixed width so that
        lines align."""
        return " ".join(map(self.padded, cards))

    def bold(self, text: str) -> str:
        return f"{self._BOLD}{text}{self._RESET}" if self.color else text

    def evaluation(self, evaluation: Evaluation) -> str:
        """``cards -> showdown order  description  (score s, strength n)``;
        for the best five of more cards, all the cards given on the left."""
        return self._evaluation(evaluation, {}, {})

    def _evaluation(
        self,
        evaluation: Evaluation,
        card_texts: dict[Card, str],
        tails: dict[int, str],
        board: int = 0,
    ) -> str:
        """:meth:`evaluation`, reusing each card's text and each strength's
        description (the caches of one call of :meth:`showdown`); the last
        ``board`` cards given (the board's) are not shown."""
        texts = []
        given = evaluation.dealt[: len(evaluation.dealt) - board] or evaluation.hand.cards
        for cards in (given, evaluation.showdown):
            for card in cards:
                text = card_texts.get(card)
                if text is None:
                    text = card_texts[card] = self.padded(card)
                texts.append(text)
        tail = tails.get(evaluation.strength) if not evaluation.jokers else None
        if tail is None:
            wild = ""
            if evaluation.jokers:
                wild = f"  [{'JK' if evaluation.rules.jokers else 'wild'} as " + ", ".join(map(self.card, evaluation.jokers)) + "]"
            tail = (
                f" {evaluation.description}{wild}"
                f"  (score {evaluation.score}, strength {evaluation.strength:,})"
            )
            if not evaluation.jokers:
                tails[evaluation.strength] = tail
        return " ".join(texts[: len(given)]) + " ->  " + " ".join(texts[len(given) :]) + tail

    def showdown(self, result: Showdown) -> list[str]:
        """One line per hand, marking the winners, then the explanation
        (linear in the number of hands); with a board, the board on a line
        of its own first, and each hand's own cards only."""
        board = result.board
        lines = [f"Board: {self.cards(board)}".rstrip()] if board else []
        width = len(str(len(result.evaluations)))
        winners = set(result.winners)
        win_mark = "  <- splits" if result.is_split else "  <- wins"
        card_texts: dict[Card, str] = {}
        tails: dict[int, str] = {}
        for i, evaluation in enumerate(result.evaluations):
            mark = win_mark if i in winners else ""
            line = self._evaluation(evaluation, card_texts, tails, len(board))
            lines.append(f"Hand {i + 1:>{width}}: {line}{mark}")
        lines.append(self.bold(result.explanation))
        return lines
