"""Rule sets as data: a ladder of categories, a deck and a straight rule.

A :class:`Category` says what a hand needs to belong to it (the sizes of its
rank groups, a straight, a flush, particular ranks). A :class:`RuleSet` lists
its categories weakest first; a hand belongs to the *highest* category whose
needs it meets. Adding a category to a rule set is one entry in its ladder.
"""

from __future__ import annotations

from functools import cache

import re
from collections.abc import Callable, Iterable

from .cards import CARDS, JOKER, Card, Rank, Suit, full_deck, parse_cards
from .errors import RulesError, kind_of, phrase, quote
from .frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any, Final

__all__ = [
    "Category",
    "RuleSet",
    "Deck",
    "STANDARD",
    "ACE_KING_RULES",
    "SEMI",
    "JOKER_RULES",
    "ONE_JOKER",
    "SHORT_DECK",
    "ACE_TO_FIVE",
    "DEUCE_TO_SEVEN",
    "DEUCES_WILD",
    "ONE_EYED_JACKS",
    "RULE_SETS",
    "get_rules",
    "wild_rules",
    "rule_names",
]


class Category(Frozen):
    """One rung of a ladder.

    ``shape`` is the sizes of the hand's rank groups, largest first
    (``(2, 2, 1)`` for two pair); ``straight`` and ``flush`` are needed when
    true; ``top`` is a required highest rank of the straight; ``holds`` ranks
    the hand must contain. ``detail`` is the template of the description after
    the name (see :func:`fivecard.core.evaluate.describe`); ``named``: the
    description starts with the label (``One Pair, ...``); a lowball no-pair
    hand is said by its detail alone (``Seven-Five low, 7-5-4-3-2``).
    """

    __slots__ = ("name", "label", "shape", "detail", "straight", "flush", "top", "holds", "named")
    name: str
    label: str
    shape: tuple[int, ...]
    detail: str
    straight: bool
    flush: bool
    top: int | None
    holds: frozenset[int]
    named: bool

    def __init__(
        self,
        name: str,
        label: str,
        shape: tuple[int, ...],
        detail: str,
        straight: bool = False,
        flush: bool = False,
        top: int | None = None,
        holds: frozenset[int] = frozenset(),
        named: bool = True,
    ) -> None:
        for field, value in zip(self.__slots__, (name, label, shape, detail, straight, flush, top, holds, named)):
            object.__setattr__(self, field, value)

    def accepts(
        self,
        shape: tuple[int, ...],
        *,
        straight_top: int | None,
        flush: bool,
        ranks: frozenset[int],
    ) -> bool:
        """Whether a hand with these properties meets this category's needs."""
        return (
            shape == self.shape
            and (not self.straight or straight_top is not None)
            and (not self.flush or flush)
            and (self.top is None or straight_top == self.top)
            and self.holds <= ranks
        )


_KICKERS = "{kickers}"

