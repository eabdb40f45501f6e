"""``fivecard play``: the draw game in a terminal, or from piped input.

Only input and output live here; the game is :mod:`fivecard.play.game`,
and what its events say :func:`fivecard.play.view.event_lines`.

The hand is shown with bracketed positions, ``[1] Q  [2] 5  [3] 2 ...``, so
that a position cannot be read as a rank (``semi`` hides suits); the player
types the positions of the cards to keep, one digit each and apart (``1 3
4``: ``134`` is refused with that hint, never guessed at), and the hint says
what to type for each suggested hold. A bad answer is refused with what is
wrong with it, and the question comes again. Breaking a made hand (Two Pair
or better, as :func:`~fivecard.play.game.breaks_made_hand` says) that the
hint's play keeps asks once more, ``[y/N]``
(:meth:`~fivecard.play.game.Game.breaks_kept_hand`).

In a terminal, keys typed before a question shows (while the dealer's cards
turn up) are dropped, not taken as its answer, and the lines are broken at
spaces to the terminal's width, measured before each write. Piped input is
read as it comes, a line an answer (a script's answers are all typed ahead),
and piped output keeps its lines whole. Quitting (``q``), the end of input or Ctrl-C in the
middle of a round voids it (:meth:`~fivecard.play.game.Game.void_round`: every
chip of the round goes back) and prints the standings; Ctrl-C then goes on
as a :class:`KeyboardInterrupt` (``fivecard`` exits with 130). SIGTERM and
SIGHUP (a closed terminal) are the same interrupt to the game (exit 143 and
129); standings that cannot be written to a terminal gone are still an
interrupt, not an error.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from ..core.cards import Card, format_cards
from ..core.errors import quote
from ..core.evaluate import Evaluation, describe, evaluate
from ..core.words import card_text, category_name, error_text
from ..core.hand import HAND_SIZE
from ..core.lang import ENGLISH, N_, Language, LangLike, language
from ..core.report import Painter
from ..play.advise import Advice
from ..play.game import Game, GameError, RoundSettled, keep_positions
from ..play.percent import percent
from ..play.view import Event, Session, event_json, event_lines, standings, title

try:
    import termios
except ImportError:  # Windows: type-ahead is not discarded
    termios = None  # type: ignore[assignment]

_ANSWER = 4096  # the longest answer read; the rest of a longer line is skipped
_NUMBER = re.compile("[0-9]+")
_ESCAPE = re.compile("\x1b\\[[0-9;]*m")  # a colour's: no width on the screen

__all__ = ["play", "parse_keep", "hold", "typed", "quits", "wrap", "Screen", "HELP", "PROMPT"]

HELP = N_(
    "Type the positions of the cards to keep (e.g. 1 3 4), a to keep all five, "
    "n to exchange all five, h for the advisor's hint, f to fold, q to quit."
)
QUIT_NOTE = N_("Quitting in the middle of a round voids it: every chip of it goes back.")
PROMPT = N_("Keep which cards? Type their positions [1]-[5] (e.g. 1 3 4), or a, n, h, f, q: ")


def parse_keep(text: str, commands: str = "hfq") -> list[int] | str:
    """A player's answer: 0-based positions to keep, or a command letter
    of ``commands`` ("h", "f", "q": hint, fold, quit; the machine has no
    fold). Positions are typed one digit each, apart (``1 3 4``,
    ``1,3,4``); a number of two or more digits is refused, never read as
    several positions (``15`` is no card: type ``1 5``). Anything else is a
    :class:`~fivecard.play.game.GameError` saying what is wrong with it;
    whether the positions fit the hand (1-5, each once) is the game's to say
    (:meth:`~fivecard.play.game.Game.verify_exchange`).

    >>> parse_keep("1 3 4"), parse_keep("5,1"), parse_keep("a"), parse_keep("n"), parse_keep("h")
    ([0, 2, 3], [4, 0], [0, 1, 2, 3, 4], [], 'h')
    >>> parse_keep("15")
    Traceback (most recent call last):
    fivecard.play.table_game.GameError: there is no card 15: to keep cards 1 and 5, type them apart: 1 5
    """
    answer = text.strip().lower()
    if not answer:
        raise GameError("nothing was typed")
    if answer in ("h", "hint", "f", "fold", "q", "quit") and answer[0] in commands:
        return answer[0]
    if answer in ("a", "all"):
        return [0, 1, 2, 3, 4]
    if answer in ("n", "none", "0", "-"):
        return []
    tokens = answer.replace(",", " ").split()
    positions = []
    for token in tokens:
        if not _NUMBER.fullmatch(token):
            what = "a card position" if len(tokens) > 1 else "a card position or a command"
            raise GameError(f"{quote(token)} is not {what}")
        if len(token) > 1:
            raise GameError(f"there is no card {token}: {_apart(token)}")
        positions.append(int(token) - 1)
    return positions


def _apart(number: str) -> str:
    """The hint for digits typed together: the positions apart, when each
    digit is a different card's."""
    if len(set(number)) < len(number) or any(d not in "12345" for d in number):
        return "type one position for each card, apart (e.g. 1 3 4)"
    apart = " ".join(number)
    if len(number) == HAND_SIZE:
        return f"to keep all five, type a (or {apart})"
    named = ", ".join(number[:-1]) + f" and {number[-1]}"
    return f"to keep cards {named}, type them apart: {apart}"


