"""fivecard deal --names: the players called by name in every output."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest

from fivecard import FivecardError
from fivecard.cli import main
from fivecard.core.evaluate import evaluate
from fivecard.core.showdown import name_hands
from fivecard.play.deal import check_names

NAMES = ["Ann", "Bob Lee", "Cy", "Дмитрий"]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _deals(rules: str, rounds: int, *more: str) -> tuple[str, str]:
    """The same deal numbered and named (four players, seed 5)."""
    argv = ["deal", "--rules", rules, "--seed", "5", "--rounds", str(rounds), *more]
    numbered, named = run([*argv, "--players", "4"]), run([*argv, "--names", ",".join(NAMES)])
    assert numbered[0] == named[0] == 0 and numbered[2] == named[2] == ""
    return numbered[1], named[1]


@pytest.mark.parametrize("rules", ["standard", "joker", "semi", "short-deck"])
@pytest.mark.parametrize("rounds", [1, 6])
def test_the_text_names_every_hand_its_explanations_and_tally(rules: str, rounds: int) -> None:
    numbered, named = _deals(rules, rounds, "--color", "never")
    width = max(map(len, NAMES)) + 2
    expected = []
    for line in numbered.splitlines():
        hand = re.match(r"(\s*)Hand (\d+): (.*)", line)
        if hand and not hand.group(1):  # a hand: its name, padded so that the cards line up
            expected.append(f"{NAMES[int(hand.group(2)) - 1]}: ".ljust(width) + hand.group(3))
        elif hand:  # a tally line
            expected.append(f"{hand.group(1)}{NAMES[int(hand.group(2)) - 1]}: {hand.group(3)}")
        else:
            expected.append(name_hands(line, NAMES))
    assert named.splitlines() == expected
    assert "Hand" not in named and "hand " not in named


@pytest.mark.parametrize("rules", ["standard", "joker", "semi"])
def test_the_json_adds_the_names_and_names_the_explanations(rules: str) -> None:
    numbered, named = (json.loads(text) for text in _deals(rules, 6, "--json"))
    assert named["names"] == NAMES and named["players"] == 4
    for plain, called in zip(numbered["rounds"], named["rounds"]):
        assert [h.pop("player") for h in called["hands"]] == NAMES
        assert list(called["hands"][0]) == list(plain["hands"][0])  # "player" came first
        assert called["explanation"] == name_hands(plain["explanation"], NAMES)
        called["explanation"] = plain["explanation"]
        assert called == plain
    assert [t.pop("name") for t in named["tally"]] == NAMES and named["tally"] == numbered["tally"]
    del named["names"]
    assert named.keys() == numbered.keys()


def test_the_json_without_names_has_no_name_fields() -> None:
    data = json.loads(run(["deal", "--json", "--seed", "1", "--rounds", "2"])[1])
    assert "names" not in data and all("player" not in h for r in data["rounds"] for h in r["hands"])
    assert all("name" not in t for t in data["tally"])


def test_the_names_set_the_players_or_agree_with_them() -> None:
    code, out, _ = run(["deal", "--names", "Ann,Bob,Cy", "--seed", "1"])
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()[:3]] == ["Ann", "Bob", "Cy"]
    assert run(["deal", "--names", "Ann,Bob,Cy", "--players", "3", "--seed", "1"])[1] == out
    for players in ("2", "4", "0"):
        code, out, err = run(["deal", "--names", "Ann,Bob,Cy", "--players", players])
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert f"3 names for --players {players}" in err


@pytest.mark.parametrize(
    ("names", "said"),
    [
        ("Ann,,Cy", "name 2 is empty"),
        ("Ann, ,Cy", "name 2 is empty"),
        ("Ann,Bob,", "name 3 is empty"),
        ("Ann,ANN", "name 2, 'ANN', is name 1 ('Ann') again"),
        ("Ann,\uff21nn", "name 2, 'Ann', is name 1 ('Ann') again"),  # a full-width A: one name
        ("Ann," + "x" * 41, "name 2, '" + "x" * 41 + "': a name is at most 40 characters, got 41"),
        ("Ann,B\x07b", "name 2, 'B\\x07b': a name cannot hold U+0007"),
        ("Ann,Bob\u202e", "name 2, 'Bob\\u202e': a name cannot hold U+202E"),
        ("Hand 2,Ann", "name 1, 'Hand 2': 'Hand 2' is a word the table uses for a role"),
        ("\u0410nn,Bob", "name 1, '\u0410nn': '\u0410nn' mixes Cyrillic and Latin letters"),
        (",".join("ABCDEFGHIJK"), "11 names: players must be from 1 to 10"),
    ],
)
def test_a_bad_name_is_one_line_quoting_it(names: str, said: str) -> None:
    code, out, err = run(["deal", "--names", names])
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"argument --names: {said}" in err
    with pytest.raises(FivecardError, match=re.escape(said)):
        check_names(names.split(","))


#: Names that would make a line of the output pass for another's: a colon
#: ends a name where it is shown, a semicolon parts two players' counts
#: (and the characters drawn as them); a result's word as a name's last
#: word reads as that name's result.
SPOOFS = [
    "Bob wins: Royal Flush beats", "Ann: A♠ K♠", "Bob\uff1a x", "Bob \u2236 x", "Bob\ua789x", "Bob \ufe55",
    "Bob wins", "Bob — wins", "Bob - splits", "Bob-wins", "Bob WINS!", "Bob w\u0456ns", "Ann and Bob split",
    "Hands 2", "Players 3", "Ann; Bob", "Ann\uff1b Bob", "Ann \u037e Bob",
]


@pytest.mark.parametrize("spoof", SPOOFS)
def test_no_name_can_pass_for_another_players_line_or_result(spoof: str) -> None:
    """``deal --names "Bob wins: Royal Flush beats,Bob" --chat`` printed
    ``Bob wins: Royal Flush beats wins: both High Card; ...`` for the first
    player's win, and ``Bob — wins: A♦ ...`` as that player's line: both
    read as Bob's. A name holds no colon and does not end in a result's
    word (one line, exit 2, quoting it); a name that merely holds one is
    kept."""
    code, out, err = run(["deal", "--names", f"{spoof},Cy", "--chat", "--seed", "1"])
    assert (code, out) == (2, "") and err.count("\n") == 1 and "argument --names: name 1" in err
    with pytest.raises(FivecardError):
        check_names([spoof, "Cy"])
    for fine in ("Edwin", "Wins", "Winston Lee", "Ann Lee-Split Jr", "Ne Win", "Ji Won", "Quick Draw"):
        assert check_names([fine, "Cy"]) == (fine, "Cy")


def test_the_rule_sets_deck_bounds_the_names() -> None:
    code, _, err = run(["deal", "--rules", "short-deck", "--names", ",".join("ABCDEFGH")])
    assert code == 2 and "8 names: players must be from 1 to 7 under the short-deck rules" in err


def _chat_from_json(data: dict[str, Any], ascii: bool = False) -> list[str]:
    """What --chat should print, made from the same deal's JSON (``ascii``:
    to an output without the suit symbols)."""
    dash = " - " if ascii else " — "
    several = len(data["rounds"]) > 1
    labels = data.get("names") or [f"Hand {i + 1}" for i in range(data["players"])]
    lines: list[str] = []
    for played in data["rounds"]:
        lines += [f"Round {played['round']}"] if several else []
        winners = played["winners"] or []
        for number, (label, hand) in enumerate(zip(labels, played["hands"]), 1):
            best_first = evaluate(" ".join(hand["cards"]), rules=data["rules"]).showdown
            cards = " ".join(c.code_str if ascii else str(c) for c in best_first)
            won = "" if number not in winners else f"{dash}splits" if len(winners) > 1 else f"{dash}wins"
            lines.append(f"{label}: {cards}{dash}{hand['description']}{won}")
        lines += [played["explanation"]] if played["explanation"] else []
        lines += [""] if several else []
    if several:
        lines.append(
            f"Tally after {len(data['rounds'])} rounds: "
            + "; ".join(
                f"{label}: {t['wins']} win{'' if t['wins'] == 1 else 's'}, {t['splits']} split{'' if t['splits'] == 1 else 's'}"
                for label, t in zip(labels, data["tally"])
            )
        )
    return lines


@pytest.mark.parametrize("rules", ["standard", "joker", "semi", "short-deck", "deuces-wild", "ace-to-five"])
@pytest.mark.parametrize("players", [["--players", "1"], ["--players", "3"], ["--names", ",".join(NAMES)]])
@pytest.mark.parametrize("rounds", ["1", "12"])
def test_chat_is_a_line_per_hand_then_the_explanation_as_plain_text(rules: str, players: list[str], rounds: str) -> None:
    argv = ["deal", "--rules", rules, "--seed", "11", "--rounds", rounds, *players]
    code, out, err = run([*argv, "--chat"])
    assert code == 0 and err == "fivecard: seed 11: --seed 11 deals the same again\n"
    assert out.splitlines() == _chat_from_json(json.loads(run([*argv, "--json"])[1]))
    # Plain text that survives a chat: no colour or other control character, nothing aligned by spaces.
    assert all(c.isprintable() for c in out.replace("\n", "")) and "  " not in out and "seed" not in out


@pytest.mark.parametrize("rules", ["standard", "joker", "semi"])
def test_chat_to_an_output_without_suit_symbols_is_ascii(rules: str) -> None:
    argv = ["deal", "--rules", rules, "--seed", "4", "--rounds", "9", "--players", "5"]
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert main([*argv, "--chat"], stdin=io.StringIO(""), stdout=out, stderr=io.StringIO()) == 0
    out.seek(0)
    text = out.read()
    assert text.isascii() and text.splitlines() == _chat_from_json(json.loads(run([*argv, "--json"])[1]), ascii=True)


@pytest.mark.parametrize("other", [["--json"], ["--color", "never"], ["--color", "always"]])
def test_chat_takes_no_other_output(other: list[str]) -> None:
    code, out, err = run(["deal", "--chat", *other])
    assert (code, out) == (2, "") and err.count("\n") == 1 and "--chat" in err
