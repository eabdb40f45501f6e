"""Dealing: shuffle a rule set's deck and give each player five cards,
reproducible from a seed. Without a seed, a fresh one is drawn from the
operating system's randomness (and reported, so a deal can be replayed).

Counts are checked before anything is allocated or dealt: a player count
must be from 1 to the rule set's maximum (:func:`max_players`), a round
count at least 1; any other value is a :class:`~fivecard.core.errors.FivecardError`
that quotes it and gives the allowed range, however large it is.
"""

from __future__ import annotations

import operator
import random
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any, SupportsIndex

from ..core.cards import Card
from ..core.errors import FivecardError, in_context, quote
from ..core.evaluate import Evaluation, evaluate
from ..core.hand import HAND_SIZE, Hand
from ..core.report import evaluation_json, showdown_json
from ..core.rules import RuleSet, get_rules
from ..core.showdown import Showdown, settle

__all__ = [
    "Round",
    "DealTally",
    "deal",
    "deal_rounds",
    "new_seed",
    "max_players",
    "check_players",
    "check_rounds",
    "check_names",
]


def new_seed() -> int:
    """A seed from the operating system's randomness."""
    return secrets.randbits(63)


def max_players(rules: str | RuleSet) -> int:
    """The most players one deck of the rule set can deal five cards to.

    >>> max_players("standard"), max_players("joker")
    (10, 10)
    """
    return len(get_rules(rules).deck()) // HAND_SIZE


def _whole_number(value: object, what: str) -> int:
    if isinstance(value, SupportsIndex) and not isinstance(value, bool):
        return operator.index(value)
    raise FivecardError(f"{what} must be a whole number, got {value!r:.60}")


def check_players(players: int, rules: str | RuleSet = "standard") -> RuleSet:
    """Check a player count against the rule set (before anything is dealt)
    and return the rule set.

    >>> check_players(300_000_000)
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: players must be from 1 to 10 under the standard rules (52 cards), got 300000000
    """
    ruleset = get_rules(rules)
    count = _whole_number(players, "players")
    most = max_players(ruleset)
    if not 1 <= count <= most:
        raise FivecardError(
            f"players must be from 1 to {most} under the {ruleset.name} "
            f"rules ({len(ruleset.deck())} cards), got {count}"
        )
    return ruleset


def check_rounds(rounds: int) -> None:
    """Check a round count: at least 1 (there is no upper limit: rounds are
    dealt one at a time).

    >>> check_rounds(0)
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: rounds must be at least 1, got 0
    """
    count = _whole_number(rounds, "rounds")
    if count < 1:
        raise FivecardError(f"rounds must be at least 1, got {count}")


def check_names(names: Sequence[str], rules: str | RuleSet = "standard") -> tuple[str, ...]:
    """Check the players' names (one a player) and return them as they are
    shown: each as a seat's name at a friends' table is read
    (:func:`~fivecard.play.friends.seat_name`: not empty, at most 40
    characters, no control, format or invisible character, no word used for
    a role such as ``Hand 2``), no two alike (:func:`~fivecard.play.friends.name_key`:
    ``Ann`` and ``ANN`` are one name), and as many as the rule set can deal to.

    >>> check_names([" Ann ", "Bob"])
    ('Ann', 'Bob')
    >>> check_names(["Ann", "ann"])
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: name 2, 'ann', is name 1 ('Ann') again: give each player another name
    """
    from .friends import name_key, seat_name

    if isinstance(names, str):
        raise FivecardError(f"names must be a list of names, got the text {quote(names)}")
    try:
        check_players(len(names), rules)
    except FivecardError as exc:
        raise in_context(exc, f"{len(names)} names: ") from None
    shown: list[str] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(names, 1):
        if not str(raw).strip():
            raise FivecardError(f"name {number} is empty: each player needs a name")
        try:
            name = seat_name(raw)
        except FivecardError as exc:
            raise in_context(exc, f"name {number}, {quote(str(raw))}: ") from None
        first = seen.setdefault(name_key(name), number)
        if first != number:
            raise FivecardError(
                f"name {number}, {quote(name)}, is name {first} ({quote(shown[first - 1])}) again: "
                "give each player another name"
            )
        shown.append(name)
    return tuple(shown)


def _deal_from(cards: tuple[Card, ...], players: int, ruleset: RuleSet, rng: random.Random) -> tuple[Hand, ...]:
    deck = list(cards)
    rng.shuffle(deck)
    return tuple(
        Hand(tuple(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]), ruleset) for i in range(players)
    )


