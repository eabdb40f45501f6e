"""A strategy a person can follow: a hand-rank chart derived from a solved
pay table, and its exact return when played.

A chart is a list of lines, best first: "4 to a Royal Flush", "High pair (J
or better)", "3 to a Straight Flush (1 high card, fits 2 straights)", ...,
"Discard everything". Each line names a kind of hold in players' words
(:func:`~fivecard.play.holds.describe_hold`'s names; :func:`hold_pattern`
adds the kickers kept beside a made hand, the classes of ranks and kickers
the pay table pays apart ("Pair of Aces", "Three Aces with a 2, 3 or 4
kicker", "Four 2s, 3s or 4s"), the high cards a draw keeps where
a lowest paying pair makes them count, and how many of the deck's
straights a straight flush draw fits), or several kinds alike ("A K, A Q or
A J unsuited", "Pat Straight Flush (1 or 2 wild cards)"). An exception line
asks what the discards hold (:func:`discard_attributes`): a *flush
penalty card* (a discarded card of the kept cards' suit), a *straight
penalty card* (a discarded card of another rank that fits a straight with
the kept ones) or a discarded high card (a rank that pays as a pair).

**Playing the chart** (:func:`play_chart`, :meth:`StrategyChart.hold`). Of
a deal's 32 holds, keep one that the first line fitting any of them fits.
When that line fits two holds, keep the fewer cards (a pair without a
kicker), then the higher cards (the highest kept card first, then the
next); when their ranks are alike too, the cards first in the deck
(spades, hearts, diamonds, clubs). The chart never looks at a hold's
value.

**Deriving it** (:func:`strategy_chart`). Every hold of every class of
deals (:attr:`~fivecard.play.strategy.PayTableSolution.values`, exact) is
named once per kept-card shape (ranks, suits renamed in order of
appearance, wild cards), and its discards' attributes found for all
classes at once; a matrix of classes x holds, columns in the tie order
above, holds each hold's line and value, so that playing a chart over every
class is one vectorised pass. The first order is a tournament: line *a*
beats line *b* by the value given up in the deals whose best hold is *a*'s
and where *b* fits; the lines are taken in turn, the one least beaten by
those left first (a topological order where the tournament has no cycle).
Then each line in turn moves to the place where the chart returns most
(every place judged at once: a class follows the moved line exactly when
it sits above the class's next choice) or leaves the chart, until no move
gains. For readability, the cheapest merges (two lines of one name, or
kinds of hold alike) and removals follow until the simple chart is short
enough. Exceptions last: where the chart loses most, by the pair of lines
chosen and best, a line is split by an attribute of the discards and both
parts placed anew, while a split gains and the chart stays short. A chart
still more than 0.1% short of perfect play gives the lines its exceptions
left unused to its simple chart, derived again.

The return is exact: a hold's value times its draws, ``C(n - 5, 5 - k)``,
is a whole number, so a chart's return is a :class:`~fractions.Fraction`
(:func:`play_classes` plays any chart over every class).
"""

from __future__ import annotations

import copy
import heapq
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from fractions import Fraction
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.cards import Card, Rank, Suit, format_cards
from ..core.errors import FivecardError, quote
from ..core.rules import RuleSet
from ..vector import batch
from ..vector.classes import HOLDS, KEPT, mean_over_deals
from .holds import COUNT_WORDS, describe_hold, straight_windows
from .paytables import PayTable, builtin_paytable, spell_ranks
from .strategy import PayTableSolution

__all__ = [
    "ATTRIBUTES",
    "CHART_COLUMNS",
    "ChartLine",
    "StrategyChart",
    "discard_attributes",
    "hold_pattern",
    "play_chart",
    "play_classes",
    "shipped_chart",
    "strategy_chart",
]

#: The attributes of a hold's discards an exception line may ask for:
#: a card of the kept cards' suit, a card that fits a straight with the
#: kept cards, a card of a paying pair's rank.
ATTRIBUTES: Final = ("flush_penalty", "straight_penalty", "high_card")
#: The columns of :meth:`StrategyChart.rows`.
CHART_COLUMNS: Final = ("chart", "line", "hold", "deals", "share", "mean_value")