HIGH_CARD: Final = Category("high_card", "High Card", (1, 1, 1, 1, 1), "{cards}")
ONE_PAIR: Final = Category("one_pair", "One Pair", (2, 1, 1, 1), "{0}, " + _KICKERS)
TWO_PAIR: Final = Category("two_pair", "Two Pair", (2, 2, 1), "{0} and {1}, " + _KICKERS)
THREE_OF_A_KIND: Final = Category(
    "three_of_a_kind", "Three of a Kind", (3, 1, 1), "{0}, " + _KICKERS
)
STRAIGHT: Final = Category(
    "straight", "Straight", (1, 1, 1, 1, 1), "{high} high", straight=True
)
FLUSH: Final = Category("flush", "Flush", (1, 1, 1, 1, 1), "{cards}", flush=True)
FULL_HOUSE: Final = Category("full_house", "Full House", (3, 2), "{0} over {1}")
FOUR_OF_A_KIND: Final = Category(
    "four_of_a_kind", "Four of a Kind", (4, 1), "{0}, " + _KICKERS
)
STRAIGHT_FLUSH: Final = Category(
    "straight_flush",
    "Straight Flush",
    (1, 1, 1, 1, 1),
    "{high} high",
    straight=True,
    flush=True,
)
ROYAL_FLUSH: Final = Category(
    "royal_flush",
    "Royal Flush",
    (1, 1, 1, 1, 1),
    "",
    straight=True,
    flush=True,
    top=Rank.ACE,
)
FIVE_OF_A_KIND: Final = Category("five_of_a_kind", "Five of a Kind", (5,), "{0}")
#: The no-pair hand of lowball, the best category there: said the way
#: lowball players say it, by its top two cards ("Seven-Five low").
NO_PAIR: Final = Category(
    "no_pair", "No Pair", (1, 1, 1, 1, 1), "{low}, {cards}{wheel}", named=False
)
ACE_KING: Final = Category(
    "ace_king",
    "Ace-King",
    (1, 1, 1, 1, 1),
    "{cards}",
    holds=frozenset({Rank.ACE, Rank.KING}),
)


