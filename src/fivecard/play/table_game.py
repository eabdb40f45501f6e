"""What every table game of fivecard shares (the dealer game,
:class:`~fivecard.play.game.Game`, and the friends' table,
:class:`~fivecard.play.friends.FriendsTable`): the one error of an action
a game does not allow, the seeded shoe its rounds are dealt from, the
verify/can/act pattern of its actions, its state as versioned JSON data,
and its events as a browser may see them.

* Each action ``x`` has ``verify_x`` (raises :class:`GameError` saying why
  not), ``can_x`` (a bool: :meth:`TableGame.can`) and the action itself,
  which verifies first and returns what happened (event records).
  :class:`RoleRequired` is the same refusal when it is the one asking who
  may not (only the host may start a round; a seat is needed to deal).
* The shoe (:class:`Shoe`) deals each round from a deck shuffled by that
  round's seed, a hash of the game's secret seed and the round's number
  (:func:`round_seed`): no number of rounds seen tells anything of the
  next one's deck, and a round can be dealt again from its seed. A seed
  the caller chose may instead drive one generator for every round
  (``chained``), as the dealer game replays a seed.
* :meth:`TableGame.to_state` is the whole game as plain JSON data with its
  ``version``; :meth:`TableGame.from_state` restores it or refuses it
  whole (:class:`GameError`), never half-way.
* :meth:`TableGame.public_event` is an event as a browser may see it: its
  ``type`` and only the fields the game's :attr:`TableGame.EVENT_FIELDS`
  names for that type, however the event was kept. Events of the types
  :attr:`TableGame.KEPT_EVENTS` names are kept only as their latest so many.
* A game has at most :data:`MAX_ROUNDS` rounds: what it keeps is bounded.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeVar

from ..core.cards import Card
from ..core.errors import FivecardError
from ..core.hand import HAND_SIZE
from ..core.rules import RuleSet, get_rules

__all__ = [
    "GameError",
    "MAX_ROUNDS",
    "RoleRequired",
    "check_positions",
    "Shoe",
    "TableGame",
    "public_fields",
    "round_deck",
    "round_seed",
    "shuffled_deck",
]

G = TypeVar("G", bound="TableGame")

#: The most rounds one table game may have (a friends' table ends after so
#: many; a dealer game starts no more): every round keeps its events, so a
#: game's history is bounded (a dealer game's round keeps about 7 KB).
MAX_ROUNDS: Final = 10_000

#: The exceptions a damaged saved state raises while it is read (an
#: ArithmeticError: ``int()`` of the Infinity JSON may hold, a fraction over 0).
_DAMAGED: Final = (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError)


class GameError(FivecardError):
    """An action that a table game's state does not allow now (or settings,
    or a saved state, that it cannot take), with the game's reason."""


class RoleRequired(GameError):
    """An action the one asking may not take: it is another role's (only
    the host may start a round) or needs one the asker lacks (a seat)."""


def check_positions(keep: Sequence[int]) -> None:
    """Positions of cards kept (0-based) as every game takes them: each
    one of the hand's, each once; else a :class:`GameError` naming the
    first that is not (the message counts positions 1-5, as players do).

    >>> check_positions([0, 2, 3])
    >>> check_positions([0, 5])
    Traceback (most recent call last):
    fivecard.play.table_game.GameError: there is no card 6 (the card positions are 1-5)
    """
    for p in keep:
        if not 0 <= p < HAND_SIZE:
            raise GameError(f"there is no card {p + 1} (the card positions are 1-{HAND_SIZE})")
    for i, p in enumerate(keep):
        if p in keep[:i]:
            raise GameError(f"a card position is given twice (position {p + 1})")


