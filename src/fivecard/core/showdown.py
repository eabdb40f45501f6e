"""Settling showdowns: who wins, the full order, and why.

One rule covers every category: compare categories, then the
groups (largest first), then kickers, left to right; the first difference
decides (the higher rank wins; the lower in lowball). Suits never break a tie.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from typing import TYPE_CHECKING, Union

from .cards import JOKER, Card, Rank
from .errors import FivecardError, HandError, Listed, Phrase, in_context, kind_of, phrase, phrase_n
from .evaluate import Evaluation, describe, evaluate
from .hand import BOARD, Hand, HandLike, as_hand, given_cards, hand_place, resolve_rules
from .rules import RuleSet, wild_on
from .lookup import HandClass
from .lang import Language
from . import words

if TYPE_CHECKING:  # the reasons' module loads when a reason is first made
    from .reason import Verdict

__all__ = [
    "Outcome",
    "outcome",
    "outcome_of",
    "Showdown",
    "showdown",
    "settle",
    "cmp_hands",
    "explain",
    "explain_classes",
    "explain_showdown",
    "name_hands",
    "spoken_list",
    "check_decks",
    "check_deck_cards",
]

_LISTED = 10  # hand numbers an error message lists before "and N more"
_BOARD_NAME = "the board"  # the board's cards' name in check_deck_cards

#: A hand in any of its forms, or one already evaluated.
Contender = Union[Evaluation, HandLike]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a showdown of one or more hands ends, whoever settles it (a call,
    the bulk pipeline, a game): ``winners`` every hand that wins (several on
    a split) and ``order`` all hands best first with tied hands grouped, as
    0-based positions; ``explanation`` says why, naming the deciding step,
    in the language asked for (default English), and ``verdict`` is the same
    reason as data, to say in another language or with the hands' names
    (:meth:`explain`). :attr:`is_split`: several hands share the win;
    :attr:`is_draw`: every hand does (no hand loses). Made by :func:`outcome`."""

    winners: tuple[int, ...]
    order: tuple[tuple[int, ...], ...]
    explanation: str
    verdict: Verdict

    def explain(self, lang: Language | str | None = None, names: Sequence[str] | None = None) -> str:
        """The explanation in ``lang`` (default English), the hands called
        by ``names`` (one per hand, in order) if given.

        >>> result = showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC'])
        >>> result.explain('ru', names=['Аня', 'Борис'])
        'Побеждает Борис: у обеих Старшая карта; решает первая карта, Т бьёт К'
        """
        return self.verdict.text(lang, names)

    @property
    def is_split(self) -> bool:
        """True when more than one hand shares the win (a draw or a split
        among some of the hands)."""
        return len(self.winners) > 1

    @property
    def is_draw(self) -> bool:
        """True when every hand ties: more than one hand and none loses
        (a shared win is :attr:`is_split`)."""
        return len(self.winners) > 1 and len(self.order) == 1


@dataclass(frozen=True, slots=True)
class Showdown(Outcome):
    """The :class:`Outcome` of a showdown with the hands' ``evaluations``.

    >>> result = showdown(['AS AD KH 7C 2D', 'AH AC KS 7D 2C', '2S 3S 4S 5S 7H'])
    >>> result.winners, result.is_split, result.is_draw
    ((0, 1), True, False)
    """

    evaluations: tuple[Evaluation, ...] = ()
    #: The cards every hand shared (a hold'em board, as the rules read them);
    #: empty without a board.
    board: tuple[Card, ...] = ()


@lru_cache(maxsize=1 << 12)  # bounded: memory must not grow with the input
def outcome(
    strengths: tuple[int, ...], naturals: tuple[bool, ...], rules: RuleSet, lang: Language | None = None
) -> Outcome:
    """A showdown's result from the hands' strengths (and whether each is
    natural, for wild cards), explained in ``lang`` (default English): it
    depends on nothing else, so it is cached.

    >>> outcome((578, 790), (True, True), evaluate('AS KS QS JS TS').rules).explanation
    'Hand 2 wins: both High Card; the first card decides, A beats K'
    """
    from .lookup import tables_for

    tables = tables_for(rules)
    return outcome_of(strengths, [tables.hand_class(s) for s in strengths], naturals, rules, lang)