_DISCARD_ALL: Final = "Discard everything"
_Ints = npt.NDArray[np.int64]
_RANK_WORDS: Final = [r.short for r in sorted(Rank)]
# the ranks kept of a hold that makes nothing and draws to nothing, after any wild cards kept:
# "K Q suited", "9 alone", "One wild card: 9" (a wild card beside one natural card says no "alone")
_RANKS_KEPT: Final = re.compile(
    r"^((?:[A-Z][a-z]+ wild cards?: )?)((?:[2-9AKQJ]|10)(?: (?:[2-9AKQJ]|10))*)(?: (suited|unsuited|alone))?$"
)
_FAMILY_MOST: Final = 4  # kinds of high cards on one line
_CLOSE: Final = Fraction(1, 1000)  # a chart this near perfect play spends no unused exception lines
_BIG: Final = 1 << 20  # the place of a line not in the chart
_DRAW: Final = re.compile(r"^(\d) to an? (?:(?:outside|inside) )?(.+)$")
# per mask, of holds of one size: the smaller, the earlier its cards in the deck (compared in order)
_DECK_FIRST: Final = np.array([-sum(1 << (4 - i) for i in h) for h in HOLDS], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class ChartLine:
    """A line of a chart: its kind of hold as people read it (``name``),
    the hold patterns it covers (:func:`hold_pattern`'s), the attributes
    its discards must have or lack (``conditions``: pairs of an
    :data:`ATTRIBUTES` name and whether), and what it decides when the
    chart is played over every deal: ``deals`` (and their ``share`` of all
    deals) whose hold this line chooses, and the mean value of those
    holds."""

    name: str
    patterns: tuple[str, ...]
    conditions: tuple[tuple[str, bool], ...] = ()
    deals: int = 0
    share: float = 0.0
    mean_value: float = 0.0

    def describe(self, paytable: PayTable | None = None) -> str:
        """The line as a person reads it: ``3 to a Royal Flush, with a
        flush penalty card``."""
        if not self.conditions:
            return self.name
        return f"{self.name}, " + " and ".join(_condition_text(a, on, paytable) for a, on in self.conditions)

    def fits(self, pattern: str, attributes: dict[str, bool]) -> bool:
        """Whether the line fits a hold of this pattern whose discards have
        these attributes."""
        return pattern in self.patterns and all(attributes[a] == on for a, on in self.conditions)


def _condition_text(attribute: str, on: bool, paytable: PayTable | None) -> str:
    if attribute == "flush_penalty":
        return "with a flush penalty card" if on else "no flush penalty card"
    if attribute == "straight_penalty":
        return "with a straight penalty card" if on else "no straight penalty card"
    least = paytable.lowest_pair.short if paytable is not None and paytable.lowest_pair is not None else "high"
    return f"discarding a {least} or better" if on else f"discarding no {least} or better"


@dataclass(frozen=True, slots=True)
class StrategyChart:
    """A hand-rank chart of a pay table (:func:`strategy_chart`): ``lines``
    best first (with its exceptions), ``simple`` the chart without
    exception lines, the exact return of playing each over every deal
    (``chart_return``, ``simple_return``) and of perfect play
    (``optimum``)."""

    paytable: PayTable
    rules: RuleSet
    lines: tuple[ChartLine, ...]
    simple: tuple[ChartLine, ...]
    chart_return: Fraction
    simple_return: Fraction
    optimum: Fraction
    deals: int

    def hold(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The cards the chart keeps of a five-card deal (by the rule of
        :mod:`the module <fivecard.play.chart>`)."""
        return play_chart(self.lines, cards, self.rules, self.paytable)

    def text(self) -> str:
        """The chart as numbered lines, each with how often it decides,
        then the returns."""
        return _chart_text(self)

    def to_json(self) -> dict[str, object]:
        """Plain JSON values: the pay table, the lines (``hold``,
        ``conditions``, ``deals``, ``share``, ``mean_value``) with and
        without exceptions, and each return as ``percent`` and ``fraction``
        (exact)."""

        def ret(value: Fraction) -> dict[str, object]:
            return {"percent": float(value * 100), "fraction": f"{value.numerator}/{value.denominator}"}

        def lines(chosen: tuple[ChartLine, ...]) -> list[dict[str, object]]:
            return [
                {
                    "hold": line.describe(self.paytable),
                    "patterns": list(line.patterns),
                    "conditions": {a: on for a, on in line.conditions},
                    "deals": line.deals,
                    "share": line.share,
                    "mean_value": line.mean_value,
                }
                for line in chosen
            ]

        return {
            "paytable": self.paytable.title,
            "rules": self.rules.name,
            "deals": self.deals,
            "lines": lines(self.lines),
            "return": ret(self.chart_return),
            "simple_lines": lines(self.simple),
            "simple_return": ret(self.simple_return),
            "optimum": ret(self.optimum),
        }

    def card_json(self) -> dict[str, object]:
        """What a printed strategy card shows, as plain JSON values: the
        table's id (``name``), ``title``, most ``coins`` and ``pays`` (per
        line: its ``line`` as people read it, what it ``pays`` per coin at
        the most coins and, where it differs, ``below_max``), then
        :meth:`to_json`, then the ``glossary`` (:meth:`glossary`). The
        shipped charts are these (:func:`shipped_chart`)."""
        entries = [
            {
                "line": self.paytable.entry_label(entry.key, self.rules),
                "pays": entry.pays,
                **({} if entry.below_max is None else {"below_max": entry.below_max}),
            }
            for entry in self.paytable.entries
        ]
        head: dict[str, object] = {
            "id": self.paytable.name,
            "title": self.paytable.title,
            "coins": self.paytable.coins,
            "pays": entries,
        }
        return {**head, **self.to_json(), "glossary": self.glossary()}

    def rows(self) -> list[tuple[str, int, str, int, float, float]]:
        """A row per line (:data:`CHART_COLUMNS`): which chart (``with
        exceptions`` or ``simple``), the line's number, its hold, the deals
        it decides, their share and the mean value of its holds."""
        return [
            (name, place, line.describe(self.paytable), line.deals, line.share, line.mean_value)
            for name, chosen in (("with exceptions", self.lines), ("simple", self.simple))
            for place, line in enumerate(chosen, 1)
        ]

    def glossary(self) -> list[str]:
        """What the words of the chart's lines mean, one sentence each, for
        the words its lines use: high cards, fits N straights, the penalty
        cards."""
        words = " ".join(line.describe(self.paytable) for line in self.lines)
        found = []
        if "high card" in words and self.paytable.lowest_pair is not None:
            found.append(f"High cards: {self.paytable.lowest_pair.short} or better.")
        if "straights)" in words or "straight)" in words:
            found.append(
                "Fits N straights: how many of the deck's straights (the wheel too) hold every natural rank kept"
                + (", of those a wild rank does not break." if self.rules.wild_indices else ".")
            )
        if "flush penalty" in words:
            found.append("Flush penalty card: a discarded card of the suit of the cards kept.")
        if "straight penalty" in words:
            found.append(
                "Straight penalty card: a discarded card of another rank that fits a straight with the cards kept."
            )
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any], paytable: PayTable) -> StrategyChart:
        """The chart :meth:`to_json` wrote for ``paytable``, rebuilt (each
        line's name is its ``hold`` without the words of its conditions); a
        :class:`~fivecard.core.errors.FivecardError` when ``data`` is not
        such a chart."""
        try:
            rules = paytable.rules_to_play(str(data["rules"]))
            if data["paytable"] != paytable.title:
                raise FivecardError(f"a chart of {quote(str(data['paytable']))}, not of {quote(paytable.title)}")
            return cls(
                paytable,
                rules,
                tuple(_line_of_json(line, paytable) for line in data["lines"]),
                tuple(_line_of_json(line, paytable) for line in data["simple_lines"]),
                _fraction_of_json(data["return"]),
                _fraction_of_json(data["simple_return"]),
                _fraction_of_json(data["optimum"]),
                int(data["deals"]),
            )
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
            if isinstance(exc, FivecardError):
                raise
            raise FivecardError(f"not a strategy chart of {quote(paytable.title)}: {exc!r}") from None


def _line_of_json(data: Mapping[str, Any], paytable: PayTable) -> ChartLine:
    conditions = tuple((str(a), bool(on)) for a, on in dict(data["conditions"]).items())
    if any(a not in ATTRIBUTES for a, _ in conditions):
        raise FivecardError(f"unknown condition in {quote(str(data['conditions']))}")
    hold = str(data["hold"])
    suffix = ChartLine("", (), conditions).describe(paytable) if conditions else ""
    if not hold.endswith(suffix):
        raise FivecardError(f"the line {quote(hold)} does not end in its conditions {quote(suffix)}")
    return ChartLine(
        hold[: len(hold) - len(suffix)],
        tuple(str(p) for p in data["patterns"]),
        conditions,
        int(data["deals"]),
        float(data["share"]),
        float(data["mean_value"]),
    )


def _fraction_of_json(data: Mapping[str, Any]) -> Fraction:
    numerator, _, denominator = str(data["fraction"]).partition("/")
    return Fraction(int(numerator), int(denominator))


def _chart_text(chart: StrategyChart) -> str:
    width = len(str(len(chart.lines)))
    texts = [line.describe(chart.paytable) for line in chart.lines]
    pad = max(len(t) for t in texts)
    out = [
        f"{chart.paytable.title} under {chart.rules.name}: a strategy chart, best line first.",
        "Keep the cards of the first line that fits a hold of the deal; when it fits two holds,",
        "keep the fewer cards, then the higher cards.",
    ]
    for place, (line, text) in enumerate(zip(chart.lines, texts), 1):
        out.append(f"{place:>{width}}. {text:<{pad}}  decides {line.share:7.3%} of deals")
    out += chart.glossary()
    exceptions = sum(1 for line in chart.lines if line.conditions)
    out += [
        f"return of this chart ({len(chart.lines)} lines, {exceptions} of them exceptions): "
        f"{float(chart.chart_return * 100):.4f}%",
        f"return of the chart without exceptions ({len(chart.simple)} lines): "
        f"{float(chart.simple_return * 100):.4f}%",
        f"return of perfect play: {float(chart.optimum * 100):.4f}%",
    ]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- one hand


@dataclass(frozen=True, slots=True)
class _Pattern:
    """A hold's pattern: :func:`describe_hold`'s name (``base``, with the
    kickers kept beside a made hand), and for a draw the high cards kept
    and the straights a straight flush draw fits, where they count."""

    base: str
    high: int | None = None
    fits: int | None = None
    # a pair or group of a kind named by its class of ranks: the class, the name with "{}" for the
    # class's words, whether a pair (then the paying pairs' ranks): how a line of several classes is named
    group: frozenset[Rank] | None = None
    form: str = ""
    pair: bool = False
    paying: frozenset[Rank] = frozenset()

    @property
    def text(self) -> str:
        notes = []
        if self.high is not None:
            notes.append(f"{self.high} high card{'' if self.high == 1 else 's'}")
        if self.fits is not None:
            notes.append(f"fits {self.fits} straight{'' if self.fits == 1 else 's'}")
        return f"{self.base} ({', '.join(notes)})" if notes else self.base


def hold_pattern(kept: Sequence[Card], rules: RuleSet, paytable: PayTable | None) -> str:
    """A hold's pattern on a chart: :func:`describe_hold`'s name; a made
    hand kept with other cards says so (``High pair (J or better) with 1
    kicker``); a draw to a straight or flush says the high cards it keeps
    (under a pay table with a lowest paying pair), and a straight flush
    draw how many of the deck's straights hold its natural ranks, of those
    whose every rank has natural cards (``3 to a Straight Flush (1 high
    card, fits 2 straights)``; under deuces wild a straight through the
    deuce is none of them, and a straight draw says it too, as
    ``4 to an inside Straight (fits 0 straights)`` for A 3 4 5). Where the
    pay table pays four or five of a kind by rank or kicker, or pairs
    other than by whether they pay, a pair, three, four or five of a kind
    says its class of ranks and its kicker's (``Three Aces with a 2, 3 or 4
    kicker``, ``Low pair (2 to 4)``).

    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import STANDARD
    >>> from fivecard.play.paytables import JACKS_OR_BETTER
    >>> hold_pattern(parse_cards('9H TH JH'), STANDARD, JACKS_OR_BETTER)
    '3 to a Straight Flush (1 high card, fits 3 straights)'
    >>> hold_pattern(parse_cards('KH KD 7S'), STANDARD, JACKS_OR_BETTER)
    'High pair (J or better) with 1 kicker'
    """
    return _pattern(kept, rules, paytable).text


def _pattern(kept: Sequence[Card], rules: RuleSet, paytable: PayTable | None) -> _Pattern:
    name = describe_hold(kept, rules, paytable)
    draw = _DRAW.match(name.rpartition(": ")[2])
    category = None if draw is None else next((c for c in rules.ladder if c.label == draw.group(2)), None)
    if category is None:
        grouped = _grouped(name, kept, rules, paytable) if paytable is not None else None
        return grouped or _Pattern(_with_kickers(name, kept, rules))
    naturals = [c for c in kept if not rules.is_wild(c)]
    high = None
    if paytable is not None and paytable.lowest_pair is not None:
        high = sum(1 for c in naturals if c.rank is not None and c.rank >= paytable.lowest_pair)
    fits = None
    natural = _natural_windows(rules)
    wild = len(naturals) < len(kept)
    some = len(natural) < len(straight_windows(rules))
    if category.straight and category.top is None and ("side" not in name or wild or some):
        # straight flush draws; straight draws too where a wild card is kept (it may fill several
        # gaps) or where a wild rank stops some straights
        ranks = {int(c.rank) for c in naturals if c.rank is not None}
        fits = sum(1 for window in natural if ranks <= window)
    return _Pattern(name, high, fits)


#: The made hands a pay table may pay by the rank of their group (see
#: :data:`~fivecard.play.paytables.GROUPED`): those of three cards or more.
_MADE_GROUPS: Final = ("three_of_a_kind", "full_house", "four_of_a_kind", "five_of_a_kind")
_MADE_WORDS: Final = {3: "Three", 4: "Four", 5: "Five"}
_BY_RANK: Final = ("four_of_a_kind", "five_of_a_kind")  # pat hands named by their ranks


@dataclass(frozen=True, slots=True)
class _Groups:
    """The ranks a pay table tells apart, as partitions of the natural
    ranks: of a group of three or more (``made``, by the "ranks" of the
    lines of three, four or five of a kind and full houses), of a pair
    (``pairs``: those and the paying pairs' ranks), and per group of
    ``made`` the kicker beside it (``kickers``, by the "kicker" of the
    lines whose ranks meet the group)."""

    made: tuple[frozenset[Rank], ...]
    pairs: tuple[frozenset[Rank], ...]
    kickers: dict[frozenset[Rank], tuple[frozenset[Rank], ...]]


def _partition(sets: Sequence[frozenset[Rank]], ranks: Sequence[Rank]) -> tuple[frozenset[Rank], ...]:
    """The ranks in classes by which of ``sets`` hold them, highest first."""
    classes: dict[tuple[bool, ...], set[Rank]] = {}
    for rank in ranks:
        classes.setdefault(tuple(rank in s for s in sets), set()).add(rank)
    return tuple(sorted((frozenset(c) for c in classes.values()), key=lambda c: -max(c)))


@cache
def _groups(paytable: PayTable, rules: RuleSet) -> _Groups:
    ranks = [r for r in sorted(rules.ranks) if rules.natural_count(r)]
    made_sets = [e.ranks for e in paytable.entries if e.hand in _MADE_GROUPS and e.ranks is not None]
    made = _partition(made_sets, ranks)
    paying = [e.ranks or frozenset(Rank) for e in paytable.entries if e.hand == "one_pair"]
    pairs = _partition([*made_sets, *paying], ranks)
    kickers = {
        group: _partition(
            [e.kicker for e in paytable.entries if e.kicker is not None and (e.ranks is None or e.ranks & group)],
            ranks,
        )
        for group in made
    }
    return _Groups(made, pairs, kickers)


def _class_of(rank: Rank, classes: Sequence[frozenset[Rank]]) -> frozenset[Rank]:
    return next(c for c in classes if rank in c)


def _run(ranks: frozenset[Rank]) -> tuple[Rank, Rank] | None:
    """The lowest and highest of ranks that follow each other, else None."""
    low, high = min(ranks), max(ranks)
    return (low, high) if int(high) - int(low) == len(ranks) - 1 else None


def _plural_words(ranks: frozenset[Rank]) -> str:
    """A class of ranks of a group of a kind: ``Aces``, ``2s, 3s or 4s``,
    ``5s through Kings``."""
    ordered = sorted(ranks)
    if len(ordered) <= 3:
        words = [_plural(r) for r in ordered]
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    run = _run(ranks)
    if run is not None:
        return f"{_plural(run[0])} through {_plural(run[1])}"
    return spell_ranks(ranks)


def _plural(rank: Rank) -> str:
    """As pay tables write ranks: ``Aces``, ``Kings``, ``2s``, ``10s``."""
    return rank.plural if rank >= Rank.JACK else f"{rank.short}s"


def _kicker_words(ranks: frozenset[Rank]) -> str:
    """A kicker of a class of ranks: ``a 2, 3 or 4 kicker``, ``an A-4
    kicker``, ``a 5-K kicker``."""
    ordered = sorted(ranks)
    if len(ordered) <= 3:
        shorts = [r.short for r in ordered]
        words = shorts[0] if len(shorts) == 1 else f"{', '.join(shorts[:-1])} or {shorts[-1]}"
    else:
        words = spell_ranks(ranks)
    return f"{'an' if words[0] in 'A8' else 'a'} {words} kicker"


def _grouped(name: str, kept: Sequence[Card], rules: RuleSet, paytable: PayTable) -> _Pattern | None:
    """A pair, three, four or five of a kind kept, named by the class of
    ranks the pay table tells apart (``Pair of Aces``, ``Low pair (2 to
    4)``, ``Three 2s, 3s or 4s``, ``One wild card: Four Aces``) and its
    kicker by the class the table tells apart beside that group (``Three
    Aces with a 2, 3 or 4 kicker``, ``Four Aces with a 5-K kicker``);
    ``None`` where the table tells no ranks apart but those of paying pairs
    (the names of :func:`describe_hold` and :func:`_with_kickers`)."""
    head, _, rest = name.rpartition(": ")
    prefix = f"{head}: " if head else ""
    naturals = [c.rank for c in kept if not rules.is_wild(c) and c.rank is not None]
    if not naturals:
        return None
    wild = len(kept) - len(naturals)
    counts = Counter(naturals)
    top_count = max(counts.values())
    top = max(r for r, n in counts.items() if n == top_count)
    others = [r for r in naturals if r != top]
    groups = _groups(paytable, rules)
    if top_count == 2 and not wild and len(set(others)) == len(others) and len(kept) < 5:
        ranks = frozenset().union(*groups.pairs)
        paying = paytable.paying_pairs & ranks
        if set(groups.pairs) <= {paying, ranks - paying, ranks}:
            return None  # high and low pairs alone: describe_hold's names
        group = _class_of(top, groups.pairs)
        form = "{}" + (f" with {len(others)} kicker{'' if len(others) == 1 else 's'}" if others else "")
        return _Pattern(form.format(_pair_words(group, paying)), group=group, form=form, pair=True, paying=paying)
    made = top_count + wild
    labels = {c.name: c.label for c in rules.ladder}
    kind = labels.get({3: "three_of_a_kind", 4: "four_of_a_kind", 5: "five_of_a_kind"}.get(made, ""))
    if not kind or rest not in (kind, f"Pat {kind}") or len(groups.made) <= 1:
        return None
    group = _class_of(top, groups.made)
    form = f"{prefix}{'Pat ' if len(kept) == 5 and not others else ''}{_MADE_WORDS[made]} {{}}"
    kickers = groups.kickers[group]
    if len(others) == 1 and len(kickers) > 1:
        found = _class_of(others[0], kickers)
        if len(group) == 1 and len(found) > 1:
            found = found - group  # an Ace beside Aces is no kicker
        form += f" with {_kicker_words(found)}"
    elif others:
        form += f" with {len(others)} kicker{'' if len(others) == 1 else 's'}"
    return _Pattern(form.format(_plural_words(group)), group=group, form=form)


def _pair_words(group: frozenset[Rank], paying: frozenset[Rank]) -> str:
    """A class of pairs: ``Pair of Aces``, ``High pair (J or better)``,
    ``High pair (J to K)``, ``Low pair (2 to 4)``; ``Pair of 3s, 4s or
    5s`` where no pair pays."""
    if len(group) == 1:
        return f"Pair of {_plural(next(iter(group)))}"
    run = _run(group)
    span = f"{run[0].short} to {run[1].short}" if run else spell_ranks(group)
    if not paying:
        return f"Pair of {_plural_words(group)}"
    if group == paying and run is not None and run[1] == max(Rank):
        return f"High pair ({run[0].short} or better)"
    if group <= paying:
        return f"High pair ({span})"
    return f"{'Low pair' if not group & paying else 'Pair'} ({span})"


def _group_text(pattern: _Pattern, group: frozenset[Rank]) -> str:
    """The name of ``pattern`` for another class of ranks (a line of several)."""
    return pattern.form.format(_pair_words(group, pattern.paying) if pattern.pair else _plural_words(group))


def _natural_windows(rules: RuleSet) -> list[frozenset[int]]:
    """The deck's straights whose every rank has natural cards (not the
    straights through the deuce under deuces wild)."""
    return [w for _, w in straight_windows(rules) if all(rules.natural_count(Rank(r)) for r in w)]


def _with_kickers(name: str, kept: Sequence[Card], rules: RuleSet) -> str:
    """A made hand (a pair, two pair, a group of a kind) kept with other
    cards: ``High pair (J or better) with 1 kicker``."""
    if len(kept) == 5:
        return name
    wild = sum(1 for c in kept if rules.is_wild(c))
    groups = sorted(Counter(c.rank for c in kept if not rules.is_wild(c)).values(), reverse=True)
    if not groups:
        return name
    if groups[0] + wild >= 3:
        core = groups[0] + wild
    elif groups[0] == 2:
        core = 4 if len(groups) > 1 and groups[1] == 2 else 2
    else:
        return name
    extra = len(kept) - core
    return f"{name} with {extra} kicker{'' if extra == 1 else 's'}" if extra > 0 else name


def discard_attributes(
    kept: Sequence[Card], discarded: Sequence[Card], rules: RuleSet, paytable: PayTable | None
) -> dict[str, bool]:
    """What the discards of a hold hold, by :data:`ATTRIBUTES`: a natural
    card of the suit of the kept natural cards (when they share one suit),
    a natural card of a rank not kept that fits one of the deck's straights
    with the kept ranks (when those are all different), a natural card of a
    paying pair's rank.

    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import STANDARD
    >>> from fivecard.play.paytables import JACKS_OR_BETTER
    >>> discard_attributes(parse_cards('QH JH'), parse_cards('9H 5C 2D'), STANDARD, JACKS_OR_BETTER)
    {'flush_penalty': True, 'straight_penalty': True, 'high_card': False}
    """
    naturals = [c for c in kept if not rules.is_wild(c)]
    thrown = [c for c in discarded if not rules.is_wild(c)]
    suits = {c.suit for c in naturals}
    flush = len(suits) == 1 and any(c.suit in suits for c in thrown)
    ranks = {int(c.rank) for c in naturals if c.rank is not None}
    straight = False
    if naturals and len(ranks) == len(naturals):
        fitting: set[int] = set()
        for _, window in straight_windows(rules):
            if ranks <= window:
                fitting |= window
        straight = any(c.rank is not None and int(c.rank) in fitting - ranks for c in thrown)
    least = paytable.lowest_pair if paytable is not None else None
    high = least is not None and any(c.rank is not None and c.rank >= least for c in thrown)
    return {"flush_penalty": flush, "straight_penalty": straight, "high_card": high}


def _tie_key(kept: Sequence[Card], places: Sequence[int]) -> tuple[int, int]:
    """Holds of one line, the first to keep first: fewer cards, then the
    higher ranks (the highest card first), then the cards first in the
    deck."""
    ranks = sorted((int(c.rank or 0) for c in kept), reverse=True)
    key = 5 - len(kept)  # fewer cards first
    for i in range(5):
        key = key * 16 + (ranks[i] if i < len(ranks) else 0)
    order = sum(1 << (63 - p) for p in places)  # the first cards in the deck: the larger
    return (-key, -order)


def play_chart(
    lines: Sequence[ChartLine], cards: Sequence[Card], rules: RuleSet, paytable: PayTable | None
) -> tuple[Card, ...]:
    """The hold a chart keeps of five cards: of the first line that fits
    any of the 32 holds, the hold with fewer cards, then the higher cards,
    then the cards first in the deck."""
    deck = rules.deck()
    where = {card: place for place, card in enumerate(deck)}
    hand = sorted(cards, key=lambda c: where[c])
    best: tuple[int, tuple[int, int], tuple[Card, ...]] | None = None
    for mask in range(32):
        kept = tuple(hand[i] for i in HOLDS[mask])
        thrown = tuple(c for i, c in enumerate(hand) if not mask >> i & 1)
        pattern = hold_pattern(kept, rules, paytable)
        attributes = discard_attributes(kept, thrown, rules, paytable)
        place = next((i for i, line in enumerate(lines) if line.fits(pattern, attributes)), None)
        if place is None:
            continue
        candidate = (place, _tie_key(kept, [where[c] for c in kept]), kept)
        if best is None or candidate[:2] < best[:2]:
            best = candidate
    if best is None:
        raise FivecardError(f"the chart fits none of the holds of {quote(format_cards(hand, ascii=True))}")
    return best[2]


# ---------------------------------------------------------------- every class


@dataclass(eq=False)
class _Holds:
    """Every hold of every class, the columns of each row in the tie order:
    its pattern (an index of ``patterns``), its discards' attributes (bits
    of :data:`ATTRIBUTES`), value and mask; the classes' deals; the column
    of each class's best hold."""

    kinds: npt.NDArray[np.int64]
    bits: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]
    masks: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]
    deals: npt.NDArray[np.int64]
    patterns: list[_Pattern]
    n: int  # the deck's size
    best: npt.NDArray[np.int64]


