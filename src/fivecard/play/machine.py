"""A video-poker machine with a trainer: credits, a bet of one coin to the
most the pay table takes, a deal, the cards held, the draw, the final hand
named and paid, and after each draw the trainer's verdict on the hold.

The machine is a :class:`~fivecard.play.table_game.TableGame`, as the
dealer game is: its whole state is JSON data (a web app keeps it in SQLite
and a restart goes on exactly), its actions follow the verify/can/act
pattern and return event records, and each hand is dealt from its own
deck, shuffled from a hash of the machine's secret seed and the hand's
number (:class:`~fivecard.play.table_game.Shoe`): no hand seen tells
anything of the next one's cards, and a hand played can be dealt again
from its number (the trainer's *replay*).

* **A hand.** :meth:`Machine.deal` takes the bet from the credits and deals
  the first five cards of the hand's deck; :meth:`Machine.draw` keeps the
  cards at the positions given and replaces the others from the same deck,
  in order, as machines do; the final hand is paid its line's pay per coin
  times the coins bet (at fewer coins than the most, a line's
  ``below_max``: the royal's 250 per coin). :meth:`Machine.void` (quitting
  mid-hand) gives the bet back, and the next deal is the same hand again,
  at the same bet (the bet cannot change in between: else a void would
  show a hand's cards before its bet is chosen).
* **The trainer.** Every hold of the deal is valued exactly
  (:func:`~fivecard.play.strategy.hold_values`: the strategy solver's own
  sums, for the one deal): the verdict (:class:`Verdict`) says whether the
  hold was the best one, and if not the best hold, both expected returns
  and the exact cost, in coins and in percent of the bet. A hold worth as
  much as the best one is no mistake. ``threshold``: mistakes costing at
  most this percent of the bet are not warned about (they are still in the
  log).
* **The session log** (:class:`SessionLog`): the hands played, the
  mistakes and their cost, the return the player got (paid over bet)
  against the expected return of perfect play over the same deals (and
  what perfect play would have been paid on the same cards), and the
  biggest mistakes. The log is the fold of the hands' records
  (:class:`HandRecord`, :meth:`Tally.add`): the machine keeps the fold and
  the biggest mistakes; the records themselves are its events, and its CSV
  export (:meth:`SessionLog.rows`) reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Final

import numpy as np

from ..core.cards import Card, format_cards
from ..core.errors import quote
from ..core.evaluate import evaluate
from ..core.hand import HAND_SIZE
from ..core.report import Painter, number_text
from ..core.rules import RuleSet
from ..vector import batch
from ..core.lang import ENGLISH, Language, LangLike, language
from ..core.words import card_text, category_name, error_text
from .holds import describe_hold
from .paytables import PAYTABLES, PayTable, builtin_paytable
from .percent import percent
from .strategy import DealValues, HoldValues, hold_values, hold_values_held
from .table_game import MAX_ROUNDS, GameError, Shoe, TableGame, check_positions
from .view import cards_json

__all__ = [
    "CREDITS",
    "BIGGEST",
    "Machine",
    "Dealt",
    "Drawn",
    "Verdict",
    "HandRecord",
    "Tally",
    "SessionLog",
    "judge",
    "LOG_COLUMNS",
    "records_of",
    "title",
    "preparing",
    "drawn_lines",
    "hint_line",
    "voided_line",
    "broke_line",
    "machine_view",
    "PRACTICED",
]

#: The credits a machine starts with (and a cash-in adds).
CREDITS: Final = 1000
#: The most credits a machine may hold (a cash-in beyond it is refused).
MAX_CREDITS: Final = 10_000_000
#: How many of the biggest mistakes the log keeps.
BIGGEST: Final = 10


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


#: A fraction as :func:`_ratio` writes it (a saved state's): digits over
#: digits, so many at most (no exponent: "1e999999999" would take hours).
_RATIO: Final = re.compile(r"(-?[0-9]{1,60})/([0-9]{1,60})")
#: The most a saved count of coins or credits may be (no machine comes near).
_MOST: Final = 2**63 - 1


def _shown(value: object) -> str:
    """A saved value as a message shows it (a long one cut short)."""
    return quote(value) if isinstance(value, str) else repr(value)[:40] if not isinstance(value, int) else (
        f"{value}" if abs(value) < 10**40 else "a number of more than 40 digits")


def _fraction(text: object, what: str, least: Fraction | None = None) -> Fraction:
    """A saved fraction (as :func:`_ratio` writes it; at least ``least``, if given)."""
    found = _RATIO.fullmatch(text) if isinstance(text, str) else None
    if found is None or int(found[2]) == 0:
        raise GameError(f"{what} must be a fraction as text (numerator/denominator), not {_shown(text)}")
    value = Fraction(int(found[1]), int(found[2]))
    if least is not None and value < least:
        raise GameError(f"{what} must be at least {least}, not {_shown(text)}")
    return value


def _whole(value: object, what: str, least: int = 0, most: int = _MOST) -> int:
    """A saved whole number from ``least`` to ``most`` (not a bool, a float or a text)."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise GameError(f"{what} must be a whole number from {least:,} to {most:,}, not {_shown(value)}")
    return value


def _flag(value: object, what: str) -> bool:
    """A saved true or false (not a text or a number)."""
    if not isinstance(value, bool):
        raise GameError(f"{what} is true or false, not {_shown(value)}")
    return value


def _positions(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(HAND_SIZE) if mask >> i & 1)


def _mask(positions: Iterable[int]) -> int:
    return sum(1 << p for p in set(positions))


