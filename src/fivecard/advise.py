"""The hold advisor: which cards to keep before the one exchange of draw
poker, by exact enumeration.

For each of the 32 ways to keep some of the five cards, every completion of
the hand from the unseen cards is evaluated (all C(n, k) of them: 2,598,960
hands over the 32 choices from 47 unseen cards), with the batch path. Against
the dealer, the dealer's hand is modelled as a random five of the same unseen
cards (the cards the player has not seen), counted once per advice as hands
per strength, so each completed hand is scored by a lookup. With a pay table,
each choice's expected return per coin is computed instead.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from . import batch
from .cards import Card, Rank, format_cards
from .errors import FivecardError, quote
from .evaluate import HandLike, as_hand
from .hand import Hand
from .rules import RuleSet
from .tables import tables_for

__all__ = [
    "PayTable",
    "PAYTABLES",
    "Choice",
    "Advice",
    "advise",
    "advice_json",
    "load_paytable",
    "unseen_cards",
]


@dataclass(frozen=True, slots=True)
class PayTable:
    """A video-poker pay table: what each category pays per coin bet (the
    coin included, as video poker machines quote it); ``min_pair`` is the
    lowest pair that pays (``J`` for Jacks or Better)."""

    name: str
    pays: dict[str, float]
    min_pair: Rank | None = None

    def payout(self, rules: RuleSet) -> npt.NDArray[np.float64]:
        """The payout of each strength under ``rules``."""
        tables = tables_for(rules)
        out = np.zeros(tables.size + 1)
        for strength in range(1, tables.size + 1):
            hand_class = tables.hand_class(strength)
            name = hand_class.category.name
            pay = self.pays.get(name, 0.0)
            if name == "one_pair" and self.min_pair is not None and hand_class.key[0] < self.min_pair:
                pay = 0.0
            out[strength] = pay
        return out


JACKS_OR_BETTER: Final = PayTable(
    "Jacks or Better 9/6",
    {
        "royal_flush": 800,
        "straight_flush": 50,
        "four_of_a_kind": 25,
        "full_house": 9,
        "flush": 6,
        "straight": 4,
        "three_of_a_kind": 3,
        "two_pair": 2,
        "one_pair": 1,
    },
    min_pair=Rank.JACK,
)

#: Built-in pay tables by name.
PAYTABLES: Final[dict[str, PayTable]] = {"jacks-or-better": JACKS_OR_BETTER}


def load_paytable(name_or_path: str) -> PayTable:
    """A built-in pay table by name, or one from a JSON file::

        {"name": "My table", "pays": {"royal_flush": 250, "one_pair": 1},
         "min_pair": "J"}

    ``pays`` maps category machine names to the payout per coin; categories
    left out pay nothing; ``min_pair`` (optional) is the lowest paying pair.
    """
    if name_or_path.lower() in PAYTABLES:
        return PAYTABLES[name_or_path.lower()]
    path = Path(name_or_path)
    if not path.exists():
        raise FivecardError(
            f"unknown pay table {quote(name_or_path)}: not a built-in name "
            f"({', '.join(PAYTABLES)}) nor a file"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pays = {str(k): float(v) for k, v in data["pays"].items()}
        min_pair = data.get("min_pair")
        rank = None
        if min_pair is not None:
            card = Card.parse(str(min_pair))
            if card.rank is None:
                raise ValueError("min_pair must be a rank")
            rank = card.rank
        return PayTable(str(data.get("name", path.stem)), pays, rank)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise FivecardError(f"bad pay table file {quote(str(path))}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to play the hand: the cards kept and discarded, and what
    follows: the chances to beat, draw with and lose to the dealer, or the
    expected return under a pay table, and the chance of each final
    category."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    win: float
    draw: float
    lose: float
    categories: dict[str, float]
    ev: float | None = None

    @property
    def score(self) -> float:
        """What the choices are ranked by: the expected return with a pay
        table, else the house bet's expectation, win minus lose."""
        return self.ev if self.ev is not None else self.win - self.lose


@dataclass(frozen=True, slots=True)
class Advice:
    """Every choice, best first; the first is recommended."""

    hand: Hand
    choices: tuple[Choice, ...]
    completions: int
    dealer_hands: int
    paytable: PayTable | None = None
    unseen: tuple[Card, ...] = field(default=(), repr=False)

    @property
    def recommended(self) -> Choice:
        return self.choices[0]

    @property
    def reason(self) -> str:
        """One line: why the recommended choice."""
        best = self.choices[0]
        kept = format_cards(best.keep) if best.keep else "nothing"
        if len(best.keep) == 5:
            action = "Keep all five"
        elif not best.keep:
            action = "Exchange all five"
        else:
            action = f"Keep {kept}, exchange {len(best.discard)}"
        if self.paytable is not None:
            why = f"returns {best.ev:.4f} per coin under {self.paytable.name}"
        else:
            why = f"beats the dealer {best.win:.1%} of the time (draws {best.draw:.1%})"
        runner = ""
        if len(self.choices) > 1:
            second = self.choices[1]
            value = f"{second.ev:.4f}" if second.ev is not None else f"{second.win:.1%}"
            others = format_cards(second.keep) if second.keep else "nothing"
            runner = f"; next best: keep {others} ({value})"
        return f"{action}: {why}, the best of {len(self.choices)} choices{runner}"


