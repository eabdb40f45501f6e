"""Five-card draw against a dealer, with computer players (as in Poker vs
Dealer): the engine, a state machine with validated actions and event
records. It never prints; ``fivecard play`` (and a future web page) drive it.

The rules (also in the manual's page on `fivecard play`):

* Seats: the player (seat 0) and two computer players; the dealer is the
  house. Stacks start at 1,000 chips; a seat that cannot pay 20 sits out.
* Each round every seat puts 10 into the table pot (ante) and bets 10 against
  the house, and gets five cards from one shuffled deck (54 cards under
  ``joker``, 36 under ``short-deck``; ``semi`` deals from 52 and hides suits).
* In seat order each seat folds (losing ante and house bet) or keeps any of
  its cards and exchanges the rest once (0-5 cards) from the same deck.
* The dealer then gets five cards, turned up one at a time.
* Showdown: each seat still in plays the dealer: a higher hand wins the house
  bet 1:1, a lower hand loses it, a draw returns it. The best hand among the
  seats still in takes the pot; a tie splits it, odd chips to the earliest
  seat. If every seat folds, the pot carries to the next round.
* A seat's chips in a settled round add up (:class:`SeatResult`): its
  net, the change of its stack, is the house bet's result plus its share
  of the pot less its ante (a fold: −10 house bet, −10 ante, −20 net).
* Computer players keep what the advisor recommends and fold when its best
  chance to beat the dealer is below ``fold_below`` (a number from 0 to 1,
  30% by default). Under these rules folding never saves chips (the house
  bet is lost either way), so this is a cautious player's habit, not the
  best play.
* Quitting mid-round voids the round (:meth:`Game.void_round`): every chip
  put in during it (antes into the pot and house bets, including the house
  bet of a seat that folded earlier in the round) goes back to its seat, so
  the stacks are exactly what they were before the round started. A pot
  carried from an earlier all-fold round stays in the pot, unclaimed. A
  round can be voided at any time until it is settled; a settled round
  stands. Voided rounds keep their number but are not counted in
  :attr:`Game.played`.
* With the trainer on (``trainer``), your exchange is judged against the
  advisor's choices for the hand you held (:class:`ExchangeVerdict`, on
  the :class:`Exchanged` event): whether it was the best play and, if not,
  what it cost in chance to win and in chips on the house bet.
* A game has at most :data:`~fivecard.play.table_game.MAX_ROUNDS` rounds
  (10,000, voided ones counted, as a friends' table has): then no round
  starts (a :class:`GameError` saying so; the web app's 409).

The books balance after every action: ``sum(stacks) + pot + house`` plus the
house bets still in play is the chips the seats started with (``house`` is
the house's net result).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .advise import Advice, Choice, advise
from .percent import percent, points
from ..core.cards import Card, Rank, Suit
from ..core.evaluate import Evaluation, evaluate
from ..core.hand import HAND_SIZE, Hand
from ..core.rules import RuleSet, get_rules
from ..core.lang import NP_, Language, LangLike, language
from ..core.showdown import Showdown, explain, settle
from ..core.words import card_text, spoken_list
from .table_game import MAX_ROUNDS, GameError, Shoe, TableGame, check_positions

__all__ = [
    "Game",
    "GameError",
    "RoundStarted",
    "Folded",
    "Exchanged",
    "ExchangeVerdict",
    "DealerCard",
    "SeatResult",
    "RoundSettled",
    "RoundVoided",
    "GAME_EVENT_FIELDS",
    "split_pot",
    "keep_positions",
    "breaks_made_hand",
    "ANTE",
    "BET",
    "seat_name",
    "against_dealer_text",
    "pot_explanation",
    "verdict_text",
]

ANTE: Final = 10
BET: Final = 10
STACK: Final = 1_000
FOLD_BELOW: Final = 0.30
NAMES: Final = ("You", "Computer 1", "Computer 2")


# --- events ------------------------------------------------------------------------

#: What each event of the game may carry, by its type. ``exchanged`` carries
#: the cards (``kept``, ``discarded``, ``drawn``) and the trainer's
#: ``verdict`` of your own exchange only.
GAME_EVENT_FIELDS: Final[dict[str, frozenset[str]]] = {
    "round_started": frozenset({"round", "seats", "pot", "carried", "stacks", "text"}),
    "folded": frozenset({"round", "seat", "text"}),
    "exchanged": frozenset({"round", "seat", "count", "text", "kept", "discarded", "drawn", "verdict"}),
    "dealer_card": frozenset({"round", "card", "position", "text"}),
    "round_settled": frozenset(
        {
            "round", "dealer", "dealer_cards", "results", "pot", "pot_winners", "pot_explanation",
            "carried", "carried_in", "pot_text", "chips_text", "stacks", "text",
        }
    ),  # fmt: skip
    "round_voided": frozenset({"round", "returned", "pot", "stacks", "text"}),
}
_YOURS: Final = ("kept", "discarded", "drawn", "verdict")


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    seats: tuple[int, ...]  # the seats dealt in
    pot: int  # after the antes, carried chips included
    carried: int
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Folded:
    seat: int
    advice: Advice | None = None  # a computer's reason


#: Choices whose scores differ by no more than this are equally good: the
#: same chances reached through draws counted in another order (a king of
#: spades kept or a king of hearts) may differ in the last bits of a float.
_SAME: Final = 1e-12


@dataclass(frozen=True, slots=True)
class ExchangeVerdict:
    """The trainer's verdict of one exchange: the choice the player made
    (``chosen``) beside the advisor's (``advised``, the recommended one)
    for the hand held before it, and what the difference cost.

    ``best``: the chosen choice is as good as the advisor's (equal scores,
    the house bet's expectation: equal chances are no mistake, whichever
    equal cards were kept). The costs are best minus chosen: ``win`` and
    ``draw``, chances (0.051 is 5.1 points); ``chips``, the expected chips
    on a house bet of ``bet`` chips (paid 1:1, a draw returns it), where a
    choice is worth ``bet × (win − lose)``. The pot is left out: what it
    brings depends on the other players' hands.
    """

    chosen: Choice
    advised: Choice
    bet: int = BET

    @classmethod
    def of(cls, advice: Advice, keep: Sequence[int], *, bet: int = BET) -> ExchangeVerdict:
        """The verdict of keeping the cards at positions ``keep`` (0-4) of
        ``advice``'s hand, the advisor's view against the dealer of the
        hand before the exchange (:meth:`Game.hint`)."""
        if advice.paytable is not None:
            raise GameError(f"the trainer judges play against the dealer, not under {advice.paytable.title}")
        cards = advice.hand.cards
        kept = tuple(cards[p] for p in sorted(keep))
        chosen = next(c for c in advice.choices if c.keep == kept)
        return cls(chosen, advice.recommended, bet)

    @property
    def best(self) -> bool:
        return self.advised.score - self.chosen.score <= _SAME

    @property
    def win(self) -> float:
        """The chance to win given up: the advisor's less the chosen one's."""
        return self.advised.win - self.chosen.win

    @property
    def draw(self) -> float:
        """The chance of a draw given up: the advisor's less the chosen one's."""
        return self.advised.draw - self.chosen.draw

    @property
    def chips(self) -> float:
        """The expected chips given up on the house bet (0 for a best play)."""
        return 0.0 if self.best else self.bet * (self.advised.score - self.chosen.score)

    def text(self, lang: LangLike = None) -> str:
        """One or two sentences, chances as the hint rounds them (0.1%):
        the best play, or what the advisor keeps and what the difference
        costs; its points of win chance are the difference of the two
        chances as shown. ``lang``: the language (default English).

        >>> from fivecard.play.advise import advise
        >>> verdict = ExchangeVerdict.of(advise("KS KH 7C 4D 2S"), [0])
        >>> print(verdict.text())  # doctest: +NORMALIZE_WHITESPACE
        Not the best play: you kept K♠ (beats the dealer 54.3%); the advisor keeps K♠ K♥
        (90.7%): 36.4 points less chance to win, 7.27 chips lost on average on the house
        bet of 10 (the pot aside).
        """
        return verdict_text(self.to_json(said=False), lang)

    def to_json(self, lang: LangLike = None, *, said: bool = True) -> dict[str, Any]:
        """The verdict as JSON data: ``best``; ``chosen`` and ``advised``,
        each with its ``keep`` (card codes) and ``win``, ``draw`` and
        ``lose`` chances; the costs ``win``, ``draw`` and ``chips`` (best
        minus chosen, unrounded); ``bet``; and ``text`` (:meth:`text`, in
        ``lang``; :func:`verdict_text` says it again from the data)."""

        def row(choice: Choice) -> dict[str, Any]:
            return {
                "keep": [c.code_str for c in choice.keep],
                "win": choice.win,
                "draw": choice.draw,
                "lose": choice.lose,
            }

        data: dict[str, Any] = {
            "best": self.best,
            "chosen": row(self.chosen),
            "advised": row(self.advised),
            "win": self.win,
            "draw": self.draw,
            "chips": self.chips,
            "bet": self.bet,
        }
        if said:
            data["text"] = verdict_text(data, lang)
        return data


def _shown(chance: float) -> float:
    """A chance in points as the reports show it (46.1 for 0.4613)."""
    return points(chance)


def verdict_text(data: Mapping[str, Any], lang: LangLike = None) -> str:
    """The trainer's verdict in a sentence or two (:meth:`ExchangeVerdict.text`)
    from its JSON data (:meth:`ExchangeVerdict.to_json`), in ``lang``: a
    verdict kept as data reads in the language of whoever views it."""
    words = language(lang)
    chosen, advised = data["chosen"], data["advised"]
    if data["best"]:
        kept, chance = _kept(chosen["keep"], words), percent(chosen["win"])
        if chosen["keep"] == advised["keep"]:
            return words.phrase(
                "Best play: you {kept}, the advisor's choice (beats the dealer {chance}).", "play", kept=kept, chance=chance
            )
        return words.phrase(
            "Best play: you {kept}, as good as the advisor's choice (beats the dealer {chance}).",
            "play",
            kept=kept,
            chance=chance,
        )
    shown = _shown(advised["win"]) - _shown(chosen["win"])
    if shown > 0:
        chance = words.phrase("{points} points less chance to win", "play", points=f"{shown:.1f}")
    elif shown < 0:
        chance = words.phrase("{points} points more chance to win but more to lose", "play", points=f"{-shown:.1f}")
    else:
        chance = words.phrase("the same chance to win but more to lose", "play")
    return words.phrase(
        "Not the best play: you {kept} (beats the dealer {chance_kept}); the advisor {keeps} ({chance_advised}): "
        "{difference}, {chips} chips lost on average on the house bet of {bet} (the pot aside).",
        "play",
        kept=_kept(chosen["keep"], words),
        chance_kept=percent(chosen["win"]),
        keeps=_kept(advised["keep"], words, advisor=True),
        chance_advised=percent(advised["win"]),
        difference=chance,
        chips=f"{data['chips']:.2f}",
        bet=data["bet"],
    )


def _kept(codes: Sequence[str], lang: Language, *, advisor: bool = False) -> str:
    """What a choice keeps (card codes), after "you" (``kept``) or "the
    advisor" (``keeps``)."""
    cards = " ".join(card_text(Card.parse(c), lang) for c in codes)
    if not codes:
        if advisor:
            return lang.phrase("exchanges all five", "play")
        return lang.phrase("exchanged all five", "play")
    if len(codes) == HAND_SIZE:
        if advisor:
            return lang.phrase("keeps all five, {cards}", "play", cards=cards)
        return lang.phrase("kept all five, {cards}", "play", cards=cards)
    if advisor:
        return lang.phrase("keeps {cards}", "play", cards=cards)
    return lang.phrase("kept {cards}", "play", cards=cards)


