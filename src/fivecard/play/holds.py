"""A solved strategy as players read it: a ranked hold list.

A solution (:func:`fivecard.play.strategy.starting_hands`,
:func:`fivecard.play.dealer.dealer_hands`) gives the best hold of every
class of starting hands. Players learn it as a short list of kinds of holds,
best first: "Pat Royal Flush; 4 to a Royal Flush; ... High pair (J or
better); ... Discard everything". :func:`describe_hold` names what a hold
keeps in those words, from the cards and the rule set's data (its ladder,
ranks, straights, suits and wild cards); :func:`hold_list` groups the
classes by the name of their best hold, weighs them by their deals and
ranks the groups by their mean value.

>>> from fivecard.core.cards import parse_cards
>>> from fivecard.core.rules import STANDARD
>>> from fivecard.play.paytables import JACKS_OR_BETTER
>>> describe_hold(parse_cards('KS QS JS TS'), STANDARD, JACKS_OR_BETTER)
'4 to a Royal Flush'
>>> describe_hold(parse_cards('7D 7C'), STANDARD, JACKS_OR_BETTER)
'Low pair (2 to 10)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from ..core.cards import Card, Rank, format_cards
from ..core.evaluate import evaluate
from ..core.lang import ENGLISH, Language, LangLike, language
from ..core.words import category_name, rank_letter, rank_name
from ..core.rules import RuleSet
from .paytables import PayTable

__all__ = ["describe_hold", "hold_list", "HoldLine", "HoldList", "COUNT_WORDS", "straight_windows"]

#: Counts as words, for "Two wild cards" (a strategy chart says them too).
COUNT_WORDS: Final = ("No", "One", "Two", "Three", "Four", "Five")
_KINDS: Final = {3: "three_of_a_kind", 4: "four_of_a_kind", 5: "five_of_a_kind"}


def describe_hold(
    kept: Sequence[Card], rules: RuleSet, paytable: PayTable | None = None, lang: LangLike = None
) -> str:
    """What a hold keeps, in players' words: ``Pat Flush`` (all five),
    ``Discard everything`` (none), a made hand among the kept cards
    (``Three of a Kind``, ``Two Pair``, ``High pair (J or better)`` under a
    pay table with a lowest paying pair, ``Pair of Aces`` without a pay
    table), a draw (``4 to a Royal Flush``, ``3 to a Straight Flush``,
    ``4 to a Flush``, ``4 to an outside Straight``: two ranks complete it,
    ``4 to an inside Straight``: one), else the ranks kept (``K Q J
    unsuited``, ``Q J suited``, ``A alone``). Wild cards kept come first
    (``One wild card: 4 to a Royal Flush``; the draw or made hand counts
    them). Lowball rules: ``Pat Seven low``, ``4 to a Seven low`` (by the
    highest card kept). Only names the rule set allows: no flush draws
    without suits, straights by the deck's own (A-6-7-8-9 in a short deck).
    Said in ``lang`` (default English).

    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import DEUCES_WILD, SHORT_DECK
    >>> describe_hold(parse_cards('2C KS QS JS'), DEUCES_WILD, None)
    'One wild card: 4 to a Royal Flush'
    >>> describe_hold(parse_cards('6D 7S 8S 9H'), SHORT_DECK, None)
    '4 to an outside Straight'
    >>> describe_hold(parse_cards('2C KS QS JS'), DEUCES_WILD, None, 'ru')
    '1 дикая карта: 4 карты к комбинации Роял-флеш'
    """
    words = language(lang)
    cards = tuple(kept)
    if not cards:
        return words.phrase("Discard everything", "play")
    if rules.low:
        return _lowball(cards, rules, words)
    wild = sum(1 for c in cards if rules.is_wild(c))
    naturals = tuple(c for c in cards if not rules.is_wild(c))
    if len(cards) == 5:
        made = evaluate(cards, rules=rules)
        rest = words.phrase("Pat {hand}", "play", hand=category_name(made.category_id, made.label, words))
    elif not naturals:
        rest = ""
    else:
        rest = _made_or_drawn(naturals, wild, len(cards), rules, paytable, words)
    if not wild:
        return rest
    word = COUNT_WORDS[wild] if words is ENGLISH else str(wild)
    count = words.phrase_n("{word} wild card", "{word} wild cards", wild, "play", word=word)
    return words.phrase("{wilds}: {hold}", "play", wilds=count, hold=rest) if rest else count


def _labels(rules: RuleSet, lang: Language) -> dict[str, str]:
    """The ladder's labels by machine name, in ``lang``."""
    return {c.name: category_name(c.name, c.label, lang) for c in rules.ladder}