def _holds(solution: PayTableSolution) -> _Holds:
    """Name every hold of every class (each distinct kept-card shape once)
    and find its discards' attributes; order each class's columns by the
    tie rule."""
    if solution.values is None:
        raise FivecardError("a chart is judged by every hold's value: solve_paytable(..., values=True)")
    rules, paytable = solution.rules, solution.paytable
    deck = rules.deck()
    first = solution.classes.first
    count = len(first)
    rank_of = np.array([int(c.rank or 0) for c in deck], dtype=np.int64)
    suit_of = np.array([list(Suit).index(c.suit) if c.suit is not None else 0 for c in deck], dtype=np.int64)
    wild_of = np.array([rules.is_wild(c) for c in deck], dtype=bool)
    ranks, suits, wild = rank_of[first], suit_of[first], wild_of[first]
    natural = ~wild
    windows = [sum(1 << r for r in window) for _, window in straight_windows(rules)]
    least = paytable.lowest_pair
    high = natural & (ranks >= int(least)) if least is not None else np.zeros_like(natural)
    bits = np.where(natural, 1 << ranks, 0)

    shape = np.zeros((count, 32), dtype=np.int64)
    attributes = np.zeros((count, 32), dtype=np.int64)
    rows = np.arange(count)
    for mask in range(32):
        kept = HOLDS[mask]
        columns = list(kept)
        renamed = np.full((count, 4), -1, dtype=np.int64)
        seen = np.zeros(count, dtype=np.int64)
        key = np.zeros(count, dtype=np.int64)
        for i in kept:  # ranks, suits renamed in order of appearance, wild cards
            s = suits[:, i]
            new = renamed[rows, s] < 0
            renamed[rows[new], s[new]] = seen[new]
            seen += new
            key = key * 128 + ranks[:, i] * 8 + renamed[rows, s] * 2 + wild[:, i]
        shape[:, mask] = key * 8 + len(kept)
        # the discards' attributes, as discard_attributes finds them
        kept_natural = natural[:, columns]
        kept_suits = suits[:, columns]
        any_natural = kept_natural.any(axis=1)
        first_suit = np.full(count, -1, dtype=np.int64)
        if kept:
            first_suit = np.where(any_natural, kept_suits[rows, np.argmax(kept_natural, axis=1)], -1)
        suited = any_natural & np.all(~kept_natural | (kept_suits == first_suit[:, None]), axis=1)
        kept_or = np.bitwise_or.reduce(bits[:, columns], axis=1) if kept else np.zeros(count, dtype=np.int64)
        distinct = any_natural & (bits[:, columns].sum(axis=1) == kept_or)
        fitting = np.zeros(count, dtype=np.int64)
        for window in windows:
            fitting |= np.where(kept_or & ~window == 0, window, 0)
        fitting &= ~kept_or
        flush = np.zeros(count, dtype=bool)
        straight = np.zeros(count, dtype=bool)
        thrown_high = np.zeros(count, dtype=bool)
        for i in range(5):
            if i not in kept:
                flush |= suited & natural[:, i] & (suits[:, i] == first_suit)
                straight |= distinct & natural[:, i] & (fitting & bits[:, i] != 0)
                thrown_high |= high[:, i]
        attributes[:, mask] = flush * 1 + straight * 2 + thrown_high * 4
    # a pat hand is named by its category and its wild cards alone (one shape per class otherwise),
    # but four and five of a kind by their ranks too (a pay table may pay them by rank and kicker)
    indices = np.array([c.index for c in deck], dtype=np.int32)[first]
    category = batch.category_table(rules)[batch.strengths_of_indices(indices, rules=rules)].astype(np.int64)
    by_rank = np.isin(category, [i for i, c in enumerate(rules.ladder) if c.name in _BY_RANK])
    shape[:, 31] = np.where(by_rank, shape[:, 31], -(category * 8 + wild.sum(axis=1) + 1))

    unique, where, inverse = np.unique(shape, return_index=True, return_inverse=True)
    names: dict[_Pattern, int] = {}
    pattern_of = np.empty(len(unique), dtype=np.int64)
    for u, spot in enumerate(where.tolist()):
        row, mask = divmod(spot, 32)
        kept_cards = tuple(deck[int(first[row, i])] for i in HOLDS[mask])
        pattern_of[u] = names.setdefault(_pattern(kept_cards, rules, paytable), len(names))
    kinds = pattern_of[inverse.reshape(count, 32)]

    # the tie order: fewer cards, then higher ranks, then the cards first in the deck
    tie = np.zeros((count, 32), dtype=np.int64)
    for mask in range(32):
        kept = HOLDS[mask]
        ordered = -np.sort(-ranks[:, list(kept)], axis=1)
        key = np.full(count, 5 - len(kept), dtype=np.int64)
        for i in range(5):
            key = key * 16 + (ordered[:, i] if i < len(kept) else 0)
        tie[:, mask] = key
    order = np.lexsort((np.broadcast_to(_DECK_FIRST, (count, 32)), -tie), axis=1)
    values = np.take_along_axis(solution.values, order, axis=1)
    return _Holds(
        np.take_along_axis(kinds, order, axis=1),
        np.take_along_axis(attributes, order, axis=1),
        values,
        order,
        solution.classes.deals.astype(np.float64),
        solution.classes.deals.astype(np.int64),
        list(names),
        len(deck),
        np.argmax(values, axis=1),
    )