def _coins(value: Fraction) -> str:
    """Coins as a report writes them: four decimals."""
    return f"{float(value):.4f}"


def _percent(value: Fraction) -> str:
    """A percent (99.54 for 99.54%) as the app writes one of a bet: two decimals."""
    return percent(value / 100, 2)


class _Priced:
    """What a hold cost, from its value and the best hold's (per coin) and
    the coins bet: the one formula of the trainer's verdict and the log's
    records."""

    __slots__ = ()
    coins: int
    value: Fraction
    best_value: Fraction

    @property
    def is_best(self) -> bool:
        """The hold is worth as much as the best one (no mistake)."""
        return self.value == self.best_value

    @property
    def cost(self) -> Fraction:
        """What the hold gives up, in coins, on average: (best - held) per
        coin, times the coins bet."""
        return (self.best_value - self.value) * self.coins

    @property
    def cost_percent(self) -> Fraction:
        """The cost in percent of the bet."""
        return (self.best_value - self.value) * 100


@dataclass(frozen=True, slots=True)
class Verdict(_Priced):
    """The trainer's judgement of one hold: the deal, the positions held
    (0-based, as dealt) and the best hold's, the coins bet, and each hold's
    exact expected return per coin (:class:`~fivecard.play.strategy.DealValues`).
    """

    cards: tuple[Card, ...]
    held: tuple[int, ...]
    best: tuple[int, ...]
    coins: int
    value: Fraction
    best_value: Fraction
    rules: RuleSet = field(repr=False, compare=False)
    paytable: PayTable = field(repr=False, compare=False)

    def warns(self, threshold: Fraction | float = 0) -> bool:
        """A mistake costing more than ``threshold`` percent of the bet."""
        return not self.is_best and self.cost_percent > Fraction(threshold)

    def describe(self, positions: Sequence[int], lang: LangLike = None) -> str:
        """A hold in words and cards: ``Two Pair (K♠ K♥ 4♦ 4♣)``, in ``lang``."""
        words = language(lang)
        kept = tuple(self.cards[p] for p in positions)
        if not kept:
            return words.phrase("nothing (discard everything)", "play")
        return words.phrase(
            "{hold} ({cards})", "play", hold=describe_hold(kept, self.rules, self.paytable, words), cards=_cards(kept, words)
        )

    def text(self, lang: LangLike = None) -> str:
        """One or two sentences, as every report of the machine says them
        (in ``lang``, default English)."""
        words = language(lang)
        held = self.describe(self.held, words)
        if self.is_best:
            return words.phrase("Best hold: {held}, returns {value} per coin.", "play", held=held, value=_coins(self.value))
        return words.phrase(
            "Mistake: you held {held}, returning {value} per coin; the best hold is {best}, returning {best_value}. "
            "Cost: {cost} coins ({percent} of the bet).",
            "play",
            held=held,
            value=_coins(self.value),
            best=self.describe(self.best, words),
            best_value=_coins(self.best_value),
            cost=_coins(self.cost),
            percent=_percent(self.cost_percent),
        )

    def to_json(self, lang: LangLike = None) -> dict[str, Any]:
        """Positions 1-5 as players number the cards; values exact (a
        fraction as text) and as numbers; its words in ``lang``."""
        return {
            "best_hold": self.is_best,
            "held": [p + 1 for p in self.held],
            "held_words": self.describe(self.held, lang),
            "best": [p + 1 for p in self.best],
            "best_words": self.describe(self.best, lang),
            "value": float(self.value),
            "best_value": float(self.best_value),
            "value_exact": _ratio(self.value),
            "best_value_exact": _ratio(self.best_value),
            "cost": float(self.cost),
            "cost_exact": _ratio(self.cost),
            "cost_percent": float(self.cost_percent),
            "text": self.text(lang),
        }


def judge(values: DealValues, held: Sequence[int], rules: RuleSet, paytable: PayTable) -> Verdict:
    """The verdict on holding the cards at ``held`` (0-based positions) of
    the deal ``values`` values."""
    mask = _mask(held)
    return Verdict(
        values.cards,
        _positions(mask),
        _positions(values.best),
        values.coins,
        values.values[mask],
        values.best_value,
        rules,
        paytable,
    )


