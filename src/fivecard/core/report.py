"""Output forms of evaluations and showdowns: JSON objects and terminal text.

No poker logic lives here: it only lays out what :mod:`fivecard.core.evaluate` and
:mod:`fivecard.core.showdown` decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .cards import Card
from .evaluate import Evaluation, describe
from .lang import ENGLISH, Language, language
from .words import card_text, category_name

TYPE_CHECKING = False  # typing, json and the showdowns load where they are used, not with the text of a hand
if TYPE_CHECKING:
    from typing import Any, TextIO

    from .showdown import Showdown

__all__ = [
    "evaluation_json",
    "showdown_json",
    "write_json_object",
    "RawJson",
    "Painter",
    "number_text",
    "display_width",
    "padded_text",
]


def display_width(text: str) -> int:
    """The terminal columns ``text`` takes: a wide character (Japanese) two.

    >>> display_width('Flush'), display_width('フラッシュ')
    (5, 10)
    """
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def padded_text(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (a negative
    width: aligned right); as :meth:`str.ljust` for text of narrow characters."""
    spaces = " " * max(abs(width) - display_width(text), 0)
    return spaces + text if width < 0 else text + spaces


def number_text(n: int, lang: Language | str | None = None) -> str:
    """A whole number with the language's thousands separator: ``7,462``;
    Russian ``7 462``.

    >>> number_text(2598960), number_text(2598960, 'ru')
    ('2,598,960', '2 598 960')
    """
    words = language(lang)
    text = f"{n:,}"
    return text if words.english else text.replace(",", words.pgettext("thousands separator", ","))


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
    """The fields of a hand's JSON object that depend on its class alone;
    ``name`` and ``description`` (words for people) in ``lang``."""
    category = evaluation.hand_class.category
    return class_fields(
        evaluation.category_id,
        category_name(category.name, category.label, lang),
        evaluation.score,
        evaluation.strength,
        describe(evaluation.hand_class, lang) if not lang.english else evaluation.description,
        evaluation.rules.name,
    )