@dataclass(frozen=True, slots=True)
class Exchanged:
    seat: int
    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]
    hand: Hand
    advice: Advice | None = None  # a computer's reason
    verdict: ExchangeVerdict | None = None  # the trainer's, of the player's exchange


@dataclass(frozen=True, slots=True)
class DealerCard:
    card: Card
    position: int  # 1 ... 5


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What a round did for one seat dealt in: its hand (None: folded),
    its result against the dealer, and its chips. ``ante`` went into the
    pot, ``house`` is the house bet's result, ``pot`` the chips it took
    from the pot: :attr:`net`, their sum, is exactly what the round did to
    its stack."""

    seat: int
    evaluation: Evaluation | None  # None: folded
    against_dealer: str  # "win", "draw", "lose" or "fold"
    house: int  # chips won (+) or lost (-) on the house bet
    pot: int  # chips taken from the pot
    explanation: str
    ante: int = ANTE  # chips put into the pot
    folded: Hand | None = None  # the hand a seat folded (its owner may see it again)

    @property
    def net(self) -> int:
        """What the round did to the seat's stack: the house bet's result
        and the pot's share, less the ante."""
        return self.house + self.pot - self.ante


@dataclass(frozen=True, slots=True)
class RoundSettled:
    round: int
    dealer: Evaluation
    results: tuple[SeatResult, ...]
    pot: int
    pot_winners: tuple[int, ...]
    pot_explanation: str
    carried: int  # chips carried to the next round (everyone folded)
    stacks: tuple[int, ...]
    carried_in: int = 0  # chips of the pot carried from earlier rounds (everyone folded there)