def outcome_of(
    strengths: Sequence[int],
    classes: Sequence[HandClass],
    naturals: Sequence[bool],
    rules: RuleSet,
    lang: Language | str | None = None,
) -> Outcome:
    """The one place a showdown's result is made, from the hands' strengths,
    classes and whether each is natural: the order (one sort, O(n log n)),
    the winners and the reason, explained in ``lang``."""
    from .reason import verdict

    if not strengths:
        raise HandError(phrase("a showdown needs at least one hand, got none"))
    best_first = sorted(range(len(strengths)), key=strengths.__getitem__, reverse=True)
    order = tuple(tuple(tier) for _, tier in groupby(best_first, key=strengths.__getitem__))
    reason = verdict(classes, order, rules=rules, naturals=naturals)
    return Outcome(order[0], order, reason.text(lang), reason)


def _contenders(hands: object, what: str) -> list[object]:
    """The items of a sequence of hands; a single hand or text is a
    TypeError (not a sequence of five one-character hands)."""
    if isinstance(hands, (str, bytes, bytearray, Hand, Evaluation, Mapping)) or not isinstance(
        hands, Iterable
    ):
        raise TypeError(
            f"{what} takes a sequence of hands, such as ['AS KD 7C 7H 2S', '2C 3C 4C 5C 6C'], "
            f"got {kind_of(hands)}"
        )
    return list(hands)


def _rules_of(items: Sequence[object], rules: str | RuleSet | None) -> RuleSet:
    """``rules`` if given; else the rule set the hands and evaluations passed
    carry (they must agree); else ``standard`` (see :func:`resolve_rules`)."""
    if rules is not None:
        return resolve_rules(rules)
    found: RuleSet | None = None
    first = 0
    for number, item in enumerate(items, 1):
        if isinstance(item, (Hand, Evaluation)):
            if found is None:
                found, first = item.rules, number
            elif item.rules is not found:
                raise HandError(
                    phrase(
                        "hand {first} is under the {rules} rules and hand {number} under the {other} rules; "
                        "all hands of a showdown must be under one rule set (pass rules= to play them all under one)",
                        first=first,
                        rules=found.name,
                        number=number,
                        other=item.rules.name,
                    )
                )
    return resolve_rules(None, found)


def _hand(item: object, rules: RuleSet) -> Hand:
    if isinstance(item, Evaluation):
        item = item.hand
    return as_hand(item, rules)  # type: ignore[arg-type]  # checked there


def _hands(items: Sequence[object], rules: RuleSet) -> list[Hand]:
    """Each item as a Hand under ``rules``; errors say which hand."""
    hands = []
    for number, item in enumerate(items, 1):
        try:
            hands.append(_hand(item, rules))
        except (FivecardError, TypeError) as exc:
            raise in_context(exc, hand_place(number)) from None
    return hands


def _evaluations(items: Sequence[object], rules: str | RuleSet | None) -> list[Evaluation]:
    """Each item evaluated under one rule set (evaluations already under it
    are used as they are)."""
    ruleset = _rules_of(items, rules)
    found: list[Evaluation] = []
    for item, hand in zip(items, _hands(items, ruleset)):
        if isinstance(item, Evaluation) and item.rules is ruleset:
            found.append(item)
        else:
            found.append(evaluate(hand))
    return found


def cmp_hands(a: Contender, b: Contender, *, rules: str | RuleSet | None = None) -> int:
    """Compare two hands, ``cmp`` style: 1 if ``a`` beats ``b``, -1 if ``b``
    beats ``a``, 0 for a draw. (A showdown of any number of hands, with its
    explanation, is :func:`showdown`.)

    Each is a hand in any form (text, cards or card strings, a
    :class:`Hand`) or an :class:`Evaluation`; both are played under
    ``rules`` (default: the rules of the hands or evaluations passed, else
    ``standard``). The two are not checked against one deck (see
    :func:`showdown`), so ``functools.cmp_to_key(cmp_hands)`` sorts any hands
    (as ``sorted(map(evaluate, hands))`` sorts their evaluations).

    >>> cmp_hands('AS AD KH 7C 2D', 'AH AC QS JD 9H'), cmp_hands(['2C', '3C', '4C', '5C', '7D'], '2D 3D 4D 5D 7C')
    (1, 0)
    """
    first, second = _evaluations([a, b], rules)
    return (first.strength > second.strength) - (first.strength < second.strength)


