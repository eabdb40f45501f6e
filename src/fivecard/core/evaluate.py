"""Evaluation of one hand: category, score, strength, groups, description.

Two paths share one lookup table (:mod:`fivecard.core.lookup`):

* :func:`evaluate` returns a rich :class:`Evaluation` for people and reports;
* :func:`strength` returns only the strength of a hand, and
  :func:`strength_function` makes a fast function that scores many (card
  indices or text; five cards, or the best five of five to seven).

Strength is the hand's class number under its rule set, from 1 (weakest) up:
higher is stronger, equal means a draw.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Container, Iterable, Sequence
from functools import lru_cache

from .cards import TEXTS, TOKENS, Card, Rank, Suit
from .errors import HandError, kind_of
from .frozen import Frozen
from .hand import Hand, HandLike, as_hand, dealt_cards, resolve_rules
from .lang import Language, language
from .words import category_detail, category_name, rank_letter, rank_name
from .rules import STANDARD, Category, RuleSet, wild_on
from .lookup import (
    CODES,
    KEY_SPACE,
    SUIT_MASK,
    SUIT_SHIFT,
    HandClass,
    codes_for,
    _five_strength_function,
    lookup_index,
    tables_for,
)

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Literal, overload
else:  # the overloads below are for the type checker: at run time the last definition stands

    def overload(function: object) -> object:
        return function


__all__ = [
    "Evaluation",
    "evaluate",
    "strength",
    "strength_function",
    "as_hand",
    "HandLike",
    "describe",
]


class Evaluation(Frozen):
    """What a hand is worth under its rule set.

    Evaluations are ordered by strength, as a showdown orders hands: ``a <
    b`` when ``b`` wins, ``a == b`` when they draw (whatever their cards),
    so ``sorted``, ``max`` and ``==`` work as a player expects. Only
    evaluations under one rule set compare: ordering two under different
    rule sets raises a :class:`~fivecard.core.errors.HandError`, and they are
    never equal. ``str()`` is the description; ``repr()`` pastes back.

    >>> e = evaluate('KH 4D KS 4C AS')
    >>> e.category_id, e.label, e.score, e.strength
    ('two_pair', 'Two Pair', 3, 4775)
    >>> print(e)
    Two Pair, Kings and Fours, Ace kicker
    >>> e
    evaluate('Kh 4d Ks 4c As')
    >>> print(' '.join(map(str, e.showdown)))
    K♠ K♥ 4♦ 4♣ A♠
    >>> e > evaluate('AS AD KH 7C 2D'), e == evaluate('KD 4S KC 4H AH')
    (True, True)
    >>> [str(x) for x in sorted(map(evaluate, ['2S 2D 3H 4C 5S', 'AS KS QS JS 9S', '7C 7S 4D 4H 2C']))]
    ['One Pair, Twos, 5-4-3 kickers', 'Two Pair, Sevens and Fours, Two kicker', 'Flush, A-K-Q-J-9']
    """

    __slots__ = ("hand", "strength", "hand_class", "showdown", "jokers", "dealt")
    hand: Hand
    strength: int
    hand_class: HandClass
    #: The hand's cards in showdown order (groups first, then kickers; the
    #: wheel as 5 4 3 2 A); jokers stand where the card they became goes.
    showdown: tuple[Card, ...]
    #: The cards the jokers became, in the order the jokers appear in the hand
    #: (empty without jokers). A joker that makes Five of a Kind is a rank
    #: alone, since no card of that rank is left.
    jokers: tuple[Card, ...]
    #: When the best five play (``best_five=True`` or a ``board``): every card
    #: the hand was given, its own and then the board's; :attr:`hand` is the
    #: five that play. Empty for a hand of five evaluated as such.
    dealt: tuple[Card, ...]

    def __init__(
        self,
        hand: Hand,
        strength: int,
        hand_class: HandClass,
        showdown: tuple[Card, ...],
        jokers: tuple[Card, ...] = (),
        dealt: tuple[Card, ...] = (),
    ) -> None:
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "hand_class", hand_class)
        object.__setattr__(self, "showdown", showdown)
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "dealt", dealt)

    @property
    def unused(self) -> tuple[Card, ...]:
        """The cards of :attr:`dealt` that do not play (empty without best five)."""
        left = list(self.dealt)
        for card in self.hand.cards:
            if card in left:
                left.remove(card)
        return tuple(left)

    @property
    def rules(self) -> RuleSet:
        return self.hand.rules

    @property
    def category(self) -> Category:
        """The category (``category.name`` is its id, ``category.label``
        its display label; see :attr:`category_id` and :attr:`label`)."""
        return self.hand_class.category

    @property
    def category_id(self) -> str:
        """The category's id, e.g. ``'full_house'`` (the ``category`` key of
        the JSON output)."""
        return self.hand_class.category.name

    @property
    def label(self) -> str:
        """The category's display label, e.g. ``'Full House'`` (the ``name``
        key of the JSON output)."""
        return self.hand_class.category.label

    @property
    def score(self) -> int:
        """The category's place in the rule set's ladder (1 = weakest)."""
        return self.hand.rules.score(self.hand_class.category)

    @property
    def natural(self) -> bool:
        """True when the hand holds no wild card (no joker, no wild card of
        its rule set)."""
        return self.hand.rules.wild_indices.isdisjoint(self.hand.indices)

    @property
    def key(self) -> tuple[Rank, ...]:
        """What showdowns compare, left to right (see :class:`HandClass`)."""
        return self.hand_class.key

    @property
    def groups(self) -> tuple[tuple[Rank, int], ...]:
        """(rank, count) groups in showdown order."""
        return self.hand_class.groups

    @property
    def description(self) -> str:
        return describe(self.hand_class)

    def sorted(self) -> tuple[Card, ...]:
        return self.hand.sorted()

    def __str__(self) -> str:
        return describe(self.hand_class)

    def __repr__(self) -> str:
        if self.dealt:
            text = " ".join([c.code_str for c in self.dealt])
            more = ", best_five=True"
        else:
            text, more = " ".join([TEXTS[i] for i in self.hand.indices]), ""
        if self.hand.rules is STANDARD:
            return f"evaluate({text!r}{more})"
        return f"evaluate({text!r}, rules={self.hand.rules.name!r}{more})"

    # Ordered by strength, within one rule set.

    def _other(self, other: Evaluation) -> int:
        """The other evaluation's strength, if the two may be ordered."""
        if other.hand.rules is not self.hand.rules:
            raise HandError(
                f"cannot order {self!r} and {other!r}: they are under the "
                f"{self.hand.rules.name} and the {other.hand.rules.name} rules; "
                "evaluations compare only under one rule set (evaluate both with the same rules=)"
            )
        return other.strength

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self.strength == other.strength and self.hand.rules is other.hand.rules

    def __hash__(self) -> int:
        return hash((self.strength, self.hand.rules.name))

    def __lt__(self, other: Evaluation) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self.strength < self._other(other)

    def __le__(self, other: Evaluation) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self.strength <= self._other(other)

    def __gt__(self, other: Evaluation) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self.strength > self._other(other)

    def __ge__(self, other: Evaluation) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self.strength >= self._other(other)