# ---------------------------------------------------------------- deriving the order


@dataclass(frozen=True, slots=True)
class _Spec:
    """A line being derived: the patterns it covers (of one base name, or
    one family of kinds of high cards) and the discards' attributes it asks
    for (bit, whether)."""

    patterns: frozenset[int]
    conditions: tuple[tuple[int, bool], ...] = ()


@dataclass(eq=False)
class _Block:
    """Classes whose holds a chart may keep fit in ``width`` columns: per
    class (row), the line of each hold (-1: none), its value, its
    discards' attributes, its mask; the class's deals and the column of its
    best hold."""

    lines: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]
    bits: npt.NDArray[np.int64]
    masks: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]
    deals: npt.NDArray[np.int64]
    best: npt.NDArray[np.int64]

    def picks(self, place: _Ints, lines: _Ints | None = None) -> _Ints:
        """The column each class's chart hold is in: the first line among
        its holds (by ``place``), its first column."""
        chosen = self.lines if lines is None else lines
        width = chosen.shape[1]
        found: npt.NDArray[np.int64] = np.argmin(place[chosen] * width + np.arange(width), axis=1)
        return found

    def worth(self, rows: _Ints, lines: _Ints, place: _Ints) -> float:
        """The deals times value of the chart's holds of ``rows`` (their
        ``lines``), summed."""
        columns = self.picks(place, lines)
        return float(np.dot(self.weights[rows], self.values[rows, columns]))

    def gains(
        self, line: int, place: npt.NDArray[np.int64], count: int, rows: npt.NDArray[np.int64],
        lines: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.float64]:
        """Per place of ``line`` among the ``count`` other lines of the chart,
        what it gains in ``rows`` (whose lines are ``lines``) over leaving it
        out: a class follows the line exactly when it sits above the class's
        next choice."""
        width = lines.shape[1]
        values = self.values[rows]
        here = lines == line
        across = np.arange(len(rows))
        own = values[across, np.argmax(here, axis=1)]
        others = np.where(here, _BIG * width, place[lines] * width + np.arange(width)).min(axis=1)
        at = others // width
        at = np.where(at > place[line], at - 1, at)  # the others' places without the line
        gain = np.where(here.any(axis=1), self.weights[rows] * (own - values[across, others % width]), 0.0)
        found = np.bincount(np.minimum(at, count), weights=gain, minlength=count + 1).astype(np.float64)
        result: npt.NDArray[np.float64] = np.cumsum(found[::-1])[::-1][:count]
        return result


