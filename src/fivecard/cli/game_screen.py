"""``fivecard play``: the draw game in a terminal, or from piped input.

Only input and output live here; the game is :mod:`fivecard.play.game`.

The hand is shown with bracketed positions, ``[1] Q  [2] 5  [3] 2 ...``, so
that a position cannot be read as a rank (``semi`` hides suits); the player
types the positions of the cards to keep, and the hint says what to type for
each suggested hold. Quitting (``q``), the end of input or Ctrl-C in the
middle of a round voids it (:meth:`~fivecard.play.game.Game.void_round`: every
chip of the round goes back) and prints the standings; Ctrl-C then goes on
as a :class:`KeyboardInterrupt` (``fivecard`` exits with 130). SIGTERM and
SIGHUP (a closed terminal) are the same interrupt to the game (exit 143 and
129); standings that cannot be written to a terminal gone are still an
interrupt, not an error.
"""

from __future__ import annotations

import time
from typing import TextIO

from ..play.advise import Advice
from ..core.cards import Card, format_cards
from ..core.evaluate import evaluate
from ..play.game import ANTE, BET, Exchanged, Game, GameError, RoundSettled, keep_positions
from ..core.report import Painter

_ANSWER = 4096  # the longest answer read; the rest of a longer line is skipped

__all__ = ["play", "parse_keep", "hold", "HELP", "PROMPT"]

HELP = (
    "Type the positions of the cards to keep (e.g. 1 3 4), a to keep all five, "
    "n to exchange all five, h for the advisor's hint, f to fold, q to quit."
)
QUIT_NOTE = "Quitting in the middle of a round voids it: every chip of it goes back."
PROMPT = "Keep which cards? Type their positions [1]-[5] (e.g. 1 3 4), or a, n, h, f, q: "


def parse_keep(text: str) -> list[int] | str | None:
    """A player's answer: 0-based positions to keep, or a command letter
    ("h", "f", "q"); None when it makes no sense.

    >>> parse_keep("1 3 4"), parse_keep("134"), parse_keep("a"), parse_keep("n"), parse_keep("x")
    ([0, 2, 3], [0, 2, 3], [0, 1, 2, 3, 4], [], None)
    """
    answer = text.strip().lower()
    if answer in ("h", "hint", "f", "fold", "q", "quit"):
        return answer[0]
    if answer in ("a", "all"):
        return [0, 1, 2, 3, 4]
    if answer in ("n", "none", "0", "-"):
        return []
    digits = answer.replace(",", " ").replace(" ", "")
    if not digits or not digits.isdigit() or any(d not in "12345" for d in digits):
        return None
    positions = [int(d) - 1 for d in digits]
    return positions if len(set(positions)) == len(positions) else None


