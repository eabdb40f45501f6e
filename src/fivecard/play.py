"""``fivecard play``: the draw game in a terminal, or from piped input.

Only input and output live here; the game is :mod:`fivecard.game`.
"""

from __future__ import annotations

import time
from typing import TextIO

from .advise import Advice
from .cards import format_cards
from .game import ANTE, BET, Exchanged, Game, GameError, RoundSettled
from .report import Painter

__all__ = ["play", "parse_keep", "HELP"]

HELP = (
    "Type the positions of the cards to keep (e.g. 1 3 4), a to keep all five, "
    "n to exchange all five, h for the advisor's hint, f to fold, q to quit."
)


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

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line

    def name(self, seat: int) -> str:
        return self.game.names[seat]

    def stacks(self) -> str:
        return ", ".join(f"{self.name(s)} {c:,}" for s, c in enumerate(self.game.stacks))

    def hint(self, advice: Advice) -> None:
        self.say(f"Hint: {advice.reason}")
        for choice in advice.choices[:3]:
            keep = format_cards(choice.keep) if choice.keep else "(nothing)"
            self.say(f"  keep {keep:<20} win {choice.win:6.1%}  draw {choice.draw:5.1%}  lose {choice.lose:6.1%}")

    def player_turn(self) -> bool:
        """The player's decision; False when the player quits."""
        hand = self.game.hand(0)
        assert hand is not None
        cards = "  ".join(f"{i + 1} {self.paint.card(c)}" for i, c in enumerate(hand.cards))
        from .evaluate import evaluate

        self.say(f"Your hand: {cards}   ({evaluate(hand).description})")
        while True:
            line = self.ask("Keep which cards? (1-5, a, n, h, f, q) ")
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
                from .evaluate import evaluate

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
        self.out.write("Dealer:")
        while self.game.can_reveal():
            card = self.game.reveal_dealer_card().card
            self.out.write(" " + self.paint.card(card))
            self.out.flush()
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

    def run(self) -> int:
        game = self.game
        self.say(
            f"Five-card draw against the dealer ({game.rules.name} rules, seed {game.seed}). "
            f"Stacks {self.stacks()}."
        )
        self.say(HELP)
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
        self.say(f"After {game.rounds} round{'s' if game.rounds != 1 else ''}: {self.stacks()}.")
        return 0


def play(game: Game, *, stdin: TextIO, out: TextIO, painter: Painter, delay: float = 0.0) -> int:
    """Run the game until the player quits, input ends or the player cannot
    pay; returns the exit code."""
    return _Table(game, stdin, out, painter, delay).run()
