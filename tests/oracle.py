"""A naive reference evaluator for the tests, written from the rules alone.

Each rule set is a few lines of data here (:data:`RULES`): its ladder, deck,
straight rule, whether flushes and straights count, which way wins, and its
wild cards. :func:`keys` values hands, vectorised with numpy, from nothing but
each card's rank and suit: an int64 key per hand, higher = stronger in every
rule set, equal = draw. A key is the category's place in the ladder, then five
hex digits for the tie-break (groups largest first, higher rank first; a
straight by its top card; under lowball each digit is ``15 - rank``, so the
lower card makes the larger key). A hand with wild cards is worth the best key
over every replacement of its wild cards by distinct cards not among its
natural cards, or Five of a Kind when its naturals share one rank. Nothing of
fivecard is imported: cards are read from their text (:func:`cards`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Small = npt.NDArray[np.int16]
#: Ranks or suits of cards, of any integer type.
Cards = npt.NDArray[np.integer[Any]]

ACE, KING = 14, 13
#: A joker's rank and suit (it has neither).
JOKER = (0, 4)
#: A card without a suit (typed as a rank alone).
NO_SUIT = 4
_RANK_LETTERS = {"T": 10, "J": 11, "Q": 12, "K": KING, "A": ACE}
_SUIT_LETTERS = {"S": 0, "H": 1, "D": 2, "C": 3}
#: A key is ladder place * DIGITS + five tie-break digits (4 bits each).
DIGITS = 16**5

STANDARD_LADDER = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush",
)  # fmt: skip


#: What each category is called.
LABELS = {
    "high_card": "High Card", "ace_king": "Ace-King", "no_pair": "No Pair", "one_pair": "One Pair",
    "two_pair": "Two Pair", "three_of_a_kind": "Three of a Kind", "straight": "Straight", "flush": "Flush",
    "full_house": "Full House", "four_of_a_kind": "Four of a Kind", "straight_flush": "Straight Flush",
    "royal_flush": "Royal Flush", "five_of_a_kind": "Five of a Kind",
}  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """One rule set, as data."""

    name: str
    #: Categories, weakest first: the key's first digit is the place here.
    ladder: tuple[str, ...]
    #: The ranks of the deck (2 ... 14, the ace 14); each in four suits.
    ranks: tuple[int, ...] = tuple(range(2, 15))
    #: Flushes count (cards have suits).
    flushes: bool = True
    #: Straights count.
    straights: bool = True
    #: The ace also plays below the deck's lowest rank in the lowest straight.
    wheel: bool = True
    #: The ace is the lowest rank, below the 2, and only that.
    ace_low: bool = False
    #: Lowball: the lower hand wins (within a category, the lower ranks).
    low: bool = False
    #: Wild jokers in the deck.
    jokers: int = 0
    #: Wild cards of the deck, as (rank, suit).
    wild: frozenset[tuple[int, int]] = frozenset()

    def deck(self) -> list[tuple[int, int]]:
        """The dealt deck as (rank, suit): each rank in four suits (ace
        first, as the deck is written), then the jokers."""
        cards = [(r, s) for r in sorted(self.ranks, reverse=True) for s in range(4)]
        return cards + [JOKER] * self.jokers


_WILD_LADDER = (*STANDARD_LADDER, "five_of_a_kind")

#: Every rule set, by its name.
RULES: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("standard", STANDARD_LADDER),
        # Ace-King: an ace and a king and nothing better; the order is standard's.
        Rules("ace-king", ("high_card", "ace_king", *STANDARD_LADDER[1:])),
        # Ranks only: no flushes, the ace high only (2-3-4-5-6 is the lowest straight).
        Rules(
            "semi",
            ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight",
             "full_house", "four_of_a_kind", "five_of_a_kind"),
            flushes=False, wheel=False,
        ),  # fmt: skip
        Rules("joker", _WILD_LADDER, jokers=2),
        Rules("one-joker", _WILD_LADDER, jokers=1),
        # 6 to A; a flush beats a full house; A-6-7-8-9 is the lowest straight.
        Rules(
            "short-deck",
            ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight",
             "full_house", "flush", "four_of_a_kind", "straight_flush", "royal_flush"),
            ranks=tuple(range(6, 15)),
        ),  # fmt: skip
        Rules("deuces-wild", _WILD_LADDER, wild=frozenset((2, s) for s in range(4))),
        Rules("one-eyed-jacks", _WILD_LADDER, wild=frozenset({(11, 0), (11, 1)})),
        # Lowball, the ace low only: pairs and more count against, nothing else.
        Rules(
            "ace-to-five",
            ("four_of_a_kind", "full_house", "three_of_a_kind", "two_pair", "one_pair", "no_pair"),
            flushes=False, straights=False, wheel=False, ace_low=True, low=True,
        ),  # fmt: skip
        # Lowball, standard reversed, the ace high only.
        Rules(
            "deuce-to-seven",
            tuple(reversed(("no_pair", *STANDARD_LADDER[1:]))),
            wheel=False, low=True,
        ),
    )
}


def rules_named(name: str) -> Rules:
    """A rule set of :data:`RULES`, or ``standard+wild(CARDS)``: :func:`with_wild`."""
    if name.startswith("standard+wild(") and name.endswith(")"):
        return with_wild(name[len("standard+wild(") : -1])
    return RULES[name]


def with_wild(text: str) -> Rules:
    """``standard`` with these cards wild (a rank alone: its four cards) and
    Five of a Kind on top."""
    wild: set[tuple[int, int]] = set()
    for rank, suit in zip(*cards(text.split())):
        wild.update([(int(rank), s) for s in range(4)] if suit == NO_SUIT else [(int(rank), int(suit))])
    return Rules(f"standard+wild({text})", _WILD_LADDER, wild=frozenset(wild))


# --- cards ----------------------------------------------------------------------------------


def cards(texts: Iterable[str]) -> tuple[Ints, Ints]:
    """Ranks and suits of cards written as text: ``As``, ``10h``, ``td``, a
    rank alone (``Q``: no suit), ``JK`` (a joker)."""
    ranks: list[int] = []
    suits: list[int] = []
    for text in texts:
        t = text.strip().upper()
        if t == "JK":
            rank, suit = JOKER
        else:
            head, tail = (t[:-1], t[-1]) if t[-1] in _SUIT_LETTERS else (t, "")
            rank = _RANK_LETTERS[head] if head in _RANK_LETTERS else int(head)
            suit = _SUIT_LETTERS[tail] if tail else NO_SUIT
            assert 2 <= rank <= ACE, text
        ranks.append(rank)
        suits.append(suit)
    return np.array(ranks, dtype=np.int64), np.array(suits, dtype=np.int64)


def hands(texts: Sequence[str]) -> tuple[Ints, Ints]:
    """``(N, 5)`` ranks and suits of hands written as text (``"AS KD 7H 7C 2S"``)."""
    rows = [t.replace(",", " ").split() for t in texts]
    assert all(len(r) == 5 for r in rows), texts
    ranks, suits = cards([c for r in rows for c in r])
    return ranks.reshape(-1, 5), suits.reshape(-1, 5)


def is_wild(rules: Rules, ranks: Cards, suits: Cards) -> npt.NDArray[np.bool_]:
    """Which cards the rule set makes wild: its jokers and its wild cards."""
    wild: npt.NDArray[np.bool_] = np.asarray(ranks == JOKER[0])
    for rank, suit in rules.wild:
        wild |= (ranks == rank) & (suits == suit)
    return wild


# --- natural hands --------------------------------------------------------------------------


def _high_to_low(columns: list[Small]) -> list[Small]:
    """Five columns sorted row by row, largest first (each pair compared and
    exchanged in turn)."""
    c = list(columns)
    for i in range(5):
        for j in range(i + 1, 5):
            c[i], c[j] = np.maximum(c[i], c[j]), np.minimum(c[i], c[j])
    return c


def natural_keys(rules: Rules, ranks: Cards, suits: Cards) -> Ints:
    """Keys of ``(N, 5)`` hands of natural cards (none wild)."""
    n = len(ranks)
    small: Small = ranks.astype(np.int16)  # small numbers: quicker
    height: Small = np.where(small == ACE, 1, small).astype(np.int16) if rules.ace_low else small
    r = _high_to_low([height[:, k] for k in range(5)])
    counts = [sum((r[i] == r[j]).astype(np.int16) for j in range(5)) for i in range(5)]
    grouped = [g & 15 for g in _high_to_low([c * 16 + x for c, x in zip(counts, r)])]
    most = np.maximum.reduce(counts)
    pairs = sum((c == 2).astype(np.int16) for c in counts) // 2
    flush = np.zeros(n, dtype=bool)
    if rules.flushes:
        flush = np.logical_and.reduce([suits[:, k] == suits[:, 0] for k in range(1, 5)])
    straight = np.zeros(n, dtype=bool)
    top = r[0]
    if rules.straights:
        straight = (most == 1) & (r[0] - r[4] == 4)
        if rules.wheel:  # the ace below the deck's four lowest ranks
            lowest = sorted(rules.ranks)[:4]
            wheel = np.logical_and.reduce([x == w for x, w in zip(r, (ACE, *reversed(lowest)))])
            straight |= wheel
            top = np.where(wheel, lowest[-1], top)
    what = [  # what the hand is, strongest description first
        ("five_of_a_kind", most == 5),
        ("royal_flush", straight & flush & (top == ACE)),
        ("straight_flush", straight & flush),
        ("four_of_a_kind", most == 4),
        ("full_house", (most == 3) & (pairs == 1)),
        ("flush", flush),
        ("straight", straight),
        ("three_of_a_kind", most == 3),
        ("two_pair", pairs == 2),
        ("one_pair", pairs == 1),
        ("ace_king", np.logical_or.reduce([x == ACE for x in r]) & np.logical_or.reduce([x == KING for x in r])),
        ("high_card", np.ones(n, dtype=bool)),
        ("no_pair", np.ones(n, dtype=bool)),
    ]
    place = np.select([c for name, c in what if name in rules.ladder],
                      [rules.ladder.index(name) for name, _ in what if name in rules.ladder], -1)  # fmt: skip
    assert (place >= 0).all(), "a hand of no category of the ladder"
    digits = [np.where(straight, top, grouped[0])] + [np.where(straight, 0, g) for g in grouped[1:]]
    key = place.astype(np.int64)
    for d in digits:
        key = key * 16 + (15 - d if rules.low else d)
    return key


# --- wild cards, by substitution ------------------------------------------------------------

_CELLS = 1 << 20  # hands x substitutes valued per step


def _five_of_a_kind(rules: Rules, rank: int) -> int:
    key = rules.ladder.index("five_of_a_kind")
    for _ in range(5):
        key = key * 16 + rank
    return key


def _substituted(rules: Rules, naturals: Ints, k: int) -> Ints:
    """Best keys of hands of ``5 - k`` natural cards (``(N, 5 - k)`` indices
    into :meth:`Rules.deck`) and ``k`` wild cards: every choice of ``k``
    distinct cards of the deck not among the naturals, the best key; all of
    one rank, Five of a Kind."""
    deck = [c for c in rules.deck() if c != JOKER]
    rank = np.array([c[0] for c in deck], dtype=np.int16)
    suit = np.array([c[1] for c in deck], dtype=np.int16)
    subs = np.array(list(combinations(range(len(deck)), k)), dtype=np.int64)
    best = np.empty(len(naturals), dtype=np.int64)
    step = max(1, _CELLS // len(subs))
    for start in range(0, len(naturals), step):
        rows = naturals[start : start + step]
        shape = (len(rows), len(subs))

        def hand(of: Small) -> Small:  # each row's naturals, then each choice of substitutes
            return np.concatenate(
                [np.broadcast_to(of[rows][:, None, :], (*shape, 5 - k)), np.broadcast_to(of[subs], (*shape, k))], axis=2
            ).reshape(-1, 5)

        values = natural_keys(rules, hand(rank), hand(suit)).reshape(shape)
        held = np.zeros((len(rows), len(deck)), dtype=bool)
        held[np.arange(len(rows))[:, None], rows] = True
        values[held[:, subs].any(axis=2)] = -1  # a substitute among the naturals
        best[start : start + len(rows)] = values.max(axis=1)
    if "five_of_a_kind" in rules.ladder:
        one_rank = (rank[naturals] == rank[naturals[:, :1]]).all(axis=1)
        for r in np.unique(rank[naturals[one_rank, 0]]).tolist():
            best[one_rank & (rank[naturals[:, 0]] == r)] = _five_of_a_kind(rules, r)
    return best


def keys(rules: Rules, ranks: Cards, suits: Cards, wild: npt.NDArray[np.bool_] | None = None) -> Ints:
    """The key of each of ``(N, 5)`` hands (ranks and suits, as :func:`cards`
    reads them); ``wild`` marks the wild cards (by default the rule set's,
    :func:`is_wild`). Hands of natural cards are valued as they are; the
    others by substitution, once per distinct set of naturals."""
    ranks, suits = np.asarray(ranks, dtype=np.int16), np.asarray(suits, dtype=np.int16)
    wild = is_wild(rules, ranks, suits) if wild is None else np.asarray(wild, dtype=bool)
    count = wild.sum(axis=1)
    out = np.empty(len(ranks), dtype=np.int64)
    plain = count == 0
    out[plain] = natural_keys(rules, ranks[plain], suits[plain])
    if not plain.all():
        # each natural card's place in the deck; wild cards after every card
        place = np.full((ACE + 1, NO_SUIT + 1), 1 << 10, dtype=np.int64)
        for i, (r, s) in enumerate(c for c in rules.deck() if c != JOKER):
            place[r, s] = i
        index = np.where(wild, 1 << 10, place[ranks, suits])
        assert (index[~wild] < 1 << 10).all(), "a natural card not of the deck"
        out[count == 5] = _five_of_a_kind(rules, ACE)  # five wild cards: five aces
        for k in range(1, 5):
            rows = np.flatnonzero(count == k)
            if not len(rows):
                continue
            naturals = np.sort(index[rows], axis=1)[:, : 5 - k]
            as_one = sum(naturals[:, i] << 10 * i for i in range(5 - k))  # the set of naturals as a number
            _, first, inverse = np.unique(as_one, return_index=True, return_inverse=True)
            out[rows] = _substituted(rules, naturals[first], k)[inverse.reshape(-1)]
    return out


def category(rules: Rules, key: Ints) -> Ints:
    """The ladder place of each key's category (0 = the weakest)."""
    return np.asarray(key, dtype=np.int64) // DIGITS


def category_names(rules: Rules, key: Ints) -> list[str]:
    """The category of each key, by name (``"one_pair"``)."""
    return [rules.ladder[p] for p in category(rules, key).tolist()]


def counts(rules: Rules, key: Ints) -> dict[str, tuple[int, int]]:
    """(classes, hands) per category among these keys: distinct keys, and keys."""
    place = category(rules, key)
    return {
        name: (len(np.unique(key[place == i])), int((place == i).sum()))
        for i, name in enumerate(rules.ladder)
        if (place == i).any()
    }