class RuleSet(Frozen):
    """A rule set: its ladder (weakest first), deck and straight rule.

    ``suits``: cards have suits and flushes exist. ``ranks``: the ranks of
    its deck (all 13 unless it is a short deck; a card of another rank is
    an error). ``wheel``: the ace also plays low, below the deck's lowest
    rank, so the ace and the four lowest ranks are the lowest straight
    (A-2-3-4-5, 5 high; A-6-7-8-9, 9 high, in a short deck; see
    :attr:`wheel_top`). ``jokers``: wild jokers in the deck (at most that
    many per hand). ``wild``: cards of the deck that are wild under these
    rules (the four 2s in ``deuces-wild``): each stands, like a joker, for
    any card not among the hand's natural cards, yet keeps its own identity
    for display, sorting and deck checks. ``one_deck``: hands are checked
    against a deck (no card twice).

    ``low``: lowball, the best hand is the lowest. The ladder is still listed
    weakest first (higher strength is better everywhere), but it is the
    reverse of a high ladder: a hand belongs to the *weakest* category whose
    needs it meets (in ``deuce-to-seven`` a royal flush also meets Flush,
    Straight and No Pair, and is a Royal Flush, the worst hand), and within
    a category the lower cards win (the groups are compared as in a high
    game, largest first, but the lower rank wins at the first difference).
    ``ace_low``: the ace is the lowest rank, below the 2, and only that
    (ace-to-five lowball): it sorts after the 2 among equal groups and
    compares below it; it excludes ``wheel``. Rule sets compare and hash by
    identity: there is one object per rule set.
    """

    __slots__ = ("name", "summary", "ladder", "aliases", "title", "suits", "ranks", "wheel", "jokers", "wild",
                 "one_deck", "low", "ace_low", "wild_indices", "scores", "_by_shape")  # fmt: skip
    name: str
    summary: str
    ladder: tuple[Category, ...]
    aliases: tuple[str, ...]
    title: str  # the name people know it by ("Semi-Poker"); the name itself if empty
    suits: bool
    ranks: frozenset[Rank]
    wheel: bool
    jokers: int
    wild: frozenset[Card]
    one_deck: bool
    low: bool
    ace_low: bool
    #: The indices of the cards that are wild (:attr:`wild` and the joker
    #: when the rule set has jokers; see :attr:`Card.index`).
    wild_indices: frozenset[int]
    scores: dict[str, int]
    _by_shape: dict[tuple[int, ...], tuple[tuple[int, Category], ...]]

    def __init__(
        self,
        name: str,
        summary: str,
        ladder: tuple[Category, ...],
        aliases: tuple[str, ...] = (),
        title: str = "",
        suits: bool = True,
        ranks: frozenset[Rank] = frozenset(Rank),
        wheel: bool = True,
        jokers: int = 0,
        wild: frozenset[Card] = frozenset(),
        one_deck: bool = True,
        low: bool = False,
        ace_low: bool = False,
    ) -> None:
        given = (name, summary, ladder, aliases, title, suits, ranks, wheel, jokers, wild, one_deck, low, ace_low)
        for field, value in zip(self.__slots__, given):
            object.__setattr__(self, field, value)
        names = [c.name for c in self.ladder]
        if len(set(names)) != len(names):
            raise ValueError(f"rule set {self.name}: a category appears twice")
        ranks = frozenset(Rank(r) for r in self.ranks)
        if len(ranks) < 5:
            raise ValueError(f"rule set {self.name}: a deck needs at least five ranks")
        object.__setattr__(self, "ranks", ranks)
        if self.ace_low and self.wheel:
            raise ValueError(f"rule set {self.name}: an ace that is low only has no wheel (wheel=False)")
        wild = frozenset(self.wild)
        if any(c.is_joker or c.suit is None or c.rank not in ranks for c in wild):
            raise ValueError(f"rule set {self.name}: a wild card must be a suited card of its deck")
        object.__setattr__(self, "wild", wild)
        indices = {c.index for c in wild} | ({JOKER.index, JOKER.index + 1} if self.jokers else set())
        object.__setattr__(self, "wild_indices", frozenset(indices))
        object.__setattr__(
            self, "scores", {c.name: i + 1 for i, c in enumerate(self.ladder)}
        )
        by_shape: dict[tuple[int, ...], list[tuple[int, Category]]] = {}
        # The order in which a hand's categories are tried: the first whose
        # needs it meets is its category (the strongest; in lowball the weakest).
        tried = range(len(self.ladder)) if self.low else range(len(self.ladder) - 1, -1, -1)
        for index in tried:
            category = self.ladder[index]
            by_shape.setdefault(category.shape, []).append((index, category))
        object.__setattr__(self, "_by_shape", {k: tuple(v) for k, v in by_shape.items()})

    # one object per rule set: it compares and hashes by identity, not by its fields
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __repr__(self) -> str:  # (the fields given)
        given = ", ".join(f"{field}={getattr(self, field)!r}" for field in self.__slots__[:13])
        return f"RuleSet({given})"

    def candidates(self, shape: tuple[int, ...]) -> tuple[tuple[int, Category], ...]:
        """The categories (with their ladder index) a hand of this group shape
        may belong to, in the order they are tried: strongest first (weakest
        first under :attr:`low` rules)."""
        return self._by_shape.get(shape, ())

    def rank_value(self, rank: int) -> int:
        """A rank's height under these rules: its value, except the ace is 1
        when it is low only (:attr:`ace_low`)."""
        return 1 if self.ace_low and rank == Rank.ACE else int(rank)

    def score(self, category: Category) -> int:
        """The category's score: its place in the ladder, 1 = weakest
        (``standard``: the ModelOff 2012 table, High Card 1 ... Royal Flush 10)."""
        return self.scores[category.name]

    @property
    def wheel_top(self) -> Rank | None:
        """The top card of the straight in which the ace plays low (the
        fourth-lowest rank of the deck: 5 for A-2-3-4-5, 9 for A-6-7-8-9),
        or None when the ace is high only."""
        if not self.wheel:
            return None
        return sorted(self.ranks)[3]

    @property
    def wilds(self) -> int:
        """The most wild cards a hand may hold: the jokers and the wild cards
        of the deck."""
        return self.jokers + len(self.wild)

    def is_wild(self, card: Card) -> bool:
        """Whether the card is wild under these rules (a joker, or one of
        :attr:`wild`)."""
        return card.index in self.wild_indices

    def natural_count(self, rank: Rank) -> int:
        """How many natural (not wild) cards of that rank a hand may hold."""
        most = 4 if self.suits else 5
        return most - sum(1 for c in self.wild if c.rank == rank)

    @property
    def full_ranks(self) -> bool:
        """Whether the deck holds all 13 ranks."""
        return len(self.ranks) == len(Rank)

    def ranks_text(self) -> str:
        """The deck's ranks in words for messages: ``6 to A``, or a list."""
        ranks = sorted(self.ranks)
        if ranks[-1] - ranks[0] == len(ranks) - 1:
            return f"{ranks[0].short} to {ranks[-1].short}"
        return ", ".join(r.short for r in ranks)

    def deck(self) -> Deck:
        """The rule set's :class:`Deck`: the cards a deal uses, as the rules
        see them (``semi``: the 52 cards with their suits hidden; a short
        deck holds only its ranks), and which cards a deck may hold."""
        return _deck_of(self)

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> dict[str, Any]:
        """The rule set as ``fivecard rules --json`` lists it: ``name``,
        ``aliases``, ``summary`` and ``categories`` (ids, strongest first)."""
        return {
            "name": self.name,
            "aliases": list(self.aliases),
            "summary": self.summary,
            "categories": [c.name for c in reversed(self.ladder)],
        }

    def text(self) -> str:
        """The rule set as ``fivecard rules`` lists it: its name, aliases
        and summary, then its categories strongest first, each with its
        score."""
        aliases = f" (also: {', '.join(self.aliases)})" if self.aliases else ""
        ladder = ", ".join(f"{self.score(c)} {c.label}" for c in reversed(self.ladder))
        return f"{self.name}{aliases}: {self.summary}\n  {ladder}\n"