def _exact(blocks: Sequence[_Block], picks: Sequence[npt.NDArray[np.int64]], n: int) -> Fraction:
    """The exact return of keeping the hold in column ``picks`` of each
    class of the blocks (of a deck of ``n`` cards): a hold's value times its
    draws is a whole number."""
    by_kept = [0] * 6
    draws = np.array([comb(n - 5, 5 - k) for k in range(6)], dtype=np.int64)
    for block, columns in zip(blocks, picks):
        rows = np.arange(len(columns))
        kept = KEPT[block.masks[rows, columns]]
        counts = np.rint(block.values[rows, columns] * draws[kept]).astype(np.int64) * block.deals
        for k in range(6):
            by_kept[k] += int(counts[kept == k].sum())
    return mean_over_deals(by_kept, n)


def play_classes(solution: PayTableSolution, lines: Sequence[ChartLine]) -> tuple[Fraction, npt.NDArray[np.int8]]:
    """Play a chart's ``lines`` over every class of deals of a solved pay
    table (``values=True``): the exact return, and each class's hold (a mask
    of :data:`~fivecard.vector.classes.HOLDS`, as
    :attr:`~fivecard.play.strategy.PayTableSolution.best`). Each hold is
    fitted to the lines by its pattern's text and its discards' attributes,
    as :meth:`ChartLine.fits` reads them."""
    holds = _holds(solution)
    texts = [p.text for p in holds.patterns]
    line_of = np.full(holds.kinds.shape, len(lines), dtype=np.int64)
    for place in reversed(range(len(lines))):
        line = lines[place]
        fit = np.isin(holds.kinds, [k for k, text in enumerate(texts) if text in line.patterns])
        for name, on in line.conditions:
            fit &= (holds.bits >> ATTRIBUTES.index(name) & 1 == 1) == on
        line_of[fit] = place
    block = _Block(line_of, holds.values, holds.bits, holds.masks, holds.weights, holds.deals, holds.best)
    order = np.append(np.arange(len(lines)), _BIG)
    columns = block.picks(order)
    rows = np.arange(len(columns))
    if (line_of[rows, columns] == len(lines)).any():
        row = int(np.flatnonzero(line_of[rows, columns] == len(lines))[0])
        deck = solution.rules.deck()
        cards = format_cards([deck[int(i)] for i in solution.classes.first[row]], ascii=True)
        raise FivecardError(f"the chart fits none of the holds of {quote(cards)}")
    return _exact([block], [columns], holds.n), block.masks[rows, columns].astype(np.int8)