def evaluate(
    hand: HandLike,
    *,
    rules: str | RuleSet | None = None,
    wild: str | Iterable[Card | str] | None = None,
    best_five: bool = False,
    board: HandLike | None = None,
) -> Evaluation:
    """Evaluate a hand: text, a sequence of cards or card strings, or a
    :class:`Hand` (see :func:`~fivecard.core.hand.as_hand`), under ``rules``
    (default: a Hand's own, else ``standard``; see
    :func:`~fivecard.core.hand.resolve_rules`).

    >>> evaluate('A♥ 2♥ 3♠ 4♥ 5♣').description
    'Straight, Five high'
    >>> evaluate(['AS', 'AD', 'KH', '7C', '2D']).description
    'One Pair, Aces, K-7-2 kickers'

    ``wild``: cards that are wild, on top of ``standard`` (see
    :func:`~fivecard.core.rules.wild_rules`; ``'2'`` is every 2):

    >>> evaluate('2S KS QS JS TS', wild='2').description
    'Royal Flush'

    ``best_five=True``: the hand holds 5 to 7 cards and plays its best five
    (seven-card stud); ``board``: cards every hand shares (hold'em), added
    to the hand's own, which implies ``best_five``. The evaluation is of the
    five that play (:attr:`Evaluation.hand`; see :mod:`fivecard.core.seven`
    for which five when several are equal); :attr:`Evaluation.dealt` holds
    every card given:

    >>> e = evaluate('QS JS', board='AS KS 7D 2C TS')
    >>> e.description, str(e.hand), ' '.join(map(str, e.unused))
    ('Royal Flush', 'Q♠ J♠ A♠ K♠ 10♠', '7♦ 2♣')
    """
    if wild is not None:
        rules = wild_on(rules, wild)
    if best_five or board is not None:
        return _best_of(hand, rules, board)
    return _evaluated(as_hand(hand, rules))


