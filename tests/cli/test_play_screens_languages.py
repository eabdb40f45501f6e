"""``fivecard play`` in Japanese and Russian: the dealer game's screen and
the video-poker machine's, given a language, say every line in it (the
play layer's sentences and the screens' own prompts), from piped answers
that use every command; English is what it was (the recorded outputs)."""

from __future__ import annotations

import io
import re

import pytest

from fivecard.core.report import Painter
from fivecard.cli.game_screen import play
from fivecard.cli.machine_screen import play_machine
from fivecard.core.words import error_text
from fivecard.play.game import Game, GameError
from fivecard.play.machine import Machine

#: Answers using every command: a hint, a hold, an exchange of all five,
#: a fold, a bad answer, then quit.
DEALER_ANSWERS = "h\n1 2\n\nn\n\nf\n\n15\na\nq\n"
MACHINE_ANSWERS = "\nh\n1\n\nn\n\n15\na\nq\n"
#: Words in Latin letters a line may hold: the commands typed and the keys.
ALLOWED = {"Enter", "JK"}
#: An error's own message (errors are said in a language where they are made:
#: fivecard.core.words.error_text); the line around it is the screen's.
ERROR = "there is no card 15: to keep cards 1 and 5, type them apart: 1 5"


def english(text: str) -> list[str]:
    """Words of two or more Latin letters, the commands' letters and keys
    aside (a single letter is a card's rank or a command)."""
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED]


def dealer_game(lang: str | None, answers: str = DEALER_ANSWERS) -> str:
    out = io.StringIO()
    play(Game(seed=5, trainer=True), stdin=io.StringIO(answers), out=out, painter=Painter(color=False), lang=lang)
    return out.getvalue()


def machine_game(lang: str | None, answers: str = MACHINE_ANSWERS) -> str:
    out = io.StringIO()
    machine = Machine("jacks-or-better-9-6", seed=31, trainer=True)
    play_machine(machine, stdin=io.StringIO(answers), out=out, painter=Painter(color=False), lang=lang)
    return out.getvalue()


@pytest.mark.parametrize("code", ["ja", "ru"])
def test_the_dealer_games_screen_speaks_the_language(code: str) -> None:
    out = dealer_game(code)
    # the rule set's name is data, not words
    said = out.replace("standard", "").replace(ERROR, "")
    assert {"ja": "入力できません: ", "ru": "Не получилось: "}[code] + error_text(GameError(ERROR), code) in out
    left = english(said)
    assert left == [], (left, out)
    assert out.count("\n") > 20  # rounds were played


@pytest.mark.parametrize("code", ["ja", "ru"])
def test_the_machines_screen_speaks_the_language(code: str) -> None:
    out = machine_game(code)
    # the game's title is a name; the rule set's name is data
    left = english(out.replace("Jacks or Better 9/6", "").replace("standard", "").replace(ERROR, ""))
    assert left == [], (left, out)


def test_written_lines_in_each_language() -> None:
    ru, ja = dealer_game("ru", "q\n"), dealer_game("ja", "q\n")
    assert "Пятикарточный дро-покер против дилера (правила standard, зерно 5). Стеки: Вы 1 000" in ru
    assert "ディーラーと対戦するファイブカードドロー(standardルール、シード5)。" in ja
    assert "После 0 раундов: Вы 1 000, Компьютер 1 1 000, Компьютер 2 1 000." in ru


def test_english_is_the_default() -> None:
    assert dealer_game(None) == dealer_game("en")
    assert machine_game(None) == machine_game("en")