class _Table:
    def __init__(self, game: Game, stdin: TextIO, out: TextIO, painter: Painter, delay: float) -> None:
        self.game, self.stdin, self.out, self.paint, self.delay = game, stdin, out, painter, delay
        self.echo = not stdin.isatty()
        self.midline = False  # output ends inside a line (a prompt, the dealer's cards)

    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        if text:
            self.midline = not text.endswith("\n")

    def say(self, text: str = "") -> None:
        self.write(text + "\n")

    def ask(self, prompt: str) -> str | None:
        self.write(prompt)
        line = self.stdin.readline(_ANSWER)
        if not line:
            self.say()
            return None
        if len(line) == _ANSWER and not line.endswith("\n"):  # no answer is this long
            while (rest := self.stdin.readline(_ANSWER)) and not rest.endswith("\n"):
                pass
            line = line[:40] + "...\n"
        if self.echo:
            self.write(line if line.endswith("\n") else line + "\n")
        else:
            self.midline = False  # the terminal echoed the line and its Enter
        return line

    def name(self, seat: int) -> str:
        return self.game.names[seat]

    def stacks(self) -> str:
        return ", ".join(f"{self.name(s)} {c:,}" for s, c in enumerate(self.game.stacks))

    def hint(self, advice: Advice) -> None:
        self.say(f"Hint: {advice.reason}")
        for choice in advice.choices[:3]:
            self.say(
                f"  {hold(advice.hand.cards, choice.keep):<34} win {choice.win:6.1%}  "
                f"draw {choice.draw:5.1%}  lose {choice.lose:6.1%}"
            )

    def player_turn(self) -> bool:
        """The player's decision; False when the player quits."""
        hand = self.game.hand(0)
        assert hand is not None
        cards = "  ".join(f"[{i + 1}] {self.paint.card(c)}" for i, c in enumerate(hand.cards))
        self.say(f"Your hand: {cards}   ({evaluate(hand).description})")
        while True:
            line = self.ask(PROMPT)
            if line is None:
                return False
            answer = parse_keep(line)
            if answer == "q":
                return False
            if answer == "h":
                self.hint(self.game.hint(0))
                continue
            if answer == "f":
                self.game.fold(0)
                self.say("You fold: your ante and your house bet are lost.")
                return True
            if answer is None or isinstance(answer, str):
                self.say(f"Sorry, {line.strip()!r} is not an answer. {HELP}")
                continue
            try:
                event = self.game.exchange(0, answer)
            except GameError as exc:
                self.say(f"Sorry: {exc}. {HELP}")
                continue
            self.report_exchange(event)
            return True

    def report_exchange(self, event: Exchanged) -> None:
        name = self.name(event.seat)
        if event.seat == 0:
            if not event.discarded:
                self.say("You keep all five cards.")
            else:
                drawn = " ".join(self.paint.card(c) for c in event.drawn)
                self.say(
                    f"You draw {drawn}: {self.paint.cards(event.hand.cards).rstrip()}"
                    f"   ({evaluate(event.hand).description})"
                )
            return
        count = len(event.discarded)
        self.say(
            f"{name} keeps all five cards." if count == 0
            else f"{name} keeps {5 - count} and draws {count}."
        )

    def round(self) -> bool:
        """One round; False when the player quits."""
        started = self.game.start_round()
        carried = f" ({started.carried} carried)" if started.carried else ""
        self.say(f"\nRound {started.round}: antes {ANTE} and house bets {BET} are in; pot {started.pot}{carried}.")
        while self.game.phase == "draw":
            seat = self.game.turn
            assert seat is not None
            if seat == 0:
                if not self.player_turn():
                    return False
                continue
            event = self.game.computer_acts()
            if isinstance(event, Exchanged):
                self.report_exchange(event)
            else:
                self.say(f"{self.name(event.seat)} folds.")
        self.write("Dealer:")
        while self.game.can_reveal():
            card = self.game.reveal_dealer_card().card
            self.write(" " + self.paint.card(card))
            if self.delay:
                time.sleep(self.delay)
        self.say()
        self.report(self.game.settle())
        return True

    def report(self, settled: RoundSettled) -> None:
        self.say(f"Dealer has {settled.dealer.description}.")
        for result in settled.results:
            if result.evaluation is None:
                self.say(f"  {self.name(result.seat)}: folded (lost {BET} to the house).")
                continue
            cards = self.paint.cards(result.evaluation.showdown).rstrip()
            money = {"win": f"+{BET}", "lose": f"-{BET}", "draw": "0"}[result.against_dealer]
            self.say(f"  {self.name(result.seat)}: {cards}  {result.evaluation.description}")
            self.say(f"    house bet {money}: {result.explanation}")
        self.say(self.paint.bold(f"Pot: {settled.pot_explanation}."))
        self.say(f"Stacks: {self.stacks()}.")

    def void(self) -> None:
        """Void the round in play, if any, and say what went back."""
        if not self.game.can_void():
            return
        voided = self.game.void_round()
        back = ", ".join(f"{self.name(s)} {c:,}" for s, c in enumerate(voided.returned) if c)
        self.say(f"Round {voided.round} is void: every chip of it goes back ({back}).")

    def standings(self) -> None:
        game = self.game
        carried = f"; {game.pot:,} carried in the pot, unclaimed" if game.pot else ""
        self.say(f"After {game.played} round{'s' if game.played != 1 else ''}: {self.stacks()}{carried}.")

    def run(self) -> int:
        game = self.game
        self.say(
            f"Five-card draw against the dealer ({game.rules.name} rules, seed {game.seed}). "
            f"Stacks {self.stacks()}."
        )
        self.say(f"{HELP} {QUIT_NOTE}")
        try:
            while True:
                if not game.can_start():
                    try:
                        game.verify_start()
                    except GameError as exc:
                        self.say(f"Game over: {exc}.")
                    break
                if not self.round():
                    break
                line = self.ask("Enter for the next round, q to quit: ")
                if line is None or line.strip().lower() in ("q", "quit"):
                    break
        except KeyboardInterrupt:
            if self.midline:
                self.say()
            self.void()
            self.standings()
            raise
        self.void()
        self.standings()
        return 0


def hold(cards: tuple[Card, ...], keep: tuple[Card, ...]) -> str:
    """A hold as the hint shows it: the cards and what to type for it.

    >>> from fivecard import parse_cards
    >>> hand = parse_cards("AS 7C AH 4D 2S")
    >>> hold(hand, parse_cards("AS AH")), hold(hand, ()), hold(hand, hand)
    ('keep A♠ A♥ (type: 1 3)', 'keep nothing (type: n)', 'keep A♠ 7♣ A♥ 4♦ 2♠ (type: a)')
    """
    if not keep:
        return "keep nothing (type: n)"
    if len(keep) == len(cards):
        return f"keep {format_cards(keep)} (type: a)"
    typed = " ".join(str(p + 1) for p in keep_positions(cards, keep))
    return f"keep {format_cards(keep)} (type: {typed})"


def play(game: Game, *, stdin: TextIO, out: TextIO, painter: Painter, delay: float = 0.0) -> int:
    """Run the game until the player quits, input ends or the player cannot
    pay; returns the exit code. Quitting or the end of input in the middle
    of a round voids it. On Ctrl-C the round in play is voided and the
    standings printed, then the :class:`KeyboardInterrupt` goes on."""
    return _Table(game, stdin, out, painter, delay).run()