def _best_of(hand: HandLike, rules: str | RuleSet | None, board: HandLike | None) -> Evaluation:
    """The evaluation of the best five of a hand's cards and the board's."""
    ruleset = resolve_rules(rules, hand.rules if isinstance(hand, Hand) else None)
    cards = dealt_cards(hand, ruleset, board)
    from .seven import best_five  # (the seven-card tables load only where more than five cards play)

    _, chosen = best_five([c.index for c in cards], ruleset)
    return _evaluated(Hand(tuple(cards[i] for i in chosen), ruleset), cards)


def _evaluated(hand: Hand, dealt: tuple[Card, ...] = ()) -> Evaluation:
    """The evaluation of a checked hand of five."""
    tables = tables_for(hand.rules)
    index = _lookup_index(hand)
    hand_class = tables.hand_class(tables.lookup[index])
    jokers = _joker_cards(hand, tables.substitutes.get(index, ()), hand_class)
    return Evaluation(
        hand=hand,
        strength=hand_class.strength,
        hand_class=hand_class,
        showdown=_arrange(hand, hand_class, jokers),
        jokers=jokers,
        dealt=dealt,
    )


def strength(
    hand: HandLike,
    *,
    rules: str | RuleSet | None = None,
    best_five: bool = False,
    board: HandLike | None = None,
) -> int:
    """The strength of a hand: 1 (weakest) ... number of classes (strongest),
    under ``rules``, ``best_five`` and ``board`` as for :func:`evaluate`.

    >>> strength('AS KS QS JS TS'), strength('7d 5c 4h 3s 2d')
    (7462, 1)
    >>> strength('AS KS QS JS TS 2C 3D', best_five=True)
    7462
    """
    if best_five or board is not None:
        from .seven import _best_strength_function

        ruleset = resolve_rules(rules, hand.rules if isinstance(hand, Hand) else None)
        cards = dealt_cards(hand, ruleset, board)
        return _best_strength_function(ruleset)([c.index for c in cards])
    hand = as_hand(hand, rules)
    return tables_for(hand.rules).lookup[_lookup_index(hand)]


def _lookup_index(hand: Hand) -> int:
    """Where a checked hand is looked up in its rule set's table."""
    code = codes_for(hand.rules)
    return lookup_index([code[i] for i in hand.indices])