class Deck(tuple[Card, ...]):
    """A rule set's deck: the cards a deal uses, as the rules see them, in
    sorted order, jokers last (``semi``: the 52 cards with suits hidden,
    four of each rank alone; ``short-deck``: 36 cards; ``joker``: 54), and
    the one rule of which cards a deck of the rules may hold.

    :attr:`limits` says how many of each card one deck holds, by card index
    (a suited card of its ranks one, a rank alone four where the rules have
    no suits, the joker as many as the rules have; 0 for a card no deck of
    the rules holds) and :meth:`refusal` why a card is in none (a joker
    where the rules have none, a rank alone where they need suits, a rank
    the deck does not hold). Every check of cards against a deck reads
    them: a hand's cards (:func:`fivecard.core.hand.check_cards`), a
    showdown's across N decks (:func:`fivecard.core.showdown.check_deck_cards`),
    a game's stacked deck (``fivecard play --deck``), the cards the advisor
    draws from and the dealer solver's deck; each says what is wrong in its
    own words. Made once per rule set by :meth:`RuleSet.deck`; a deck is
    the tuple of its cards (and equal to a tuple of the same cards).

    >>> deck = get_rules('joker').deck()
    >>> len(deck), deck[0], deck[-1], deck.limits[JOKER.index], deck.refusal(Card.parse('Q'))
    (54, Card.parse('As'), Card.parse('JK'), 2, 'suit')
    >>> semi = get_rules('semi').deck()
    >>> len(semi), semi[:5], semi.limits[Card.parse('A').index], semi.limits[Card.parse('AS').index]
    (52, (Card.parse('A'), Card.parse('A'), Card.parse('A'), Card.parse('A'), Card.parse('K')), 4, 1)
    >>> get_rules('short-deck').deck().refusal(Card.parse('5S'))
    'rank'
    """

    rules: RuleSet
    #: Card index -> how many of that card one deck holds (0: none).
    limits: tuple[int, ...]

    def __new__(cls, rules: RuleSet) -> Deck:
        cards = tuple(c for c in full_deck(jokers=rules.jokers) if c.rank is None or c.rank in rules.ranks)
        made = super().__new__(cls, cards if rules.suits else tuple(c.rank_only() for c in cards))
        made.rules = rules
        made.limits = tuple(
            rules.jokers if c.is_joker
            else 0 if c.rank not in rules.ranks
            else 1 if c.suit is not None
            else 0 if rules.suits
            else len(Suit)
            for c in CARDS
        )  # fmt: skip
        return made

    def refusal(self, card: Card) -> str | None:
        """Why a card is in no deck of these rules: ``"joker"`` (the rules
        have none), ``"suit"`` (a rank alone where the rules need suits),
        ``"rank"`` (a rank the deck does not hold); None for a card a deck
        holds."""
        if self.limits[card.index]:
            return None
        if card.is_joker:
            return "joker"
        if card.suit is None and self.rules.suits:
            return "suit"
        return "rank"

    def __repr__(self) -> str:
        return f"get_rules({self.rules.name!r}).deck()"

    def __reduce__(self) -> tuple[Callable[[RuleSet], Deck], tuple[RuleSet]]:
        return _deck_of, (self.rules,)