def showdown(
    hands: Iterable[Contender],
    *,
    rules: str | RuleSet | None = None,
    decks: int = 1,
    wild: str | Iterable[Card | str] | None = None,
    best_five: bool = False,
    board: HandLike | None = None,
    lang: Language | str | None = None,
) -> Showdown:
    """Settle a showdown of one or more hands, each in any form (text, cards
    or card strings, a :class:`Hand`) or an :class:`Evaluation`.

    ``rules`` applies to every hand (default: the rules of the hands or
    evaluations passed, else ``standard``). Hands of one showdown come from
    one deck, so they may not share a card; ``decks=N`` allows up to N copies
    of a card across the hands. One hand wins alone; no hands is an error.
    ``wild``: cards that are wild, on top of ``standard`` (see
    :func:`~fivecard.core.rules.wild_rules`).

    >>> result = showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC'])
    >>> result.winners
    (1,)
    >>> result.explanation
    'Hand 2 wins: both High Card; the first card decides, A beats K'
    >>> showdown(['8C TS KC 9H 4S']).explanation
    'Hand 1 wins: the only hand'

    ``best_five=True``: each hand holds 5 to 7 cards and plays its best five
    (seven-card stud); ``board``: cards every hand shares (hold'em), which
    implies ``best_five`` (see :func:`~fivecard.core.evaluate.evaluate`).
    The explanation is about the fives that play:

    >>> showdown(['QS JS', '7C 7H'], board='AS KS 7D 2C 9H').explanation
    'Hand 2 wins: Three of a Kind beats High Card'

    ``lang``: the language of the explanation (default English; see
    :mod:`fivecard.core.lang`); :meth:`Outcome.explain` says it in another.

    >>> showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC'], lang='ja').explanation
    'ハンド2の勝ち：どちらもハイカード。1枚目で決まり、AがKに勝ちます'
    """
    items = _contenders(hands, "showdown")
    if not items:
        raise HandError(phrase("a showdown needs at least one hand, got none"))
    if wild is not None:
        rules = wild_on(rules, wild)
    ruleset = _rules_of(items, rules)
    if best_five or board is not None:
        evaluations, shared = _best_evaluations(items, ruleset, board, decks)
        return replace(settle(evaluations, lang), board=shared)
    parsed = _hands(items, ruleset)
    check_decks(parsed, decks=decks)
    evaluations = tuple(
        item if isinstance(item, Evaluation) and item.rules is ruleset else evaluate(hand)
        for item, hand in zip(items, parsed)
    )
    return settle(evaluations, lang)


def _best_evaluations(
    items: Sequence[object], rules: RuleSet, board: HandLike | None, decks: int
) -> tuple[tuple[Evaluation, ...], tuple[Card, ...]]:
    """Each hand's best five (its own cards and the board's), the hands
    checked against ``decks`` decks with the board dealt once; and the
    board's cards as the rules read them."""
    shared = 0 if board is None else len(given_cards(board, BOARD))  # its errors first
    found: list[Evaluation] = []
    for number, item in enumerate(items, 1):
        own = (item.dealt or item.hand.cards) if isinstance(item, Evaluation) else item
        try:
            found.append(evaluate(own, rules=rules, board=board, best_five=True))  # type: ignore[arg-type]
        except (FivecardError, TypeError) as exc:
            raise in_context(exc, hand_place(number)) from None
    lists = [(str(n), e.dealt[: len(e.dealt) - shared]) for n, e in enumerate(found, 1)]
    if shared:
        lists.append((_BOARD_NAME, found[0].dealt[-shared:]))
    check_deck_cards(lists, rules, decks)
    return tuple(found), found[0].dealt[len(found[0].dealt) - shared :]