@overload
def strength_function(
    rules: str | RuleSet | None = None, *, text: Literal[False] = False, best_five: bool = False
) -> Callable[[Sequence[int]], int]: ...
@overload
def strength_function(
    rules: str | RuleSet | None = None, *, text: Literal[True], best_five: bool = False
) -> Callable[[str], int]: ...
def strength_function(
    rules: str | RuleSet | None = None, *, text: bool = False, best_five: bool = False
) -> Callable[[Sequence[int]], int] | Callable[[str], int]:
    """A fast function that scores many hands under ``rules`` (default:
    ``standard``): each hand's strength, as :func:`strength` gives it.

    What it scores: five card indices (:attr:`Card.index`, as
    :attr:`Hand.indices` holds them), unchecked: pass the indices of a
    valid hand of the rule set. Other indices give a number that means
    nothing (0 for some, such as a card twice among five; for others, such
    as rank-only cards under rules with suits, some hand's strength); a
    wrong number of them is a :class:`ValueError`, an index past the last
    card an :class:`IndexError`. Or, with ``text=True``,
    a hand's text, with the checks and errors of :meth:`Hand.parse` (a
    :class:`TypeError` for anything but text; the usual spelling, two-letter
    cards between single spaces, is read fastest). ``best_five=True``: five
    to seven cards of which the best five play, as :func:`strength` with
    ``best_five`` (indices of a valid hand, or text checked as it checks it).

    >>> f = strength_function()
    >>> f(Hand.parse('AS KS QS JS TS').indices)
    7462
    >>> score = strength_function(text=True)
    >>> score('8C TS KC 9H 4S'), score('7D 2S 5D 3S AC')
    (578, 790)
    >>> score('AS AS KD QD JD')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.HandError: duplicate card A♠ (cards 1 and 2) in 'AS AS KD QD JD'
    >>> best = strength_function(best_five=True)
    >>> best([51, 0, 4, 25, 8, 12, 16])  # 2♣ A♠ K♠ 7♦ Q♠ J♠ 10♠
    7462
    """
    ruleset = resolve_rules(rules)
    if not text and best_five:
        from .seven import _best_strength_function

        return _best_strength_function(ruleset)
    if not text:
        return _five_strength_function(ruleset)
    if best_five:
        return _best_text_strength_function(ruleset)
    return _text_strength_function(ruleset)


def _best_text_strength_function(ruleset: RuleSet) -> Callable[[str], int]:
    """Text of five to seven cards to the best five's strength (each hand
    read and checked as :func:`evaluate` reads it with ``best_five``)."""
    from .seven import _best_strength_function

    best = _best_strength_function(ruleset)

    def best_strength_of_text(text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"expected a hand as text such as 'AS KD 7C 7H 2S', got {kind_of(text)}")
        return best([c.index for c in dealt_cards(text, ruleset)])

    return best_strength_of_text


def _token_codes(suits: bool) -> dict[str, int]:
    """Text -> code for the spellings of the cards a hand may hold with no
    check but for duplicates (the fast text path): no jokers, and under rules
    with suits (``suits=True``) no rank-only cards."""
    return {
        token: CODES[card.index]
        for token, card in TOKENS.items()
        if not card.is_joker and (card.suit is not None or not suits)
    }