def wrap(text: str, width: int, start: int = 0) -> str:
    """Each line of ``text`` broken at spaces to ``width`` columns (colour
    codes take none), words never broken: a word longer than the width has
    a line of its own. A broken line's next lines are indented as it is,
    two more; spaces inside a line stay as they are. ``start``: the columns
    the first line already has on the screen (text written after a prompt).

    >>> wrap("Keep which cards? Type their positions: ", 20)
    'Keep which cards?\\n  Type their\\n  positions: '
    """
    lines = text.split("\n")
    return "\n".join(_wrapped(line, width, start if i == 0 else 0) for i, line in enumerate(lines))


def _wrapped(line: str, width: int, start: int) -> str:
    if start + _columns(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")))
    words = re.split("( +)", line[len(indent):])  # words and the spaces between them
    lines, current = [], indent
    for i in range(0, len(words), 2):
        word, space = words[i], words[i + 1] if i + 1 < len(words) else ""
        if (current.strip() or start) and start + _columns(current + word) > width:
            lines.append(current.rstrip(" "))
            current, start = indent + "  ", 0
        current += word + space
    return "\n".join([*lines, current])


def _columns(text: str) -> int:
    return len(_ESCAPE.sub("", text))


def _discard_typeahead(stdin: TextIO) -> None:
    """Drop what was typed in a terminal before the prompt showed (keys hit
    while the dealer's cards were turning up are no answer to it)."""
    if termios is not None:
        try:
            termios.tcflush(stdin.fileno(), termios.TCIFLUSH)
        except (OSError, ValueError, termios.error):  # not a terminal after all (tests)
            pass


class Screen:
    """A game's terminal, or its piped input and output: lines written
    (broken to ``width``, when given), prompts asked and answers read as
    the module says (type-ahead dropped in a terminal, piped answers a line
    each, echoed). Each game's screen is one of these (the dealer game's
    here, the machine's in :mod:`fivecard.cli.machine_screen`)."""

    def __init__(
        self, stdin: TextIO, out: TextIO, painter: Painter, width: Callable[[], int] | None, lang: LangLike = None
    ) -> None:
        self.stdin, self.out, self.paint = stdin, out, painter
        self.width = width
        self.lang: Language = language(lang)  # the language the screen speaks
        self.typed = stdin.isatty()  # a person types the answers (else they are piped lines)
        self.echo = not self.typed
        self.column = 0  # where the output ends on its line: inside it after a prompt, the dealer's cards

    @property
    def midline(self) -> bool:
        return self.column > 0

    def write(self, text: str) -> None:
        if self.width is not None:
            text = wrap(text, self.width(), self.column)
        self.out.write(text)
        self.out.flush()
        _, newline, last = text.rpartition("\n")
        self.column = _columns(last) + (0 if newline else self.column)

    def say(self, *lines: str) -> None:
        self.write("\n".join(lines or ("",)) + "\n")

    def ask(self, prompt: str) -> str | None:
        """The answer to a prompt; None at the end of input. In a terminal
        the keys typed before the prompt shows are dropped (then it is
        written: a key typed once it shows is kept); piped answers are read
        line by line, each the answer to the next prompt."""
        if self.typed:
            _discard_typeahead(self.stdin)
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
            self.column = 0  # the terminal echoed the line and its Enter
        return line

    def cards(self, cards: Sequence[Card]) -> str:
        """A hand with its positions, as the player types them:
        ``[1] A♠  [2] K♠ ...``."""
        return "  ".join(f"[{i + 1}] {self.paint.card(c)}" for i, c in enumerate(cards))

    def run(self) -> int:
        """Play until the game ends; on Ctrl-C (or SIGTERM, SIGHUP) the
        hand in play is voided and the standings said before the interrupt
        goes on."""
        try:
            self.play()
        except KeyboardInterrupt:
            if self.midline:
                self.say()
            self.end()
            raise
        self.end()
        return 0

    def play(self) -> None:
        raise NotImplementedError

    def end(self) -> None:
        """Void what is in play and say the standings."""
        raise NotImplementedError


class _Table(Screen):
    def __init__(
        self, game: Game, stdin: TextIO, out: TextIO, painter: Painter, delay: float,
        width: Callable[[], int] | None, lang: LangLike = None,
    ) -> None:  # fmt: skip
        super().__init__(stdin, out, painter, width, lang)
        self.game, self.delay = game, delay
        self.session = Session()  # the player's figures, for the last lines

    def tell(self, event: Event) -> None:
        if isinstance(event, RoundSettled):
            self.session.add(event_json(self.game, event))
        self.say(*event_lines(self.game, event, self.paint, self.lang))

    def hint(self, advice: Advice) -> None:
        words = self.lang
        self.say(words.phrase("Hint: {reason}", "cli", reason=advice.reason_text(words)))
        for choice in advice.choices[:3]:
            if words is ENGLISH:
                self.say(
                    f"  {hold(advice.hand.cards, choice.keep):<34} win {percent(choice.win):>6}  "
                    f"draw {percent(choice.draw):>5}  lose {percent(choice.lose):>6}"
                )
                continue
            self.say(
                "  "
                + words.phrase(
                    "{hold}  win {win}  draw {draw}  lose {lose}",
                    "cli",
                    hold=hold(advice.hand.cards, choice.keep, words),
                    win=percent(choice.win),
                    draw=percent(choice.draw),
                    lose=percent(choice.lose),
                )
            )

    def player_turn(self) -> bool:
        """The player's decision; False when the player quits."""
        hand = self.game.hand(0)
        assert hand is not None
        shown = evaluate(hand)
        described = shown.description if self.lang is ENGLISH else describe(shown.hand_class, self.lang)
        self.say(self.lang.phrase("Your hand: {cards}   ({hand})", "cli", cards=self.cards(hand.cards), hand=described))
        while True:
            line = self.ask(self.lang.gettext(PROMPT, "cli"))
            if line is None:
                return False
            try:
                answer = parse_keep(line)
                if answer == "q":
                    return False
                if answer == "h":
                    self.hint(self.game.hint(0))
                    continue
                if answer == "f":
                    self.tell(self.game.fold(0))
                    return True
                assert not isinstance(answer, str)
                self.game.verify_exchange(0, answer)
            except GameError as exc:
                words = self.lang
                self.say(words.phrase("Sorry: {error}. {help}", "cli", error=error_text(exc, words), help=words.gettext(HELP, "cli")))
                continue
            made = self.game.breaks_kept_hand(0, answer)
            if made is not None:
                sure = self.confirm(made, HAND_SIZE - len(answer))
                if sure is None:
                    return False
                if not sure:
                    continue
            self.tell(self.game.exchange(0, answer))
            return True

    def confirm(self, made: Evaluation, count: int) -> bool | None:
        """Whether the player means to break a made hand (y); None: quit
        (q or the end of input)."""
        words = self.lang
        if words is ENGLISH:
            held = made.label if made.category.named else made.description
        else:
            named = made.category.named
            held = category_name(made.category_id, made.label, words) if named else describe(made.hand_class, words)
        line = self.ask(
            words.phrase_n(
                "You hold {hand}; exchange {n} card anyway? [y/N] ",
                "You hold {hand}; exchange {n} cards anyway? [y/N] ",
                count,
                "cli",
                hand=held,
            )
        )
        if line is None or quits(line):
            return None
        return line.strip().lower() in ("y", "yes")

    def round(self) -> bool:
        """One round; False when the player quits."""
        self.tell(self.game.start_round())
        while self.game.phase == "draw":
            seat = self.game.turn
            assert seat is not None
            if seat == 0:
                if not self.player_turn():
                    return False
                continue
            self.tell(self.game.computer_acts())
        self.write(self.lang.phrase("Dealer:", "cli"))
        while self.game.can_reveal():
            card = self.game.reveal_dealer_card().card
            self.write(" " + self.paint.card(card))
            if self.delay:
                time.sleep(self.delay)
        self.say()
        self.tell(self.game.settle())
        return True

    def void(self) -> None:
        """Void the round in play, if any, and say what went back."""
        if self.game.can_void():
            self.tell(self.game.void_round())

    def play(self) -> None:
        game = self.game
        words = self.lang
        note = words.phrase("{help} {note}", "cli", help=words.gettext(HELP, "cli"), note=words.gettext(QUIT_NOTE, "cli"))
        self.say(title(game, words), note)
        while True:
            if not game.can_start():
                try:
                    game.verify_start()
                except GameError as exc:
                    self.say(words.phrase("Game over: {why}.", "cli", why=error_text(exc, words)))
                break
            if not self.round():
                break
            line = self.ask(words.phrase("Enter for the next round, q to quit: ", "cli"))
            if line is None or quits(line):
                break

    def end(self) -> None:
        self.void()
        if self.session.stacks:  # a round was settled: the player's figures
            self.say(self.session.to_json(self.game.stacks[0], self.lang)["text"])
        self.say(standings(self.game, self.lang))


def quits(answer: str) -> bool:
    """The answer says quit (q)."""
    return answer.strip().lower() in ("q", "quit")


def typed(positions: Sequence[int]) -> str:
    """What to type to hold the cards at ``positions`` (0-based): the
    positions 1-5 apart, or a (all five), or n (none).

    >>> typed([0, 2]), typed([]), typed(range(5))
    ('1 3', 'n', 'a')
    """
    if not positions:
        return "n"
    if len(positions) == HAND_SIZE:
        return "a"
    return " ".join(str(p + 1) for p in positions)


def hold(cards: tuple[Card, ...], keep: tuple[Card, ...], lang: LangLike = None) -> str:
    """A hold as the hint shows it: the cards and what to type for it (in ``lang``).

    >>> from fivecard import parse_cards
    >>> hand = parse_cards("AS 7C AH 4D 2S")
    >>> hold(hand, parse_cards("AS AH")), hold(hand, ()), hold(hand, hand)
    ('keep A♠ A♥ (type: 1 3)', 'keep nothing (type: n)', 'keep A♠ 7♣ A♥ 4♦ 2♠ (type: a)')
    """
    words = language(lang)
    if not keep:
        return words.phrase("keep nothing (type: n)", "cli")
    shown = format_cards(keep) if words is ENGLISH else " ".join(card_text(c, words) for c in keep)
    return words.phrase("keep {cards} (type: {typed})", "cli", cards=shown, typed=typed(keep_positions(cards, keep)))


def play(
    game: Game, *, stdin: TextIO, out: TextIO, painter: Painter, delay: float = 0.0,
    width: Callable[[], int] | None = None, lang: LangLike = None,
) -> int:  # fmt: skip
    """Run the game until the player quits, input ends or the player cannot
    pay; returns the exit code. Quitting or the end of input in the middle
    of a round voids it. On Ctrl-C the round in play is voided and the
    standings printed, then the :class:`KeyboardInterrupt` goes on.
    ``width``: the screen's width now, asked before each write; the lines
    are broken at spaces to fit it (:func:`wrap`). None: lines as they are
    (piped output). ``lang``: the language the game speaks (default
    English; the commands typed stay a, n, h, f, q)."""
    return _Table(game, stdin, out, painter, delay, width, lang).run()