def unseen_cards(hand: Hand) -> tuple[Card, ...]:
    """The cards of the rule set's deck that the player has not seen. Under
    ``semi`` (suits hidden) one card of each rank held is removed per copy."""
    rules = hand.rules
    if rules.suits:
        held = Counter(hand.cards)
        left: list[Card] = []
        for card in rules.deck():
            if held[card]:
                held[card] -= 1
            else:
                left.append(card)
        return tuple(left)
    counts = Counter(c.rank for c in hand.cards)
    left = []
    for card in rules.deck():
        rank_only = card.rank_only()
        if counts[rank_only.rank]:
            counts[rank_only.rank] -= 1
        else:
            left.append(rank_only)
    return tuple(left)


@cache
def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    return batch.combinations(n, k)


def advise(
    hand: HandLike,
    *,
    rules: str | RuleSet | None = None,
    paytable: PayTable | None = None,
    unseen: Sequence[Card] | None = None,
) -> Advice:
    """Advise which cards to keep, by exact enumeration of every draw.

    ``unseen``: the cards a draw and the dealer come from (default: the
    rule set's deck less the hand; tests pass a small deck).
    """
    played = as_hand(hand, rules)
    ruleset = played.rules
    pool = tuple(unseen) if unseen is not None else unseen_cards(played)
    if len(pool) < 5:
        raise FivecardError(f"need at least 5 unseen cards to draw from, got {len(pool)}")
    pool_codes = np.array([c.code for c in pool], dtype=np.int32)
    category_of = batch.category_table(ruleset)
    ladder = ruleset.ladder
    payout = paytable.payout(ruleset) if paytable is not None else None
    # Dealer hands per strength: every five of the unseen cards.
    dealer = batch.hand_counts(pool_codes, rules=ruleset) if paytable is None else None
    if dealer is not None:
        dealer_total = int(dealer.sum())
        below = np.concatenate(([0], np.cumsum(dealer)[:-1])) / dealer_total
        equal = dealer / dealer_total
    choices = []
    completions = 0
    for mask in range(32):
        kept = tuple(c for i, c in enumerate(played.cards) if mask >> i & 1)
        dropped = tuple(c for i, c in enumerate(played.cards) if not mask >> i & 1)
        draws = _combinations(len(pool), 5 - len(kept))
        codes = np.empty((len(draws), 5), dtype=np.int32)
        codes[:, : len(kept)] = [c.code for c in kept]
        codes[:, len(kept) :] = pool_codes[draws]
        found = batch.strengths_of_codes(codes, rules=ruleset)
        completions += len(found)
        counts = np.bincount(category_of[found], minlength=len(ladder)) / len(found)
        categories = {c.name: float(counts[i]) for i, c in enumerate(ladder)}
        if payout is not None:
            ev = float(payout[found].mean())
            choices.append(Choice(kept, dropped, 0.0, 0.0, 0.0, categories, ev))
        else:
            win = float(below[found].mean())
            draw = float(equal[found].mean())
            choices.append(Choice(kept, dropped, win, draw, max(0.0, 1.0 - win - draw), categories))
    choices.sort(key=lambda c: (-c.score, -c.win, len(c.discard)))
    return Advice(
        played,
        tuple(choices),
        completions,
        0 if dealer is None else int(dealer.sum()),
        paytable,
        pool,
    )


def advice_json(advice: Advice) -> dict[str, Any]:
    """The JSON object of ``advise --json``."""
    rows = []
    for choice in advice.choices:
        row: dict[str, Any] = {
            "keep": [c.code_str for c in choice.keep],
            "discard": [c.code_str for c in choice.discard],
        }
        if choice.ev is not None:
            row["ev"] = choice.ev
        else:
            row.update(win=choice.win, draw=choice.draw, lose=choice.lose)
        row["categories"] = choice.categories
        rows.append(row)
    return {
        "hand": [c.code_str for c in advice.hand.cards],
        "rules": advice.hand.rules.name,
        "paytable": None if advice.paytable is None else advice.paytable.name,
        "completions": advice.completions,
        "dealer_hands": advice.dealer_hands,
        "choices": rows,
        "recommended": 0,
        "reason": advice.reason,
    }
