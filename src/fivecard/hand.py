"""A hand: five cards that are valid together under a rule set.

Reading text into cards is :mod:`fivecard.cards`' job; this module checks the
cards in the context of a rule set (python-chess style: syntax, then context).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .cards import Card, parse_cards
from .errors import HandError, ParseError, quote
from .rules import STANDARD, RuleSet, get_rules

__all__ = ["Hand", "check_cards", "HAND_SIZE"]

HAND_SIZE = 5


@dataclass(frozen=True, slots=True)
class Hand:
    """Five cards, checked under a rule set; build with :meth:`parse` or
    :meth:`of`.

    >>> hand = Hand.parse('KD, 9C, 4H, KS, 9d')
    >>> hand
    Hand.parse('Kd 9c 4h Ks 9d')
    >>> print(hand, '|', Hand.parse('4h 9C Kd 9D Ks'.lower()).sorted_str())
    K♦ 9♣ 4♥ K♠ 9♦ | K♠ K♦ 9♦ 9♣ 4♥
    """

    cards: tuple[Card, ...]
    rules: RuleSet = STANDARD
    codes: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_cards(self.cards, self.rules)
        if not self.rules.suits and any(c.suit is not None for c in self.cards):
            # Rules without suits accept suited cards and ignore the suits.
            object.__setattr__(self, "cards", tuple(c.rank_only() for c in self.cards))
        object.__setattr__(self, "codes", tuple(c.code for c in self.cards))

    @classmethod
    def parse(cls, text: str, *, rules: str | RuleSet = STANDARD) -> Hand:
        """Read a hand from text such as ``'8C TS KC 9H 4S'`` or
        ``'A♥ 2♥ 3♠ 4♥ 5♣'``; raise a :class:`~fivecard.errors.FivecardError`
        that quotes the text when it is not a valid hand."""
        ruleset = get_rules(rules)
        try:
            cards = parse_cards(text)
        except ParseError as exc:
            raise ParseError(f"{exc} of {quote(text)}") from None
        try:
            return cls(cards, ruleset)
        except HandError as exc:
            raise HandError(f"{exc} in {quote(text)}") from None

    @classmethod
    def of(cls, cards: Iterable[Card], *, rules: str | RuleSet = STANDARD) -> Hand:
        """A hand of these cards under a rule set."""
        return cls(tuple(cards), get_rules(rules))

    def sorted(self) -> tuple[Card, ...]:
        """The cards by rank, high to low (ace high), then spades, hearts,
        diamonds, clubs; jokers last (RULES §2)."""
        return tuple(sorted(self.cards, key=lambda c: c.sort_key, reverse=True))

    def sorted_str(self) -> str:
        return " ".join(map(str, self.sorted()))

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        text = " ".join(c.code_str for c in self.cards)
        if self.rules is STANDARD:
            return f"Hand.parse({text!r})"
        return f"Hand.parse({text!r}, rules={self.rules.name!r})"

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


def check_cards(cards: tuple[Card, ...], rules: RuleSet) -> None:
    """Raise :class:`~fivecard.errors.HandError` unless the cards make a hand
    under ``rules``: five cards, jokers only where the rule set has them (at
    most its number), suits where it needs them, no card twice."""
    if not cards:
        raise HandError("no cards (an empty hand)")
    if len(cards) != HAND_SIZE:
        raise HandError(f"expected {HAND_SIZE} cards, got {len(cards):,}")
    jokers = 0
    seen: dict[Card, int] = {}
    for position, card in enumerate(cards, 1):
        if card.is_joker:
            jokers += 1
            if rules.jokers == 0:
                raise HandError(
                    f"card {position} is a joker, which the {rules.name} rules do "
                    "not use (for wild jokers use the joker rules: --rules joker)"
                )
            if jokers > rules.jokers:
                raise HandError(
                    f"card {position} is joker number {jokers}; the {rules.name} "
                    f"rules allow at most {rules.jokers} per hand"
                )
            continue
        if rules.suits and card.suit is None:
            raise HandError(
                f"card {position} ({str(card)!r}) has no suit; rank-only cards "
                "need the semi rules (--rules semi)"
            )
        if rules.one_deck:
            first = seen.setdefault(card, position)
            if first != position:
                raise HandError(
                    f"duplicate card {card} (cards {first} and {position})"
                )