def deal(players: int, *, rules: str | RuleSet = "standard", rng: random.Random) -> tuple[Hand, ...]:
    """Shuffle the rule set's deck with ``rng`` and deal five cards to each
    player (``semi``: from 52 cards, suits then ignored)."""
    ruleset = check_players(players, rules)
    return _deal_from(ruleset.deck(), players, ruleset, rng)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    evaluations: tuple[Evaluation, ...]
    showdown: Showdown | None

    def to_json(self) -> dict[str, Any]:
        """The round as an item of ``fivecard deal --json``'s rounds:
        ``{"round", "hands", "winners", "order", "explanation"}``, as a
        showdown's; with one player (no showdown) the last three are
        ``null``."""
        if self.showdown is not None:
            return {"round": self.number, **showdown_json(self.showdown)}
        return {
            "round": self.number,
            "hands": [evaluation_json(e) for e in self.evaluations],
            "winners": None,
            "order": None,
            "explanation": None,
        }


@dataclass(slots=True)
class DealTally:
    """Wins per player over rounds: sole wins and shared (split) wins, and
    the rounds counted. The player count is checked against ``rules``
    before the tally is made."""

    players: int
    rules: InitVar[str | RuleSet] = "standard"
    #: The players' names (one a player), or None: numbered.
    names: Sequence[str] | None = None
    wins: list[int] = field(init=False)
    splits: list[int] = field(init=False)
    rounds: int = field(init=False, default=0)

    def __post_init__(self, rules: str | RuleSet) -> None:
        check_players(self.players, rules)
        if self.names is not None and len(self.names) != self.players:
            raise FivecardError(f"{len(self.names)} names for {self.players} players")
        self.wins = [0] * self.players
        self.splits = [0] * self.players

    def to_json(self) -> list[dict[str, Any]]:
        """Wins and split wins per player (1-based), as ``fivecard deal
        --json``'s ``tally``: ``[{"player", "wins", "splits"}, ...]`` (with
        names, ``{"player", "name", "wins", "splits"}``)."""
        names = self.names
        return [
            {"player": i + 1, **({"name": names[i]} if names else {}), "wins": self.wins[i], "splits": self.splits[i]}
            for i in range(self.players)
        ]

    def text(self) -> str:
        """``Tally after N rounds:`` and a line per player's wins and
        splits."""
        lines = [f"Tally after {self.rounds} rounds:"]
        for wins, splits, who in zip(self.wins, self.splits, self.labels()):
            lines.append(f"  {who}: {wins} win{'' if wins == 1 else 's'}, {splits} split{'' if splits == 1 else 's'}")
        return "\n".join(lines) + "\n"

    def chat(self) -> str:
        """The tally as one line to paste into a chat: ``Tally after N
        rounds: Ann: 2 wins, 0 splits; Bob: ...``."""
        each = [
            f"{who}: {wins} win{'' if wins == 1 else 's'}, {splits} split{'' if splits == 1 else 's'}"
            for wins, splits, who in zip(self.wins, self.splits, self.labels())
        ]
        return f"Tally after {self.rounds} rounds: {'; '.join(each)}\n"

    def labels(self) -> list[str]:
        """What each player is called: its name, or ``Hand N``."""
        return list(self.names) if self.names else [f"Hand {i + 1}" for i in range(self.players)]

    def add_chunk(self, chunk: Any) -> None:
        """Count the showdowns of a chunk of dealt rounds
        (:func:`~fivecard.files.pipeline.dealt_chunks`)."""
        self.rounds += len(chunk)
        seen = chunk.outcome[chunk.outcome >= 0]
        if not len(seen):
            return
        import numpy as np

        times = np.bincount(seen)
        used = np.flatnonzero(times)
        counts = times[used]
        for number, times in zip(used.tolist(), counts.tolist()):
            winners = chunk.outcomes[number].winners
            for i in winners:
                if len(winners) == 1:
                    self.wins[i] += times
                else:
                    self.splits[i] += times

    def add(self, played: Round) -> None:
        if len(played.evaluations) != self.players:
            raise FivecardError(
                f"round {played.number} has {len(played.evaluations)} hands; "
                f"the tally counts {self.players} players"
            )
        self.rounds += 1
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
    round) and settle each showdown. The counts are checked when this is
    called, before the first round; rounds are then dealt one at a time as
    they are read, so any number of rounds takes the same memory."""
    ruleset = check_players(players, rules)
    check_rounds(rounds)
    return _rounds(players, ruleset, seed, rounds)


def _rounds(players: int, ruleset: RuleSet, seed: int, rounds: int) -> Iterator[Round]:
    rng = random.Random(seed)
    cards = ruleset.deck()
    for number in range(1, rounds + 1):
        evaluations = tuple(evaluate(h) for h in _deal_from(cards, players, ruleset, rng))
        showdown = settle(evaluations) if len(evaluations) > 1 else None
        yield Round(number, evaluations, showdown)
