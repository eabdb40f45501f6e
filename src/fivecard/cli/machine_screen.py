"""``fivecard play --paytable NAME``: the video-poker machine in a terminal,
or from piped input.

Only input and output live here; the machine is
:mod:`fivecard.play.machine`, and what its events say is said there too
(:func:`~fivecard.play.machine.drawn_lines`, :meth:`~fivecard.play.machine.Verdict.text`,
:meth:`~fivecard.play.machine.SessionLog.text`). The terminal is the dealer
game's (:class:`~fivecard.cli.game_screen.Screen`): positions shown and
typed as ``[1]``-``[5]``, one digit each and apart, the same answers
(``a``, ``n``, ``h``, ``q``) and refusals, type-ahead dropped in a
terminal, piped answers a line each, lines broken to the terminal's width.

Each hand: Enter deals (the bet comes off the credits), the player holds
cards, the draw is paid; with the trainer on, its verdict follows. Quitting
(``q``), the end of input or Ctrl-C in the middle of a hand voids it (its
bet comes back) and prints the session's log; so does running out of
credits (a terminal machine takes no cash-in: start a new session).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ..core.lang import N_, LangLike
from ..core.report import Painter
from ..core.words import error_text
from ..play.machine import Machine, broke_line, drawn_lines, hint_line, title, voided_line
from ..play.table_game import GameError
from .game_screen import Screen, parse_keep, quits, typed

__all__ = ["play_machine", "HELP", "PROMPT", "DEAL"]

HELP = N_(
    "Type the positions of the cards to hold (e.g. 1 3 4), a to hold all five, "
    "n to hold none, h for the hint (the best hold and its value), q to quit."
)
QUIT_NOTE = N_("Quitting in the middle of a hand voids it: its bet comes back.")
PROMPT = N_("Hold which cards? positions (e.g. 1 3 4), a (all), n (none), h (hint: the best hold and its value), q: ")
DEAL = N_("Enter deals (bet {coins}), q quits: ")


class _MachineScreen(Screen):
    def __init__(
        self, machine: Machine, stdin: TextIO, out: TextIO, painter: Painter, width: Callable[[], int] | None,
        lang: LangLike = None,
    ) -> None:  # fmt: skip
        super().__init__(stdin, out, painter, width, lang)
        self.machine = machine
        self.coins = 0  # the bet of the hand in play

    def play(self) -> None:
        machine = self.machine
        words = self.lang
        self.say(title(machine, words))
        self.write(machine.paytable.coin_table(machine.rules, words))
        self.say(words.phrase("{help} {note}", "cli", help=words.gettext(HELP, "cli"), note=words.gettext(QUIT_NOTE, "cli")))
        while True:
            if not machine.can_deal():
                self.say(broke_line(machine, words))
                return
            if not self.deal() or not self.hand():
                return

    def deal(self) -> bool:
        """Enter deals; False when the player quits."""
        while True:
            line = self.ask(self.lang.phrase(DEAL, "cli", coins=self.machine.coins))
            if line is None or quits(line):
                return False
            if not line.strip():
                return True
            self.say(self.lang.phrase("Sorry: press Enter to deal the next hand, or type q to quit.", "cli"))

    def hand(self) -> bool:
        """One hand; False when the player quits."""
        machine = self.machine
        dealt = machine.deal()
        self.coins = dealt.coins
        words = self.lang
        self.say(
            "",
            words.phrase(
                "Hand {number}: {cards}   (bet {coins}, credits {credits})",
                "cli",
                number=dealt.number,
                cards=self.cards(dealt.cards),
                coins=dealt.coins,
                credits=f"{dealt.credits:,}",
            ),
        )
        while True:
            line = self.ask(words.gettext(PROMPT, "cli"))
            if line is None:
                return False
            try:
                answer = parse_keep(line, "hq")
                if answer == "q":
                    return False
                if answer == "h":
                    values = machine.deal_values()
                    best = [p for p in range(len(dealt.cards)) if values.best >> p & 1]
                    line = hint_line(values, machine.rules, machine.paytable, words)
                    self.say(words.phrase("Hint: {line} Type: {typed}", "cli", line=line, typed=typed(best)))
                    continue
                assert not isinstance(answer, str)
                machine.verify_draw(answer)
            except GameError as exc:
                error = error_text(exc, words)
                self.say(words.phrase("Sorry: {error}. {help}", "cli", error=error, help=words.gettext(HELP, "cli")))
                continue
            drawn = machine.draw(answer)
            self.say(*drawn_lines(drawn, self.paint, words))
            if machine.trainer:
                self.say(drawn.verdict.text(words))
            return True

    def end(self) -> None:
        machine = self.machine
        if machine.can(machine.verify_void):
            self.say(voided_line(machine.void(), self.coins, self.lang))
        self.write("\n" + machine.log().text(self.lang))


def play_machine(
    machine: Machine, *, stdin: TextIO, out: TextIO, painter: Painter, width: Callable[[], int] | None = None,
    lang: LangLike = None,
) -> int:  # fmt: skip
    """Run the machine until the player quits, input ends or the credits
    do not cover the bet; returns the exit code. Quitting, the end of input
    or Ctrl-C in the middle of a hand voids it; the session's log is
    printed last (on Ctrl-C, then the :class:`KeyboardInterrupt` goes on).
    ``width``, ``lang``: as :func:`~fivecard.cli.game_screen.play` takes them."""
    return _MachineScreen(machine, stdin, out, painter, width, lang).run()