def evaluation_json(
    evaluation: Evaluation,
    text: str | None = None,
    fields: dict[str, Any] | None = None,
    lang: Language | str | None = None,
) -> dict[str, Any]:
    """The JSON object of one hand (a stable contract: the manual's JSON output page);
    ``fields``: its class's fields, when already made. ``lang``: the
    language of ``name`` and ``description`` (default English); keys,
    card codes, the category's id and the rule set's name never change."""
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
    board, its cards come first (``"board"``). ``lang``: the language of
    each hand's ``name`` and ``description`` and of the ``explanation``
    (default English)."""
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
        "explanation": result.explanation if words.english else result.explain(words),
    }


def _indented(value: Any, level: int) -> str:
    # JSON text never holds a raw line break (strings escape it), so
    # indenting every line after the first nests the value ``level`` deep.
    import json

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
    import json

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
    """Cards and hands as terminal text, red hearts and diamonds when
    ``color``, said in ``lang`` (default English: see
    :mod:`fivecard.core.lang`): the cards as the language writes them
    (Russian ``К♠``; ASCII stays ``Ks``), the descriptions, the
    explanations and the words around them.

    >>> from fivecard.core.showdown import showdown
    >>> result = showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC'])
    >>> print("\\n".join(Painter(color=False, lang='ru').showdown(result)))
    Рука 1: 8♣  10♠ К♣  9♥  4♠  ->  К♣  10♠ 9♥  8♣  4♠  Старшая карта, К-10-9-8-4  (очки 1, сила 578)
    Рука 2: 7♦  2♠  5♦  3♠  Т♣  ->  Т♣  7♦  5♦  3♠  2♠  Старшая карта, Т-7-5-3-2  (очки 1, сила 790)  <- побеждает
    Побеждает рука 2: у обеих Старшая карта; решает первая карта, Т бьёт К
    """

    _RED = "\033[31m"
    _BOLD = "\033[1m"
    _RESET = "\033[0m"

    def __init__(self, *, color: bool, ascii: bool = False, lang: Language | str | None = None) -> None:
        self.color = color
        self.ascii = ascii  # for a terminal without the suit symbols: As, Td
        self.lang = language(lang)

    def text(self, card: Card) -> str:
        """The card as people read it: ``A♠`` (Russian ``Т♠``), or ``As``
        in ASCII."""
        if self.ascii:
            return card.code_str
        return str(card) if self.lang.english else card_text(card, self.lang)

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
            tail = " " + self.tail(evaluation)
            if not evaluation.jokers:
                tails[evaluation.strength] = tail
        return " ".join(texts[: len(given)]) + " ->  " + " ".join(texts[len(given) :]) + tail

    def became(self, jokers: Sequence[Card], rules_jokers: bool) -> str:
        """What the wild cards became: ``  [JK as A♠, K♥]`` (jokers) or
        ``  [wild as ...]`` (wild cards of the deck)."""
        cards = ", ".join(map(self.card, jokers))
        if self.lang.english:
            return f"  [{'JK' if rules_jokers else 'wild'} as {cards}]"
        if rules_jokers:
            return "  [" + self.lang.phrase("JK as {cards}", cards=cards) + "]"
        return "  [" + self.lang.phrase("wild as {cards}", cards=cards) + "]"

    def score_text(self, score: int, strength: int) -> str:
        """``  (score S, strength N)``."""
        if self.lang.english:
            return f"  (score {score}, strength {strength:,})"
        return "  (" + self.lang.phrase("score {score}, strength {strength}", score=score,
                                        strength=self.number(strength)) + ")"  # fmt: skip

    def number(self, n: int) -> str:
        """A whole number with the language's thousands separator (see
        :func:`number_text`)."""
        return number_text(n, self.lang)

    def tail(self, evaluation: Evaluation) -> str:
        """The description, what any wild cards became, then the score and
        strength: ``Full House, Kings over Nines  (score 7, strength 7,206)``."""
        lang = self.lang
        description = evaluation.description if lang.english else describe(evaluation.hand_class, lang)
        wild = self.became(evaluation.jokers, bool(evaluation.rules.jokers)) if evaluation.jokers else ""
        return description + wild + self.score_text(evaluation.score, evaluation.strength)

    def showdown(self, result: Showdown) -> list[str]:
        """One line per hand, marking the winners, then the explanation
        (linear in the number of hands); with a board, the board on a line
        of its own first, and each hand's own cards only."""
        board = result.board
        lang = self.lang
        lines = [self.board(board)] if board else []
        width = len(str(len(result.evaluations)))
        winners = set(result.winners)
        win_mark = "  <- " + self.win_word(result.is_split)
        card_texts: dict[Card, str] = {}
        tails: dict[int, str] = {}
        for i, evaluation in enumerate(result.evaluations):
            mark = win_mark if i in winners else ""
            line = self._evaluation(evaluation, card_texts, tails, len(board))
            lines.append(f"{self.hand_label(i + 1, width)}: {line}{mark}")
        lines.append(self.bold(result.explanation if lang.english else result.explain(lang)))
        return lines

    def board(self, board: Sequence[Card]) -> str:
        """The board's line: ``Board: A♠ K♠ Q♠``."""
        if self.lang.english:
            return f"Board: {self.cards(board)}".rstrip()
        return self.lang.phrase("Board: {cards}", cards=self.cards(board)).rstrip()

    def hand_label(self, number: int, width: int = 1) -> str:
        """A hand's label before its line: ``Hand 1`` (the number right
        aligned to ``width`` digits)."""
        if self.lang.english:
            return f"Hand {number:>{width}}"
        return self.lang.phrase_p("hand label", "Hand {number}", number=str(number).rjust(width))

    def win_word(self, split: bool) -> str:
        """The mark of a winning hand: ``wins``, or ``splits`` when it
        shares the win."""
        if self.lang.english:
            return "splits" if split else "wins"
        return self.lang.pgettext("mark", "splits") if split else self.lang.pgettext("mark", "wins")
