"""Counting every hand of a rule set's deck: classes, hands, probability and
odds per category (the rule set's counts, computed by full enumeration, not
copied)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

from ..core.cards import Card
from ..core.rules import Category, RuleSet, get_rules
from ..core.lang import Language, language
from ..core.lookup import tables_for
from ..core.report import display_width, number_text, padded_text
from ..core.words import category_name

__all__ = ["CategoryCount", "Census", "census", "odds", "dealt_cards"]

_CARD_WORDS: Final = {5: "five", 6: "six", 7: "seven"}


@dataclass(frozen=True, slots=True)
class CategoryCount:
    category: Category
    classes: int
    hands: int
    probability: float

    @property
    def odds(self) -> str:
        return odds(self.probability)


@dataclass(frozen=True, slots=True)
class Census:
    """Every hand of ``cards`` cards of a rule set's deck (five, or six or
    seven playing their best five), counted by category (strongest first)."""

    rules: RuleSet
    hands: int
    classes: int
    categories: tuple[CategoryCount, ...]
    cards: int = 5

    def to_json(self) -> dict[str, Any]:
        """The census as ``fivecard stats --json`` prints it: ``rules``,
        ``cards``, ``hands``, ``classes`` and per category (strongest
        first) its ``category`` id, ``name`` (label), ``classes``,
        ``hands`` and ``probability``."""
        return {
            "rules": self.rules.name,
            "cards": self.cards,
            "hands": self.hands,
            "classes": self.classes,
            "categories": [
                {
                    "category": c.category.name,
                    "name": c.category.label,
                    "classes": c.classes,
                    "hands": c.hands,
                    "probability": c.probability,
                }
                for c in self.categories
            ],
        }

    def text(self, lang: Language | str | None = None) -> str:
        """The census as a table, as ``fivecard stats`` prints it: what was
        counted, then a line per category (classes, hands, probability,
        odds) and the total; in ``lang`` (default English: see
        :mod:`fivecard.core.lang`)."""
        words = language(lang)
        if not words.english:
            return self._text(words)
        hidden = " (suits hidden)" if not self.rules.suits else ""
        best = "" if self.cards == 5 else ", each playing its best five"
        lines = [
            f"{self.rules.name}: every {_CARD_WORDS[self.cards]}-card hand of "
            f"{len(self.rules.deck())} cards{hidden}{best}",
            f"{'category':<17} {'classes':>7} {'hands':>11} {'probability':>12}  odds",
            *(
                f"{c.category.label:<17} {c.classes:>7,} {c.hands:>11,} {c.probability:>12.6%}  {c.odds}"
                for c in self.categories
            ),
            f"{'total':<17} {self.classes:>7,} {self.hands:>11,} {1:>12.6%}",
        ]
        return "\n".join(lines) + "\n"

    def _text(self, lang: Language) -> str:
        """:meth:`text` in a language other than English (its words from
        the core catalog: this layer has no domain of its own)."""

        def number(n: int) -> str:
            return number_text(n, lang)

        what = lang.phrase("{rules}: every {cards}-card hand of {deck} cards", rules=self.rules.name, cards=self.cards,
                           deck=len(self.rules.deck()))  # fmt: skip
        if not self.rules.suits:
            what += lang.gettext(" (suits hidden)")
        if self.cards != 5:
            what += lang.gettext(", each playing its best five")
        heads = [lang.pgettext("stats", "category"), lang.pgettext("stats", "classes"), lang.pgettext("stats", "hands"),
                 lang.pgettext("stats", "probability"), lang.pgettext("stats", "odds")]  # fmt: skip

        labels = [category_name(c.category.name, c.category.label, lang) for c in self.categories]
        first = max(17, *map(display_width, labels))  # (a name longer than English's widens it)

        def row(name: str, classes: str, hands: str, probability: str, chance: str) -> str:
            cells = [padded_text(name, first), padded_text(classes, -7), padded_text(hands, -11),
                     padded_text(probability, -12)]  # fmt: skip
            return (" ".join(cells) + "  " + chance).rstrip()

        point = lang.pgettext("decimal separator", ".")

        def share(probability: float) -> str:
            return f"{probability:.6%}".replace(".", point)

        lines = [what, row(*heads)]
        for c, label in zip(self.categories, labels):
            lines.append(row(label, number(c.classes), number(c.hands), share(c.probability), odds(c.probability, lang)))
        lines.append(row(lang.pgettext("stats", "total"), number(self.classes), number(self.hands), share(1), ""))
        return "\n".join(lines) + "\n"


def odds(probability: float, lang: Language | str | None = None) -> str:
    """``'1 in 649,740'`` style odds.

    >>> odds(4 / 2_598_960), odds(0.5), odds(0)
    ('1 in 649,740', '1 in 2', 'never')
    """
    words = language(lang)
    if not words.english:
        if probability <= 0:
            return words.pgettext("odds", "never")
        one_in = f"{1 / probability:,.0f}" if 1 / probability >= 10 else f"{1 / probability:,.2f}".rstrip("0").rstrip(".")
        separator, point = words.pgettext("thousands separator", ","), words.pgettext("decimal separator", ".")
        one_in = one_in.replace(",", "\0").replace(".", point).replace("\0", separator)
        return words.phrase("1 in {number}", number=one_in)
    if probability <= 0:
        return "never"
    return f"1 in {1 / probability:,.0f}" if 1 / probability >= 10 else f"1 in {1 / probability:,.2f}".rstrip("0").rstrip(".")


def dealt_cards(rules: RuleSet) -> tuple[Card, ...]:
    """The cards a deal under ``rules`` uses, as the rules see them (``semi``:
    the 52 cards with suits hidden)."""
    return rules.deck()


def census(rules: str | RuleSet = "standard", *, cards: int = 5) -> Census:
    """Enumerate every hand of ``cards`` cards of the rule set's deck with
    the batch path: five (:func:`fivecard.vector.batch.census_counts`), or six
    or seven, each playing its best five
    (:func:`fivecard.vector.seven.seven_card_counts`). A category's
    ``classes`` are the distinct strengths its hands reach.

    >>> c = census("standard")
    >>> c.hands, c.classes, c.categories[0].category.name, c.categories[0].hands
    (2598960, 7462, 'royal_flush', 4)
    """
    ruleset = get_rules(rules)
    if cards == 5:
        from .batch import census_counts  # numpy, only when counting

        per_strength = census_counts(ruleset)
    else:
        from .seven import seven_card_counts

        per_strength = seven_card_counts(ruleset, cards=cards)
    counts = {s: int(n) for s, n in enumerate(per_strength) if n}
    total = sum(counts.values())
    tables = tables_for(ruleset)
    hands: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for s, n in counts.items():
        name = tables.hand_class(s).category.name
        hands[name] += n
        classes[name] += 1
    categories = tuple(
        CategoryCount(c, classes[c.name], hands[c.name], hands[c.name] / total)
        for c in reversed(ruleset.ladder)
    )
    return Census(ruleset, total, len(counts), categories, cards)
