"""Dealing: shuffle a rule set's deck and give each player five cards,
reproducible from a seed. Without a seed, a fresh one is drawn from the
operating system's randomness (and reported, so a deal can be replayed)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from .errors import FivecardError
from .evaluate import Evaluation, evaluate
from .hand import HAND_SIZE, Hand
from .rules import RuleSet, get_rules
from .showdown import Showdown, settle
from .stats import dealt_cards

__all__ = ["Round", "DealTally", "deal", "deal_rounds", "new_seed", "max_players"]


def new_seed() -> int:
    """A seed from the operating system's randomness."""
    return secrets.randbits(63)


def max_players(rules: RuleSet) -> int:
    return len(rules.deck()) // HAND_SIZE


def deal(players: int, *, rules: str | RuleSet = "standard", rng: random.Random) -> tuple[Hand, ...]:
    """Shuffle the rule set's deck with ``rng`` and deal five cards to each
    player (``semi``: from 52 cards, suits then ignored)."""
    ruleset = get_rules(rules)
    if not 1 <= players <= max_players(ruleset):
        raise FivecardError(
            f"players must be from 1 to {max_players(ruleset)} under the {ruleset.name} "
            f"rules ({len(ruleset.deck())} cards), got {players}"
        )
    deck = list(dealt_cards(ruleset))
    rng.shuffle(deck)
    return tuple(
        Hand(tuple(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]), ruleset) for i in range(players)
    )


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    evaluations: tuple[Evaluation, ...]
    showdown: Showdown | None


@dataclass(slots=True)
class DealTally:
    """Wins per player over rounds: sole wins and shared (split) wins."""

    players: int
    wins: list[int] = field(default_factory=list)
    splits: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0] * self.players
        self.splits = [0] * self.players

    def add(self, played: Round) -> None:
        if played.showdown is None:
            return
        winners = played.showdown.winners
        for i in winners:
            if len(winners) == 1:
                self.wins[i] += 1
            else:
                self.splits[i] += 1


def deal_rounds(
    players: int, *, rules: str | RuleSet = "standard", seed: int, rounds: int = 1
) -> Iterator[Round]:
    """Deal ``rounds`` rounds from one seeded generator (a fresh shuffle each
    round) and settle each showdown."""
    if rounds < 1:
        raise FivecardError(f"rounds must be at least 1, got {rounds}")
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        evaluations = tuple(evaluate(h) for h in deal(players, rules=rules, rng=rng))
        showdown = settle(evaluations) if len(evaluations) > 1 else None
        yield Round(number, evaluations, showdown)