@dataclass(frozen=True, slots=True)
class HandRecord(_Priced):
    """One hand played, as the log keeps it: its number, the coins bet, the
    cards dealt, the positions held and the best hold's, the cards drawn,
    the final hand's line (its key and label) and what it paid (coins), the
    held and the best hold's values per coin (exact), and what the best
    hold would have been paid with the same cards drawn. ``practice``: a
    hand replayed, which moves no credit and is not in the log."""

    number: int
    coins: int
    cards: tuple[Card, ...]
    held: tuple[int, ...]
    best: tuple[int, ...]
    drawn: tuple[Card, ...]
    final: tuple[Card, ...]
    line: str
    label: str
    paid: int
    value: Fraction
    best_value: Fraction
    perfect_paid: int
    practice: bool = False

    @property
    def mistake(self) -> bool:
        return not self.is_best

    def verdict(self, rules: RuleSet, paytable: PayTable) -> Verdict:
        """The trainer's verdict on this hand's hold (as the draw gave it),
        for the game it was played in."""
        return Verdict(self.cards, self.held, self.best, self.coins, self.value, self.best_value, rules, paytable)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "coins": self.coins,
            "cards": [c.code_str for c in self.cards],
            "held": [p + 1 for p in self.held],
            "best": [p + 1 for p in self.best],
            "drawn": [c.code_str for c in self.drawn],
            "final": [c.code_str for c in self.final],
            "line": self.line,
            "label": self.label,
            "paid": self.paid,
            "value": _ratio(self.value),
            "best_value": _ratio(self.best_value),
            "perfect_paid": self.perfect_paid,
            "practice": self.practice,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandRecord:
        def cards(key: str, counts: range) -> tuple[Card, ...]:
            codes = data[key]
            if not isinstance(codes, list) or len(codes) not in counts or not all(isinstance(c, str) for c in codes):
                raise GameError(f"{key} must be a list of {counts.start}-{counts.stop - 1} cards")
            return tuple(Card.parse(code) for code in codes)

        def places(key: str) -> tuple[int, ...]:
            found = data[key]
            if not isinstance(found, list) or len(found) > HAND_SIZE:
                raise GameError(f"{key} must be positions 1-5")
            return tuple(_whole(p, key, 1, HAND_SIZE) - 1 for p in found)

        return cls(
            _whole(data["number"], "a hand's number", 1, MAX_ROUNDS),
            _whole(data["coins"], "a hand's coins", 1, 100),
            cards("cards", range(HAND_SIZE, HAND_SIZE + 1)),
            places("held"),
            places("best"),
            cards("drawn", range(HAND_SIZE + 1)),
            cards("final", range(HAND_SIZE, HAND_SIZE + 1)),
            str(data["line"]),
            str(data["label"]),
            _whole(data["paid"], "a hand's pay"),
            _fraction(data["value"], "value", Fraction(0)),
            _fraction(data["best_value"], "best_value", Fraction(0)),
            _whole(data["perfect_paid"], "perfect_paid"),
            _flag(data.get("practice", False), "practice"),
        )


@dataclass(frozen=True, slots=True)
class Tally:
    """The session's figures, the fold of its hands (:meth:`add`): hands
    played, coins bet and paid, mistakes and their cost (coins, exact), the
    expected coins of the holds made and of the best holds, and what the
    best holds would have been paid on the same cards."""

    hands: int = 0
    bet: int = 0
    paid: int = 0
    mistakes: int = 0
    cost: Fraction = Fraction(0)
    expected: Fraction = Fraction(0)
    perfect: Fraction = Fraction(0)
    perfect_paid: int = 0

    def add(self, record: HandRecord) -> Tally:
        if record.practice:
            return self
        return Tally(
            self.hands + 1,
            self.bet + record.coins,
            self.paid + record.paid,
            self.mistakes + record.mistake,
            self.cost + record.cost,
            self.expected + record.value * record.coins,
            self.perfect + record.best_value * record.coins,
            self.perfect_paid + record.perfect_paid,
        )

    def to_state(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "bet": self.bet,
            "paid": self.paid,
            "mistakes": self.mistakes,
            "cost": _ratio(self.cost),
            "expected": _ratio(self.expected),
            "perfect": _ratio(self.perfect),
            "perfect_paid": self.perfect_paid,
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any]) -> Tally:
        hands = _whole(data["hands"], "the tally's hands", 0, MAX_ROUNDS)
        return cls(
            hands,
            _whole(data["bet"], "the tally's bet"),
            _whole(data["paid"], "the tally's paid"),
            _whole(data["mistakes"], "the tally's mistakes", 0, hands),
            _fraction(data["cost"], "cost", Fraction(0)),
            _fraction(data["expected"], "expected", Fraction(0)),
            _fraction(data["perfect"], "perfect", Fraction(0)),
            _whole(data["perfect_paid"], "the tally's perfect_paid"),
        )


def _biggest(records: Iterable[HandRecord]) -> tuple[HandRecord, ...]:
    """The biggest mistakes, costliest first (then the earlier hand)."""
    mistakes = [r for r in records if r.mistake and not r.practice]
    return tuple(sorted(mistakes, key=lambda r: (-r.cost, r.number))[:BIGGEST])


#: The CSV export's columns (:meth:`SessionLog.rows`).
LOG_COLUMNS: Final = (
    "hand",
    "coins",
    "dealt",
    "held",
    "drawn",
    "final",
    "final hand",
    "paid",
    "best hold",
    "hold return per coin",
    "best return per coin",
    "cost (coins)",
    "cost (% of bet)",
    "mistake",
)