def _text_strength_function(ruleset: RuleSet) -> Callable[[str], int]:
    """A hand's text to its strength, with the checks and errors of
    :meth:`Hand.parse` (see :func:`strength_function`)."""
    from struct import Struct
    from struct import error as StructError

    tables = tables_for(ruleset)
    lookup = tables.lookup
    if ruleset.wild:
        # Wild cards of the deck: every hand through Hand.parse (its checks
        # and errors), looked up with its wild cards as jokers.
        def wild_strength_of_text(text: str) -> int:
            if not isinstance(text, str):
                raise TypeError(
                    f"expected a hand as text such as 'AS KD 7C 7H 2S', got {kind_of(text)}"
                )
            return lookup[_lookup_index(Hand.parse(text, rules=ruleset))]

        return wild_strength_of_text
    # Cards this rule set takes without further checks (not jokers, which may
    # repeat, nor rank-only cards under suited rules).
    codes = _token_codes(ruleset.suits)
    # spread[strength]: no hand of that class holds a rank twice, so none can
    # hold a card twice; only the others need the duplicate check (and 0, no
    # hand, never passes it).
    if ruleset.one_deck:
        ladder = ruleset.ladder
        spread_classes = bytes([len(c.shape) == 5 for c in ladder]) + bytes(256 - len(ladder))
        spread = list(tables.ladder_indices().translate(spread_classes))
    else:
        spread = [0] + [1] * tables.size

    # The usual spelling, five two-letter cards between single spaces ("AS KD
    # 7C 7H 2S"), is read as bytes: one list index per card gives a number
    # that sums to the rank key (low bits) and the count of each suit (base 6
    # above them: five of a suit is a flush).
    weight_bits = (5 * (max(codes.values()) >> SUIT_SHIFT)).bit_length()
    suit_counts = {0: 0, 1: 1, 2: 6, 4: 36, 8: 216}
    invalid = 1 << 40  # any sum with it is past the flush table: IndexError
    pair_values = [invalid] * 65536
    for token, code in codes.items():
        if len(token) == 2 and token.isascii():
            first, second = token.encode()
            pair_values[first | second << 8] = (code >> SUIT_SHIFT) + (
                suit_counts[code & SUIT_MASK] << weight_bits
            )
    flush_offset = [0] * (5 * 216 + 1)
    if ruleset.suits:
        for count in (5, 30, 180, 1080):
            flush_offset[count] = KEY_SPACE

    def slow(text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"expected a hand as text such as 'AS KD 7C 7H 2S', got {kind_of(text)}")
        return lookup[_lookup_index(Hand.parse(text, rules=ruleset))]

    def by_token(
        text: str,
        code: Callable[[str], int] = codes.__getitem__,
        lookup: array[int] = lookup,
        spread: list[int] = spread,
        space: int = KEY_SPACE,
    ) -> int:
        # Five known tokens separated by single spaces take this path; any
        # other text (commas, other spacing, errors) goes through Hand.parse
        # (called after the except clause: its error is raised alone).
        try:
            a, b, c, d, e = map(code, text.split(" "))
            known = True
        except (KeyError, ValueError, AttributeError, TypeError):
            known = False
        if not known:
            return slow(text)  # Hand.parse: the exact error, or the value
        if a & b & c & d & e & SUIT_MASK:
            strength = lookup[((a + b + c + d + e) >> SUIT_SHIFT) + space]
        else:
            strength = lookup[(a + b + c + d + e) >> SUIT_SHIFT]
        if spread[strength] or (strength and (
            a != b and a != c and a != d and a != e and b != c
            and b != d and b != e and c != d and c != e and d != e
        )):  # fmt: skip
            return strength
        return slow(text)  # raises: a card twice

    def strength_of_text(
        text: str,
        unpack: Callable[[bytes], tuple[int, ...]] = Struct("<HBHBHBHBH").unpack,
        value: list[int] = pair_values,
        lookup: array[int] = lookup,
        flush: list[int] = flush_offset,
        spread: list[int] = spread,
        key_mask: int = (1 << weight_bits) - 1,
        suit_shift: int = weight_bits,
    ) -> int:
        # The usual spelling: 14 ASCII bytes, cards at 0, 3, 6, 9 and 12, and
        # spaces between. Anything else is read token by token.
        try:
            usual = text.isascii()
            if usual:
                u, s1, v, s2, w, s3, x, s4, y = unpack(text.encode())
                a = value[u]
                b = value[v]
                c = value[w]
                d = value[x]
                e = value[y]
                total = a + b + c + d + e
                strength = lookup[(total & key_mask) + flush[total >> suit_shift]]
        except (AttributeError, ValueError, TypeError, IndexError, StructError):
            usual = False  # not text, not 14 bytes, other cards
        if not usual or s1 != 32 or s2 != 32 or s3 != 32 or s4 != 32:
            return by_token(text)
        if spread[strength] or (strength and (
            a != b and a != c and a != d and a != e and b != c
            and b != d and b != e and c != d and c != e and d != e
        )):  # fmt: skip
            return strength
        return slow(text)  # raises: a card twice

    return strength_of_text


def _joker_cards(
    hand: Hand, substitutes: tuple[Rank, ...], hand_class: HandClass
) -> tuple[Card, ...]:
    """Concrete cards for the ranks the jokers became (see :func:`wild_cards_made`)."""
    if not substitutes:
        return ()
    naturals = [c for c in hand.cards if not hand.rules.is_wild(c)]
    flush_suit = naturals[0].suit if hand_class.category.flush else None
    return wild_cards_made(substitutes, frozenset(naturals), flush_suit, suits=hand.rules.suits)