@dataclass(frozen=True, slots=True)
class RoundVoided:
    round: int
    returned: tuple[int, ...]  # chips given back to each seat (0: not dealt in)
    pot: int  # the pot after the void: only chips carried from earlier rounds
    stacks: tuple[int, ...]


def split_pot(pot: int, winners: Sequence[int]) -> dict[int, int]:
    """Share a pot among tied winners; odd chips go to the earliest seats.

    >>> split_pot(25, [2, 0])
    {0: 13, 2: 12}
    """
    ordered = sorted(winners)
    share, odd = divmod(pot, len(ordered))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(ordered)}


# --- the engine --------------------------------------------------------------------


@dataclass
class _Round:
    number: int
    deck: list[Card]
    hands: dict[int, Hand]
    to_act: list[int]
    before: tuple[tuple[int, ...], int, int]  # stacks, pot and house at the start
    folded: set[int] = field(default_factory=set)
    dealer: list[Card] = field(default_factory=list)


class Game(TableGame):
    """The table: seats, stacks, pot and the round in play (a
    :class:`~fivecard.play.table_game.TableGame`).

    Phases: ``"idle"`` (between rounds), ``"draw"`` (seats decide in turn:
    :attr:`turn`), ``"dealer"`` (the dealer's cards are turned up), then
    ``"showdown"`` (ready to settle). Each action has ``can_…`` (a bool),
    ``verify_…`` (raises :class:`GameError` saying why not) and the action
    itself, which returns an event record. :meth:`void_round` (quitting)
    ends the round in play in any phase and gives every chip of it back.

    ``trainer``: the player's exchanges are judged (:class:`ExchangeVerdict`
    on their :class:`Exchanged` events); it is part of the game's state.

    The constructor checks its arguments (:class:`GameError`): ``fold_below``
    is a number from 0 to 1 and each ``stacked`` deck has enough cards for
    every seat and the dealer, no card twice and no more jokers than the
    rules have.
    """

    EVENT_FIELDS = GAME_EVENT_FIELDS

    def __init__(
        self,
        *,
        rules: str | RuleSet = "standard",
        seed: int | None = None,
        names: Sequence[str] = NAMES,
        stack: int = STACK,
        fold_below: float = FOLD_BELOW,
        stacked: Sequence[Sequence[Card]] = (),
        trainer: bool = False,
    ) -> None:
        """``stacked``: card orders the first rounds deal from instead of a
        shuffle (demonstrations and tests); later rounds shuffle."""
        self.rules = get_rules(rules)
        if isinstance(fold_below, bool) or not isinstance(fold_below, (int, float)):
            raise GameError(f"fold_below must be a number from 0 to 1, got {fold_below!r}")
        if not (math.isfinite(fold_below) and 0 <= fold_below <= 1):
            raise GameError(f"fold_below must be a number from 0 to 1, got {fold_below!r}")
        self.names = tuple(names)
        for number, deck in enumerate(stacked, 1):
            where = "the stacked deck" if len(stacked) == 1 else f"stacked deck {number}"
            _check_stacked(list(deck), self.rules, len(self.names), where)
        #: The caller chose the seed (``seeded``): the rounds come from one
        #: generator seeded by it, so the same seed plays the same game again.
        #: Otherwise the seed is the server's secret and each round is
        #: shuffled from a hash of it and the round's number (:func:`round_seed`):
        #: no number of rounds seen tells anything about the next one's deck.
        self.shoe = Shoe(self.rules, self.KIND, seed, chained=True)
        self.stacks = [stack] * len(self.names)
        self.fold_below = float(fold_below)
        self.pot = 0
        self.rounds = 0  # rounds started (a round's number), voided ones included
        self.played = 0  # rounds settled
        self.current: _Round | None = None
        self.house = 0  # the house's net result, for the books
        self.stacked = [list(d) for d in stacked]
        self.trainer = trainer
        self._hinted: Advice | None = None  # the last hint (not kept: the advisor gives it again)

    @classmethod
    def public_event(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        """An event as the player may see it (:data:`GAME_EVENT_FIELDS`; the
        cards of an exchange, and the trainer's verdict of it, only when it
        is the player's, seat 0)."""
        shown = super().public_event(event)
        if shown["type"] == "exchanged" and shown.get("seat") != 0:
            for key in _YOURS:
                shown.pop(key, None)
        return shown

    @property
    def rng(self) -> random.Random:
        """The generator a seeded game deals every round from."""
        return self.shoe.rng

    # -- saving and restoring ------------------------------------------------

    def _state(self) -> dict[str, Any]:
        """Cards as their codes, the shuffler's state included: mid-round or
        between rounds, the restored game goes on as this one would."""
        current = self.current
        state: dict[str, Any] = {
            "rules": self.rules.name,
            "seed": self.seed,
            "seeded": self.seeded,
            "rng": self.shoe.rng_state(),
            "names": list(self.names),
            "stacks": list(self.stacks),
            "fold_below": self.fold_below,
            "pot": self.pot,
            "rounds": self.rounds,
            "played": self.played,
            "house": self.house,
            "stacked": [_codes(deck) for deck in self.stacked],
            "trainer": self.trainer,
            "round": None,
        }
        if current is not None:
            stacks, pot, house = current.before
            state["round"] = {
                "number": current.number,
                "deck": _codes(current.deck),
                "hands": {str(seat): _codes(hand.cards) for seat, hand in current.hands.items()},
                "to_act": list(current.to_act),
                "before": {"stacks": list(stacks), "pot": pot, "house": house},
                "folded": sorted(current.folded),
                "dealer": _codes(current.dealer),
            }
        return state

    @classmethod
    def _restore(cls, state: Mapping[str, Any]) -> Game:
        return _restored(cls, state)

    # -- state ------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.current is None:
            return "idle"
        if self.current.to_act:
            return "draw"
        if len(self.current.dealer) < HAND_SIZE:
            return "dealer"
        return "showdown"

    @property
    def turn(self) -> int | None:
        """The seat that must act now (in the draw phase)."""
        return self.current.to_act[0] if self.current and self.current.to_act else None

    def hand(self, seat: int) -> Hand | None:
        """A seat's hand in the round in play (None: not dealt in)."""
        return None if self.current is None else self.current.hands.get(seat)

    def folded(self, seat: int) -> bool:
        return self.current is not None and seat in self.current.folded

    def is_computer(self, seat: int) -> bool:
        return seat != 0

    def can_play(self, seat: int) -> bool:
        """Whether a seat can pay the ante and the house bet."""
        return self.stacks[seat] >= ANTE + BET

    @property
    def stacks_before(self) -> tuple[int, ...]:
        """The stacks before the round in play (between rounds: the stacks)."""
        return tuple(self.stacks) if self.current is None else self.current.before[0]

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        return () if self.current is None else tuple(self.current.dealer)

    # -- starting a round ------------------------------------------------------

    def verify_start(self) -> None:
        if self.current is not None:
            raise GameError(f"round {self.current.number} is still in play")
        if self.rounds >= MAX_ROUNDS:
            raise GameError(f"this game has played {self.rounds:,} rounds, the most a game may: start a new game")
        if not self.can_play(0):
            raise GameError(f"{self.names[0]} cannot pay the ante and the bet ({ANTE + BET} chips)")

    def can_start(self) -> bool:
        return self.can(self.verify_start)

    def start_round(self) -> RoundStarted:
        """Collect antes and bets and deal."""
        self.verify_start()
        seats = tuple(s for s in range(len(self.names)) if self.can_play(s))
        if self.stacked:
            cards = self.stacked.pop(0)  # checked by the constructor
            if not self.rules.suits:  # semi: every card dealt, drawn or turned up is a rank
                cards = [c.rank_only() for c in cards]
        else:
            cards = self.shoe.deck(self.rounds + 1)
        carried = self.pot
        hands = {}
        for seat in seats:
            hands[seat] = Hand(tuple(cards[:HAND_SIZE]), self.rules)
            del cards[:HAND_SIZE]
        # The round (with what it can give back) is recorded before any chip
        # moves, so that it can be voided even if interrupted from here on.
        before = (tuple(self.stacks), self.pot, self.house)
        self.current = _Round(self.rounds + 1, cards, hands, list(seats), before)
        self.rounds += 1
        for seat in seats:
            self.stacks[seat] -= ANTE + BET
            self.pot += ANTE
        return RoundStarted(self.rounds, seats, self.pot, carried, tuple(self.stacks))

    # -- voiding a round (quitting) ----------------------------------------------

    def verify_void(self) -> None:
        if self.current is None:
            raise GameError("no round is in play to void (a settled round stands)")

    def can_void(self) -> bool:
        return self.can(self.verify_void)

    def void_round(self) -> RoundVoided:
        """End the round in play without a showdown and give every chip put
        in during it back to its seat: antes, house bets, and the house bets
        of seats that folded. The stacks, the pot (only chips carried from an
        earlier round) and the house are what they were before the round."""
        self.verify_void()
        current = self.current
        assert current is not None
        stacks, pot, house = current.before
        returned = tuple(before - now for before, now in zip(stacks, self.stacks))
        self.stacks[:] = stacks
        self.pot = pot
        self.house = house
        self.current = None
        return RoundVoided(current.number, returned, self.pot, tuple(self.stacks))

    # -- the draw ----------------------------------------------------------------

    def _verify_turn(self, seat: int) -> _Round:
        current = self.current
        if current is None or not current.to_act:
            raise GameError("no seat is to act now")
        if current.to_act[0] != seat:
            raise GameError(f"it is {self.names[current.to_act[0]]}'s turn, not {self.names[seat]}'s")
        return current

    def verify_fold(self, seat: int) -> None:
        self._verify_turn(seat)

    def can_fold(self, seat: int) -> bool:
        return self.can(lambda: self.verify_fold(seat))

    def fold(self, seat: int, *, advice: Advice | None = None) -> Folded:
        current = self._verify_turn(seat)
        current.to_act.pop(0)
        current.folded.add(seat)
        self.house += BET
        return Folded(seat, advice)

    def verify_exchange(self, seat: int, keep: Sequence[int]) -> None:
        """``keep``: positions (0-4) of the cards kept."""
        current = self._verify_turn(seat)
        check_positions(keep)
        drawn, left = HAND_SIZE - len(keep), len(current.deck) - HAND_SIZE
        if drawn > left:  # the dealer's five cards are set aside
            raise GameError(
                f"cannot draw {drawn}: {max(left, 0)} cards left in the deck besides the dealer's five"
            )

    def can_exchange(self, seat: int, keep: Sequence[int]) -> bool:
        return self.can(lambda: self.verify_exchange(seat, keep))

    def exchange(self, seat: int, keep: Sequence[int], *, advice: Advice | None = None) -> Exchanged:
        """Keep the cards at positions ``keep`` (0-4) and draw the rest (with
        the trainer on, the player's exchange is judged first:
        :attr:`Exchanged.verdict`)."""
        self.verify_exchange(seat, keep)
        current = self.current
        assert current is not None
        current.to_act.pop(0)
        old = current.hands[seat]
        kept = tuple(old.cards[p] for p in sorted(keep))
        discarded = tuple(c for p, c in enumerate(old.cards) if p not in keep)
        drawn = tuple(current.deck[: len(discarded)])
        del current.deck[: len(discarded)]
        verdict = None
        if self.trainer and not self.is_computer(seat):  # judged against the hand held
            verdict = ExchangeVerdict.of(self.hint(seat), keep)
        hand = Hand(kept + drawn, self.rules)
        current.hands[seat] = hand
        return Exchanged(seat, kept, discarded, drawn, hand, advice, verdict)

    def hint(self, seat: int) -> Advice:
        """The advisor's view of a seat's hand (exact enumeration; the
        last one is remembered, so a hint and the trainer's verdict of the
        same hand count once)."""
        if self.current is None or seat not in self.current.hands:
            raise GameError(f"{self.names[seat]} holds no hand now")
        hand = self.current.hands[seat]
        if self._hinted is None or self._hinted.hand != hand:
            self._hinted = advise(hand)
        return self._hinted

    def breaks_kept_hand(self, seat: int, keep: Sequence[int]) -> Evaluation | None:
        """The seat's made hand when keeping the cards at ``keep`` (0-4)
        breaks it (:func:`breaks_made_hand`) and the play the advisor
        recommends (:meth:`hint`) keeps it; None otherwise. A made hand the
        advisor draws to (a King-high hand under ace-to-five, an Ace-high
        one under deuce-to-seven) is no made hand to keep."""
        hand = self.hand(seat)
        if hand is None:
            raise GameError(f"{self.names[seat]} holds no hand now")
        made = breaks_made_hand(hand, keep)
        if made is None:
            return None
        advised = keep_positions(hand.cards, self.hint(seat).recommended.keep)
        return made if breaks_made_hand(hand, advised) is None else None

    def verify_computer_acts(self) -> None:
        seat = self.turn
        if seat is None or not self.is_computer(seat):
            raise GameError("no computer player is to act now")

    def can_computer_act(self) -> bool:
        return self.can(self.verify_computer_acts)

    def computer_acts(self) -> Folded | Exchanged:
        """The computer seat to act keeps what the advisor recommends, or
        folds when its best chance against the dealer is below fold_below."""
        self.verify_computer_acts()
        seat = self.turn
        assert seat is not None
        advice = self.hint(seat)
        hand = self.hand(seat)
        assert hand is not None
        best = advice.recommended
        positions = keep_positions(hand.cards, best.keep)
        if not self.can_exchange(seat, positions):  # a short stacked deck
            best = next(
                c for c in advice.choices
                if self.can_exchange(seat, keep_positions(hand.cards, c.keep))
            )
            positions = keep_positions(hand.cards, best.keep)
        if best.win < self.fold_below:
            return self.fold(seat, advice=advice)
        return self.exchange(seat, positions, advice=advice)

    # -- the dealer --------------------------------------------------------------

    def verify_reveal(self) -> None:
        if self.phase != "dealer":
            raise GameError(f"the dealer's cards come after the draw (now: {self.phase})")

    def can_reveal(self) -> bool:
        return self.can(self.verify_reveal)

    def reveal_dealer_card(self) -> DealerCard:
        """Turn up the dealer's next card."""
        self.verify_reveal()
        current = self.current
        assert current is not None
        card = current.deck.pop(0)
        current.dealer.append(card)
        return DealerCard(card, len(current.dealer))

    # -- the showdown ------------------------------------------------------------

    def verify_settle(self) -> None:
        if self.phase != "showdown":
            raise GameError(f"the showdown comes after the dealer's five cards (now: {self.phase})")

    def can_settle(self) -> bool:
        return self.can(self.verify_settle)

    def settle(self) -> RoundSettled:
        """Pay the house bets and the pot; explain every comparison."""
        self.verify_settle()
        current = self.current
        assert current is not None
        dealer = evaluate(Hand(tuple(current.dealer), self.rules))
        live = [s for s in current.hands if s not in current.folded]
        evaluations = {s: evaluate(current.hands[s]) for s in current.hands}
        results = []
        # The pot: the live hands' showdown, settled as every showdown is.
        pot_result = settle([evaluations[s] for s in live]) if live else None
        pot_winners = tuple(live[i] for i in pot_result.winners) if pot_result else ()
        pot = self.pot
        shares = split_pot(pot, pot_winners) if pot_winners else {}
        for seat in sorted(current.hands):
            if seat in current.folded:
                why = against_dealer_text(self.names, seat, "fold")
                results.append(SeatResult(seat, None, "fold", -BET, 0, why, folded=current.hands[seat]))
                continue
            mine = evaluations[seat]
            if mine.strength > dealer.strength:
                outcome, house = "win", BET
                why = against_dealer_text(self.names, seat, outcome, explain(mine, dealer))
            elif mine.strength < dealer.strength:
                outcome, house = "lose", -BET
                why = against_dealer_text(self.names, seat, outcome, explain(dealer, mine))
            else:
                outcome, house = "draw", 0
                why = against_dealer_text(self.names, seat, outcome, explain(mine, dealer))
            self.stacks[seat] += BET + house + shares.get(seat, 0)
            self.house -= house
            results.append(SeatResult(seat, mine, outcome, house, shares.get(seat, 0), why))
        if pot_winners:
            self.pot = 0
            carried = 0
            assert pot_result is not None
            pot_text = pot_explanation(pot, pot_result, live, self.names, shares)
        else:
            carried = pot
            pot_text = pot_explanation(pot, None, live, self.names, shares)
        self.current = None
        self.played += 1
        return RoundSettled(
            current.number, dealer, tuple(results), pot, pot_winners, pot_text, carried,
            tuple(self.stacks), carried_in=current.before[1],
        )


_PLAY: Final = "play"  # the domain of the names said from tables

#: The seats' names as the game gives them when none are chosen, each
#: said in the language of whoever reads: the player and the computers.
_SEAT_NAMES: Final = {
    "You": NP_("seat", "You"),
    "Computer 1": NP_("seat", "Computer 1"),
    "Computer 2": NP_("seat", "Computer 2"),
}


def seat_name(name: str, lang: LangLike = None, *, inside: bool = False) -> str:
    """A seat's name in ``lang``: the names the game gives by default
    (:data:`NAMES`) are said in the language, a name chosen is said as it
    is. ``inside``: inside a sentence, where the player, "You" as a
    subject, is "you" ("the dealer beats you").

    >>> seat_name("You"), seat_name("You", inside=True), seat_name("Computer 1", "ja"), seat_name("Ann", "ru")
    ('You', 'you', 'コンピューター1', 'Ann')
    """
    words = language(lang)
    if name == "You" and inside:
        return words.pgettext("seat, inside a sentence", "you", "play")
    found = _SEAT_NAMES.get(name)
    return name if found is None else words.pgettext(*found, _PLAY)


def against_dealer_text(names: Sequence[str], seat: int, outcome: str, why: str = "", lang: LangLike = None) -> str:
    """A seat's result against the dealer in a sentence, with ``why`` (the
    comparison's explanation, in the same language): "You beat the dealer:
    …", "The dealer beats Computer 1: …", "Computer 2 folded"."""
    words = language(lang)
    name = seat_name(names[seat], words)
    you = seat == 0
    if outcome == "fold":
        if you:
            return words.phrase_p("you", "{name} folded", "play", name=name)
        return words.phrase_p("seat", "{name} folded", "play", name=name)
    if outcome == "win":
        if you:
            return words.phrase("{name} beat the dealer: {why}", "play", name=name, why=why)
        return words.phrase("{name} beats the dealer: {why}", "play", name=name, why=why)
    if outcome == "lose":
        if names[seat] == "You":
            return words.phrase("The dealer beats you: {why}", "play", why=why)
        return words.phrase("The dealer beats {name}: {why}", "play", name=name, why=why)
    if you:
        return words.phrase_p("you", "{name} and the dealer draw: {why}", "play", name=name, why=why)
    return words.phrase_p("seat", "{name} and the dealer draw: {why}", "play", name=name, why=why)


def pot_explanation(
    pot: int,
    result: Showdown | None,
    live: Sequence[int],
    names: Sequence[str],
    shares: Mapping[int, int],
    lang: LangLike = None,
) -> str:
    """Who takes the pot and why, in the seats' names, from the live hands'
    :class:`~fivecard.core.showdown.Showdown` (positions among ``live``;
    None: everyone folded), explained in ``lang`` (the showdown's
    explanations are said in it: :func:`~fivecard.core.showdown.explain`)."""
    words = language(lang)
    if result is None:
        return words.phrase("Everyone folded: the pot of {pot} carries to the next round", "play", pot=pot)
    evaluations = result.evaluations
    winners = tuple(live[i] for i in result.winners)
    if len(winners) > 1:
        who = spoken_list([seat_name(names[s], words, inside=i > 0) for i, s in enumerate(winners)], words)
        tie = explain(evaluations[result.winners[0]], evaluations[result.winners[1]], lang=words)
        text = words.phrase(
            "{names} split the pot of {pot} ({shares}): {why}",
            "play",
            names=who,
            pot=pot,
            shares=words.pgettext("list", ", ").join(str(shares[s]) for s in winners),
            why=tie,
        )
    else:
        name = seat_name(names[winners[0]], words)
        if winners[0] == 0:
            text = words.phrase("{name} take the pot of {pot}", "play", name=name, pot=pot)
        else:
            text = words.phrase("{name} takes the pot of {pot}", "play", name=name, pot=pot)
    if len(result.order) > 1:
        runner = result.order[1][0]
        why = words.phrase(
            "{why} ({name})",
            "play",
            why=explain(evaluations[result.winners[0]], evaluations[runner], lang=words),
            name=seat_name(names[live[runner]], words, inside=True),
        )
        if len(winners) > 1:
            text += words.phrase_p("runner-up", "; {why}", "play", why=why)
        else:
            text += words.phrase_p("runner-up", ": {why}", "play", why=why)
    elif len(winners) == 1:
        text += words.phrase(" (the only hand still in)", "play")
    return text


def _check_stacked(cards: list[Card], rules: RuleSet, seats: int, where: str) -> None:
    """A stacked deck must be one the rules could deal: enough cards for the
    seats and the dealer, and only cards the rules' :class:`Deck
    <fivecard.core.rules.Deck>` holds, no more of each than it does (a card
    twice, a rank more than four times, more jokers than the rules have)."""
    needed = HAND_SIZE * (seats + 1)
    if len(cards) < needed:
        raise GameError(
            f"{where} has {len(cards)} card{'s' if len(cards) != 1 else ''}; "
            f"{seats} seats and the dealer need at least {needed}"
        )
    deck = rules.deck()
    seen: dict[Card, int] = {}
    ranks: dict[Rank, int] = {}
    jokers = 0
    for position, card in enumerate(cards, 1):
        refused = deck.refusal(card)
        if card.is_joker:
            if refused:
                raise GameError(
                    f"card {position} of {where} is a joker, which the {rules.name} rules do not use"
                )
            jokers += 1
            if jokers > deck.limits[card.index]:
                raise GameError(f"{where} holds {jokers} jokers; the {rules.name} rules have {rules.jokers}")
            continue
        if refused == "suit":
            raise GameError(
                f"card {position} of {where} ({str(card)!r}) has no suit, which the {rules.name} rules need"
            )
        if refused:
            raise GameError(
                f"card {position} of {where} ({card}) is not in the {rules.name} deck, "
                f"which holds {rules.ranks_text()}"
            )
        if card.suit is not None:
            first = seen.setdefault(card, position)
            if first != position:
                raise GameError(f"{where} holds {card} twice (cards {first} and {position})")
        assert card.rank is not None
        ranks[card.rank] = ranks.get(card.rank, 0) + 1
        if ranks[card.rank] > len(Suit):
            raise GameError(f"{where} holds five {card.rank.plural} (card {position} is the fifth); a deck has four")


def keep_positions(cards: Sequence[Card], keep: Sequence[Card]) -> list[int]:
    """Positions (0-based) in ``cards`` of the cards to keep (a rank-only
    hand may hold a card twice).

    >>> from fivecard import parse_cards
    >>> keep_positions(parse_cards("Q 5 Q K 9"), parse_cards("Q Q"))
    [0, 2]
    """
    left = list(keep)
    positions = []
    for i, card in enumerate(cards):
        if card in left:
            left.remove(card)
            positions.append(i)
    return positions


def breaks_made_hand(hand: Hand, keep: Sequence[int]) -> Evaluation | None:
    """The hand's evaluation when it is a made hand and keeping only the
    cards at positions ``keep`` (0-4) throws away a card it is made of;
    None otherwise. A made hand is Two Pair or better on the rule set's
    ladder (semi, short deck and wild cards as their ladders and the
    evaluation say); under lowball rules, a hand on the ladder's best rung
    (no pair, and under deuce-to-seven no straight and no flush). It is made
    of the cards of its groups of two or more (wild cards included: they
    stand in the groups), or of all five when its category has no group
    (a straight, a flush, a lowball hand): Two Pair drawing to its kicker
    keeps the hand, Two Pair kept as one pair breaks it.

    >>> from fivecard import parse_cards
    >>> two_pair = Hand(parse_cards("KH 4D KS 4C AS"))
    >>> breaks_made_hand(two_pair, [0, 1, 2, 3]) is None
    True
    >>> breaks_made_hand(two_pair, [0, 2])
    evaluate('Kh 4d Ks 4c As')
    >>> breaks_made_hand(Hand(parse_cards("KH KD 7S 4C 2S")), []) is None  # One Pair is not made
    True
    """
    evaluation = evaluate(hand)
    rules = hand.rules
    if rules.low:
        made = evaluation.category is rules.ladder[-1]
    else:
        made = evaluation.score >= rules.scores.get("two_pair", len(rules.ladder) + 1)
    if not made:
        return None
    grouped = sum(n for n in evaluation.category.shape if n > 1) or HAND_SIZE
    needed = keep_positions(hand.cards, evaluation.showdown[:grouped])
    return None if set(needed) <= set(keep) else evaluation


# --- saving and restoring ------------------------------------------------------------

def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code_str for c in cards]


