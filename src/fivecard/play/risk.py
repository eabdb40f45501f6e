"""Bankroll figures of a video-poker game, exact (no simulation): the chance
of ruin within a number of hands, the chance of a royal before ruin, the
smallest bankroll for a risk, and the variance.

A game is given as the distribution of its final hand under the strategy
played (:attr:`~fivecard.play.strategy.PayTableSolution.final` with the pay
table's pays): a sequence of ``(pay, probability)``, the pay per coin with
the bet back (``0``: the bet lost, ``1``: the bet returned, ``800``: a
max-coin royal), a whole number, and the probabilities summing to 1.

A hand bets ``bet`` coins and wins ``bet * pay``, so the bankroll changes by
whole bets: the figures are worked in bets. **Ruin** is a bankroll that can
no longer cover a bet (fewer than ``bet`` coins); play stops there.

The figures are found by dynamic programming over the bankroll, hand by
hand backwards from the last: the chance of ruin within ``k`` hands from
``b`` bets is the mean, over the outcomes of one hand, of the chance of ruin
within ``k - 1`` hands from where that hand leaves the bankroll. A hand
loses at most one bet, so a bankroll of ``k`` bets or more is never ruined
within ``k`` hands and needs no tracking: ``n`` hands take some
``n * n / 2`` steps per pay, in floating point (float64).

>>> coin = [(0, Fraction(1, 2)), (2, Fraction(1, 2))]  # an even-money coin toss
>>> ruin_chance(coin, bankroll_coins=1, hands=3, bet=1)  # lose the first, or win then lose two
0.625
>>> variance(coin)
Fraction(1, 1)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, SupportsIndex

import numpy as np
import numpy.typing as npt

from ..core.errors import FivecardError

__all__ = [
    "Outcome",
    "DEFAULT_HANDS",
    "check_session",
    "MAX_HANDS",
    "MAX_PAYS",
    "SUM_TOLERANCE",
    "RISKS",
    "BankrollRisk",
    "bankroll_risk",
    "ruin_chance",
    "royal_before_ruin",
    "bankroll_for_risk",
    "expected_pay",
    "variance",
]

#: One outcome of a hand: its pay per coin (the bet back included, a whole
#: number) and its probability (a :class:`~fractions.Fraction` or a float).
Outcome = tuple[int, Fraction | float]

#: The session the figures are for when none is named: 1,000 hands, a
#: few hours at a machine.
DEFAULT_HANDS: Final = 1_000

#: The most hands the figures are worked for: the work grows as the square
#: of the hands. One table of Jacks or Better (ten pays) over 100,000 hands
#: took 23 seconds on one core of a 2-core machine, 10,000 hands 0.26 s;
#: :func:`bankroll_risk` with a royal works two tables.
MAX_HANDS: Final = 100_000
#: The most distinct pays a distribution may have (the work grows with
#: them; a video-poker game has at most some 15).
MAX_PAYS: Final = 64
_NEAR: Final = 8  # pays below this are worked as one correlation

#: The risks :func:`bankroll_for_risk` finds a bankroll for by default.
RISKS: Final = (0.01, 0.05, 0.5)

#: How far float probabilities may sum from 1 (published tables round each
#: to some 8 decimals); they are then divided by their sum.
SUM_TOLERANCE: Final = 1e-6


# ---------------------------------------------------------------- checking


def _whole(value: object, what: str, least: int) -> int:
    """A whole number of at least ``least``, else a :class:`FivecardError`
    quoting it."""
    if isinstance(value, SupportsIndex) and not isinstance(value, bool):
        number = operator.index(value)
        if number >= least:
            return number
    raise FivecardError(f"{what} must be a whole number of at least {least:,}, got {value!r:.60}")


def _hands(hands: object) -> int:
    count = _whole(hands, "hands", 1)
    if count > MAX_HANDS:
        raise FivecardError(f"hands must be at most {MAX_HANDS:,} (the work grows as its square), got {count:,}")
    return count


def _pay(value: object, number: int) -> int:
    pay: int | None = None
    if isinstance(value, SupportsIndex) and not isinstance(value, bool):
        pay = operator.index(value)
    elif isinstance(value, (float, Fraction)) and math.isfinite(value) and value == int(value):
        pay = int(value)  # 800.0, as a pay table spells it
    if pay is None or pay < 0:
        raise FivecardError(
            f"the pay of outcome {number} must be a whole number of coins per coin bet, "
            f"0 or more, got {value!r:.60}"
        )
    return pay


def _probability(value: object, number: int) -> Fraction | float:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise FivecardError(f"the probability of outcome {number} must be a number, got {value!r:.60}")
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise FivecardError(f"the probability of outcome {number} must be from 0 to 1, got {value!r:.60}")
    return Fraction(value) if isinstance(value, int) else value


def _outcomes(distribution: Iterable[Outcome]) -> list[tuple[int, Fraction | float]]:
    """The outcomes checked: pays whole numbers, probabilities from 0 to 1
    summing to 1: exactly when all are fractions, else within
    :data:`SUM_TOLERANCE`, and then divided by their sum (as floats)."""
    if isinstance(distribution, (str, bytes)):
        raise FivecardError(f"a distribution is a list of (pay, probability), got {distribution!r:.60}")
    checked = []
    for number, outcome in enumerate(distribution, 1):
        if not isinstance(outcome, Sequence) or isinstance(outcome, (str, bytes)) or len(outcome) != 2:
            raise FivecardError(f"outcome {number} must be a pair (pay, probability), got {outcome!r:.60}")
        checked.append((_pay(outcome[0], number), _probability(outcome[1], number)))
    if not checked:
        raise FivecardError("a distribution needs at least one outcome, got none")
    probabilities = [p for _, p in checked]
    if all(isinstance(p, Fraction) for p in probabilities):
        total: Fraction | float = sum(probabilities, Fraction(0))
        exact = total == 1
    else:
        total = math.fsum(float(p) for p in probabilities)
        exact = abs(total - 1) <= SUM_TOLERANCE
    if not exact:
        raise FivecardError(f"the probabilities of a distribution must sum to 1, got {total}")
    if isinstance(total, float):
        checked = [(pay, float(p) / total) for pay, p in checked]
    _pay_count(pay for pay, _ in checked)
    return checked


def _pay_count(pays: Iterable[object]) -> None:
    distinct = len(set(pays))
    if distinct > MAX_PAYS:
        raise FivecardError(f"a distribution may have at most {MAX_PAYS} different pays, got {distinct:,}")


def _royal(royal: Collection[int], count: int) -> frozenset[int]:
    if isinstance(royal, (str, bytes)) or not isinstance(royal, Collection):
        raise FivecardError(f"the royal must be a set of outcome indices, got {royal!r:.60}")
    indices = set()
    for index in royal:
        if isinstance(index, bool) or not isinstance(index, SupportsIndex) or not 0 <= operator.index(index) < count:
            raise FivecardError(
                f"the royal's outcomes are indices from 0 to {count - 1} into the distribution, got {index!r:.60}"
            )
        indices.add(operator.index(index))
    return frozenset(indices)


def _bets(bankroll_coins: object, bet: object) -> tuple[int, int]:
    """The bet and the bankroll in whole bets (coins left over never cover a bet)."""
    size = _whole(bet, "the bet", 1)
    return size, _whole(bankroll_coins, "the bankroll", 0) // size


# ---------------------------------------------------------------- the work


def _by_pay(outcomes: Sequence[tuple[int, Fraction | float]], skip: frozenset[int]) -> list[tuple[int, float]]:
    """The outcomes not in ``skip`` merged by pay: (pay, probability), none
    of probability 0."""
    merged: dict[int, float] = {}
    for index, (pay, p) in enumerate(outcomes):
        if index not in skip and p:
            merged[pay] = merged.get(pay, 0.0) + float(p)
    return sorted(merged.items())


def _table(
    outcomes: Sequence[tuple[int, Fraction | float]],
    hands: int,
    lowest: int,
    royal: frozenset[int] | None = None,
) -> npt.NDArray[np.float64]:
    """Without ``royal``: the chance of ruin within ``hands`` hands from
    each bankroll of ``max(1, lowest)`` to ``hands`` bets (more is never
    ruined). With ``royal``: the chance of one of those outcomes before
    ruin, from the same bankrolls (more: ``1 - (1 - p)**hands``).

    Backwards, ``k`` hands to go: ``now[b]`` from ``before[b - 1 + pay]``
    (``k - 1`` to go) for ``b`` from ``max(1, lowest - (hands - k))`` (the
    least reachable from ``lowest``) to ``k`` (before that, read past
    ``k - 1``, is the figure that needs no tracking)."""
    if royal is None:
        steps = _by_pay(outcomes, frozenset())
        hit = 0.0
        at_ruin = 1.0
    else:
        steps = _by_pay(outcomes, royal)
        hit = math.fsum(float(p) for index, (_, p) in enumerate(outcomes) if index in royal)
        at_ruin = 0.0
    miss = 1.0 - hit
    if not 1 <= lowest <= hands:
        raise ValueError(f"bankrolls from {lowest} bets are not tracked over {hands} hands")
    # The small pays are one correlation (numpy's is some twice as fast as a
    # pass per pay), the others a pass each.
    near = np.zeros(_NEAR)
    far = []
    for pay, p in steps:
        if pay < _NEAR:
            near[pay] = p
        else:
            far.append((pay, p))
    # Two buffers, by bets: before[x] the figure with k - 1 hands to go from
    # x bets, tracked from low - 1 to k - 1, then the figure that needs no
    # tracking up to k - 2 + _NEAR; 0 bets is ruin.
    before = np.zeros(hands + _NEAR + 1)
    now = np.zeros(hands + _NEAR + 1)
    before[0] = now[0] = at_ruin
    low = 1
    for k in range(1, hands + 1):
        low = max(1, lowest - (hands - k))
        width = k - low + 1
        beyond = 1.0 - miss ** (k - 1) if royal is not None else 0.0
        if beyond:
            before[k : k + _NEAR] = beyond
        mine = now[low : k + 1]
        mine[:] = np.correlate(before[low - 1 : k + _NEAR - 1], near, "valid")
        if hit:
            mine += hit
        for pay, p in far:
            inside = max(0, width - pay)
            if inside:
                mine[:inside] += p * before[low - 1 + pay : low - 1 + pay + inside]
            if inside < width and beyond:
                mine[inside:] += p * beyond
        before, now = now, before
    return before[low : hands + 1].copy()


# ---------------------------------------------------------------- the figures


def ruin_chance(distribution: Iterable[Outcome], bankroll_coins: int, hands: int, bet: int = 5) -> float:
    """The chance that a bankroll of ``bankroll_coins`` is ruined (can no
    longer cover a bet of ``bet`` coins) within ``hands`` hands, exact in
    float64. 1 for a bankroll below a bet; 0 for a bankroll of more than
    ``hands`` bets.

    >>> ruin_chance([(0, 0.5), (2, 0.5)], bankroll_coins=10, hands=2)  # 2 bets: lose both
    0.25
    """
    outcomes = _outcomes(distribution)
    count = _hands(hands)
    _, bets = _bets(bankroll_coins, bet)
    if bets == 0:
        return 1.0
    if bets > count:
        return 0.0
    return float(_table(outcomes, count, bets)[0])


def royal_before_ruin(
    distribution: Iterable[Outcome], bankroll_coins: int, hands: int, bet: int = 5, *, royal: Collection[int]
) -> float:
    """The chance of a royal (an outcome whose index into ``distribution``
    is in ``royal``) within ``hands`` hands before ruin, from a bankroll of
    ``bankroll_coins`` betting ``bet`` coins a hand.

    >>> royal_before_ruin([(0, 0.5), (3, 0.25), (2, 0.25)], 5, hands=2, royal={1})  # now, or after a 2
    0.3125
    """
    outcomes = _outcomes(distribution)
    royals = _royal(royal, len(outcomes))
    count = _hands(hands)
    _, bets = _bets(bankroll_coins, bet)
    if bets == 0:
        return 0.0
    if bets > count:
        miss = 1.0 - math.fsum(float(p) for index, (_, p) in enumerate(outcomes) if index in royals)
        return 1.0 - miss**count
    return float(_table(outcomes, count, bets, royals)[0])


def check_session(hands: object, bankroll_coins: object, bet: object, pays: Iterable[object] = ()) -> None:
    """Raise the error :func:`bankroll_risk` would for these, before any
    work that would come first (a solve); ``pays``: those the distribution
    will have (a pay table's, and 0 for a hand it does not pay)."""
    _hands(hands)
    _bets(0 if bankroll_coins is None else bankroll_coins, bet)
    _pay_count(pays)


def _risks(risks: Iterable[float]) -> tuple[float, ...]:
    if isinstance(risks, (str, bytes)):
        raise FivecardError(f"risks must be a list of chances, got {risks!r:.60}")
    checked = []
    for risk in risks:
        if isinstance(risk, bool) or not isinstance(risk, (int, float, Fraction)) or not 0 <= risk <= 1:
            raise FivecardError(f"a risk must be a chance from 0 to 1, got {risk!r:.60}")
        checked.append(float(risk))
    return tuple(checked)


def _smallest(ruin: npt.NDArray[np.float64], risk: float, hands: int) -> int:
    """The fewest bets whose ruin chance is at most ``risk``, given
    ``ruin[b - 1]`` for 1 to ``hands`` bets (non-increasing)."""
    if risk >= 1.0:
        return 0
    # ruin is non-increasing; the first index at or below risk (hands + 1 bets never ruin)
    below = np.nonzero(ruin <= risk)[0]
    return int(below[0]) + 1 if below.size else hands + 1


def bankroll_for_risk(
    distribution: Iterable[Outcome], risks: Iterable[float] = RISKS, *, hands: int, bet: int = 5
) -> tuple[int, ...]:
    """For each of ``risks``, the smallest bankroll in coins (a multiple of
    ``bet``) whose chance of ruin within ``hands`` hands is at most it.

    >>> bankroll_for_risk([(0, 0.5), (2, 0.5)], risks=(0.25, 0.2, 0), hands=2, bet=1)
    (2, 3, 3)
    """
    outcomes = _outcomes(distribution)
    wanted = _risks(risks)
    count = _hands(hands)
    size = _whole(bet, "the bet", 1)
    ruin = _table(outcomes, count, 1)
    return tuple(_smallest(ruin, risk, count) * size for risk in wanted)


def expected_pay(distribution: Iterable[Outcome]) -> Fraction | float:
    """The mean pay per coin (the return: 1 is an even game), exact when
    every probability is a :class:`~fractions.Fraction`."""
    outcomes = _outcomes(distribution)
    if all(isinstance(p, Fraction) for _, p in outcomes):
        return sum((pay * Fraction(p) for pay, p in outcomes), Fraction(0))
    return math.fsum(pay * float(p) for pay, p in outcomes)


def variance(distribution: Iterable[Outcome]) -> Fraction | float:
    """The variance of a hand's pay per coin, ``sum(p * pay**2) - mean**2``,
    exact when every probability is a :class:`~fractions.Fraction`
    (Jacks or Better 9/6 under perfect play: about 19.51).

    >>> variance([(0, Fraction(3, 4)), (4, Fraction(1, 4))])
    Fraction(3, 1)
    """
    outcomes = _outcomes(distribution)
    if all(isinstance(p, Fraction) for _, p in outcomes):
        mean = sum((pay * Fraction(p) for pay, p in outcomes), Fraction(0))
        return sum((pay * pay * Fraction(p) for pay, p in outcomes), Fraction(0)) - mean * mean
    mean_f = math.fsum(pay * float(p) for pay, p in outcomes)
    return math.fsum(pay * pay * float(p) for pay, p in outcomes) - mean_f * mean_f


# ---------------------------------------------------------------- the report


def _percent(chance: float) -> str:
    if 0 < chance < 5e-7:
        return f"{chance * 100:.2e}%"
    return f"{chance:.4%}"


@dataclass(frozen=True, slots=True)
class BankrollRisk:
    """A game's bankroll figures for one bankroll and number of hands:
    ``ruin`` the chance of ruin within ``hands`` hands from
    ``bankroll_coins`` betting ``bet`` coins a hand (both ``None`` when no
    bankroll was given), ``royal`` the chance of a royal before ruin
    (``None`` when no bankroll was given or no outcome was named the royal),
    ``bankrolls`` the smallest bankroll in coins for each risk (pairs of
    risk, coins), ``mean`` and ``variance`` a hand's pay per coin."""

    bet: int
    bankroll_coins: int | None
    hands: int
    ruin: float | None
    royal: float | None
    bankrolls: tuple[tuple[float, int], ...]
    mean: float
    variance: float

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON values."""
        return {
            "bet": self.bet,
            "bankroll": self.bankroll_coins,
            "hands": self.hands,
            "ruin": self.ruin,
            "royal_before_ruin": self.royal,
            "bankrolls": [{"risk": risk, "bankroll": coins} for risk, coins in self.bankrolls],
            "return": self.mean,
            "variance": self.variance,
        }

    def text(self) -> str:
        """The figures in a few lines of plain English (the return and
        variance are the solution's report's to say)."""
        lines = [f"bankroll, betting {self.bet:,} coin{'s' * (self.bet != 1)} a hand:"]
        if self.bankroll_coins is not None and self.ruin is not None:
            bets = self.bankroll_coins // self.bet
            over = self.bankroll_coins - bets * self.bet
            spare = f", {over:,} coin{'s' * (over != 1)} over" if over else ""
            start = f"from {self.bankroll_coins:,} coins ({bets:,} bets of {self.bet:,}{spare})"
            lines.append(f"risk of ruin within {self.hands:,} hands {start}: {_percent(self.ruin)}")
        if self.royal is not None:
            lines.append(f"chance of a royal before ruin within {self.hands:,} hands {start}: {_percent(self.royal)}")
        lines.extend(
            f"bankroll for a risk of ruin of at most {_percent(risk)} within {self.hands:,} hands: "
            f"{coins:,} coins ({coins // self.bet:,} bets)"
            for risk, coins in self.bankrolls
        )
        return "\n".join(lines) + "\n"


def bankroll_risk(
    distribution: Iterable[Outcome],
    bankroll_coins: int | None,
    hands: int,
    bet: int = 5,
    *,
    royal: Collection[int] = (),
    risks: Iterable[float] = RISKS,
) -> BankrollRisk:
    """Every figure for one bankroll and number of hands, worked together
    (one table of ruin for every bankroll, and one of the royal when
    ``royal`` names outcomes); with ``bankroll_coins`` None, only the
    bankroll for each risk.

    >>> report = bankroll_risk([(0, 0.5), (2, 0.5)], 4, hands=2, bet=2, royal={1}, risks=(0.25,))
    >>> print(report.text(), end="")
    bankroll, betting 2 coins a hand:
    risk of ruin within 2 hands from 4 coins (2 bets of 2): 25.0000%
    chance of a royal before ruin within 2 hands from 4 coins (2 bets of 2): 75.0000%
    bankroll for a risk of ruin of at most 25.0000% within 2 hands: 4 coins (2 bets)
    """
    outcomes = _outcomes(distribution)
    royals = _royal(royal, len(outcomes))
    wanted = _risks(risks)
    count = _hands(hands)
    size, bets = _bets(0 if bankroll_coins is None else bankroll_coins, bet)
    table = _table(outcomes, count, 1)
    ruin = 1.0 if bets == 0 else float(table[bets - 1]) if bets <= count else 0.0
    mean = expected_pay(outcomes)
    given = bankroll_coins is not None
    return BankrollRisk(
        bet=size,
        bankroll_coins=operator.index(bankroll_coins) if bankroll_coins is not None else None,
        hands=count,
        ruin=ruin if given else None,
        royal=(
            royal_before_ruin(outcomes, bankroll_coins, count, size, royal=royals)
            if royals and bankroll_coins is not None
            else None
        ),
        bankrolls=tuple((risk, _smallest(table, risk, count) * size) for risk in wanted),
        mean=float(mean),
        variance=float(variance(outcomes)),
    )