def wild_cards_made(
    substitutes: Sequence[Rank], naturals: Container[Card], flush_suit: Suit | None, *, suits: bool
) -> tuple[Card, ...]:
    """The cards a hand's wild cards become, in the order of ``substitutes``
    (the ranks they stand for, :attr:`Tables.substitutes`): in the naturals'
    suit (``flush_suit``) when the hand is a flush, else the first suit
    (spades, hearts, diamonds, clubs) whose card of that rank is neither
    among the hand's ``naturals`` nor made already; a rank alone when there
    is none (Five of a Kind) or the rules have no suits.

    The one statement of the rule: :func:`evaluate` calls it for its hand,
    the bulk writers once per distinct case (it reads of the naturals only
    whether they hold the cards of the substitutes' ranks).

    >>> wild_cards_made([Rank.ACE, Rank.ACE], {Card.parse('AS')}, None, suits=True)
    (Card.parse('Ah'), Card.parse('Ad'))
    """
    used: set[Card] = set()
    made: list[Card] = []
    for rank in substitutes:
        if flush_suit is not None:
            card = Card(rank, flush_suit)
        else:
            card = Card(rank, None)
            for suit in Suit if suits else ():
                free = Card(rank, suit)
                if free not in naturals and free not in used:
                    card = free
                    break
        used.add(card)
        made.append(card)
    return tuple(made)


def _arrange(
    hand: Hand, hand_class: HandClass, jokers: tuple[Card, ...]
) -> tuple[Card, ...]:
    """The hand's own cards in showdown order (a wild card where the card it
    became goes)."""
    cards = hand.sorted()
    ranks = [None if hand.rules.is_wild(c) else c.rank for c in cards]
    places = showdown_places(ranks, hand_class.order, [c.rank for c in jokers])
    return tuple([cards[i] for i in places])


def showdown_places(
    ranks: Sequence[Rank | None], order: Sequence[Rank], became: Sequence[Rank | None]
) -> tuple[int, ...]:
    """Where the cards of a sorted hand go in showdown order: ``ranks`` are
    the sorted cards' ranks (``None`` for a wild card), ``order`` the class's
    ranks in showdown order (:attr:`HandClass.order`), ``became`` the ranks
    the wild cards became (:func:`wild_cards_made`). Returns the positions
    in the sorted hand of the showdown's cards: a rank's natural cards in
    sorted order, then the wild cards that became that rank (the last wild
    card of the sorted hand for the first substitute, and so on).

    The one statement of the rule: :func:`evaluate` calls it for its hand,
    the bulk writers once per distinct case.

    >>> K, S = Rank.KING, Rank.SEVEN  # K 7 7 and two wild cards that became 7s
    >>> showdown_places([K, S, S, None, None], [S, S, S, S, K], [S, S])
    (1, 2, 4, 3, 0)
    """
    pool: dict[Rank | None, list[int]] = {}
    wild: list[int] = []
    for place, rank in enumerate(ranks):
        if rank is None:
            wild.append(place)
        else:
            pool.setdefault(rank, []).append(place)
    for rank in became:
        pool.setdefault(rank, []).append(wild.pop())
    return tuple([pool[rank].pop(0) for rank in order])