def settle(evaluations: Sequence[Evaluation], lang: Language | str | None = None) -> Showdown:
    """The showdown of hands already evaluated (and checked together): one
    sort, O(n log n) in the number of hands; explained in ``lang``."""
    evaluations = tuple(evaluations)
    if not evaluations:
        raise HandError(phrase("a showdown needs at least one hand, got none"))
    result = outcome_of(
        [e.strength for e in evaluations],
        [e.hand_class for e in evaluations],
        [e.natural for e in evaluations],
        evaluations[0].rules,
        lang,
    )
    return Showdown(result.winners, result.order, result.explanation, result.verdict, evaluations)


def check_decks(
    hands: Iterable[Contender],
    *,
    decks: int = 1,
    rules: str | RuleSet | None = None,
) -> None:
    """Raise :class:`~fivecard.core.errors.HandError` if the hands (in any form,
    as for :func:`showdown`) could not have been dealt from ``decks`` decks
    of their rule set. One pass over the cards."""
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise TypeError(f"decks must be a whole number, got {kind_of(decks)}")
    if decks < 1:
        raise HandError(phrase("the number of decks must be at least 1, got {decks}", decks=decks))
    items = _contenders(hands, "check_decks")
    if not items:
        return
    ruleset = _rules_of(items, rules)
    if all(isinstance(h, Hand) and h.rules is ruleset for h in items):
        parsed: Sequence[Hand] = items  # type: ignore[assignment]  # checked just above
    else:
        parsed = _hands(items, ruleset)
    check_deck_cards([(str(n), h.cards) for n, h in enumerate(parsed, 1)], ruleset, decks)


def check_deck_cards(
    lists: Sequence[tuple[str, Sequence[Card]]], ruleset: RuleSet, decks: int
) -> None:
    """Raise :class:`~fivecard.core.errors.HandError` unless these cards (lists
    named by a hand's number, or ``the board``) could come from ``decks``
    decks of the rule set (as many of a card as its
    :class:`~fivecard.core.rules.Deck` holds, times ``decks``)."""
    if not ruleset.one_deck:
        return
    limits = ruleset.deck().limits
    where: dict[Card, list[str]] = {}
    for name, cards in lists:
        for card in cards:
            where.setdefault(card, []).append(name)
    jokers = where.pop(JOKER, [])
    if len(jokers) > limits[JOKER.index] * decks:
        raise HandError(
            phrase_n(
                "{jokers} jokers in hands {hands}, but one deck of the {rules} rules holds only {most}, "
                "unless you say they come from more decks",
                "{jokers} jokers in hands {hands}, but {n} decks of the {rules} rules hold only {most}, "
                "unless you say they come from more decks",
                decks,
                jokers=len(jokers),
                hands=_listed([_hand_name(n) for n in _in_order(set(jokers))]),
                rules=ruleset.name,
                most=limits[JOKER.index] * decks,
            ),
            option=("decks", "N"),
        )
    for card, names in where.items():
        if len(names) > limits[card.index] * decks:
            counts = Counter(names)
            hands = _listed(
                [
                    _hand_name(n) if counts[n] == 1 else phrase("{hand} (x{count})", hand=_hand_name(n), count=counts[n])
                    for n in _in_order(counts)
                ]
            )
            raise HandError(
                phrase_n(
                    "card {card} is in hands {hands}; hands of one showdown come from one deck, which holds "
                    "one of it, unless you say they come from more decks",
                    "card {card} is in hands {hands}; hands of one showdown come from {n} decks, which hold "
                    "{n} of it, unless you say they come from more decks",
                    decks,
                    card=card,
                    hands=hands,
                ),
                option=("decks", "N"),
            )


def _in_order(names: Iterable[str]) -> list[str]:
    """Hand numbers in order, the board last."""
    return sorted(names, key=lambda n: (not n.isdigit(), int(n) if n.isdigit() else 0))