def _narrowed(block: _Block, keep: npt.NDArray[np.bool_]) -> list[_Block]:
    """The block with only the columns ``keep`` marks (in their order), in
    blocks of rows by how many they keep: 4, 8, 16 or more columns."""
    counts = keep.sum(axis=1)
    # the kept columns first, in order: a stable sort of "not kept"
    order = np.argsort(~keep, axis=1, kind="stable")
    made = []
    low = 0
    for width in (4, 8, 16, int(counts.max())):
        rows = np.flatnonzero((counts > low) & (counts <= width))
        low = max(low, width)
        if not len(rows):
            continue
        columns = order[rows, :width]
        inside = np.arange(width) < counts[rows, None]

        def take(matrix: npt.NDArray[np.generic], pad: float) -> npt.NDArray[np.generic]:
            return np.where(inside, np.take_along_axis(matrix[rows], columns, axis=1), pad)

        best = np.argmax(columns == block.best[rows, None], axis=1)
        made.append(
            _Block(
                take(block.lines, -1).astype(np.int64),
                take(block.values, 0.0).astype(np.float64),
                take(block.bits, 0).astype(np.int64),
                take(block.masks, 0).astype(np.int64),
                block.weights[rows],
                block.deals[rows],
                best,
            )
        )
    return made


@dataclass(eq=False)
class _Chart:
    """A chart being derived: its lines, the classes' holds in blocks, the
    order of the lines in the chart."""

    holds: _Holds
    specs: list[_Spec]
    blocks: list[_Block]
    order: list[int]
    dead: set[int]  # lines merged away or dropped for readability: never back
    cache: dict[int, list[npt.NDArray[np.int64]]]

    @classmethod
    def first(cls, holds: _Holds) -> _Chart:
        """A line per pattern, in the order of the tournament."""
        specs = [_Spec(frozenset([p])) for p in range(len(holds.patterns))]
        block = _Block(
            holds.kinds.copy(), holds.values, holds.bits, holds.masks, holds.weights, holds.deals, holds.best
        )
        chart = cls(holds, specs, [block], [], set(), {})
        chart.tournament()
        return chart

    @property
    def discard_line(self) -> int:
        return self.holds.patterns.index(_Pattern(_DISCARD_ALL))

    @property
    def total(self) -> float:
        return float(self.holds.weights.sum())

    def tolerance(self) -> float:
        return 1e-12 * self.total

    def narrow(self) -> None:
        """Keep only the holds of the lines in the chart, and each class's
        best hold (the chart's loss is judged by it); the lines out of the
        chart stay out."""
        inside = np.zeros(len(self.specs) + 2, dtype=bool)
        inside[self.order] = True
        blocks = []
        for block in self.blocks:
            keep = inside[block.lines]
            keep[np.arange(len(keep)), block.best] = True
            blocks += _narrowed(block, keep)
        self.blocks = blocks
        self.cache.clear()
        self.dead |= set(range(len(self.specs))) - set(self.order)  # kept where best only: no way back

    def rows(self, line: int) -> list[npt.NDArray[np.int64]]:
        """The classes (of each block) among whose holds ``line`` is."""
        found = self.cache.get(line)
        if found is None:
            found = self.cache[line] = [np.flatnonzero((b.lines == line).any(axis=1)) for b in self.blocks]
        return found

    def place(self, order: list[int] | None = None) -> npt.NDArray[np.int64]:
        """Each line's place in the chart (``_BIG``: none); the last entry
        is padding's (-1)."""
        place = np.full(len(self.specs) + 2, _BIG, dtype=np.int64)
        chosen = self.order if order is None else order
        place[chosen] = np.arange(len(chosen))
        return place

    def picks(self) -> list[npt.NDArray[np.int64]]:
        place = self.place()
        return [block.picks(place) for block in self.blocks]

    def exact(self) -> Fraction:
        """The exact return of playing the chart."""
        return _exact(self.blocks, self.picks(), self.holds.n)

    def gains(
        self, line: int, place: _Ints, subs: list[tuple[_Ints, _Ints]] | None = None
    ) -> npt.NDArray[np.float64]:
        """What the chart gains with ``line`` at each place among the other
        lines of the chart (0: first), over leaving it out; ``subs``: per
        block the rows to look at and their lines, if not the chart's."""
        count = int((place < _BIG).sum()) - (1 if place[line] < _BIG else 0)  # the other lines in the chart
        if subs is None:
            subs = [(rows, block.lines[rows]) for rows, block in zip(self.rows(line), self.blocks)]
        total = np.zeros(count)
        for block, (rows, lines) in zip(self.blocks, subs):
            if len(rows):
                total += block.gains(line, place, count, rows, lines)
        return total

    def improve(self, sweeps: int = 30) -> None:
        """Move each line to its best place, into the chart or out of it,
        until no move gains."""
        fixed = self.discard_line
        useful = set()
        for block in self.blocks:
            useful |= set(np.unique(block.lines[np.arange(len(block.best)), block.best]).tolist())
        useful -= self.dead | {fixed, -1}
        for _ in range(sweeps):
            moved = False
            for line in list(self.order) + sorted(useful - set(self.order)):
                if line == fixed:
                    continue
                place = self.place()
                gains = self.gains(line, place)
                here = int(place[line])
                current = gains[here] if here < _BIG else 0.0
                best = int(np.argmax(gains))
                if gains[best] <= self.tolerance() and here < _BIG:
                    self.order.remove(line)  # it gains nothing anywhere
                    moved = True
                elif gains[best] > current + self.tolerance():
                    if here < _BIG:
                        self.order.remove(line)
                    self.order.insert(best, line)
                    moved = True
            if not moved:
                return

    def tournament(self) -> None:
        """The first order: line *a* beats line *b* by the value the classes
        whose best hold is *a*'s give up for *b*'s; taken in turn, the line
        least beaten by those left, which is a topological order where
        the tournament has no cycle; none after Discard everything."""
        n = len(self.specs)
        beats = np.zeros(n * n)
        worth = np.zeros(n)
        deals = np.zeros(n)
        left = np.zeros(n, dtype=bool)
        for block in self.blocks:
            rows = np.arange(len(block.weights))
            best_line = block.lines[rows, block.best]
            best_value = block.values[rows, block.best]
            loss = block.weights[:, None] * (best_value[:, None] - block.values)
            keys = best_line[:, None] * n + block.lines
            beats += np.bincount(keys.ravel(), weights=loss.ravel(), minlength=n * n)
            worth += np.bincount(best_line, weights=block.weights * best_value, minlength=n)
            deals += np.bincount(best_line, weights=block.weights, minlength=n)
            left[np.unique(block.lines)] = True
        table = beats.reshape(n, n)
        np.fill_diagonal(table, 0.0)
        excess = np.maximum(table - table.T, 0.0)
        mean = worth / np.maximum(deals, 1.0)
        order = []
        against = excess.sum(axis=0)  # per line: how much the lines left beat it
        while left.any():
            candidates = np.flatnonzero(left)
            least = against[candidates].min()
            tied = candidates[against[candidates] <= least + 1e-9 * max(least, 1.0)]
            pick = int(tied[np.argmax(mean[tied])])  # of lines alike, the best mean value first
            order.append(pick)
            left[pick] = False
            against -= excess[pick]
        self.order = order[: order.index(self.discard_line) + 1]  # no line below it is ever kept

    # -------- readability: fewer lines

    def removal_cost(self, line: int) -> float:
        place = self.place()
        return float(self.gains(line, place)[place[line]])

    def _merged(self, a: int, b: int) -> list[tuple[_Ints, _Ints, _Ints]]:
        """Per block: the rows of ``a`` or ``b``, their lines, and their
        lines with ``b`` made ``a``."""
        found = []
        for block, first, second in zip(self.blocks, self.rows(a), self.rows(b)):
            rows = np.union1d(first, second)
            lines = block.lines[rows]
            found.append((rows, lines, np.where(lines == b, a, lines)))
        return found

    def merge_cost(self, a: int, b: int) -> tuple[float, int]:
        """What merging line ``b`` into ``a`` costs (the merged line at its
        best place), and that place."""
        merged = self._merged(a, b)
        place = self.place()
        before = sum(block.worth(rows, lines, place) for block, (rows, lines, _) in zip(self.blocks, merged))
        order = [line for line in self.order if line not in (a, b)]
        without = self.place(order)
        gains = self.gains(a, without, [(rows, joined) for rows, _, joined in merged])
        best = int(np.argmax(gains))
        after = sum(block.worth(rows, joined, without) for block, (rows, _, joined) in zip(self.blocks, merged))
        return before - after - max(float(gains[best]), 0.0), best

    def merge(self, a: int, b: int, at: int) -> None:
        for block, (rows, _, joined) in zip(self.blocks, self._merged(a, b)):
            block.lines[rows] = joined
        self.specs[a] = _Spec(self.specs[a].patterns | self.specs[b].patterns, self.specs[a].conditions)
        self.order = [line for line in self.order if line not in (a, b)]
        self.order.insert(at, a)
        self.dead.add(b)
        self.cache.pop(a, None)
        self.cache.pop(b, None)

    def wild_lines(self) -> set[int]:
        """The lines that keep wild cards alone (``One wild card``)."""
        return {
            line
            for line, spec in enumerate(self.specs)
            if any(_wild_count(self.holds.patterns[p].base + ": x")[1] == "x" for p in spec.patterns)
        }

    def mergeable(self, a: int, b: int) -> bool:
        first, second = self.specs[a], self.specs[b]
        patterns = [self.holds.patterns[p] for p in first.patterns | second.patterns]
        if first.conditions != second.conditions:
            return False
        if len({p.base for p in patterns}) > 1:  # kinds of high cards: A K, A Q or A J unsuited
            families = {_family(p) for p in patterns}
            return len(families) == 1 and None not in families and len(patterns) <= _FAMILY_MOST
        return "; or " not in _line_name(sorted(patterns, key=_pattern_key), self.holds.patterns)  # one clause

    def reduce(self, target: int) -> None:
        """Fewer lines, the cheapest first: merge two lines of one name (or
        two kinds of high cards) with the same conditions, or drop a line;
        until at most ``target``. Costs are looked at again when their
        turn comes (a lazy greedy)."""
        kept = {self.discard_line, *self.wild_lines()}  # a chart never throws a wild card away for nothing
        heap = [(self.removal_cost(line), line, -1) for line in self.order if line not in kept]
        for i, a in enumerate(self.order):
            for b in self.order[i + 1 :]:
                if self.mergeable(a, b):
                    heap.append((self.merge_cost(a, b)[0], a, b))
        heapq.heapify(heap)
        while len(self.order) > target and heap:
            _, a, b = heapq.heappop(heap)
            if a not in self.order or (b >= 0 and (b not in self.order or not self.mergeable(a, b))):
                continue
            cost, at = (self.removal_cost(a), -1) if b < 0 else self.merge_cost(a, b)
            if heap and cost > heap[0][0] + self.tolerance():
                heapq.heappush(heap, (cost, a, b))  # it grew: look again when its turn comes
                continue
            if b < 0:
                self.order.remove(a)
                self.dead.add(a)
                continue
            self.merge(a, b, at)
            if a not in kept:
                heapq.heappush(heap, (self.removal_cost(a), a, -1))
            for other in self.order:
                if other != a and self.mergeable(a, other):
                    pair = (a, other) if self.order.index(a) < self.order.index(other) else (other, a)
                    heapq.heappush(heap, (self.merge_cost(*pair)[0], *pair))
        self.improve()

    # -------- exceptions

    def split_gain(
        self, line: int, bit: int
    ) -> tuple[float, list[int], list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]]:
        """What splitting ``line`` by the attribute ``bit`` of the discards
        gains (the part with it a new line, both placed anew), the order
        it takes and, per block, the rows of the line and their new lines."""
        new = len(self.specs)
        subs = []
        before = 0.0
        place = self.place()
        for block, rows in zip(self.blocks, self.rows(line)):
            lines = block.lines[rows]
            before += block.worth(rows, lines, place)
            subs.append((rows, np.where((lines == line) & (block.bits[rows] >> bit & 1 == 1), new, lines)))
        order = list(self.order)
        order.insert(order.index(line) + 1, new)
        for moving in (new, line, new):
            place = self.place(order)
            gains = self.gains(moving, place, subs)
            best = int(np.argmax(gains))
            if gains[best] > gains[place[moving]] + self.tolerance():
                order.remove(moving)
                order.insert(best, moving)
        place = self.place(order)
        after = sum(block.worth(rows, lines, place) for block, (rows, lines) in zip(self.blocks, subs))
        return after - before, order, subs

    def refine(self, lines: int, count: int, pairs: int = 4) -> None:
        """Add up to ``count`` exception lines (no more than ``lines`` in
        all): where the chart loses most, by the pair of lines chosen and
        best, split one of them by an attribute of the discards."""
        least = 1e-7 * self.total  # a split must gain 0.00001% of the return
        for _ in range(count):
            if len(self.order) >= lines:
                return
            n = len(self.specs) + 1
            by_pair = np.zeros(n * n)
            for block, chosen in zip(self.blocks, self.picks()):
                rows = np.arange(len(chosen))
                loss = block.weights * (block.values[rows, block.best] - block.values[rows, chosen])
                keys = block.lines[rows, chosen] * n + block.lines[rows, block.best]
                by_pair += np.bincount(keys, weights=loss, minlength=n * n)
            candidates: list[int] = []
            for key in np.argsort(-by_pair, kind="stable")[:pairs].tolist():
                if by_pair[key] <= 0:
                    break
                for line in divmod(key, n):
                    if line not in candidates and line != self.discard_line and line in self.order:
                        candidates.append(line)
            best: tuple[float, int, int, list[int], list[tuple[_Ints, _Ints]]] | None = None
            for line in candidates:
                asked = {bit for bit, _ in self.specs[line].conditions}
                present = np.concatenate(
                    [b.bits[rows][b.lines[rows] == line] for b, rows in zip(self.blocks, self.rows(line))]
                )
                for bit in range(len(ATTRIBUTES)):
                    if bit in asked or (present >> bit & 1).min() == (present >> bit & 1).max():
                        continue
                    gain, order, subs = self.split_gain(line, bit)
                    if best is None or gain > best[0]:
                        best = (gain, line, bit, order, subs)
            if best is None or best[0] < least:
                return
            _, line, bit, order, subs = best
            spec = self.specs[line]
            self.specs[line] = _Spec(spec.patterns, (*spec.conditions, (bit, False)))
            self.specs.append(_Spec(spec.patterns, (*spec.conditions, (bit, True))))
            for block, (rows, split) in zip(self.blocks, subs):
                block.lines[rows] = split
            self.cache.pop(line, None)
            self.order = order
            self.improve()

    # -------- the result

    def chart_lines(self) -> tuple[ChartLine, ...]:
        n = len(self.specs) + 1
        deals = np.zeros(n)
        worth = np.zeros(n)
        for block, chosen in zip(self.blocks, self.picks()):
            rows = np.arange(len(chosen))
            line_of = block.lines[rows, chosen]
            deals += np.bincount(line_of, weights=block.weights, minlength=n)
            worth += np.bincount(line_of, weights=block.weights * block.values[rows, chosen], minlength=n)
        made = []
        for line in self.order:
            spec = self.specs[line]
            patterns = sorted((self.holds.patterns[p] for p in spec.patterns), key=_pattern_key)
            made.append(
                ChartLine(
                    _line_name(patterns, self.holds.patterns),
                    tuple(p.text for p in patterns),
                    tuple((ATTRIBUTES[bit], on) for bit, on in spec.conditions),
                    int(round(deals[line])),
                    float(deals[line] / self.total),
                    float(worth[line] / deals[line]) if deals[line] else 0.0,
                )
            )
        return tuple(made)