@cache
def _deck_of(rules: RuleSet) -> Deck:
    return Deck(rules)


STANDARD: Final = RuleSet(
    name="standard",
    title="Standard",
    summary="52 cards, ten straights from 5-high (A-2-3-4-5) to ace-high (ModelOff 2012, Poker vs Dealer)",
    ladder=(
        HIGH_CARD,
        ONE_PAIR,
        TWO_PAIR,
        THREE_OF_A_KIND,
        STRAIGHT,
        FLUSH,
        FULL_HOUSE,
        FOUR_OF_A_KIND,
        STRAIGHT_FLUSH,
        ROYAL_FLUSH,
    ),
)

ACE_KING_RULES: Final = RuleSet(
    name="ace-king",
    title="Ace-King (Russian poker)",
    aliases=("russian",),
    summary="standard, with Ace-King (an ace and a king, nothing better) "
    "between High Card and One Pair; 11 categories (Russian poker)",
    ladder=(HIGH_CARD, ACE_KING, *STANDARD.ladder[1:]),
)

SEMI: Final = RuleSet(
    name="semi",
    title="Semi-Poker",
    aliases=("semi-poker", "no-suits"),
    summary="ranks only (suits ignored): no flushes, ace high only (2-3-4-5-6 is "
    "the lowest straight), Five of a Kind on top (Semi-Poker)",
    # The standard ladder without the categories that need a flush.
    ladder=(*(c for c in STANDARD.ladder if not c.flush), FIVE_OF_A_KIND),
    suits=False,
    wheel=False,
    one_deck=False,
)

JOKER_RULES: Final = RuleSet(
    name="joker",
    title="Joker Poker",
    aliases=("joker-poker",),
    summary="54 cards with two fully wild jokers; Five of a Kind above the royal "
    "flush; natural and wild hands of equal value draw (Joker Poker)",
    ladder=(*STANDARD.ladder, FIVE_OF_A_KIND),
    jokers=2,
)

ONE_JOKER: Final = RuleSet(
    name="one-joker",
    title="Joker Poker (one joker)",
    summary="53 cards with one wild joker, as video poker's Joker Poker deals; "
    "Five of a Kind above the royal flush; natural and wild hands of equal value draw",
    ladder=(*STANDARD.ladder, FIVE_OF_A_KIND),
    jokers=1,
)

SHORT_DECK: Final = RuleSet(
    name="short-deck",
    title="Short deck (6+)",
    aliases=("six-plus", "short"),
    summary="36 cards (6 to A): a flush beats a full house; six straights, from "
    "9-high (A-6-7-8-9, the ace low) to ace-high (short deck, six-plus)",
    # The standard ladder with the flush and the full house swapped.
    ladder=(
        HIGH_CARD,
        ONE_PAIR,
        TWO_PAIR,
        THREE_OF_A_KIND,
        STRAIGHT,
        FULL_HOUSE,
        FLUSH,
        FOUR_OF_A_KIND,
        STRAIGHT_FLUSH,
        ROYAL_FLUSH,
    ),
    ranks=frozenset(r for r in Rank if r >= Rank.SIX),
)