def _spelled(ranks: Sequence[Rank], lang: Language) -> str:
    return " ".join(rank_letter(r, lang) for r in ranks)


def _made_or_drawn(
    naturals: tuple[Card, ...], wild: int, kept: int, rules: RuleSet, paytable: PayTable | None, lang: Language
) -> str:
    """The name of fewer than five kept cards (at least one natural): a
    group of a kind, a straight or flush draw, a pair, or the ranks."""
    labels = _labels(rules, lang)
    groups = Counter(c.rank for c in naturals)
    ranked = sorted(groups.items(), key=lambda g: (g[1], g[0] or 0), reverse=True)
    top_rank, top_count = ranked[0]
    kind = labels.get(_KINDS.get(top_count + wild, ""), "")
    if kind and top_count + wild == kept:
        return kind  # every card kept makes it
    draw = _draw(naturals, kept, rules, lang)
    if draw or kind:  # a draw that uses every card kept, else the group with a kicker
        return draw or kind
    if top_count == 2:  # no wild card kept (else three of a kind)
        if len(ranked) > 1 and ranked[1][1] == 2:
            return labels["two_pair"]
        assert top_rank is not None
        return _pair(top_rank, rules, paytable, labels, lang)
    spelled = _spelled([r for r, _ in sorted(groups.items(), key=lambda g: g[0] or 0, reverse=True) if r], lang)
    if len(naturals) == 1:
        return lang.phrase("{ranks} alone", "play", ranks=spelled) if not wild else spelled
    if not rules.suits:
        return spelled
    if len({c.suit for c in naturals}) == 1:
        return lang.phrase("{ranks} suited", "play", ranks=spelled)
    return lang.phrase("{ranks} unsuited", "play", ranks=spelled)


def _pair(rank: Rank, rules: RuleSet, paytable: PayTable | None, labels: dict[str, str], lang: Language) -> str:
    """A natural pair: high or low by the pairs the pay table pays (``High
    pair (J or better)``, ``Low pair (2 to 10)``; ``Pair of Aces`` where
    only one rank pays); by its rank without a pay table; the ladder's
    label when the table pays every pair or none."""
    if paytable is None:
        return lang.phrase("Pair of {ranks}", "play", ranks=rank_name(rank, lang, plural=True))
    paying = paytable.paying_pairs & frozenset(rules.ranks)
    if not paying or paying == frozenset(rules.ranks):
        return labels["one_pair"]
    least = min(paying)
    low = sorted(r for r in rules.ranks if r not in paying)
    if rank in paying:
        if len(paying) == 1:
            return lang.phrase("Pair of {ranks}", "play", ranks=rank_name(rank, lang, plural=True))
        return lang.phrase("High pair ({rank} or better)", "play", rank=rank_letter(least, lang))
    if len(paying) == 1:
        return lang.phrase("Low pair ({low} to {high})", "play", low=rank_letter(low[0], lang), high=rank_letter(low[-1], lang))
    below = max(r for r in rules.ranks if r < least)
    return lang.phrase("Low pair ({low} to {high})", "play", low=rank_letter(min(rules.ranks), lang), high=rank_letter(below, lang))


def straight_windows(rules: RuleSet) -> list[tuple[int, frozenset[int]]]:
    """The deck's straights: each one's top card and ranks (the wheel, the
    ace low, topped by :attr:`~fivecard.core.rules.RuleSet.wheel_top`)."""
    ranks = sorted(int(r) for r in rules.ranks)
    found = [
        (ranks[i + 4], frozenset(ranks[i : i + 5]))
        for i in range(len(ranks) - 4)
        if ranks[i + 4] - ranks[i] == 4
    ]
    if rules.wheel_top is not None:
        found.append((int(rules.wheel_top), frozenset([int(Rank.ACE), *ranks[:4]])))
    return found