def _pattern_key(pattern: _Pattern) -> tuple[str, int, int]:
    return (pattern.base, -(pattern.high or 0), -(pattern.fits or 0))


def _family(pattern: _Pattern) -> tuple[str, str] | None:
    """Patterns one line may list together: kinds of high cards alike
    (``K Q unsuited``, ``A J unsuited``: ``("ranks", "2 unsuited")``), or
    one hold with different numbers of wild cards (``Pat Straight Flush``,
    ``One wild card: Pat Straight Flush``: ``("wild", "Pat Straight
    Flush")``); ``None`` for others."""
    if pattern.high is not None or pattern.fits is not None:
        return None
    if pattern.group is not None:
        return ("group", pattern.form)
    found = _ranks_kept(pattern.base)
    if found is not None:
        prefix, ranks, suffix = found
        return ("ranks", f"{prefix}{len(ranks)} {suffix}")
    return ("wild", _wild_count(pattern.base)[1])


def _ranks_kept(base: str) -> tuple[str, list[str], str] | None:
    """A hold of ranks only (:data:`_RANKS_KEPT`): the wild cards' words
    before them, the ranks, the word after them; ``None`` for other holds.
    ``One wild card: J 10 unsuited`` is ``("One wild card: ", ["J",
    "10"], "unsuited")``."""
    found = _RANKS_KEPT.match(base)
    if found is None or not (found.group(1) or found.group(3)):
        return None  # natural cards alone always say suited, unsuited or alone
    if found.group(1) and _wild_count(found.group(1) + "x")[0] == 0:
        return None
    return found.group(1), found.group(2).split(), found.group(3) or ""