def round_seed(seed: int, number: int, *, kind: str = "table") -> int:
    """The seed of round ``number``'s shuffle in a ``kind`` of game (a
    friends' ``table``, the dealer ``game``) whose secret seed is ``seed``: a
    hash, so that a round's seed, or its deck, tells nothing of the secret
    seed or of any other round's deck, and a round can be dealt again from
    its record."""
    digest = hashlib.sha256(f"fivecard {kind} {seed} round {number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def shuffled_deck(rules: RuleSet, rng: random.Random) -> list[Card]:
    """The rule set's deck in dealing order, shuffled by ``rng`` (rank-only
    cards under ``semi``, whose deck hides suits)."""
    cards = list(rules.deck())
    rng.shuffle(cards)
    return cards


def round_deck(rules: str | RuleSet, seed: int) -> list[Card]:
    """A round's deck in dealing order: the rule set's deck shuffled by the
    round's seed (:func:`round_seed`)."""
    return shuffled_deck(get_rules(rules), random.Random(seed))


class Shoe:
    """Where a table game's rounds are dealt from: a secret ``seed`` (63
    random bits unless the caller chose one: ``seeded``) and, for each
    round, a deck shuffled by :meth:`round_seed`. ``chained``: a seed the
    caller chose drives one generator (``rng``, kept in the game's state)
    for every round in turn, so the same seed plays the same game again;
    otherwise ``rng`` plays no part."""

    def __init__(self, rules: RuleSet, kind: str, seed: int | None = None, *, chained: bool = False) -> None:
        self.rules = rules
        self.kind = kind
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.seeded = seed is not None
        self.chained = chained
        self.rng = random.Random(self.seed)

    def round_seed(self, number: int) -> int:
        """The seed of round ``number``'s deck (:func:`round_seed`)."""
        return round_seed(self.seed, number, kind=self.kind)

    def deck(self, number: int) -> list[Card]:
        """Round ``number``'s deck in dealing order."""
        if self.chained and self.seeded:
            return shuffled_deck(self.rules, self.rng)
        return round_deck(self.rules, self.round_seed(number))

    def rng_state(self) -> list[Any]:
        """The generator's state as JSON data."""
        version, internal, gauss = self.rng.getstate()
        return [version, list(internal), gauss]

    def restore_rng(self, state: Any) -> None:
        version, internal, gauss = state
        if not isinstance(internal, list) or not all(type(v) is int for v in internal):
            raise GameError("the shuffler's state is not a list of whole numbers")
        self.rng.setstate((int(version), tuple(internal), gauss))


def public_fields(event: Mapping[str, Any], fields: Mapping[str, frozenset[str]]) -> dict[str, Any]:
    """An event with its ``type`` and only the fields ``fields`` names for
    that type (none for a type it does not name), in their order: what a
    browser may be sent of it, however it was kept.

    >>> public_fields({"type": "dealt", "seat": 1, "cards": ["As"]}, {"dealt": frozenset({"seat"})})
    {'type': 'dealt', 'seat': 1}
    """
    kind = str(event.get("type", ""))
    allowed = fields.get(kind, frozenset())
    return {"type": kind, **{k: v for k, v in event.items() if k in allowed}}


class TableGame:
    """The base of a table game: its versioned state, the verify/can/act
    pattern, the owners a web app keeps for it, its public events.

    A subclass sets :attr:`KIND` (what its rounds' seeds are hashed with),
    :attr:`NOUN` (what a message calls it), :attr:`STATE_VERSION` and
    :attr:`EVENT_FIELDS`, and writes :meth:`_state` and :meth:`_restore`."""

    #: The kind of game, in its round seeds' hash (:func:`round_seed`).
    KIND: ClassVar[str] = "game"
    #: What a message calls it.
    NOUN: ClassVar[str] = "game"
    #: The version of :meth:`to_state`'s data.
    STATE_VERSION: ClassVar[int] = 1
    #: What each of its events may carry to a browser, by the event's type.
    EVENT_FIELDS: ClassVar[Mapping[str, frozenset[str]]] = {}
    #: Event types kept only as their latest so many (a store drops older
    #: ones): what no state needs and nothing else bounds (a table's chat).
    KEPT_EVENTS: ClassVar[Mapping[str, int]] = {}

    shoe: Shoe

    @property
    def seed(self) -> int:
        """The game's secret seed (its shoe's)."""
        return self.shoe.seed

    @property
    def seeded(self) -> bool:
        """The caller chose the seed (so every round can be known in advance)."""
        return self.shoe.seeded

    # -- the verify/can/act pattern ------------------------------------------------

    @staticmethod
    def can(verify: Callable[[], None]) -> bool:
        """Whether ``verify`` (a ``verify_…`` with its arguments bound) lets
        the action go: False where it raises :class:`GameError`."""
        try:
            verify()
        except GameError:
            return False
        return True

    # -- who holds it (the web app's owners: hashes of browsers' secrets) --------

    def owners(self) -> set[str]:
        """The owners the game itself records (none by default: the store
        keeps a game's owner beside it)."""
        return set()

    def move_owner(self, old: str, new: str) -> None:
        """What ``old`` holds in the game becomes ``new``'s."""

    # -- events -----------------------------------------------------------------

    @classmethod
    def public_event(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        """An event as a browser may see it (:attr:`EVENT_FIELDS`)."""
        return public_fields(event, cls.EVENT_FIELDS)

    # -- saving and restoring ------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """The whole game as plain JSON data, with its ``version``:
        :meth:`from_state` makes a game that goes on exactly as this one
        would."""
        return {"version": self.STATE_VERSION, **self._state()}

    @classmethod
    def from_state(cls: type[G], state: Mapping[str, Any]) -> G:
        """The game :meth:`to_state` saved. Data that is not such a state
        (another version, missing or mistyped fields, cards that cannot be
        read) is a :class:`GameError` saying what."""
        what = f"a saved {cls.NOUN} that cannot be restored"
        if not isinstance(state, Mapping) or state.get("version") != cls.STATE_VERSION:
            version = state.get("version") if isinstance(state, Mapping) else None
            raise GameError(f"{what}: version {version!r}, not {cls.STATE_VERSION}")
        try:
            return cls._restore(state)
        except GameError as exc:
            raise GameError(f"{what}: {exc}") from None
        except _DAMAGED as exc:
            raise GameError(f"{what}: {type(exc).__name__}: {exc}") from None

    def _state(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _restore(cls: type[G], state: Mapping[str, Any]) -> G:
        raise NotImplementedError