@dataclass(frozen=True, slots=True)
class SessionLog:
    """The session's log as every report shows it: the game, its
    :class:`Tally`, the biggest mistakes, and (for the CSV) the hands."""

    title: str
    tally: Tally
    biggest: tuple[HandRecord, ...]
    records: tuple[HandRecord, ...] = ()

    @classmethod
    def of(cls, title: str, records: Iterable[HandRecord]) -> SessionLog:
        """The log of these hands (practice hands left out)."""
        kept = tuple(r for r in records if not r.practice)
        tally = Tally()
        for record in kept:
            tally = tally.add(record)
        return cls(title, tally, _biggest(kept), kept)

    @property
    def return_got(self) -> Fraction | None:
        """Paid over bet."""
        return Fraction(self.tally.paid, self.tally.bet) if self.tally.bet else None

    @property
    def return_expected(self) -> Fraction | None:
        """The expected return of the holds made, over the same deals."""
        return self.tally.expected / self.tally.bet if self.tally.bet else None

    @property
    def return_perfect(self) -> Fraction | None:
        """The expected return of perfect play over the same deals."""
        return self.tally.perfect / self.tally.bet if self.tally.bet else None

    def text(self, lang: LangLike = None) -> str:
        """The log as text, in ``lang`` (default English)."""
        words = language(lang)
        t = self.tally
        lines = [
            words.phrase("Session: {title}", "play", title=self.title),
            words.phrase(
                "Hands played: {hands}; bet {bet} coins, paid {paid}.", "play", hands=number_text(t.hands, words), bet=number_text(t.bet, words), paid=number_text(t.paid, words)
            ),
        ]
        if t.bet:
            got, expected, perfect = self.return_got, self.return_expected, self.return_perfect
            assert got is not None and expected is not None and perfect is not None
            lines += [
                words.phrase("Your return: {percent} (paid over bet).", "play", percent=_percent(got * 100)),
                words.phrase(
                    "Perfect play over the same deals: {perfect} expected (your holds: {expected}); "
                    "on the same cards it would have been paid {paid}.",
                    "play",
                    perfect=_percent(perfect * 100),
                    expected=_percent(expected * 100),
                    paid=number_text(t.perfect_paid, words),
                ),
                words.phrase("Mistakes: {mistakes}, costing {cost} coins in all.", "play", mistakes=number_text(t.mistakes, words), cost=_coins(t.cost)),
            ]
        for record in self.biggest:
            lines.append(
                "  "
                + words.phrase(
                    "hand {number}: {cards}, held {held}, best {best}: cost {cost} coins",
                    "play",
                    number=record.number,
                    cards=_cards(record.cards, words),
                    held=_held_text(record.cards, record.held, words),
                    best=_held_text(record.cards, record.best, words),
                    cost=_coins(record.cost),
                )
            )
        return "\n".join(lines) + "\n"

    def to_json(self, lang: LangLike = None) -> dict[str, Any]:
        """The log as JSON data, its words in ``lang``."""
        t = self.tally

        def number(value: Fraction | None) -> float | None:
            return None if value is None else float(value)

        return {
            "title": self.title,
            **t.to_state(),
            "cost_coins": float(t.cost),
            "return": number(self.return_got),
            "return_expected": number(self.return_expected),
            "return_perfect": number(self.return_perfect),
            "biggest": [
                r.to_json()
                | {
                    "cost": float(r.cost),
                    "held_cards": _held_text(r.cards, r.held, lang),
                    "best_cards": _held_text(r.cards, r.best, lang),
                }
                for r in self.biggest
            ],
            "text": self.text(lang),
        }

    def rows(self) -> list[list[object]]:
        """The hands as the CSV export's rows (:data:`LOG_COLUMNS`)."""
        return [
            [
                r.number,
                r.coins,
                format_cards(r.cards),
                _held_text(r.cards, r.held),
                format_cards(r.drawn),
                format_cards(r.final),
                r.label,
                r.paid,
                _held_text(r.cards, r.best),
                f"{float(r.value):.6f}",
                f"{float(r.best_value):.6f}",
                f"{float(r.cost):.6f}",
                f"{float(r.cost_percent):.4f}",
                "yes" if r.mistake else "no",
            ]
            for r in self.records
        ]


def _held_text(cards: Sequence[Card], held: Sequence[int], lang: LangLike = None) -> str:
    words = language(lang)
    return _cards([cards[p] for p in held], words) if held else words.phrase_p("held", "nothing", "play")


def _cards(cards: Sequence[Card], lang: Language) -> str:
    """Cards as the language writes them (English: as format_cards does)."""
    return format_cards(list(cards)) if lang is ENGLISH else " ".join(card_text(c, lang) for c in cards)


def record_label(record: HandRecord, rules: RuleSet, paytable: PayTable, lang: LangLike = None) -> str:
    """A hand's final line in ``lang``: the pay table's line, or the final
    hand's category when nothing pays (English: the label kept)."""
    words = language(lang)
    if words is ENGLISH:
        return record.label
    if record.line == "nothing":
        final = evaluate(record.final, rules=rules)
        return category_name(final.category_id, final.label, words)
    return paytable.entry_label(record.line, rules, lang=words)


@dataclass(frozen=True, slots=True)
class Dealt:
    """A hand dealt: its number, the coins bet, the cards, the credits
    left, and (``practice``) whether it is a hand replayed."""

    number: int
    coins: int
    cards: tuple[Card, ...]
    credits: int
    practice: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "dealt",
            "number": self.number,
            "coins": self.coins,
            "cards": [c.code_str for c in self.cards],
            "credits": self.credits,
            "practice": self.practice,
        }


@dataclass(frozen=True, slots=True)
class Drawn:
    """A hand drawn and paid: its record, the trainer's verdict, the
    credits after."""

    record: HandRecord
    verdict: Verdict
    credits: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "drawn", "record": self.record.to_json(), "verdict": self.verdict.to_json(),
                "credits": self.credits}  # fmt: skip


@dataclass(slots=True)
class _Hand:
    number: int
    deck: list[Card]
    coins: int
    practice: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(self.deck[:HAND_SIZE])


#: The type a store keeps a practice hand's draw under (:meth:`Machine.kept_event`).
PRACTICED: Final = "practiced"