def _draw(naturals: tuple[Card, ...], kept: int, rules: RuleSet, lang: Language = ENGLISH) -> str:
    """A straight or flush draw of 3 or 4 kept cards (wild cards fill
    gaps), as the ladder names it; empty when there is none."""
    if kept < 3:
        return ""
    ranks = frozenset(int(c.rank) for c in naturals if c.rank is not None)
    if len(ranks) < len(naturals):
        return ""
    windows = [(top, w) for top, w in straight_windows(rules) if ranks <= w]
    suited = rules.suits and len({c.suit for c in naturals}) == 1
    if suited:
        for category in sorted(rules.ladder, key=lambda c: c.top is None):  # the royal first
            if not (category.straight and category.flush):
                continue
            fits = [w for top, w in windows if category.top is None or top == category.top]
            if fits:
                return lang.phrase("{n} to a {hand}", "play", n=kept, hand=category_name(category.name, category.label, lang))
        flush = [c for c in rules.ladder if c.flush and not c.straight]
        if flush:
            return lang.phrase("{n} to a {hand}", "play", n=kept, hand=category_name(flush[0].name, flush[0].label, lang))
    straight = [c for c in rules.ladder if c.straight and not c.flush]
    if kept == 4 and windows and straight:
        # a natural rank completes it when the kept ranks and it fit a straight, wild cards the rest
        completing = {
            r
            for r in rules.ranks
            for _, w in windows
            if int(r) not in ranks and ranks | {int(r)} <= w and rules.natural_count(r)
        }
        hand = category_name(straight[0].name, straight[0].label, lang)
        if len(completing) >= 2:
            return lang.phrase("4 to an outside {hand}", "play", hand=hand)
        return lang.phrase("4 to an inside {hand}", "play", hand=hand)
    return ""


def _lowball(cards: tuple[Card, ...], rules: RuleSet, lang: Language = ENGLISH) -> str:
    """A lowball hold by its highest card (``4 to a Seven low``), a pat hand
    by its category (``Pat Seven low``, ``Pat One Pair``)."""
    if len(cards) == 5:
        evaluation = evaluate(cards, rules=rules)
        if evaluation.category.named:
            return lang.phrase("Pat {hand}", "play", hand=category_name(evaluation.category_id, evaluation.label, lang))
        return lang.phrase("Pat {rank} low", "play", rank=rank_name(_highest(cards, rules), lang))
    if len({c.rank for c in cards}) < len(cards):
        groups = Counter(c.rank for c in cards)
        rank, count = max(groups.items(), key=lambda g: (g[1], rules.rank_value(g[0] or 0)))
        assert rank is not None
        ranks = rank_name(rank, lang, plural=True)
        if count == 2:
            return lang.phrase("{n} cards with a pair of {ranks}", "play", n=len(cards), ranks=ranks)
        word = COUNT_WORDS[count].lower() if lang is ENGLISH else str(count)
        return lang.phrase("{n} cards with {word} {ranks}", "play", n=len(cards), word=word, ranks=ranks)
    highest = _highest(cards, rules)
    if len(cards) == 1:
        return lang.phrase("{ranks} alone", "play", ranks=rank_letter(highest, lang))
    if highest.word[0] in "AE":
        return lang.phrase("{n} to an {rank} low", "play", n=len(cards), rank=rank_name(highest, lang))
    return lang.phrase("{n} to a {rank} low", "play", n=len(cards), rank=rank_name(highest, lang))


def _highest(cards: tuple[Card, ...], rules: RuleSet) -> Rank:
    return max((c.rank for c in cards if c.rank is not None), key=rules.rank_value)


class _Held(Protocol):
    """What :func:`hold_list` reads of a class of starting hands
    (:class:`~fivecard.play.strategy.StartingHand`,
    :class:`~fivecard.play.dealer.DealerHand`)."""

    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def deals(self) -> int: ...
    @property
    def hold(self) -> tuple[Card, ...]: ...
    @property
    def value(self) -> float: ...


@dataclass(frozen=True, slots=True)
class HoldLine:
    """One line of the ranked hold list: the kind of hold (``description``),
    how many deals have it as their best hold and their ``share`` of all
    deals, the lowest, mean (weighed by deals) and highest value of those
    deals' best hold, and an ``example``: one class's cards and its hold
    (the class with the most deals)."""

    description: str
    deals: int
    share: float
    value_low: float
    value_mean: float
    value_high: float
    example: tuple[tuple[Card, ...], tuple[Card, ...]]

    def to_json(self) -> dict[str, object]:
        """The line as ``fivecard strategy --json --holds N`` gives it:
        ``hold`` (the description), ``deals``, ``share``, ``mean``, ``low``
        and ``high``."""
        return {
            "hold": self.description,
            "deals": self.deals,
            "share": self.share,
            "mean": self.value_mean,
            "low": self.value_low,
            "high": self.value_high,
        }


