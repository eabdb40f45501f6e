"""The draw game: the engine through complete seeded games, and `fivecard
play` with piped input."""

from __future__ import annotations

import io
import json

import pytest

from fivecard import parse_cards
from fivecard.cli import main
from fivecard.game import DealerCard, Exchanged, Folded, Game, GameError, RoundSettled, split_pot
from fivecard.play import parse_keep

TOTAL = 3_000


def books(game: Game) -> int:
    """Chips are neither made nor lost: stacks + pot + bets in play - house."""
    in_play = 0
    if game.current is not None:
        in_play = 10 * sum(1 for s in game.current.hands if s not in game.current.folded)
    return sum(game.stacks) + game.pot + in_play + game.house


def play_round(game: Game, human: str) -> RoundSettled:
    game.start_round()
    assert books(game) == TOTAL
    while game.phase == "draw":
        if game.turn == 0:
            if human == "fold":
                assert isinstance(game.fold(0), Folded)
            elif human == "all":
                event = game.exchange(0, [0, 1, 2, 3, 4])
                assert isinstance(event, Exchanged) and not event.drawn
            else:
                event = game.exchange(0, [])
                assert isinstance(event, Exchanged) and len(event.drawn) == 5
        else:
            game.computer_acts()
        assert books(game) == TOTAL
    reveals = []
    while game.can_reveal():
        reveals.append(game.reveal_dealer_card())
    assert [r.position for r in reveals] == [1, 2, 3, 4, 5]
    assert all(isinstance(r, DealerCard) for r in reveals)
    settled = game.settle()
    assert books(game) == TOTAL
    return settled


def test_complete_seeded_game_through_the_engine() -> None:
    game = Game(seed=2026)
    first = play_round(game, "fold")
    assert first.results[0].against_dealer == "fold" and first.results[0].house == -10
    second = play_round(game, "all")
    third = play_round(game, "none")
    for settled in (first, second, third):
        assert "dealer" in " ".join(r.explanation for r in settled.results)
        assert settled.pot_explanation
    again = Game(seed=2026)
    assert play_round(again, "fold").dealer.hand == first.dealer.hand  # reproducible


def test_actions_are_validated() -> None:
    game = Game(seed=1)
    assert game.phase == "idle" and not game.can_reveal() and not game.can_settle()
    with pytest.raises(GameError, match="no seat is to act"):
        game.fold(0)
    game.start_round()
    assert not game.can_start()
    with pytest.raises(GameError, match="still in play"):
        game.verify_start()
    assert game.turn == 0 and not game.can_fold(1)
    with pytest.raises(GameError, match="it is You's turn"):
        game.verify_fold(1)
    with pytest.raises(GameError, match="positions are 1-5"):
        game.exchange(0, [5])
    with pytest.raises(GameError, match="twice"):
        game.exchange(0, [1, 1])
    with pytest.raises(GameError, match="after the draw"):
        game.reveal_dealer_card()
    assert not game.can_computer_act()
    with pytest.raises(GameError, match="no computer player"):
        game.computer_acts()
    game.exchange(0, [0, 1, 2, 3, 4])
    assert game.can_computer_act() and game.turn == 1
    with pytest.raises(GameError, match="after the dealer"):
        game.settle()


SPLIT_DECK = (
    "9S 8D 7C 6H 5S "  # You: a 9-high straight
    "9H 8C 7D 6S 5H "  # Computer 1: the same straight
    "2C 3D 7S JH KC "  # Computer 2: nothing
    "2D 3C 4H 4S JD 2S 3S QD QH AS AD KD"  # draws, then the dealer
)


def test_split_pot_with_a_stacked_deck() -> None:
    game = Game(seed=5, stacked=[parse_cards(SPLIT_DECK)])
    settled = play_round(game, "all")
    assert settled.pot_winners == (0, 1)
    assert [r.pot for r in settled.results[:2]] == [15, 15]
    assert settled.pot_explanation.startswith("You and Computer 1 split the pot of 30 (15, 15)")