class Machine(TableGame):
    """A video-poker machine (see the module): ``paytable`` the game,
    ``coins`` the bet (default the most the table takes), ``credits`` to
    start with, ``seed`` (a seed the caller chose deals the same hands
    again; else the machine's secret), the trainer's settings
    (``trainer``: verdicts shown; ``show_best``: the best hold shown before
    the draw; ``threshold``: percent of the bet a mistake must cost to be
    warned about).

    Phases: ``"idle"`` (between hands) and ``"dealt"`` (a hand waits for
    its draw)."""

    KIND: ClassVar[str] = "machine"
    NOUN: ClassVar[str] = "machine"
    STATE_VERSION: ClassVar[int] = 1
    EVENT_FIELDS: ClassVar[Mapping[str, frozenset[str]]] = {
        "dealt": frozenset({"number", "coins", "cards", "credits", "practice"}),
        "drawn": frozenset({"record", "verdict", "credits"}),
        "voided": frozenset({"number", "credits"}),
        "cashed_in": frozenset({"credits", "added"}),
        PRACTICED: frozenset({"record", "verdict", "credits"}),
    }
    #: Deals and voids are not bounded by :data:`MAX_ROUNDS` (a hand voided
    #: is dealt again), nor are hands replayed: a store keeps only the
    #: latest of these (:meth:`kept_event`); no state and no log needs them.
    KEPT_EVENTS: ClassVar[Mapping[str, int]] = {"dealt": 20, "voided": 20, PRACTICED: 20}

    def __init__(
        self,
        paytable: PayTable | str,
        *,
        rules: str | RuleSet | None = None,
        coins: int | None = None,
        credits: int = CREDITS,
        seed: int | None = None,
        trainer: bool = True,
        show_best: bool = False,
        threshold: Fraction | float | int = 0,
    ) -> None:
        self.paytable = builtin_paytable(paytable) if isinstance(paytable, str) else paytable
        self.rules = self.paytable.rules_to_play(rules)
        if self.rules.low:
            raise GameError(f"a video-poker machine pays high hands, not the {self.rules.name} rules' low ones")
        self.paytable.check_rules(self.rules)
        self.coins = self._checked_coins(self.paytable.coins if coins is None else coins)
        if isinstance(credits, bool) or not isinstance(credits, int) or not 0 <= credits <= MAX_CREDITS:
            raise GameError(f"credits must be a whole number from 0 to {MAX_CREDITS:,}, got {credits!r}")
        self.credits = credits
        self.shoe = Shoe(self.rules, self.KIND, seed)
        self.hands = 0  # hands drawn (practice aside): the next deal is hand hands + 1
        self.current: _Hand | None = None
        self.trainer = True
        self.show_best = False
        self.threshold = Fraction(0)
        self.configure(trainer=trainer, show_best=show_best, threshold=threshold)
        self.tally = Tally()
        self.biggest: tuple[HandRecord, ...] = ()
        self.cashed_in = 0  # credits added after the start
        self.voided = False  # the next deal is a hand voided: at its bet (:attr:`coins`)
        self._values: HoldValues | None = None

    # -- settings ----------------------------------------------------------------

    def _checked_coins(self, coins: object) -> int:
        if isinstance(coins, bool) or not isinstance(coins, int) or not 1 <= coins <= self.paytable.coins:
            raise GameError(f"{self.paytable.title} takes a bet of 1 to {self.paytable.coins} coins, not {coins!r}")
        return coins

    def configure(
        self,
        *,
        trainer: bool | None = None,
        show_best: bool | None = None,
        threshold: Fraction | float | int | None = None,
    ) -> None:
        """Change the trainer's settings (any time)."""
        for name, value in (("trainer", trainer), ("show_best", show_best)):
            if value is not None and not isinstance(value, bool):
                raise GameError(f"{name} is true or false, not {value!r}")
        if threshold is not None:
            if isinstance(threshold, bool) or not isinstance(threshold, (int, float, Fraction)):
                raise GameError(f"the threshold is a percent of the bet from 0 to 100, not {threshold!r}")
            if not (0 <= threshold <= 100):
                raise GameError(f"the threshold is a percent of the bet from 0 to 100, not {threshold!r}")
            self.threshold = Fraction(threshold).limit_denominator(10_000)
        if trainer is not None:
            self.trainer = trainer
        if show_best is not None:
            self.show_best = show_best

    def verify_bet(self, coins: int) -> None:
        self._checked_coins(coins)
        if self.current is not None:
            raise GameError("the bet changes between hands: draw first")
        if self.voided and coins != self.coins:
            raise GameError(
                f"hand {self.hands + 1} was voided: it is dealt again at its bet of {self.coins} "
                f"coin{'s' if self.coins != 1 else ''}; the bet changes after its draw"
            )

    def can_bet(self) -> bool:
        """Whether the bet may change now: between hands, and not before a
        hand voided is dealt again (:meth:`void`)."""
        return self.current is None and not self.voided

    def bet(self, coins: int) -> None:
        """Bet ``coins`` on the next hands."""
        self.verify_bet(coins)
        self.coins = coins

    def verify_cash_in(self, credits: int = CREDITS) -> None:
        if isinstance(credits, bool) or not isinstance(credits, int) or credits < 1:
            raise GameError(f"a cash-in adds a whole number of credits, not {credits!r}")
        if self.credits + credits > MAX_CREDITS:
            raise GameError(f"a machine holds at most {MAX_CREDITS:,} credits")

    def cash_in(self, credits: int = CREDITS) -> dict[str, Any]:
        """Add credits (the session's return is paid over bet: unchanged)."""
        self.verify_cash_in(credits)
        self.credits += credits
        self.cashed_in += credits
        return {"type": "cashed_in", "added": credits, "credits": self.credits}

    # -- the game --------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return "idle" if self.current is None else "dealt"

    @property
    def values(self) -> HoldValues:
        """Every hold's value of any deal of this game (counted or loaded
        once: :func:`~fivecard.play.strategy.hold_values`)."""
        return self.prepare()

    @property
    def values_held(self) -> bool:
        """Whether :attr:`values` costs nothing now (in memory), or would
        load or count them (a web app gives that work a turn of its own)."""
        return self._values is not None or hold_values_held(self.paytable, self.rules)

    def prepare(self, progress: Callable[[int, int], None] | None = None) -> HoldValues:
        """:attr:`values` now, ``progress`` hearing (steps done, 32) when
        they are counted rather than loaded (2-4 s, the first time a game
        is played on a computer): a front end says so before the first
        deal, not in the middle of the first draw. The table's line of each
        hand is made then too (a tenth of a second, once a process), not
        at the first draw."""
        if self._values is None:
            self._values = hold_values(self.paytable, self.rules, progress=progress)
            self.paytable.entry_table(self.rules)  # (kept: each draw pays from it)
        return self._values

    def deal_values(self) -> DealValues:
        """The hand in play's 32 holds valued at its bet."""
        if self.current is None:
            raise GameError("no hand is dealt")
        return self.values.of(self.current.cards, self.current.coins)

    def verify_deal(self) -> None:
        if self.current is not None:
            raise GameError(f"hand {self.current.number} is dealt: hold and draw first")
        if self.hands >= MAX_ROUNDS:
            raise GameError(f"a machine plays at most {MAX_ROUNDS:,} hands: start a new one")
        if self.credits < self.coins:
            raise GameError(
                f"{self.credits:,} credits left, and the bet is {self.coins}: bet less or cash in"
            )

    def can_deal(self) -> bool:
        return self.can(self.verify_deal)

    def deal(self) -> Dealt:
        """Take the bet from the credits and deal the next hand."""
        self.verify_deal()
        number = self.hands + 1
        self.credits -= self.coins
        self.voided = False
        self.current = _Hand(number, self.shoe.deck(number), self.coins)
        return Dealt(number, self.coins, self.current.cards, self.credits)

    def verify_replay(self, number: int) -> None:
        if self.current is not None:
            raise GameError(f"hand {self.current.number} is dealt: draw first")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= self.hands:
            raise GameError(f"hands 1 to {self.hands} can be replayed, not {number!r}")

    def replay(self, number: int) -> Dealt:
        """Deal hand ``number`` again as practice: the same cards, the same
        cards to draw; no credit moves and the log is unchanged."""
        self.verify_replay(number)
        coins = next((r.coins for r in self.biggest if r.number == number), self.coins)
        self.current = _Hand(number, self.shoe.deck(number), coins, practice=True)
        return Dealt(number, coins, self.current.cards, self.credits, practice=True)

    def verify_draw(self, keep: Sequence[int]) -> None:
        if self.current is None:
            raise GameError("no hand is dealt: deal first")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in keep):
            raise GameError(f"hold positions are whole numbers 1-5, not {list(keep)!r}")
        check_positions(keep)

    def draw(self, keep: Sequence[int]) -> Drawn:
        """Keep the cards at ``keep`` (0-based positions), draw the rest,
        pay the final hand and judge the hold."""
        self.verify_draw(keep)
        hand = self.current
        assert hand is not None
        values = self.values.of(hand.cards, hand.coins)
        verdict = judge(values, keep, self.rules, self.paytable)
        final, drawn = self._final(hand, verdict.held)
        best_final, _ = self._final(hand, verdict.best)
        line, label, paid = self._paid(final, hand.coins)
        record = HandRecord(
            hand.number,
            hand.coins,
            hand.cards,
            verdict.held,
            verdict.best,
            drawn,
            final,
            line,
            label,
            paid,
            verdict.value,
            verdict.best_value,
            self._paid(best_final, hand.coins)[2],
            hand.practice,
        )
        self.current = None
        if not hand.practice:
            self.hands += 1
            self.credits += paid
            self.tally = self.tally.add(record)
            self.biggest = _biggest((*self.biggest, record))
        return Drawn(record, verdict, self.credits)

    def _final(self, hand: _Hand, held: Sequence[int]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        drawn = tuple(hand.deck[HAND_SIZE : HAND_SIZE + HAND_SIZE - len(held)])
        return tuple(hand.cards[p] for p in held) + drawn, drawn

    def _paid(self, final: Sequence[Card], coins: int) -> tuple[str, str, int]:
        """The final hand's line, its label and its pay in coins."""
        indices = np.array([[c.index for c in final]], dtype=np.int32)
        names, entry = self.paytable.final_entries(self.rules, indices, batch.strengths_of_indices(indices, rules=self.rules))
        line = names[int(entry[0])]
        pay = self.paytable.line_pays(coins)[int(entry[0])] * coins
        label = evaluate(final, rules=self.rules).label if line == "nothing" else self.paytable.entry_label(line, self.rules)
        return line, label, int(pay)

    def verify_void(self) -> None:
        if self.current is None:
            raise GameError("no hand is dealt")

    def void(self) -> dict[str, Any]:
        """Quit the hand in play: its bet goes back (a practice hand's
        moves nothing); the next deal deals it again, at the same bet."""
        self.verify_void()
        hand = self.current
        assert hand is not None
        if not hand.practice:
            self.credits += hand.coins
            self.voided = True
        self.current = None
        return {"type": "voided", "number": hand.number, "credits": self.credits}

    @staticmethod
    def kept_event(event: Mapping[str, Any]) -> dict[str, Any]:
        """An event as a store keeps it: a practice hand's draw as a
        :data:`PRACTICED` event (only the latest few are kept:
        :attr:`KEPT_EVENTS`), every other one as it is. :func:`records_of`
        reads ``drawn`` events only, so the log is the same either way."""
        if event.get("type") == "drawn" and event["record"].get("practice"):
            return {**event, "type": PRACTICED}
        return dict(event)

    def log(self) -> SessionLog:
        """The session's log as the machine keeps it: the tally and the
        biggest mistakes (the hands themselves are its events)."""
        return SessionLog(self.paytable.title, self.tally, self.biggest)

    # -- saving and restoring ----------------------------------------------------------

    def _state(self) -> dict[str, Any]:
        if PAYTABLES.get(self.paytable.name) != self.paytable:
            raise GameError(f"only a catalogue game is kept; {quote(self.paytable.name)} is not one")
        hand = self.current
        return {
            "paytable": self.paytable.name,
            "rules": self.rules.name,
            "coins": self.coins,
            "credits": self.credits,
            "cashed_in": self.cashed_in,
            "seed": self.seed,
            "seeded": self.seeded,
            "hands": self.hands,
            "voided": self.voided,
            "trainer": self.trainer,
            "show_best": self.show_best,
            "threshold": _ratio(self.threshold),
            "tally": self.tally.to_state(),
            "biggest": [r.to_json() for r in self.biggest],
            "hand": None
            if hand is None
            else {"number": hand.number, "coins": hand.coins, "practice": hand.practice},
        }

    @classmethod
    def _restore(cls, state: Mapping[str, Any]) -> Machine:
        for key in ("paytable", "rules"):
            if not isinstance(state[key], str):
                raise GameError(f"{key} must be a name, not {_shown(state[key])}")
        seed = state["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameError(f"the seed must be a whole number, not {_shown(seed)}")
        machine = cls(
            state["paytable"],
            rules=state["rules"],
            coins=state["coins"],
            credits=state["credits"],
            seed=seed,
            trainer=state["trainer"],
            show_best=state["show_best"],
            threshold=_fraction(state["threshold"], "threshold"),
        )
        machine.shoe.seeded = _flag(state["seeded"], "seeded")
        machine.hands = _whole(state["hands"], "hands", 0, MAX_ROUNDS)
        machine.cashed_in = _whole(state["cashed_in"], "cashed_in")
        machine.voided = state.get("voided", False)  # (a machine kept before the mark had none)
        if not isinstance(machine.voided, bool):
            raise GameError(f"voided is true or false, not {machine.voided!r}")
        machine.tally = Tally.from_state(state["tally"])
        if machine.tally.hands != machine.hands:
            raise GameError(f"the tally counts {machine.tally.hands:,} hands, the machine {machine.hands:,}")
        biggest = state["biggest"]
        if not isinstance(biggest, list) or len(biggest) > BIGGEST:
            raise GameError(f"the biggest mistakes are a list of at most {BIGGEST}")
        machine.biggest = tuple(HandRecord.from_json(r) for r in biggest)
        if any(r.number > machine.hands or r.practice for r in machine.biggest):
            raise GameError(f"the biggest mistakes are of the {machine.hands:,} hands played")
        hand = state["hand"]
        if hand is not None:
            if not isinstance(hand, Mapping):
                raise GameError(f"the hand in play is a number, coins and practice, not {_shown(hand)}")
            number = _whole(hand["number"], "the hand in play's number", 1, MAX_ROUNDS)
            if not 1 <= number <= machine.hands + 1:
                raise GameError(f"hand {number} cannot be in play after {machine.hands} hands")
            machine.current = _Hand(number, machine.shoe.deck(number), machine._checked_coins(hand["coins"]),
                                    _flag(hand["practice"], "practice"))  # fmt: skip
        return machine


def records_of(events: Iterable[Mapping[str, Any]]) -> list[HandRecord]:
    """The hands a machine's events record (its ``drawn`` events, practice
    hands left out), in order: what :meth:`SessionLog.of` reads."""
    found = (HandRecord.from_json(e["record"]) for e in events if e.get("type") == "drawn")
    return [r for r in found if not r.practice]


# -- the machine in a terminal: what its events say, in lines -------------------------


def title(machine: Machine, lang: LangLike = None) -> str:
    """The machine's first line: its game, rules, seed, credits and bet,
    and whether the trainer judges the holds (in ``lang``)."""
    words = language(lang)
    if machine.trainer:
        trainer = words.phrase("the trainer judges each hold", "play")
    else:
        trainer = words.phrase("the trainer is off", "play")
    return words.phrase_n(
        "{game} ({rules} rules, seed {seed}): {credits} credits, a bet of {n} coin; {trainer}.",
        "{game} ({rules} rules, seed {seed}): {credits} credits, a bet of {n} coins; {trainer}.",
        machine.coins,
        "play",
        game=machine.paytable.title,
        rules=machine.rules.name,
        seed=machine.seed,
        credits=number_text(machine.credits, words),
        trainer=trainer,
    )


def preparing(machine: Machine, lang: LangLike = None) -> str:
    """The line said while the game's hold values are counted (the first
    time only: then they are kept in the user's cache)."""
    return language(lang).phrase("Preparing {game} (first time only)…", "play", game=machine.paytable.title)


def drawn_lines(drawn: Drawn, painter: Painter, lang: LangLike = None) -> list[str]:
    """A draw as it is told: the cards drawn and the final hand, each card
    in the place of the one it replaced, what it paid, the credits (in ``lang``)."""
    words = language(lang)
    record = drawn.record
    cards, fresh = list(record.cards), iter(record.drawn)
    final = [c if p in record.held else next(fresh) for p, c in enumerate(cards)]
    shown = "  ".join(painter.card(c) for c in final)
    if record.drawn:
        got = words.phrase("You draw {drawn}: {cards}", "play", drawn=" ".join(painter.card(c) for c in record.drawn), cards=shown)
    else:
        got = words.phrase("You hold all five: {cards}", "play", cards=shown)
    label = record_label(record, drawn.verdict.rules, drawn.verdict.paytable, words)
    if record.paid:
        paid = words.phrase("{line} pays {coins}", "play", line=label, coins=number_text(record.paid, words))
    else:
        paid = words.phrase("{line}: no win", "play", line=label)
    return [words.phrase("{got}   {paid}. Credits {credits}.", "play", got=got, paid=paid, credits=number_text(drawn.credits, words))]


def hint_line(values: DealValues, rules: RuleSet, paytable: PayTable, lang: LangLike = None) -> str:
    """The best hold of the hand in play and its value per coin."""
    words = language(lang)
    best = judge(values, _positions(values.best), rules, paytable)
    return words.phrase(
        "the best hold is {hold}, returning {value} per coin.", "play", hold=best.describe(best.held, words), value=_coins(best.value)
    )


def voided_line(event: Mapping[str, Any], coins: int, lang: LangLike = None) -> str:
    """A hand quit before its draw (:meth:`Machine.void`)."""
    return language(lang).phrase(
        "Hand {number} is void: its bet of {coins} comes back. Credits {credits}.",
        "play",
        number=event["number"],
        coins=coins,
        credits=number_text(event['credits'], lang),
    )


def broke_line(machine: Machine, lang: LangLike = None) -> str:
    """Why no hand can be dealt: too few credits for the bet (or the most
    hands a machine plays)."""
    words = language(lang)
    if machine.credits < machine.coins:
        return words.phrase(
            "Out of credits: {credits} left, and the bet is {coins}.", "play", credits=number_text(machine.credits, words), coins=machine.coins
        )
    try:
        machine.verify_deal()
    except GameError as exc:
        return words.phrase("Game over: {why}.", "play", why=error_text(exc, words))
    return ""


# -- the machine in a page: its view as JSON data ---------------------------------------


def machine_view(machine: Machine, last: Mapping[str, Any] | None = None, lang: LangLike = None) -> dict[str, Any]:
    """What a page shows of a machine, as JSON data: the credits, the bet
    (``coins``, of ``max_coins``), the phase, the hand in play (``hand``:
    its number, whether it is ``practice``, its ``cards`` as card objects),
    the pay table as machines show it (:meth:`~fivecard.play.paytables.PayTable.coin_columns`:
    a row per paying line, a pay per coin bet; the row of the last hand's
    final line ``won`` while no hand is in play), the settings, the best
    hold (``best``: when ``show_best`` is on and a hand is dealt; it counts
    the game's hold values, :attr:`Machine.values`), what each action may
    do now (``can``), the session's log (:meth:`Machine.log`: the tally
    and the biggest mistakes) and ``last``: the last hand drawn (``last``,
    its ``drawn`` or :data:`PRACTICED` event as kept) while no hand is in
    play: its record, the cards dealt and the final hand as card objects,
    and the trainer's verdict when the trainer is on (with ``warn``:
    :meth:`Verdict.warns` at the machine's threshold). Nothing of the
    deck, the seed or the cards to come is in it. Its words (the lines,
    the holds, the verdict, the log) are said in ``lang``: the hands are
    kept as data, so a machine reads in the language of whoever views it."""
    words = language(lang)
    table = machine.paytable
    shown = None
    if machine.current is None and last is not None:
        record = HandRecord.from_json(last["record"])
        verdict = record.verdict(machine.rules, table)
        shown = {
            "record": record.to_json(),
            "dealt": cards_json(record.cards, words),
            "final": cards_json(record.final, words),
            "label": record_label(record, machine.rules, table, words),
            "line": record.line,
            "paid": record.paid,
            "practice": record.practice,
            "credits": last.get("credits"),
            "verdict": verdict.to_json(words) | {"warn": verdict.warns(machine.threshold)} if machine.trainer else None,
        }
    won = shown["line"] if shown is not None else None
    hand = machine.current
    best = None
    if hand is not None and machine.show_best:
        values = machine.deal_values()
        mask = values.best
        verdict = judge(values, _positions(mask), machine.rules, table)
        best = {"held": [p + 1 for p in verdict.best], "words": verdict.describe(verdict.best, words),
                "value": float(verdict.best_value), "value_exact": _ratio(verdict.best_value)}  # fmt: skip
    return {
        "game": {"id": table.name, "title": table.title, "rules": machine.rules.name},
        "credits": machine.credits,
        "coins": machine.coins,
        "max_coins": table.coins,
        "phase": machine.phase,
        "hands": machine.hands,
        "seeded": machine.seeded,
        "hand": None
        if hand is None
        else {"number": hand.number, "coins": hand.coins, "practice": hand.practice, "cards": cards_json(hand.cards, words)},
        "paytable": {
            "coins": list(range(1, table.coins + 1)),
            "lines": [
                {"key": key, "label": label if words is ENGLISH else table.entry_label(key, machine.rules, lang=words), "pays": pays, "won": key == won}
                for key, label, pays in table.coin_columns(machine.rules)
            ],
        },
        "best": best,
        "last": shown,
        "settings": {
            "trainer": machine.trainer,
            "show_best": machine.show_best,
            "threshold": float(machine.threshold),
        },
        "can": {
            "deal": machine.can_deal(),
            "draw": hand is not None,
            "bet": machine.can_bet(),
            "void": hand is not None,
            "cash_in": machine.can(machine.verify_cash_in),
        },
        "log": machine.log().to_json(words),
    }