def _listed(items: Sequence[object]) -> Listed:
    """Like :func:`spoken_list`, but at most a few items and then how many more."""
    if len(items) <= _LISTED:
        return Listed(items)
    return Listed(items[: _LISTED - 1], len(items) - _LISTED + 1)


def _hand_name(name: str) -> str | Phrase:
    """A list of cards' name in a message: a hand's number, or the board."""
    return phrase("the board") if name == _BOARD_NAME else name


def spoken_list(items: Sequence[object], lang: Language | str | None = None) -> str:
    """Items as a sentence lists them: "Ann", "Ann and Bob", "Ann, Bob and
    Cy" (in ``lang``: see :func:`fivecard.core.words.spoken_list`).

    >>> spoken_list(["Ann", "Bob", "Cy"])
    'Ann, Bob and Cy'
    """
    return words.spoken_list(items, lang)


def explain(
    a: Contender, b: Contender, *, rules: str | RuleSet | None = None, lang: Language | str | None = None
) -> str:
    """Why one hand beats (or draws with) another, naming the deciding step:
    the category, a group, or a kicker. The two may come in either order:
    the text always explains the stronger one's win. Each is a hand in any
    form or an :class:`Evaluation`, under ``rules`` as for :func:`cmp_hands`;
    said in ``lang`` (default English; see :mod:`fivecard.core.lang`).

    >>> explain(evaluate('AS AD KH 7C 2D'), evaluate('AH AC QS JD 9H'))
    'both One Pair of Aces; the third card decides, K beats Q'
    >>> explain('AH AC QS JD 9H', 'AS AD KH 7C 2D')
    'both One Pair of Aces; the third card decides, K beats Q'
    >>> explain('9S 8D 7H 6C 5D', ['9H', '8C', '7S', '6D', '5C'])
    'both Straight, Nine high; suits never break ties'
    >>> explain('AS AD KH 7C 2D', 'AH AC QS JD 9H', lang='ja')
    'どちらもエースのワンペア。3枚目で決まり、KがQに勝ちます'
    """
    from .reason import step

    first, second = _evaluations([a, b], rules)
    return step(
        first.hand_class, second.hand_class, rules=first.rules, naturals=(first.natural, second.natural)
    ).text(lang)


def explain_classes(
    winner: HandClass,
    loser: HandClass,
    *,
    rules: RuleSet,
    naturals: tuple[bool, bool] = (True, True),
    lang: Language | str | None = None,
) -> str:
    """:func:`explain` for two classes of hands (and whether each hand is
    natural): the explanation depends on nothing else, so the batch path
    writes it once per distinct case. Like :func:`explain`, it orders its
    arguments: passed the weaker class first, it still explains the
    stronger one's win. (The reason as data is :func:`~fivecard.core.reason.step`.)"""
    from .reason import step

    return step(winner, loser, rules=rules, naturals=naturals).text(lang)


def explain_showdown(
    classes: Sequence[HandClass],
    order: Sequence[Sequence[int]],
    *,
    rules: RuleSet,
    naturals: Sequence[bool] | None = None,
    lang: Language | str | None = None,
) -> str:
    """The explanation of a showdown, from the hands' classes (0-based
    ``order``, best first, ties grouped) and whether each hand is natural.
    (The reason as data is :func:`~fivecard.core.reason.verdict`.)"""
    from .reason import verdict

    return verdict(classes, order, rules=rules, naturals=naturals).text(lang)


def name_hands(explanation: str, names: Sequence[str]) -> str:
    """A showdown's explanation with its hands called by name: ``Hand N``
    (``hand N``, ``Hands N and M``) read as the N-th name.

    >>> name_hands("Hands 1 and 3 split: both Flush (next best: hand 2)", ["Ann", "Bob", "Cy"])
    'Ann and Cy split: both Flush (next best: Bob)'
    """

    def name(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(0))]
        return " and ".join(names[n - 1] for n in numbers)

    return re.sub(r"\b[Hh]ands? \d+(?:(?:, | and )\d+)*", name, explanation)