def _cards(codes: object, what: str) -> list[Card]:
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise GameError(f"{what} is not a list of card codes")
    return [Card.parse(c) for c in codes]


def _integers(value: object, what: str) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise GameError(f"{what} is not a list of whole numbers")
    return list(value)


def _restored(cls: type[Game], state: Mapping[str, Any]) -> Game:
    game = cls(
        rules=state["rules"],
        seed=int(state["seed"]),
        names=[str(n) for n in state["names"]],
        fold_below=float(state["fold_below"]),
        # a game kept without the setting (an earlier version) has the trainer off
        trainer=state.get("trainer") is True,
    )
    # a game kept without the mark (an earlier version) shuffles as an unseeded one
    game.shoe.seeded = state.get("seeded") is True
    game.shoe.restore_rng(state["rng"])
    stacks = _integers(state["stacks"], "stacks")
    if len(stacks) != len(game.names):
        raise GameError("a stack per seat is needed")
    game.stacks = stacks
    game.pot, game.rounds, game.played, game.house = (
        int(state["pot"]), int(state["rounds"]), int(state["played"]), int(state["house"])
    )
    game.stacked = [_cards(deck, "a stacked deck") for deck in state["stacked"]]
    saved = state["round"]
    if saved is not None:
        before = saved["before"]
        hands = {
            int(seat): Hand(tuple(_cards(codes, f"seat {seat}'s hand")), game.rules)
            for seat, codes in saved["hands"].items()
        }
        if any(not 0 <= seat < len(game.names) for seat in hands):
            raise GameError("a hand for a seat the table has not")
        game.current = _Round(
            int(saved["number"]),
            _cards(saved["deck"], "the deck"),
            hands,
            _integers(saved["to_act"], "the seats to act"),
            (tuple(_integers(before["stacks"], "the stacks before the round")), int(before["pot"]), int(before["house"])),
            set(_integers(saved["folded"], "the seats that folded")),
            _cards(saved["dealer"], "the dealer's cards"),
        )
    return game