def test_split_pot_odd_chips_go_to_the_earliest_seat() -> None:
    assert split_pot(50, [1, 2, 0]) == {0: 17, 1: 17, 2: 16}
    assert split_pot(30, [2, 1]) == {1: 15, 2: 15}


def test_carried_pot_when_everyone_folds() -> None:
    game = Game(seed=9, fold_below=1.01)  # the computers always fold
    settled = play_round(game, "fold")
    assert settled.pot_winners == () and settled.carried == 30
    assert "carries" in settled.pot_explanation
    started = game.start_round()
    assert started.carried == 30 and started.pot == 60


def test_a_seat_that_cannot_pay_sits_out() -> None:
    game = Game(seed=3)
    game.stacks[2] = 15
    started = game.start_round()
    assert started.seats == (0, 1)
    game.stacks[0] = 0
    game.current = None
    assert not game.can_start()


def test_parse_keep() -> None:
    assert parse_keep(" 5,1 ") == [4, 0]
    assert parse_keep("h") == "h" and parse_keep("FOLD") == "f" and parse_keep("quit") == "q"
    assert parse_keep("6") is None and parse_keep("1 1") is None and parse_keep("") is None


def run(argv: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_play_piped_complete_game_with_bad_input() -> None:
    answers = "x\n9\n1 1\nh\n1 2\n\na\n\nn\n\nf\nq\n"
    code, out, err = run(["play", "--seed", "11"], answers)
    assert code == 0 and err == ""
    assert "Sorry, 'x' is not an answer." in out
    assert "Sorry, '9' is not an answer." in out
    assert "Sorry, '1 1' is not an answer." in out
    assert "Hint: Keep" in out
    assert "You keep all five cards." in out
    assert "You fold: your ante and your house bet are lost." in out
    assert "Round 4:" in out and "After 4 rounds:" in out
    assert out.count("Dealer:") == 4
    again = run(["play", "--seed", "11"], answers)[1]
    assert again == out  # reproducible


def test_play_split_and_carried_pots_through_the_command() -> None:
    code, out, _ = run(["play", "--seed", "1", "--deck", SPLIT_DECK], "a\nq\n")
    assert "You and Computer 1 split the pot of 30 (15, 15)" in out
    code, out, _ = run(["play", "--seed", "1", "--fold-below", "1.01"], "f\n\nq\n")
    assert "the pot of 30 carries to the next round" in out
    assert "pot 60 (30 carried)" in out


def test_play_ends_at_end_of_input() -> None:
    code, out, _ = run(["play", "--seed", "2"], "")
    assert code == 0 and "After 1 round:" in out


def test_play_rule_sets() -> None:
    for rules in ("joker", "semi", "ace-king"):
        code, out, _ = run(["play", "--seed", "4", "--rules", rules], "a\nq\n")
        assert code == 0 and f"({rules} rules" in out and "Dealer has" in out


def test_advise_command() -> None:
    code, out, _ = run(["advise", "AS AH 7C 4D 2S"], "")
    assert code == 0 and "Recommended (*): Keep A♠ A♥, exchange 3" in out
    assert "(exact: 2,598,960 draws and 1,533,939 dealer hands enumerated)" in out
    code, out, _ = run(["advise", "--json", "--paytable", "jacks-or-better", "AS KS QS JS 2D"], "")
    data = json.loads(out)
    assert data["paytable"] == "Jacks or Better 9/6" and data["recommended"] == 0
    assert data["choices"][0]["keep"] == ["As", "Ks", "Qs", "Js"]
    assert set(data["choices"][0]) == {"keep", "discard", "ev", "categories"}
    code, out, _ = run(["advise", "--json", "JK 7H 7D 7S 2C", "--rules", "joker"], "")
    first = json.loads(out)["choices"][0]
    assert set(first) == {"keep", "discard", "win", "draw", "lose", "categories"}
    assert abs(first["win"] + first["draw"] + first["lose"] - 1) < 1e-9
    code, _, err = run(["advise", "AS AH 7C 4D"], "")
    assert code == 2 and "expected 5 cards" in err
    code, _, err = run(["advise", "--paytable", "nope", "AS AH 7C 4D 2S"], "")
    assert code == 2 and "unknown pay table" in err