@dataclass(frozen=True, slots=True)
class HoldList:
    """The first ``lines`` of a ranked hold list (:func:`hold_list`), of
    ``of`` lines in all; ``value`` says in words what a hold's value is
    (the return per coin under a pay table, win - lose against the
    dealer)."""

    lines: tuple[HoldLine, ...]
    of: int
    value: str

    @classmethod
    def ranked(
        cls, hands: Sequence[_Held], rules: RuleSet, paytable: PayTable | None = None, count: int = -1
    ) -> HoldList:
        """The first ``count`` lines (-1: all) of the ranked hold list of
        ``hands`` (the strategy of a pay table, or without one of the game
        against the dealer)."""
        lines = hold_list(hands, rules, paytable)
        value = "the return per coin" if paytable is not None else "win - lose"
        return cls(tuple(lines if count < 0 else lines[:count]), len(lines), value)

    def to_json(self) -> list[dict[str, object]]:
        """Each line's :meth:`HoldLine.to_json`."""
        return [line.to_json() for line in self.lines]

    def text(self) -> str:
        """The list as a table after a blank line and a title: rank, hold,
        share of deals, mean value (range), an example deal and its hold."""
        shown = f"{len(self.lines)} of {self.of}" if len(self.lines) < self.of else f"all {self.of}"
        title = f"ranked hold list ({shown} kinds of hold, best mean value first; the value is {self.value}):"
        rows = [
            (
                str(place),
                line.description,
                f"{line.share:.4%}",
                f"{line.value_mean:.4f} ({line.value_low:.4f} to {line.value_high:.4f})",
                f"{format_cards(line.example[0], ascii=True)}: keep {format_cards(line.example[1], ascii=True) or 'none'}",
            )
            for place, line in enumerate(self.lines, 1)
        ]
        head = ("rank", "hold", "share of deals", "mean value (range)", "example")
        widths = [max(len(row[i]) for row in [head, *rows]) for i in range(4)]
        table = [
            f"{r[0]:>{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]:<{widths[3]}}  {r[4]}".rstrip()
            for r in [head, *rows]
        ]
        return "\n" + "\n".join([title, *table]) + "\n"


def hold_list(hands: Sequence[_Held], rules: RuleSet, paytable: PayTable | None = None) -> list[HoldLine]:
    """The ranked hold list of a strategy: the classes of starting hands
    grouped by :func:`describe_hold` of their best hold, best mean value
    first (the return per coin under a pay table, win - lose against the
    dealer)."""
    names: dict[tuple[tuple[int, int, bool], ...], str] = {}
    groups: dict[str, list[_Held]] = {}
    for hand in hands:
        key = _shape(hand.hold, rules)
        name = names.get(key)
        if name is None:
            name = names[key] = describe_hold(hand.hold, rules, paytable)
        groups.setdefault(name, []).append(hand)
    total = sum(h.deals for h in hands)
    lines = []
    for name, members in groups.items():
        deals = sum(h.deals for h in members)
        mean = sum(h.value * h.deals for h in members) / deals
        example = max(members, key=lambda h: h.deals)
        lines.append(
            HoldLine(
                name,
                deals,
                deals / total,
                min(h.value for h in members),
                mean,
                max(h.value for h in members),
                (example.cards, example.hold),
            )
        )
    lines.sort(key=lambda line: (-line.value_mean, line.description))
    return lines


def _shape(kept: tuple[Card, ...], rules: RuleSet) -> tuple[tuple[int, int, bool], ...]:
    """What :func:`describe_hold` reads of a hold: the ranks, the suits
    renamed in order of first appearance, which cards are wild."""
    suits: dict[object, int] = {}
    shape = []
    for card in sorted(kept, key=lambda c: c.sort_key):
        suit = suits.setdefault(card.suit, len(suits))
        shape.append((int(card.rank or 0), suit, rules.is_wild(card)))
    return tuple(shape)
