"""Settling showdowns: who wins, the full order, and why.

One rule covers every category (RULES §3): compare categories, then the
groups (largest first), then kickers, left to right; the first difference
decides. Suits never break a tie.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER, Card
from .errors import FivecardError, HandError
from .evaluate import Evaluation, HandLike, as_hand, describe, evaluate
from .hand import Hand
from .rules import RuleSet
from .tables import HandClass

__all__ = [
    "Showdown",
    "showdown",
    "settle",
    "compare",
    "explain",
    "explain_classes",
    "explain_showdown",
    "check_decks",
]

_ORDINALS = ("first", "second", "third", "fourth", "fifth")
_GROUP_NOUNS = {2: "pair", 3: "three of a kind", 4: "four of a kind", 5: "five of a kind"}


@dataclass(frozen=True, slots=True)
class Showdown:
    """The result of a showdown of two or more hands.

    ``winners`` and ``order`` hold 0-based positions in ``evaluations``:
    ``winners`` every hand that wins (several on a split), ``order`` all hands
    best first with tied hands grouped. ``explanation`` says why, naming the
    deciding step.
    """

    evaluations: tuple[Evaluation, ...]
    winners: tuple[int, ...]
    order: tuple[tuple[int, ...], ...]
    explanation: str

    @property
    def is_draw(self) -> bool:
        """True when more than one hand shares the win."""
        return len(self.winners) > 1


def compare(a: Evaluation, b: Evaluation) -> int:
    """1 if ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 for a draw."""
    return (a.strength > b.strength) - (a.strength < b.strength)


def showdown(
    hands: Sequence[HandLike],
    *,
    rules: str | RuleSet | None = None,
    decks: int = 1,
) -> Showdown:
    """Settle a showdown of two or more hands (:class:`Hand`, text or cards).

    Hands of one showdown come from one deck, so they may not share a card;
    ``decks=N`` allows up to N copies of a card across the hands.

    >>> result = showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC'])
    >>> result.winners
    (1,)
    >>> result.explanation
    'Hand 2 wins: both High Card; the first card decides, A beats K'
    """
    if len(hands) < 2:
        raise HandError(f"a showdown needs at least 2 hands, got {len(hands)}")
    parsed: list[Hand] = []
    for number, hand in enumerate(hands, 1):
        try:
            parsed.append(as_hand(hand, rules))
        except FivecardError as exc:
            raise type(exc)(f"hand {number}: {exc}") from None
    ruleset = parsed[0].rules
    if any(h.rules is not ruleset for h in parsed):
        raise HandError("all hands of a showdown must be under one rule set")
    check_decks(parsed, decks=decks)
    evaluations = tuple(evaluate(h) for h in parsed)
    return settle(evaluations)


def settle(evaluations: tuple[Evaluation, ...]) -> Showdown:
    """The showdown of hands already evaluated (and checked together)."""
    strengths = sorted({e.strength for e in evaluations}, reverse=True)
    order = tuple(
        tuple(i for i, e in enumerate(evaluations) if e.strength == s) for s in strengths
    )
    explanation = explain_showdown(
        [e.hand_class for e in evaluations],
        order,
        rules=evaluations[0].rules,
        naturals=[e.natural for e in evaluations],
    )
    return Showdown(evaluations, order[0], order, explanation)


def check_decks(hands: Sequence[Hand], *, decks: int = 1) -> None:
    """Raise :class:`~fivecard.errors.HandError` if the hands could not have
    been dealt from ``decks`` decks of their rule set."""
    if decks < 1:
        raise HandError(f"the number of decks must be at least 1, got {decks}")
    if not hands or not hands[0].rules.one_deck:
        return
    rules = hands[0].rules
    where: dict[Card, list[int]] = {}
    for number, hand in enumerate(hands, 1):
        for card in hand.cards:
            where.setdefault(card, []).append(number)
    jokers = where.pop(JOKER, [])
    if len(jokers) > rules.jokers * decks:
        raise HandError(
            f"{len(jokers)} jokers in hands {_and(sorted(set(jokers)))}, but "
            f"{_decks(decks)} of the {rules.name} rules hold{'s' if decks == 1 else ''} "
            f"only {rules.jokers * decks}"
        )
    for card, numbers in where.items():
        if len(numbers) > decks:
            counts = Counter(numbers)
            hands_text = _and([f"{n}" + (f" (x{counts[n]})" if counts[n] > 1 else "")
                               for n in sorted(counts)])
            raise HandError(
                f"card {card} is in hands {hands_text}; hands of one showdown come "
                f"from {_decks(decks)}, which hold{'s' if decks == 1 else ''} "
                f"{'one' if decks == 1 else decks} of it (allow more with --decks N)"
            )


def _decks(n: int) -> str:
    return "one deck" if n == 1 else f"{n} decks"


def _and(items: Sequence[object]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def explain(winner: Evaluation, loser: Evaluation) -> str:
    """Why ``winner`` beats (or draws with) ``loser``, naming the deciding
    step: the category, a group, or a kicker.

    >>> explain(evaluate('AS AD KH 7C 2D'), evaluate('AH AC QS JD 9H'))
    'both One Pair of Aces; the third card decides, K beats Q'
    >>> explain(evaluate('9S 8D 7H 6C 5D'), evaluate('9H 8C 7S 6D 5C'))
    'both Straight, Nine high; suits never break ties'
    """
    return explain_classes(
        winner.hand_class,
        loser.hand_class,
        rules=winner.rules,
        naturals=(winner.natural, loser.natural),
    )


def explain_classes(
    winner: HandClass,
    loser: HandClass,
    *,
    rules: RuleSet,
    naturals: tuple[bool, bool] = (True, True),
) -> str:
    """:func:`explain` for two classes of hands (and whether each hand is
    natural): the explanation depends on nothing else, so the batch path
    writes it once per distinct case."""
    if winner.category != loser.category:
        return f"{winner.category.label} beats {loser.category.label}"
    category = winner.category
    name = category.label
    if winner.key == loser.key:
        if naturals[0] != naturals[1]:
            return (
                f"both {describe(winner)}; a natural hand and a wild hand "
                "of equal value draw"
            )
        if not rules.suits:
            return f"both {describe(winner)}"
        return f"both {describe(winner)}; suits never break ties"
    if category.straight:
        note = " (the ace plays low in 5-4-3-2-A)" if loser.key[0] == 5 else ""
        return (
            f"both {name}; the top card decides, "
            f"{winner.key[0].short} beats {loser.key[0].short}{note}"
        )
    groups = winner.groups
    step = next(i for i, (w, l) in enumerate(zip(winner.key, loser.key)) if w != l)
    shared = [r.plural for r, n in groups[:step] if n > 1]
    both = f"both {name}" + (f" of {_and(shared)}" if shared else "")
    size = groups[step][1]
    w, l = winner.key[step], loser.key[step]
    if size == 1:
        position = sum(n for _, n in groups[:step])
        return f"{both}; the {_ORDINALS[position]} card decides, {w.short} beats {l.short}"
    noun = _GROUP_NOUNS[size]
    if sum(1 for _, n in groups if n == size) > 1:  # two pair
        noun = ("higher " if step == 0 else "lower ") + noun
    return f"{both}; the {noun} decides, {w.plural} beat {l.plural}"


def _hands(indices: Sequence[int]) -> str:
    numbers = [i + 1 for i in indices]
    if len(numbers) == 1:
        return f"Hand {numbers[0]}"
    return "Hands " + _and(numbers)


def explain_showdown(
    classes: Sequence[HandClass],
    order: Sequence[Sequence[int]],
    *,
    rules: RuleSet,
    naturals: Sequence[bool] | None = None,
) -> str:
    """The explanation of a showdown, from the hands' classes (0-based
    ``order``, best first, ties grouped) and whether each hand is natural."""
    natural = list(naturals) if naturals is not None else [True] * len(classes)

    def why(a: int, b: int) -> str:
        return explain_classes(classes[a], classes[b], rules=rules, naturals=(natural[a], natural[b]))

    winners = order[0]
    if len(winners) > 1:
        if len(winners) < len(classes):
            head = f"{_hands(winners)} split"
        elif len(winners) == 2:
            head = "Draw"
        else:
            head = f"Draw between all {len(winners)} hands"
        text = f"{head}: {why(winners[0], winners[1])}"
    else:
        text = f"{_hands(winners)} wins"
    if len(order) > 1:
        runner_up = order[1]
        reason = why(winners[0], runner_up[0])
        if len(classes) > 2:
            reason += f" (next best: {_hands(runner_up).lower()})"
        text += ("; " if len(winners) > 1 else ": ") + reason
    return text
