"""A hand: five cards that are valid together under a rule set.

Reading text into cards is :mod:`fivecard.core.cards`' job; this module checks the
cards in the context of a rule set (python-chess style: syntax, then context).

Every public function that takes a hand takes it in any of the forms people
pass (a :data:`HandLike`); :func:`as_hand` is the one place that turns them
into a :class:`Hand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from operator import attrgetter

from .cards import TEXTS, Card, parse_card_at, parse_cards
from .errors import HandError, ParseError, Phrase, in_context, kind_of, phrase, quote
from .frozen import Frozen
from .rules import STANDARD, RuleSet, get_rules

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "Hand", "HandLike", "as_hand", "check_cards", "hand_place", "BOARD", "dealt_cards", "given_cards", "resolve_rules", "HAND_SIZE", "MOST_CARDS",
]

HAND_SIZE = 5
_INDEX = attrgetter("index")  # ascending index: sorted order (see fivecard.core.cards)
#: The most cards a hand that plays its best five may hold (seven-card stud,
#: hold'em: two hole cards and a board of five).
MOST_CARDS = 7
_EXPECTED = (
    "expected a hand (a string such as 'AS KD 7C 7H 2S', a sequence of cards "
    "or card strings, or a Hand)"
)


class Hand(Frozen):
    """Five cards, checked under a rule set; build with :meth:`parse` or
    :meth:`of`.

    >>> hand = Hand.parse('KD, 9C, 4H, KS, 9d')
    >>> hand
    Hand.parse('Kd 9c 4h Ks 9d')
    >>> print(hand, '|', Hand.parse('4h 9C Kd 9D Ks'.lower()).sorted_str())
    K♦ 9♣ 4♥ K♠ 9♦ | K♠ K♦ 9♦ 9♣ 4♥
    """

    __slots__ = ("cards", "rules", "indices")
    cards: tuple[Card, ...]
    rules: RuleSet
    #: The cards' indices (:attr:`Card.index`), in the hand's order.
    indices: tuple[int, ...]

    def __init__(self, cards: tuple[Card, ...], rules: RuleSet = STANDARD) -> None:
        if not isinstance(rules, RuleSet):
            rules = resolve_rules(rules)
        if type(cards) is not tuple:
            if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
                raise TypeError(
                    f"Hand(...) takes a tuple of Cards, got {kind_of(cards)}; "
                    "Hand.parse reads text and Hand.of takes any form of a hand"
                )
            cards = tuple(cards)
        check_cards(cards, rules)
        if not rules.suits and any(c.suit is not None for c in cards):
            # Rules without suits accept suited cards and ignore the suits.
            cards = tuple(c.rank_only() for c in cards)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "indices", tuple([c.index for c in cards]))

    def __eq__(self, other: object) -> bool:
        if type(other) is not Hand:
            return NotImplemented
        return self.cards == other.cards and self.rules is other.rules  # (a rule set is equal only to itself)

    def __hash__(self) -> int:
        return hash((self.cards, self.rules))

    @classmethod
    def parse(cls, text: str, *, rules: str | RuleSet | None = None) -> Hand:
        """Read a hand from text such as ``'8C TS KC 9H 4S'`` or
        ``'A♥ 2♥ 3♠ 4♥ 5♣'``, under ``rules`` (default: ``standard``, as text
        carries no rules); raise a :class:`~fivecard.core.errors.FivecardError`
        that quotes the text when it is not a valid hand (a
        :class:`TypeError` when it is not text)."""
        if not isinstance(text, str):
            raise TypeError(
                f"Hand.parse reads text such as 'AS KD 7C 7H 2S', got {kind_of(text)}"
                + ("" if isinstance(text, bytes) else "; Hand.of takes any form of a hand")
            )
        ruleset = resolve_rules(rules)
        try:
            cards = parse_cards(text)
        except ParseError as exc:
            raise in_context(exc, after=phrase(" of {text}", text=quote(text))) from None
        try:
            return cls(cards, ruleset)
        except HandError as exc:
            raise in_context(exc, after=phrase(" in {text}", text=quote(text))) from None

    @classmethod
    def of(cls, cards: HandLike, *, rules: str | RuleSet | None = None) -> Hand:
        """A hand of these cards (Cards and/or card strings), or from any
        other form of a hand (see :func:`as_hand`), under ``rules`` (default:
        a Hand's own, else ``standard``; see :func:`resolve_rules`).

        >>> Hand.of(['AS', 'KD', Card.parse('7c'), '7H', '2S'])
        Hand.parse('As Kd 7c 7h 2s')
        """
        return as_hand(cards, rules)

    def sorted(self) -> tuple[Card, ...]:
        """The cards by rank, high to low (ace high), then spades, hearts,
        diamonds, clubs; jokers last."""
        return tuple(sorted(self.cards, key=_INDEX))

    def sorted_str(self) -> str:
        return " ".join(map(str, self.sorted()))

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        text = " ".join([TEXTS[i] for i in self.indices])
        if self.rules is STANDARD:
            return f"Hand.parse({text!r})"
        return f"Hand.parse({text!r}, rules={self.rules.name!r})"

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


def check_cards(cards: tuple[Card, ...], rules: RuleSet, *, most: int = HAND_SIZE, shared: int = 0) -> None:
    """Raise :class:`~fivecard.core.errors.HandError` unless the cards make a hand
    under ``rules``: five cards (up to ``most`` when the best five play),
    jokers only where the rule set has them (at most its number), suits where
    it needs them, only ranks its deck holds, no card twice. The last
    ``shared`` cards are a board's: a hand holds at least one card of its
    own, so an empty hand is refused alike with a board or without one.

    The one check of a hand's cards: every way a hand comes in (text, cards,
    a table's cell, a web request; alone, in a showdown, with a board) goes
    through it, so a bad hand gets the same message on every path. Which
    cards the deck holds, and how many jokers, is the rule set's
    :class:`~fivecard.core.rules.Deck`'s to say."""
    if len(cards) <= shared:
        raise HandError(phrase("no cards (an empty hand)"))
    if not HAND_SIZE <= len(cards) <= most:
        if most > HAND_SIZE:
            raise HandError(
                phrase(
                    "expected {size} to {most} cards (the best five play), got {count:,}",
                    size=HAND_SIZE,
                    most=most,
                    count=len(cards),
                )
            )
        if HAND_SIZE < len(cards) <= MOST_CARDS:
            raise HandError(
                phrase(
                    "expected {size} cards, got {count:,} (six or seven cards play their best five when asked)",
                    size=HAND_SIZE,
                    count=len(cards),
                ),
                option=("best-five", ""),
            )
        raise HandError(phrase("expected {size} cards, got {count:,}", size=HAND_SIZE, count=len(cards)))
    deck = rules.deck()
    limits = deck.limits
    jokers = 0
    seen: dict[Card, int] = {}
    for position, card in enumerate(cards, 1):
        if not isinstance(card, Card):
            raise TypeError(
                f"card {position} is {kind_of(card)}, not a Card; Hand.of also "
                "reads card strings"
            )
        if not limits[card.index]:
            refused = deck.refusal(card)
            if refused == "joker":
                raise HandError(
                    phrase(
                        "card {position} is a joker, which the {rules} rules do not use "
                        "(jokers are wild under the joker rules)",
                        position=position,
                        rules=rules.name,
                    ),
                    option=("rules", "joker"),
                )
            if refused == "suit":
                raise HandError(
                    phrase(
                        "card {position} ('{card}') has no suit; rank-only cards are played under the semi rules",
                        position=position,
                        card=card,
                    ),
                    option=("rules", "semi"),
                )
            raise HandError(
                phrase(
                    "card {position} ({card}) is not in the {rules} deck, which holds {ranks}",
                    position=position,
                    card=card,
                    rules=rules.name,
                    ranks=_deck_ranks(rules),
                )
            )
        if card.is_joker:
            jokers += 1
            if jokers > limits[card.index]:
                raise HandError(
                    phrase(
                        "card {position} is joker number {jokers}; the {rules} rules allow at most {most} per hand",
                        position=position,
                        jokers=jokers,
                        rules=rules.name,
                        most=rules.jokers,
                    )
                )
        elif rules.one_deck:
            first = seen.setdefault(card, position)
            if first != position:
                raise HandError(
                    phrase("duplicate card {card} (cards {first} and {position})", card=card, first=first, position=position)
                )


def _deck_ranks(rules: RuleSet) -> object:
    """A deck's ranks for a message (as :meth:`RuleSet.ranks_text` says
    them: ``6 to A``), the ranks written as the language writes them."""
    from .lang import ENGLISH
    from .words import RankName

    ranks = sorted(rules.ranks)
    if ranks[-1] - ranks[0] != len(ranks) - 1:
        return rules.ranks_text()
    return phrase("{low:letter} to {high:letter}", low=RankName(ranks[0], ENGLISH), high=RankName(ranks[-1], ENGLISH))


#: What the library takes where a hand is expected: text, a sequence (any
#: iterable but text) of cards and/or card strings, or a :class:`Hand`.
HandLike = Hand | str | Iterable[Card | str]


def dealt_cards(
    hand: HandLike, rules: RuleSet, board: HandLike | None = None
) -> tuple[Card, ...]:
    """The cards of a hand that plays its best five: its own (text, cards or
    card strings, or a :class:`Hand`) then the board's, checked together
    under ``rules`` as :func:`check_cards` checks a hand, but 5 to
    :data:`MOST_CARDS` of them (rank-only under rules without suits).

    >>> ' '.join(map(str, dealt_cards('QS JS', STANDARD, board='AS KS 7D 2C 9H')))
    'Q♠ J♠ A♠ K♠ 7♦ 2♣ 9♥'
    >>> dealt_cards('QS JS', STANDARD, board='AS KS QS 2C')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.HandError: duplicate card Q♠ (cards 1 and 5) in 'QS JS' with the board 'AS KS QS 2C'
    >>> dealt_cards('', STANDARD, board='AS KS 7D 2C 9H')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.HandError: no cards (an empty hand) in '' with the board 'AS KS 7D 2C 9H'
    """
    own = given_cards(hand, "")
    shared = () if board is None else given_cards(board, BOARD)
    cards = own + shared
    try:
        check_cards(cards, rules, most=MOST_CARDS, shared=len(shared))
    except HandError as exc:
        text = quote(_text_of(hand, own))
        if board is None:
            raise in_context(exc, after=phrase(" in {text}", text=text)) from None
        board_text = quote(_text_of(board, shared))
        raise in_context(exc, after=phrase(" in {text} with the board {board}", text=text, board=board_text)) from None
    if not rules.suits:
        cards = tuple(c.rank_only() for c in cards)
    return cards


#: Where an error is, before its message: in the board's cards.
BOARD: Final = phrase("the board: ")


def hand_place(number: int) -> Phrase:
    """Where an error is, before its message: in hand ``number`` (for
    :func:`~fivecard.core.errors.in_context`: ``hand 2: ...``)."""
    return phrase("hand {number}: ", number=number)


def given_cards(hand: HandLike, where: str | Phrase = "") -> tuple[Card, ...]:
    """The cards of a hand in any form, unchecked; errors say ``where``."""
    if isinstance(hand, Hand):
        return hand.cards
    try:
        if isinstance(hand, str):
            try:
                return parse_cards(hand)
            except ParseError as exc:
                raise in_context(exc, after=phrase(" of {text}", text=quote(hand))) from None
        return _cards_of(hand)
    except (HandError, ParseError, TypeError) as exc:
        if not where:
            raise
        raise in_context(exc, where) from None


def _text_of(hand: HandLike, cards: tuple[Card, ...]) -> str:
    return hand if isinstance(hand, str) else " ".join(c.code_str for c in cards)


def resolve_rules(rules: str | RuleSet | None, carried: RuleSet | None = None) -> RuleSet:
    """The one meaning of ``rules=`` across the library: a name (any case,
    or an alias) or a :class:`~fivecard.core.rules.RuleSet` is that rule set, for
    every hand passed; ``None``, the default of every public function, is the
    rule set the hands passed carry (``carried``: a Hand's or an
    Evaluation's own), else ``standard`` (text and cards carry none).

    >>> resolve_rules(None).name, resolve_rules('Joker-Poker').name
    ('standard', 'joker')
    >>> resolve_rules(None, Hand.parse('Q Q Q Q 9', rules='semi').rules).name
    'semi'
    """
    if rules is not None:
        return get_rules(rules)
    return STANDARD if carried is None else carried


def as_hand(hand: HandLike, rules: str | RuleSet | None = None) -> Hand:
    """A :class:`Hand` from any form of a hand, under ``rules`` (default: a
    Hand's own rules, else ``standard``; see :func:`resolve_rules`).

    * text: ``'AS KD 7C 7H 2S'`` (see :meth:`Hand.parse`);
    * a sequence or other iterable of :class:`Card` objects and/or card
      strings, one card each: ``['AS', 'KD', '7C', '7H', '2S']``;
    * a :class:`Hand` (checked again if ``rules`` names other rules).

    Anything else is a :class:`TypeError` that says what it got; bytes are
    never read as text (decode them first).

    >>> as_hand(('AS', 'KD', '7C', '7H', '2S')) == as_hand('AS KD 7C 7H 2S')
    True
    >>> as_hand(5)
    Traceback (most recent call last):
    ...
    TypeError: expected a hand (a string such as 'AS KD 7C 7H 2S', a sequence of cards or card strings, or a Hand), got int 5
    >>> as_hand(['AS KD', '7C', '7H', '2S', '3S'])
    Traceback (most recent call last):
    ...
    fivecard.core.errors.ParseError: card 1 ('AS KD') holds 2 cards; a list of cards takes one card per item
    """
    if isinstance(hand, Hand):
        ruleset = resolve_rules(rules, hand.rules)
        return hand if ruleset is hand.rules else Hand(hand.cards, ruleset)
    ruleset = resolve_rules(rules)
    if isinstance(hand, str):
        return Hand.parse(hand, rules=ruleset)
    return Hand(_cards_of(hand), ruleset)


_MOST_ITEMS = 1_000  # items read from an iterable of cards


def _cards_of(items: object) -> tuple[Card, ...]:
    """The cards of a sequence of cards and/or card strings."""
    if (
        isinstance(items, (bytes, bytearray, memoryview, Mapping))
        or not isinstance(items, Iterable)
    ):
        hint = " (decode bytes to text first)" if isinstance(items, (bytes, bytearray)) else ""
        raise TypeError(f"{_EXPECTED}, got {kind_of(items)}{hint}")
    cards: list[Card] = []
    for position, item in enumerate(items, 1):
        if position > _MOST_ITEMS:  # an endless iterator must not run for ever
            raise HandError(phrase("more than {most} cards given for one hand", most=_MOST_ITEMS))
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            cards.append(parse_card_at(item, position))
        else:
            raise TypeError(
                f"card {position} is {kind_of(item)}; expected a Card or a card "
                "string such as 'AS'"
            )
    return tuple(cards)