ACE_TO_FIVE: Final = RuleSet(
    name="ace-to-five",
    title="Ace-to-five lowball",
    aliases=("a5", "a-5", "ace-five"),
    summary="lowball, 52 cards: the lowest hand wins; the ace is low only, straights and "
    "flushes do not count, so 5-4-3-2-A (the wheel) is the best hand and K-K-K-K-Q the "
    "worst (ace-to-five lowball, razz)",
    # The pairs-and-groups ladder of standard, reversed; no straights, no flushes.
    ladder=(FOUR_OF_A_KIND, FULL_HOUSE, THREE_OF_A_KIND, TWO_PAIR, ONE_PAIR, NO_PAIR),
    wheel=False,
    low=True,
    ace_low=True,
)

DEUCE_TO_SEVEN: Final = RuleSet(
    name="deuce-to-seven",
    title="Deuce-to-seven lowball",
    aliases=("2-7", "kansas-city", "deuce-seven"),
    summary="lowball, 52 cards: standard reversed, the lowest hand wins; the ace is high "
    "only (A-2-3-4-5 is no straight), straights and flushes count against you, so "
    "7-5-4-3-2 of mixed suits is the best hand and a royal flush the worst "
    "(deuce-to-seven lowball, Kansas City)",
    # The standard ladder reversed (worst first: the royal flush), No Pair on top.
    ladder=(*reversed(STANDARD.ladder[1:]), NO_PAIR),
    wheel=False,
    low=True,
)

DEUCES_WILD: Final = RuleSet(
    name="deuces-wild",
    title="Deuces Wild",
    aliases=("deuces",),
    summary="52 cards, the four 2s wild; Five of a Kind above the royal flush; "
    "natural and wild hands of equal value draw (Deuces Wild)",
    ladder=(*STANDARD.ladder, FIVE_OF_A_KIND),
    wild=frozenset(Card(Rank.TWO, s) for s in Suit),
)

ONE_EYED_JACKS: Final = RuleSet(
    name="one-eyed-jacks",
    title="One-Eyed Jacks",
    aliases=("one-eyed",),
    summary="52 cards, J♠ and J♥ wild (J♣ and J♦ are natural); Five of a Kind "
    "above the royal flush; natural and wild hands of equal value draw (One-Eyed Jacks)",
    ladder=(*STANDARD.ladder, FIVE_OF_A_KIND),
    wild=frozenset({Card(Rank.JACK, Suit.SPADES), Card(Rank.JACK, Suit.HEARTS)}),
)

#: Every rule set by its name.
RULE_SETS: Final[dict[str, RuleSet]] = {
    r.name: r
    for r in (
        STANDARD,
        ACE_KING_RULES,
        SEMI,
        JOKER_RULES,
        ONE_JOKER,
        SHORT_DECK,
        DEUCES_WILD,
        ONE_EYED_JACKS,
        ACE_TO_FIVE,
        DEUCE_TO_SEVEN,
    )
}
_BY_NAME: Final[dict[str, RuleSet]] = {
    n: r for r in RULE_SETS.values() for n in (r.name, *r.aliases)
}


#: A rule set made by :func:`wild_rules`, by its name.
_WILD_NAME: Final = re.compile(r"\s*standard\s*\+\s*wild\s*\((.*)\)\s*$", re.I | re.S)
_WILD_RULES: dict[frozenset[Card], RuleSet] = {}