def class_descriptions(rules: RuleSet, lang: Language | str | None = None) -> tuple[str, ...]:
    """Every class's :func:`describe` in ``lang`` (default English), by
    strength (``[0]``, no hand, is empty): made once per process and
    language, from the user's cache when it holds them (see
    :mod:`fivecard.core.lookup_cache`), else made and stored there.
    Writers of many hands read descriptions here; a single evaluation
    describes its own class, in the same words.

    >>> from fivecard.core.rules import STANDARD
    >>> class_descriptions(STANDARD, 'ru')[4822]
    'Две пары, короли и девятки, кикер четвёрка'
    """
    words = language(lang)
    made = _DESCRIPTIONS.get((rules, words.code))
    if made is None:
        from . import lookup_cache
        from .lookup import cache_key

        # the tables' key, and what else a description reads: labels, details
        texts = tuple((c.label, c.detail, c.named) for c in rules.ladder)
        # (English keeps its key as it was: a user's cache made before stays good)
        key = (*cache_key(rules), "descriptions", texts, *(() if words.english else (words.code, _catalog_stamp(words))))
        tables = tables_for(rules)
        stored = lookup_cache.load(rules.name, key)
        if (
            isinstance(stored, tuple)
            and len(stored) == tables.size + 1
            and all(isinstance(text, str) for text in stored)
        ):
            made = stored
        else:
            made = ("", *(describe(c, words) for c in tables.classes()))
            lookup_cache.store(rules.name, key, made)
        made = _DESCRIPTIONS[(rules, words.code)] = made
    return made


def _catalog_stamp(words: Language) -> tuple[int, int]:
    """What changes when the core catalog of a language does (its size and
    time): a cached description in that language is made again then."""
    import os

    from .lang import LOCALE_FOLDER

    found = os.stat(os.path.join(LOCALE_FOLDER, words.code, "LC_MESSAGES", "core.mo"))
    return (found.st_size, found.st_mtime_ns)


_DESCRIPTIONS: dict[tuple[RuleSet, str], tuple[str, ...]] = {}


def describe(hand_class: HandClass, lang: Language | str | None = None) -> str:
    """A short description of a class of hands, in ``lang`` (default English;
    see :mod:`fivecard.core.lang`).

    The category's ``detail`` template may use ``{0}``, ``{1}`` (the plural
    names of the first two groups), ``{high}`` (the top card), ``{cards}``
    (all ranks), ``{kickers}`` (the single cards after the groups), ``{low}``
    (a low hand by its top two cards, ``Seven-Five low``) and ``{wheel}``
    (`` (the wheel)`` for 5-4-3-2-A in that order, the ace low, else empty).
    The description is the label, a comma and the detail; or the detail
    alone when the category is not ``named`` (lowball's no-pair hands).

    >>> print(evaluate('7S 5D 4C 3H 2S', rules='deuce-to-seven'))
    Seven-Five low, 7-5-4-3-2
    >>> print(evaluate('AS 2D 3C 4H 5S', rules='ace-to-five'))
    Five-Four low, 5-4-3-2-A (the wheel)
    >>> describe(evaluate('KD 9C 4H KS 9D').hand_class, lang='ru')
    'Две пары, короли и девятки, кикер четвёрка'
    """
    return _described(hand_class, language(lang))


@lru_cache(maxsize=1 << 13)  # a description is made once per class and language (bounded)
def _described(hand_class: HandClass, words: Language) -> str:
    """:func:`describe`, once per class and language."""
    category = hand_class.category
    label = category_name(category.name, category.label, words)
    if not category.detail:
        return label
    groups = hand_class.groups
    plurals = [rank_name(r, words, plural=True) for r, _ in groups]
    kickers = [r for r, n in groups if n == 1]
    order = hand_class.order
    letters = "-".join(rank_letter(r, words) for r in order)
    if len(kickers) == 1:
        kicker_text = words.phrase("{rank} kicker", rank=rank_name(kickers[0], words))
    else:
        kicker_text = words.phrase("{cards} kickers", cards="-".join(rank_letter(r, words) for r in kickers))
    detail = category_detail(category.name, category.detail, words).format(
        *plurals,
        high=rank_name(hand_class.key[0], words),
        cards=letters,
        kickers=kicker_text,
        low=words.phrase("{first}-{second} low", first=rank_name(order[0], words), second=rank_name(order[1], words)),
        wheel=words.gettext(" (the wheel)") if order == _WHEEL else "",
    )
    if not category.named:
        return detail
    return words.phrase("{category}, {detail}", category=label, detail=detail)


#: The wheel in showdown order, the ace low.
_WHEEL = (Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO, Rank.ACE)