def _wild_count(base: str) -> tuple[int, str]:
    """The wild cards a pattern keeps and the rest of its name:
    ``One wild card: 3 to a Royal Flush`` is 1 and ``3 to a Royal Flush``."""
    head, _, rest = base.partition(": ")
    words = head.split()
    if len(words) == 3 and words[1:] in (["wild", "card"], ["wild", "cards"]) and words[0] in COUNT_WORDS:
        return COUNT_WORDS.index(words[0]), rest
    return 0, base


def _line_name(patterns: list[_Pattern], every: list[_Pattern]) -> str:
    """A line's name: the base name of its patterns, with the high cards and
    straights they keep unless it covers every pattern of that name; a
    line of several kinds of high cards lists them (``A K, A Q or A J
    unsuited``)."""
    base = patterns[0].base
    if len({p.base for p in patterns}) > 1:
        family = _family(patterns[0])
        if family is not None and family[0] == "group":
            union = frozenset().union(*(p.group or frozenset() for p in patterns))
            full = frozenset().union(*(p.group or frozenset() for p in every if p.form == patterns[0].form))
            if union == full and not patterns[0].pair:  # every rank: Three of a Kind
                return patterns[0].form.format("of a Kind")
            return _group_text(patterns[0], union)
        if family is not None and family[0] == "wild":
            counts = sorted(_wild_count(p.base)[0] for p in patterns)
            cards = f"{_spelled(counts)} wild card{'' if counts == [1] else 's'}"
            return f"{family[1]} ({cards})" if family[1] else cards.capitalize()
        split = [_ranks_kept(p.base) or ("", [p.base], "") for p in patterns]
        prefix, suffix = split[0][0], split[0][2]
        order = sorted((ranks for _, ranks, _ in split), key=lambda r: [-_RANK_WORDS.index(w) for w in r])
        ranks = [" ".join(r) for r in order]
        return f"{prefix}{', '.join(ranks[:-1])} or {ranks[-1]}" + (f" {suffix}" if suffix else "")
    if len(patterns) == 1 and (patterns[0].high is not None or patterns[0].fits is not None):
        if sum(1 for p in every if p.base == base) > 1:
            return patterns[0].text
        return base
    if set(patterns) >= {p for p in every if p.base == base}:
        return base
    by_high: dict[int | None, list[int | None]] = {}
    for p in patterns:
        by_high.setdefault(p.high, []).append(p.fits)
    groups: dict[tuple[int | None, ...], list[int | None]] = {}
    for high, fits in by_high.items():
        groups.setdefault(tuple(sorted(f for f in fits if f is not None) or [None]), []).append(high)
    notes = []
    for fits_group, highs in groups.items():
        parts = []
        known = sorted(h for h in highs if h is not None)
        if known:
            parts.append(f"{_spelled(known)} high card{'' if known == [1] else 's'}")
        fits_known = [f for f in fits_group if f is not None]
        if fits_known:
            parts.append(f"fits {_spelled(fits_known)} straight{'' if fits_known == [1] else 's'}")
        notes.append(", ".join(parts))
    return f"{base} ({'; or '.join(notes)})"


def _spelled(numbers: Sequence[int]) -> str:
    """``2``, ``1 or 2``, ``0 to 2``, ``0, 2 or 3``."""
    values = sorted(set(numbers))
    if len(values) == 1:
        return str(values[0])
    if len(values) > 2 and values[-1] - values[0] == len(values) - 1:
        return f"{values[0]} to {values[-1]}"
    return f"{', '.join(map(str, values[:-1]))} or {values[-1]}"


def strategy_chart(solution: PayTableSolution, *, lines: int = 45, exceptions: int = 10) -> StrategyChart:
    """A hand-rank chart of a solved pay table (``solve_paytable(...,
    values=True)``): a simple chart of at most ``lines - exceptions`` lines,
    then up to ``exceptions`` exception lines where they gain; both played
    over every deal for their exact returns. Where the chart is still more
    than 0.1% of the bet short of perfect play, the lines left over
    by the exceptions go to the simple chart instead (derived again with
    the larger budget, kept while it returns more).

    >>> from fivecard.play.paytables import JACKS_OR_BETTER
    >>> from fivecard.play.strategy import solve_paytable
    >>> chart = strategy_chart(solve_paytable(JACKS_OR_BETTER, values=True))  # doctest: +SKIP
    >>> print(chart.text())  # doctest: +SKIP
    """
    if lines < 2 or exceptions < 0 or exceptions >= lines:
        raise FivecardError(
            f"a chart has 2 lines or more and fewer exception lines than lines, not {lines} and {exceptions}"
        )
    first = _Chart.first(_holds(solution))
    first.improve()
    first.narrow()

    def derive(simple_lines: int) -> StrategyChart:
        chart = copy.deepcopy(first)
        chart.reduce(simple_lines)
        simple = chart.chart_lines()
        simple_return = chart.exact()
        chart.refine(lines, exceptions)
        return StrategyChart(
            solution.paytable,
            solution.rules,
            chart.chart_lines(),
            simple,
            chart.exact(),
            simple_return,
            solution.expected_return,
            solution.classes.total,
        )

    made = derive(lines - exceptions)
    target = lines - exceptions
    # the lines the exceptions left over go to the simple chart, where it is still far from perfect play
    while made.optimum - made.chart_return > _CLOSE and len(made.lines) < lines:
        target += lines - len(made.lines)
        grown = derive(target)
        if grown.chart_return <= made.chart_return:
            break
        made = grown
    return made


# ---------------------------------------------------------------- shipped charts


def shipped_chart(name: str) -> StrategyChart:
    """The chart of a catalogue pay table (an id of
    :data:`~fivecard.play.paytables.PAYTABLES` or an alias, as
    :func:`~fivecard.play.paytables.builtin_paytable` reads names), derived
    ahead and shipped with fivecard (``play/charts/<id>.json``, made by
    ``scripts/make_charts.py``), so that it costs a file read, not a
    solve. Only those files are opened: any other name is the
    :class:`~fivecard.play.paytables.PayTableError` of an unknown table.

    >>> chart = shipped_chart("jacks-or-better-9-6")
    >>> chart.paytable.title, round(float(chart.optimum * 100), 4)
    ('Jacks or Better 9/6', 99.5439)
    """
    return _shipped(builtin_paytable(name).name)


@cache  # one per catalogue id at most
def _shipped(name: str) -> StrategyChart:
    table = builtin_paytable(name)
    path = resources.files(__package__ or "fivecard.play") / "charts" / f"{table.name}.json"
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise FivecardError(f"no chart is shipped for {quote(table.name)}") from None
    return StrategyChart.from_json(json.loads(text), table)