def wild_rules(cards: str | Iterable[Card | str]) -> RuleSet:
    """``standard`` with these cards wild (and Five of a Kind on top): text
    such as ``'JS JH'`` or cards; a rank alone (``'2'``) makes its four cards
    wild. One object per set of wild cards; its name (``standard+wild(2)``,
    ``standard+wild(Js Jh)``) is also accepted by :func:`get_rules`.

    >>> wild_rules('2') is get_rules('standard+wild(2)') is wild_rules('2S 2H 2D 2C')
    True
    >>> wild_rules('JS JH').name
    'standard+wild(Js Jh)'
    >>> wild_rules('JK')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.RulesError: wild cards must be cards of the 52-card deck or ranks, not a joker: 'JK'
    """
    if isinstance(cards, str):
        text = cards
        given = list(parse_cards(cards))
    else:
        given = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
        text = " ".join(c.code_str for c in given)
    wild: set[Card] = set()
    for card in given:
        if card.is_joker:
            raise RulesError(
                phrase("wild cards must be cards of the 52-card deck or ranks, not a joker: {text}", text=quote(text))
            )
        assert card.rank is not None
        if card.suit is None:
            wild.update(Card(card.rank, s) for s in Suit)
        else:
            wild.add(card)
    if not wild:
        raise RulesError(phrase("no wild cards named: {text}", text=quote(text)))
    key = frozenset(wild)
    made = _WILD_RULES.get(key)
    if made is None:
        parts: list[str] = []
        for rank in sorted({c.rank for c in key if c.rank is not None}, reverse=True):
            mine = [c for c in key if c.rank == rank]
            if len(mine) == len(Suit):
                parts.append(rank.short)
            else:
                parts.extend(c.code_str for c in sorted(mine, key=lambda c: c.sort_key, reverse=True))
        named = " ".join(parts)
        made = RuleSet(
            name=f"standard+wild({named})",
            title=f"Standard, {named} wild",
            summary=f"standard with {named} wild; Five of a Kind above the royal flush; "
            "natural and wild hands of equal value draw",
            ladder=(*STANDARD.ladder, FIVE_OF_A_KIND),
            wild=key,
        )
        _WILD_RULES[key] = made
    return made


def wild_on(rules: str | RuleSet | None, wild: str | Iterable[Card | str]) -> RuleSet:
    """The rule set of ``rules=...`` and ``wild=...`` given together:
    :func:`wild_rules` of ``wild``; ``rules`` must be ``standard`` or None
    (wild cards are named on top of standard)."""
    if rules is not None and get_rules(rules) is not STANDARD:
        raise RulesError(
            phrase("wild cards are named on top of the standard rules, not {rules}", rules=get_rules(rules).name)
        )
    return wild_rules(wild)


def rule_names() -> list[str]:
    """The names of the rule sets (aliases not included)."""
    return list(RULE_SETS)


def get_rules(rules: str | RuleSet, *, custom: bool = True) -> RuleSet:
    """The rule set of that name or alias (any case), or the rule set itself.

    ``custom``: a name such as ``standard+wild(2)`` makes that rule set
    (:func:`wild_rules`; its tables are built on first use: CPU seconds,
    memory and a file in the cache). With ``custom=False`` only the
    built-in rule sets and their aliases are names (the web app takes
    no other from a request).

    >>> get_rules('Standard').name
    'standard'
    >>> get_rules('texas')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.RulesError: unknown rule set 'texas'; choose one of: standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven
    >>> get_rules('standard+wild(AS 7)', custom=False)
    Traceback (most recent call last):
    ...
    fivecard.core.errors.RulesError: unknown rule set 'standard+wild(AS 7)'; choose one of: standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven
    >>> get_rules(3)
    Traceback (most recent call last):
    ...
    TypeError: expected a rule set name (standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven) or a RuleSet, got int 3
    """
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, str):
        raise TypeError(
            f"expected a rule set name ({', '.join(RULE_SETS)}) or a RuleSet, got {kind_of(rules)}"
        )
    found = _BY_NAME.get(rules.strip().lower())
    if found is None and custom and (wild := _WILD_NAME.match(rules)):
        return wild_rules(wild.group(1))
    if found is None:
        raise RulesError(
            phrase("unknown rule set {name}; choose one of: {names}", name=quote(rules), names=", ".join(RULE_SETS))
        )
    return found
